"""Move generation on packed moves: pseudo-legal moves, legality (pins, check), defections, castling.

Pawns, knights and kings use precomputed tables; sliders take the first blocker on each ray (at most eight squares
long) from the square sets. A move is legal when the mover's king is not attacked afterwards; when the mover is not in
check, a piece that is not pinned and not a king can never expose it (the opponent's control can only shrink on our
move, see :func:`legal_moves`), so only king moves, pinned pieces, regime changes and castling are tried out.
"""
from __future__ import annotations

from companion.rules.sovereign_chess.position import KIND_CASTLE, KIND_DEFECT, Position, compute_control, pack
from companion.rules.sovereign_chess.squares import (
    BISHOP,
    COLOUR_MASK,
    DIAG8,
    FULL,
    I1,
    I16,
    KING,
    KING_ATTACKS,
    KNIGHT,
    KNIGHT_ATTACKS,
    ORTHO8,
    ORTHO_DIRS,
    PAWN,
    PAWN_CAPTURES,
    PAWN_DOUBLES,
    PAWN_STEPS,
    PROMOTIONS,
    QUEEN,
    RANK1,
    RANK16,
    RAY8,
    ROOK,
    SLIDER_RAYS,
    SQ_COLOUR,
    TWIN,
    ZONE,
)



def slider_targets(sq: int, role: int, occ: int) -> int:
    """Squares a bishop, rook or queen on ``sq`` reaches (the first blocker included) within eight squares."""
    att = 0
    for ray, beyond, up in SLIDER_RAYS[role][sq]:
        bl = ray & occ
        if bl:
            ray &= ~beyond[(bl & -bl).bit_length() - 1 if up else bl.bit_length() - 1]
        att |= ray
    return att


def side_masks(pos: Position, us: int) -> tuple[int, int]:
    """(squares of pieces ``us`` controls, squares of pieces the opponent controls)."""
    ctrl = pos.ctrl
    bc = pos.by_colour
    them = 3 - us
    mine = theirs = 0
    for c in range(12):
        x = ctrl[c]
        if x == us:
            mine |= bc[c]
        elif x == them:
            theirs |= bc[c]
    return mine, theirs


def pseudo_moves(pos: Position, out: list[int]) -> None:
    """Append every ordinary move and castling of the side to move, ignoring check."""
    board = pos.board
    occ = pos.occ
    us = pos.turn
    ctrl = pos.ctrl
    bc = pos.by_colour
    mine, theirs = side_masks(pos, us)
    # a square may be landed on if it is empty or holds an opponent-controlled piece, and its twin is empty
    free = ~((occ & ~theirs) | pos.blocked_mask()) & FULL
    for c in range(12):
        if ctrl[c] != us or not bc[c]:
            continue
        land_c = free & ~COLOUR_MASK[c]
        b = bc[c]
        while b:
            low = b & -b
            b ^= low
            sq = low.bit_length() - 1
            piece_moves(board, occ, sq, land_c, theirs, out)
    _castling(pos, us, mine, out)


def piece_moves(board: list[int], occ: int, sq: int, land: int, theirs: int, out: list[int]) -> None:
    """Append the moves of the piece on ``sq``; ``land`` = squares its colour may land on (twin rule aside)."""
    p = board[sq]
    role = p & 7
    tw = TWIN[sq]
    if tw >= 0 and SQ_COLOUR[sq] != p >> 3:
        land |= 1 << tw  # leaving a square of colour frees its twin for this very piece
    if role == PAWN:
        for t in PAWN_STEPS[sq]:
            if not board[t] and (land >> t) & 1:
                _add_pawn(out, sq, t)
        for mid, t in PAWN_DOUBLES[sq]:
            if not board[mid] and not board[t] and (land >> t) & 1:
                out.append(sq | (t << 8))
        tb = PAWN_CAPTURES[sq] & land & theirs
        while tb:
            tl = tb & -tb
            tb ^= tl
            _add_pawn(out, sq, tl.bit_length() - 1)
        return
    if role == KNIGHT:
        tb = KNIGHT_ATTACKS[sq] & land
    elif role == KING:
        tb = KING_ATTACKS[sq] & land
    else:
        tb = slider_targets(sq, role, occ) & land
    while tb:
        tl = tb & -tb
        tb ^= tl
        out.append(sq | ((tl.bit_length() - 1) << 8))


def _add_pawn(out: list[int], fr: int, to: int) -> None:
    if (ZONE >> to) & 1:
        for promo in PROMOTIONS:
            out.append(fr | (to << 8) | (promo << 16))
    else:
        out.append(fr | (to << 8))


def _castling(pos: Position, us: int, mine: int, out: list[int]) -> None:
    rights = pos.castling
    if not rights:
        return
    ks = pos.kings[us]
    if ks == I1:
        rights &= RANK1
    elif ks == I16:
        rights &= RANK16
    else:
        return
    board = pos.board
    occ = pos.occ
    them = 3 - us
    in_check: bool | None = None
    while rights:
        low = rights & -rights
        rights ^= low
        rf = low.bit_length() - 1
        if board[rf] & 7 != ROOK or not (mine >> rf) & 1:
            continue
        lo, hi = (ks, rf) if rf > ks else (rf, ks)
        if occ & ((1 << hi) - (2 << lo)):  # a square strictly between is occupied
            continue
        if in_check is None:
            in_check = pos.attacked(ks, them)
        if in_check:
            return
        # the king may stop on any square between; it may not pass through an attacked one
        step = 1 if rf > ks else -1
        for to in range(ks + step, rf, step):
            if pos.attacked(to, them):
                break
            out.append(pack(ks, to, 0, KIND_CASTLE, rf))


def pinned_mask(pos: Position, us: int, ks: int, theirs: int) -> int:
    """Pieces ``us`` controls that stand between their king and an opponent slider that could otherwise take it.

    ``theirs``: the squares of the pieces the opponent controls."""
    br = pos.by_role
    queens = br[QUEEN]
    rq = (br[ROOK] | queens) & theirs & ORTHO8[ks]
    bq = (br[BISHOP] | queens) & theirs & DIAG8[ks]
    if not rq and not bq:
        return 0
    board = pos.board
    occ = pos.occ
    ctrl = pos.ctrl
    them = 3 - us
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
        if d < 4:
            first = (bl & -bl).bit_length() - 1
            bl ^= 1 << first
            if not bl:
                continue
            second = (bl & -bl).bit_length() - 1
        else:
            first = bl.bit_length() - 1
            bl ^= 1 << first
            if not bl:
                continue
            second = bl.bit_length() - 1
        if (sliders >> second) & 1 and ctrl[board[first] >> 3] == us:
            c = board[second] >> 3
            if ctrl[c] == them and c != sc:
                pinned |= 1 << first
    return pinned


def defections(pos: Position, out: list[int]) -> None:
    """Append the pseudo-legal defections: to each colour ``us`` controls; if the king stands on that colour's
    square, only together with a king move off it."""
    us = pos.turn
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
        # the king moves after defecting, so what it may capture is judged under the new ownership
        kp = board[ks]
        board[ks] = (y << 3) | KING
        owners = [pos.owned[1], pos.owned[2]]
        owners[us - 1] = y
        after = compute_control(board, owners[0], owners[1])
        board[ks] = kp
        theirs = 0
        for c in range(12):
            if after[c] == 3 - us:
                theirs |= pos.by_colour[c]
        land = ~((pos.occ & ~theirs) | pos.blocked_mask() | COLOUR_MASK[y]) & FULL
        tb = KING_ATTACKS[ks] & land
        while tb:
            tl = tb & -tb
            tb ^= tl
            out.append(pack(ks, tl.bit_length() - 1, 0, KIND_DEFECT, y))


def legal_moves(pos: Position, with_defections: bool = True) -> list[int]:
    """The legal packed moves of the side to move.

    Why the shortcut is sound: on our move the opponent's control can only shrink (their pieces do not move; our
    pieces landing on squares of colour give control to us; a capture can cut their chains) unless our owned colour
    changes (overthrow, defection). So if we are not in check, a non-king piece that is not pinned cannot expose
    the king. Everything else is made, tested and unmade.
    """
    pseudo: list[int] = []
    pseudo_moves(pos, pseudo)
    if with_defections:
        defections(pos, pseudo)
    us = pos.turn
    ks = pos.kings[us]
    if ks < 0:  # no king (a composed position): nothing to expose, but a new king must not be in check
        pinned = 0
    elif pos.attacked(ks, 3 - us):
        pinned = -1
    else:
        pinned = pinned_mask(pos, us, ks, side_masks(pos, us)[1]) | (1 << ks)
    out = []
    for m in pseudo:
        if not (pinned >> (m & 255)) & 1 and m < (KING << 16):
            out.append(m)
            continue
        pos.push(m)
        if pos.mover_safe():
            out.append(m)
        pos.pop()
    return out
