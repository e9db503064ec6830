"""The board widget: a square board of 4×4-pixel cells (16×16 fills 64×64) beside a text half.

Each piece is a 3×3 glyph per role in its cell; whose piece it is, seen by the seat to act, is the cell's style:
its own army (owned) inverted over the whole cell, a controlled army lit with a bar down the cell's right edge, an
opponent's underlined, a neutral one plain — so a role's lit shape is the same in every style but
the own one, and no two (role, style) cells look alike. An empty square of colour shows a dot, a blocked one a
dash; a piece on a square of colour has a dot (or, inverted or barred, a notch) in its top right corner. The cursor
is a dark ring and a lit ring round its cell (one of them shows whatever surrounds it); the selected piece is drawn
inverted; the targets of the selected piece are a block (empty) or inverted (a capture).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Iterable

from PIL import Image, ImageDraw

from fsm.prompts import BoardView

CELL = 4

#: 3×3 glyphs, rows top to bottom
GLYPHS: dict[str, tuple[str, str, str]] = {
    "K": (".#.", "###", ".#."),
    "Q": ("#.#", ".#.", "#.#"),
    "R": ("###", "#.#", "###"),
    "B": (".#.", "#.#", ".#."),
    "N": ("##.", "#..", "#.."),
    "P": ("...", ".#.", "###"),
    ".": ("...", ".#.", "..."),
    "#": ("...", "###", "..."),
}


def cell_origin(view: BoardView, sq: int, x0: int = 0, y0: int = 0) -> tuple[int, int]:
    """Top-left pixel of a square's cell: file across, the last rank at the top."""
    file, rank = sq % view.files, sq // view.files
    return x0 + file * CELL, y0 + (view.ranks - 1 - rank) * CELL


#: each glyph's lit pixels as (column, row) offsets
_LIT = {code: tuple((c, r) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")
        for code, rows in GLYPHS.items()}


def _glyph(d: ImageDraw.ImageDraw, x: int, y: int, code: str, fill: int) -> None:
    d.point([(x + c, y + r) for c, r in _LIT[code]], fill=fill)


def draw_cell(d: ImageDraw.ImageDraw, x: int, y: int, cell: str) -> None:
    if not cell:
        return
    if cell in (".", "#"):
        _glyph(d, x, y, cell, 1)
        return
    role, style = cell[0], cell[1:2]
    if style == "o":
        d.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=1)
        _glyph(d, x, y, role, 0)
        if cell.endswith("*"):  # on a square of colour: a notch at the top right
            d.point((x + CELL - 1, y), fill=0)
        return
    _glyph(d, x, y, role, 1)
    if style == "c":  # a bar down the right edge; on a square of colour, a notch at its top
        d.line((x + CELL - 1, y + (1 if cell.endswith("*") else 0), x + CELL - 1, y + CELL - 1), fill=1)
        return
    if cell.endswith("*"):  # on a square of colour: a dot at the top right
        d.point((x + CELL - 1, y), fill=1)
    if style == "e":
        d.line((x, y + CELL - 1, x + CELL - 2, y + CELL - 1), fill=1)


@lru_cache(maxsize=None)
def _cell_image(cell: str) -> Image.Image:
    """A cell as :func:`draw_cell` draws it on a dark cell, drawn once per kind of cell: a board
    of 256 cells is pasted from a few dozen of them."""
    img = Image.new("1", (CELL, CELL), 0)
    draw_cell(ImageDraw.Draw(img), 0, 0, cell)
    return img


def draw_board(d: ImageDraw.ImageDraw, view: BoardView, *, x0: int = 0, y0: int = 0, cursor: int | None = None,
               selected: int | None = None, targets: Iterable[int] = ()) -> None:
    """The board at (x0, y0): pieces and marks, then the targets, the selected piece and the cursor."""
    d.rectangle((x0, y0, x0 + view.files * CELL - 1, y0 + view.ranks * CELL - 1), fill=0)
    for sq, cell in enumerate(view.cells):
        if cell:  # the board is dark: a cell's lit pixels are all it adds
            d.bitmap(cell_origin(view, sq, x0, y0), _cell_image(cell), fill=1)
    _draw_marks(d, view, x0, y0, cursor, selected, targets)


def _draw_marks(d: ImageDraw.ImageDraw, view: BoardView, x0: int, y0: int, cursor: int | None,
                selected: int | None, targets: Iterable[int]) -> None:
    """The targets, the selected piece and the cursor, over the pieces."""
    for sq in targets:
        x, y = cell_origin(view, sq, x0, y0)
        cell = view.cells[sq]
        if cell and cell not in (".", "#"):  # a capture: the cell inverted
            d.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=1)
            _glyph(d, x, y, cell[0], 0)
        else:
            d.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=0)
            d.rectangle((x + 1, y + 1, x + 2, y + 2), fill=1)
    right, bottom = x0 + view.files * CELL - 1, y0 + view.ranks * CELL - 1
    if selected is not None:
        x, y = cell_origin(view, selected, x0, y0)
        cell = view.cells[selected]
        lit = cell[1:2] != "o"
        d.rectangle((x, y, x + CELL - 1, y + CELL - 1), fill=1 if lit else 0)
        if cell and cell not in (".", "#"):
            _glyph(d, x, y, cell[0], 0 if lit else 1)
    if cursor is not None:
        x, y = cell_origin(view, cursor, x0, y0)
        for gap, fill in ((2, 1), (1, 0)):
            box = (max(x0, x - gap), max(y0, y - gap), min(right, x + CELL - 1 + gap), min(bottom, y + CELL - 1 + gap))
            d.rectangle(box, outline=fill)


@lru_cache(maxsize=8)
def _pieces_image(files: int, ranks: int, cells: tuple[str, ...]) -> Image.Image:
    """The position's pieces and marks alone (:func:`draw_board` without the cursor and the targets)."""
    img = Image.new("1", (files * CELL, ranks * CELL), 0)
    draw_board(ImageDraw.Draw(img), BoardView(files, ranks, cells))
    return img


@lru_cache(maxsize=8)
def board_image(view: BoardView, cursor: int | None, selected: int | None, targets: tuple[int, ...]) -> Image.Image:
    """The board as a 1-bit image, cached: a clock tick redraws the frame without drawing the board again, and a
    cursor move draws only the marks over the position's pieces, drawn once."""
    img = _pieces_image(view.files, view.ranks, view.cells).copy()
    _draw_marks(ImageDraw.Draw(img), view, 0, 0, cursor, selected, targets)
    return img


def paste_board(d: ImageDraw.ImageDraw, view: BoardView, *, cursor: int | None = None, selected: int | None = None,
                targets: Iterable[int] = ()) -> None:
    """Draw the board at the top left of the frame (the area is cleared first)."""
    img = board_image(view, cursor, selected, tuple(targets))
    d.rectangle((0, 0, img.width - 1, img.height - 1), fill=0)
    d.bitmap((0, 0), img, fill=1)
