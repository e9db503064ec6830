"""A match: several games in a row, the dealer moving one seat left each game, wins tallied, the summary."""
from __future__ import annotations

from fsm.prompts import Info

from test_chain_helpers import Table


def quick_game(t: Table, winner: int) -> None:
    """Everybody plays on the first player's chain until it holds seven; reveal; ``winner`` scores 5, others 1."""
    first = t.active
    while t.g.state == "turn":
        t.turn(target=first)
    assert t.js()["first_to_seven"] == first
    while t.g.state == "reveal":
        t.reveal()
    while t.g.state == "scoring":
        t.totals(5 if t.active == winner else 1, 0)
    assert t.g.state == "game_end" and t.js()["winner"] == winner


def test_three_game_match_rotates_the_dealer_and_tallies_wins() -> None:
    t = Table(3).setup(dealer=1, games=3)
    seen = []
    for game, winner in ((1, 2), (2, 2), (3, 3)):
        js = t.js()
        assert js["game_number"] == game and js["match_games"] == 3
        seen.append((js["dealer"], js["first_player"]))
        assert t.lengths() == [1, 1, 1] and t.downs() == [1, 1, 1]  # every game starts afresh
        assert js["supply"] == {"shield": 13, "modifier": 21, "suit": 21}
        quick_game(t, winner)
        if game < 3:
            assert t.option("next").label == f"Next: {['Ann', 'Bob', 'Cat'][game % 3]} deals"
            t.ans("game_end", "next")
    assert seen == [(1, 2), (2, 3), (3, 1)]
    js = t.js()
    assert js["match_wins"] == {"Ann": 0, "Bob": 2, "Cat": 1} and js["game_winners"] == [[2], [2], [3]]
    assert [p["wins"] for p in js["players"]] == [0, 2, 1]
    assert t.g.prompt().default == "finish"  # type: ignore[union-attr]
    t.ans("game_end", "finish")
    assert t.g.is_over and t.g.state == "game_over"
    js = t.js()
    assert js["winner"] == 2 and js["winner_name"] == "Bob"
    summary = t.g.prompt()
    assert isinstance(summary, Info) and summary.title == "Match over"
    assert summary.lines[:2] == ("Bob wins", "3 games played")
    wins = " ".join(summary.lines[2:])  # as many players to a line as fit it
    assert "Ann 0" in wins and "Bob 2" in wins and "Cat 1" in wins
    assert any("Match over" in line for line in t.g.data["log"])


def test_a_match_tied_on_wins_offers_one_more_game() -> None:
    t = Table(2).setup(dealer=1, games=2)
    quick_game(t, 1)
    t.ans("game_end", "next")
    assert t.js()["dealer"] == 2 and t.active == 1
    quick_game(t, 2)
    p = t.g.prompt()
    assert "Tied on wins" in p.lines and p.default == "more"  # type: ignore[union-attr]
    t.ans("game_end", "more")
    js = t.js()
    assert js["game_number"] == 3 and js["match_games"] == 3 and js["dealer"] == 1
    quick_game(t, 1)
    t.ans("game_end", "finish")
    assert t.js()["winner"] == 1 and t.js()["match_wins"] == {"Ann": 2, "Bob": 1}


def test_views_show_chains_tokens_and_the_match() -> None:
    t = Table(2).setup(dealer=1, games=2)
    views = {v.title: v.lines for v in t.g.views()}
    assert views["Chains"][0].startswith("Ann: 1 in play, 1 down")
    assert views["Tokens"][0] == "Shields 13 of 13"
    assert views["Match"][:2] == ("Game 1 of 2", "Dealer Ann")
