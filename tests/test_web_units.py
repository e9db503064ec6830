"""The web view's pieces without a server: answer events in the session and journal, the [web] config, the pairing
rules, the snapshot's privacy, and the OLED's pairing screen with its QR code."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.config.load import parse_config
from companion.errors import ConfigError
from companion.events import AnswerEvent, Key, KeyEvent
from companion.session import Session, decode_event, encode_event
from companion.web.pairing import (MAX_SESSIONS, PIN_PHONES, PIN_TTL, WRONG_PER_MINUTE, PairError,
                                   Pairing)
from companion.web.screen import pair_frame, qr_image
from companion.web.snapshot import prompt_json
from fsm.prompts import SecretVote, options
from webtable import WebDemo


def new(sources: tuple[str, ...] = ("roller", "typed", "rng")) -> Session:
    s = Session(WebDemo, seed=1, presets=["Ana", "Ben"], options={}, sources=sources)
    s.handle(KeyEvent(Key.OK))
    return s


@pytest.mark.parametrize("ev", [AnswerEvent(3, 1), AnswerEvent({"values": [1, 2], "source": "typed"}, 7, "web:seat2"),
                                AnswerEvent(["a", "b"], 0), AnswerEvent("it's \"quoted\" and spaced", 2)])
def test_answer_events_round_trip_through_the_journal_text(ev: AnswerEvent) -> None:
    assert decode_event(encode_event(ev)) == ev


def test_an_answer_for_an_old_prompt_is_refused_not_applied_to_the_next() -> None:
    s = new()
    first = s.prompt_seq
    s.handle(AnswerEvent(3, first))
    assert s.game.data["n"] == 3 and s.prompt_seq == first + 1
    s.handle(AnswerEvent(4, first))  # a second tap on the old question
    assert s.game.data["n"] == 3 and s.game.state == "choose" and "changed" in (s.toast or "")
    s.handle(KeyEvent(Key.HOLD))  # undo from the device's menu moves the prompt number on too
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))
    assert s.game.state == "count" and s.prompt_seq == first + 2
    s.handle(AnswerEvent(1, first + 1))
    assert s.game.state == "count"
    s.handle(AnswerEvent(1, first + 2))
    assert s.game.data["n"] == 1


def test_dice_answers_follow_the_dice_sources() -> None:
    s = new(sources=("roller",))
    s.handle(AnswerEvent(1, s.prompt_seq))
    s.handle(AnswerEvent("north", s.prompt_seq))
    s.handle(AnswerEvent({"values": [2, 3], "source": "typed"}, s.prompt_seq))
    assert s.game.state == "roll" and "roller" in (s.toast or "")
    s = new(sources=("rng",))
    s.handle(AnswerEvent(1, s.prompt_seq))
    s.handle(AnswerEvent("north", s.prompt_seq))
    s.handle(AnswerEvent({"values": [6, 6], "source": "rng"}, s.prompt_seq))  # values come from the session's RNG
    assert s.game.state == "pick" and s.dice_history[-1]["source"] == "rng"
    again = new(sources=("rng",))
    for ev in (AnswerEvent(1, again.prompt_seq), AnswerEvent("north", again.prompt_seq + 1),
               AnswerEvent({"values": [1, 1], "source": "rng"}, again.prompt_seq + 2)):
        again.handle(ev)
    assert again.game.data["rolls"] == s.game.data["rolls"]  # seeded: replay gives the same roll


def test_web_config_defaults_and_one_line_errors() -> None:
    w = parse_config({}).web
    assert (w.enabled, w.bind, w.port, w.view) == (True, "auto", 8080, "open")
    assert w.bind_for("sim") == "127.0.0.1" and w.bind_for("pi") == "0.0.0.0"
    assert parse_config({"web": {"bind": "localhost"}}).web.bind_for("pi") == "127.0.0.1"
    assert parse_config({"web": {"bind": "192.168.1.5", "view": "paired"}}).web.bind_for("sim") == "192.168.1.5"
    for bad, words in (({"port": 70000}, "[web] port = 70000"), ({"bind": "my lan"}, "[web] bind"),
                       ({"view": "secret"}, '"open", "paired"'), ({"enabled": "yes"}, "true or false"),
                       ({"pin": 1}, "known keys")):
        with pytest.raises(ConfigError) as e:
            parse_config({"web": bad})
        assert words in str(e.value) and "\n" not in str(e.value)


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def test_pins_expire_and_no_number_of_wrong_tries_voids_them() -> None:
    """Issue 31 item 4: 60 wrong PINs from 12 addresses voided each new PIN in 0.03 s. Now the guessers wait and
    the table's own phone pairs; an expired PIN is wrong like any other (nothing says whether one is showing)."""
    clock = Clock()
    p = Pairing(clock)
    pin = p.new_pin()
    clock.t += PIN_TTL + 1
    with pytest.raises(PairError) as e:
        p.pair(pin, "a")
    assert e.value.status == 403 and "Wrong PIN" in str(e.value)
    pin = p.new_pin()
    wrong = f"{(int(pin) + 1) % 1_000_000:06d}"
    for i in range(600):
        with pytest.raises(PairError):
            p.pair(wrong, f"10.0.0.{i % 120}")  # 120 addresses, each until it is banned
    s, token = p.pair(pin, "10.0.1.1")  # the table's own phone
    assert p.check_csrf(token, s.csrf) is s and p.check_csrf(token, "nope") is None
    assert p.check_csrf("nope", s.csrf) is None


def test_wrong_pins_lock_out_their_own_address_and_never_void_the_pin_for_everyone() -> None:
    """Finding 8: 20 wrong guesses from four addresses voided the PIN for the whole table."""
    clock = Clock()
    p = Pairing(clock)
    pin = p.new_pin()
    wrong = f"{(int(pin) + 1) % 1_000_000:06d}"
    for addr in ("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"):
        for _ in range(WRONG_PER_MINUTE):
            with pytest.raises(PairError):
                p.pair(wrong, addr)
        with pytest.raises(PairError) as e:
            p.pair(pin, addr)  # even the right PIN waits from a locked-out address
        assert e.value.status == 429
    s, _token = p.pair(pin, "10.0.0.9")  # the table's own phone still pairs
    assert s.code
    clock.t += 61
    assert p.pair(pin, "10.0.0.1")[0].code  # the lockout ends


def test_the_pin_ends_with_its_screen_and_pairs_a_bounded_number_of_phones() -> None:
    """Finding 10: the PIN stayed valid ten minutes after its screen closed, for any number of phones."""
    p = Pairing(Clock())
    pin = p.new_pin()
    for i in range(PIN_PHONES):
        p.pair(pin, f"10.0.0.{i}")
    with pytest.raises(PairError) as e:
        p.pair(pin, "10.0.0.99")
    assert e.value.status == 410
    pin = p.new_pin()
    p.close_pin()
    with pytest.raises(PairError) as e:
        p.pair(pin, "10.0.0.98")
    assert e.value.status == 403  # said as a wrong PIN: nothing tells a guesser whether a PIN is showing


def test_a_33rd_phone_is_refused_and_pushes_nobody_out() -> None:
    p = Pairing(Clock())
    tokens = []
    for i in range(MAX_SESSIONS):
        if i % PIN_PHONES == 0:
            pin = p.new_pin()
        tokens.append(p.pair(pin, f"10.0.0.{i}")[1])
    with pytest.raises(PairError) as e:
        p.pair(p.new_pin(), "10.0.1.1")
    assert e.value.status == 503
    assert all(p.session(t) is not None for t in tokens)


def test_sessions_expire_survive_a_restart_hashed_and_end_with_their_game(tmp_path: Path) -> None:
    clock = Clock()
    path = tmp_path / "web-pairings.json"
    p = Pairing(clock, path=path, ttl_hours=1)
    p.game_is(7)
    s, token = p.pair(p.new_pin(), "a")
    p.request(s.key, 2)
    p.grant(s.key, True)
    assert token not in path.read_text() and s.key in path.read_text()  # only the hash is stored
    again = Pairing(clock, path=path, ttl_hours=1)  # a restart
    assert again.session(token).seat == 2 and again.seats() == {2: s.code}
    clock.t += 3601
    assert again.session(token) is None  # expired
    p2 = Pairing(Clock(), path=tmp_path / "b.json")
    s2, token2 = p2.pair(p2.new_pin(), "a")
    p2.game_is(3)
    assert p2.session(token2) is not None  # paired on the home menu: it joins the game
    p2.game_is(None)
    assert p2.session(token2) is None  # the game ended: so did the pairing


def test_a_seat_is_given_only_by_the_device() -> None:
    """Finding 2: a phone took any seat nobody held, and hopped between seats to cast others' ballots."""
    p = Pairing(Clock())
    s, token = p.pair(p.new_pin(), "a")
    p.request(s.key, 3)
    assert p.session(token).seat is None and [x.code for x in p.pending()] == [s.code]
    assert p.grant(s.key, False).endswith("refused") and p.session(token).seat is None
    p.request(s.key, 3)
    p.grant(s.key, True)
    assert p.session(token).seat == 3
    p.request(s.key, 4)  # hopping: asked, but it stays on seat 3 until the device says yes
    assert p.session(token).seat == 3


def test_a_secret_ballots_options_never_reach_the_public_prompt() -> None:
    vote = SecretVote("Vote", player=2, voter_name="Ben", lines=("Keep Ana?",),
                      options=options(("yes", "YES keep"), ("no", "NO out")))
    text = repr(prompt_json(vote, ["Ana", "Ben"], ()))
    assert "YES" not in text and "Keep Ana" not in text and "'voter_name': 'Ben'" in text


def test_pairing_screen_has_a_scannable_qr_code_and_the_pin() -> None:
    import segno

    url = "http://192.168.178.123:8080/"
    img = qr_image(url)
    qr = segno.make(url, error="l", boost_error=False, micro=False)
    rows = [list(r) for r in qr.matrix_iter(scale=1, border=1)]
    scale = img.width // len(rows)
    assert scale >= 2 and img.height <= 64  # two OLED pixels a module at least: big enough to scan
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            assert bool(img.getpixel((x * scale, y * scale))) is not bool(dark)
    frame = pair_frame(url, "123456")
    assert frame.size == (128, 64)
    assert frame.crop((0, 0, img.width, 64)).getbbox() is not None
    assert frame.crop((img.width + 2, 0, 128, 64)).getbbox() is not None  # the PIN and address beside it


def test_player_names_stay_data_in_the_snapshot(tmp_path: Any) -> None:
    import json

    s = Session(WebDemo, seed=1, presets=["<script>", "Ben"], options={})
    s.handle(KeyEvent(Key.OK))
    assert json.loads(json.dumps(s.state_json()))["players"][0]["name"] == "<script>"


@pytest.mark.parametrize("url", ["http://192.168.178.123:8080/", "http://10.0.0.5:65535/", "http://[fd00::1]:8080/"])
def test_the_pairing_screens_address_is_never_cut(url: str) -> None:
    from companion.ui.draw import font
    from companion.web.screen import _host_lines

    lines = _host_lines(url, 70, 9)
    assert len(lines) <= 3 and all(font(9).getlength(line) <= 70 for line in lines), lines
    assert "".join(lines[:-1]) in url and lines[-1] == "port " + url.rstrip("/").rsplit(":", 1)[1]
