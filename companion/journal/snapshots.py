"""The resume snapshots' rows: a game's state at input n (with the chained hash it was taken at and the code
version), and the undo history's chunks it refers to, stored once each by digest. What a snapshot holds is the
session's business (:mod:`companion.session.snapshot`); this module only keeps the rows and prunes old ones."""
from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass

KEEP = 2  #: snapshots kept per game (the latest, and one before it should the latest be damaged)


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


@dataclass(frozen=True)
class SnapshotRow:
    game: int
    n: int  #: the input it was taken after
    hash: str  #: that input's chained hash: the snapshot is only used while the chain still says the same
    code: str  #: the code version it was taken by
    digest: str  #: of ``state``
    state: bytes
    chunks: list[str]  #: the undo chunks it refers to, by digest


def save(db: sqlite3.Connection, row: SnapshotRow, new_chunks: dict[str, bytes]) -> None:
    """Store a snapshot and the chunks not stored yet, and drop the snapshots (and chunks) no longer kept: in the
    caller's transaction."""
    for d, data in new_chunks.items():
        db.execute("INSERT OR IGNORE INTO undo_chunks (game, digest, data) VALUES (?,?,?)", (row.game, d, data))
    db.execute("INSERT OR REPLACE INTO snapshots (game, n, hash, code, digest, state, chunks) VALUES (?,?,?,?,?,?,?)",
               (row.game, row.n, row.hash, row.code, row.digest, row.state, json.dumps(row.chunks)))
    old = db.execute("SELECT n FROM snapshots WHERE game=? ORDER BY n DESC LIMIT -1 OFFSET ?",
                     (row.game, KEEP)).fetchall()
    if old:
        db.execute("DELETE FROM snapshots WHERE game=? AND n<=?", (row.game, old[0][0]))
        used: set[str] = set()
        for (chunks,) in db.execute("SELECT chunks FROM snapshots WHERE game=?", (row.game,)):
            used.update(json.loads(chunks))
        for (d,) in db.execute("SELECT digest FROM undo_chunks WHERE game=?", (row.game,)).fetchall():
            if d not in used:
                db.execute("DELETE FROM undo_chunks WHERE game=? AND digest=?", (row.game, d))


def latest(db: sqlite3.Connection, game: int, upto: int) -> list[SnapshotRow]:
    """The game's snapshots taken at or before input ``upto``, newest first."""
    out = []
    for g, n, h, code, dg, state, chunks in db.execute(
            "SELECT game, n, hash, code, digest, state, chunks FROM snapshots WHERE game=? AND n<=? ORDER BY n DESC",
            (game, upto)):
        try:
            out.append(SnapshotRow(g, n, str(h), str(code), str(dg), bytes(state), list(json.loads(chunks))))
        except (ValueError, TypeError):
            continue  # a damaged row: an older one, or the full replay
    return out


def chunk_digests(db: sqlite3.Connection, game: int) -> set[str]:
    return {str(r[0]) for r in db.execute("SELECT digest FROM undo_chunks WHERE game=?", (game,))}


def chunk(db: sqlite3.Connection, game: int, d: str) -> bytes | None:
    row = db.execute("SELECT data FROM undo_chunks WHERE game=? AND digest=?", (game, d)).fetchone()
    return None if row is None else bytes(row[0])


__all__ = ["SnapshotRow", "save", "latest", "chunk", "chunk_digests", "digest"]
