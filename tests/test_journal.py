"""The journal: durable, ours, and clear when it is not."""
from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.errors import JournalError
from companion.journal.store import Journal, RollRecord


def test_wal_and_full_sync(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    assert j.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j.db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_inputs_and_rolls_commit_together_and_survive_reopen(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    gid = j.new_game("vp-tracker", "VP", 3, {"names": ["A"]})
    j.commit(gid, 1, "ok")
    j.commit(gid, 2, "roll d6 4 pico", [RollRecord("pico", "roller", "d6", 4, 1, "x")], summary="R1")
    j.commit(gid, 3, "ok", [RollRecord("typed", "typed", "d12", 11), RollRecord("rng", "rng", "d12", 2)])
    # no close(): as if the plug was pulled
    j2 = Journal(tmp_path / "j.sqlite")
    assert [e for _n, _t, e in j2.inputs(gid)] == ["ok", "roll d6 4 pico", "ok"]
    assert j2.physical_rolls() == {("pico", "d6"): [4], ("typed", "d12"): [11]}
    assert j2.latest_active().summary == "R1"
    with pytest.raises(JournalError, match="already holds that entry"):
        j2.commit(gid, 3, "ok")  # an input number is written once; one line, not an IntegrityError
    assert j2.count_inputs(gid) == 3


def test_status_and_listing(tmp_path: Path) -> None:
    j = Journal(tmp_path / "j.sqlite")
    a = j.new_game("a", "A", 1, {})
    b = j.new_game("b", "B", 1, {})
    j.set_status(b, "finished", "B over")
    assert j.latest_active().id == a
    assert {r.id for r in j.games()} == {a, b}
    with pytest.raises(JournalError, match="no saved game 99"):
        j.game(99)


def test_a_foreign_database_is_refused_clearly(tmp_path: Path) -> None:
    p = tmp_path / "other.sqlite"
    db = sqlite3.connect(p)
    db.execute("CREATE TABLE notes (x)")
    db.commit()
    db.close()
    with pytest.raises(JournalError, match="not a companion journal"):
        Journal(p)


def test_garbage_file_is_refused_clearly(tmp_path: Path) -> None:
    p = tmp_path / "junk.sqlite"
    p.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(JournalError, match="is not a companion journal") as e:  # not damaged: the wrong file
        Journal(p)
    assert "move the file away" not in str(e.value)
