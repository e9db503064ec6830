"""Drive the roller firmware from a test, in MicroPython's own interpreter or in CPython, the same way.

:class:`Firmware` starts run.py (the firmware live on a pty: press its button, pull its cable, lose an ACK);
:func:`run_script` runs a Python script against the imported firmware and returns what it printed;
:data:`INTERPRETERS` parametrises a test over both (MicroPython's half skips, with one line, where Node.js or the
npm package is missing).
"""
from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from fw_shim.utime import NEAR_WRAP  # where the ticks start unless a test says: 2 s before they wrap

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIRMWARE = ROOT / "firmware_docs" / "roller" / "main.py"
MPY = HERE / "mpy"


def micropython_missing() -> str | None:
    """Why MicroPython's interpreter cannot run here, in one line; None when it can."""
    if shutil.which("node") is None:
        return "MicroPython's interpreter needs Node.js (apt install nodejs npm), not found"
    if not (MPY / "node_modules" / "@micropython" / "micropython-webassembly-pyscript").is_dir():
        return "MicroPython's interpreter is not installed: npm ci --prefix tests/fw_shim/mpy (make test does it)"
    return None


INTERPRETERS = [pytest.param("micropython", marks=pytest.mark.skipif(micropython_missing() is not None,
                                                                   reason=str(micropython_missing()))),
                "cpython"]


def run_script(interpreter: str, script: str, *, ticks_start: int = NEAR_WRAP, seed: int = 35,
               firmware: Path = FIRMWARE) -> list[Any]:
    """Run ``script`` with the firmware imported as ``main``; each line it prints, read as JSON.

    The ticks stand still but for the script's ``time.advance(ms)``, and os.urandom is seeded: a script's output is
    a function of the firmware alone, the same in both interpreters.
    """
    cmd = ["node", str(MPY / "run_script.mjs")] if interpreter == "micropython" else [
        sys.executable, str(HERE / "run_script.py")]
    out = subprocess.run([*cmd, str(firmware), "--ticks-start", str(ticks_start), "--seed", str(seed),
                          "--still"],
                         input=script, capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise AssertionError(f"{interpreter} stopped the script:\n{out.stderr}")
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


class Firmware:
    """The firmware live in a subprocess (run.py); its USB serial is a pty symlinked at ``link``.

    ``halts`` collects the runner's ``halted WHY`` lines: the firmware stopped (an exception, or safe mode).
    """

    def __init__(self, link: Path, interpreter: str = "cpython", *options: str, firmware: Path = FIRMWARE) -> None:
        self.link = link
        self.interpreter = interpreter
        self.options = options
        self.firmware = firmware
        self.proc: subprocess.Popen[str] | None = None
        self.halts: list[str] = []
        self._lines: queue.Queue[str] = queue.Queue()

    def start(self, timeout: float = 10.0) -> "Firmware":
        self.proc = subprocess.Popen([sys.executable, str(HERE / "run.py"), self.interpreter, str(self.firmware),
                                      str(self.link), *self.options],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        threading.Thread(target=self._pump, daemon=True).start()
        first = self._lines.get(timeout=timeout)
        if first != "ready":
            raise RuntimeError(f"firmware runner said {first!r}")
        return self

    def _pump(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("halted "):
                self.halts.append(line.strip())
            else:
                self._lines.put(line.strip())

    def command(self, line: str, timeout: float = 5.0) -> str:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self._lines.get(timeout=timeout)

    def tap(self, ms: int = 80, *, fast: bool = False) -> None:
        """Press and release the button, as the firmware's own steps see it: held ``ms`` of its ticks (``fast``: its
        clock jumps over the hold once it has debounced the press)."""
        reply = self.command(f"tap {ms}" + " fast" * fast, timeout=15 + ms / 1000)  # (run.py: 10 s without a step)
        if reply != "ok tap":
            raise AssertionError(f"firmware runner: {reply}")

    def unplug(self) -> None:
        self.command("unplug")

    def replug(self) -> None:
        self.command("replug")

    def corrupt_next_roll(self) -> None:
        self.command("corrupt")

    def leds(self) -> int:
        return int(self.command("leds").split()[1])

    def stop(self) -> None:
        if self.proc is None:
            return
        try:
            if self.proc.poll() is None and self.proc.stdin is not None:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
            self.proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait(5)
        finally:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            if self.proc.stdout is not None:
                self.proc.stdout.close()

    def __enter__(self) -> "Firmware":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
