"""Shared helpers of the Society machine: the world's parts, labels measured as drawn, a society's summary."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.society.data import WONDER_BY_KEY, tech_name
from companion.rules.society.formulas import Readings
from fsm.screen_text import LINE_PX, TITLE_PX, squeeze
from fsm.screen_text import clip as clip_px
from fsm.screen_text import wrap as wrap_px

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

BACK = "back"


def clip(text: str, px: int = LINE_PX) -> str:
    """One line measured as drawn: shortened with "…" only when it does not fit ``px`` pixels."""
    return clip_px(text, px)


def world(g: "SocietyGame") -> dict[str, Any]:
    return g.data["world"]  # type: ignore[no-any-return]


def soc(g: "SocietyGame", seat: str) -> dict[str, Any]:
    return g.data["world"]["soc"][seat]  # type: ignore[no-any-return]


def sname(g: "SocietyGame", seat: str) -> str:
    """A society's name, whole: a line that holds it lets it give way only as far as it must (``squeeze``)."""
    return str(soc(g, seat)["name"])


def readings(g: "SocietyGame") -> Readings:
    return Readings.from_options(g.options)


def wrap(text: str, px: int = LINE_PX) -> list[str]:
    """Words into lines of ``px`` pixels as drawn (continuation lines indented by one space); nothing dropped."""
    return wrap_px(text, px, indent=" ")


def summary(w: dict[str, Any], seat: str) -> dict[str, Any]:
    """One society as the state JSON and the report show it."""
    s = w["soc"][seat]
    held = sorted((k for k, v in w["wonders"].items() if v["owner"] == seat), key=lambda k: WONDER_BY_KEY[k].level)
    return {
        "society": s["name"], "alive": s["alive"], "treasury": s["gold"], "tech": s["tech"],
        "tech_name": tech_name(int(s["tech"])), "techs": [tech_name(n) for n in range(1, int(s["tech"]) + 1)],
        "government": s["gov"], "cities": list(s["cities"]),
        "armies": s["armies"], "spies": s["spies"], "nukes": s["nukes"], "sdi": s["sdi"],
        "spaceship_parts": s["parts"], "wonders": [WONDER_BY_KEY[k].name for k in held],
        "wonders_built": s["built"], "wonders_conquered": s["conquered"],
        "at_war_with": sorted(int(x) for k in w["wars"] for x in k.split("-") if seat in k.split("-") and x != seat),
    }


__all__ = ["BACK", "LINE_PX", "TITLE_PX", "clip", "readings", "sname", "soc", "squeeze", "summary", "world", "wrap"]
