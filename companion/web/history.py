"""The table's history on every phone: its pages and their data, read off the loop thread (part of
:class:`companion.web.server.WebServer`).

=================================  ==================================================================================
``GET /history``                   the history page (``static/history.html``): games, standings, luck, dice, names
``GET /story/<id>``                the same page showing one saved game's story and its charts
``GET /api/history``               the history document (design-32), ``?game=ID&player=NAME`` to filter
``GET /api/story/<id>``            one saved game's story (404 when there is no such game)
``POST /api/names``                ``{"rename": {"from": "Anna", "to": "Ana B."}}`` or ``{"merge": {"from": "Anna",
                                   "into": "Ana"}}``: kept by the statistics' names store, never journaled; the
                                   host phone only
=================================  ==================================================================================

The figures come from the callables the loop puts on the hub (``Hub.history``, ``Hub.story``,
``Hub.player_names``: JSON text in and out, ``{"error": "one line"}`` when they cannot answer): the web package
imports nothing of the statistics and no game. Each call runs on a worker thread of its own, never on the server's
event loop or the main loop's thread, so a phone asking costs a press nothing. Answers are kept (at most
:data:`CACHE_ENTRIES`, for :data:`CACHE_S` seconds, and never past a change of the table's game or its status:
``Hub.history_epoch``) unless they are partial (``pending`` games still to read: the page asks again), a request
the same as one in flight waits for that one, and at most :data:`MAX_WAITING` wait at all: the rest are told to try
again. Watchers see what ``[web] view`` allows them, as on the table's page.
"""
from __future__ import annotations

import asyncio
import gzip
import json
import logging
import re
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable, Hashable, Mapping, NamedTuple

from aiohttp import web

from companion.web.guard import RateLimit
from companion.web.writes import SECURITY_HEADERS, Refused

if TYPE_CHECKING:
    from companion.web.hub import Hub
    from companion.web.pairing import WebSession

log = logging.getLogger(__name__)

CACHE_S = 30.0  #: seconds an answer is kept (a finished game clears it sooner: the epoch changes)
CACHE_ENTRIES = 32
MAX_WAITING = 8  #: calls waiting for the worker at once; more are refused with "try again"
TIMEOUT_S = 20.0  #: a phone waits this long; the call goes on and its answer is kept for the next ask
GZIP_FROM = 1400  #: bytes from which an answer is sent compressed (to a client that accepts gzip)
GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")
NAME_MAX = 40  #: characters in a player's name, as the names store keeps it
QUERY_MAX = 64
STORY_ID = re.compile(r"[0-9]{1,10}")  #: ASCII digits only: str.isdigit() also takes '²', which int() refuses
#: a partial answer: the history's count of games still to read (its last key), or a story not read yet
PENDING = re.compile(r'"pending":\s*(true|[1-9]\d*)')


class Answer(NamedTuple):
    body: bytes  #: the JSON text, UTF-8
    packed: bytes | None  #: the same gzipped, when it is long enough to gain by it
    error: str | None  #: the provider's one line when it answered ``{"error": ...}``
    partial: bool = False  #: ``pending`` games were left to read: asked again, not kept


class Answers:
    """Provider calls on one worker thread, kept for a while, shared by identical requests. Used on the server's
    event loop only (no lock needed); the worker runs nothing but the call and the compression."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._pool: ThreadPoolExecutor | None = None
        self._kept: OrderedDict[Hashable, tuple[float, Answer]] = OrderedDict()
        self._flying: dict[Hashable, asyncio.Future[Answer]] = {}
        self.calls = 0  #: calls that reached the provider (the tests count them)
        self.waiting = 0  #: calls given to the worker and not done

    def _work(self, fn: Callable[[], str]) -> Answer:
        text = fn()
        body = text.encode("utf-8")
        if text.startswith('{"error"'):
            return Answer(body, None, _said(text))
        partial = PENDING.search(text if len(text) < 2000 else text[-60:]) is not None
        return Answer(body, gzip.compress(body, 6) if len(body) >= GZIP_FROM else None, None, partial)

    async def get(self, key: Hashable, fn: Callable[[], str]) -> Answer:
        """``fn()``'s answer, kept under ``key`` (unless it is an error or partial)."""
        kept = self._kept.get(key)
        if kept is not None and self.clock() - kept[0] < CACHE_S:
            self._kept.move_to_end(key)
            return kept[1]
        fut = self._flying.get(key)
        if fut is None:
            fut = self._submit(self._work, fn)
            self._flying[key] = fut
            fut.add_done_callback(lambda f: self._landed(key, f))
        return await self._wait(fut)

    async def run(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` on the worker, after the reads before it; nothing kept (a rename)."""
        return await self._wait(self._submit(fn))

    def _submit(self, fn: Callable[..., Any], *args: Any) -> "asyncio.Future[Any]":
        if self.waiting >= MAX_WAITING:
            raise Refused(503, "The companion is busy reading its history: try again in a moment")
        if self._pool is None:
            self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="history")
        self.calls += 1
        self.waiting += 1
        fut = asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)
        fut.add_done_callback(self._left)
        return fut

    def _left(self, _fut: "asyncio.Future[Any]") -> None:
        self.waiting -= 1

    @staticmethod
    async def _wait(fut: "asyncio.Future[Any]") -> Any:
        try:
            return await asyncio.wait_for(asyncio.shield(fut), TIMEOUT_S)
        except asyncio.TimeoutError:
            raise Refused(504, "The history is taking long to read: try again in a moment") from None

    def _landed(self, key: Hashable, fut: "asyncio.Future[Answer]") -> None:
        self._flying.pop(key, None)
        if fut.cancelled() or fut.exception() is not None:
            return
        answer = fut.result()
        if answer.error is not None or answer.partial:
            return
        self._kept[key] = (self.clock(), answer)
        self._kept.move_to_end(key)
        while len(self._kept) > CACHE_ENTRIES:
            self._kept.popitem(last=False)

    def forget(self) -> None:
        self._kept.clear()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def query_of(params: Mapping[str, str]) -> dict[str, str]:
    """``game`` and ``player`` from the request's query, checked; anything else is refused in one line."""
    extra = sorted(set(params) - {"game", "player"})
    if extra:
        raise Refused(400, f"unknown filter {extra[0][:QUERY_MAX]!r}: filter by game=ID and player=NAME only")
    out = {k: params[k].strip() for k in ("game", "player") if params.get(k, "").strip()}
    if "game" in out and not GAME_ID.fullmatch(out["game"]):
        raise Refused(400, "game must be a game id such as sovereign or sovereigns-chain")
    if len(out.get("player", "")) > QUERY_MAX or not out.get("player", "x").isprintable():
        raise Refused(400, f"player must be a name of at most {QUERY_MAX} characters")
    return out


def name_of(body: Mapping[str, Any], key: str) -> str:
    v = body.get(key)
    if not isinstance(v, str) or not v.strip():
        raise Refused(400, f"give {key!r} as a name")
    v = " ".join(v.split())
    if len(v) > NAME_MAX or not v.isprintable():
        raise Refused(400, f"a name is at most {NAME_MAX} printable characters")
    return v


class HistoryRoutes:
    """The history routes; the server provides the hub, the page files, the watcher check and the writer check."""

    hub: "Hub"
    limits: dict[str, RateLimit]
    _files: dict[str, bytes]
    answers: Answers

    def _watcher(self, request: web.Request) -> "WebSession | None":
        raise NotImplementedError

    def _writer(self, request: web.Request) -> "WebSession":
        raise NotImplementedError

    async def _body(self, request: web.Request) -> dict[str, Any]:
        raise NotImplementedError

    def add_history_routes(self, app: web.Application) -> None:
        app.router.add_get("/history", self.history_page)
        app.router.add_get("/story/{id}", self.history_page)
        app.router.add_get("/api/history", self.history_data)
        app.router.add_get("/api/story/{id}", self.story_data)
        app.router.add_post("/api/names", self.rename)

    async def history_page(self, request: web.Request) -> web.Response:
        return web.Response(body=self._files["history.html"], content_type="text/html", charset="utf-8",
                            headers=SECURITY_HEADERS)

    def _source(self, request: web.Request, what: str) -> Callable[..., str]:
        self._watcher(request)
        if not self.limits["history"].take(request.remote or "?"):
            raise Refused(429, "Too many requests from this phone: wait a moment")
        source = getattr(self.hub, what)
        if source is None:
            raise Refused(503, "The history page is off on this companion: see its log")
        return source  # type: ignore[no-any-return]

    async def history_data(self, request: web.Request) -> web.Response:
        history = self._source(request, "history")
        query = query_of(request.query)
        key = ("history", tuple(sorted(query.items())), self.hub.history_epoch)
        answer = await self._answer(key, lambda: history(dict(query)))
        if answer.error is not None:
            raise Refused(503, answer.error)
        return self._respond(request, answer)

    async def story_data(self, request: web.Request) -> web.Response:
        story = self._source(request, "story")
        raw = request.match_info["id"]
        if not STORY_ID.fullmatch(raw) or not 0 < int(raw) < 2 ** 31:
            raise Refused(400, "a saved game's number, such as /api/story/12")
        game_id = int(raw)
        answer = await self._answer(("story", game_id, self.hub.history_epoch), lambda: story(game_id))
        if answer.error is not None:
            raise Refused(404, answer.error)
        return self._respond(request, answer)

    async def _answer(self, key: Hashable, fn: Callable[[], str]) -> Answer:
        try:
            return await self.answers.get(key, fn)
        except Refused:
            raise
        except Exception:
            log.exception("the history could not be read (%s)", key)
            raise Refused(500, "The history could not be read: see the companion's log") from None

    @staticmethod
    def _respond(request: web.Request, answer: Answer) -> web.Response:
        headers, body = dict(SECURITY_HEADERS), answer.body
        if answer.packed is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
            body = answer.packed
            headers.update({"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        return web.Response(body=body, content_type="application/json", charset="utf-8", headers=headers)

    async def rename(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        s = self._writer(request)
        if not s.host:
            raise Refused(403, "Only the host phone renames players: ask for Host on the table's page")
        names = self.hub.player_names
        if names is None:
            raise Refused(503, "The history page is off on this companion: see its log")
        ask, said = change_of(body)
        try:
            answer = json.loads(await self.answers.run(lambda: names(ask)))
        except Exception:
            log.exception("the player names could not be changed")
            raise Refused(500, "The names could not be changed: see the companion's log") from None
        finally:
            self.answers.forget()
        if not isinstance(answer, dict) or "error" in answer:
            raise Refused(409, _said(json.dumps(answer)))
        log.info("players: %s (phone %s)", said, s.code)
        return web.json_response({"ok": True, "message": said, "names": answer.get("names", {})},
                                 headers=SECURITY_HEADERS)


def change_of(body: Mapping[str, Any]) -> tuple[dict[str, dict[str, str]], str]:
    """The rename or merge a phone asked for, checked, and the line that says it was made."""
    for kind, to in (("rename", "to"), ("merge", "into")):
        ask = body.get(kind)
        if isinstance(ask, dict):
            old, new = name_of(ask, "from"), name_of(ask, to)
            said = f"{old} is now called {new}" if kind == "rename" else f"{old}'s games now count as {new}'s"
            return {kind: {"from": old, to: new}}, said
    raise Refused(400, 'send {"rename": {"from": NAME, "to": NAME}} or {"merge": {"from": NAME, "into": NAME}}')


def _said(text: str) -> str:
    """The one line of a provider's ``{"error": ...}``."""
    try:
        line = str(json.loads(text).get("error") or "")
    except (ValueError, AttributeError):
        line = ""
    line = line.strip().splitlines()[0] if line.strip() else "the history could not answer that"
    return line[:1].upper() + line[1:]


__all__ = ["HistoryRoutes", "Answer", "Answers", "change_of", "query_of", "CACHE_S", "MAX_WAITING"]
