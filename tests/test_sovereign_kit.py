"""Helpers for the Sovereign tests (drive the machine through prompt()/answer()), and a few tests of the kit."""
from __future__ import annotations

from typing import Any

import pytest

from fsm.base import Player, Setup
from fsm.prompts import Choice, Dice, Info, MultiSelect, Number
from fsm.sovereign import SovereignGame

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def new_game(n: int = 2, **options: Any) -> SovereignGame:
    return SovereignGame(Setup(tuple(Player(NAMES[i], i + 1) for i in range(n)), options))


def option_keys(g: SovereignGame, enabled_only: bool = True) -> list[str]:
    p = g.prompt()
    assert isinstance(p, (Choice, MultiSelect)), p
    return [o.key for o in p.options if o.enabled or not enabled_only]


def option(g: SovereignGame, key: str) -> Any:
    p = g.prompt()
    assert isinstance(p, Choice), p
    found = [o for o in p.options if o.key == key]
    assert found, f"no option {key!r} in {p.title!r}: {[o.key for o in p.options]}"
    return found[0]


def pick(g: SovereignGame, key: str) -> None:
    """Answer the current Choice with the option ``key`` (which must be offered)."""
    p = g.prompt()
    assert isinstance(p, Choice), p
    if key != p.back:
        option(g, key)
    g.answer(key)


def ok(g: SovereignGame) -> None:
    """OK on the current prompt: its default."""
    p = g.prompt()
    if isinstance(p, Info):
        g.answer(True)
    elif isinstance(p, Choice):
        assert p.default is not None, p
        g.answer(p.default)
    elif isinstance(p, Number):
        g.answer(p.default)
    else:
        raise AssertionError(f"no default for {p!r}")


def roll(g: SovereignGame, *values: int) -> None:
    p = g.prompt()
    assert isinstance(p, Dice), p
    g.answer({"values": list(values), "source": "typed"})


def number(g: SovereignGame, value: int) -> None:
    assert isinstance(g.prompt(), Number), g.prompt()
    g.answer(value)


def started(n: int = 2, rolls: tuple[int, ...] | None = None, **options: Any) -> SovereignGame:
    """A game past the roll-off (seat 1 starts unless ``rolls`` says otherwise) and city placing: at Add."""
    g = new_game(n, **options)
    for v in rolls or tuple([12] + [1] * (n - 1)):
        roll(g, v)
    while g.state == "place_cities":
        ok(g)
    assert g.state == "add"
    return g


def give(g: SovereignGame, seat: int, *techs: str, turn: int = 0) -> None:
    """Hand technologies to a player as if discovered in ``turn`` (default: before the game)."""
    from companion.rules.sovereign.bonuses import uses

    p = g.data["players"][str(seat)]
    for t in techs:
        p["techs"][t] = turn
        if uses(t):
            p["oneshot"][t] = uses(t)


def player(g: SovereignGame, seat: int) -> dict[str, Any]:
    return g.data["players"][str(seat)]  # type: ignore[no-any-return]


def finish_turn(g: SovereignGame) -> None:
    """From wherever in the active player's turn: Done through every step, collect, hand over."""
    while g.state in ("add", "spend", "move", "manoeuvre", "finish") and g.data["sub"] is None:
        before = g.active_seat()
        if g.state == "add":
            pick(g, "collect")
        elif g.state == "spend":
            pick(g, "done")
        elif g.state == "move":
            ok(g)
        elif g.state == "manoeuvre":
            pick(g, "done")
        else:
            pick(g, "end")
            return
        assert g.active_seat() == before


# ------------------------------------------------------------------------------------------- tests of the kit
def test_started_game_is_at_the_first_add() -> None:
    g = started(3)
    assert g.active_seat() == 1 and g.data["turn"] == 1
    assert [player(g, s)["cities"][0]["tiles"] for s in (1, 2, 3)] == [4, 4, 4]


def test_finish_turn_hands_over() -> None:
    g = started(2)
    finish_turn(g)
    assert g.state == "add" and g.active_seat() == 2


def test_pick_refuses_unknown_keys() -> None:
    g = started(2)
    with pytest.raises(AssertionError):
        pick(g, "nonsense")
