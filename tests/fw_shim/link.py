"""The roller's USB cable in the tests: a pty whose slave is symlinked where the host reader looks for the roller.

:class:`UsbLink` is the device end. Besides carrying bytes it can fail as a real link does: it can be unplugged
and plugged back (the pty vanishes and comes back at the same path), corrupt the next ROLL line's CRC on its way to
the host, and lose the host's next ACK on its way to the firmware.
"""
from __future__ import annotations

import ast
import os
import re
import threading
import tty
from typing import Any

#: an ACK frame from the host, as the firmware would read it
ACK = re.compile(rb"\$ACK,[0-9]+\*[0-9A-Fa-f]{4}\r?\n")


def constants(path: str) -> dict[str, Any]:
    """The module-level literal constants of the firmware (BUTTON_PIN, LED_PIN, ...)."""
    out: dict[str, Any] = {}
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
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
        self.corrupt_rolls = 0  #: ROLL lines still to send with a wrong CRC
        self.drop_acks = 0  #: ACKs from the host still to lose

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

    def host_bytes(self, data: bytes) -> bytes:
        """What of ``data``, read from the host, reaches the firmware (less an ACK the test has it lose)."""
        while self.drop_acks and ACK.search(data):
            data = ACK.sub(b"", data, count=1)
            self.drop_acks -= 1
        return data

    def write(self, data: bytes) -> int:
        with self._lock:
            if self._slave is None:
                return len(data)  # nobody listening: USB CDC drops it
            wire = data
            if self.corrupt_rolls and b"$ROLL" in data:  # (one write may carry several frames)
                lines = data.splitlines(keepends=True)
                for i, line in enumerate(lines):
                    if self.corrupt_rolls and line.startswith(b"$ROLL") and line.endswith(b"\n"):
                        self.corrupt_rolls -= 1
                        lines[i] = line[:-2] + (b"0" if line[-2:-1] != b"0" else b"1") + b"\n"
                wire = b"".join(lines)
            try:
                os.write(self.fd, wire)
            except OSError:
                pass
        return len(data)

    def fileno(self) -> int:
        return self.fd
