"""The owner code: the trust root of a box with no screen to show a PIN on.

Eight characters of :data:`CODE_ALPHABET` (no 0/O/1/I), written ``ABCD-EFGH``; typed in any case, with or without
spaces and dashes. A phone that pairs with it is the host at once (``POST /api/pair {"owner": …}``). It never expires.

Where it is kept, first found wins:

* ``[web] owner_code`` in the config (the installer writes one there and prints it, with a QR code to stick on the
  box). A value that is not a code is set aside with one line (the log and the phones' notice); the box goes on as
  if none were set.
* ``<state dir>/owner-code`` (mode 0600, the state dir being the journal's folder): made at the first start of a box
  whose config has none. The log says where it is, never the code; ``companion owner-code`` prints it.

A new code is had by editing the config or deleting the file (then a restart), or from the host phone's "New owner
code" (:meth:`OwnerCode.renew`), which writes where the code came from; the old one stops working at once.
"""
from __future__ import annotations

import errno
import hmac
import logging
import os
import secrets
import stat
import threading
import time
from pathlib import Path
from typing import Callable

from companion.config.checks import OWNER_ALPHABET, OWNER_LENGTH, owner_code_of
from companion.errors import CompanionError

log = logging.getLogger(__name__)

CODE_ALPHABET = OWNER_ALPHABET  #: no 0/O or 1/I: read off a sticker, typed on a phone
FILE_NAME = "owner-code"
MAX_FILE = 256  #: bytes read of the file at most (a code and a newline are ten)
normalize = owner_code_of  #: ``"abcd efgh"`` → ``"ABCDEFGH"``; None when it is not a code


def shown(code: str) -> str:
    """The code as printed: ``ABCD-EFGH``."""
    return f"{code[:4]}-{code[4:]}"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(OWNER_LENGTH))


class OwnerCode:
    """The code now, where it is kept, and a way to make a new one. Thread-safe (the server's thread checks it)."""

    def __init__(self, code: str, *, config: Path | None = None, file: Path | None = None,
                 save: Callable[[Path, str], None] | None = None) -> None:
        self._code = code
        self.config = config  #: the config file it came from (renew writes there), or None
        self.file = file  #: the state folder's file it came from (renew writes there), or None
        self._save_config = save
        self._lock = threading.Lock()
        self.set_aside: list[str] = []  #: one line for the phones when the kept code could not be used

    @property
    def where(self) -> str:
        if self.config is not None:
            return f"[web] owner_code in {self.config}"
        return str(self.file) if self.file is not None else "memory only, until the restart"

    def matches(self, text: object) -> bool:
        code = normalize(text)
        with self._lock:
            return code is not None and hmac.compare_digest(code.encode(), self._code.encode())

    def current(self) -> str:
        with self._lock:
            return self._code

    def renew(self) -> str:
        """A new code, written where this one was kept; the old one stops working at once. Raises
        :class:`~companion.errors.CompanionError` (one line) when it cannot be written: then the old one stays."""
        code = new_code()
        if self.config is not None and self._save_config is not None:
            self._save_config(self.config, shown(code))
        elif self.file is not None:
            write_file(self.file, code)
        with self._lock:
            self._code = code
        log.warning("a new owner code was made on the host phone (kept in %s); the old one no longer pairs",
                    self.where)
        return code


def write_file(path: Path, code: str) -> None:
    """``code`` into ``path``, mode 0600, replaced atomically (a pulled plug leaves the old file or the new one)."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(shown(code) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise CompanionError(f"cannot write the owner code to {path}: {e.strerror or e}; check that folder's "
                             "permissions (the old code still works)") from None


def read_file(path: Path) -> str | None:
    """The code in ``path``; None when there is no file. Raises :class:`CompanionError` (one line) when it is there
    but cannot be used (not a regular file, unreadable, not a code) — never blocks on a FIFO or a device."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as e:
        raise CompanionError(f"{path}: {e.strerror or e}") from None
    if not stat.S_ISREG(st.st_mode):
        raise CompanionError(f"{path} is not a regular file")
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        with os.fdopen(fd, "rb") as f:
            raw = f.read(MAX_FILE + 1)
    except OSError as e:
        if e.errno in (errno.EACCES, errno.EPERM):
            raise CompanionError(f"cannot read {path}: {e.strerror}; run as the companion's user (or with sudo)") \
                from None
        raise CompanionError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        code = normalize(raw.decode("utf-8").strip()) if len(raw) <= MAX_FILE else None
    except UnicodeDecodeError:
        code = None
    if code is None:
        raise CompanionError(f"{path} holds no owner code")
    return code


def load_owner_code(configured: str | None, config_path: Path | None, state_dir: Path,
                    save: Callable[[Path, str], None] | None = None) -> OwnerCode:
    """The box's owner code: the config's (already checked: ``configured`` is normalized or None), else the state
    folder's file, made now if there is none. A damaged file is set aside (renamed, dated) with one line and a new
    code made; a folder that cannot be written gives a code that lasts until the restart, said in one line."""
    if configured is not None:
        return OwnerCode(configured, config=config_path, save=save)
    path = state_dir / FILE_NAME
    try:
        code = read_file(path)
    except CompanionError as e:
        aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(path, aside)
            log.error("%s: set aside as %s; a new owner code is made (companion owner-code prints it)", e, aside)
        except OSError:
            log.error("%s, and it cannot be set aside: a new owner code is used until the restart", e)
            return _said(OwnerCode(new_code()), f"{FILE_NAME} could not be read nor set aside: no owner code "
                                                "pairs until the state folder is fixed (see the log)")
        return _said(_made(path), f"{FILE_NAME} could not be read: set aside; a new owner code was made "
                                  "('companion owner-code' on the box prints it)")
    if code is not None:
        log.info("owner code: kept in %s (companion owner-code prints it)", path)
        return OwnerCode(code, file=path)
    return _made(path)


def _made(path: Path) -> OwnerCode:
    """A new code, kept in ``path``; one that cannot be written lasts until the restart (one line in the log)."""
    code = new_code()
    try:
        write_file(path, code)
    except CompanionError as e:
        log.error("%s; a new owner code is used until the restart", e)
        return OwnerCode(code)
    log.warning("owner code: made one and kept it in %s (companion owner-code prints it; pair the owner's phone "
                "with it)", path)
    return OwnerCode(code, file=path)


def _said(owner: OwnerCode, line: str) -> OwnerCode:
    owner.set_aside.append(line)
    return owner


__all__ = ["CODE_ALPHABET", "OwnerCode", "normalize", "shown", "new_code", "load_owner_code",
           "read_file", "write_file"]
