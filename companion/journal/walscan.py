"""The write-ahead log read frame by frame, before SQLite opens it: damage found without the head witness.

SQLite reads ``<journal>-wal`` up to the first frame whose salts or cumulative checksum do not match and treats every
frame after it as never written — silently (https://www.sqlite.org/fileformat.html, "The Write-Ahead Log"). Inputs
live only in the -wal until the next checkpoint, so one flipped byte there drops every press saved after it. The log
says so itself: each frame after a damaged one still carries its salts and a checksum that follows from the frame
before it, so the frames that were written whole after the damage can be counted, and among them the commit frames
(each a saved transaction: a press, a new game, a status). :func:`scan` does that and :class:`WalDamage` says it in
one line.

The frame in which the damage sits may itself be the last commit (no whole frame follows it). A process killed while
writing its last frame leaves the same picture, and that press was never acknowledged; the wal-index (``-shm``,
written only after a commit is on the disk) tells the two apart: when its header is intact, names this log's salts
and counts the damaged frame among the committed ones, the damage lost a saved transaction.

Format (big-endian unless noted): the header is 32 bytes — magic 0x377f0682/3 (the low bit: checksum words
big-endian), version, page size, checkpoint sequence, salt-1, salt-2, checksum-1, checksum-2 (over the first 24
bytes); each frame is a 24-byte header — page number, the database size after a commit (0 otherwise), salt-1,
salt-2, checksum-1, checksum-2 (over the frame header's first 8 bytes and the page, continuing from the previous
frame's) — and the page.
"""
from __future__ import annotations

import logging
import os
import struct
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

MAGIC_LE, MAGIC_BE = 0x377F0682, 0x377F0683
WAL_HEADER, FRAME_HEADER = 32, 24
LIMIT = 64 << 20  #: a -wal larger than this is not scanned (the companion's stays under a few hundred kilobytes)


@dataclass(frozen=True)
class WalDamage:
    """Saved transactions SQLite will drop from a damaged write-ahead log."""

    path: Path  #: the -wal file
    first_bad: int  #: the first damaged frame (1-based)
    frames: int  #: whole frames in the file
    lost: int  #: committed transactions at or after the damaged frame
    lost_frames: int  #: whole frames of this log after the damaged one

    def message(self) -> str:
        s = "s" * (self.lost != 1)
        where = "in its header" if self.first_bad == 0 else f"at frame {self.first_bad} of {self.frames}"
        return (f"the write-ahead log {self.path.name} is damaged {where}: "
                f"{self.lost} saved transaction{s} (presses, new games) at or after it cannot be read back "
                f"({self.lost_frames} whole frame{'s' * (self.lost_frames != 1)} follow the damage, its own salts "
                "and checksums show them)")


def wal_path(journal: Path) -> Path:
    return Path(str(journal) + "-wal")


def checksum(data: bytes, s0: int, s1: int, big: bool) -> tuple[int, int]:
    """SQLite's WAL checksum over ``data`` (a multiple of 8 bytes), continuing from (s0, s1)."""
    words = struct.unpack((">" if big else "<") + f"{len(data) // 4}I", data)
    m = 0xFFFFFFFF
    for i in range(0, len(words), 2):
        s0 = (s0 + words[i] + s1) & m
        s1 = (s1 + words[i + 1] + s0) & m
    return s0, s1


def _read(path: Path, limit: int) -> bytes | None:
    """The file's bytes if it is a regular file within ``limit``, else None (never blocks)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not (st.st_mode & 0o170000 == 0o100000) or st.st_size > limit:
            return None
        out = bytearray()
        while len(out) < st.st_size:
            chunk = os.read(fd, st.st_size - len(out))
            if not chunk:
                break
            out += chunk
        return bytes(out)
    except OSError:
        return None
    finally:
        os.close(fd)


def _page_size(journal: Path) -> int | None:
    """The main file's page size (its header, offset 16), for a -wal whose own header is damaged."""
    head = _read(journal, 1 << 40)
    if head is None or len(head) < 100 or not head.startswith(b"SQLite format 3\x00"):
        return None
    size = struct.unpack(">H", head[16:18])[0]
    return 65536 if size == 1 else size


def _valid_page_size(n: int) -> bool:
    return 512 <= n <= 65536 and n & (n - 1) == 0


def _shm_committed(journal: Path, salts: bytes) -> int | None:
    """The frames the wal-index (-shm) counts as committed, when its header is whole and names this log's salts."""
    raw = _read(Path(str(journal) + "-shm"), 1 << 26)
    if raw is None or len(raw) < 96 or raw[:48] != raw[48:96]:
        return None
    for big in (False, True):  # the index is in the writer's byte order
        fmt = ">" if big else "<"
        version, = struct.unpack(fmt + "I", raw[0:4])
        if version != 3007000:
            continue
        if checksum(raw[:40], 0, 0, big) != struct.unpack(fmt + "2I", raw[40:48]) or raw[12] != 1:
            return None
        if raw[32:40] != salts:
            return None
        return int(struct.unpack(fmt + "I", raw[16:20])[0])
    return None


@dataclass(frozen=True)
class _Walk:
    first_bad: int  #: 1-based; 0: the header; frames + 1: none
    lost: int
    lost_frames: int
    salts: bytes  #: the salts this log's frames carry
    marks: tuple[int, ...] = ()  #: frames at or after the damage that end a transaction (1-based)


def scan(journal: Path) -> WalDamage | None:
    """What a damaged -wal beside ``journal`` will lose when SQLite opens it; None when nothing saved is lost (no
    -wal, an empty one, a whole one, or one whose only damage is a last write that never finished)."""
    wal = wal_path(journal)
    raw = _read(wal, LIMIT)
    if raw is None or len(raw) < WAL_HEADER + FRAME_HEADER:
        return None
    magic, _version, page = struct.unpack(">3I", raw[:12])
    if magic not in (MAGIC_LE, MAGIC_BE) or not _valid_page_size(page):
        page = _page_size(journal) or 0  # the header is damaged: the main file knows the page size
        if not _valid_page_size(page):
            return None
    frames = (len(raw) - WAL_HEADER) // (FRAME_HEADER + page)
    if frames == 0:
        return None
    walks = []
    for big in (magic == MAGIC_BE, magic != MAGIC_BE):  # the byte order its magic names first: a whole log is one walk
        walks.append(_walk(raw, page, frames, big))
        if walks[-1].first_bad > frames:
            return None  # whole (in one of the two byte orders)
        if walks[-1].first_bad > 0:
            break  # its header sums right in the order its magic names: the writer's (no frame sums in the other)
    w = max(walks, key=lambda w: (w.lost, w.lost_frames))
    lost = w.lost
    # damage in the last transaction is told from a last write cut short by the wal-index: what it counted committed
    committed = _shm_committed(journal, w.salts) if w.first_bad else None
    if committed is not None and committed >= w.first_bad:
        lost = max(lost, 1, sum(1 for m in w.marks if m <= committed))
    if lost == 0:
        return None
    return WalDamage(wal, w.first_bad, frames, lost, w.lost_frames)


def _walk(raw: bytes, page: int, frames: int, big: bool) -> _Walk:
    """Follow the frames' checksums in one byte order: where SQLite stops, and what whole frames follow."""
    size = FRAME_HEADER + page
    stored: tuple[int, int] = struct.unpack(">2I", raw[24:32])
    computed = checksum(raw[:24], 0, 0, big)
    header_ok = stored == computed and raw[:4] in (struct.pack(">I", MAGIC_LE), struct.pack(">I", MAGIC_BE))
    # a frame's checksum continues from the previous one's: as stored in it, or as recomputed over it (one of the
    # two is right when a single frame is damaged, in its page or in its own checksum field). Two chains are followed
    # and no more (the stored one, and one recomputed since the last whole frame), so a log read in the wrong byte
    # order, where no frame sums right, costs two checksums a frame, not one more for every frame before it
    kept, redone = stored, (stored if header_ok else computed)
    salts = raw[16:24] if header_ok else raw[WAL_HEADER + 8:WAL_HEADER + 16]  # a damaged header: the frames' own
    first_bad = None if header_ok else 0
    lost_frames = last_whole = 0
    marks: list[int] = []  # frames at or after the damage that end a transaction (1-based)
    for i in range(frames):
        at = WAL_HEADER + i * size
        head, body = raw[at:at + FRAME_HEADER], raw[at + FRAME_HEADER:at + size]
        if head[8:12] != salts[:4] and head[12:16] != salts[4:]:
            break  # neither salt: this log ends here (an older log's frames, or nothing, follow)
        its: tuple[int, int] = struct.unpack(">2I", head[16:24])
        summed = head[:8] + body
        sums = {p: checksum(summed, p[0], p[1], big) for p in {kept, redone}}  # redone's is the next redone
        whole = its in sums.values() and head[8:16] == salts
        commit = bool(struct.unpack(">I", head[4:8])[0])
        if not whole:
            first_bad = i + 1 if first_bad is None else first_bad
            # a damaged frame's commit mark counts unless the damage is that mark itself (it sums right without)
            commit = commit and its not in {checksum(head[:4] + bytes(4) + body, p[0], p[1], big) for p in sums}
        elif first_bad is not None:
            lost_frames += 1
            last_whole = i + 1
        if commit and first_bad is not None:
            marks.append(i + 1)
        kept, redone = (its, its) if whole else (its, sums[redone])
    # a transaction ending in a damaged frame was written whole when a whole frame follows it (frames are written in
    # order); one at the very end may be a last write cut short: the wal-index decides (see scan)
    lost = sum(1 for m in marks if m <= last_whole)
    return _Walk(frames + 1 if first_bad is None else first_bad, lost, lost_frames, salts, tuple(marks))


def before_open(journal: Path) -> tuple[WalDamage | None, Path | None]:
    """Before SQLite reads the -wal (and drops a damaged one's tail for good): what it would drop, and a copy of the
    journal kept as it is then (logged: every opener of the file hears of it)."""
    damage = scan(journal)
    if damage is None:
        return None, None
    copy = keep_copy(journal)
    kept = f"; a copy as it was is kept as {copy.name}" if copy else ""
    log.error("%s: %s%s", journal, damage.message(), kept)
    return damage, copy


def keep_copy(journal: Path) -> Path | None:
    """Copy the journal and its -wal and -shm, as they are, to ``<stem>.wal-damaged-<stamp><suffix>`` beside it
    (before SQLite opens the file and drops the damaged log's tail for good); the copy's path, or None."""
    import shutil

    from companion.config.files import dated

    copy = dated(journal, "wal-damaged", keep_suffix=True)
    try:
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(journal) + suffix)
            if src.is_file():
                shutil.copyfile(src, Path(str(copy) + suffix))
    except OSError:
        return None
    return copy


__all__ = ["WalDamage", "scan", "before_open", "checksum", "wal_path", "keep_copy"]
