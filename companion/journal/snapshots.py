"""The resume snapshots' rows: a game's state at input n (with the chained hash it was taken at and the code
version), and the undo history's chunks it refers to, stored once each by digest. What a snapshot holds is the
session's business (:mod:`companion.session.snapshot`); this module only keeps the rows and prunes old ones.

A snapshot is unpickled, and no unpickler that builds the project's classes is safe against crafted bytes (one can
call a transitions Machine's ``dispatch`` with a callback named "os.system"). So each row carries a seal: a digest
keyed with this installation's key (``snapshot.key`` beside the default journal, made on first use, readable only
by its owner), over the game, the input number, the chained hash, the code version, the chunks and the state. A row
whose seal does not match — damaged, edited, moved to another game, or written elsewhere — is not loaded."""
from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

KEEP = 2  #: snapshots kept per game (the latest, and one before it should the latest be damaged)


def digest(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def key_path() -> Path:
    """This installation's snapshot key: beside the default journal (not beside a journal given by path, which
    may come from elsewhere)."""
    from companion.config.load import default_journal_path

    return default_journal_path().with_name("snapshot.key")


def installation_key() -> bytes | None:
    """The key (made on first use); None when it can be neither read nor made (then no snapshot is written or
    used: a resume replays every input)."""
    return load_key()[0]


def load_key() -> tuple[bytes | None, str | None]:
    """The key, and a line when the one there could not be used: a key that is no plain file (a pipe would block
    for ever), cannot be read or is not 32 bytes is moved aside and a new one made (the snapshots it sealed are then
    not used: their games replay in full, and are sealed again as they go)."""
    from companion.config.files import Unusable, read_small, set_aside

    path = key_path()
    try:
        key = read_small(path, 4096)
    except FileNotFoundError:
        return _make(path), None
    except Unusable as e:
        why = str(e)
    else:
        if len(key) == 32:
            return key, None
        why = f"it holds {len(key)} bytes, not 32"
    aside = set_aside(path)
    line = f"the resume snapshots' key {path} could not be used ({why}): " + (
        f"moved aside as {aside.name} and a new one made; saved games replay in full once" if aside else
        "resumes replay every input (move it away)")
    log.warning("%s", line)
    return (_make(path) if aside else None), line


def _make(path: Path) -> bytes | None:
    from companion.config.files import read_small

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, os.urandom(32))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # never over a key another process made meanwhile
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
        key = read_small(path, 4096)
    except OSError as e:
        log.warning("cannot make the resume snapshots' key %s (%s); resumes replay every input", path,
                    getattr(e, "strerror", None) or e)
        return None
    return key if len(key) == 32 else None


def seal(key: bytes, game: int, n: int, chained: str, code: str, chunks: list[str], state: bytes) -> str:
    h = hashlib.blake2b(key=key, digest_size=16)
    h.update(json.dumps([game, n, chained, code, chunks]).encode() + b"\n" + state)
    return h.hexdigest()


def sealed(key: bytes, row: "SnapshotRow") -> bool:
    return hmac.compare_digest(seal(key, row.game, row.n, row.hash, row.code, row.chunks, row.state), row.digest)


@dataclass(frozen=True)
class SnapshotRow:
    game: int
    n: int  #: the input it was taken after
    hash: str  #: that input's chained hash: the snapshot is only used while the chain still says the same
    code: str  #: the code version it was taken by
    digest: str  #: its seal (see :func:`seal`)
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
            if not isinstance(state, bytes) or not isinstance(chunks, str):
                continue
            listed = json.loads(chunks)
            if not isinstance(listed, list) or not all(isinstance(c, str) for c in listed):
                continue
            out.append(SnapshotRow(g, n, str(h), str(code), str(dg), state, listed))
        except (ValueError, TypeError, RecursionError):
            continue  # a damaged row: an older one, or the full replay
    return out


def chunk_digests(db: sqlite3.Connection, game: int) -> set[str]:
    return {str(r[0]) for r in db.execute("SELECT digest FROM undo_chunks WHERE game=?", (game,))}


def chunks_whole(db: sqlite3.Connection, game: int, names: list[str]) -> bool:
    """Every one of the undo chunks ``names`` reads back whole (its bytes hash to its digest): a snapshot needing a
    damaged one is not used (it would load, and fail at every later input that looks back); the game replays."""
    for d in names:
        data = chunk(db, game, d)
        if data is None or digest(data) != d:
            return False
    return True


def chunk(db: sqlite3.Connection, game: int, d: str) -> bytes | None:
    row = db.execute("SELECT data FROM undo_chunks WHERE game=? AND digest=?", (game, d)).fetchone()
    return None if row is None else bytes(row[0])


__all__ = ["SnapshotRow", "save", "latest", "chunk", "chunk_digests", "chunks_whole", "digest", "seal", "sealed",
           "installation_key", "load_key"]
