"""The base every game machine derives from: a pytransitions machine over a JSON-able game state.

A game is a class with

* ``STATES``, ``TRANSITIONS``, ``INITIAL`` and ``FINAL`` — the phase graph, handed to :class:`transitions.Machine`
  unchanged (the diagrams and the contract tests read these same lists);
* ``data`` — everything else about the game, plain JSON values only (dicts, lists, str, int, float, bool, None);
* :meth:`prompt` — what the game needs now, and :meth:`answer` — take that input, update ``data`` and fire triggers.

Undo, redo, resume and the journal live in the platform: undo is :meth:`snapshot`/:meth:`restore`, which is exact as
long as all state sits in ``state`` and ``data``. The contract test in ``tests/test_machine_contract.py`` holds every
registered game to that.

This package imports nothing from ``hw/``.
"""
from __future__ import annotations

import io
import pickle
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping, Sequence

from transitions import Machine

from fsm.prompts import InvalidAnswer, Prompt, View

JSON = Any


@dataclass(frozen=True)
class Player:
    name: str
    seat: int  #: 1-based seat number; the player's LED is ``[leds] players[seat - 1]``


def _pickle_values(value: Any) -> bytes:
    """Pickle without the memo ("fast" mode): the bytes depend on the values only, not on which objects happen to
    be shared, so equal data gives equal snapshots (as JSON text did). ``data`` is JSON-like: no cycles."""
    buf = io.BytesIO()
    p = pickle.Pickler(buf, protocol=pickle.HIGHEST_PROTOCOL)
    p.fast = True
    p.dump(value)
    return buf.getvalue()


@dataclass(frozen=True)
class OptionSpec:
    """A game's configurable rule switch, set in config as ``[games.<id>] <name> = value``."""

    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    #: for ints: inclusive bounds
    lo: int | None = None
    hi: int | None = None

    def check(self, game_id: str, name: str, value: Any) -> Any:
        """Return ``value`` if allowed, else raise ValueError with one line naming key, value and what is allowed."""
        where = f"[games.{game_id}] {name}"
        if self.choices is not None:
            if value not in self.choices or not any(type(value) is type(c) for c in self.choices):  # 2.0 is not 2
                allowed = ", ".join(repr(c) for c in self.choices)
                raise ValueError(f"{where} = {value!r} is not allowed; use one of {allowed}")
            return value
        kind = type(self.default)
        if kind is bool and not isinstance(value, bool):
            raise ValueError(f"{where} = {value!r} must be true or false")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise ValueError(f"{where} = {value!r} must be a whole number")
        if kind is str and not isinstance(value, str):
            raise ValueError(f"{where} = {value!r} must be a string")
        if kind is int and ((self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi)):
            raise ValueError(f"{where} = {value!r} must be from {self.lo} to {self.hi}")
        return value


@dataclass(frozen=True)
class Setup:
    """What the new-game wizard decided: the players in seat order and the rule switches."""

    players: tuple[Player, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    #: issue 33's screens (cursor defaults, entries offered only when possible, one start screen): a game journaled
    #: before them is replayed with False, so its saved presses mean what they meant when they were pressed
    pass4: bool = True


class GameMachine:
    """Base class of every game. Subclasses set the class attributes and implement prompt/answer."""

    game_id: ClassVar[str] = ""
    name: ClassVar[str] = ""
    description: ClassVar[str] = ""  #: one line, for ``companion games``
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 8
    default_players: ClassVar[int] = 2
    #: names of the states (or pytransitions state dicts); the phase graph
    STATES: ClassVar[Sequence[Any]] = ()
    #: pytransitions transition dicts: {"trigger": ..., "source": ..., "dest": ...}
    TRANSITIONS: ClassVar[Sequence[Mapping[str, Any]]] = ()
    INITIAL: ClassVar[str] = ""
    #: states in which the game is over; the contract test lets them have no way out
    FINAL: ClassVar[tuple[str, ...]] = ("game_over",)
    #: rule switches; defaults apply when config does not set them
    OPTIONS: ClassVar[Mapping[str, OptionSpec]] = {}
    #: the game asks for more before it starts (Society's map): what the new-game wizard's OK leads to, instead of
    #: "Start game" (one screen that starts the game, not two)
    SETUP_NEXT: ClassVar[str] = ""

    state: str  # set by pytransitions

    def __init__(self, setup: Setup) -> None:
        if not self.min_players <= len(setup.players) <= self.max_players:
            raise ValueError(f"{self.name} takes {self.min_players} to {self.max_players} players, "
                             f"not {len(setup.players)}")
        self.players: tuple[Player, ...] = setup.players
        self.options: dict[str, Any] = self.resolve_options(setup.options)
        self.pass4 = setup.pass4
        self.data: dict[str, Any] = {"round": 1, "active": None, "log": []}
        self.machine = Machine(model=self, states=list(self.STATES), transitions=[dict(t) for t in self.TRANSITIONS],
                               initial=self.INITIAL, auto_transitions=False)
        self.start()

    # ----------------------------------------------------------------- to implement
    def start(self) -> None:
        """Fill ``data`` for a new game (called once from __init__, after the machine exists)."""

    def prompt(self) -> Prompt:
        raise NotImplementedError

    def answer(self, value: Any) -> None:
        """Apply the answer to :meth:`prompt`. Raise :class:`InvalidAnswer` to refuse it (nothing may change then)."""
        raise NotImplementedError

    def player_json(self, seat: int) -> dict[str, Any]:
        """Per-player fields for the state JSON (counters and the like), beyond name and seat."""
        return {}

    def extra_json(self) -> dict[str, Any]:
        """Game-specific top-level fields of the state JSON."""
        return {}

    def views(self) -> list[View]:
        """Read-only pages for the game menu (status per player, charts, tallies)."""
        return []

    def time_out(self, seat: int) -> None:
        """The platform's game clock says ``seat``'s time ran out. By default (a turn timer) it is only noted; games
        where that loses (chess) override this and end the game."""
        self.note(f"{self.player_name(seat)}: time is up")

    def alert_seats(self) -> list[int]:
        """Seats whose LED flashes fast as a warning that stays until the position changes (a king in check)."""
        return []

    def entry_answer(self, text: str) -> Any:
        """Typed entry (a script's ``move TEXT``, a remote): the answer to the current prompt that ``text`` names.

        Games that read a notation (chess move text) override this; raise :meth:`refuse` for text that names
        nothing allowed now.
        """
        raise self.refuse(f"{self.name} takes no typed entries; use the buttons")

    # ----------------------------------------------------------------- provided
    @classmethod
    def resolve_options(cls, given: Mapping[str, Any]) -> dict[str, Any]:
        out = {k: spec.default for k, spec in cls.OPTIONS.items()}
        for k, v in given.items():
            if k not in cls.OPTIONS:
                known = ", ".join(sorted(cls.OPTIONS)) or "none"
                raise ValueError(f"[games.{cls.game_id}] has no option {k!r}; known options: {known}")
            out[k] = cls.OPTIONS[k].check(cls.game_id, k, v)
        return out

    def fire(self, trigger: str) -> None:
        """Fire a pytransitions trigger by name."""
        self.trigger(trigger)  # type: ignore[attr-defined]

    def goto(self, state: str) -> None:
        """Jump to a state without a transition — only for restore; games use :meth:`fire`."""
        self.machine.set_state(state)

    def snapshot(self) -> tuple[str, bytes, int]:
        """The state, a deep copy of ``data`` (pickled: a tenth of the time of JSON text, which replaying a long
        game spends on every answer) and the log's length (the log only grows, so it is not copied)."""
        rest = {k: v for k, v in self.data.items() if k != "log"}
        return self.state, _pickle_values(rest), len(self.data["log"])

    def restore(self, snap: tuple[str, bytes, int]) -> None:
        state, rest, n_log = snap
        log = self.data["log"]
        del log[n_log:]
        self.goto(state)
        self.data = pickle.loads(rest)
        self.data["log"] = log

    @property
    def is_over(self) -> bool:
        return self.state in self.FINAL

    def phase_label(self) -> str:
        """The phase in a word or two for the glance view ("Spend", "Council"); games may say it better."""
        return str(self.state).replace("_", " ").capitalize()

    def active_seat(self) -> int | None:
        """The seat whose turn it is (their LED is lit), or None."""
        a = self.data.get("active")
        return a if isinstance(a, int) else None

    def winner_seat(self) -> int | None:
        """The seat of the single winner (``data["winner"]``), or None: no winner yet, a shared win, or none."""
        w = self.data.get("winner")
        return w if isinstance(w, int) and not isinstance(w, bool) else None

    def player_name(self, seat: int) -> str:
        return self.players[seat - 1].name

    @property
    def seats(self) -> list[int]:
        return [p.seat for p in self.players]

    def note(self, text: str) -> None:
        """Append a line to the game log (shown in the game menu, exported)."""
        self.data["log"].append(text)

    def refuse(self, why: str) -> InvalidAnswer:
        """``raise self.refuse("...")`` — one plain line for the toast."""
        return InvalidAnswer(why)

    def state_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game_id,
            "state": self.state,
            "round": self.data.get("round"),
            "active_player": self.active_seat(),
            "players": [{"name": p.name, "seat": p.seat, **self.player_json(p.seat)} for p in self.players],
            "winner": self.winner_seat(),
            "winner_name": self.player_name(w) if (w := self.winner_seat()) is not None else None,
        }
        out.update(self.extra_json())
        return out


__all__ = ["GameMachine", "Player", "Setup", "OptionSpec", "JSON"]
