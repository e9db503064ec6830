"""Screen text for the game machines, measured as the OLED draws it, never counted in letters.

The widths are pixels of the body font (``companion/ui/draw.py`` measures them on the shipped bitmap font), so a
name or a line is shortened only when it really does not fit, and then with an ellipsis ("…") that says so. Prompt
text stays plain Unicode (the web view shows it as it is; the OLED does its own fitting).
"""
from __future__ import annotations

from companion.ui.draw import LIST_W, WIDTH, text_width, title_room

LINE_PX = LIST_W  #: a context line: it fits beside the scroll marks, so a line scrolled with a list keeps it all
TITLE_PX = WIDTH - 2  #: a title without a name tag
ELLIPSIS = "…"


def fits(text: str, px: int = LINE_PX) -> bool:
    return text_width(text) <= px


def clip(text: str, px: int = LINE_PX) -> str:
    """``text`` if it fits ``px`` pixels, else its longest start that fits with "…" after it."""
    if fits(text, px):
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(text[:mid].rstrip() + ELLIPSIS, px):
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


def wrap(text: str, px: int = LINE_PX, indent: str = "") -> list[str]:
    """Words into lines of at most ``px`` pixels (continuation lines start with ``indent``); a single word wider than
    a line is clipped. Nothing is dropped: the caller shows every line (a scrolling page, a scrolling choice)."""
    out: list[str] = []
    cur = ""
    for word in text.split():
        cand = f"{cur} {word}" if cur else (indent + word if out else word)
        if fits(cand, px):
            cur = cand
            continue
        if cur:
            out.append(cur)
        cur = clip(indent + word, px)
    if cur or not out:
        out.append(cur)
    return out


def wrap_words(words: list[str], first: str = "", px: int = LINE_PX, indent: str = "  ") -> list[str]:
    """Items (names, units) joined by spaces into lines of ``px`` pixels, ``first`` leading the first line; an item
    is never split."""
    out: list[str] = []
    cur = first
    for w in words:
        cand = f"{cur} {w}" if cur else w
        if cur and not fits(cand, px):
            out.append(cur)
            cur = clip(indent + w, px)
        else:
            cur = cand
    if cur:
        out.append(cur)
    return out


def title(text: str, tag: str = "") -> str:
    """A title fitted to the bar beside ``tag`` (the acting player's name the screen shows at its right)."""
    return clip(text, title_room(tag))


def squeeze(template: str, name: str, px: int = LINE_PX) -> str:
    """``template`` with ``{}`` replaced by ``name``, the name (not the rest) shortened only as far as needed to fit
    ``px`` pixels: "Cleopatra on Stock Exchange?" keeps its question."""
    whole = template.format(name)
    if fits(whole, px):
        return whole
    rest = text_width(template.format(""))
    return template.format(clip(name, max(px - rest, text_width(name[:1] + ELLIPSIS))))


def plural(n: int, one: str, many: str | None = None) -> str:
    """"1 army", "2 armies", "0 cities", "1 player": the count and the word that goes with it."""
    if n == 1 or n == -1:
        return f"{n} {one}"
    if many is None:
        if one.endswith("y") and one[-2:-1] not in ("a", "e", "o", "u"):
            many = one[:-1] + "ies"
        elif one.endswith(("s", "x", "ch", "sh")):
            many = one + "es"
        else:
            many = one + "s"
    return f"{n} {many}"


__all__ = ["LINE_PX", "TITLE_PX", "fits", "clip", "wrap", "wrap_words", "title", "title_room", "squeeze", "plural"]
