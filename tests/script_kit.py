"""Run a `companion play` script (tests/scripts/*.txt) through a session as `companion play` does, keeping every
toast the table would have seen: a refusal at the table is one of them."""
from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from companion.games import load
from companion.session.headless import parse_script
from companion.session import Session

SCRIPTS = Path(__file__).parent / "scripts"
NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def header(path: Path) -> dict[str, Any]:
    """The script's ``#: key = value`` lines (TOML): ``game``, ``refuses`` (the expected line), ``options``."""
    text = "\n".join(line[2:].strip() for line in path.read_text().splitlines() if line.startswith("#:"))
    return tomllib.loads(text)


def run_script(path: Path, seed: int = 5) -> tuple[Session, list[str]]:
    """The session at the end, and every line the table saw in passing: toasts (refusals among them) and the
    context lines of every screen (warnings, results)."""
    head = header(path)
    cls = load(head["game"])
    session = Session(cls, seed=seed, presets=NAMES, options=dict(head.get("options", {})))
    seen: list[str] = []
    for ln in parse_script(path.read_text(), path.name):
        if ln.event is None:
            continue
        session.handle(ln.event)
        if session.toast:
            seen.append(session.toast)
        p = session.prompt()
        seen.extend(getattr(p, "lines", ()))
    return session, seen


class FakeTime:
    """``companion play``'s clock and a ``wait`` line's sleep (``play(..., clock=f.clock, sleep=f.sleep)``): a wait
    moves the time on at once, so a flag falls and checkpoints come as they would (a real-time flag fall stays in
    test_chess_game's `companion play` process)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        assert seconds >= 0
        self.now += seconds
