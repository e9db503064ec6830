"""Damaged journals of many kinds through `companion play --resume`, `journal check` and the start-up path: one
line each (or a game played on from its last good input), never a traceback, and the damaged file never written."""
from __future__ import annotations

import hashlib
import os
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Callable

import pytest

from companion.cli import main
from companion.journal.boot import open_for_run
from conftest import EXAMPLES, run_companion

VP = str(EXAMPLES / "vp-tracker.toml")
#: each player raises their VP again and again (the cursor comes back on VP after its number, issue 33)
SCRIPT = "ok\nok\nok\n" + "ok\ndown\nok\nup\n" + "ok\nok\nup\n" * 39


def _sql(*stmts: str) -> Callable[[Path], None]:
    def f(p: Path) -> None:
        db = sqlite3.connect(p)
        for s in stmts:
            db.execute(s)
        db.commit()
        db.close()
    return f


def _bytes(offset: int | None, n: int, seed: int = 1) -> Callable[[Path], None]:
    def f(p: Path) -> None:
        data = bytearray(p.read_bytes())
        at = len(data) // 2 if offset is None else offset
        data[at:at + n] = random.Random(seed).randbytes(n)
        p.write_bytes(bytes(data))
    return f


def _truncate(keep: float) -> Callable[[Path], None]:
    def f(p: Path) -> None:
        data = p.read_bytes()
        p.write_bytes(data[:int(len(data) * keep)])
    return f


CORRUPTIONS: dict[str, Callable[[Path], None]] = {
    "an input edited": _sql("UPDATE inputs SET event='up' WHERE n=20"),
    "an input's time edited": _sql("UPDATE inputs SET t=t+1 WHERE n=7"),
    "an input deleted": _sql("DELETE FROM inputs WHERE n=30"),
    "an input of the wrong type": _sql("UPDATE inputs SET t='noon' WHERE n=9"),
    "an undecodable input with its hash": _sql("UPDATE inputs SET event='roll d6 x', hash='' WHERE n=11"),
    "the seed edited": _sql("UPDATE games SET seed=seed+1"),
    "the set-up unreadable": _sql("UPDATE games SET setup='{not json'"),
    "the last inputs cut off": _sql("DELETE FROM inputs WHERE n>100"),
    "garbage in the middle": _bytes(None, 2000),
    "garbage over the header": _bytes(0, 100),
    "the file cut in half": _truncate(0.5),
    "an empty file": _truncate(0.0),
}


class Done:
    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def cli(*argv: str) -> Done:
    """In-process (a fresh interpreter per call would cost seconds): an exception escaping main is a traceback."""
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(list(argv))
    return Done(status, out.getvalue(), err.getvalue())


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("played")
    (d / "s.txt").write_text(SCRIPT)
    r = run_companion("play", VP, "--script", str(d / "s.txt"), "--journal", str(d / "j.sqlite"), "--seed", "2",
                      "--state-json", str(d / "full.json"))
    assert r.returncode == 0, r.stderr
    return d


@pytest.mark.parametrize("kind", sorted(CORRUPTIONS))
def test_damaged_journals_say_one_line_and_lose_no_more_than_the_damage(played: Path, tmp_path: Path,
                                                                        kind: str) -> None:
    j = tmp_path / "j.sqlite"
    shutil.copy(played / "j.sqlite", j)
    CORRUPTIONS[kind](j)
    damaged = hashlib.sha256(j.read_bytes()).hexdigest()

    r = cli("journal", "check", str(j))
    assert r.returncode in (0, 1, 2), r.stderr
    if r.returncode == 2:
        assert r.stderr.count("\n") == 1
    assert hashlib.sha256(j.read_bytes()).hexdigest() == damaged, "check wrote to the damaged file"

    r = cli("play", VP, "--script", str(played / "s.txt"), "--journal", str(j), "--resume",
            "--state-json", str(tmp_path / "out.json"))
    if r.returncode == 0:  # played on from the last good input (or nothing was lost)
        assert r.stderr.count("\n") <= 1
        assert (tmp_path / "out.json").read_text() == (played / "full.json").read_text() or kind == "the seed edited"
    else:
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and r.stderr.startswith("companion: "), r.stderr

    fresh = tmp_path / "boot" / "journal.sqlite"
    fresh.parent.mkdir()
    shutil.copy(played / "j.sqlite", fresh)
    CORRUPTIONS[kind](fresh)
    try:
        opened = open_for_run(fresh)
    except Exception as e:  # only a one-line CompanionError may stop the start-up
        from companion.errors import CompanionError
        assert isinstance(e, CompanionError) and "\n" not in str(e), repr(e)
        return
    opened.journal.close()
    if opened.aside is not None:
        assert any(f.name.startswith("journal.damaged-") for f in fresh.parent.iterdir())


def test_the_messages(played: Path, tmp_path: Path) -> None:
    """What a user reads for the commonest cases."""
    j = tmp_path / "j.sqlite"
    shutil.copy(played / "j.sqlite", j)
    CORRUPTIONS["garbage over the header"](j)
    r = cli("play", VP, "--script", str(played / "s.txt"), "--journal", str(j), "--resume")
    assert r.returncode == 2 and "is damaged" in r.stderr and "salvage" in r.stderr and "move the file away" in r.stderr
    shutil.copy(played / "j.sqlite", j)
    CORRUPTIONS["an input deleted"](j)
    r = cli("journal", "check", str(j))
    assert r.returncode == 1 and "inputs 1..29 verified; input 30 is missing" in r.stdout
    os.chmod(tmp_path, 0o500)
    try:
        if os.geteuid() != 0:
            r = cli("play", VP, "--script", str(played / "s.txt"), "--journal", str(tmp_path / "n.sqlite"))
            assert r.returncode == 2 and "move the file away" not in r.stderr
    finally:
        os.chmod(tmp_path, 0o700)


def test_play_never_writes_into_a_file_sqlite_reports_damaged(played: Path, tmp_path: Path) -> None:
    """Garbage over a page SQLite's check finds, while every input still reads: playing on would add rows to a
    damaged file (and fail later, or spread the damage); one line says so and the file stays as it is."""
    j = tmp_path / "j.sqlite"
    shutil.copy(played / "j.sqlite", j)
    CORRUPTIONS["garbage in the middle"](j)
    from companion.journal.salvage import check

    assert check(j).sqlite is not None
    damaged = hashlib.sha256(j.read_bytes()).hexdigest()
    longer = tmp_path / "longer.txt"
    longer.write_text((played / "s.txt").read_text() + "ok\ndown\n")
    r = cli("play", VP, "--script", str(longer), "--journal", str(j), "--resume")
    assert r.returncode == 2 and r.stderr.count("\n") == 1, r.stderr
    assert "is damaged (SQLite's check: " in r.stderr and f"journal salvage {j} -o NEW" in r.stderr
    assert hashlib.sha256(j.read_bytes()).hexdigest() == damaged
    r = cli("journal", "check", str(j))
    assert r.returncode == 1 and r.stdout.splitlines()[0].startswith(f"{j}: SQLite reports damage: ")
    assert len(r.stdout.splitlines()) == 2, r.stdout  # the damage on one line, the game on the next


def test_a_file_cut_short_still_lists_its_games(played: Path, tmp_path: Path) -> None:
    """The schema names pages past the cut: SQLite then refuses every table; check reads what is there."""
    j = tmp_path / "j.sqlite"
    shutil.copy(played / "j.sqlite", j)
    CORRUPTIONS["the file cut in half"](j)
    r = cli("journal", "check", str(j))
    assert r.returncode == 1 and "game 1 (VP tracker, active): " in r.stdout, r.stdout
    out = tmp_path / "new.sqlite"
    r = cli("journal", "salvage", str(j), "-o", str(out))
    assert r.returncode == 0 and "1 of 1 games copied" in r.stdout, r.stdout + r.stderr
