"""Shared helpers of the Sovereign machine: player records, bonus bookkeeping, labels measured as drawn.

Every function takes the game (``g``) and works on ``g.data`` (plain JSON), so undo by snapshot stays exact.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.sovereign import bonuses as rb
from companion.rules.sovereign import techs as rt
from companion.rules.sovereign.scoring import CARD_KINDS, START_CITY

from fsm.screen_text import LINE_PX, clip, wrap_words

if TYPE_CHECKING:
    from companion.rules.sovereign.box import Holdings

    from fsm.sovereign.machine import SovereignGame

BACK = "back"


def new_player() -> dict[str, Any]:
    return {
        "cities": [{"name": "City 1", "tiles": START_CITY, "start": None}],
        "next_city": 2,
        "forts": [],
        "points": 0,
        "added": 0,
        "techs": {},
        "cards": {k: 0 for k in CARD_KINDS},
        "pending": {k: 0 for k in CARD_KINDS},
        "oneshot": {},  #: tech key -> uses left
        "mode": {},  #: tech key -> "expand" | "units" (Industrialisation, Mass production once chosen)
        "dry": False,  #: Banking was used: the cities produce nothing in the next turn
        "turns": 0,
        "units": 0,  #: units on the board as the companion counts them (built, less lost and settled)
        "settlers": 0,  #: Settlers built and not yet used to found a city (nor lost in a battle)
    }


def pl(g: "SovereignGame", seat: int) -> dict[str, Any]:
    return g.data["players"][str(seat)]  # type: ignore[no-any-return]


def me(g: "SovereignGame") -> dict[str, Any]:
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    return pl(g, seat)


def short(g: "SovereignGame", seat: int) -> str:
    """A player's name, whole: a line that holds it is measured as drawn (:mod:`fsm.screen_text`), never cut by
    letters."""
    return g.player_name(seat)


def tiles(p: dict[str, Any]) -> int:
    return sum(int(c["tiles"]) for c in p["cities"])


def city_count(p: dict[str, Any]) -> str:
    n = len(p["cities"])
    return f"{n} {'city' if n == 1 else 'cities'}, {tiles(p)} tiles"


def held(p: dict[str, Any]) -> set[str]:
    return set(p["techs"])


def has(p: dict[str, Any], key: str) -> bool:
    return key in p["techs"]


def bonus_ready(g: "SovereignGame", p: dict[str, Any], key: str) -> bool:
    """The player holds ``key``, its bonus may be used now, and (if one-shot) it is not used up."""
    if key not in p["techs"]:
        return False
    if rb.uses(key) and p["oneshot"].get(key, 0) <= 0:
        return False
    return rb.usable_now(key, int(p["techs"][key]), int(g.data["turn"]), bool(g.options["selected_bonus_same_turn"]))


def use_bonus(p: dict[str, Any], key: str, n: int = 1) -> None:
    left = p["oneshot"].get(key, 0) - n
    if left > 0:
        p["oneshot"][key] = left
    else:
        p["oneshot"].pop(key, None)


def gain_tech(g: "SovereignGame", seat: int, key: str, how: str) -> None:
    """Add a technology (researched, free, spied or taken): one-shot bonuses, a Technology card for a completed
    tier, the log. The caller checks for the tier-7 win."""
    p = pl(g, seat)
    completes = rt.completes_tier(held(p), key)
    p["techs"][key] = int(g.data["turn"])
    n = rb.uses(key)
    if n:
        p["oneshot"][key] = n
    t = rt.tech(key)
    g.note(f"{g.player_name(seat)} {how} {t.name} (tier {t.tier})")
    if completes:
        p["pending"]["technology"] += 1
        g.note(f"{g.player_name(seat)} completes tier {t.tier}: Technology card")


def wrap(words: list[str], first: str = "", px: int = LINE_PX) -> list[str]:
    """Words joined by spaces into lines of ``px`` pixels as drawn; ``first`` leads the first line."""
    return wrap_words(words, first, px)


def cards_line(p: dict[str, Any]) -> str:
    c = p["cards"]
    return f"Cards {c['military']} Mil {c['expansion']} Exp {c['technology']} Tech"


def pending_line(p: dict[str, Any]) -> str:
    c = p["pending"]
    parts = [f"+{c[k]} {CARD_SHORT[k]}" for k in CARD_KINDS if c[k]]
    return "This turn " + " ".join(parts) if parts else "No new cards"


CARD_SHORT = {"military": "Mil", "expansion": "Exp", "technology": "Tech"}


def unit_stats_known(g: "SovereignGame", name: str) -> list[int] | None:
    """[attack, defence, move, range] from the table or entered at the table earlier this game."""
    from companion.rules.sovereign.units import default_table, norm_name

    got = g.data["unit_stats"].get(name)
    if got is not None:
        return list(got)
    u = default_table().get(norm_name(name))
    if u is None or u.stats is None:
        return None
    return [u.stats.attack, u.stats.defence, u.stats.move, u.stats.range]


def unit_cost(g: "SovereignGame", name: str) -> int | None:
    from companion.rules.sovereign.units import default_table, norm_name

    got = g.data["unit_costs"].get(name)
    if got is not None:
        return int(got)
    u = default_table().get(norm_name(name))
    if u is None or u.stats is None:
        return None
    return u.stats.cost


def holdings(p: dict[str, Any]) -> "Holdings":
    from companion.rules.sovereign.box import holdings as make

    return make([c["tiles"] for c in p["cities"]], len(p["forts"]), int(p.get("units", 0)))


def warn_box(g: "SovereignGame", seat: int, before: "Holdings") -> None:
    """After a build: if it took the player past what the box holds, say so on a screen and in the log."""
    from companion.rules.sovereign.box import over_box

    over = over_box(before, holdings(pl(g, seat)))
    if over:
        g.data["notice"] = {"title": "Over the box", "player": seat,
                            "lines": [clip(x) for x in over][:3] + ["Use a marker."]}
        g.note(f"{g.player_name(seat)} is past the box: " + "; ".join(over))


SETTLER = "Settler"


def count_units(p: dict[str, Any], n: int, name: str | None = None) -> None:
    """``n`` units built (or lost, when negative); a Settler (``name``) is also counted apart: a founding uses one."""
    p["units"] = max(0, int(p.get("units", 0)) + n)
    if name == SETTLER:
        p["settlers"] = max(0, int(p.get("settlers", 0)) + n)
