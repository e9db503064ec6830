"""Errors the engine raises. All are ValueErrors with a one-line message that says what and where."""
from __future__ import annotations


class ChessError(ValueError):
    """Base of the engine's errors."""


class PositionTextError(ChessError):
    """Position text (the FEN-like form) is malformed or describes an impossible position."""


class MoveTextError(ChessError):
    """Move text does not follow the grammar."""


class IllegalMoveError(ChessError):
    """A well-formed move that the rules do not allow in this position."""


QUOTE_MAX = 40  #: characters of a bad input an error quotes: a line of any length stays one short line


def quoted(text: str) -> str:
    """``text`` quoted for an error message, cut to :data:`QUOTE_MAX` characters with "…" when longer."""
    return repr(text if len(text) <= QUOTE_MAX else text[:QUOTE_MAX] + "…")
