"""Issue 31 items 1, 4 and 5 over HTTP on a loopback port: the owner code pairs the host at once; the host phone
does what the device's OK does (PIN, grant, forget, hand over host, the companion's buttons, a new owner code);
wrong tries cost the guesser only and are remembered across a restart; nothing public says when a PIN is showing;
a headless box is played from the phones (whole-table questions and seat requests go to the host phone)."""
from __future__ import annotations

import time
from pathlib import Path
from typing import Iterator

import pytest

from companion.web.bans import FIRST_BAN_S, WRONG_PER_MINUTE, Bans
from companion.web.owner import normalize
from companion.web.pairing import GRACE_S, PIN_PHONES, PIN_TTL, Pairing, PairError
from companion.web.screen import PairScreen, SeatRequestScreen
from test_web_trust import Probe, _demo_games, host_prompt, table  # noqa: F401  (the live table's fixtures)
from test_web_units import Clock
from webtable import OWNER, Client, LiveTable


@pytest.fixture
def headless(tmp_path: Path) -> Iterator[LiveTable]:
    with LiveTable(tmp_path, panel=False) as t:
        t.press("ok")
        t.settle()
        yield t


def owner_phone(t: LiveTable) -> Client:
    c = t.client()
    assert c.pair(OWNER, owner=True) == 200
    return c


def read_a_while_ago(t: LiveTable, phone: Client) -> None:
    """The host phone has shown ``phone``'s request for GRACE_S already (a yes sooner says "Read the request first":
    the test of that lets the second pass on the table's clock)."""
    sessions = [s for s in t.hub.pairing._sessions.values() if s.code == phone.code]
    assert len(sessions) == 1 and sessions[0].pending is not None
    sessions[0].asked_at -= GRACE_S


# ------------------------------------------------------------------ the owner code
def test_the_owner_code_pairs_the_host_at_once_and_the_owner_decides(table: LiveTable) -> None:
    first = owner_phone(table)
    me = first.me()
    assert me["host"] and me["phones"] == [{"code": first.code, "seat": None, "host": True, "me": True,
                                            "pending": None}]
    again = table.client()  # the owner's new phone (the old one lost): host at once, the old one is not
    assert again.pair(OWNER.lower().replace("-", " "), owner=True) == 200  # any case, spaces or dashes
    assert again.me()["host"] and not first.me()["host"]
    status, data = table.client().json("POST", "/api/pair", {"owner": "KQ7X-M3PB"})
    assert status == 403 and data["error"] == "Wrong owner code: check the code printed on the box"
    ana = table.phone(1)  # a paired phone that scans the owner's QR code: the same phone, its seat kept, the host
    cookie = ana.cookie
    assert ana.pair(OWNER, owner=True) == 200 and ana.cookie == cookie
    assert ana.me()["host"] and ana.me()["seat"] == 1 and not again.me()["host"]


def test_the_owner_is_never_locked_out_by_a_full_table() -> None:
    from companion.web.owner import OwnerCode
    from companion.web.pairing import MAX_SESSIONS

    p = Pairing(Clock(), owner=OwnerCode(normalize(OWNER) or ""))
    tokens = []
    for i in range(MAX_SESSIONS):
        if i % PIN_PHONES == 0:
            pin = p.new_pin()
        tokens.append(p.pair(pin, f"10.0.0.{i}")[1])
    with pytest.raises(PairError):
        p.pair(p.new_pin(), "10.0.1.1")  # a 33rd phone waits ...
    s, token = p.pair_owner(OWNER, "10.0.1.2")  # ... the owner does not: the oldest phone holding nothing goes
    assert s.host and token and p.session(tokens[0]) is None and all(p.session(t) for t in tokens[1:])


def test_wrong_tries_ban_the_guesser_only_and_bans_outlast_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    bans = tmp_path / "web-bans.json"
    from companion.web.owner import OwnerCode

    code = OwnerCode(normalize(OWNER) or "")
    p = Pairing(clock, bans=Bans(bans, clock), owner=code)
    pin = p.new_pin()
    for _ in range(WRONG_PER_MINUTE):
        with pytest.raises(PairError) as e:
            p.pair_owner("AAAA-AAAA", "10.0.0.66")
        assert e.value.status == 403
    for attempt in (lambda: p.pair_owner(OWNER, "10.0.0.66"), lambda: p.pair(pin, "10.0.0.66")):
        with pytest.raises(PairError) as e:
            attempt()  # even the right code waits, from that address
        assert e.value.status == 429 and "wait 60 s" in str(e.value)
    assert p.pair(pin, "10.0.0.7")[0].code and p.pair_owner(OWNER, "10.0.0.8")[0].host  # the table is not locked out
    again = Pairing(clock, bans=Bans(bans, clock), owner=code)  # a restart keeps the ban
    with pytest.raises(PairError) as e:
        again.pair_owner(OWNER, "10.0.0.66")
    assert e.value.status == 429
    clock.t += FIRST_BAN_S + 1
    for _ in range(WRONG_PER_MINUTE):  # a second ban lasts twice as long
        with pytest.raises(PairError):
            again.pair(f"{(int(pin) + 1) % 1_000_000:06d}", "10.0.0.66")
    assert Bans(bans, clock).wait_s("10.0.0.66") == pytest.approx(2 * FIRST_BAN_S)
    clock.t += 2 * FIRST_BAN_S + 1
    assert again.pair_owner(OWNER, "10.0.0.66")[0].host


def test_a_damaged_bans_file_is_set_aside_in_one_line(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "web-bans.json"
    for bad in (b"\xff\xfe not json", b"[1, 2]", b'{"10.0.0.1": {"until": "soon"}, "10.0.0.2": {"until": 1e30}}'):
        path.write_bytes(bad)
        bans = Bans(path, Clock())
        assert bans.banned() == {} or set(bans.banned()) == {"10.0.0.2"}
        assert bans.wait_s("10.0.0.2") <= 24 * 3600  # a clock set back never makes a ban longer than a day
    assert any("set aside" in r.getMessage() and "\n" not in r.getMessage() for r in caplog.records)


def test_the_headless_pin_lives_what_the_log_says(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Item 4: the log said "valid 10 minutes"; the PIN died at 300 s, and no phone could pair until a restart."""
    import logging

    from companion.loop.runtime import _headless_pin

    clock = Clock()
    from companion.web.owner import OwnerCode

    class Web:
        address = "http://192.168.1.9:8080/"
        pairing = Pairing(clock, owner=OwnerCode(normalize(OWNER) or "", file=tmp_path / "owner-code"))

    with caplog.at_level(logging.WARNING):
        _headless_pin(Web)
    line = caplog.records[-1].getMessage()
    pin = line.split("PIN ", 1)[1].split()[0]
    assert f"lives {int(PIN_TTL // 60)} minutes and pairs {PIN_PHONES} phones" in line
    assert "host phone's Pair a phone gives a new one" in line and OWNER not in line and "owner-code" in line
    clock.t += PIN_TTL - 1
    assert Web.pairing.pair(pin, "a")[0].code
    clock.t += 2
    with pytest.raises(PairError):
        Web.pairing.pair(pin, "b")


# ------------------------------------------------------------------ the host phone's routes
def test_only_the_host_phone_may_use_the_host_routes(table: LiveTable) -> None:
    seat_phone = table.phone(1)
    stranger = table.client()
    for path, body in (("/api/pin", {}), ("/api/grant", {"code": "AAAA", "yes": True}), ("/api/forget",
                       {"code": "AAAA"}), ("/api/host", {"code": "AAAA"}), ("/api/key", {"key": "ok"}),
                       ("/api/owner-code", {"owner": OWNER})):
        assert stranger.json("POST", path, body)[0] == 401, path
        status, data = seat_phone.json("POST", path, body)
        assert status == 403 and data["error"] == "Only the host phone can do this", path


def test_the_host_phone_shows_a_pin_grants_a_seat_forgets_and_hands_over_host(table: LiveTable) -> None:
    host = owner_phone(table)
    n = table.app.session.n_inputs
    device_pin = table.hub.pairing.new_pin()  # the device's PIN screen keeps its own
    status, data = host.json("POST", "/api/pin", {})
    assert status == 200 and data["valid_s"] == PIN_TTL and data["phones"] == PIN_PHONES
    ben = table.client()
    assert ben.pair(data["pin"]) == 200 and table.client().pair(device_pin) == 200
    assert ben.json("POST", "/api/claim", {"seat": 2})[0] == 202
    pending = [p for p in host.me()["phones"] if p["code"] == ben.code]
    assert pending[0]["pending"] == 2
    status, data = host.json("POST", "/api/grant", {"code": ben.code, "yes": True, "asked": 2})
    assert status == 409 and data["error"] == "Read the request first"  # in its first second: it stays
    assert ben.me()["pending"] == 2
    table.skip(GRACE_S)  # the host reads it: a second on the table's clock
    status, data = host.json("POST", "/api/grant", {"code": ben.code, "yes": True, "asked": 2})
    assert status == 200 and data == {"ok": True, "message": f"Phone {ben.code}: seat 2"}
    assert ben.me()["seat"] == 2 and table.hub.pairing.seats() == {2: ben.code}
    assert host.json("POST", "/api/grant", {"code": ben.code, "yes": True})[0] == 409  # it asks for nothing
    assert host.json("POST", "/api/grant", {"code": "ZZZZ", "yes": True})[0] == 404
    status, data = host.json("POST", "/api/host", {"code": ben.code})
    assert status == 200 and ben.me()["host"] and ben.me()["seat"] == 2 and not host.me()["host"]
    ben.csrf = ben.me()["csrf"]
    status, data = ben.json("POST", "/api/forget", {"code": host.code})
    assert status == 200 and data["message"] == f"Phone {host.code} forgotten" and not host.me()["paired"]
    assert table.app.session is not None and table.app.session.n_inputs == n  # the game never noticed: no input


def test_the_host_phone_answers_a_request_the_device_shows(table: LiveTable) -> None:
    host = owner_phone(table)
    ana = table.client()
    assert ana.pair(table.hub.pairing.new_pin()) == 200
    assert ana.json("POST", "/api/claim", {"seat": 1})[0] == 202
    table.wait(lambda: isinstance(table.app.pair_screen, SeatRequestScreen), "the request on the device")
    read_a_while_ago(table, ana)
    assert host.json("POST", "/api/grant", {"code": ana.code, "yes": True})[0] == 200
    table.wait(lambda: table.app.pair_screen is None, "the device's request screen gone")
    assert ana.me()["seat"] == 1


def test_the_host_presses_the_companions_buttons_but_never_a_ballot(table: LiveTable) -> None:
    host = owner_phone(table)
    for _ in range(3):
        assert host.json("POST", "/api/key", {"key": "up"})[0] == 200  # "How many": 2 → 5 (wrapping or not)
    table.settle()
    events = [e for _n, _t, e in table.app.journal.inputs(table.app.record.id)]
    assert events[-3:] == ["up", "up", "up"]  # journaled as the device's own presses: replay is exact
    status, data = host.json("POST", "/api/key", {"key": "sideways"})
    assert status == 400 and "one of up, down, ok, back, hold" in data["error"]
    for value in (3, "north", {"source": "rng"}, ["a"]):
        assert host.answer(host_prompt(table)["seq"], value)[0] == 200
    assert host_prompt(table)["kind"] == "secret_vote"
    for key in ("ok", "down", "back"):
        status, data = host.json("POST", "/api/key", {"key": key})
        assert status == 409 and "voter's" in data["message"], key
    assert host.json("POST", "/api/key", {"key": "hold"})[0] == 200  # the game menu is still the host's
    table.settle()
    assert table.app.session.overlays


def test_a_new_owner_code_needs_the_code_now_and_the_old_one_stops(table: LiveTable) -> None:
    host = owner_phone(table)
    status, data = host.json("POST", "/api/owner-code", {"owner": "AAAA-AAAA"})
    assert status == 403  # a host phone that is not the owner's cannot lock the owner out
    status, data = host.json("POST", "/api/owner-code", {"owner": OWNER})
    assert status == 200 and normalize(data["owner_code"]) is not None and data["owner_code"] != OWNER
    assert table.owner.file is not None and table.owner.file.read_text().strip() == data["owner_code"]
    assert table.client().pair(OWNER, owner=True) == 403
    assert table.client().pair(data["owner_code"], owner=True) == 200


# ------------------------------------------------------------------ a box without its panel
def test_a_headless_box_sends_the_whole_table_and_seat_requests_to_the_host_phone(headless: LiveTable) -> None:
    """Item 1: a request waited for OK on a device with no keys; whole-table prompts answered 403."""
    ana = headless.client()
    assert ana.pair(headless.hub.pairing.new_pin()) == 200
    status, data = ana.json("POST", "/api/claim", {"seat": 1})
    assert status == 202 and data["message"].startswith("Ask the host phone")
    headless.settle()
    assert headless.app.pair_screen is None  # nothing waits on a screen nobody sees
    host = owner_phone(headless)
    read_a_while_ago(headless, ana)
    assert host.json("POST", "/api/grant", {"code": ana.code, "yes": True})[0] == 200
    assert ana.answer(host_prompt(headless)["seq"], 3)[0] == 200  # Ana's own question
    for value in ("north", {"source": "rng"}, ["a"]):
        if host_prompt(headless)["player"] is None:
            status, data = ana.answer(host_prompt(headless)["seq"], value)
            assert status == 403 and "the host phone answers it" in data["error"]
        assert host.answer(host_prompt(headless)["seq"], value)[0] == 200
    assert ana.me()["panel"] is False


# ------------------------------------------------------------------ nothing public says when a PIN is showing
def test_opening_and_closing_the_pin_screen_changes_nothing_a_watcher_sees(table: LiveTable) -> None:
    """Item 4: the public mirror showed exactly when a PIN was up. The probe (an unpaired watcher, the stream and
    /api/state in a loop) sees the same bytes with the PIN screen and without it."""
    seat2 = table.phone(2)  # another seat's phone watches too
    probe = Probe(table.port)
    try:
        table.wait(lambda: probe.events and probe.polls > 3, "the probe's first reads")
        table.settle()
        time.sleep(0.3)
        events, states = list(probe.events), list(probe.states)
        other = seat2.request("GET", "/api/state")[2]
        for _ in range(3):
            table.settle(table.app.open_pairing)  # the PIN screen opens (as Pair a phone does) ...
            table.settle(table.app.draw)
            assert isinstance(table.app.pair_screen, PairScreen)
            time.sleep(0.2)
            assert seat2.request("GET", "/api/state")[2] == other
            table.press("back")  # ... and closes
            table.settle()
            time.sleep(0.2)
        assert table.app.pair_screen is None
        assert probe.events == events and probe.states == states  # not one event, not one byte
        assert seat2.request("GET", "/api/state")[2] == other
    finally:
        probe.close()


# ------------------------------------------------------------------ the device: requests never wait or surprise
def test_a_seat_request_comes_first_over_the_pin_and_an_early_ok_only_says_read_it(table: LiveTable) -> None:
    """Issue 33 item 2: the request waited behind the PIN screen; the first OK only closed the PIN; an OK 0.6 s
    after the request appeared gave "Phone CCD4: refused" while the screen said "OK: yes"."""
    table.settle(table.app.open_pairing)
    pin = table.app.pair_screen.pin
    ben = table.client()
    assert ben.pair(pin) == 200
    assert ben.json("POST", "/api/claim", {"seat": 2})[0] == 202
    table.wait(lambda: isinstance(table.app.pair_screen, SeatRequestScreen), "the request over the PIN")
    assert isinstance(table.app.pair_screen.under, PairScreen)
    table.press("ok")  # at once: meant for the PIN screen
    table.settle()
    scr = table.app.pair_screen
    assert isinstance(scr, SeatRequestScreen) and scr.note == "Read the request first"
    assert ben.me()["pending"] == 2 and "refused" not in (table.app.session.toast or "")
    scr.shown -= GRACE_S  # the table read it
    table.press("ok")
    table.settle()
    assert ben.me()["seat"] == 2
    assert isinstance(table.app.pair_screen, PairScreen) and table.app.pair_screen.pin == pin  # back on the PIN
    assert table.app.pair_screen.note == f"Phone {ben.code}: seat 2"  # saying what it gave
    assert table.client().pair(pin) == 200  # which still pairs


def test_the_game_menus_phones_forget_one_and_move_the_host_without_ending_the_game(table: LiveTable) -> None:
    """Item 5: phones were forgotten only in the home menu's Settings, reached only by ending the game."""
    old = owner_phone(table)
    ben = table.phone(2)
    n = table.app.session.n_inputs
    table.press("hold")
    table.settle()
    labels = [it.label for it in table.app.session.overlays[-1].widget.items]
    table.press(*["down"] * labels.index("Phones"), "ok")
    table.settle()
    rows = [it.label for it in table.app.pair_screen.menu.stack[0][2].items]
    assert rows == ["Pair a phone", f"{old.code} host", f"{ben.code} seat 2", "Forget all phones"]
    table.press("down", "down", "ok")  # Ben's phone: Forget / Make it the host
    table.settle()
    assert table.app.pair_screen.menu.title == f"Phone {ben.code}"
    table.press("down", "ok")  # Make it the host
    table.settle()
    assert table.app.pair_screen.toast == f"Phone {ben.code}: host"
    assert ben.me()["host"] and not old.me()["host"]
    table.press("up", "ok", "ok")  # the old host's phone → Forget this phone
    table.settle()
    assert not old.me()["paired"] and table.app.pair_screen.toast == f"Phone {old.code} forgotten"
    table.press("back")
    table.settle()
    assert table.app.pair_screen is None and table.app.session is not None and not table.app.session.ended
    assert table.app.session.n_inputs == n + 1 + labels.index("Phones") + 1  # only the game menu's own keys


def test_a_request_nobody_answered_runs_out_and_may_be_made_again() -> None:
    from companion.web.pairing import REQUEST_TTL

    clock = Clock()
    p = Pairing(clock)
    s, _token = p.pair(p.new_pin(), "a")
    p.request(s.key, 2)
    with pytest.raises(PairError) as e:
        p.request(s.key, 1)
    assert e.value.status == 409 and "wait for the table's answer" in str(e.value)
    clock.t += REQUEST_TTL + 1
    assert p.pending() == []
    p.request(s.key, 1)
    assert [x.pending for x in p.pending()] == [1]


def test_the_host_drives_the_phones_menu_and_is_told_when_a_pin_is_up(table: LiveTable) -> None:
    from test_web_http import mirrored

    host = owner_phone(table)
    assert host.json("POST", "/api/key", {"key": "hold"})[0] == 200
    labels = [it.label for it in table.app.session.overlays[-1].widget.items]
    for key in ["down"] * labels.index("Phones") + ["ok"]:
        assert host.json("POST", "/api/key", {"key": key})[0] == 200
    table.settle()
    phones = mirrored(table)
    assert phones == table.out.frames[-1].convert("1").tobytes()  # the Phones menu is mirrored: the host sees it
    status, data = host.json("POST", "/api/key", {"key": "ok"})  # Pair a phone: a PIN on the device alone
    assert status == 200 and data["message"].startswith("The companion shows a PIN for those at the box")
    table.settle()
    assert isinstance(table.app.pair_screen, PairScreen) and mirrored(table) == phones
    assert host.json("POST", "/api/key", {"key": "back"})[0] == 200  # any button closes it: the menu again
    table.settle()
    assert mirrored(table) == phones
