"""Move generation on packed moves, for every variant: pseudo-legal moves, legality (pins, check), defections,
castling along the king's home line.

Pawns, knights and kings use precomputed tables; sliders take the first blocker on each ray (at most eight squares
long) from the square sets. A move is legal when the mover's king is not attacked afterwards; when the mover is not in
check, a piece that is not pinned and not a king can never expose it (the other seats' control can only shrink on our
move, see :func:`legal_moves`), so only king moves, pinned pieces, regime changes and castling are tried out. The
position's hooks say what differs (:class:`~.position.Position`): without ``KING_SAFETY`` (Royale) every
pseudo-legal move is legal; "another seat" is the opponent for two players, any of the three others in Royale.
"""
from __future__ import annotations

from companion.rules.sovereign_chess.position import KIND_CASTLE, KIND_DEFECT, Position, control_of, pack
from companion.rules.sovereign_chess.squares import (BISHOP, COLOUR_MASK, DIAG8, FULL, KING, KING_ATTACKS, KNIGHT,
                                                     KNIGHT_ATTACKS, ORTHO8, ORTHO_DIRS, PAWN, PAWN_CAPTURES,
                                                     PAWN_DOUBLES, PAWN_STEPS, PROMOTIONS, QUEEN, RAY8, RAYFULL, ROOK,
                                                     SLIDER_RAYS, SQ_COLOUR, TWIN, ZONE, line_step)


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
    """(squares of pieces ``us`` controls, squares of pieces the other seats control: what ``us`` may capture)."""
    ctrl = pos.ctrl
    bc = pos.by_colour
    mine = theirs = 0
    for c in range(12):
        x = ctrl[c]
        if x == us:
            mine |= bc[c]
        elif x:
            theirs |= bc[c]
    return mine, theirs


def pseudo_moves(pos: Position, out: list[int]) -> None:
    """Append every ordinary move and castling of the side to move, ignoring check (defections: :func:`defections`)."""
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
    """Castling along the king's home line (:attr:`~.position.Position.HOME_LINE`) with an unmoved rook it controls,
    the squares between empty; the king may stop on any of them. Under :attr:`~.position.Position.KING_SAFETY` not
    out of check and not through an attacked square."""
    rights = pos.castling
    ks = pos.kings[us]
    if not rights or ks < 0:
        return
    line = pos.HOME_LINE[ks]
    occ = pos.occ
    rights &= line
    if not rights or not line & KING_ATTACKS[ks] & ~occ:  # both the king's neighbours on its line are taken
        return
    board = pos.board
    safety = pos.KING_SAFETY
    in_check: bool | None = None
    while rights:
        low = rights & -rights
        rights ^= low
        rf = low.bit_length() - 1
        if board[rf] & 7 != ROOK or not (mine >> rf) & 1:
            continue
        lo, hi = (ks, rf) if rf > ks else (rf, ks)
        if lo >> 4 == hi >> 4:
            between = (1 << hi) - (2 << lo)  # along a rank
        else:
            between = (RAYFULL[0][lo] ^ RAYFULL[0][hi]) & ~(1 << hi)  # along a file: north of lo, up to hi
        if occ & between:
            continue
        if safety:
            if in_check is None:
                in_check = pos.threatened(ks, us)
            if in_check:
                return
        step = line_step(ks, rf)
        for to in range(ks + step, rf, step):
            if safety and pos.threatened(to, us):
                break
            out.append(pack(ks, to, 0, KIND_CASTLE, rf))


def pinned_mask(pos: Position, us: int, ks: int, theirs: int) -> int:
    """Pieces ``us`` controls that stand between their king and another seat's slider that could otherwise take it.

    ``theirs``: the squares of the pieces the other seats control (:func:`side_masks`)."""
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
        # the slider (theirs) cannot capture on a square of its own colour
        if (sliders >> second) & 1 and ctrl[board[first] >> 3] == us and board[second] >> 3 != sc:
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


def legal_moves(pos: Position, with_defections: bool = True) -> list[int]:
    """The legal packed moves of the side to move: none in a final position (:attr:`~.position.Position.over`);
    without :attr:`~.position.Position.KING_SAFETY` (Royale) every pseudo-legal move.

    Why the shortcut is sound: on our move the other seats' control can only shrink (their pieces do not move; our
    pieces landing on squares of colour give control to us; a capture can cut their chains) unless our owned colour
    changes (overthrow, defection). So if we are not in check, a non-king piece that is not pinned cannot expose
    the king. Everything else is made, tested and unmade.
    """
    pseudo: list[int] = []
    if pos.over:
        return pseudo
    pseudo_moves(pos, pseudo)
    if with_defections:
        defections(pos, pseudo)
    if not pos.KING_SAFETY:
        return pseudo
    us = pos.turn
    ks = pos.kings[us]
    if ks < 0:  # no king (a composed position): nothing to expose, but a new king must not be in check
        pinned = 0
    elif pos.threatened(ks, us):
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
