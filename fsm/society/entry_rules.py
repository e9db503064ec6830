"""What the orders menu greys out and the limits of its spinners: only what no phase of the turn could make legal
(the rules' :func:`~companion.rules.society.orders.why_not`); gold, technology and neighbours are the turn's to judge,
so they are shown as context ("12g left"), not refused."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.society import geo
from companion.rules.society.data import MAX_CARAVANS, WONDER_BY_KEY, WONDERS
from companion.rules.society.orders import KIND_NAMES, ONCE, blocked_at_start, spies_at_espionage
from companion.rules.society.resolve import KIND_PHASE, spendable
from companion.rules.society.turn import canonical, kept
from companion.rules.society.world import alive, at_war, holds, in_trade_range, sq, sqs

from fsm.society.common import readings, sname, soc, world

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

#: the fields each kind of order asks for, in order
STEPS: dict[str, tuple[str, ...]] = {
    "spy": ("target", "phase"), "defend": ("phase",), "trade": ("target", "count"), "research": ("levels",),
    "armies": ("count",), "nukes": ("count",), "sdi": ("count",), "city": ("square",), "wonder": ("wonder", "gold"),
    "part": ("gold",), "kgb": ("wonder",), "aid": ("target", "aid_what"), "declare": ("target",),
    "peace": ("target",), "attack": ("target", "armies", "nukes", "nukes_first", "rank"),
    "revolution": ("gov", "keep"),
}


def unavailable(g: "SocietyGame", seat: str, kind: str, mine: list[dict[str, Any]]) -> str | None:
    """Why an order kind can never be carried out for this society this turn (the menu greys it out), or None."""
    w = world(g)
    s = soc(g, seat)
    if kind in ONCE and any(o["kind"] == kind for o in mine):
        return f"{KIND_NAMES[kind]}: once a turn"
    rev = next((o for o in mine if o["kind"] == "revolution"), None)
    if rev is not None and not kept(str(rev["keep"]), KIND_PHASE[kind]):
        return f"in revolution: only {str(rev['keep']).title()}"
    if kind in ("spy", "defend"):
        used = sum(1 for o in mine if o["kind"] in ("spy", "defend"))
        if spies_at_espionage(w, seat) <= used:
            return "no spy left this turn"
    if kind == "part" and int(s["parts"]) >= readings(g).spaceship_parts:
        return "the spaceship is complete"
    if kind == "kgb" and "kgb" in w["wonders"] and not holds(w, seat, "kgb"):
        return "the KGB is another's or used"
    if kind == "wonder" and all(k in w["wonders"] for k in WONDER_BY_KEY):
        return "every wonder is built"
    if kind == "peace" and not any(at_war(w, seat, k) for k in alive(w) if k != seat):
        return "not at war"
    if kind == "trade":
        limit = min(int(s["tech"]), MAX_CARAVANS)
        if sum(int(o.get("count", 1)) for o in mine if o["kind"] == "trade") >= limit:
            return f"{limit} caravan{'s' if limit > 1 else ''} ordered, the most"
        others = [k for k in alive(w) if k != seat]
        if not holds(w, seat, "nascar") and all(no_target(g, seat, kind, k) is not None for k in others):
            return "nobody in trade range"
    return None


def no_target(g: "SocietyGame", seat: str, kind: str, other: str) -> str | None:
    """Why ``other`` can never be this order's target this turn (greyed out with the reason), or None."""
    w = world(g)
    name = sname(g, other)
    if other == seat:
        return None
    if kind == "trade" and not in_trade_range(w, seat, other, readings(g)):
        return f"{name} is out of trade range"
    if kind == "declare" and any(x["seat"] == seat and x["kind"] == "declare" and x["target"] == other
                                 for x in g.data["orders"]):
        return f"war on {name} already ordered"
    if kind == "peace" and not at_war(w, seat, other):
        return f"not at war with {name}"
    return None


def city_sites(g: "SocietyGame", seat: str) -> tuple[list[geo.Sq], geo.Sq | None]:
    """The squares a city may be ordered on: free now and next to the society's cities or the cities it has
    already ordered this turn (3c builds them in order); and the least-border pick."""
    w = world(g)
    pending = [sq(w, x["square"]) for x in g.data["orders"] if x["seat"] == seat and x["kind"] == "city"
               and x.get("square")]
    own = sqs(w, list(soc(g, seat)["cities"])) + pending
    block = blocked_at_start(w) | set(pending)
    anywhere = holds(w, seat, "railroad")
    return (geo.city_sites(own, block, int(w["w"]), int(w["h"]), anywhere),
            geo.best_city_site(own, block, int(w["w"]), int(w["h"]), anywhere))


def no_rank(g: "SocietyGame", seat: str, target: str, ranking: list[str]) -> str | None:
    """Why this theatre ranking can't be fought (a sneak attack takes only cities next to the attacker's territory;
    a declared war goes on from the cities above), or None. The territory counts the cities the society has ordered
    on squares this turn: 3c builds them before the war."""
    w = world(g)
    pending = [x["square"] for x in g.data["orders"] if x["seat"] == seat and x["kind"] == "city" and x.get("square")]
    return geo.check_theatre(sqs(w, ranking), sqs(w, list(soc(g, seat)["cities"]) + pending),
                             sqs(w, list(soc(g, target)["cities"])), int(w["w"]), int(w["h"]),
                             chain=at_war(w, seat, target), anywhere=holds(w, seat, "jihad"))


def avail(g: "SocietyGame", seat: str) -> int:
    """Gold left for production as the orders stand (context only: trade and spies may still change it)."""
    return spendable(world(g), g.data["orders"], seat, readings(g))


def level(key: str) -> int:
    return next(wd.level for wd in WONDERS if wd.key == key)


def arrival(g: "SocietyGame") -> dict[str, int]:
    return dict(g.data.get("arrival") or {})


def sort_orders(g: "SocietyGame") -> None:
    """Keep the turn's orders in processing order (arrival, seat, each society's own list): the list the GM sees is
    the one the turn runs, whatever order the orders were typed in."""
    orders = g.data["orders"]
    g.data["orders"] = [orders[i] for i in canonical(orders, arrival(g))]


def status(g: "SocietyGame", seat: str) -> tuple[bool, int]:
    """(the society's orders are in: it has some, or the GM said it sent none; how many)."""
    n = sum(1 for o in g.data["orders"] if o["seat"] == seat)
    return (n > 0 or seat in (g.data.get("sent") or [])), n
