"""What start-up set aside, said on the screen and the phones; and a saved game that cannot be resumed, which never
stops the box (issue #31). Used by :mod:`companion.loop.runtime` (the lines) and :class:`~companion.loop.app.App`
(its boot); see :mod:`companion.loop.startup` for the whole story.
"""
from __future__ import annotations

import logging
import re
import traceback
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from companion.config.load import Config
from companion.errors import CompanionError, JournalError, one_line

if TYPE_CHECKING:
    from companion.journal.boot import Opened
    from companion.loop.app import App

log = logging.getLogger(__name__)

TITLE = "Set aside at start"
PHONE_CHARS = 200  #: a notice on a phone is one line of at most this many characters
PATH = re.compile(r"(?:/[^\s:;,()'\"/]+)+/?")  #: an absolute path in a line (the screen shows its file name)

DAMAGED_LINES = ("The saved-games file", "was damaged. It is", "kept beside it, dated,", "and a new one started.",
                 "Recover its games:", "companion journal", "salvage (see the log)", "", "OK: continue")


FOREIGN_LINES = ("The saved-games file", "is no companion", "journal. It is kept", "beside it, dated, and",
                 "a new one started.", "Check [journal] path", "(see the log)", "", "OK: continue")


def short(line: str, limit: int) -> str:
    """A line for the screen or the phones: one line, files named without their folders (the log has it whole)."""
    return one_line(PATH.sub(lambda m: Path(m.group(0)).name or m.group(0), line), limit)


def show_damaged_journal(app: "App", foreign: bool = False) -> None:
    """A page over the home menu that stays until OK or BACK (a toast would be gone, or replaced by the roller's)."""
    from companion.ui.widgets import TextView

    title, lines = ("Not a journal", FOREIGN_LINES) if foreign else ("Journal damaged", DAMAGED_LINES)
    app.home.stack.append(("page", title, TextView(list(lines), top=0)))


def games_folder_lines(cfg: Config) -> list[str]:
    """The games folder, looked at once: a folder that is none, or game files that are no plain files (skipped)."""
    from companion.config.files import is_regular_or_missing

    folder = Path(cfg.games.folder).expanduser()
    what = is_regular_or_missing(folder)
    if what is None and folder.exists():
        return [f"the games folder {folder} is a file, not a folder: its games are not listed; check [games] folder"]
    if what != "a folder":
        return []
    try:
        found = sorted(folder.glob("*.toml"))
    except OSError as e:
        return [f"the games folder {folder} cannot be read ({e.strerror}): its games are not listed"]
    return [f"{p} is {kind}, not a game file: skipped" for p in found
            if (kind := is_regular_or_missing(p)) is not None]


def present(app: "App", lines: Sequence[str], journal: "Opened | None" = None) -> None:
    """Say what was set aside (each line is in the log already) on every phone and on the screen (the journal kept
    aside has its own page)."""
    app.notices.extend(short(line, PHONE_CHARS) for line in lines if line)
    if journal is not None and journal.aside is not None:
        show_damaged_journal(app, foreign=journal.aside == "foreign")
    others = [line for line in lines if line and (journal is None or line != journal.aside_line)]
    if others:
        from companion.ui.draw import LIST_W, wrap
        from companion.ui.widgets import TextView

        text: list[str] = []
        for line in others:  # each whole, wrapped to the screen (UP/DOWN scroll), a file named without its folder
            text += wrap(short(line, 400), LIST_W) + [""]
        app.home.stack.append(("page", TITLE, TextView(text + ["Also on the phones", "and in the log.", "",
                                                              "OK: continue"], top=0)))


def booted(app: "App") -> None:
    """After the first boot: over a resumed game (the home page is not in view), the screen says it in one line."""
    s = app.session
    if s is None:
        return
    if s.toast and s.toast.startswith(("Inputs lost", "Journal damaged")):  # the resume found damage: phones too
        app.notices.append(f"Saved game {app.record.id if app.record else '?'}: {s.toast} (see the log)")
    if app.notices and not s.toast:
        s.toast = f"{len(app.notices)} set aside at start: see a phone or the log"
        s.toast_sticky = True


def boot_failed(app: "App", e: Exception) -> None:
    """The saved game the box was resuming could not be resumed: whatever the reason, the box starts on the home
    menu. A game whose file or switches are wrong is kept (mend them and restart); one that raised anything else is
    marked damaged, so the next start does not meet it again."""
    app.session, app.record = None, None
    if isinstance(e, JournalError):
        log.error("%s", e)
        app.home.toast = "Journal error: see the log"
        return
    log.debug("the resume failed", exc_info=(type(e), e, e.__traceback__))
    tb = traceback.extract_tb(e.__traceback__)
    where = f" at {Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
    latest = _resumed(app)
    what = f"saved game {latest.id} ({one_line(latest.title, 40)})" if latest is not None else "the saved game"
    if isinstance(e, CompanionError):  # its game file or a rule switch: the table can mend it and start again
        line = f"{what} could not be resumed ({one_line(str(e), 160)}): it is kept; mend that and restart"
        log.error("%s", line)
        app.notices.append(short(line, PHONE_CHARS))
        app.home.toast = "A saved game could not be resumed: see the log"
        return
    line = f"{what} could not be resumed ({type(e).__name__}{where}: {one_line(str(e), 80)})"
    if latest is not None:  # whatever it met would stop every start: not offered again
        try:
            app.journal.set_status(latest.id, "damaged")
            line += ": marked damaged and left out; 'companion journal check' says what is readable"
        except CompanionError as again:
            log.error("%s", again)
    log.error("%s", line)
    app.notices.append(short(line, PHONE_CHARS))
    app.home.toast = "A saved game could not be resumed: see the log"


def _resumed(app: "App") -> Any:
    """The game :meth:`App._boot` resumes (not one it starts afresh)."""
    try:
        latest = app.journal.latest_active()
        if latest is None or app._game_arg is None:
            return latest
        from companion.session.headless import game_key

        return latest if latest.game == game_key(app._game_arg, app.cfg) else None
    except Exception:
        return None


__all__ = ["present", "booted", "boot_failed", "games_folder_lines", "show_damaged_journal", "DAMAGED_LINES",
           "FOREIGN_LINES", "TITLE"]
