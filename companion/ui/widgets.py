"""Widgets: each takes keys, keeps its own cursor, and draws itself below the title bar.

``key()`` returns ``None`` (the cursor moved, or nothing happened), :class:`Done` with a value, :class:`Back`, or
:class:`Toast` with a one-line message. Widgets never touch the game: the session turns a ``Done`` into an answer.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from PIL import Image, ImageDraw

from companion.events import Key
from companion.ui.draw import (BAR, HEIGHT, LIST_W, ROW, WIDTH, big_text, cover, draw_text, fit, focus, line_starts,
                               scroll_marks, text_row, text_width, wrap)


@dataclass(frozen=True)
class Done:
    value: Any


@dataclass(frozen=True)
class Back:
    pass


@dataclass(frozen=True)
class Toast:
    text: str
    #: the press was refused (a greyed entry, a count out of range): scripts report it; False for a reply that only
    #: says what moves on (UP/DOWN with nothing to move)
    refusal: bool = True


Outcome = Done | Back | Toast | None


@dataclass
class Item:
    key: str
    label: str
    enabled: bool = True
    hint: str = ""
    checked: bool | None = None  #: a checkbox state, for multi-select lists


def draw_lines(d: ImageDraw.ImageDraw, y: int, lines: Sequence[str], max_rows: int,
               starts: Sequence[int] = ()) -> int:
    """Context lines under the title bar; returns the next free y. When lines are left out, the last one shown
    ends in "…": the screen never drops a line without a mark. ``starts``: the rows where a line of the question
    begins (:func:`draw.line_starts`)."""
    shown = list(lines)[:max_rows]
    if starts:
        line_starts(d, y, starts, 0, len(shown))
    for i, line in enumerate(shown):
        cut = i == len(shown) - 1 and len(lines) > max_rows
        text_row(d, y, fit(line, WIDTH - 2, cut=True) if cut else line)
        y += ROW
    return y


def strike(d: ImageDraw.ImageDraw, y: int, left: int, right: int, fill: int = 1) -> None:
    """Mark a row as not available now: a dotted line at mid-height, every other pixel, through its text and on to
    the row's end, so every letter stays whole and readable at one bit per pixel (a stipple over the letters made
    "Redo" read "Kejc"), on the highlighted row too (``fill`` 0: dark dots on its bar)."""
    for xx in range(left, right, 2):
        d.point((xx, y + 5), fill=fill)


def no_move(n: int, k: Key) -> Toast:
    """The reply to UP/DOWN that could not move a list's cursor: one entry, or a held key at the end."""
    return Toast("The only one: OK picks it" if n == 1 else "Top of the list" if k is Key.UP else "End of the list",
                 refusal=False)


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

    def move_to(self, key: str) -> bool:
        """Put the cursor on the entry with ``key`` (the one the player came back from); False when there is none."""
        for i, it in enumerate(self.items):
            if it.key == key and it.enabled:
                self.cursor = i
                self.follow()
                return True
        return False

    def follow(self) -> None:
        if self.cursor < self.top:
            self.top = self.cursor
        elif self.cursor >= self.top + self.rows:
            self.top = self.cursor - self.rows + 1

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        n = len(self.items)
        if k in (Key.UP, Key.DOWN) and n:
            was, step = self.cursor, -1 if k is Key.UP else 1
            self.cursor = (self.cursor + step) % n if not repeat else min(max(self.cursor + step, 0), n - 1)
            self.follow()
            if self.cursor == was:
                return no_move(n, k)
        elif k is Key.OK and n:
            it = self.items[self.cursor]
            if not it.enabled:
                return Toast(it.hint or f"{it.label}: not now")
            return Done(it.key)
        elif k is Key.BACK and self.back_ok:
            return Back()
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int, y1: int = HEIGHT) -> None:
        rows = max(1, (y1 - y0) // ROW)
        if rows != self.rows:  # laid out differently than announced: follow from here on
            self.rows = rows
        self.follow()
        for i, it in enumerate(self.items[self.top:self.top + rows]):
            idx = self.top + i
            y = y0 + i * ROW
            mark = "" if it.checked is None else ("[x] " if it.checked else "[ ] ")
            text_row(d, y, mark + it.label, inverse=idx == self.cursor, width=LIST_W)
            if not it.enabled:  # the cursor still stops here (OK says why not): scripts and saved games keep
                # the dots run on to the row's end, so a short entry ("Ben") reads as struck out as a long one
                end = 2 + text_width(fit(mark + it.label, LIST_W))
                if idx == self.cursor:
                    strike(d, y, 1, end, 0)
                strike(d, y, 1 if idx != self.cursor else end + 2, LIST_W, 1)
            if idx == self.cursor:
                focus(d, y, y + ROW)
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
            was, self.value = self.value, min(self.hi, max(self.lo, self.value + delta))
            if self.value == was:  # at a limit: say which, rather than do nothing
                unit = f" {self.unit}" if self.unit else ""
                return Toast(f"{self.hi}{unit} is the most" if k is Key.UP else f"{self.lo}{unit} is the least",
                             refusal=False)
        elif k is Key.OK:
            return Done(self.value)
        elif k is Key.BACK and self.back_ok:
            return Back()
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int) -> None:
        room = HEIGHT - y0
        size = "large" if room >= 24 else "medium" if room >= 14 else "body"  # the large cell is 25 px
        top = {"large": 3, "medium": 2, "body": 1}[size]  # blank rows above the capitals in each font
        tall = {"large": 19, "medium": 12, "body": 8}[size]
        text = f"{self.value}{(' ' + self.unit) if self.unit else ''}"
        if text_width(text, size) > WIDTH - 16 and size != "body":
            size, top, tall = "medium", 2, 12
        y = y0 + max(0, (room - tall) // 2) - top
        big_text(d, y, text, size, width=WIDTH - 16)
        focus(d, y + top, min(HEIGHT, y + top + tall))
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
        y = max(y0, HEIGHT - ROW - 2) + 1
        draw_buttons(d, y, [self.yes, self.no], 0 if self.value else 1)


@dataclass
class ButtonRow:
    """One or two buttons side by side on one row (the dice screen's "Type" and "Roll here"). UP/DOWN switch."""

    items: list[Item]
    cursor: int = 0

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        if k in (Key.UP, Key.DOWN) and len(self.items) == 1:
            return Toast(f"OK: {self.items[0].label}", refusal=False)
        if k in (Key.UP, Key.DOWN) and self.items:
            self.cursor = (self.cursor + 1) % len(self.items)
        elif k is Key.OK and self.items:
            return Done(self.items[self.cursor].key)
        elif k is Key.BACK:
            return Back()
        return None

    def draw(self, d: ImageDraw.ImageDraw, y: int) -> None:
        draw_buttons(d, y, [it.label for it in self.items], self.cursor)


def draw_buttons(d: ImageDraw.ImageDraw, y: int, labels: Sequence[str], on: int) -> None:
    """Buttons side by side on one row. The one OK takes is a filled box with a pointer (▶) before its label; the
    others are plain text with no box at all, so two buttons never read as "filled or outlined: which is it?"."""
    n = max(1, len(labels))
    cell = WIDTH // n
    for i, label in enumerate(labels):
        x0 = i * cell
        room = cell - 6 - (POINTER_W if i == on else 0)
        shown = fit(label, room)
        w = text_width(shown) + (POINTER_W if i == on else 0)
        x = x0 + (cell - w) // 2
        if i == on:
            d.rectangle((x0 + 1, y, x0 + cell - 2, y + ROW - 1), fill=1)
            d.polygon([(x, y + 1), (x, y + 7), (x + 3, y + 4)], fill=0)  # the pointer: OK takes this one
            focus(d, y, y + ROW, x0, x0 + cell)
            x += POINTER_W
        draw_text(d, x, y, shown, width=w - (POINTER_W if i == on else 0), fill=0 if i == on else 1, height=ROW)


POINTER_W = 7  #: the pointer before the label of the button OK takes, with its gap


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
        was = self.top
        if k is Key.UP:
            self.top = max(0, self.top - 1)
        elif k is Key.DOWN:
            self.top = min(last, self.top + 1)
        elif k in (Key.OK, Key.BACK):
            return Back()
        if k in (Key.UP, Key.DOWN) and self.top == was:
            return Toast("All shown: OK closes" if last == 0 else
                         "The top: OK closes" if k is Key.UP else "The end: OK closes", refusal=False)
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int, y1: int = HEIGHT) -> None:
        self.rows = max(1, (y1 - y0) // ROW)
        last = max(0, len(self.lines) - self.rows)
        if self.top < 0 or self.top > last:
            self.top = last
        for i, line in enumerate(self.lines[self.top:self.top + self.rows]):
            text_row(d, y0 + i * ROW, line, width=LIST_W)
        if not self.lines:
            text_row(d, y0, "(nothing yet)")
        scroll_marks(d, y0, y0 + self.rows * ROW, self.top > 0, self.top < last)


TOAST_W = WIDTH - 8  #: pixels of text in a toast's line
#: an announcement (a result, who starts) stays until the next press: it may take the whole screen but the row OK
#: acts on (moved to the bottom for it when it would otherwise be cut: :func:`draw_announcement`)
ANNOUNCE_LINES = 5
ANNOUNCE_MORE = "More: hold OK, Game log"  #: the last line of an announcement cut, or with older notes left out


def draw_toast(d: ImageDraw.ImageDraw, text: str, max_lines: int = 3, more: str = "", left_out: bool = False) -> None:
    """A boxed message wrapped to up to ``max_lines`` lines (the last one ellipsised; with ``more``, a text that does
    not fit, or one with more of it ``left_out``, ends in that line instead, saying where the rest is).

    It never covers the row OK acts on (``draw.focus``): below that row when it fits there, else between the title
    bar and the row, else over the title too; with no room for all of it, in the larger space, shortened."""
    lines = wrap(text, TOAST_W)
    need = len(lines) + (1 if left_out and more else 0)
    y0, n = _toast_place(getattr(d, "focus", None), min(need, max_lines))
    if need > n:  # wrapped again only when it does not fit: a toast is drawn on every frame it shows
        lines = wrap(text, TOAST_W, n - 1) + [more] if more and n > 1 else wrap(text, TOAST_W, n)
    elif left_out and more:
        lines.append(more)
    h = ROW * len(lines) + 3
    y = y0 + 1
    end = min(HEIGHT, y + h + 1)
    if end < HEIGHT:  # above the focus row: blank the rest of a text row the box cuts through
        stop = getattr(d, "focus", (HEIGHT,))[0]
        end = min(stop, BAR + -(-(end - BAR) // ROW) * ROW)
        end = min(stop, next((y for y in getattr(d, "starts", ()) if y >= end), end))  # and the rest of its line
    d.rectangle((0, y - 1, WIDTH - 1, end - 1), fill=0)
    d.rectangle((1, y, WIDTH - 2, y + h - 1), outline=1, fill=1)
    cover(0, y - 1, WIDTH, end)
    for i, line in enumerate(lines):
        draw_text(d, 4, y + 2 + i * ROW, line, width=WIDTH - 8, fill=0, height=ROW)


def draw_announcement(img: Image.Image, d: ImageDraw.ImageDraw, text: str, left_out: bool = False,
                      movable: bool = True) -> None:
    """An announcement, whole when the screen can hold it: when it would be cut beside the row OK acts on, that row
    (``movable``: a full-width row, not a square of a board) moves to the bottom of the screen, the rest giving way
    until the next press, and the announcement takes what is above it."""
    want = min(len(wrap(text, TOAST_W)) + (1 if left_out else 0), ANNOUNCE_LINES)
    band = getattr(d, "focus", None)
    if movable and band is not None and band[1] < HEIGHT and (n := _toast_place(band, want)[1]) < want \
            and _lines_in(HEIGHT - (band[1] - band[0]) + 1) > n:
        top, bottom = band
        row = img.crop((0, top, WIDTH, bottom))
        d.rectangle((0, BAR, WIDTH - 1, HEIGHT - 1), fill=0)
        img.paste(row, (0, HEIGHT - (bottom - top)))
        focus(d, HEIGHT - (bottom - top), HEIGHT)
        cover(0, BAR, WIDTH, HEIGHT - (bottom - top))  # what was under it is gone, the row OK acts on moved
    draw_toast(d, text, ANNOUNCE_LINES, ANNOUNCE_MORE, left_out)


def _lines_in(room: int) -> int:
    """How many toast lines a band of ``room`` pixels holds (a box of 3 + 10 a line, a black pixel each side)."""
    return max(0, (room - 5) // ROW)


def _toast_place(focus_band: tuple[int, int] | None, want: int) -> tuple[int, int]:
    """(top of the toast's band, lines it gets) for a toast of ``want`` lines beside the focus row."""
    if focus_band is None:
        return HEIGHT - ROW * want - 4, want
    top, bottom = focus_band
    below = (HEIGHT - ROW * want - 4, _lines_in(HEIGHT - bottom + 1))  # the bottom edge needs no black pixel
    above = (BAR, _lines_in(top - BAR))
    over_title = (-1, _lines_in(top + 1))
    for y0, n in (below, above, over_title):  # all of it, keeping as much of the question in view as it can
        if n >= want:
            return y0, want
    y0, n = max((below, above, over_title), key=lambda b: b[1])
    n = max(1, min(n, want))
    if y0 not in (BAR, -1):  # the bottom band: the box sits on the frame's bottom edge
        y0 = HEIGHT - ROW * n - 4
    return y0, n


__all__ = ["Done", "Back", "Toast", "Outcome", "Item", "ListWidget", "ButtonRow", "Spinner", "ConfirmWidget",
           "MultiSelectWidget", "TextView", "draw_announcement", "no_move", "draw_buttons", "draw_lines", "draw_toast", "strike", "BAR", "TOAST_W",
           "ANNOUNCE_LINES", "ANNOUNCE_MORE"]
