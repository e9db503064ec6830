"""The journal: every input of every game, committed to SQLite before the screen changes.

WAL mode with ``synchronous=FULL``: a commit is on the disk when :meth:`Journal.commit` returns, so pulling the
plug loses at most the press in flight. A game is rebuilt by replaying its inputs (see :mod:`companion.session`);
the physical dice history is kept beside them for the fairness monitor.
"""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator

from .config import default_journal_path
from .errors import JournalError

SCHEMA_VERSION = 1
APP_ID = 0x53434D50  # "SCMP"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    title    TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    seed     INTEGER NOT NULL,
    setup    TEXT NOT NULL,
    status   TEXT NOT NULL DEFAULT 'active',
    summary  TEXT NOT NULL DEFAULT ''
);
CREATE TABLE IF NOT EXISTS inputs (
    game  INTEGER NOT NULL REFERENCES games(id),
    n     INTEGER NOT NULL,
    t     REAL NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rolls (
    id      INTEGER PRIMARY KEY,
    t       REAL NOT NULL,
    game    INTEGER,
    roller  TEXT NOT NULL,
    source  TEXT NOT NULL,
    die     TEXT NOT NULL,
    value   INTEGER NOT NULL,
    player  INTEGER,
    purpose TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS rolls_by_die ON rolls (roller, die);
"""


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


class Journal:
    """One SQLite file holding every saved game."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_journal_path()
        if str(self.path) != ":memory:":
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise JournalError(f"cannot create the journal folder {self.path.parent}: {e.strerror}") from None
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            app_id = self.db.execute("PRAGMA application_id").fetchone()[0]
            tables = self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if app_id not in (0, APP_ID) or (app_id == 0 and tables):
                raise JournalError(f"{self.path} is not a companion journal; use another --journal path")
            self.db.executescript(_SCHEMA)
            self.db.execute(f"PRAGMA application_id={APP_ID}")
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except sqlite3.DatabaseError as e:
            raise JournalError(f"cannot open the journal {self.path}: {e}; move the file away to start afresh") \
                from None

    def close(self) -> None:
        try:
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        self.db.close()

    # ------------------------------------------------------------------ games
    def new_game(self, game: str, title: str, seed: int, setup: dict[str, Any]) -> int:
        now = time.time()
        cur = self.db.execute("INSERT INTO games (game, title, created, updated, seed, setup) VALUES (?,?,?,?,?,?)",
                              (game, title, now, now, seed, json.dumps(setup, sort_keys=True)))
        return int(cur.lastrowid or 0)

    def game(self, game_id: int) -> GameRecord:
        row = self.db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            raise JournalError(f"no saved game {game_id} in {self.path}; 'companion run' lists the saved games")
        return _record(row)

    def games(self, status: str | None = None) -> list[GameRecord]:
        q = "SELECT * FROM games" + (" WHERE status=?" if status else "") + " ORDER BY updated DESC, id DESC"
        return [_record(r) for r in self.db.execute(q, (status,) if status else ())]

    def latest_active(self) -> GameRecord | None:
        rows = self.games("active")
        return rows[0] if rows else None

    def set_status(self, game_id: int, status: str, summary: str | None = None) -> None:
        if summary is None:
            self.db.execute("UPDATE games SET status=?, updated=? WHERE id=?", (status, time.time(), game_id))
        else:
            self.db.execute("UPDATE games SET status=?, summary=?, updated=? WHERE id=?",
                            (status, summary, time.time(), game_id))

    # ------------------------------------------------------------------ inputs
    def commit(self, game_id: int, n: int, event: str, rolls: Iterable[RollRecord] = (), summary: str | None = None,
               t: float | None = None) -> None:
        """Write input number ``n`` of a game (and any dice it produced) in one durable transaction."""
        t = time.time() if t is None else t
        with _transaction(self.db):
            self.db.execute("INSERT INTO inputs (game, n, t, event) VALUES (?,?,?,?)", (game_id, n, t, event))
            for r in rolls:
                self.db.execute("INSERT INTO rolls (t, game, roller, source, die, value, player, purpose) "
                                "VALUES (?,?,?,?,?,?,?,?)",
                                (t, game_id, r.roller, r.source, r.die, r.value, r.player, r.purpose))
            if summary is None:
                self.db.execute("UPDATE games SET updated=? WHERE id=?", (t, game_id))
            else:
                self.db.execute("UPDATE games SET updated=?, summary=? WHERE id=?", (t, summary, game_id))

    def inputs(self, game_id: int) -> Iterator[tuple[int, float, str]]:
        yield from self.db.execute("SELECT n, t, event FROM inputs WHERE game=? ORDER BY n", (game_id,))

    def count_inputs(self, game_id: int) -> int:
        return int(self.db.execute("SELECT count(*) FROM inputs WHERE game=?", (game_id,)).fetchone()[0])

    def record_rolls(self, rolls: Iterable[RollRecord], game_id: int | None = None) -> None:
        """Rolls that arrived outside a game (they still count for fairness)."""
        with _transaction(self.db):
            for r in rolls:
                self.db.execute("INSERT INTO rolls (t, game, roller, source, die, value, player, purpose) "
                                "VALUES (?,?,?,?,?,?,?,?)",
                                (time.time(), game_id, r.roller, r.source, r.die, r.value, r.player, r.purpose))

    # ------------------------------------------------------------------ dice
    def physical_rolls(self) -> dict[tuple[str, str], list[int]]:
        """(roller name, die) → every physical face value, oldest first. Typed dice count under "typed"."""
        out: dict[tuple[str, str], list[int]] = {}
        for roller, die, value in self.db.execute(
                "SELECT roller, die, value FROM rolls WHERE source IN ('roller', 'typed') ORDER BY id"):
            out.setdefault((roller, die), []).append(value)
        return out


class _transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        self.db.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _record(row: tuple[Any, ...]) -> GameRecord:
    gid, game, title, created, updated, seed, setup, status, summary = row
    return GameRecord(gid, game, title, created, updated, seed, json.loads(setup), status, summary)


__all__ = ["Journal", "GameRecord", "RollRecord", "default_journal_path"]
