"""One turn of Society, phase by phase in the text's order, orders first in, first processed.

:func:`resolve` takes the world and the turn's orders (plain dicts) and returns the next world and the turn's report:
what happened in each phase, each order's outcome and each society's income. Orders are processed in arrival order
(:func:`~companion.rules.society.turn.canonical`), so the result never depends on the order the GM typed different
societies' orders in. Every order is checked when its phase runs, against the world as it stands then.
Nothing here asks anything; the game machine (fsm/society) collects the orders and shows the report.

The phases live in their own modules, each importing only :mod:`~companion.rules.society.turn` below it:
:mod:`.early` (start of turn, espionage, trade), :mod:`.production`, :mod:`.later` (aid, tax, end), :mod:`.war`.
"""
from __future__ import annotations

import copy
from typing import Any, Mapping

from companion.rules.society import formulas as f
from companion.rules.society.early import diplomacy, espionage, trade
from companion.rules.society.later import aid, culture, end, tax
from companion.rules.society.production import PROD_KINDS, plan_cost, production
from companion.rules.society.text import describe
from companion.rules.society.turn import KIND_PHASE, Order, Turn, canonical
from companion.rules.society.war import war
from companion.rules.society.world import World


def resolve(world: World, orders: list[Order], r: f.Readings = f.DEFAULT,
            arrival: Mapping[str, int] | None = None) -> tuple[World, dict[str, Any]]:
    """The next world and the turn's report. ``report["results"][i]`` is the outcome of ``orders[i]``;
    ``arrival`` ranks the societies' PMs (default: seat order)."""
    idx = canonical(orders, arrival)
    t = Turn(world, [orders[i] for i in idx], r)
    for phase in (diplomacy, espionage, trade, production, aid, war, tax, end):
        phase(t)
    results = [""] * len(orders)
    for k, i in enumerate(idx):
        results[i] = t.result[k]
    report = {"turn": t.turn, "events": t.events, "results": results, "income": t.income, "wars": t.wars,
              "winners": t.winners, "orders": copy.deepcopy(orders)}
    return t.w, report


def _before_production(world: World, orders: list[Order], r: f.Readings) -> Turn:
    t = Turn(world, [orders[i] for i in canonical(orders)], r)
    diplomacy(t)
    espionage(t)
    trade(t)
    return t


def spendable(world: World, orders: list[Order], seat: str, r: f.Readings = f.DEFAULT) -> int:
    """Gold the society can still put into production this turn, as the orders stand: the treasury after the trade
    phase (trade income included) less the production orders it already has."""
    t = _before_production(world, orders, r)
    mine = [(i, o) for i, o in t.of(*PROD_KINDS) if o["seat"] == seat]
    return max(0, int(t.soc(seat)["gold"]) - plan_cost(t, seat, mine))


def production_cost(world: World, orders: list[Order], seat: str, r: f.Readings = f.DEFAULT) -> int:
    """What the society's production orders among ``orders`` cost this turn (those a spy has not negated)."""
    t = Turn(world, [orders[i] for i in canonical(orders)], r)
    diplomacy(t)
    espionage(t)
    mine = [(i, o) for i, o in t.of(*PROD_KINDS)
            if o["seat"] == seat and (seat, KIND_PHASE[o["kind"]]) not in t.negated]
    return plan_cost(t, seat, mine)


def research_costs(world: World, seat: str, levels: int, r: f.Readings = f.DEFAULT) -> list[int]:
    """The price of each of the next ``levels`` levels for this society this turn."""
    t = Turn(world, [], r)
    tech = int(world["soc"][seat]["tech"])
    return [f.tech_cost(tech + k, t.players(), t.have(tech + k, seat), r) for k in range(1, levels + 1)]


__all__ = ["resolve", "spendable", "production_cost", "research_costs", "culture", "describe", "KIND_PHASE",
           "PROD_KINDS", "Order", "Turn"]
