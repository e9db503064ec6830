"""The journal's error paths: atomic creation, old journals, a full disk, damage, the hash chain, one instance."""
from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Iterator

import pytest

from companion.cli import main
from companion.errors import JournalBusyError, JournalDamagedError, JournalError, JournalFullError
from companion.events import Key, KeyEvent
from companion.journal.store import APP_ID, SCHEMA_VERSION, Journal
from companion.journal.boot import open_for_run
from companion.journal.salvage import check, salvage
from conftest import EXAMPLES, run_companion
from test_app import make_app, press

VP = str(EXAMPLES / "vp-tracker.toml")
SCRIPT = "ok\nok\nok\ndown\nok\nok\nup\nok\nup\nok\n"


def _played(tmp_path: Path, script: str = SCRIPT) -> Path:
    j = tmp_path / "j.sqlite"
    (tmp_path / "s.txt").write_text(script)
    assert main(["play", VP, "--script", str(tmp_path / "s.txt"), "--journal", str(j), "--seed", "4",
                 "--state-json", str(tmp_path / "full.json")]) == 0  # a game to damage: in this process
    return j


def test_creation_is_one_transaction(tmp_path: Path) -> None:
    """Tables, application id and version appear together: an empty file or a complete journal, nothing between."""
    p = tmp_path / "j.sqlite"
    Journal(p).close()
    db = sqlite3.connect(p)
    assert db.execute("PRAGMA application_id").fetchone()[0] == APP_ID
    assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    db.close()
    stmts: list[str] = []
    p2 = tmp_path / "k.sqlite"
    j = Journal.__new__(Journal)  # trace what the constructor sends: BEGIN first, COMMIT last, nothing outside
    orig = sqlite3.connect

    def traced(*a: object, **k: object) -> sqlite3.Connection:
        c = orig(*a, **k)  # type: ignore[arg-type]
        c.set_trace_callback(stmts.append)
        return c
    try:
        sqlite3.connect = traced  # type: ignore[assignment]
        j.__init__(p2)  # type: ignore[misc]
    finally:
        sqlite3.connect = orig  # type: ignore[assignment]
    j.close()
    writes = [i for i, s in enumerate(stmts) if s.startswith(("CREATE", "PRAGMA application_id=",
                                                              "PRAGMA user_version="))]
    begin, commit = stmts.index("BEGIN IMMEDIATE"), stmts.index("COMMIT")
    assert writes and all(begin < i < commit for i in writes), stmts


def test_a_file_cut_off_by_an_older_version_is_accepted(tmp_path: Path) -> None:
    """Older versions committed the tables, then the id: a power cut between left our empty tables, no id."""
    p = tmp_path / "j.sqlite"
    db = sqlite3.connect(p)
    db.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, title TEXT NOT NULL, created REAL "
               "NOT NULL, updated REAL NOT NULL, seed INTEGER NOT NULL, setup TEXT NOT NULL, status TEXT NOT NULL "
               "DEFAULT 'active', summary TEXT NOT NULL DEFAULT '')")
    db.execute("CREATE TABLE inputs (game INTEGER NOT NULL, n INTEGER NOT NULL, t REAL NOT NULL, event TEXT NOT "
               "NULL, PRIMARY KEY (game, n)) WITHOUT ROWID")
    db.commit()
    db.close()
    j = Journal(p)
    gid = j.new_game("vp", "VP", 1, {})
    j.commit(gid, 1, "ok")
    assert j.verified_inputs(gid)[1] is None


def test_a_version_1_journal_gets_hashes_and_replays(tmp_path: Path) -> None:
    p = tmp_path / "old.sqlite"
    db = sqlite3.connect(p)
    db.executescript("""
        CREATE TABLE games (id INTEGER PRIMARY KEY, game TEXT NOT NULL, title TEXT NOT NULL, created REAL NOT NULL,
            updated REAL NOT NULL, seed INTEGER NOT NULL, setup TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'active',
            summary TEXT NOT NULL DEFAULT '');
        CREATE TABLE inputs (game INTEGER NOT NULL REFERENCES games(id), n INTEGER NOT NULL, t REAL NOT NULL,
            event TEXT NOT NULL, PRIMARY KEY (game, n)) WITHOUT ROWID;
        CREATE TABLE rolls (id INTEGER PRIMARY KEY, t REAL NOT NULL, game INTEGER, roller TEXT NOT NULL,
            source TEXT NOT NULL, die TEXT NOT NULL, value INTEGER NOT NULL, player INTEGER,
            purpose TEXT NOT NULL DEFAULT '');
        PRAGMA application_id=1396919632; PRAGMA user_version=1;""")
    db.execute("INSERT INTO games VALUES (1, ?, 'VP', 1.0, 1.0, 4, '{}', 'active', '')", (VP,))
    for n, e in enumerate(["ok", "ok", "ok", "down", "ok"], 1):
        db.execute("INSERT INTO inputs VALUES (1, ?, ?, ?)", (n, 1.0 + n, e))
    db.commit()
    db.close()
    j = Journal(p)
    rows, brk = j.verified_inputs(1)
    assert brk is None and [e for _n, _t, e in rows] == ["ok", "ok", "ok", "down", "ok"]
    j.commit(1, 6, "ok")
    assert j.verified_inputs(1)[1] is None
    assert j.db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_full_disk_refuses_the_press_keeps_the_game_and_plays_on(tmp_path: Path) -> None:
    app, out = make_app(tmp_path, game=VP)
    press(app, "ok", "ok", "ok")
    saved = app.journal.count_inputs(app.record.id)
    pages = app.journal.db.execute("PRAGMA page_count").fetchone()[0]
    app.journal.db.execute(f"PRAGMA max_page_count={pages}")  # SQLite's own "database or disk is full"
    for _ in range(40):  # until a press needs a new page
        press(app, "ok", "down")
        if app.session.toast and "Disk full" in app.session.toast:
            break
    assert app.session.toast == "Disk full: that press was not saved"
    n = app.journal.count_inputs(app.record.id)
    assert app.session.n_inputs == n >= saved  # the screen is what is saved, nothing more, nothing lost
    from companion.session.headless import open_session
    assert app.session.state_json() == open_session(app.journal, app.record, app.cfg).state_json()
    app.journal.db.execute("PRAGMA max_page_count=1073741823")  # space freed
    press(app, "ok")
    assert app.journal.count_inputs(app.record.id) == n + 1 and app.session.toast != "Disk full: that press was not saved"


def test_full_disk_and_damage_messages(tmp_path: Path) -> None:
    from companion.journal.guard import sqlite_error

    full = sqlite3.OperationalError("database or disk is full")
    full.sqlite_errorcode = 13  # type: ignore[attr-defined]
    e = sqlite_error(full, tmp_path / "j.sqlite", "save that press")
    assert isinstance(e, JournalFullError) and "move the file away" not in str(e) and "free some space" in str(e)
    bad = sqlite3.DatabaseError("database disk image is malformed")
    bad.sqlite_errorcode = 11  # type: ignore[attr-defined]
    e = sqlite_error(bad, tmp_path / "j.sqlite", "read game 1")
    assert isinstance(e, JournalDamagedError) and "move the file away" in str(e) and "salvage" in str(e)
    for err in (e,):
        assert "\n" not in str(err)


def test_an_edited_input_stops_replay_and_the_game_plays_on_from_there(tmp_path: Path) -> None:
    j = _played(tmp_path)
    db = sqlite3.connect(j)
    db.execute("UPDATE inputs SET event='up' WHERE game=1 AND n=4")
    db.commit()
    db.close()
    r = run_companion("journal", "check", str(j))
    assert r.returncode == 1 and "inputs 1..3 verified; input 4 does not match its hash" in r.stdout
    r = run_companion("play", VP, "--script", str(tmp_path / "s.txt"), "--journal", str(j), "--resume",
                      "--state-json", str(tmp_path / "resumed.json"))
    assert r.returncode == 0, r.stderr
    assert r.stderr.strip().splitlines() == [f"companion: game 1 in {j}: input 4 does not match its hash (the file "
                                             "was edited or damaged); the game is kept up to input 3; it plays on "
                                             "as game 2"]
    assert (tmp_path / "resumed.json").read_text() == (tmp_path / "full.json").read_text()


def test_app_resume_of_a_damaged_game_says_so(tmp_path: Path) -> None:
    app, _out = make_app(tmp_path, game=VP)
    press(app, "ok", "ok", "ok", "down", "ok")
    gid = app.record.id
    app.journal.db.execute("UPDATE inputs SET t=t+1 WHERE game=? AND n=3", (gid,))
    app.journal.close()
    app2, _ = make_app(tmp_path)
    assert app2.record.id != gid and app2.session.n_inputs == 2
    assert app2.session.toast == "Journal damaged: replayed to input 2"
    assert app2.journal.game(gid).status == "damaged"


def test_salvage_copies_the_verified_prefix_of_a_byte_damaged_file(tmp_path: Path) -> None:
    j = _played(tmp_path, SCRIPT * 60)
    size = j.stat().st_size
    with open(j, "r+b") as f:  # scribble over the last page: the input b-tree's tail
        f.seek(size - 4096 + 100)
        f.write(os.urandom(3000))
    report = check(j)
    assert not report.sound
    out = tmp_path / "new.sqlite"
    r = run_companion("journal", "salvage", str(j), "-o", str(out))
    assert r.returncode in (0, 2), r.stderr
    if r.returncode == 0:
        assert "games copied" in r.stdout
        again = check(out)
        assert again.sound
    else:
        assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    r = run_companion("journal", "salvage", str(j), "-o", str(out))
    assert r.returncode == 2 and "already exists" in r.stderr


def test_garbage_journal_at_start_up_is_kept_aside_and_a_fresh_one_starts(tmp_path: Path) -> None:
    p = tmp_path / "journal.sqlite"
    p.write_bytes(b"SQLite format 3\x00" + os.urandom(8000))
    opened = open_for_run(p)
    journal = opened.journal
    try:
        aside = [f for f in tmp_path.iterdir() if f.name.startswith("journal.damaged-")]
        assert len(aside) == 1 and aside[0].suffix == ".sqlite"
        assert opened.aside == "damaged" and len(opened.lines) == 1 and aside[0].name in opened.lines[0]
        assert journal.games() == []
    finally:
        journal.close()


def test_one_instance_per_journal(tmp_path: Path) -> None:
    p = tmp_path / "j.sqlite"
    first = Journal(p, lock=True)
    try:
        with pytest.raises(JournalBusyError, match=f"in use by process {os.getpid()}"):
            Journal(p, lock=True)
        (tmp_path / "s.txt").write_text("ok\n")
        r = run_companion("play", VP, "--script", str(tmp_path / "s.txt"), "--journal", str(p))
        assert r.returncode == 2
        assert r.stderr.count("\n") == 1 and f"in use by process {os.getpid()} (" in r.stderr, r.stderr
    finally:
        first.close()
    Journal(p, lock=True).close()  # released on close


def test_journal_errors_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "dir.sqlite").mkdir()
    with pytest.raises(JournalError) as e:
        Journal(tmp_path / "dir.sqlite")
    assert "\n" not in str(e.value) and "move the file away" not in str(e.value)


def test_the_box_starts_although_a_saved_game_cannot_be_read(tmp_path: Path) -> None:
    app, _ = make_app(tmp_path, game=VP)
    press(app, "ok", "ok")
    other = app.journal.new_game(VP, "VP", 1, {})
    app.journal.db.execute("UPDATE games SET setup='{not json' WHERE id=?", (app.record.id,))
    app.journal.close()
    app2, out = make_app(tmp_path)  # boots: the readable game (just made) is resumed, the other is left out
    assert app2.record is not None and app2.record.id == other and out.frames
    assert [r.id for r in app2.journal.games()] == [other]


def test_a_damaged_journal_at_start_up_is_said_on_the_screen_until_ok(tmp_path: Path) -> None:
    from companion.loop.aside import DAMAGED_LINES, show_damaged_journal

    app, out = make_app(tmp_path)
    show_damaged_journal(app)
    app.draw()
    assert app.home.stack[-1][1] == "Journal damaged"
    assert all(len(line) <= 22 for line in DAMAGED_LINES)
    app.frame().convert("L").resize((512, 256)).save(tmp_path / "notice.png")
    press(app, "ok")
    assert app.home.stack[-1][1] != "Journal damaged"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A real file system of 512 KiB (tmpfs), which a filler file fills to the last byte: needs root to mount."""
    import subprocess

    d = tmp_path / "small"
    d.mkdir()
    if os.geteuid() != 0:
        pytest.skip("the real full-disk test needs root to mount a small tmpfs")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k,mode=0700", "tmpfs", str(d)], capture_output=True,
                       text=True, timeout=30)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here ({(r.stderr.strip().splitlines() or ['refused'])[-1]})")
    try:
        yield d
    finally:
        subprocess.run(["umount", "-l", str(d)], capture_output=True, timeout=30)


class Filler:
    """Fills the disk holding ``folder`` until ENOSPC; ``free()`` gives the space back."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / "filler"
        with open(self.path, "wb", buffering=0) as f:
            try:
                while True:
                    f.write(b"\0" * 4096)
            except OSError as e:
                assert e.errno == 28, e  # ENOSPC
        with open(self.path, "ab", buffering=0) as f:  # and the last partial block
            try:
                while True:
                    f.write(b"\0")
            except OSError:
                pass

    def free(self) -> None:
        self.path.unlink()


def test_a_really_full_disk_refuses_the_press_on_screen_and_in_the_log_and_plays_on_once_freed(
        small_disk: Path, caplog: pytest.LogCaptureFixture) -> None:
    app, out = make_app(small_disk, game=VP)
    press(app, "ok", "ok", "ok")
    saved = app.journal.count_inputs(app.record.id)
    state = app.session.state_json()
    filler = Filler(small_disk)
    with caplog.at_level("ERROR"):
        for _ in range(200):  # the bounded -wal reuses its own space: presses go on until a page must grow
            saved = app.journal.count_inputs(app.record.id)
            state = app.session.state_json()
            press(app, "down")  # a cursor move: journaled, and the game never ends
            if app.session.toast == "Disk full: that press was not saved":
                break
    assert app.session.toast == "Disk full: that press was not saved"
    logged = [r.getMessage() for r in caplog.records if "full" in r.getMessage()]
    assert logged and str(small_disk / "j.sqlite") in logged[0] and "free some space" in logged[0], logged
    assert "move the file away" not in logged[0]
    assert app.journal.count_inputs(app.record.id) == saved and app.session.state_json() == state
    again = Journal(small_disk / "j.sqlite")  # what a power cut now would boot into: everything saved
    try:
        from companion.session.headless import open_session
        assert open_session(again, again.game(app.record.id), app.cfg).state_json() == state
    finally:
        again.close(checkpoint=False)
    filler.free()
    press(app, "ok")
    assert app.journal.count_inputs(app.record.id) == saved + 1
    assert app.session.toast != "Disk full: that press was not saved"


def test_a_really_full_disk_at_start_is_one_line_saying_full_and_the_game_resumes_once_freed(
        small_disk: Path) -> None:
    j = small_disk / "j.sqlite"
    script = small_disk.parent / "s.txt"
    script.write_text(SCRIPT)
    state = small_disk.parent / "state.json"
    args = ("play", VP, "--script", str(script), "--journal", str(j), "--seed", "4", "--state-json", str(state))
    half = small_disk.parent / "half.txt"
    half.write_text("ok\nok\nok\ndown\n")
    r = run_companion("play", VP, "--script", str(half), "--journal", str(j), "--seed", "4")
    assert r.returncode == 0, r.stderr
    filler = Filler(small_disk)
    for argv in (args + ("--resume",), ("play", VP, "--script", str(script), "--journal", str(small_disk / "n.sqlite"))):
        r = run_companion(*argv)  # SQLite meets ENOSPC as an I/O error creating its -wal file: still "full"
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
        assert "is full" in r.stderr and "free some space" in r.stderr and "move the file away" not in r.stderr
    filler.free()
    r = run_companion(*args, "--resume")
    assert r.returncode == 0, r.stderr
    full = small_disk.parent / "full.json"
    r = run_companion("play", VP, "--script", str(script), "--journal", str(small_disk.parent / "ref.sqlite"),
                      "--seed", "4", "--state-json", str(full))
    assert r.returncode == 0 and state.read_text() == full.read_text()


@pytest.mark.parametrize("command", ["run", "sim"])
def test_run_and_sim_on_a_journal_in_use_say_which_process_holds_it(tmp_path: Path, command: str) -> None:
    """The service holds the journal and someone starts `companion sim` (or a second `run`) in a terminal."""
    import subprocess
    import sys

    from conftest import ROOT

    p = tmp_path / "j.sqlite"
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[journal]\npath = "{p}"\n[web]\nenabled = false\n')
    first = Journal(p, lock=True)
    master, slave = os.openpty()  # run/sim want a terminal before anything else
    try:
        r = subprocess.run([sys.executable, "-m", "companion.cli", command, "--config", str(cfg)]
                           + (["--sim"] if command == "run" else []), stdin=slave, stdout=slave,
                           stderr=subprocess.PIPE, text=True, timeout=60, cwd=ROOT,
                           env={**os.environ, "TERM": "xterm"})
    finally:
        os.close(slave)
        os.close(master)
        first.close()
    assert r.returncode == 2, r.stderr
    assert r.stderr.count("\n") == 1 and f"is in use by process {os.getpid()} (" in r.stderr, r.stderr
    assert "systemctl stop companion" in r.stderr


def test_companion_run_on_a_damaged_journal_keeps_it_aside_and_the_first_frame_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through `companion run`'s own start-up (runtime.run), with the loop stopped after its first frame."""
    import sys

    from companion.loop import runtime
    from companion.loop.app import App
    from companion.config.load import parse_config
    from test_app import FakeOutput

    p = tmp_path / "journal.sqlite"
    p.write_bytes(b"SQLite format 3\x00" + os.urandom(8000))
    cfg = parse_config({"journal": {"path": str(p)}, "web": {"enabled": False}})
    out = FakeOutput()
    monkeypatch.setattr(runtime, "_build_sim", lambda cfg, events, stack: (out, None))
    monkeypatch.setattr(runtime, "install_signal_handlers", lambda events: None)
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    import io

    import companion.loop.logsetup
    monkeypatch.setattr(companion.loop.logsetup, "setup_logging", lambda *a, **k: None)
    monkeypatch.setattr(runtime, "stack_file", lambda path: io.StringIO())
    titles: list[str] = []

    def first_frame_only(app: App) -> None:
        app.boot()
        app.draw()
        titles.append(app.home.stack[-1][1])

    monkeypatch.setattr(App, "run", first_frame_only)
    assert runtime.run(cfg, mode="sim") == 0
    assert titles == ["Journal damaged"] and out.frames
    aside = [f.name for f in tmp_path.iterdir() if f.name.startswith("journal.damaged-")]
    assert len(aside) == 1 and aside[0].endswith(".sqlite")
    j = Journal(p)
    assert j.games() == [] and j.quick_check() is None  # a fresh journal took its place
    j.close()


@pytest.mark.parametrize("content", [b"# Sovereign Companion\n\nnot a journal\n" * 50, b"\x00garbage", bytes(20000)],
                         ids=["text", "garbage", "zeros"])
def test_a_file_that_is_no_journal_at_all_is_not_called_damaged(tmp_path: Path, content: bytes) -> None:
    """`--journal README.md` by mistake: say it is not a journal; "move the file away" would be bad advice."""
    f = tmp_path / "README.md"
    f.write_bytes(content)
    (tmp_path / "s.txt").write_text("ok\n")
    for argv in (("play", VP, "--script", str(tmp_path / "s.txt"), "--journal", str(f)),
                 ("export", "--list", "--journal", str(f)), ("journal", "check", str(f)),
                 ("journal", "salvage", str(f), "-o", str(tmp_path / "new.sqlite"))):
        r = run_companion(*argv)
        assert r.returncode == 2 and r.stderr.count("\n") == 1, (argv, r.stdout, r.stderr)
        assert "is not a companion journal (nor any SQLite file)" in r.stderr, r.stderr
        assert "move the file away" not in r.stderr and "damaged" not in r.stderr
    assert f.read_bytes() == content and not (tmp_path / "new.sqlite").exists()


def test_a_journal_with_garbage_over_its_header_is_still_called_damaged(tmp_path: Path) -> None:
    j = _played(tmp_path)
    data = bytearray(j.read_bytes())
    data[:100] = os.urandom(100)
    j.write_bytes(bytes(data))
    r = run_companion("export", "--list", "--journal", str(j))
    assert r.returncode == 2 and "is damaged" in r.stderr and "salvage" in r.stderr, r.stderr


def test_at_start_up_a_file_that_is_no_journal_is_kept_aside_too_so_the_box_starts(tmp_path: Path) -> None:
    p = tmp_path / "journal.sqlite"
    p.write_bytes(bytes(20000))  # a file system that zero-filled the journal after a power cut
    opened = open_for_run(p)
    journal = opened.journal
    try:
        assert opened.aside == "foreign" and opened.lines and journal.games() == []
        assert [f.name for f in tmp_path.iterdir() if f.name.startswith("journal.damaged-")]
    finally:
        journal.close()
