"""What the journal costs the SD card: bytes written per press."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path


def _wchar() -> int:
    """Bytes this process has passed to write(2)/pwrite(2) so far (the kernel's count, every file)."""
    with open("/proc/self/io", encoding="ascii") as f:
        for line in f:
            if line.startswith("wchar:"):
                return int(line.split()[1])
    raise RuntimeError("no wchar in /proc/self/io")


def bytes_written_per_press(n: int = 400) -> float:
    """A Sovereign game of ``n`` inputs committed one by one as the loop does (each its own durable transaction,
    snapshots included), then closed: the bytes written to the journal's files, per input. Only the commits and
    the close are counted (the folder is on disk, not tmpfs, though wchar counts the same either way)."""
    from companion.bench.replay import sovereign_script
    from companion.config.load import parse_config
    from companion.journal.store import Journal
    from companion.session import encode_event
    from companion.session.headless import new_record, open_session

    events = sovereign_script(n)
    cfg = parse_config({})
    with tempfile.TemporaryDirectory(dir="/var/tmp") as d:
        journal = Journal(Path(d) / "j.sqlite")
        rec = new_record(journal, "sovereign", cfg, 1)
        s = open_session(journal, rec, cfg)
        after = _after_commit()
        w0 = _wchar()
        for ev in events:
            records = s.handle(ev, time.time())
            journal.commit(rec.id, s.n_inputs, encode_event(ev), records, s.summary())
            after(journal, rec.id, s)
        journal.close()
        w1 = _wchar()
    return round((w1 - w0) / n, 1)


def _after_commit():  # type: ignore[no-untyped-def]
    """What the loop does after each commit besides (the resume snapshot, when this version keeps one)."""
    try:
        from companion.session.snapshot import after_commit
    except ImportError:
        return lambda journal, gid, session: None
    return after_commit
