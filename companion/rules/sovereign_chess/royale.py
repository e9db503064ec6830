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
"""
from __future__ import annotations

from typing import Final, Sequence

from companion.rules.sovereign_chess.movegen import piece_moves
from companion.rules.sovereign_chess.position import KIND_CASTLE, KIND_DEFECT, KIND_NORMAL, Position, pack
from companion.rules.sovereign_chess.squares import (
    BISHOP,
    COLOUR_MASK,
    COLOUR_SQUARES,
    DIAG8,
    FULL,
    KING,
    KING_ATTACKS,
    ORTHO8,
    ORTHO_DIRS,
    QUEEN,
    RAY8,
    ROOK,
    SIZE,
    SQ_COLOUR,
    sq_of,
)

SEATS: Final = (1, 2, 3, 4)
NSEATS: Final = 4

# the file lines leave out the corners: a rook on a corner square belongs to its rank's line (see castling_line)
FILE_A: Final = sum(1 << sq_of(0, r) for r in range(1, SIZE - 1))
FILE_P: Final = sum(1 << sq_of(SIZE - 1, r) for r in range(1, SIZE - 1))
RANK_1: Final = sum(1 << sq_of(f, 0) for f in range(SIZE))
RANK_16: Final = sum(1 << sq_of(f, SIZE - 1) for f in range(SIZE))

#: the kings' home squares (i1 White, a9 Ash, p8 Slate, h16 Black) and the edge line each castles along
HOMES: Final = {sq_of(8, 0): RANK_1, sq_of(0, 8): FILE_A, sq_of(15, 7): FILE_P, sq_of(7, 15): RANK_16}


def _home_lines() -> list[int]:
    table = [0] * (SIZE * SIZE)
    for sq, line in HOMES.items():
        table[sq] = line
    return table


#: HOME_LINE[sq]: the castling line whose rights a king on ``sq`` holds (0 if ``sq`` is no home square)
HOME_LINE: Final = _home_lines()


def castling_line(rook_sq: int) -> int:
    """The home-line mask a castling right on ``rook_sq`` belongs to (0: a square on no castling line).

    Ranks win over files for the corners, which hold no rook at the start anyway."""
    r, f = rook_sq >> 4, rook_sq & 15
    if r == 0:
        return RANK_1
    if r == SIZE - 1:
        return RANK_16
    if f == 0:
        return FILE_A
    if f == SIZE - 1:
        return FILE_P
    return 0


def home_of_line(line: int) -> int:
    for sq, mask in HOMES.items():
        if mask == line:
            return sq
    return -1


def control_of(board: Sequence[int], owned: Sequence[int]) -> list[int]:
    """ctrl[colour] = the seat (1–4) that owns or controls it, 0 for nobody. ``owned[seat]`` (index 0 unused).

    The same walk as two-player :func:`~.position.compute_control`: up the chain of pieces on squares of colour
    until an owned colour is met (that seat controls it); a colour with no occupied square, or in a loop, is
    nobody's. Every owned colour — a king or not — stops the walk, so no seat ever controls another's army.
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


def _step(fr: int, to: int) -> int:
    """The one-square step from ``fr`` towards ``to`` along a rank (±1) or a file (±16)."""
    if fr >> 4 == to >> 4:
        return 1 if to > fr else -1
    return SIZE if to > fr else -SIZE


def _sides(pos: Position, us: int) -> int:
    """The squares of the pieces the *other* seats own or control (what ``us`` may capture)."""
    ctrl = pos.ctrl
    bc = pos.by_colour
    theirs = 0
    for c in range(12):
        x = ctrl[c]
        if x and x != us:
            theirs |= bc[c]
    return theirs


def pseudo_moves(pos: RoyalePosition, with_defections: bool = True) -> list[int]:
    """Every move of the seat to move (all legal in Royale): ordinary moves, castling, and (optionally)
    defections. Empty once the game is over."""
    out: list[int] = []
    if pos.over:
        return out
    board = pos.board
    occ = pos.occ
    us = pos.turn
    ctrl = pos.ctrl
    bc = pos.by_colour
    theirs = _sides(pos, us)
    free = ~((occ & ~theirs) | pos.blocked_mask()) & FULL
    for c in range(12):
        if ctrl[c] != us or not bc[c]:
            continue
        land_c = free & ~COLOUR_MASK[c]
        b = bc[c]
        while b:
            low = b & -b
            b ^= low
            piece_moves(board, occ, low.bit_length() - 1, land_c, theirs, out)
    _castling(pos, us, out)
    if with_defections:
        _defections(pos, us, out)
    return out


def _castling(pos: RoyalePosition, us: int, out: list[int]) -> None:
    """Castling along the king's home line with an owned or controlled unmoved rook; check does not matter."""
    ks = pos.kings[us]
    if ks < 0:
        return
    rights = pos.castling & HOME_LINE[ks]
    if not rights:
        return
    board = pos.board
    ctrl = pos.ctrl
    while rights:
        low = rights & -rights
        rights ^= low
        rf = low.bit_length() - 1
        rp = board[rf]
        if rp & 7 != ROOK or ctrl[rp >> 3] != us:
            continue
        step = _step(ks, rf)
        between = list(range(ks + step, rf, step))
        if any(board[s] for s in between):
            continue
        for to in between:
            out.append(pack(ks, to, 0, KIND_CASTLE, rf))


def _defections(pos: RoyalePosition, us: int, out: list[int]) -> None:
    """To each colour ``us`` controls; standing on that colour's square, only together with a king step off it
    (what the step may capture judged under the new ownership)."""
    ks = pos.kings[us]
    if ks < 0:
        return
    ctrl = pos.ctrl
    own = pos.owned[us]
    board = pos.board
    for y in range(12):
        if y == own or ctrl[y] != us:
            continue
        if SQ_COLOUR[ks] != y:
            out.append(pack(ks, ks, 0, KIND_DEFECT, y))
            continue
        kp = board[ks]
        board[ks] = (y << 3) | KING
        owners = pos.owned[:]
        owners[us] = y
        after = control_of(board, owners)
        board[ks] = kp
        theirs = 0
        for c in range(12):
            if after[c] and after[c] != us:
                theirs |= pos.by_colour[c]
        land = ~((pos.occ & ~theirs) | pos.blocked_mask() | COLOUR_MASK[y]) & FULL
        tb = KING_ATTACKS[ks] & land
        while tb:
            tl = tb & -tb
            tb ^= tl
            out.append(pack(ks, tl.bit_length() - 1, 0, KIND_DEFECT, y))


def _pinned(pos: RoyalePosition, us: int, ks: int) -> int:
    """Pieces ``us`` controls standing between its king and a slider of another seat that could take it."""
    theirs = _sides(pos, us)
    br = pos.by_role
    queens = br[QUEEN]
    rq = (br[ROOK] | queens) & theirs & ORTHO8[ks]
    bq = (br[BISHOP] | queens) & theirs & DIAG8[ks]
    if not rq and not bq:
        return 0
    board = pos.board
    occ = pos.occ
    ctrl = pos.ctrl
    sc = SQ_COLOUR[ks]
    pinned = 0
    for d in range(8):
        sliders = rq if d in ORTHO_DIRS else bq
        ray = RAY8[d][ks]
        if not ray & sliders:
            continue
        bl = ray & occ
        if not bl:
            continue
        first = (bl & -bl).bit_length() - 1 if d < 4 else bl.bit_length() - 1
        bl ^= 1 << first
        if not bl:
            continue
        second = (bl & -bl).bit_length() - 1 if d < 4 else bl.bit_length() - 1
        if (sliders >> second) & 1 and ctrl[board[first] >> 3] == us and board[second] >> 3 != sc:
            pinned |= 1 << first
    return pinned


def _has_safe_move(pos: RoyalePosition, moves: list[int]) -> bool:
    """Whether one of ``moves`` leaves the mover's king out of check (the mover not being in check now), or takes
    the last other king: that move ends the game with the mover's king the last one, so no check after it counts.

    The two-player shortcut holds here too: on our move the other seats' control can only shrink unless our owned
    colour changes, so a move of a piece that is neither the king nor pinned cannot expose the king. The rest
    (king moves, pinned pieces, castling, defections, promotions to king) are made and tested."""
    us = pos.turn
    ks = pos.kings[us]
    slow = _pinned(pos, us, ks) | (1 << ks)
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


def royale_perft(pos: RoyalePosition, depth: int) -> int:
    """Leaf count of the Royale move tree ``depth`` plies deep from ``pos``.

    A ply is one seat's move: an ordinary move or castling, each promotion choice counted separately, no
    defections (as two-player perft). Every such move is legal (moving into or staying in check, castling out of or
    through check, capturing a king). The start-of-turn rules (an escaped king removed, a seat with no move passed
    over) are automatic and are not plies. A position with one king or none left is final: no moves."""
    if depth <= 0:
        return 1
    moves = pseudo_moves(pos, with_defections=False)
    if depth == 1:
        return len(moves)
    n = 0
    for m in moves:
        pos.push(m)
        n += royale_perft(pos, depth - 1)
        pos.pop()
    return n


def royale_divide(pos: RoyalePosition, depth: int) -> list[tuple[int, int]]:
    out = []
    for m in pseudo_moves(pos, with_defections=False):
        pos.push(m)
        out.append((m, royale_perft(pos, depth - 1)))
        pos.pop()
    return out
