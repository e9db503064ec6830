"""The clock's digits on the OLED: fixed cells, one per character, so a tick redraws only the digits that changed.

Drawing only: the clock itself is :mod:`companion.session.clock` and its glue :mod:`companion.session.timekeeper`.
"""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from companion.ui.draw import ROW, font


@lru_cache(maxsize=64)
def _glyph(ch: str) -> Image.Image:
    """One clock character drawn once, centred in its fixed cell (pasted on every tick after that)."""
    f = font()
    w = _cell(ch)
    img = Image.new("1", (w, ROW), 0)
    ImageDraw.Draw(img).text(((w - f.getlength(ch)) / 2, -1), ch, font=f, fill=1)
    return img


@lru_cache(maxsize=64)
def _cell(ch: str) -> int:
    """A character's cell: every digit gets the widest digit's width, so a digit changing moves nothing."""
    f = font()
    if ch in "0123456789":
        return max(int(f.getlength(c)) for c in "0123456789") + 1
    return int(f.getlength(ch)) + 1


def draw_time(d: ImageDraw.ImageDraw, right: int, y: int, text: str, fill: int = 1) -> None:
    """Clock digits right-aligned in fixed cells, one per character, so a tick changes only the digits that changed
    (the display then sends only those columns)."""
    x = right - time_width(text)
    for ch in text:
        d.bitmap((x, y), _glyph(ch), fill=fill)
        x += _cell(ch)


def time_width(text: str) -> int:
    return sum(_cell(ch) for ch in text)


__all__ = ["draw_time", "time_width"]
