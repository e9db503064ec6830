"""Cross-check the Royale engine against a slow, obviously-written reference of the Royale rules.

The reference shares nothing with the engine's Royale code: (file, rank) squares, a copy of the position per move,
control as a fixpoint over four seats, a king in check when another seat's piece could take it, every move legal,
and the start of a turn spelled out (a king not in check whose every move leaves it in check — a move taking the last
other king excepted — escapes; a seat with no move is passed over). Random playouts from the start and random sparse
positions built to trap kings must give the same moves, control, checks, positions after each move, start-of-turn
events and ends.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from companion.rules.sovereign_chess import SovereignChessRoyale, parse_royale, royale_text
from companion.rules.sovereign_chess.fen import board_text
from companion.rules.sovereign_chess.royale import RoyalePosition, pseudo_moves

SQUARES_OF_COLOUR = {
    0: ("h9", "i8"), 1: ("g7", "j10"), 2: ("j7", "g10"), 3: ("h8", "i9"), 4: ("i6", "h11"), 5: ("l5", "e12"),
    6: ("k8", "f9"), 7: ("k6", "f11"), 8: ("f6", "k11"), 9: ("f8", "k9"), 10: ("e5", "l12"), 11: ("h6", "i11"),
}
P, N, B, R, Q, K = 1, 2, 3, 4, 5, 6
ORTHO = [(0, 1), (0, -1), (1, 0), (-1, 0)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
SEATS = (1, 2, 3, 4)
HOMES = {(8, 0): "rank1", (0, 8): "fileA", (15, 7): "fileP", (7, 15): "rank16"}


Sq = tuple[int, int]


def nm(name: str) -> Sq:
    return "abcdefghijklmnop".index(name[0]), int(name[1:]) - 1


def sqname(sq: Sq) -> str:
    return "abcdefghijklmnop"[sq[0]] + str(sq[1] + 1)


COLOUR_OF: dict[Sq, int] = {}
TWIN: dict[Sq, Sq] = {}
for c, (a, b) in SQUARES_OF_COLOUR.items():
    COLOUR_OF[nm(a)] = COLOUR_OF[nm(b)] = c
    TWIN[nm(a)], TWIN[nm(b)] = nm(b), nm(a)


def on(f: int, r: int) -> bool:
    return 0 <= f < 16 and 0 <= r < 16


def nearer(a: int, b: int) -> bool:
    return abs(b - 7.5) < abs(a - 7.5)


def centre(f: int, r: int) -> bool:
    return 6 <= f <= 9 and 6 <= r <= 9


def line_of(sq: Sq) -> str | None:
    """Which home line a rook square's right belongs to (ranks first)."""
    f, r = sq
    if r == 0:
        return "rank1"
    if r == 15:
        return "rank16"
    if f == 0:
        return "fileA"
    if f == 15:
        return "fileP"
    return None


@dataclass
class Ref:
    """A Royale position: {square: (colour, role)}, the seat to move, {seat: owned colour}, castling rook squares."""

    pieces: dict[Sq, tuple[int, int]]
    turn: int
    owned: dict[int, int]
    rights: frozenset[Sq]

    def __post_init__(self) -> None:
        self.ctrl = self.control()

    def control(self) -> dict[int, set[int]]:
        out = {}
        owned_set = set(self.owned.values())
        for s in SEATS:
            got = {self.owned[s]}
            grew = True
            while grew:
                grew = False
                for sq, col in COLOUR_OF.items():
                    pc = self.pieces.get(sq)
                    if pc and pc[0] in got and col not in got and col not in owned_set:
                        got.add(col)
                        grew = True
            out[s] = got
        return out

    def controller(self, colour: int) -> int:
        for s in SEATS:
            if colour in self.ctrl[s]:
                return s
        return 0

    def king(self, s: int) -> Sq | None:
        for sq, (c, r) in self.pieces.items():
            if r == K and c == self.owned[s]:
                return sq
        return None

    def nkings(self) -> int:
        return sum(1 for s in SEATS if self.king(s) is not None)

    def reach(self, sq: Sq) -> list[Sq]:
        colour, role = self.pieces[sq]
        f, r = sq
        out = []
        if role == N:
            for df, dr in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]:
                if on(f + df, r + dr):
                    out.append((f + df, r + dr))
        elif role == K:
            for df, dr in ORTHO + DIAG:
                if on(f + df, r + dr):
                    out.append((f + df, r + dr))
        elif role == P:
            for df, dr in DIAG:
                if on(f + df, r + dr) and (nearer(f, f + df) or nearer(r, r + dr)):
                    out.append((f + df, r + dr))
        else:
            dirs = {B: DIAG, R: ORTHO, Q: ORTHO + DIAG}[role]
            for df, dr in dirs:
                for k in range(1, 9):
                    t = (f + df * k, r + dr * k)
                    if not on(*t):
                        break
                    out.append(t)
                    if t in self.pieces:
                        break
        return out

    def capturable_by(self, target_sq: Sq, s: int) -> bool:
        pc = self.pieces.get(target_sq)
        if pc is None:
            return False
        ctl = self.controller(pc[0])
        return ctl != 0 and ctl != s

    def may_land(self, colour: int, fr: Sq, to: Sq, s: int) -> bool:
        if COLOUR_OF.get(to) == colour:
            return False
        twin = TWIN.get(to)
        if twin is not None and twin != fr and twin in self.pieces:
            return False
        return to not in self.pieces or self.capturable_by(to, s)

    def attacked(self, target: Sq, by: int) -> bool:
        for sq, (colour, role) in self.pieces.items():
            if colour in self.ctrl[by] and COLOUR_OF.get(target) != colour and target in self.reach(sq):
                return True
        return False

    def checkers(self, s: int) -> list[int]:
        ks = self.king(s)
        if ks is None:
            return []
        return [b for b in SEATS if b != s and self.attacked(ks, b)]

    def checks(self) -> dict[int, tuple[int, ...]]:
        return {s: tuple(c) for s in SEATS if (c := self.checkers(s))}

    def piece_targets(self, sq: Sq, s: int) -> list[tuple[Sq, int]]:
        colour, role = self.pieces[sq]
        f, r = sq
        found = []
        if role == P:
            for df, dr in ORTHO:
                t = (f + df, r + dr)
                if on(*t) and (nearer(f, t[0]) if df else nearer(r, t[1])) and t not in self.pieces:
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
            if not self.may_land(colour, sq, t, s):
                continue
            if role == P and centre(*t):
                out += [(t, x) for x in (Q, R, B, N, K)]
            else:
                out.append((t, 0))
        return out

    def moves(self, defections: bool = True) -> list[tuple[Any, ...]]:
        s = self.turn
        if self.nkings() <= 1:
            return []
        out: list[tuple[Any, ...]] = []
        for sq, (colour, role) in list(self.pieces.items()):
            if colour not in self.ctrl[s]:
                continue
            for to, promo in self.piece_targets(sq, s):
                out.append((sq, to, promo, 0, 0))
        ks = self.king(s)
        if ks is not None and ks in HOMES:
            line = HOMES[ks]
            for rook in self.rights:
                if line_of(rook) != line or rook not in self.pieces or self.pieces[rook][1] != R:
                    continue
                if self.pieces[rook][0] not in self.ctrl[s]:
                    continue
                if ks[1] == rook[1]:
                    step = (1 if rook[0] > ks[0] else -1, 0)
                    n = abs(rook[0] - ks[0])
                else:
                    step = (0, 1 if rook[1] > ks[1] else -1)
                    n = abs(rook[1] - ks[1])
                between = [(ks[0] + step[0] * k, ks[1] + step[1] * k) for k in range(1, n)]
                if any(b in self.pieces for b in between):
                    continue
                for dest in between:
                    out.append((ks, dest, 0, 1, rook))
        if defections and ks is not None:
            for y in sorted(self.ctrl[s] - {self.owned[s]}):
                if COLOUR_OF.get(ks) != y:
                    out.append((ks, ks, 0, 2, y))
                else:
                    turned = self.defected(y)
                    for to, _ in turned.piece_targets(ks, s):
                        out.append((ks, to, 0, 2, y))
        return out

    def defected(self, y: int) -> "Ref":
        s = self.turn
        pieces = dict(self.pieces)
        ks = self.king(s)
        assert ks is not None
        pieces[ks] = (y, K)
        return Ref(pieces, s, {**self.owned, s: y}, self.rights)

    def after(self, m: tuple[Any, ...], advance: bool = True) -> "Ref":
        """The position after move m, the turn passed on (no start-of-turn rules)."""
        fr, to, promo, kind, extra = m
        s = self.turn
        rights = set(self.rights)
        owned = dict(self.owned)
        pieces = dict(self.pieces)
        touched = {fr, to}
        if kind == 2:
            pieces[fr] = (extra, K)
            owned[s] = extra
            if to != fr:
                pieces[to] = pieces.pop(fr)
            else:
                touched = set()
        elif kind == 1:
            if fr[1] == extra[1]:
                rook_to = (to[0] - 1, to[1]) if extra[0] > fr[0] else (to[0] + 1, to[1])
            else:
                rook_to = (to[0], to[1] - 1) if extra[1] > fr[1] else (to[0], to[1] + 1)
            kp, rp = pieces.pop(fr), pieces.pop(extra)
            pieces[to], pieces[rook_to] = kp, rp
            touched = {fr, extra}
        else:
            colour, role = pieces.pop(fr)
            if promo == K:
                old = self.king(s)
                if old is not None:
                    del pieces[old]
                    touched.add(old)
                owned[s] = colour
            pieces[to] = (colour, promo or role)
        for t in touched:
            rights.discard(t)
            if t in HOMES:
                rights = {x for x in rights if line_of(x) != HOMES[t]}
        nxt = s % 4 + 1 if advance else s
        return Ref(pieces, nxt, owned, frozenset(rights))

    def remove_king(self, s: int) -> "Ref":
        ks = self.king(s)
        assert ks is not None
        pieces = dict(self.pieces)
        del pieces[ks]
        rights = set(self.rights)
        if ks in HOMES:
            rights = {x for x in rights if line_of(x) != HOMES[ks]}
        return Ref(pieces, self.turn, dict(self.owned), frozenset(rights))

    def safe_after(self, m: tuple[Any, ...], s: int, win_counts: bool) -> bool:
        nxt = self.after(m)
        ks = nxt.king(s)
        if ks is None:
            return True
        if win_counts and nxt.nkings() == 1:
            return True  # capturing the last other king ends the game: no check matters
        return not nxt.checkers(s)

    def start_turn(self, win_counts: bool = True) -> tuple["Ref", tuple[int, ...], tuple[int, ...]]:
        """The start of the seat's turn: (the position after it, seats whose king escaped, seats passed over)."""
        pos = self
        escaped, passed = [], []
        for _ in range(4):
            if pos.nkings() <= 1:
                break
            s = pos.turn
            mv = pos.moves()
            if pos.king(s) is not None and not pos.checkers(s) and not any(
                pos.safe_after(m, s, win_counts) for m in mv
            ):
                pos = pos.remove_king(s)
                escaped.append(s)
                if pos.nkings() <= 1:
                    break
                mv = pos.moves()
            if mv:
                break
            passed.append(s)
            pos = Ref(pos.pieces, s % 4 + 1, pos.owned, pos.rights)
        return pos, tuple(escaped), tuple(passed)

    def outcome(self) -> tuple[int | None, tuple[int, ...], str] | None:
        alive = [s for s in SEATS if self.king(s) is not None]
        tied = tuple(s for s in SEATS if self.king(s) is None)
        if len(alive) == 1:
            return (alive[0], tied, "last king")
        if not alive:
            return (None, tied, "no king")
        for s in SEATS:
            if Ref(self.pieces, s, self.owned, self.rights).moves():
                return None
        return (None, SEATS, "no moves")


# ---------------------------------------------------------------------------------------------- comparing


def xy(sq: int) -> tuple[int, int]:
    return (sq & 15, sq >> 4)


def unpack(m: int) -> tuple[Any, ...]:
    fr, to, promo, kind, extra = m & 255, (m >> 8) & 255, (m >> 16) & 7, (m >> 19) & 3, m >> 21
    return (xy(fr), xy(to), promo, kind, xy(extra) if kind == 1 else extra)


def ref_of(pos: RoyalePosition) -> Ref:
    pieces = {xy(sq): (v >> 3, v & 7) for sq, v in enumerate(pos.board) if v}
    rights = frozenset(xy(sq) for sq in range(256) if pos.castling >> sq & 1)
    return Ref(pieces, pos.turn, {s: pos.owned[s] for s in SEATS}, rights)


def key(ref: Ref) -> tuple[Any, ...]:
    return (sorted(ref.pieces.items()), ref.turn, sorted(ref.owned.items()), sorted(ref.rights))


def compare(pos: RoyalePosition, children: bool, seen: dict[str, int]) -> list[int]:
    text = royale_text(pos)
    ref = ref_of(pos)
    assert {s: {c for c in range(12) if pos.ctrl[c] == s} for s in SEATS} == ref.ctrl, text
    assert {s: tuple(by) for s in SEATS if (by := pos.checkers(s))} == ref.checks(), text
    fast = pseudo_moves(pos, True)
    assert sorted(unpack(m) for m in fast) == sorted(ref.moves()), text
    if not children:
        return fast
    for m in fast:
        pos.push(m)
        escaped, passed = pos.events[-1]
        after, ref_escaped, ref_passed = ref.after(unpack(m)).start_turn()
        assert (tuple(escaped), tuple(passed)) == (ref_escaped, ref_passed), (text, unpack(m))
        assert key(ref_of(pos)) == key(after), (text, unpack(m))
        outcome = SovereignChessRoyale(royale_text(pos)).outcome()
        assert (outcome and (outcome.winner, outcome.tied, outcome.reason)) == after.outcome(), (text, unpack(m))
        seen["escaped"] += bool(escaped)
        seen["passed"] += bool(passed)
        seen["ended"] += outcome is not None
        pos.pop()
        assert royale_text(pos) == text
    return fast


@pytest.mark.parametrize("seed", [1])
def test_random_playouts_from_the_start_match_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    pos = SovereignChessRoyale().position
    seen = {"escaped": 0, "passed": 0, "ended": 0}
    for _ in range(160):
        moves = compare(pos, rng.random() < 0.08, seen)
        if not moves:
            break
        captures = [m for m in moves if pos.board[(m >> 8) & 255]]  # capture-happy: kings get taken
        pos.push(rng.choice(captures) if captures and rng.random() < 0.6 else rng.choice(moves))
    assert pos.kings_left() < 4  # the playout got somewhere


def trap_position(rng: random.Random) -> RoyalePosition | None:
    """Four seats with random colours; the seat to move has little but its king, with other seats' pieces around
    it: escapes, passes and ends happen."""
    board = [0] * 256
    owned = rng.sample(range(12), 4)
    colours = owned + rng.sample([c for c in range(12) if c not in owned], rng.randint(2, 6))
    castling = []
    for seat, own in enumerate(owned):
        if rng.random() < 0.12:
            continue  # a seat in Interregnum
        if rng.random() < 0.3:
            (f, r), line = list(HOMES.items())[seat]
            board[r * 16 + f] = own * 8 + K
            for k in rng.sample([0, 2, 4, 11, 13, 15], rng.randint(0, 3)):
                sq = r * 16 + k if line.startswith("rank") else k * 16 + f
                if not board[sq]:
                    board[sq] = rng.choice(colours) * 8 + R
                    castling.append(sqname(xy(sq)))
        else:
            free = [sq for sq in range(256) if not board[sq]]
            board[rng.choice(free)] = own * 8 + K
    for _ in range(rng.randint(3, 30)):
        sq = min(15, max(0, int(rng.gauss(7.5, 4.5)))) * 16 + min(15, max(0, int(rng.gauss(7.5, 4.5))))
        if not board[sq]:
            board[sq] = rng.choice(colours) * 8 + rng.choice([P, P, P, N, B, R, Q])
    turn = rng.randint(1, 4)
    own = owned[turn - 1]
    for sq in range(256):
        if board[sq] >> 3 == own and board[sq] & 7 != K and rng.random() < 0.8:
            board[sq] = 0
    ks = next((sq for sq in range(256) if board[sq] == own * 8 + K), None)
    if ks is not None:
        for _ in range(rng.randint(2, 10)):
            sq = min(15, max(0, (ks >> 4) + rng.randint(-5, 5))) * 16 + min(15, max(0, (ks & 15) + rng.randint(-5, 5)))
            if not board[sq]:
                board[sq] = rng.choice([c for c in colours if c != own]) * 8 + rng.choice([P, N, B, R, Q, R, Q])
    letters = "wasbproygcnv"
    try:
        pos = parse_royale(f"{board_text(board)} {turn} {' '.join(letters[o] for o in owned)} "
                           f"{','.join(castling) or '-'} 0")
    except ValueError:
        return None
    return None if pos.in_check(pos.turn) and rng.random() < 0.9 else pos


@pytest.mark.parametrize("seed", [515])  # a seed whose positions include escapes
def test_trapped_kings_match_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    seen = {"escaped": 0, "passed": 0, "ended": 0, "settled": 0}
    done = 0
    while done < 50:
        pos = trap_position(rng)
        if pos is None:
            continue
        done += 1
        text = royale_text(pos)
        after, escaped, passed = ref_of(pos).start_turn()
        assert pos.settle() == (escaped, passed), text
        assert key(ref_of(pos)) == key(after), text
        seen["settled"] += bool(escaped)
        compare(pos, True, seen)
    assert seen["settled"] >= 2 and seen["passed"] > 0


def test_the_reference_knows_a_winning_capture_is_no_escape() -> None:
    # the engine test's position (test_chess_royale): White's only move avoiding check takes the last other king
    pieces = {(0, 0): (0, K), (1, 1): (0, R), (4, 4): (1, B), (0, 2): (1, N), (2, 0): (1, N), (1, 8): (3, K)}
    ref = Ref(pieces, 1, {1: 0, 2: 1, 3: 2, 4: 3}, frozenset())
    assert ref.start_turn()[1:] == ((), ())
    assert ref.start_turn(win_counts=False)[1:] == ((1,), ())
