"""What a journal row is and how inputs are chained: the records, the chain hashes, the first break.

Pure values and hashing; no SQLite here.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str  #: a built-in id or the path of a TOML game
    title: str
    created: float
    updated: float
    seed: int
    setup: dict[str, Any]  #: what the game was created with: config options and name presets
    status: str  #: "active", "finished" or "ended"
    summary: str  #: one line for the resume list


@dataclass(frozen=True)
class RollRecord:
    """One die's face value, physical (roller, typed) or not (rng)."""

    roller: str
    source: str
    die: str
    value: int
    player: int | None = None
    purpose: str = ""


@dataclass(frozen=True)
class ChainBreak:
    """The first input of a game that fails its check: replay stops before it."""

    game: int
    n: int  #: the input number that fails; inputs 1..n-1 are verified
    reason: str

    def message(self, path: Path | str) -> str:
        kept = f"up to input {self.n - 1}" if self.n > 1 else "from its start"
        return (f"game {self.game} in {path}: input {self.n} {self.reason} (the file was edited or damaged); "
                f"the game is kept {kept}")


def chain_hash(prev: str, n: int, t: float, event: str) -> str:
    """The hash of one input, chained to the previous one (or to the game's genesis hash)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"{prev}\n{n}\n{t!r}\n{event}".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def genesis_hash(game_id: int, game: str, seed: int, setup_text: str) -> str:
    """What a game's first input chains to: its number, game, seed and set-up, so none can be swapped either."""
    h = hashlib.blake2b(digest_size=16)
    h.update(f"companion-journal\n{game_id}\n{game}\n{seed}\n{setup_text}".encode("utf-8", "surrogatepass"))
    return h.hexdigest()


def row_problem(game: Any, seed: Any, setup: Any) -> str | None:
    """Why a game's row cannot be played (the fields its genesis hash and replay rest on), in a few words; or None.
    A game row with one of these damaged is blamed on the row (``journal check``) and left out (resume, export)."""
    if not isinstance(game, str) or not game.strip():
        return f"its game is {_what(game)}, not a game id or file"
    if not isinstance(seed, int):
        return f"its seed is {_what(seed)}, not a whole number"
    if not isinstance(setup, str):
        return f"its set-up is {_what(setup)}, not text"
    try:
        value = json.loads(setup)
    except (ValueError, RecursionError):
        return "its set-up is not JSON"
    if not isinstance(value, dict):
        return f"its set-up is {_what(value)}, not a table"
    return None


def _what(v: Any) -> str:
    """A stored value in a message: its kind, and a short repr-safe look at it."""
    if v is None:
        return "null"
    shown = repr(v if not isinstance(v, (bytes, bytearray)) else bytes(v[:16]))
    return f"{type(v).__name__} {shown if len(shown) <= 24 else shown[:21] + '...'}"


def _record(row: tuple[Any, ...]) -> GameRecord:
    gid, game, title, created, updated, seed, setup, status, summary = row
    problem = row_problem(game, seed, setup)
    if problem is not None:
        raise ValueError(problem)
    return GameRecord(int(gid), game, _text(title, "(title damaged)"), _time(created), _time(updated), seed,
                      json.loads(setup), _text(status, "damaged"), _text(summary, ""))


def _text(v: Any, instead: str) -> str:
    """A field only shown (a title, a summary, a status): a damaged one is replaced, not a reason to lose the game."""
    return v if isinstance(v, str) else instead


def _time(v: Any) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0.0


__all__ = ["GameRecord", "RollRecord", "ChainBreak", "chain_hash", "genesis_hash", "row_problem"]
