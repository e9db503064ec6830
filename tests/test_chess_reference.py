"""Cross-check the fast engine against a slow, obviously-written reference of the rules.

The reference below shares nothing with the engine but the board array it starts from: it uses (file, rank) pairs,
copies the position for every move, walks rays square by square and computes control as a fixpoint. Random playouts
from the start and random sparse positions (chains of control, checks, pins, promotions, castling, defections) must
give the same legal moves and the same positions after each move, and make/unmake must restore everything.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import pytest

from companion.rules.sovereign_chess.fen import START, parse_position, position_text
from companion.rules.sovereign_chess.movegen import legal_moves
from companion.rules.sovereign_chess.perft import count_legal, perft
from companion.rules.sovereign_chess.position import Position

# ---------------------------------------------------------------------------------------------- the reference

SQUARES_OF_COLOUR = {
    0: ("h9", "i8"), 1: ("g7", "j10"), 2: ("j7", "g10"), 3: ("h8", "i9"), 4: ("i6", "h11"), 5: ("l5", "e12"),
    6: ("k8", "f9"), 7: ("k6", "f11"), 8: ("f6", "k11"), 9: ("f8", "k9"), 10: ("e5", "l12"), 11: ("h6", "i11"),
}
P, N, B, R, Q, K = 1, 2, 3, 4, 5, 6
ORTHO = [(0, 1), (0, -1), (1, 0), (-1, 0)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def name_to_fr(name: str) -> tuple[int, int]:
    return "abcdefghijklmnop".index(name[0]), int(name[1:]) - 1


COLOUR_OF_SQUARE: dict[tuple[int, int], int] = {}
TWIN_OF: dict[tuple[int, int], tuple[int, int]] = {}
for _c, (_a, _b) in SQUARES_OF_COLOUR.items():
    COLOUR_OF_SQUARE[name_to_fr(_a)] = COLOUR_OF_SQUARE[name_to_fr(_b)] = _c
    TWIN_OF[name_to_fr(_a)], TWIN_OF[name_to_fr(_b)] = name_to_fr(_b), name_to_fr(_a)


def on_board(f: int, r: int) -> bool:
    return 0 <= f < 16 and 0 <= r < 16


def nearer(a: int, b: int) -> bool:
    return abs(b - 7.5) < abs(a - 7.5)


def in_centre(f: int, r: int) -> bool:
    return 6 <= f <= 9 and 6 <= r <= 9


@dataclass
class Ref:
    pieces: dict[tuple[int, int], tuple[int, int]]  # square -> (colour, role)
    turn: int
    owned: dict[int, int]
    rights: frozenset[tuple[int, int]]
    ply: int = 0
    ctrl: dict[int, set[int]] = field(default_factory=dict)
    children: dict[tuple, "Ref"] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.ctrl = self.control()

    def control(self) -> dict[int, set[int]]:
        out = {}
        # (colour of the square, colour of the piece on it) for every occupied square of colour
        held = [(colour, self.pieces[sq][0]) for sq, colour in COLOUR_OF_SQUARE.items() if sq in self.pieces]
        for p in (1, 2):
            got = {self.owned[p]}
            grew = True
            while grew:
                grew = False
                for colour, piece_colour in held:
                    if piece_colour in got and colour not in got and colour != self.owned[3 - p]:
                        got.add(colour)
                        grew = True
            out[p] = got
        return out

    def king(self, p: int) -> tuple[int, int] | None:
        for sq, (c, r) in self.pieces.items():
            if r == K and c == self.owned[p]:
                return sq
        return None

    def may_land(self, colour: int, fr: tuple[int, int], to: tuple[int, int], p: int) -> bool:
        if COLOUR_OF_SQUARE.get(to) == colour:
            return False
        twin = TWIN_OF.get(to)
        if twin is not None and twin != fr and twin in self.pieces:
            return False
        target = self.pieces.get(to)
        return target is None or target[0] in self.ctrl[3 - p]

    def reach(self, sq: tuple[int, int]) -> list[tuple[int, int]]:
        """Squares the piece on sq could capture on (ignoring what is there and landing rules)."""
        colour, role = self.pieces[sq]
        f, r = sq
        out = []
        if role == N:
            for df, dr in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]:
                if on_board(f + df, r + dr):
                    out.append((f + df, r + dr))
        elif role == K:
            for df, dr in ORTHO + DIAG:
                if on_board(f + df, r + dr):
                    out.append((f + df, r + dr))
        elif role == P:
            for df, dr in DIAG:
                if on_board(f + df, r + dr) and (nearer(f, f + df) or nearer(r, r + dr)):
                    out.append((f + df, r + dr))
        else:
            dirs = {B: DIAG, R: ORTHO, Q: ORTHO + DIAG}[role]
            for df, dr in dirs:
                for k in range(1, 9):
                    t = (f + df * k, r + dr * k)
                    if not on_board(*t):
                        break
                    out.append(t)
                    if t in self.pieces:
                        break
        return out

    def attacked(self, target: tuple[int, int], by: int) -> bool:
        theirs, colour_here = self.ctrl[by], COLOUR_OF_SQUARE.get(target)
        tf, tr = target
        for sq, (colour, role) in self.pieces.items():
            if colour not in theirs or colour_here == colour:
                continue
            # lined up first (cheap, and most pieces are not: then reach() cannot hold): a knight's jump away, or
            # on the piece's rank, file or a diagonal
            df, dr = abs(tf - sq[0]), abs(tr - sq[1])
            if (df + dr == 3 and df and dr if role == N else df == 0 or dr == 0 or df == dr) \
                    and target in self.reach(sq):
                return True
        return False

    def moves(self, defections: bool = True) -> list[tuple[int, ...]]:
        """Legal moves as (from, to, promotion, kind, extra) with squares as ints rank*16+file."""
        p = self.turn
        out = []
        for sq, (colour, role) in list(self.pieces.items()):
            if colour not in self.ctrl[p]:
                continue
            for to, promo in self.piece_targets(sq, p):
                out.append((sq, to, promo, 0, 0))
        ksq = self.king(p)
        if ksq in ((8, 0), (8, 15)) and not self.attacked(ksq, 3 - p):
            for rook in self.rights:
                if rook[1] != ksq[1] or rook not in self.pieces or self.pieces[rook][1] != R:
                    continue
                if self.pieces[rook][0] not in self.ctrl[p]:
                    continue
                step = 1 if rook[0] > ksq[0] else -1
                between = [(f, ksq[1]) for f in range(ksq[0] + step, rook[0], step)]
                if any(s in self.pieces for s in between):
                    continue
                for dest in between:
                    if self.attacked(dest, 3 - p):
                        break
                    out.append((ksq, dest, 0, 1, rook))
        if defections and ksq is not None:
            for y in sorted(self.ctrl[p] - {self.owned[p]}):
                if COLOUR_OF_SQUARE.get(ksq) != y:
                    out.append((ksq, ksq, 0, 2, y))
                else:
                    turned = self.defect(y)
                    for to, _ in turned.piece_targets(ksq, p):
                        out.append((ksq, to, 0, 2, y))
        legal = [m for m in out if self.after(m).safe(p)]
        return [(a[1] * 16 + a[0], b[1] * 16 + b[0], pr, kind, (x[1] * 16 + x[0]) if kind == 1 else x)
                for a, b, pr, kind, x in legal]

    def piece_targets(self, sq: tuple[int, int], p: int) -> list[tuple[tuple[int, int], int]]:
        colour, role = self.pieces[sq]
        f, r = sq
        found: list[tuple[int, int]] = []
        if role == P:
            for df, dr in ORTHO:
                t = (f + df, r + dr)
                if on_board(*t) and (nearer(f, t[0]) if df else nearer(r, t[1])) and t not in self.pieces:
                    found.append(t)
            ring = min(f, r, 15 - f, 15 - r)
            if ring <= 1:
                edges = {(1, 0): f, (-1, 0): 15 - f, (0, 1): r, (0, -1): 15 - r}
                for (df, dr), dist in edges.items():
                    if dist == ring:
                        mid, t = (f + df, r + dr), (f + 2 * df, r + 2 * dr)
                        if mid not in self.pieces and t not in self.pieces:
                            found.append(t)
            for t in self.reach(sq):
                if t in self.pieces:
                    found.append(t)
        else:
            found = self.reach(sq)
        out = []
        for t in found:
            if not self.may_land(colour, sq, t, p):
                continue
            if role == P and in_centre(*t):
                out += [(t, x) for x in (Q, R, B, N, K)]
            else:
                out.append((t, 0))
        return out

    def defect(self, y: int) -> "Ref":
        p = self.turn
        pieces = dict(self.pieces)
        ksq = self.king(p)
        assert ksq is not None
        pieces[ksq] = (y, K)
        return Ref(pieces, p, {**self.owned, p: y}, self.rights, self.ply)

    def after(self, m: tuple) -> "Ref":
        """The position after move m (kept: moves() makes every candidate, and compare() asks again)."""
        if m not in self.children:
            self.children[m] = self.make(m)
        return self.children[m]

    def make(self, m: tuple) -> "Ref":
        fr, to, promo, kind, extra = m
        p = self.turn
        rights = set(self.rights)
        if kind == 2:
            new = self.defect(extra)
            pieces = new.pieces
            owned = new.owned
            if to != fr:
                pieces[to] = pieces.pop(fr)
        else:
            pieces = dict(self.pieces)
            owned = dict(self.owned)
            if kind == 1:
                rook_to = (to[0] - 1, to[1]) if extra[0] > fr[0] else (to[0] + 1, to[1])
                kp, rp = pieces.pop(fr), pieces.pop(extra)
                pieces[to], pieces[rook_to] = kp, rp
                rights = {s for s in rights if s[1] != fr[1]}
            else:
                colour, role = pieces.pop(fr)
                if promo == K:
                    old = self.king(p)
                    if old is not None:
                        del pieces[old]
                        rights = {s for s in rights if not (old in ((8, 0), (8, 15)) and s[1] == old[1])}
                    owned[p] = colour
                pieces[to] = (colour, promo or role)
        if fr == to:  # a defection where the king stays: it has still not moved
            return Ref(pieces, 3 - p, owned, frozenset(rights), self.ply + 1)
        rights -= {fr, to}
        if fr in ((8, 0), (8, 15)):
            rights = {s for s in rights if s[1] != fr[1]}
        return Ref(pieces, 3 - p, owned, frozenset(rights), self.ply + 1)

    def safe(self, p: int) -> bool:
        ksq = self.king(p)
        return ksq is None or not self.attacked(ksq, 3 - p)


def ref_of(pos: Position) -> Ref:
    pieces = {(sq & 15, sq >> 4): (v >> 3, v & 7) for sq, v in enumerate(pos.board) if v}
    rights = frozenset((sq & 15, sq >> 4) for sq in range(256) if pos.castling >> sq & 1)
    return Ref(pieces, pos.turn, {1: pos.owned[1], 2: pos.owned[2]}, rights, pos.ply)


def ref_key(ref: Ref) -> tuple:
    return (ref.pieces, ref.turn, ref.owned, ref.rights, ref.ply)  # dicts and sets compare whatever their order


def unpack(m: int) -> tuple[int, int, int, int, int]:
    return (m & 255, (m >> 8) & 255, (m >> 16) & 7, (m >> 19) & 3, m >> 21)


def ref_move(m: int) -> tuple:
    """A packed move in the reference's terms: squares as (file, rank)."""
    fr, to, promo, kind, extra = unpack(m)
    xy = lambda sq: (sq & 15, sq >> 4)  # noqa: E731
    return (xy(fr), xy(to), promo, kind, xy(extra) if kind == 1 else extra)


# ---------------------------------------------------------------------------------------------- comparing


def compare(pos: Position, rng: random.Random, check_children: bool = True) -> list[int]:
    ref = ref_of(pos)
    assert {p: {c for c in range(12) if pos.ctrl[c] == p} for p in (1, 2)} == ref.ctrl
    fast = legal_moves(pos)
    assert len(set(fast)) == len(fast), "duplicate moves"
    expected = sorted(ref.moves())
    got = sorted(unpack(m) for m in fast)
    assert got == expected, position_text(pos)
    plain = [m for m in fast if (m >> 19) & 3 != 2]
    assert count_legal(pos) == len(plain), position_text(pos)
    if check_children:
        before = state(pos)
        for m in fast:
            pos.push(m)
            assert ref_key(ref_of(pos)) == ref_key(ref.after(ref_move(m))), (position_text(pos), "after", unpack(m))
            pos.pop()
            assert state(pos) == before, (position_text(pos), "after undoing", unpack(m))
    return fast


def state(pos: Position) -> tuple:
    """All that make/unmake must restore: every field of the position text (board, turn, owned colours, castling,
    ply) and the engine's own tables (occupancy, bitboards, kings, control, history)."""
    fields = (getattr(pos, name) for name in Position.__slots__ if name != "history")
    return (*(list(v) if isinstance(v, list) else v for v in fields), len(pos.history))


def test_start_matches_reference() -> None:
    compare(parse_position(START), random.Random(0))


@pytest.mark.parametrize("seed", range(6))
def test_random_playouts_match_reference(seed: int) -> None:
    rng = random.Random(seed)
    pos = parse_position(START)
    texts = [position_text(pos)]
    for _ in range(120):
        moves = compare(pos, rng, check_children=rng.random() < 0.2)
        if not moves:
            break
        pos.push(rng.choice(moves))
        texts.append(position_text(pos))
        assert parse_position(texts[-1]).ctrl == pos.ctrl
    while pos.history:
        pos.pop()
        texts.pop()
        assert position_text(pos) == texts[-1]


def random_position(rng: random.Random) -> Position | None:
    board = [0] * 256
    o1, o2 = rng.sample(range(12), 2)
    colours = [o1, o2] + rng.sample(range(12), rng.randint(2, 6))
    castling = 0
    # kings: often at home with rooks, to reach castling
    for owner in (o1, o2):
        if rng.random() < 0.08:
            continue  # now and then a player without a king (a composed position)
        home = rng.choice([8, 248, None])
        if home is not None and not board[home]:
            board[home] = owner * 8 + K
            for f in rng.sample([2, 4, 11, 13, 0, 15], rng.randint(0, 3)):
                sq = (home & ~15) + f
                if not board[sq]:
                    board[sq] = rng.choice(colours) * 8 + R
                    castling |= 1 << sq
        else:
            board[rng.randrange(256)] = owner * 8 + K
    # pieces crowd the centre, where squares of colour and the promotion zone are
    for _ in range(rng.randint(6, 40)):
        f = min(15, max(0, int(rng.gauss(7.5, 4))))
        r = min(15, max(0, int(rng.gauss(7.5, 4))))
        sq = r * 16 + f
        if not board[sq]:
            board[sq] = rng.choice(colours) * 8 + rng.choice([P, P, P, N, B, R, Q])
    from companion.rules.sovereign_chess.fen import board_text, castling_text

    letters = "wasbproygcnv"
    text = (
        f"{board_text(board)} {rng.choice([1, 2])} {letters[o1]} {letters[o2]} {castling_text(castling)} "
        f"{rng.randint(0, 50)}"
    )
    try:
        return parse_position(text)
    except ValueError:
        return None


@pytest.mark.parametrize("seed", range(8))
def test_random_positions_match_reference(seed: int) -> None:
    rng = random.Random(1000 + seed)
    done = 0
    while done < 25:
        pos = random_position(rng)
        if pos is None:
            continue
        done += 1
        moves = compare(pos, rng)
        # and one ply further, where the new control and kings matter
        for m in rng.sample(moves, min(3, len(moves))):
            pos.push(m)
            compare(pos, rng, check_children=False)
            pos.pop()


def test_bulk_counting_agrees_with_making_every_move() -> None:
    pos = parse_position(START)
    assert perft(pos, 3, bulk=False) == perft(pos, 3) == 9940
