"""A resume snapshot is used only when this installation sealed it (issue #25 review).

The snapshot's state is unpickled, and an unpickler that builds the project's classes can still be led to run code
(transitions' Machine resolves a callback named "os.system" by importing it). So a snapshot row is trusted only
when its seal — a keyed digest over the row (game, input number, chained hash, code version, chunks, state) with a
key kept outside the journal — matches: a forged row, or a genuine one moved to another game, replays in full.
"""
from __future__ import annotations

import logging
import pickle
import random
import zlib
from pathlib import Path
from typing import Any

import pytest

from companion.config.load import parse_config
from companion.journal.snapshots import digest
from companion.journal.store import Journal
from companion.session import snapshot
from companion.session.headless import new_record, open_session, replay
from tests.test_resume_snapshot import Walk, _fresh_replay, _play, _same


@pytest.fixture(autouse=True)
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "EVERY", 40)
    monkeypatch.setattr(snapshot, "CHUNK", 7)
    snapshot._SNAPSHOTTERS.clear()


def _gadget(cmd: str) -> bytes:
    """Pickle bytes naming only classes the unpickler allows (transitions' Machine, random.Random, getattr on an
    object it built) that run ``cmd`` in a shell while they load."""
    import random as _random

    from transitions.core import Machine

    class Model:
        def __reduce__(self) -> Any:
            return (_random.Random, (1,))

    class MakeMachine:
        def __reduce__(self) -> Any:
            return (Machine, (Model(), ["a", "b"], "a", [["go", "a", "b"]], False, True, False, None, None,
                              "os.system"))

    class Dispatch:
        def __call__(self, *a: Any) -> None:
            pass

        def __reduce__(self) -> Any:
            return (getattr, (MakeMachine(), "dispatch"))

    class Run:
        def __reduce__(self) -> Any:
            return (Dispatch(), ("go", cmd))

    return pickle.dumps({"n_inputs": 0, "x": Run()}, protocol=5)


def _game(journal: Journal, seed: int, steps: int) -> Any:
    cfg = parse_config({})
    rec = new_record(journal, "sovereign", cfg, seed)
    live = open_session(journal, rec, cfg)
    _play(Walk(live, journal, rec.id), random.Random(seed), steps)
    assert live.timekeeper is None
    return cfg, rec, live


def test_a_forged_snapshot_runs_no_code_and_the_game_replays_in_full(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    cfg, rec, live = _game(journal, 3, 100)
    marker = tmp_path / "pwned"
    blob = zlib.compress(_gadget(f"touch {marker}"), 1)
    # what anyone holding the file can write: the state and its digest (the code version and hash stay as stored)
    journal.db.execute("UPDATE snapshots SET state=?, digest=?", (blob, digest(blob)))
    with caplog.at_level(logging.WARNING):
        got = replay(journal, rec, cfg)[0]
    assert not marker.exists(), "a snapshot row from the file ran a shell command"
    said = " ".join(r.getMessage() for r in caplog.records)
    assert "replaying all 100 inputs" in said
    _same(got, live)
    journal.close()


def test_a_genuine_snapshot_moved_to_another_game_is_not_used(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    _cfg, one, _ = _game(journal, 3, 100)
    cfg, two, live = _game(journal, 4, 100)
    rows = journal.db.execute("SELECT n, code, digest, state, chunks FROM snapshots WHERE game=?",
                              (one.id,)).fetchall()
    journal.db.execute("DELETE FROM snapshots WHERE game=?", (two.id,))
    for n, code, dg, state, chunks in rows:  # game one's snapshots, at game two's chained hashes
        h = journal.db.execute("SELECT hash FROM inputs WHERE game=? AND n=?", (two.id, n)).fetchone()[0]
        journal.db.execute("INSERT INTO snapshots VALUES (?,?,?,?,?,?,?)", (two.id, n, h, code, dg, state, chunks))
    journal.db.execute("INSERT OR IGNORE INTO undo_chunks SELECT ?, digest, data FROM undo_chunks WHERE game=?",
                       (two.id, one.id))
    with caplog.at_level(logging.WARNING):
        got = replay(journal, two, cfg)[0]
    _same(got, live)
    assert _fresh_replay(journal, two, cfg, monkeypatch).state_json() == got.state_json()
    journal.close()


def test_a_snapshot_this_installation_sealed_is_used(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    cfg, rec, live = _game(journal, 3, 100)
    with caplog.at_level(logging.WARNING):
        got = replay(journal, rec, cfg)[0]
    assert not [r for r in caplog.records if "snapshot" in r.getMessage()]
    _same(got, live)
    journal.close()


def _replay_said(journal: Journal, rec: Any, cfg: Any, caplog: pytest.LogCaptureFixture) -> tuple[Any, list[str]]:
    """The game replayed from its journal, and the warnings it logged about its snapshots."""
    with caplog.at_level(logging.WARNING):
        got = replay(journal, rec, cfg)[0]
    return got, [r.getMessage() for r in caplog.records if "snapshot" in r.getMessage()]


def test_a_snapshot_state_stored_as_text_that_is_not_utf8_is_said_without_its_bytes(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 31 item 9: SQLite's message quoted the damaged value whole (raw bytes in the log line)."""
    journal = Journal(tmp_path / "j.sqlite")
    cfg, rec, live = _game(journal, 3, 100)
    journal.db.execute("UPDATE snapshots SET state = CAST(X'80034bff' || state AS TEXT)")
    got, said = _replay_said(journal, rec, cfg, caplog)
    assert said == [f"game {rec.id}: resume snapshots unreadable (column 'state' is not UTF-8); replaying every input"]
    _same(got, live)
    journal.close()


def test_unusable_snapshots_are_said_in_one_line_however_many_the_game_has(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A journal from another box (or after an upgrade) has a snapshot every 500 inputs, none usable: a resume
    says so once, not once per snapshot (a 20,000-input game printed 41 lines on `play --resume`)."""
    journal = Journal(tmp_path / "j.sqlite")
    cfg, rec, live = _game(journal, 3, 200)
    assert [n for n, in journal.db.execute("SELECT n FROM snapshots ORDER BY n")] == [160, 200]  # the latest two kept
    journal.db.execute("UPDATE snapshots SET digest='00'")  # sealed by another installation's key
    got, said = _replay_said(journal, rec, cfg, caplog)
    assert said == ["game 1: the resume snapshot at input 200 is not used: its seal does not match (damaged, edited, "
                    "or written by another installation), nor is the one before it; replaying all 200 inputs"]
    _same(got, live)
    journal.close()


def test_a_resume_past_an_unusable_snapshot_says_which_one_it_used(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    cfg, rec, live = _game(journal, 3, 200)
    journal.db.execute("UPDATE snapshots SET digest='00' WHERE n=200")
    got, said = _replay_said(journal, rec, cfg, caplog)
    assert len(said) == 1 and said[0].endswith("is not used: its seal does not match (damaged, edited, or written "
                                               "by another installation); replaying from the one at input 160")
    _same(got, live)
    journal.close()


def test_a_snapshot_whose_undo_chunk_is_damaged_is_not_used(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The seal names the undo chunks by digest; a chunk whose bytes no longer match (bit rot) would load lazily and
    fail at the next undo, or at the next press that looks back (a traceback per input on `play --resume`). The
    snapshot is not used: the game replays, and undoes to its start."""
    journal = Journal(tmp_path / "j.sqlite")
    cfg, rec, live = _game(journal, 3, 200)
    for d, data in journal.db.execute("SELECT digest, data FROM undo_chunks").fetchall():
        flipped = bytes(data[:-1]) + bytes([data[-1] ^ 1])
        journal.db.execute("UPDATE undo_chunks SET data=? WHERE digest=?", (flipped, d))
    got, said = _replay_said(journal, rec, cfg, caplog)
    assert len(said) == 1 and "an undo chunk it needs is damaged" in said[0], said
    _same(got, live)
    while got.undo_stack:
        got.undo()
    journal.close()
