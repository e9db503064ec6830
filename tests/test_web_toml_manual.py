"""A TOML game's manual on the phone is how to play that game (issue 33 item 8): its description, who goes first, the
phases of a round, the counters, when it ends and who wins — built from its spec by companion/games/toml_manual.py
and handed to the web view by the loop — never the TOML authoring page; an id with no manual gets the styled
phone-width 404 page with a way back."""
from __future__ import annotations

from pathlib import Path

from companion.games import EXAMPLES
from companion.games.toml_game import load_toml_game
from companion.games.toml_manual import how_to_play, manual_for
from companion.games.toml_spec import read_spec
from webtable import LiveTable

COUNTDOWN = """
[game]
id = "countdown"
name = "Count down"
description = "Lose your lives last"
min_players = 3
max_players = 3
first_player = "random"

[[counters]]
id = "lives"
name = "Lives"
start = 5
min = 0
max = 5

[[counters]]
id = "coins"
name = "Coins"

[[phases]]
name = "Duel"
each_player = false
counters = ["lives"]

[[end]]
counter = "lives"
reaches = 0

[winner]
counter = "coins"
order = "lowest"

[clock]
mode = "fischer"
main = 300
increment = 5
"""


def test_race_to_ten_reads_as_how_to_play_it() -> None:
    text = how_to_play(read_spec(EXAMPLES / "race-to-ten.toml"))
    assert text.startswith("# Race to ten\n\nRoll-off start, a shared income phase, turns; first to 10 VP wins.")
    assert "2 to 4 players" in text
    assert "Everyone rolls a d6" in text and "a tie rolls again among the tied players only" in text
    assert "at most 12 rounds" in text
    assert "1. **Income**, everyone at once: Everyone takes income. Counters changed here: Gold." in text
    assert "2. **Build**, each player in turn: Spend gold on VP. Counters changed here: Gold, VP." in text
    assert "| Gold | 3 | 0 to 50 |" in text and "| VP | 0 | 0 to 10 |" in text
    assert "- At once when any player's VP reaches 10 or more." in text and "- After round 12." in text
    assert "The player with the most VP wins; players tied for the most share the win." in text
    assert "[[counters]]" not in text and "id =" not in text  # not the authoring page


def test_every_switch_of_a_spec_is_said(tmp_path: Path) -> None:
    (tmp_path / "countdown.toml").write_text(COUNTDOWN)
    text = how_to_play(read_spec(tmp_path / "countdown.toml"))
    assert "3 players." in text and "The companion draws who goes first." in text
    assert "Each round plays these phases" in text and "at most" not in text  # no round limit
    assert "1. **Duel**, everyone at once. Counters changed here: Lives." in text
    assert "At once when any player's Lives falls to 0 or below." in text  # counting down from 5, as the game checks
    assert "The player with the fewest Coins wins" in text
    assert "Each player's turn is timed: Fischer 5m+5s" in text and "(clock.md)" in text


def test_the_loop_finds_a_toml_game_by_id_running_or_not(tmp_path: Path) -> None:
    games = tmp_path / "games"
    games.mkdir()
    (games / "countdown.toml").write_text(COUNTDOWN)
    assert (manual_for("countdown", games) or "").startswith("# Count down\n")
    assert (manual_for("vp-tracker", games) or "").startswith("# VP tracker\n")  # a shipped example
    assert manual_for("sovereign", games) is None  # a built-in game has its own file
    assert manual_for("nope", games) is None
    elsewhere = tmp_path / "mine.toml"  # `companion run --game mine.toml`: in no folder the box lists
    elsewhere.write_text(COUNTDOWN.replace('"countdown"', '"mine"'))
    assert manual_for("mine", games) is None
    assert (manual_for("mine", games, load_toml_game(elsewhere)) or "").startswith("# Count down\n")
    (games / "broken.toml").write_text('[game]\nid = "broken"\nname = "B"\n')  # no phases: cannot be read
    assert manual_for("broken", games) is None


def test_the_phone_gets_the_running_toml_games_manual(tmp_path: Path) -> None:
    with LiveTable(tmp_path, game="race-to-ten") as t:
        c = t.client()
        status, headers, body = c.request("GET", "/manual/race-to-ten")
        page = body.decode()
        assert status == 200 and headers["content-type"].startswith("text/html")
        assert "<h1>How this table plays Race to ten</h1>" in page
        assert "<strong>Income</strong>, everyone at once" in page and ">Gold</td>" in page
        assert "[[counters]]" not in page and "companion run --game" not in page
        status, _h, body = c.request("GET", "/manual/vp-tracker")  # another TOML game this box plays
        assert status == 200 and b"<h1>How this table plays VP tracker</h1>" in body
        status, _h, body = c.request("GET", "/manual/toml")  # the authoring page is still there, by its own name
        assert status == 200 and b"[[counters]]" in body


def test_an_unknown_id_gets_a_styled_phone_page_with_a_way_back(tmp_path: Path) -> None:
    with LiveTable(tmp_path, game="race-to-ten") as t:
        status, headers, body = t.client().request("GET", "/manual/no-such-game")
        page = body.decode()
        assert status == 404 and headers["content-type"].startswith("text/html")
        assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
        assert '<link rel="stylesheet" href="/static/app.css">' in page
        assert '<a href="/">Back to the table</a>' in page and "<code>no-such-game</code>" in page
        status, _h, body = t.client().request("GET", "/manual/%3Cscript%3E")  # not even a name: escaped, if shown
        assert status == 404 and b"<script>" not in body
