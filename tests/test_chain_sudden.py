"""Sudden death among the tied: no draws, each plays on their own chain, re-score; broken by a play, or ended when a
player has no card left."""
from __future__ import annotations

from test_chain_helpers import Table


def tied_two(**options: object) -> Table:
    """Ann and Bob, Ann to 7 first, every card revealed, both scoring 6."""
    t = Table(2, **options).setup(dealer=2)
    for _ in range(6):
        t.turn(target=1)
    assert t.g.state == "reveal"
    while t.g.state == "reveal":
        t.reveal()
    t.totals(10, 4).totals(2, 8)
    assert t.g.state == "sudden_death"
    return t


def test_a_tie_goes_to_sudden_death_and_a_play_breaks_it() -> None:
    t = tied_two()
    js = t.js()
    assert js["winner"] is None and js["sudden_death"] == {"pass": 1, "contenders": [1, 2], "out": []}
    assert t.active == 1 and t.lengths() == [7, 1]
    t.sudden()                                   # Ann plays on her own chain: 8 (sudden death is not capped)
    t.sudden()                                   # Bob plays on his
    assert t.lengths() == [8, 2]
    assert t.g.state == "scoring" and t.active == 1
    t.totals(13, 4).totals(2, 9)                 # Ann 9, Bob 7: the tie is broken
    js = t.js()
    assert t.g.state == "game_end" and js["winner"] == 1 and js["match_wins"] == {"Ann": 1, "Bob": 0}


def test_sudden_death_repeats_while_tied_and_ends_when_a_hand_is_empty() -> None:
    t = tied_two()
    t.sudden().sudden()
    t.totals(13, 4).totals(2, 11)                # 9 and 9: still tied, another pass
    assert t.g.state == "sudden_death" and t.js()["sudden_death"]["pass"] == 2
    t.sudden("last")                             # Ann plays her last card
    t.sudden()
    t.totals(14, 4).totals(2, 12)                # 10 and 10: tied, and Ann has no cards left: she loses
    js = t.js()
    assert js["winner"] == 2 and js["sudden_death"]["out"] == [1]
    assert any("no cards left" in line for line in t.g.data["log"])


def test_a_player_with_no_card_to_play_loses_at_once() -> None:
    t = Table(3).setup(dealer=3)                 # Ann starts
    for _ in range(6):
        t.turn(target=1)
    while t.g.state == "reveal":
        t.reveal()
    t.totals(9, 1).totals(8, 0).totals(3, 0)     # Ann 8, Bob 8, Cat 3
    assert t.js()["sudden_death"]["contenders"] == [1, 2]
    t.sudden("empty")                            # Ann's hand is empty
    t.sudden()                                   # Bob plays
    t.totals(8, 3)                               # only Bob re-scores (5): he wins anyway
    assert t.js()["winner"] == 2 and t.js()["sudden_death"]["out"] == [1]


def test_everybody_out_of_cards_together_shares_the_game() -> None:
    t = tied_two()
    t.sudden("empty").sudden("empty")
    js = t.js()
    assert t.g.state == "game_end" and js["winner"] is None and js["winners"] == ["Ann", "Bob"]
    assert js["match_wins"] == {"Ann": 1, "Bob": 1}


def test_last_card_rule_immediately() -> None:
    after = tied_two()
    after.sudden("last").sudden()
    after.totals(13, 4).totals(2, 9)             # Ann 9, Bob 7: Ann's last card broke the tie
    assert after.js()["winner"] == 1
    now = tied_two(last_card="immediately")
    now.sudden("last").sudden()
    now.totals(13, 4).totals(2, 9)               # the same scores, but her empty hand loses at once
    assert now.js()["winner"] == 2


def test_re_scoring_card_by_card_offers_the_previous_entries_as_defaults() -> None:
    t = Table(2, score_entry="cards").setup(dealer=2)
    for _ in range(6):
        t.turn(target=1)
    while t.g.state == "reveal":
        t.reveal()
    ann = [(3, "star", 0), (4, "planet", 0), (5, "star", 1), (2, "star", 0), (1, "planet", 0), (6, "star", 0),
           (2, "planet", -1)]
    for v, s, m in ann:
        t.ans("score_value", v).ans("score_suit", s).ans("score_mod", m)
    assert t.player(1)["score"] == 17 - 6      # stars 3+6+2+6, planets 4+1+1
    t.ans("score_value", 11).ans("score_suit", "star").ans("score_mod", 0)
    assert t.g.state == "sudden_death"
    t.sudden().sudden()
    # Ann re-scores 8 cards: OK on each default repeats her earlier entry; the new eighth card is a 2 planet
    for _ in range(7):
        for step in ("score_value", "score_suit", "score_mod"):
            t.ans(step, t.g.prompt().default)  # type: ignore[union-attr]
    assert t.g.prompt().default == 0  # type: ignore[union-attr]
    t.ans("score_value", 2).ans("score_suit", "planet").ans("score_mod", 0)
    assert t.player(1)["score"] == 9
    t.ans("score_value", t.g.prompt().default).ans("score_suit", "star").ans("score_mod", 0)  # type: ignore[union-attr]
    t.ans("score_value", 1).ans("score_suit", "planet").ans("score_mod", 0)
    assert t.player(2)["score"] == 10 and t.js()["winner"] == 2
