"""A fresh review of issue 31 (the phones as the panel), each test failing on the code before its fix:

1. Every wrong PIN rewrote the whole ``web-bans.json`` (under the lock the loop's thread shares), and banned addresses
   were never forgotten: 250 guessing addresses slowed the host phone's button presses from 2 ms to 270 ms (3000: to
   2.2 s), and a file grown past its 1 MB limit would have been set aside at the next start, lifting every ban. A new
   address seen when the table of addresses was full was forgotten at once, so it was never banned. Now the file is
   written when a ban starts, once a second at most, outside that lock, and holds 1024 addresses at most.
2. The Phones menu under the PIN screen was not redrawn while the PIN was up (a phone paired with it, a seat given by
   the device's OK): closing the PIN screen then sent every watcher an event, saying exactly when it closed.
3. A host phone the owner took back with the owner code kept the PIN it had asked for: after being forgotten, it (or
   seven friends) paired again with it.
4. The host phone's Yes to a request that had changed since it was shown answered 200 ``{"ok": true}`` ("asked again")
   though nothing was given: now 409 with that line, as a request that asks for nothing.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from companion.web.bans import MAX_ADDRESSES, MAX_FILE, SAVE_GAP_S, WRONG_PER_MINUTE, Bans
from companion.web.owner import OwnerCode, normalize
from companion.web.pairing import GRACE_S, Pairing, PairError
from companion.web.screen import PairScreen
from test_web_trust import Probe, _demo_games, table  # noqa: F401  (the live table's fixtures)
from test_web_units import Clock
from webtable import OWNER, LiveTable


# ------------------------------------------------------------------ 1: wrong tries cost the guesser, not the table
def test_a_flood_of_wrong_codes_writes_the_bans_file_once_a_second_and_keeps_it_small(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "web-bans.json"
    clock = Clock()
    bans = Bans(path, clock)
    writes = []
    real = Bans._save

    def counted(self: Bans) -> None:
        writes.append(1)
        real(self)

    monkeypatch.setattr(Bans, "_save", counted)
    for i in range(WRONG_PER_MINUTE - 1):  # tries that ban nobody write nothing
        bans.wrong("10.1.0.1")
    assert writes == []
    guessers = [f"10.2.{i // 256}.{i % 256}" for i in range(MAX_ADDRESSES + 500)]
    start = time.monotonic()
    for address in guessers:
        for _ in range(WRONG_PER_MINUTE):
            bans.wrong(address)
        clock.t += 0.01
    bans.flush()  # as the server does when it stops
    # the bans of a flood are written together, once a second: not once per ban, nor once per wrong try
    assert len(writes) <= 3 + (time.monotonic() - start) / SAVE_GAP_S  # the first, one a second, the last
    rows = json.loads(path.read_text())
    assert len(rows) <= MAX_ADDRESSES and path.stat().st_size < MAX_FILE // 4
    assert bans.wait_s(guessers[-1]) > 0  # the latest bans are kept; the ones ending soonest made room
    again = Bans(path, clock)  # the next start reads it whole: nothing set aside, the bans still hold
    assert again.set_aside == [] and again.wait_s(guessers[-1]) > 0


def test_a_new_address_is_remembered_and_banned_when_the_table_of_addresses_is_full() -> None:
    clock = Clock()
    bans = Bans(None, clock)
    for i in range(MAX_ADDRESSES + 1):  # as many addresses as are remembered, each one try short of a ban
        for _ in range(WRONG_PER_MINUTE - 1):
            bans.wrong(f"10.3.{i // 256}.{i % 256}")
    clock.t += 1
    for _ in range(WRONG_PER_MINUTE):
        ban = bans.wrong("10.9.9.9")
    assert ban > 0 and bans.wait_s("10.9.9.9") > 0


# ------------------------------------------------------------------ 2: nothing public says when a PIN closes
def test_closing_the_pin_screen_over_the_phones_menu_changes_nothing_a_watcher_sees(table: LiveTable) -> None:
    from companion.ui.phones import PhonesScreen

    table.press("hold")
    table.settle()
    labels = [it.label for it in table.app.session.overlays[-1].widget.items]
    table.press(*["down"] * labels.index("Phones"), "ok")  # the game menu's Phones
    table.settle()
    assert isinstance(table.app.pair_screen, PhonesScreen)
    probe = Probe(table.port)
    try:
        table.wait(lambda: probe.events and probe.polls > 3, "the probe's first reads")
        table.press("ok")  # Pair a phone: the PIN over the Phones menu
        table.settle()
        assert isinstance(table.app.pair_screen, PairScreen)
        ben = table.client()
        assert ben.pair(table.app.pair_screen.pin) == 200  # a phone pairs with it while it is up
        table.settle()
        rows = [it.label for it in table.app.pair_screen.under.menu.stack[0][2].items]
        assert f"{ben.code} watching" in rows  # the menu under the PIN lists it at once
        time.sleep(0.3)
        events, states = list(probe.events), list(probe.states)
        table.press("back")  # the PIN screen closes: the Phones menu, as the mirror already showed it
        table.settle()
        time.sleep(0.3)
        assert isinstance(table.app.pair_screen, PhonesScreen)
        assert probe.events == events and probe.states == states  # not one event, not one byte
    finally:
        probe.close()


# ------------------------------------------------------------------ 3: the owner takes the table back
def test_the_owner_code_voids_the_pin_the_host_before_it_showed() -> None:
    p = Pairing(Clock(), owner=OwnerCode(normalize(OWNER) or ""))
    hostile, _token = p.pair_owner(OWNER, "10.0.0.5")
    pin = p.new_pin("host")  # the host phone's Pair a phone
    owner, token = p.pair_owner(OWNER, "10.0.0.6")  # the owner takes the table back ...
    assert owner.host and not hostile.host
    p.unpair(hostile.key)  # ... and forgets that phone
    with pytest.raises(PairError) as e:
        p.pair(pin, "10.0.0.5")  # its PIN pairs nobody now
    assert e.value.status == 403
    mine = p.new_pin("host")
    assert p.pair_owner(OWNER, "10.0.0.6", token)[0] is owner  # the owner's own phone again: its PIN stays
    assert p.pair(mine, "10.0.0.7")[0].code


# ------------------------------------------------------------------ 4: a grant that gives nothing is not a success
def test_the_hosts_yes_to_a_request_that_changed_is_refused_not_ok(table: LiveTable) -> None:
    host = table.client()
    assert host.pair(OWNER, owner=True) == 200
    ben = table.phone()
    assert ben.json("POST", "/api/claim", {"seat": 2})[0] == 202
    assert ben.json("POST", "/api/claim", {"seat": None})[0] == 200
    assert ben.json("POST", "/api/claim", {"seat": 1})[0] == 202  # it asked again, for another seat
    table.hub.pairing.by_code(ben.code).asked_at -= GRACE_S
    status, data = host.json("POST", "/api/grant", {"code": ben.code, "yes": True, "asked": 2})  # what it saw
    assert status == 409 and data == {"error": f"Phone {ben.code} asked again: answer its new request"}
    assert ben.me()["seat"] is None and ben.me()["pending"] == 1
    assert host.json("POST", "/api/grant", {"code": ben.code, "yes": True, "asked": 1})[0] == 200
    assert ben.me()["seat"] == 1
