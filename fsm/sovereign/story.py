"""What Sovereign records for the game's story (``data["story"]``): each seat's points and victory cards by round,
and every battle's odds as the battle screen showed them at its first roll, with the arguments that make
``companion odds sovereign`` give that same chance, and how the battle ended."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.sovereign.battle import Side
from companion.rules.sovereign.odds import battle_odds
from companion.rules.sovereign.odds_args import odds_args

from fsm.sovereign import battle_setup as bs
from fsm.sovereign.common import pl

if TYPE_CHECKING:
    from fsm.sovereign.machine import SovereignGame


def turn_done(g: "SovereignGame", seat: int) -> None:
    """The seat's turn is over (or it won in it): its points added and its victory cards, at this round."""
    p = pl(g, seat)
    r = int(g.data["round"])
    g.story_point("points", r, {seat: int(p["added"])})
    g.story_point("cards", r, {seat: sum(int(n) for n in p["cards"].values())})


def _battles(g: "SovereignGame") -> list[dict[str, Any]]:
    return g.data.setdefault("story", {}).setdefault("battles", [])  # type: ignore[no-any-return]


def battle_rolls(g: "SovereignGame", b: dict[str, Any]) -> None:
    """The first roll of a battle: the chance the attacker had as it began (the odds on the screen)."""
    if b["rolls"] or any(x["no"] == b["no"] for x in _battles(g)):
        return
    att, dfn = bs.fighters(b, "att"), bs.fighters(b, "def")
    fld, model = bs.field(g, b), bs.model(g, b)
    at_sea, air_all = b["where"] == "sea", g.options["air_raid_loss"] == "all"
    odds = battle_odds(att, dfn, fld, model, at_sea=at_sea, air_all=air_all)
    _battles(g).append({
        "no": b["no"], "round": int(g.data["round"]), "attacker": int(b["attacker"]), "defender": int(b["defender"]),
        "p": odds.attacker_float, "exact": f"{odds.attacker.numerator}/{odds.attacker.denominator}",
        "args": odds_args(att, dfn, fld, model, at_sea, air_all), "won": None, "how": None})


def battle_ended(g: "SovereignGame", b: dict[str, Any], won: Side, how: str) -> None:
    """How a battle that was rolled ended: the attacker's win or loss, by destruction or retreat."""
    for x in _battles(g):
        if x["no"] == b["no"]:
            x["won"], x["how"] = won is Side.ATTACK, how


__all__ = ["battle_ended", "battle_rolls", "turn_done"]
