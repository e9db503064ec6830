"""Turn-order pieces shared by the games: seat rotation and the roll-off.

All functions are pure and work on plain JSON values so a game can keep them in its ``data``.
"""
from __future__ import annotations

from typing import Any, Sequence


def next_seat(seat: int, n_players: int, step: int = 1) -> int:
    """The seat ``step`` places clockwise (seats are 1..n)."""
    return (seat - 1 + step) % n_players + 1


def order_from(first: int, n_players: int) -> list[int]:
    """All seats in turn order starting at ``first``."""
    return [next_seat(first, n_players, i) for i in range(n_players)]


def rolloff_start(seats: Sequence[int], die: str, purpose: str = "roll-off") -> dict[str, Any]:
    """A roll-off among ``seats``: each rolls ``die``; highest wins; ties re-roll among the tied only."""
    return {"die": die, "purpose": purpose, "contenders": list(seats), "rolls": {}, "pass": 1,
            "history": [], "winner": None}


def rolloff_next(ro: dict[str, Any]) -> int | None:
    """The next seat to roll, or None once there is a winner."""
    if ro["winner"] is not None:
        return None
    for s in ro["contenders"]:
        if str(s) not in ro["rolls"]:
            return int(s)
    return None  # pragma: no cover - record() always settles a complete pass


def rolloff_record(ro: dict[str, Any], seat: int, value: int) -> None:
    """Record ``seat``'s roll; settles the pass when everyone still in has rolled."""
    if seat != rolloff_next(ro):
        raise ValueError(f"seat {seat} is not the one to roll")
    ro["rolls"][str(seat)] = value
    ro["history"].append([ro["pass"], seat, value])
    if len(ro["rolls"]) < len(ro["contenders"]):
        return
    top = max(ro["rolls"].values())
    tied = [s for s in ro["contenders"] if ro["rolls"][str(s)] == top]
    if len(tied) == 1:
        ro["winner"] = tied[0]
    else:
        ro["contenders"] = tied
        ro["rolls"] = {}
        ro["pass"] += 1


def rolloff_tie(ro: dict[str, Any]) -> list[int] | None:
    """The seats rolling again, right after a pass ended in a tie; else None."""
    if ro["winner"] is None and ro["pass"] > 1 and not ro["rolls"]:
        return [int(s) for s in ro["contenders"]]
    return None


def rolloff_lines(ro: dict[str, Any], names: Sequence[str]) -> tuple[str, ...]:
    """Every roll so far, one pass a line, names whole: "Ana 7 Ben 7", then "Ana 3 Ben 9" (the screen wraps a line
    as drawn; the last three passes)."""
    out: list[str] = []
    cur: list[str] = []
    last_pass = 1
    for p, seat, v in ro["history"]:
        if p != last_pass:
            out.append(" ".join(cur))
            cur, last_pass = [], p
        cur.append(f"{names[seat - 1]} {v}")
    if cur:
        out.append(" ".join(cur))
    return tuple(out[-3:])
