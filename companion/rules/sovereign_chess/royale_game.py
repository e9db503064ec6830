"""The Royale API: a four-seat game in progress, in terms of :class:`~.moves.Move`, colours and seats 1–4."""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.rules.sovereign_chess.errors import IllegalMoveError
from companion.rules.sovereign_chess.game import Piece
from companion.rules.sovereign_chess.moves import Move, move_from_packed, parse_move_text, spec_matches
from companion.rules.sovereign_chess.royale import SEATS, RoyalePosition, pseudo_moves
from companion.rules.sovereign_chess.royale_text import parse_royale, royale_start, royale_text
from companion.rules.sovereign_chess.squares import COLOUR_SQUARES, Colour, Role, iter_bits

#: the armies of seats 1–4, in the order of play (the names stay whatever colours the seats own later)
ARMIES = ("White", "Ash", "Slate", "Black")


@dataclass(frozen=True)
class RoyaleOutcome:
    """How a Royale game ended.

    ``winner``: the seat owning the last king (None when no king is left, or when nobody can move). ``tied``: the
    seats without a king at the end — in Interregnum, whether their king was captured or escaped — who tie with
    each other. ``reason``: ``"last king"``, ``"no king"`` or ``"no moves"``."""

    winner: int | None
    tied: tuple[int, ...]
    reason: str


@dataclass(frozen=True)
class MoveReport:
    """What one move did beyond moving pieces, for announcing at the table.

    ``captured``: seats whose king the move captured. ``crowned``: seats that left Interregnum (a promotion to
    king). ``escaped``: seats whose king escaped at the start of their turn (removed; now in Interregnum).
    ``passed``: seats passed over for having no move. ``checks``: after all that, each seat whose king is in check
    and the seats checking it. ``removed``: {seat: square} of the kings the move took off the board other than by
    capture — the mover's old king on a promotion to king, and escaped kings — which the table must take off the
    physical board."""

    move: Move
    seat: int
    captured: tuple[int, ...]
    crowned: tuple[int, ...]
    escaped: tuple[int, ...]
    passed: tuple[int, ...]
    checks: dict[int, tuple[int, ...]]
    removed: dict[int, int] = field(default_factory=dict)


class SovereignChessRoyale:
    """A Sovereign Chess Royale game: seats 1–4 move in that order for the whole game.

    Every move the pieces allow is legal (into check, staying in check, castling through check, capturing a king).
    """

    def __init__(self, text: str | None = None) -> None:
        self.position: RoyalePosition = parse_royale(royale_start() if text is None else text)
        self._made: list[MoveReport] = []

    @property
    def text(self) -> str:
        return royale_text(self.position)

    @property
    def turn(self) -> int:
        return self.position.turn

    @property
    def ply(self) -> int:
        return self.position.ply

    @property
    def mover(self) -> str:
        """The seat to move named by its army, as the table knows it (``the Ash army``): the seat numbers of the
        engine are the order of play, not the seats at the table."""
        return f"the {ARMIES[self.turn - 1]} army"

    @property
    def reports(self) -> list[MoveReport]:
        """One :class:`MoveReport` per move made, in order."""
        return list(self._made)

    def piece_at(self, sq: int) -> Piece | None:
        p = self.position.board[sq]
        return Piece(Colour(p >> 3), Role(p & 7)) if p else None

    # -------------------------------------------------------------- colours

    def owned(self, seat: int) -> Colour:
        return Colour(self.position.owned[seat])

    def controlled(self, seat: int) -> list[Colour]:
        """The colours ``seat`` controls through squares of colour (its owned colour not included)."""
        own = self.position.owned[seat]
        return [Colour(c) for c in range(12) if self.position.ctrl[c] == seat and c != own]

    def controller(self, colour: Colour) -> int:
        """The seat (1–4) that owns or controls ``colour``; 0 for nobody."""
        return self.position.ctrl[colour]

    def blocked(self) -> list[int]:
        return iter_bits(self.position.blocked_mask())

    def occupied_colour_squares(self) -> list[int]:
        board = self.position.board
        return sorted(sq for pair in COLOUR_SQUARES for sq in pair if board[sq])

    # -------------------------------------------------------------- kings

    def king_square(self, seat: int) -> int | None:
        ks = self.position.kings[seat]
        return ks if ks >= 0 else None

    def kings(self) -> dict[int, int | None]:
        return {seat: self.king_square(seat) for seat in SEATS}

    def interregnum(self) -> list[int]:
        """The seats without a king (captured or escaped): they still move but cannot win."""
        return [seat for seat in SEATS if self.position.kings[seat] < 0]

    def in_check(self, seat: int | None = None) -> bool:
        return self.position.in_check(seat or self.turn)

    def checks(self) -> dict[int, tuple[int, ...]]:
        """{seat in check: the seats whose pieces attack its king}, seats ascending."""
        out = {}
        for seat in SEATS:
            by = self.position.checkers(seat)
            if by:
                out[seat] = tuple(by)
        return out

    # -------------------------------------------------------------- moves

    def legal_moves(self, defections: bool = True) -> list[Move]:
        board = self.position.board
        return [move_from_packed(board, m) for m in pseudo_moves(self.position, defections)]

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
        """Make a legal move (a :class:`Move` or move text); :attr:`last_report` says what it did. Raises
        IllegalMoveError and changes nothing if the move is not legal."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif move.packed not in pseudo_moves(self.position):
            raise IllegalMoveError(f"move {move.text} is not legal for {self.mover} in this position")
        else:
            move = move_from_packed(self.position.board, move.packed)
        pos = self.position
        seat = pos.turn
        kings_before = pos.kings[:]
        before = pos.copy()
        pos.push(move.packed)
        escaped, passed = pos.events[-1]
        captured = tuple(s for s in SEATS if move.capture and kings_before[s] == move.to_sq)
        crowned = (seat,) if kings_before[seat] < 0 and move.promotion is Role.KING else ()
        removed = {seat: kings_before[seat]} if move.promotion is Role.KING and kings_before[seat] >= 0 else {}
        if escaped:  # where each escaped king stood after the move, before the start of the turn took it off
            before.push_move(move.packed)
            removed.update((s, before.kings[s]) for s in escaped)
        report = MoveReport(move, seat, captured, crowned, tuple(escaped), tuple(passed), self.checks(), removed)
        self._made.append(report)
        return move

    @property
    def last_report(self) -> MoveReport | None:
        return self._made[-1] if self._made else None

    def unmake(self) -> Move:
        """Take back the last move (and whatever the start of the next turn did). IndexError when there is none."""
        if not self._made:
            raise IndexError("no move to take back")
        self.position.pop()
        return self._made.pop().move

    def remove_king(self, seat: int) -> int | None:
        """Take ``seat``'s king off the board outside the moves (a ruling at the table, such as its time running
        out): the army is in Interregnum. Returns the square it stood on (None: there was no king). The moves made
        so far can no longer be taken back with :meth:`unmake`."""
        ks = self.position.drop_king(seat)
        self.position.history.clear()
        self.position.events.clear()
        self._made.clear()
        return ks if ks >= 0 else None

    def settle(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Run the start-of-turn rules for the seat to move now (they run by themselves after every move): for a
        start position read from text, or after :meth:`remove_king`. A king that is not in check but has no move
        avoiding check escapes; a seat with no move is passed over. Returns (seats whose king escaped, seats passed
        over); like :meth:`remove_king`, the moves made so far can no longer be taken back."""
        escaped, passed = self.position.settle()
        if escaped or passed:
            self.position.history.clear()
            self.position.events.clear()
            self._made.clear()
        return escaped, passed

    # -------------------------------------------------------------- the end

    def outcome(self) -> RoyaleOutcome | None:
        """The end: one king left (its seat wins), no king left, or nobody able to move; else None."""
        pos = self.position
        alive = [s for s in SEATS if pos.kings[s] >= 0]
        tied = tuple(s for s in SEATS if pos.kings[s] < 0)
        if len(alive) == 1:
            return RoyaleOutcome(alive[0], tied, "last king")
        if not alive:
            return RoyaleOutcome(None, tied, "no king")
        if not pseudo_moves(pos) and not self._anyone_can_move():
            return RoyaleOutcome(None, tuple(SEATS), "no moves")
        return None

    def _anyone_can_move(self) -> bool:
        pos = self.position
        turn = pos.turn
        try:
            for seat in SEATS:
                pos.turn = seat
                if pseudo_moves(pos):
                    return True
            return False
        finally:
            pos.turn = turn


__all__ = ["MoveReport", "RoyaleOutcome", "SovereignChessRoyale"]
