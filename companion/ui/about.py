"""The About page (Settings → About) and the game menu's settings page: what the box runs with, read-only."""
from __future__ import annotations

from companion.ui.host import MenuHost


def settings_lines(app: MenuHost) -> list[str]:
    c = app.cfg
    return [f"Config: {c.source or 'defaults'}",
            f"Display: {c.display.driver} 0x{c.display.address:02X}",
            f"Dice: {', '.join(c.dice.sources)}",
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


__all__ = ["settings_lines", "web_lines"]
