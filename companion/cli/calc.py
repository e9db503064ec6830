"""`companion calc society FORMULA --json ...` — one Society formula, from the same rules code the game uses, with
the readings set in ``[games.society]``."""
from __future__ import annotations

import argparse
import json
from typing import Any, Callable

from companion.errors import CompanionError

GAMES = ("society",)


class CalcError(CompanionError, ValueError):
    """Bad input to `companion calc`."""


#: formula -> {flag: (lowest allowed, required)}; optional flags have a default
FLAGS: dict[str, dict[str, tuple[int, bool]]] = {
    "capture": {"--attackers": (0, True), "--defenders": (0, True), "--attacker-tech": (1, True),
                "--defender-tech": (1, True), "--defender-cities": (1, True)},
    "tax": {"--cities": (0, True), "--tech": (1, True), "--armies": (0, False)},
    "trade": {"--tech": (1, True), "--partner-tech": (1, True)},
    "tech-cost": {"--level": (1, True), "--players": (1, True), "--have": (0, True)},
    "city-cost": {"--number": (1, True)},
    "two-way": {"--a1": (0, True), "--a1-tech": (1, True), "--a2": (0, True), "--a2-tech": (1, True)},
}
WORD_FLAGS: dict[str, dict[str, tuple[tuple[str, ...], bool]]] = {
    "tax": {"--government": (("despotism", "monarchy", "republic"), True)},
    "trade": {"--government": (("despotism", "monarchy", "republic"), False)},
}
HI = 10**9


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("calc", help="compute one Society formula (capture, tax, trade, tech-cost, city-cost, two-way)",
                       description="FORMULA is capture, tax, trade, tech-cost, city-cost or two-way; its flags "
                                   "follow it (see the Society manual, companion/manuals/society.md). Prints one JSON object with "
                                   "--json. The readings come from [games.society] in the config.")
    p.add_argument("game", help="the game (society)")
    p.add_argument("formula", nargs="?", help=", ".join(FLAGS))
    p.add_argument("rest", nargs=argparse.REMAINDER, help="the formula's flags, e.g. --cities 3 --tech 2")
    p.set_defaults(func=cmd_calc)


def parse_flags(formula: str, words: list[str]) -> tuple[dict[str, Any], bool]:
    """The formula's values by flag name (without dashes, '_' for '-'), and whether --json was given."""
    if formula not in FLAGS:
        raise CalcError(f"no formula {formula!r}; use one of {', '.join(FLAGS)}")
    nums, names = FLAGS[formula], WORD_FLAGS.get(formula, {})
    out: dict[str, Any] = {}
    as_json = False
    i = 0
    while i < len(words):
        flag = words[i]
        if flag == "--json":
            as_json = True
            i += 1
            continue
        key, eq, inline = flag.partition("=")
        if key not in nums and key not in names:
            allowed = ", ".join([*nums, *names, "--json"])
            raise CalcError(f"{formula}: unknown flag {flag!r}; its flags are {allowed}")
        if key in out:
            raise CalcError(f"{key} is given twice")
        if eq:
            value = inline
            i += 1
        else:
            if i + 1 >= len(words) or (words[i + 1].startswith("--") and not words[i + 1][2:].isdigit()):
                raise CalcError(f"{key} needs a value")
            value = words[i + 1]
            i += 2
        if key in names:
            allowed_words = names[key][0]
            if value.lower() not in allowed_words:
                raise CalcError(f"{key} {value!r}: use one of {', '.join(allowed_words)}")
            out[key] = value.lower()
            continue
        lo = nums[key][0]
        if not (value.isascii() and value.isdigit()) or not lo <= int(value) <= HI:
            raise CalcError(f"{key} {value!r}: a whole number from {lo}")
        out[key] = int(value)
    for key, (_lo, required) in nums.items():
        if required and key not in out:
            raise CalcError(f"{key} is missing")
    for key, (_w, required) in names.items():
        if required and key not in out:
            raise CalcError(f"{key} is missing")
    return {k[2:].replace("-", "_"): v for k, v in out.items()}, as_json


def compute(formula: str, v: dict[str, Any], options: dict[str, Any] | None = None) -> dict[str, Any]:
    from companion.rules.society import formulas as f

    r = f.Readings.from_options(options or {})
    if formula == "capture":
        c = f.capture(v["attackers"], v["defenders"], v["attacker_tech"], v["defender_tech"], v["defender_cities"])
        att, dfn = f.casualties(v["defenders"], v["attacker_tech"], v["defender_cities"], c, v["attackers"], r)
        return {"cities_captured": c, "attacker_casualties": att, "defender_casualties": dfn}
    if formula == "tax":
        income = f.tax(v["cities"], v["tech"], v["government"])
        _kept, support = f.settle_support(income, v.get("armies", 0), v["cities"], v["government"], False, r)
        return {"income": income, "army_support": support, "net": income - support}
    if formula == "trade":
        return {"cost": f.trade_cost(v["tech"], v["partner_tech"]),
                "payout": f.trade_payout(v["tech"], v["partner_tech"], v.get("government", "despotism"))}
    if formula == "tech-cost":
        if v["have"] >= v["players"]:
            raise CalcError(f"--have {v['have']}: must be fewer than --players {v['players']} (R counts the others "
                            f"who have the level; the researcher lacks it)")
        return {"cost": f.tech_cost(v["level"], v["players"], v["have"], r)}
    if formula == "city-cost":
        return {"cost": f.city_cost(v["number"])}
    winner, survivors = f.two_way(v["a1"], v["a1_tech"], v["a2"], v["a2_tech"], r)
    return {"winner": winner, "survivors": survivors}


def cmd_calc(args: argparse.Namespace) -> int:
    from companion.config.load import load_config

    if args.game not in GAMES:
        raise CalcError(f"no calculator for {args.game!r}; games with one: {', '.join(GAMES)}")
    if not args.formula:
        raise CalcError(f"name a formula: {', '.join(FLAGS)}")
    rest = list(args.rest)
    config = args.config
    if "--config" in rest:
        at = rest.index("--config")
        if at + 1 >= len(rest):
            raise CalcError("--config needs a path")
        config = rest[at + 1]
        del rest[at:at + 2]
    values, as_json = parse_flags(args.formula, rest)
    cfg = load_config(config)
    options = dict(cfg.game_options("society"))
    from companion.games import load

    try:
        load("society").resolve_options(options)
    except ValueError as e:
        raise CalcError(str(e)) from None
    out = compute(args.formula, values, options)
    show: Callable[[dict[str, Any]], str] = (lambda d: json.dumps(d)) if as_json else (
        lambda d: "\n".join(f"{k}: {'none' if x is None else x}" for k, x in d.items()))
    print(show(out))
    return 0
