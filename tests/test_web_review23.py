"""A second, independent review of the web view's trust model (issue #23): what hostile phones and watchers found on
a live table over loopback, each closed here."""
from __future__ import annotations

import json
import logging
import socket
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

import companion.games
from webtable import LiveTable


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


def raw_answer(c: Any, body: bytes) -> tuple[int, Any]:
    status, _h, payload = c.request("POST", "/api/answer", raw=body,
                                    headers={"Content-Type": "application/json", "X-CSRF-Token": c.csrf})
    return status, json.loads(payload)


def test_a_question_number_that_is_not_a_whole_number_is_refused_and_the_game_replays(tmp_path: Path) -> None:
    """``{"seq": 1.0}`` equalled the prompt's number, so the answer was taken and journaled as ``answer 1.0 web:seat1
    3``: on the next start the journal could not read it back, and the game was cut off there and forked."""
    with LiveTable(tmp_path) as t:
        t.press("ok")
        t.settle()
        ana = t.phone(1)
        seq = host_prompt(t)["seq"]
        n0 = len(list(t.app.journal.inputs(t.app.record.id)))
        for body in (b'{"seq": %d.0, "value": 3}' % seq, b'{"seq": %d e0, "value": 3}' % seq,
                     b'{"seq": "%d", "value": 3}' % seq, b'{"seq": true, "value": 3}'):
            status, data = raw_answer(ana, body.replace(b" e0", b"e0"))
            assert status == 400 and "whole number" in data["error"], (body, status, data)
        t.settle()
        assert len(list(t.app.journal.inputs(t.app.record.id))) == n0
        assert ana.answer(seq, 3)[0] == 200  # the same answer with a whole number is taken
        t.settle()
        state = t.public()["state"]
    with LiveTable(tmp_path) as t:  # a restart replays every input
        assert t.public()["state"] == state and t.app.record.id == 1


@pytest.mark.parametrize("how", ["gives up and asks again", "waits out its request", "asks as OK is pressed"])
def test_ok_gives_only_what_the_device_showed_never_a_request_made_since(table: LiveTable, how: str) -> None:
    """A phone asked for seat 2; while "Phone X asks for seat 2 Ben" stayed on the OLED it gave that up and asked for
    host rights (or waited the minutes its request lasts and asked again): the table's OK on the seat-2 screen gave
    it host rights."""
    from companion.web.pairing import HOST
    from companion.web.screen import SeatRequestScreen

    x = table.phone()
    assert x.json("POST", "/api/claim", {"seat": 2})[0] == 202
    table.wait(lambda: isinstance(table.app.pair_screen, SeatRequestScreen), "the request on the device")
    assert table.app.pair_screen.what == "seat 2 Ben"
    table.app.pair_screen.shown -= 5  # the table took its time to read it
    if how == "asks as OK is pressed":  # the new ask lands between the press and the loop's turn to handle it
        key = table.hub.pairing.session(x.cookie.split("=", 1)[1]).key
        table.hub.pairing.release(key)
        table.hub.pairing.request(key, HOST)
    else:
        if how == "gives up and asks again":
            assert x.json("POST", "/api/claim", {"seat": None})[0] == 200
        else:
            from companion.web.pairing import REQUEST_TTL

            clock = table.hub.pairing.clock
            table.hub.pairing.clock = lambda: clock() + REQUEST_TTL + 1  # nobody answered while its request lasted
        assert x.json("POST", "/api/claim", {"seat": "host"})[0] == 202
        table.settle()
    scr = table.app.pair_screen
    scr.shown -= 5
    table.press("ok")  # meant for what the OLED shows
    table.settle()
    me = x.json("GET", "/api/state")[1]["me"]
    given = "host rights" if me["host"] else f"seat {me['seat']}" if me["seat"] else None
    assert given is None or scr.what.startswith(given), (scr.what, given)
    assert not (me["host"] and me["seat"])


def test_a_cursor_move_on_a_secret_ballot_does_no_web_work_at_all(tmp_path: Path) -> None:
    """The moves sent no update, but each one rebuilt the web view's snapshot (8.5 ms of the main loop on a SOVERANA
    table here, far more on a Pi) only to find it unchanged: a watcher polling ``/api/state`` saw the replies slow
    down once per move, 9 of 20 moves, and an odd count of moves on a two-option ballot is NO."""
    with LiveTable(tmp_path, game="ballots") as t:
        t.press("ok")  # the wizard's start
        t.settle()
        t.press("ok")  # "pass to Ana" → the ballot opens on the device
        t.settle()
        assert t.app.session.private_screen()
        built: list[int] = []
        build = t.hub.builder.build
        t.hub.builder.build = lambda *a, **k: built.append(1) or build(*a, **k)  # type: ignore[method-assign]
        frames = len(t.out.frames)
        t.press(*["down"] * 7)
        t.settle()
        assert len(t.out.frames) == frames + 7  # the voter sees each move
        assert built == []  # and the web view does nothing that could be timed
        t.press("ok")  # the ballot is cast: an ordinary input, published
        t.settle()
        assert built and t.app.session.game.data["votes"] == ["no"]


def _stream(port: int, source: str, cookie: str = "") -> "socket.socket":
    s = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))
    s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{cookie and 'Cookie: ' + cookie + chr(13) + chr(10)}"
              "\r\n".encode())
    assert s.recv(15).startswith(b"HTTP/1.1 200")
    return s


def test_many_addresses_with_one_live_stream_each_lock_no_new_phone_out_nor_a_paired_one(table: LiveTable) -> None:
    """A full server let a newcomer in only by taking from an address holding two more than its own: 256 addresses
    (easy on IPv6) each holding one live stream, which is never idle, locked every new phone out for as long as they
    read."""
    table.server.guard.limit = 30
    ana = table.phone(1)
    mine = _stream(table.port, "127.0.6.1", ana.cookie)
    flood = [_stream(table.port, f"127.0.5.{i}") for i in range(1, 30)]
    try:
        table.wait(lambda: len(table.server.guard.conns) >= 30, "the 30 streams held")
        assert len(table.server.guard.conns) == 30
        for i in range(1, 4):  # new phones, one after another, each from its own address
            s = socket.create_connection(("127.0.0.1", table.port), timeout=5, source_address=(f"127.0.7.{i}", 0))
            s.sendall(f"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1:{table.port}\r\n\r\n".encode())
            assert s.recv(15).startswith(b"HTTP/1.1 200"), i
            s.close()
        for i in range(30, 60):  # the flood goes on from fresh addresses: Ana's stream stays
            flood.append(socket.create_connection(("127.0.0.1", table.port), timeout=5,
                                                  source_address=(f"127.0.5.{i}", 0)))
        time.sleep(0.2)
        assert any(c.addr == "127.0.6.1" for c in table.server.guard.conns.values())
        mine.settimeout(0.2)
        try:
            while mine.recv(1 << 16):  # what came so far; a dropped stream ends (b"")
                pass
            pytest.fail("Ana's live stream was dropped for the flood")
        except socket.timeout:
            pass  # still open, waiting for the next update
    finally:
        mine.close()
        for s in flood:
            s.close()


def test_malformed_requests_do_not_fill_the_log_but_a_handler_fault_still_shows(
        table: LiveTable, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each malformed request was logged by aiohttp as an ERROR with a traceback: 818 in 3 s from one unpaired client
    wrote 8,834 lines (500 KB), enough to bury the companion's own log and use up journald's rate limit."""
    caplog.set_level(logging.DEBUG)
    port = table.port
    for head in (b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", b"GET / HTTP/1.1\r\nX: " + b"a" * 5000 + b"\r\n\r\n",
                 b"GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n") * 5:
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        s.sendall(head)
        assert s.recv(100).startswith(b"HTTP/1.")  # the client is told (400, 431, 505)
        s.close()
    time.sleep(0.2)
    assert [r for r in caplog.records if r.levelno >= logging.ERROR] == []

    def broken(*_a: Any) -> str:
        raise RuntimeError("a bug in a handler")
    monkeypatch.setattr(table.server, "_payload", broken)
    assert table.client().request("GET", "/api/state")[0] == 500
    table.wait(lambda: any(r.exc_info and "a bug in a handler" in str(r.exc_info[1]) for r in caplog.records),
               "the handler's fault in the log")


def test_a_dice_answer_carries_nothing_the_roll_does_not_use_into_the_journal(table: LiveTable) -> None:
    """``{"source": "rng", "values": <16 KB of anything>}`` was taken (the companion rolled) and journaled as sent;
    so was any key beside a typed roll's values."""
    host = table.phone("host")
    for value in (3, "north"):
        assert host.answer(host_prompt(table)["seq"], value)[0] == 200
    seq = host_prompt(table)["seq"]
    assert host_prompt(table)["kind"] == "dice"
    n0 = len(list(table.app.journal.inputs(table.app.record.id)))
    status, data = host.answer(seq, {"source": "typed", "values": [1, 2], "junk": "x" * 12000})
    assert status == 400 and data["error"].startswith('send {"source": "rng"}'), data
    assert len(list(table.app.journal.inputs(table.app.record.id))) == n0
    assert host.answer(seq, {"source": "rng", "values": "x" * 12000, "note": [[1]]})[0] == 200  # the companion rolls
    assert list(table.app.journal.inputs(table.app.record.id))[-1][2] == f'answer {seq} web:host {{"source":"rng"}}'
