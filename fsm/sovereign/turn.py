"""Setup (roll-off, first cities) and the fixed steps of a turn: Add, Move, Finish."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Sequence

from companion.rules.sovereign import scoring
from companion.rules.sovereign import techs as rt
from fsm.prompts import Choice, Dice, Info, Option, Prompt
from fsm.turns import next_seat, order_from, rolloff_lines, rolloff_next, rolloff_record, rolloff_start

from fsm.sovereign import story
from fsm.sovereign.common import bonus_ready, cards_line, city_count, has, me, pending_line, pl, tiles, wrap

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame


# ----------------------------------------------------------------------------------------------------- setup
def start(g: "SovereignGame") -> None:
    g.data["rolloff"] = rolloff_start(g.seats, "d12", "first player")


def _rolloff_lines(ro: dict[str, Any], names: Sequence[str]) -> tuple[str, ...]:
    """Every roll (fsm.turns.rolloff_lines), wrapped to the screen, the newest pass first: a dice screen shows
    only its first line."""
    out: list[str] = []
    for line in reversed(rolloff_lines(ro, names)):
        out.extend(wrap(re.findall(r"\S.*?\s\d+(?=\s|$)", line)))
    return tuple(out)


def rolloff_prompt(g: "SovereignGame") -> Prompt:
    ro = g.data["rolloff"]
    seat = rolloff_next(ro)
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    names = [p.name for p in g.players]
    lines = ("Highest d12 starts;", "ties roll again") if not ro["history"] else _rolloff_lines(ro, names)
    title = "Who starts?" if ro["pass"] == 1 else f"Tie: roll {ro['pass']}"
    return Dice(title=title, lines=lines, player=seat, die="d12", count=1,
                purpose="first player")


def rolloff_answer(g: "SovereignGame", value: Any) -> None:
    ro = g.data["rolloff"]
    seat = rolloff_next(ro)
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    was = ro["pass"]
    rolloff_record(ro, seat, int(value["values"][0]))
    g.note(f"roll-off {was}: {g.player_name(seat)} rolls {value['values'][0]}")
    if ro["winner"] is not None:
        g.data["order"] = order_from(ro["winner"], len(g.players))
        g.data["placing"] = 0
        g.note(f"{g.player_name(ro['winner'])} starts")
        g.fire("rolled_off")
    elif ro["pass"] != was:
        g.note("tie: " + ", ".join(g.player_name(s) for s in ro["contenders"]) + " roll again")


def place_prompt(g: "SovereignGame") -> Prompt:
    seat = g.data["order"][g.data["placing"]]
    return Info(title="First city",
                lines=("Place a 4-tile city,", "8+ empty hexes from", "every other city.", "OK when placed"), player=seat)


def place_answer(g: "SovereignGame", value: Any) -> None:
    seat = g.data["order"][g.data["placing"]]
    g.note(f"{g.player_name(seat)} places City 1 (4 tiles)")
    g.data["placing"] += 1
    if g.data["placing"] >= len(g.players):
        begin_turn(g, g.data["order"][0])
        g.fire("cities_placed")


# ----------------------------------------------------------------------------------------------------- turns
def begin_turn(g: "SovereignGame", seat: int) -> None:
    first = g.data["order"][0]
    if g.data["turn"] > 0 and seat == first:
        g.data["round"] += 1
    g.data["turn"] += 1
    g.data["active"] = seat
    g.data["sub"] = None
    g.data["spend"] = None
    p = pl(g, seat)
    p["turns"] += 1
    for c in p["cities"]:
        c["start"] = c["tiles"]
    g.note(f"-- turn {g.data['turn']}: {g.player_name(seat)} (round {g.data['round']})")


def end_turn(g: "SovereignGame") -> None:
    """Collect the cards, check for a win, drop bonuses that lapse, hand over."""
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    p = pl(g, seat)
    got = [f"{n} {k}" for k, n in p["pending"].items() if n]
    for k, n in p["pending"].items():
        p["cards"][k] += n
        p["pending"][k] = 0
    if got:
        g.note(f"{g.player_name(seat)} collects " + ", ".join(got) + " card(s)")
    story.turn_done(g, seat)
    for key in list(p["oneshot"]):
        if rt.tech(key).bonus is rt.Bonus.FREE_EXPANSIONS and p["techs"].get(key) == g.data["turn"]:
            del p["oneshot"][key]
    kind = scoring.winning_card(p["cards"], tiles(p), int(g.options["expansion_tiles"]))
    if kind is not None:
        g.declare_winner(seat, f"seven {kind.value} cards")
        return
    g.data["sub"] = None
    begin_turn(g, next_seat(seat, len(g.players)))
    g.fire("next_turn")


def _add(g: "SovereignGame", trade: bool, banking: bool) -> scoring.AddResult:
    p = me(g)
    return scoring.add_points([c["tiles"] for c in p["cities"]], trade=trade, banking=banking, dry=p["dry"],
                              globalization=has(p, "globalization") and bonus_ready(g, p, "globalization"))


def add_prompt(g: "SovereignGame") -> Prompt:
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    p = me(g)
    plain = _add(g, False, False)
    lines = [city_count(p)]
    if p["dry"]:
        lines.append("After Banking: cities 0")
    if plain.globalization:
        lines.append(f"Globalization +{plain.globalization}")
    lines.append(cards_line(p))
    trade = bonus_ready(g, p, "trade") and not p["dry"]
    bank = bonus_ready(g, p, "banking") and not p["dry"]
    opts = [Option("collect", f"Collect {plain.total} points")]
    if trade:
        opts.append(Option("trade", f"Trade: {_add(g, True, False).total} points"))
    if bank:
        opts.append(Option("banking", f"Banking: {_add(g, False, True).total} pts"))
    if trade and bank:
        opts.append(Option("both", f"Trade+Bank: {_add(g, True, True).total}"))
    opts += [Option("skip", "Skip Add (0 points)"), Option("cities", "Cities...")]
    return Choice(title=f"Add, round {g.data['round']}", lines=tuple(lines), player=seat,
                  options=tuple(opts), default="collect")


def add_answer(g: "SovereignGame", value: Any) -> None:
    if value == "cities":
        g.data["sub"] = {"kind": "cities", "step": "player"}
        return
    p = me(g)
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    if value == "skip":
        total = 0
        g.note(f"{g.player_name(seat)} skips Add")
    else:
        trade, bank = value in ("trade", "both"), value in ("banking", "both")
        res = _add(g, trade, bank)
        total = res.total
        if trade:
            p["oneshot"].pop("trade", None)
            g.note(f"{g.player_name(seat)} uses Trade: +{res.trade}")
        if bank:
            p["oneshot"].pop("banking", None)
            g.note(f"{g.player_name(seat)} uses Banking: +{res.banking}; nothing next turn")
        g.note(f"{g.player_name(seat)} adds {total} points")
    was_dry = p["dry"]
    p["dry"] = value in ("banking", "both")
    if was_dry:
        g.note(f"{g.player_name(seat)}'s cities rest after Banking")
    p["points"] = total
    p["added"] = total
    g.start_spend()
    g.fire("to_spend")


def move_prompt(g: "SovereignGame") -> Prompt:
    seat = g.active_seat()
    return Info(title="Move",
                lines=("Each unit moves up to its Move value (the M of A-D-M).",
                       "Next to an enemy? Move away before entering another such hex."),
                player=seat)


def move_answer(g: "SovereignGame", value: Any) -> None:
    g.fire("to_manoeuvre")


def enter_finish(g: "SovereignGame") -> None:
    """Moving to Finish: Expansion cards for cities grown from four to seven tiles this turn."""
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    p = me(g)
    for c in p["cities"]:
        if scoring.grew_four_to_seven(c.get("start"), c["tiles"]):
            p["pending"]["expansion"] += 1
            g.note(f"{g.player_name(seat)}'s {c['name']} grew 4 to 7: Expansion card")
    g.data["sub"] = None
    g.fire("to_finish")


def finish_prompt(g: "SovereignGame") -> Prompt:
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    p = me(g)
    lines = (cards_line(p), pending_line(p), city_count(p))
    opts = (Option("end", "Collect cards, end turn"),
            Option("mark", "Mark Expansion card", hint="a city grew 4 to 7 tiles"),
            Option("unmark", "Unmark Expansion card", enabled=p["pending"]["expansion"] > 0,
                   hint="no Expansion card this turn"),
            Option("cities", "Cities..."))
    return Choice(title="Finish", lines=lines, player=seat, options=opts,
                  default="end")


def finish_answer(g: "SovereignGame", value: Any) -> None:
    p = me(g)
    seat = g.active_seat()
    if seat is None:
        raise RuntimeError("invariant: seat is set here")
    if value == "end":
        end_turn(g)
    elif value == "mark":
        p["pending"]["expansion"] += 1
        g.note(f"{g.player_name(seat)} marks an Expansion card")
    elif value == "unmark":
        p["pending"]["expansion"] -= 1
        g.note(f"{g.player_name(seat)} unmarks an Expansion card")
    elif value == "cities":
        g.data["sub"] = {"kind": "cities", "step": "player"}
