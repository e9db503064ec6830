"""Sovereign Chess Royale's moves on packed integers: every pseudo-legal move is legal (moving into check, castling
out of, through or into check, capturing a king), castling along each seat's edge line, defections; the escape test
(:func:`_has_safe_move`) :class:`~.royale.RoyalePosition` runs at the start of a turn; perft and divide."""
from __future__ import annotations

from typing import TYPE_CHECKING

from companion.rules.sovereign_chess.movegen import piece_moves
from companion.rules.sovereign_chess.position import KIND_CASTLE, KIND_DEFECT, Position, pack
from companion.rules.sovereign_chess.royale_lines import HOME_LINE, control_of
from companion.rules.sovereign_chess.squares import (
    BISHOP,
    COLOUR_MASK,
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
)

if TYPE_CHECKING:
    from companion.rules.sovereign_chess.royale import RoyalePosition


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
