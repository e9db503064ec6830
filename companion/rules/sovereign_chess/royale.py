"""Sovereign Chess Royale on packed moves: four players, kings captured instead of mated, Interregnum, escape.

:class:`RoyalePosition` is the two-player :class:`~.position.Position` with its hooks overridden, as python-chess
makes a variant of its board: the make/unmake, attack test, move generation (:mod:`.movegen`) and perft
(:mod:`.perft`) are the family's. Seats 1–4 are White, Ash, Slate and Black at the start; the order of play stays
1, 2, 3, 4 whatever the colours become. What differs from two players:

* **Seats** (:attr:`~RoyalePosition.SEATS`): four; each king castles along its own edge line
  (:attr:`~RoyalePosition.HOME_LINE`, from :mod:`.royale_lines`).
* **Control** is the family's (:func:`~.position.control_of`): a chain of squares of colour stops at any seat's owned
  colour, and an army whose king was captured (Interregnum) still owns its colour.
* **Legality** (no :attr:`~RoyalePosition.KING_SAFETY`): every pseudo-legal move is legal — a player may move into
  or stay in check, and castle out of, through or into check. A move may capture a king (its army is then in
  Interregnum); check is by any other seat (:meth:`~RoyalePosition.threatened`).
* **Start of a turn** (folded into :meth:`RoyalePosition.push`, undone by :meth:`~.position.Position.pop`): if the
  seat to move has a king that is not in check but every move it has (regime changes included) leaves that king in
  check, the king has *escaped*: it is removed and the army is in Interregnum; the seat then moves without it. (A
  move taking the last other king counts as avoiding check: it ends the game.) A seat with no move at all is passed
  over. Nothing happens once one king (or none) is left: the game is over (:attr:`~RoyalePosition.over`).
"""
from __future__ import annotations

from typing import ClassVar, Final, Sequence

from companion.rules.sovereign_chess.movegen import legal_moves, pinned_mask, side_masks
from companion.rules.sovereign_chess.perft import divide, perft
from companion.rules.sovereign_chess.position import Position, control_of
from companion.rules.sovereign_chess.royale_lines import (HOME_LINE, HOMES, NSEATS, SEATS, castling_line,
                                                          home_of_line)
from companion.rules.sovereign_chess.squares import KING, SQ_COLOUR

__all__ = ["HOMES", "NSEATS", "SEATS", "RoyalePosition", "castling_line", "control_of", "home_of_line",
           "pseudo_moves", "royale_divide", "royale_perft"]


# one record per push: (seats whose king escaped at the start of the next turn, seats passed over)
_Events = tuple[tuple[int, ...], tuple[int, ...]]
_NO_EVENTS: Final[_Events] = ((), ())


class RoyalePosition(Position):
    """A Royale position: seats 1–4, ``owned[seat]`` and ``kings[seat]`` (-1: no king — Interregnum)."""

    __slots__ = ("events",)

    SEATS: ClassVar[tuple[int, ...]] = SEATS
    HOME_LINE: ClassVar[Sequence[int]] = HOME_LINE
    KING_SAFETY: ClassVar[bool] = False
    OPENING_CHOICE: ClassVar[bool] = False

    def __init__(self, board: Sequence[int], turn: int, owned: Sequence[int], castling: int, ply: int) -> None:
        super().__init__(board, turn, owned, castling, ply)
        self.events: list[_Events] = []

    # ------------------------------------------------------------------ queries

    def kings_left(self) -> int:
        return sum(1 for seat in SEATS if self.kings[seat] >= 0)

    @property
    def over(self) -> bool:
        """One king (or none) is left: the game has ended."""
        return self.kings_left() <= 1

    def checkers(self, seat: int) -> list[int]:
        """The other seats whose pieces attack ``seat``'s king (empty when it has none or nobody does)."""
        ks = self.kings[seat]
        if ks < 0:
            return []
        return [by for by in SEATS if by != seat and self.attacked(ks, by)]

    def threatened(self, s: int, seat: int) -> bool:
        return any(self.attacked(s, by) for by in SEATS if by != seat)

    def accept_opening(self) -> None:
        raise ValueError("Royale has no opening choice: White simply moves first")

    # ------------------------------------------------------------------ make / unmake

    def push(self, m: int) -> None:
        """Make a packed move, pass the turn on and run the start of the next turn (escape, passing over)."""
        self.push_move(m)
        self._start_turn()

    def push_move(self, m: int) -> None:
        """Make a packed move and pass the turn to the next seat — without the start-of-turn rules."""
        Position.push(self, m)
        self.events.append(_NO_EVENTS)

    def pop(self) -> int:
        self.events.pop()
        return super().pop()

    def settle(self) -> _Events:
        """The start-of-turn rules for the seat to move now, outside any move: for a position read from text (a
        start position) or after a king was taken off by a ruling (:meth:`drop_king`). Returns (seats whose king
        escaped, seats passed over); not undoable by :meth:`pop`."""
        return self._start_turn(record=False)

    def _start_turn(self, record: bool = True) -> _Events:
        """The start of the new seat's turn: an escaped king leaves the board; a seat with no move is passed over.

        Whatever changes here is undone by popping the move that led here (the board squares are added to that
        move's undo record; everything else the record restores whole). Without ``record`` (no move led here)
        nothing is recorded."""
        escaped: list[int] = []
        passed: list[int] = []
        for _ in range(NSEATS):
            if self.over:
                break
            seat = self.turn
            moves = legal_moves(self)
            ks = self.kings[seat]
            if ks >= 0 and not self.in_check(seat) and not _has_safe_move(self, moves):
                self._remove_king(seat, record)
                escaped.append(seat)
                if self.over:
                    break
                moves = legal_moves(self)
            if moves:
                break
            passed.append(seat)
            self.turn = seat % NSEATS + 1
        if record and (escaped or passed):
            self.events[-1] = (tuple(escaped), tuple(passed))
        return tuple(escaped), tuple(passed)

    def drop_king(self, seat: int) -> int:
        """Take ``seat``'s king off the board outside any move (the table's ruling, e.g. its time ran out): the army
        is in Interregnum. Not undoable by :meth:`pop`; returns the square, -1 if the seat has no king."""
        ks = self.kings[seat]
        if ks >= 0:
            self._remove_king(seat, record=False)
        return ks

    def _remove_king(self, seat: int, record: bool = True) -> None:
        ks = self.kings[seat]
        kp = self.board[ks]
        kb = 1 << ks
        if record:
            rec = self.history[-1]
            self.history[-1] = (*rec[:9], rec[9] + (ks, kp))
        self.board[ks] = 0
        self.occ ^= kb
        bc = self.by_colour[:]
        br = self.by_role[:]
        bc[kp >> 3] ^= kb
        br[KING] ^= kb
        self.by_colour = bc
        self.by_role = br
        kings = self.kings[:]
        kings[seat] = -1
        self.kings = kings
        self.castling &= ~HOME_LINE[ks]
        if SQ_COLOUR[ks] >= 0:
            self.ctrl = control_of(self.board, self.owned)


def pseudo_moves(pos: RoyalePosition, with_defections: bool = True) -> list[int]:
    """Every move of the seat to move — all legal in Royale: ordinary moves, castling, and (optionally)
    defections. Empty once the game is over."""
    return legal_moves(pos, with_defections)


def _has_safe_move(pos: RoyalePosition, moves: list[int]) -> bool:
    """Whether one of ``moves`` leaves the mover's king out of check (the mover not being in check now), or takes
    the last other king: that move ends the game with the mover's king the last one, so no check after it counts.

    The two-player shortcut (:func:`~.movegen.legal_moves`) holds here too: on our move the other seats' control can
    only shrink unless our owned colour changes, so a move of a piece that is neither the king nor pinned cannot
    expose the king. The rest (king moves, pinned pieces, castling, defections, promotions to king) are made without
    the start-of-turn rules and tested."""
    us = pos.turn
    ks = pos.kings[us]
    slow = pinned_mask(pos, us, ks, side_masks(pos, us)[1]) | (1 << ks)
    tested = []
    for m in moves:
        if not (slow >> (m & 255)) & 1 and m < (KING << 16):
            return True
        tested.append(m)
    for m in tested:
        pos.push_move(m)
        safe = pos.mover_safe() or (pos.kings[us] >= 0 and pos.kings_left() == 1)
        pos.pop()
        if safe:
            return True
    return False


#: Royale perft is the family's: a ply is one seat's move (an ordinary move or castling, each promotion choice, no
#: defections), every such move legal; the start-of-turn rules are not plies; a final position has no moves
royale_perft = perft
royale_divide = divide
