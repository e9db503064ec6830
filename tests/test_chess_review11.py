"""Sovereign Chess at the table, checked against the rules text by a fresh reviewer (issue 11).

Traditional chess (rule 1) lets either player resign at any moment, not only on their own move; an opening word
typed after the opening is refused in plain words; the record's header always names the clock.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.events import EntryEvent, Key, KeyEvent
from companion.session import Session
from fsm.base import Player, Setup
from fsm.prompts import InvalidAnswer
from fsm.sovereign_chess import SovereignChessGame

from conftest import run_companion


def game(**options: Any) -> SovereignChessGame:
    return SovereignChessGame(Setup((Player("Ann", 1), Player("Bo", 2)), options))


def session() -> Session:
    s = Session(SovereignChessGame, seed=1, presets=["Ann", "Bo"], options={})
    s.handle(KeyEvent(Key.OK))  # the wizard: start with Ann and Bo
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))  # Ann makes White's first move
    return s


def test_the_player_not_to_move_can_resign_too() -> None:
    g = game()
    g.answer("seat1")
    g.answer("wPi2-i4")
    g.answer("reject")  # Bo plays Black and is to move; Ann (White) wants to resign while Bo thinks
    labels = {o.key: o.label for o in g.prompt().options if o.in_menu}
    assert labels["resign"] == "Bo resigns" and labels["resign_other"] == "Ann resigns"
    g.answer("resign_other")
    js = g.state_json()
    assert (js["termination"], js["winner"], js["result"]) == ("resignation", 2, "0-1")


def test_the_first_mover_can_resign_while_the_opening_choice_is_pending() -> None:
    g = game()
    g.answer("seat2")  # Bo makes White's first move
    g.answer("wPi2-i4")
    assert g.state == "opening"
    g.answer("resign_other")  # Bo resigns before Ann has chosen: Bo still holds White
    js = g.state_json()
    assert (js["termination"], js["winner"], js["result"]) == ("resignation", 1, "0-1")


def test_both_resignations_are_in_the_game_menu_and_undo_takes_them_back() -> None:
    s = session()
    for t in ("wPi2-i4", "accept"):  # Bo takes White; Ann, Black, is to move
        s.handle(EntryEvent("move", t))
    s.handle(KeyEvent(Key.HOLD))
    items = {it.key: it.label for it in s.overlays[-1].widget.items}
    assert items["act:resign"] == "Ann resigns" and items["act:resign_other"] == "Bo resigns"
    keys = list(items)
    for _ in range(keys.index("act:resign_other")):
        s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))
    s.handle(KeyEvent(Key.UP))  # the confirmation starts on No
    s.handle(KeyEvent(Key.OK))
    js = s.state_json()
    assert (js["termination"], js["winner"], js["result"]) == ("resignation", 1, "0-1")
    s.undo()
    assert s.state_json()["result"] is None and s.state_json()["to_move"] == 1


@pytest.mark.parametrize("word", ["accept", "reject"])
def test_an_opening_word_after_the_opening_is_one_plain_line(word: str) -> None:
    g = game()
    g.answer("seat1")
    g.answer("wPi2-i4")
    g.answer("reject")
    with pytest.raises(InvalidAnswer, match=f"^'{word}' only right after White's first move$"):
        g.entry_answer(word)


def test_the_record_header_names_the_clock_even_when_there_is_none() -> None:
    g = game()
    g.answer("seat1")
    g.answer("wPi2-i4")
    assert g.record()["headers"]["Clock"] == "none"
    assert game(clock="fischer 300+3").record()["headers"]["Clock"] == "fischer 300+3"


def test_inspect_counts_moves_not_the_opening_choice(tmp_path: Path) -> None:
    f = tmp_path / "plain.txt"
    f.write_text("wPi2-i4\nreject\nbPe15-e13\nwPe2-e4\n")
    out = run_companion("chess", "inspect", "--moves-file", str(f))
    assert out.returncode == 0, out.stderr
    assert f"after 3 moves and reject from {f}" in out.stdout.splitlines()
    assert "player 2 to move, ply 3" in out.stdout.splitlines()
    f.write_text("wPi2-i4\n")
    assert f"after 1 move from {f}" in run_companion("chess", "inspect", "--moves-file", str(f)).stdout
