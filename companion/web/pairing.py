"""Pairing phones with the companion: a six-digit PIN from the OLED, browser sessions, CSRF tokens, seats and the host.

Shared by the main loop (which shows the PIN, grants seats and forgets phones from Settings) and the web server's
thread (which checks PINs and sessions), so every method takes the one lock. It holds no game state: only who may
write and which seat a phone holds.

* A PIN is valid while its screen is open (at most :data:`PIN_TTL`), for at most :data:`PIN_PHONES` new phones.
  Wrong tries lock out the address that made them (:data:`WRONG_PER_MINUTE`, then longer); only
  :data:`WRONG_PER_PIN` wrong tries in all void it, and the device then says so and offers a new one.
* A phone holds a seat (or host rights) only once the device confirmed it: :meth:`Pairing.request` asks,
  :meth:`Pairing.grant` (the main loop, on OK) gives. A phone never takes a seat by itself.
* Sessions are kept hashed (SHA-256 of the cookie) in ``web-pairings.json`` in the state folder, so a restart keeps
  phones and seats; they end with their game, after ``[web] pairing_hours``, or from Settings → Phones.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import secrets
import threading
import time
from collections import deque
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

log = logging.getLogger(__name__)

PIN_TTL = 300.0  #: seconds a PIN stays valid at most, even if its screen stays open
PIN_PHONES = 8  #: phones one showing of the PIN may pair
WRONG_PER_MINUTE = 5  #: wrong PINs one address may try per minute (then it waits; the PIN stays good for others)
WRONG_PER_PIN = 60  #: wrong PINs in all before the PIN is void (the device says so and offers a new one)
MAX_SESSIONS = 32  #: paired phones at most; the 33rd is refused (nobody is pushed out)
REQUEST_TTL = 60.0  #: seconds a seat request waits for the device's OK
HOST = 0  #: the "seat" of host rights in a request
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"


class PairError(Exception):
    """A refused pairing; ``status`` is the HTTP status, the message one plain line for the page."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class WebSession:
    key: str  #: SHA-256 of the cookie (the cookie itself is never stored)
    csrf: str
    code: str  #: four characters the phone and the device both show, so the table knows which phone asks
    created: float
    expires: float
    seat: int | None = None
    host: bool = False
    game: int | None = None  #: the game it was paired in (it ends with it); None: paired on the home menu
    pending: int | None = None  #: the seat (HOST: host rights) it asked the device for
    pending_until: float = 0.0


def _session(r: object) -> WebSession | None:
    """A paired phone as saved, or None when the row is not one (a damaged or edited file)."""
    if not isinstance(r, dict):
        return None
    try:
        s = WebSession(**{**r, "pending": None, "pending_until": 0.0})
    except TypeError:
        return None
    ok = (isinstance(s.key, str) and isinstance(s.csrf, str) and isinstance(s.code, str) and
          all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (s.created, s.expires)) and
          all(v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in (s.seat, s.game)) and
          isinstance(s.host, bool))
    return s if ok else None


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Pairing:
    def __init__(self, clock: Callable[[], float] = time.time, *, path: Path | None = None,
                 ttl_hours: float = 12.0) -> None:
        self.clock = clock
        self.path = path
        self.ttl = ttl_hours * 3600
        self._lock = threading.Lock()
        self._pin: str | None = None
        self._pin_until = 0.0
        self._pin_wrong = 0
        self._pin_phones = 0
        self.pin_voided = False  #: the PIN showing was voided by wrong tries: the device says so
        self._wrong: dict[str, deque[float]] = {}
        self._locked: dict[str, float] = {}
        self._sessions: dict[str, WebSession] = {}
        self._game: int | None = None
        self.set_aside: list[str] = []  #: one line when the saved pairings could not be used (moved aside)
        self._load()

    # ------------------------------------------------------------------ the PIN (main loop)
    def new_pin(self) -> str:
        with self._lock:
            self._pin = f"{secrets.randbelow(1_000_000):06d}"
            self._pin_until = self.clock() + PIN_TTL
            self._pin_wrong = self._pin_phones = 0
            self.pin_voided = False
            return self._pin

    def close_pin(self) -> None:
        """The PIN's screen closed: the PIN is no longer good."""
        with self._lock:
            self._pin = None

    def pin_valid(self) -> bool:
        with self._lock:
            return self._pin is not None and self.clock() < self._pin_until

    # ------------------------------------------------------------------ pairing (server thread)
    def pair(self, pin: str, client: str) -> tuple[WebSession, str]:
        """A new session and its cookie for a correct PIN; raises :class:`PairError` (403 wrong, 429 this address
        must wait, 410 no PIN, 503 full)."""
        with self._lock:
            now = self.clock()
            self._expire(now)
            if self._locked.get(client, 0.0) > now:
                raise PairError(f"Too many wrong PINs from this phone: wait {int(self._locked[client] - now) + 1} s",
                                429)
            if self._pin is None or now >= self._pin_until:
                raise PairError("No PIN is showing: open Pair a phone on the companion", 410)
            if not (isinstance(pin, str) and hmac.compare_digest(pin.strip().encode(), self._pin.encode())):
                tries = self._wrong.setdefault(client, deque())
                while tries and tries[0] <= now - 600:
                    tries.popleft()
                tries.append(now)
                recent = sum(1 for t in tries if t > now - 60)
                if recent >= WRONG_PER_MINUTE:  # this address waits; each further lockout twice as long
                    self._locked[client] = now + 60 * 2 ** max(0, len(tries) // WRONG_PER_MINUTE - 1)
                self._pin_wrong += 1
                if self._pin_wrong >= WRONG_PER_PIN:
                    self._pin = None
                    self.pin_voided = True
                    log.warning("the PIN was voided after %d wrong tries", self._pin_wrong)
                raise PairError("Wrong PIN: check the six digits on the companion's screen", 403)
            if len(self._sessions) >= MAX_SESSIONS:
                raise PairError(f"{MAX_SESSIONS} phones are paired: forget one in Settings → Phones", 503)
            if self._pin_phones >= PIN_PHONES:
                raise PairError("This PIN has paired its phones: open Pair a phone again", 410)
            self._pin_phones += 1
            token = secrets.token_urlsafe(24)
            codes = {s.code for s in self._sessions.values()}
            code = next(c for c in iter(lambda: "".join(secrets.choice(CODE_ALPHABET) for _ in range(4)), None)
                        if c not in codes)
            s = WebSession(_hash(token), secrets.token_urlsafe(24), code, now, now + self.ttl, game=self._game)
            self._sessions[s.key] = s
            self._save()
            return s, token

    def session(self, token: str | None) -> WebSession | None:
        if not token or not isinstance(token, str):
            return None
        with self._lock:
            s = self._sessions.get(_hash(token))
            if s is not None and s.expires <= self.clock():
                self._expire(self.clock())
                return None
            return s

    def check_csrf(self, token: str | None, csrf: str | None) -> WebSession | None:
        """The session, if ``csrf`` is its CSRF token."""
        s = self.session(token)
        if s is None or not csrf or not hmac.compare_digest(s.csrf.encode(), csrf.encode()):
            return None
        return s

    def unpair(self, key: str) -> None:
        with self._lock:
            if self._sessions.pop(key, None) is not None:
                self._save()

    def forget_all(self) -> int:
        with self._lock:
            n = len(self._sessions)
            self._sessions.clear()
            self._save()
            return n

    def phones(self) -> list[WebSession]:
        """Every paired phone, oldest first (for Settings → Phones)."""
        with self._lock:
            self._expire(self.clock())
            return sorted(self._sessions.values(), key=lambda s: s.created)

    # ------------------------------------------------------------------ seats
    def release(self, key: str) -> None:
        """This phone gives up its seat and host rights (no confirmation needed to give up)."""
        with self._lock:
            s = self._sessions[key]
            s.seat, s.host, s.pending = None, False, None
            self._save()

    def request(self, key: str, seat: int) -> WebSession:
        """This phone asks for ``seat`` (HOST: host rights); the device must confirm. One request at a time."""
        with self._lock:
            now = self.clock()
            s = self._sessions[key]
            if s.pending is not None and s.pending_until > now:
                raise PairError("This phone already asked: answer on the companion first", 409)
            if seat == HOST and any(o.host for o in self._sessions.values() if o is not s):
                raise PairError("This table has a host phone: forget it in Settings → Phones first", 409)
            s.pending, s.pending_until = seat, now + REQUEST_TTL
            return s

    def pending(self) -> list[WebSession]:
        """Phones waiting for the device's OK, the oldest request first."""
        with self._lock:
            now = self.clock()
            return sorted((s for s in self._sessions.values() if s.pending is not None and s.pending_until > now),
                          key=lambda s: s.pending_until)

    def grant(self, key: str, yes: bool, asked: int | None = None) -> str:
        """The device's answer to a phone's request (main loop); returns a line for the OLED's toast. ``asked`` is
        the request the device showed: if the phone has since asked for something else, nothing is given."""
        with self._lock:
            s = self._sessions.get(key)
            if s is None or s.pending is None:
                return "That phone is gone"
            if asked is not None and s.pending != asked:
                return f"Phone {s.code} asked again: answer its new request"
            seat, s.pending = s.pending, None
            if not yes:
                return f"Phone {s.code}: refused"
            for o in self._sessions.values():  # the device decides: whoever held it before loses it
                if seat == HOST:
                    o.host = False
                elif o.seat == seat:
                    o.seat = None
            if seat == HOST:
                s.host = True
            else:
                s.seat = seat
            self._save()
            return f"Phone {s.code}: " + ("host" if seat == HOST else f"seat {seat}")

    def holder(self, seat: int | None) -> WebSession | None:
        if seat is None:
            return None
        with self._lock:
            return next((s for s in self._sessions.values() if s.seat == seat), None)

    def seats(self) -> dict[int, str]:
        """Held seats and the code of the phone holding each."""
        with self._lock:
            return {s.seat: s.code for s in self._sessions.values() if s.seat is not None}

    # ------------------------------------------------------------------ lifetime
    def game_is(self, game: int | None) -> None:
        """The main loop's game now (its journal id; None on the home menu): phones paired in another game end."""
        with self._lock:
            self._game = game
            changed = False
            for k, s in list(self._sessions.items()):
                if s.game is None and game is not None:
                    s.game, changed = game, True
                elif s.game is not None and s.game != game:
                    del self._sessions[k]
                    changed = True
            if changed:
                self._save()

    def _expire(self, now: float) -> None:
        gone = [k for k, s in self._sessions.items() if s.expires <= now]
        for k in gone:
            del self._sessions[k]
        if gone:
            self._save()

    def _load(self) -> None:
        """The phones paired before a restart. A file that cannot be used (not a plain file, damaged, a row of the
        wrong shape) is moved aside with one line (:attr:`set_aside`): the phones pair again, the box starts."""
        if self.path is None:
            return
        from companion.config.files import read_small, set_aside

        try:
            rows = json.loads(read_small(self.path))
            sessions = [_session(r) for r in rows] if isinstance(rows, list) else None
            if sessions is None or None in sessions:
                raise ValueError("it is not a list of paired phones")
        except FileNotFoundError:
            return
        except (OSError, ValueError, RecursionError) as e:
            aside = set_aside(self.path)
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e).split(":")[0]
            line = f"the paired phones in {self.path.name} could not be read ({why}): " + \
                (f"moved aside as {aside.name}; pair the phones again" if aside else "pair the phones again")
            log.warning("%s", line)
            self.set_aside.append(line)
            return
        now = self.clock()
        for s in sessions:
            if s is not None and s.expires > now:
                self._sessions[s.key] = s

    def _save(self) -> None:
        if self.path is None:
            return
        tmp = self.path.with_suffix(".tmp")
        try:
            rows = [{k: v for k, v in asdict(s).items() if k not in ("pending", "pending_until")}
                    for s in self._sessions.values()]
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o600)  # a pipe: no wait
            with os.fdopen(fd, "w") as f:
                json.dump(rows, f)
            os.replace(tmp, self.path)
        except OSError as e:
            log.warning("paired phones not saved to %s (%s): a restart will forget them", self.path, e)


__all__ = ["Pairing", "PairError", "WebSession", "PIN_TTL", "PIN_PHONES", "WRONG_PER_MINUTE", "WRONG_PER_PIN",
           "MAX_SESSIONS", "HOST"]
