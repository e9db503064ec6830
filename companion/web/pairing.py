"""Pairing phones with the companion: a six-digit PIN from the OLED, browser sessions, CSRF tokens, seat claims.

Shared by the main loop (which makes a PIN when "Pair a phone" is opened) and the web server's thread (which checks
PINs and sessions), so every method takes the one lock. It holds no game state: only who may write and which seat a
phone has claimed.
"""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

PIN_TTL = 600.0  #: seconds a PIN stays valid after it is shown
WRONG_PER_MINUTE = 5  #: wrong PINs one address may try per minute
WRONG_PER_PIN = 20  #: wrong PINs in all before the PIN is void (open "Pair a phone" again for a new one)
MAX_SESSIONS = 32


class PairError(Exception):
    """A refused pairing; ``status`` is the HTTP status, the message one plain line for the page."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class WebSession:
    token: str
    csrf: str
    seat: int | None = None
    created: float = field(default_factory=time.monotonic)


class Pairing:
    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._pin: str | None = None
        self._pin_until = 0.0
        self._pin_wrong = 0
        self._wrong: dict[str, deque[float]] = {}
        self._sessions: dict[str, WebSession] = {}

    # ------------------------------------------------------------------ the PIN (main loop)
    def new_pin(self) -> str:
        with self._lock:
            self._pin = f"{secrets.randbelow(1_000_000):06d}"
            self._pin_until = self.clock() + PIN_TTL
            self._pin_wrong = 0
            return self._pin

    def pin_valid(self) -> bool:
        with self._lock:
            return self._pin is not None and self.clock() < self._pin_until

    # ------------------------------------------------------------------ pairing (server thread)
    def pair(self, pin: str, client: str) -> WebSession:
        """A new session for a correct PIN; raises :class:`PairError` (403 wrong, 429 too many tries, 410 none)."""
        with self._lock:
            now = self.clock()
            tries = self._wrong.setdefault(client, deque())
            while tries and tries[0] <= now - 60:
                tries.popleft()
            if len(tries) >= WRONG_PER_MINUTE:
                raise PairError("Too many wrong PINs: wait a minute, then try again", 429)
            if self._pin is None or now >= self._pin_until:
                raise PairError("No PIN is showing: open Pair a phone on the companion", 410)
            if not (isinstance(pin, str) and hmac.compare_digest(pin.strip().encode(), self._pin.encode())):
                tries.append(now)
                self._pin_wrong += 1
                if self._pin_wrong >= WRONG_PER_PIN:
                    self._pin = None
                raise PairError("Wrong PIN: check the six digits on the companion's screen", 403)
            if len(self._sessions) >= MAX_SESSIONS:
                oldest = min(self._sessions.values(), key=lambda s: s.created)
                del self._sessions[oldest.token]
            s = WebSession(secrets.token_urlsafe(24), secrets.token_urlsafe(24), created=now)
            self._sessions[s.token] = s
            return s

    def session(self, token: str | None) -> WebSession | None:
        if not token:
            return None
        with self._lock:
            return self._sessions.get(token)

    def check_csrf(self, token: str | None, csrf: str | None) -> WebSession | None:
        """The session, if ``csrf`` is its CSRF token."""
        s = self.session(token)
        if s is None or not csrf or not hmac.compare_digest(s.csrf.encode(), csrf.encode()):
            return None
        return s

    def unpair(self, token: str) -> None:
        with self._lock:
            self._sessions.pop(token, None)

    # ------------------------------------------------------------------ seats
    def claim(self, token: str, seat: int | None) -> None:
        """This phone holds ``seat`` (None: release). A seat held by another phone must be released there first."""
        with self._lock:
            me = self._sessions[token]
            if seat is not None:
                holder = next((s for s in self._sessions.values() if s.seat == seat and s.token != token), None)
                if holder is not None:
                    raise PairError(f"Seat {seat} is held by another phone: release it there first", 409)
            me.seat = seat

    def holder(self, seat: int | None) -> str | None:
        """The token of the phone holding ``seat``."""
        if seat is None:
            return None
        with self._lock:
            return next((s.token for s in self._sessions.values() if s.seat == seat), None)

    def seats(self) -> dict[int, bool]:
        with self._lock:
            return {s.seat: True for s in self._sessions.values() if s.seat is not None}


__all__ = ["Pairing", "PairError", "WebSession", "PIN_TTL", "WRONG_PER_MINUTE", "WRONG_PER_PIN"]
