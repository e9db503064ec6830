"""A damaged write-ahead log never loses saved inputs silently (issue #25).

A real game is played and killed (no close, no checkpoint), then one byte is flipped in each frame of its ``-wal``
(the frame header and the page) and in the log's header. Every saved input is then either still there or counted
as lost — by `companion journal check` (exit 3, "N saved inputs lost") and by `companion play --resume` (a line).
"""
from __future__ import annotations

import os
import random
import time
from pathlib import Path

import pytest

from companion.cli import main
from companion.config.load import parse_config
from companion.journal.salvage import CHECK_LOST, check
from companion.journal.store import Journal
from companion.journal.witness import witness_path
from companion.session import encode_event
from companion.session.headless import new_record, open_session, play

N = 30  #: inputs committed before the kill: a short game keeps the test fast


def _killed_game(folder: Path) -> tuple[Path, Path]:
    """Play N inputs of Sovereign in a forked child that dies without closing (as a power cut or kill -9 would)."""
    from companion.bench.replay import sovereign_script

    events = sovereign_script(N)
    script = folder / "s.txt"
    script.write_text("".join(_script_line(ev) + "\n" for ev in events))
    path = folder / "j.sqlite"
    pid = os.fork()
    if pid == 0:  # the child: commit every input like the loop does, then die mid-game
        try:
            cfg = parse_config({})
            j = Journal(path, lock=True)
            rec = new_record(j, "sovereign", cfg, 1)
            s = open_session(j, rec, cfg)
            for ev in events:
                records = s.handle(ev, time.time())
                j.commit(rec.id, s.n_inputs, encode_event(ev), records, s.summary())
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert status == 0
    assert Path(str(path) + "-wal").stat().st_size > 32, "the kill left no -wal to damage"
    return path, script


def _script_line(ev: object) -> str:
    text = encode_event(ev)  # type: ignore[arg-type]
    if text.startswith("roll "):
        return text.rsplit(" ", 1)[0]  # the script names the die and values; the roller is implied
    return text


def _frames(wal: bytes) -> list[int]:
    page = int.from_bytes(wal[8:12], "big")
    return list(range(32, len(wal) - 24 - page + 1, 24 + page))


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, bytes]]:
    folder = tmp_path_factory.mktemp("killed")
    path, script = _killed_game(folder)
    files = {s: Path(str(path) + s).read_bytes() for s in ("", "-wal", "-shm", ".head")
             if Path(str(path) + s).exists()}
    return path, script, files


def _restore(path: Path, files: dict[str, bytes]) -> None:
    """Put the killed game's files back, in place (the witness names the journal's inode)."""
    for suffix in ("-wal", "-shm"):
        p = Path(str(path) + suffix)
        if suffix not in files and p.exists():
            p.unlink()
    for suffix, data in files.items():
        with open(str(path) + suffix, "r+b" if Path(str(path) + suffix).exists() else "wb") as f:
            f.write(data)
            f.truncate()


def _flip(path: Path, at: int) -> None:
    with open(str(path) + "-wal", "r+b") as f:
        f.seek(at)
        b = f.read(1)
        f.seek(at)
        f.write(bytes([b[0] ^ 0x5A]))


def test_the_killed_game_is_whole_when_nothing_is_damaged(killed: tuple[Path, Path, dict[str, bytes]]) -> None:
    path, _script, files = killed
    _restore(path, files)
    report = check(path)
    assert report.status == 0 and not report.losses
    assert [len(g.rows) for g in report.games] == [N]
    assert witness_path(path).exists()


def test_a_byte_flipped_in_any_frame_of_the_wal_is_recovered_or_reported_with_the_count(
        killed: tuple[Path, Path, dict[str, bytes]], capsys: pytest.CaptureFixture[str]) -> None:
    path, script, files = killed
    wal = files["-wal"]
    frames = _frames(wal)
    page = int.from_bytes(wal[8:12], "big")
    rng = random.Random(25)
    spots = [5] + [f + rng.randrange(24) for f in frames] + [f + 24 + rng.randrange(page) for f in frames]
    outcomes = {"recovered": 0, "reported": 0}
    for at in spots:
        _restore(path, files)
        _flip(path, at)
        code = main(["journal", "check", str(path)])
        out = capsys.readouterr().out
        report = check(path)
        kept = len(report.games[0].rows) if report.games else 0
        if kept == N and report.sound:
            assert code == 0, (at, out)
            outcomes["recovered"] += 1
            continue
        lost = N - kept
        assert code == CHECK_LOST, (at, code, out)
        assert f"{lost} saved input{'s' * (lost != 1)} lost" in out, (at, out)
        # and at resume: one line says it, and the same script plays the lost presses again
        heard: list[str] = []
        try:
            state = play("sovereign", script, journal_path=path, resume=True, notify=heard.append, seed=1)
        except Exception as e:  # a file SQLite itself finds damaged is refused: that line must count the loss too
            assert f"{lost} saved input" in str(e), (at, str(e))
        else:
            assert any(f"{lost} saved input{'s' * (lost != 1)} lost" in h for h in heard), (at, heard)
            assert state["game"] == "sovereign"
        outcomes["reported"] += 1
    # a flip in a frame already folded into the main file loses nothing; the later frames' flips drop inputs
    assert outcomes["reported"] >= 3 and sum(outcomes.values()) == len(spots), outcomes
