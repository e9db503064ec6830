"""A battle in progress: the battle screen, the rolls (with bonus dice), losses, retreat, Medicine, rolling on."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.sovereign.battle import (Explode, Side, TieRule, army_limit, army_sum, defence_bonus,
                                              distinct_candidates, kept_die, pick_highest_total, removal_candidates,
                                              roll_total, roll_winner, wants_bonus)
from companion.rules.sovereign.odds import battle_odds
from companion.rules.sovereign.units import Fighter
from fsm.prompts import Choice, Dice, MultiSelect, Option, Prompt

from fsm.sovereign import battle_setup as bs
from fsm.sovereign import story
from fsm.screen_text import fits, squeeze, title_room
from fsm.sovereign.common import BACK, count_units, pl, short, use_bonus
from fsm.sovereign.battle_setup import bt, fighters, seat_of

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame

ROLL_STEPS = ("att_roll", "att_bonus", "def_roll", "def_bonus")
SIDE_KEY = {Side.ATTACK: "att", Side.DEFEND: "def"}


def is_setup(step: str) -> bool:
    return step not in ROLL_STEPS + ("menu", "choose_loss", "medicine", "add_res", "rollon")


def odds_now(g: "SovereignGame") -> float:
    """The attacker's exact chance to win the battle from here (as a float for the screen)."""
    b = bt(g)
    att, dfn = fighters(b, "att"), fighters(b, "def")
    return battle_odds(att, dfn, bs.field(g, b), bs.model(g, b), at_sea=b["where"] == "sea",
                       air_all=g.options["air_raid_loss"] == "all").attacker_float


def raw(dice: list[int]) -> str:
    """Both dice of a Space-flight roll, for the log."""
    return "" if len(dice) < 2 else "(" + ",".join(map(str, dice)) + ")"


def _die_text(dice: list[int], bonus: list[int]) -> str:
    return "+".join(str(v) for v in [kept_die(dice), *bonus])


def _with_army(dice: str, total: int) -> str:
    """"7+3" and a total of 12: "7+3+2=12" (the army's value shown, so the sum adds up)."""
    rest = total - sum(int(v) for v in dice.split("+") if v.isdigit())
    return f"{dice}+{rest}={total}" if rest else f"{dice}={total}"


def _last_line(last: dict[str, Any] | None, names: tuple[str, str] = ("the attacker", "the defender")) -> str:
    """The last roll, each side's dice and army adding up to its total (the higher total won; on a tie the line
    says who, ``names``: attacker, defender)."""
    if not last:
        return "No roll yet"
    tie = f": {names[0] if last['w'] == 'Att' else names[1]} won" if last["at"] == last["dt"] else ""
    return f"Last {_with_army(last['a'], last['at'])} v {_with_army(last['d'], last['dt'])}{tie}"


def screen_lines(g: "SovereignGame") -> tuple[str, ...]:
    """Both sums with the attacker's chance, the last roll, the units: the battle screen's context lines."""
    b = bt(g)
    att, dfn = fighters(b, "att"), fighters(b, "def")
    bonus = defence_bonus(bs.field(g, b), att)
    held = f" +{len(b['res'])} held" if b["res"] else ""
    a, d = short(g, seat_of(b, Side.ATTACK)), short(g, seat_of(b, Side.DEFEND))
    return (squeeze(f"Sums {army_sum(att, Side.ATTACK)} v {army_sum(dfn, Side.DEFEND)}+{bonus}: {{}} "
                    f"{odds_now(g) * 100:.0f}%", a),
            _last_line(b["last"], (a, d)),
            f"Units: {len(att)}{held} v {len(dfn)}")


def _title(g: "SovereignGame") -> str:
    """Who fights whom, attacker first, and the roll to come, measured beside the attacker's name tag; once one army
    is gone, who won. When the names do not fit there the title gets shorter ("Battle 1: roll 2", "Roll 2";
    "Bob won", "Battle 1 over") and never cut: :func:`_fighters_line` then names them in full."""
    b = bt(g)
    room = title_room(g.player_name(b["attacker"]))
    no, roll = b["no"], b["rolls"] + 1
    won = _over(b)
    if won is not None:
        name = g.player_name(seat_of(b, won))
        tries = [f"{name} won battle {no}", f"{name} won", f"Battle {no} over", "Battle over", "Over"]
    else:
        tries = [_names_title(g, b), f"Battle {no}: roll {roll}", f"Roll {roll}"]
    return next((t for t in tries if fits(t, room)), tries[-1])


def _names_title(g: "SovereignGame", b: dict[str, Any]) -> str:
    return f"{g.player_name(b['attacker'])} v {g.player_name(b['defender'])}: roll {b['rolls'] + 1}"


def _fighters_line(g: "SovereignGame") -> tuple[str, ...]:
    """The fighters' names (or the winner's) in full as context lines, when the title has no room for them."""
    b = bt(g)
    won = _over(b)
    title = _title(g)
    if won is not None:
        name = g.player_name(seat_of(b, won))
        return () if title.startswith(f"{name} won") else (f"{name} won",)
    if title == _names_title(g, b):
        return ()
    att, dfn = g.player_name(b["attacker"]), g.player_name(b["defender"])
    # two lines only for the longest names; the second then reads on under the attacker's name tag
    return (f"{att} v {dfn}",) if fits(f"{att} v {dfn}") else (att, f"v {dfn}")


def _over(b: dict[str, Any]) -> Side | None:
    """The winner when one side has no units left."""
    if not b["def"]:
        return Side.ATTACK
    if not b["att"]:
        return Side.DEFEND
    return None


def _medicine_ok(g: "SovereignGame", b: dict[str, Any], side: Side) -> bool:
    return bool(b[f"{SIDE_KEY[side]}_lost"]) and bs.ready(g, seat_of(b, side), "medicine")


# --------------------------------------------------------------------------------------------------- prompts
def prompt(g: "SovereignGame") -> Prompt:
    b = bt(g)
    step = b["step"]
    a_seat, d_seat = seat_of(b, Side.ATTACK), seat_of(b, Side.DEFEND)
    if step == "menu":
        return _menu_prompt(g, b)
    if step in ROLL_STEPS:
        side = Side.ATTACK if step.startswith("att") else Side.DEFEND
        seat = a_seat if side is Side.ATTACK else d_seat
        bonus = step.endswith("bonus")
        n = bs.bonus_dice_for(g, seat) if bonus else bs.dice_for(g, seat)
        what = ("bonus d12" if bonus else ("attack" if side is Side.ATTACK else "defence"))
        return Dice(title=what.capitalize() if bonus else f"{what.capitalize()} roll", lines=screen_lines(g),
                    player=seat, die="d12",
                    count=n, purpose="bonus roll (12)" if bonus else f"battle {what}")
    if step == "choose_loss":
        loss = b["loss"]
        side = Side(loss["side"])
        army = fighters(b, SIDE_KEY[side])
        opts = tuple(Option(str(i), army[i].label()) for i in loss["cands"])
        return Choice(title="Lose which?",
                      lines=("Equal strength:", "the loser chooses"), player=seat_of(b, side), options=opts,
                      default=opts[0].key)
    if step == "medicine":
        side = Side(b["med"])
        lost = fighters(b, f"{SIDE_KEY[side]}_lost")
        opts = tuple(Option(str(i), u.label()) for i, u in enumerate(lost))
        return Choice(title="Medicine", lines=("Once per game",), player=seat_of(b, side), options=opts,
                      back=BACK, default=opts[-1].key)
    if step == "add_res":
        opts = tuple(Option(str(i), u.label()) for i, u in enumerate(fighters(b, "res")))
        return MultiSelect(title="Join attack", lines=("Joining units cannot roll on afterwards.",), player=a_seat,
                           options=opts, min_count=0)
    if step == "rollon":
        n = len(b["res"])
        opts = (Option("end", "End the battle"), Option("rollon", f"Roll on with {n} unit{'s' if n > 1 else ''}"))
        return Choice(title="Won! Roll on?",
                      lines=("Held-back units may move on and attack.",), player=a_seat, options=opts,
                      default="end")
    raise AssertionError(f"no battle step {step!r}")


def _menu_prompt(g: "SovereignGame", b: dict[str, Any]) -> Prompt:
    a_seat, d_seat = seat_of(b, Side.ATTACK), seat_of(b, Side.DEFEND)
    won = _over(b)
    opts: list[Option] = []
    if won is not None:
        opts.append(Option("end", squeeze("{} wins: end", short(g, seat_of(b, won)))))
    else:
        opts.append(Option("roll", "Roll"))
        if b["res"]:
            opts.append(Option("add", f"Add held-back ({len(b['res'])})"))
        opts.append(Option("ret_att", squeeze("{} retreats", short(g, a_seat))))
        opts.append(Option("ret_def", squeeze("{} retreats", short(g, d_seat))))
    for side in (Side.ATTACK, Side.DEFEND):
        seat = seat_of(b, side)
        limit = army_limit(bs.ready(g, seat, "atomic_energy"))
        if _medicine_ok(g, b, side) and len(b[SIDE_KEY[side]]) < limit:
            opts.append(Option(f"med_{SIDE_KEY[side]}", squeeze("{}: Medicine", short(g, seat))))
    back = BACK if b["rolls"] == 0 else None
    return Choice(title=_title(g), lines=_fighters_line(g) + screen_lines(g), player=a_seat, options=tuple(opts), back=back,
                  default=opts[0].key)


# --------------------------------------------------------------------------------------------------- answers
def answer(g: "SovereignGame", value: Any) -> None:
    b = bt(g)
    step = b["step"]
    if step == "menu":
        _menu_answer(g, b, value)
    elif step in ROLL_STEPS:
        _roll_answer(g, b, step, [int(v) for v in value["values"]])
    elif step == "choose_loss":
        _remove(g, Side(b["loss"]["side"]), int(value), b["loss"]["then"])
    elif step == "medicine":
        if value == BACK:
            b["step"] = "menu"
            return
        side = Side(b["med"])
        k = SIDE_KEY[side]
        unit = b[f"{k}_lost"].pop(int(value))
        b[k].append(unit)
        seat = seat_of(b, side)
        count_units(pl(g, seat), 1, unit["name"])
        use_bonus(pl(g, seat), "medicine")
        _log(g, f"{g.player_name(seat)} uses Medicine: {unit['name']} returns")
        b["step"] = "menu"
    elif step == "add_res":
        picked = sorted((int(v) for v in value), reverse=True)
        moved = [b["res"].pop(i) for i in picked]
        b["att"].extend(reversed(moved))
        if moved:
            _log(g, f"{g.player_name(b['attacker'])} adds " + ", ".join(u["name"] for u in reversed(moved)))
        b["step"] = "menu"
    elif step == "rollon":
        if value == "end":
            g.leave_battle()
        else:
            _log(g, f"{g.player_name(b['attacker'])} rolls on with {len(b['res'])} units")
            g.data["battles"] = b["no"]
            g.data["battle"] = bs.new_battle(g, int(b["attacker"]), card_done=bool(b["card_done"]), army=b["res"],
                                             step="defender")


def _menu_answer(g: "SovereignGame", b: dict[str, Any], value: Any) -> None:
    if value == BACK:
        b["step"] = "where"
    elif value == "roll":
        story.battle_rolls(g, b)
        _mark_raid(g, b)
        b["roll"] = {"att": [], "att_bonus": [], "def": [], "def_bonus": []}
        b["step"] = "att_roll"
    elif value == "add":
        b["step"] = "add_res"
    elif value in ("ret_att", "ret_def"):
        side = Side.ATTACK if value == "ret_att" else Side.DEFEND
        _mark_raid(g, b)
        _log(g, f"{g.player_name(seat_of(b, side))} retreats and loses one more unit")
        _lose(g, side, then="retreat")
    elif value in ("med_att", "med_def"):
        b["med"], b["step"] = value[4:], "medicine"
    elif value == "end":
        won = _over(b)
        if won is None:
            raise RuntimeError("invariant: won is set here")
        _end(g, won, "destroyed")


def _mark_raid(g: "SovereignGame", b: dict[str, Any]) -> None:
    """Air raids in the attack have flown: the attacker's air raids are used for this turn."""
    if any(u.get("air") for u in b["att"] + b["res"]):
        pl(g, seat_of(b, Side.ATTACK))["raid_turn"] = int(g.data["turn"])


def _roll_answer(g: "SovereignGame", b: dict[str, Any], step: str, vals: list[int]) -> None:
    r = b["roll"]
    explode = Explode(g.options["explode"])
    k = "att" if step.startswith("att") else "def"
    if step.endswith("bonus"):
        r[f"{k}_bonus"].append(max(vals))
    else:
        r[k] = vals
    if wants_bonus(r[k], r[f"{k}_bonus"], explode):
        b["step"] = f"{k}_bonus"
    elif k == "att":
        b["step"] = "def_roll"
    else:
        _resolve(g, b)


def _resolve(g: "SovereignGame", b: dict[str, Any]) -> None:
    r = b["roll"]
    att, dfn = fighters(b, "att"), fighters(b, "def")
    fld = bs.field(g, b)
    bonus = defence_bonus(fld, att)
    a_sum, d_sum = army_sum(att, Side.ATTACK), army_sum(dfn, Side.DEFEND)
    at = roll_total(r["att"], r["att_bonus"], a_sum)
    dt = roll_total(r["def"], r["def_bonus"], d_sum, bonus)
    won = roll_winner(at, dt)
    b["rolls"] += 1
    g.data["battles"] = b["no"]
    a_txt, d_txt = _die_text(r["att"], r["att_bonus"]), _die_text(r["def"], r["def_bonus"])
    b["last"] = {"a": a_txt, "at": at, "d": d_txt, "dt": dt, "w": "Att" if won is Side.ATTACK else "Def"}
    b["roll"] = None
    _log(g, f"Battle {b['no']}, roll {b['rolls']}: {g.player_name(b['attacker'])} {a_txt}{raw(r['att'])}+{a_sum}={at}"
            f" v {g.player_name(b['defender'])} {d_txt}{raw(r['def'])}+{d_sum}+{bonus}={dt}: "
            f"{g.player_name(seat_of(b, won))} wins the roll")
    _lose(g, won.other, then="menu")


def _lose(g: "SovereignGame", side: Side, then: str) -> None:
    """``side`` loses one unit: the removal order, and the loser's choice among equals if that option is on."""
    b = bt(g)
    k = SIDE_KEY[side]
    army = fighters(b, k)
    at_sea = b["where"] == "sea"
    if not army:
        _after_loss(g, side, then)
        return
    cands = removal_candidates(army, side, at_sea)
    distinct = distinct_candidates(army, cands)
    if TieRule(g.options["removal_ties"]) is TieRule.LOSER_CHOOSES and len(distinct) > 1:
        b["loss"] = {"side": side.value, "cands": distinct, "then": then}
        b["step"] = "choose_loss"
        return
    _remove(g, side, pick_highest_total(army, cands), then)


def _remove(g: "SovereignGame", side: Side, i: int, then: str) -> None:
    b = bt(g)
    k = SIDE_KEY[side]
    unit = b[k].pop(i)
    b[f"{k}_lost"].append(unit)
    b["loss"] = None
    seat = seat_of(b, side)
    count_units(pl(g, seat), -1, unit["name"])
    raid = bool(unit.get("air")) and side is Side.ATTACK
    gone = "is destroyed (air raid)" if raid else "is lost"
    _log(g, f"Battle {b['no']}: {g.player_name(seat)}'s {Fighter.from_json(unit).label()} {gone}")
    if raid and g.options["air_raid_loss"] == "all":
        rest = [u for u in b[k] if u.get("air")]
        if rest:
            b[k] = [u for u in b[k] if not u.get("air")]
            b[f"{k}_lost"].extend(rest)
            count_units(pl(g, seat), -len(rest))
            _log(g, f"Battle {b['no']}: {g.player_name(seat)}'s other {len(rest)} air raid(s) go too (lost roll)")
    _after_loss(g, side, then)


def _after_loss(g: "SovereignGame", side: Side, then: str) -> None:
    if then == "retreat":
        _end(g, side.other, "retreat")
    else:
        bt(g)["step"] = "menu"


def _end(g: "SovereignGame", won: Side, how: str) -> None:
    b = bt(g)
    b["result"] = won.value
    g.data["battles"] = b["no"]  # counted even when a retreat ends it before any roll
    story.battle_ended(g, b, won, how)
    a_seat = seat_of(b, Side.ATTACK)
    name = g.player_name(seat_of(b, won))
    _log(g, f"Battle {b['no']}: {name} wins the battle ({'the other side retreats' if how == 'retreat' else how})")
    if won is Side.ATTACK and not b["card_done"]:
        b["card_done"] = True
        pl(g, a_seat)["pending"]["military"] += 1
        _log(g, f"{g.player_name(a_seat)} earns a Military card")
    raids = [u for u in b["att"] if u.get("air")]
    if raids:
        b["att"] = [u for u in b["att"] if not u.get("air")]
        count_units(pl(g, a_seat), -len(raids))
        _log(g, f"{len(raids)} air raid(s) of {g.player_name(a_seat)} end their mission (removed)")
    if won is Side.ATTACK and b["res"]:
        b["step"] = "rollon"
    else:
        g.leave_battle()


def _log(g: "SovereignGame", text: str) -> None:
    g.data["battle_log"].append(text)
    g.note(text)
