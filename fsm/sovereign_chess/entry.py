"""Move entry as one declarative Choice: every legal move is an option whose ``path`` is the steps a player takes
with the buttons — the piece, then its target (castling and "defect to" are the king's targets), then the promotion
piece or the king's forced step after a defection. The option key is the engine's move text, so a script line
``move TEXT`` or a remote answers the same prompt.

The order keeps presses few: the list wraps, so the likeliest choices sit at the top and just above the bottom.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.rules.sovereign_chess import Move, MoveKind, Role, SovereignChess, square_name
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


def entry_for(game: SovereignChess, move: Move) -> Entry:
    head = piece_label(move)
    if move.kind is MoveKind.CASTLING:
        return Entry(move, (head, f"O-O {square_name(move.to_sq)}"), (move.from_sq, move.to_sq))
    if move.kind is MoveKind.DEFECTION:
        if move.defect_to is None:
            raise RuntimeError("invariant: a defection names its colour")
        step = f"defect {move.defect_to.label}"
        if move.to_sq == move.from_sq:
            return Entry(move, (head, step), (move.from_sq, move.from_sq))
        return Entry(move, (head, step, "K" + _target(move.to_sq, move.capture)),
                     (move.from_sq, move.from_sq, move.to_sq))
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


def arrange(groups: list[list[Entry]], first: int | None) -> list[list[Entry]]:
    """Order the pieces: the last piece this player moved first, then by how many moves each has, the most to the
    cheapest places of a wrapping list."""
    ranked = sorted(groups, key=lambda g: (-len(g), g[0].spots[0]))
    if first is not None:
        lead = [g for g in ranked if g[0].spots[0] == first]
        ranked = lead + [g for g in ranked if g[0].spots[0] != first]
    slots: list[list[Entry] | None] = [None] * len(ranked)
    for pos, group in zip(wrap_order(len(ranked)), ranked):
        slots[pos] = group
    return [g for g in slots if g is not None]


def _target_key(e: Entry) -> tuple[int, int, str]:
    """Targets: ordinary moves first, nearest first; then castling; then defections."""
    m = e.move
    kind = {MoveKind.ORDINARY: 0, MoveKind.CASTLING: 1, MoveKind.DEFECTION: 2}[m.kind]
    fr, to = m.from_sq, m.to_sq
    dist = max(abs((to & 15) - (fr & 15)), abs((to >> 4) - (fr >> 4)))
    return kind, dist, e.path[1]


def move_entries(game: SovereignChess, last_sq: int | None = None) -> list[Entry]:
    """Every legal move of the side to move, in the order the buttons offer them."""
    by_piece: dict[int, list[Entry]] = {}
    for move in game.legal_moves():
        e = entry_for(game, move)
        by_piece.setdefault(move.from_sq, []).append(e)
    groups = [sorted(g, key=_target_key) for g in by_piece.values()]
    return [e for g in arrange(groups, last_sq) for e in g]


def move_options(entries: list[Entry]) -> tuple[Option, ...]:
    return tuple(Option(e.move.text, e.move.text, path=e.path) for e in entries)
