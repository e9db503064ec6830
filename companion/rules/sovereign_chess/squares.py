"""The 16×16 board: squares, colours, roles, squares of colour and the precomputed tables.

A square is an int ``rank * 16 + file`` (a1 = 0, p1 = 15, a16 = 240, p16 = 255). A set of squares is a Python int
with bit ``sq`` set. A piece is an int ``colour * 8 + role`` (0 = empty square). Everything here is computed once at
import from pure arithmetic; nothing else happens at import.
"""
from __future__ import annotations

from enum import IntEnum
from typing import Final

SIZE: Final = 16
NSQ: Final = SIZE * SIZE
FULL: Final = (1 << NSQ) - 1
FILES: Final = "abcdefghijklmnop"
#: no piece moves more than this many squares in one turn (and so checks from no further)
MAX_REACH: Final = 8


class Colour(IntEnum):
    """The twelve armies, in the order the rules list them."""

    WHITE = 0
    ASH = 1
    SLATE = 2
    BLACK = 3
    PINK = 4
    RED = 5
    ORANGE = 6
    YELLOW = 7
    GREEN = 8
    CYAN = 9
    NAVY = 10
    VIOLET = 11

    @property
    def letter(self) -> str:
        return COLOUR_LETTERS[self]

    @property
    def label(self) -> str:
        """The lower-case name used in move text and JSON (``navy``)."""
        return self.name.lower()


class Role(IntEnum):
    """Piece roles; 0 is reserved for an empty square."""

    PAWN = 1
    KNIGHT = 2
    BISHOP = 3
    ROOK = 4
    QUEEN = 5
    KING = 6

    @property
    def letter(self) -> str:
        return ROLE_LETTERS[self]


COLOUR_LETTERS: Final = "wasbproygcnv"
ROLE_LETTERS: Final = " pnbrqk"
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = 1, 2, 3, 4, 5, 6
#: what a pawn may promote to, in the order moves list them
PROMOTIONS: Final = (QUEEN, ROOK, BISHOP, KNIGHT, KING)


def sq_of(file: int, rank: int) -> int:
    return rank * SIZE + file


def square_name(sq: int) -> str:
    return f"{FILES[sq & 15]}{(sq >> 4) + 1}"


def parse_square(text: str) -> int:
    """``"i16"`` → 248. Raises ValueError (plain message) for anything else."""
    if len(text) < 2 or text[0] not in FILES or text[1:].strip("0123456789"):
        raise ValueError(f"{text!r} is not a square (a1..p16)")
    rank = int(text[1:])
    if not 1 <= rank <= SIZE or text[1] == "0":
        raise ValueError(f"{text!r} is not a square (a1..p16)")
    return sq_of(FILES.index(text[0]), rank - 1)


def _sq(name: str) -> int:
    return parse_square(name)


#: the two squares of each colour, indexed by Colour
COLOUR_SQUARES: Final[tuple[tuple[int, int], ...]] = tuple(
    (_sq(a), _sq(b))
    for a, b in (
        ("h9", "i8"),  # white
        ("g7", "j10"),  # ash
        ("j7", "g10"),  # slate
        ("h8", "i9"),  # black
        ("i6", "h11"),  # pink
        ("l5", "e12"),  # red
        ("k8", "f9"),  # orange
        ("k6", "f11"),  # yellow
        ("f6", "k11"),  # green
        ("f8", "k9"),  # cyan
        ("e5", "l12"),  # navy
        ("h6", "i11"),  # violet
    )
)


def _colour_tables() -> tuple[list[int], list[int], list[int], int]:
    sqcol = [-1] * NSQ
    twin = [-1] * NSQ
    masks = [0] * 12
    for colour, (a, b) in enumerate(COLOUR_SQUARES):
        sqcol[a] = sqcol[b] = colour
        twin[a], twin[b] = b, a
        masks[colour] = (1 << a) | (1 << b)
    allmask = 0
    for m in masks:
        allmask |= m
    return sqcol, twin, masks, allmask


#: SQ_COLOUR[sq] = colour of a square of colour, else -1; TWIN[sq] = the other square of that colour, else -1
SQ_COLOUR, TWIN, COLOUR_MASK, ALL_COLOUR_SQUARES = _colour_tables()

#: the central 4×4 (g7–j10): a pawn moving in promotes
ZONE: Final = sum(1 << sq_of(f, r) for f in range(6, 10) for r in range(6, 10))

I1: Final = sq_of(8, 0)
I16: Final = sq_of(8, 15)
RANK1: Final = (1 << 16) - 1
RANK16: Final = RANK1 << 240



def line_step(fr: int, to: int) -> int:
    """The one-square step from ``fr`` towards ``to`` along a rank (±1) or a file (±16)."""
    if fr >> 4 == to >> 4:
        return 1 if to > fr else -1
    return SIZE if to > fr else -SIZE


def home_lines(homes: dict[int, int]) -> list[int]:
    """HOME_LINE tables: for each square, the castling line (a set of rook squares) whose rights a king standing
    there holds — ``homes`` maps the kings' home squares to their lines; every other square holds none (0)."""
    table = [0] * NSQ
    for sq, line in homes.items():
        table[sq] = line
    return table


# Directions: N, E, NE, NW are "positive" (squares grow along them); S, W, SW, SE are "negative".
DIRECTIONS: Final = ((1, 0), (0, 1), (1, 1), (1, -1), (-1, 0), (0, -1), (-1, -1), (-1, 1))  # (drank, dfile)
ORTHO_DIRS: Final = (0, 1, 4, 5)
DIAG_DIRS: Final = (2, 3, 6, 7)


def _on(r: int, f: int) -> bool:
    return 0 <= r < SIZE and 0 <= f < SIZE


def _rays() -> tuple[list[list[int]], list[list[int]]]:
    """(RAY8, RAYFULL): each ray walked once, to the edge, its first eight squares kept as well."""
    near: list[list[int]] = []
    full: list[list[int]] = []
    for dr, df in DIRECTIONS:
        near_row: list[int] = []
        full_row: list[int] = []
        for sq in range(NSQ):
            r, f = (sq >> 4) + dr, (sq & 15) + df
            m = k = 0
            while 0 <= r < SIZE and 0 <= f < SIZE:
                m |= 1 << (r * SIZE + f)
                k += 1
                if k == MAX_REACH:
                    near_row.append(m)
                r, f = r + dr, f + df
            if k < MAX_REACH:
                near_row.append(m)
            full_row.append(m)
        near.append(near_row)
        full.append(full_row)
    return near, full


#: RAY8[d][sq]: the squares within eight steps from sq in direction d; RAYFULL to the edge
_NEAR, _FULL = _rays()
RAY8: Final = _NEAR
RAYFULL: Final = _FULL
ORTHO8: Final = [RAY8[0][s] | RAY8[1][s] | RAY8[4][s] | RAY8[5][s] for s in range(NSQ)]
DIAG8: Final = [RAY8[2][s] | RAY8[3][s] | RAY8[6][s] | RAY8[7][s] for s in range(NSQ)]


def _leaper(deltas: tuple[tuple[int, int], ...]) -> list[int]:
    out = []
    for sq in range(NSQ):
        r, f = sq >> 4, sq & 15
        m = 0
        for dr, df in deltas:
            if 0 <= r + dr < SIZE and 0 <= f + df < SIZE:
                m |= 1 << ((r + dr) * SIZE + f + df)
        out.append(m)
    return out


KNIGHT_ATTACKS: Final = _leaper(((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)))
KING_ATTACKS: Final = _leaper(DIRECTIONS)


def _closer(a: int, b: int) -> bool:
    """Whether moving along one axis from index a to b gets nearer the brown line at 7.5 (doubled: 15)."""
    return abs(2 * b - 15) < abs(2 * a - 15)


def _ring(r: int, f: int) -> int:
    return min(r, SIZE - 1 - r, f, SIZE - 1 - f)


def _pawn_tables() -> tuple[list[list[int]], list[list[tuple[int, int]]], list[int], list[int]]:
    steps: list[list[int]] = []
    doubles: list[list[tuple[int, int]]] = []
    caps: list[int] = []
    for sq in range(NSQ):
        r, f = sq >> 4, sq & 15
        st = []
        for dr, df in DIRECTIONS[:1] + DIRECTIONS[1:2] + DIRECTIONS[4:6]:
            rr, ff = r + dr, f + df
            if _on(rr, ff) and (_closer(r, rr) if dr else _closer(f, ff)):
                st.append(sq_of(ff, rr))
        steps.append(st)
        dbl = []
        if _ring(r, f) <= 1:
            # away from the closest edge(s); two equally close edges allow both
            dists = {(1, 0): r, (-1, 0): SIZE - 1 - r, (0, 1): f, (0, -1): SIZE - 1 - f}
            nearest = min(dists.values())
            for (dr, df), dist in dists.items():
                if dist == nearest:
                    dbl.append((sq_of(f + df, r + dr), sq_of(f + 2 * df, r + 2 * dr)))
        doubles.append(dbl)
        m = 0
        for dr, df in DIRECTIONS[2:4] + DIRECTIONS[6:8]:
            rr, ff = r + dr, f + df
            if _on(rr, ff) and (_closer(r, rr) or _closer(f, ff)):
                m |= 1 << sq_of(ff, rr)
        caps.append(m)
    attackers = [0] * NSQ
    for sq in range(NSQ):
        m = caps[sq]
        while m:
            low = m & -m
            attackers[low.bit_length() - 1] |= 1 << sq
            m ^= low
    return steps, doubles, caps, attackers


#: PAWN_STEPS[sq]: one-square moves; PAWN_DOUBLES[sq]: (passed square, target) two-square moves;
#: PAWN_CAPTURES[sq]: capture targets; PAWN_ATTACKERS[sq]: squares a pawn captures onto sq from.
#: A pawn moves the same way whatever its colour, so the tables are per square only.
PAWN_STEPS, PAWN_DOUBLES, PAWN_CAPTURES, PAWN_ATTACKERS = _pawn_tables()


def iter_bits(mask: int) -> list[int]:
    """The squares of a set, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _pawn_direction_masks() -> tuple[list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int]]]:
    """Set-wise pawn tables: for each step direction, (shift, squares a pawn may step that way from)."""
    steps: dict[int, int] = {}
    doubles: dict[int, int] = {}
    caps: dict[int, int] = {}
    for sq in range(NSQ):
        for t in PAWN_STEPS[sq]:
            steps[t - sq] = steps.get(t - sq, 0) | (1 << sq)
        for mid, _t in PAWN_DOUBLES[sq]:
            doubles[mid - sq] = doubles.get(mid - sq, 0) | (1 << sq)
        for t in iter_bits(PAWN_CAPTURES[sq]):
            caps[t - sq] = caps.get(t - sq, 0) | (1 << sq)
    return sorted(steps.items()), sorted(doubles.items()), sorted(caps.items())


#: (shift, from-squares) per direction: one-square moves, two-square moves (shift is one step), captures
PAWN_STEP_SETS, PAWN_DOUBLE_SETS, PAWN_CAPTURE_SETS = _pawn_direction_masks()


def _slider_rays() -> list[list[tuple[tuple[int, list[int], bool], ...]]]:
    """SLIDER_RAYS[role][sq]: per direction (squares within eight, the full rays beyond each square, whether the
    first blocker is the lowest bit) for bishops, rooks and queens."""
    table: list[list[tuple[tuple[int, list[int], bool], ...]]] = [[] for _ in range(7)]
    for role, dirs in ((BISHOP, DIAG_DIRS), (ROOK, ORTHO_DIRS), (QUEEN, ORTHO_DIRS + DIAG_DIRS)):
        table[role] = [tuple((RAY8[d][sq], RAYFULL[d], d < 4) for d in dirs) for sq in range(NSQ)]
    return table


SLIDER_RAYS: Final = _slider_rays()
