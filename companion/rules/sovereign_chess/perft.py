"""Perft: count the move paths of a given length (ordinary moves; each promotion choice counts; no defections), for
every variant of the family: a ply is one seat's move; what a variant's :meth:`~.position.Position.push` does after
a move (Royale's escaped kings and seats passed over) is not a ply, and a final position has no moves.

The last ply is counted without making the moves ("bulk counting"): when the side to move is not in check, the moves
of pieces that are not pinned, not kings and not on squares of colour are counted set-wise (pawns per direction,
knights and sliders per piece with ``int.bit_count``); the rest go through make / test / unmake.
"""
from __future__ import annotations

from companion.rules.sovereign_chess.movegen import _castling, legal_moves, piece_moves, pinned_mask, side_masks
from companion.rules.sovereign_chess.position import Position
from companion.rules.sovereign_chess.squares import (
    ALL_COLOUR_SQUARES,
    COLOUR_MASK,
    FULL,
    KING,
    KNIGHT,
    KNIGHT_ATTACKS,
    PAWN,
    PAWN_CAPTURE_SETS,
    PAWN_DOUBLE_SETS,
    PAWN_STEP_SETS,
    SLIDER_RAYS,
    ZONE,
)

_KING_PROMO = KING << 16


def count_legal(pos: Position) -> int:
    """The number of legal ordinary moves (no defections) of the side to move — what perft counts at a leaf."""
    us = pos.turn
    ks = pos.kings[us]
    if not pos.KING_SAFETY or ks < 0 or pos.threatened(ks, us):
        return len(legal_moves(pos, with_defections=False))
    board = pos.board
    occ = pos.occ
    ctrl = pos.ctrl
    bc = pos.by_colour
    pawns = pos.by_role[PAWN]
    knights = pos.by_role[KNIGHT]
    mine, theirs = side_masks(pos, us)
    free = ~((occ & ~theirs) | pos.blocked_mask()) & FULL
    empty = ~occ & FULL
    pinned = pinned_mask(pos, us, ks, theirs)
    slow = pinned | (1 << ks) | ALL_COLOUR_SQUARES
    n = 0
    tested: list[int] = []  # moves that must be made and tested
    for c in range(12):
        if ctrl[c] != us or not bc[c]:
            continue
        land = free & ~COLOUR_MASK[c]
        pieces = bc[c]
        special = pieces & slow
        if special:
            pieces ^= special
            while special:
                low = special & -special
                special ^= low
                sq = low.bit_length() - 1
                if (pinned >> sq) & 1 or sq == ks:
                    piece_moves(board, occ, sq, land, theirs, tested)
                else:
                    found: list[int] = []
                    piece_moves(board, occ, sq, land, theirs, found)
                    for m in found:
                        if m & 0x70000 == _KING_PROMO:
                            tested.append(m)
                        else:
                            n += 1
        pw = pieces & pawns
        if pw:
            targets = land & empty
            for shift, src in PAWN_STEP_SETS:
                f = pw & src
                if f:
                    t = (f << shift if shift > 0 else f >> -shift) & targets
                    if t:
                        n += t.bit_count()
                        z = t & ZONE
                        if z:
                            n += _promotions(z, shift, tested)
            for shift, src in PAWN_DOUBLE_SETS:
                f = pw & src
                if f:
                    if shift > 0:
                        t = (((f << shift) & empty) << shift) & targets
                    else:
                        t = (((f >> -shift) & empty) >> -shift) & targets
                    n += t.bit_count()
            targets = land & theirs
            for shift, src in PAWN_CAPTURE_SETS:
                f = pw & src
                if f:
                    t = (f << shift if shift > 0 else f >> -shift) & targets
                    if t:
                        n += t.bit_count()
                        z = t & ZONE
                        if z:
                            n += _promotions(z, shift, tested)
            pieces ^= pw
        kn = pieces & knights
        if kn:
            pieces ^= kn
            while kn:
                low = kn & -kn
                kn ^= low
                n += (KNIGHT_ATTACKS[low.bit_length() - 1] & land).bit_count()
        while pieces:  # sliders (kings are all in `slow`)
            low = pieces & -pieces
            pieces ^= low
            sq = low.bit_length() - 1
            att = 0
            for ray, beyond, up in SLIDER_RAYS[board[sq] & 7][sq]:
                bl = ray & occ
                if bl:
                    ray &= ~beyond[(bl & -bl).bit_length() - 1 if up else bl.bit_length() - 1]
                att |= ray
            n += (att & land).bit_count()
    _castling(pos, us, mine, tested)
    for m in tested:
        pos.push(m)
        if pos.mover_safe():
            n += 1
        pos.pop()
    return n


def _promotions(z: int, shift: int, tested: list[int]) -> int:
    """Pawns arriving in the central 4×4: three more choices each (queen, rook, bishop, knight already counted once),
    and the king choice (coup d'état / overthrow) queued for testing."""
    extra = 0
    while z:
        low = z & -z
        z ^= low
        to = low.bit_length() - 1
        tested.append((to - shift) | (to << 8) | _KING_PROMO)
        extra += 3
    return extra


def perft(pos: Position, depth: int, bulk: bool = True) -> int:
    """Leaf count of the move tree ``depth`` plies deep. ``bulk=False`` makes every last move too (for checking)."""
    if depth <= 0:
        return 1
    if depth == 1 and bulk:
        return count_legal(pos)
    moves = legal_moves(pos, with_defections=False)
    if depth == 1:
        n = 0
        for m in moves:
            pos.push(m)
            n += 1
            pos.pop()
        return n
    n = 0
    push = pos.push
    pop = pos.pop
    for m in moves:
        push(m)
        n += perft(pos, depth - 1, bulk)
        pop()
    return n


def divide(pos: Position, depth: int) -> list[tuple[int, int]]:
    """(packed move, leaf count below it) for each legal move at the root."""
    out = []
    for m in legal_moves(pos, with_defections=False):
        pos.push(m)
        out.append((m, perft(pos, depth - 1)))
        pos.pop()
    return out
