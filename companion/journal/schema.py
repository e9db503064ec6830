"""The journal's tables, and the one test of "is this a companion journal this companion can open" that
``Journal`` (play, run) and ``journal check`` both apply, so the two never disagree about a file.

Version 3 adds the resume snapshots (``snapshots``, ``undo_chunks``); an older journal gains them when opened.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path

from companion.errors import JournalDamagedError, JournalError
from companion.journal.chain import chain_hash, genesis_hash
from companion.journal.guard import damaged_advice

SCHEMA_VERSION = 3  #: 2: inputs carry a hash chained to the previous input of their game; 3: resume snapshots
APP_ID = 0x53434D50  # "SCMP"

_TABLES = ("games", "inputs", "rolls")  #: every version's tables
_NEW_TABLES = ("snapshots", "undo_chunks")  #: version 3's
#: the columns each table must have (a table with fewer was edited: SQLite would refuse the companion's writes)
COLUMNS = {
    "games": {"id", "game", "title", "created", "updated", "seed", "setup", "status", "summary"},
    "inputs": {"game", "n", "t", "event", "hash"},
    "rolls": {"id", "t", "game", "roller", "source", "die", "value", "player", "purpose"},
    "snapshots": {"game", "n", "hash", "code", "digest", "state", "chunks"},
    "undo_chunks": {"game", "digest", "data"},
}
_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    game     TEXT NOT NULL,
    title    TEXT NOT NULL,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    seed     INTEGER NOT NULL,
    setup    TEXT NOT NULL,
    status   TEXT NOT NULL DEFAULT 'active',
    summary  TEXT NOT NULL DEFAULT ''
)""",
    """CREATE TABLE IF NOT EXISTS inputs (
    game  INTEGER NOT NULL REFERENCES games(id),
    n     INTEGER NOT NULL,
    t     REAL NOT NULL,
    event TEXT NOT NULL,
    hash  TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game, n)
) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS rolls (
    id      INTEGER PRIMARY KEY,
    t       REAL NOT NULL,
    game    INTEGER,
    roller  TEXT NOT NULL,
    source  TEXT NOT NULL,
    die     TEXT NOT NULL,
    value   INTEGER NOT NULL,
    player  INTEGER,
    purpose TEXT NOT NULL DEFAULT ''
)""",
    "CREATE INDEX IF NOT EXISTS rolls_by_die ON rolls (roller, die)",
    """CREATE TABLE IF NOT EXISTS snapshots (
    game   INTEGER NOT NULL,
    n      INTEGER NOT NULL,
    hash   TEXT NOT NULL,
    code   TEXT NOT NULL,
    digest TEXT NOT NULL,
    state  BLOB NOT NULL,
    chunks TEXT NOT NULL,
    PRIMARY KEY (game, n)
) WITHOUT ROWID""",
    """CREATE TABLE IF NOT EXISTS undo_chunks (
    game   INTEGER NOT NULL,
    digest TEXT NOT NULL,
    data   BLOB NOT NULL,
    PRIMARY KEY (game, digest)
) WITHOUT ROWID""",
)


def _names(db: sqlite3.Connection) -> set[str]:
    return {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}


def problem(db: sqlite3.Connection, path: Path | str) -> JournalError | None:
    """Why this file cannot be used as a journal (the error ``play`` and ``check`` both give), or None."""
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    names = _names(db)
    if app_id not in (0, APP_ID) or (app_id == 0 and not _our_empty_tables(db, names)):
        return JournalError(f"{path} is not a companion journal; check the path, or use another --journal")
    if version > SCHEMA_VERSION:
        return JournalError(f"{path} was written by a newer companion (journal version {version}); update the "
                            "companion to open it")
    if app_id == 0:
        return None  # empty, or cut off while being created: made afresh
    wanted = _TABLES + (_NEW_TABLES if version >= 3 else ())
    for table in wanted:
        if table not in names:
            return JournalDamagedError(f"{path} is damaged: its table '{table}' is missing; {damaged_advice(path)}")
        have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
        missing = COLUMNS[table] - have - ({"hash"} if table == "inputs" and version < 2 else set())
        if missing:
            return JournalDamagedError(f"{path} is damaged: its table '{table}' lacks {', '.join(sorted(missing))}; "
                                       f"{damaged_advice(path)}")
    return None


def prepare(db: sqlite3.Connection, path: Path | str) -> None:
    """Create the tables, or bring an older journal up to date, in the caller's transaction; refuse a file that
    is no journal, a newer one, or one missing a table (recreating it empty would hide the loss)."""
    err = problem(db, path)
    if err is not None:
        raise err
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version == SCHEMA_VERSION:
        return
    for stmt in _SCHEMA:
        db.execute(stmt)
    columns = {r[1] for r in db.execute("PRAGMA table_info(inputs)")}
    if "hash" not in columns:  # a version 1 journal: its inputs get their hashes now
        db.execute("ALTER TABLE inputs ADD COLUMN hash TEXT NOT NULL DEFAULT ''")
        _hash_all(db)
    db.execute(f"PRAGMA application_id={APP_ID}")
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def is_current(db: sqlite3.Connection) -> bool:
    app_id = db.execute("PRAGMA application_id").fetchone()[0]
    version = db.execute("PRAGMA user_version").fetchone()[0]
    return bool(app_id == APP_ID and version == SCHEMA_VERSION)


def _our_empty_tables(db: sqlite3.Connection, names: set[str]) -> bool:
    """An older companion created the tables and the application id in separate commits: a file cut off in
    between holds only our tables, empty. That is a journal too."""
    if not names:
        return True
    if not names <= set(_TABLES) | set(_NEW_TABLES) | {"rolls_by_die"}:
        return False
    return all(db.execute(f"SELECT count(*) FROM {t}").fetchone()[0] == 0 for t in _TABLES if t in names)


def _hash_all(db: sqlite3.Connection) -> None:
    for gid, game, seed, setup in db.execute("SELECT id, game, seed, setup FROM games").fetchall():
        prev = genesis_hash(gid, str(game), seed, str(setup))
        for n, t, event in db.execute("SELECT n, t, event FROM inputs WHERE game=? ORDER BY n", (gid,)).fetchall():
            prev = chain_hash(prev, n, t, str(event))
            db.execute("UPDATE inputs SET hash=? WHERE game=? AND n=?", (prev, gid, n))


__all__ = ["SCHEMA_VERSION", "APP_ID", "prepare", "problem", "is_current"]
