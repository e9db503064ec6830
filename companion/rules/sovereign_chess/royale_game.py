"""The Royale API: a four-seat game in progress, in terms of :class:`~.moves.Move`, colours and seats 1–4 — the
two-player :class:`~.game.SovereignChess` with its hooks overridden (the Royale position text and position, the
mover's name, a report per move, the end), plus what only Royale has: kings by seat, Interregnum, checks by seat,
the start-of-turn events and the table's rulings."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from companion.rules.sovereign_chess.fen import PositionText
from companion.rules.sovereign_chess.game import Outcome, SovereignChess
from companion.rules.sovereign_chess.moves import Move
from companion.rules.sovereign_chess.royale import SEATS, RoyalePosition, pseudo_moves
from companion.rules.sovereign_chess.royale_text import ROYALE, royale_start
from companion.rules.sovereign_chess.squares import Role

#: the armies of seats 1–4, in the order of play (the names stay whatever colours the seats own later)
ARMIES = ("White", "Ash", "Slate", "Black")


@dataclass(frozen=True)
class RoyaleOutcome(Outcome):
    """How a Royale game ended.

    ``winner``: the seat owning the last king (None when no king is left, or when nobody can move). ``tied``: the
    seats without a king at the end — in Interregnum, whether their king was captured or escaped — who tie with
    each other. ``result`` (also ``reason``): ``"last king"``, ``"no king"`` or ``"no moves"``."""

    tied: tuple[int, ...] = ()

    @property
    def reason(self) -> str:
        return self.result


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


class SovereignChessRoyale(SovereignChess):
    """A Sovereign Chess Royale game: seats 1–4 move in that order for the whole game.

    Every move the pieces allow is legal (into check, staying in check, castling through check, capturing a king).
    """

    NOTATION: ClassVar[PositionText[Any]] = ROYALE
    position: RoyalePosition

    def __init__(self, text: str | None = None) -> None:
        super().__init__(royale_start() if text is None else text)
        self._reports: list[MoveReport] = []

    @property
    def mover(self) -> str:
        """The seat to move named by its army, as the table knows it (``the Ash army``): the seat numbers of the
        engine are the order of play, not the seats at the table."""
        return f"the {ARMIES[self.turn - 1]} army"

    @property
    def reports(self) -> list[MoveReport]:
        """One :class:`MoveReport` per move made, in order."""
        return list(self._reports)

    # -------------------------------------------------------------- kings

    def kings(self) -> dict[int, int | None]:
        return {seat: self.king_square(seat) for seat in SEATS}

    def interregnum(self) -> list[int]:
        """The seats without a king (captured or escaped): they still move but cannot win."""
        return [seat for seat in SEATS if self.position.kings[seat] < 0]

    def checks(self) -> dict[int, tuple[int, ...]]:
        """{seat in check: the seats whose pieces attack its king}, seats ascending."""
        out = {}
        for seat in SEATS:
            by = self.position.checkers(seat)
            if by:
                out[seat] = tuple(by)
        return out

    # -------------------------------------------------------------- moves

    def _push(self, move: Move) -> None:
        """Make the move; :attr:`last_report` says what it did."""
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
        self._reports.append(report)

    @property
    def last_report(self) -> MoveReport | None:
        return self._reports[-1] if self._reports else None

    def unmake(self) -> Move:
        """Take back the last move (and whatever the start of the next turn did). IndexError when there is none."""
        move = super().unmake()
        self._reports.pop()
        if move is None:
            raise RuntimeError("invariant: Royale has no opening choice to take back")
        return move

    def remove_king(self, seat: int) -> int | None:
        """Take ``seat``'s king off the board outside the moves (a ruling at the table, such as its time running
        out): the army is in Interregnum. Returns the square it stood on (None: there was no king). The moves made
        so far can no longer be taken back with :meth:`unmake`."""
        ks = self.position.drop_king(seat)
        self._forget_moves()
        return ks if ks >= 0 else None

    def settle(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Run the start-of-turn rules for the seat to move now (they run by themselves after every move): for a
        start position read from text, or after :meth:`remove_king`. A king that is not in check but has no move
        avoiding check escapes; a seat with no move is passed over. Returns (seats whose king escaped, seats passed
        over); like :meth:`remove_king`, the moves made so far can no longer be taken back."""
        escaped, passed = self.position.settle()
        if escaped or passed:
            self._forget_moves()
        return escaped, passed

    def _forget_moves(self) -> None:
        self.position.history.clear()
        self.position.events.clear()
        self._made.clear()
        self._reports.clear()

    # -------------------------------------------------------------- the end

    def outcome(self) -> RoyaleOutcome | None:
        """The end: one king left (its seat wins), no king left, or nobody able to move; else None."""
        pos = self.position
        alive = [s for s in SEATS if pos.kings[s] >= 0]
        tied = tuple(s for s in SEATS if pos.kings[s] < 0)
        if len(alive) == 1:
            return RoyaleOutcome("last king", alive[0], tied)
        if not alive:
            return RoyaleOutcome("no king", None, tied)
        if not pseudo_moves(pos) and not self._anyone_can_move():
            return RoyaleOutcome("no moves", None, tuple(SEATS))
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
