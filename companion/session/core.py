"""One game in progress: inputs in, frames and answers out.

The session is a deterministic function of the inputs it has handled: the same inputs (and the game's seed) give the
same screen, cursor, game state, dice history and undo stack. That is what makes resume exact — the journal keeps
every input and :meth:`Session.replay` feeds them back — and what makes scripted play reproducible.

It owns the dice service (a roll from the roller, typed values, or the seeded RNG, as ``[dice] sources`` allow),
unlimited undo and redo of game actions (never of cursor moves), and the game menu opened by a long press of OK.
"""
from __future__ import annotations

import logging
import random
from typing import Any, Callable, Sequence

from fsm.base import GameMachine
from fsm.prompts import Dice, InvalidAnswer, Prompt, Random, SecretVote, validate_answer

from companion.events import AnswerEvent, EntryEvent, Key, RollEvent
from companion.journal.store import RollRecord
from companion.session.ending import end_prompt
from companion.session.history import (ActionGroup, Overlay, back_span, describe, entered_from, point_at,
                                       push_step, returned_to, round_trip)
from companion.events import ClockEvent, KeyEvent
from companion.session.announce import compose, roll_said
from companion.session.inputs import EventIn, encode_event

from companion.session.timekeeper import Timekeeper
from companion.ui.prompt_screens import DiceContext, PromptScreen, roll_summary
from companion.ui.screens import screen_for
from companion.ui.widgets import Back, Done, TextView, Toast
from companion.ui.wizard import SetupWizard

log = logging.getLogger(__name__)


# ------------------------------------------------------------------------------------------------ session
class SessionCore:
    """Inputs, answers, BACK, undo and redo. :class:`companion.session.Session` adds the clock (``clock_steps``), the
    game menu (``game_menu``) and the output (``output``); the few steps of theirs this core calls are declared
    below."""

    def __init__(self, game_cls: type[GameMachine], *, seed: int, presets: Sequence[str], options: dict[str, Any],
                 sources: Sequence[str] = ("roller", "typed", "rng"),
                 roller_connected: Callable[[], bool] = lambda: False, contract: bool = True,
                 pass4: bool = True) -> None:
        self.game_cls = game_cls
        self.rng = random.Random(seed)
        self.sources = tuple(sources)
        self.roller_connected = roller_connected
        #: issue 33's screens (the cursor back on the entry the player came from after Done or a number, Leave game
        #: in the game menu, and the games' own pass-4 defaults): off only to replay a game saved before them
        self.pass4 = pass4 and contract
        self.wizard = SetupWizard(game_cls, presets, options, self.pass4)
        self.game: GameMachine | None = None
        self.undo_stack: list[tuple[Any, ActionGroup]] = []
        self.redo_stack: list[ActionGroup] = []
        self.dice_history: list[dict[str, Any]] = []
        self.action_log: list[dict[str, Any]] = []
        self.overlays: list[Overlay] = []
        self.toast: str | None = None
        self.toast_more = False  #: an announcement left older notes out: its last line says where they are
        self._rolled: tuple[str, list[int]] | None = None  #: who rolled what in this input, for the announcement
        #: the toast is an announcement (who starts, a result): it stays until the next press, not a few seconds
        self.toast_sticky = False
        #: why the last input was refused (an answer the game refused, a greyed-out entry, an impossible typed entry),
        #: for scripts to report; None when accepted
        self.refused: str | None = None
        self.n_inputs = 0
        #: the prompt of the model as it is now (:meth:`prompt`): (the game, story_hint, the prompt), or None
        self._memo: tuple[GameMachine | None, bool, Prompt] | None = None
        #: counts the prompts the table has been asked (answers, undo, redo): a phone's answer names the one it saw
        self.prompt_seq = 0
        #: called when "Pair a phone" is picked in the game menu (the App shows the PIN); None in replay and scripts
        self.pair_hook: Callable[[], None] | None = None
        #: the game clock, when the game runs one (a platform piece: it follows the game's active seat)
        self.timekeeper: Timekeeper | None = None
        self._now: float | None = None  #: the app's monotonic time of the input being handled; None when replaying
        self.ended = False  #: the table ended the game from the menu
        self.closed = False  #: OK on the game-over screen: back to the main menu
        self.left = False  #: BACK before the game began: back to the game list (the record is kept, hidden)
        self.away = False  #: Leave game from the menu: back to the home menu, the game kept active for later
        self.story_hint = True  #: the last screen points at the phones' History (off when the web view is)
        self._map_seq = -1  #: the prompt BACK last opened a board game's control map on
        #: issue 22's BACK and cursor rules (no round trips in the history, the cursor back on the entry left, BACK
        #: out of setup); off only to replay a game saved before them exactly as it was played
        self.contract = contract
        self._t = 0.0
        self._records: list[RollRecord] = []
        self._dice_ctx = DiceContext(self.sources, lambda: self.roller_connected(), self._rng_values)
        self.screen: PromptScreen = self._new_screen()

    # -------------------------------------------------------------- the model: wizard, then the game
    @property
    def model(self) -> Any:
        return self.game if self.game is not None else self.wizard

    @property
    def names(self) -> list[str]:
        if self.game is not None:
            return [p.name for p in self.game.players]
        return list(self.wizard.data["names"])

    def prompt(self) -> Prompt:
        # The screen, the glance view, the LEDs, BACK and the automatic picks all ask for the prompt, several times
        # an input (a long game's replay and every redraw spent most of their time building it again). It is a
        # function of the model (the wizard, then the game) and of ``story_hint``; the model changes only through
        # _model_answer and _restore, and both drop it. So it is built once per state, kept for the game object and
        # the hint it was built with.
        memo = self._memo
        if memo is not None and memo[0] is self.game and memo[1] == self.story_hint:
            return memo[2]
        p: Prompt = self.model.prompt()
        if self.game is not None and self.game.is_over:  # the last screen: who won, what decided it, the story
            p = end_prompt(self.game, p, self.story_hint)
        self._memo = (self.game, self.story_hint, p)
        return p

    def _snapshot(self) -> Any:
        if self.game is None:
            return ("setup", self.wizard.snapshot())
        return ("game", self.game.snapshot(), self.game)

    def _restore(self, snap: Any) -> None:
        self._memo = None
        if snap[0] == "setup":
            self.game = None
            self.wizard.restore(snap[1])
        else:
            self.game = snap[2]
            snap[2].restore(snap[1])

    def _new_screen(self) -> PromptScreen:
        screen = screen_for(self.prompt(), self.names, self._dice_ctx)
        if self._game_over and getattr(screen, "said", None) == "":  # an Info screen: where its OK leads
            screen.action = "OK: to the main menu"  # type: ignore[attr-defined]
        return screen

    def _rng_values(self, die: str, count: int) -> list[int]:
        sides = 6 if die == "d6" else 12
        return [self.rng.randint(1, sides) for _ in range(count)]

    # -------------------------------------------------------------- steps the parts of Session provide
    def _start_clock(self) -> None:
        raise NotImplementedError

    def _follow_clock(self) -> None:
        raise NotImplementedError

    def _on_clock(self, ev: ClockEvent) -> None:
        raise NotImplementedError

    def _toggle_menu(self) -> None:
        raise NotImplementedError

    def _overlay_key(self, ev: KeyEvent) -> None:
        raise NotImplementedError

    def _remote_answer(self, ev: AnswerEvent) -> None:  # companion/session/remote.py
        raise NotImplementedError

    def render(self) -> Any:  # companion/session/output.py: the frame
        raise NotImplementedError

    # -------------------------------------------------------------- inputs
    def handle(self, ev: EventIn, t: float = 0.0, now: float | None = None) -> list[RollRecord]:
        """Apply one input; returns the dice records it produced, for the journal's same transaction.

        ``t`` is the wall-clock time journaled with it; ``now`` the app's monotonic time for the game clock (None
        while a saved game is replayed: the journaled clock lines carry the times then)."""
        self.n_inputs += 1
        self._t = t
        self._now = now
        self._records = []
        self.toast, self.toast_more, self._rolled = None, False, None
        self.toast_sticky = False
        self.refused, self.left, self.away = None, False, False
        try:
            if isinstance(ev, RollEvent):
                self._on_roll(ev)
            elif isinstance(ev, AnswerEvent):
                self._remote_answer(ev)
            elif isinstance(ev, EntryEvent):
                self._on_entry(ev)
            elif isinstance(ev, ClockEvent):
                self._on_clock(ev)
            elif ev.key is Key.HOLD:
                self._toggle_menu()
            elif self.overlays:
                self._overlay_key(ev)
            else:
                self._prompt_outcome(self.screen.key(ev.key, ev.repeat))
        except Exception:  # a bug must never take the table down: log it, keep the state, say so
            log.exception("input %s failed", encode_event(ev))
            self._memo = None  # the model may be half changed: its prompt is asked afresh
            self.toast = "Internal error; the game is unchanged. See the log."
        return self._records

    def _on_roll(self, ev: RollEvent) -> None:
        p = self.prompt()
        if isinstance(p, Dice) and ev.die == p.die and "roller" in self.sources and not self._game_over:
            self._records += [RollRecord(ev.roller, "roller", ev.die, v, p.player, p.purpose)
                              for v in ev.values[:p.count - len(getattr(self.screen, "got", []))]]
            self._prompt_outcome(self.screen.roll(ev))
            return
        self._records += [RollRecord(ev.roller, "roller", ev.die, v, None, "unrequested") for v in ev.values]
        self.dice_history.append({"t": self._t, "player": None, "die": ev.die, "values": list(ev.values),
                                  "source": "roller", "purpose": "unrequested", "undone": False})
        if not isinstance(p, Dice) or self._game_over:
            self.toast = f"Rolled {ev.die} {' '.join(map(str, ev.values))}: nobody was asked to roll"
        elif "roller" not in self.sources:
            self.toast = "Roller rolls are off in [dice] sources: type or roll here"
        else:
            self.toast = f"That was a {ev.die}; roll a {p.die}"

    def _on_entry(self, ev: EntryEvent) -> None:
        """Typed entry: the game turns the text into the answer to its prompt; then it is answered like OK."""
        if self.game is None or self._game_over:
            self.toast = self.refused = f"'{ev.kind} {ev.text}': no game is waiting for a {ev.kind}"
            return
        try:
            value = self.game.entry_answer(ev.text)
        except InvalidAnswer as e:
            self.toast = self.refused = str(e)
            return
        self.overlays.clear()
        self._answer(value)

    @property
    def _game_over(self) -> bool:
        return self.game is not None and self.game.is_over

    def _prompt_outcome(self, out: Any) -> None:
        if isinstance(out, Toast):  # the screen refused the press (a greyed-out entry), or says what moves on
            self.toast, self.refused = out.text, out.text if out.refusal else None
        elif isinstance(out, Done):
            if self._game_over:
                self.closed = True
                return
            self._answer(out.value)
        elif isinstance(out, Back):
            self._back()

    def _back(self) -> None:
        """BACK on a screen that has no back of its own: to the previous screen, when that was a step of the same
        player's and no dice were rolled since (out of a submenu left by its own BACK too: ``back_span``); before the
        game began, from its first setup screen, back to the game list; otherwise say why not."""
        if self._game_over:
            self.toast = "The game is over: OK for the main menu"
            return
        if self.game is None and self.contract and (not self.undo_stack or self.wizard.data["step"] == "count"):
            self.left, self.toast = True, "Back to the game list"  # nothing of the game yet: a wrong pick
            return
        if not self.undo_stack:
            self.toast = "Nothing before this screen"
            return
        views = self.game.views() if self.game is not None else []
        if self.prompt().board is not None and views and (self._map_seq != self.prompt_seq or not self.contract):
            self._map_seq = self.prompt_seq  # a board game's first page (the control map) is near: once a screen
            self.overlays.append(Overlay("page", views[0].title, TextView(list(views[0].lines), top=0)))
            return
        n, why = back_span(self.undo_stack, self.prompt().player, self._who, self.contract)
        self.toast = why or None
        frame = self.render().tobytes() if n and self.pass4 else None
        for _ in range(n):
            self.undo()
        if frame is not None and self.render().tobytes() == frame:  # the steps taken back showed nothing (a desk's
            self._back()  # note of the last society opened): on to the screen before, or say why not

    def _who(self, seat: int | None) -> str:
        return self.names[seat - 1] if seat is not None and 0 < seat <= len(self.names) else "Table"

    def _log_len(self) -> int:
        return len(self.game.data.get("log", [])) if self.game is not None else 0

    def _answer(self, value: Any) -> None:
        prompt = self.prompt()
        group = ActionGroup(title=prompt.title, player=prompt.player, what=describe(prompt, value, self.names),
                            nav=value is not None and value == getattr(prompt, "back", None), prompt=prompt)
        before = self._snapshot()
        game_before, log_before = self.game, self._log_len()
        try:
            self._apply(prompt, value, group, auto=False)
            self._settle(group)
        except InvalidAnswer as e:
            self._restore(before)
            self.toast = self.refused = str(e)
            self.screen = self._new_screen()
            return
        except Exception:
            self._restore(before)
            self.screen = self._new_screen()
            raise
        group.rolled = bool(group.dice) or any(auto for _v, auto in group.answers)
        came_from = round_trip(self.undo_stack, group, self.prompt().title, self._snapshot) if self.contract else None
        if came_from is None:
            push_step(self.undo_stack, before, group)
            came_from = entered_from(self.undo_stack, self.prompt().title) if group.nav and self.contract else None
            if came_from is None and self.pass4:  # back from an entry by its Done or a number: the cursor on it
                came_from = returned_to(self.undo_stack, self.prompt())
        self.redo_stack.clear()
        self.prompt_seq += 1
        self.screen = self._new_screen()
        point_at(self.screen, came_from)
        self._announce(self.game.data.get("log", [])[0 if game_before is None else log_before:]
                       if self.game is not None else [])
        self._follow_clock()

    def _announce(self, notes: Sequence[str]) -> None:
        """What the answer made happen stays on the screen until the next press, after any roll summary
        (:mod:`companion.session.announce`).

        A game may say it itself in ``data["announce"]`` (what changed hands, check): shown as a toast. Otherwise
        the game's new log lines are the announcement (who starts, a tie, the dealer, a result)."""
        if self.game is not None and "announce" in self.game.data:
            said = self.game.data.get("announce")
            if said and not self.toast:
                self.toast = str(said)
            return
        notes = [n for n in notes if n != self._start_note]
        if notes:
            roll = self.toast if self._rolled is None or not roll_said(notes, *self._rolled) else None
            self.toast, self.toast_more = compose(notes, roll)
            self.toast_sticky = not self._game_over  # the last screen says the result: it shows once the toast is gone

    @property
    def _start_note(self) -> str:
        return f"{self.game.name}: " + ", ".join(self.names) if self.game is not None else ""

    def _apply(self, prompt: Prompt, value: Any, group: ActionGroup, *, auto: bool) -> None:
        validate_answer(prompt, value)
        self._model_answer(value)
        group.answers.append((value, auto))
        entry = {"t": self._t, "player": prompt.player, "title": prompt.title, "answer": value, "auto": auto}
        if isinstance(prompt, SecretVote):
            entry["secret"] = True  # the export leaves the ballot out
        self.action_log.append(entry)
        if isinstance(prompt, Dice):
            self.dice_history.append({"t": self._t, "player": prompt.player, "die": prompt.die,
                                      "values": list(value["values"]), "source": value["source"],
                                      "purpose": prompt.purpose, "undone": False})
            group.dice.append(len(self.dice_history) - 1)
            if value["source"] != "roller":
                roller = "typed" if value["source"] == "typed" else "rng"
                self._records += [RollRecord(roller, value["source"], prompt.die, v, prompt.player, prompt.purpose)
                                  for v in value["values"]]
            self.toast = roll_summary(prompt, value, self.names)
            self._rolled = (self._who(prompt.player), list(value["values"]))

    def _model_answer(self, value: Any) -> None:
        """Hand an answer to the wizard or the game; the wizard's last answer creates the game."""
        self._memo = None
        if isinstance(value, dict) and value.get("clock") == "timeout" and self.game is not None:
            self.game.time_out(int(value["seat"]))
            return
        self.model.answer(value)
        if self.game is None and self.wizard.done:
            self.game = self.game_cls(self.wizard.setup())
            self.game.note(self._start_note)
            self._start_clock()

    def _settle(self, group: ActionGroup) -> None:
        """Answer the automatic prompts (random picks) that follow, with the seeded RNG."""
        for _ in range(1000):
            p = self.prompt()
            if not isinstance(p, Random) or self._game_over:
                return
            self._apply(p, self.rng.choice(list(p.keys)), group, auto=True)
        raise RuntimeError("a game asked for more than 1000 random picks in a row")

    # -------------------------------------------------------------- undo / redo
    def undo(self) -> str:
        if not self.undo_stack:
            return "Nothing to undo"
        before, group = self.undo_stack.pop()
        self._restore(before)
        if group.prompt is not None and not self._game_over:  # the state it was answered in: the prompt it was on
            self._memo = (self.game, self.story_hint, group.prompt)
        for i in group.dice:
            self.dice_history[i]["undone"] = True
        self.redo_stack.append(group)
        self.action_log.append({"t": self._t, "undo": group.title})
        self.prompt_seq += 1
        self.screen = self._new_screen()
        point_at(self.screen, (group.answers[0][0],) if group.answers and self.contract else None)
        self._follow_clock()
        return f"Undone: {group.what or group.title}"

    def redo(self) -> str:
        if not self.redo_stack:
            return "Nothing to redo"
        group = self.redo_stack.pop()
        before = self._snapshot()
        for value, _auto in group.answers:
            self._model_answer(value)
        for i in group.dice:
            self.dice_history[i]["undone"] = False
        push_step(self.undo_stack, before, group)
        self.action_log.append({"t": self._t, "redo": group.title})
        self.prompt_seq += 1
        self.screen = self._new_screen()
        self._follow_clock()
        return f"Redone: {group.what or group.title}"

__all__ = ["SessionCore"]
