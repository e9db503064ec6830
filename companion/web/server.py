"""The web view's HTTP server: aiohttp on its own thread and event loop. Imported only when ``[web] enabled``.

It reads snapshots from the :class:`~companion.web.hub.Hub` and puts answers on the one queue through it; it never
sees a game object. Routes (JSON errors are ``{"error": "one plain line"}``):

=========================  ===================================================================================
``GET /``                  the page (plain HTML; its script and style from ``/static/``; no outside assets)
``GET /static/<file>``     ``app.js``, ``app.css``
``GET /api/state``         ``{"snapshot": ..., "me": ...}`` now (401 when ``view = "paired"`` and not paired)
``GET /api/events``        the same as Server-Sent Events (``event: snapshot``), pushed on every change
``POST /api/pair``         ``{"pin": "123456"}`` → a session cookie and ``{"csrf": ...}``; wrong PINs rate-limited
``POST /api/answer``       ``{"seq": N, "value": ...}`` → ``{"ok": bool, "message": str}`` once the loop handled it
``POST /api/claim``        ``{"seat": N | "host" | null}``: ask the device for a seat or host rights (202: confirm
                           on the device), or give them up (null)
``POST /api/unpair``       forget this phone
=========================  ===================================================================================

Every POST needs ``Content-Type: application/json``, the session cookie and the session's ``X-CSRF-Token`` header.
Every request needs a ``Host`` naming this companion (its LAN address or name, localhost, ``[web] allowed_hosts``):
a page on another site cannot read the table through DNS rebinding. A phone answers only for the seat it holds
(given on the device); the host phone for everyone but a secret ballot; a refusal goes back to that phone alone.
Connections are capped fairly per address and dropped when slow or idle (:mod:`.guard`).
"""
from __future__ import annotations

import asyncio
import json
import logging
import threading
from importlib import resources
from typing import Any, Awaitable, Callable

from aiohttp import web

from companion.errors import CompanionError

from companion.web.guard import HEADER_S, ConnectionGuard, RateLimit, allowed_host, split_host
from companion.web.hub import Hub
from companion.web.pairing import HOST, PairError, WebSession
from companion.web.snapshot import Snapshot

log = logging.getLogger(__name__)

COOKIE = "companion_session"
KEEPALIVE_S = 15.0
ANSWER_TIMEOUT_S = 5.0
WRITE_TIMEOUT_S = 10.0  #: a live stream whose reader takes longer than this to take one event is dropped
MAX_BODY = 16 * 1024  #: bytes a request body may have (a PIN, an answer, a seat: far less)
STATIC = {"app.js": "text/javascript", "app.css": "text/css", "index.html": "text/html"}
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


class WebError(CompanionError):
    """The web view could not start (the port is taken, the address is not this machine's)."""


def _error(status: int, message: str) -> web.Response:
    return web.json_response({"error": message}, status=status, headers=SECURITY_HEADERS)


class _Refused(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class WebServer:
    def __init__(self, hub: Hub, host: str, port: int, *, max_connections: int = 256,
                 hosts: tuple[str, ...] = ()) -> None:
        self.hub, self.host, self.port = hub, host, port
        self.max_connections = max_connections
        self.extra_hosts = hosts
        self.guard: ConnectionGuard | None = None
        self._anon: tuple[Any, str] = (None, "")
        self.header_s = HEADER_S  #: seconds a connection has for a whole request head (tests make it short)
        self.limits = {"session": RateLimit(4.0, 20), "address": RateLimit(8.0, 40), "claim": RateLimit(0.1, 3)}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop: asyncio.Event | None = None
        self._streams: set[asyncio.Event] = set()
        self._closing = False
        self._files = {name: (resources.files("companion.web") / "static" / name).read_bytes() for name in STATIC}
        self.app = self._build_app()

    # ------------------------------------------------------------------ lifecycle
    def start(self, timeout: float = 15.0) -> int:
        """Listen (on its own thread); returns the port. Raises :class:`WebError` with what to check."""
        ready = threading.Event()
        failure: list[str] = []
        self._thread = threading.Thread(target=self._serve, args=(ready, failure), name="web", daemon=True)
        self._thread.start()
        if not ready.wait(timeout):
            raise WebError("the web view did not start in time")
        if failure:
            raise WebError(failure[0])
        return self.port

    def stop(self) -> None:
        if self.loop is not None and self._stop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(self._shutdown)
        if self._thread is not None:
            self._thread.join(10)

    def _shutdown(self) -> None:
        self._closing = True
        for ev in self._streams:
            ev.set()
        if self._stop is not None:
            self._stop.set()

    def _serve(self, ready: threading.Event, failure: list[str]) -> None:
        loop = asyncio.new_event_loop()
        self.loop = loop
        asyncio.set_event_loop(loop)
        runner = web.AppRunner(self.app, access_log=None, handle_signals=False, shutdown_timeout=1.0,
                               keepalive_timeout=HEADER_S, max_line_size=4096, max_field_size=4096)
        def wake() -> None:  # on the main loop's thread
            loop.call_soon_threadsafe(self._wake_all)
        unsubscribe = self.hub.subscribe(wake)
        server: asyncio.AbstractServer | None = None
        sweeper: asyncio.Task[None] | None = None
        try:
            loop.run_until_complete(runner.setup())
            assert runner.server is not None
            self.guard = ConnectionGuard(runner.server, self.max_connections, header_s=self.header_s)
            try:
                server = loop.run_until_complete(loop.create_server(self.guard, self.host, self.port,
                                                                    reuse_address=True, backlog=128))
            except OSError as e:
                failure.append(f"cannot listen on {self.host}:{self.port} ({e.strerror or e}); set another "
                               "[web] port or bind, or [web] enabled = false")
                return
            if server.sockets:
                self.port = int(server.sockets[0].getsockname()[1])
            sweeper = loop.create_task(self.guard.run())
            self._stop = asyncio.Event()
            ready.set()
            loop.run_until_complete(self._stop.wait())
        finally:
            unsubscribe()
            ready.set()
            if sweeper is not None:
                sweeper.cancel()
            if server is not None:
                server.close()
            loop.run_until_complete(runner.cleanup())
            loop.close()

    def _wake_all(self) -> None:
        for ev in self._streams:
            ev.set()

    # ------------------------------------------------------------------ routes
    def _build_app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._held, self._errors])
        app.router.add_get("/", self.index)
        app.router.add_get("/static/{name}", self.static)
        app.router.add_get("/favicon.ico", self.no_icon)
        app.router.add_get("/api/state", self.state)
        app.router.add_get("/api/events", self.events)
        app.router.add_post("/api/pair", self.pair)
        app.router.add_post("/api/answer", self.answer)
        app.router.add_post("/api/claim", self.claim)
        app.router.add_post("/api/unpair", self.unpair)
        return app

    def names(self) -> set[str]:
        """The host names this companion answers to: its shown address, LAN address and name, and the config's."""
        from companion.web import lan_address

        import socket

        names = {self.host, lan_address(), socket.gethostname(), socket.gethostname() + ".local", *self.extra_hosts}
        if self.hub.address:
            names.add(split_host(self.hub.address.split("://", 1)[-1].split("/", 1)[0]))
        return {n.lower() for n in names if n and n not in ("0.0.0.0", "::")}

    @web.middleware
    async def _held(self, request: web.Request,
                    handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """The guard's view of each request (busy while answered), and the Host allow-list."""
        transport = request.transport
        if self.guard is not None and transport is not None:
            self.guard.started(transport)
        try:
            if not allowed_host(request.headers.get("Host"), self._names()):
                return _error(421, "this is not this companion's address: open the address its screen shows")
            return await handler(request)
        finally:
            if self.guard is not None and transport is not None:
                self.guard.finished(transport)

    def _names(self) -> set[str]:
        cached = getattr(self, "_names_cache", None)
        if cached is None or cached[0] != self.hub.address:
            cached = (self.hub.address, self.names())
            self._names_cache = cached
        return cached[1]

    @web.middleware
    async def _errors(self, request: web.Request,
                      handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        try:
            return await handler(request)
        except _Refused as e:
            return _error(e.status, str(e))
        except PairError as e:
            return _error(e.status, str(e))
        except web.HTTPException as e:
            if request.path.startswith("/api/"):
                if e.status == 413:
                    return _error(413, f"the request is too large ({MAX_BODY // 1024} KB at most)")
                return _error(e.status, e.reason)
            raise

    async def index(self, request: web.Request) -> web.Response:
        return web.Response(body=self._files["index.html"], content_type="text/html", charset="utf-8",
                            headers=SECURITY_HEADERS)

    async def no_icon(self, request: web.Request) -> web.Response:
        return web.Response(status=204, headers=SECURITY_HEADERS)

    async def static(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in STATIC or name == "index.html":
            raise web.HTTPNotFound()
        return web.Response(body=self._files[name], content_type=STATIC[name], charset="utf-8",
                            headers=SECURITY_HEADERS)

    # --------------------------------------------------------------- reading
    def _session(self, request: web.Request) -> WebSession | None:
        return self.hub.pairing.session(request.cookies.get(COOKIE))

    def _watcher(self, request: web.Request) -> WebSession | None:
        s = self._session(request)
        if s is None and self.hub.view == "paired":
            raise _Refused(401, "This table's view is for paired phones: enter the PIN from Pair a phone")
        return s

    def _me(self, s: WebSession | None, snap: Snapshot) -> dict[str, Any]:
        me: dict[str, Any] = {"paired": s is not None, "view": self.hub.view, "seat": s.seat if s else None,
                              "seats_held": sorted(self.hub.pairing.seats())}
        if s is not None:
            me.update(csrf=s.csrf, code=s.code, host=s.host,
                      pending=("host" if s.pending == HOST else s.pending) if s.pending is not None else None)
            if snap.ballot is not None and s.seat is not None and s.seat == snap.prompt_player:
                me["ballot"] = json.loads(snap.ballot)
        return me

    def _payload(self, s: WebSession | None, snap: Snapshot) -> str:
        if s is None:  # every unpaired reader gets the same text: built once per snapshot and seat map
            key = (snap.version, tuple(sorted(self.hub.pairing.seats().items())))
            cached = self._anon
            if cached[0] == key:
                return cached[1]
        body = snap.host if s is not None and s.host else snap.public
        text = f'{{"snapshot":{body},"me":{json.dumps(self._me(s, snap), separators=(",", ":"))}}}'
        if s is None:
            self._anon = (key, text)
        return text

    async def state(self, request: web.Request) -> web.Response:
        s = self._watcher(request)
        return web.Response(text=self._payload(s, self.hub.latest), content_type="application/json",
                            headers=SECURITY_HEADERS)

    async def events(self, request: web.Request) -> web.StreamResponse:
        s = self._watcher(request)
        resp = web.StreamResponse(headers={**SECURITY_HEADERS, "Content-Type": "text/event-stream",
                                           "X-Accel-Buffering": "no"})
        await resp.prepare(request)
        wake = asyncio.Event()
        self._streams.add(wake)
        sent = ""
        try:
            while not self._closing:
                wake.clear()
                snap = self.hub.latest
                s = self._session(request)
                payload = self._payload(s, snap)
                if payload != sent:
                    await asyncio.wait_for(resp.write(f"event: snapshot\ndata: {payload}\n\n".encode()),
                                           WRITE_TIMEOUT_S)
                    sent = payload
                    self.hub.record_sent(snap)
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE_S)
                except asyncio.TimeoutError:
                    await asyncio.wait_for(resp.write(b": keep-alive\n\n"), WRITE_TIMEOUT_S)
        except (ConnectionResetError, asyncio.CancelledError, asyncio.TimeoutError):
            pass  # gone, or too slow to read: its connection is dropped
        finally:
            self._streams.discard(wake)
        return resp

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
        self._limit(request, None)
        body = await self._body(request)
        pin = body.get("pin")
        voided = self.hub.pairing.pin_voided
        try:
            s, token = self.hub.pairing.pair(pin if isinstance(pin, str) else "", request.remote or "?")
        finally:
            if self.hub.pairing.pin_voided and not voided:
                self.hub.tell("pin")  # the device says the PIN is void and offers a new one
        log.info("phone %s paired from %s", s.code, request.remote)
        resp = web.json_response({"csrf": s.csrf, "code": s.code}, headers=SECURITY_HEADERS)
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
        return web.json_response({"ok": True, "pending": body.get("seat"), "code": s.code,
                                  "message": f"Press OK on the companion to confirm (this phone is {s.code})"},
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
        why = _not_yours(s, snap)
        if why:  # before the question's number is compared: a phone learns nothing of a prompt that is not its own
            raise _Refused(403, why)
        if seq != snap.prompt_seq or isinstance(seq, bool):
            raise _Refused(409, "The question changed; answer the new one")
        loop = asyncio.get_running_loop()
        done: asyncio.Future[tuple[bool, str]] = loop.create_future()

        def settle(ok: bool, message: str) -> None:
            if not done.done():
                done.set_result((ok, message))

        def finish(ok: bool, message: str) -> None:  # on the main loop's thread
            loop.call_soon_threadsafe(settle, ok, message)

        source = f"web:seat{s.seat}" if s.seat is not None and s.seat == snap.prompt_player else (
            "web:host" if s.host else "web")
        ref = self.hub.submit(body["value"], seq, source, finish)
        try:
            ok, message = await asyncio.wait_for(done, ANSWER_TIMEOUT_S)
        except asyncio.TimeoutError:
            self.hub.forget(ref)
            return _error(504, "The companion did not answer in time; look at its screen")
        return web.json_response({"ok": ok, "message": message}, status=200 if ok else 409, headers=SECURITY_HEADERS)


def _not_yours(s: WebSession, snap: Snapshot) -> str | None:
    """Why this phone may not answer the prompt now, or None: a seat's prompt is for the phone holding that seat
    (or the host), a secret ballot only for the voter's own phone, a prompt for the whole table for the host."""
    if snap.prompt_kind == "secret_vote":
        if s.seat is None or s.seat != snap.prompt_player:
            return "This ballot goes to the voter's own phone (its seat, given on the companion) or the companion"
        return None
    if s.host or (snap.prompt_player is not None and s.seat == snap.prompt_player):
        return None
    if snap.prompt_player is None:
        return "This question is for the whole table: answer it on the companion or the host phone"
    return f"This question is for seat {snap.prompt_player}: its own phone or the companion answers it"


def _players(snap: Snapshot) -> int:
    try:
        data = json.loads(snap.public)
        return len(data["state"]["players"]) if data and data.get("state") else 0
    except (ValueError, KeyError, TypeError):
        return 0


__all__ = ["WebServer", "WebError", "COOKIE"]
