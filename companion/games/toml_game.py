"""A game machine built from a :class:`~companion.games.toml_spec.GameSpec`: rounds of phases, counters, roll-off."""
from __future__ import annotations

import hashlib
import tomllib
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

from fsm.base import GameMachine, SeatResult
from fsm.clock_spec import ClockSpec
from fsm.prompts import Choice, Dice, Info, Number, Option, Prompt, Random, View
from fsm.turns import next_seat, order_from, rolloff_lines, rolloff_next, rolloff_record, rolloff_start, rolloff_tie

from companion.games.toml_spec import GameSpec, read_spec

FIRST_STATE = {"rolloff": "rolloff", "choose": "choose_first", "random": "random_first"}


class TomlGameType(type):
    """The type of the classes :func:`load_toml_game` builds. Such a class lives in no module: a resume snapshot
    names it by its file and that file's digest (:func:`class_reference`), and :func:`toml_class` builds it again."""


class TomlGame(GameMachine, metaclass=TomlGameType):
    """Base of the classes :func:`load_toml_game` builds; the spec is a class attribute."""

    spec: ClassVar[GameSpec]
    source_path: ClassVar[Path]
    source_digest: ClassVar[str]  #: of the file's bytes the spec was read from

    @property
    def clock_spec(self) -> Any:
        """The ``[clock]`` table's clock (the session runs it)."""
        return ClockSpec.parse(self.spec.clock)

    # ------------------------------------------------------------------ setup
    def start(self) -> None:
        s = self.spec
        self.data.update({"round": 1, "phase": 0, "turn": 0, "first": 1, "adjust": None,
                          "counters": {str(p.seat): {c.id: c.start for c in s.counters} for p in self.players}})
        if s.first_player == "rolloff":
            self.data["rolloff"] = rolloff_start(self.seats, s.die, "first player")
        elif s.first_player == "seat1":
            self._begin(1)

    def _begin(self, first: int) -> None:
        self.data["first"] = first
        self.note(f"{self.player_name(first)} goes first")
        if self.state != "playing":
            self.fire("begin")
        self._enter_step()

    # ------------------------------------------------------------------ turn structure
    def order(self) -> list[int]:
        return order_from(self.data["first"], len(self.players))

    @property
    def phase(self) -> Any:
        return self.spec.phases[self.data["phase"]]

    def _enter_step(self) -> None:
        self.data["active"] = self.order()[self.data["turn"]] if self.phase.each_player else None

    def _advance(self) -> None:
        """The current player's phase step (or the all-at-once phase) is done."""
        d, s = self.data, self.spec
        if self._check_end("turn"):
            return
        if self.phase.each_player and d["turn"] + 1 < len(self.players):
            d["turn"] += 1
        elif d["phase"] + 1 < len(s.phases):
            d["phase"], d["turn"] = d["phase"] + 1, 0
        else:
            self._counters_story()
            if self._check_end("round"):
                return
            d["round"] += 1
            d["phase"], d["turn"] = 0, 0
            if s.rotate_first:
                d["first"] = next_seat(d["first"], len(self.players))
            self.note(f"Round {d['round']}")
        self._enter_step()

    def _check_end(self, when: str) -> bool:
        d, s = self.data, self.spec
        why = None
        for e in s.ends:
            if e.counter is not None and e.reaches is not None:
                hit = [p for p in self.players if self._reached(d["counters"][str(p.seat)][e.counter], e.reaches,
                                                                e.counter)]
                if hit:
                    why = f"{hit[0].name} reached {e.reaches} {self._counter(e.counter).name}"
            if e.rounds and when == "round" and s.rounds is not None and d["round"] >= s.rounds:
                why = f"{s.rounds} rounds played"
        if why is None:
            return False
        self._finish(why)
        return True

    def _reached(self, value: int, target: int, counter: str) -> bool:
        c = self._counter(counter)
        return value <= target if target < c.start else value >= target

    def _counter(self, cid: str) -> Any:
        return next(c for c in self.spec.counters if c.id == cid)

    def _counters_story(self) -> None:
        """The story: every counter of every seat at the end of the round (or of the game)."""
        for c in self.spec.counters:
            self.story_point(c.id, int(self.data["round"]), {p.seat: self.data["counters"][str(p.seat)][c.id]
                                                             for p in self.players})

    def _finish(self, why: str) -> None:
        d, s = self.data, self.spec
        self._counters_story()
        d["active"] = None
        d["end_reason"] = why
        if s.winner_counter is not None:
            vals = {p.seat: d["counters"][str(p.seat)][s.winner_counter] for p in self.players}
            best = (max if s.winner_order == "highest" else min)(vals.values())
            seats = [seat for seat, v in vals.items() if v == best]
            d["winners"] = [self.player_name(s) for s in seats]
            d["winner"] = seats[0] if len(seats) == 1 else None
        won = " & ".join(d.get("winners", []))
        self.note(f"Game over: {why}" + (f"; {won} won" if won else ""))
        self.fire("finish")

    # ------------------------------------------------------------------ prompts
    def prompt(self) -> Prompt:
        d, s = self.data, self.spec
        if self.state == "rolloff":
            ro = d["rolloff"]
            seat = rolloff_next(ro)
            names = [p.name for p in self.players]
            return Dice("First player", lines=rolloff_lines(ro, names), player=seat, die=ro["die"],
                        purpose="roll-off")
        if self.state == "choose_first":
            return Choice("Who goes first?", options=tuple(Option(str(p.seat), p.name) for p in self.players))
        if self.state == "random_first":
            return Random("First player", keys=tuple(str(p.seat) for p in self.players))
        if self.state == "game_over":
            lines = [d.get("end_reason", "")]
            lines += [self._score_line(p.seat) for p in self.players]
            return Info("Game over", lines=tuple(x for x in lines if x))
        if d["adjust"] is not None:
            seat, cid = d["adjust"]
            c = self._counter(cid)
            cur = d["counters"][str(seat)][cid]
            return Number(f"{self.player_name(seat)}: {c.name}", lines=(f"New total (was {cur})",), player=seat,
                          lo=c.min,
                          hi=c.max, default=cur)
        return self._phase_prompt()

    def _phase_prompt(self) -> Prompt:
        d, ph = self.data, self.phase
        head = f"Round {d['round']}" + (f" of {self.spec.rounds}" if self.spec.rounds else "")
        lines = tuple(x for x in (head, ph.hint) if x)  # the round in words under the phase's name
        if ph.each_player:
            seat = d["active"]
            opts = [Option("done", "Done: next")]
            opts += [Option(f"adj:{seat}:{c}", f"{self._counter(c).name}: {d['counters'][str(seat)][c]}")
                     for c in ph.counters]
            return Choice(ph.name, lines=lines, player=seat, options=tuple(opts))
        opts = [Option("done", "Done: next phase")]
        opts += [Option(f"adj:{p.seat}:{c}", f"{p.name} {self._counter(c).name}: {d['counters'][str(p.seat)][c]}")
                 for p in self.players for c in ph.counters]
        return Choice(ph.name, lines=lines, options=tuple(opts))

    def answer(self, value: Any) -> None:
        d = self.data
        if self.state == "rolloff":
            ro = d["rolloff"]
            seat = rolloff_next(ro)
            if seat is None:
                raise self.refuse("the roll-off is already decided")
            rolloff_record(ro, seat, value["values"][0])
            if ro["winner"] is not None:
                self._begin(ro["winner"])
            elif (tied := rolloff_tie(ro)) is not None:
                self.note("Tie: " + ", ".join(self.player_name(t) for t in tied) + " roll again")
            return
        if self.state in ("choose_first", "random_first"):
            self._begin(int(value))
            return
        if self.state == "game_over":
            return
        if d["adjust"] is not None:
            seat, cid = d["adjust"]
            old = d["counters"][str(seat)][cid]
            d["counters"][str(seat)][cid] = int(value)
            d["adjust"] = None
            if value != old:
                self.note(f"Round {d['round']}: {self.player_name(seat)} {self._counter(cid).name} {old}→{value}")
            if self.spec.ends and any(e.counter == cid for e in self.spec.ends):
                self._check_end("change")
            return
        if value == "done":
            self._advance()
            return
        _, seat_text, cid = str(value).split(":")
        d["adjust"] = [int(seat_text), cid]

    # ------------------------------------------------------------------ the end
    def start_seat(self) -> int | None:
        """The first player of round 1 (with ``rotate_first`` it has moved one seat a round since)."""
        if self.state not in ("playing", "game_over"):
            return None
        first = int(self.data["first"])
        if self.spec.rotate_first:
            first = (first - 1 - (int(self.data["round"]) - 1)) % len(self.players) + 1
        return first

    def results(self) -> list[SeatResult]:
        """The winner counter is the score (``winner_order`` says which way it counts); without one, no score."""
        won = set(self.winner_seats())
        wc = self.spec.winner_counter
        out = []
        for p in self.players:
            score = self.data["counters"][str(p.seat)][wc] if wc is not None else None
            key = 0.0 if score is None else (float(score) if self.high_score_wins else -float(score))
            out.append(SeatResult(p.seat, p.seat in won, score, (1.0 if p.seat in won else 0.0, key)))
        return out

    def outcome(self) -> tuple[str, str]:
        wc = self.spec.winner_counter
        won = self.winner_seats()
        if not self.is_over or wc is None or not won:
            return super().outcome()
        result, why = super().outcome()
        value = self.data["counters"][str(won[0])][wc]
        return f"{result} with {value} {self._counter(wc).name}", why

    # ------------------------------------------------------------------ output
    def _score_line(self, seat: int) -> str:
        vals = self.data["counters"][str(seat)]
        return f"{self.player_name(seat)}: " + "  ".join(f"{self._counter(k).name} {v}" for k, v in vals.items())

    def player_json(self, seat: int) -> dict[str, Any]:
        return dict(self.data["counters"][str(seat)])

    def column_names(self) -> dict[str, str]:
        """What the phone's players table heads each counter's column: its name in the file, not its id."""
        return {c.id: c.name for c in self.spec.counters}

    def extra_json(self) -> dict[str, Any]:
        return {"phase": self.phase.name if self.state == "playing" else None,
                "winners": self.data.get("winners", [])}

    def views(self) -> list[View]:
        return [View("Scores", tuple(self._score_line(p.seat) for p in self.players))]


@lru_cache(maxsize=64)
def _cached(path: Path, mtime: float) -> type[TomlGame]:
    digest = file_digest(path)
    spec = read_spec(path)
    states = [FIRST_STATE[spec.first_player]] if spec.first_player in FIRST_STATE else []
    states += ["playing", "game_over"]
    transitions: list[dict[str, Any]] = [{"trigger": "finish", "source": "playing", "dest": "game_over"}]
    if states[0] != "playing":
        transitions.insert(0, {"trigger": "begin", "source": states[0], "dest": "playing"})
    attrs = {"spec": spec, "source_path": path, "source_digest": digest, "game_id": spec.id, "name": spec.name,
             "description": spec.description, "min_players": spec.min_players, "max_players": spec.max_players,
             "default_players": spec.default_players, "STATES": states, "TRANSITIONS": transitions,
             "INITIAL": states[0], "scored": spec.winner_counter is not None,
             "high_score_wins": spec.winner_order != "lowest"}
    return type(f"TomlGame_{spec.id.replace('-', '_')}", (TomlGame,), attrs)  # of TomlGame's type, TomlGameType


def file_digest(path: Path) -> str:
    """A TOML game file's digest ("?" when it cannot be read: read_spec then says why)."""
    from companion.config.files import read_small

    try:  # never blocks (a pipe, a device: "?", and read_spec says why)
        return hashlib.blake2b(read_small(path), digest_size=16).hexdigest()
    except OSError:
        return "?"


def class_reference(cls: TomlGameType) -> tuple[Any, tuple[str, str]]:
    """How pickle names a TOML game's class (a ``__reduce__`` value): :func:`toml_class` of its file and digest."""
    path = getattr(cls, "source_path", None)
    if path is None:
        raise TypeError(f"{cls.__name__} is the base of the TOML games, not a game")
    return toml_class, (str(path), getattr(cls, "source_digest"))


def toml_class(path: str, digest: str) -> type[TomlGame]:
    """The class the TOML file ``path`` builds, when the file still holds what ``digest`` says (else ValueError)."""
    cls = load_toml_game(Path(path))
    if cls.source_digest != digest:
        raise ValueError(f"the game file {path} has changed since")
    return cls


def load_toml_game(path: Path) -> type[TomlGame]:
    from companion.errors import GameFileError

    p = Path(path).expanduser().resolve()
    if not p.exists():
        raise GameFileError(f"game file {path} does not exist")
    return _cached(p, p.stat().st_mtime)


def peek_id(path: Path) -> str | None:
    """The [game] id of a TOML file, or None if it cannot be read (the menu skips it)."""
    from companion.config.files import read_small

    try:
        gid = tomllib.loads(read_small(path).decode("utf-8-sig")).get("game", {}).get("id")
        return gid if isinstance(gid, str) else None
    except (OSError, ValueError, RecursionError, AttributeError):  # ValueError: not UTF-8, not TOML
        return None
