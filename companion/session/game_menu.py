"""The game menu (a long press of OK): undo, redo, the game log, dice history, the game's own pages and actions,
the clock, the phones (pair one, forget one, move the host), this game's settings, and ending the game."""
from __future__ import annotations

from typing import Any

from companion.events import KeyEvent
from companion.session.core import SessionCore
from companion.session.history import Overlay, entry_list
from companion.ui.about import dice_lines
from companion.ui.draw import LIST_W, wrap
from companion.ui.widgets import Back, ConfirmWidget, Done, Item, ListWidget, TextView, Toast


class GameMenu(SessionCore):
    """Part of :class:`companion.session.Session`."""

    def _toggle_menu(self) -> None:
        if self.overlays:
            self.overlays.clear()
            return
        items = [Item("resume", "Back to game"),
                 Item("undo", "Undo", bool(self.undo_stack), "nothing to undo"),
                 Item("redo", "Redo", bool(self.redo_stack), "nothing to redo"),
                 Item("log", "Game log"), Item("dice", "Dice history")]
        if self.game is not None:
            items += [Item(f"view:{i}", v.title) for i, v in enumerate(self.game.views())]
            if not self._game_over:
                items += [Item(f"act:{o.key}", o.label, o.enabled, o.hint) for o in self._menu_actions()]
                if self.timekeeper is not None:
                    paused = self.timekeeper.clock.paused
                    items.append(Item("clock", "Resume clock" if paused else "Pause clock"))
        # "pair" (its key since saved games began): the phones, during the game: Pair a phone, forget, make host
        items += [Item("pair", "Phones"), Item("settings", "Settings"), Item("end", "End game")]
        self.overlays.append(Overlay("menu", "Game menu", ListWidget(items)))

    def _overlay_key(self, ev: KeyEvent) -> None:
        top = self.overlays[-1]
        out = top.widget.key(ev.key, ev.repeat)
        if isinstance(out, Toast):  # the screen refused the press (a greyed-out entry, a count out of range)
            self.toast = self.refused = out.text
        elif isinstance(out, Back):
            self.overlays.pop()
        elif isinstance(out, Done):
            if top.kind == "menu":
                self._menu_pick(str(out.value))
            elif top.kind == "end":
                self.overlays.clear()
                if out.value:
                    self.ended = True
            elif top.kind == "entries":  # one entry of the log, whole, wrapped over as many rows as it needs
                text = top.widget.items[int(out.value)].label
                self.overlays.append(Overlay("page", top.title, TextView(wrap(text, LIST_W), top=0)))
            elif top.kind.startswith("act:"):
                self.overlays.clear()
                if out.value:
                    self._answer(top.kind[4:])

    def _menu_actions(self) -> list[Any]:
        """The prompt's options offered from the game menu (resign, claim a draw)."""
        p = self.prompt()
        return [o for o in getattr(p, "options", ()) if getattr(o, "in_menu", False)]

    def _menu_pick(self, key: str) -> None:
        if key == "resume":
            self.overlays.clear()
        elif key == "clock" and self.timekeeper is not None:
            self.overlays.clear()
            if self.timekeeper.clock.paused:
                self.timekeeper.resume(self._now)
                self.toast = "Clock running"
            else:
                self.timekeeper.pause(self._now)
                self.toast = "Clock paused"
        elif key.startswith("act:"):  # a game's menu action (resign, claim a draw): asked once more
            label = next((o.label for o in self._menu_actions() if o.key == key[4:]), key[4:])
            self.overlays.append(Overlay(key, f"{label}?", ConfirmWidget("Yes", "No", value=False, back_ok=True)))
        elif key in ("undo", "redo"):
            self.overlays.clear()
            self.toast = self.undo() if key == "undo" else self.redo()
        elif key == "log":
            lines = list(self.game.data.get("log", [])) if self.game is not None else []
            self.overlays.append(Overlay("entries", "Game log", entry_list(lines)))
        elif key == "dice":
            lines = [self._dice_line(d) for d in self.dice_history]
            self.overlays.append(Overlay("entries", "Dice history", entry_list(lines)))
        elif key.startswith("view:") and self.game is not None:
            views = self.game.views()
            i = int(key[5:])
            if i < len(views):
                self.overlays.append(Overlay("page", views[i].title, TextView(list(views[i].lines), top=0)))
        elif key == "pair":  # always the same effect on the session (replay has no hook): the App shows the Phones
            self.overlays.clear()
            if self.pair_hook is not None:
                self.pair_hook()
        elif key == "settings":
            self.overlays.append(Overlay("page", "Settings", TextView(self.settings_lines(), top=0)))
        elif key == "end":
            self.overlays.append(Overlay("end", "End game?", ConfirmWidget("End", "Keep", value=False, back_ok=True)))

    def settings_lines(self) -> list[str]:
        """What this game runs with: its dice sources and rule switches (fixed when the game was started)."""
        lines = [*dice_lines(self.sources), "Roller: " + ("connected" if self.roller_connected() else "offline")]
        options = self.game.options if self.game is not None else self.game_cls.resolve_options(self.wizard.options)
        if options:
            lines.append("Rules:")
            lines += [f" {k} = {v}" for k, v in sorted(options.items())]
        lines += ["Kept from the start of", "the game. Settings in the", "main menu: new games."]
        return lines

    def _dice_line(self, d: dict[str, Any]) -> str:
        who = self.names[d["player"] - 1] if d["player"] else "Nobody asked"
        mark = " (undone)" if d["undone"] else ""
        source = {"rng": "rolled here", "typed": "typed in"}.get(d["source"], d["source"])
        why = f" for {d['purpose']}" if d.get("purpose") else ""
        return f"{who}: {d['die']} {' '.join(map(str, d['values']))}{why}, {source}{mark}"
