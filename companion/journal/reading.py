"""Opening a journal only to read it (`companion journal check`, `salvage`), never writing to it.

In place, read-only, when SQLite can: the usual case. When it cannot read the file without writing beside it — a
read-only folder or card where the -shm index cannot be made, or a journal a kill left half-made (a rollback
journal beside it that SQLite must play back first) — a private copy of the journal and its -wal and rollback
journal is opened instead, in a temporary folder: SQLite then reads it exactly as the next start will (the same
recovery), and the file itself is left untouched.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import tempfile
from contextlib import ExitStack
from pathlib import Path

from companion.config.files import is_regular_or_missing
from companion.errors import JournalError, JournalFullError
from companion.journal.guard import SQLITE_SIDE_FILES, sqlite_error

#: SQLite's result codes that mean "cannot read this here without writing" (SQLITE_READONLY, SQLITE_CANTOPEN,
#: SQLITE_PERM), as opposed to damage
_NEEDS_A_COPY = (8, 14, 3)


class _InPlace(Exception):
    """SQLite cannot read the file where it is without writing beside it."""


def regular_file(path: Path) -> None:
    """Refuse at once what is not a plain file (a FIFO would block the first read for ever)."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise JournalError(f"no journal at {path}; check the path") from None
    except OSError as e:
        raise JournalError(f"cannot read {path}: {e.strerror}; check the path and its permissions") from None
    if not stat.S_ISREG(mode):
        raise JournalError(f"{path} is not a regular file (a folder, pipe or device); a journal is a file: "
                           "check the path")


def _connect(uri: str, path: Path, *, writable: bool = False) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(uri, uri=True, isolation_level=None)
    except sqlite3.Error as e:
        if (getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF in _NEEDS_A_COPY:
            raise _InPlace() from None
        raise sqlite_error(e, path, "open the journal to check it") from None
    try:
        if not writable:
            db.execute("PRAGMA query_only=1")
        # a schema naming pages past the end (a file cut short) would make every table unreadable; read what is
        # there instead (the connection writes nothing)
        db.execute("PRAGMA writable_schema=ON")
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
        if writable:
            db.execute("PRAGMA query_only=1")
        return db
    except sqlite3.Error as e:
        db.close()
        code = (getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF
        if not writable and (code in _NEEDS_A_COPY or "readonly" in str(e)):
            raise _InPlace() from None
        raise sqlite_error(e, path, "open the journal to check it") from None


def open_ro(path: Path, *, immutable: bool = False) -> sqlite3.Connection:
    try:
        return _connect(f"file:{path}?mode=ro" + ("&immutable=1" if immutable else ""), path)
    except _InPlace:
        raise JournalError(f"cannot open the journal to check it: {path} cannot be read in place; check the "
                           "owner and permissions of the file and its folder") from None


def _copy(path: Path, stack: ExitStack) -> Path:
    folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="companion-check-")))
    copy = folder / path.name
    for suffix in ("", "-wal", "-journal"):
        src = Path(str(path) + suffix)
        if src.is_file():
            shutil.copyfile(src, Path(str(copy) + suffix))
    return copy


def open_checked(path: Path, stack: ExitStack, *, keep_index: bool = False) -> tuple[sqlite3.Connection, str | None]:
    """The journal opened for reading, and a line about how when it matters (read from a copy, or as it is on a
    full disk). ``stack`` closes the connection and removes any copy. ``keep_index``: read a copy, so that SQLite
    does not rebuild the -shm index beside a damaged -wal (it is the evidence of a damaged last transaction)."""
    note = None
    odd = [f"{Path(str(path) + sfx).name} is {what}" for sfx in SQLITE_SIDE_FILES
           if (what := is_regular_or_missing(Path(str(path) + sfx))) is not None]
    try:
        if odd or keep_index:  # SQLite would open a pipe there and wait for ever: a copy without it is read instead
            raise _InPlace()
        try:
            db = _connect(f"file:{path}?mode=ro", path)
        except JournalFullError:
            # on a full disk SQLite cannot make the -shm index it reads a WAL journal through; with no -wal beside
            # it (closed cleanly) the main file is the whole journal and is read as it is
            wal = Path(str(path) + "-wal")
            if wal.exists() and wal.stat().st_size > 0:
                raise
            db = open_ro(path, immutable=True)
            note = "the disk is full: checked the file as it is (no -wal beside it)"
    except _InPlace:
        half = Path(str(path) + "-journal").is_file()  # (not a pipe: only plain files are copied)
        try:
            copy = _copy(path, stack)
        except OSError as e:
            raise JournalError(f"cannot check {path}: it cannot be read in place and a copy cannot be made "
                               f"({e.strerror}); free some space in the temporary folder") from None
        db = _connect(f"file:{copy}", path, writable=True)
        note = (f"{'; '.join(odd)}, not a file: checked a copy of the journal without it" if odd else
                None if keep_index else  # the -wal's own line says why
                "a start or save was cut off while the journal was being written (a rollback journal lies beside "
                "it): checked it as the next start will read it" if half else
                "the journal cannot be read in place (a read-only folder?): checked a copy of it")
    stack.callback(db.close)
    return db, note


__all__ = ["regular_file", "open_ro", "open_checked"]
