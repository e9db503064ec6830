"""Issue #25's smaller findings: check on a FIFO, check agreeing with play, salvage and a failing genesis, a full
disk that is not damage, a small disk that plays on once the filler is gone, the config's temporary files, and one
message for a file that is no journal."""
from __future__ import annotations

import logging
import os
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.journal.store import Journal
from conftest import EXAMPLES, run_companion
from test_journal_hardening import Filler, small_disk  # noqa: F401  (a fixture: a real 512 KiB tmpfs)

VP = str(EXAMPLES / "vp-tracker.toml")


def _played(tmp_path: Path, presses: str = "ok\nok\nok\ndown\nok\n") -> Path:
    j = tmp_path / "j.sqlite"
    s = tmp_path / "s.txt"
    s.write_text(presses)
    assert main(["play", VP, "--script", str(s), "--journal", str(j), "--seed", "4"]) == 0
    return j


def test_check_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "j.sqlite"
    os.mkfifo(fifo)
    t0 = time.monotonic()
    r = run_companion("journal", "check", str(fifo), timeout=20)
    assert r.returncode == 2 and "not a regular file" in r.stderr and time.monotonic() - t0 < 15, r.stderr


@pytest.mark.parametrize("harm", ["PRAGMA user_version=99", "PRAGMA application_id=0", "DROP TABLE rolls",
                                  "DROP TABLE inputs"])
def test_check_agrees_with_play_on_every_journal_play_refuses(tmp_path: Path, harm: str) -> None:
    j = _played(tmp_path)
    db = sqlite3.connect(j)
    db.execute(harm)
    db.commit()
    db.close()
    play = run_companion("play", VP, "--script", str(tmp_path / "s.txt"), "--journal", str(j), "--resume")
    check = run_companion("journal", "check", str(j))
    assert play.returncode != 0 and check.returncode not in (0, 3), (play.stderr, check.stdout)
    said = (check.stderr + check.stdout).strip().splitlines()[-1]
    assert play.stderr.strip() == said or play.stderr.strip().split(": ", 1)[1] in said, (play.stderr, said)


def test_salvage_never_copies_a_game_whose_seed_fails_its_hash(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    j = _played(tmp_path)
    _played_more = _played(tmp_path / "b") if (tmp_path / "b").mkdir() is None else None
    db = sqlite3.connect(j)
    db.execute("UPDATE games SET seed=seed+1 WHERE id=1")
    db.commit()
    db.close()
    out = tmp_path / "new.sqlite"
    code = main(["journal", "salvage", str(j), "-o", str(out)])
    said = capsys.readouterr().out
    assert code == 0 and "game 1: its seed, set-up or first input fails its hash check; not copied" in said, said
    new = Journal(out)
    assert new.games() == []
    new.close()
    assert _played_more is not None


def test_a_healthy_journal_checked_while_the_disk_is_full_is_not_damaged(small_disk: Path) -> None:  # noqa: F811
    j = _played(small_disk)
    assert not Path(str(j) + "-wal").exists()  # closed cleanly: no -wal, no -shm
    filler = Filler(small_disk)
    try:
        r = run_companion("journal", "check", str(j))
        assert r.returncode == 0 and "1 game" not in r.stderr, (r.returncode, r.stdout, r.stderr)
        assert "damage" not in r.stdout and "disk is full" in r.stdout and "all verified" in r.stdout, r.stdout
    finally:
        filler.free()


def test_a_small_disk_game_finishes_once_the_filler_alone_is_deleted(tmp_path: Path) -> None:
    """A 200 KiB disk: the -wal stays a few pages, so the game fits beside nothing but itself."""
    if os.geteuid() != 0:
        pytest.skip("needs root to mount a small tmpfs")
    d = tmp_path / "small"
    d.mkdir()
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=200k", "tmpfs", str(d)], capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip("cannot mount a small tmpfs here")
    try:
        script = tmp_path / "s.txt"
        script.write_text("ok\nok\nok\n" + "down\nup\n" * 400)
        j = d / "j.sqlite"
        args = ("play", VP, "--script", str(script), "--journal", str(j), "--seed", "4")
        filler = Filler(d)
        first = run_companion(*args)
        assert first.returncode == 2 and "is full" in first.stderr, first.stderr
        filler.free()
        again = run_companion(*args, "--resume", "--state-json", str(tmp_path / "state.json"))
        assert again.returncode == 0, again.stderr
        db = Journal(j)
        assert db.count_inputs(db.games()[0].id) == 803
        db.close()
    finally:
        subprocess.run(["umount", "-l", str(d)], capture_output=True)


def test_temporary_config_files_of_a_cut_off_save_are_removed_at_the_next_start(tmp_path: Path) -> None:
    from companion.config.write import clean_temp_files

    cfg = tmp_path / "config.toml"
    cfg.write_text("")
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f".config.toml.{dead.pid}.tmp"
    live = tmp_path / f".config.toml.{os.getppid()}.tmp"  # a process still running: its save may be under way
    stale.write_text("half")
    live.write_text("saving")
    assert clean_temp_files(cfg) == [stale]
    assert not stale.exists() and live.exists()


def test_run_on_a_file_that_is_no_journal_says_so_once_and_never_damaged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import io
    import sys

    import companion.loop.logsetup
    from companion.config.load import parse_config
    from companion.loop import runtime
    from companion.loop.app import App
    from test_app import FakeOutput

    p = tmp_path / "journal.sqlite"
    p.write_bytes(b"# notes\n" * 100)
    conf = tmp_path / "config.toml"
    conf.write_text(f'[journal]\npath = "{p}"\n[web]\nenabled = false\n')
    stale = tmp_path / ".config.toml.999999999.tmp"
    stale.write_text("half")
    cfg = parse_config({"journal": {"path": str(p)}, "web": {"enabled": False}}, source=conf)
    out = FakeOutput()
    monkeypatch.setattr(runtime, "_build_sim", lambda cfg, events, stack: (out, None))
    monkeypatch.setattr(runtime, "install_signal_handlers", lambda events: None)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(companion.loop.logsetup, "setup_logging", lambda *a, **k: None)
    monkeypatch.setattr(runtime, "stack_file", lambda path: io.StringIO())
    titles: list[str] = []

    def first_frame_only(app: App) -> None:
        app.boot()
        app.draw()
        titles.append(app.home.stack[-1][1])

    monkeypatch.setattr(App, "run", first_frame_only)
    with caplog.at_level(logging.INFO):
        assert runtime.run(cfg, mode="sim") == 0
    said = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(said) == 1 and "is not a companion journal" in said[0], said
    assert "was damaged" not in said[0] and "salvage" not in said[0]
    assert titles == ["Not a journal"]
    assert not stale.exists()
