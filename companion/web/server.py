"""The web view's HTTP server: aiohttp on its own thread and event loop. Imported only when ``[web] enabled``.

It reads snapshots from the :class:`~companion.web.hub.Hub` and puts answers on the one queue through it; it never
sees a game object. Routes (JSON errors are ``{"error": "one plain line"}``):

=========================  ===================================================================================
``GET /``                  the page (plain HTML; its script and style from ``/static/``; no outside assets)
``GET /static/<file>``     ``app.js``, ``host.js`` (the host phone's panel), ``app.css``
``GET /api/state``         ``{"snapshot": ..., "me": ...}`` now (401 when ``view = "paired"`` and not paired)
``GET /api/events``        the same as Server-Sent Events (``event: snapshot``), pushed on every change
``POST /api/pair``         ``{"pin": "123456"}`` or ``{"owner": "ABCD-EFGH"}`` (paired and the host at once) → a
                           session cookie and ``{"csrf", "code", "host"}``; wrong tries ban their address
``POST /api/answer``       ``{"seq": N, "value": ...}`` → ``{"ok": bool, "message": str}`` once the loop handled it
``POST /api/claim``        ``{"seat": N | "host" | null}``: ask the table for a seat or host rights (202: the
                           device's OK or the host phone confirms), or give them up (null)
``POST /api/unpair``       forget this phone
``POST /api/pin`` …        the host phone's routes (:mod:`.host_routes`): a PIN, grant, forget, host, key, owner-code
``GET /manual/<game-id>``  the game's manual as a page (``companion/web/manual.py``), linked from the game's view
=========================  ===================================================================================

Every POST needs ``Content-Type: application/json``, the session cookie and the session's ``X-CSRF-Token`` header.
Every request needs a ``Host`` naming this companion (its LAN address or name, localhost, ``[web] allowed_hosts``):
a page on another site cannot read the table through DNS rebinding. A phone answers only for the seat it holds
(given by the table); the host phone for everyone but a secret ballot; a refusal goes back to that phone alone.
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
from companion.web.manual import current_game, manual_page
from companion.web.pairing import HOST, PairError, WebSession
from companion.web.snapshot import Snapshot
from companion.web.host_routes import HostRoutes
from companion.web.writes import COOKIE, SECURITY_HEADERS, _error
from companion.web.writes import Refused as _Refused

log = logging.getLogger(__name__)


class _ClientFaults(logging.Filter):
    """aiohttp logs each malformed request (two Host headers, a 5 KB header line) as an ERROR with a traceback: about
    600 lines a second from any client on the network, enough to bury the companion's own log. The client gets its
    400; the log keeps a real fault in a handler."""

    def filter(self, record: logging.LogRecord) -> bool:
        from aiohttp.http_exceptions import HttpProcessingError

        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, HttpProcessingError)


_SERVER_LOG = logging.getLogger("aiohttp.server")
if not any(isinstance(f, _ClientFaults) for f in _SERVER_LOG.filters):
    _SERVER_LOG.addFilter(_ClientFaults())

KEEPALIVE_S = 15.0
WRITE_TIMEOUT_S = 10.0  #: a live stream whose reader takes longer than this to take one event is dropped
MAX_BODY = 16 * 1024  #: bytes a request body may have (a PIN, an answer, a seat: far less)
STATIC = {"app.js": "text/javascript", "host.js": "text/javascript", "app.css": "text/css",
          "index.html": "text/html"}


class WebError(CompanionError):
    """The web view could not start (the port is taken, the address is not this machine's)."""


class WebServer(HostRoutes):
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
        app.router.add_post("/api/pin", self.new_pin)
        app.router.add_post("/api/grant", self.grant)
        app.router.add_post("/api/forget", self.forget)
        app.router.add_post("/api/host", self.hand_host)
        app.router.add_post("/api/key", self.press)
        app.router.add_post("/api/owner-code", self.owner_code)
        app.router.add_get("/manual/{name}", self.manual)
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
            if self._session(request) is not None:
                self.guard.paired(transport)
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

    async def manual(self, request: web.Request) -> web.Response:
        self._watcher(request)
        name = request.match_info["name"]
        page = manual_page(name, *current_game(self.hub.latest.public))
        if page is None:
            return web.Response(status=404, text=f"No manual called {name[:64]!r} on this table",
                                headers=SECURITY_HEADERS)
        return web.Response(text=page, content_type="text/html", charset="utf-8", headers=SECURITY_HEADERS)

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
                              "seats_held": sorted(self.hub.pairing.seats()), "panel": self.hub.panel}
        if s is not None:
            waiting = {p.key for p in self.hub.pairing.pending()}  # requests still open (they run out)
            me.update(csrf=s.csrf, code=s.code, host=s.host, pending=_asks(s.pending) if s.key in waiting else None)
            if snap.ballot is not None and s.seat is not None and s.seat == snap.prompt_player:
                me["ballot"] = json.loads(snap.ballot)
            if s.host:  # the host phone does what the device's OK does: it sees every phone and what each asks
                me["phones"] = [{"code": p.code, "seat": p.seat, "host": p.host, "me": p.key == s.key,
                                 "pending": _asks(p.pending) if p.key in waiting else None}
                                for p in self.hub.pairing.phones()]
        return me

    def _payload(self, s: WebSession | None, snap: Snapshot) -> str:
        if s is None:  # every unpaired reader gets the same text: built once per snapshot and seat map
            key = (snap.version, tuple(sorted(self.hub.pairing.seats().items())), self.hub.panel)
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

def _asks(pending: int | None) -> int | str | None:
    """A request as the page shows it: a seat number, "host", or None."""
    return "host" if pending == HOST else pending


__all__ = ["WebServer", "WebError", "COOKIE"]
