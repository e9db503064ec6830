"""Run the roller firmware on the host: ``python run.py FIRMWARE LINK``.

The firmware's USB serial becomes a pty whose slave is symlinked at LINK (the host reader opens LINK). The
firmware's ``import machine``/``micropython`` find the shims in this folder, and its ``import time`` gets
:mod:`utime` (MicroPython's tick functions). The firmware file runs as ``__main__``, unchanged.

Control lines on the real stdin, each answered ``ok <command>`` on the real stdout:
``press``, ``release``, ``tap MS`` (press for MS milliseconds), ``unplug``, ``replug``, ``corrupt`` (the next
ROLL line goes out with a wrong CRC, once), ``leds`` (answers ``leds N``: LED blinks so far), ``quit``.
"""
from __future__ import annotations

import ast
import os
import runpy
import sys
import threading
import time
import tty
from typing import Any, TextIO

HERE = os.path.dirname(os.path.abspath(__file__))


def constants(path: str) -> dict[str, Any]:
    """The module-level literal constants of the firmware (BUTTON_PIN, LED_PIN, ...)."""
    out: dict[str, Any] = {}
    tree = ast.parse(open(path, encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return out


class UsbLink:
    """The device end of a USB serial cable: a pty master kept at one fd number across unplug/replug."""

    def __init__(self, link: str) -> None:
        self.link = link
        self._idle_r, self._idle_w = os.pipe()  # "no cable": an fd that is never readable
        self.fd = os.dup(self._idle_r)
        self._slave: int | None = None
        self._slave_path: str | None = None
        self._lock = threading.Lock()
        self.corrupt_rolls = 0

    def plug(self) -> None:
        with self._lock:
            if self._slave is not None:
                return
            master, slave = os.openpty()
            tty.setraw(slave)
            os.set_blocking(master, False)
            os.dup2(master, self.fd)
            os.close(master)
            self._slave, self._slave_path = slave, os.ttyname(slave)
            tmp = self.link + ".new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self._slave_path, tmp)
            os.replace(tmp, self.link)

    def unplug(self) -> None:
        with self._lock:
            if self._slave is None:
                return
            if os.path.islink(self.link) and os.readlink(self.link) == self._slave_path:
                os.unlink(self.link)
            os.dup2(self._idle_r, self.fd)  # closes the master: the host's reads fail, the pty vanishes
            os.close(self._slave)
            self._slave = self._slave_path = None

    def read(self, n: int = 1) -> bytes:
        try:
            return os.read(self.fd, n)
        except OSError:
            return b""

    def write(self, data: bytes) -> int:
        with self._lock:
            if self._slave is None:
                return len(data)  # nobody listening: USB CDC drops it
            if self.corrupt_rolls and data.startswith(b"$ROLL"):
                self.corrupt_rolls -= 1
                data = data[:-2] + (b"0" if data[-2:-1] != b"0" else b"1") + b"\n"
            try:
                os.write(self.fd, data)
            except OSError:
                pass
        return len(data)

    def fileno(self) -> int:
        return self.fd


class _Stdio:
    """What the firmware sees as sys.stdin / sys.stdout: ``.buffer`` reads and writes bytes on the link."""

    def __init__(self, link: UsbLink) -> None:
        self.buffer = link
        self._link = link

    def fileno(self) -> int:
        return self._link.fd

    def write(self, data: bytes | str) -> int:
        return self._link.write(data.encode() if isinstance(data, str) else data)

    def read(self, n: int = 1) -> bytes:
        return self._link.read(n)

    def flush(self) -> None:
        pass


def control(link: UsbLink, consts: dict[str, Any], ctl_in: TextIO, ctl_out: TextIO) -> None:
    import fw_board  # type: ignore[import-not-found]

    button = consts.get("BUTTON_PIN", 14)
    led = consts.get("LED_PIN", 15)

    def set_button(level: int) -> None:
        with fw_board.lock:
            fw_board.inputs[button] = level

    for line in ctl_in:
        words = line.split()
        if not words:
            continue
        cmd = words[0]
        reply = f"ok {cmd}"
        if cmd == "press":
            set_button(0)
        elif cmd == "release":
            set_button(1)
        elif cmd == "tap":
            set_button(0)
            time.sleep(int(words[1]) / 1000 if len(words) > 1 else 0.08)
            set_button(1)
        elif cmd == "unplug":
            link.unplug()
        elif cmd == "replug":
            link.plug()
        elif cmd == "corrupt":
            link.corrupt_rolls += 1
        elif cmd == "leds":
            with fw_board.lock:
                reply = f"leds {fw_board.rising_edges.get(led, 0)}"
        elif cmd == "quit":
            break
        else:
            reply = f"error unknown command {cmd}"
        ctl_out.write(reply + "\n")
        ctl_out.flush()
    link.unplug()
    os._exit(0)


def main() -> None:
    firmware, link_path = sys.argv[1], sys.argv[2]
    sys.path.insert(0, HERE)
    import utime  # type: ignore[import-not-found]

    consts = constants(firmware)
    link = UsbLink(link_path)
    link.plug()
    ctl_in = os.fdopen(os.dup(0), "r")
    ctl_out = os.fdopen(os.dup(1), "w")
    sys.stdin = _Stdio(link)  # type: ignore[assignment]
    sys.stdout = _Stdio(link)  # type: ignore[assignment]
    threading.Thread(target=control, args=(link, consts, ctl_in, ctl_out), daemon=True).start()
    ctl_out.write("ready\n")
    ctl_out.flush()
    sys.modules["time"] = utime  # the firmware's `import time` is MicroPython's
    try:
        runpy.run_path(firmware, run_name="__main__")
    finally:
        link.unplug()
    # main() returned (safe mode): behave like a board sitting at its REPL
    while True:
        utime.sleep(3600)


if __name__ == "__main__":
    main()
