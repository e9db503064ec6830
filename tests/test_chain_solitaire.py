"""Solitaire (one player): seven faceup cards, plays exactly one higher (modifiers included), any value on a
facedown card or a gap; removed cards leave a gap; illegal plays refused with a reason; win and loss."""
from __future__ import annotations

from typing import Any

from test_chain_helpers import Table

BOARD = [(1, "star"), (2, "star"), (3, "star"), (4, "star"), (5, "planet"), (6, "none"), (7, "star")]


def solo(board: list[tuple[int, str]] = BOARD, **options: Any) -> Table:
    t = Table(1, **options)
    assert t.step == "fair_winds"                # no dealer in solitaire
    t.ans("fair_winds", True)
    for value, suit in board:
        t.ans("sol_value", value).ans("sol_suit", suit)
    assert t.g.state == "turn" and t.step == "sol_turn"
    assert t.js()["mode"] == "solitaire"
    return t


def play(t: Table, value: int, suit: str, pos: int) -> Table:
    t.ans("sol_turn", "play").ans("sol_play_value", value).ans("sol_play_suit", suit)
    return t.ans("sol_play_pos", f"p{pos - 1}")


def test_solitaire_win_all_seven_one_suit() -> None:
    t = solo()
    assert t.player(1)["positions"] == ["1S", "2S", "3S", "4S", "5P", "6-", "7S"]
    play(t, 6, "star", 5).done()                 # a 6 covers the 5 planet
    assert t.g.state == "turn" and t.js()["result"] is None
    play(t, 7, "star", 6).done()                 # a 7 covers the suitless mercenary: all stars
    js = t.js()
    assert t.g.state == "game_end" and js["result"] == "won" and js["winner"] == 1
    assert t.player(1)["positions"] == ["1S", "2S", "3S", "4S", "6S", "7S", "7S"]
    t.ans("game_end", "finish")
    assert t.g.is_over and t.js()["winner"] == 1


def test_solitaire_loss_when_the_player_declares_no_legal_play() -> None:
    t = solo()
    t.ans("sol_turn", "stuck")
    assert t.g.prompt().default is False  # type: ignore[union-attr]
    t.ans("sol_giveup", False)                   # changed their mind
    t.ans("sol_turn", "stuck").ans("sol_giveup", True)
    js = t.js()
    assert t.g.state == "game_end" and js["result"] == "lost" and js["winner"] is None and js["winners"] == []
    t.ans("game_end", "again")                   # a new board
    assert t.step == "sol_value" and t.g.state == "setup"


def test_illegal_plays_are_refused_with_a_reason() -> None:
    t = solo()
    t.ans("sol_turn", "play")
    assert t.refused("sol_play_value", 12) == "no position takes a 12"
    t.ans("sol_play_value", 4).ans("sol_play_suit", "planet")
    assert t.option("p0").hint == "only a 2 may cover this 1"
    assert t.refused("sol_play_pos", "p0") == "only a 2 may cover this 1"
    t.ans("sol_play_pos", "p2")                  # the 4 goes on the 3
    assert t.player(1)["positions"][2] == "4P"


def test_modifiers_count_and_removed_cards_leave_a_gap_that_takes_any_value() -> None:
    t = solo()
    play(t, 2, "star", 1)
    t.ans("fx", "tokens").ans("fx_tok", "mod").ans("fx_pos", "p2").ans("fx_sign", "plus")   # the 3 is now a 4
    t.remove(chain=1, pos=4)                     # the 4 star goes: a gap stays
    t.done()
    assert t.player(1)["positions"] == ["2S", "2S", "4S", "..", "5P", "6-", "7S"]
    assert t.player(1)["chain_length"] == 6
    t.ans("sol_turn", "play").ans("sol_play_value", 4).ans("sol_play_suit", "star")
    assert "only a 5" in t.refused("sol_play_pos", "p2")
    t.ans("sol_play_pos", "p3")                  # any value fills the gap
    t.done()
    assert t.player(1)["positions"][3] == "4S"


def test_a_facedown_card_takes_any_value_and_is_entered_when_flipped() -> None:
    t = solo()
    play(t, 5, "star", 4)
    t.ans("fx", "add").ans("fx_pos", "p6").ans("fx_face", "down")   # an extra card facedown on the 7
    assert t.player(1)["facedown"] == 1 and t.player(1)["positions"][6] == "??"
    t.done()
    play(t, 1, "planet", 7).done()               # any value on a facedown card
    play(t, 2, "star", 7)
    t.remove(chain=1, pos=7)                     # uncovers the 1 planet
    t.remove(chain=1, pos=7)                     # uncovers the facedown card
    t.flip(chain=1, pos=7)
    t.ans("fx_value", 9).ans("fx_psuit", "star")
    assert t.player(1)["positions"][6] == "9S"
    t.flip(chain=1, pos=7)                       # down again; flipping it back needs no entry: it is known
    t.flip(chain=1, pos=7)
    assert t.step == "fx" and t.player(1)["positions"][6] == "9S"


def test_an_extra_faceup_play_follows_the_one_higher_rule() -> None:
    t = solo()
    play(t, 5, "star", 4)
    t.ans("fx", "add").ans("fx_pos", "p0").ans("fx_face", "up")
    assert t.g.prompt().default == 2  # type: ignore[union-attr]
    assert t.refused("fx_value", 3) == "only a 2 may cover this 1"
    t.ans("fx_value", 2).ans("fx_psuit", "star")
    assert t.player(1)["positions"][0] == "2S"


def test_a_deal_already_all_one_suit_wins_at_once() -> None:
    t = Table(1)
    t.ans("fair_winds", True)
    for value in range(1, 8):
        t.ans("sol_value", value).ans("sol_suit", "planet")
    assert t.g.state == "game_end" and t.js()["result"] == "won"


def test_solitaire_with_events_asks_for_the_first_event_after_the_deal() -> None:
    t = Table(1)
    t.ans("fair_winds", False)
    for value, suit in BOARD:
        t.ans("sol_value", value).ans("sol_suit", suit)
    assert t.g.state == "deal" and t.step == "event"
    t.ans("event", "e4")
    assert t.step == "sol_turn" and t.js()["event"] == "Event 4"
