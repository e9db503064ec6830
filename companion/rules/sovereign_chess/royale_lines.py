"""Sovereign Chess Royale's board geometry: the four seats and the edge lines each king castles along
(:data:`HOME_LINE`, :func:`castling_line`, :func:`home_of_line`)."""
from __future__ import annotations

from typing import Final

from companion.rules.sovereign_chess.squares import SIZE, home_lines, sq_of

SEATS: Final = (1, 2, 3, 4)
NSEATS: Final = 4

# the file lines leave out the corners: a rook on a corner square belongs to its rank's line (see castling_line)
FILE_A: Final = sum(1 << sq_of(0, r) for r in range(1, SIZE - 1))
FILE_P: Final = sum(1 << sq_of(SIZE - 1, r) for r in range(1, SIZE - 1))
RANK_1: Final = sum(1 << sq_of(f, 0) for f in range(SIZE))
RANK_16: Final = sum(1 << sq_of(f, SIZE - 1) for f in range(SIZE))

#: the kings' home squares (i1 White, a9 Ash, p8 Slate, h16 Black) and the edge line each castles along
HOMES: Final = {sq_of(8, 0): RANK_1, sq_of(0, 8): FILE_A, sq_of(15, 7): FILE_P, sq_of(7, 15): RANK_16}


#: HOME_LINE[sq]: the castling line whose rights a king on ``sq`` holds (0 if ``sq`` is no home square)
HOME_LINE: Final = home_lines(HOMES)


def castling_line(rook_sq: int) -> int:
    """The home-line mask a castling right on ``rook_sq`` belongs to (0: a square on no castling line).

    Ranks win over files for the corners, which hold no rook at the start anyway."""
    r, f = rook_sq >> 4, rook_sq & 15
    if r == 0:
        return RANK_1
    if r == SIZE - 1:
        return RANK_16
    if f == 0:
        return FILE_A
    if f == SIZE - 1:
        return FILE_P
    return 0


def home_of_line(line: int) -> int:
    for sq, mask in HOMES.items():
        if mask == line:
            return sq
    return -1
