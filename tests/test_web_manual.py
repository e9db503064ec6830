"""Each game's manual on every phone (issue 28): ``GET /manual/<game-id>`` renders companion/manuals/<game-id>.md
(a TOML game gets its own, built from its spec: tests/test_web_toml_manual.py), linked from the game's view as "How
this table plays GAME"; nothing in a manual passes through as HTML. The browser test looks at it on a phone-sized screen and leaves a screenshot in /work/wt/shots-28
when that folder exists."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import companion.games
from companion.games import BUILTIN
from companion.web.manual import current_game, manual_names, manual_page, render
from webtable import LiveTable

SHOTS = Path("/work/wt/shots-28")


@pytest.fixture(autouse=True)
def _demo_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(companion.games.BUILTIN, "webdemo", "webtable:WebDemo")


# ------------------------------------------------------------------ rendering

def test_raw_html_in_a_manual_is_shown_as_text() -> None:
    html = render('<script>alert(1)</script>\n\n<img src=x onerror="alert(2)">\n\nA <b>bold</b> claim.\n')
    assert "<script" not in html and "<img" not in html and "<b>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html and "&lt;b&gt;bold&lt;/b&gt;" in html


@pytest.mark.parametrize("link", ["javascript:alert(1)", "JAVASCRIPT:alert(1)", "vbscript:x", "data:text/html,x"])
def test_script_links_are_dropped(link: str) -> None:
    html = render(f"[press here]({link})\n")
    assert "href" not in html and "press here" in html


def test_headings_get_anchors_and_sibling_manuals_become_pages() -> None:
    html = render("## Options (`[games.sovereign]` in the config)\n\nSee [the clock](clock.md#the-clock-any-game), "
                  "[move text](#move-text) and [the web](https://example.org/x).\n")
    assert '<h2 id="options-gamessovereign-in-the-config">' in html
    assert 'href="/manual/clock#the-clock-any-game"' in html
    assert 'href="#move-text"' in html and 'href="https://example.org/x"' in html


@pytest.mark.parametrize("game", sorted(BUILTIN.keys() - {"webdemo"}))
def test_every_game_has_its_page(game: str) -> None:
    cls = companion.games.load(game)
    page = manual_page(game, game, cls.name)
    assert page is not None and f"<h1>How this table plays {cls.name}</h1>" in page
    assert "<table>" in page or "<ul>" in page  # rendered, not dumped as text
    same = manual_page(f"{game}.md")  # what a link in another manual asks for
    assert same is not None and "How this table plays" in same


def test_a_toml_game_gets_its_own_manual_under_its_own_name(tmp_path: Path) -> None:
    from companion.games.toml_game import load_toml_game
    from companion.games.toml_manual import manual_for

    def shipped(gid: str) -> str | None:
        return manual_for(gid, None)
    page = manual_page("vp-tracker", "vp-tracker", "VP tracker", shipped)
    assert page is not None and "<h1>How this table plays VP tracker</h1>" in page and "Play, then score" in page
    assert "[[counters]]" not in page  # how to play it, not how to write a TOML file
    other = manual_page("race-to-ten", "sovereign", "Sovereign", shipped)  # a TOML game this box plays, not running
    assert other is not None and "<h1>How this table plays Race to ten</h1>" in other
    assert manual_page("vp-tracker", "sovereign", "Sovereign") is None  # without the loop's manuals: none
    (tmp_path / "c.toml").write_text('[game]\nid = "clock"\nname = "Clock game"\nrounds = 3\n'
                                     '[[phases]]\nname = "Tick"\n')
    running = load_toml_game(tmp_path / "c.toml")  # a TOML game whose id is a shared manual's name

    def table(gid: str) -> str | None:
        return manual_for(gid, None, running)
    clock = manual_page("clock", "clock", "Clock game", table)
    assert clock is not None and "<h1>How this table plays Clock game</h1>" in clock and "Tick" in clock
    assert "<h1>The clock (any game)</h1>" in (manual_page("clock", "sovereign", "Sovereign", table) or "")


@pytest.mark.parametrize("name", ["nope", "../README", "..", "Sovereign", "sovereign/../society", "", "a" * 80])
def test_no_page_for_what_is_not_a_manual(name: str) -> None:
    assert manual_page(name, None, None) is None


def test_the_game_names_are_escaped() -> None:
    page = manual_page("x-game", "x-game", "<script>alert(1)</script>", lambda gid: "# <b>X</b>\n\nHow.\n")
    assert page is not None and "<script>" not in page and "&lt;script&gt;" in page


def test_current_game_reads_the_snapshot() -> None:
    assert current_game('{"screen": "game", "game": {"id": "society", "name": "Society"}}') == ("society", "Society")
    assert current_game('{"screen": "home"}') == (None, None)
    assert current_game("null") == (None, None)
    assert current_game("not json") == (None, None)
    assert {*BUILTIN} - {"webdemo"} <= manual_names()


# ------------------------------------------------------------------ over HTTP

def test_the_manual_over_http(tmp_path: Path) -> None:
    with LiveTable(tmp_path) as t:
        t.press("ok")
        t.settle()
        c = t.client()
        status, headers, body = c.request("GET", "/manual/sovereign")
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert "default-src 'none'" in headers["content-security-policy"]
        assert b"<h1>How this table plays Sovereign</h1>" in body
        for name in ("webdemo", "nope"):  # a game with no manual (a test's), no game: the page says so
            status, headers, body = c.request("GET", f"/manual/{name}")
            assert status == 404 and headers["content-type"].startswith("text/html")
            assert f"no manual called <code>{name}</code>".encode() in body
        status, _h, _b = c.request("GET", "/manual/..%2F..%2FREADME")
        assert status == 404


def test_a_paired_only_table_keeps_its_manual_for_paired_phones(tmp_path: Path) -> None:
    with LiveTable(tmp_path, view="paired") as t:
        status, _h, _b = t.client().request("GET", "/manual/sovereign")
        assert status == 401


# ------------------------------------------------------------------ in a phone's browser

@pytest.fixture
def phone(browsers: Any) -> Any:
    return browsers.get((390, 844))


def test_the_phone_opens_the_manual_from_the_games_view(tmp_path: Path, phone: Any) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    with LiveTable(tmp_path, game="sovereign-chess") as t:
        phone.get(f"http://127.0.0.1:{t.port}/")
        link = WebDriverWait(phone, 10, 0.05).until(
            lambda d: (el := d.find_element(By.ID, "manual-link")).is_displayed() and el, "the manual link")
        assert link.text == "How this table plays Sovereign Chess"
        link.click()
        WebDriverWait(phone, 10, 0.05).until(lambda d: d.find_elements(By.CSS_SELECTOR, "article.manual h2"))
        assert phone.find_element(By.TAG_NAME, "h1").text == "How this table plays Sovereign Chess"
        widths = phone.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        assert widths == [390, 390], f"the page scrolls sideways on a phone: {widths}"
        headings = [h.text for h in phone.find_elements(By.CSS_SELECTOR, "article.manual h2")]
        assert "Entering a move" in headings and any(h.startswith("Readings") for h in headings)
        clock = phone.find_element(By.CSS_SELECTOR, 'a[href="/manual/clock"]')
        if SHOTS.is_dir():
            phone.save_screenshot(str(SHOTS / "manual-sovereign-chess-390x844.png"))
        clock.click()
        WebDriverWait(phone, 10, 0.05).until(lambda d: d.find_element(By.TAG_NAME, "h1").text.startswith("The clock"))
        assert re.search(r"/manual/clock$", phone.current_url)
        phone.back()
        phone.back()
        WebDriverWait(phone, 10, 0.05).until(lambda d: d.find_element(By.ID, "manual-link").is_displayed())
        if SHOTS.is_dir():
            phone.save_screenshot(str(SHOTS / "table-with-manual-link-390x844.png"))


def test_table_cells_carry_their_column_names() -> None:
    html = render('| key | TOML `[clock]` | what "it" does |\n|---|---|---|\n| `a` | <b>x</b> |  |\n')
    assert '<td data-label="key"><code>a</code></td>' in html
    assert '<td data-label="TOML [clock]">&lt;b&gt;x&lt;/b&gt;</td>' in html
    assert '<td data-label="what &quot;it&quot; does"></td>' in html


def test_every_manuals_tables_read_on_a_phone(tmp_path: Path, phone: Any) -> None:
    """At 390 px a table's rows are cards: each cell as wide as the manual's text, so no word breaks letter by
    letter in a squeezed column, and nothing scrolls sideways (review of issue 28: "sudd/en 600", "ke/y")."""
    with LiveTable(tmp_path, game="sovereign") as t:
        tables = 0
        for name in sorted(manual_names()):
            phone.get(f"http://127.0.0.1:{t.port}/manual/{name}")
            narrow = phone.execute_script("""
                const text = document.querySelector('article.manual').clientWidth;
                return [...document.querySelectorAll('article.manual td')]
                  .filter(td => td.textContent.trim() && td.getBoundingClientRect().width < text * 0.8)
                  .map(td => td.textContent.slice(0, 30));""")
            assert narrow == [], f"{name}: table cells squeezed on a phone: {narrow[:5]}"
            widths = phone.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert widths == [390, 390], f"{name}: the page scrolls sideways on a phone: {widths}"
            tables += phone.execute_script("return document.querySelectorAll('article.manual table').length")
        assert tables >= 5  # the manuals do have tables to look at
