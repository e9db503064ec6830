"""Move entry as one declarative Choice: every legal move is an option whose ``path`` is the steps a player takes
with the buttons — the piece, then its target (castling and "defect to" are the king's targets), then the promotion
piece or the king's forced step after a defection. The option key is the engine's move text, so a script line
``move TEXT`` or a remote answers the same prompt.

The order keeps presses few: the list wraps, so the likeliest choices sit at the top and just above the bottom.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.rules.sovereign_chess import AnyChess, Move, MoveKind, Role, square_name
from fsm.prompts import Option

ROLE_NAMES = {Role.QUEEN: "queen", Role.ROOK: "rook", Role.BISHOP: "bishop", Role.KNIGHT: "knight",
              Role.KING: "king", Role.PAWN: "pawn"}


@dataclass(frozen=True)
class Entry:
    """One legal move as the buttons reach it."""

    move: Move
    path: tuple[str, ...]
    spots: tuple[int, ...]


def piece_label(move: Move) -> str:
    """``nQ e5``: the moving piece's colour letter, role and square."""
    return f"{move.colour.letter}{move.role.letter.upper()} {square_name(move.from_sq)}"


def _target(sq: int, capture: bool) -> str:
    return ("x" if capture else "") + square_name(sq)


def entry_for(game: AnyChess, move: Move) -> Entry:
    head = piece_label(move)
    if move.kind is MoveKind.CASTLING:
        return Entry(move, (head, f"O-O {square_name(move.to_sq)}"), (move.from_sq, move.to_sq))
    if move.kind is MoveKind.DEFECTION:
        if move.defect_to is None:
            raise RuntimeError("invariant: a defection names its colour")
        colour = move.defect_to.label
        if move.to_sq == move.from_sq:
            return Entry(move, (head, "defect", colour), (move.from_sq, move.from_sq, move.from_sq))
        return Entry(move, (head, "defect", colour, "K" + _target(move.to_sq, move.capture)),
                     (move.from_sq, move.from_sq, move.from_sq, move.to_sq))
    target = _target(move.to_sq, move.capture)
    if move.promotion is None:
        return Entry(move, (head, target), (move.from_sq, move.to_sq))
    if move.promotion is Role.KING:
        word = "coup" if game.owned(game.turn) is move.colour else "overthrow"
        promo = f"=K {word}"
    else:
        promo = f"={move.promotion.letter.upper()} {ROLE_NAMES[move.promotion]}"
    return Entry(move, (head, target, promo), (move.from_sq, move.to_sq, move.to_sq))


def wrap_order(n: int) -> list[int]:
    """List positions from the cheapest to reach to the dearest, for a cursor starting at 0 on a wrapping list:
    0, 1, n-1, 2, n-2, …"""
    out = [0] if n else []
    lo, hi = 1, n - 1
    while lo <= hi:
        out.append(lo)
        if hi != lo:
            out.append(hi)
        lo, hi = lo + 1, hi - 1
    return out


def arrange(groups: list[list[Entry]], first: int | None, sharp: set[int] = frozenset()) -> list[list[Entry]]:  # type: ignore[assignment]
    """Order the pieces: the last piece this player moved first; then the pieces that can capture, give check or
    defect (``sharp``: their from-squares), then the rest, each by how many moves it has: the most to the cheapest
    places of a wrapping list."""
    ranked = sorted(groups, key=lambda g: (g[0].move.from_sq not in sharp, -len(g), g[0].spots[0]))
    if first is not None:
        lead = [g for g in ranked if g[0].spots[0] == first]
        ranked = lead + [g for g in ranked if g[0].spots[0] != first]
    slots: list[list[Entry] | None] = [None] * len(ranked)
    for pos, group in zip(wrap_order(len(ranked)), ranked):
        slots[pos] = group
    return [g for g in slots if g is not None]


def _target_key(e: Entry, checks: set[str] = frozenset()) -> tuple[int, int, int, str]:  # type: ignore[assignment]
    """Targets: ordinary moves first, captures and checks (``checks``: move texts) before the rest, nearest first;
    then castling; then defections."""
    m = e.move
    kind = {MoveKind.ORDINARY: 0, MoveKind.CASTLING: 1, MoveKind.DEFECTION: 2}[m.kind]
    fr, to = m.from_sq, m.to_sq
    dist = max(abs((to & 15) - (fr & 15)), abs((to >> 4) - (fr >> 4)))
    return kind, not (m.capture or m.text in checks), dist, e.path[1]


#: a piece with more targets than this offers a direction first (then the squares that way, nearest first)
GROUP_OVER = 10
_COMPASS = {(1, 0): "N", (1, 1): "NE", (0, 1): "E", (-1, 1): "SE", (-1, 0): "S", (-1, -1): "SW", (0, -1): "W",
            (1, -1): "NW"}


def direction(e: Entry) -> str:
    """The step that groups a many-target piece's moves: a compass direction on the board as drawn (N is towards
    rank 16), ``castle`` or ``defect``."""
    m = e.move
    if m.kind is MoveKind.CASTLING:
        return "castle"
    if m.kind is MoveKind.DEFECTION:
        return "defect"
    dr, df = (m.to_sq >> 4) - (m.from_sq >> 4), (m.to_sq & 15) - (m.from_sq & 15)
    if dr and df and abs(dr) != abs(df):  # a knight's leap (a knight never has enough targets to be grouped)
        return "leap"
    return _COMPASS[((dr > 0) - (dr < 0), (df > 0) - (df < 0))]


def grouped(entries: list[Entry]) -> list[Entry]:
    """One piece's moves: with more than GROUP_OVER targets, a direction step first, the biggest groups cheapest."""
    if len({e.path[1] for e in entries}) <= GROUP_OVER:
        return entries
    groups: dict[str, list[Entry]] = {}
    for e in entries:
        groups.setdefault(direction(e), []).append(e)
    ranked = sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    slots: list[tuple[str, list[Entry]] | None] = [None] * len(ranked)
    for pos, item in zip(wrap_order(len(ranked)), ranked):
        slots[pos] = item
    out = []
    for name, es in (item for item in slots if item is not None):
        targets = len({x.path[2] if x.path[1] == "defect" else x.path[1] for x in es})
        for e in es:
            rest = e.path[2:] if e.path[1] == "defect" else e.path[1:]  # "defect (2)" replaces the defect step
            spots = e.spots[1:] if e.path[1] == "defect" else e.spots
            out.append(Entry(e.move, (e.path[0], f"{name} ({targets})", *rest), (spots[0], spots[1], *spots[1:])))
    return out


def checking_moves(game: AnyChess, moves: list[Move]) -> set[str]:
    """The texts of the ordinary moves that give check (each made and unmade). A variant without the check rule
    (Royale: moving into check is legal there and kings are taken) has no check to give here: nothing is marked."""
    if not game.position.KING_SAFETY:
        return set()
    return {move.text for move in moves if move.kind is MoveKind.ORDINARY and game.gives_check(move)}


def move_entries(game: AnyChess, last_sq: int | None = None) -> list[Entry]:
    """Every legal move of the side to move, in the order the buttons offer them: the pieces that can capture,
    give check or defect first (after the piece moved last), and on each piece its captures and checks first."""
    by_piece: dict[int, list[Entry]] = {}
    moves = game.legal_moves()
    checks = checking_moves(game, moves)
    sharp = {m.from_sq for m in moves if m.capture or m.text in checks or m.kind is MoveKind.DEFECTION}
    for move in moves:
        e = entry_for(game, move)
        by_piece.setdefault(move.from_sq, []).append(e)
    groups = [grouped(sorted(g, key=lambda e: _target_key(e, checks))) for g in by_piece.values()]
    return [e for g in arrange(groups, last_sq, sharp) for e in g]


def move_options(entries: list[Entry]) -> tuple[Option, ...]:
    return tuple(Option(e.move.text, e.move.text, path=e.path) for e in entries)
