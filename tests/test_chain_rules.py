"""Sovereign's Chain rules as pure functions: chains, the token supply, scoring, the end of a game, matches,
solitaire."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.rules.sovereigns_chain import (CHAIN_LIMIT, SUPPLY, CardEntry, ChainError, LastCard, PlayStatus,
                                              Suit, TokenKind, leaders, score_cards, score_totals)
from companion.rules.sovereigns_chain import chain as ch
from companion.rules.sovereigns_chain import endgame, match, solitaire, tokens

P, M, E = PlayStatus.PLAYED, PlayStatus.LAST, PlayStatus.EMPTY


def chain_of(*faces: bool) -> ch.Chain:
    c = ch.start_chain()
    c[0][0]["up"] = faces[0] if faces else False
    for up in faces[1:]:
        c = ch.append(c, ch.new_card(up))
    return c


# -------------------------------------------------------------------- chains
def test_a_chain_starts_with_one_facedown_card() -> None:
    c = ch.start_chain()
    assert ch.length(c) == 1 and ch.facedown(c) == 1


def test_append_cover_remove_and_flip_keep_length_and_facedown_right() -> None:
    c = chain_of(False, True, True)
    assert (ch.length(c), ch.facedown(c)) == (3, 1)
    c = ch.cover(c, 1, ch.new_card(False))          # a facedown card on card 2: still 3 long, 2 facedown
    assert (ch.length(c), ch.facedown(c), ch.covered(c)) == (3, 2, 1)
    c, gone = ch.remove_top(c, 1)                    # only the top card goes: card 2 is in play again
    assert not gone["up"] and (ch.length(c), ch.facedown(c), ch.covered(c)) == (3, 1, 0)
    c, _ = ch.remove_top(c, 0)                       # the gap closes
    assert ch.length(c) == 2 and len(c) == 2 and ch.facedown(c) == 0
    c = ch.flip(c, 1)
    assert ch.facedown(c) == 1


def test_solitaire_removal_leaves_a_gap() -> None:
    c = chain_of(True, True, True)
    c, _ = ch.remove_top(c, 1, close_gap=False)
    assert len(c) == 3 and ch.length(c) == 2 and ch.top(c, 1) is None


def test_the_seven_card_cap() -> None:
    c = chain_of(*([True] * CHAIN_LIMIT))
    with pytest.raises(ChainError, match="past 7"):
        ch.append(c, ch.new_card(True))
    assert ch.length(ch.append(c, ch.new_card(True), cap=None)) == 8  # sudden death plays are not capped


def test_shields_stop_abilities_but_not_the_reveal() -> None:
    c = ch.add_token(chain_of(False), 0, TokenKind.SHIELD)
    for bad in (lambda: ch.remove_top(c, 0), lambda: ch.flip(c, 0), lambda: ch.cover(c, 0, ch.new_card(True)),
                lambda: ch.add_token(c, 0, TokenKind.MODIFIER, 1), lambda: ch.add_token(c, 0, TokenKind.SHIELD)):
        with pytest.raises(ChainError):
            bad()
    assert ch.top(ch.reveal(c, 0), 0)["up"] is True  # type: ignore[index]
    assert ch.length(ch.remove_top(c, 0, respect_shield=False)[0]) == 0


def test_tokens_on_a_card_go_with_it() -> None:
    c = ch.add_token(chain_of(True, True), 1, TokenKind.MODIFIER, 1)
    c = ch.add_token(c, 1, TokenKind.SUIT, Suit.PLANET)
    assert ch.chain_tokens(c) == {TokenKind.SHIELD: 0, TokenKind.MODIFIER: 1, TokenKind.SUIT: 1}
    c2 = ch.cover(c, 1, ch.new_card(True))  # covered tokens stay on the covered card, out of the supply
    assert ch.chain_tokens(c2)[TokenKind.MODIFIER] == 1
    c3, _ = ch.remove_top(c, 1)
    assert ch.chain_tokens(c3) == {k: 0 for k in TokenKind}


# -------------------------------------------------------------------- the supply
def test_the_supply_is_13_shields_21_modifiers_21_suits() -> None:
    assert SUPPLY == {TokenKind.SHIELD: 13, TokenKind.MODIFIER: 21, TokenKind.SUIT: 21}
    assert tokens.supply_left([ch.start_chain()], [tokens.empty_pool()]) == SUPPLY


def test_taking_more_than_is_left_takes_what_is_left_and_out_of_tokens_shows() -> None:
    pool, got = tokens.take(tokens.empty_pool(), TokenKind.SHIELD, 20, SUPPLY)
    assert got == 13 and pool["shield"] == 13
    left = tokens.supply_left([], [pool])
    assert left[TokenKind.SHIELD] == 0 and tokens.out_of(left) == [TokenKind.SHIELD]
    assert tokens.supply_line(left) == "Out of shields"
    pool2, got2 = tokens.take(tokens.empty_pool(), TokenKind.SHIELD, 1, left)
    assert got2 == 0 and pool2["shield"] == 0  # out: no effect
    with pytest.raises(ChainError):
        tokens.take(pool, TokenKind.SUIT, 1, left)  # suit tokens are never held


# -------------------------------------------------------------------- scoring
def test_score_is_the_difference_of_the_suit_totals() -> None:
    assert score_totals(12, 5).score == 7 and score_totals(5, 12).score == 7


def test_the_rulebook_example_scores_six_by_the_rule_not_sixteen() -> None:
    # two stars totalling 10 and four planets totalling 16: the book prints 26 - 10 = 16; the rule gives 6
    stars = [CardEntry(4, Suit.STAR), CardEntry(6, Suit.STAR)]
    planets = [CardEntry(v, Suit.PLANET) for v in (1, 3, 5, 7)]
    s = score_cards(stars + planets)
    assert (s.star, s.planet, s.score) == (10, 16, 6)


def test_modifiers_count_on_the_cards_current_suit() -> None:
    s = score_cards([CardEntry(5, Suit.PLANET, +1), CardEntry(3, Suit.STAR, -1), CardEntry(2, Suit.STAR, +2)])
    assert (s.star, s.planet, s.score) == (2 + 4, 6, 0)


@given(st.lists(st.tuples(st.integers(0, 12), st.sampled_from(list(Suit)), st.integers(-3, 3)), max_size=9))
def test_card_scoring_matches_the_two_totals(cards: list[tuple[int, Suit, int]]) -> None:
    s = score_cards(CardEntry(v, su, m) for v, su, m in cards)
    star = sum(v + m for v, su, m in cards if su is Suit.STAR)
    planet = sum(v + m for v, su, m in cards if su is Suit.PLANET)
    assert s == score_totals(star, planet) and s.score == abs(star - planet) >= 0


def test_leaders() -> None:
    assert leaders({1: 4, 2: 9, 3: 9}) == [2, 3] and leaders({1: 4, 2: 3}) == [1]


# -------------------------------------------------------------------- the end of a game
def test_seven_order_and_first_to_seven() -> None:
    order = endgame.track_seven([], 2, 7)
    order = endgame.track_seven(order, 3, 7)
    assert order == [2, 3]
    assert endgame.track_seven(order, 2, 7) == [2, 3]
    order = endgame.track_seven(order, 2, 6)  # Bob's chain shrank back: Cat reached seven first
    assert order == [3]
    assert endgame.first_to_seven(order, {1: 5, 2: 6, 3: 7}, 1, 3) == 3
    assert endgame.first_to_seven([], {1: 7, 2: 7, 3: 2}, 2, 3) == 2
    assert endgame.game_ends({1: 6, 2: 7}) and not endgame.game_ends({1: 6, 2: 6})


def test_reveal_order_goes_round_from_the_first_to_seven_skipping_players_without_facedown_cards() -> None:
    down = {1: 1, 2: 0, 3: 2, 4: 1}
    assert endgame.next_revealer(None, 3, down, 4) == 3
    assert endgame.next_revealer(3, 3, down, 4) == 4
    assert endgame.next_revealer(4, 3, down, 4) == 1
    assert endgame.next_revealer(1, 3, {1: 0, 2: 0, 3: 1, 4: 0}, 4) == 3
    assert endgame.next_revealer(1, 3, {1: 0, 2: 0, 3: 0, 4: 0}, 4) is None


@pytest.mark.parametrize("contenders, scores, status, rule, winners, left, losers", [
    ([1, 2], {1: 9, 2: 7}, {1: P, 2: P}, LastCard.AFTER_SCORING, (1,), (), ()),       # broken by the play
    ([1, 2], {1: 8, 2: 8}, {1: P, 2: P}, LastCard.AFTER_SCORING, (), (1, 2), ()),     # still tied: again
    ([1, 2], {1: 8, 2: 8}, {1: M, 2: P}, LastCard.AFTER_SCORING, (2,), (), (1,)),     # Ann ran out, tied
    ([1, 2], {1: 9, 2: 8}, {1: M, 2: P}, LastCard.AFTER_SCORING, (1,), (), ()),       # last card broke it
    ([1, 2], {1: 9, 2: 8}, {1: M, 2: P}, LastCard.IMMEDIATELY, (2,), (), (1,)),       # ... unless at once
    ([1, 2, 3], {1: 5, 2: 5, 3: 5}, {1: E, 2: P, 3: P}, LastCard.AFTER_SCORING, (), (2, 3), (1,)),
    ([1, 2, 3], {1: 5, 2: 6, 3: 6}, {1: P, 2: M, 3: M}, LastCard.AFTER_SCORING, (2, 3), (), ()),  # all out: shared
    ([1, 2], {1: 5, 2: 5}, {1: E, 2: E}, LastCard.AFTER_SCORING, (1, 2), (), ()),
])
def test_sudden_death_pass(contenders: list[int], scores: dict[int, int], status: dict[int, PlayStatus],
                           rule: LastCard, winners: tuple[int, ...], left: tuple[int, ...],
                           losers: tuple[int, ...]) -> None:
    r = endgame.sudden_death_pass(contenders, scores, status, rule)
    assert (r.winners, r.contenders, r.losers) == (winners, left, losers)
    assert r.settled == bool(winners)


# -------------------------------------------------------------------- matches
def test_dealer_moves_one_seat_left_and_the_first_player_sits_left_of_the_dealer() -> None:
    assert [match.next_dealer(d, 3) for d in (1, 2, 3)] == [2, 3, 1]
    assert match.first_player(4, 4) == 1 and match.first_player(2, 4) == 3


def test_wins_are_tallied() -> None:
    wins = match.tally({"1": 0, "2": 0, "3": 0}, [2])
    wins = match.tally(wins, [2, 3])
    assert wins == {"1": 0, "2": 2, "3": 1} and match.match_leaders(wins) == [2]


# -------------------------------------------------------------------- solitaire
def card(value: int, suit: Suit | None, up: bool = True, mods: tuple[int, ...] = ()) -> ch.Card:
    c = ch.new_card(up, value, suit, solo=True)
    c["mods"] = list(mods)
    return c


def test_a_play_must_be_exactly_one_higher_modifiers_included() -> None:
    assert solitaire.play_refusal(card(3, Suit.STAR), 4) is None
    assert solitaire.play_refusal(card(3, Suit.STAR), 5) == "only a 4 may cover this 3"
    assert solitaire.play_refusal(card(3, Suit.STAR, mods=(1,)), 5) is None
    assert solitaire.play_refusal(card(3, Suit.STAR, up=False), 9) is None  # facedown: any value
    assert solitaire.play_refusal(None, 0) is None  # a gap: any value


def test_all_seven_one_suit_wins_mercenaries_and_gaps_do_not() -> None:
    board = [[card(v, Suit.STAR)] for v in range(1, 8)]
    assert solitaire.winning_suit(board) is Suit.STAR
    board[3] = [card(4, None)]  # a mercenary dealt at setup has no suit
    assert solitaire.winning_suit(board) is None
    board[3][0]["suit"] = "star"  # ... unless a suit token says so
    assert solitaire.winning_suit(board) is Suit.STAR
    board[5] = []
    assert solitaire.winning_suit(board) is None
