"""How orders and counts read in lists and in the post: an order in a few words, and "1 army" / "2 armies"."""
from __future__ import annotations

from typing import Any

from companion.rules.society.data import WONDER_BY_KEY

Order = dict[str, Any]

_PLURALS = {"army": "armies", "spy": "spies", "city": "cities", "nuke": "nukes", "caravan": "caravans",
            "level": "levels", "wonder": "wonders", "order": "orders", "part": "parts", "SDI": "SDI",
            "tech level": "tech levels", "gold": "gold"}


def plural(n: int, one: str) -> str:
    """``n`` and the noun in the form it takes: "1 army", "2 armies", "0 spies"."""
    if n == 1:
        return f"{n} {one}"
    head, _sp, last = one.rpartition(" ")
    many = _PLURALS.get(last, last[:-1] + "ies" if last.endswith("y") and last[-2:-1] not in "aeiou" else last + "s")
    return f"{n} {head + ' ' if head else ''}{many}"


def describe(o: Order, w: dict[str, Any], full: bool = False) -> str:
    """An order in a few words (about 20 characters with 8-letter names), for lists on the device; ``full``: for the
    forum post, with whole names ("Spaced Cowboy", "Trojan Horse 20 gold")."""
    def nm(seat: str) -> str:
        return str(w["soc"][seat]["name"])[:None if full else 8] if seat in w["soc"] else str(seat)

    k = o["kind"]
    if k == "note":
        return f"note: {o.get('text', '')}"
    if k == "spy":
        return f"spy {nm(o['target'])} {o['phase']}"
    if k == "defend":
        return f"defend {o['phase']}"
    if k == "trade":
        return f"trade {nm(o['partner'])} x{o.get('count', 1)}"
    if k == "research":
        return f"research +{o['levels']}"
    if k in ("armies", "nukes", "sdi"):
        return plural(int(o["count"]), {"armies": "army", "nukes": "nuke", "sdi": "SDI"}[k])
    if k == "city":
        return f"city {o.get('square') or '/'.join(o.get('squares') or []) or '(auto)'}"
    if k == "wonder":
        wd = WONDER_BY_KEY[o["wonder"]]
        return f"{wd.name} {o['gold']} gold" if full else f"{wd.short} {o['gold']}g"
    if k == "part":
        return f"part {o['gold']}g"
    if k == "kgb":
        wd = WONDER_BY_KEY[o["wonder"]]
        return f"KGB: {wd.name if full else wd.short}"
    if k == "aid":
        gifts = " ".join(f"{o[x]}g" if x == "gold" else plural(int(o[x]), _ONE[x]) for x in
                         ("gold", "armies", "spies", "nukes", "sdi", "tech") if o.get(x))
        return f"aid {nm(o['to'])} {gifts}"
    if k == "declare":
        return f"war on {nm(o['target'])}"
    if k == "peace":
        return f"peace {nm(o['target'])}"
    if k == "attack" and full:
        sent = [plural(n, one) for n, one in ((int(o.get("armies", 0)), "army"), (int(o.get("nukes", 0)), "nuke")) if n]
        return (f"attack {nm(o['target'])} with {' and '.join(sent) or plural(0, 'army')}"
                + (f", nukes at {', '.join(o['nuke_targets'])}" if o.get("nuke_targets") else ""))
    if k == "attack":
        extra = f" {o['nukes']}n" if int(o.get("nukes", 0)) else ""
        if o.get("nuke_targets"):
            extra += " @" + ",".join(o["nuke_targets"])
        return f"attack {nm(o['target'])} {o.get('armies', 0)}a{extra}"
    if k == "revolution":
        return f"revolt: {o['gov']}"
    return str(k)


_ONE = {"armies": "army", "spies": "spy", "nukes": "nuke", "sdi": "SDI", "tech": "tech level"}
