"""Sovereign Chess measurements: presses per move on the board entry."""
from __future__ import annotations

import random
import statistics


def chess_presses_per_move(games: int = 12, plies: int = 60, seed: int = 11) -> float:
    """Mean presses for a uniformly chosen legal move, over the positions of random playouts: on each step of the
    entry (piece, target, promotion) the cursor starts at the top of a wrapping list, so reaching item i of n takes
    min(i, n - i) presses, then OK."""
    from companion.ui.board_screens import PathChoice, path
    from fsm.base import Player, Setup
    from fsm.prompts import Choice
    from fsm.sovereign_chess import SovereignChessGame

    rng = random.Random(seed)
    per_position: list[float] = []
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
            moves = [o for o in p.options if not o.in_menu]
            costs = []
            for o in moves:
                walk = PathChoice(p.options)
                presses = 0
                for step in path(o):
                    labels = walk.labels()
                    i = labels.index(step)
                    presses += min(i, len(labels) - i) + 1
                    walk.chosen.append(step)
                costs.append(presses)
            per_position.append(sum(costs) / len(costs))
            g.answer(rng.choice(moves).key)
    return round(statistics.mean(per_position), 2)
