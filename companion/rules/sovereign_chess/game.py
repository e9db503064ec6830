"""The public API: a position with its move history, in terms of :class:`Move`, :class:`Colour` and square names."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from companion.rules.sovereign_chess.errors import IllegalMoveError
from companion.rules.sovereign_chess.fen import START, TWO_PLAYER, PositionText
from companion.rules.sovereign_chess.movegen import legal_moves
from companion.rules.sovereign_chess.moves import Move, move_from_packed, parse_move_text, spec_matches
from companion.rules.sovereign_chess.position import Position
from companion.rules.sovereign_chess.squares import COLOUR_SQUARES, Colour, Role, iter_bits


@dataclass(frozen=True)
class Piece:
    colour: Colour
    role: Role


@dataclass(frozen=True)
class Outcome:
    """How the game ended: ``checkmate`` (``winner`` is the player who gave it) or ``stalemate`` (no winner)."""

    result: str
    winner: int | None


class SovereignChess:
    """A Sovereign Chess game in progress: position text in and out, legal moves, make and unmake, control, check.

    Players are 1 and 2. Squares are ints (``rank * 16 + file``); :func:`~.squares.square_name` names them.

    The family's game: a variant's (:class:`~.royale_game.SovereignChessRoyale`) overrides the hooks —
    :attr:`NOTATION` (its position text, and so its position class and seats), :attr:`mover`, :meth:`_push` (what
    making a move records) and :meth:`outcome`.
    """

    NOTATION: ClassVar[PositionText[Any]] = TWO_PLAYER

    def __init__(self, text: str = START) -> None:
        self.position: Position = self.NOTATION.parse(text)
        self._made: list[Move | None] = []

    @property
    def text(self) -> str:
        return self.NOTATION.text(self.position)

    @property
    def turn(self) -> int:
        return self.position.turn

    @property
    def ply(self) -> int:
        return self.position.ply

    @property
    def mover(self) -> str:
        """The side to move, as messages name it (``player 2``)."""
        return f"player {self.turn}"

    def piece_at(self, sq: int) -> Piece | None:
        p = self.position.board[sq]
        return Piece(Colour(p >> 3), Role(p & 7)) if p else None

    # -------------------------------------------------------------- colours

    def owned(self, player: int) -> Colour:
        return Colour(self.position.owned[player])

    def controlled(self, player: int) -> list[Colour]:
        """The colours ``player`` controls through squares of colour (their owned colour not included)."""
        own = self.position.owned[player]
        return [Colour(c) for c in range(12) if self.position.ctrl[c] == player and c != own]

    def controller(self, colour: Colour) -> int:
        """The player (Royale: the seat) who owns or controls ``colour``, 0 for nobody."""
        return self.position.ctrl[colour]

    def blocked(self) -> list[int]:
        """Empty squares of colour that may not be occupied because their twin is, ascending."""
        return iter_bits(self.position.blocked_mask())

    def occupied_colour_squares(self) -> list[int]:
        board = self.position.board
        return sorted(sq for pair in COLOUR_SQUARES for sq in pair if board[sq])

    # -------------------------------------------------------------- moves

    def legal_moves(self, defections: bool = True) -> list[Move]:
        board = self.position.board
        return [move_from_packed(board, m) for m in legal_moves(self.position, defections)]

    def parse_move(self, text: str) -> Move:
        """Move text → the legal :class:`Move` it names. MoveTextError if malformed, IllegalMoveError if not legal."""
        spec = parse_move_text(text)
        for move in self.legal_moves():
            if spec_matches(spec, move):
                return move
        if self.position.over:
            raise IllegalMoveError(f"move {text.strip()!r}: the game is over")
        raise IllegalMoveError(f"move {text.strip()!r} is not legal for {self.mover} in this position")

    def make(self, move: Move | str) -> Move:
        """Make a legal move (a :class:`Move` or move text). Raises IllegalMoveError and changes nothing if not."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif move.packed not in legal_moves(self.position):
            raise IllegalMoveError(f"move {move.text} is not legal for {self.mover} in this position")
        else:
            move = move_from_packed(self.position.board, move.packed)  # the canonical form of what is made
        self._push(move)
        self._made.append(move)
        return move

    def _push(self, move: Move) -> None:
        self.position.push(move.packed)

    def gives_check(self, move: Move) -> bool:
        """Whether ``move``, one of :meth:`legal_moves` here, leaves the side then to move in check: made and unmade
        as :meth:`make` and :meth:`unmake` do, without generating every legal move again to check it."""
        self._push(move)
        self._made.append(move)
        try:
            return self.in_check()
        finally:
            self.unmake()

    def unmake(self) -> Move | None:
        """Take back the last move (or the opening acceptance, returning None). IndexError when there is none."""
        if not self._made:
            raise IndexError("no move to take back")
        self.position.pop()
        return self._made.pop()

    @property
    def opening_choice_pending(self) -> bool:
        """Right after the first move the second player accepts it (owning that army) or rejects it (plays on)."""
        return self.position.opening_choice_pending

    def accept_opening(self) -> None:
        """Player 2 accepts the first move: the players swap armies and player 1 moves next. Undone by unmake()."""
        if not self.position.opening_choice_pending:
            raise IllegalMoveError("the first move can only be accepted right after it, with player 2 to move")
        self.position.accept_opening()
        self._made.append(None)

    # -------------------------------------------------------------- state of play

    def in_check(self, player: int | None = None) -> bool:
        return self.position.in_check(player or self.turn)

    def king_square(self, player: int) -> int | None:
        ks = self.position.kings[player]
        return ks if ks >= 0 else None

    def outcome(self) -> Outcome | None:
        """Checkmate or stalemate when the side to move has no legal move (regime changes included), else None."""
        if legal_moves(self.position, True):
            return None
        if self.in_check():
            return Outcome("checkmate", 3 - self.turn)
        return Outcome("stalemate", None)
