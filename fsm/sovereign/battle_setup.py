"""Setting up a battle: attacker and defender, both armies (from the unit table or entered at the table), where.

``data["battle"]`` holds one battle; its ``step`` says which prompt is up. Armies are lists of unit JSON
(:meth:`Fighter.to_json`).
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from companion.rules.sovereign import techs as rt
from companion.rules.sovereign.battle import Explode, Field, Side, Where, army_limit, army_sum
from companion.rules.sovereign.odds import RollModel
from companion.rules.sovereign.terrain import BUILDABLE, BY_KEY as TERRAIN
from companion.rules.sovereign.units import Fighter, default_table, norm_name
from fsm.prompts import Choice, Number, Option, Prompt

from fsm.sovereign.common import BACK, bonus_ready, held, pl, short, unit_stats_known, wrap

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame

STAT_FIELDS = (("Attack", 30), ("Defence", 30), ("Move", 30), ("Range", 9))
WHERE_LABEL = {"field": "Open field", "city": "City", "fort": "Manned fort", "sea": "At sea"}


def new_battle(g: "SovereignGame", attacker: int, card_done: bool = False, army: list[Any] | None = None,
               step: str = "attacker") -> dict[str, Any]:
    return {"no": int(g.data["battles"]) + 1, "step": step, "attacker": attacker, "defender": None,
            "att": list(army or []), "res": [], "def": [], "att_lost": [], "def_lost": [],
            "where": "field", "adjacent": 0, "fort": 0, "roll": None, "last": None, "rolls": 0,
            "card_done": card_done, "entry": None, "cursor": None, "loss": None, "med": None, "result": None,
            "central": True}


def bt(g: "SovereignGame") -> dict[str, Any]:
    return g.data["battle"]  # type: ignore[no-any-return]


def fighters(b: dict[str, Any], key: str) -> list[Fighter]:
    return [Fighter.from_json(u) for u in b[key]]


def seat_of(b: dict[str, Any], side: Side) -> int:
    return int(b["attacker"] if side is Side.ATTACK else b["defender"])


def ready(g: "SovereignGame", seat: int, key: str) -> bool:
    return bonus_ready(g, pl(g, seat), key)


def construction_applies(g: "SovereignGame", b: dict[str, Any]) -> bool:
    """Construction's +1: the defender holds it, and (by default) holds the city's central tile."""
    central = bool(b.get("central", True)) or g.options["construction_bonus"] == "every_city"
    return central and ready(g, seat_of(b, Side.DEFEND), "construction")


def field(g: "SovereignGame", b: dict[str, Any]) -> Field:
    return Field(Where(b["where"]), adjacent=int(b["adjacent"]), fort=int(b["fort"]),
                 construction=construction_applies(g, b))


LAUNCH_TILES = 6  #: an air raid launches from a city of this many tiles or more


def raid_refusal(g: "SovereignGame", b: dict[str, Any]) -> str | None:
    """Why the attacker cannot add an air raid to this battle, or None."""
    seat = seat_of(b, Side.ATTACK)
    p = pl(g, seat)
    biggest = max((int(c["tiles"]) for c in p["cities"]), default=0)
    if biggest < LAUNCH_TILES:
        return f"air raids need a {LAUNCH_TILES}-tile city; {short(g, seat)} has {biggest}"
    in_this = any(u.get("air") for u in b["att"] + b["res"])
    if p.get("raid_turn") == g.data["turn"] and not in_this:
        return f"{short(g, seat)}'s air raids have flown this turn"
    return None


def dice_for(g: "SovereignGame", seat: int) -> int:
    return 2 if ready(g, seat, "space_flight") else 1


def bonus_dice_for(g: "SovereignGame", seat: int) -> int:
    return dice_for(g, seat) if g.options["space_flight_bonus"] == "extra" else 1


def model(g: "SovereignGame", b: dict[str, Any]) -> RollModel:
    a, d = seat_of(b, Side.ATTACK), seat_of(b, Side.DEFEND)
    return RollModel(Explode(g.options["explode"]), dice_for(g, a), dice_for(g, d), bonus_dice_for(g, a),
                     bonus_dice_for(g, d))


def army_line(units: list[Fighter]) -> list[str]:
    if not units:
        return ["(no units yet)"]
    counts = Counter(u.name for u in units)
    return wrap([f"{n} × {name}" if n > 1 else name for name, n in counts.items()])


# --------------------------------------------------------------------------------------------------- prompts
def prompt(g: "SovereignGame") -> Prompt:
    b = bt(g)
    step = b["step"]
    att = int(b["attacker"])
    if step == "attacker":
        # the rules: the player whose turn it is starts a battle (and only an attacker earns a Military card)
        turn = g.active_seat()
        whose = short(g, turn or att)
        opts = tuple(Option(str(s), short(g, s), enabled=s == turn,
                            hint=f"only {whose} attacks: it is {whose}'s turn") for s in g.seats)
        return Choice(title="Attacker?", lines=("Who attacks?",), player=turn, options=opts,
                      back=BACK, default=str(att))
    if step == "defender":
        opts = tuple(Option(str(s), short(g, s)) for s in g.seats if s != att)
        return Choice(title="Defender?", lines=(f"{short(g, att)} attacks",), player=att, options=opts,
                      back=BACK, default=opts[0].key)
    if step in ("army_att", "army_res", "army_def"):
        return _builder_prompt(g, b, step[5:])
    if step == "stats":
        e = b["entry"]
        n = len(e["vals"])
        label, hi = STAT_FIELDS[n]
        seat = seat_of(b, Side.DEFEND if e["for"] == "def" else Side.ATTACK)
        typed = e.get("typed", [])  # what was typed here before a BACK: shown again, not 0
        # whose unit and which value, and the card's values so far: "A-D-M 5-?-?"
        shown = [str(v) for v in e["vals"]] + ["?"] * (len(STAT_FIELDS) - n)
        card = "-".join(shown[:3]) + ("{" + shown[3] + "}" if n == 3 else "")
        side = {"att": "attacking", "res": "held back", "def": "defending"}[e["for"]]
        return Number(title=f"Unit's {label.lower()}",
                      lines=(f"{short(g, seat)}'s {e['name'] or 'unit'}, {side}", f"A-D-M{'{R}' if n == 3 else ''} "
                                                                                  f"{card}"),
                      player=seat, lo=0, hi=hi, default=int(typed[n]) if n < len(typed) else 0, back=BACK)
    if step == "where":
        dfn = seat_of(b, Side.DEFEND)
        cons = "Construction: +1 in a city" if ready(g, dfn, "construction") else "No Construction bonus"
        opts = tuple(Option(k, v) for k, v in WHERE_LABEL.items())
        return Choice(title="Where?", lines=(f"{short(g, dfn)} defends", cons),
                      player=dfn, options=opts, back=BACK, default=b["where"])
    if step == "central":
        dfn = seat_of(b, Side.DEFEND)
        opts = (Option("yes", "Holds the central tile"), Option("no", "Not the central tile"))
        return Choice(title="Central tile?", lines=(f"Does {short(g, dfn)} hold this city's central tile?",),
                      player=dfn, options=opts, back=BACK, default="yes" if b.get("central", True) else "no")
    if step == "adjacent":
        return Number(title="Adjacent tiles", lines=("City tiles next to the", "defended tile (0-6)"),
                      player=seat_of(b, Side.DEFEND), lo=0, hi=6, default=int(b["adjacent"]))
    if step == "fort":
        forts = pl(g, seat_of(b, Side.DEFEND))["forts"]
        opts = tuple(Option(t.key, f"{t.name} {t.value}") for t in BUILDABLE)
        default = next((t.key for t in BUILDABLE if forts and t.value == forts[0]), "grassland")
        return Choice(title="Fort hex", lines=("Bonus = hex value",), player=seat_of(b, Side.DEFEND),
                      options=opts, back=BACK, default=default)
    raise AssertionError(f"no battle setup step {step!r}")


def _builder_prompt(g: "SovereignGame", b: dict[str, Any], which: str) -> Prompt:
    side = Side.DEFEND if which == "def" else Side.ATTACK
    seat = seat_of(b, side)
    units = fighters(b, which)
    limit = army_limit(ready(g, seat, "atomic_energy"))
    size = len(b["def"]) if which == "def" else len(b["att"]) + len(b["res"])
    room = (size < limit, f"an army has at most {limit} units")
    nxt = {"att": "defender", "res": "defender", "def": "battle"}[which]
    opts = [Option("done", f"Done: {nxt}", enabled=bool(units) or which == "res", hint="add at least one unit")]
    if which == "att":
        opts.append(Option("hold", "Hold back (rolling)", enabled=bool(units) and room[0],
                           hint="add an attacking unit first" if room[0] else room[1]))
    for name in rt.units_of(held(pl(g, seat))):
        st = unit_stats_known(g, name)
        label = f"{name} ?" if st is None else f"{name} {st[0]}-{st[1]}-{st[2]}" + (f"{{{st[3]}}}" if st[3] else "")
        opts.append(Option(f"u:{name}", label, enabled=room[0], hint=room[1]))
    opts.append(Option("other", "Other: enter stats", enabled=room[0], hint=room[1]))
    keys = {o.key for o in opts if o.enabled}
    default = b["cursor"] if b["cursor"] in keys else ("done" if units else next(iter(
        [o.key for o in opts if o.enabled and o.key != "done"]), "done"))
    head = {"att": "Attackers", "res": "Held back", "def": "Defenders"}[which]
    total = army_sum(units, side)
    lines = (f"{len(units)} unit{'' if len(units) == 1 else 's'}, sum {total}",) + over_line(g, seat, size) \
        + tuple(army_line(units))
    return Choice(title=f"{head} {size} of {limit}", lines=lines, player=seat, options=tuple(opts),
                  back=BACK, default=default)


def over_line(g: "SovereignGame", seat: int, size: int) -> tuple[str, ...]:
    """A line when an army is bigger than the units the companion counts for its player (built in Spend, free or
    by Nationalism, less those lost and the Settlers used): armies are typed at the table, not drawn from them."""
    have = int(pl(g, seat).get("units", 0))
    if size <= have:
        return ()
    return (f"{short(g, seat)} built only {have}",)


# --------------------------------------------------------------------------------------------------- answers
def answer(g: "SovereignGame", value: Any) -> None:
    b = bt(g)
    step = b["step"]
    if step == "attacker":
        if value == BACK:
            g.leave_battle()
            return
        b["attacker"], b["step"] = int(value), "defender"
    elif step == "defender":
        if value == BACK:
            b["step"] = "attacker"
            return
        b["defender"], b["step"] = int(value), ("army_att" if not b["att"] else "army_def")
    elif step in ("army_att", "army_res", "army_def"):
        _builder_answer(g, b, step[5:], value)
    elif step == "stats":
        _stats_answer(g, b, value)
    elif step == "where":
        if value == BACK:
            b["step"] = "army_def"
            return
        b["where"] = value
        ask_central = g.options["construction_bonus"] == "central"
        b["step"] = {"city": "central" if ask_central else "adjacent", "fort": "fort"}.get(value, "menu")
    elif step == "central":
        if value == BACK:
            b["step"] = "where"
            return
        b["central"] = value == "yes"
        if b["central"]:
            b["step"] = "adjacent"
        else:  # no adjacency bonus either: both are for the player holding the central tile
            b["adjacent"], b["step"] = 0, "menu"
    elif step == "adjacent":
        b["adjacent"], b["step"] = int(value), "menu"
    elif step == "fort":
        if value == BACK:
            b["step"] = "where"
            return
        b["fort"], b["step"] = int(TERRAIN[value].value or 0), "menu"
    if b.get("step") == "menu" and step in ("where", "central", "adjacent", "fort"):
        g.note(f"Battle {b['no']}: {g.player_name(b['attacker'])} attacks {g.player_name(b['defender'])} "
               f"({WHERE_LABEL[b['where']].lower()})")


def _builder_answer(g: "SovereignGame", b: dict[str, Any], which: str, value: Any) -> None:
    if value == BACK:
        if b[which]:
            b[which].pop()
        else:
            b["step"] = {"att": "defender", "res": "army_att", "def": "army_res" if b["res"] else "army_att"}[which]
        return
    if value == "done":
        b["cursor"] = None
        b["step"] = "army_def" if which in ("att", "res") else "where"
        return
    if value == "hold":
        b["cursor"], b["step"] = None, "army_res"
        return
    name = value[2:] if value.startswith("u:") else None
    if name is not None and which in ("att", "res") and _is_air(name):
        why = raid_refusal(g, b)
        if why is not None:
            raise g.refuse(why)
    b["cursor"] = value
    st = unit_stats_known(g, name) if name else None
    if name is not None and st is not None:
        b[which].append(_fighter(name, st).to_json())
        return
    b["entry"] = {"name": name, "for": which, "vals": []}
    b["step"] = "stats"


def _is_air(name: str) -> bool:
    u = default_table().get(norm_name(name))
    return bool(u and u.air)


def _fighter(name: str, st: list[int]) -> Fighter:
    u = default_table().get(norm_name(name))
    return Fighter(name, st[0], st[1], st[2], st[3], air=bool(u and u.air), ship=bool(u and u.ship))


def _stats_answer(g: "SovereignGame", b: dict[str, Any], value: Any) -> None:
    e = b["entry"]
    typed = e.setdefault("typed", [])
    if value == BACK:  # to the previous value (kept on its spinner), or out of the entry to the army
        if e["vals"]:
            e["vals"].pop()
        else:
            b["entry"], b["step"] = None, f"army_{e['for']}"
        return
    n = len(e["vals"])
    if n == 2 and e["vals"][0] == e["vals"][1] == 0 and int(value) == 0:  # refused before anything changes
        raise g.refuse("attack, defence and move all 0: check the unit card")
    typed[n:n + 1] = [int(value)]
    e["vals"].append(int(value))
    if len(e["vals"]) < len(STAT_FIELDS):
        return
    a, d, m, r = e["vals"]
    name = e["name"] or f"Unit {a}-{d}-{m}" + (f"{{{r}}}" if r else "")
    if e["name"]:
        g.data["unit_stats"][name] = [a, d, m, r]
        g.note(f"{name} is {a}-{d}-{m}" + (f"{{{r}}}" if r else "") + " this game")
    b[e["for"]].append(_fighter(name, [a, d, m, r]).to_json())
    if not e["name"]:
        b["cursor"] = "done"  # typing stats again is slow: an ad-hoc unit leaves the cursor on Done
    b["entry"] = None
    b["step"] = f"army_{e['for']}"
