"""Sovereign Chess Royale on packed moves: four players, kings captured instead of mated, Interregnum, escape.

:class:`RoyalePosition` is a :class:`~.position.Position` for seats 1–4 (White, Ash, Slate, Black at the start; the
order of play stays 1, 2, 3, 4 whatever the colours become). The two-player classes and functions are untouched;
this module reuses their tables and :func:`~.movegen.piece_moves`.

What differs from two players:

* **Control** (:func:`control_of`): a chain of squares of colour stops at *any* seat's owned colour; an army whose
  king was captured (Interregnum) still owns its colour, so nobody else can control it.
* **Legality**: every pseudo-legal move is legal — a player may move into or stay in check, and castle out of,
  through or into check. A move may capture a king.
* **Start of a turn** (folded into :meth:`RoyalePosition.push`, undone by :meth:`~.position.Position.pop`): if the
  seat to move has a king that is not in check but every move it has (regime changes included) leaves that king in
  check, the king has *escaped*: it is removed and the army is in Interregnum; the seat then moves without it. (A
  move taking the last other king counts as avoiding check: it ends the game.) A seat with no move at all is passed
  over. Nothing happens once one king (or none) is left: the game is over.

The board geometry is in :mod:`.royale_lines`, the moves in :mod:`.royale_movegen`; their public names are
re-exported here.
"""
from __future__ import annotations

from typing import Sequence

from companion.rules.sovereign_chess.position import KIND_CASTLE, KIND_NORMAL, Position
from companion.rules.sovereign_chess.royale_lines import (HOME_LINE, HOMES, NSEATS, SEATS, castling_line, control_of,
                                                          home_of_line)
from companion.rules.sovereign_chess.royale_movegen import (_has_safe_move, _step, pseudo_moves, royale_divide,
                                                            royale_perft)
from companion.rules.sovereign_chess.squares import KING, ROOK

__all__ = ["HOMES", "NSEATS", "SEATS", "RoyalePosition", "castling_line", "control_of", "home_of_line",
           "pseudo_moves", "royale_divide", "royale_perft"]


# one record per push: (seats whose king escaped at the start of the next turn, seats passed over)
_Events = tuple[tuple[int, ...], tuple[int, ...]]


class RoyalePosition(Position):
    """A Royale position: seats 1–4, ``owned[seat]`` and ``kings[seat]`` (-1: no king — Interregnum)."""

    __slots__ = ("events",)

    def __init__(self, board: Sequence[int], turn: int, owned: Sequence[int], castling: int, ply: int) -> None:
        self.board = list(board)
        self.turn = turn
        self.owned = [-1, *owned]
        self.castling = castling
        self.ply = ply
        occ = 0
        by_colour = [0] * 12
        by_role = [0] * 7
        kings = [-1] * (NSEATS + 1)
        for sq, p in enumerate(self.board):
            if p:
                bit = 1 << sq
                occ |= bit
                by_colour[p >> 3] |= bit
                by_role[p & 7] |= bit
                if p & 7 == KING:
                    for seat in SEATS:
                        if p >> 3 == self.owned[seat]:
                            kings[seat] = sq
        self.occ = occ
        self.by_colour = by_colour
        self.by_role = by_role
        self.kings = kings
        self.ctrl = control_of(self.board, self.owned)
        self.history = []
        self.events: list[_Events] = []

    def copy(self) -> "RoyalePosition":
        return RoyalePosition(self.board, self.turn, self.owned[1:], self.castling, self.ply)

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

    def in_check(self, player: int = 0) -> bool:
        """Whether ``player`` (default: the seat to move) has a king some other seat attacks."""
        seat = player or self.turn
        ks = self.kings[seat]
        return ks >= 0 and any(self.attacked(ks, by) for by in SEATS if by != seat)

    def mover_safe(self) -> bool:
        """After :meth:`push_move`: whether the seat that just moved has no king in check (or no king)."""
        us = self.history[-1][8]
        return not self.in_check(us)

    def accept_opening(self) -> None:
        raise ValueError("Royale has no opening choice: White simply moves first")

    # ------------------------------------------------------------------ make / unmake

    def push(self, m: int) -> None:
        """Make a packed move, pass the turn on and run the start of the next turn (escape, passing over)."""
        self.push_move(m)
        self._start_turn()

    def push_move(self, m: int) -> None:
        """Make a packed move and pass the turn to the next seat — without the start-of-turn rules."""
        board = self.board
        fr = m & 255
        to = (m >> 8) & 255
        kind = (m >> 19) & 3
        us = self.turn
        bc = self.by_colour[:]
        br = self.by_role[:]
        occ = self.occ
        castling = self.castling
        kings = self.kings[:]
        owned = self.owned
        changes: tuple[int, ...]
        if kind == KIND_NORMAL:
            p = board[fr]
            cap = board[to]
            bf = 1 << fr
            bt = 1 << to
            c = p >> 3
            r = p & 7
            promo = (m >> 16) & 7
            nr = promo or r
            changes = (fr, p, to, cap)
            if cap:
                bc[cap >> 3] ^= bt
                br[cap & 7] ^= bt
                occ ^= bf
                if cap & 7 == KING:
                    for seat in SEATS:
                        if kings[seat] == to:
                            kings[seat] = -1  # the captured king's army is in Interregnum
            else:
                occ ^= bf | bt
            bc[c] ^= bf | bt
            br[r] ^= bf
            br[nr] ^= bt
            board[fr] = 0
            board[to] = (c << 3) | nr
            castling &= ~(bf | bt | HOME_LINE[fr] | HOME_LINE[to])
            if r == KING:
                kings[us] = to
            elif promo == KING:
                # coup d'état (owned pawn) or overthrow (controlled pawn); in Interregnum it ends the Interregnum
                ks = kings[us]
                if ks >= 0:
                    kp = board[ks]
                    kb = 1 << ks
                    board[ks] = 0
                    occ ^= kb
                    bc[kp >> 3] ^= kb
                    br[KING] ^= kb
                    changes = (fr, p, to, cap, ks, kp)
                    castling &= ~HOME_LINE[ks]
                kings[us] = to
                if c != owned[us]:
                    owned = owned[:]
                    owned[us] = c
        elif kind == KIND_CASTLE:
            rf = m >> 21
            step = _step(fr, rf)
            rt = to - step
            kp = board[fr]
            rp = board[rf]
            changes = (fr, kp, rf, rp, to, board[to], rt, board[rt])
            board[fr] = 0
            board[rf] = 0
            board[to] = kp
            board[rt] = rp
            move_k = (1 << fr) ^ (1 << to)
            move_r = (1 << rf) ^ (1 << rt)
            occ ^= move_k ^ move_r
            bc[kp >> 3] ^= move_k
            bc[rp >> 3] ^= move_r
            br[KING] ^= move_k
            br[ROOK] ^= move_r
            castling &= ~HOME_LINE[fr] & ~(1 << rf)
            kings[us] = to
        else:  # defection, perhaps with the king's step off its new colour's square
            y = (m >> 21) & 15
            kp = board[fr]
            bf = 1 << fr
            bc[kp >> 3] ^= bf
            bc[y] ^= bf
            nk = (y << 3) | KING
            owned = owned[:]
            owned[us] = y
            if to == fr:
                changes = (fr, kp)
                board[fr] = nk
            else:
                cap = board[to]
                bt = 1 << to
                changes = (fr, kp, to, cap)
                if cap:
                    bc[cap >> 3] ^= bt
                    br[cap & 7] ^= bt
                    occ ^= bf
                    if cap & 7 == KING:
                        for seat in SEATS:
                            if kings[seat] == to:
                                kings[seat] = -1
                else:
                    occ ^= bf | bt
                bc[y] ^= bf | bt
                br[KING] ^= bf | bt
                board[fr] = 0
                board[to] = nk
                castling &= ~(bf | bt | HOME_LINE[fr])
                kings[us] = to
        self.history.append(
            (m, self.occ, self.by_colour, self.by_role, self.kings, self.owned, self.ctrl, self.castling, us, changes)
        )
        self.events.append(((), ()))
        self.occ = occ
        self.by_colour = bc
        self.by_role = br
        self.kings = kings
        self.owned = owned
        self.castling = castling
        self.ctrl = control_of(board, owned)
        self.turn = us % NSEATS + 1
        self.ply += 1

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
            moves = pseudo_moves(self, True)
            ks = self.kings[seat]
            if ks >= 0 and not self.in_check(seat) and not _has_safe_move(self, moves):
                self._remove_king(seat, record)
                escaped.append(seat)
                if self.over:
                    break
                moves = pseudo_moves(self, True)
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
        self.ctrl = control_of(self.board, self.owned)
