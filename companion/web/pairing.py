"""Pairing phones with the companion: six-digit PINs, the owner code, browser sessions, CSRF tokens, seats and the host.

Shared by the main loop (which shows the PIN, grants seats and forgets phones from its menus) and the web server's
thread (which checks PINs and sessions, and carries out the host phone's requests), so every method takes the one
lock. It holds no game state: only who may write and which seat a phone holds.

* A PIN lives :data:`PIN_TTL` at most, pairs :data:`PIN_PHONES` phones at most, one per place that shows one (the
  device's Pair a phone screen while open, the host phone's, the headless log line); typed when none is showing it
  gets the wrong PIN's answer, so nothing public says when a PIN is up.
* The owner code (:mod:`.owner`) pairs a phone as the host at once; the host before it loses host rights.
* Wrong tries cost the guesser only (:mod:`.bans`): the address that made them is banned for a while. No number of
  wrong tries voids a PIN or the owner code.
* A phone holds a seat (or host rights) only once the table confirmed it: :meth:`Pairing.request` asks; the device's
  OK or the host phone (:meth:`Pairing.grant`) gives. A phone never takes a seat by itself.
* Sessions are kept hashed (SHA-256 of the cookie) in the state folder's ``web-pairings.json`` (a restart keeps
  phones and seats); they end with their game, after ``[web] pairing_hours``, or when forgotten.
"""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import math
import os
import secrets
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from companion.web.bans import WRONG_PER_MINUTE, Bans
from companion.web.owner import CODE_ALPHABET

if TYPE_CHECKING:
    from companion.web.owner import OwnerCode

log = logging.getLogger(__name__)

PIN_TTL = 300.0  #: seconds a PIN stays valid at most, even if its screen stays open
PIN_PHONES = 8  #: phones one PIN may pair
MAX_SESSIONS = 32  #: paired phones at most; the 33rd is refused (nobody is pushed out, but for the owner's phone)
REQUEST_TTL = 300.0  #: seconds a seat request waits for the table's answer (the host phone may be across the room)
GRACE_S = 1.0  #: a yes this soon after a request appears was meant for what was there before: "Read the request first"
HOST = 0  #: the "seat" of host rights in a request
PIN_PLACES = ("device", "host", "log")  #: who shows a PIN: the device's screen, the host phone, the headless log
WRONG_PIN = "Wrong PIN: type the six digits the companion's screen or the host phone shows now"
WRONG_OWNER = "Wrong owner code: check the code printed on the box"


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
    pending: int | None = None  #: the seat (HOST: host rights) it asked the table for
    pending_until: float = 0.0
    asked_at: float = 0.0  #: when it asked (the host phone's yes within GRACE_S of it says "Read the request first")


@dataclass
class _Pin:
    pin: str
    until: float
    left: int = PIN_PHONES  #: phones it may still pair


def _session(r: object) -> WebSession | None:
    """A paired phone as saved, or None when the row is not one (a damaged or edited file)."""
    if not isinstance(r, dict):
        return None
    try:
        s = WebSession(**{**r, "pending": None, "pending_until": 0.0, "asked_at": 0.0})
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
                 ttl_hours: float = 12.0, bans: Bans | None = None, owner: "OwnerCode | None" = None) -> None:
        self.clock = clock
        self.path = path
        self.ttl = ttl_hours * 3600
        self.bans = bans or Bans(None, clock)
        self.owner = owner
        self._lock = threading.Lock()
        self._pins: dict[str, _Pin] = {}  #: the PIN each place (PIN_PLACES) shows
        self._sessions: dict[str, WebSession] = {}
        self._game: int | None = None
        self.set_aside: list[str] = []  #: one line when the saved pairings could not be used (moved aside)
        self._load()

    # ------------------------------------------------------------------ PINs
    def new_pin(self, place: str = "device") -> str:
        """A fresh PIN for ``place`` (:data:`PIN_PLACES`); that place's last one is gone, the others' stay."""
        with self._lock:
            pin = f"{secrets.randbelow(1_000_000):06d}"
            self._pins[place] = _Pin(pin, self.clock() + PIN_TTL)
            return pin

    def close_pin(self, place: str = "device") -> None:
        """The PIN's screen closed: its PIN is no longer good."""
        with self._lock:
            self._pins.pop(place, None)

    def pin_valid(self, place: str = "device") -> bool:
        with self._lock:
            p = self._pins.get(place)
            return p is not None and self.clock() < p.until

    # ------------------------------------------------------------------ pairing (server thread)
    def pair(self, pin: str, client: str) -> tuple[WebSession, str]:
        """A new session and its cookie for a PIN showing now; raises :class:`PairError` (403 wrong, 429 this address
        must wait, 410 that PIN paired its phones, 503 full). No PIN showing is a wrong PIN, said the same way."""
        self.not_banned(client)
        typed = pin.strip().encode() if isinstance(pin, str) else b""
        with self._lock:
            now = self.clock()
            self._expire(now)
            hit = None
            for p in self._pins.values():  # each compared in constant time, whichever matches
                if hmac.compare_digest(typed, p.pin.encode()) and now < p.until:
                    hit = p
            if hit is not None:
                out = self._pin_session(hit, now)
        if hit is None:
            raise self._wrong(client, WRONG_PIN)  # counted outside the lock the loop's thread shares
        self.bans.good(client)
        return out

    def _pin_session(self, hit: _Pin, now: float) -> tuple[WebSession, str]:
        """(Under the lock.) A new session for a PIN that matched."""
        if hit.left <= 0:
            raise PairError("This PIN has paired its phones: show a new one (Pair a phone)", 410)
        if len(self._sessions) >= MAX_SESSIONS:
            raise PairError(f"{MAX_SESSIONS} phones are paired: the host phone or the companion's Phones menu "
                            "forgets one", 503)
        hit.left -= 1
        return self._new_session(now)

    def pair_owner(self, code: str, client: str, token: str | None = None) -> tuple[WebSession, str | None]:
        """A new session that is the host at once, for the owner code; the host before it loses host rights. A phone
        already paired (its cookie ``token``) keeps its session and seat and becomes the host (no new cookie: None).
        Raises :class:`PairError` (403 wrong code, 429 this address must wait). The PIN the host before it showed
        stops (the owner takes the table back from a lost or hostile host phone: its PIN pairs no more phones)."""
        self.not_banned(client)
        if self.owner is None or not self.owner.matches(code):  # the code has its own lock
            raise self._wrong(client, WRONG_OWNER)
        with self._lock:
            now = self.clock()
            self._expire(now)
            mine = self._sessions.get(_hash(token)) if isinstance(token, str) and token else None
            if mine is None or not mine.host:
                self._pins.pop("host", None)
            if mine is not None:
                for o in self._sessions.values():
                    o.host = o is mine
                self._save()
                out: tuple[WebSession, str | None] = (mine, None)
            else:
                out = self._owner_session(now)
        self.bans.good(client)
        return out

    def _owner_session(self, now: float) -> tuple[WebSession, str]:
        """(Under the lock.) A new session, the host; when 32 are paired the oldest that holds nothing makes room."""
        if len(self._sessions) >= MAX_SESSIONS:  # the owner is never locked out: the oldest idle phone goes
            idle = [s for s in self._sessions.values() if s.seat is None and not s.host]
            if not idle:
                raise PairError(f"{MAX_SESSIONS} phones hold seats: forget one first", 503)
            del self._sessions[min(idle, key=lambda s: s.created).key]
        for o in self._sessions.values():
            o.host = False
        s, token = self._new_session(now)
        s.host = True
        self._save()
        return s, token

    def not_banned(self, client: str) -> None:
        """Raises :class:`PairError` 429 with the wait while ``client`` is banned for wrong tries."""
        wait = self.bans.wait_s(client)
        if wait > 0:
            raise PairError(f"Too many wrong codes from this address: wait {math.ceil(wait)} s", 429)

    def _wrong(self, client: str, message: str) -> PairError:
        """A wrong try: it costs ``client`` only (counted toward its ban); the error to raise."""
        self.bans.wrong(client)
        return PairError(message, 403)

    def _new_session(self, now: float) -> tuple[WebSession, str]:
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
        """Every paired phone, oldest first (the Phones menu, the host phone's list)."""
        with self._lock:
            self._expire(self.clock())
            return sorted(self._sessions.values(), key=lambda s: s.created)

    def by_code(self, code: object) -> WebSession | None:
        """The paired phone showing ``code`` (its four letters, any case)."""
        if not isinstance(code, str):
            return None
        with self._lock:
            return next((s for s in self._sessions.values() if s.code == code.strip().upper()), None)

    def make_host(self, key: str) -> str:
        """Host rights to that phone (the device's Phones menu, the host phone): whoever held them loses them."""
        with self._lock:
            s = self._sessions.get(key)
            if s is None:
                return "That phone is gone"
            for o in self._sessions.values():
                o.host = o is s
            if s.pending == HOST:
                s.pending = None
            self._save()
            return f"Phone {s.code}: host"

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
                raise PairError("This phone already asked: wait for the table's answer", 409)
            s.pending, s.pending_until, s.asked_at = seat, now + REQUEST_TTL, now
            return s

    def pending(self) -> list[WebSession]:
        """Phones waiting for the table's answer, the oldest request first."""
        with self._lock:
            now = self.clock()
            return sorted((s for s in self._sessions.values() if s.pending is not None and s.pending_until > now),
                          key=lambda s: s.pending_until)

    def grant(self, key: str, yes: bool, asked: int | None = None, *, grace: bool = False) -> str:
        """The table's answer to a phone's request (the device's OK, or the host phone); returns one line for the
        screen. ``asked`` is the request the table saw: if the phone has since asked for something else, nothing is
        given. With ``grace`` (the host phone), a yes within :data:`GRACE_S` of the request is refused
        (:class:`PairError` 409 "Read the request first") and the request stays, and an answer that gives nothing (the
        phone is gone, asks for nothing now, or asked again) is a :class:`PairError` 409 too, never a success."""
        with self._lock:
            s = self._sessions.get(key)
            if s is None or s.pending is None or (asked is not None and s.pending != asked):
                nothing = "That phone is gone" if s is None else f"Phone {s.code} asks for nothing now" \
                    if s.pending is None else f"Phone {s.code} asked again: answer its new request"
                if grace:
                    raise PairError(nothing, 409)
                return nothing
            if grace and yes and self.clock() - s.asked_at < GRACE_S:
                raise PairError("Read the request first", 409)
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
            rows = [{k: v for k, v in asdict(s).items() if k not in ("pending", "pending_until", "asked_at")}
                    for s in self._sessions.values()]
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK, 0o600)  # a pipe: no wait
            with os.fdopen(fd, "w") as f:
                json.dump(rows, f)
            os.replace(tmp, self.path)
        except OSError as e:
            log.warning("paired phones not saved to %s (%s): a restart will forget them", self.path, e)


__all__ = ["Pairing", "PairError", "WebSession", "PIN_TTL", "PIN_PHONES", "WRONG_PER_MINUTE", "MAX_SESSIONS",
           "HOST", "GRACE_S", "CODE_ALPHABET", "PIN_PLACES"]
