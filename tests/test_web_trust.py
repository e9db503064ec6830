"""The web view's trust model (issue #23), each finding shown closed over HTTP on a loopback port: a secret ballot
sends no signal to an unpaired watcher, a phone acts only for the seat the device gave it, Society's orders stay
sealed, refusals stay private and are never journaled, the server holds under hostile connections, pairings survive
a restart and end with their game."""
from __future__ import annotations

import ast
import http.client
import json
import logging
import random
import socket
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

import companion.games
from companion.web.screen import SeatRequestScreen
from webtable import Client, LiveTable

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _demo_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(companion.games.BUILTIN, "webdemo", "webtable:WebDemo")
    monkeypatch.setitem(companion.games.BUILTIN, "ballots", "webtable:Ballots")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    with LiveTable(tmp_path) as t:
        t.press("ok")  # start the game: "How many" for Ana
        t.settle()
        yield t


def host_prompt(t: LiveTable) -> dict[str, Any]:
    return json.loads(t.hub.latest.host)["prompt"]  # type: ignore[no-any-return]


# ------------------------------------------------------------------ finding 1: the side-channel probe
class Probe:
    """An unpaired watcher: ``/api/state`` in a loop and the live stream, counting every change it can see."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.events: list[int] = []  #: the size of each stream event
        self.states: list[bytes] = []  #: each distinct /api/state body, in order
        self.polls = 0
        self._stop = threading.Event()
        self._conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self._conn.request("GET", "/api/events", headers={"Host": f"127.0.0.1:{port}"})
        self._sock = self._conn.sock  # the stream's socket: close() shuts it so the reader is not left waiting
        self._resp = self._conn.getresponse()
        self._threads = [threading.Thread(target=self._read, daemon=True),
                         threading.Thread(target=self._poll, daemon=True)]
        for th in self._threads:
            th.start()

    def _read(self) -> None:
        try:
            while not self._stop.is_set():
                line = self._resp.fp.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    self.events.append(len(line))
        except (OSError, ValueError):
            pass

    def _poll(self) -> None:
        c = Client(self.port)
        while not self._stop.is_set():
            body = c.request("GET", "/api/state")[2]
            self.polls += 1
            if not self.states or self.states[-1] != body:
                self.states.append(body)
            time.sleep(0.005)

    def mark(self) -> tuple[int, int]:
        time.sleep(0.1)  # the stream and the poller catch up
        return len(self.events), len(self.states)

    def close(self) -> None:
        self._stop.set()
        try:
            self._sock.shutdown(socket.SHUT_RDWR)  # wakes the reader now, not at the server's next keep-alive
        except OSError:
            pass
        self._conn.close()
        for th in self._threads:
            th.join(5)


def test_ten_secret_ballots_send_no_signal_to_an_unpaired_watcher(tmp_path: Path) -> None:
    """Finding 1: every UP/DOWN on a ballot was journaled, so the public ``journal_entries`` rose and an update went
    out: an odd count of moves on a two-option ballot meant NO. Now the cursor moves send nothing at all, and what a
    watcher sees of a whole ballot (events, their sizes, state bodies) is the same whatever the vote."""
    rng = random.Random(23)
    with LiveTable(tmp_path, game="ballots") as t:
        t.press("ok")  # the wizard's first screen: start
        t.settle()
        ana = t.phone(1)
        probe = Probe(t.port)
        try:
            per_ballot: list[tuple[str, str, list[int], int]] = []
            moved = 0
            e0, s0 = probe.mark()  # then each ballot's window starts where the last one's ended: none left out
            for i in range(10):
                on_device = i % 2 == 1  # Ana (seat 1) votes on her phone; Ben (seat 2) on the device
                vote = rng.choice(["yes", "no"])
                if on_device:
                    t.press("ok")  # "pass to Ben" → the ballot opens (public: the same for every vote)
                    t.settle()
                    e1, s1 = probe.mark()
                    moves = rng.randrange(3, 14) | (1 if vote == "no" else 0)  # odd: No; even: Yes
                    moves -= 0 if vote == "no" else moves % 2
                    t.press(*["down"] * moves)
                    t.settle()
                    moved += moves
                    assert probe.mark() == (e1, s1), f"ballot {i + 1}: a cursor move reached the watcher"
                    t.press("ok")
                else:
                    assert ana.answer(host_prompt(t)["seq"], vote)[0] == 200
                t.settle()
                e2, s2 = probe.mark()
                per_ballot.append(("device" if on_device else "phone", vote, probe.events[e0:e2], s2 - s0))
                e0, s0 = e2, s2
            votes = t.app.session.game.data["votes"]
        finally:
            probe.close()
    assert len(votes) == 10 and votes == [v for _w, v, _e, _s in per_ballot]
    for where in ("device", "phone"):
        seen = {(len(ev), tuple(ev), n) for w, _v, ev, n in per_ballot if w == where}
        # the sizes grow only with the count of ballots cast (a digit), never with the vote
        assert len({(n_ev, n) for n_ev, _sizes, n in seen}) == 1, (where, seen)
    yes = [ev for _w, v, ev, _n in per_ballot if v == "yes"]
    no = [ev for _w, v, ev, _n in per_ballot if v == "no"]
    assert yes and no
    print(f"\nprobe: {probe.polls} polls, {len(probe.events)} stream events, {len(probe.states)} distinct states over "
          f"10 ballots ({moved} cursor moves on the device): events per ballot "
          f"{[len(ev) for _w, _v, ev, _n in per_ballot]}, states per ballot {[n for *_x, n in per_ballot]}")


# ------------------------------------------------------------------ finding 2: seats are bound
def test_a_phone_answers_only_for_the_seat_the_device_gave_it(table: LiveTable) -> None:
    ana, ben = table.phone(), table.phone()
    seq = host_prompt(table)["seq"]  # "How many", Ana's
    status, data = ana.answer(seq, 3)
    assert status == 403 and "seat 1" in data["error"]  # paired, but no seat: it answers nothing
    status, data = ana.json("POST", "/api/claim", {"seat": 1})
    assert status == 202 and ana.code in data["message"]  # asked: the table confirms on the device
    assert ana.answer(seq, 3)[0] == 403  # not yet given
    table.wait(lambda: isinstance(table.app.pair_screen, SeatRequestScreen), "the request on the device")
    table.app.pair_screen.shown -= 5
    table.press("back")  # the table says no
    table.settle()
    assert table.hub.pairing.seats() == {} and ana.answer(seq, 3)[0] == 403
    table.give(ana, 1)
    table.give(ben, 2)
    assert ben.answer(seq, 3)[0] == 403  # Ana's question: not Ben's phone's
    assert ana.answer(seq, 3)[0] == 200
    seq = host_prompt(table)["seq"]  # "Which road", Ben's
    assert ana.answer(seq, "south")[0] == 403
    status, data = ana.json("POST", "/api/claim", {"seat": 2})  # hopping to Ben's seat: only a request
    assert status == 202 and table.hub.pairing.seats()[1] == ana.code
    assert ana.answer(seq, "south")[0] == 403
    table.wait(lambda: isinstance(table.app.pair_screen, SeatRequestScreen), "the hop request on the device")
    table.app.pair_screen.shown -= 5
    table.press("down")  # any key but OK: no
    table.settle()
    assert table.hub.pairing.seats() == {1: ana.code, 2: ben.code}
    assert ben.answer(seq, "south")[0] == 200


def test_host_rights_are_given_only_by_the_table_and_never_cast_a_ballot(table: LiveTable) -> None:
    gm = table.phone()
    assert gm.answer(host_prompt(table)["seq"], 3)[0] == 403
    assert gm.json("POST", "/api/claim", {"seat": "host"})[0] == 202
    assert not gm.json("GET", "/api/state")[1]["me"]["host"]
    table.wait(lambda: isinstance(table.app.pair_screen, SeatRequestScreen), "the request on the device")
    assert "host rights" in table.app.pair_screen.what
    table.press("ok")  # at once: an OK meant for the game a phone timed its request to catch gives nothing
    table.settle()
    assert not gm.json("GET", "/api/state")[1]["me"]["host"]
    assert table.app.pair_screen.note == "Read the request first"  # and the request stays up
    table.skip(1.1)  # the table reads it (a second on the table's clock), then OK
    table.press("ok")
    table.settle()
    assert gm.json("GET", "/api/state")[1]["me"]["host"]
    other = table.phone()
    assert other.json("POST", "/api/claim", {"seat": "host"})[0] == 202  # the table (or the host phone) decides
    for value in (3, "north", {"source": "rng"}, ["a"]):  # seats 1, 2, 1 and the whole table
        assert gm.answer(host_prompt(table)["seq"], value)[0] == 200, value
    assert host_prompt(table)["kind"] == "secret_vote"
    status, data = gm.answer(host_prompt(table)["seq"], "yes")
    assert status == 403 and "own phone" in data["error"]  # a secret ballot is the voter's alone


# ------------------------------------------------------------------ finding 3: hidden orders
def _society(t: LiveTable) -> Client:
    gm = t.phone("host")
    for value in (3, "start", "start"):
        assert gm.answer(host_prompt(t)["seq"], value)[0] == 200
    return gm


def test_society_orders_are_sealed_until_the_turn_is_processed(tmp_path: Path) -> None:
    with LiveTable(tmp_path, game="society", names=("Ana", "Ben", "Cleo")) as t:
        gm = _society(t)
        watcher, ana = t.client(), t.phone(1)
        before = watcher.request("GET", "/api/state")[2]
        seen_by_ana = ana.request("GET", "/api/state")[2]
        assert b"entering orders" in before and b'"orders":[' not in before
        for value in ("soc:1", "armies", 2, "done", "soc:2", "armies", 1, "done"):
            assert gm.answer(host_prompt(t)["seq"], value)[0] == 200, value
        t.settle()
        # not a byte moved for anyone but the host: not the orders, their count, a version, the log or the OLED
        assert watcher.request("GET", "/api/state")[2] == before
        assert json.loads(ana.request("GET", "/api/state")[2])["snapshot"] == json.loads(seen_by_ana)["snapshot"]
        host = gm.json("GET", "/api/state")[1]["snapshot"]
        assert [o["seat"] for o in host["state"]["orders"]] == ["1", "2"]
        for value in ("process", True):
            assert gm.answer(host_prompt(t)["seq"], value)[0] == 200
        t.settle()
        after = watcher.json("GET", "/api/state")[1]["snapshot"]
        assert "sealed" not in after and "Ana builds 2 armies" in json.dumps(after)  # the processed turn is public


def test_a_table_may_open_the_orders_with_the_game_switch(tmp_path: Path) -> None:
    with LiveTable(tmp_path, game="society", names=("Ana", "Ben", "Cleo"), options={"open_orders": True}) as t:
        gm = _society(t)
        for value in ("soc:1", "armies", 2, "done"):
            assert gm.answer(host_prompt(t)["seq"], value)[0] == 200
        t.settle()
        public = t.client().json("GET", "/api/state")[1]["snapshot"]
        assert [o["seat"] for o in public["state"]["orders"]] == ["1"]


# ------------------------------------------------------------------ findings 4 and 5: refusals stay private
def test_refused_answers_go_back_to_their_phone_only_and_the_journal_does_not_grow(
        table: LiveTable, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR)
    hostile = table.phone("host")
    watcher = table.client()
    journal = Path(table.cfg.journal_path())
    table.skip(max(0.0, (table.app.toast_until or 0.0) - table.clock.monotonic()))  # the grant's toast goes ...
    table.wait(lambda: table.app.toast_until is None, "the grant's toast to go (its expiry redraws)", timeout=20)
    table.settle()
    size0, frames0, state0 = journal.stat().st_size, len(table.out.frames), watcher.request("GET", "/api/state")[2]
    n0 = len(list(table.app.journal.inputs(table.app.record.id)))
    seq = host_prompt(table)["seq"]
    answers = [["x"], {"a": 1}, [[1]], "HACKED by phone B: pay", 99, None, {"values": [1]}]
    statuses: dict[int, int] = {}
    t0 = time.monotonic()
    for i in range(200):
        status, data = hostile.answer(seq, answers[i % len(answers)])
        statuses[status] = statuses.get(status, 0) + 1
        if status == 409:
            assert "Internal error" not in data["message"]
    table.settle()
    assert statuses.get(409, 0) >= 20 and statuses.get(429, 0) > 0 and 200 not in statuses, statuses
    assert len(list(table.app.journal.inputs(table.app.record.id))) == n0  # not one refused answer journaled
    growth = journal.stat().st_size - size0
    assert growth <= 64 * 1024, growth  # SQLite may touch a page; 200 answers once added 3.2 MB
    assert len(table.out.frames) == frames0  # nothing drawn on the OLED for a refusal
    assert watcher.request("GET", "/api/state")[2] == state0  # nor anything on other phones
    assert not [r for r in caplog.records if "failed" in r.getMessage() or r.exc_info]  # no TypeError in the loop
    print(f"\n200 hostile answers in {time.monotonic() - t0:.1f} s: {statuses}; journal grew {growth} bytes")


def test_a_list_or_an_object_as_a_choice_is_refused_plainly(table: LiveTable) -> None:
    c = table.phone("host")
    assert c.answer(host_prompt(table)["seq"], 2)[0] == 200
    seq = host_prompt(table)["seq"]  # a choice
    for value in (["north"], {"key": "north"}, [["a"]]):
        status, data = c.answer(seq, value)
        assert status == 409 and data["message"] == "That is not one of the choices", (value, data)


# ------------------------------------------------------------------ findings 6 and 7: a server that holds
def _raw(port: int, head: bytes, source: str = "127.0.0.1") -> bytes:
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    try:
        s.sendall(head)
        return s.recv(4096)
    finally:
        s.close()


def test_a_page_from_another_site_cannot_read_the_table(table: LiveTable) -> None:
    """Finding 7: DNS rebinding: a page on evil.example whose name now points at the companion."""
    port = table.port
    reply = _raw(port, b"GET /api/state HTTP/1.1\r\nHost: evil.example:%d\r\n\r\n" % port)
    assert reply.startswith(b"HTTP/1.1 421") and b"Ana" not in reply
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"192.168.1.23:{port}"):
        assert _raw(port, f"GET /api/state HTTP/1.1\r\nHost: {host}\r\n\r\n".encode()).startswith(b"HTTP/1.1 200")
    c = table.phone()
    status, _h, _b = c.request("POST", "/api/claim", {"seat": 1}, headers={"Origin": "http://evil.example"})
    assert status in (403, 421)


def test_slow_clients_are_dropped_and_a_flood_from_one_address_leaves_room_for_a_phone(tmp_path: Path) -> None:
    """Finding 6: 1,100 idle connections locked every new phone out; slow clients were never dropped."""
    from companion.web.hub import Hub
    from companion.web.server import WebServer

    hub = Hub(lambda ev: None)
    server = WebServer(hub, "127.0.0.1", 0, max_connections=40)
    server.header_s = 60.0  # while the flood comes in none is slow yet, however busy the machine (then 1 s)
    port = server.start()
    flood: list[socket.socket] = []

    def until(cond: Any, what: str) -> None:
        end = time.monotonic() + 20
        while not cond():
            assert time.monotonic() < end, f"{what}: {server.guard.dropped}, {len(server.guard.conns)} held"
            time.sleep(0.02)

    try:
        slow = socket.create_connection(("127.0.0.1", port), timeout=5)
        slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finishes its head
        for _ in range(200):  # the flood: one address, far more connections than the cap
            flood.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        until(lambda: server.guard.dropped["full"] >= 160, "the flood refused past the cap")
        assert len(server.guard.conns) <= 40
        reply = _raw(port, b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", source="127.0.0.2")
        assert reply.startswith(b"HTTP/1.1 200"), reply[:80]  # a phone from another address gets in
        server.guard.header_s = 1.0
        slow.settimeout(10)
        assert slow.recv(100) == b""  # dropped: it never sent a whole request head
        until(lambda: server.guard.dropped["slow"] >= 1, "the idle ones dropped as slow")
        assert server.guard.dropped["full"] >= 160
    finally:
        slow.close()
        for s in flood:
            s.close()
        server.stop()


# ------------------------------------------------------------------ findings 9 and 10: pairings last, then end
def test_pairings_and_seats_survive_a_restart_and_forget_all_ends_them(tmp_path: Path) -> None:
    with LiveTable(tmp_path) as t:
        t.press("ok")
        t.settle()
        ana = t.phone(1)
        cookie, csrf, code = ana.cookie, ana.csrf, ana.code
        assert cookie.split("=", 1)[1] not in (tmp_path / "web-pairings.json").read_text()
    with LiveTable(tmp_path) as t:  # a restart: the same game resumes
        ana = t.client()
        ana.cookie, ana.csrf = cookie, csrf
        me = ana.json("GET", "/api/state")[1]["me"]
        assert me["paired"] and me["seat"] == 1
        assert ana.answer(host_prompt(t)["seq"], 3)[0] == 200  # Ana's question, from Ana's phone
        from companion.events import Key
        from companion.ui.settings_menu import SettingsMenu

        menu = SettingsMenu(t.app)  # Settings → Phones (1) → Forget all phones, by its keys
        labels = [it.label for it in menu.stack[0][2].items]
        for _ in range(labels.index("Phones (1)")):
            menu.key(Key.DOWN)
        menu.key(Key.OK)
        assert menu.title == "Paired phones"
        assert [it.label for it in menu.stack[-1][2].stack[0][2].items] == [f"{code} seat 1", "Forget all phones"]
        menu.key(Key.DOWN)
        assert menu.key(Key.OK).text == "1 phone forgotten"
        assert not ana.json("GET", "/api/state")[1]["me"]["paired"]


def test_pairings_end_with_their_game(tmp_path: Path) -> None:
    with LiveTable(tmp_path) as t:
        t.press("ok")
        t.settle()
        c = t.phone("host")
        t.app.leave_game()  # the game ends: back to the home menu
        t.app.draw()
        assert not c.json("GET", "/api/state")[1]["me"]["paired"]


# ------------------------------------------------------------------ #28: the web package imports no game rules
def test_the_web_package_imports_no_game_rules_or_machines() -> None:
    bad = []
    for path in sorted((ROOT / "companion" / "web").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            bad += [f"{path.name}: {n}" for n in names
                    if n.startswith("companion.rules") or (n.startswith("fsm") and n not in ("fsm.prompts",))]
    assert bad == []


# ------------------------------------------------------------------ finding 11: the mirror shows the idle screen
def test_the_mirror_shows_what_the_oled_shows_when_it_idles(tmp_path: Path) -> None:
    import base64
    import io

    from PIL import Image

    from companion.ui.idle import Level

    with LiveTable(tmp_path, glance=1) as t:
        t.press("ok")
        t.settle()
        t.skip(1)  # the glance's idle second passes on the table's clock
        t.wait(lambda: t.app.idle.level is not Level.AWAKE, "the glance view", timeout=5)
        t.settle()
        png = base64.b64decode(t.public()["oled"].split(",", 1)[1])
        assert Image.open(io.BytesIO(png)).convert("1").tobytes() == t.out.frames[-1].convert("1").tobytes()
