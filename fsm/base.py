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


#: the parts of ``data`` that only ever grow (appended to, never changed): a snapshot keeps their lengths
GROWING = ("log", "story")


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


def and_list(names: Sequence[str]) -> str:
    """"Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


@dataclass(frozen=True)
class SeatResult:
    """One seat at the end of a game, for the figures (:meth:`GameMachine.results`): whether it won, its score where
    the game keeps one, and ``rank``: compared between seats, higher is better (equal ranks share a place)."""

    seat: int
    winner: bool
    score: int | float | None = None
    rank: tuple[float, ...] = ()


@dataclass(frozen=True)
class Setup:
    """What the new-game wizard decided: the players in seat order and the rule switches."""

    players: tuple[Player, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


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
    #: the table plays together: everyone wins or nobody does (BG Stats' "cooperative")
    cooperative: ClassVar[bool] = False
    #: the game keeps a score per seat (:meth:`results`); ``high_score_wins`` says which way it counts
    scored: ClassVar[bool] = False
    high_score_wins: ClassVar[bool] = True

    state: str  # set by pytransitions

    def __init__(self, setup: Setup) -> None:
        if not self.min_players <= len(setup.players) <= self.max_players:
            raise ValueError(f"{self.name} takes {self.min_players} to {self.max_players} players, "
                             f"not {len(setup.players)}")
        self.players: tuple[Player, ...] = setup.players
        self.options: dict[str, Any] = self.resolve_options(setup.options)
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

    def snapshot(self) -> tuple[str, bytes, int, int]:
        """The state, a deep copy of ``data`` (pickled: a tenth of the time of JSON text, which replaying a long
        game spends on every answer) and the lengths of the log and the story (both only grow, so they are not
        copied; -1: no story yet)."""
        rest = {k: v for k, v in self.data.items() if k not in GROWING}
        story = self.data.get("story")
        return self.state, _pickle_values(rest), len(self.data["log"]), -1 if story is None else len(story)

    def restore(self, snap: tuple[str, bytes, int, int]) -> None:
        state, rest, n_log, n_story = snap
        log, story = self.data["log"], self.data.get("story")
        del log[n_log:]
        self.goto(state)
        self.data = pickle.loads(rest)
        self.data["log"] = log
        if story is not None and n_story >= 0:
            del story[n_story:]
            self.data["story"] = story

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

    # ----------------------------------------------------------------- the end, and the story of the game
    def winner_seats(self) -> list[int]:
        """Every seat that won (several for a shared win; none before the end, in a draw or when all lost):
        ``data["winner"]``, else ``data["winners"]`` as seats or as player names."""
        if (w := self.winner_seat()) is not None:
            return [w]
        names = {p.name: p.seat for p in self.players}
        out = []
        for x in self.data.get("winners") or ():
            seat = x if isinstance(x, int) and not isinstance(x, bool) else names.get(str(x))
            if seat in self.seats and seat not in out:
                out.append(seat)
        return sorted(out)

    def results(self) -> list[SeatResult]:
        """Each seat at the end (the figures' winners, scores and places). By default the winners rank first and
        the others share the next place; games with a score override it."""
        won = set(self.winner_seats())
        return [SeatResult(s, s in won, None, (1.0 if s in won else 0.0,)) for s in self.seats]

    def start_seat(self) -> int | None:
        """The seat that began the game (BG Stats' start player): ``data["first"]`` by default, or None."""
        f = self.data.get("first")
        return f if isinstance(f, int) and not isinstance(f, bool) and f in self.seats else None

    def battles(self) -> list[dict[str, Any]]:
        """Dice battles with exact odds (Sovereign): each one's ``no``, ``round``, ``attacker``, ``defender``, the
        attacker's chance at its first roll (``p``, ``exact``, ``args`` for `companion odds`) and ``won``, ``how``
        (None while it goes on). Other games fight none."""
        return []

    def move_count(self) -> int | None:
        """Moves made so far, in games of moves (chess): the figures then time each move. None in other games."""
        return None

    def team_won(self) -> bool | None:
        """A cooperative game: whether the table won together (None before the end, and in other games)."""
        return None

    def outcome(self) -> tuple[str, str]:
        """(result, decider): who won, in a few words, and the one figure that decided it ("Ann wins",
        "round 9: seven military cards"), from the state at the end. Games say it better by overriding this."""
        won = self.winner_seats()
        if not self.is_over:
            return "Not finished", f"round {self.data.get('round')}"
        names = [self.player_name(s) for s in won]
        result = f"{names[0]} wins" if len(names) == 1 else (f"{and_list(names)} share the win" if names else
                                                             "Nobody wins")
        why = self.data.get("win_reason") or self.data.get("end_reason") or ""
        return result, str(why)

    def story_point(self, series: str, x: int, values: Mapping[Any, Any], by: str = "round") -> None:
        """Record the figures a plot of the game needs as play goes on: ``values`` (key: a seat or a name → a number)
        of ``series`` at ``x`` (a round, a turn, a game of a match); a later point at the same ``x`` and key
        replaces the earlier. Nothing secret goes in (a ballot only once counted, orders only once processed)."""
        self.story_event(["point", series, by, int(x), {str(k): v for k, v in values.items()}])

    def story_event(self, event: list[Any]) -> None:
        """Append one event (small JSON values) to ``data["story"]``. The story only grows, like the log: a
        snapshot keeps its length, undo cuts it back, and replay rebuilds it, so old journals get stories too."""
        self.data.setdefault("story", []).append(event)

    def story(self) -> dict[str, Any]:
        """The story's points folded by series: ``{series: {"by": ..., "at": {x: {key: value}}}}`` (x as text)."""
        out: dict[str, Any] = {}
        for event in self.data.get("story", ()):
            if event[0] == "point":
                _, series, by, x, values = event
                out.setdefault(series, {"by": by, "at": {}})["at"].setdefault(str(x), {}).update(values)
        return out

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


__all__ = ["GameMachine", "Player", "SeatResult", "and_list", "Setup", "OptionSpec", "JSON"]
