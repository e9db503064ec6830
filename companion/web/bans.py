"""Wrong tries cost the guesser: per-address bans that double, kept across restarts.

The idea is Home Assistant's ``http/ban.py`` (failed logins counted per remote address, a ban kept in a file), with
a ban that ends: an address that sends :data:`WRONG_PER_MINUTE` wrong PINs or owner codes within a minute waits
:data:`FIRST_BAN_S`, and each further ban of that address lasts twice as long (at most :data:`LONGEST_BAN_S`). Its
strikes fade after :data:`FORGIVE_S` without a ban. Nothing here touches a PIN or the owner code: no number of wrong
tries ever voids them for anyone else.

Bans (and the tries still counting) live in ``<state dir>/web-bans.json``. A file that cannot be read is set aside
(renamed, dated) with one line and the box starts with no bans; one that cannot be written is said once in the log.
"""
from __future__ import annotations

import json
import logging
import os
import stat
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger(__name__)

WRONG_PER_MINUTE = 5  #: wrong tries one address may make within a minute; the next one starts a ban
FIRST_BAN_S = 60.0  #: the first ban; each further one twice as long
LONGEST_BAN_S = 24 * 3600.0
FORGIVE_S = 24 * 3600.0  #: an address with no ban for this long starts again from the first ban
MAX_ADDRESSES = 4096  #: addresses remembered at most (the oldest unbanned are forgotten first)
MAX_FILE = 1 << 20  #: bytes of web-bans.json read at most


@dataclass
class _Record:
    tries: list[float] = field(default_factory=list)  #: wrong tries within the last minute
    strikes: int = 0  #: bans so far
    until: float = 0.0  #: banned until (wall-clock seconds)
    last: float = 0.0  #: the last wrong try or ban


class Bans:
    """Thread-safe (the server's thread asks; nothing else does)."""

    def __init__(self, path: Path | None = None, clock: Callable[[], float] = time.time) -> None:
        self.path, self.clock = path, clock
        self._lock = threading.Lock()
        self._by: dict[str, _Record] = {}
        self._save_failed = False
        self.set_aside: list[str] = []  #: one line for the phones when the saved bans could not be used
        self._load()

    def wait_s(self, address: str) -> float:
        """Seconds ``address`` must still wait (0: it may try)."""
        with self._lock:
            r = self._by.get(address)  # a clock set back (a Pi without a clock chip) never makes a ban longer
            return min(LONGEST_BAN_S, max(0.0, r.until - self.clock())) if r is not None else 0.0

    def wrong(self, address: str) -> float:
        """A wrong try from ``address``; returns the ban it now has in seconds (0: none yet)."""
        with self._lock:
            now = self.clock()
            r = self._by.get(address)
            if r is None:
                r = self._by[address] = _Record()
                self._trim()
            if r.strikes and now - max(r.last, r.until) > FORGIVE_S:
                r.strikes = 0
            r.tries = [t for t in r.tries if now - 60 < t <= now] + [now]
            r.last = now
            ban = 0.0
            if len(r.tries) >= WRONG_PER_MINUTE:
                ban = min(LONGEST_BAN_S, FIRST_BAN_S * 2 ** r.strikes)
                r.strikes += 1
                r.until, r.tries = now + ban, []
                log.warning("web: %s is banned for %d s after %d wrong codes in a minute (ban %d)", address, ban,
                            WRONG_PER_MINUTE, r.strikes)
            self._save()
            return ban

    def good(self, address: str) -> None:
        """``address`` paired: its tries so far are forgiven (its past bans still count if it guesses again)."""
        with self._lock:
            r = self._by.get(address)
            if r is not None and r.tries:
                r.tries = []
                self._save()

    def banned(self) -> dict[str, float]:
        """Addresses banned now, and until when."""
        with self._lock:
            now = self.clock()
            return {a: r.until for a, r in self._by.items() if r.until > now}

    # ------------------------------------------------------------------ the file
    def _trim(self) -> None:
        if len(self._by) <= MAX_ADDRESSES:
            return
        now = self.clock()
        free = sorted((r.last, a) for a, r in self._by.items() if r.until <= now)
        for _last, a in free[:len(self._by) - MAX_ADDRESSES]:
            del self._by[a]

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return
        except OSError as e:
            log.error("web bans not read from %s (%s): the box starts with none", self.path, e.strerror or e)
            return
        try:
            if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE:
                raise ValueError("not a small regular file")
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as f:
                rows = json.loads(f.read(MAX_FILE).decode("utf-8"))
            if not isinstance(rows, dict):
                raise ValueError("not a JSON object")
            for address, row in list(rows.items())[:MAX_ADDRESSES]:
                r = _record(row)
                if r is not None and isinstance(address, str) and 0 < len(address) <= 64:
                    self._by[address] = r
        except (OSError, ValueError, UnicodeDecodeError, RecursionError) as e:
            self._by.clear()
            aside = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
            try:
                os.replace(self.path, aside)
                where = f"set aside as {aside}"
            except OSError:
                where = "left as it is"
            log.error("web bans in %s could not be read (%s): %s; the box starts with none", self.path,
                      " ".join(str(e).split())[:120], where)
            self.set_aside.append(f"{self.path.name} could not be read: {where.split(' as ')[0]}; no address is "
                                  "banned now")

    def _save(self) -> None:
        if self.path is None:
            return
        now = self.clock()
        rows = {a: {"tries": r.tries, "strikes": r.strikes, "until": r.until, "last": r.last}
                for a, r in self._by.items() if r.tries or r.until > now or r.strikes}
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o600)
            with os.fdopen(fd, "w") as f:
                json.dump(rows, f, separators=(",", ":"))
            os.replace(tmp, self.path)
            self._save_failed = False
        except OSError as e:
            if not self._save_failed:
                log.warning("web bans not saved to %s (%s): a restart forgets them", self.path, e.strerror or e)
            self._save_failed = True


def _record(row: Any) -> _Record | None:
    """One address's row from the file, or None when it is not one (that row alone is dropped)."""
    if not isinstance(row, dict):
        return None
    try:
        tries = [float(t) for t in row.get("tries", [])][-WRONG_PER_MINUTE * 2:]
        strikes = int(row.get("strikes", 0))
        until, last = float(row.get("until", 0.0)), float(row.get("last", 0.0))
    except (TypeError, ValueError, OverflowError):
        return None
    if not 0 <= strikes <= 64 or any(x != x for x in (until, last, *tries)):  # NaN
        return None
    return _Record(tries, strikes, until, last)


__all__ = ["Bans", "WRONG_PER_MINUTE", "FIRST_BAN_S", "LONGEST_BAN_S"]
