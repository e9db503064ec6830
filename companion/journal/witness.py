"""The journal's second witness of its head: ``<journal>.head``, the latest input number and chained hash of each
recently written game, kept outside SQLite.

Why: SQLite treats the frames of its write-ahead log after one with a bad checksum as never committed and drops
them without a word (https://www.sqlite.org/fileformat2.html#walformat). Inputs live only in the ``-wal`` until the
next checkpoint, so one flipped byte there would lose saved presses silently. The witness is written (and
fdatasync'd) after each commit returns, so it never runs ahead of what SQLite was told to keep; at open the journal
compares it with its own head and every missing input is reported with its number (see :func:`compare`).

The file is two fixed 512-byte slots written in turn (sequence number, games as JSON, a BLAKE2b digest): a write cut
off by a power cut spoils at most one slot and the other still holds the previous head. It is made once at its
full size, so later writes never need free space (a full disk cannot stop it). It names the journal file's inode and
each game's genesis hash (its number, game, seed and set-up): beside a copy of the journal (new inodes: cp -a, a new
SD card) it still speaks for the games whose genesis the copy holds, and beside a journal that replaced the old one
(even one that reuses its inode) it speaks for none of the other games.
"""
from __future__ import annotations

import errno
import hashlib
import hmac
import json
import logging
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    import sqlite3

log = logging.getLogger(__name__)

SLOT = 512
MAGIC = b"SCHEAD1\n"
KEEP = 6  #: the most recently written games it keeps (older games are long folded into the main file)
GENESIS = 12  #: hex digits of each game's genesis hash kept (to know the game again, not to verify it)


@dataclass(frozen=True)
class Head:
    """What the witness saw last for one game."""

    n: int  #: the latest input number committed
    hash: str  #: that input's chained hash (the game's genesis hash when n == 0)
    genesis: str = ""  #: the start of the game's genesis hash (which game it is, in any copy of the journal)


@dataclass(frozen=True)
class Loss:
    """Inputs the witness saw committed that the journal no longer holds (or holds differently)."""

    game: int
    first: int  #: the first input missing
    last: int  #: the last input the witness saw
    kept: int  #: the inputs the journal still holds for the game (verified up to there)

    @property
    def count(self) -> int:
        return self.last - self.first + 1

    def message(self, path: Path | str) -> str:
        span = f"input {self.first}" if self.first == self.last else f"inputs {self.first}..{self.last}"
        gone = "the whole game" if self.kept == 0 and self.first == 1 else span
        return (f"game {self.game} in {path}: {self.count} saved input{'s' * (self.count != 1)} lost ({gone}: the "
                f"journal or its write-ahead log {Path(str(path) + '-wal').name} was damaged); the game is kept up to "
                f"input {self.kept}")


def witness_path(journal: Path) -> Path:
    return journal.with_name(journal.name + ".head")


def _encode(seq: int, inode: int, games: dict[int, Head]) -> bytes:
    body = json.dumps({"seq": seq, "inode": inode, "games": {str(g): [h.n, h.hash, h.genesis[:GENESIS]] for g, h in games.items()}},
                      separators=(",", ":")).encode()
    body = MAGIC + len(body).to_bytes(4, "big") + body
    digest = hashlib.blake2b(body, digest_size=16).digest()
    if len(body) + len(digest) > SLOT:
        raise ValueError("witness slot overflow")
    return body + b"\0" * (SLOT - len(body) - len(digest)) + digest


def _decode(raw: bytes) -> tuple[int, int, dict[int, Head]] | None:
    if len(raw) != SLOT or not raw.startswith(MAGIC):
        return None
    if hashlib.blake2b(raw[:len(MAGIC) + 4 + int.from_bytes(raw[len(MAGIC):len(MAGIC) + 4], "big")],
                       digest_size=16).digest() != raw[-16:]:
        return None
    size = int.from_bytes(raw[len(MAGIC):len(MAGIC) + 4], "big")
    try:
        doc = json.loads(raw[len(MAGIC) + 4:len(MAGIC) + 4 + size])
        games = {int(g): Head(int(v[0]), str(v[1]), str(v[2]) if len(v) > 2 else "")
                 for g, v in doc["games"].items()}
        return int(doc["seq"]), int(doc["inode"]), games
    except (ValueError, KeyError, TypeError, IndexError):
        return None


def compare(db: "sqlite3.Connection", journal: Path, heads: dict[int, Head]) -> dict[int, Loss]:
    """The inputs the head witness saw committed that the journal no longer holds (a damaged -wal whose frames
    SQLite dropped), by game. Logged here: every opener of the file hears of them."""
    out: dict[int, Loss] = {}
    for gid, head in heads.items():
        if head.n <= 0:
            continue
        row = db.execute("SELECT max(n) FROM inputs WHERE game=?", (gid,)).fetchone()
        have = int(row[0] or 0)
        if have >= head.n:
            got = db.execute("SELECT hash FROM inputs WHERE game=? AND n=?", (gid, head.n)).fetchone()
            if got is not None and hmac.compare_digest(str(got[0]), head.hash):
                continue
            have = head.n - 1  # the input there is not the one saved: the chain's check says the rest
        out[gid] = Loss(gid, have + 1, head.n, have)
        log.error("%s", out[gid].message(journal))
    return out


class NotAFile(OSError):
    """The witness's path is a folder, pipe, device or symbolic link: never read (a pipe would block for ever)
    nor written through."""


def _open(path: Path, flags: int) -> int:
    fd = os.open(path, flags | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise NotAFile(0, "not a regular file")
    return fd


def _unusable(path: Path, e: OSError) -> None:
    if isinstance(e, NotAFile) or e.errno == errno.ELOOP:  # O_NOFOLLOW on a symbolic link
        log.warning("%s is not a regular file; the journal's head cannot be cross-checked (move it away)", path)


def read(journal: Path, genesis_of: Callable[[int], str | None], skip: set[int] | frozenset[int] = frozenset()) \
        -> dict[int, Head] | None:
    """The heads the witness holds for ``journal`` (None: no witness). ``genesis_of`` gives the genesis hash the
    journal holds for a game (None: no such game): a witness written for another file (a copy's, or the file this
    one replaced) speaks only for the games whose genesis both hold. The games in ``skip`` (whose rows are
    damaged: blamed on the row) are left out."""
    path = witness_path(journal)
    try:
        fd = _open(path, os.O_RDONLY)
        try:
            raw = os.pread(fd, 2 * SLOT, 0)
        finally:
            os.close(fd)
        inode = os.stat(journal).st_ino
    except OSError as e:
        _unusable(path, e)
        return None
    slots = [s for s in (_decode(raw[:SLOT]), _decode(raw[SLOT:])) if s is not None]
    if not slots:
        log.warning("%s: both slots unreadable; the journal's head cannot be cross-checked this time", path)
        return None
    seq, owner, games = max(slots, key=lambda s: s[0])
    games = {g: h for g, h in games.items() if g not in skip}
    held = {g: genesis_of(g) for g in games}
    # the same file: the same inode, and no game the journal holds is another game (a new file can reuse an inode)
    def matches(g: int, h: Head) -> bool:  # the game the journal holds under that number is the one witnessed
        have = held[g]
        return bool(have and h.genesis and have.startswith(h.genesis))

    same = owner == inode and all(not h.genesis or not held[g] or matches(g, h) for g, h in games.items())
    kept = {g: h for g, h in games.items() if matches(g, h) or (same and (not held[g] or not h.genesis))}
    if len(kept) < len(games):
        log.warning("%s was written for another journal file (this one was copied, restored or replaced): it "
                    "speaks for %s of its %d games", path, len(kept) or "none", len(games))
    return kept


class Witness:
    """The writer: one per open journal, updated after every commit."""

    def __init__(self, journal: Path, heads: dict[int, Head]) -> None:
        """``heads``: what :func:`read` found and the journal does not report lost (a loss is reported once)."""
        self.path = witness_path(journal)
        self.journal = journal
        self.games: dict[int, Head] = dict(heads)
        self.seq = 0
        self.fd: int | None = None
        try:
            self.inode = os.stat(journal).st_ino
            self.fd = _open(self.path, os.O_RDWR | os.O_CREAT)
            raw = os.pread(self.fd, 2 * SLOT, 0)
            slots = [s for s in (_decode(raw[:SLOT]), _decode(raw[SLOT:])) if s is not None]
            if slots:
                self.seq = max(s[0] for s in slots)  # the newer slot stays the newer one
            if len(raw) < 2 * SLOT:  # made at full size once: later writes need no free space
                os.posix_fallocate(self.fd, 0, 2 * SLOT)
                os.pwrite(self.fd, _encode(self.seq, self.inode, self.games) * 2, 0)
                os.fdatasync(self.fd)
        except OSError as e:
            if isinstance(e, NotAFile) or e.errno == errno.ELOOP:
                e.strerror = "it is not a regular file"
            log.warning("cannot keep the journal's head witness %s (%s); inputs are saved, but damage to the "
                        "write-ahead log could not be counted", self.path, e.strerror)
            self.close()

    def set(self, game: int, head: Head) -> None:
        if self.fd is None:
            return
        self.games.pop(game, None)
        self.games[game] = head  # the most recent last
        while len(self.games) > KEEP:
            self.games.pop(next(iter(self.games)))
        self.seq += 1
        try:
            os.pwrite(self.fd, _encode(self.seq, self.inode, self.games), (self.seq % 2) * SLOT)
            os.fdatasync(self.fd)
        except OSError as e:
            log.warning("cannot update the journal's head witness %s: %s", self.path, e.strerror)

    def close(self) -> None:
        if self.fd is not None:
            try:
                os.close(self.fd)
            except OSError:
                pass
            self.fd = None


__all__ = ["Head", "Loss", "Witness", "read", "compare", "witness_path"]
