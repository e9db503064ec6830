"""Royale position text, and the Royale start position (a data file beside this module).

``<16 ranks, 16 first, '/'-separated> <seat to move 1-4> <seat 1's colour> <seat 2's> <seat 3's> <seat 4's>
<castling rook squares, comma-separated, or -> <ply count>`` — the two-player position text (:mod:`.fen`) with a
colour per seat and the castling rooks named by square: :class:`RoyaleText` overrides its hooks.
A seat whose owned colour has no king on the board is in Interregnum.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Final

from companion.rules.sovereign_chess.fen import PositionText
from companion.rules.sovereign_chess.royale import RoyalePosition, castling_line, home_of_line
from companion.rules.sovereign_chess.squares import KING, NSQ, ROOK, Colour, parse_square, square_name

START_FILE: Final = Path(__file__).with_name("royale_start.txt")


class RoyaleText(PositionText[RoyalePosition]):
    """Royale position text: seats, not players; castling rights as the rooks' squares on each seat's edge line."""

    name = "Royale position text"
    seat = "seat"
    mover = "seat to move"

    def both_own(self, a: int, b: int, colour: Colour) -> str:
        return f"seats {a} and {b} both own {colour.label}"

    def read_castling(self, field: str, board: list[int]) -> int:
        castling = 0
        if field == "-":
            return castling
        for name in field.split(","):
            try:
                sq = parse_square(name)
            except ValueError:
                raise self.bad(f"castling: {name!r} is not a square (a1..p16); list rook squares with commas, "
                               "or -") from None
            if castling >> sq & 1:
                raise self.bad(f"castling: {name} given twice")
            if board[sq] & 7 != ROOK:
                raise self.bad(f"castling: {name} holds no rook")
            home = home_of_line(castling_line(sq))
            if home < 0:
                raise self.bad(f"castling: {name} is not on an edge of the board")
            if board[home] & 7 != KING:
                raise self.bad(f"castling: {name} needs an unmoved king on {square_name(home)}, which holds none")
            castling |= 1 << sq
        return castling

    def castling_text(self, castling: int) -> str:
        """The rooks' squares, ascending."""
        return ",".join(square_name(sq) for sq in range(NSQ) if castling >> sq & 1) or "-"


ROYALE: Final = RoyaleText(RoyalePosition)


@cache
def royale_start() -> str:
    """The default Royale start position (read once from ``royale_start.txt``; see its manual's readings)."""
    lines = [ln.strip() for ln in START_FILE.read_text(encoding="utf-8").splitlines()]
    return next(ln for ln in lines if ln and not ln.startswith("#"))


def parse_royale(text: str) -> RoyalePosition:
    """Royale position text → :class:`RoyalePosition`. Raises :class:`PositionTextError` naming the field."""
    return ROYALE.parse(text)


def royale_text(pos: RoyalePosition) -> str:
    """:class:`RoyalePosition` → Royale position text (canonical: castling squares ascending)."""
    return ROYALE.text(pos)


__all__ = ["RoyaleText", "parse_royale", "royale_start", "royale_text"]
