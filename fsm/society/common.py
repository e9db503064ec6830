"""Shared helpers of the Society machine: short labels within the screen budget."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
