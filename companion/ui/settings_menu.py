"""Settings on the device: contrast, dice sources, player names, rule switches for the next game, the screen's
idle times. Each change is saved to the config file at once (companion/config/write.py); a game already running
keeps the settings it started with (its session holds its own dice sources and rule switches).
"""
from __future__ import annotations

import logging
from typing import Any

from PIL import ImageDraw

from companion.config.load import Config, user_config_path
from companion.config.write import Key as ConfigKey
from companion.config.write import save_settings
from companion.errors import CompanionError
from companion.events import Key
from companion.ui.about import SOURCES, settings_lines
from companion.ui.host import MenuHost
from companion.ui.picker import CharPicker
from companion.ui.widgets import Back, Done, Item, ListWidget, MultiSelectWidget, Outcome, Spinner, TextView, Toast

log = logging.getLogger(__name__)

#: the [screen] keys the menu offers: (key, label, lo, hi, step, unit)
SCREEN_KEYS = (("glance_seconds", "Glance after", 0, 120, 1, "s"), ("dim_minutes", "Dim after", 0, 120, 1, "min"),
               ("blank_minutes", "Blank after", 0, 240, 5, "min"), ("shift_minutes", "Pixel shift", 0, 60, 1, "min"))


def _value_text(v: Any) -> str:
    if isinstance(v, bool):
        return "on" if v else "off"
    return str(v)


class SettingsMenu:
    """A widget with its own stack of pages, shown by the home menu's Settings entry."""

    def __init__(self, app: MenuHost) -> None:
        self.app = app
        self.stack: list[tuple[str, str, Any]] = []
        self.stack.append(("main", "Settings", ListWidget(self._main_items())))

    @property
    def cfg(self) -> Config:
        return self.app.cfg

    @property
    def title(self) -> str:
        return str(getattr(self.stack[-1][2], "title", self.stack[-1][1]))

    @property
    def path(self) -> Any:
        return self.cfg.save_path or self.cfg.source or user_config_path()

    # ------------------------------------------------------------------ pages
    def _main_items(self) -> list[Item]:
        c = self.cfg
        scr = getattr(c, "screen", None)
        items = [Item("contrast", f"Contrast {c.display.contrast}"),
                 Item("dice", "Dice sources"),
                 Item("names", "Player names"),
                 Item("rules", "Rules for new games")]
        if scr is not None:
            items.append(Item("screen", "Screen idle times"))
        items.append(Item("pair", "Pair a phone"))  # the web view: its address as a QR code and the PIN
        web = getattr(self.app, "web", None)
        if web is not None:
            items.append(Item("phones", f"Phones ({len(web.pairing.phones())})"))
        items.append(Item("about", "About this companion"))
        return items

    def _rules_games(self) -> list[Item]:
        from companion.games import BUILTIN, load

        out = []
        for gid in BUILTIN:
            cls = load(gid)
            if cls.OPTIONS:
                out.append(Item(gid, cls.name))
        return out

    def _rule_items(self, gid: str) -> list[Item]:
        from companion.games import load

        cls = load(gid)
        now = cls.resolve_options(self.cfg.game_options(gid))
        return [Item(name, _rule_label(name, _value_text(now[name])), hint=spec.help)
                for name, spec in cls.OPTIONS.items()]

    def push(self, kind: str, title: str, widget: Any) -> None:
        self.stack.append((kind, title, widget))

    def _refresh(self) -> None:
        """Labels show the values now saved (every page on the stack, read back from the config just applied)."""
        for kind, _title, w in self.stack:
            if kind == "main":
                w.items = self._main_items()
            elif kind == "names":
                w.items = self._name_items()
            elif kind == "screen":
                w.items = self._screen_items()
            elif kind.startswith("rules:"):
                w.items = self._rule_items(kind[6:])

    # ------------------------------------------------------------------ keys
    def key(self, k: Key, repeat: bool = False) -> Outcome:
        kind, _title, widget = self.stack[-1]
        out = widget.key(k, repeat)
        if isinstance(out, Back) or (kind == "page" and isinstance(out, Done)):
            if len(self.stack) == 1:
                return Back()
            self.stack.pop()
            self._refresh()  # "Phones (2)" counts the phones left
            return None
        if isinstance(out, Done):
            try:
                return self._done(kind, out.value)
            except CompanionError as e:
                log.warning("%s", e)
                return Toast(str(e))
        return out

    def _save(self, changes: dict[ConfigKey, Any], said: str) -> Toast:
        self.app.apply_config(save_settings(self.path, changes, base=self.cfg.source))
        self._refresh()
        return Toast(f"{said}: saved; new games use it")

    def _done(self, kind: str, value: Any) -> Outcome:
        c = self.cfg
        if kind == "main":
            if value == "contrast":
                self.push("contrast", "Contrast", Spinner(0, 255, c.display.contrast, 16, back_ok=True))
            elif value == "dice":
                items = [Item(k, label, checked=k in c.dice.sources) for k, label in SOURCES]
                w = MultiSelectWidget(items, min_count=1)
                w.inner.back_ok = True
                self.push("dice", "Dice sources", w)
            elif value == "names":
                self.push("names", "Player names", ListWidget(self._name_items()))
            elif value == "rules":
                self.push("rules_games", "Rules: which game", ListWidget(self._rules_games()))
            elif value == "screen":
                self.push("screen", "Screen idle times", ListWidget(self._screen_items()))
            elif value == "pair":
                self.app.open_pairing()
            elif value == "phones":  # OK on a phone: forget it or make it the host (companion/ui/phones.py)
                from companion.ui.phones import PhonesMenu

                self.push("phones", "Paired phones", PhonesMenu(self.app.web, title="Paired phones"))
            elif value == "about":
                self.push("page", "About", TextView(settings_lines(self.app), top=0))
            return None
        if kind == "contrast":
            self.stack.pop()
            return self._save({("display", "contrast"): int(value)}, f"Contrast {value}")
        if kind == "dice":
            self.stack.pop()
            order = [k for k, _ in SOURCES if k in value]
            return self._save({("dice", "sources"): order}, "Dice sources")
        if kind == "names":
            seat = int(value)
            names = list(c.players.names)
            self.push(f"name:{seat}", f"Seat {seat} name", CharPicker(names[seat - 1] if seat <= len(names) else ""))
            return None
        if kind.startswith("name:"):
            seat = int(kind[5:])
            names = list(c.players.names)
            while len(names) < seat:
                names.append(f"P{len(names) + 1}")
            if value in names[:seat - 1] + names[seat:]:
                return Toast(f"{value} is already a name here")
            names[seat - 1] = str(value)
            self.stack.pop()
            return self._save({("players", "names"): names}, f"Seat {seat}: {value}")
        if kind == "rules_games":
            from companion.games import load

            self.push(f"rules:{value}", load(str(value)).name, ListWidget(self._rule_items(str(value))))
            return None
        if kind.startswith("rules:"):
            return self._edit_rule(kind[6:], str(value))
        if kind.startswith("rulechoice:"):
            from companion.games import load

            gid, name = kind[11:].split("/", 1)
            choice = load(gid).OPTIONS[name].choices or ()
            self.stack.pop()
            return self._save({("games", gid, name): choice[int(value)]}, f"{name} = {_value_text(choice[int(value)])}")
        if kind.startswith("rule:"):
            gid, name = kind[5:].split("/", 1)
            self.stack.pop()
            return self._save({("games", gid, name): value}, f"{name} = {_value_text(value)}")
        if kind == "screen":
            return self._edit_screen(str(value))
        if kind.startswith("screen:"):
            self.stack.pop()
            return self._save({("screen", kind[7:]): int(value)}, "Screen")
        return None

    def _name_items(self) -> list[Item]:
        names = list(self.cfg.players.names)
        return [Item(str(i + 1), f"Seat {i + 1}: {names[i] if i < len(names) else '-'}") for i in range(6)]

    def _edit_rule(self, gid: str, name: str) -> Outcome:
        from companion.games import load

        spec = load(gid).OPTIONS[name]
        now = load(gid).resolve_options(self.cfg.game_options(gid))[name]
        if isinstance(spec.default, bool) and spec.choices is None:
            return self._save({("games", gid, name): not now}, f"{name} = {_value_text(not now)}")
        if spec.choices is not None:
            items = [Item(str(i), _value_text(ch)) for i, ch in enumerate(spec.choices)]
            cursor = spec.choices.index(now) if now in spec.choices else 0
            self.push(f"rulechoice:{gid}/{name}", name, ListWidget(items, cursor=cursor))
            return None
        if isinstance(spec.default, int):
            lo = spec.lo if spec.lo is not None else 0
            hi = spec.hi if spec.hi is not None else 99
            self.push(f"rule:{gid}/{name}", name, Spinner(lo, hi, int(now), back_ok=True))
            return None
        return Toast(f"{name}: edit it in {self.path}")

    def _screen_items(self) -> list[Item]:
        scr = getattr(self.cfg, "screen", None)
        return [Item(k, f"{label} {getattr(scr, k, 0) or 'never'}{'' if not getattr(scr, k, 0) else ' ' + unit}")
                for k, label, _lo, _hi, _step, unit in SCREEN_KEYS]

    def _edit_screen(self, key: str) -> Outcome:
        scr = getattr(self.cfg, "screen", None)
        for k, label, lo, hi, step, unit in SCREEN_KEYS:
            if k == key:
                self.push(f"screen:{k}", label, Spinner(lo, hi, int(getattr(scr, k, 0)), step, unit, back_ok=True))
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int) -> None:
        self.stack[-1][2].draw(d, y0)



def _rule_label(name: str, value: str) -> str:
    """A switch's row: its value always in view, the name shortened with "…" when the row is too narrow."""
    from companion.ui.draw import ELLIPSIS, LIST_W, fit, text_width

    tail = f": {value}"
    if text_width(name + tail) <= LIST_W:
        return name + tail
    return fit(name, max(0, LIST_W - text_width(tail)), cut=True).replace(ELLIPSIS, "…") + tail


__all__ = ["SettingsMenu"]

