"""Dev-time: convert the openly licensed X11 bitmap fonts into Pillow's .pil/.pbm files shipped in companion/ui/fonts.

Not run by the companion or its tests; run it again only to change the fonts (needs the Debian packages
``xfonts-base`` (misc-fixed, public domain) and ``fonts-spleen`` (BSD-2-clause)):

    python tools/build_fonts.py [--src /usr/share/fonts/X11/misc]

Pillow's bitmap fonts hold 256 glyphs. Latin-1 takes its own slots; the few symbols the screens use beyond it (…, →,
▲, ▼, —) go into the unused control slots 0x80–0x9F, and ``companion.ui.draw.EXTRA`` maps them back when text
is drawn. The body font is misc-fixed 6x10 (capitals, digits, signs) with the small letters of misc-fixed 5x8, made
proportional (each glyph trimmed to its ink plus one blank column, digits kept the same width so numbers line up):
about a fifth more text per row than the monospaced font, same crisp pixels.
"""
from __future__ import annotations

import argparse
import gzip
import io
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops, PcfFontFile

OUT = Path(__file__).resolve().parents[1] / "companion" / "ui" / "fonts"

#: slot -> code point for the symbols beyond Latin-1 (must match companion.ui.draw.EXTRA)
EXTRA = {0x80: 0x2026, 0x81: 0x2192, 0x82: 0x2190, 0x83: 0x25B2, 0x84: 0x25BC, 0x85: 0x2014, 0x86: 0x2013,
         0x88: 0x2019, 0x89: 0x201C, 0x8A: 0x201D, 0x8B: 0x2022, 0x8C: 0x25B6, 0x8D: 0x25C0}

#: the body font's small letters come from misc-fixed 5x8 (four pixels wide; same baseline, capitals stay 7 px)
LOWER_FROM = "5x8.pcf.gz"
#: (source file, output name, how it is changed)
FONTS = [("6x10.pcf.gz", "body", "proportional"), ("spleen-8x16.pcf.gz", "medium", "wider"),
         ("spleen-12x24.pcf.gz", "large", "taller")]


class UnicodePcf(PcfFontFile.PcfFontFile):
    """A PCF reader that takes Latin-1 plus :data:`EXTRA` from a Unicode (ISO 10646) font."""

    def _load_encoding(self) -> list[int | None]:
        fp, _format, i16, _i32 = self._getformat(PcfFontFile.PCF_BDF_ENCODINGS)
        first_col, last_col = i16(fp.read(2)), i16(fp.read(2))
        first_row, last_row = i16(fp.read(2)), i16(fp.read(2))
        i16(fp.read(2))  # default char
        cols = last_col - first_col + 1
        n = cols * (last_row - first_row + 1)
        offsets = [i16(fp.read(2)) for _ in range(n)]

        def index(cp: int) -> int | None:
            row, col = cp >> 8, cp & 0xFF
            if not (first_row <= row <= last_row and first_col <= col <= last_col):
                return None
            off = offsets[(row - first_row) * cols + (col - first_col)]
            return None if off == 0xFFFF else off

        enc: list[int | None] = [None] * 256
        for slot in list(range(0x20, 0x7F)) + list(range(0xA0, 0x100)):
            enc[slot] = index(slot)
        for slot, cp in EXTRA.items():
            enc[slot] = index(cp)
        return enc


#: glyphs drawn here instead (misc-fixed's colon is two 3×3 crosses, which read as "‡" on a small screen)
OVERRIDES = {":": ["..", "..", "##", "##", "..", "..", "##", "##", "..", ".."],
             ";": ["..", "..", "##", "##", "..", "..", "##", "##", ".#", "#."]}


def override(pf: Any) -> None:
    for ch, rows in OVERRIDES.items():
        (adv, _), (left, top, _r, bottom), _src, _im = pf.glyph[ord(ch)]
        im = Image.new("1", (len(rows[0]), len(rows)))
        for y, row in enumerate(rows):
            for x, c in enumerate(row):
                im.putpixel((x, y), 1 if c == "#" else 0)
        pf.glyph[ord(ch)] = ((adv, 0), (1, top, 1 + im.width, bottom), (0, 0, im.width, im.height), im)


def proportional(pf: Any) -> None:
    """Trim each glyph to its ink plus one blank column; digits share one width; a space is 3 px."""
    digit_w = 0
    for ch in "0123456789":
        g = pf.glyph[ord(ch)]
        bb = g[3].getbbox()
        digit_w = max(digit_w, bb[2] - bb[0])
    for i, g in enumerate(pf.glyph):
        if not g:
            continue
        (_adv, _), (left, top, _right, bottom), (sx0, sy0, sx1, sy1), im = g
        bb = im.getbbox()
        if bb is None:
            pf.glyph[i] = ((3, 0), (0, top, 0, bottom), (0, 0, 0, sy1 - sy0), im)
            continue
        x0, x1 = bb[0], bb[2]
        w = x1 - x0
        pad = (digit_w - w) // 2 if chr(i).isdigit() else 0
        adv = (digit_w if chr(i).isdigit() else w) + 1
        glyph = im.crop((x0, 0, x1, sy1 - sy0))  # the atlas packs glyphs by their source box: start it at 0
        pf.glyph[i] = ((adv, 0), (pad, top, pad + w, bottom), (0, 0, w, sy1 - sy0), glyph)


def embolden(pf: Any, dx: int, dy: int) -> None:
    """Thicker strokes (each glyph ORed with itself shifted by dx, dy): readable from across a table."""
    for i, g in enumerate(pf.glyph):
        if not g:
            continue
        d, (left, top, right, bottom), (sx0, sy0, sx1, sy1), im = g
        wide = Image.new("1", (sx1 - sx0 + dx, sy1 - sy0 + dy))
        wide.paste(im.crop((sx0, sy0, sx1, sy1)), (0, 0))
        shifted = Image.new("1", wide.size)
        shifted.paste(im.crop((sx0, sy0, sx1, sy1)), (dx, dy))
        wide = ImageChops.logical_or(wide, shifted)
        pf.glyph[i] = (d, (left, top, right + dx, bottom + dy), (0, 0, wide.width, wide.height), wide)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--src", default="/usr/share/fonts/X11/misc")
    a = ap.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    for src, name, how in FONTS:
        with gzip.open(Path(a.src) / src) as f:
            pf = UnicodePcf(io.BytesIO(f.read()))
        if how == "proportional":
            with gzip.open(Path(a.src) / LOWER_FROM) as f:
                lower = UnicodePcf(io.BytesIO(f.read()))
            for ch in "abcdefghijklmnopqrstuvwxyz":  # narrower small letters: a fifth more text per row
                pf.glyph[ord(ch)] = lower.glyph[ord(ch)]
            override(pf)
            proportional(pf)
        else:  # spleen 8x16 has one-pixel strokes; 12x24 two-pixel uprights but one-pixel bars
            embolden(pf, *((1, 0) if how == "wider" else (0, 1)))
        pf.save(str(OUT / name))
        Image.open(OUT / f"{name}.pbm").load()
        print(f"{name}: from {src}")


if __name__ == "__main__":
    main()
