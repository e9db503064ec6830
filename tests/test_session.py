"""The session: widgets answer prompts; undo/redo of game actions (never cursor moves); the dice service."""
from __future__ import annotations

from typing import Any

import pytest

from companion.events import Key, KeyEvent, RollEvent
from companion.session import Session, decode_event, encode_event
from fsm.base import GameMachine
from fsm.prompts import Confirm, Dice, Info, MultiSelect, Number, Prompt, SecretVote, options


class Demo(GameMachine):
    """A tiny game touching every prompt type."""

    game_id, name, description = "demo", "Demo", "test game"
    min_players, max_players, default_players = 2, 2, 2
    STATES = ["count", "roll", "pick", "vote", "sure", "game_over"]
    TRANSITIONS = [{"trigger": "next", "source": "count", "dest": "roll"},
                   {"trigger": "next", "source": "roll", "dest": "pick"},
                   {"trigger": "next", "source": "pick", "dest": "vote"},
                   {"trigger": "next", "source": "vote", "dest": "sure"},
                   {"trigger": "next", "source": "sure", "dest": "game_over"}]
    INITIAL = "count"

    def start(self) -> None:
        self.data.update({"n": 0, "rolls": [], "picked": [], "votes": {}, "active": 1})

    def prompt(self) -> Prompt:
        d = self.data
        if self.state == "count":
            return Number("How many", lo=0, hi=5, default=2, player=1)
        if self.state == "roll":
            return Dice("Roll", player=2, die="d12", count=2, purpose="test")
        if self.state == "pick":
            return MultiSelect("Pick", options=options("a", "b", "c"), min_count=1, max_count=2)
        if self.state == "vote":
            seat = len(d["votes"]) + 1
            return SecretVote("Vote", player=seat, voter_name=self.player_name(seat),
                              options=options(("yes", "Yes"), ("no", "No")))
        if self.state == "sure":
            return Confirm("Sure?")
        return Info("Over", lines=("done",))

    def answer(self, value: Any) -> None:
        d = self.data
        if self.state == "count":
            if value == 5:
                raise self.refuse("five is too many")
            d["n"] = value
        elif self.state == "roll":
            d["rolls"] = value["values"]
        elif self.state == "pick":
            d["picked"] = value
        elif self.state == "vote":
            d["votes"][str(len(d["votes"]) + 1)] = value
            if len(d["votes"]) < 2:
                return
        elif self.state == "sure" and not value:
            return
        self.fire("next")


def new(sources: tuple[str, ...] = ("roller", "typed", "rng")) -> Session:
    s = Session(Demo, seed=1, presets=["Ana", "Ben"], options={}, sources=sources)
    keys(s, "ok")  # wizard: start game
    assert s.game is not None
    return s


def keys(s: Session, *names: str) -> None:
    for n in names:
        s.handle(KeyEvent(Key(n)))


def test_cursor_moves_are_not_undo_steps() -> None:
    s = new()
    keys(s, "up", "up", "up", "down")  # spinner at 4
    assert len(s.undo_stack) == 1  # only the wizard's start
    keys(s, "ok")
    assert s.game.data["n"] == 4 and s.game.state == "roll"
    assert s.undo() == "Undone: Ana: How many 4"  # the action undone, not just the screen
    assert s.game.state == "count" and s.game.data["n"] == 0
    assert s.redo() == "Redone: Ana: How many 4"
    assert s.game.state == "roll" and s.game.data["n"] == 4


def test_refused_answer_toasts_and_changes_nothing() -> None:
    s = new()
    keys(s, "up", "up", "up", "up", "up", "up")  # clamps at 5
    keys(s, "ok")
    assert s.toast == "five is too many" and s.game.state == "count" and len(s.undo_stack) == 1


def test_roller_values_may_come_one_die_at_a_time_and_undone_rolls_stay_marked() -> None:
    s = new()
    keys(s, "ok")
    recs = s.handle(RollEvent("d12", (7,), roller="pico"))
    assert [r.value for r in recs] == [7] and s.game.state == "roll"
    recs = s.handle(RollEvent("d12", (12, 3), roller="pico"))  # only one more is needed
    assert [r.value for r in recs] == [12]
    assert s.game.data["rolls"] == [7, 12] and s.game.state == "pick"
    s.undo()
    assert s.dice_history[-1]["undone"] is True and s.game.state == "roll"
    keys(s, "down", "ok")  # "Roll for me"
    assert s.dice_history[-1]["source"] == "rng" and not s.dice_history[-1]["undone"]
    assert [d["undone"] for d in s.dice_history] == [True, False], "the undone roll is still in the history"


def test_wrong_die_and_unrequested_rolls_change_nothing_but_are_recorded() -> None:
    s = new()
    recs = s.handle(RollEvent("d6", (3,), roller="pico"))
    assert [(r.value, r.purpose) for r in recs] == [(3, "unrequested")] and s.game.state == "count"
    keys(s, "ok")
    recs = s.handle(RollEvent("d6", (3,), roller="pico"))
    assert recs[0].purpose == "unrequested" and "roll a d12" in s.toast


def test_typed_dice_are_bounded_and_back_steps_back() -> None:
    s = new(("typed",))
    keys(s, "ok", "ok")  # count, then "Type the dice"
    keys(s, *["down"] * 3)  # clamps at 1
    keys(s, *["up"] * 20)  # clamps at 12
    keys(s, "ok", "up", "back")  # first die 12; second at 2; back edits the first again
    keys(s, "down", "ok", "up", "up", "ok")  # first 11, second 3
    assert s.game.data["rolls"] == [11, 3]
    assert s._records[0].source == "typed" and s._records[0].roller == "typed"


def test_sources_without_roller_ignore_roller_rolls() -> None:
    s = new(("typed", "rng"))
    keys(s, "ok")
    s.handle(RollEvent("d12", (7, 8), roller="pico"))
    assert s.game.state == "roll" and "off" in s.toast


def test_secret_vote_hides_the_ballot_until_ok_and_never_echoes() -> None:
    s = new()
    keys(s, "ok")
    s.handle(RollEvent("d12", (1, 2)))
    keys(s, "ok")  # tick "a", then go down to Done (the fourth row) and take it
    keys(s, "down", "down", "down", "ok")
    assert s.game.state == "vote"
    hidden = s.render().tobytes()
    keys(s, "down")  # no effect while hidden, but it says what moves on
    assert s.toast == f"OK opens the ballot for {s.screen.voter}" and s.screen.hidden
    s.toast = None
    assert s.render().tobytes() == hidden
    keys(s, "ok")  # Ana reveals her ballot
    assert s.render().tobytes() != hidden
    keys(s, "down", "ok")  # votes No
    assert s.game.data["votes"] == {"1": "no"}
    assert s.screen.hidden, "Ben's ballot starts hidden: nothing of Ana's choice shows"
    keys(s, "ok", "ok")
    assert s.game.data["votes"] == {"1": "no", "2": "yes"} and s.game.state == "sure"


def test_hold_opens_the_menu_and_new_action_clears_redo() -> None:
    s = new()
    keys(s, "ok")
    keys(s, "hold", "down", "ok")  # menu → Undo
    assert s.game.state == "count" and s.redo_stack
    keys(s, "up", "ok")  # a different answer
    assert not s.redo_stack and s.game.data["n"] == 3
    keys(s, "hold", "down", "down")
    assert s.overlays[-1].widget.items[2].enabled is False  # Redo disabled
    keys(s, "hold")
    assert not s.overlays


def test_game_over_ok_closes_and_ended_flag() -> None:
    s = new()
    keys(s, "ok")
    s.handle(RollEvent("d12", (1, 2)))
    keys(s, "ok", "down", "down", "down", "ok")  # pick
    keys(s, "ok", "ok", "ok", "ok")  # two secret votes
    keys(s, "ok")  # sure: yes
    assert s.game.is_over
    keys(s, "ok")
    assert s.closed


def test_internal_errors_keep_the_state_and_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    s = new()
    monkeypatch.setattr(Demo, "answer", lambda self, v: (_ for _ in ()).throw(ZeroDivisionError()))
    keys(s, "ok")
    assert s.game.state == "count" and "Internal error" in s.toast


@pytest.mark.parametrize("ev", [KeyEvent(Key.OK), KeyEvent(Key.UP, repeat=True), RollEvent("d6", (1, 6), "pico")])
def test_event_text_round_trips(ev: Any) -> None:
    assert decode_event(encode_event(ev)) == ev


def test_game_menu_settings_page_shows_sources_and_rules() -> None:
    s = new(("typed", "rng"))
    keys(s, "hold")
    labels = [it.label for it in s.overlays[-1].widget.items]
    assert labels[-3:] == ["Settings", "Leave: resume later", "End game"]
    keys(s, "up", "up", "up", "ok")  # round from the top
    page = s.overlays[-1]
    assert page.title == "Settings" and page.widget.lines[0] == "Dice: typed in, rolled here"


def test_a_highlighted_row_shows_every_glyph() -> None:
    """The highlight bar is as wide as the text: no glyph may fall past its end (black on black is invisible)."""
    from PIL import Image, ImageDraw

    from companion.ui.draw import text_row

    for label in ("Back to game", "Type the dice", "Done: to Move", "W", "Collect 4 points"):
        bar = Image.new("1", (128, 10))
        text_row(ImageDraw.Draw(bar), 0, label, inverse=True)
        plain = Image.new("1", (128, 10))
        text_row(ImageDraw.Draw(plain), 0, label)
        bar_right = max(x for x in range(128) if bar.getpixel((x, 0)))  # the bar's top row holds no glyph
        text_right = plain.getbbox()[2] - 1
        assert text_right < bar_right, f"{label!r}: text reaches x={text_right}, the bar ends at {bar_right}"


def test_redo_of_the_start_keeps_the_game_log() -> None:
    s = new()
    log = list(s.game.data["log"])
    assert log and log[0].startswith("Demo:")
    s.undo()
    assert s.game is None
    s.redo()
    assert s.game.data["log"] == log


def test_only_the_last_undo_step_keeps_the_prompt_it_was_answered_on() -> None:
    """Undo shows the prompt its step was answered on without building it again; a chess prompt is tens of
    kilobytes, so the steps below the last let go of theirs (the undo stack grows all game)."""
    s = new()
    keys(s, "up", "ok")  # How many: 1
    assert len(s.undo_stack) == 2  # the wizard's start, then the count
    assert [g.prompt is not None for _, g in s.undo_stack] == [False] * (len(s.undo_stack) - 1) + [True]
    shown = s.undo_stack[-1][1].prompt
    s.undo()
    assert s.prompt() is shown  # the kept prompt, not a new one
