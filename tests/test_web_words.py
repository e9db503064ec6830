"""The phone speaks in words (issue 33 item 7, and item 8's pages on a phone): chess clocks as m:ss (tenths under
10 s), the pie rule's answer in words, each die's verdict in a sentence with a picture (the numbers one tap away),
prompt lines whole (the OLED's line breaks are the OLED's), a watcher told where orders come from, no OK in a
sealed view that would only be refused, and "Vote received" for the phone that cast a ballot (to it alone).

The browser tests use one headless chromium for the module, as a phone of 390×844 CSS pixels."""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import companion.games
from companion.events import Key, KeyEvent, RollEvent
from companion.games import load
from companion.records.fairness import assess, in_words
from companion.session import Session
from society_kit import TURNS, Driver
from webtable import LiveTable

NAMES = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]


@pytest.fixture(autouse=True)
def _demo_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(companion.games.BUILTIN, "webdemo", "webtable:WebDemo")


def session(game: str) -> Session:
    return Session(load(game), seed=0, presets=NAMES, options={})


# ------------------------------------------------------------------ prompt lines are whole sentences
def test_prompt_lines_are_given_whole_the_oled_breaks_them() -> None:
    s = session("sovereign")
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))
    s.handle(KeyEvent(Key.OK))
    assert s.prompt().lines == ("Highest d12 starts; ties roll again",)
    for v in (12, 1):
        s.handle(RollEvent("d12", (v,)))
    s.handle(KeyEvent(Key.OK))
    assert s.prompt().title == "First city"
    assert s.prompt().lines == ("Place a 4-tile city, 8+ empty hexes from every other city.", "OK when placed")
    royale = session("sovereign-chess-royale")
    royale.handle(KeyEvent(Key.OK))
    assert royale.prompt().lines == ("Who plays White, Ash, Slate and Black?",)
    soverana = session("soverana")
    soverana.handle(KeyEvent(Key.OK))
    for v in (6, 1, 1, 1, 1, 1):
        soverana.handle(RollEvent("d6", (v,)))
    assert soverana.prompt().lines == ("Ana is mayor and assigns the departments",)


def test_set_up_lines_are_whole_sentences_too() -> None:
    """The OLED's breaks had stayed in Sovereign Chess's first question and the Chain's set-up ("They make White's" /
    "first move."; "Dealer moves one seat" / "left each game"): a phone showed them as two lines."""
    chess = session("sovereign-chess")
    chess.handle(KeyEvent(Key.OK))
    assert chess.prompt().title == "Who moves first?" and chess.prompt().lines == ("They make White's first move.",)
    chain = session("sovereigns-chain")
    seen = {}
    for _ in range(6):
        seen[chain.prompt().title] = chain.prompt().lines
        chain.handle(KeyEvent(Key.OK))
    assert seen["Fair Winds?"] == ("No Event cards; abilities calling for an event are ignored",)
    assert seen["Games in the match"] == ("Dealer moves one seat left each game",)


def test_the_society_report_keeps_each_event_on_one_line() -> None:
    d = Driver()
    d.setup()
    d.arrivals(TURNS[0])
    for od in TURNS[0]:
        d.order(od)
    d.give("process")
    d.give(True)
    p = d.session.prompt()
    assert p.title == "Turn 1 report"
    assert "Cleo: tax 10 + wonders 0 = 10" in p.lines
    assert not [x for x in p.lines if x.startswith(("= ", "/ ", " "))], p.lines  # no wrapped continuation


# ------------------------------------------------------------------ dice in words
def test_a_dies_verdict_is_a_sentence() -> None:
    assert in_words(assess([1, 2, 3], "d12")) == "Too few rolls to tell yet: 3 so far, about 30 are needed."
    assert in_words(assess([1, 2, 3, 4, 5, 6] * 10, "d6")) == "Fair so far: 60 rolls, nothing unusual."
    assert in_words(assess([6] * 30 + [1, 2, 3, 4, 5] * 6, "d6")) == \
        "Looks loaded toward 6: 30 of 60 rolls, where a fair die gives about 10."
    assert in_words(assess([2, 3, 4, 5, 6] * 40, "d6")) == \
        "Looks loaded against 1: only 0 of 200 rolls, where a fair die gives about 33."


# ------------------------------------------------------------------ a ballot cast on a phone
def test_the_voters_phone_hears_vote_received_and_nobody_else_does(tmp_path: Path) -> None:
    with LiveTable(tmp_path) as t:
        t.press("ok")  # the set-up: start
        host = t.phone("host")
        for value in (1, "north", {"source": "rng"}, ["a", "c"]):
            status, data = host.answer(t.public()["prompt"]["seq"], value)
            assert status == 200 and "Vote received" not in data["message"]
        ana = t.phone(1)
        watcher = t.client()
        seq = t.public()["prompt"]["seq"]
        status, data = ana.answer(seq, "yes")
        assert status == 200 and data["message"] == "Vote received."
        t.settle()
        assert t.app.session.game.data["votes"] == {"1": "yes"}
        seen = watcher.request("GET", "/api/state")[2] + host.request("GET", "/api/state")[2]
        assert b"received" not in seen.lower() and b"Vote received" not in t.hub.latest.public.encode()


# ------------------------------------------------------------------ in a phone's browser
@pytest.fixture(scope="module")
def phone(browsers: Any) -> Any:
    return browsers.get((390, 844))


def _open(phone: Any, t: LiveTable) -> None:
    from test_web_browser import open_view

    phone.delete_all_cookies()
    open_view(phone, t)


def test_clocks_read_as_the_companion_shows_them(phone: Any, tmp_path: Path) -> None:
    with LiveTable(tmp_path) as t:
        _open(phone, t)
        shown = phone.execute_script("return [282.999, 593, 600, 59.2, 10.0, 9.96, 9.41, 0.04, 0, 3725]"
                                     ".map(clockText)")
        assert shown == ["4:43", "9:53", "10:00", "1:00", "0:10", "0:10", "0:09.5", "0:00.1", "0:00.0", "1:02:05"]


def test_the_chess_page_says_moves_and_clocks_in_words(phone: Any, tmp_path: Path) -> None:
    from test_web_browser import text, wait

    with LiveTable(tmp_path, game="sovereign-chess", options={"clock": "sudden 600"}) as t:
        host = t.phone("host")
        for value in ("start", "seat1"):
            assert host.answer(t.public()["prompt"]["seq"], value)[0] == 200
        move = next(o["key"] for o in t.public()["prompt"]["options"] if o["path"] == ["wN f1", "e3"])
        assert host.answer(t.public()["prompt"]["seq"], move)[0] == 200
        assert host.answer(t.public()["prompt"]["seq"], "reject")[0] == 200
        t.settle()
        assert t.app.session.game.data["moves"] == ["wNf1-e3", "reject"]
        _open(phone, t)
        view = wait(phone, "the moves", lambda b: "declined" in (v := text(b, "game-view")) and v)
        assert "wNf1-e3, first move declined: the sides stay (pie rule)" in view
        assert "reject" not in view and "Moves (1)" in view
        clocks = phone.execute_script(  # read in one go: the clocks are drawn again every second
            "return [...document.querySelectorAll('ul.clocks li')].map((li) => li.innerText.split('\\n'))")
        assert [c[0] for c in clocks] == ["Ana", "Ben"]
        # m:ss, never 599.979 (how far below 10:00 depends on how busy the machine is)
        assert all(re.fullmatch(r"(10:00|9:[0-5]\d)", c[1]) for c in clocks), clocks
        assert "599." not in view and "clocks" not in view


def test_a_byo_yomi_clock_reads_on_the_phone_as_on_the_companion(phone: Any, tmp_path: Path) -> None:
    """Byo-yomi's periods are not main time: the companion shows 10:00 (then 3x0:28 in overtime), the state JSON's
    seconds count the periods in (750), and the phone showed those as 12:30."""
    from test_web_browser import wait

    with LiveTable(tmp_path, game="sovereign-chess", options={"clock": "byoyomi 600 5x30"}) as t:
        host = t.phone("host")
        for value in ("start", "seat1"):
            assert host.answer(t.public()["prompt"]["seq"], value)[0] == 200
        t.settle()
        _open(phone, t)
        clocks = wait(phone, "the clocks", lambda b: [li.text.split("\n") for li in
                                                      b.find_elements("css selector", "ul.clocks li")])
        main_time = re.compile(r"10:00|9:[0-5]\d")  # how far below 10:00 depends on how busy the machine is
        assert all(main_time.fullmatch(c[1]) for c in clocks), clocks  # never 12:30
        shown = t.public()["clocks_shown"]
        assert set(shown) == {"1", "2"} and all(main_time.fullmatch(v) for v in shown.values()), shown
        # in overtime the companion's own text ("5x0:29"), not the periods' seconds as m:ss ("2:29")
        assert phone.execute_script("snap.clocks_shown = {'1': '5x0:29'}; return clockShown('1', 149)") == "5x0:29"


def test_a_question_for_a_seat_no_phone_holds_says_who_answers_it(phone: Any, tmp_path: Path) -> None:
    """A paired phone was told "Ana answers this on their phone" while no phone held Ana's seat (the host's phone or
    the companion answers it then); the host phone with no seat was offered "Give up my seat"."""
    from test_web_browser import pair, text, wait

    with LiveTable(tmp_path) as t:
        t.press("ok")  # the set-up: start; the first question is Ana's
        t.settle()
        _open(phone, t)
        pair(phone, t, role=None)
        said = wait(phone, "who answers", lambda b: text(b, "answer"))
        assert said == "Ana answers this on the companion or the host's phone (no phone holds seat 1).", said
        t.phone(1)  # another phone takes seat 1
        wait(phone, "Ana's own phone", lambda b: text(b, "answer") == "Ana answers this on their phone or the companion.")
        phone.delete_all_cookies()
        _open(phone, t)
        pair(phone, t, role="host")
        wait(phone, "the host's button", lambda b: "Give up host rights" in text(b, "pair-box"))
        assert "Give up my seat" not in text(phone, "pair-box")


def test_a_toml_game_on_the_phone_in_its_own_words(phone: Any, tmp_path: Path) -> None:
    """A TOML game's roll-off asks one d6 of each player: the phone said "Type the 1 d6 as rolled"; its players
    table headed the counters by their ids ("gold", "vp") where the file names them ("Gold", "VP"); a counter's entry
    was titled "Ana: Gold — Ana"."""
    from test_web_browser import pair, wait

    with LiveTable(tmp_path, game="race-to-ten") as t:
        t.press("ok", "ok")  # players, start: Ana rolls for the first player
        t.settle()
        _open(phone, t)
        pair(phone, t, role="host")
        legend = wait(phone, "the dice form", lambda b: [e.text for e in b.find_elements("css selector", "#answer legend")])
        assert legend == ["Type the d6 as rolled"], legend
        heads = [th.text for th in phone.find_elements("css selector", "#players-table thead th")]
        assert heads == ["Player", "Gold", "VP"], heads  # the counters' names in the file, not their ids (vp)
        host = t.phone("host")
        while t.public()["prompt"]["title"] != "Income":  # the roll-off, rolled by the companion
            assert host.answer(t.public()["prompt"]["seq"], {"source": "rng"})[0] == 200
            t.settle()
        gold = next(o["key"] for o in t.public()["prompt"]["options"] if o["label"].startswith("Ana Gold"))
        assert host.answer(t.public()["prompt"]["seq"], gold)[0] == 200
        title = wait(phone, "Ana's gold", lambda b: b.find_element("id", "prompt-title").text.startswith("Ana: Gold") and
                     b.find_element("id", "prompt-title").text)
        assert title == "Ana: Gold", title  # not "Ana: Gold — Ana"


def test_dice_say_their_verdict_in_words_with_a_picture(phone: Any, tmp_path: Path) -> None:
    from test_web_browser import text, wait

    with LiveTable(tmp_path) as t:
        t.press("ok")  # the set-up: start
        host = t.phone("host")
        for value in (1, "north", {"values": [6, 6], "source": "typed"}):
            assert host.answer(t.public()["prompt"]["seq"], value)[0] == 200
        t.settle()
        _open(phone, t)
        said = wait(phone, "the verdict", lambda b: "d6 typed in" in (v := text(b, "fairness")) and v)
        assert said.startswith("d6 typed in: Too few rolls to tell yet: 2 so far, about 30 are needed.")
        assert "p =" not in said and "BF" not in said  # the numbers wait behind "The numbers"
        bars = phone.find_elements("css selector", "#fairness svg.faces rect.bar")
        assert len(bars) == 6
        heights = [float(b.get_attribute("height")) for b in bars]
        assert heights[5] > 0 and heights[:5] == [0.0] * 5  # two sixes, nothing else
        phone.find_element("css selector", "#fairness summary").click()
        wait(phone, "the numbers", lambda b: "chi-square p = " in (v := text(b, "fairness")) and "Bayes factor" in v)
        # shown once the details have opened
        assert host.answer(t.public()["prompt"]["seq"], ["a"])[0] == 200  # play goes on: the page is drawn again
        t.settle()
        wait(phone, "the next update", lambda b: text(b, "prompt-title").startswith("Vote"))
        assert "chi-square p = " in text(phone, "fairness")  # what the reader opened stays open


def test_society_phones_see_only_what_they_can_do(phone: Any, tmp_path: Path) -> None:
    from test_web_browser import pair, text, wait

    with LiveTable(tmp_path / "sealed", game="society", names=("Ana", "Ben", "Cleo")) as t:
        gm = t.phone("host")
        for value in (3, "start", "start"):
            assert gm.answer(json.loads(t.hub.latest.host)["prompt"]["seq"], value)[0] == 200
        _open(phone, t)
        pair(phone, t, 2)  # Ben's phone: not the game master's
        wait(phone, "the sealed turn", lambda b: text(b, "prompt-title") == "Sealed")
        assert not phone.find_elements("css selector", "#answer button"), text(phone, "answer")
        assert "whole table" not in text(phone, "answer")
    with LiveTable(tmp_path / "open", game="society", names=("Ana", "Ben", "Cleo"),
                   options={"open_orders": True}) as t:
        gm = t.phone("host")
        for value in (3, "start", "start"):
            assert gm.answer(json.loads(t.hub.latest.host)["prompt"]["seq"], value)[0] == 200
        _open(phone, t)  # a watcher, not paired: no form above
        said = wait(phone, "the orders", lambda b: "None yet" in (v := text(b, "game-view")) and v)
        assert "None yet: the game master enters them on the host's phone or the companion." in said
        assert "form above" not in said


def test_manual_pages_fit_a_phone_and_an_unknown_one_leads_back(phone: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    with LiveTable(tmp_path, game="race-to-ten") as t:
        for name, heading in (("race-to-ten", "How this table plays Race to ten"), ("vp-tracker",
                              "How this table plays VP tracker"), ("no-such-game", "No such manual")):
            phone.get(f"{t.hub.address}manual/{name}")
            assert phone.find_element(By.TAG_NAME, "h1").text == heading
            widths = phone.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert widths == [390, 390], (name, widths)
        back = phone.find_elements(By.CSS_SELECTOR, "main a[href='/']")
        assert back and back[0].text == "Back to the table"
        back[0].click()
        assert phone.current_url == t.hub.address
