"""What guards the journal file: SQLite errors as one plain line each, and one process per journal (a lock).

Only a file SQLite reports as damaged gets the advice to salvage it or move it away; a full disk, a read-only
folder or an I/O error say what to fix instead, because the journal itself is healthy then.
"""
from __future__ import annotations

import errno
import fcntl
import os
import sqlite3
import stat
from pathlib import Path
from typing import IO

from companion.errors import (JournalBusyError, JournalDamagedError, JournalError, JournalFullError, NotAJournalError,
                              one_line)

# SQLite's primary result codes (the low byte of sqlite_errorcode)
_PERM, _BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _CONSTRAINT, _NOTADB = \
    3, 5, 6, 8, 10, 11, 13, 14, 19, 26


def damaged_advice(path: Path | str) -> str:
    return f"'companion journal salvage {path} -o NEW' copies what is readable, or move the file away to start afresh"


FULL_BELOW = 64 * 1024  #: bytes free under which the disk counts as full (a few of SQLite's pages)


def disk_full(path: Path | str) -> bool:
    """Whether the file system holding ``path`` (its folder) has no room left for a few pages."""
    try:
        st = os.statvfs(Path(path).parent)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize < FULL_BELOW


SQLITE_MAGIC = b"SQLite format 3\x00"
#: what the first page of every companion journal holds, header or no header: its tables' SQL
_OUR_SCHEMA = (b"CREATE TABLE games", b"CREATE TABLE inputs")


def looks_like_a_journal(path: Path | str) -> bool:
    """Whether an unreadable file was a journal (damaged) rather than some other file given by mistake: SQLite's
    header, or garbage over the header but our tables' SQL in the first pages. An empty file counts."""
    try:
        with open(path, "rb") as f:
            head = f.read(65536)
    except OSError:
        return True  # cannot tell: say what SQLite said
    return not head or head.startswith(SQLITE_MAGIC) or any(s in head for s in _OUR_SCHEMA)


def sqlite_text(e: sqlite3.Error) -> str:
    """SQLite's message, without the bytes of a value that is not UTF-8 (Python's message quotes them whole)."""
    text = str(e)
    if text.startswith("Could not decode to UTF-8") and " with text " in text:
        return text.split(" with text ", 1)[0].replace("Could not decode to UTF-8 column", "column") + " is not UTF-8"
    return text


def sqlite_error(e: sqlite3.Error, path: Path | str, what: str) -> JournalError:
    """One line for a SQLite error met while doing ``what`` (e.g. "save that press") on the journal ``path``."""
    code = (getattr(e, "sqlite_errorcode", None) or 0) & 0xFF
    text = sqlite_text(e)
    # a full disk met while SQLite creates or grows its -wal/-shm files comes back as an I/O error (ENOSPC is not
    # passed on): the free space of the folder tells the two apart
    if code == _FULL or "disk is full" in text or (code in (_IOERR, _CANTOPEN) and disk_full(path)):
        return JournalFullError(f"cannot {what}: the disk holding {path} is full; nothing saved before is lost — "
                                "free some space and try again")
    # text that is not UTF-8 in the file (its schema, a row) is damage too: SQLite never stores such text itself
    if code in (_CORRUPT, _NOTADB) or "malformed" in text or "not a database" in text or "UTF-8" in text:
        if not looks_like_a_journal(path):
            return NotAJournalError(f"cannot {what}: {path} is not a companion journal (nor any SQLite file); "
                                    "check the path, or give another --journal")
        return JournalDamagedError(f"cannot {what}: {path} is damaged ({one_line(text, 100)}); {damaged_advice(path)}")
    if code == _IOERR:
        return JournalError(f"cannot {what}: input/output error on {path} ({text}); check the disk or SD card "
                            "and that it has free space, then try again")
    if code in (_READONLY, _CANTOPEN, _PERM):
        return JournalError(f"cannot {what}: {path} cannot be opened for writing ({text}); check the folder exists "
                            "and the owner and permissions of the file and its folder")
    if code in (_BUSY, _LOCKED):
        return JournalBusyError(f"cannot {what}: {path} is busy in another program; stop it and try again")
    if code == _CONSTRAINT or isinstance(e, sqlite3.IntegrityError):
        return JournalDamagedError(f"cannot {what}: {path} already holds that entry ({text}); is another "
                                   f"companion using it? 'companion journal check {path}' says what is readable")
    return JournalError(f"cannot {what}: {path}: {text}")


SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")  #: the files SQLite keeps beside a journal


def usable_path(path: Path) -> None:
    """Refuse at once a path that names no file, or names a folder, pipe or device (a pipe would block for ever)."""
    from companion.config.files import file_path_problem, is_regular_or_missing

    why = file_path_problem(path)
    if why is None and (what := is_regular_or_missing(path)) is not None:
        why = f"is {what}, not a journal file; check the path"
    if why is not None:
        raise JournalError(f"the journal path {str(path) or repr(str(path))} {why}")
    for suffix in SQLITE_SIDE_FILES:  # SQLite opens these itself, blocking on a pipe
        side = Path(str(path) + suffix)
        if (what := is_regular_or_missing(side)) is not None:
            raise JournalError(f"{side} is {what}, not a file SQLite can use beside the journal; move it away "
                               "('companion run' moves it aside by itself)")


class InstanceLock:
    """An exclusive ``flock`` on ``<journal>.lock`` for as long as this process uses the journal.

    The lock file holds the holder's process id, so a second ``companion run``/``sim``/``play`` can say who has it.
    The kernel drops the lock when the holder dies (even by kill -9 or a power cut), so it never goes stale.
    """

    def __init__(self, journal_path: Path) -> None:
        self.path = journal_path.with_name(journal_path.name + ".lock")
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        try:
            f = self._open()
        except OSError:  # a lock file that cannot be opened (a folder, another owner's file): moved aside, once
            from companion.config.files import set_aside

            if set_aside(self.path, "unusable") is None:
                raise JournalError(f"cannot use the lock file {self.path}; check the owner and permissions of the "
                                   "journal's folder") from None
            try:
                f = self._open()
            except OSError as e:
                raise JournalError(f"cannot create the lock file {self.path}: {e.strerror}; check the owner and "
                                   "permissions of the journal's folder") from None
        try:
            fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                f.close()
                raise JournalError(f"cannot lock {self.path}: {e.strerror}") from None
            f.seek(0)
            holder = f.read().strip()
            f.close()
            raise JournalBusyError(f"the journal {self.path.with_suffix('')} is in use by {_describe(holder)}; "
                                   "stop it first (on the Pi: sudo systemctl stop companion) or pass another "
                                   "--journal") from None
        try:
            f.seek(0)
            f.truncate()
            os.write(f.fileno(), f"{os.getpid()}\n".encode())  # unbuffered: nothing left to fail at close
        except OSError:
            pass  # the lock holds without the note (a full disk); the second instance says "another process"
        self._file = f

    def _open(self) -> IO[str]:
        """Opened without waiting (a pipe there would block for ever), and only a plain file."""
        f = open(self.path, "a+", encoding="utf-8",
                 opener=lambda p, flags: os.open(p, flags | os.O_NONBLOCK | os.O_CLOEXEC, 0o644))
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            f.close()
            raise IsADirectoryError(0, "not a plain file")
        return f

    def release(self) -> None:
        if self._file is not None:
            try:
                self._file.close()  # closing drops the flock; the file stays (removing it would race a new holder)
            except OSError:
                pass  # a full disk: the descriptor is closed (and the lock dropped) all the same
            self._file = None


def _describe(holder: str) -> str:
    if not holder.isdigit():
        return "another process"
    pid = int(holder)
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        cmd = ""
    if cmd:
        words = cmd.split()
        cmd = " ".join([Path(words[0]).name] + words[1:])
        if len(cmd) > 60:
            cmd = cmd[:57] + "..."
        return f"process {pid} ({cmd})"
    return f"process {pid}"


__all__ = ["InstanceLock", "usable_path", "sqlite_error", "sqlite_text", "damaged_advice", "disk_full", "looks_like_a_journal"]
