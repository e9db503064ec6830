"""Games described in TOML: the examples play through; malformed files name the key or line."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import GameFileError
from companion.games import load
from companion.games.toml_game import load_toml_game
from companion.session.headless import play
from conftest import EXAMPLES, run_companion

VALID = """
[game]
id = "t"
name = "T"
min_players = 2
max_players = 3
first_player = "seat1"
rounds = 2
[[counters]]
id = "vp"
[[phases]]
name = "Go"
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "g.toml"
    p.write_text(text)
    return p


def test_vp_tracker_plays_to_the_round_limit(tmp_path: Path) -> None:
    # 2 players (3 is the default: down once), start, Ana first; each round the FIRST player scores 1 and the
    # second passes; rotate_first hands the first turn one seat on each round
    turn_ana = ["down", "ok", "up", "ok", "up", "ok"]  # the cursor comes back on VP: UP wraps to Done
    script = ["down", "ok", "ok", "ok"] + (turn_ana + ["ok"]) * 5
    s = tmp_path / "s.txt"
    s.write_text("\n".join(script))
    state = play(str(EXAMPLES / "vp-tracker.toml"), s, seed=1)
    assert state["state"] == "game_over", state
    assert state["winner"] == 1 and state["winner_name"] == "Ana" and state["winners"] == ["Ana"]
    vp = {p["name"]: p["vp"] for p in state["players"]}
    assert vp == {"Ana": 3, "Ben": 2}, "rotate_first: Ana starts rounds 1, 3 and 5, Ben rounds 2 and 4"


def test_race_to_ten_ends_the_moment_ten_vp_is_reached(tmp_path: Path) -> None:
    script = ["ok", "ok", "roll d6 6", "roll d6 2",  # roll-off: Ana 6, Ben 2
              "ok",  # income: done
              "down", "down", "ok"] + ["up"] * 10 + ["ok"]
    s = tmp_path / "s.txt"
    s.write_text("\n".join(script))
    state = play(str(EXAMPLES / "race-to-ten.toml"), s, seed=1)
    assert state["state"] == "game_over" and state["winner_name"] == "Ana"


def test_rolloff_ties_reroll_among_the_tied_only(tmp_path: Path) -> None:
    cls = load(str(EXAMPLES / "race-to-ten.toml"))
    from fsm.base import Player, Setup

    g = cls(Setup(tuple(Player(n, i + 1) for i, n in enumerate(["A", "B", "C"]))))
    for seat, v in ((1, 5), (2, 5), (3, 2)):
        assert g.prompt().player == seat
        g.answer({"values": [v], "source": "typed"})
    assert g.prompt().player == 1, "A and B tied: A rolls again"
    g.answer({"values": [1], "source": "typed"})
    assert g.prompt().player == 2, "C is out of the re-roll"
    g.answer({"values": [4], "source": "typed"})
    assert g.state == "playing" and g.data["first"] == 2


def test_valid_minimal_file_loads(tmp_path: Path) -> None:
    cls = load_toml_game(write(tmp_path, VALID))
    assert cls.game_id == "t" and cls.INITIAL == "playing"


@pytest.mark.parametrize("change, needle", [
    (("id = \"t\"", "id = \"T T\""), "[game] id"),
    (("min_players = 2", "min_players = 0"), "[game] min_players = 0 must be from 1 to 8"),
    (("first_player = \"seat1\"", "first_player = \"oldest\""), "[game] first_player"),
    (("[[phases]]\nname = \"Go\"", "[[phases]]\nnam = \"Go\""), "[[phases]] #1 name: is missing"),
    (("[[counters]]\nid = \"vp\"", "[[counters]]\nid = \"vp\"\nmax = -5"), "[[counters]] #1 max"),
    (("rounds = 2", "rounds = 2\ncolour = 1"), "[game] colour: is not a known key"),
    (("rounds = 2", ""), "the game never ends"),
    (("name = \"Go\"", "name = \"Go\"\ncounters = [\"gold\"]"), "names 'gold', which is not a counter"),
    (("[game]", "[game\n"), "not valid TOML"),
])
def test_malformed_files_name_the_key_or_line(tmp_path: Path, change: tuple[str, str], needle: str) -> None:
    p = write(tmp_path, VALID.replace(*change))
    with pytest.raises(GameFileError) as e:
        load_toml_game(p)
    assert needle in str(e.value) and str(p) in str(e.value) and "\n" not in str(e.value)


def test_cli_reports_a_malformed_game_in_one_line(tmp_path: Path) -> None:
    p = write(tmp_path, VALID.replace("min_players = 2", "min_players = \"two\""))
    r = run_companion("run", "--game", str(p))
    assert r.returncode == 2 and "min_players" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_games_command_lists_ids(companion) -> None:
    r = companion("games", "--ids")
    assert r.returncode == 0
    ids = r.stdout.split()
    assert ids == sorted(set(ids), key=ids.index)
