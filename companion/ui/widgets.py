"""Widgets: each takes keys, keeps its own cursor, and draws itself below the title bar.

``key()`` returns ``None`` (the cursor moved, or nothing happened), :class:`Done` with a value, :class:`Back`, or
:class:`Toast` with a one-line message. Widgets never touch the game: the session turns a ``Done`` into an answer.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from PIL import ImageDraw

from companion.events import Key
from companion.ui.draw import (BAR, HEIGHT, LIST_W, MARK_W, ROW, WIDTH, big_text, cover, draw_text, fit, scroll_marks, text_row, text_width,
                   wrap)


@dataclass(frozen=True)
class Done:
    value: Any


@dataclass(frozen=True)
class Back:
    pass


@dataclass(frozen=True)
class Toast:
    text: str


Outcome = Done | Back | Toast | None


@dataclass
class Item:
    key: str
    label: str
    enabled: bool = True
    hint: str = ""
    checked: bool | None = None  #: a checkbox state, for multi-select lists


def draw_lines(d: ImageDraw.ImageDraw, y: int, lines: Sequence[str], max_rows: int) -> int:
    """Context lines under the title bar; returns the next free y. When lines are left out, the last one shown
    ends in "…": the screen never drops a line without a mark."""
    shown = list(lines)[:max_rows]
    for i, line in enumerate(shown):
        cut = i == len(shown) - 1 and len(lines) > max_rows
        text_row(d, y, fit(line, WIDTH - 2, cut=True) if cut else line)
        y += ROW
    return y


def grey_out(d: ImageDraw.ImageDraw, y: int, inverse: bool, right: int = WIDTH - MARK_W) -> None:
    """Grey a row on a one-bit screen: a stipple turns a quarter of the text's pixels off."""
    bg = 1 if inverse else 0
    for yy in range(y + 1, min(HEIGHT, y + ROW), 2):  # every other row: still readable, plainly fainter
        for xx in range((yy >> 1) & 1, right, 2):
            d.point((xx, yy), fill=bg)


@dataclass
class ListWidget:
    """A scrolling menu. UP/DOWN move (wrapping), OK picks, BACK goes back if allowed."""

    items: list[Item]
    cursor: int = 0
    back_ok: bool = True
    top: int = 0
    #: rows on screen; the scroll follows the cursor as keys move it (not when drawn), so a game replayed after a
    #: restart, which is never drawn on the way, shows the list scrolled exactly as it was
    rows: int = (HEIGHT - BAR) // ROW

    def __post_init__(self) -> None:
        self.follow()

    def follow(self) -> None:
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + self.rows:
            self.top = self.cursor - self.rows + 1

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        n = len(self.items)
        if k is Key.UP and n:
            self.cursor = (self.cursor - 1) % n if not repeat else max(self.cursor - 1, 0)
            self.follow()
        elif k is Key.DOWN and n:
            self.cursor = (self.cursor + 1) % n if not repeat else min(self.cursor + 1, n - 1)
            self.follow()
        elif k is Key.OK and n:
            it = self.items[self.cursor]
            if not it.enabled:
                return Toast(it.hint or f"{it.label}: not now")
            return Done(it.key)
        elif k is Key.BACK and self.back_ok:
            return Back()
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int) -> None:
        rows = max(1, (HEIGHT - y0) // ROW)
        if rows != self.rows:  # laid out differently than announced: follow from here on
            self.rows = rows
        self.follow()
        for i, it in enumerate(self.items[self.top:self.top + rows]):
            idx = self.top + i
            y = y0 + i * ROW
            mark = "" if it.checked is None else ("[x] " if it.checked else "[ ] ")
            text_row(d, y, mark + it.label, inverse=idx == self.cursor, width=LIST_W)
            if not it.enabled:
                grey_out(d, y, idx == self.cursor, 2 + text_width(fit(mark + it.label, LIST_W)))
        scroll_marks(d, y0, y0 + rows * ROW, self.top > 0, self.top + rows < len(self.items))


@dataclass
class Spinner:
    """A number within bounds. UP/DOWN change it; held, it speeds up (×5 after ten repeats). OK takes it."""

    lo: int
    hi: int
    value: int
    step: int = 1
    unit: str = ""
    back_ok: bool = False
    _repeats: int = 0

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        if k in (Key.UP, Key.DOWN):
            self._repeats = self._repeats + 1 if repeat else 0
            mult = 5 if self._repeats >= 10 else 1
            delta = self.step * mult * (1 if k is Key.UP else -1)
            self.value = min(self.hi, max(self.lo, self.value + delta))
        elif k is Key.OK:
            return Done(self.value)
        elif k is Key.BACK and self.back_ok:
            return Back()
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int) -> None:
        room = HEIGHT - y0
        size = "large" if room >= 22 else "medium" if room >= 14 else "body"
        top = {"large": 3, "medium": 2, "body": 1}[size]  # blank rows above the capitals in each font
        tall = {"large": 19, "medium": 12, "body": 8}[size]
        text = f"{self.value}{(' ' + self.unit) if self.unit else ''}"
        if text_width(text, size) > WIDTH - 16 and size != "body":
            size, top, tall = "medium", 2, 12
        big_text(d, y0 + max(0, (room - tall) // 2) - top, text, size, width=WIDTH - 16)
        if self.value < self.hi:
            d.polygon([(WIDTH - 12, y0 + 8), (WIDTH - 4, y0 + 8), (WIDTH - 8, y0 + 2)], fill=1)
        if self.value > self.lo:
            d.polygon([(WIDTH - 12, HEIGHT - 10), (WIDTH - 4, HEIGHT - 10), (WIDTH - 8, HEIGHT - 4)], fill=1)


@dataclass
class ConfirmWidget:
    yes: str = "Yes"
    no: str = "No"
    value: bool = True
    back_ok: bool = False

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        if k in (Key.UP, Key.DOWN):
            self.value = not self.value
        elif k is Key.OK:
            return Done(self.value)
        elif k is Key.BACK:
            return Back() if self.back_ok else None
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int) -> None:
        y = max(y0, HEIGHT - ROW - 2)
        half = WIDTH // 2
        for i, (label, val) in enumerate(((self.yes, True), (self.no, False))):
            x0 = i * half
            if self.value == val:
                d.rectangle((x0 + 2, y, x0 + half - 3, y + ROW), fill=1)
            shown = fit(label, half - 8)
            w = text_width(shown)
            draw_text(d, x0 + (half - w) // 2, y + 1, shown, width=half - 8, fill=0 if self.value == val else 1)


@dataclass
class ButtonRow:
    """One or two buttons side by side on one row (the dice screen's "Type" and "Roll here"). UP/DOWN switch."""

    items: list[Item]
    cursor: int = 0

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        if k in (Key.UP, Key.DOWN) and self.items:
            self.cursor = (self.cursor + 1) % len(self.items)
        elif k is Key.OK and self.items:
            return Done(self.items[self.cursor].key)
        elif k is Key.BACK:
            return Back()
        return None

    def draw(self, d: ImageDraw.ImageDraw, y: int) -> None:
        n = max(1, len(self.items))
        cell = WIDTH // n
        for i, it in enumerate(self.items):
            x0 = i * cell
            shown = fit(it.label, cell - 6)
            w = text_width(shown)
            on = i == self.cursor
            d.rectangle((x0 + 1, y, x0 + cell - 2, y + ROW - 1), outline=1, fill=1 if on else 0)
            draw_text(d, x0 + (cell - w) // 2, y, shown, width=w, fill=0 if on else 1, height=ROW)


@dataclass
class MultiSelectWidget:
    """A list with checkboxes and a final "Done" row. OK toggles; OK on Done takes the selection."""

    items: list[Item]
    min_count: int = 0
    max_count: int | None = None
    inner: ListWidget = field(init=False)

    def __post_init__(self) -> None:
        for it in self.items:
            it.checked = bool(it.checked)
        self.inner = ListWidget(self.items + [Item("\x00done", "Done")], back_ok=False)

    def chosen(self) -> list[str]:
        return [it.key for it in self.items if it.checked]

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        out = self.inner.key(k, repeat)
        if not isinstance(out, Done):
            return out
        if out.value == "\x00done":
            n = len(self.chosen())
            if n < self.min_count:
                return Toast(f"pick at least {self.min_count}")
            if self.max_count is not None and n > self.max_count:
                return Toast(f"pick at most {self.max_count}")
            return Done(self.chosen())
        it = self.items[self.inner.cursor]
        if not it.checked and self.max_count is not None and len(self.chosen()) >= self.max_count:
            return Toast(f"at most {self.max_count}: untick one first")
        it.checked = not it.checked
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int) -> None:
        self.inner.draw(d, y0)


@dataclass
class TextView:
    """Scrolling read-only lines (the game log, a status page). UP/DOWN scroll; OK or BACK closes."""

    lines: list[str]
    top: int = -1  #: -1: start at the end (newest log lines)
    rows: int = 5

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        last = max(0, len(self.lines) - self.rows)
        if self.top < 0:
            self.top = last
        if k is Key.UP:
            self.top = max(0, self.top - 1)
        elif k is Key.DOWN:
            self.top = min(last, self.top + 1)
        elif k in (Key.OK, Key.BACK):
            return Back()
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int) -> None:
        self.rows = max(1, (HEIGHT - y0) // ROW)
        last = max(0, len(self.lines) - self.rows)
        if self.top < 0 or self.top > last:
            self.top = last
        for i, line in enumerate(self.lines[self.top:self.top + self.rows]):
            text_row(d, y0 + i * ROW, line, width=LIST_W)
        if not self.lines:
            text_row(d, y0, "(nothing yet)")
        scroll_marks(d, y0, y0 + self.rows * ROW, self.top > 0, self.top < last)


TOAST_W = WIDTH - 8  #: pixels of text in a toast's line
#: an announcement (a result, who starts) stays until the next press: it may take one line more than a toast,
#: still leaving the title bar and the first context line in view
ANNOUNCE_LINES = 4
ANNOUNCE_MORE = "More: hold OK, Game log"  #: the last line of an announcement too long for its box


def draw_toast(d: ImageDraw.ImageDraw, text: str, max_lines: int = 3, more: str = "") -> None:
    """A boxed message over the bottom of the frame, wrapped to up to ``max_lines`` lines (the last one ellipsised;
    with ``more``, a text that does not fit ends in that line instead, saying where the rest is)."""
    lines = wrap(text, TOAST_W)
    if len(lines) > max_lines:  # wrapped again only when it does not fit: a toast is drawn on every frame it shows
        lines = wrap(text, TOAST_W, max_lines - 1) + [more] if more else wrap(text, TOAST_W, max_lines)
    h = ROW * len(lines) + 3
    y = HEIGHT - h
    d.rectangle((0, y - 1, WIDTH - 1, HEIGHT - 1), fill=0)
    d.rectangle((1, y, WIDTH - 2, HEIGHT - 1), outline=1, fill=1)
    cover(0, y - 1, WIDTH, HEIGHT)
    for i, line in enumerate(lines):
        draw_text(d, 4, y + 2 + i * ROW, line, width=WIDTH - 8, fill=0, height=ROW)


__all__ = ["Done", "Back", "Toast", "Outcome", "Item", "ListWidget", "ButtonRow", "Spinner", "ConfirmWidget",
           "MultiSelectWidget", "TextView", "draw_lines", "draw_toast", "BAR", "TOAST_W", "ANNOUNCE_LINES",
           "ANNOUNCE_MORE"]
