"""Kill the process at a syscall of the journal's writes — EVERY fdatasync and every pwrite64 of a new game and of a
running one — and resume: the end state is always the uninterrupted one and every input verifies.

strace's syscall fault injection delivers SIGKILL on entry to the N-th call (``-e inject=fdatasync:signal=KILL:
when=N``), so the process dies just before that write or sync happens: every instant of journal creation, game
creation and each press's commit is a crash point. ``tests/crash_runner.py`` walks N = 1, 2, ... until a run is no
longer killed, so no crash point is left out (and checks that it found as many as a run traced whole makes calls); it
forks each run (and each of the four walks) from one warm interpreter and lets strace attach only at the last commit
before the N-th call, which is what makes several hundred crash points take well under a minute.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import EXAMPLES, ROOT, run_companion

GAME = str(EXAMPLES / "race-to-ten.toml")
EVENTS = 40  #: presses in the script
PREFIX = 15  #: presses already in the journal for the "running game" case
RUNNER = Path(__file__).with_name("crash_runner.py")
#: the fewest crash points each case must have tried (the counts as measured: 103, 60, 315, 187): a runner that
#: stopped early, or a journal that stopped syncing, fails here
AT_LEAST = {("new game", "fdatasync"): 40, ("running game", "fdatasync"): 20, ("new game", "pwrite64"): 150,
            ("running game", "pwrite64"): 80}
pytestmark = [pytest.mark.slow, pytest.mark.timeout(600),
              pytest.mark.skipif(shutil.which("strace") is None,
                                 reason="crash-point test skipped: strace is not installed (apt-get install strace)")]


def _script() -> str:
    sys.path.insert(0, str(Path(__file__).parent))
    from test_play import random_script

    return random_script(11, EVENTS - 2)


def _play(workdir: Path, script: Path, out: Path) -> None:
    r = run_companion("play", GAME, "--script", str(script), "--journal", str(workdir / "j.sqlite"), "--seed", "5",
                      "--state-json", str(out), timeout=120)
    assert r.returncode == 0, r.stderr


@pytest.fixture(scope="module")
def base() -> Iterator[Path]:
    root = Path("/dev/shm") if os.access("/dev/shm", os.W_OK) else None  # tmpfs: the syncs cost nothing
    d = Path(tempfile.mkdtemp(prefix="crash-", dir=root))
    script = d / "s.txt"
    script.write_text(_script())
    (d / "ref").mkdir()
    _play(d / "ref", script, d / "ref.json")
    (d / "run").mkdir()
    prefix = d / "prefix.txt"
    prefix.write_text("".join(script.read_text().splitlines(keepends=True)[:PREFIX + 1]))  # the comment + PREFIX
    _play(d / "run", prefix, d / "run.json")
    assert json.loads((d / "run.json").read_text())["journal_entries"] == PREFIX
    yield d
    shutil.rmtree(d, ignore_errors=True)


CASES = [(case, syscall) for syscall in ("fdatasync", "pwrite64") for case in ("new game", "running game")]


@pytest.fixture(scope="module")
def walks(base: Path) -> tuple[dict[tuple[str, str], dict[str, Any]], str]:
    """The four walks, run side by side by one runner (each a fork of it, after it found that strace can attach and
    inject here: if not, the tests skip with its one line): each walk's result by (case, syscall), and its stderr."""
    r = subprocess.run([sys.executable, str(RUNNER), GAME, str(base / "s.txt"), str(base), str(base / "ref.json"),
                        "--from", str(base / "run")], capture_output=True, text=True, cwd=ROOT, timeout=540)
    lines = [json.loads(ln) for ln in r.stdout.splitlines() if ln.startswith("{")]
    if r.returncode == 3 and lines and lines[0].get("problem"):
        pytest.skip(f"crash-point test skipped: {lines[0]['problem']}")
    return {(ln["case"], ln["syscall"]): ln for ln in lines if "case" in ln}, r.stderr


@pytest.mark.parametrize("case, syscall", CASES)
def test_kill_at_every_write_then_resume_gives_the_uninterrupted_end(
        walks: tuple[dict[tuple[str, str], dict[str, Any]], str], case: str, syscall: str) -> None:
    results, stderr = walks
    assert (case, syscall) in results, f"the crash runner printed no result for this walk: {stderr[-2000:]}"
    result = results[case, syscall]
    assert result["failures"] == [], "\n".join(result["failures"])
    assert result["status"] == 0, stderr[-2000:]
    assert result["survived"], "the run past the last crash point did not end in the uninterrupted state"
    assert result["resumed"] == result["points"] == result["calls"] >= AT_LEAST[case, syscall], result
    print(f"crash points, {case}, {syscall}: {result['points']} tried (every call), {result['resumed']} killed and "
          "resumed to the uninterrupted end state")
