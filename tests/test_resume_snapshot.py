"""Resume from a verified snapshot equals the full replay, for every registered game (issue #25).

Seeded random play (phone answers from fsm/autoplay's random player, presses, BACKs, rolls) is journaled with a
snapshot every few inputs; the snapshot + tail resume must then be the same session as the full replay — state,
screen, undo history (undone all the way back through the stored chunks) — and a stale, edited or damaged snapshot
falls back to the full replay, saying so.
"""
from __future__ import annotations

import logging
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from companion.config.load import parse_config
from companion.events import AnswerEvent, Key, KeyEvent, RollEvent
from companion.games import BUILTIN
from companion.journal.store import Journal
from companion.session import snapshot
from companion.session import Session, encode_event
from companion.session.headless import new_record, open_session, replay
from fsm.autoplay import random_answer
from fsm.prompts import Dice, Random

STEPS = 500


@pytest.fixture(autouse=True)
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "EVERY", 40)  # many snapshots and chunks in a short game
    monkeypatch.setattr(snapshot, "CHUNK", 7)
    snapshot._SNAPSHOTTERS.clear()


def _event(s: Session, rng: random.Random) -> Any:
    p = s.prompt()
    r = rng.random()
    if isinstance(p, Dice) and not s.overlays and r < 0.7:
        sides = 6 if p.die == "d6" else 12
        return RollEvent(p.die, tuple(rng.randint(1, sides) for _ in range(p.count)), roller="roller")
    if r < 0.55 and not s.overlays and not isinstance(p, (Dice, Random)):
        return AnswerEvent(random_answer(p, rng), s.prompt_seq, "web:table")
    return KeyEvent(Key(rng.choice(["ok", "ok", "ok", "down", "down", "up", "back", "back"])))


def _play(journal: Journal, s: Session, gid: int, rng: random.Random, n: int) -> None:
    for _ in range(n):
        ev = _event(s, rng)
        t = float(s.n_inputs + 1)
        records = s.handle(ev, t)
        journal.commit(gid, s.n_inputs, encode_event(ev), records, s.summary(), t=t)
        snapshot.after_commit(journal, gid, s)


def _same(a: Session, b: Session) -> None:
    assert a.n_inputs == b.n_inputs
    assert a.state_json() == b.state_json()
    assert a.render().tobytes() == b.render().tobytes()
    assert (a.prompt_seq, a.toast, len(a.undo_stack), len(a.redo_stack)) == \
           (b.prompt_seq, b.toast, len(b.undo_stack), len(b.redo_stack))
    assert a.rng.getstate() == b.rng.getstate()
    assert a.dice_history == b.dice_history and a.action_log == b.action_log


def _fresh_replay(journal: Journal, rec: Any, cfg: Any, monkeypatch: pytest.MonkeyPatch) -> Session:
    with monkeypatch.context() as m:
        m.setattr(snapshot, "restore", lambda *a: None)
        return replay(journal, rec, cfg)[0]


@pytest.mark.parametrize("game", sorted(BUILTIN))
def test_snapshot_and_tail_equal_the_full_replay(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    cfg = parse_config({})
    journal = Journal(tmp_path / "j.sqlite")
    rec = new_record(journal, game, cfg, 7)
    live = open_session(journal, rec, cfg)
    rng = random.Random(f"{game}-25")
    _play(journal, live, rec.id, rng, STEPS)
    taken = journal.db.execute("SELECT count(*) FROM snapshots WHERE game=?", (rec.id,)).fetchone()[0]
    if live.timekeeper is not None:
        pytest.skip("a game with a running clock replays in full")
    assert taken >= 1
    with caplog.at_level(logging.WARNING):
        resumed, brk = replay(journal, rec, cfg)
    assert brk is None and not [r for r in caplog.records if "snapshot" in r.getMessage()]
    full = _fresh_replay(journal, rec, cfg, monkeypatch)
    _same(resumed, live)
    _same(resumed, full)
    # both play on alike, through undos reaching back into the stored chunks
    more = random.Random(f"{game}-more")
    for _ in range(150):
        ev = _event(full, more)
        full.handle(ev, 1.0)
        resumed.handle(ev, 1.0)
        _same(resumed, full)
    while full.undo_stack:
        full.undo()
        resumed.undo()
        _same(resumed, full)
    journal.close()


def test_a_stale_edited_or_damaged_snapshot_falls_back_to_the_full_replay_saying_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    cfg = parse_config({})
    journal = Journal(tmp_path / "j.sqlite")
    rec = new_record(journal, "sovereign", cfg, 3)
    live = open_session(journal, rec, cfg)
    _play(journal, live, rec.id, random.Random(7), 300)
    assert live.timekeeper is None  # (random set-up answers may switch a game clock on: this walk does not)
    full = _fresh_replay(journal, rec, cfg, monkeypatch)
    harms = {
        "stale": "UPDATE snapshots SET code='0'",
        "hash": "UPDATE snapshots SET hash='0'",
        "digest": "UPDATE snapshots SET state=zeroblob(10)",
        "chunk": "DELETE FROM undo_chunks",
    }
    pristine = journal.db.execute("SELECT * FROM snapshots").fetchall()
    chunks = journal.db.execute("SELECT * FROM undo_chunks").fetchall()
    for name, sql in harms.items():
        journal.db.execute("DELETE FROM snapshots")
        journal.db.execute("DELETE FROM undo_chunks")
        journal.db.executemany("INSERT INTO snapshots VALUES (?,?,?,?,?,?,?)", pristine)
        journal.db.executemany("INSERT INTO undo_chunks VALUES (?,?,?)", chunks)
        journal.db.execute(sql)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            got = replay(journal, rec, cfg)[0]
        said = " ".join(r.getMessage() for r in caplog.records)
        assert "replaying all 300 inputs" in said, (name, said)
        _same(got, full)
    journal.close()


def test_a_snapshot_never_builds_what_is_not_the_projects_own(tmp_path: Path) -> None:
    """A snapshot row is read back from a file: one naming os.system is refused, and the game replays."""
    import pickle
    import zlib

    class Evil:
        def __reduce__(self) -> Any:
            import os
            return (os.system, ("echo pwned > " + str(tmp_path / "pwned"),))

    data = zlib.compress(pickle.dumps({"n_inputs": 1, "x": Evil()}), 1)
    with pytest.raises(pickle.UnpicklingError):
        snapshot._loads(zlib.decompress(data))
    assert not (tmp_path / "pwned").exists()
    _ = sqlite3, time  # (kept for parity with the other journal tests' imports)
