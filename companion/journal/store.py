"""The journal: every input of every game, committed to SQLite before the screen changes.

WAL mode with ``synchronous=FULL``: a commit is on the disk when :meth:`Journal.commit` returns, so pulling the
plug loses at most the press in flight. A game is rebuilt by replaying its inputs (see :mod:`companion.session.core`);
the physical dice history is kept beside them for the fairness monitor.
"""
from __future__ import annotations

import hmac
import json
import logging
import sqlite3
import time
from pathlib import Path
from typing import Any, Iterable, Iterator

from companion.config.load import default_journal_path
from companion.errors import JournalDamagedError, JournalError
from companion.journal import schema, snapshots, walscan, witness
from companion.journal.chain import ChainBreak, GameRecord, RollRecord, _record, chain_hash, genesis_hash, row_problem
from companion.journal.guard import InstanceLock, sqlite_error, usable_path
from companion.journal.schema import APP_ID, SCHEMA_VERSION
from companion.journal.witness import Head, Loss, Witness

log = logging.getLogger(__name__)

#: the write-ahead log is folded into the main file once it holds this many pages (SQLite's default is 1,000,
#: about 4 MB): a few presses' worth (about 6), so a damaged -wal can lose (and report) only those, and a small disk holds it
WAL_PAGES = 24
#: a new journal's page: a press changes a few rows on three or four pages, and the -wal writes whole pages, so small
#: pages write (and wear the SD card) a quarter of SQLite's 4 KiB default
PAGE_SIZE = 1024
#: and the -wal file is cut back to this size after it is folded in (it is reused, not regrown, between checkpoints)
WAL_LIMIT = 64 * 1024


class Journal:
    """One SQLite file holding every saved game.

    ``lock=True`` (``companion run``/``sim``/``play``) takes the instance lock first, so two processes never write
    one journal. Every SQLite error becomes a :class:`~companion.errors.JournalError` with one plain line.
    """

    def __init__(self, path: str | Path | None = None, *, lock: bool = False) -> None:
        self.path = Path(path) if path is not None else default_journal_path()
        self._lock: InstanceLock | None = None
        self._last: dict[int, tuple[int, str]] = {}  # game → (last input number, its hash)
        self.losses: dict[int, Loss] = {}  #: inputs the head witness saw saved that are gone (see witness.py)
        self._witness: Witness | None = None
        self._heads: dict[int, Head] = {}  # what the witness held at open
        self._geneses: dict[int, str] = {}
        #: committed transactions a damaged -wal held past its damage (read before SQLite dropped them) and the copy
        #: of the journal kept as it was then
        self.wal_damage: walscan.WalDamage | None = None
        self.wal_copy: Path | None = None
        self.unreadable: dict[int, str] = {}  #: games whose row cannot be played, by number: why (left out)
        memory = str(self.path) == ":memory:"
        if not memory:
            usable_path(self.path)
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise JournalError(f"cannot create the journal folder {self.path.parent}: {e.strerror}; check the "
                                   "path and the folder's permissions") from None
            if lock:
                self._lock = InstanceLock(self.path)
                self._lock.acquire()
            self.wal_damage, self.wal_copy = walscan.before_open(self.path)
        try:
            self.db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:
            self._release()
            raise sqlite_error(e, self.path, "open the journal") from None
        try:
            self.db.execute("PRAGMA busy_timeout=2000")
            self.db.execute(f"PRAGMA page_size={PAGE_SIZE}")  # only a new file takes it (before its first table)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
            self.db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            self._prepare()
            if not memory:  # (a game whose row is damaged is blamed on its row, not on the -wal: left out here)
                damaged = {gid for gid, game, seed, setup in self.db.execute("SELECT id, game, seed, setup FROM games")
                           if row_problem(game, seed, setup) is not None}
                self._heads = witness.read(self.path, self._genesis, skip=damaged) or {}
                self.losses = witness.compare(self.db, self.path, self._heads)
        except sqlite3.Error as e:
            self.db.close()
            self._release()
            raise sqlite_error(e, self.path, "open the journal") from None
        except BaseException:
            self.db.close()
            self._release()
            raise
        if not memory:
            self._witness = Witness(self.path, {g: h for g, h in self._heads.items() if g not in self.losses})

    def _prepare(self) -> None:
        """Create the tables, or bring an older journal up to date — in one transaction, so no instant of a
        power cut or a full disk leaves a half-made file. A current journal is only checked (a dropped table)."""
        if schema.is_current(self.db):
            err = schema.problem(self.db, self.path)
            if err is not None:
                raise err
            return
        with _transaction(self.db):
            schema.prepare(self.db, self.path)

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    def close(self, *, checkpoint: bool = True) -> None:
        """Close (and fold the WAL into the file, unless ``checkpoint`` is False: a damaged file is left as it is)."""
        if checkpoint:
            try:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
        self.db.close()
        if self._witness is not None:
            self._witness.close()
        self._release()

    def _saw(self, game_id: int, n: int, digest: str) -> None:
        """After a commit returned: the head witness and the cache of each game's last hash."""
        self._last[game_id] = (n, digest)
        self.losses.pop(game_id, None)  # the game plays on from what was kept (the loss was reported at open)
        if self._witness is not None:
            try:
                genesis = self._genesis(game_id)
            except sqlite3.Error:
                genesis = ""
            self._witness.set(game_id, Head(n, digest, genesis))

    def _fail(self, e: sqlite3.Error, what: str) -> JournalError:
        return sqlite_error(e, self.path, what)

    # ------------------------------------------------------------------ games
    def new_game(self, game: str, title: str, seed: int, setup: dict[str, Any], *, created: float | None = None) \
            -> int:
        now = time.time()
        try:
            cur = self.db.execute("INSERT INTO games (game, title, created, updated, seed, setup) VALUES (?,?,?,?,?,?)",
                                  (game, title, now if created is None else created, now, seed,
                                   json.dumps(setup, sort_keys=True)))
        except sqlite3.Error as e:
            raise self._fail(e, "start a new game") from None
        return int(cur.lastrowid or 0)

    def game(self, game_id: int) -> GameRecord:
        try:
            row = self.db.execute("SELECT * FROM games WHERE id=?", (game_id,)).fetchone()
        except sqlite3.Error as e:
            raise self._fail(e, f"read saved game {game_id}") from None
        if row is None:
            raise JournalError(f"no saved game {game_id} in {self.path}; 'companion run' lists the saved games")
        return self._record(row)

    def games(self, status: str | None = None) -> list[GameRecord]:
        q = "SELECT * FROM games" + (" WHERE status=?" if status else "") + " ORDER BY updated DESC, id DESC"
        try:
            rows = self.db.execute(q, (status,) if status else ()).fetchall()
        except sqlite3.Error as e:
            raise self._fail(e, "list the saved games") from None
        out = []
        for r in rows:  # one unreadable game must not hide the others (nor stop the box starting)
            try:
                out.append(self._record(r))
            except JournalDamagedError as e:
                log.debug("%s", e)  # said by whoever lists the games for a person (run, play, export)
                self.unreadable[r[0]] = str(e)
        return out

    def latest_active(self) -> GameRecord | None:
        rows = self.games("active")
        return rows[0] if rows else None

    def set_status(self, game_id: int, status: str, summary: str | None = None) -> None:
        try:
            if summary is None:
                self.db.execute("UPDATE games SET status=?, updated=? WHERE id=?", (status, time.time(), game_id))
            else:
                self.db.execute("UPDATE games SET status=?, summary=?, updated=? WHERE id=?",
                                (status, summary, time.time(), game_id))
        except sqlite3.Error as e:
            raise self._fail(e, "save the game's status") from None

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        try:
            return _record(row)
        except (ValueError, TypeError) as e:
            raise JournalDamagedError(f"saved game {row[0]} in {self.path} cannot be read ({e}): it is left out; "
                                      f"'companion journal check {self.path}' says what is readable") from None

    # ------------------------------------------------------------------ inputs
    def commit(self, game_id: int, n: int, event: str, rolls: Iterable[RollRecord] = (), summary: str | None = None,
               t: float | None = None) -> None:
        """Write input number ``n`` of a game (and any dice it produced) in one durable transaction."""
        t = float(time.time() if t is None else t)
        try:
            prev = self._prev_hash(game_id, n)
            digest = chain_hash(prev, n, t, event)
            with _transaction(self.db):
                self.db.execute("INSERT INTO inputs (game, n, t, event, hash) VALUES (?,?,?,?,?)",
                                (game_id, n, t, event, digest))
                for r in rolls:
                    self.db.execute("INSERT INTO rolls (t, game, roller, source, die, value, player, purpose) "
                                    "VALUES (?,?,?,?,?,?,?,?)",
                                    (t, game_id, r.roller, r.source, r.die, r.value, r.player, r.purpose))
                if summary is None:
                    self.db.execute("UPDATE games SET updated=? WHERE id=?", (t, game_id))
                else:
                    self.db.execute("UPDATE games SET updated=?, summary=? WHERE id=?", (t, summary, game_id))
        except sqlite3.Error as e:
            raise self._fail(e, "save that press") from None
        self._saw(game_id, n, digest)

    def append_inputs(self, game_id: int, rows: Iterable[tuple[float, str]]) -> int:
        """Append many inputs in one transaction (salvage, benchmarks); returns the last input number."""
        n = self.count_inputs(game_id)
        try:
            prev = self._prev_hash(game_id, n + 1)
            with _transaction(self.db):
                for t, event in rows:
                    n += 1
                    prev = chain_hash(prev, n, float(t), event)
                    self.db.execute("INSERT INTO inputs (game, n, t, event, hash) VALUES (?,?,?,?,?)",
                                    (game_id, n, float(t), event, prev))
        except sqlite3.Error as e:
            self._last.pop(game_id, None)
            raise self._fail(e, "copy the inputs") from None
        if n:
            self._saw(game_id, n, prev)
        return n

    def _prev_hash(self, game_id: int, n: int) -> str:
        last = self._last.get(game_id)
        if last is not None and last[0] == n - 1:
            return last[1]
        if n == 1:
            return self._genesis(game_id)
        row = self.db.execute("SELECT hash FROM inputs WHERE game=? AND n=?", (game_id, n - 1)).fetchone()
        return str(row[0]) if row is not None else ""

    def _genesis(self, game_id: int) -> str:
        if game_id in self._geneses:
            return self._geneses[game_id]
        row = self.db.execute("SELECT game, seed, setup FROM games WHERE id=?", (game_id,)).fetchone()
        if row is None:
            return ""
        self._geneses[game_id] = genesis_hash(game_id, str(row[0]), row[1], str(row[2]))
        return self._geneses[game_id]

    def inputs(self, game_id: int) -> Iterator[tuple[int, float, str]]:
        try:
            rows = self.db.execute("SELECT n, t, event FROM inputs WHERE game=? ORDER BY n", (game_id,)).fetchall()
        except sqlite3.Error as e:
            raise self._fail(e, f"read game {game_id}") from None
        yield from rows

    def verified_inputs(self, game_id: int) -> tuple[list[tuple[int, float, str]], ChainBreak | None]:
        """The inputs of a game up to the first one that fails its check (hash, number, or type), and that break.

        A SQLite read error part-way (a damaged page) is a break too: what was read before it is kept.
        """
        try:
            genesis = self._genesis(game_id)
        except sqlite3.Error as e:
            return [], ChainBreak(game_id, 1, f"cannot be read ({e})")
        return self.verified_from(game_id, 0, genesis)

    def verified_from(self, game_id: int, after: int, prev: str) \
            -> tuple[list[tuple[int, float, str]], ChainBreak | None]:
        """The inputs after number ``after`` whose hash is ``prev`` (a verified snapshot's), checked like
        :meth:`verified_inputs`."""
        out: list[tuple[int, float, str]] = []
        try:
            cur = self.db.execute("SELECT n, t, event, hash FROM inputs WHERE game=? AND n>? ORDER BY n",
                                  (game_id, after))
            for n, t, event, digest in cur:
                want = after + len(out) + 1
                if n != want:
                    return out, ChainBreak(game_id, want, "is missing")
                if not isinstance(t, float) or not isinstance(event, str) or not isinstance(digest, str):
                    return out, ChainBreak(game_id, want, "has a value of the wrong type")
                prev = chain_hash(prev, n, t, event)
                if not hmac.compare_digest(prev, digest):
                    return out, ChainBreak(game_id, want, "does not match its hash")
                out.append((n, t, event))
        except sqlite3.Error as e:
            return out, ChainBreak(game_id, after + len(out) + 1, f"cannot be read ({e})")
        self._last[game_id] = (after + len(out), prev)
        return out, None

    def head(self, game_id: int) -> tuple[int, str] | None:
        """The last input written or verified by this process and its chained hash."""
        return self._last.get(game_id)

    def save_snapshot(self, row: snapshots.SnapshotRow, chunks: dict[str, bytes]) -> None:
        """Store a resume snapshot (see :mod:`companion.journal.snapshots`) in one transaction."""
        try:
            with _transaction(self.db):
                snapshots.save(self.db, row, chunks)
        except sqlite3.Error as e:
            raise self._fail(e, "save the resume snapshot") from None

    def count_inputs(self, game_id: int) -> int:
        try:
            return int(self.db.execute("SELECT count(*) FROM inputs WHERE game=?", (game_id,)).fetchone()[0])
        except sqlite3.Error as e:
            raise self._fail(e, f"read game {game_id}") from None

    def fork(self, record: GameRecord, upto: int, rows: list[tuple[int, float, str]]) -> GameRecord:
        """A copy of a damaged game holding its verified inputs 1..``upto``; the damaged one is marked "damaged"
        and left as it is. Returns the copy, which plays on from there."""
        setup_text = json.dumps(record.setup, sort_keys=True)
        try:
            with _transaction(self.db):
                cur = self.db.execute("INSERT INTO games (game, title, created, updated, seed, setup, summary) "
                                      "VALUES (?,?,?,?,?,?,?)", (record.game, record.title, record.created,
                                                                 time.time(), record.seed, setup_text,
                                                                 record.summary))
                gid = int(cur.lastrowid or 0)
                prev = genesis_hash(gid, record.game, record.seed, setup_text)
                for n, t, event in rows[:upto]:
                    prev = chain_hash(prev, n, t, event)
                    self.db.execute("INSERT INTO inputs (game, n, t, event, hash) VALUES (?,?,?,?,?)",
                                    (gid, n, t, event, prev))
                self.db.execute("UPDATE games SET status='damaged' WHERE id=?", (record.id,))
        except sqlite3.Error as e:
            raise self._fail(e, f"copy game {record.id}") from None
        if upto:
            self._saw(gid, upto, prev)
        return self.game(gid)

    def record_rolls(self, rolls: Iterable[RollRecord], game_id: int | None = None) -> None:
        """Rolls that arrived outside a game (they still count for fairness)."""
        try:
            with _transaction(self.db):
                for r in rolls:
                    self.db.execute("INSERT INTO rolls (t, game, roller, source, die, value, player, purpose) "
                                    "VALUES (?,?,?,?,?,?,?,?)",
                                    (time.time(), game_id, r.roller, r.source, r.die, r.value, r.player, r.purpose))
        except sqlite3.Error as e:
            raise self._fail(e, "save the roll") from None

    # ------------------------------------------------------------------ dice
    def physical_rolls(self) -> dict[tuple[str, str], list[int]]:
        """(roller name, die) → every physical face value, oldest first. Typed dice count under "typed"."""
        out: dict[tuple[str, str], list[int]] = {}
        try:
            rows = self.db.execute(
                "SELECT roller, die, value FROM rolls WHERE source IN ('roller', 'typed') ORDER BY id").fetchall()
        except sqlite3.Error as e:
            raise self._fail(e, "read the dice history") from None
        for roller, die, value in rows:
            out.setdefault((roller, die), []).append(value)
        return out

    def quick_check(self) -> str | None:
        """SQLite's quick integrity check: None when the file is sound, else its first complaint."""
        try:
            rows = self.db.execute("PRAGMA quick_check").fetchall()
        except sqlite3.Error as e:
            return str(e)
        first = " ".join(str(rows[0][0]).split()) if rows else "no answer"  # it may span lines
        return None if first == "ok" else first


class _transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if exc_type is None:
            self.db.execute("COMMIT")
        elif self.db.in_transaction:
            try:
                self.db.execute("ROLLBACK")
            except sqlite3.Error:
                pass  # SQLite already rolled back (e.g. after a full disk); the first error is what matters


__all__ = ["Journal", "GameRecord", "RollRecord", "ChainBreak", "Loss", "chain_hash", "genesis_hash", "APP_ID",
           "SCHEMA_VERSION", "default_journal_path"]
