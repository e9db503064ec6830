"""The web view over HTTP on a loopback port: every route, pairing with the PIN, CSRF, the rate limit, answers through
the same journal as a button press, secret ballots only on the voter's phone, and the live event stream."""
from __future__ import annotations

import http.client
import json
import logging
import re
import socket
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Iterator

import pytest

import companion.games
from companion.config.load import parse_config
from companion.session.headless import open_session
from companion.web import start_web
from companion.web.pairing import WRONG_PER_MINUTE
from webtable import Client, LiveTable

STATIC = Path(__file__).resolve().parent.parent / "companion" / "web" / "static"


@pytest.fixture(autouse=True)
def _demo_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(companion.games.BUILTIN, "webdemo", "webtable:WebDemo")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    with LiveTable(tmp_path) as t:
        t.press("ok")  # start the game: "How many" for Ana
        t.settle()
        yield t


def paired(t: LiveTable, seat: int | str | None = "host") -> Client:
    """A paired phone: by default the host's (it answers for the whole table); ``seat=None``: only paired."""
    return t.phone(seat)


def prompt(t: LiveTable) -> dict[str, Any]:
    """The prompt as the host phone sees it (the same as in public unless the game keeps a turn sealed)."""
    return json.loads(t.hub.latest.host)["prompt"]  # type: ignore[no-any-return]


# ------------------------------------------------------------------ reading
def test_page_and_assets_are_served_with_a_strict_policy(table: LiveTable) -> None:
    c = table.client()
    status, headers, body = c.request("GET", "/")
    assert status == 200 and b'<script src="/static/app.js"' in body
    assert "script-src 'self'" in headers["content-security-policy"]
    assert headers["x-content-type-options"] == "nosniff"
    for name, ctype in (("app.js", "text/javascript"), ("app.css", "text/css")):
        status, headers, _ = c.request("GET", f"/static/{name}")
        assert status == 200 and headers["content-type"].startswith(ctype)
    assert c.request("GET", "/static/index.html")[0] == 404
    assert c.request("GET", "/static/..%2fserver.py")[0] == 404
    assert c.request("GET", "/nothing")[0] == 404


def test_every_asset_is_local_no_cdn() -> None:
    for f in STATIC.iterdir():
        text = f.read_text(encoding="utf-8").replace('"http://www.w3.org/2000/svg"', "")  # a namespace, not a load
        assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", text, re.I), f"{f.name} loads from elsewhere"
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text, f"{f.name} parses text as HTML"


def test_state_shows_the_game_to_anyone_in_open_view(table: LiveTable) -> None:
    status, data = table.client().json("GET", "/api/state")
    assert status == 200
    snap, me = data["snapshot"], data["me"]
    assert snap["game"] == {"id": "webdemo", "name": "Web demo"}
    assert snap["prompt"]["kind"] == "number" and snap["prompt"]["player_name"] == "Ana"
    assert snap["state"]["players"][0]["name"] == "Ana"
    assert snap["views"] == [{"title": "Demo page", "lines": ["n = 0"]}]
    assert "<b>Setup</b> & done" in snap["log"]  # as text; the page sets it with textContent
    assert snap["oled"].startswith("data:image/png;base64,")
    assert me == {"paired": False, "view": "open", "seat": None, "seats_held": [], "panel": True}


def test_paired_view_hides_everything_until_paired(tmp_path: Path) -> None:
    with LiveTable(tmp_path, view="paired") as t:
        c = t.client()
        status, data = c.json("GET", "/api/state")
        assert status == 401 and "PIN" in data["error"]
        assert c.request("GET", "/api/events")[0] == 401
        assert c.request("GET", "/")[0] == 200  # the page itself, with the PIN form
        assert c.pair(t.hub.pairing.new_pin()) == 200
        status, data = c.json("GET", "/api/state")
        assert status == 200 and data["snapshot"]["game"]["id"] == "webdemo" and data["me"]["paired"]


def read_event(resp: http.client.HTTPResponse) -> dict[str, Any]:
    data = ""
    while True:
        line = resp.fp.readline().decode()
        if line.startswith("data: "):
            data = line[6:].strip()
        elif line == "\n" and data:
            return json.loads(data)  # type: ignore[no-any-return]


def test_events_stream_pushes_a_snapshot_on_each_device_press(table: LiveTable) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", table.port, timeout=5)
    conn.request("GET", "/api/events")
    resp = conn.getresponse()
    assert resp.status == 200 and resp.getheader("Content-Type") == "text/event-stream"
    first = read_event(resp)
    assert first["snapshot"]["prompt"]["title"] == "How many"
    table.press("up")  # the number spinner on the device: the OLED changes, so the page must too
    second = read_event(resp)
    assert second["snapshot"]["version"] > first["snapshot"]["version"]
    assert second["snapshot"]["oled"] != first["snapshot"]["oled"]
    table.press("ok")
    assert read_event(resp)["snapshot"]["prompt"]["title"] == "Which road"
    conn.close()


# ------------------------------------------------------------------ pairing
def test_pin_pairs_wrong_pins_are_refused_then_rate_limited(table: LiveTable) -> None:
    c = table.client()
    status, data = c.json("POST", "/api/pair", {"pin": "123456"})  # no PIN showing yet: said as a wrong one
    assert status == 403 and data["error"].startswith("Wrong PIN")
    pin = table.hub.pairing.new_pin()
    wrong = f"{(int(pin) + 1) % 1_000_000:06d}"
    for _ in range(WRONG_PER_MINUTE - 1):
        assert c.pair(wrong) == 403
    assert c.pair(pin) == 429  # even the right one, for a minute
    status, data = c.json("POST", "/api/pair", {"pin": pin})
    assert "wait" in data["error"] and not c.cookie


def test_the_session_cookie_is_http_only_and_same_site(table: LiveTable) -> None:
    c = table.client()
    status, headers, body = c.request("POST", "/api/pair", {"pin": table.hub.pairing.new_pin()})
    assert status == 200
    cookie = headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert json.loads(body)["csrf"]


def test_nothing_writes_without_a_paired_session_and_its_csrf_token(table: LiveTable) -> None:
    seq = prompt(table)["seq"]
    stranger = table.client()
    for path, body in (("/api/answer", {"seq": seq, "value": 3}), ("/api/claim", {"seat": 1}),
                       ("/api/unpair", {})):
        status, data = stranger.json("POST", path, body)
        assert status == 401 and "Pair this phone" in data["error"], path
    c = paired(table)
    csrf, c.csrf = c.csrf, ""
    status, data = c.answer(seq, 3)
    assert status == 403 and "CSRF" in data["error"]
    for path, body in (("/api/claim", {"seat": 1}), ("/api/unpair", {})):  # every writing route, not just answers
        for token in ("", "x" + csrf[1:]):
            c.csrf = token
            status, data = c.json("POST", path, body)
            assert status == 403 and "CSRF" in data["error"], (path, token)
    c.csrf = ""
    assert table.hub.pairing.seats() == {} and table.hub.pairing.session(c.cookie.split("=", 1)[1]) is not None
    c.csrf = "x" + csrf[1:]
    assert c.answer(seq, 3)[0] == 403
    c.csrf = csrf
    status, _h, body = c.request("POST", "/api/answer", raw=b"seq=1&value=3",
                                 headers={"Content-Type": "application/x-www-form-urlencoded",
                                          "X-CSRF-Token": csrf})
    assert status == 415
    status, data = c.json("POST", "/api/answer", {"seq": seq, "value": 3}, headers={"Origin": "http://evil.example"})
    assert status == 403 and "another site" in data["error"]
    status, _h, body = c.request("POST", "/api/answer", raw=b"{not json", headers={
        "Content-Type": "application/json", "X-CSRF-Token": csrf})
    assert status == 400 and b"not valid JSON" in body
    table.settle()
    assert table.app.session.n_inputs == 1 and prompt(table)["title"] == "How many"  # nothing reached the game


def test_hostile_requests_get_one_clear_line_and_lose_nothing(table: LiveTable) -> None:
    c = paired(table)
    seq = prompt(table)["seq"]
    json_headers = {"Content-Type": "application/json", "X-CSRF-Token": c.csrf}
    for raw, status, words in (
            (b'{"seq": 1, "value": "' + b"x" * 20_000 + b'"}', 413, "too large (16 KB at most)"),
            (b"[" * 5000 + b"]" * 5000, 400, "not valid JSON"),  # nested past Python's recursion limit
            (b"\xff\xfe{}", 400, "not valid JSON"),
            (b"[1, 2]", 400, "JSON object")):
        for path in ("/api/answer", "/api/pair"):
            got, headers, body = c.request("POST", path, raw=raw, headers=json_headers)
            assert got == status and headers["content-type"].startswith("application/json"), (path, raw[:20])
            assert words in json.loads(body)["error"] and "\n" not in json.loads(body)["error"]
    for method, path, status in (("GET", "/api/answer", 405), ("GET", "/api/nothing", 404), ("PUT", "/api/state", 405),
                                 ("GET", "/static/../companion/web/server.py", 404), ("GET", "/static/", 404)):
        got, _h, body = c.request(method, path)
        assert got == status, (method, path)
        if path.startswith("/api/"):
            assert json.loads(body)["error"]
    table.settle()
    assert table.app.session.n_inputs == 1 and prompt(table)["seq"] == seq  # nothing reached the game
    assert c.answer(seq, 3)[0] == 200  # and the server still answers


def test_unpair_forgets_the_phone(table: LiveTable) -> None:
    c = paired(table)
    assert c.json("POST", "/api/unpair", {})[0] == 200
    c.cookie = c.cookie or ""
    assert c.answer(prompt(table)["seq"], 3)[0] == 401


# ------------------------------------------------------------------ answering
def test_answers_go_through_the_journal_with_their_source_and_replay_exactly(table: LiveTable) -> None:
    c = paired(table)
    seq = prompt(table)["seq"]
    status, data = c.answer(seq, 5)
    assert status == 409 and data == {"ok": False, "message": "five is too many"}  # the game's own refusal
    assert c.answer(seq, 3) == (200, {"ok": True, "message": ""})
    assert c.answer(seq, 4)[0] == 409  # stale: that question was answered
    p = prompt(table)
    assert p["title"] == "Which road" and p["player_name"] == "Ben"
    status, data = c.answer(p["seq"], "west")
    assert status == 409 and data["message"] == "West is flooded"
    assert c.answer(p["seq"], "south")[0] == 200
    p = prompt(table)
    status, data = c.answer(p["seq"], {"values": [7, 1], "source": "typed"})
    assert status == 409 and "1 to 6" in data["message"]
    status, data = c.answer(p["seq"], {"values": [3, 4], "source": "roller"})
    assert status == 409 and "[dice] sources" in data["message"]
    assert c.answer(p["seq"], {"values": [3, 4], "source": "typed"})[0] == 200
    table.settle()
    s, rec = table.app.session, table.app.record
    assert s.game.data["n"] == 3 and s.game.data["choice"] == "south" and s.game.data["rolls"] == [3, 4]
    assert s.dice_history[-1]["source"] == "typed"
    snap = table.public()  # the dice history and the fairness verdict, as the page shows them
    assert snap["dice"][-1] == {**s.dice_history[-1], "player_name": "Ana"} and snap["dice"][-1]["values"] == [3, 4]
    assert [(f["roller"], f["die"], f["n"], f["verdict"]) for f in snap["fairness"]] == [
        ("typed", "d6", 2, "too few rolls")]
    events = [e for _n, _t, e in table.app.journal.inputs(rec.id)]
    # refused answers went back to the phone alone: never journaled
    assert events[1:] == ["answer 1 web:host 3", "answer 2 web:host \"south\"",
                          'answer 3 web:host {"values":[3,4],"source":"typed"}']
    replayed = open_session(table.app.journal, rec, table.cfg)
    assert replayed.state_json() == s.state_json() and replayed.prompt_seq == s.prompt_seq
    assert replayed.render().tobytes() == s.render().tobytes()  # the OLED and the phone agree, after replay too


def test_the_device_and_the_phone_agree_after_each_answer(table: LiveTable) -> None:
    c = paired(table)
    assert c.answer(prompt(table)["seq"], 2)[0] == 200
    # the frame published with the answer is the frame on the OLED
    import base64
    import io

    from PIL import Image

    png = base64.b64decode(table.public()["oled"].split(",", 1)[1])
    assert Image.open(io.BytesIO(png)).convert("1").tobytes() == table.out.frames[-1].convert("1").tobytes()
    table.press("ok")  # "north" on the device
    table.settle()
    assert prompt(table)["title"] == "Roll" and table.app.session.game.data["choice"] == "north"


def test_companion_rng_answers_a_dice_prompt(table: LiveTable) -> None:
    c = paired(table)
    c.answer(prompt(table)["seq"], 1)
    c.answer(prompt(table)["seq"], "north")
    assert c.answer(prompt(table)["seq"], {"source": "rng"})[0] == 200
    table.settle()
    rolls = table.app.session.game.data["rolls"]
    assert len(rolls) == 2 and all(1 <= v <= 6 for v in rolls)
    assert table.app.session.dice_history[-1]["source"] == "rng"


# ------------------------------------------------------------------ seats and secret ballots
def to_the_vote(t: LiveTable, c: Client) -> None:
    for value in (1, "north", {"source": "rng"}, ["a"]):
        assert c.answer(prompt(t)["seq"], value)[0] == 200
    assert prompt(t)["kind"] == "secret_vote"


def test_secret_ballot_goes_only_to_the_phone_holding_the_seat(table: LiveTable) -> None:
    ana, ben, watcher = paired(table, None), paired(table, None), table.client()
    to_the_vote(table, paired(table))
    p = prompt(table)
    assert "options" not in p and p["voter_name"] == "Ana" and p["lines"] == []  # others see only who votes
    assert "Yes" not in table.hub.latest.public and "Yes" in (table.hub.latest.ballot or "")
    status, data = ana.answer(p["seq"], "yes")
    assert status == 403 and "own phone" in data["error"]  # no seat given yet
    table.give(ana, 1)
    assert ben.json("POST", "/api/claim", {"seat": 3})[0] == 400
    table.give(ben, 2)
    me = ana.json("GET", "/api/state")[1]["me"]
    assert me["seat"] == 1 and [o["key"] for o in me["ballot"]["options"]] == ["yes", "no"]
    assert "ballot" not in ben.json("GET", "/api/state")[1]["me"]
    assert "ballot" not in watcher.json("GET", "/api/state")[1]["me"]
    assert ben.answer(p["seq"], "no")[0] == 403  # not Ben's ballot
    assert ana.answer(p["seq"], "yes")[0] == 200
    # Ben votes on the device: that still works while his phone holds the seat
    table.press("ok", "ok")  # "pass to Ben" → the ballot → first option (Yes)
    table.settle()
    assert prompt(table)["title"] == "Sure?"
    assert table.app.session.game.data["votes"] == {"1": "yes", "2": "yes"}
    events = [e for _n, _t, e in table.app.journal.inputs(table.app.record.id)]
    assert 'answer 5 web:seat1 "yes"' in events


def mirrored(t: LiveTable) -> bytes:
    """The OLED as a watcher's page mirrors it, as 1-bit pixels."""
    import base64
    import io

    from PIL import Image

    png = base64.b64decode(t.public()["oled"].split(",", 1)[1])
    return Image.open(io.BytesIO(png)).convert("1").tobytes()


def test_an_open_ballot_on_the_device_is_never_mirrored_to_the_page(table: LiveTable) -> None:
    to_the_vote(table, paired(table))
    table.press("ok")  # "Pass to Ana" → the ballot opens on the device
    table.settle()
    assert table.app.session.private_screen()
    covered = mirrored(table)
    table.press("down")  # Ana's cursor on "No": the device shows it, the page must not
    table.settle()
    device = table.out.frames[-1].convert("1").tobytes()
    assert mirrored(table) == covered != device
    from companion.web.screen import cover_frame

    assert covered == cover_frame("Secret vote", ("Ana", "is voting in secret", "on the companion.")).tobytes()
    table.press("ok")  # Ana votes No on the device; Ben's "pass to" screen is public again
    table.settle()
    assert table.app.session.game.data["votes"] == {"1": "no"} and not table.app.session.private_screen()
    assert mirrored(table) == table.out.frames[-1].convert("1").tobytes()


# ------------------------------------------------------------------ the OLED side and start-up
def test_pair_a_phone_from_the_game_menus_phones_shows_a_fresh_pin(table: LiveTable) -> None:
    table.press("hold")
    table.settle()
    labels = [it.label for it in table.app.session.overlays[-1].widget.items]
    n_inputs = table.app.session.n_inputs
    table.press(*["down"] * labels.index("Phones"), "ok")  # the game menu's Phones: Pair a phone comes first
    table.settle()
    under = mirrored(table)
    table.press("ok")
    table.settle()
    assert table.app.pair_screen is not None and table.hub.pairing.pin_valid()
    pin = table.app.pair_screen.pin
    assert re.fullmatch(r"\d{6}", pin)
    # the PIN proves the phone is at the table: the page's mirror shows what is under it, never the PIN
    assert mirrored(table) != table.out.frames[-1].convert("1").tobytes()
    assert mirrored(table) == under
    assert table.client().pair(pin) == 200
    table.press("back")  # any key closes it (not journaled): back on the Phones menu, which lists the new phone
    table.settle()
    assert type(table.app.pair_screen).__name__ == "PhonesScreen"
    assert [it.label for it in table.app.pair_screen.menu.stack[0][2].items][1].endswith("watching")
    table.press("back")
    table.settle()
    assert table.app.pair_screen is None and table.app.session.n_inputs == n_inputs + labels.index("Phones") + 1
    assert table.client().pair(pin) == 403  # the PIN ended with its screen


def test_start_web_on_a_taken_port_says_so_and_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    with socket.socket() as s, ExitStack() as stack:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        cfg = parse_config({"web": {"port": port, "bind": "127.0.0.1"}})
        with caplog.at_level(logging.ERROR):
            assert start_web(cfg, "sim", lambda ev: None, stack) is None
        assert f"cannot listen on 127.0.0.1:{port}" in caplog.text and "[web] port" in caplog.text
        assert start_web(parse_config({"web": {"enabled": False}}), "sim", lambda ev: None, stack) is None


def test_no_game_running_answers_are_refused(tmp_path: Path) -> None:
    with LiveTable(tmp_path, game=None) as t:  # type: ignore[arg-type]
        c = paired(t)
        assert t.public()["screen"] == "home"
        status, data = c.answer(0, True)
        assert status == 409 and "nothing to answer" in data["error"]
        time.sleep(0)


def test_chess_boards_and_the_society_report_are_in_the_snapshot(tmp_path: Path) -> None:
    with LiveTable(tmp_path / "royale", game="sovereign-chess-royale", names=("Ana", "Ben", "Cleo", "Dev")) as t:
        c = paired(t)
        assert c.answer(prompt(t)["seq"], "start")[0] == 200
        assert c.answer(prompt(t)["seq"], "random")[0] == 200
        assert c.answer(prompt(t)["seq"], True)[0] == 200  # the armies drawn, announced
        p = prompt(t)
        move = next(o for o in p["options"] if not o["in_menu"])
        assert len(move["path"]) >= 2  # the page offers the piece, then its target
        assert c.answer(p["seq"], move["key"])[0] == 200
        board = t.public()["chess"]
        assert len(board["cells"]) == 256 and sorted(board["control"]) == ["1", "2", "3", "4"]
        assert len(board["colour_squares"]) == 24 and len(board["last"]) == 2
    with LiveTable(tmp_path / "society", game="society", names=("Ana", "Ben", "Cleo")) as t:
        c = paired(t)
        for value in (3, "start", "start", "soc:1", "armies", 2, "done", "process", True):
            assert c.answer(prompt(t)["seq"], value)[0] == 200, value
        snap = t.public()
        assert "Ana builds 2 armies" in snap["report"]["markdown"] and "[b]" in snap["report"]["bbcode"]
        assert snap["state"]["map"]["width"] > 0 and snap["state"]["turn"] == 2


def test_a_broken_snapshot_never_stops_the_table(table: LiveTable, monkeypatch: pytest.MonkeyPatch,
                                                 caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_a: Any) -> None:
        raise KeyError("a game's state the web view did not expect")

    monkeypatch.setattr(table.hub.builder, "build", broken)
    frames = len(table.out.frames)
    with caplog.at_level(logging.ERROR):
        table.press("ok")
        table.settle()
    assert table.app.session.game.state == "choose" and len(table.out.frames) > frames  # the OLED went on
    assert "the table plays on" in caplog.text


def test_settings_pair_a_phone_shows_the_pin_over_the_settings_menu(tmp_path: Path) -> None:
    with LiveTable(tmp_path, game=None) as t:  # type: ignore[arg-type]
        home = [it.label for it in t.app.home.stack[-1][2].items]
        t.press(*["down"] * home.index("Settings"), "ok")
        t.settle()
        settings = [it.label for it in t.app.home.stack[-1][2].stack[-1][2].items]
        t.press(*["down"] * settings.index("Pair a phone"), "ok")
        t.settle()
        assert t.app.pair_screen is not None and t.app.pair_screen.url == t.hub.address
        assert t.client().pair(t.app.pair_screen.pin) == 200
        t.press("ok")  # any key: back to the settings menu
        t.settle()
        assert t.app.pair_screen is None and t.app.home.stack[-1][1] == "Settings"


def test_companion_run_prints_the_address_and_settings_list_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`companion run` on a Pi: the web view starts before the hardware, says where to open it, and Settings lists
    host and port (the Pair a phone screen shows the same address as a QR code)."""
    import companion.loop.logsetup
    from companion.loop import runtime
    from companion.events import QuitEvent
    from companion.ui.menus import settings_lines
    from webtable import FakeOutput

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = parse_config({"journal": {"path": str(tmp_path / "j.sqlite")}, "web": {"bind": "127.0.0.1", "port": port}})
    seen: list[list[str]] = []

    def hardware(cfg: Any, events: Any, stack: ExitStack) -> tuple[FakeOutput, None]:
        events.put(QuitEvent())  # the loop stops at once; the App shows Settings first
        return FakeOutput(), None

    real_app = runtime.App

    def app(*a: Any, **kw: Any) -> Any:
        made = real_app(*a, **kw)
        seen.append(settings_lines(made))
        return made
    monkeypatch.setattr(runtime, "_build_pi", hardware)
    monkeypatch.setattr(runtime, "App", app)
    monkeypatch.setattr(runtime, "install_signal_handlers", lambda events: None)
    monkeypatch.setattr(companion.loop.logsetup, "setup_logging", lambda *a, **kw: None)
    said: list[str] = []
    assert runtime.run(cfg, mode="pi", say=said.append) == 0
    assert f"Web view: open http://127.0.0.1:{port}/ on a phone" in said
    assert ["Web view:", " 127.0.0.1", f" port {port}"] == seen[0][seen[0].index("Web view:"):][:3]
    # on a Pi the default bind is the local network: the address shown is this machine's, never 0.0.0.0
    from companion.web import url_for

    assert parse_config({}).web.bind_for("pi") == "0.0.0.0"
    assert "0.0.0.0" not in url_for("0.0.0.0", 8080) and url_for("0.0.0.0", 8080).endswith(":8080/")
    off = parse_config({"journal": {"path": str(tmp_path / "k.sqlite")}, "web": {"enabled": False}})
    said.clear()
    assert runtime.run(off, mode="pi", say=said.append) == 0
    assert not any("Web view" in line for line in said) and seen[-1][seen[-1].index("Web view: off")]
