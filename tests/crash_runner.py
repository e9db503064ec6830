"""The crash-point test's worker: kill `companion play` at EVERY call of a syscall and resume each to the end.

    python tests/crash_runner.py GAME SCRIPT WORKDIR REFERENCE_JSON --from JOURNAL_DIR [--max N]

First it checks that strace can attach to a fork of it and kill it at a call here (if not: one JSON line
{"problem": "..."} and status 3). Then four walks run side by side, each a fork of this warm process: every
``fdatasync`` and every ``pwrite64`` of a new game and of a running one (``--from``: each run starts from a copy of a
journal already holding part of the game). A walk, for N = 1, 2, 3, ..., plays SCRIPT with strace's fault injection
delivering SIGKILL on entry to the N-th call, resumes the killed run with ``--resume`` and checks that the end state is
REFERENCE_JSON's and that every input of the journal verifies; it stops at the first N the run survives (every crash
point has been tried). Prints one JSON line per walk: {"case", "syscall", "status", "points", "calls", "resumed",
"survived", "failures"}.

The companion is imported once and each run is a fork of this process, so one crash point costs a few hundredths of
a second instead of an interpreter start: that is what lets `make test` try every crash point. strace stops the
traced process at every system call (a thousand in a run), so it attaches late: one run traced whole first counts
the SYSCALL calls before each commit of the journal (the child marks each commit with a getsid() call); a run to be
killed at the N-th call plays untraced up to the last commit with fewer than N calls before it, asks for strace there
(a byte on a pipe) and strace kills it at the right call after that commit. The runs are the same script from the
same start, so that is the N-th call of the whole run; the walk must find exactly as many crash points as the
counted run made calls. The child waits for strace to be in place by calling getppid() until strace's ``retval``
injection answers it.
"""
from __future__ import annotations

import argparse
import bisect
import json
import os
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import companion.cli
import companion.session.headless  # noqa: F401  (imported before the forks: each run pays only for playing)
import companion.session.core  # noqa: F401
from companion.journal.store import Journal
from companion.journal.walscan import scan

#: the CLI's parser, built once here: argparse asks gettext and the terminal's size for every option it adds
#: (about 400 of a run's 1,400 system calls), and strace stops the traced child at each of them
_PARSER = companion.cli.build_parser()
companion.cli.build_parser = lambda: _PARSER

HANDSHAKE = 7_777_777  #: what strace makes getppid() return once it traces the child


def _allow_tracer() -> None:
    """Under Yama's ptrace_scope 1 only an ancestor may trace a process: let strace (our sibling) attach."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(0x59616D61, ctypes.c_ulong(-1), 0, 0, 0)  # PR_SET_PTRACER_ANY
    except (OSError, AttributeError):
        pass


def _handshake() -> None:
    """Wait for strace to be in place: it makes getppid() answer HANDSHAKE once it traces this process."""
    _allow_tracer()
    deadline = time.monotonic() + 30
    while os.getppid() != HANDSHAKE:
        if time.monotonic() > deadline:
            os._exit(71)
        time.sleep(0.0005)


def _child(argv: list[str], log: Path, attach: int | None, ask: int, marks: bool) -> None:
    """In the forked child: play, exit with the CLI's status (never returns). ``attach`` None: untraced; 0: wait for
    the tracer before playing; i > 0: play untraced up to the i-th commit, then ask the parent (a byte on the pipe
    ``ask``) for the tracer and wait for it. ``marks``: call getsid() on entering each commit (what the counting run
    sees)."""
    code = 70
    try:
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        os.close(fd)
        if attach is not None and attach > 0 or marks:
            commits = 0
            commit = Journal.commit

            def counted(self: Journal, *a: Any, **k: Any) -> None:
                nonlocal commits
                commits += 1
                if marks:
                    os.getsid(0)
                if commits == attach:
                    os.write(ask, b"!")
                    _handshake()
                commit(self, *a, **k)

            Journal.commit = counted  # type: ignore[method-assign]
        if attach == 0:
            os.write(ask, b"!")
            _handshake()
        code = companion.cli.main(argv) if argv else 0  # no argv: --probe
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException as e:  # noqa: BLE001 - the child must never return into the parent's code
        try:
            print(f"crash_runner child: {type(e).__name__}: {e}", file=sys.stderr, flush=True)
        finally:
            os._exit(72)
    os._exit(code)


def _run(argv: list[str], log: Path, strace: list[str] | None = None, attach: int = 0, marks: bool = False) -> int:
    """Play in a forked child; returns its status, -SIG when killed by a signal. With ``strace`` (its options), strace
    attaches to the child when it asks: at the start (``attach`` 0) or on entering its ``attach``-th commit."""
    sys.stdout.flush()
    sys.stderr.flush()
    ask, told = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(ask)
        _child(argv, log, attach if strace is not None else None, told, marks)
    os.close(told)
    tracer = None
    try:
        if strace is not None and os.read(ask, 1):  # nothing read: the child ended before it asked
            tracer = subprocess.Popen(["strace", "-f", "-qq", *strace, "-e", f"inject=getppid:retval={HANDSHAKE}",
                                       "-p", str(pid)], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE)
    finally:
        os.close(ask)
    if tracer is not None:  # woken by either one's end (pidfds), never by a poll interval
        child, strace = os.pidfd_open(pid), os.pidfd_open(tracer.pid)
        try:
            waiting = [child, strace]
            while child not in select.select(waiting, [], [])[0]:
                if tracer.wait() != 0:  # strace refusing to attach must not leave the child waiting for it
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    err = tracer.stderr.read().decode(errors="replace") if tracer.stderr else ""
                    raise SystemExit(f"strace cannot attach: {err.strip().splitlines()[-1:] or tracer.returncode}")
                waiting = [child]
            _, status = os.waitpid(pid, 0)
            if strace in waiting and not select.select([strace], [], [], 30)[0]:
                tracer.kill()
            tracer.wait()
        finally:
            os.close(child)
            os.close(strace)
        if tracer.stderr is not None:
            tracer.stderr.close()
    else:
        _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)


def _here(argv: list[str], log: Path) -> int:
    """Play in this process, its output to ``log``: a resume (a fork costs as much as the resume itself, in the pages
    the child copies on writing them). The walk's kills are real processes; what a resume reads is the files they
    left."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.dup2(fd, 1)
        os.dup2(fd, 2)
        try:
            return companion.cli.main(argv)
        except SystemExit as e:
            return e.code if isinstance(e.code, int) else 2
        except Exception as e:  # noqa: BLE001 - said in the log, a failed resume like any other
            print(f"crash_runner resume: {type(e).__name__}: {e}", file=sys.stderr)
            return 73
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for f in (fd, *saved):
            os.close(f)


def _kill(syscall: str, when: int) -> list[str]:
    """strace's options that kill the traced process on entering its ``when``-th ``syscall``."""
    return ["-o", os.devnull, "-e", f"trace={syscall},getppid", "-e", f"inject={syscall}:signal=KILL:when={when}"]


def _count(argv: list[str], syscall: str, workdir: Path) -> tuple[list[int], int]:
    """One run traced whole: how many ``syscall`` calls come before each commit, and how many in all."""
    trace = workdir / "count.strace"
    rc = _run(argv, workdir / "count.log", ["-o", str(trace), "-e", f"trace={syscall},getppid,getsid"], marks=True)
    if rc != 0:
        raise SystemExit(f"the counted run failed (status {rc}): {(workdir / 'count.log').read_text()[-500:]}")
    before: list[int] = []
    calls = 0
    for line in trace.read_text().splitlines():
        call = line.split(None, 1)[-1]
        if call.startswith(f"{syscall}("):
            calls += 1
        elif call.startswith("getsid("):
            before.append(calls)
    trace.unlink()
    return before, calls


def _where(n: int, before: list[int]) -> tuple[int, int]:
    """Where to attach to kill at the n-th call: the last commit (1-based; 0 is the start) with fewer calls before it,
    and which call of those after it the n-th is."""
    i = bisect.bisect_left(before, n)  # before[:i] < n
    return i, n - (before[i - 1] if i else 0)


def _walk(syscall: str, game: str, script: str, workdir: Path, reference: Any, start: Path | None, seed: str,
          most: int) -> dict[str, Any]:
    """Kill a run at its 1st, 2nd, ... ``syscall`` call, resume each; ``start``: a copy of that journal first."""
    resume_first = start is not None

    def fresh(name: str) -> tuple[Path, list[str]]:
        w = workdir / f"{syscall}-{name}"
        shutil.rmtree(w, ignore_errors=True)
        if start is not None:
            shutil.copytree(start, w)
        else:
            w.mkdir(parents=True)
        return w, ["play", game, "--script", script, "--journal", str(w / "j.sqlite"), "--seed", seed,
                   "--state-json", str(w / "state.json")]

    w, argv = fresh("count")
    before, calls = _count(argv + (["--resume"] if resume_first else []), syscall, w)
    shutil.rmtree(w, ignore_errors=True)
    failures: list[str] = []
    points = resumed = 0
    survived = False
    for n in range(1, most + 1):
        w, argv = fresh(str(n))
        out = w / "state.json"
        commit, when = _where(n, before)  # untraced up to there: the same run, so the same n-th call
        rc = _run(argv + (["--resume"] if resume_first else []), w / "killed.log", _kill(syscall, when), commit)
        if rc == 0:  # the N-th call never came: every crash point before it has been tried
            survived = json.loads(out.read_text()) == reference
            if not survived:
                failures.append(f"#{n}: the run that was not killed ended in another state")
            shutil.rmtree(w, ignore_errors=True)
            break
        if rc != -signal.SIGKILL:
            failures.append(f"#{n}: not killed (status {rc}): {(w / 'killed.log').read_text()[-500:]}")
            break
        points += 1
        if (damage := scan(w / "j.sqlite")) is not None:  # a kill is no damage: the -wal reader must know that
            failures.append(f"#{n}: the kill was taken for write-ahead log damage: {damage.message()}")
        rc = _here(argv + ["--resume"], w / "resumed.log")
        if rc != 0:
            failures.append(f"#{n}: resume failed (status {rc}): {(w / 'resumed.log').read_text()[-500:]}")
            continue
        if re.search(r"saved inputs? lost", said := (w / "resumed.log").read_text()):  # the witness ran ahead
            failures.append(f"#{n}: the resume took the kill for lost inputs: {said[-500:]}")
            continue
        if json.loads(out.read_text()) != reference:
            failures.append(f"#{n}: resumed to another end state")
            continue
        j = Journal(w / "j.sqlite")
        try:
            sound = j.quick_check()
            games = j.games()
            broken = [g.id for g in games if j.verified_inputs(g.id)[1] is not None]
        finally:
            j.close()
        if sound is not None or len(games) != 1 or broken:
            failures.append(f"#{n}: SQLite's check {sound or 'ok'}, {len(games)} games in the journal, inputs "
                            f"failing their check in {broken}")
            continue
        resumed += 1
        shutil.rmtree(w, ignore_errors=True)
    else:
        failures.append(f"still killed at #{most}: raise --max")
    if points != calls:
        failures.append(f"{points} crash points tried, but the run traced whole made {calls} {syscall} calls")
    return {"syscall": syscall, "points": points, "calls": calls, "resumed": resumed, "survived": survived,
            "failures": failures}


def _probe() -> str | None:
    """Why strace cannot attach to a fork of this process and kill it at a call here, or None when it can."""
    try:
        rc = _run([], Path(os.devnull), _kill("fdatasync", 1))
    except SystemExit as e:
        return str(e)
    return None if rc == 0 else f"strace cannot trace here (the traced child ended with status {rc})"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("script")
    ap.add_argument("workdir", type=Path)
    ap.add_argument("reference", type=Path)
    ap.add_argument("--from", dest="start", type=Path, required=True)
    ap.add_argument("--seed", default="5")
    ap.add_argument("--max", type=int, default=2000)
    args = ap.parse_args()
    if (problem := _probe()) is not None:
        print(json.dumps({"problem": problem}))
        return 3
    reference = json.loads(args.reference.read_text())
    # one whole run in this process first: every module a run imports lazily is then imported once, not per fork
    # (with PYTHONDONTWRITEBYTECODE each import would compile its source again in every child)
    warm = args.workdir / "warm-up"
    shutil.rmtree(warm, ignore_errors=True)
    warm.mkdir(parents=True)
    failure = None
    if companion.cli.main(["play", args.game, "--script", args.script, "--journal", str(warm / "j.sqlite"),
                           "--seed", args.seed, "--state-json", str(warm / "state.json")]) != 0:
        failure = "the uninterrupted run failed"
    elif json.loads((warm / "state.json").read_text()) != reference:
        failure = "the uninterrupted run in the runner ended in another state"
    shutil.rmtree(warm, ignore_errors=True)
    walks: dict[tuple[str, str], int] = {}
    for case, start in (("new game", None), ("running game", args.start)):
        for syscall in ("fdatasync", "pwrite64"):
            if failure is not None:
                print(json.dumps({"case": case, "syscall": syscall, "status": 1, "points": 0, "resumed": 0,
                                  "survived": False, "failures": [failure]}))
                continue
            sys.stdout.flush()
            sys.stderr.flush()
            pid = os.fork()  # the four walks side by side, each from this warm interpreter
            if pid == 0:
                code = 72
                try:
                    result = _walk(syscall, args.game, args.script, args.workdir / f"{case[0]}-{syscall}",
                                   reference, start, args.seed, args.max)
                    (args.workdir / f"{case[0]}-{syscall}.json").write_text(json.dumps(result))
                    code = 0 if not result["failures"] else 1
                except BaseException as e:  # noqa: BLE001 - a walk must never return into the parent's loop
                    print(f"crash_runner walk {case}, {syscall}: {type(e).__name__}: {e}", file=sys.stderr)
                finally:
                    sys.stderr.flush()
                    os._exit(code)
            walks[case, syscall] = pid
    statuses = [] if failure is None else [1]
    for (case, syscall), pid in walks.items():
        statuses.append(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
        out = args.workdir / f"{case[0]}-{syscall}.json"
        result = json.loads(out.read_text()) if out.exists() else {"failures": ["the walk left no result"]}
        print(json.dumps({"case": case, "status": statuses[-1], **result}))
    return max(statuses, key=abs)


if __name__ == "__main__":
    sys.exit(main())
