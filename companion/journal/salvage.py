"""Damaged journals: what is readable (`companion journal check`) and copying every game's readable, verified inputs
into a new journal (`companion journal salvage`). (At start-up a damaged journal is kept aside under a dated name so
the box starts with a fresh one: :mod:`companion.journal.boot`.)

A damaged journal is never written to here: check and salvage open it read-only.
"""
from __future__ import annotations

import json
import logging
import sqlite3
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import JournalDamagedError, JournalError, NotAJournalError, one_line
from companion.journal import schema, walscan, witness
from companion.journal.chain import row_problem
from companion.journal.guard import disk_full, looks_like_a_journal, sqlite_error
from companion.journal.reading import open_checked, regular_file
from companion.journal.store import ChainBreak, Journal, chain_hash, genesis_hash
from companion.journal.walscan import WalDamage
from companion.journal.witness import Loss

#: `companion journal check` exit codes (2 is every CompanionError: no file, not a journal, cannot be read)
CHECK_SOUND, CHECK_DAMAGED, CHECK_LOST = 0, 1, 3

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
    genesis: str = ""  #: the genesis hash of the game's number, game, seed and set-up as stored
    stored: int | None = None  #: inputs SQLite counts for the game (None: unreadable)
    brk: ChainBreak | None = None
    problem: str | None = None  #: why the game's row cannot be played (its game, seed or set-up is damaged)

    def line(self, path: Path) -> str:
        title, status = (v if isinstance(v, str) else f"damaged: {one_line(repr(v), 24)}"
                         for v in (self.title, self.status))
        head = f"game {self.id} ({one_line(title, 60)}, {one_line(status, 24)}): "
        if self.problem is not None:
            return head + f"its row is damaged ({self.problem}), not its inputs: it cannot be replayed, and a " \
                "resume or salvage leaves it out"
        if self.brk is None:
            return head + f"{len(self.rows)} inputs, all verified"
        good = f"inputs 1..{len(self.rows)} verified" if self.rows else "no input verified"
        lost = ""  # what a resume or salvage will not keep
        if self.stored is not None and self.stored > len(self.rows):
            lost = f"; {self.stored - len(self.rows)} of its {self.stored} saved inputs are not kept"
        return head + f"{good}; input {self.brk.n} {self.brk.reason}{lost}"


@dataclass
class CheckReport:
    path: Path
    sqlite: str | None  #: None: SQLite's quick check is happy
    games: list[GameCheck]
    error: str | None = None  #: the games table itself could not be read
    losses: list[Loss] = field(default_factory=list)  #: inputs the head witness saw saved that are gone
    note: str | None = None  #: a line about the check itself (read while the disk is full)

    wal: WalDamage | None = None  #: saved transactions a damaged -wal holds past its damage (SQLite drops them)

    @property
    def sound(self) -> bool:
        return self.sqlite is None and self.error is None and all(g.brk is None and g.problem is None
                                                                  for g in self.games)

    @property
    def status(self) -> int:
        """The exit code: 3 when saved inputs are lost, 1 when damaged, 0 when all verifies."""
        return CHECK_LOST if self.losses or self.wal else CHECK_SOUND if self.sound else CHECK_DAMAGED

    def lines(self) -> list[str]:
        out = [f"{self.path}: " + ("SQLite finds the file sound" if self.sqlite is None
                                   else f"SQLite reports damage: {self.sqlite}")]
        if self.error:
            out.append(f"the list of games cannot be read: {self.error}")
        out += [g.line(self.path) for g in self.games]
        if not self.games and not self.error:
            out.append("no saved games")
        out += [loss.message(self.path) for loss in self.losses]
        if self.wal is not None:
            out.append(self.wal.message())
        if self.note:
            out.append(self.note)
        return out


def check(path: Path) -> CheckReport:
    """Read every game of a journal without writing to it: what verifies, and where each game breaks."""
    regular_file(path)
    if not looks_like_a_journal(path):
        raise NotAJournalError(f"{path} is not a companion journal (nor any SQLite file); check the path")
    wal = walscan.scan(path)  # before SQLite reads the -wal: what it will drop
    with ExitStack() as stack:
        try:
            db, note = open_checked(path, stack, keep_index=wal is not None)
        except JournalDamagedError as e:  # damaged past opening: the head witness still says what was saved
            why = str(e).split(" is damaged (", 1)[-1].split(");", 1)[0]
            return CheckReport(path, why, [], f"the file cannot be opened ({why})", losses=_losses(path, []),
                               wal=wal)
        report = _read(db, path, note)
        report.wal = wal
        return report


def _read(db: sqlite3.Connection, path: Path, note: str | None) -> CheckReport:
    """SQLite's quick check, then every game of an open journal."""
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
        quick = None if rows and rows[0][0] == "ok" else (" ".join(str(rows[0][0]).split()) if rows
                                                           else "no answer")  # one line, though it spans two
    except sqlite3.Error as e:
        if disk_full(path):  # a full disk is no damage: say so, as play and run do
            raise sqlite_error(e, path, "check the journal") from None
        quick = str(e)
    try:
        if quick is None and not db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
            return CheckReport(path, None, [], losses=_losses(path, []), note=note)  # not yet created
        if quick is None and (refusal := schema.problem(db, path)) is not None:
            raise refusal  # what play and run say of this file, and they refuse it too
        games = db.execute("SELECT id, game, title, status, seed, setup, created, summary FROM games "
                           "ORDER BY id").fetchall()
    except sqlite3.Error as e:  # the games cannot be listed: nothing can be said of what the witness saw
        return CheckReport(path, quick or one_line(str(e)), [], one_line(str(e)), note=note)
    out = [_check_game(db, GameCheck(*g)) for g in games]
    return CheckReport(path, quick, out, losses=_losses(path, out), note=note)


def _losses(path: Path, games: list[GameCheck]) -> list[Loss]:
    """The inputs the head witness saw committed beyond each game's verified inputs (or of a game gone)."""
    have = {g.id: g for g in games}
    damaged = {g.id for g in games if g.problem is not None}  # blamed on their rows, not on the -wal
    heads = witness.read(path, lambda gid: have[gid].genesis if gid in have else None, skip=damaged) or {}
    out = []
    for gid, head in sorted(heads.items()):
        g = have.get(gid)
        kept = len(g.rows) if g is not None else 0
        if head.n > kept and (g is None or g.brk is None or g.stored is None or g.stored < head.n):
            out.append(Loss(gid, kept + 1, head.n, kept))
    return out


def _check_game(db: sqlite3.Connection, g: GameCheck) -> GameCheck:
    g.problem = row_problem(g.game, g.seed, g.setup_text)
    try:
        g.stored = int(db.execute("SELECT count(*) FROM inputs WHERE game=?", (g.id,)).fetchone()[0])
    except sqlite3.Error:
        g.stored = None
    prev = genesis_hash(g.id, str(g.game), g.seed, str(g.setup_text))
    g.genesis = prev
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


def salvage(path: Path, out: Path, refused: list[str] | None = None) \
        -> tuple[CheckReport, list[tuple[int, int, int]]]:
    """Copy every game's verified prefix into a new journal at ``out``: (report, [(old id, new id, inputs)]).
    A game whose first input fails its hash is left out; ``refused`` gets a line for each."""
    if out.exists():
        raise JournalError(f"{out} already exists; salvage writes a new journal: choose another -o path")
    if out.resolve() == path.resolve():
        raise JournalError("salvage never writes over the damaged journal: give -o another path")
    report = check(path)
    refused = [] if refused is None else refused
    copied: list[tuple[int, int, int]] = []
    new = Journal(out)
    try:
        for g in report.games:
            try:
                setup = json.loads(g.setup_text)
            except (ValueError, TypeError):
                log.warning("game %d: its set-up cannot be read; left out", g.id)
                continue
            if g.brk is not None and g.brk.n == 1 and g.stored:
                # the first input does not chain to the game's number, seed and set-up as stored: one of them was
                # edited or damaged, and a copy would replay another game under the old name
                print_line = (f"game {g.id}: its seed, set-up or first input fails its hash check; not copied "
                              "(a copy would replay a different game)")
                log.warning("%s", print_line)
                refused.append(print_line)
                continue
            gid = new.new_game(str(g.game), str(g.title), int(g.seed), setup, created=g.created)
            n = new.append_inputs(gid, [(t, e) for _n, t, e in g.rows])
            status = g.status if g.brk is None else "active"
            new.set_status(gid, status, g.summary)
            copied.append((g.id, gid, n))
    finally:
        new.close()
    return report, copied


__all__ = ["check", "salvage", "CheckReport", "GameCheck"]
