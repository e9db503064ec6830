"""Drive the firmware runner (run.py) from a test: start it, press its button, pull its cable."""
from __future__ import annotations

import queue
import subprocess
import sys
import threading
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIRMWARE = ROOT / "firmware_docs" / "roller" / "main.py"


class Firmware:
    """The reference firmware in a subprocess; its USB serial is a pty symlinked at ``link``."""

    def __init__(self, link: Path, firmware: Path = FIRMWARE) -> None:
        self.link = link
        self.firmware = firmware
        self.proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str] = queue.Queue()

    def start(self, timeout: float = 10.0) -> "Firmware":
        self.proc = subprocess.Popen([sys.executable, str(HERE / "run.py"), str(self.firmware), str(self.link)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        threading.Thread(target=self._pump, daemon=True).start()
        first = self._lines.get(timeout=timeout)
        if first != "ready":
            raise RuntimeError(f"firmware runner said {first!r}")
        return self

    def _pump(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line.strip())

    def command(self, line: str, timeout: float = 5.0) -> str:
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        return self._lines.get(timeout=timeout)

    def tap(self, ms: int = 80) -> None:
        self.command(f"tap {ms}")

    def press(self) -> None:
        self.command("press")

    def release(self) -> None:
        self.command("release")

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
