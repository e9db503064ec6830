"""Scripted Sovereign's Chain games for two, three and four players, through the reveal and scoring; the seven-card
cap; the end only at the end of a turn; tokens and the event."""
from __future__ import annotations

from test_chain_helpers import Table


def test_two_player_game_through_reveal_and_scoring() -> None:
    t = Table(2).setup(dealer=2)                 # Bob deals: Ann, on his left, starts
    assert t.active == 1 and t.g.state == "turn"
    t.turn()                                     # Ann: own chain (2)
    t.turn(target=1, down=True)                  # Bob: facedown on Ann's chain (3, 2 facedown)
    assert t.lengths() == [3, 1] and t.downs() == [2, 1]
    assert t.g.data["round"] == 2
    for _ in range(3):
        t.turn()                                 # Ann 4, 5, 6 / Bob 2, 3 ...
        t.turn()
    assert t.lengths() == [6, 4] and t.g.state == "turn"
    t.turn()                                     # Ann reaches 7: the game ends at the end of her turn
    assert t.g.state == "reveal" and t.js()["first_to_seven"] == 1
    # reveal: Ann first (card 1), then Bob, then Ann's second facedown card (pass 2)
    assert t.active == 1
    t.reveal()
    assert t.active == 2
    t.ans("reveal", "p0")
    t.remove(chain=1, pos=7).done()             # Bob's revealed card removes one of Ann's: she ends with 6
    assert t.active == 1 and t.g.data["reveal"]["pass"] == 2
    t.reveal()
    assert t.g.state == "scoring" and t.downs() == [0, 0] and t.lengths() == [6, 4]
    # Ann scores card by card (6 cards), Bob the two totals
    assert t.active == 1
    t.cards((4, "star", 0), (6, "star", 0), (1, "planet", 0), (3, "planet", 0), (5, "planet", 1), (7, "planet", 0))
    assert t.player(1)["score"] == 7            # stars 10, planets 17
    t.totals(12, 3)
    assert t.player(2)["score"] == 9
    js = t.js()
    assert t.g.state == "game_end" and js["winner"] == 2 and js["winners"] == ["Bob"] and js["winner_name"] == "Bob"
    assert js["match_wins"] == {"Ann": 0, "Bob": 1} and js["dealer"] == 2
    t.ans("game_end", "finish")
    assert t.g.is_over and t.js()["winner"] == 2


def test_three_player_game_with_events_tokens_and_a_chain_reaching_seven_on_anothers_turn() -> None:
    t = Table(3, event_names="Hostile Orbit, Solar Flare, Quiet Space").setup(dealer=1, fair_winds=False,
                                                                              event="e2")
    assert t.js()["event"] == "Solar Flare" and t.active == 2
    # Bob: plays on Cat's chain and takes two modifiers; a new event is drawn (E)
    t.play(target=3)
    t.ans("fx", "tokens").ans("fx_tok", "take_mod").ans("fx_count", 2)
    t.ans("fx", "event").ans("event", "e1")
    t.done()
    assert t.js()["event"] == "Hostile Orbit" and t.player(2)["held"] == {"shield": 0, "modifier": 2}
    assert t.js()["supply"] == {"shield": 13, "modifier": 19, "suit": 21}
    # Cat: own chain, then a shield from the supply on it
    t.play()
    t.ans("fx", "tokens").ans("fx_tok", "shield").ans("fx_chain", "c3").ans("fx_pos", "p2")
    t.done()
    assert t.js()["supply"]["shield"] == 12
    # Ann: on Cat's chain; Bob's held modifier goes on Ann's first card (from his pool, on his next turn)
    t.turn(target=3)
    t.play(target=3)
    t.ans("fx", "tokens").ans("fx_tok", "mod").ans("fx_src", "pool").ans("fx_chain", "c1").ans("fx_pos", "p0")
    t.ans("fx_sign", "minus")
    t.done()
    assert t.player(2)["held"]["modifier"] == 1 and t.js()["supply"]["modifier"] == 19
    assert t.lengths() == [1, 1, 5]
    t.turn(target=3)                             # Cat: own chain, 6
    # Ann plays on Cat's chain: 7. Cat reached seven first though Ann's turn it is
    t.play(target=3)
    assert t.lengths()[2] == 7
    t.done()
    assert t.g.state == "reveal" and t.js()["first_to_seven"] == 3
    assert t.player(2)["held"] == {"shield": 0, "modifier": 0}  # held tokens are forfeit at the game's end
    order = []
    while t.g.state == "reveal":
        order.append(t.active)
        t.reveal()
    assert order == [3, 1, 2]
    t.totals(5, 5).totals(9, 2).totals(1, 4)     # turn order from Bob: Bob 0, Cat 7, Ann 3
    assert [t.player(s)["score"] for s in (1, 2, 3)] == [3, 0, 7]
    assert t.js()["winner"] == 3


def test_four_player_game_with_a_random_dealer() -> None:
    t = Table(4)
    t.ans("dealer", "random")
    assert t.step == "dealer_random"
    t.ans("dealer_random", "4")                  # the platform's seeded pick
    t.settle_setup(fair_winds=True, games=1, event="none")
    assert t.js()["dealer"] == 4 and t.active == 1
    # everybody plays on Dan's chain: it reaches 7 on the sixth turn (Bob's, round 2)
    for seat in (1, 2, 3, 4, 1):
        assert t.active == seat
        t.turn(target=4)
    assert t.lengths() == [1, 1, 1, 6]
    t.turn(target=4)
    assert t.g.state == "reveal" and t.js()["first_to_seven"] == 4
    assert [t.active] == [4]
    for seat in (4, 1, 2, 3):
        assert t.active == seat
        t.reveal()
    t.totals(3, 1).totals(2, 2).totals(8, 1).totals(10, 5)   # Ann 2, Bob 0, Cat 7, Dan 5
    js = t.js()
    assert js["winner"] == 3 and [p["score"] for p in js["players"]] == [2, 0, 7, 5]
    assert [p["chain_length"] for p in js["players"]] == [1, 1, 1, 7]
    assert [p["facedown"] for p in js["players"]] == [0, 0, 0, 0]


def test_an_extra_play_may_never_take_a_chain_past_seven() -> None:
    t = Table(2).setup(dealer=2)
    for _ in range(4):
        t.turn(target=2)                         # Bob's chain: 5
    t.play(target=2)                             # Ann: 6
    t.extra(chain=2)                             # an extra play: 7
    assert t.lengths() == [1, 7]
    t.ans("fx", "add").ans("fx_chain", "c2")
    reason = t.refused("fx_where", "end_up")
    assert "past 7" in reason
    assert not t.option("end_down").enabled and t.option("cover").enabled  # covering keeps the length
    t.ans("fx_where", "cover").ans("fx_pos", "p6").ans("fx_face", "down")
    assert t.lengths() == [1, 7] and t.downs() == [1, 2]
    t.done()
    assert t.g.state == "reveal" and t.js()["first_to_seven"] == 2


def test_the_game_ends_only_if_a_chain_holds_seven_at_the_end_of_the_turn() -> None:
    t = Table(2).setup(dealer=2)
    for _ in range(5):
        t.turn(target=1)                         # Ann's chain: 6
    t.play()                                     # Bob: his own chain
    assert t.active == 2 and t.lengths() == [6, 2]
    t.done()
    t.play(target=1)                             # Ann: 7 mid-turn ...
    assert t.lengths()[0] == 7
    t.remove(chain=1, pos=3)                     # ... her card's ability removes one: 6 again
    t.done()
    assert t.g.state == "turn" and t.active == 2


def test_out_of_tokens_shows_and_an_empty_supply_gives_nothing() -> None:
    t = Table(2).setup(dealer=2)
    t.play()
    t.ans("fx", "tokens").ans("fx_tok", "take_shield").ans("fx_count", 13)
    assert t.js()["out_of_tokens"] == ["shield"]
    p = t.g.prompt()
    assert "Out of shields" in p.lines
    t.ans("fx", "tokens")
    assert not t.option("take_shield").enabled and t.option("take_shield").hint == "Out of shields: no effect"
    assert "no effect" in t.refused("fx_tok", "take_shield")
    t.ans("fx_tok", "shield")                    # from her pool: no supply needed
    t.ans("fx_chain", "c1").ans("fx_pos", "p0")
    assert t.js()["supply"]["shield"] == 0 and t.player(1)["held"]["shield"] == 12
    t.ans("fx", "remove").ans("fx_chain", "c2")  # Bob's card can go; Ann's shielded first card cannot
    t.ans("fx_pos", "p0")
    t.ans("fx", "remove").ans("fx_chain", "c1")
    assert "shielded" in t.refused("fx_pos", "p0")
