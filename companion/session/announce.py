"""What an answer made happen, said on the screen until the next press: the game's new log lines, whole.

Lines are said whole, the newest first: what does not fit gives way (the Game log has it, and the announcement's
last line says so) rather than being cut. A roll summary ("Ana: d12 → 4") goes before them when there is room
and no line already says that roll ("roll-off 1: Ana rolls 4").
"""
from __future__ import annotations

import re
from typing import Sequence

from companion.ui.draw import wrap
from companion.ui.widgets import ANNOUNCE_LINES, TOAST_W


def _rows(parts: Sequence[str]) -> int:
    return len(wrap(". ".join(parts), TOAST_W))


def roll_said(notes: Sequence[str], who: str, values: Sequence[int]) -> bool:
    """A line already names ``who`` and every value rolled: the summary would say it twice."""
    return any(who in n and all(re.search(rf"(?<![\d.]){v}(?![\d.])", n) for v in values) for n in notes)


def compose(notes: Sequence[str], roll: str | None = None, lines: int = ANNOUNCE_LINES) -> tuple[str, bool]:
    """The announcement's text for ``notes`` (oldest first) in up to ``lines`` lines, and whether notes were left
    out. Notes are taken whole, newest first, while they fit (one longer than the screen gives way to the others);
    only a single note longer than the screen is cut."""
    picked: list[int] = []
    for i in range(len(notes) - 1, -1, -1):
        room = lines - (1 if len(picked) + 1 < len(notes) else 0)  # with notes left out, the last line says "More"
        if _rows([notes[j] for j in sorted([i, *picked])]) <= room:
            picked.append(i)
    chosen = [notes[j] for j in sorted(picked)] or [notes[-1]]
    left_out = len(chosen) < len(notes)
    if roll and _rows([roll, *chosen]) <= lines - left_out:
        chosen.insert(0, roll)
    return ". ".join(chosen), left_out


__all__ = ["compose", "roll_said"]
