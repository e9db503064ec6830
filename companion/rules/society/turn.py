"""The working state of one Society turn, shared by the phase modules (the lowest layer of the resolution: it
imports no phase, so the phases, the war and the order checks can all build on it without importing each other).

Orders are processed in the text's "first in, first processed" order, which is each society's arrival (the time its
PM reached the GM, which the GM may set), never the order the GM happened to type different societies' orders in:
:func:`canonical` sorts by arrival, then seat, keeping each society's own list in the order the player wrote it.
"""
from __future__ import annotations

import pickle
from typing import Any, Mapping

from companion.rules.society import formulas as f
from companion.rules.society.data import PHASE_NAMES, PRODUCTION
from companion.rules.society.world import Soc, World, alive

Order = dict[str, Any]

#: which phase (a spy's target, a revolution's kept phase) each order kind belongs to
KIND_PHASE: dict[str, str] = {
    "spy": "espionage", "defend": "espionage", "trade": "trade", "research": "research", "armies": "military",
    "nukes": "military", "sdi": "military", "city": "cities", "wonder": "wonders", "part": "wonders",
    "kgb": "wonders", "aid": "aid", "attack": "war", "declare": "war", "peace": "war", "revolution": "none",
    "note": "none",
}


def arrival_key(seat: str, arrival: Mapping[str, int] | None) -> tuple[int, int]:
    """Where a society's orders stand in "first in, first processed": its arrival rank (default: its seat)."""
    n = int(seat)
    return (int(arrival.get(str(seat), n)) if arrival else n, n)


def canonical(orders: list[Order], arrival: Mapping[str, int] | None = None) -> list[int]:
    """The indices of ``orders`` in processing order: by arrival, then seat; each society's own orders keep their
    order (the player's list: the back of it is what a shortfall cuts)."""
    return sorted(range(len(orders)), key=lambda i: (*arrival_key(str(orders[i]["seat"]), arrival), i))


def kept(keep: str, phase: str) -> bool:
    """A society in revolution that keeps ``keep`` acts in ``phase`` (a whole production phase counts as one)."""
    return keep == phase or (keep == "production" and phase in PRODUCTION)


class Turn:
    """The working state of one turn's resolution."""

    def __init__(self, world: World, orders: list[Order], r: f.Readings) -> None:
        #: the world to change: a copy (a pickled round trip: plain data, copied in a third of deepcopy's time; the
        #: order screens build a Turn for every prompt to say the gold left)
        self.w: World = pickle.loads(pickle.dumps(world, pickle.HIGHEST_PROTOCOL))
        self.start: World = world
        self.orders = orders
        self.r = r
        self.turn = int(world["turn"])
        self.result: list[str] = ["note" if o.get("kind") == "note" else "ok" for o in orders]
        self.events: list[dict[str, str]] = []
        self.negated: set[tuple[str, str]] = set()
        self.revolution: dict[str, dict[str, str]] = {}
        self.income: dict[str, dict[str, int]] = {k: {"trade": 0, "tax": 0, "wonders": 0, "support": 0,
                                                       "disbanded": 0, "net": 0} for k in world["soc"]}
        self.wars: list[dict[str, Any]] = []
        self.winners: list[dict[str, str]] = []

    def soc(self, seat: str) -> Soc:
        return self.w["soc"][seat]  # type: ignore[no-any-return]

    def name(self, seat: str) -> str:
        return str(self.w["soc"][seat]["name"])

    def say(self, phase: str, text: str) -> None:
        self.events.append({"phase": phase, "text": text})

    def mark(self, i: int, outcome: str) -> None:
        self.result[i] = outcome

    def of(self, *kinds: str) -> list[tuple[int, Order]]:
        return [(i, o) for i, o in enumerate(self.orders) if o["kind"] in kinds and self.result[i] == "ok"]

    def acts(self, i: int, seat: str, phase: str) -> bool:
        """The society may act in ``phase``; if not, the order is marked and False returned."""
        s = self.w["soc"].get(seat)
        if s is None or not s["alive"]:
            self.mark(i, "refused: the society is gone")
            return False
        rev = self.revolution.get(seat)
        if rev is not None and not kept(rev["keep"], phase):
            self.mark(i, "lost: the society is in revolution")
            return False
        if (seat, phase) in self.negated:
            self.mark(i, f"negated: {PHASE_NAMES[phase]} sabotaged by a spy")
            return False
        return True

    def players(self) -> int:
        return len(alive(self.start)) if self.r.tech_players == "alive" else int(self.start["started"])

    def have(self, level: int, seat: str) -> int:
        """R: the other societies that have the level (at the turn's start, or by now with ``tech_have`` live)."""
        w = self.w if self.r.tech_have == "live" else self.start
        return sum(1 for k, s in w["soc"].items() if k != seat and s["alive"] and int(s["tech"]) >= level)
