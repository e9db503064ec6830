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


def battles(g: "SovereignGame") -> list[dict[str, Any]]:
    """Every battle recorded at its first roll, with how it ended (``won``, ``how``: None while it goes on)."""
    out: dict[int, dict[str, Any]] = {}
    for event in g.data.get("story", ()):
        if event[0] == "battle":
            out[event[1]["no"]] = dict(event[1], won=None, how=None)
        elif event[0] == "battle_end" and event[1] in out:
            out[event[1]].update(won=event[2], how=event[3])
    return list(out.values())


def battle_rolls(g: "SovereignGame", b: dict[str, Any]) -> None:
    """The first roll of a battle: the chance the attacker had as it began (the odds on the screen)."""
    if b["rolls"] or any(e[0] == "battle" and e[1]["no"] == b["no"] for e in g.data.get("story", ())):
        return
    att, dfn = bs.fighters(b, "att"), bs.fighters(b, "def")
    fld, model = bs.field(g, b), bs.model(g, b)
    at_sea, air_all = b["where"] == "sea", g.options["air_raid_loss"] == "all"
    odds = battle_odds(att, dfn, fld, model, at_sea=at_sea, air_all=air_all)
    g.story_event(["battle", {
        "no": b["no"], "round": int(g.data["round"]), "attacker": int(b["attacker"]), "defender": int(b["defender"]),
        "p": odds.attacker_float, "exact": f"{odds.attacker.numerator}/{odds.attacker.denominator}",
        "args": odds_args(att, dfn, fld, model, at_sea, air_all)}])


def battle_ended(g: "SovereignGame", b: dict[str, Any], won: Side, how: str) -> None:
    """How a battle that was rolled ended: the attacker's win or loss, by destruction or retreat."""
    if b["rolls"]:
        g.story_event(["battle_end", b["no"], won is Side.ATTACK, how])


__all__ = ["battle_ended", "battle_rolls", "battles", "turn_done"]
