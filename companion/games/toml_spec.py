"""The schema of a game described in TOML, checked key by key.

A malformed file raises :class:`~companion.errors.GameFileError` naming the file and the key (or, for TOML syntax,
the line and column).
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import GameFileError
from fsm.clock_spec import ClockSpec, ClockSpecError

FIRST_PLAYER = ("rolloff", "choose", "random", "seat1")
ID_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")  #: use with fullmatch: "$" would let a trailing newline through


@dataclass(frozen=True)
class CounterSpec:
    id: str
    name: str
    start: int
    min: int
    max: int


@dataclass(frozen=True)
class PhaseSpec:
    name: str
    each_player: bool  #: once for each player in turn order (True) or all at once (False)
    counters: tuple[str, ...]  #: counters adjustable in this phase
    hint: str  #: one line shown on the phase screen


@dataclass(frozen=True)
class EndSpec:
    counter: str | None  #: ends when any player's counter reaches ``reaches``
    reaches: int | None
    rounds: bool  #: ends after the round limit


@dataclass(frozen=True)
class GameSpec:
    id: str
    name: str
    description: str
    min_players: int
    max_players: int
    default_players: int
    first_player: str
    die: str
    rotate_first: bool  #: the first player passes one seat left each round
    rounds: int | None
    phases: tuple[PhaseSpec, ...]
    counters: tuple[CounterSpec, ...]
    ends: tuple[EndSpec, ...]
    winner_counter: str | None
    winner_order: str  #: "highest" or "lowest"
    path: Path
    clock: str = "none"  #: the ``[clock]`` table as clock text (``fischer 300+5``); see companion.session.clock


class _Reader:
    def __init__(self, path: Path, where: str, raw: Any) -> None:
        if not isinstance(raw, dict):
            raise GameFileError(f"{path}: {where} must be a table")
        self.path, self.where, self.raw = path, where, raw
        self.used: set[str] = set()

    def fail(self, key: str, msg: str) -> GameFileError:
        sep = " " if msg.startswith("= ") else ": "  # "rounds = 5.0 must be ...", "step: is not a known key"
        return GameFileError(f"{self.path}: {self.where}{key}{sep}{msg}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ..., *, lo: int | None = None,
            hi: int | None = None, choices: tuple[str, ...] | None = None) -> Any:
        self.used.add(key)
        if key not in self.raw:
            if default is ...:
                raise self.fail(key, "is missing")
            return default
        v = self.raw[key]
        if isinstance(v, bool) and kind is not bool:
            raise self.fail(key, f"= {v!r} must be {kind.__name__ if isinstance(kind, type) else 'a value'}")
        if not isinstance(v, kind):
            name = {int: "a whole number", str: "a string", bool: "true or false", list: "a list"}.get(
                kind if isinstance(kind, type) else int, "a value")
            raise self.fail(key, f"= {v!r} must be {name}")
        if choices is not None and v not in choices:
            raise self.fail(key, f"= {v!r} is not allowed; use one of " + ", ".join(repr(c) for c in choices))
        if isinstance(v, int) and ((lo is not None and v < lo) or (hi is not None and v > hi)):
            raise self.fail(key, f"= {v} must be from {lo} to {hi}")
        return v

    def done(self) -> None:
        extra = sorted(set(self.raw) - self.used)
        if extra:
            raise self.fail(extra[0], "is not a known key; known: " + ", ".join(sorted(self.used)))


NAME_MAX = 40  #: characters in a name (the game's, a counter's, a phase's): what a menu row or a title can show
DESCRIPTION_MAX = 200  #: characters in a game's one-line description


def _text(r: _Reader, key: str, v: str, *, blank_ok: bool = False, most: int = NAME_MAX) -> str:
    """A name shown on the screen: not blank (unless allowed), no newlines or other control characters, and short
    enough to be read on the screens (``most`` characters)."""
    shown = repr(v) if len(v) <= 40 else repr(v[:37] + "...")
    if (not blank_ok and not v.strip()) or not all(c.isprintable() or c == " " for c in v):
        raise r.fail(key, f"= {shown}: write some text on one line, without control characters")
    if len(v) > most:
        raise r.fail(key, f"= {shown} is {len(v):,} characters long: write at most {most}")
    return v


def read_spec(path: Path) -> GameSpec:
    from companion.config.files import read_small

    try:
        text = read_small(path).decode("utf-8-sig")  # a leading BOM (Notepad) is no error
    except OSError as e:  # missing, a folder, a pipe, a device, too large: never blocks
        raise GameFileError(f"cannot read game file {path}: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise GameFileError(f"{path}: not UTF-8 text (byte {e.start}); save the file as UTF-8") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise GameFileError(f"{path}: not valid TOML: {e}") from None
    except RecursionError:
        raise GameFileError(f"{path}: nested too deeply to be a game; check the brackets") from None
    top = _Reader(path, "", raw)
    g = _Reader(path, "[game] ", top.get("game", dict))
    gid = g.get("id", str)
    if not ID_RE.fullmatch(gid):
        raise g.fail("id", f"= {gid!r}: use lower-case letters, digits and dashes (at most 40)")
    name = _text(g, "name", g.get("name", str))
    description = _text(g, "description", g.get("description", str, f"{name} (from {path.name})"[:DESCRIPTION_MAX]),
                        most=DESCRIPTION_MAX)
    lo = g.get("min_players", int, 2, lo=1, hi=8)
    hi = g.get("max_players", int, max(lo, 4), lo=lo, hi=8)
    default = g.get("default_players", int, lo, lo=lo, hi=hi)
    first = g.get("first_player", str, "choose", choices=FIRST_PLAYER)
    die = g.get("rolloff_die", str, "d6", choices=("d6", "d12"))
    rotate = g.get("rotate_first", bool, False)
    rounds = g.get("rounds", int, None, lo=1, hi=999)
    g.done()

    counters: list[CounterSpec] = []
    for i, c in enumerate(top.get("counters", list, [])):
        r = _Reader(path, f"[[counters]] #{i + 1} ", c)
        cid = r.get("id", str)
        if not ID_RE.fullmatch(cid) or cid in ("name", "seat"):
            raise r.fail("id", f"= {cid!r}: use lower-case letters, digits and dashes, not 'name' or 'seat'")
        cmin = r.get("min", int, 0, lo=-9999, hi=9999)
        cmax = r.get("max", int, 999, lo=cmin, hi=9999)
        start = r.get("start", int, max(cmin, 0), lo=cmin, hi=cmax)
        counters.append(CounterSpec(cid, _text(r, "name", r.get("name", str, cid)), start, cmin, cmax))
        r.done()
    ids = [c.id for c in counters]
    if len(set(ids)) != len(ids):
        raise GameFileError(f"{path}: [[counters]]: the id {next(i for i in ids if ids.count(i) > 1)!r} is used twice")

    phases: list[PhaseSpec] = []
    for i, p in enumerate(top.get("phases", list)):
        r = _Reader(path, f"[[phases]] #{i + 1} ", p)
        adj = r.get("counters", list, list(ids))
        for a in adj:
            if a not in ids:
                raise r.fail("counters", f"names {a!r}, which is not a counter id ({', '.join(ids) or 'none'})")
        phases.append(PhaseSpec(_text(r, "name", r.get("name", str)), r.get("each_player", bool, True), tuple(adj),
                                _text(r, "hint", r.get("hint", str, ""), blank_ok=True)))
        r.done()
    if not phases:
        raise GameFileError(f"{path}: [[phases]]: a game needs at least one phase")

    ends: list[EndSpec] = []
    for i, raw_end in enumerate(top.get("end", list, [])):
        r = _Reader(path, f"[[end]] #{i + 1} ", raw_end)
        counter = r.get("counter", str, None)
        reaches = r.get("reaches", int, None, lo=-9999, hi=9999)
        by_rounds = r.get("rounds", bool, False)
        r.done()
        if counter is not None and counter not in ids:
            raise r.fail("counter", f"= {counter!r} is not a counter id ({', '.join(ids) or 'none'})")
        if (counter is None) != (reaches is None):
            raise r.fail("reaches" if counter else "counter", "counter and reaches go together")
        if counter is None and not by_rounds:
            raise r.fail("", "says neither counter/reaches nor rounds = true")
        if by_rounds and rounds is None:
            raise r.fail("rounds", "= true needs [game] rounds")
        if counter is not None and reaches is not None:
            c = next(c for c in counters if c.id == counter)
            if not c.min <= reaches <= c.max:
                raise r.fail("reaches", f"= {reaches} can never be reached: {counter} goes from {c.min} to {c.max}")
            if reaches == c.start:
                raise r.fail("reaches", f"= {reaches} is where {counter} starts, so the game would end at once; "
                                        "use another value")
        ends.append(EndSpec(counter, reaches, by_rounds))
    if rounds is not None and not any(e.rounds for e in ends):
        ends.append(EndSpec(None, None, True))

    w = _Reader(path, "[winner] ", top.get("winner", dict, {}))
    wc = w.get("counter", str, ids[0] if ids else None)
    order = w.get("order", str, "highest", choices=("highest", "lowest"))
    w.done()
    if wc is not None and wc not in ids:
        raise w.fail("counter", f"= {wc!r} is not a counter id ({', '.join(ids) or 'none'})")
    clock = _clock(path, top.get("clock", dict, {}))
    top.done()
    if not ends:
        raise GameFileError(f"{path}: the game never ends: add [game] rounds or an [[end]] with counter and reaches")
    return GameSpec(gid, name, description, lo, hi, default, first, die, rotate, rounds, tuple(phases),
                    tuple(counters), tuple(ends), wc, order, path, clock)


def _clock(path: Path, table: dict[str, Any]) -> str:
    """``[clock]``: mode (none, sudden, fischer, bronstein, delay, byoyomi), main, increment/delay/period,
    periods, warn — seconds."""
    try:
        return ClockSpec.from_table(table).text
    except ClockSpecError as e:
        raise GameFileError(f"{path}: {e}") from None
