"""The history's routes (issue 32): the pages, ``/api/history`` and ``/api/story/<id>`` read off the loop thread from
the provider the loop injects (kept, shared, bounded), filters checked in one line, ``[web] view`` respected, the
host phone alone renaming, and uPlot served from the box, cached, under the same strict Content-Security-Policy."""
from __future__ import annotations

import gzip
import hashlib
import json
import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator, Mapping

import pytest

from companion.web.history import MAX_WAITING
from companion.web.hub import Hub
from companion.web.pairing import HOST, Pairing
from companion.web.server import STATIC, WebServer
from history_fixture import FixtureSource
from webtable import Client

STATIC_DIR = Path(__file__).resolve().parent.parent / "companion" / "web" / "static"
UPLOT_SHA256 = "19c8d4c6ad88929a79f4ae49d6f7161566dfd0ba3d15cc495e974f787eb78f1f"  #: npm uplot@1.6.32's file


class Box:
    """The web server with a hub and no game loop: what the history pages need."""

    def __init__(self, tmp: Path, view: str = "open", source: Any = None) -> None:
        self.events: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        self.hub = Hub(self.events.put, view=view, pairing=Pairing(path=tmp / "pairings.json"))
        self.source = source if source is not None else FixtureSource(n=60)
        self.hub.history, self.hub.story = self.source.history, self.source.story
        self.hub.player_names = self.source.names
        self.server = WebServer(self.hub, "127.0.0.1", 0)
        self.port = self.server.start()
        self.hub.address = f"http://127.0.0.1:{self.port}/"

    def phone(self, host: bool = False) -> Client:
        c = Client(self.port)
        assert c.pair(self.hub.pairing.new_pin()) == 200
        if host:
            s = next(p for p in self.hub.pairing.phones() if p.code == c.code)
            self.hub.pairing.request(s.key, HOST)
            self.hub.pairing.grant(s.key, True, HOST)
        return c

    def calm(self) -> None:
        """Drop what pairing told the loop (a paired phone is listed on the device's Phones page)."""
        while not self.events.empty():
            assert getattr(self.events.get(), "kind", None) == "phones"

    def close(self) -> None:
        self.server.stop()

    def __enter__(self) -> "Box":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    with Box(tmp_path) as b:
        yield b


def get(c: Client, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    return c.request("GET", path, headers=headers)


def test_the_pages_and_uplot_come_from_the_box_and_uplot_is_kept(box: Box) -> None:
    c = Client(box.port)
    for path in ("/history", "/story/12"):
        status, headers, body = get(c, path)
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert b'src="/static/uPlot.iife.min.js?v=1.6.32"' in body and b'src="/static/charts.js"' in body
        assert "script-src 'self'; style-src 'self'" in headers["content-security-policy"]
    status, headers, body = get(c, "/static/uPlot.iife.min.js?v=1.6.32")
    assert status == 200 and hashlib.sha256(body).hexdigest() == UPLOT_SHA256 and len(body) == 51081
    assert headers["cache-control"] == "public, max-age=31536000, immutable"  # a phone asks once
    assert headers["content-security-policy"].startswith("default-src 'none'; script-src 'self'")
    status, headers, packed = get(c, "/static/uPlot.iife.min.js?v=1.6.32", **{"Accept-Encoding": "gzip"})
    assert headers["content-encoding"] == "gzip" and gzip.decompress(packed) == body and len(packed) < 23000
    status, headers, _ = get(c, "/static/uPlot.min.css?v=1.6.32")
    assert status == 200 and headers["content-type"].startswith("text/css") and "immutable" in headers["cache-control"]
    for name in ("history.js", "charts.js", "history.css"):  # the project's own files change with it: not kept
        status, headers, _ = get(c, f"/static/{name}")
        assert status == 200 and headers["cache-control"] == "no-store", name
    assert get(c, "/static/history.html")[0] == 404 and get(c, "/static/uPlot.LICENSE")[0] == 404
    assert (STATIC_DIR / "uPlot.LICENSE").read_text().startswith("The MIT License")
    assert set(STATIC) <= {p.name for p in STATIC_DIR.iterdir()}


def test_history_is_the_providers_document_filtered_as_asked(box: Box) -> None:
    c = Client(box.port)
    status, data = c.json("GET", "/api/history")
    assert status == 200 and len(data["games"]) == 60
    assert {"games", "players", "battles", "standings", "dice", "names"} <= set(data)
    status, data = c.json("GET", "/api/history?game=sovereign&player=Ana")
    assert status == 200 and data["games"] and all(g["game"] == "sovereign" and any(
        p["name"] == "Ana" for p in g["players"]) for g in data["games"])
    assert ("history", {"game": "sovereign", "player": "Ana"}) in box.source.calls
    status, headers, body = get(c, "/api/history", **{"Accept-Encoding": "gzip, deflate"})
    assert headers["content-encoding"] == "gzip" and json.loads(gzip.decompress(body))["games"]
    status, data = c.json("GET", "/api/story/3")
    assert status == 200 and data["id"] == 3 and data["charts"] and data["table"]


@pytest.mark.parametrize("path, status, words", [
    ("/api/history?gmae=sovereign", 400, "unknown filter 'gmae'"),
    ("/api/history?game=../etc", 400, "game must be a game id"),
    ("/api/history?player=" + "x" * 65, 400, "at most 64 characters"),
    ("/api/history?player=%01", 400, "at most 64 characters"),
    ("/api/story/abc", 400, "a saved game's number"),
    ("/api/story/0", 400, "a saved game's number"),
    ("/api/story/99999999999", 400, "a saved game's number"),
    ("/api/story/999", 404, "No saved game 999"),
    ("/api/story/%C2%B2", 400, "a saved game's number"),  # '²' is a digit to str.isdigit(), not to int()
    ("/api/story/%D9%A1%D9%A2", 400, "a saved game's number"),  # Arabic-Indic 12: not how a game is numbered
    ("/api/story/%EF%BC%93", 400, "a saved game's number"),  # a full-width 3
])
def test_a_bad_ask_gets_one_plain_line(box: Box, path: str, status: int, words: str) -> None:
    got, data = Client(box.port).json("GET", path)
    assert got == status and words in data["error"] and "\n" not in data["error"]


def test_the_provider_runs_on_its_own_worker_and_an_answer_is_kept(box: Box) -> None:
    threads: list[str] = []
    src = box.source

    def history(query: Mapping[str, str]) -> str:
        threads.append(threading.current_thread().name)
        time.sleep(0.2)  # a slow read: the phones asking meanwhile wait for this one call
        return FixtureSource.history(src, query)

    box.hub.history = history
    c = Client(box.port)
    with ThreadPoolExecutor(6) as pool:
        answers = list(pool.map(lambda _: Client(box.port).json("GET", "/api/history?game=soverana"), range(6)))
    assert [a[0] for a in answers] == [200] * 6 and len({json.dumps(a[1]) for a in answers}) == 1
    assert threads and all(t.startswith("history") for t in threads) and len(threads) == 1
    assert c.json("GET", "/api/history?game=soverana")[0] == 200 and len(threads) == 1  # kept
    box.hub.history_epoch += 1  # the table's game ended (the hub bumps it): asked again
    assert c.json("GET", "/api/history?game=soverana")[0] == 200 and len(threads) == 2


def test_too_many_waiting_are_told_to_try_again(box: Box) -> None:
    gate = threading.Event()
    src = box.source

    def history(query: Mapping[str, str]) -> str:
        gate.wait(5)
        return FixtureSource.history(src, query)

    box.hub.history = history
    names = [f"p{i}" for i in range(MAX_WAITING + 3)]
    with ThreadPoolExecutor(len(names)) as pool:
        futures = [pool.submit(Client(box.port).json, "GET", f"/api/history?player={n}") for n in names]
        end = time.monotonic() + 10  # three turned away means the others were all waiting then (none can leave)
        while sum(f.done() for f in futures) < 3 and time.monotonic() < end:
            time.sleep(0.01)
        gate.set()
        got = [f.result() for f in futures]
    busy = [d["error"] for s, d in got if s == 503]
    assert len(busy) == 3 and all("busy" in b for b in busy)
    assert sum(1 for s, _ in got if s == 200) == MAX_WAITING


def test_a_failing_provider_is_one_line_and_the_server_stands(box: Box, caplog: pytest.LogCaptureFixture) -> None:
    def broken(query: Mapping[str, str]) -> str:
        if query.get("game") == "society":
            return json.dumps({"error": "the journal cannot be read (disk I/O error)\nsecond line"})
        raise RuntimeError("disk I/O error")

    box.hub.history = broken
    c = Client(box.port)
    status, data = c.json("GET", "/api/history")
    assert status == 500 and data["error"] == "The history could not be read: see the companion's log"
    assert "disk I/O error" in caplog.text
    status, data = c.json("GET", "/api/history?game=society")
    assert status == 503 and data["error"] == "The journal cannot be read (disk I/O error)"
    assert c.json("GET", "/api/story/2")[0] == 200
    box.hub.history = None
    status, data = c.json("GET", "/api/history")
    assert status == 503 and "history page is off" in data["error"]


def test_a_partial_history_is_not_kept(box: Box) -> None:
    """The provider answers with what it has read so far (``pending``): the page asks again and gets more."""
    left = [3, 0]

    def history(query: Mapping[str, str]) -> str:
        return json.dumps({"games": [], "pending": left.pop(0)}, separators=(",", ":"))

    box.hub.history = history
    c = Client(box.port)
    assert c.json("GET", "/api/history")[1]["pending"] == 3
    assert c.json("GET", "/api/history")[1]["pending"] == 0
    assert c.json("GET", "/api/history")[1]["pending"] == 0 and left == []  # the whole one is kept
    read = [False, True]

    def story(game_id: int) -> str:
        return json.dumps({"id": game_id, "title": "Sovereign", "pending": True, "charts": []} if not read.pop(0)
                          else {"id": game_id, "title": "Sovereign", "charts": [], "table": []})

    box.hub.story = story
    assert c.json("GET", "/api/story/5")[1]["pending"] is True
    assert "pending" not in c.json("GET", "/api/story/5")[1] and read == []
    assert "pending" not in c.json("GET", "/api/story/5")[1]  # kept now


def test_a_paired_view_shows_the_history_to_paired_phones_only(tmp_path: Path) -> None:
    with Box(tmp_path, view="paired") as b:
        stranger = Client(b.port)
        for path in ("/api/history", "/api/story/2"):
            status, data = stranger.json("GET", path)
            assert status == 401 and "enter the PIN" in data["error"], path
        phone = b.phone()
        assert phone.json("GET", "/api/history")[0] == 200 and phone.json("GET", "/api/story/2")[0] == 200


def test_only_the_host_phone_renames_and_merges_and_nothing_is_journaled(box: Box) -> None:
    body = {"merge": {"from": "Cleo", "into": "Ana"}}
    status, data = Client(box.port).json("POST", "/api/names", body)
    assert status == 401 and "Pair this phone" in data["error"]
    seat_phone = box.phone()
    status, data = seat_phone.json("POST", "/api/names", body)
    assert status == 403 and data["error"].startswith("Only the host phone renames players")
    host = box.phone(host=True)
    box.calm()
    before = host.json("GET", "/api/history")[1]["players"]
    for bad in ({"merge": {"from": "Cleo"}}, {"rename": {"from": "", "to": "Ana"}}, {"name": "Cleo", "to": "Ana"},
                {"rename": {"from": "Cleo", "to": "x" * 41}}, {"merge": {"from": "Cleo", "into": "\x07"}},
                {"rename": {"from": 3, "to": "Ana"}}, {"rename": "Cleo"}):
        status, data = host.json("POST", "/api/names", bad)
        assert status == 400 and "\n" not in data["error"], bad
    status, data = host.json("POST", "/api/names", {"rename": {"from": "Cleo", "to": "Ana"}})
    assert status == 409 and data["error"] == "Ana is already a player's name; merge Cleo into Ana instead"
    status, data = host.json("POST", "/api/names", {"merge": {"from": "  Cleo ", "into": "Ana"}})
    assert status == 200 and data["message"] == "Cleo's games now count as Ana's" and data["names"]["cleo"] == "Ana"
    after = host.json("GET", "/api/history")[1]  # not the answer kept from before: a change clears it
    assert "Cleo" not in after["players"] and after["names"]["cleo"] == "Ana"
    assert after["players"]["Ana"]["plays"] == before["Ana"]["plays"] + before["Cleo"]["plays"]
    status, data = host.json("POST", "/api/names", {"rename": {"from": "Ana", "to": "Ana B."}})
    assert status == 200 and data["message"] == "Ana is now called Ana B."
    assert "Ana B." in host.json("GET", "/api/history")[1]["players"]
    assert box.events.empty()  # nothing went to the game loop: the journal never sees a rename
