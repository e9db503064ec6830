"""The small files the box reads at start (the config, the pairings, the bans, the owner code, the snapshot key, a
game's TOML): read without ever blocking, checked to be plain files of a sane size, and set aside with one line when
they cannot be used — never a reason to stop the box (issue #31).

* :func:`read_small` opens with ``O_NONBLOCK`` and looks at what it opened before reading a byte: a FIFO would block
  the first read for ever, ``/dev/zero`` would never end, a folder cannot be read; each is refused in one line.
* :func:`set_aside` renames a file that cannot be used to ``<name>.unusable-<date>-<time>`` beside it (a folder, a
  FIFO or a device too), so the next start does not meet it again and nothing in it is lost.
* :func:`file_path_problem` says why a path cannot name a file (``/``, ``""``, ``.``, a folder): the config's
  ``[journal] path`` and every ``--journal`` are checked with it.

Imports only the standard library (and is imported by the config, the journal, the web view and the games).
"""
from __future__ import annotations

import errno
import logging
import os
import stat
import time
from pathlib import Path

log = logging.getLogger(__name__)

SMALL = 1 << 20  #: bytes a state file or config may hold (the largest real one is a few kilobytes)


class Unusable(OSError):
    """A file that cannot be read as one: ``str(e)`` is the one-line reason (no path: the caller names the file)."""

    def __init__(self, reason: str, errno_: int = 0) -> None:
        super().__init__(errno_, reason)
        self.reason = reason

    def __str__(self) -> str:
        return self.reason


def kind(mode: int) -> str:
    """What a file that is not a regular one is, in a word a user knows."""
    for test, word in ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a pipe (FIFO)"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISLNK, "a symbolic link")):
        if test(mode):
            return word
    return "not a regular file"


def read_small(path: Path | str, limit: int = SMALL) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; raises :class:`FileNotFoundError` when there is none
    and :class:`Unusable` (one line) for anything else that cannot be read. Never blocks."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOCTTY)
    except FileNotFoundError:
        raise
    except OSError as e:
        if e.errno == errno.ENOENT:
            raise FileNotFoundError(e.errno, e.strerror) from None
        if e.errno == errno.EISDIR:
            raise Unusable("it is a folder, not a file", e.errno) from None
        raise Unusable(f"it cannot be opened ({e.strerror or e})", e.errno or 0) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unusable(f"it is {kind(st.st_mode)}, not a file")
        if st.st_size > limit:
            raise Unusable(f"it is too large ({st.st_size:,} bytes; at most {limit:,})")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            total += len(chunk)
            if total > limit:  # it grew while being read
                raise Unusable(f"it is too large (over {limit:,} bytes)")
            chunks.append(chunk)
        return b"".join(chunks)
    except Unusable:
        raise
    except OSError as e:
        raise Unusable(f"it cannot be read ({e.strerror or e})", e.errno or 0) from None
    finally:
        os.close(fd)


def dated(path: Path, label: str, *, keep_suffix: bool = False) -> Path:
    """A free name beside ``path`` saying what it was and when: ``<name>.<label>-<date>-<time>``, or with
    ``keep_suffix`` ``<stem>.<label>-<date>-<time><suffix>`` (a journal set aside is still a ``.sqlite``)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    head, tail = (path.stem, path.suffix) if keep_suffix else (path.name, "")
    aside = path.with_name(f"{head}.{label}-{stamp}{tail}")
    i = 1
    while os.path.lexists(aside):
        aside = path.with_name(f"{head}.{label}-{stamp}-{i}{tail}")
        i += 1
    return aside


def set_aside(path: Path, label: str = "unusable") -> Path | None:
    """Rename ``path`` (whatever it is) to ``<name>.<label>-<stamp>`` beside it; the new path, or None when it cannot
    be moved (logged: the caller goes on without the file all the same)."""
    aside = dated(path, label)
    try:
        os.rename(path, aside)
    except OSError as e:
        log.warning("cannot move %s aside (%s); move it away by hand", path, e.strerror or e)
        return None
    return aside


def is_regular_or_missing(path: Path) -> str | None:
    """None when ``path`` is a regular file (or a symbolic link to one) or nothing; else what it is."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a broken symbolic link" if os.path.islink(path) else None
    except OSError as e:
        if e.errno in (errno.ENOTDIR, errno.ELOOP, errno.ENAMETOOLONG):
            return f"unreachable ({e.strerror})"
        return None  # cannot look (permissions): whoever opens it says why
    return None if stat.S_ISREG(mode) else kind(mode)


def file_path_problem(text: str | Path) -> str | None:
    """Why ``text`` cannot name a file to keep (a journal): empty, a path with no file name (``/``, ``.``, ``..``,
    ending in ``/``), an existing folder or a name too long for the file system; None when it can."""
    raw = str(text)
    if not raw.strip():
        return "is empty; give a file path such as /var/lib/companion/journal.sqlite"
    if raw.endswith(("/", os.sep)) or Path(raw).name in ("", ".", "..") or raw.rstrip("/").endswith(("/.", "/..")):
        return "names a folder, not a file; give a file path such as /var/lib/companion/journal.sqlite"
    p = Path(raw).expanduser()
    try:
        folder = stat.S_ISDIR(p.stat().st_mode)
    except (OSError, ValueError) as e:  # (ValueError: a NUL byte in it, said where it is opened)
        if getattr(e, "errno", None) == errno.ENAMETOOLONG:
            return "is too long (a name over 255 bytes, or a path over 4,096); give a shorter file path"
        folder = False  # no file there yet, or one that cannot be looked at: opening it says why
    if folder:
        return "is a folder, not a file; give the path of a file in it, e.g. " + str(p / "journal.sqlite")
    return None


__all__ = ["SMALL", "Unusable", "read_small", "dated", "set_aside", "file_path_problem", "is_regular_or_missing", "kind"]
