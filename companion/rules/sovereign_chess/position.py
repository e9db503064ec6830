"""The position: a mailbox board plus square sets, control of colours, make/unmake and the attack test.

Moves inside the engine are packed ints (see :func:`pack`); :mod:`.moves` turns them into :class:`~.moves.Move`
values for the API. Lists held by a position (square sets, kings, owners, control) are replaced, never mutated, so an
undo record can simply keep the old ones.
"""
from __future__ import annotations

from typing import ClassVar, Final, Self, Sequence

from companion.rules.sovereign_chess.squares import (BISHOP, COLOUR_SQUARES, DIAG8, I1, I16, KING, KING_ATTACKS, KNIGHT,
                                                     KNIGHT_ATTACKS, ORTHO8, PAWN, PAWN_ATTACKERS, QUEEN, RANK1, RANK16,
                                                     RAY8, ROOK, SQ_COLOUR, home_lines, line_step)

KIND_NORMAL: Final = 0
KIND_CASTLE: Final = 1
KIND_DEFECT: Final = 2
_ACCEPT: Final = -1  # undo record marker for the opening choice


def pack(fr: int, to: int, promo: int = 0, kind: int = KIND_NORMAL, extra: int = 0) -> int:
    """A move as an int: from, to, promotion role, kind, and the castling rook's square or the defection colour."""
    return fr | (to << 8) | (promo << 16) | (kind << 19) | (extra << 21)


def control_of(board: Sequence[int], owned: Sequence[int]) -> list[int]:
    """ctrl[colour] = the seat that owns or controls it, 0 for nobody. ``owned[seat]`` (index 0 unused; -1: none).

    Each colour has at most one occupied square of its colour; the piece there is the colour's "parent". A colour
    belongs to whoever owns the first owned colour met walking up the parents — so chains work, and every seat's owned
    colour stops the walk: nobody controls another seat's army, whether or not its king is on the board. A colour
    with no occupied square, or in a loop, is nobody's.
    """
    owner = [0] * 12
    for seat in range(1, len(owned)):
        if owned[seat] >= 0:
            owner[owned[seat]] = seat
    parent = [-1] * 12
    for colour, (a, b) in enumerate(COLOUR_SQUARES):
        p = board[a] or board[b]
        if p:
            parent[colour] = p >> 3
    ctrl = [0] * 12
    for colour in range(12):
        x = colour
        for _ in range(13):
            if owner[x]:
                ctrl[colour] = owner[x]
                break
            x = parent[x]
            if x < 0:
                break
    return ctrl


_UndoRecord = tuple[int, int, list[int], list[int], list[int], list[int], list[int], int, int, tuple[int, ...]]


class Position:
    """A Sovereign Chess position. Mutable: :meth:`push` and :meth:`pop` make and unmake packed moves.

    ``owned[seat]`` and ``kings[seat]`` (-1: none) are indexed by seat, 1 up (index 0 unused). This is the
    two-player game and the family's engine: a variant (:class:`~.royale.RoyalePosition`) overrides the hooks —

    * :attr:`SEATS`, the seats in their order of play (the turn passes to the next one);
    * :attr:`HOME_LINE`, for each square the castling line a king standing there holds rights on;
    * :attr:`KING_SAFETY`, whether a move may not leave the mover's king attacked (nor castle out of or through
      check); :attr:`OPENING_CHOICE`, whether the second player may take over the first move (rule 3);
    * :meth:`threatened` (whose pieces give check), :attr:`over` (a position final whatever the pieces could do)
      and :meth:`push` (what happens after a move beyond moving pieces).
    """

    __slots__ = ("board", "occ", "by_colour", "by_role", "owned", "kings", "turn", "castling", "ply", "ctrl", "history")

    SEATS: ClassVar[tuple[int, ...]] = (1, 2)
    #: the two kings' home squares i1 and i16 castle along ranks 1 and 16
    HOME_LINE: ClassVar[Sequence[int]] = home_lines({I1: RANK1, I16: RANK16})
    KING_SAFETY: ClassVar[bool] = True
    OPENING_CHOICE: ClassVar[bool] = True

    def __init__(self, board: Sequence[int], turn: int, owned: Sequence[int], castling: int, ply: int) -> None:
        self.board: list[int] = list(board)
        self.turn = turn
        self.owned: list[int] = [-1, *owned]
        self.castling = castling
        self.ply = ply
        occ = 0
        by_colour = [0] * 12
        by_role = [0] * 7
        kings = [-1] * len(self.owned)
        seat_of = {colour: seat for seat, colour in enumerate(self.owned) if seat}
        for sq, p in enumerate(self.board):
            if p:
                bit = 1 << sq
                occ |= bit
                by_colour[p >> 3] |= bit
                by_role[p & 7] |= bit
                if p & 7 == KING and p >> 3 in seat_of:
                    kings[seat_of[p >> 3]] = sq
        self.occ = occ
        self.by_colour = by_colour
        self.by_role = by_role
        self.kings: list[int] = kings
        self.ctrl: list[int] = control_of(self.board, self.owned)
        self.history: list[_UndoRecord] = []

    def copy(self) -> Self:
        """An independent copy without the undo history."""
        return type(self)(self.board, self.turn, self.owned[1:], self.castling, self.ply)

    # ------------------------------------------------------------------ queries

    def controlled_mask(self, player: int) -> int:
        """The squares of every piece ``player`` owns or controls."""
        ctrl = self.ctrl
        bc = self.by_colour
        m = 0
        for colour in range(12):
            if ctrl[colour] == player:
                m |= bc[colour]
        return m

    def blocked_mask(self) -> int:
        """Squares of colour that may not be occupied because the other square of that colour is."""
        board = self.board
        m = 0
        for a, b in COLOUR_SQUARES:
            if board[a]:
                m |= 1 << b
            elif board[b]:
                m |= 1 << a
        return m

    def attacked(self, s: int, by: int, occ: int = -1) -> bool:
        """Whether a piece ``by`` controls could capture on ``s`` (so a king there would be in check).

        The attacker must be within eight squares, and cannot capture on a square of its own colour. ``occ``
        overrides the occupied set (to look through a king that is moving).
        """
        if occ < 0:
            occ = self.occ
        board = self.board
        ctrl = self.ctrl
        by_role = self.by_role
        sc = SQ_COLOUR[s]
        b = KNIGHT_ATTACKS[s] & by_role[KNIGHT]
        while b:
            low = b & -b
            c = board[low.bit_length() - 1] >> 3
            if ctrl[c] == by and c != sc:
                return True
            b ^= low
        b = KING_ATTACKS[s] & by_role[KING] & occ
        while b:
            low = b & -b
            c = board[low.bit_length() - 1] >> 3
            if ctrl[c] == by and c != sc:
                return True
            b ^= low
        b = PAWN_ATTACKERS[s] & by_role[PAWN]
        while b:
            low = b & -b
            c = board[low.bit_length() - 1] >> 3
            if ctrl[c] == by and c != sc:
                return True
            b ^= low
        queens = by_role[QUEEN]
        rq = by_role[ROOK] | queens
        if ORTHO8[s] & rq:
            for d in (0, 1):  # N, E: first blocker is the lowest bit
                bl = RAY8[d][s] & occ
                if bl:
                    t = (bl & -bl).bit_length() - 1
                    if (rq >> t) & 1:
                        c = board[t] >> 3
                        if ctrl[c] == by and c != sc:
                            return True
            for d in (4, 5):  # S, W: the highest bit
                bl = RAY8[d][s] & occ
                if bl:
                    t = bl.bit_length() - 1
                    if (rq >> t) & 1:
                        c = board[t] >> 3
                        if ctrl[c] == by and c != sc:
                            return True
        bq = by_role[BISHOP] | queens
        if DIAG8[s] & bq:
            for d in (2, 3):
                bl = RAY8[d][s] & occ
                if bl:
                    t = (bl & -bl).bit_length() - 1
                    if (bq >> t) & 1:
                        c = board[t] >> 3
                        if ctrl[c] == by and c != sc:
                            return True
            for d in (6, 7):
                bl = RAY8[d][s] & occ
                if bl:
                    t = bl.bit_length() - 1
                    if (bq >> t) & 1:
                        c = board[t] >> 3
                        if ctrl[c] == by and c != sc:
                            return True
        return False

    def threatened(self, s: int, seat: int) -> bool:
        """Whether a piece of another seat could capture on ``s`` (a king of ``seat``'s there would be in check)."""
        return self.attacked(s, 3 - seat)

    def in_check(self, player: int = 0) -> bool:
        """Whether ``player`` (default: the side to move) has a king that another seat attacks."""
        player = player or self.turn
        ks = self.kings[player]
        return ks >= 0 and self.threatened(ks, player)

    def mover_safe(self) -> bool:
        """After :meth:`push`: whether the seat that just moved left its king out of check (or has no king)."""
        us = self.history[-1][8]
        ks = self.kings[us]
        return ks < 0 or not self.threatened(ks, us)

    @property
    def over(self) -> bool:
        """Whether the position is final whatever the pieces could do: never for two players (their game ends when
        the side to move has no legal move); Royale's when one king or none is left."""
        return False

    # ------------------------------------------------------------------ make / unmake

    def push(self, m: int) -> None:
        """Make a packed move and pass the turn to the next seat (no legality check: the generator's job)."""
        board = self.board
        fr = m & 255
        to = (m >> 8) & 255
        kind = (m >> 19) & 3
        us = self.turn
        bc = self.by_colour[:]
        br = self.by_role[:]
        occ = self.occ
        castling = self.castling
        kings = self.kings
        owned = self.owned
        # A castling right goes with its rook (bf, bt) or with the king on its home square: only a king moving or
        # removed is looked up in HOME_LINE (an empty home square's line has no rights left).
        if kind == KIND_CASTLE:
            rf = m >> 21
            rt = to - line_step(fr, rf)
            kp = board[fr]
            rp = board[rf]
            changes: tuple[int, ...] = (fr, kp, rf, rp, to, board[to], rt, board[rt])
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
            castling &= ~self.HOME_LINE[fr] & ~(1 << rf)
            kings = kings[:]
            kings[us] = to
            recompute = SQ_COLOUR[fr] >= 0 or SQ_COLOUR[to] >= 0 or SQ_COLOUR[rf] >= 0 or SQ_COLOUR[rt] >= 0
        elif to == fr:  # a defection where the king stands: it only changes colour
            p = board[fr]
            y = (m >> 21) & 15
            bf = 1 << fr
            bc[p >> 3] ^= bf
            bc[y] ^= bf
            changes = (fr, p)
            board[fr] = (y << 3) | KING
            owned = owned[:]
            owned[us] = y
            recompute = True
        else:  # a piece moves: an ordinary move, or a defection with the king's step off its new colour's square
            p = board[fr]
            cap = board[to]
            bf = 1 << fr
            bt = 1 << to
            r = p & 7
            promo = (m >> 16) & 7
            if kind:  # the defection: the king turns to its new colour, then steps
                c = (m >> 21) & 15
                bc[p >> 3] ^= bf
                bc[c] ^= bf
                owned = owned[:]
                owned[us] = c
                recompute = True
            else:
                c = p >> 3
                recompute = SQ_COLOUR[fr] >= 0 or SQ_COLOUR[to] >= 0
            nr = promo or r
            changes = (fr, p, to, cap)
            if cap:
                bc[cap >> 3] ^= bt
                br[cap & 7] ^= bt
                occ ^= bf
                if cap & 7 == KING:  # Royale: a king is taken and its army is in Interregnum
                    kings = [-1 if k == to else k for k in kings]
                    castling &= ~self.HOME_LINE[to]
            else:
                occ ^= bf | bt
            bc[c] ^= bf | bt
            br[r] ^= bf
            br[nr] ^= bt
            board[fr] = 0
            board[to] = (c << 3) | nr
            castling &= ~(bf | bt)
            if r == KING:
                castling &= ~self.HOME_LINE[fr]
                kings = kings[:]
                kings[us] = to
            elif promo == KING:
                # coup d'état (owned pawn) or overthrow (controlled pawn): the old king, if any, leaves the board
                # (in Royale a crowning ends an Interregnum)
                recompute = True
                kings = kings[:]
                ks = kings[us]
                if ks >= 0:
                    kp = board[ks]
                    kb = 1 << ks
                    board[ks] = 0
                    occ ^= kb
                    bc[kp >> 3] ^= kb
                    br[KING] ^= kb
                    changes = (fr, p, to, cap, ks, kp)
                    castling &= ~self.HOME_LINE[ks]
                kings[us] = to
                if c != owned[us]:
                    owned = owned[:]
                    owned[us] = c
        self.history.append(
            (m, self.occ, self.by_colour, self.by_role, self.kings, self.owned, self.ctrl, self.castling, us, changes)
        )
        self.occ = occ
        self.by_colour = bc
        self.by_role = br
        self.kings = kings
        self.owned = owned
        self.castling = castling
        if recompute:
            self.ctrl = control_of(board, owned)
        self.turn = us % len(self.SEATS) + 1
        self.ply += 1

    def pop(self) -> int:
        """Unmake the last move (or the opening choice); returns the packed move (-1 for the opening choice)."""
        m, occ, bc, br, kings, owned, ctrl, castling, turn, changes = self.history.pop()
        board = self.board
        for i in range(len(changes) - 2, -1, -2):
            board[changes[i]] = changes[i + 1]
        self.occ = occ
        self.by_colour = bc
        self.by_role = br
        self.kings = kings
        self.owned = owned
        self.ctrl = ctrl
        self.castling = castling
        if m != _ACCEPT:
            self.ply -= 1
        self.turn = turn
        return m

    # ------------------------------------------------------------------ the opening choice

    @property
    def opening_choice_pending(self) -> bool:
        """True right after the first move, when it moved a White piece (rule 3: "one player makes a move with the
        White army"): the second player may accept it (own that army) or reject it. A composed start whose first
        move is another colour's has no choice. A position given at ply 1 (no first move here) keeps it. Only in a
        variant with :attr:`OPENING_CHOICE`."""
        if not (self.OPENING_CHOICE and self.ply == 1 and self.turn == 2):
            return False
        if len(self.history) != 1:
            return not self.history
        changes = self.history[0][-1]
        return bool(changes) and changes[1] >> 3 == 0  # the moved piece (changes[1]) is White's (colour 0)

    def accept_opening(self) -> None:
        """The second player accepts the first move: the players swap armies and player 1 moves next.

        Rejecting is simply playing on (player 2 moves). Undone by :meth:`pop`.
        """
        if not self.opening_choice_pending:
            raise ValueError("the first move can only be accepted right after it, with player 2 to move")
        self.history.append(
            (_ACCEPT, self.occ, self.by_colour, self.by_role, self.kings, self.owned, self.ctrl, self.castling,
             self.turn, ())
        )
        self.owned = [-1, self.owned[2], self.owned[1]]
        self.kings = [-1, self.kings[2], self.kings[1]]
        self.ctrl = control_of(self.board, self.owned)
        self.turn = 1
