"""Drawing primitives for the 128×64 frame: fonts, the title bar, text rows, scroll marks.

The fonts are bitmap fonts shipped in ``companion/ui/fonts`` (see ``LICENSES.md`` there): crisp at one bit per
pixel, so what :func:`text_width` measures is exactly what lands on the OLED. Every text drawn through these helpers
is fitted to its box with an ellipsis, and reported to :data:`RECORDERS` (the clipping test listens there).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Sequence

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
ROW = 10  #: pixels per text row (the body font's cell)
BAR = 11  #: height of the title bar
MARK_W = 7  #: width the scroll marks take at the right edge (text in a scrolling list stays left of it)
LIST_W = WIDTH - 1 - MARK_W  #: pixels of text in a list row or a scrolling page (x from 1)

FONT_DIR = Path(__file__).resolve().parent / "fonts"
#: body: misc-fixed 6x10 capitals with 5x8 small letters, made proportional (capitals 7 px); medium: Spleen 8x16 bold (capitals 10 px);
#: large: Spleen 12x24 bold (capitals 15 px) for names and numbers read from across the table
SIZES = {"body": 10, "medium": 16, "large": 24}

#: symbols beyond Latin-1 that the shipped fonts carry in the control slots 0x80–0x9F (tools/build_fonts.py)
EXTRA = {"…": "\x80", "→": "\x81", "←": "\x82", "▲": "\x83", "▼": "\x84", "—": "\x85", "–": "\x86",
         "’": "\x88", "“": "\x89", "”": "\x8a", "•": "\x8b", "▶": "\x8c", "◀": "\x8d"}
#: other characters the fonts lack, drawn as near equivalents instead of a box
_SUBSTITUTES = {"×": "x", "✓": "*", "½": "1/2", "‘": "'", "≥": ">=", "≤": "<=", "−": "-", "✗": "x"}
_TABLE = str.maketrans({**EXTRA, **_SUBSTITUTES})
ELLIPSIS = EXTRA["…"]


@lru_cache(maxsize=None)
def font(size: int | str = "body") -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
    """The shipped bitmap font nearest ``size`` (a pixel height or "body"/"medium"/"large")."""
    if isinstance(size, str):
        name = size
    else:
        name = "body" if size <= 11 else "medium" if size <= 17 else "large"
    return ImageFont.load(str(FONT_DIR / f"{name}.pil"))


def encode(text: str) -> str:
    """The text as the fonts' 256 slots hold it: Latin-1 as is, a few symbols in spare slots, the rest swapped."""
    text = text.translate(_TABLE)
    if text.isascii():
        return text
    return "".join(c if ord(c) < 256 and not 0x7F <= ord(c) < 0xA0 or c in _EXTRA_SLOTS else "?" for c in text)


_EXTRA_SLOTS = frozenset(EXTRA.values())
_SCRATCH = ImageDraw.Draw(Image.new("1", (1, 1)))


def text_width(text: str, size: int | str = "body") -> int:
    """Pixels ``text`` takes when drawn in the frame's mode ("1"), measured on such an image, not estimated."""
    if not text:
        return 0
    return _measured(text, size)


@lru_cache(maxsize=8192)
def _measured(text: str, size: int | str) -> int:
    """The same strings are measured over and over (every prompt's lines, wrapped on every answer, and on every
    input of a replay): the bitmap fonts never change, so each width is measured once."""
    return int(_SCRATCH.textbbox((0, 0), encode(text), font=font(size))[2])


def fit(text: str, width: int, size: int | str = "body", *, cut: bool = False) -> str:
    """``text`` ready to draw: glyphs encoded, cut with an ellipsis so it fits ``width`` pixels (``cut``: always
    ends in an ellipsis, for text that continues elsewhere)."""
    text = encode(text)
    if not cut and text_width(text, size) <= width:
        return text
    if text_width(ELLIPSIS, size) > width:
        return ""
    lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis (widths only grow with length)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid].rstrip() + ELLIPSIS, size) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def wrap(text: str, width: int, max_lines: int | None = None, size: int | str = "body") -> list[str]:
    """Break ``text`` into lines of at most ``width`` pixels at spaces (a word longer than a line is cut with an
    ellipsis); with ``max_lines``, the last kept line ends in an ellipsis when text is left over."""
    lines: list[str] = []
    cur = ""
    for word in text.split():
        cand = f"{cur} {word}" if cur else word
        if text_width(cand, size) <= width:
            cur = cand
            continue
        if cur:
            lines.append(cur)
        cur = word if text_width(word, size) <= width else fit(word, width, size)
    if cur or not lines:
        lines.append(cur)
    if max_lines is not None and len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = fit(lines[-1], width, size, cut=True)
    return lines


def new_frame() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    return img, ImageDraw.Draw(img)


# ------------------------------------------------------------------------------------------------ recording
@dataclass(frozen=True)
class Drawn:
    """One piece drawn through these helpers: its ink box, the box it was given, what it was."""

    #: "text", "mark" (a scroll arrow), "cover" (a box painted over what was drawn before) or "focus" (the row OK
    #: acts on)
    kind: str
    text: str
    ink: tuple[int, int, int, int]  #: left, top, right, bottom (exclusive)
    box: tuple[int, int, int, int]


#: callbacks told of every piece drawn (the clipping test); empty in normal running
RECORDERS: list[Callable[[Drawn], None]] = []


def _record(kind: str, text: str, ink: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> None:
    for r in RECORDERS:
        r(Drawn(kind, text, ink, box))


def focus(d: ImageDraw.ImageDraw, top: int, bottom: int, left: int = 0, right: int = WIDTH) -> None:
    """Say where the row OK acts on lies in this frame (the cursor's row, the highlighted button, the number): a
    toast drawn later keeps clear of it (``widgets.draw_toast``), and the interaction test checks that it does."""
    d.focus = (top, bottom)  # type: ignore[attr-defined]
    _record("focus", "", (left, top, right, bottom), (left, top, right, bottom))


def line_starts(d: ImageDraw.ImageDraw, y0: int, starts: Sequence[int], top: int, shown: int) -> None:
    """Say where the question's lines begin in this frame (its wrapped rows ``top`` to ``top + shown`` drawn from
    ``y0``; ``starts``: the rows where a line of it begins) and where they end: a toast drawn later over the start
    of a line hides the rest of that line too (``widgets.draw_toast``), never leaving a stray end ("other city.")."""
    ys = [y0 + (s - top) * ROW for s in starts if top <= s < top + shown]
    d.starts = ys + [y0 + shown * ROW]  # type: ignore[attr-defined]


def cover(left: int, top: int, right: int, bottom: int) -> None:
    """Say that a box was painted over (a toast): what was drawn there before no longer shows."""
    _record("cover", "", (left, top, right, bottom), (left, top, right, bottom))


@lru_cache(maxsize=8192)
def _ink(x: int, y: int, shown: str, size: int | str) -> tuple[int, int, int, int]:
    """The ink box of ``shown`` drawn at (x, y) in the frame's mode, for :data:`RECORDERS` (the same texts are drawn
    at the same places frame after frame)."""
    ink = _SCRATCH.textbbox((x, y), shown, font=font(size))
    return int(ink[0]), int(ink[1]), int(ink[2]), int(ink[3])


def draw_text(d: ImageDraw.ImageDraw, x: int, y: int, text: str, *, width: int, size: int | str = "body",
              fill: int = 1, height: int | None = None) -> int:
    """Draw ``text`` fitted into ``width`` pixels from (x, y); returns the ink's right edge."""
    shown = fit(text, width, size)
    if not shown:
        return x
    f = font(size)
    d.text((x, y), shown, font=f, fill=fill)
    if RECORDERS:
        ink = _ink(x, y, shown, size)
        h = height if height is not None else ink[3] - y
        _record("text", text, ink, (x, y, x + width, y + h))
    return int(x + text_width(shown, size))


TAG_GAP = 5  #: blank pixels between the title and the tag at the right of the title bar


def title_room(tag: str) -> int:
    """Pixels the title may take beside ``tag`` (a player's name) in the title bar."""
    return WIDTH - 2 - (min(text_width(tag), TAG_MAX) + TAG_GAP if tag else 0)


TAG_MAX = 64  #: the tag (a name) never takes more than half the bar


def title_bar(d: ImageDraw.ImageDraw, title: str, right: str = "") -> None:
    """An inverted bar across the top with the title, and a short tag (a player, a round) at the right."""
    d.rectangle((0, 0, WIDTH - 1, BAR - 1), fill=1)
    draw_text(d, 1, 1, title, width=title_room(right), fill=0, height=BAR - 1)
    if right:
        shown = fit(right, TAG_MAX)
        w = text_width(shown)
        draw_text(d, WIDTH - 1 - w, 1, shown, width=w, fill=0, height=BAR - 1)


def text_row(d: ImageDraw.ImageDraw, y: int, text: str, *, inverse: bool = False, x: int = 1,
             width: int = WIDTH - 2) -> None:
    """One row of text; ``inverse`` highlights it with a bar as wide as the text (cheaper to redraw on the bus)."""
    if inverse:
        right = x + text_width(fit(text, width))
        d.rectangle((0, y, min(WIDTH - 1, right + 1), y + ROW - 1), fill=1)
    draw_text(d, x, y, text, width=width, fill=0 if inverse else 1, height=ROW)


def scroll_marks(d: ImageDraw.ImageDraw, top: int, bottom: int, more_above: bool, more_below: bool) -> None:
    """Small triangles at the right edge when a list continues above or below."""
    if more_above:
        d.polygon([(WIDTH - 5, top + 4), (WIDTH - 1, top + 4), (WIDTH - 3, top + 1)], fill=1)
        _record("mark", "▲", (WIDTH - 5, top + 1, WIDTH, top + 5), (WIDTH - 5, top, WIDTH, top + 5))
    if more_below:
        d.polygon([(WIDTH - 5, bottom - 5), (WIDTH - 1, bottom - 5), (WIDTH - 3, bottom - 2)], fill=1)
        _record("mark", "▼", (WIDTH - 5, bottom - 5, WIDTH, bottom - 1), (WIDTH - 5, bottom - 6, WIDTH, bottom))




def big_text(d: ImageDraw.ImageDraw, y: int, text: str, size: int | str = "large", *, x0: int = 0,
             width: int = WIDTH) -> None:
    """A large value centred in ``width`` from ``x0`` (a spinner's number, a name on the glance view)."""
    shown = fit(text, width, size)
    w = text_width(shown, size)
    draw_text(d, x0 + (width - w) // 2, y, shown, width=w, size=size)
