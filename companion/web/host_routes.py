"""The host phone's routes: everything the device's OK does, for a box with no panel or a host across the table.

Each needs the host's session and CSRF token (403 "Only the host phone can do this" otherwise) and is rate-limited
like answers. None is a game input, so none is journaled: pairing state is changed on the shared, locked
:class:`~companion.web.pairing.Pairing` (as seat claims are), then the loop is told (``WebEvent("request")``) so the
device's screen follows; a press of the companion's buttons goes on the one queue like a button's.

=========================  ===================================================================================
``POST /api/pin``          a fresh PIN for another phone → ``{"pin", "valid_s", "phones"}``
``POST /api/grant``        ``{"code": "K7QX", "yes": bool}``: answer that phone's seat or host request
``POST /api/forget``       ``{"code": "K7QX"}``: forget that phone (it must pair again)
``POST /api/host``         ``{"code": "K7QX"}``: hand host rights to that phone (this one keeps its seat)
``POST /api/key``          ``{"key": "up" | "down" | "ok" | "back" | "hold"}``: press the companion's button
``POST /api/owner-code``   ``{"owner": "<the code now>"}``: a new owner code → ``{"owner_code": "ABCD-EFGH"}``
=========================  ===================================================================================
"""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from aiohttp import web

from companion.errors import CompanionError
from companion.events import Key
from companion.web.owner import shown
from companion.web.pairing import HOST, PIN_PHONES, PIN_TTL, PairError, WebSession
from companion.web.writes import SECURITY_HEADERS, Refused, Writes

if TYPE_CHECKING:
    from aiohttp.web import Request

log = logging.getLogger(__name__)

KEYS = tuple(k.value for k in Key)


class HostRoutes(Writes):
    """Part of :class:`companion.web.server.WebServer`."""

    async def _host(self, request: "Request") -> tuple[WebSession, dict[str, Any]]:
        body = await self._body(request)
        s = self._writer(request)
        if not s.host:
            raise Refused(403, "Only the host phone can do this")
        self._limit(request, s)
        return s, body

    def _phone(self, body: dict[str, Any]) -> WebSession:
        other = self.hub.pairing.by_code(body.get("code"))
        if other is None:
            raise Refused(404, "No such phone: it may have been forgotten; look at the list again")
        return other

    def _ok(self, message: str) -> web.Response:
        self.hub.tell("request")  # the device's request screen follows what the host did
        self._wake_all()
        return web.json_response({"ok": True, "message": message}, headers=SECURITY_HEADERS)

    async def new_pin(self, request: "Request") -> web.Response:
        await self._host(request)
        pin = self.hub.pairing.new_pin("host")
        return web.json_response({"pin": pin, "valid_s": int(PIN_TTL), "phones": PIN_PHONES},
                                 headers=SECURITY_HEADERS)

    async def grant(self, request: "Request") -> web.Response:
        _s, body = await self._host(request)
        other = self._phone(body)
        if other.pending is None:
            raise Refused(409, f"Phone {other.code} asks for nothing now")
        asked = body.get("asked")
        seat = HOST if asked == "host" else asked if type(asked) is int else None
        return self._ok(self.hub.pairing.grant(other.key, body.get("yes") is True, seat, grace=True))

    async def forget(self, request: "Request") -> web.Response:
        _s, body = await self._host(request)
        other = self._phone(body)
        self.hub.pairing.unpair(other.key)
        log.info("phone %s forgotten by the host phone", other.code)
        return self._ok(f"Phone {other.code} forgotten")

    async def hand_host(self, request: "Request") -> web.Response:
        s, body = await self._host(request)
        other = self._phone(body)
        if other.key == s.key:
            return self._ok(f"Phone {s.code} is the host")
        message = self.hub.pairing.make_host(other.key)
        log.info("host rights handed from phone %s to phone %s", s.code, other.code)
        return self._ok(message)

    async def press(self, request: "Request") -> web.Response:
        """One press of the companion's buttons, handled by the loop exactly as the device's own."""
        _s, body = await self._host(request)
        key = body.get("key")
        if key not in KEYS:
            raise Refused(400, 'send {"key": ...} with one of ' + ", ".join(KEYS))
        return await self._outcome(lambda done: self.hub.press(str(key), done), "The companion did not answer in time")

    async def owner_code(self, request: "Request") -> web.Response:
        """A new owner code, for the owner only: the code now must be sent (a host phone that is not the owner's
        cannot lock the owner out). A wrong one counts as a wrong try."""
        s, body = await self._host(request)
        owner = self.hub.pairing.owner
        if owner is None:
            raise Refused(409, "This companion has no owner code")
        self.hub.pairing.not_banned(request.remote or "?")
        if not owner.matches(body.get("owner")):
            self.hub.pairing.bans.wrong(request.remote or "?")
            raise PairError("Wrong owner code: type the code now (printed on the box) to make a new one", 403)
        try:
            code = owner.renew()
        except CompanionError as e:
            raise Refused(500, str(e)) from None
        log.info("phone %s made the new owner code", s.code)
        return web.json_response({"owner_code": shown(code), "kept_in": owner.where}, headers=SECURITY_HEADERS)


__all__ = ["HostRoutes"]
