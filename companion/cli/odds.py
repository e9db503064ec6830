"""`companion odds sovereign ...` — the exact chance of a Sovereign battle, from the same engine as the battle screen."""
from __future__ import annotations

import argparse
import json

from companion.errors import CompanionError

GAMES = ("sovereign",)


class OddsError(CompanionError, ValueError):
    """Bad input to `companion odds`."""


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("odds", help="exact battle odds (sovereign)",
                       description="Exact chance that the attacker wins a whole battle. SPEC is a unit name "
                                   "(Catapult), N*name (3*Horseman), chart notation A-D-M(C)[T]{R} (2-1-2(3){1}) "
                                   "or Name:notation; separate several with commas.")
    p.add_argument("game", help="the game (sovereign)")
    p.add_argument("--attack", required=True, metavar="SPEC[,SPEC...]", help="the attacking army")
    p.add_argument("--defend", required=True, metavar="SPEC[,SPEC...]", help="the defending army")
    p.add_argument("--city-tiles", type=int, default=None, metavar="N",
                   help="defending a city: adjacent city tiles, 0-6")
    p.add_argument("--construction", action="store_true", help="the defender has Construction (+1 in a city)")
    p.add_argument("--fort", type=int, default=None, metavar="N", help="defending a manned fort of hex value N")
    p.add_argument("--at-sea", action="store_true", help="a battle on a sea hex: ships are destroyed last")
    p.add_argument("--attacker-space-flight", action="store_true", help="the attacker rolls 2 dice, keeps the higher")
    p.add_argument("--defender-space-flight", action="store_true", help="the defender rolls 2 dice, keeps the higher")
    p.add_argument("--explode", default="once", metavar="once|chain|off",
                   help="a natural 12 earns one more d12: once (default), chained, or off")
    p.add_argument("--space-flight-bonus", default="single", metavar="single|extra",
                   help="bonus rolls after a 12: a single d12 (default) or, for a side with Space flight, two dice "
                        "keeping the higher (the space_flight_bonus switch)")
    p.add_argument("--air-raid-loss", default="one", metavar="one|all",
                   help="a roll lost by an attack with air raids destroys one air raid (default) or every one of "
                        "them (the air_raid_loss switch)")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.set_defaults(func=cmd_odds)


def _field(args: argparse.Namespace) -> "object":
    from companion.rules.sovereign.battle import MAX_ADJACENT, Field, Where
    from companion.rules.sovereign.terrain import FORT_VALUES

    if args.fort is not None and (args.city_tiles is not None or args.construction):
        raise OddsError("a unit defends either a city (--city-tiles/--construction) or a fort (--fort), not both")
    if args.fort is not None:
        if args.fort not in FORT_VALUES:
            allowed = ", ".join(str(v) for v in FORT_VALUES)
            raise OddsError(f"--fort {args.fort}: a fort's value is its hex value, one of {allowed}")
        return Field(Where.FORT, fort=args.fort)
    if args.city_tiles is not None or args.construction:
        n = 0 if args.city_tiles is None else args.city_tiles
        if not 0 <= n <= MAX_ADJACENT:
            raise OddsError(f"--city-tiles {n}: a city tile has 0 to {MAX_ADJACENT} adjacent city tiles")
        return Field(Where.CITY, adjacent=n, construction=args.construction)
    return Field(Where.SEA if args.at_sea else Where.FIELD)


def _units(n: int) -> str:
    return f"{n} unit" if n == 1 else f"{n} units"


def cmd_odds(args: argparse.Namespace) -> int:
    from fractions import Fraction

    from companion.rules.sovereign.battle import MAX_ARMY_ATOMIC, Explode, Field, Side, army_sum, defence_bonus
    from companion.rules.sovereign.odds import RollModel, battle_odds
    from companion.rules.sovereign.units import UnitSpecError, UnitTableError, parse_specs

    if args.game not in GAMES:
        raise OddsError(f"no odds for {args.game!r}; games with odds: {', '.join(GAMES)}")
    try:
        explode = Explode(args.explode)
    except ValueError:
        raise OddsError(f"--explode {args.explode!r}: use once, chain or off") from None
    try:
        att = parse_specs(args.attack)
        dfn = parse_specs(args.defend)
    except (UnitSpecError, UnitTableError) as e:
        raise OddsError(str(e)) from None
    for flag, army in (("--attack", att), ("--defend", dfn)):
        if len(army) > MAX_ARMY_ATOMIC:
            raise OddsError(f"{flag}: {len(army)} units; an army has at most 7 units (8 with Atomic energy)")
    fld = _field(args)
    if not isinstance(fld, Field):
        raise TypeError(f"invariant: fld is a Field, not {fld!r}")
    if args.space_flight_bonus not in ("single", "extra"):
        raise OddsError(f"--space-flight-bonus {args.space_flight_bonus!r}: use single or extra")
    if args.air_raid_loss not in ("one", "all"):
        raise OddsError(f"--air-raid-loss {args.air_raid_loss!r}: use one or all")
    a_dice, d_dice = 2 if args.attacker_space_flight else 1, 2 if args.defender_space_flight else 1
    extra = args.space_flight_bonus == "extra"
    model = RollModel(explode, a_dice, d_dice, a_dice if extra else 1, d_dice if extra else 1)
    odds = battle_odds(att, dfn, fld, model, at_sea=args.at_sea, air_all=args.air_raid_loss == "all")

    def frac(f: Fraction) -> str:
        return f"{f.numerator}/{f.denominator}"

    bonus = defence_bonus(fld, att)
    if args.json:
        print(json.dumps({
            "attacker_wins": odds.attacker_float,
            "defender_wins": odds.defender_float,
            "attacker_wins_exact": frac(odds.attacker),
            "defender_wins_exact": frac(odds.defender),
            "next_roll_attacker": 1.0 - float(1 - odds.first_roll),
            "attack_sum": army_sum(att, Side.ATTACK),
            "defence_sum": army_sum(dfn, Side.DEFEND),
            "defence_bonus": bonus,
            "explode": explode.value,
            "space_flight_bonus": args.space_flight_bonus,
            "air_raid_loss": args.air_raid_loss,
        }))
        return 0
    print(f"attack  {_units(len(att))}, sum {army_sum(att, Side.ATTACK)}")
    print(f"defence {_units(len(dfn))}, sum {army_sum(dfn, Side.DEFEND)} + bonus {bonus}")
    def exact(f: Fraction) -> str:
        text = frac(f)
        return f"  ({text})" if len(text) <= 40 else "  (exact fraction with --json)"

    print(f"attacker wins {odds.attacker_float!r}{exact(odds.attacker)}")
    print(f"defender wins {odds.defender_float!r}{exact(odds.defender)}")
    return 0
