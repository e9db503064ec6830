"""The About page (Settings → About) and the game menu's settings page: what the box runs with, read-only."""
from __future__ import annotations

from companion.ui.draw import LIST_W, wrap
from companion.ui.host import MenuHost

#: the dice sources in words, in the config's order: ``roller``, ``typed``, ``rng`` are what the config file says
SOURCES = (("roller", "Roller"), ("typed", "Typed in"), ("rng", "Rolled here"))


def dice_lines(sources: "tuple[str, ...] | list[str]") -> list[str]:
    """"Dice: roller, typed in, rolled here" wrapped to a page's width (never the config's "rng")."""
    words = dict(SOURCES)
    text = "Dice: " + (", ".join(words.get(s, s).lower() for s in sources) or "none")
    return wrap(text, LIST_W)


def settings_lines(app: MenuHost) -> list[str]:
    c = app.cfg
    return [f"Config: {c.source or 'defaults'}",
            f"Display: {c.display.driver} 0x{c.display.address:02X}",
            *dice_lines(c.dice.sources),
            f"Roller: {app.roller_state.value}",
            f" {app.roller_detail or c.roller.port}",
            f"Journal: {app.journal.path}",
            *web_lines(app),
            "Edit the config file to",
            "change these settings."]


def web_lines(app: MenuHost) -> list[str]:
    """Settings: the web view's address (host, then port), or why there is none."""
    if app.web is None or not app.web.address:
        return ["Web view: off"]
    host, _, port = app.web.address.split("://")[-1].rstrip("/").rpartition(":")
    return ["Web view:", f" {host}", f" port {port}", " (Pair a phone: PIN)"]


__all__ = ["SOURCES", "dice_lines", "settings_lines", "web_lines"]
