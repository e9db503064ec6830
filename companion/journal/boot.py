"""The journal `companion run` starts with: whatever lies at its path, the box starts (issue #31).

Each file of the journal is looked at before SQLite opens it: the lock, the -wal, the -shm, the head witness and a
rollback journal that are not plain files (a folder, a pipe, a device) are moved aside (a pipe would block the first
read for ever); a -wal whose frames show saved transactions past a damaged one is copied aside as it is
(:mod:`companion.journal.walscan`). A journal SQLite cannot open or reports damaged, or that is no companion journal
at all, is kept aside under a dated name and a fresh one started. When not even a fresh one can be made (a read-only
card, a full disk), the box plays on a journal in memory and says that games are not being saved. Only another
running companion holding the lock stops the start (two boxes must never write one file).

Every such event is one line in :attr:`Opened.lines`, for the log, the screen and the phones.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from companion.config.files import dated, is_regular_or_missing
from companion.config.files import set_aside as move_aside
from companion.errors import JournalBusyError, JournalError, JournalFullError, NotAJournalError, one_line
from companion.journal.store import Journal

log = logging.getLogger(__name__)

SIDE_FILES = (".lock", "-wal", "-shm", ".head", "-journal")


@dataclass
class Opened:
    journal: Journal
    lines: list[str] = field(default_factory=list)  #: one line each: what was set aside, what was lost
    aside: str | None = None  #: "damaged" or "foreign" when the journal itself was kept aside and a new one begun
    aside_line: str | None = None  #: the line of :attr:`lines` saying so (the screen has a page of its own for it)
    saving: bool = True  #: False: a journal in memory (nothing could be opened or made at the path)


def set_aside(path: Path, label: str = "damaged") -> Path:
    """Rename a journal (and its -wal, -shm, head witness and rollback journal, which hold part of it or belong to
    it) to a dated name beside it."""
    aside = dated(path, label, keep_suffix=True)
    for suffix in ("-wal", "-shm", ".head", "-journal"):
        side = Path(str(path) + suffix)
        if side.exists():
            side.rename(Path(str(aside) + suffix))
    path.rename(aside)
    return aside


def _side_files(path: Path, lines: list[str]) -> None:
    """Move aside each companion file of the journal that is not a plain file."""
    for suffix in SIDE_FILES:
        side = Path(str(path) + suffix)
        what = is_regular_or_missing(side)
        if what is None:
            continue
        moved = move_aside(side)
        lines.append(f"{side.name} was {what}, not a file: " +
                     (f"moved aside as {moved.name}" if moved else "it could not be moved; move it away by hand"))
        log.error("%s (in %s)", lines[-1], path.parent)


def open_for_run(path: Path) -> Opened:
    """The journal at ``path``, locked, or a fresh one there, or one in memory; raises only
    :class:`~companion.errors.JournalBusyError` (another companion holds it)."""
    lines: list[str] = []
    _side_files(path, lines)
    what = is_regular_or_missing(path)
    kind = "foreign" if what is not None else None
    why = ""  # SQLite's word on a damaged file, for the one line said of it
    if kind is None:
        try:
            journal = Journal(path, lock=True)
        except JournalBusyError:
            raise
        except NotAJournalError:
            kind = "foreign"  # said once, below: kept aside like a damaged one, not salvaged
        except JournalFullError as e:
            return _in_memory(path, lines, f"the disk is full ({e})")
        except JournalError as e:
            why = _cause(str(e))
            kind = "damaged"
        except Exception as e:  # whatever SQLite or a damaged file raises, the box starts
            why = one_line(f"{type(e).__name__}: {e}", 100)
            kind = "damaged"
        else:
            problem = journal.quick_check()
            if problem is None:
                if journal.wal_damage is not None:
                    kept = f"; a copy as it was is kept as {journal.wal_copy.name}" if journal.wal_copy else ""
                    lines.append(journal.wal_damage.message() + kept)
                lines += [loss.message(path) for loss in journal.losses.values()]
                try:
                    journal.games()  # a game whose row cannot be played is left out: said now, once
                except JournalError as e:
                    log.warning("%s", e)
                for line in journal.unreadable.values():
                    log.warning("%s", line)
                    lines.append(line)
                return Opened(journal, lines)
            why = f"SQLite's check: {one_line(problem, 100)}"
            journal.close(checkpoint=False)
            kind = "damaged"
    try:
        aside = set_aside(path, "unusable" if what is not None else "damaged")
    except OSError as e:
        return _in_memory(path, lines, f"it cannot be used and cannot be moved aside ({e.strerror})")
    if what is not None:
        line = f"{path} was {what}, not a journal file: moved aside as {aside.name}, a new journal started"
    elif kind == "foreign":
        line = f"{path} is not a companion journal: kept as {aside.name}, a new journal started; check the " \
               "[journal] path in the config"
    else:
        line = f"the journal {path} was damaged ({why}): kept as {aside.name}, a new one started; " \
               f"'companion journal salvage {aside} -o NEW' recovers its games"
    log.error("%s", line)
    lines.append(line)
    try:
        return Opened(Journal(path, lock=True), lines, kind, line)
    except JournalBusyError:
        raise
    except Exception as e:
        return _in_memory(path, lines, f"a new one cannot be made ({e})")


def _cause(message: str) -> str:
    """What a journal error says is wrong, without the path and advice around it."""
    inner = message.split(" (", 1)[1].rsplit(")", 1)[0] if " (" in message else message
    return one_line(inner, 100)


def _in_memory(path: Path, lines: list[str], why: str) -> Opened:
    line = f"games are not being saved: the journal {path} cannot be used, {why}; fix it and restart"
    log.error("%s", line)
    return Opened(Journal(":memory:"), lines + [line], saving=False)


__all__ = ["Opened", "open_for_run", "set_aside", "SIDE_FILES"]
