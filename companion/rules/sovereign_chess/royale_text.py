"""Royale position text, and the Royale start position (a data file beside this module).

``<16 ranks, 16 first, '/'-separated> <seat to move 1-4> <seat 1's colour> <seat 2's> <seat 3's> <seat 4's>
<castling rook squares, comma-separated, or -> <ply count>`` — the board as in two-player position text.
A seat whose owned colour has no king on the board is in Interregnum.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

from companion.rules.sovereign_chess.errors import PositionTextError
from companion.rules.sovereign_chess.fen import _DIGITS, _parse_rank, board_text
from companion.rules.sovereign_chess.royale import SEATS, RoyalePosition, castling_line, home_of_line
from companion.rules.sovereign_chess.squares import COLOUR_LETTERS, COLOUR_SQUARES, KING, NSQ, ROOK, SIZE, Colour, parse_square, square_name

START_FILE: Final = Path(__file__).with_name("royale_start.txt")
_FIELDS: Final = (
    "board", "seat to move", "seat 1's colour", "seat 2's colour", "seat 3's colour", "seat 4's colour",
    "castling", "ply count",
)


def _bad(msg: str) -> PositionTextError:
    return PositionTextError(f"Royale position text: {msg}")


@cache
def royale_start() -> str:
    """The default Royale start position (read once from ``royale_start.txt``; see its manual's readings)."""
    lines = [ln.strip() for ln in START_FILE.read_text(encoding="utf-8").splitlines()]
    return next(ln for ln in lines if ln and not ln.startswith("#"))


def parse_royale(text: str) -> RoyalePosition:
    """Royale position text → :class:`RoyalePosition`. Raises :class:`PositionTextError` naming the field."""
    fields = text.split()
    if len(fields) != len(_FIELDS):
        raise _bad(f"expected {len(_FIELDS)} space-separated fields ({', '.join(_FIELDS)}), got {len(fields)}")
    ranks = fields[0].split("/")
    if len(ranks) != SIZE:
        raise _bad(f"board: expected 16 ranks separated by '/', got {len(ranks)}")
    board = [0] * NSQ
    try:
        for i, rank_text in enumerate(ranks):
            _parse_rank(rank_text, SIZE - 1 - i, board)
    except PositionTextError as e:
        raise _bad(str(e).removeprefix("position text: ")) from None
    if fields[1] not in ("1", "2", "3", "4"):
        raise _bad(f"seat to move must be 1, 2, 3 or 4, got {fields[1]!r}")
    owned: list[int] = []
    for seat, field in zip(SEATS, fields[2:6]):
        if len(field) != 1 or field not in COLOUR_LETTERS:
            raise _bad(f"seat {seat}'s colour {field!r} is not a colour letter ({COLOUR_LETTERS})")
        colour = COLOUR_LETTERS.index(field)
        if colour in owned:
            raise _bad(f"seats {owned.index(colour) + 1} and {seat} both own {Colour(colour).label}")
        owned.append(colour)
    castling = _castling(fields[6], board)
    if not fields[7] or fields[7].strip(_DIGITS):
        raise _bad(f"ply count must be a whole number, got {fields[7]!r}")
    _check_board(board, owned)
    return RoyalePosition(board, int(fields[1]), owned, castling, int(fields[7]))


def _castling(field: str, board: list[int]) -> int:
    castling = 0
    if field == "-":
        return castling
    for name in field.split(","):
        try:
            sq = parse_square(name)
        except ValueError:
            raise _bad(f"castling: {name!r} is not a square (a1..p16); list rook squares with commas, or -") from None
        if castling >> sq & 1:
            raise _bad(f"castling: {name} given twice")
        if board[sq] & 7 != ROOK:
            raise _bad(f"castling: {name} holds no rook")
        home = home_of_line(castling_line(sq))
        if home < 0:
            raise _bad(f"castling: {name} is not on an edge of the board")
        if board[home] & 7 != KING:
            raise _bad(f"castling: {name} needs an unmoved king on {square_name(home)}, which holds none")
        castling |= 1 << sq
    return castling


def _check_board(board: list[int], owned: list[int]) -> None:
    kings: dict[int, int] = {}
    for sq, p in enumerate(board):
        if p & 7 == KING:
            colour = p >> 3
            if colour not in owned:
                raise _bad(
                    f"{Colour(colour).label} king on {square_name(sq)}: every king must be a seat's owned colour"
                )
            if colour in kings:
                raise _bad(f"two {Colour(colour).label} kings ({square_name(kings[colour])} and {square_name(sq)})")
            kings[colour] = sq
    for colour, (a, b) in enumerate(COLOUR_SQUARES):
        if board[a] and board[b]:
            raise _bad(
                f"both {Colour(colour).label} squares ({square_name(a)} and {square_name(b)}) are occupied; "
                "only one square of each colour may be"
            )


def royale_text(pos: RoyalePosition) -> str:
    """:class:`RoyalePosition` → Royale position text (canonical: castling squares ascending)."""
    rooks = [square_name(sq) for sq in range(NSQ) if pos.castling >> sq & 1]
    return " ".join(
        (
            board_text(pos.board),
            str(pos.turn),
            *(COLOUR_LETTERS[pos.owned[seat]] for seat in SEATS),
            ",".join(rooks) or "-",
            str(pos.ply),
        )
    )


__all__ = ["parse_royale", "royale_start", "royale_text"]
