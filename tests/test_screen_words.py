"""Issue 22 items 12 and 15, held: device screens say things in plain words with counts that agree ("1 army"), names
are never cut by letter count (a name gives way by pixels, and only when its line would not fit), and the phone
gets a prompt's lines whole while the OLED wraps them as drawn."""
from __future__ import annotations

from typing import Any

from companion.events import Key, KeyEvent
from companion.games import load
from companion.session import Session
from fsm.base import Player
from fsm.screen_text import fits

LONG = "Bartholomew"  #: longer than every old letter cut (4, 5, 6, 8, 10 letters), short enough for a line


def _keys(s: Session, *names: str) -> None:
    for n in names:
        s.handle(KeyEvent(Key[n.upper()]))


def test_chain_status_says_face_down_in_words_and_keeps_names_whole() -> None:
    s = Session(load("sovereigns-chain"), seed=1, presets=[LONG, "Ben", "Cleopatra"], options={})
    _keys(s, "up", "ok", "ok")
    g: Any = s.game
    g.data["chains"]["1"] = [[{"up": False}]]  # one card in play, face down
    lines = g.chain_lines()
    text = " ".join(lines)
    assert "▼" not in text and f"{LONG} 1 (1 down)" in text, lines
    assert "Cleopatra 0" in text, lines  # not "Bart", not "Cleo"
    assert all(fits(x) for x in lines)
    label = g.chain_option(1).label
    assert label.startswith(f"{LONG}: 1, 1 down") and fits(label), label


def test_sovereign_names_whole_and_move_and_construction_in_words() -> None:
    from fsm.sovereign import battle_setup
    from fsm.sovereign.turn import move_prompt
    from test_sovereign_kit import new_game

    g = new_game(3)
    g.players = (Player(LONG, 1), Player("Cleopatra", 2), Player("Dev", 3))
    text = " ".join(move_prompt(g).lines)
    assert "up to M." not in text and "Move value" in text, text
    b = battle_setup.new_battle(g, 1, step="where")
    b["defender"] = 2
    g.data["battle"] = b
    lines = battle_setup.prompt(g).lines
    assert lines[0] == "Cleopatra defends" and "No Construction bonus" == lines[1], lines  # not "Cleopatr"


def test_society_menu_in_words_with_counts_that_agree() -> None:
    from fsm.prompts import Number
    from test_society_game import game

    g = game()
    opts = g.prompt().options
    assert not any(" T1" in o.label or "g T" in o.label for o in opts), [o.label for o in opts]
    seat = next(iter(g.data["world"]["soc"]))
    g.data["world"]["soc"][seat]["armies"] = 1
    g.answer(f"soc:{seat}")
    g.answer("attack")
    target = next(o for o in g.prompt().options if o.enabled)
    g.answer(target.key)  # then: how many armies attack
    p = g.prompt()
    assert isinstance(p, Number) and p.lines[1] == "1 army now", p.lines
    assert "gold, tech" in p.lines[0], p.lines


def test_soverana_departments_in_words() -> None:
    from fsm.soverana.core import dept_list

    assert dept_list(["Economy", "Education", "Health & Welfare"]) == "Economy, Education, Health"


def test_toml_round_and_dice_sources_in_words() -> None:
    from companion.ui.about import dice_lines
    from conftest import EXAMPLES

    s = Session(load(str(EXAMPLES / "race-to-ten.toml")), seed=1, presets=["Ana", "Ben"], options={})
    _keys(s, "ok", "ok")
    seen = []
    for _ in range(6):
        p = s.prompt()
        seen += [p.title, *p.lines]
        s.handle(KeyEvent(Key.OK))
    assert not any(x.startswith("R1/") or "R1/12" in x for x in seen), seen
    assert " ".join(dice_lines(("roller", "typed", "rng"))) == "Dice: roller, typed in, rolled here"


def test_royale_status_names_whole_and_plain() -> None:
    from fsm.sovereign_chess_royale.status import status_lines

    from fsm.base import Setup
    from fsm.sovereign_chess_royale.machine import SovereignChessRoyaleGame

    g = SovereignChessRoyaleGame(Setup(tuple(Player(n, i) for i, n in enumerate((LONG, "Ben", "Cleopatra", "Dev"), 1)),
                                       {"armies": "seats"}))
    lines = status_lines(g.engine(), g.army_name)
    assert any(x.startswith(LONG) for x in lines) and not any(" ctrl" in x for x in lines), lines


def test_rolloff_lines_keep_names_whole() -> None:
    from fsm.turns import rolloff_lines

    ro = {"history": [[1, 1, 7], [1, 2, 7], [2, 1, 3], [2, 2, 9]]}
    assert rolloff_lines(ro, [LONG, "Cleopatra"]) == (f"{LONG} 7 Cleopatra 7", f"{LONG} 3 Cleopatra 9")


def test_phone_gets_whole_lines_and_the_oled_wraps_them() -> None:
    """SOVERANA's question lines reach the phone as written (not at the OLED's width); the OLED screen wraps them
    as drawn and loses no word."""
    from companion.ui.prompt_screens import ChoiceScreen
    from fsm.prompts import Choice, Option
    from fsm.soverana.core import lines

    long = "Into crisis: Hospital, Police Station, Fire Station, University"
    assert lines(long, None, "None ticked: back") == (long, "None ticked: back")
    screen = ChoiceScreen(Choice("Crisis", lines=(long,), options=(Option("a", "A"),)), ["Ana"])
    assert len(screen.lines) > 1 and " ".join(screen.lines) == long

