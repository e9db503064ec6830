"""Presses to enter a Sovereign Chess move on the buttons, for `make bench`: per legal move, per move played, and by
move type (quiet, capture, castle, promotion, defection)."""
from __future__ import annotations

import random
import statistics
from typing import Any


MOVE_TYPES = ("quiet", "capture", "castle", "promotion", "defection")


def move_type(move: Any) -> str:
    """quiet, capture, castle, promotion or defection (a promotion that captures counts as a promotion)."""
    from companion.rules.sovereign_chess import MoveKind

    if move.kind is MoveKind.CASTLING:
        return "castle"
    if move.kind is MoveKind.DEFECTION:
        return "defection"
    if move.promotion is not None:
        return "promotion"
    return "capture" if move.capture else "quiet"


def chess_presses(games: int = 12, plies: int = 60, seed: int = 11) -> dict[str, Any]:
    """Presses to enter a move: on each step of the entry (piece, target, promotion) the cursor starts at the top
    of a wrapping list, so reaching item i of n takes min(i, n - i) presses, then OK. Over the positions of random
    playouts that play a capture when there is one half of the time and a defection when there is one a fifth of
    the time (so captures, defections and the positions after them are in the sample, as at a table):
    ``chess_presses_per_move`` is the mean over positions of the mean over their legal moves;
    ``chess_presses_per_played_move`` the mean for the moves the playouts played; ``chess_presses_by_type`` the mean over every (position, legal move) of each type, with how many."""
    from companion.ui.board_screens import PathChoice, path
    from fsm.base import Player, Setup
    from fsm.prompts import Choice
    from fsm.sovereign_chess import SovereignChessGame

    rng = random.Random(seed)
    per_position: list[float] = []
    played: list[int] = []
    by_type: dict[str, list[int]] = {t: [] for t in MOVE_TYPES}
    for _ in range(games):
        g = SovereignChessGame(Setup((Player("A", 1), Player("B", 2))))
        g.answer("seat1")
        for _ in range(plies):
            if g.is_over:
                break
            p = g.prompt()
            if not isinstance(p, Choice) or g.state != "move":
                g.answer(rng.choice(["accept", "reject"]))
                continue
            options = [o for o in p.options if not o.in_menu]
            legal = {m.text: m for m in g.engine().legal_moves()}
            costs: dict[str, int] = {}
            for o in options:
                walk = PathChoice(p.options)
                presses = 0
                for step in path(o):
                    labels = walk.labels()
                    i = labels.index(step)
                    presses += min(i, len(labels) - i) + 1
                    walk.chosen.append(step)
                costs[o.key] = presses
                by_type[move_type(legal[o.key])].append(presses)
            per_position.append(sum(costs.values()) / len(costs))
            options.sort(key=lambda o: o.key)  # the playout does not depend on the order the screen offers
            kinds = {t: [o for o in options if move_type(legal[o.key]) == t] for t in ("capture", "defection")}
            if kinds["defection"] and rng.random() < 0.2:
                pick = rng.choice(kinds["defection"])
            elif kinds["capture"] and rng.random() < 0.5:
                pick = rng.choice(kinds["capture"])
            else:
                pick = rng.choice(options)
            played.append(costs[pick.key])
            g.answer(pick.key)
    return {"chess_presses_per_move": round(statistics.mean(per_position), 2),
            "chess_presses_per_played_move": round(statistics.mean(played), 2),
            "chess_presses_by_type": {t: {"mean": round(statistics.mean(v), 2) if v else None, "moves": len(v)}
                                      for t, v in by_type.items()}}
