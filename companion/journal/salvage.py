"""Damaged journals: what is readable (`companion journal check`), copying every game's readable, verified inputs
into a new journal (`companion journal salvage`), and, at start-up, keeping a damaged journal aside under a dated
name so the box starts with a fresh one instead of refusing to start.

A damaged journal is never written to here: check and salvage open it read-only.
"""
from __future__ import annotations

import json
import logging
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import JournalDamagedError, JournalError, NotAJournalError
from companion.journal.store import ChainBreak, Journal, chain_hash, genesis_hash
from companion.journal.guard import looks_like_a_journal, sqlite_error

log = logging.getLogger(__name__)


@dataclass
class GameCheck:
    id: int
    game: str
    title: str
    status: str
    seed: int
    setup_text: str
    created: float
    summary: str
    rows: list[tuple[int, float, str]] = field(default_factory=list)  #: the verified prefix
    stored: int | None = None  #: inputs SQLite counts for the game (None: unreadable)
    brk: ChainBreak | None = None

    def line(self, path: Path) -> str:
        head = f"game {self.id} ({self.title}, {self.status}): "
        if self.brk is None:
            return head + f"{len(self.rows)} inputs, all verified"
        good = f"inputs 1..{len(self.rows)} verified" if self.rows else "no input verified"
        return head + f"{good}; input {self.brk.n} {self.brk.reason}"


@dataclass
class CheckReport:
    path: Path
    sqlite: str | None  #: None: SQLite's quick check is happy
    games: list[GameCheck]
    error: str | None = None  #: the games table itself could not be read

    @property
    def sound(self) -> bool:
        return self.sqlite is None and self.error is None and all(g.brk is None for g in self.games)

    def lines(self) -> list[str]:
        out = [f"{self.path}: " + ("SQLite finds the file sound" if self.sqlite is None
                                   else f"SQLite reports damage: {self.sqlite}")]
        if self.error:
            out.append(f"the list of games cannot be read: {self.error}")
        out += [g.line(self.path) for g in self.games]
        if not self.games and not self.error:
            out.append("no saved games")
        return out


def _open_ro(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise JournalError(f"no journal at {path}; check the path")
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
        db.execute("PRAGMA query_only=1")
        # a schema naming pages past the end (a file cut short) would make every table unreadable; read what is
        # there instead (the connection is read-only: nothing is written)
        db.execute("PRAGMA writable_schema=ON")
        return db
    except sqlite3.Error as e:
        raise sqlite_error(e, path, "open the journal to check it") from None


def check(path: Path) -> CheckReport:
    """Read every game of a journal without writing to it: what verifies, and where each game breaks."""
    if not looks_like_a_journal(path):
        raise NotAJournalError(f"{path} is not a companion journal (nor any SQLite file); check the path")
    db = _open_ro(path)
    try:
        try:
            rows = db.execute("PRAGMA quick_check").fetchall()
            quick = None if rows and rows[0][0] == "ok" else (" ".join(str(rows[0][0]).split()) if rows
                                                               else "no answer")  # one line, though it spans two
        except sqlite3.Error as e:
            quick = str(e)
        try:
            if quick is None and not db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                return CheckReport(path, None, [])  # an empty file: a journal not yet created
            games = db.execute("SELECT id, game, title, status, seed, setup, created, summary FROM games "
                               "ORDER BY id").fetchall()
        except sqlite3.Error as e:
            return CheckReport(path, quick or str(e), [], str(e))
        out = [_check_game(db, GameCheck(*g)) for g in games]
        return CheckReport(path, quick, out)
    finally:
        db.close()


def _check_game(db: sqlite3.Connection, g: GameCheck) -> GameCheck:
    try:
        g.stored = int(db.execute("SELECT count(*) FROM inputs WHERE game=?", (g.id,)).fetchone()[0])
    except sqlite3.Error:
        g.stored = None
    prev = genesis_hash(g.id, str(g.game), g.seed, str(g.setup_text))
    try:
        for n, t, event, digest in db.execute("SELECT n, t, event, hash FROM inputs WHERE game=? ORDER BY n",
                                              (g.id,)):
            want = len(g.rows) + 1
            if n != want:
                g.brk = ChainBreak(g.id, want, "is missing")
                return g
            if not isinstance(t, float) or not isinstance(event, str):
                g.brk = ChainBreak(g.id, want, "has a value of the wrong type")
                return g
            prev = chain_hash(prev, n, t, event)
            if prev != digest:
                g.brk = ChainBreak(g.id, want, "does not match its hash")
                return g
            g.rows.append((n, t, event))
    except sqlite3.Error as e:
        g.brk = ChainBreak(g.id, len(g.rows) + 1, f"cannot be read ({e})")
    return g


def salvage(path: Path, out: Path) -> tuple[CheckReport, list[tuple[int, int, int]]]:
    """Copy every game's verified prefix into a new journal at ``out``: (report, [(old id, new id, inputs)])."""
    if out.exists():
        raise JournalError(f"{out} already exists; salvage writes a new journal: choose another -o path")
    if out.resolve() == path.resolve():
        raise JournalError("salvage never writes over the damaged journal: give -o another path")
    report = check(path)
    copied: list[tuple[int, int, int]] = []
    new = Journal(out)
    try:
        for g in report.games:
            try:
                setup = json.loads(g.setup_text)
            except (ValueError, TypeError):
                log.warning("game %d: its set-up cannot be read; left out", g.id)
                continue
            gid = new.new_game(str(g.game), str(g.title), int(g.seed), setup, created=g.created)
            n = new.append_inputs(gid, [(t, e) for _n, t, e in g.rows])
            status = g.status if g.brk is None else "active"
            new.set_status(gid, status, g.summary)
            copied.append((g.id, gid, n))
    finally:
        new.close()
    return report, copied


def set_aside(path: Path) -> Path:
    """Rename a damaged journal (and its -wal/-shm companions, which hold part of it) to a dated name beside it."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.stem}.damaged-{stamp}{path.suffix}")
    i = 1
    while aside.exists():
        aside = path.with_name(f"{path.stem}.damaged-{stamp}-{i}{path.suffix}")
        i += 1
    for suffix in ("-wal", "-shm"):
        side = Path(str(path) + suffix)
        if side.exists():
            side.rename(Path(str(aside) + suffix))
    path.rename(aside)
    return aside


def open_for_run(path: Path) -> tuple[Journal, str | None]:
    """The journal for `companion run`/`sim`, locked. A damaged one is kept aside under a dated name and a fresh
    one started, so the box always starts; the second value is then the line saying so (for the screen and log)."""
    try:
        journal: Journal | None = Journal(path, lock=True)
    except JournalDamagedError as e:
        log.error("%s", e)
        journal = None
    if journal is not None:
        problem = journal.quick_check()
        if problem is None:
            return journal, None
        log.error("%s: SQLite's check reports %s", path, problem)
        journal.close(checkpoint=False)
    try:
        aside = set_aside(path)
    except OSError as e:
        raise JournalDamagedError(f"{path} is damaged and cannot be moved aside ({e.strerror}); move it away by "
                                  "hand") from None
    line = f"the journal {path} was damaged: kept as {aside.name}, a new one started; " \
           f"'companion journal salvage {aside} -o NEW' recovers its games"
    log.error("%s", line)
    return Journal(path, lock=True), line


__all__ = ["check", "salvage", "set_aside", "open_for_run", "CheckReport", "GameCheck"]
