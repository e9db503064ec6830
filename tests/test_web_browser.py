"""The web view in a real browser (Debian's chromium through chromedriver, headless, loopback only): it follows a
button press on the device within a second, pairs with the PIN, answers prompts from the page, casts a secret vote
on the voter's own phone, and shows a player called ``<script>`` as text. Skipped where no browser is installed
(`.ci/run` installs chromium and chromium-driver)."""
from __future__ import annotations

import json
import pkgutil
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

import companion.games
from browsers import PHONE
from webtable import LiveTable


@pytest.fixture(scope="module")
def browser(browsers: Any) -> Any:
    return browsers.get(PHONE)


@pytest.fixture(autouse=True)
def _demo_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(companion.games.BUILTIN, "webdemo", "webtable:WebDemo")


@pytest.fixture
def table(tmp_path: Path, browser: Any) -> Iterator[LiveTable]:
    browser.delete_all_cookies()
    with LiveTable(tmp_path, names=("<script>", "Ben")) as t:
        t.press("ok")
        t.settle()
        yield t


def wait(browser: Any, what: str, pred: Callable[[Any], Any], timeout: float = 5.0) -> Any:
    """``pred(browser)`` once it is truthy (a missing or stale element counts as not yet), as WebDriverWait's
    ``until``; asked again after 20 ms, then each pause half as long again up to 250 ms, so a wait of seconds (a
    page's own timer) costs the browser a few dozen asks, not hundreds. The last ask is at the deadline itself."""
    from selenium.common.exceptions import (NoSuchElementException, StaleElementReferenceException,
                                            TimeoutException)

    deadline = time.monotonic() + timeout
    pause = 0.02
    while True:
        try:
            value = pred(browser)
            if value:
                return value
        except (NoSuchElementException, StaleElementReferenceException):
            pass
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutException(f"waited {timeout} s for {what}")
        time.sleep(min(pause, left))
        pause = min(pause * 1.5, 0.25)


def text(browser: Any, element_id: str) -> str:
    from selenium.webdriver.common.by import By

    return str(browser.find_element(By.ID, element_id).text)


def open_view(browser: Any, t: LiveTable) -> None:
    browser.get(t.hub.address)
    wait(browser, "the live view", lambda b: text(b, "conn") == "Live")


def pair(browser: Any, t: LiveTable, role: str | int | None = "host") -> None:
    """Pair the page with the PIN; then ask for ``role`` (a seat number, "host") and give it on the device."""
    from selenium.webdriver.common.by import By

    browser.find_element(By.ID, "pin").send_keys(t.hub.pairing.new_pin())
    click(browser, "Pair", lambda b: b.find_element(By.ID, "pair-btn"))
    wait(browser, "pairing", lambda b: b.find_elements(By.ID, "unpair-btn"))
    if role is not None:
        take(browser, t, role)


def take(browser: Any, t: LiveTable, role: str | int, shots: Path | None = None) -> None:
    """Ask for a seat (or host rights) on the page; the table presses OK on the device."""
    from selenium.webdriver.common.by import By

    from companion.web.screen import SeatRequestScreen

    if role == "host":
        click(browser, "Host", lambda b: b.find_element(By.XPATH, "//div[@id='pair-box']//button[text()='Host']"))
    else:
        click(browser, f"seat {role}", lambda b: b.find_element(By.CSS_SELECTOR, f"button.seat[data-seat='{role}']"))
    wait(browser, "the request waiting for the device", lambda b: b.find_elements(By.ID, "pending"))
    if shots is not None:
        browser.save_screenshot(str(shots / "3-waiting-for-the-device.png"))
    t.wait(lambda: isinstance(t.app.pair_screen, SeatRequestScreen), "the request on the device")
    if shots is not None:
        t.app.pair_screen.render().resize((512, 256)).save(shots / "4-the-device-asks.png")
    t.app.pair_screen.shown -= 5  # the table read the request (an OK at once would say no)
    t.press("ok")
    wait(browser, "the role on the page", lambda b: not b.find_elements(By.ID, "pending") and (
        "host's" in text(b, "pair-box") if role == "host" else f"holds seat {role}" in text(b, "pair-box")))


def button(browser: Any, label: str) -> Any:
    from selenium.webdriver.common.by import By

    return wait(browser, f"the {label!r} button", lambda b: next(
        (e for e in b.find_elements(By.CSS_SELECTOR, "#answer button") if e.text.split("\n")[0] == label), None))


def click(browser: Any, what: str, find: Callable[[Any], Any]) -> None:
    """Click what ``find`` returns, finding it again if the page redrew it in between."""
    from selenium.common.exceptions import StaleElementReferenceException

    def go(b: Any) -> bool:
        try:
            find(b).click()
            return True
        except StaleElementReferenceException:
            return False
    wait(browser, f"a click on {what}", go)


def press(browser: Any, label: str) -> None:
    """Click the answer button ``label`` (found again if the page redrew it meanwhile)."""
    from selenium.common.exceptions import StaleElementReferenceException

    def go(b: Any) -> bool:
        try:
            button(b, label).click()
            return True
        except StaleElementReferenceException:
            return False
    wait(browser, f"a click on {label!r}", go)


def test_the_view_follows_a_device_button_press_within_a_second(browser: Any, table: LiveTable) -> None:
    open_view(browser, table)
    assert text(browser, "prompt-title") == "How many — <script>"  # the name as text, not markup
    assert "<script>" in text(browser, "players-table")
    assert browser.execute_script("return [...document.querySelectorAll('script')].map((s) => s.src)") == [
        table.hub.address + "static/" + name for name in ("dom.js", "app.js", "host.js")]  # nothing injected
    table.press("ok")  # on the device
    wait(browser, "the page to follow the device", lambda b: text(b, "prompt-title") == "Which road — Ben",
         timeout=1.0)


def test_pair_with_the_pin_and_answer_prompts_from_the_page(browser: Any, table: LiveTable) -> None:
    from selenium.webdriver.common.by import By

    open_view(browser, table)
    assert "Pair this phone" in text(browser, "answer")
    pair(browser, table)
    wait(browser, "the number form", lambda b: b.find_elements(By.ID, "num"))
    click(browser, "+", lambda b: b.find_element(By.CSS_SELECTOR, "button[aria-label=more]"))
    press(browser, "OK")
    wait(browser, "the next question", lambda b: text(b, "prompt-title") == "Which road — Ben")
    assert table.app.session.game.data["n"] == 3
    flooded = button(browser, "West")
    assert not flooded.is_enabled() and "West is flooded" in flooded.text
    press(browser, "South")
    wait(browser, "the dice form", lambda b: text(b, "prompt-title").startswith("Roll"))
    for i, box in enumerate(browser.find_elements(By.CSS_SELECTOR, ".dice-inputs input")):
        box.send_keys(str(i + 4))
    press(browser, "Enter roll")
    wait(browser, "the multi-select", lambda b: text(b, "prompt-title") == "Pick")
    table.settle()
    assert table.app.session.game.data["rolls"] == [4, 5] and table.app.session.game.data["choice"] == "south"
    events = [e for _n, _t, e in table.app.journal.inputs(table.app.record.id)]
    assert events[-3:] == ["answer 1 web:host 3", 'answer 2 web:host "south"', 'answer 3 web:host {"values":[4,5],"source":"typed"}']


def test_a_secret_vote_on_the_voters_own_phone(browser: Any, table: LiveTable, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    open_view(browser, table)
    pair(browser, table, 1)
    other = table.phone("host")  # a second phone: the host's (it may not cast Ana's ballot)
    for value in (1, "north", {"source": "rng"}, ["a", "c"]):
        assert other.answer(table.public()["prompt"]["seq"], value)[0] == 200
    wait(browser, "the ballot", lambda b: b.find_elements(By.CSS_SELECTOR, ".ballot"))
    assert "nobody else sees this" in text(browser, "answer")
    status, data = other.json("GET", "/api/state")
    assert "ballot" not in data["me"] and "Yes" not in str(data["snapshot"])
    browser.save_screenshot(str(tmp_path / "ballot.png"))
    press(browser, "No")
    wait(browser, "the next voter", lambda b: "Ben is casting a secret vote on the companion" in text(b, "answer"))
    table.settle()
    assert table.app.session.game.data["votes"] == {"1": "no"}
    assert (tmp_path / "ballot.png").stat().st_size > 1000


def test_the_page_fits_a_phone_upright(browser: Any, table: LiveTable) -> None:
    open_view(browser, table)
    width = browser.execute_script("return document.documentElement.scrollWidth")
    inner = browser.execute_script("return window.innerWidth")
    assert width <= inner, f"the page is {width} px wide in a {inner} px phone screen: it scrolls sideways"


def test_sovereign_chess_board_in_colour_and_a_move_from_the_phone(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    with LiveTable(tmp_path, game="sovereign-chess") as t:
        phone = t.phone("host")
        for value in ("start", "seat1"):
            assert phone.answer(t.public()["prompt"]["seq"], value)[0] == 200
        assert phone.json("POST", "/api/claim", {"seat": None})[0] == 200
        browser.delete_all_cookies()
        open_view(browser, t)
        pair(browser, t)
        pieces = sum(1 for c in t.public()["chess"]["cells"] if c)
        assert pieces > 100
        wait(browser, "every piece on the board",
             lambda b: len(b.find_elements(By.CSS_SELECTOR, "#chess-board g.piece")) == pieces)
        press(browser, "wN f1")  # the piece, then its target: the same steps as on the device
        press(browser, "e3")
        wait(browser, "the move to land", lambda b: "wNf1-e3" in text(b, "log-list"))
        assert t.app.session.game.data["moves"] == ["wNf1-e3"]
        wait(browser, "the last move marked", lambda b: len(b.find_elements(By.CSS_SELECTOR, "#chess-board .last")) == 2)
        click(browser, "Show", lambda b: b.find_element(By.XPATH, "//ul[@class='control']//button"))  # Ana's colours
        wait(browser, "the control map on the board", lambda b: b.find_elements(By.CSS_SELECTOR, "#chess-board .lit"))
        shot = tmp_path / "chess.png"
        wait(browser, "a screenshot of the board", lambda b: b.find_element(By.ID, "chess-board").screenshot(str(shot)))
        from PIL import Image

        with Image.open(shot) as img:
            colours = img.convert("RGB").getcolors(1 << 20) or []
        assert img.width >= 300 and len(colours) > 50  # a board in many colours, not a blank box
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= browser.execute_script("return window.innerWidth")  # the whole board on a phone held upright


def test_society_gm_console_enters_orders_processes_and_offers_the_report(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    with LiveTable(tmp_path, game="society", names=("Ana", "Ben", "Cleo")) as t:
        gm = t.phone("host")
        for value in (3, "start", "start"):  # three societies, start, the map as drawn
            assert gm.answer(json.loads(t.hub.latest.host)["prompt"]["seq"], value)[0] == 200
        assert gm.json("POST", "/api/claim", {"seat": None})[0] == 200  # the game master goes on on the page
        browser.delete_all_cookies()
        open_view(browser, t)
        pair(browser, t)
        wait(browser, "the map", lambda b: b.find_elements(By.ID, "society-map"))
        press(browser, "Ana: 6 gold, tech 1")  # the order forms are the game's own prompts
        press(browser, "Armies")
        wait(browser, "the number form", lambda b: b.find_elements(By.ID, "num"))
        browser.find_element(By.ID, "num").clear()
        browser.find_element(By.ID, "num").send_keys("2")
        press(browser, "OK")
        # the rest of Ana's PM, pasted: each line's reading shown, then added; an unread line kept as a note
        press(browser, "Paste PM (on a phone)")
        wait(browser, "the paste box", lambda b: b.find_elements(By.ID, "paste-text"))
        browser.find_element(By.ID, "paste-text").send_keys("Armies x1 (1)\nthanks GM")
        press(browser, "Read")
        wait(browser, "the readings", lambda b: "1. Armies x1 (1) -> 1 army (1g)" in text(b, "answer"))
        press(browser, "Add 1 order, 1 note")
        press(browser, "Done with orders")
        wait(browser, "the orders listed", lambda b: text(b, "society-orders") ==
             "Ana: 2 armies\nAna: 1 army\nAna: note: thanks GM (not read)")
        press(browser, "Process turn")
        press(browser, "Yes")
        def report_text(b: Any) -> str | None:  # the page redraws the textarea with each snapshot: read it whole
            value = b.find_element(By.ID, "report-text").get_attribute("value")
            return str(value) if "turn 1 results" in value else None  # not the report of the turn about to start
        report = wait(browser, "the report", report_text)
        assert report == t.public()["report"]["markdown"] and "Ana builds 2 armies" in report
        assert "## Turn 2: the sheet for your orders" in report
        click(browser, "BBCode", lambda b: b.find_element(By.XPATH, "//button[text()='BBCode']"))
        wait(browser, "the BBCode", lambda b: "[b]" in b.find_element(By.ID, "report-text").get_attribute("value"))
        assert t.app.session.game.data["round"] == 2
        # every society's treasury, techs, cities, armies and wonders, on a phone held upright: nothing off to the side
        players = browser.find_element(By.ID, "players")
        assert browser.execute_script("return arguments[0].scrollWidth <= arguments[0].clientWidth", players)
        assert not browser.find_elements(By.CSS_SELECTOR, "#players .scroll")
        cards = browser.find_elements(By.CSS_SELECTOR, "#players-table li.card")
        assert [c.find_element(By.TAG_NAME, "h3").text for c in cards] == ["1. Ana", "2. Ben", "3. Cleo"]
        for label in ("treasury", "techs", "cities", "armies", "wonders"):
            assert all(label in c.text.split("\n") for c in cards), label


def test_a_king_in_check_is_marked_red_on_the_board(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    rooks = "16/16/16/16/16/16/br15/2br13/16/16/16/16/16/16/16/wk7bk7 2 w b - 0"  # bRa10-a9 checks wKa1
    with LiveTable(tmp_path, game="sovereign-chess", options={"start": rooks}) as t:
        phone = t.phone("host")
        for value in ("start", "seat1", "bRa10-a9"):
            assert phone.answer(t.public()["prompt"]["seq"], value)[0] == 200, value
        assert t.public()["chess"]["check"] == ["a1"] and t.public()["chess"]["last"] == ["a10", "a9"]
        browser.delete_all_cookies()
        open_view(browser, t)
        wait(browser, "the check", lambda b: b.find_elements(By.CSS_SELECTOR, "#chess-board rect.check"))
        square = browser.find_element(By.CSS_SELECTOR, "#chess-board rect.check")
        assert (square.get_attribute("x"), square.get_attribute("y")) == ("16", str(15 * 24))  # a1, bottom left
        assert "check!" in browser.find_element(By.CSS_SELECTOR, "#game-view h2").text
        assert "white king on a1, in check" in browser.execute_script(
            "return [...document.querySelectorAll('#chess-board title')].map((t) => t.textContent).join('|')")
        toast = browser.find_element(By.ID, "toast")  # the companion's own announcement: neither success nor error
        assert "in check" in toast.text and toast.get_attribute("class") == "toast note"


def test_every_form_by_keyboard_alone_with_a_name_for_every_control(browser: Any, table: LiveTable) -> None:
    """A number, a choice, dice, a multi-select (checkboxes), the secret ballots on the device, a confirm: each form
    answered with Tab, typing, Space and Enter only; every control has a name a screen reader can say."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    shown = (pkgutil.get_data("selenium.webdriver.remote", "isDisplayed.js") or b"").decode()
    assert shown.startswith("(function")  # the script behind WebElement.is_displayed()

    def named_controls() -> None:
        controls = browser.execute_script(  # is_displayed() over every control, in one call
            f"const shown = {shown}; return [...document.querySelectorAll("
            "'button, input, select, textarea, a[href]')].filter((e) => shown(e))")
        unnamed = [e.get_attribute("outerHTML")[:80] for e in controls if not e.accessible_name.strip()]
        assert controls and not unnamed, unnamed

    def tab_to(what: str, match: Callable[[Any], bool], limit: int = 40) -> Any:
        from selenium.common.exceptions import StaleElementReferenceException

        for _ in range(limit):
            try:  # the page drawn again between two Tabs (the pairing's own update): Tab on from where focus is now
                browser.switch_to.active_element.send_keys(Keys.TAB)
                e = browser.switch_to.active_element
                if match(e):
                    return e
            except StaleElementReferenceException:
                continue
        raise AssertionError(f"Tab never reached {what}")

    def title_is(t: str, focused: bool = True) -> None:
        wait(browser, t, lambda b: text(b, "prompt-title").split(" — ")[0] == t)
        if focused:  # the answer came from the keyboard: focus is at the new question, not lost at the page's top
            wait(browser, "focus on the question", lambda b: b.switch_to.active_element.get_attribute("id") == "prompt")

    open_view(browser, table)
    pair(browser, table)
    assert browser.find_element(By.ID, "oled").accessible_name.startswith("The companion's screen")
    wait(browser, "the number form", lambda b: b.find_elements(By.ID, "num"))
    named_controls()
    box = tab_to("the number", lambda e: e.get_attribute("id") == "num")
    assert box.accessible_name == "How many"
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("4")
    tab_to("OK", lambda e: e.text == "OK").send_keys(Keys.ENTER)
    title_is("Which road")
    named_controls()
    browser.switch_to.active_element.send_keys(Keys.TAB)  # one Tab from the question: its first control
    assert browser.switch_to.active_element.text == "North"
    tab_to("South", lambda e: e.text == "South").send_keys(Keys.ENTER)
    title_is("Roll")
    named_controls()
    first = tab_to("the first die", lambda e: e.get_attribute("type") == "number")
    assert first.accessible_name == "d6 1 of 2"
    first.send_keys("6")
    browser.switch_to.active_element.send_keys(Keys.TAB, "2")
    tab_to("Enter roll", lambda e: e.text == "Enter roll").send_keys(Keys.ENTER)
    title_is("Pick")
    named_controls()
    boxes = browser.find_elements(By.CSS_SELECTOR, "#answer input[type=checkbox]")
    assert [b.accessible_name for b in boxes] == ["a", "b", "c"]
    tab_to("the box a", lambda e: e.get_attribute("value") == "a").send_keys(Keys.SPACE)
    tab_to("the box c", lambda e: e.get_attribute("value") == "c").send_keys(Keys.SPACE)
    tab_to("Done", lambda e: e.text == "Done").send_keys(Keys.ENTER)
    title_is("Vote")
    assert browser.switch_to.active_element.accessible_name == "Vote"  # what a screen reader says on arriving
    assert "casting a secret vote on the companion" in text(browser, "answer")
    table.press("ok", "ok", "ok", "down", "ok")  # both ballots on the device: <script> Yes, Ben No
    title_is("Sure?", focused=False)
    named_controls()
    tab_to("Yes", lambda e: e.text == "Yes").send_keys(Keys.ENTER)
    title_is("Game over")  # the session's last screen: who won, what decided it, the story (issue 32)
    assert text(browser, "answer") == "The game is over.\nSee this game's story"
    table.settle()
    data = table.app.session.game.data
    assert (data["n"], data["choice"], data["rolls"], data["picked"]) == (4, "south", [6, 2], ["a", "c"])
    assert data["votes"] == {"1": "yes", "2": "no"} and table.app.session.game.state == "game_over"
    events = [e for _n, _t, e in table.app.journal.inputs(table.app.record.id)]
    assert 'answer 4 web:host ["a","c"]' in events and "answer 7 web:host true" in events


def test_a_pin_only_table_shows_nothing_until_the_phone_pairs(browser: Any, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    with LiveTable(tmp_path, view="paired", names=("Ana", "Ben")) as t:
        t.press("ok")
        browser.delete_all_cookies()
        browser.get(t.hub.address)
        wait(browser, "the PIN form", lambda b: text(b, "conn") == "Pair this phone to watch")
        assert browser.find_element(By.ID, "pin").is_displayed()
        assert "Ana" not in browser.find_element(By.TAG_NAME, "main").text  # no player, no game, no OLED
        assert not browser.find_element(By.ID, "oled").get_attribute("src")
        pair(browser, t)
        wait(browser, "the game, live", lambda b: text(b, "conn") == "Live" and "How many" in text(b, "prompt-title"))
        t.press("ok")  # the device moves on: the paired page follows
        wait(browser, "the next question", lambda b: text(b, "prompt-title") == "Which road — Ben")


def test_a_seat_is_asked_for_on_the_phone_and_given_on_the_device_then_its_ballot_comes_there(
        tmp_path: Path, browsers: Any) -> None:
    """Seat binding in the browser at 390×844 (findings 2 and 11), with screenshots of the flow: the page paired,
    the seats as thumb-size buttons, the request waiting for the device, the device's question, the seat held, the
    ballot on the voter's phone. ``COMPANION_SHOTS=DIR`` keeps them."""
    import os

    from selenium.webdriver.common.by import By

    shots = Path(os.environ.get("COMPANION_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    browser = browsers.get((390, 844))
    with LiveTable(tmp_path / "t", names=("Ana", "Ben")) as t:
        t.press("ok")
        t.settle()
        open_view(browser, t)
        # the mirror sits near the top, above the question
        tops = browser.execute_script("return ['device', 'prompt'].map((id) => "
                                      "document.getElementById(id).getBoundingClientRect().top)")
        assert tops[0] < tops[1] and tops[0] < 200, tops
        pair(browser, t, None)
        browser.save_screenshot(str(shots / "1-paired.png"))
        heights = [e.size["height"] for e in browser.find_elements(By.CSS_SELECTOR, "button.seat")]
        assert len(heights) == 2 and min(heights) >= 44, heights  # a thumb's size
        browser.execute_script("document.getElementById('phone').scrollIntoView()")
        browser.save_screenshot(str(shots / "2-seats.png"))
        take(browser, t, 1, shots)
        browser.save_screenshot(str(shots / "5-seat-held.png"))
        host = t.phone("host")
        for value in (1, "north", {"source": "rng"}, ["a"]):
            assert host.answer(json.loads(t.hub.latest.host)["prompt"]["seq"], value)[0] == 200
        wait(browser, "Ana's ballot", lambda b: b.find_elements(By.CSS_SELECTOR, ".ballot"))
        browser.execute_script("document.querySelector('.ballot').scrollIntoView()")
        browser.save_screenshot(str(shots / "6-ballot-on-the-voters-phone.png"))
        press(browser, "No")
        wait(browser, "Ben's turn on the device", lambda b: "Ben is casting" in text(b, "answer"))
        t.settle()
        assert t.app.session.game.data["votes"] == {"1": "no"}
        events = [e for _n, _t, e in t.app.journal.inputs(t.app.record.id)]
        assert 'answer 5 web:seat1 "no"' in events
        # a tablet, not paired: the companion's screen and the question side by side (the phone's browser, its
        # cookies gone, turned into a 1024×768 tablet as a browser started at that size is; the next page it opens
        # is a phone again: chromedriver applies its emulation at each navigation)
        tablet = browser
        tablet.delete_all_cookies()
        open_view(tablet, t)
        tablet.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1024, "height": 768,
                                                                       "deviceScaleFactor": 1, "mobile": True})
        assert tablet.execute_script("return [innerWidth, innerHeight, navigator.maxTouchPoints > 0]") == [
            1024, 768, True]
        wait(tablet, "the tablet layout", lambda b: b.execute_script(
            "const a = document.getElementById('device').getBoundingClientRect(), "
            "b = document.getElementById('prompt').getBoundingClientRect(); "
            "return Math.abs(a.top - b.top) < 2 && a.right <= b.left + 1"))
        tablet.save_screenshot(str(shots / "7-tablet.png"))
    for name in ("1-paired", "2-seats", "3-waiting-for-the-device", "4-the-device-asks", "5-seat-held",
                 "6-ballot-on-the-voters-phone", "7-tablet"):
        assert (shots / f"{name}.png").stat().st_size > 500, name  # the device's 1-bit frame is small
