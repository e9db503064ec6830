"""One game in progress: inputs in, frames and answers out.

The session is a deterministic function of the inputs it has handled: the same inputs (and the game's seed) give the
same screen, cursor, game state, dice history and undo stack. That is what makes resume exact — the journal keeps
every input and :meth:`Session.replay` feeds them back — and what makes scripted play reproducible.

It owns the dice service (a roll from the roller, typed values, or the seeded RNG, as ``[dice] sources`` allow),
unlimited undo and redo of game actions (never of cursor moves), and the game menu opened by a long press of OK.
"""
from __future__ import annotations

import json
import logging
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from PIL import Image

from fsm.base import GameMachine
from fsm.prompts import Dice, InvalidAnswer, Prompt, Random, SecretVote, validate_answer

from companion.events import AnswerEvent, ClockEvent, EntryEvent, Key, KeyEvent, RollEvent
from companion.journal.store import RollRecord
from companion.session.timekeeper import Timekeeper, clock_setting, draw_time, time_width
from companion.ui.draw import LIST_W, new_frame, title_bar, wrap
from companion.ui.prompt_screens import DiceContext, PromptScreen, roll_summary, screen_for
from companion.ui.widgets import (ANNOUNCE_LINES, ANNOUNCE_MORE, TOAST_W, Back, ConfirmWidget, Done, Item, ListWidget, TextView, Toast,
                         draw_lines, draw_toast)
from companion.ui.wizard import SetupWizard

log = logging.getLogger(__name__)

EventIn = KeyEvent | RollEvent | EntryEvent | ClockEvent | AnswerEvent

#: the typed-entry notations a journal line may start with (``move wPi2-i4``)
ENTRY_KINDS = ("move",)


# ------------------------------------------------------------------------------------------------ event text
def encode_event(ev: EventIn) -> str:
    """The journal's text for an input: ``ok``, ``up+`` (auto-repeat), ``roll d12 7 5 roller``, or an answer from a
    phone: ``answer 12 web:seat2 "yes"`` (the prompt number it answers, its source, the value as JSON)."""
    if isinstance(ev, KeyEvent):
        return ev.key.value + ("+" if ev.repeat else "")
    if isinstance(ev, AnswerEvent):
        return f"answer {ev.seq} {ev.source} {json.dumps(ev.value, separators=(',', ':'))}"
    if isinstance(ev, EntryEvent):
        return f"{ev.kind} {ev.text}"
    if isinstance(ev, ClockEvent):
        return f"clock {ev.kind} {ev.detail}"
    return f"roll {ev.die} {' '.join(map(str, ev.values))} {ev.roller}"


def decode_event(text: str) -> EventIn:
    if text.startswith("answer "):
        _, seq, source, value = text.split(" ", 3)
        return AnswerEvent(json.loads(value), int(seq), source)
    if text.startswith("roll "):
        parts = text.split()
        return RollEvent(parts[1], tuple(int(v) for v in parts[2:-1]), roller=parts[-1])
    head, _, rest = text.partition(" ")
    if head == "clock":
        kind, _, detail = rest.partition(" ")
        return ClockEvent(kind, detail)
    if head in ENTRY_KINDS:
        return EntryEvent(head, rest)
    return KeyEvent(Key(text.rstrip("+")), repeat=text.endswith("+"))


# ------------------------------------------------------------------------------------------------ history
@dataclass
class ActionGroup:
    """One undoable step: a player's answer and the automatic picks that followed it."""

    answers: list[tuple[Any, bool]] = field(default_factory=list)  #: (value, automatic)
    dice: list[int] = field(default_factory=list)  #: indices into Session.dice_history
    title: str = ""
    player: int | None = None  #: who answered (the prompt's seat)
    what: str = ""  #: the action in words, for the undo and redo toasts ("Ben: Build a fort")
    rolled: bool = False  #: a roll or a random pick happened: BACK never takes that back (the menu's Undo does)


@dataclass
class Overlay:
    """A screen over the game: the game menu, a text page, or a confirmation."""

    kind: str
    title: str
    widget: Any


# ------------------------------------------------------------------------------------------------ session
class Session:
    def __init__(self, game_cls: type[GameMachine], *, seed: int, presets: Sequence[str], options: dict[str, Any],
                 sources: Sequence[str] = ("roller", "typed", "rng"),
                 roller_connected: Callable[[], bool] = lambda: False) -> None:
        self.game_cls = game_cls
        self.rng = random.Random(seed)
        self.sources = tuple(sources)
        self.roller_connected = roller_connected
        self.wizard = SetupWizard(game_cls, presets, options)
        self.game: GameMachine | None = None
        self.undo_stack: list[tuple[Any, ActionGroup]] = []
        self.redo_stack: list[ActionGroup] = []
        self.dice_history: list[dict[str, Any]] = []
        self.action_log: list[dict[str, Any]] = []
        self.overlays: list[Overlay] = []
        self.toast: str | None = None
        #: the toast is an announcement (who starts, a result): it stays until the next press, not a few seconds
        self.toast_sticky = False
        #: why the last input was refused (an answer the game refused, a greyed-out entry, an impossible typed entry),
        #: for scripts to report; None when accepted
        self.refused: str | None = None
        self.n_inputs = 0
        self._handling = False
        self._memo: Prompt | None = None
        #: counts the prompts the table has been asked (answers, undo, redo): a phone's answer names the one it saw
        self.prompt_seq = 0
        #: called when "Pair a phone" is picked in the game menu (the App shows the PIN); None in replay and scripts
        self.pair_hook: Callable[[], None] | None = None
        #: the game clock, when the game runs one (a platform piece: it follows the game's active seat)
        self.timekeeper: Timekeeper | None = None
        self._now: float | None = None  #: the app's monotonic time of the input being handled; None when replaying
        self.ended = False  #: the table ended the game from the menu
        self.closed = False  #: OK on the game-over screen: back to the main menu
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
        # Within one input the prompt is asked for several times (answer, automatic picks, the new screen); a
        # long game's replay spends most of its time there, so it is kept until the model changes (an answer or
        # a restore). Outside handle() it is always asked afresh.
        if self._memo is not None:
            return self._memo
        p: Prompt = self.model.prompt()
        if self._handling:
            self._memo = p
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
        return screen_for(self.prompt(), self.names, self._dice_ctx)

    def _rng_values(self, die: str, count: int) -> list[int]:
        sides = 6 if die == "d6" else 12
        return [self.rng.randint(1, sides) for _ in range(count)]

    # -------------------------------------------------------------- inputs
    def handle(self, ev: EventIn, t: float = 0.0, now: float | None = None) -> list[RollRecord]:
        """Apply one input; returns the dice records it produced, for the journal's same transaction.

        ``t`` is the wall-clock time journaled with it; ``now`` the app's monotonic time for the game clock (None
        while a saved game is replayed: the journaled clock lines carry the times then)."""
        self.n_inputs += 1
        self._t = t
        self._now = now
        self._records = []
        self.toast = None
        self.toast_sticky = False
        self.refused = None
        self._handling, self._memo = True, None
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
            self.toast = "Internal error; the game is unchanged. See the log."
        finally:
            self._handling, self._memo = False, None
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

    # -------------------------------------------------------------- the game clock
    def _start_clock(self) -> None:
        if self.game is None:
            return
        spec = clock_setting(self.game)
        if spec.running:
            self.timekeeper = Timekeeper(spec, self.game.seats)
            self._follow_clock()

    def _follow_clock(self) -> None:
        """After anything that may change whose turn it is: the clock runs for the game's active seat."""
        if self.timekeeper is not None and self.game is not None:
            seat = None if self.game.is_over else self.game.active_seat()
            self.timekeeper.follow(seat, self._now)

    def _on_clock(self, ev: ClockEvent) -> None:
        if self.timekeeper is None:
            return
        seat = self.timekeeper.apply(ev)
        if seat is None:
            if self._now is not None:  # live: the state was just written from this clock; it runs on
                self.timekeeper.restart(self._now)
            return
        if self.game is None or self._game_over:
            return
        group = ActionGroup(title="Time", what=f"{self._who(seat)}: time is up", rolled=True)
        before = self._snapshot()
        value = {"clock": "timeout", "seat": seat}
        self._model_answer(value)
        group.answers.append((value, True))
        self.action_log.append({"t": self._t, "player": seat, "title": "Time", "answer": value, "auto": True})
        self.undo_stack.append((before, group))
        self.redo_stack.clear()
        self.screen = self._new_screen()
        self.toast = f"{self.names[seat - 1]}: time is up"
        self._announce([])
        self._follow_clock()

    def set_now(self, now: float) -> None:
        """The app's monotonic time for drawing the clock between inputs."""
        self._now = now

    def restart_clock(self, now: float) -> None:
        """After a replay: the running seat's clock goes on from ``now``; the time the companion was off is free."""
        if self.timekeeper is not None:
            self._now = now
            self.timekeeper.restart(now)

    def clock_checkpoint(self, now: float | None) -> ClockEvent | None:
        """The clock's state to journal, when it changed or is due (None: nothing to write)."""
        tk = self.timekeeper
        if tk is None or (now is not None and not tk.checkpoint_due(now)) or (now is None and not tk.dirty):
            return None
        return tk.checkpoint(now)

    def clock_flag(self, now: float) -> ClockEvent | None:
        """The flag to journal when the running seat's time has run out."""
        if self.timekeeper is None or self._game_over:
            return None
        seat = self.timekeeper.clock.flag_due(now)
        return ClockEvent("flag", str(seat)) if seat is not None else None

    @property
    def _game_over(self) -> bool:
        return self.game is not None and self.game.is_over

    def _prompt_outcome(self, out: Any) -> None:
        if isinstance(out, Toast):  # the screen refused the press (a greyed-out entry, a count out of range)
            self.toast = self.refused = out.text
        elif isinstance(out, Done):
            if self._game_over:
                self.closed = True
                return
            self._answer(out.value)
        elif isinstance(out, Back):
            self._back()

    def _back(self) -> None:
        """BACK on a screen that has no back of its own: to the previous screen, when that was a step of the same
        player's and no dice were rolled since; otherwise say why not."""
        if self._game_over:
            self.toast = "The game is over: OK for the main menu"
            return
        if not self.undo_stack:
            self.toast = "Nothing before this screen"
            return
        views = self.game.views() if self.game is not None else []
        if self.prompt().board is not None and views:  # a board game's first page (the control map) is near
            self.overlays.append(Overlay("page", views[0].title, TextView(list(views[0].lines), top=0)))
            return
        group = self.undo_stack[-1][1]
        p = self.prompt()
        if group.rolled:
            self.toast = "BACK keeps rolls: hold OK, Undo takes one back"
        elif group.player is not None and group.player != p.player:
            self.toast = f"{self._who(group.player)}'s step is done: hold OK, Undo"
        else:
            self.undo()

    def _who(self, seat: int | None) -> str:
        return self.names[seat - 1] if seat is not None and 0 < seat <= len(self.names) else "Table"

    def _log_len(self) -> int:
        return len(self.game.data.get("log", [])) if self.game is not None else 0

    def _remote_answer(self, ev: AnswerEvent) -> None:
        """An answer from a phone: the same validation and history as OK on the device, for the prompt it names."""
        p = self.prompt()
        if ev.seq != self.prompt_seq:
            self.toast = "The question changed; answer the new one"
            return
        if self._game_over:
            self.toast = "The game is over"
            return
        if isinstance(p, Random):
            self.toast = "The companion draws this one itself"
            return
        value = ev.value
        if isinstance(p, Dice):
            src = value.get("source") if isinstance(value, dict) else None
            if src not in ("typed", "rng") or src not in self.sources:
                allowed = " or ".join(s for s in ("typed", "rng") if s in self.sources) or "the roller"
                self.toast = f"Dice here come from {allowed}; see [dice] sources"
                return
            value = {"values": self._rng_values(p.die, p.count) if src == "rng" else value.get("values"),
                     "source": src}
        self._answer(value)

    def _answer(self, value: Any) -> None:
        prompt = self.prompt()
        group = ActionGroup(title=prompt.title, player=prompt.player,
                            what=describe(prompt, value, self.names))
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
        self.undo_stack.append((before, group))
        self.redo_stack.clear()
        self.prompt_seq += 1
        self.screen = self._new_screen()
        self._announce(self.game.data.get("log", [])[0 if game_before is None else log_before:]
                       if self.game is not None else [])
        self._follow_clock()

    def _announce(self, notes: Sequence[str]) -> None:
        """What the answer made happen stays on the screen until the next press, after any roll summary.

        A game may say it itself in ``data["announce"]`` (what changed hands, check): shown as a toast. Otherwise
        the game's new log lines are the announcement (who starts, a tie, the dealer, a result)."""
        if self.game is not None and "announce" in self.game.data:
            said = self.game.data.get("announce")
            if said and not self.toast:
                self.toast = str(said)
            return
        notes = [n for n in notes if n != self._start_note]
        if not notes:
            return
        said = ". ".join(list(notes[-3:]))
        if self.toast:  # a roll summary first, unless it would push the game's own result off the box
            both = f"{self.toast}. {said}"
            self.toast = both if len(wrap(both, TOAST_W)) <= ANNOUNCE_LINES else said
        else:
            self.toast = said
        self.toast_sticky = True

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
        for i in group.dice:
            self.dice_history[i]["undone"] = True
        self.redo_stack.append(group)
        self.action_log.append({"t": self._t, "undo": group.title})
        self.prompt_seq += 1
        self.screen = self._new_screen()
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
        self.undo_stack.append((before, group))
        self.action_log.append({"t": self._t, "redo": group.title})
        self.prompt_seq += 1
        self.screen = self._new_screen()
        self._follow_clock()
        return f"Redone: {group.what or group.title}"

    # -------------------------------------------------------------- the game menu
    def _toggle_menu(self) -> None:
        if self.overlays:
            self.overlays.clear()
            return
        items = [Item("resume", "Back to game"),
                 Item("undo", "Undo", bool(self.undo_stack), "nothing to undo"),
                 Item("redo", "Redo", bool(self.redo_stack), "nothing to redo"),
                 Item("log", "Game log"), Item("dice", "Dice history")]
        if self.game is not None:
            items += [Item(f"view:{i}", v.title) for i, v in enumerate(self.game.views())]
            if not self._game_over:
                items += [Item(f"act:{o.key}", o.label, o.enabled, o.hint) for o in self._menu_actions()]
                if self.timekeeper is not None:
                    paused = self.timekeeper.clock.paused
                    items.append(Item("clock", "Resume clock" if paused else "Pause clock"))
        items += [Item("pair", "Pair a phone"), Item("settings", "Settings"), Item("end", "End game")]
        self.overlays.append(Overlay("menu", "Game menu", ListWidget(items)))

    def _overlay_key(self, ev: KeyEvent) -> None:
        top = self.overlays[-1]
        out = top.widget.key(ev.key, ev.repeat)
        if isinstance(out, Toast):  # the screen refused the press (a greyed-out entry, a count out of range)
            self.toast = self.refused = out.text
        elif isinstance(out, Back):
            self.overlays.pop()
        elif isinstance(out, Done):
            if top.kind == "menu":
                self._menu_pick(str(out.value))
            elif top.kind == "end":
                self.overlays.clear()
                if out.value:
                    self.ended = True
            elif top.kind == "entries":  # one entry of the log, whole, wrapped over as many rows as it needs
                text = top.widget.items[int(out.value)].label
                self.overlays.append(Overlay("page", top.title, TextView(wrap(text, LIST_W), top=0)))
            elif top.kind.startswith("act:"):
                self.overlays.clear()
                if out.value:
                    self._answer(top.kind[4:])

    def _menu_actions(self) -> list[Any]:
        """The prompt's options offered from the game menu (resign, claim a draw)."""
        p = self.prompt()
        return [o for o in getattr(p, "options", ()) if getattr(o, "in_menu", False)]

    def _menu_pick(self, key: str) -> None:
        if key == "resume":
            self.overlays.clear()
        elif key == "clock" and self.timekeeper is not None:
            self.overlays.clear()
            if self.timekeeper.clock.paused:
                self.timekeeper.resume(self._now)
                self.toast = "Clock running"
            else:
                self.timekeeper.pause(self._now)
                self.toast = "Clock paused"
        elif key.startswith("act:"):  # a game's menu action (resign, claim a draw): asked once more
            label = next((o.label for o in self._menu_actions() if o.key == key[4:]), key[4:])
            self.overlays.append(Overlay(key, f"{label}?", ConfirmWidget("Yes", "No", value=False, back_ok=True)))
        elif key in ("undo", "redo"):
            self.overlays.clear()
            self.toast = self.undo() if key == "undo" else self.redo()
        elif key == "log":
            lines = list(self.game.data.get("log", [])) if self.game is not None else []
            self.overlays.append(Overlay("entries", "Game log", entry_list(lines)))
        elif key == "dice":
            lines = [self._dice_line(d) for d in self.dice_history]
            self.overlays.append(Overlay("entries", "Dice history", entry_list(lines)))
        elif key.startswith("view:") and self.game is not None:
            views = self.game.views()
            i = int(key[5:])
            if i < len(views):
                self.overlays.append(Overlay("page", views[i].title, TextView(list(views[i].lines), top=0)))
        elif key == "pair":  # always the same effect on the session (replay has no hook): the App shows the PIN
            self.overlays.clear()
            if self.pair_hook is not None:
                self.pair_hook()
        elif key == "settings":
            self.overlays.append(Overlay("page", "Settings", TextView(self.settings_lines(), top=0)))
        elif key == "end":
            self.overlays.append(Overlay("end", "End game?", ConfirmWidget("End", "Keep", value=False, back_ok=True)))

    def settings_lines(self) -> list[str]:
        """What this game runs with: its dice sources and rule switches (fixed when the game was started)."""
        lines = ["Dice: " + ", ".join(self.sources), "Roller: " + ("connected" if self.roller_connected() else
                                                                    "offline")]
        options = self.game.options if self.game is not None else self.game_cls.resolve_options(self.wizard.options)
        if options:
            lines.append("Rules:")
            lines += [f" {k} = {v}" for k, v in sorted(options.items())]
        lines += ["Kept from the start of", "the game. Settings in the", "main menu: new games."]
        return lines

    def _dice_line(self, d: dict[str, Any]) -> str:
        who = self.names[d["player"] - 1] if d["player"] else "Nobody asked"
        mark = " (undone)" if d["undone"] else ""
        source = {"rng": "rolled here", "typed": "typed in"}.get(d["source"], d["source"])
        why = f" for {d['purpose']}" if d.get("purpose") else ""
        return f"{who}: {d['die']} {' '.join(map(str, d['values']))}{why}, {source}{mark}"

    # -------------------------------------------------------------- output
    def private_screen(self) -> bool:
        """The OLED shows an open secret ballot (no menu over it): for the voter's eyes only, never mirrored."""
        return not self.overlays and self.screen.is_private()

    def render(self) -> Image.Image:
        img, d = new_frame()
        if self.overlays:
            top = self.overlays[-1]
            title_bar(d, top.title)
            if top.kind == "end":
                draw_lines(d, 11, ("End this game?", "It stays in the saved", "games list."), 3)
            elif top.kind.startswith("act:"):
                draw_lines(d, 11, (top.title, "Undo takes it back."), 3)
            top.widget.draw(d, 11)
        else:
            self._draw_clock(d)
        if self.toast:
            if self.toast_sticky:
                draw_toast(d, self.toast, ANNOUNCE_LINES, ANNOUNCE_MORE)
            else:
                draw_toast(d, self.toast)
        return img

    def _draw_clock(self, d: Any) -> None:
        tk = self.timekeeper
        rows = tk.rows(self.names, self._now) if tk is not None and self.game is not None else []
        if hasattr(self.screen, "set_clock"):  # a board screen: the clocks in its text half
            self.screen.set_clock(rows, tk is not None and tk.clock.paused)
        self.screen.draw(d)
        if not rows or hasattr(self.screen, "set_clock"):
            return
        running = [r for r in rows if r[2]]
        if running:  # other screens: the running seat's time at the right of the title bar
            text = running[0][1]
            w = time_width(text)
            d.rectangle((127 - w - 3, 0, 127, 10), fill=1)
            draw_time(d, 126, 0, text, fill=0)

    def clock_shown(self) -> str | None:
        """The running seat's time as the screen shows it (``clock paused`` while paused), or None without a clock."""
        tk = self.timekeeper
        if tk is None or self.game is None or self._game_over:
            return None
        if tk.clock.paused:
            return "clock paused"
        running = [shown for _name, shown, on in tk.rows(self.names, self._now) if on]
        return running[0] if running else None

    def clock_warning(self, now: float) -> int | None:
        """The running seat when it is in its last seconds (the app flashes its LED fast), else None."""
        tk = self.timekeeper
        if tk is None or self._game_over or not tk.clock.warning(now):
            return None
        return tk.clock.running

    def alerts(self) -> tuple[int, ...]:
        """Seats whose LED flashes fast as a warning (the game's :meth:`~fsm.base.GameMachine.alert_seats`)."""
        if self.game is None or self._game_over:
            return ()
        return tuple(self.game.alert_seats())

    def leds(self) -> tuple[int | None, bool]:
        """(the lit seat, whether it blinks because the companion waits for that player)."""
        p = self.prompt()
        if self.game is None:
            return None, False
        if p.player is not None and not self._game_over:
            return p.player, True
        return self.game.active_seat(), False

    @property
    def status(self) -> str:
        """The journal's status for this game: "ended" (from the menu), "finished" (game over) or "active"."""
        if self.ended:
            return "ended"
        return "finished" if self.game is not None and self.game.is_over else "active"

    def summary(self) -> str:
        if self.game is None:
            return f"{self.game_cls.name}: setting up"
        g = self.game
        if g.is_over:
            w = g.winner_seat()
            return f"{g.name}: over" + (f", {g.player_name(w)} won" if w is not None else "")
        seat = g.active_seat()
        who = f", {g.player_name(seat)}'s turn" if seat else ""
        return f"{g.name}: round {g.data.get('round')}{who}; " + ", ".join(self.names)

    def state_json(self) -> dict[str, Any]:
        if self.game is None:
            names = self.names
            out: dict[str, Any] = {"game": self.game_cls.game_id, "state": "setup", "round": None,
                                   "active_player": None,
                                   "players": [{"name": n, "seat": i + 1} for i, n in enumerate(names)],
                                   "winner": None}
        else:
            out = self.game.state_json()
            if self.timekeeper is not None:
                out["clocks"] = self.timekeeper.clock.seconds_left(self._now if self._now is not None else 0.0)
        out["journal_entries"] = self.n_inputs
        out["ended"] = self.ended
        return out

    def export(self) -> dict[str, Any]:
        return {"game": self.game_cls.game_id, "name": self.game_cls.name,
                "players": [{"name": n, "seat": i + 1} for i, n in enumerate(self.names)],
                "actions": [{**a, "answer": "(secret)"} if a.get("secret") else a for a in self.action_log],
                "dice": self.dice_history,
                "log": list(self.game.data.get("log", [])) if self.game is not None else [],
                "outcome": self.state_json(),
                **({"record": self.game.record()} if self.game is not None and hasattr(self.game, "record") else {})}


def entry_list(lines: Sequence[str]) -> ListWidget:
    """A log as a list, newest at the cursor; OK opens an entry whole."""
    return ListWidget([Item(str(i), line) for i, line in enumerate(lines)] or [Item("-1", "(nothing yet)", False,
                                                                                    "nothing to open")],
                      cursor=max(0, len(lines) - 1))


def describe(prompt: Prompt, value: Any, names: Sequence[str]) -> str:
    """An answer in words, for the undo toast: "Ben: Build a fort (Spend 4 pts)", never a secret ballot."""
    from fsm.prompts import Choice, Confirm, MultiSelect, Number

    if isinstance(prompt, Choice):
        label = next((o.label for o in prompt.options if o.key == value), "back" if value == prompt.back else value)
        what = f"{prompt.title}: {label}" if value == prompt.back else f"{label} ({prompt.title})"
    elif isinstance(prompt, Number):
        what = f"{prompt.title} {value}{(' ' + prompt.unit) if prompt.unit else ''}"
    elif isinstance(prompt, Confirm):
        what = f"{prompt.title} {prompt.yes if value else prompt.no}"
    elif isinstance(prompt, MultiSelect):
        labels = [o.label for o in prompt.options if o.key in value]
        what = f"{prompt.title}: " + (", ".join(labels) if labels else "none")
    elif isinstance(prompt, SecretVote):
        what = "a secret vote"
    elif isinstance(prompt, Dice):
        what = f"roll {prompt.die} {' '.join(map(str, value['values']))}"
    else:
        what = prompt.title
    who = names[prompt.player - 1] if prompt.player is not None and 0 < prompt.player <= len(names) else ""
    return f"{who}: {what}" if who else what


__all__ = ["Session", "encode_event", "decode_event", "describe"]
