"""Idle behaviour of the screen: the glance view, dimming, blanking, and the pixel shift that spares the OLED.

The App asks :meth:`Idle.deadline` for the next moment something changes (one entry in its deadlines list) and
calls :meth:`Idle.tick` then. A press while the screen is not showing the working screen (glance, dimmed, blank)
only wakes it: :meth:`Idle.wake` says so and the App drops the press before the journal.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from enum import Enum
from typing import Callable

from PIL import Image

from companion.config.load import ScreenConfig

#: the pixel shift cycles through these offsets (never more than one pixel from home)
SHIFTS = ((0, 0), (1, 0), (1, 1), (0, 1))


class Level(Enum):
    AWAKE = "awake"  #: the working screen
    GLANCE = "glance"  #: whose turn it is, in large type
    DIM = "dim"  #: the same, at low contrast
    BLANK = "blank"  #: nothing lit


@dataclass
class Idle:
    cfg: ScreenConfig
    clock: Callable[[], float]
    last_input: float = 0.0
    level: Level = Level.AWAKE
    started: float = 0.0

    def __post_init__(self) -> None:
        self.last_input = self.started = self.clock()

    def _after(self, seconds: float) -> float | None:
        return self.last_input + seconds if seconds > 0 else None

    def wake(self) -> bool:
        """An input came. True when it only woke the screen (a press then does nothing else)."""
        was = self.level
        self.last_input = self.clock()
        self.level = Level.AWAKE
        return was is not Level.AWAKE

    def tick(self, can_glance: bool) -> bool:
        """Move to the level the idle time calls for; True when the screen must be redrawn."""
        now = self.clock()
        idle = now - self.last_input
        level = Level.AWAKE
        if self.cfg.glance_seconds > 0 and idle >= self.cfg.glance_seconds and can_glance:
            level = Level.GLANCE
        if self.cfg.dim_minutes > 0 and idle >= self.cfg.dim_minutes * 60:
            level = Level.DIM
        if self.cfg.blank_minutes > 0 and idle >= self.cfg.blank_minutes * 60:
            level = Level.BLANK
        changed = level is not self.level
        self.level = level
        return changed

    def deadline(self, can_glance: bool) -> float | None:
        """The next moment the screen changes by itself: a level change or the next pixel shift."""
        marks = []
        if self.level is Level.AWAKE and can_glance and self.cfg.glance_seconds > 0:
            marks.append(self._after(self.cfg.glance_seconds))
        if self.level in (Level.AWAKE, Level.GLANCE):
            marks.append(self._after(self.cfg.dim_minutes * 60))
        if self.level is not Level.BLANK:
            marks.append(self._after(self.cfg.blank_minutes * 60))
            if self.cfg.shift_minutes > 0:
                period = self.cfg.shift_minutes * 60
                marks.append(self.started + (math.floor((self.clock() - self.started) / period) + 1) * period)
        due = [m for m in marks if m is not None]
        return min(due) if due else None

    def offset(self) -> tuple[int, int]:
        if self.cfg.shift_minutes <= 0:
            return (0, 0)
        step = int((self.clock() - self.started) // (self.cfg.shift_minutes * 60))
        return SHIFTS[step % len(SHIFTS)]

    def contrast(self, normal: int) -> int:
        return max(1, normal // 8) if self.level is Level.DIM else normal


def shifted(frame: Image.Image, offset: tuple[int, int]) -> Image.Image:
    """The frame moved by ``offset`` pixels (what moves past the edge is dropped: the edges hold no text)."""
    if offset == (0, 0):
        return frame
    out = Image.new(frame.mode, frame.size, 0)
    out.paste(frame, offset)
    return out


__all__ = ["Idle", "Level", "SHIFTS", "shifted"]
