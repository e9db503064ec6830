"""The companion's exception tree.

Every error a user can cause derives from :class:`CompanionError`; its message is one plain line that names what
was wrong and what to check. The CLI prints that line and exits 2 — never a traceback.
"""
from __future__ import annotations


class CompanionError(Exception):
    """Base of every error the companion reports to a user."""


class ConfigError(CompanionError, ValueError):
    """A config file or value is wrong. The message names the key, the bad value and what is allowed."""


class GameFileError(CompanionError, ValueError):
    """A game described in TOML is malformed. The message names the file and the key or line."""


class JournalError(CompanionError):
    """The journal (saved games) cannot be opened or is not ours."""


class HardwareError(CompanionError):
    """A device could not be opened; the message says what to check (wiring, address, permissions)."""


class ScriptError(CompanionError, ValueError):
    """A line of a `companion play` script cannot be parsed."""


class JournalFullError(JournalError):
    """The disk holding the journal is full: the write was refused, nothing already saved is lost."""


class JournalDamagedError(JournalError):
    """The journal file is damaged (SQLite reports corruption, or a row fails its check)."""


class NotAJournalError(JournalDamagedError):
    """The file is no SQLite file at all, nor holds a journal's tables: the wrong --journal path, not damage. (At
    start-up it is kept aside like a damaged journal all the same, so the box starts.)"""


class JournalBusyError(JournalError):
    """Another companion process holds the journal."""


def one_line(text: str, limit: int = 120) -> str:
    """``text`` fit for a one-line message: control characters (newlines, escape codes, NUL) shown escaped, raw
    bytes never printed, and at most ``limit`` characters ("..." when cut)."""
    out = "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in str(text))
    return out if len(out) <= limit else out[:max(0, limit - 3)] + "..."

