"""Shared helpers of the Society machine: short labels within the screen budget."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.rules.society.data import WONDER_BY_KEY, tech_name
from companion.rules.society.formulas import Readings

if TYPE_CHECKING:
    from fsm.society.machine import SocietyGame

LINE = 24  #: characters of a context line
PAGE = 19  #: characters of a line on a scrolling page (report, society pages): the display font is ~6 px a letter
TITLE = 20  #: characters of a title
BACK = "back"


def clip(text: str, n: int = LINE) -> str:
    return text if len(text) <= n else text[: n - 1] + "."


def world(g: "SocietyGame") -> dict[str, Any]:
    return g.data["world"]  # type: ignore[no-any-return]


def soc(g: "SocietyGame", seat: str) -> dict[str, Any]:
    return g.data["world"]["soc"][seat]  # type: ignore[no-any-return]


def sname(g: "SocietyGame", seat: str, n: int = 10) -> str:
    return str(soc(g, seat)["name"])[:n]


def readings(g: "SocietyGame") -> Readings:
    return Readings.from_options(g.options)


def wrap(text: str, n: int = PAGE) -> list[str]:
    """Words into lines of at most ``n`` characters (continuation lines indented by one space)."""
    out: list[str] = []
    cur = ""
    for w in text.split():
        while len(w) > n:
            if cur:
                out.append(cur)
                cur = ""
            out.append(w[:n])
            w = " " + w[n:]
        if cur and len(cur) + 1 + len(w) > n:
            out.append(cur)
            cur = " " + w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        out.append(cur)
    return out


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
