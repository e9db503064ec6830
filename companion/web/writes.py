"""The web server's writing routes: pairing, seats, answers (part of :class:`companion.web.server.WebServer`).

Each refusal is one plain line to the phone that asked. A phone answers only the prompts that are its own (see
:func:`not_yours`); a seat or host rights are asked for here and given on the device.
"""
from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any, Callable

from aiohttp import web

from companion.web.guard import HEADER_S, RateLimit, allowed_host
from companion.web.pairing import HOST, WebSession
from companion.web.snapshot import Snapshot

if TYPE_CHECKING:
    from companion.web.hub import Hub, Outcome

log = logging.getLogger(__name__)

COOKIE = "companion_session"
ANSWER_TIMEOUT_S = 5.0
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


_Refused = Refused


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=SECURITY_HEADERS)


class Writes:
    """The POST routes; the server provides the hub, the host names and the rate limits."""

    hub: "Hub"
    limits: dict[str, RateLimit]

    def _names(self) -> set[str]:
        raise NotImplementedError

    def _wake_all(self) -> None:
        raise NotImplementedError

    # --------------------------------------------------------------- writing
    async def _body(self, request: web.Request) -> dict[str, Any]:
        if request.content_type != "application/json":
            raise _Refused(415, "send JSON (Content-Type: application/json)")
        origin = request.headers.get("Origin")
        if origin is not None and (origin != f"{request.scheme}://{request.host}"
                                   or not allowed_host(origin.split("://", 1)[-1], self._names())):
            raise _Refused(403, "this request came from another site")
        try:
            body = await asyncio.wait_for(request.json(), HEADER_S)
        except asyncio.TimeoutError:
            raise _Refused(408, "the request body came too slowly") from None
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: [[[[…]]]] nested too deep
            raise _Refused(400, "the request body is not valid JSON") from None
        if not isinstance(body, dict):
            raise _Refused(400, "send a JSON object")
        return body

    def _writer(self, request: web.Request) -> WebSession:
        token = request.cookies.get(COOKIE)
        if self.hub.pairing.session(token) is None:
            raise _Refused(401, "Pair this phone first: open Pair a phone on the companion for the PIN")
        s = self.hub.pairing.check_csrf(token, request.headers.get("X-CSRF-Token"))
        if s is None:
            raise _Refused(403, "missing or wrong CSRF token: reload the page")
        return s

    def _limit(self, request: web.Request, s: WebSession | None, what: str = "session") -> None:
        if not self.limits["address"].take(request.remote or "?") or (
                s is not None and not self.limits[what].take(s.key)):
            raise _Refused(429, "Too many requests from this phone: wait a moment")

    async def pair(self, request: web.Request) -> web.Response:
        """``{"pin": "123456"}``: a phone paired; ``{"owner": "ABCD-EFGH"}``: paired and the host at once."""
        self._limit(request, None)
        body = await self._body(request)
        client = request.remote or "?"
        token: str | None
        if "owner" in body:
            s, token = self.hub.pairing.pair_owner(body["owner"] if isinstance(body["owner"], str) else "", client,
                                                   request.cookies.get(COOKIE))
            log.warning("phone %s paired with the owner code from %s: it is the host", s.code, client)
            self.hub.tell("request")  # the device drops a host request the owner just settled
            self._wake_all()  # the host before it sees it is no longer the host
        else:
            pin = body.get("pin")
            s, token = self.hub.pairing.pair(pin if isinstance(pin, str) else "", client)
            log.info("phone %s paired from %s", s.code, client)
        resp = web.json_response({"csrf": s.csrf, "code": s.code, "host": s.host}, headers=SECURITY_HEADERS)
        if token is not None:  # None: a phone already paired, now the host; its cookie stays
            resp.set_cookie(COOKIE, token, httponly=True, samesite="Strict", path="/",
                            max_age=int(s.expires - s.created))
        return resp

    async def unpair(self, request: web.Request) -> web.Response:
        await self._body(request)
        s = self._writer(request)
        self.hub.pairing.unpair(s.key)
        self._wake_all()
        resp = web.json_response({"ok": True}, headers=SECURITY_HEADERS)
        resp.del_cookie(COOKIE, path="/")
        return resp

    async def claim(self, request: web.Request) -> web.Response:
        """Give up a seat at once (null), or ask the device for one (a seat number or "host"): the table presses OK
        there. A phone never takes a seat by itself, so it cannot hop from seat to seat."""
        body = await self._body(request)
        s = self._writer(request)
        seat = body.get("seat")
        if seat is None:
            self.hub.pairing.release(s.key)
            self._wake_all()
            return web.json_response({"ok": True, "seat": None}, headers=SECURITY_HEADERS)
        players = _players(self.hub.latest)
        if seat == "host":
            seat = HOST
        elif isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= players:
            raise _Refused(400, f"seat must be a number from 1 to {players}, \"host\", or null to give it up"
                           if players else "no game is running: ask for a seat once it has players")
        if (seat == HOST and s.host) or (seat != HOST and s.seat == seat):
            return web.json_response({"ok": True, "seat": body.get("seat")}, headers=SECURITY_HEADERS)
        self._limit(request, s, "claim")
        self.hub.pairing.request(s.key, seat)
        self.hub.tell("request")
        self._wake_all()
        who = "Press OK on the companion or ask the host phone" if self.hub.panel else "Ask the host phone"
        return web.json_response({"ok": True, "pending": body.get("seat"), "code": s.code,
                                  "message": f"{who} to confirm (this phone is {s.code})"},
                                 status=202, headers=SECURITY_HEADERS)

    async def answer(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        s = self._writer(request)
        self._limit(request, s)
        snap = self.hub.latest
        seq = body.get("seq")
        if "value" not in body:
            raise _Refused(400, 'send {"seq": N, "value": ...}')
        if snap.prompt_seq is None or snap.prompt_kind == "random":
            raise _Refused(409, "There is nothing to answer right now")
        why = not_yours(s, snap, self.hub.panel)
        if why:  # before the question's number is compared: a phone learns nothing of a prompt that is not its own
            raise _Refused(403, why)
        if type(seq) is not int:  # 1.0 would pass ==, be journaled as "answer 1.0 …" and stop the game's replay
            raise _Refused(400, 'send {"seq": N, "value": ...} with N the question\'s number (a whole number)')
        if seq != snap.prompt_seq:
            raise _Refused(409, "The question changed; answer the new one")
        value = body["value"]
        if snap.prompt_kind == "dice" and isinstance(value, dict):  # journaled as sent: only what the roll uses
            if value.get("source") == "rng":
                value = {"source": "rng"}  # the companion rolls: values sent along are not used, nor kept
            elif set(value) - {"source", "values"}:
                raise _Refused(400, 'send {"source": "rng"} or {"source": "typed", "values": [...]}')
        source = f"web:seat{s.seat}" if s.seat is not None and s.seat == snap.prompt_player else (
            "web:host" if s.host else "web")
        return await self._outcome(lambda done: self.hub.submit(value, seq, source, done),
                                   "The companion did not answer in time; look at its screen")

    async def _outcome(self, submit: Callable[[Outcome], str], late: str) -> web.Response:
        """Hand something to the loop (``submit`` puts it on the queue with a callback, returning its ref) and wait
        for its outcome: 200 ``{"ok": true, "message"}`` taken, 409 refused, 504 ``late`` when the loop is slow."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[tuple[bool, str]] = loop.create_future()

        def settle(ok: bool, message: str) -> None:
            if not done.done():
                done.set_result((ok, message))

        def finish(ok: bool, message: str) -> None:  # on the main loop's thread
            loop.call_soon_threadsafe(settle, ok, message)

        ref = submit(finish)
        try:
            ok, message = await asyncio.wait_for(done, ANSWER_TIMEOUT_S)
        except asyncio.TimeoutError:
            self.hub.forget(ref)
            return _error(504, late)
        return web.json_response({"ok": ok, "message": message}, status=200 if ok else 409, headers=SECURITY_HEADERS)


def not_yours(s: WebSession, snap: Snapshot, panel: bool = True) -> str | None:
    """Why this phone may not answer the prompt now, or None: a seat's prompt is for the phone holding that seat
    (or the host), a secret ballot only for the voter's own phone, a prompt for the whole table for the host.
    ``panel``: the box has buttons someone can see (else the words name only the phones)."""
    if snap.prompt_kind == "secret_vote":
        if s.seat is None or s.seat != snap.prompt_player:
            return "This ballot goes to the voter's own phone (its seat, given by the table)" + (
                " or the companion" if panel else "")
        return None
    if s.host or (snap.prompt_player is not None and s.seat == snap.prompt_player):
        return None
    if snap.prompt_player is None:
        return "This question is for the whole table: " + (
            "answer it on the companion or the host phone" if panel else
            "the host phone answers it (the owner's code pairs a phone as the host)")
    return f"This question is for seat {snap.prompt_player}: its own phone" + (
        " or the companion answers it" if panel else " or the host phone answers it")


def _players(snap: Snapshot) -> int:
    try:
        data = json.loads(snap.public)
        return len(data["state"]["players"]) if data and data.get("state") else 0
    except (ValueError, KeyError, TypeError):
        return 0


__all__ = ["Writes", "Refused", "SECURITY_HEADERS", "COOKIE", "not_yours"]
