"""OpenSovereignChess notation: the move text of the online board, read and written beside the companion's own.

The two notations are the same for ordinary moves (``wPi2-i4``, ``bQa2xi2``, ``wPh6-h7=K``) and defections
(``wK=navy``). They differ in two places:

* castling: OpenSovereignChess names the side, ``O-O@j1`` toward the king's right (the h-to-p side of the board),
  ``O-O-O@h1`` toward its left; the companion writes ``O-O@`` and the king's destination for both;
* check: OpenSovereignChess ends a move that gives check with ``+`` and one that mates with ``#``; the companion
  writes neither (the screen says so).

A defection to a colour whose square the king stands on must step the king off at once (the rules' exception):
the companion writes both in one move, ``wK=navy,nKe5-e6``; OpenSovereignChess has no notation for it, so an
export keeps the companion's text there (with the check mark).
"""
from __future__ import annotations

import re

from companion.rules.sovereign_chess import ChessError, SovereignChess
from companion.rules.sovereign_chess.errors import quoted
from companion.rules.sovereign_chess.moves import Move, MoveKind
from companion.rules.sovereign_chess.squares import square_name

NOTATIONS = ("companion", "osc")  #: what ``companion export --record --notation`` writes
_MARKS = re.compile(r"[+#]+$")
_CASTLE = re.compile(r"^(O-O-O|O-O)@([a-p](?:1[0-6]|[1-9]))$")


def _queen_side(move: Move) -> bool:
    """Castling toward the king's left (a lower file): OpenSovereignChess's ``O-O-O``."""
    return square_name(move.to_sq)[0] < square_name(move.from_sq)[0]


def osc_text(game: SovereignChess, move: Move) -> str:
    """``move`` (legal in ``game``, not yet made) in OpenSovereignChess notation. Makes and unmakes it."""
    text = move.text
    if move.kind is MoveKind.CASTLING and _queen_side(move):
        text = "O-O-O" + text[3:]
    game.make(move)
    try:
        outcome = game.outcome()
        mark = "#" if outcome is not None and outcome.result == "checkmate" else ("+" if game.in_check() else "")
    finally:
        game.unmake()
    return text + mark


def companion_text(game: SovereignChess, text: str) -> str:
    """A move in either notation as the companion's move text: check marks dropped, ``O-O-O@h1`` read as the
    castling it names (the side must agree with the king's destination). Raises :class:`ChessError`."""
    bare = _MARKS.sub("", text.strip())
    m = _CASTLE.match(bare)
    if m is None:
        if bare.startswith("O-O"):
            raise ChessError(f"{quoted(text)}: castling is O-O@ or O-O-O@ and the king's square, a1 to p16 "
                             "(O-O-O@h1)")
        return bare
    ours = f"O-O@{m.group(2)}"
    try:
        move = game.parse_move(ours)
    except ChessError:
        raise ChessError(f"castling '{text}' is not legal for player {game.turn} in this position") from None
    if m.group(1) == "O-O-O" and not _queen_side(move):  # (O-O@h1 is the companion's own text for either side)
        raise ChessError(f"'{text}': castling to {m.group(2)} is on the king's side: write O-O@{m.group(2)}")
    return ours


def to_osc(moves: list[str], start: SovereignChess) -> list[str]:
    """The companion's move lines (``accept``/``reject`` among them) in OpenSovereignChess notation, played from
    ``start`` (which they leave at the end of the game)."""
    out: list[str] = []
    for line in moves:
        if line in ("accept", "reject"):
            if line == "accept":
                start.accept_opening()
            out.append(line)
            continue
        move = start.parse_move(line)
        out.append(osc_text(start, move))
        start.make(move)
    return out


__all__ = ["NOTATIONS", "companion_text", "osc_text", "to_osc"]
