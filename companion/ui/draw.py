"""Drawing primitives for the 128×64 frame: fonts, the title bar, text rows, scroll marks."""
from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

WIDTH, HEIGHT = 128, 64
ROW = 10  #: pixels per text row
BAR = 11  #: height of the title bar


@lru_cache(maxsize=None)
def font(size: int = 10) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def new_frame() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("1", (WIDTH, HEIGHT), 0)
    return img, ImageDraw.Draw(img)


#: characters the built-in font lacks, drawn as near equivalents instead of a box
_SUBSTITUTES = str.maketrans({"→": ">", "←": "<", "×": "x", "—": "-", "–": "-", "✓": "*", "▲": "^", "▼": "v",
                              "½": "1/2", "’": "'", "“": '"', "”": '"'})


def fit(text: str, width: int, size: int = 10) -> str:
    """Cut ``text`` with an ellipsis so it fits ``width`` pixels (and swap glyphs the font lacks)."""
    text = text.translate(_SUBSTITUTES)
    f = font(size)
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text + "…"


def title_bar(d: ImageDraw.ImageDraw, title: str, right: str = "") -> None:
    """An inverted bar across the top with the title, and a short tag (a player, a round) at the right."""
    d.rectangle((0, 0, WIDTH - 1, BAR - 1), fill=1)
    right = fit(right, 48) if right else ""
    rw = int(font().getlength(right)) + 2 if right else 0
    d.text((2, 0), fit(title, WIDTH - 4 - rw), font=font(), fill=0)
    if right:
        d.text((WIDTH - rw, 0), right, font=font(), fill=0)


def text_row(d: ImageDraw.ImageDraw, y: int, text: str, *, inverse: bool = False, x: int = 2,
             width: int = WIDTH - 4) -> None:
    """One row of text; ``inverse`` highlights it with a bar as wide as the text (cheaper to redraw on the bus)."""
    shown = fit(text, width)
    if inverse:
        right = d.textbbox((x, y - 1), shown, font=font())[2] if shown else x
        d.rectangle((0, y, min(WIDTH - 1, right + 2), y + ROW - 1), fill=1)
    d.text((x, y - 1), shown, font=font(), fill=0 if inverse else 1)


def scroll_marks(d: ImageDraw.ImageDraw, top: int, bottom: int, more_above: bool, more_below: bool) -> None:
    """Small triangles at the right edge when a list continues above or below."""
    if more_above:
        d.polygon([(WIDTH - 5, top + 4), (WIDTH - 1, top + 4), (WIDTH - 3, top + 1)], fill=1)
    if more_below:
        d.polygon([(WIDTH - 5, bottom - 5), (WIDTH - 1, bottom - 5), (WIDTH - 3, bottom - 2)], fill=1)


def big_text(d: ImageDraw.ImageDraw, y: int, text: str, size: int = 20) -> None:
    """A large centred value (a spinner's number, a die's face)."""
    f = font(size)
    w = f.getlength(text)
    d.text(((WIDTH - w) / 2, y), text, font=f, fill=1)
