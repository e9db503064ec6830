"""Position text: read and write the FEN-like form.

``<16 ranks, 16 first, '/'-separated> <side to move 1|2> <player 1's owned colour> <player 2's owned colour>
<castling rook files: A–P on rank 1, a–p on rank 16, or -> <ply count>``. A piece is a colour letter
(``w a s b p r o y g c n v``) then a role letter (``k q r b n p``); a number 1–16 is a run of empty squares.
"""
from __future__ import annotations

from typing import Final

from companion.rules.sovereign_chess.errors import PositionTextError
from companion.rules.sovereign_chess.position import Position
from companion.rules.sovereign_chess.squares import (
    COLOUR_LETTERS,
    COLOUR_SQUARES,
    FILES,
    I1,
    I16,
    KING,
    NSQ,
    ROLE_LETTERS,
    ROOK,
    SIZE,
    Colour,
    sq_of,
    square_name,
)

START: Final = (
    "aqabvrvnbrbnbbbqbkbbbnbrynyrsbsq/aranvpvpbpbpbpbpbpbpbpbpypypsnsr/nbnp12opob/nqnp12opoq/crcp12rprr/"
    "cncp12rprn/gbgp12pppb/gqgp12pppq/yqyp12vpvq/ybyp12vpvb/onop12npnn/orop12npnr/rqrp12cpcq/rbrp12cpcb/"
    "srsnppppwpwpwpwpwpwpwpwpgpgpanar/sqsbprpnwrwnwbwqwkwbwnwrgngrabaq 1 w b CELNceln 0"
)

_DIGITS: Final = "0123456789"  # ASCII only: str.isdigit() also accepts '²' and '١'
_FIELDS = ("board", "side to move", "player 1's colour", "player 2's colour", "castling", "ply count")


def _bad(msg: str) -> PositionTextError:
    return PositionTextError(f"position text: {msg}")


def _parse_rank(text: str, rank: int, board: list[int]) -> None:
    where = f"rank {rank + 1} ({text!r})"
    i = 0
    file = 0
    while i < len(text):
        ch = text[i]
        if ch in _DIGITS:
            j = i
            while j < len(text) and text[j] in _DIGITS:
                j += 1
            run = int(text[i:j])
            if not 1 <= run <= SIZE or text[i] == "0":
                raise _bad(f"{where}: empty-square count {text[i:j]} at character {i + 1} is not 1-16")
            file += run
            i = j
        else:
            if ch not in COLOUR_LETTERS:
                raise _bad(
                    f"{where}: {ch!r} at character {i + 1} is not a colour letter ({COLOUR_LETTERS}) or a number"
                )
            if i + 1 >= len(text) or text[i + 1] not in ROLE_LETTERS[1:]:
                got = repr(text[i + 1]) if i + 1 < len(text) else "the end"
                raise _bad(
                    f"{where}: colour {ch!r} at character {i + 1} must be followed by a role (kqrbnp), got {got}"
                )
            if file < SIZE:
                board[sq_of(file, rank)] = (COLOUR_LETTERS.index(ch) << 3) | ROLE_LETTERS.index(text[i + 1])
            file += 1
            i += 2
        if file > SIZE:
            raise _bad(f"{where}: more than 16 squares (at character {i})")
    if file != SIZE:
        raise _bad(f"{where}: describes {file} squares, not 16")


def _colour(field: str, which: str) -> int:
    if len(field) != 1 or field not in COLOUR_LETTERS:
        raise _bad(f"{which} {field!r} is not a colour letter ({COLOUR_LETTERS})")
    return COLOUR_LETTERS.index(field)


def parse_position(text: str) -> Position:
    """Position text → :class:`Position`. Raises :class:`PositionTextError` saying which field (and where) is
    wrong."""
    fields = text.split()
    if len(fields) != len(_FIELDS):
        raise _bad(f"expected {len(_FIELDS)} space-separated fields ({', '.join(_FIELDS)}), got {len(fields)}")
    ranks = fields[0].split("/")
    if len(ranks) != SIZE:
        raise _bad(f"board: expected 16 ranks separated by '/', got {len(ranks)}")
    board = [0] * NSQ
    for i, rank_text in enumerate(ranks):
        _parse_rank(rank_text, SIZE - 1 - i, board)
    if fields[1] not in ("1", "2"):
        raise _bad(f"side to move must be 1 or 2, got {fields[1]!r}")
    turn = int(fields[1])
    o1 = _colour(fields[2], "player 1's colour")
    o2 = _colour(fields[3], "player 2's colour")
    if o1 == o2:
        raise _bad(f"both players own {Colour(o1).label}")
    castling = 0
    if fields[4] != "-":
        for ch in fields[4]:
            if ch.lower() not in FILES:
                raise _bad(f"castling: {ch!r} is not a file letter (A-P for rank 1, a-p for rank 16, or -)")
            sq = sq_of(FILES.index(ch.lower()), 0 if ch.isupper() else SIZE - 1)
            if castling >> sq & 1:
                raise _bad(f"castling: {ch!r} given twice")
            if board[sq] & 7 != ROOK:
                raise _bad(f"castling: {ch!r} names {square_name(sq)}, which holds no rook")
            home = I1 if ch.isupper() else I16
            if board[home] & 7 != KING:
                raise _bad(f"castling: {ch!r} needs an unmoved king on {square_name(home)}, which holds none")
            castling |= 1 << sq
    if not fields[5] or fields[5].strip(_DIGITS):
        raise _bad(f"ply count must be a whole number, got {fields[5]!r}")
    ply = int(fields[5])
    _check_board(board, o1, o2)
    pos = Position(board, turn, (o1, o2), castling, ply)
    if pos.in_check(3 - turn):
        raise _bad(f"player {3 - turn} is in check but it is player {turn}'s move")
    return pos


def _check_board(board: list[int], o1: int, o2: int) -> None:
    kings: dict[int, int] = {}
    for sq, p in enumerate(board):
        if p & 7 == KING:
            colour = p >> 3
            if colour not in (o1, o2):
                raise _bad(
                    f"{Colour(colour).label} king on {square_name(sq)}: every king must be a player's owned colour"
                )
            if colour in kings:
                raise _bad(
                    f"two {Colour(colour).label} kings ({square_name(kings[colour])} and {square_name(sq)})"
                )
            kings[colour] = sq
    for colour, (a, b) in enumerate(COLOUR_SQUARES):
        if board[a] and board[b]:
            raise _bad(
                f"both {Colour(colour).label} squares ({square_name(a)} and {square_name(b)}) are occupied; "
                "only one square of each colour may be"
            )


def board_text(board: list[int]) -> str:
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        row = []
        empty = 0
        for file in range(SIZE):
            p = board[sq_of(file, rank)]
            if not p:
                empty += 1
                continue
            if empty:
                row.append(str(empty))
                empty = 0
            row.append(COLOUR_LETTERS[p >> 3] + ROLE_LETTERS[p & 7])
        if empty:
            row.append(str(empty))
        rows.append("".join(row))
    return "/".join(rows)


def castling_text(castling: int) -> str:
    upper = "".join(FILES[f].upper() for f in range(SIZE) if castling >> f & 1)
    lower = "".join(FILES[f] for f in range(SIZE) if castling >> (240 + f) & 1)
    return upper + lower or "-"


def position_text(pos: Position) -> str:
    """:class:`Position` → position text (canonical: runs merged, castling files sorted)."""
    return " ".join(
        (
            board_text(pos.board),
            str(pos.turn),
            COLOUR_LETTERS[pos.owned[1]],
            COLOUR_LETTERS[pos.owned[2]],
            castling_text(pos.castling),
            str(pos.ply),
        )
    )
