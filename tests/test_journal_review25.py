"""Issue #25 review: what a torture of the journal's pass 3 found (the head witness's odd files, main-file damage
counted, a replaced journal, the loss line naming what was damaged)."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.cli import main
from conftest import EXAMPLES, run_companion

VP = str(EXAMPLES / "vp-tracker.toml")


def _played(tmp_path: Path, presses: str = "ok\nok\nok\ndown\nok\n") -> tuple[Path, Path]:
    j = tmp_path / "j.sqlite"
    s = tmp_path / "s.txt"
    s.write_text(presses)
    assert main(["play", VP, "--script", str(s), "--journal", str(j), "--seed", "4"]) == 0
    return j, s


def test_a_head_witness_that_is_a_fifo_hangs_neither_check_nor_play(tmp_path: Path) -> None:
    j, s = _played(tmp_path)
    head = Path(str(j) + ".head")
    head.unlink()
    os.mkfifo(head)
    r = run_companion("journal", "check", str(j), timeout=20)
    assert r.returncode == 0 and "5 inputs, all verified" in r.stdout, r.stdout + r.stderr
    assert "j.sqlite.head is not a regular file" in r.stdout + r.stderr
    r = run_companion("play", VP, "--script", str(s), "--journal", str(j), "--resume", timeout=20)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "j.sqlite.head is not a regular file" in r.stderr


def test_a_head_witness_that_is_a_symbolic_link_is_never_written_through(tmp_path: Path) -> None:
    j, s = _played(tmp_path)
    head = Path(str(j) + ".head")
    head.unlink()
    victim = tmp_path / "notes.txt"
    victim.write_text("my notes\n" * 200)
    head.symlink_to(victim)
    s.write_text(s.read_text() + "ok\ndown\nok\n")  # presses to save: each would write the witness
    r = run_companion("play", VP, "--script", str(s), "--journal", str(j), "--resume", timeout=60)
    assert r.returncode == 0, r.stderr
    assert victim.read_text() == "my notes\n" * 200


def test_a_journal_copied_with_its_head_witness_still_counts_the_inputs_a_damaged_wal_lost(tmp_path: Path) -> None:
    """cp -a, rsync or a new SD card give the files new inodes: the witness still speaks for the same games."""
    import shutil

    from companion.journal.salvage import check
    from companion.journal.store import Journal
    from test_journal_wal import _killed_game

    (tmp_path / "box").mkdir()
    path, _script = _killed_game(tmp_path / "box")
    Path(str(path) + "-wal").unlink()  # the inputs since the last checkpoint are gone
    lost = check(path).losses
    assert lost, "the -wal held no input: nothing to count"
    shutil.copytree(tmp_path / "box", tmp_path / "laptop")
    copy = tmp_path / "laptop" / path.name
    report = check(copy)
    assert report.status == 3 and [(x.first, x.last) for x in report.losses] == [(x.first, x.last) for x in lost]
    j = Journal(copy)
    assert [(x.first, x.last) for x in j.losses.values()] == [(x.first, x.last) for x in lost]
    j.close()


def test_a_witness_left_beside_a_new_journal_of_other_games_claims_no_loss(tmp_path: Path) -> None:
    from companion.journal.salvage import check

    j, s = _played(tmp_path)
    old = Path(str(j) + ".head").read_bytes()
    for suffix in ("", "-wal", "-shm"):
        Path(str(j) + suffix).unlink(missing_ok=True)
    s.write_text("ok\n")
    assert main(["play", VP, "--script", str(s), "--journal", str(j), "--seed", "5"]) == 0
    Path(str(j) + ".head").write_bytes(old)  # the old journal's witness, beside the new one
    report = check(j)
    assert report.status == 0 and not report.losses


def test_check_on_a_journal_too_damaged_to_open_says_damaged_and_counts_what_the_witness_saw(tmp_path: Path) -> None:
    j, _s = _played(tmp_path)
    os.truncate(j, 100)  # the file's header and schema cut off: SQLite cannot open it
    r = run_companion("journal", "check", str(j), timeout=60)
    assert r.returncode == 3, r.stdout + r.stderr
    assert "5 saved inputs lost (the whole game: the journal or its write-ahead log" in r.stdout
    assert "Traceback" not in r.stderr


def test_a_resume_from_a_snapshot_equals_the_full_replay_to_the_timestamps(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The live session took each input at one time and the journal saved another (read again after the press):
    a snapshot (the live session's) then disagreed with the full replay (the journal's) in every log's times."""
    from companion.config.load import parse_config
    from companion.journal.store import Journal
    from companion.session import snapshot
    from companion.session.headless import replay

    monkeypatch.setattr(snapshot, "EVERY", 4)
    snapshot._SNAPSHOTTERS.clear()
    j = tmp_path / "j.sqlite"
    (tmp_path / "s.txt").write_text("ok\nok\nok\ndown\nok\nok\nup\nok\nok\nok\nroll d6 3 4\nok\n")
    assert main(["play", "sovereign", "--script", str(tmp_path / "s.txt"), "--journal", str(j), "--seed", "4"]) == 0
    journal = Journal(j)
    rec = journal.games()[0]
    cfg = parse_config({})
    assert journal.db.execute("SELECT count(*) FROM snapshots").fetchone()[0] >= 1
    resumed = replay(journal, rec, cfg)[0]
    monkeypatch.setattr(snapshot, "restore", lambda *a: None)
    full = replay(journal, rec, cfg)[0]
    assert resumed.action_log and resumed.action_log == full.action_log
    assert resumed.dice_history == full.dice_history
    journal.close()


def test_check_counts_the_saved_inputs_past_a_break_in_the_chain(tmp_path: Path) -> None:
    import sqlite3

    j, _s = _played(tmp_path, "ok\nok\nok\ndown\nok\nok\nup\nok\n")
    db = sqlite3.connect(j)
    db.execute("UPDATE inputs SET event='down' WHERE game=1 AND n=3")  # a hand edit: the chain breaks at 3
    db.commit()
    db.close()
    r = run_companion("journal", "check", str(j), timeout=60)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "inputs 1..2 verified; input 3 does not match its hash; 6 of its 8 saved inputs are not kept" in r.stdout
