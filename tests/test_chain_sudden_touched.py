"""Sudden death re-scores every tied player whose chain changed in the pass: their own play, or another tied
player's ability (issue 17). Players outside the tie have lost and are not re-scored (the game's manual)."""
from __future__ import annotations

from test_chain_sudden import tied_two


def test_an_ability_on_a_tied_players_chain_gets_that_chain_re_scored() -> None:
    t = tied_two(last_card="immediately")
    t.ans("sd_play", "last")                     # Ann plays her last card...
    t.remove(2, 1)                               # ...and its ability removes Bob's only card
    t.done()
    assert t.lengths() == [8, 0]
    t.sudden("empty")                            # Bob has no card to play
    assert t.g.state == "scoring"
    assert t.g.data["scoring"]["queue"] == [1, 2]  # Bob is re-scored too: his chain changed
    t.totals(10, 4)                              # Ann 6
    assert t.active == 2
    t.totals(0, 0)                               # Bob 0 now (it was 6 before the removal)
    js = t.js()
    # both are out of cards together: the scores decide, and Bob's is the new one
    assert t.g.state == "game_end" and js["winner"] == 1 and js["winners"] == ["Ann"]


def test_an_untouched_player_with_no_cards_is_not_asked_again() -> None:
    t = tied_two()
    t.sudden()                                   # Ann plays, no ability on Bob's chain
    t.sudden("empty")
    assert t.g.data["scoring"]["queue"] == [1]
