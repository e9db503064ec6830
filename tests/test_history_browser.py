"""The history on a phone (issue 32), in real Chromium at 390×844: 216 saved games across every game as history,
standings, luck, dice and each game's story with its charts (uPlot, from the box), light and dark, on a tablet too;
the host phone renames and merges; the end of a game opens its story. The 216 games are built once for the module,
one browser (the worker's: tests/browsers.py) serves every test. Set COMPANION_EVIDENCE to a folder to keep the
screenshots (docs/evidence/issue-32). Skipped where no browser is installed."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

import pytest

import companion.games
from history_fixture import GAMES, FixtureSource, document, exact_band
from test_web_browser import click, text, wait
from test_web_history import Box
from webtable import LiveTable

EVIDENCE = Path(os.environ["COMPANION_EVIDENCE"]) if os.environ.get("COMPANION_EVIDENCE") else None
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
TABLET = {"width": 820, "height": 1180, "deviceScaleFactor": 1, "mobile": True}


@pytest.fixture(scope="module")
def browser(browsers: Any) -> Any:
    return browsers.get((390, 844))


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Box]:
    with Box(tmp_path_factory.mktemp("history"), source=FixtureSource(n=216)) as b:
        yield b


@pytest.fixture(autouse=True)
def _as_a_phone(browser: Any) -> Iterator[None]:
    """Each test starts on a phone in light mode, and ends with no error in the page's console."""
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)  # 390×844 again, whatever came before
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme",
                                                                          "value": "light"}]})
    browser.get_log("browser")
    yield
    errors = [e for e in browser.get_log("browser") if e["level"] == "SEVERE"]
    assert errors == []


def shot(browser: Any, name: str, whole: bool = False) -> None:
    """A screenshot for docs/evidence (``whole``: the page's full height, at the same width)."""
    if EVIDENCE is None:
        return
    EVIDENCE.mkdir(parents=True, exist_ok=True)
    metrics = dict(browser.execute_script("return {w: innerWidth, h: innerHeight}"))
    if whole:
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**PHONE, "width": metrics["w"],
                                                                       "height": min(int(height), 2600)})
    from PIL import Image

    path = EVIDENCE / f"{name}.png"
    browser.save_screenshot(str(path))
    Image.open(path).convert("RGB").quantize(128).save(path, optimize=True)  # small enough to keep in the repo
    if whole:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {**PHONE, "width": metrics["w"],
                                                                       "height": metrics["h"]})


def open_page(browser: Any, box: Box, path: str, ready: str) -> None:
    from selenium.webdriver.common.by import By

    browser.get(f"{box.hub.address.rstrip('/')}{path}")
    wait(browser, ready, lambda b: b.find_elements(By.CSS_SELECTOR, ready))


def charts(browser: Any) -> list[dict[str, Any]]:
    """Every chart on the page: its kind, title and whether uPlot drew it (a canvas with pixels)."""
    return list(browser.execute_script("""return [...document.querySelectorAll('figure.chart')].map(f => ({
        kind: f.dataset.kind, id: f.dataset.id, title: f.querySelector('figcaption').textContent,
        drawn: !!f.querySelector('canvas') && f.querySelector('canvas').width > 100,
        legend: [...f.querySelectorAll('.u-legend .u-series:not(.band-edge) .u-label')].map(l => l.textContent),
        numbers: [...f.querySelectorAll('details.numbers tbody tr')].map(r => [...r.cells].map(c => c.textContent))
    }))"""))


def cards_text(browser: Any) -> list[str]:
    return list(browser.execute_script("return [...document.querySelectorAll('#games li')].map(li => li.innerText)"))


def fits(browser: Any) -> bool:
    return bool(browser.execute_script("return document.documentElement.scrollWidth <= innerWidth"))


def test_every_saved_game_is_listed_and_filtered_by_game_and_player(browser: Any, box: Box) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_page(browser, box, "/history", "#games li")
    assert text(browser, "count") == "216 games (1 in progress)"
    cards = browser.find_elements(By.CSS_SELECTOR, "#games li")
    assert len(cards) == 40 and "Playing now" in cards[0].text and "in progress" in cards[0].text  # newest first
    assert fits(browser)
    shot(browser, "history-games-390")
    for shown in (80, 120, 160, 200, 216):
        click(browser, "Show more", lambda b: b.find_element(By.ID, "more"))
        wait(browser, f"{shown} games", lambda b: len(cards_text(b)) == shown)
    assert not browser.find_elements(By.ID, "more")
    whole = " ".join(cards_text(browser))
    assert "<b>Hana</b>" in whole and "hidden" in whole and "stopped" in whole  # names as text; every status
    Select(browser.find_element(By.ID, "filter-game")).select_by_value("sovereign")
    expected = [g for g in box.source.base["games"] if g["game"] == "sovereign"]
    wait(browser, "the Sovereign games", lambda b: text(b, "count") == f"{len(expected)} games")
    assert set(browser.execute_script("return [...document.querySelectorAll('#games li')].map(li => "
                                      "li.dataset.game)")) == {"sovereign"}
    Select(browser.find_element(By.ID, "filter-player")).select_by_value("Ana")
    want = document(box.source.base, {"game": "sovereign", "player": "Ana"}, box.source.aliases)["games"]
    wait(browser, "Ana's Sovereign games", lambda b: text(b, "count") == f"{len(want)} games")
    assert all("Ana" in c for c in cards_text(browser))
    assert "game=sovereign&player=Ana" in browser.current_url  # a filtered page can be shared
    shot(browser, "history-filtered-390")


def test_standings_per_game_and_per_player(browser: Any, box: Box) -> None:
    open_page(browser, box, "/history#standings", "table.standings")
    doc = json.loads(box.source.history({}))
    headings = browser.execute_script("return [...document.querySelectorAll('#view h2')].map(h => h.textContent)")
    assert headings[0] == "Every game" and {t for _id, t, *_ in GAMES} <= set(headings)
    rows = browser.execute_script("""return [...document.querySelector('table.standings').tBodies[0].rows].map(
        r => [...r.cells].map(c => c.textContent))""")
    assert {r[0] for r in rows} == set(doc["players"])
    for name, plays, wins, rate, place in rows:
        p = doc["players"][name]
        assert (int(plays), int(wins), rate) == (p["plays"], p["wins"], f"{round(p['win_rate'] * 100)}%")
        assert place == f"{p['avg_place']:.1f}"
    [wins] = charts(browser)
    assert wins["drawn"] and wins["legend"] == ["Plays", "Wins"]
    assert fits(browser)
    shot(browser, "history-standings-390", whole=True)


def test_luck_against_the_odds_with_the_band_chance_explains(browser: Any, box: Box) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_page(browser, box, "/history#luck", "#chart-calibration figure")
    doc = json.loads(box.source.history({}))
    by_player, line, calibration = charts(browser)
    assert all(c["drawn"] for c in (by_player, line, calibration))
    luck = {row[0]: float(row[1].replace("−", "-")) for row in by_player["numbers"]}
    assert luck == pytest.approx({n: p["luck"] for n, p in doc["players"].items() if n in luck}, abs=1e-3)
    assert sum(luck.values()) == pytest.approx(0, abs=0.01)  # the two sides of every battle sum to zero
    who = "Cleo"  # 67 battles: past the exact band's reach (60) too
    Select(browser.find_element(By.ID, "luck-player")).select_by_value(who)
    wait(browser, f"{who}'s battles", lambda b: charts(b)[1]["title"] == f"{who}: luck battle by battle")
    mine = [(b["p_attacker_wins"], b["attacker_won"]) if b["attacker"] == who else
            (1 - b["p_attacker_wins"], not b["attacker_won"]) for b in doc["battles"] if who in
            (b["attacker"], b["defender"])]
    rows = charts(browser)[1]["numbers"]
    assert len(rows) == len(mine) > 60
    total = 0.0
    for row, (p, won), (lo, hi) in zip(rows, mine, exact_band([p for p, _ in mine])):  # a reviewer's calculator
        total += won - p
        assert [float(v.replace("−", "-")) for v in row[1:]] == pytest.approx([total, lo, hi], abs=2e-3)
    odd = browser.find_elements(By.CSS_SELECTOR, "ul.odd li")
    assert len(odd) == 3 and all(" won at " in li.text and "game " in li.text for li in odd)
    assert fits(browser)
    shot(browser, "history-luck-390", whole=True)


def test_dice_fairness_is_a_picture_and_a_plain_verdict(browser: Any, box: Box) -> None:
    open_page(browser, box, "/history#dice", "#die-d12 figure")
    d6, d12 = charts(browser)
    assert d6["drawn"] and d12["drawn"] and len(d6["numbers"]) == 6 and len(d12["numbers"]) == 12
    d6_text = text(browser, "die-d6")
    assert "the 6 came up 1,723 times, more than a fair die gives (1,330 to 1,511)" in d6_text
    assert "look loaded" in d6_text  # the anytime-valid verdict, in words
    assert "Every face is inside the band" in text(browser, "die-d12")
    shot(browser, "history-dice-390", whole=True)


@pytest.mark.parametrize("game", [g[0] for g in GAMES])
def test_each_games_story_draws_every_chart(browser: Any, box: Box, game: str) -> None:
    story = next(s for s in box.source.base["stories"].values() if s["game"] == game and s["status"] == "ended")
    open_page(browser, box, f"/story/{story['id']}", "figure.chart canvas")
    wait(browser, "every chart", lambda b: len(charts(b)) == len(story["charts"]) and all(
        c["drawn"] for c in charts(b)))
    drawn = charts(browser)
    assert [c["kind"] for c in drawn] == [c["kind"] for c in story["charts"]]
    assert text(browser, "story-result") == story["result"] and text(browser, "story-decider") == story["decider"]
    for c, want in zip(drawn, story["charts"]):
        assert c["legend"] == [s["name"] for s in want["series"]]
    assert fits(browser)
    shot(browser, f"story-{game}-390", whole=True)


def test_dark_mode_and_a_tablet(browser: Any, box: Box) -> None:
    story = next(s for s in box.source.base["stories"].values() if s["game"] == "sovereign")
    open_page(browser, box, f"/story/{story['id']}", "figure.chart canvas")
    light = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme",
                                                                          "value": "dark"}]})
    wait(browser, "the dark page", lambda b: b.execute_script(
        "return getComputedStyle(document.body).backgroundColor") == "rgb(18, 18, 18)")
    assert light != "rgb(18, 18, 18)" and all(c["drawn"] for c in charts(browser))
    shot(browser, "story-sovereign-390-dark", whole=True)
    open_page(browser, box, "/history#luck", "#chart-calibration canvas")
    shot(browser, "history-luck-390-dark")
    open_page(browser, box, f"/story/{story['id']}", "figure.chart canvas")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", TABLET)  # the phone turned into a tablet
    widths = "return [...document.querySelectorAll('figure.chart canvas')].map(c => c.getBoundingClientRect().width)"
    wait(browser, "the charts resized to their columns", lambda b: all(300 < w < 410 for w in b.execute_script(
        widths)))  # each chart fills its column, two by two
    columns = browser.execute_script("return getComputedStyle(document.querySelector('.story-grid'))"
                                     ".gridTemplateColumns.split(' ').length")
    assert columns == 2 and fits(browser)
    shot(browser, "story-sovereign-tablet-dark")


@pytest.fixture
def names_kept(box: Box) -> Iterator[None]:
    """The module's history as it was after a test that renames: its names, nothing kept, no phone paired."""
    before = dict(box.source.aliases)
    yield
    box.source.aliases.clear()
    box.source.aliases.update(before)
    box.server.answers.forget()
    box.hub.pairing.forget_all()


def test_the_host_phone_renames_and_merges(browser: Any, box: Box, names_kept: None) -> None:
    from selenium.webdriver.common.by import By

    from companion.web.pairing import HOST

    browser.delete_all_cookies()
    open_page(browser, box, "/history#names", "#view p")
    wait(browser, "the names page", lambda b: "Only the host phone renames" in text(b, "view"))
    assert not browser.find_element(By.ID, "names-tab").is_displayed()
    open_page(browser, box, "/", "#pin")
    browser.find_element(By.ID, "pin").send_keys(box.hub.pairing.new_pin())
    click(browser, "Pair", lambda b: b.find_element(By.ID, "pair-btn"))
    wait(browser, "pairing", lambda b: b.find_elements(By.ID, "phone-code"))
    code = text(browser, "phone-code").split(": ")[1]
    phone = next(p for p in box.hub.pairing.phones() if p.code == code)
    box.hub.pairing.request(phone.key, HOST)
    box.hub.pairing.grant(phone.key, True, HOST)  # the table pressed OK on the device
    box.calm()
    open_page(browser, box, "/history#names", "#names li")
    tabs = browser.execute_script("""const bar = document.getElementById('tabs');
        return {fit: bar.scrollWidth <= bar.clientWidth, out: [...bar.querySelectorAll('a')].filter(a => !a.hidden)
            .filter(a => { const r = a.getBoundingClientRect(); return r.left < 0 || r.right > innerWidth; })
            .map(a => a.textContent)}""")
    assert tabs == {"fit": True, "out": []}  # the host's five tabs, Names too, whole at 390 px
    card = next(c for c in browser.find_elements(By.CSS_SELECTOR, "#names li") if c.text.startswith("Cleo\n"))
    field = card.find_element(By.TAG_NAME, "input")
    field.clear()
    field.send_keys("Ana")
    go = card.find_element(By.CSS_SELECTOR, "button")
    assert go.text == "Merge into Ana"
    shot(browser, "history-names-390")
    go.click()
    wait(browser, "the merge", lambda b: "Cleo's games now count as Ana's" in b.find_element(
        By.ID, "names-status").text)
    names = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#names li h3")]
    assert "Cleo" not in names and "Ana" in names and box.source.aliases["cleo"] == "Ana"
    ana = next(c for c in browser.find_elements(By.CSS_SELECTOR, "#names li") if c.text.startswith("Ana\n"))
    assert "Also played as: anna, cleo" in ana.text
    field = ana.find_element(By.TAG_NAME, "input")
    field.clear()
    field.send_keys("Ana Bell")
    assert ana.find_element(By.CSS_SELECTOR, "button").text == "Rename"
    ana.find_element(By.CSS_SELECTOR, "button").click()
    wait(browser, "the rename", lambda b: "Ana is now called Ana Bell" in b.find_element(By.ID, "names-status").text)
    assert "Ana Bell" in [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#names li h3")]
    assert box.events.empty()


def test_the_end_of_a_game_opens_its_story(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from selenium.webdriver.common.by import By

    monkeypatch.setitem(companion.games.BUILTIN, "webdemo", "webtable:WebDemo")
    story = {"id": 1, "game": "webdemo", "title": "Web demo", "result": "Ana wins", "decider": "the vote was in",
             "status": "ended", "table": [{"name": "Ana", "seat": 1, "place": 1, "winner": True}],
             "charts": [{"id": "n", "title": "Counts", "kind": "step", "x": [1, 2], "series": [
                 {"name": "Ana", "values": [0, 2]}]}]}
    with LiveTable(tmp_path, names=("Ana", "Ben")) as t:
        t.hub.story = lambda i: json.dumps(story if i == t.app.record.id else {"error": f"no saved game {i}"})
        t.press("ok")  # the set-up's one screen
        t.settle()
        browser.get(t.hub.address)
        wait(browser, "the live view", lambda b: text(b, "conn") == "Live")
        assert not browser.find_elements(By.ID, "story-link")
        assert browser.find_element(By.ID, "history-link").get_attribute("href").endswith("/history")
        epoch = t.hub.history_epoch
        c = t.phone("host")
        for value in (1, "north", {"source": "rng"}, ["a"]):
            assert c.answer(t.public()["prompt"]["seq"], value)[0] == 200
        for _ in range(6):  # the two secret ballots and the last question, on the device
            if t.public()["over"]:
                break
            t.press("ok")
            t.settle()
        assert t.public()["over"]
        assert t.hub.history_epoch > epoch  # the history's kept answers are stale now
        link = wait(browser, "the story link", lambda b: b.find_elements(By.ID, "story-link"))[0]
        assert link.text == "See this game's story" and link.get_attribute("href").endswith(f"/story/{t.app.record.id}")
        assert "See the story on a phone" in t.public()["prompt"]["lines"]  # the OLED's last screen says so too
        shot(browser, "end-of-game-390")
        link.click()
        wait(browser, "the story", lambda b: b.find_elements(By.ID, "story-result"))
        assert text(browser, "story-result") == "Ana wins" and charts(browser)[0]["drawn"]


#: The page's clock for the timers of a second or more (its asks again, AGAIN_MS in history.js): each is held, not run,
#: until the test runs it (``runHeldTimers()``); ``heldTimers()`` lists their delays. Shorter ones run as ever.
HELD_TIMERS = """(() => {
  const set = window.setTimeout.bind(window), clear = window.clearTimeout.bind(window), held = new Map();
  let next = 1e9;
  window.setTimeout = (fn, ms, ...args) => {
    if (!(ms >= 1000)) return set(fn, ms, ...args);
    held.set(++next, {ms, run: () => fn(...args)});
    return next;
  };
  window.clearTimeout = (id) => held.has(id) ? held.delete(id) : clear(id);
  window.heldTimers = () => [...held.values()].map((t) => t.ms);
  window.runHeldTimers = () => { const due = [...held.values()]; held.clear(); due.forEach((t) => t.run()); };
})();"""


def test_a_history_still_being_read_says_so_and_fills_in(browser: Any, box: Box) -> None:
    """The statistics answer from their cache and read the rest meanwhile (``pending``): the page says how many
    games are still being read and asks again 3 s later (the page's clock held by the test, run when it says) until
    none are."""
    whole = json.loads(box.source.history({}))
    left = [40, 12]

    def history(query: Any) -> str:
        pending = left.pop(0) if left else 0
        return json.dumps({**whole, "games": whole["games"][pending:], "pending": pending})

    real, box.hub.history = box.hub.history, history
    box.server.answers.forget()  # what earlier tests read is kept (30 s): this one is another history
    clock = browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HELD_TIMERS})["identifier"]
    try:
        open_page(browser, box, "/history", "#games li")
        assert text(browser, "count").endswith("; 40 games still being read")
        for what, done in (("12 games still being read", lambda c: c.endswith("; 12 games still being read")),
                           ("the rest of the games", lambda c: c == "216 games (1 in progress)")):
            assert browser.execute_script("return heldTimers()") == [3000]  # it asks again 3 s later, once
            browser.execute_script("runHeldTimers()")
            wait(browser, what, lambda b: done(text(b, "count")))
        assert left == [] and browser.execute_script("return heldTimers()") == []  # all read: it asks no more
    finally:
        browser.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": clock})
        box.hub.history = real
        box.server.answers.forget()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Box, Any]]:
    """The statistics' own provider over 12 saved games played through the companion (every kind: both chess
    games, Society, SOVERANA, the two example TOML games; finished, ended, active), summarised once."""
    from types import SimpleNamespace

    from companion.config.load import parse_config
    from companion.stats.provider import History, web_callables
    from stats_kit import journal_of

    folder = tmp_path_factory.mktemp("played")
    cfg = parse_config({"journal": {"path": str(journal_of(folder, games=12, distinct=12, seed=7))}})
    hist = History(cfg)
    hist.document(full=True)  # summarised here, once: the web view's callables read the cache
    history, story, names = web_callables(cfg, hist)
    b = Box(folder, source=SimpleNamespace(history=history, story=story, names=names))
    try:
        yield b, json.loads(history({}))
    finally:
        b.close()
        hist.close()


def test_games_played_through_the_companion_render_with_every_chart(browser: Any,
                                                                    played: tuple[Box, Any]) -> None:
    box, doc = played
    ended = {g["game"] for g in doc["games"] if g["status"] == "ended"}
    assert doc["pending"] == 0 and ended >= {"sovereign", "soverana", "sovereigns-chain", "sovereign-chess",
                                             "sovereign-chess-royale", "society", "race-to-ten", "vp-tracker"}
    open_page(browser, box, "/history", "#games li")
    live = sum(g["status"] == "active" for g in doc["games"])
    assert text(browser, "count") == f"{len(doc['games'])} games ({live} in progress)" and fits(browser)
    shot(browser, "played-history-390")
    open_page(browser, box, "/history#standings", "table.standings")
    assert charts(browser)[0]["drawn"] and fits(browser)
    open_page(browser, box, "/history#luck", "#chart-calibration canvas")
    assert all(c["drawn"] for c in charts(browser)) and fits(browser)
    shown: set[str] = set()
    for g in doc["games"]:
        if g["status"] != "ended" or g["game"] in shown:
            continue
        shown.add(g["game"])
        story = json.loads(box.hub.story(g["id"]))  # type: ignore[misc]
        open_page(browser, box, f"/story/{g['id']}", "#story-result")
        wait(browser, f"{g['game']}'s charts", lambda b: len(charts(b)) == len(story["charts"]) and all(
            c["drawn"] for c in charts(b)))
        assert story["charts"] and text(browser, "story-result") == story["result"] and fits(browser), g["game"]
        shot(browser, f"played-story-{g['game']}-390", whole=True)
