"""Sovereign end to end through `companion play` (wizard, keys and roller events as at the table), and every
screen the machine draws fitting the 128x64 display."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.rules.sovereign import techs as rt
from companion.rules.sovereign.bonuses import uses
from fsm.autoplay import random_answer
from fsm.prompts import Choice, InvalidAnswer, MultiSelect
from test_sovereign_kit import new_game

SCRIPT = """\
# wizard: 3 players (the default), start
ok
ok
# roll-off on the roller: seat 1 rolls 9, seat 2 9 (a tie), seat 3 2; then seat 1 5, seat 2 3
roll d12 9
roll d12 9
roll d12 2
roll d12 5
roll d12 3
# three first cities
ok
ok
ok
# seat 1: Add 4 points
ok
# Spend opens on Research (the first thing that can be done): Pottery (first on the list); the cursor comes back
# on Research: Writing
ok
ok
ok
ok
# no points left: the cursor is on Done; Move, Manoeuvre done, Finish
ok
ok
ok
ok
# seat 2: a plain turn (UP from Research wraps to Done)
ok
up
ok
ok
ok
ok
# seat 3: Add, Spend done, Move
ok
up
ok
ok
# Manoeuvre: DOWN from Done wraps to Battle
down
ok
# attacker: seat 3 itself; defender: DOWN from seat 1 to seat 2
ok
down
ok
# attack army: Other, attack 2 (UP UP), defence/move/range 0; Done
ok
up
up
ok
ok
ok
ok
ok
# defence army: Other, defence 3; Done
ok
ok
up
up
up
ok
ok
ok
ok
# open field; roll: 9 + 2 against 12 + bonus 1 + 3 (a natural 12: one bonus die by default)
ok
ok
roll d12 9
roll d12 12
roll d12 1
# the attacker's unit is destroyed: end the battle, Done, Finish
ok
ok
ok
"""


def play(tmp_path: Path, script: str, config: str = "") -> dict[str, object]:
    s = tmp_path / "script.txt"
    s.write_text(script)
    out = tmp_path / "state.json"
    args = ["play", "sovereign", "--script", str(s), "--seed", "5", "--state-json", str(out)]
    if config:
        cfg = tmp_path / "config.toml"
        cfg.write_text(config)
        args = ["--config", str(cfg), *args]
    assert main(args) == 0
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def test_companion_play_a_round_with_research_and_a_battle(tmp_path: Path) -> None:
    state = play(tmp_path, SCRIPT)
    assert state["game"] == "sovereign" and state["state"] == "add"
    assert state["active_player"] == 1 and state["round"] == 2 and state["winner"] is None
    players = state["players"]
    assert isinstance(players, list)
    p1, p2, p3 = players
    assert p1["techs"] == ["Pottery", "Writing"] and p1["points"] == 0 and p1["points_added"] == 4
    assert p2["techs"] == [] and p3["techs"] == []
    for p in players:
        assert p["cities"] == 1 and p["tiles"] == 4
    # the defender won: no card for anyone
    assert all(p["victory_cards"] == {"military": 0, "expansion": 0, "technology": 0} for p in players)
    assert state["battles"] == 1


def test_companion_play_with_the_explode_option_off(tmp_path: Path) -> None:
    # the attacker rolls 12, then 11, then 11 more arrives. Default (once): 12 + bonus 11 + 2 = 25 beats the
    # defender's 11 + 3 = 14. With explode = "off" in the config the second roll is the defender's: 12 + 2 = 14
    # against 11 + 3 = 14, a draw that goes to the defender (the third roll is one nobody asked for).
    script = SCRIPT.replace("roll d12 9\nroll d12 12\nroll d12 1\n", "roll d12 12\nroll d12 11\nroll d12 11\n")
    once = play(tmp_path, script)
    off = play(tmp_path, script, '[games.sovereign]\nexplode = "off"\n')
    for state in (once, off):
        assert state["state"] == "add" and state["active_player"] == 1 and state["battles"] == 1
    assert once["players"][2]["victory_cards"]["military"] == 1  # type: ignore[index]
    assert off["players"][2]["victory_cards"]["military"] == 0  # type: ignore[index]


def test_companion_play_attacker_win_earns_a_military_card(tmp_path: Path) -> None:
    script = SCRIPT.replace("roll d12 9\nroll d12 12\nroll d12 1\n", "roll d12 9\nroll d12 4\n")
    state = play(tmp_path, script)
    players = state["players"]
    assert isinstance(players, list)
    assert players[2]["victory_cards"]["military"] == 1


# ------------------------------------------------------------------------------------------------ screens fit
#: options that end in a technology's full name: the platform ellipsises the name's end ("1 free tile: Industria…")
NAMED = re.compile(r"(\d free (tile|unit)s?|Free): ")


def test_every_screen_fits_the_display() -> None:
    """Random play with most of the chart discovered: every title (beside the player tag), context line and menu
    label fits its width in the display font, so the OLED never cuts one."""
    from companion.ui.draw import LIST_W, WIDTH, text_width, title_room, wrap

    names = ("Margaret", "Bartholo", "Carol", "Dmitri", "Eve", "Fitzgera")
    too_wide: set[str] = set()
    for seed in range(4):
        rng = random.Random(seed)
        g = new_game(6)
        g.players = tuple(type(p)(names[i], p.seat) for i, p in enumerate(g.players))
        g.data["unit_stats"].update({u: [3, 2, 1, rng.randint(0, 2)] for u in rt.chart_units()})
        for p in g.data["players"].values():
            p["techs"] = {t.key: 0 for t in rt.TECHS if t.key != "globalization" and rng.random() < 0.6}
            p["oneshot"] = {k: uses(k) for k in p["techs"] if uses(k)}
        for _ in range(500):
            if g.is_over:
                break
            pr = g.prompt()
            tag = names[pr.player - 1] if pr.player else ""
            if text_width(pr.title) > title_room(tag):
                too_wide.add(f"title {pr.title!r} beside {tag!r}")
            too_wide.update(f"line {ln!r}" for ln in pr.lines  # the screen wraps a line: no word may need a cut
                            if any(text_width(x) > WIDTH - 2 or x.endswith("…") for x in wrap(ln, LIST_W)))
            if isinstance(pr, (Choice, MultiSelect)):
                for o in pr.options:
                    label = ("[ ] " if isinstance(pr, MultiSelect) else "") + o.label
                    if text_width(label) > LIST_W and not NAMED.match(label):
                        too_wide.add(f"option {label!r}")
            try:
                g.answer(random_answer(pr, rng))
            except InvalidAnswer:
                pass
    assert not too_wide, "\n".join(sorted(too_wide))


@pytest.mark.parametrize("n", [2, 6])
def test_views_fit(n: int) -> None:
    from companion.ui.draw import text_width

    g = new_game(n)
    for p in g.data["players"].values():
        p["techs"] = {t.key: 0 for t in rt.TECHS}
        p["cities"] = [{"name": f"City {i}", "tiles": 7, "start": 7} for i in range(1, 8)]
        p["forts"] = [9, 9, 7, 6, 6, 5]
    g.data["battle_log"] = ["B12 roll 3: Margaret 12+12(3,12)+17=41 v Bartholo 9+22+7=38: Margaret wins the roll"]
    for v in g.views():
        assert all(text_width(line) <= 124 for line in v.lines), v
