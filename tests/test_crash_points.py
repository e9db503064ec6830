"""Kill the process at a syscall of the journal's writes — every fdatasync and pwrite64 of a new game and of a
running one, sampled (CRASH_POINTS=all runs every one) — and resume: the end state is always the uninterrupted one.

strace's syscall fault injection delivers SIGKILL on entry to the N-th call (``-e inject=fdatasync:signal=KILL:
when=N``), so the process dies just before that write or sync happens: every instant of journal creation, game
creation and each press's commit is a crash point.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from companion.journal import Journal
from conftest import EXAMPLES, ROOT

GAME = str(EXAMPLES / "race-to-ten.toml")
EVENTS = 40  #: presses in the script
PREFIX = 15  #: presses already in the journal for the "running game" case
SAMPLE = 6  #: crash points per syscall and case in `make test` (4 combinations); CRASH_POINTS=all: every one


def _strace_problem() -> str | None:
    if shutil.which("strace") is None:
        return "strace is not installed (apt-get install strace)"
    r = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=fdatasync", "true"],
                       capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        return f"strace cannot trace here ({(r.stderr.strip().splitlines() or ['ptrace refused'])[-1]})"
    return None


PROBLEM = _strace_problem()
pytestmark = [pytest.mark.slow, pytest.mark.timeout(7200 if os.environ.get("CRASH_POINTS") == "all" else 600),
              pytest.mark.skipif(PROBLEM is not None, reason=f"crash-point test skipped: {PROBLEM}")]


def _script() -> str:
    sys.path.insert(0, str(Path(__file__).parent))
    from test_play import random_script

    lines = random_script(11, EVENTS - 2).splitlines()
    return "\n".join(lines) + "\n"


def _play(workdir: Path, script: Path, out: Path, *, resume: bool, inject: str | None = None) \
        -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, "-m", "companion.cli", "play", GAME, "--script", str(script), "--journal",
           str(workdir / "j.sqlite"), "--seed", "5", "--state-json", str(out)] + (["--resume"] if resume else [])
    if inject is not None:
        cmd = ["strace", "-f", "-qq", "-o", "/dev/null", "-e", f"trace={inject.split(':')[0]}", "-e",
               f"inject={inject}"] + cmd
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=ROOT)


def _count(workdir: Path, script: Path, syscall: str) -> int:
    trace = workdir / "trace"
    subprocess.run(["strace", "-f", "-qq", "-o", str(trace), "-e", f"trace={syscall}", sys.executable, "-m",
                    "companion.cli", "play", GAME, "--script", str(script), "--journal", str(workdir / "j.sqlite"),
                    "--seed", "5", "--resume", "--state-json", str(workdir / "count.json")],
                   capture_output=True, timeout=120, cwd=ROOT, check=True)
    return sum(1 for line in trace.read_text().splitlines() if f"{syscall}(" in line)


def _points(total: int) -> list[int]:
    if os.environ.get("CRASH_POINTS") == "all":
        return list(range(1, total + 1))
    picks = {1, 2, 3, total}  # journal creation is in the first few; the last is the final commit
    step = max(1, total // max(1, SAMPLE - len(picks)))
    picks.update(range(4, total, step))
    return sorted(p for p in picks if 1 <= p <= total)[:SAMPLE] if SAMPLE < total else list(range(1, total + 1))


@pytest.fixture(scope="module")
def base() -> Path:
    root = Path("/dev/shm") if os.access("/dev/shm", os.W_OK) else None  # tmpfs: the syncs cost nothing
    d = Path(tempfile.mkdtemp(prefix="crash-", dir=root))
    script = d / "s.txt"
    script.write_text(_script())
    (d / "ref").mkdir()
    r = _play(d / "ref", script, d / "ref.json", resume=False)
    assert r.returncode == 0, r.stderr
    (d / "run").mkdir()
    prefix = d / "prefix.txt"
    prefix.write_text("".join(script.read_text().splitlines(keepends=True)[:PREFIX + 1]))  # the comment + PREFIX
    r = _play(d / "run", prefix, d / "run.json", resume=False)
    assert r.returncode == 0, r.stderr
    yield d
    shutil.rmtree(d, ignore_errors=True)


@pytest.mark.parametrize("case", ["new game", "running game"])
@pytest.mark.parametrize("syscall", ["fdatasync", "pwrite64"])
def test_kill_at_each_write_then_resume_gives_the_uninterrupted_end(base: Path, case: str, syscall: str) -> None:
    script = base / "s.txt"
    reference = json.loads((base / "ref.json").read_text())

    def fresh(tag: str) -> Path:
        w = base / f"{case[0]}-{syscall}-{tag}"
        shutil.rmtree(w, ignore_errors=True)
        if case == "running game":
            shutil.copytree(base / "run", w)
        else:
            w.mkdir()
        return w

    total = _count(fresh("count"), script, syscall)
    assert total > 0
    killed = resumed = 0
    for n in _points(total):
        w = fresh(str(n))
        r = _play(w, script, w / "state.json", resume=case == "running game", inject=f"{syscall}:signal=KILL:when={n}")
        assert r.returncode in (-9, 137), f"crash point {syscall} #{n}: not killed ({r.returncode}) {r.stderr}"
        killed += 1
        r = _play(w, script, w / "state.json", resume=True)
        assert r.returncode == 0, f"crash point {syscall} #{n} of {total}: resume failed: {r.stderr}"
        assert json.loads((w / "state.json").read_text()) == reference, f"crash point {syscall} #{n} of {total}"
        j = Journal(w / "j.sqlite")
        try:
            games = j.games()
            assert len(games) == 1 and j.verified_inputs(games[0].id)[1] is None
        finally:
            j.close()
        resumed += 1
        shutil.rmtree(w, ignore_errors=True)
    print(f"{case}, {syscall}: {killed} crash points of {total} killed and resumed to the same end state")
    assert killed == resumed > 0
