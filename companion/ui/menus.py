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
from companion.ui.draw import BAR, HEIGHT, LIST_W, ROW, WIDTH, new_frame, text_row, title_bar, wrap
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


HOME_BACK = "The home menu: nothing to go back to"  #: BACK where there is nothing before


class Home:
    def __init__(self, app: MenuHost) -> None:
        self.app = app
        self.stack: list[tuple[str, str, Any]] = []
        self.toast: str | None = None
        self.reset()

    def reset(self, to_list: str | None = None, left: str | None = None) -> None:
        """The home menu; with ``to_list``, the game list over it with the cursor on that game; ``left``: how the
        game in play was left ("kept" for later, or "ended"): the cursor on Resume, and a line saying where it is."""
        saved = bool(resume_items(self.app))
        items = [Item("new", "New game"),
                 Item("resume", "Resume a saved game", saved, "no saved games yet"),
                 Item("dice", "Dice fairness"),
                 Item("pair", "Pair a phone"),
                 Item("settings", "Settings")]
        home = ListWidget(items, back_ok=False)
        self.stack = [("home", "Sovereign Companion", home)]
        if left is not None:
            home.move_to("resume")
            self.toast = {"kept": "Game kept: Resume a saved game has it",
                          "ended": "Game ended: Resume, Ended games has it"}.get(left)
        if to_list is not None:
            self.stack.append(("new", "New game", self._game_list(to_list)))

    def _game_list(self, on: str | None) -> ListWidget:
        """The games to start, the cursor on ``on`` (a game id or a TOML file, however its path was written), else
        on the game played last."""
        games = ListWidget(game_choices(self.app))
        played = self.app.journal.games()
        for want in (on, played[0].game if played else None):
            if want is not None and (games.move_to(want) or games.move_to(_same_file(want, games.items))):
                break
        return games

    def key(self, k: Key, repeat: bool = False) -> None:
        self.toast = None
        if k is Key.HOLD:  # the game menu is a game's: said, not swallowed
            self.toast = "No game in play: no game menu"
            return
        kind, _title, widget = self.stack[-1]
        out = widget.key(k, repeat)
        if isinstance(out, Toast):
            self.toast = out.text
        elif isinstance(out, Back) and len(self.stack) > 1:
            self.stack.pop()
        elif k is Key.BACK and len(self.stack) == 1:  # said, not swallowed
            self.toast = HOME_BACK
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
                self.stack.append(("new", "New game", self._game_list(None)))
            elif value == "resume":
                self.stack.append(("resume", "Resume", saved_list(resume_items(app))))
            elif value == "dice":
                self.stack.append(("page", "Dice fairness", TextView(fairness_lines(app), top=0)))
            elif value == "pair":
                app.open_pairing()
            elif value == "settings":
                self.stack.append(("settings", "Settings", SettingsMenu(app)))
        elif kind == "new":
            app.start_new(value)
        elif kind in ("resume", "ended") and value == "ended":
            self.stack.append(("ended", "Ended games", saved_list(resume_items(app, "ended"))))
        elif kind in ("resume", "ended"):
            rec = app.journal.game(int(value))
            ended = rec.status == "ended"
            lines = [f"{'Ended' if ended else 'Last played'} {_when(rec.updated)}"]
            lines += wrap(rec.summary or rec.title, LIST_W)
            actions = [Item("go", "Play it on again" if ended else "Resume this game")]
            if ended:
                actions.append(Item("hide", "Hide from this list"))
            self.stack.append((f"open:{rec.id}", rec.title, DetailPage(lines, ListWidget(actions))))
        elif kind.startswith("open:"):
            gid = int(kind[5:])
            if value == "go":
                app.resume(app.journal.game(gid))
            elif value == "hide":  # kept in the journal (companion export has it); no longer offered here
                app.journal.set_status(gid, "hidden")
                self.stack.pop()
                while self.stack[-1][0] in ("resume", "ended"):
                    self.stack.pop()
                if resume_items(app):
                    self.stack.append(("resume", "Resume", saved_list(resume_items(app))))
                    if resume_items(app, "ended"):
                        self.stack.append(("ended", "Ended games", saved_list(resume_items(app, "ended"))))
                else:
                    self.reset()
                self.toast = "Hidden from the list; its record is kept"

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


def resume_items(app: MenuHost, status: str = "active") -> list[Item]:
    """The saved games with ``status``, newest first (a game over is not resumed; a hidden one is not offered). Each
    row says when it was last played and what; its hint (shown under the list) says the round and who plays. The
    active games end with "Ended games (N)" when the table has ended some."""
    games = [r for r in app.journal.games(status)][:50]
    out = [Item(str(r.id), f"{_when(r.updated, True)} {r.title}", hint=f"{r.title}\n{_about(r)}") for r in games]
    if status == "active" and (ended := len(app.journal.games("ended"))):
        out.append(Item("ended", f"Ended games ({ended})", hint="Games ended from the\ngame menu, kept apart"))
    return out


def _when(t: float, short: bool = False) -> str:
    """The date and time; ``short``: only the time for today, the weekday and time this week."""
    if short:
        age = time.time() - t
        if time.localtime(t)[:3] == time.localtime()[:3]:
            return time.strftime("%H:%M", time.localtime(t))
        if 0 <= age < 6 * 86400:
            return time.strftime("%a %H:%M", time.localtime(t))
    return time.strftime("%d %b %H:%M", time.localtime(t))


def _about(r: Any) -> str:
    """The round and the players of a saved game: its summary without the game's name."""
    summary = r.summary or ""
    return summary.split(": ", 1)[1] if summary.startswith(f"{r.title}: ") else summary


def _same_file(want: str, items: list[Item]) -> str:
    """The list's key for ``want`` when it names the same TOML game another way (the shipped copy of an example,
    a path through a link): compared by file name's game, else returned as is."""
    p = Path(want)
    for it in items:
        q = Path(it.key)
        try:
            if q.suffix == ".toml" and (q.name == p.name or q.samefile(p)):
                return it.key
        except OSError:
            continue
    return want


class SavedList:
    """A list of saved games: a row each (when, which game), and under it the game's whole name, its round and
    players for the row at the cursor, so two games of the same kind are told apart at a glance."""

    FOOT = 2  #: rows under the list

    def __init__(self, items: list[Item]) -> None:
        self.list = ListWidget(items, rows=(HEIGHT - BAR) // ROW - self.FOOT)

    def key(self, k: Key, repeat: bool = False) -> Any:
        return self.list.key(k, repeat)

    def draw(self, d: Any, y0: int) -> None:
        top = HEIGHT - self.FOOT * ROW
        self.list.draw(d, y0, top)
        it = self.list.items[self.list.cursor] if self.list.items else None
        if it is not None and it.enabled and it.hint:
            d.line((0, top - 1, WIDTH - 1, top - 1), fill=1)
            for i, line in enumerate(it.hint.split("\n")[:self.FOOT]):
                text_row(d, top + i * ROW, line)


def saved_list(items: list[Item]) -> Any:
    return SavedList(items) if items else ListWidget([Item("-", "(no saved games)", False, "no saved games to resume")])


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
