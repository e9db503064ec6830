"""`companion play`: determinism, resume after SIGKILL at random points, frames, and bad scripts."""
from __future__ import annotations

import json
import random
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from PIL import Image

from companion.session.headless import parse_script, play
from companion.errors import ScriptError
from conftest import EXAMPLES, run_companion, start_companion

RACE = EXAMPLES / "race-to-ten.toml"


def random_script(seed: int, n: int, wait: float = 0.0) -> str:
    """A long random session: mostly OK and moves, some rolls, holds and backs; comments and waits mixed in."""
    rng = random.Random(seed)
    lines = ["# random session", "ok", "ok"]
    for _ in range(n):
        r = rng.random()
        if r < 0.45:
            lines.append("ok")
        elif r < 0.75:
            lines.append(rng.choice(["up", "down"]))
        elif r < 0.85:
            lines.append(f"roll d6 {rng.randint(1, 6)}")
        elif r < 0.92:
            lines.append("back")
        else:
            lines.append("hold")
        if wait:
            lines.append(f"wait {wait}")
    return "\n".join(lines) + "\n"


def test_same_script_and_seed_give_identical_state(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text(random_script(1, 300))
    a, b = tmp_path / "a.json", tmp_path / "b.json"
    play(str(RACE), script, seed=7, state_json=a)
    play(str(RACE), script, seed=7, state_json=b)
    assert a.read_bytes() == b.read_bytes()
    state = json.loads(a.read_text())
    assert state["journal_entries"] == 302
    for key in ("game", "state", "round", "active_player", "players", "journal_entries"):
        assert key in state
    assert {"name", "seat", "gold", "vp"} <= set(state["players"][0])


def test_resume_from_a_truncated_journal_matches(tmp_path: Path) -> None:
    """Resume after any number of applied events (the in-process twin of the SIGKILL test)."""
    text = random_script(2, 200)
    script = tmp_path / "s.txt"
    script.write_text(text)
    full = play(str(RACE), script, seed=3)
    events = [ln for ln in text.splitlines() if ln and not ln.startswith("#")]
    for cut in (0, 1, 2, 57, 150):
        partial = tmp_path / f"p{cut}.txt"
        partial.write_text("\n".join(events[:cut]) + "\n")
        journal = tmp_path / f"j{cut}.sqlite"
        play(str(RACE), partial, seed=3, journal_path=journal)
        resumed = play(str(RACE), script, seed=99, journal_path=journal, resume=True)
        assert resumed == full, f"resume after {cut} events differs"


def _wal(journal: Path) -> tuple[int, int] | None:
    """The journal's write-ahead log as seen from outside (size, time): it changes when the game writes an input."""
    try:
        st = (journal.parent / (journal.name + "-wal")).stat()
    except FileNotFoundError:
        return None
    return st.st_size, st.st_mtime_ns


@pytest.mark.slow
def test_sigkill_at_random_points_then_resume(tmp_path: Path) -> None:
    """Three games, each killed twice at random moments and resumed; the three, and the uninterrupted run they are
    compared with (played in this process), play side by side: the wait is one game's, not four. A kill's moment is
    counted from the run's first write (not from its start, which a busy machine draws out), so it lands mid-game."""
    script = tmp_path / "s.txt"
    script.write_text(random_script(5, 120, wait=0.005))  # 0.6 s of waits: a game, kills and resumes within 2 s
    expected = tmp_path / "expected.json"
    cmd = ["play", str(RACE), "--script", str(script), "--seed", "11"]
    rng = random.Random(0)
    delays = [[rng.uniform(0.2, 0.6) for _ in range(2)] for _attempt in range(3)]  # the first kill lands mid-game

    def attempt(n: int) -> tuple[int, subprocess.CompletedProcess[str]]:
        journal, out = tmp_path / f"j{n}.sqlite", tmp_path / f"out{n}.json"
        run = cmd + ["--journal", str(journal), "--state-json", str(out)]
        kills = 0
        for delay in delays[n]:  # kill it twice at random points, each time resuming
            before = _wal(journal)
            p = start_companion(*run, *(["--resume"] if kills else []), stderr=tmp_path / f"err{n}.txt")
            while p.poll() is None and _wal(journal) == before:  # not yet playing
                time.sleep(0.005)
            time.sleep(delay)
            if p.poll() is None:
                p.send_signal(signal.SIGKILL)
                kills += 1
            p.wait()
        return kills, run_companion(*run, "--resume", timeout=60)

    with ThreadPoolExecutor(4) as pool:
        uninterrupted = pool.submit(play, str(RACE), script, seed=11, state_json=expected)  # in this process
        attempts = list(pool.map(attempt, range(3)))
        uninterrupted.result(timeout=60)
    for n, (kills, r) in enumerate(attempts):
        assert r.returncode == 0, r.stderr
        end = (tmp_path / f"out{n}.json").read_bytes()
        assert end == expected.read_bytes(), f"attempt {n} ({kills} kills) ended elsewhere"
        assert kills > 0, "the run finished before it could be killed; the test proves nothing"


def test_frames_one_png_per_distinct_screen(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("ok\nok\nup\nup\ndown\ndown\n")  # up/up then down/down: screens repeat but in order
    frames = tmp_path / "frames"
    play(str(RACE), script, seed=1, frames=frames)
    pngs = sorted(frames.glob("*.png"))
    assert len(pngs) >= 4
    imgs = [Image.open(p).tobytes() for p in pngs]
    assert all(a != b for a, b in zip(imgs, imgs[1:])), "two consecutive frames are the same"


def test_senseless_events_are_ignored(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("roll d12 5\nback\nback\nroll d6 3 4\nok\nok\nroll d12 1\n")
    state = play(str(RACE), script, seed=1)
    assert state["state"] == "rolloff" and state["journal_entries"] == 7


def test_bad_script_lines_name_the_line(tmp_path: Path) -> None:
    for text, needle in (("ok\njump\n", "line 2"), ("roll d20 3\n", "roll d6"), ("roll d6 7\n", "1 to 6"),
                         ("wait soon\n", "wait")):
        with pytest.raises(ScriptError, match=needle):
            parse_script(text)
    script = tmp_path / "bad.txt"
    script.write_text("ok\nfly away\n")
    r = run_companion("play", str(RACE), "--script", str(script))
    assert r.returncode == 2
    assert r.stderr.strip().count("\n") == 0 and "line 2" in r.stderr and "Traceback" not in r.stderr


def test_unknown_game_is_one_line(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("ok\n")
    r = run_companion("play", "no-such-game", "--script", str(script))
    assert r.returncode == 2 and "no game 'no-such-game'" in r.stderr and "Traceback" not in r.stderr


def png_size(path: Path) -> tuple[int, int]:
    with Image.open(path) as img:
        return img.size


def test_frames_are_four_times_the_screen_and_a_new_run_starts_clean(tmp_path: Path) -> None:
    """Issue #22 item 14: --frames PNGs at the documented scale (default 4: 512x256), --frame-scale N for another;
    a second run into the same folder starts at 0001 again (saying so), --resume continues the numbering."""
    script = tmp_path / "s.txt"
    script.write_text("ok\nok\nup\n")
    frames = tmp_path / "frames"
    (tmp_path / "frames").mkdir()
    (frames / "notes.png").write_bytes(b"mine")  # not a frame: never touched
    said: list[str] = []
    play(str(RACE), script, seed=1, frames=frames, notify=said.append)
    first = sorted(p.name for p in frames.glob("0*.png"))
    assert first[0] == "0001.png" and png_size(frames / "0001.png") == (512, 256)
    assert said == []
    script.write_text("ok\n")
    play(str(RACE), script, seed=1, frames=frames, notify=said.append, frame_scale=2)
    again = sorted(p.name for p in frames.glob("0*.png"))
    assert again[0] == "0001.png" and len(again) < len(first), again  # the first run's frames are gone
    assert png_size(frames / "0001.png") == (256, 128)
    assert (frames / "notes.png").read_bytes() == b"mine"
    assert said == [f"--frames {frames}: removed the {len(first)} frames of an earlier run; numbering starts at 0001"]
    r = run_companion("play", str(RACE), "--script", str(script), "--frames", str(frames), "--frame-scale", "0")
    assert r.returncode != 0 and r.stderr.count("\n") == 1 and "--frame-scale 0" in r.stderr, r.stderr
    r = run_companion("play", "--help", fresh=True)  # the help of a clean start
    assert "--frame-scale" in r.stdout and "default 4" in r.stdout


def test_frames_continue_their_numbering_on_resume(tmp_path: Path) -> None:
    script, journal, frames = tmp_path / "s.txt", tmp_path / "j.sqlite", tmp_path / "frames"
    script.write_text("ok\nok\n")
    play(str(RACE), script, seed=1, frames=frames, journal_path=journal)
    n = len(list(frames.glob("*.png")))
    script.write_text("ok\nok\nup\ndown\n")
    said: list[str] = []
    play(str(RACE), script, seed=1, frames=frames, journal_path=journal, resume=True, notify=said.append)
    names = sorted(p.name for p in frames.glob("*.png"))
    assert len(names) > n and names[:n] == [f"{i:04d}.png" for i in range(1, n + 1)]
    assert said == [f"--frames {frames}: --resume continues after frame {n:04d}.png"]
