"""`make pi-boot`'s reading of the emulated machine: its serial console (qemu writes it to a file), where the agent
inside (systemd/pi-boot-agent.sh) reports one ``PIBOOT word key=value …`` line at a time. Standard library only.

A console is not a clean channel: systemd writes its status lines there too, with escape codes (``ESC[K`` before a
line, colours), carriage returns and lines overwritten in place, so an agent's line may arrive behind any of them.
"""
from __future__ import annotations

import re
import shlex
import subprocess
import time
from pathlib import Path
from typing import Any

STEP_TIMEOUT_S = 600.0
TAG = "PIBOOT "
#: what a console puts around a line: CSI sequences (systemd's ESC[K, colours), other escapes, carriage returns
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-Z\\-_]|\r")


def fields(line: str) -> dict[str, str]:
    """``PIBOOT word k=v k=v``'s pairs."""
    return dict(w.split("=", 1) for w in line.split() if "=" in w)


def agent_lines(text: str) -> list[str]:
    """The agent's ``PIBOOT …`` lines in a serial log, whatever the console put before them or in them."""
    found = []
    for raw in text.split("\n"):
        line = _ESCAPES.sub("", raw)
        at = line.find(TAG)
        if at >= 0:
            found.append(line[at:].rstrip())
    return found


def check_failures(lines: list[str]) -> list[str]:
    """The parts `companion check` failed (``FAIL  roller   …``), from the agent's ``PIBOOT check| …`` lines."""
    failed = []
    for line in lines:
        if line.startswith(TAG + "check|"):
            words = line.split("|", 1)[1].split()
            if len(words) >= 2 and words[0] == "FAIL":
                failed.append(words[1])
    return failed


def check_holds(rc: str, failed: list[str]) -> bool:
    """`companion check` passes, or fails only on the roller: the emulated machine has no USB, so no roller (exit 1,
    as on a Pi without one plugged in); anything else failing is a failure."""
    return rc == "0" or (rc == "1" and failed == ["roller"])


class Machine:
    """One boot of the emulated Pi: qemu's serial console goes to a file, read for the agent's PIBOOT lines."""

    def __init__(self, template: str, work: Path, mode: str, n: int) -> None:
        self.log = work / f"serial-{n:02d}-{mode}.log"
        self.log.unlink(missing_ok=True)
        cmd = template.replace("serial-MODE.log", self.log.name).replace("piboot.mode=MODE", f"piboot.mode={mode}")
        self.t0 = time.monotonic()
        self.proc: Any = subprocess.Popen(shlex.split(cmd), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                          stderr=open(work / f"qemu-{n:02d}.err", "w"))
        self.seen = 0

    def lines(self) -> list[str]:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return []
        return agent_lines(text)

    def wait_for(self, word: str, timeout: float = STEP_TIMEOUT_S) -> str:
        """The next agent line starting ``PIBOOT word`` (lines before it are echoed when they carry output)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            lines = self.lines()
            while self.seen < len(lines):
                line = lines[self.seen]
                self.seen += 1
                words = line.split()
                if (len(words) > 1 and "|" in words[1]) or line.startswith(TAG + "error"):
                    print("  " + line[len(TAG):], flush=True)
                if line[len(TAG):].startswith(word):
                    return line
            if self.proc.poll() is not None:
                raise RuntimeError(f"the machine stopped before 'PIBOOT {word}' (see {self.log})")
            time.sleep(0.3)
        raise RuntimeError(f"no 'PIBOOT {word}' within {timeout:.0f} s (see {self.log})")

    def peek(self, word: str) -> bool:
        return any(ln[len(TAG):].startswith(word) for ln in self.lines()[self.seen:])

    def cut(self) -> None:
        """The plug pulled: SIGKILL, nothing flushed by the guest."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)

    def wait_off(self, timeout: float = 300.0) -> None:
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.cut()
            raise RuntimeError(f"the machine did not power off within {timeout:.0f} s") from None
