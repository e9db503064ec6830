"""The home menus shown when no game is running: new game, resume, dice fairness, settings.

They are not part of any game, so their key presses are not journaled; picking a game starts (or replays) one.
"""
from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from PIL import Image

from companion.errors import CompanionError
from companion.events import Key
from companion.games import EXAMPLES  # the example TOML games shipped in the package (copies of examples/)
from companion.ui.about import settings_lines, web_lines
from companion.ui.draw import BAR, HEIGHT, LIST_W, ROW, new_frame, title_bar, wrap
from companion.ui.host import MenuHost
from companion.ui.settings_menu import SettingsMenu
from companion.ui.widgets import Back, Done, Item, ListWidget, TextView, Toast, draw_lines, draw_toast

log = logging.getLogger(__name__)


def toml_game_files(cfg: Any) -> list[Path]:
    """Every *.toml in the games folder, then the shipped examples whose file name the folder does not have."""
    folder = Path(cfg.games.folder).expanduser()
    own = sorted(folder.glob("*.toml")) if folder.is_dir() else []
    names = {p.name for p in own}
    examples = [p for p in sorted(EXAMPLES.glob("*.toml")) if p.name not in names] if EXAMPLES.is_dir() else []
    return own + examples


def game_choices(app: MenuHost) -> list[Item]:
    """Built-in games, then every *.toml in the games folder and the shipped examples."""
    from companion.games import BUILTIN, load
    from companion.games.toml_game import load_toml_game

    items = []
    for gid in BUILTIN:
        items.append(Item(gid, load(gid).name))
    for p in toml_game_files(app.cfg):
        try:
            items.append(Item(str(p), load_toml_game(p).name))
        except CompanionError as e:  # listed, but picking it says what is wrong with the file
            items.append(Item(str(p), f"{p.stem} (broken)", False, str(e)))
    return items


class Home:
    def __init__(self, app: MenuHost) -> None:
        self.app = app
        self.stack: list[tuple[str, str, Any]] = []
        self.toast: str | None = None
        self.reset()

    def reset(self, to_list: str | None = None) -> None:
        """The home menu; with ``to_list``, the game list over it with the cursor on that game."""
        saved = bool(resume_items(self.app))
        items = [Item("new", "New game"),
                 Item("resume", "Resume a saved game", saved, "no saved games yet"),
                 Item("dice", "Dice fairness"),
                 Item("pair", "Pair a phone"),
                 Item("settings", "Settings")]
        self.stack = [("home", "Sovereign Companion", ListWidget(items, back_ok=False))]
        if to_list is not None:
            games = ListWidget(game_choices(self.app))
            games.move_to(to_list)
            self.stack.append(("new", "New game", games))

    def key(self, k: Key, repeat: bool = False) -> None:
        self.toast = None
        kind, _title, widget = self.stack[-1]
        out = widget.key(k, repeat)
        if isinstance(out, Toast):
            self.toast = out.text
        elif isinstance(out, Back) and len(self.stack) > 1:
            self.stack.pop()
        elif isinstance(out, Done):
            try:
                self._pick(kind, str(out.value))
            except CompanionError as e:
                self.toast = str(e)
                log.warning("%s", e)

    def _pick(self, kind: str, value: str) -> None:
        app = self.app
        if kind == "home":
            if value == "new":
                self.stack.append(("new", "New game", ListWidget(game_choices(app))))
            elif value == "resume":
                self.stack.append(("resume", "Resume", ListWidget(resume_items(app) or [
                    Item("-", "(no saved games)", False, "no saved games to resume")])))
            elif value == "dice":
                self.stack.append(("page", "Dice fairness", TextView(fairness_lines(app), top=0)))
            elif value == "pair":
                app.open_pairing()
            elif value == "settings":
                self.stack.append(("settings", "Settings", SettingsMenu(app)))
        elif kind == "new":
            app.start_new(value)
        elif kind == "resume":
            rec = app.journal.game(int(value))
            lines = [f"Last played {time.strftime('%d %b %H:%M', time.localtime(rec.updated))}"]
            lines += wrap(rec.summary or rec.title, LIST_W)
            actions = [Item("go", "Resume this game")]
            if rec.status == "ended":
                actions.append(Item("hide", "Hide from this list"))
            self.stack.append((f"open:{rec.id}", rec.title, DetailPage(lines, ListWidget(actions))))
        elif kind.startswith("open:"):
            gid = int(kind[5:])
            if value == "go":
                app.resume(app.journal.game(gid))
            elif value == "hide":  # kept in the journal (companion export has it); no longer offered here
                app.journal.set_status(gid, "hidden")
                self.stack.pop()
                self.stack.pop()
                items = resume_items(app)
                if items:
                    self.stack.append(("resume", "Resume", ListWidget(items)))
                else:
                    self.reset()
                self.toast = "Hidden: still in the journal and companion export"

    def render(self) -> Image.Image:
        img, d = new_frame()
        _kind, title, widget = self.stack[-1]
        title_bar(d, getattr(widget, "title", title), "")
        widget.draw(d, BAR)
        if self.toast:
            draw_toast(d, self.toast)
        return img


class DetailPage:
    """A saved game's page: its lines as plain text (not a list of greyed-out rows), then what can be done with it."""

    def __init__(self, lines: list[str], menu: ListWidget) -> None:
        self.lines, self.menu = lines, menu

    def key(self, k: Key, repeat: bool = False) -> Any:
        return self.menu.key(k, repeat)

    def draw(self, d: Any, y0: int) -> None:
        rows = (HEIGHT - y0) // ROW
        y = draw_lines(d, y0, self.lines, max(1, rows - len(self.menu.items)))
        self.menu.draw(d, max(y, HEIGHT - ROW * len(self.menu.items)))


def resume_items(app: MenuHost) -> list[Item]:
    """Games not yet over, newest first: the date, the game and who plays (finished games are not resumed, hidden
    ones are not offered)."""
    out = []
    for r in [r for r in app.journal.games() if r.status not in ("finished", "damaged", "hidden")][:50]:
        when = time.strftime("%d %b", time.localtime(r.updated))
        out.append(Item(str(r.id), f"{when} {r.summary or r.title}"))
    return out


def fairness_lines(app: MenuHost) -> list[str]:
    from companion.records.fairness import assess

    rolls = app.journal.physical_rolls()
    if not rolls:
        return ["No physical rolls yet.", "Roller and typed dice", "are checked here."]
    out = []
    for (roller, die), values in sorted(rolls.items()):
        try:
            r = assess(values, die)
        except ValueError:  # a die type the monitor does not know: say so, keep the rest
            out.append(f"{roller} {die}: not checked")
            continue
        flag = "  SUSPECT" if r.flagged else ""
        out.append(f"{roller} {die}: n={r.n}{flag}")
        out.append(" " + ("Suspect: check this die" if r.flagged else "Looks fair"))
        out.append(f" p={r.p_value:.3f} BF={r.bayes_factor:.2g}")
        out.append(" " + " ".join(str(c) for c in r.counts))
    return out


__all__ = ["Home", "game_choices", "resume_items", "fairness_lines", "settings_lines", "web_lines",
           "toml_game_files"]
