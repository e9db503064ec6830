"""Issue #31: no file the box reads at start can stop it or loop it under systemd.

A thousand damaged boxes (tests/start_fuzz.py: journals and their side files, configs, pairings, snapshot keys,
games folders; seeded) go through `companion run`'s own start-up in-process — ``companion.cli.main(["run"])`` up to
its first frame, headless — twice each, as systemd would restart it: 0 tracebacks, 0 non-zero exits, and whatever
was set aside is said in one line on the phones (the snapshot's notices). A few dozen of the same boxes then go
through real `companion run` processes (ready by sd_notify, then SIGTERM), twice each: they come up, set aside the
same files as the in-process start did, and print no traceback. The figures are printed (``-s``).
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest

import start_fuzz
from conftest import FRESH, ROOT, _cli_parser, _the_zygote
from zygote import Child, Zygote

CASES = 1000  #: the issue's figure: at least a thousand damaged boxes
CHUNKS = 4  #: run as four tests, so that pytest-xdist spreads them
PROCESSES = 12  #: of them, through real `companion run` processes, twice each


@dataclass
class Start:
    """What one start did."""

    status: int
    resumed: bool = False
    notices: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  #: tracebacks, multi-line log lines
    aside: list[str] = field(default_factory=list)


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def scratch() -> Path:
    """A folder of its own on tmpfs where there is one (the boxes are copied a thousand times), else in /tmp."""
    shm = Path("/dev/shm")
    return Path(tempfile.mkdtemp(prefix="start-fuzz-", dir=shm if os.access(shm, os.W_OK) else None))


@pytest.fixture(scope="module")
def base() -> Iterator[Path]:
    """The box, kept as ``stash`` beside the path every case runs at (``box``): the files name their own paths (the
    config its journal, the journal its game's file), so each case is a copy at the very same place."""
    d = scratch()
    start_fuzz.make_box(d / "box")
    (d / "box").rename(d / "stash")
    yield d / "stash"
    shutil.rmtree(d, ignore_errors=True)


def fresh_box(stash: Path) -> Path:
    box = stash.with_name("box")
    shutil.rmtree(box, ignore_errors=True)
    shutil.copytree(stash, box, symlinks=True)
    return box


class QuietServer:
    """The web server as start-up sees it, not listening (the subprocess starts listen for real)."""

    def __init__(self, hub: Any, host: str, port: int, **kw: Any) -> None:
        self.hub = hub

    def start(self) -> int:
        return 0

    def stop(self) -> None:
        pass


@pytest.fixture
def in_process(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """`companion run` as the CLI runs it, stopped after the first frame: no logging set-up of its own (the test
    reads the records), no signal handlers, the web server not listening (its pairings are still read), and a box
    with no panel (``hardware = "auto"`` from a config that could not be read is headless here)."""
    import companion.cli
    import companion.loop.logsetup
    import companion.web.server
    from companion.loop import runtime
    from companion.loop.app import App

    seen: dict[str, Any] = {}
    parser = _cli_parser()  # built once: the same parser, without its 50 ms a start
    monkeypatch.setattr(companion.cli, "build_parser", lambda: parser)

    def first_frame(app: App) -> None:
        app.boot()
        app.draw()
        seen.update(resumed=app.session is not None, notices=list(app.notices))
        if app.web is not None:  # what the phones get: the snapshot's notices
            seen["phones"] = json.loads(app.web.latest.public).get("notices")

    monkeypatch.setattr(App, "run", first_frame)
    monkeypatch.setattr(companion.loop.logsetup, "setup_logging", lambda *a, **k: None)
    monkeypatch.setattr(runtime, "install_signal_handlers", lambda events: None)
    monkeypatch.setattr(runtime, "choose_mode", lambda cfg, forced: forced or "headless")
    monkeypatch.setattr(companion.web.server, "WebServer", QuietServer)
    monkeypatch.delenv("COMPANION_TEST_HOOKS", raising=False)
    handler = Records()
    root = logging.getLogger()
    root.addHandler(handler)
    old_level = root.level
    root.setLevel(logging.WARNING)

    def start(box: Path, capsys: pytest.CaptureFixture[str]) -> Start:
        seen.clear()
        handler.records.clear()
        monkeypatch.setenv("STATE_DIRECTORY", str(box))
        try:
            status = companion.cli.main(["--config", str(box / "c.toml"), "run"])
        except BaseException as e:  # noqa: BLE001  (an exception escaping is what the fuzz counts)
            status = -1
            seen["escaped"] = f"{type(e).__name__}: {e}"
        out, err = capsys.readouterr()
        problems = [f"escaped: {seen['escaped']}"] if "escaped" in seen else []
        problems += [f"stderr: {err[-300:]}" for text in (out, err) if "Traceback" in text]
        for r in handler.records:
            if r.exc_info or "\n" in r.getMessage():
                problems.append(f"log: {r.getMessage()[:200]}")
        if "phones" in seen and seen["phones"] != seen.get("notices"):
            problems.append(f"the phones were told {seen['phones']}, not {seen.get('notices')}")
        return Start(status, bool(seen.get("resumed")), list(seen.get("notices", [])), problems,
                     start_fuzz.set_aside_files(box))

    try:
        yield start
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)


@pytest.mark.slow
@pytest.mark.timeout(600)  # about 15 s each on two idle cores; a machine shared by many takes longer
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_a_thousand_damaged_boxes_all_start_twice_in_process(base: Path, in_process: Any, chunk: int,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    kinds: Counter[str] = Counter()
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    t0 = time.monotonic()
    mine = [(i, c) for i, c in enumerate(start_fuzz.cases(CASES)) if i * CHUNKS // CASES == chunk]
    for i, (seed, names) in mine:
        box = fresh_box(base)
        start_fuzz.damage(box, names, seed)
        kinds.update(start_fuzz.family(name) for name in names)
        first = in_process(box, capsys)
        second = in_process(box, capsys)  # systemd's restart: the same files again
        for which, s in (("first", first), ("second", second)):
            if s.status != 0 or s.problems:
                failures.append(f"case {i} {names} ({which} start): status {s.status}; {s.problems[:2]}")
        if first.aside and not first.notices:
            failures.append(f"case {i} {names}: set aside {first.aside} without a word on the phones")
        outcomes["resumed its game" if first.resumed else "on the home menu"] += 1
        outcomes["said something" if first.notices else "had nothing to say"] += 1
        outcomes["set files aside"] += bool(first.aside)
        outcomes["came up again"] += second.status == 0 and not second.problems
    capsys.readouterr()
    with capsys.disabled():
        print(f"\nstart fuzz, in-process, cases {mine[0][0]}..{mine[-1][0]} of {CASES}: {len(mine)} damaged boxes, 2 "
              f"starts each, {time.monotonic() - t0:.0f} s; damage by family {dict(sorted(kinds.items()))}; "
              f"{dict(outcomes)}; {len(failures)} failed (a traceback, a non-zero exit, a silent set-aside)")
    assert not failures, "\n".join(failures[:20])


def _process(box: Path, work: Path, zygote: Zygote | None) -> tuple[bool, int, str]:
    """One real `companion run` on ``box`` (stdin and stdout a terminal: a config that cannot be read starts the
    simulator there), a fresh ``python -m companion.cli`` or forked from ``zygote``: (ready by sd_notify, exit
    status after SIGTERM, stderr and the simulator's log)."""
    import pty

    sock_path = str(work / "notify.sock")
    if os.path.exists(sock_path):
        os.unlink(sock_path)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    sock.settimeout(0.2)
    master, slave = pty.openpty()
    err_path = work / "stderr.txt"
    err_path.write_bytes(b"")
    env = {**_env(), "NOTIFY_SOCKET": sock_path, "STATE_DIRECTORY": str(box)}
    args = ["--config", str(box / "c.toml"), "run"]
    proc: subprocess.Popen[bytes] | Child
    if zygote is None:
        with open(err_path, "ab") as err_file:
            proc = subprocess.Popen([sys.executable, "-m", "companion.cli", *args], stdin=slave, stdout=slave,
                                    stderr=err_file, env=env, cwd=ROOT)
    else:
        proc = zygote.start(args, stdin=os.ttyname(slave), stdout=os.ttyname(slave), stderr=err_path, cwd=ROOT,
                            env=env)
    os.close(slave)
    drain = threading.Thread(target=_drain, args=(master,), daemon=True)  # the simulator's frames: never block it
    drain.start()
    ready = False
    try:
        end = time.monotonic() + 60
        while time.monotonic() < end and proc.poll() is None and not ready:
            try:
                ready = b"READY=1" in sock.recv(4096)
            except socket.timeout:
                pass
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    finally:
        sock.close()
        os.close(master)
        drain.join(5)
    log = box / "companion.log"
    status = proc.returncode
    assert status is not None
    return ready, status, err_path.read_text(errors="replace") + (log.read_text(errors="replace") if log.exists()
                                                                  else "")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "COMPANION_TEST_HOOKS"}
    env["TERM"] = "xterm"
    return env


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 65536):
            pass
    except OSError:
        pass


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_real_companion_run_processes_come_up_twice_and_set_aside_what_the_in_process_start_does(
        base: Path, in_process: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """The in-process start is the real one: the same boxes through `companion run` processes set the same files
    aside, come up (READY=1 to systemd's notify socket) and stop cleanly on SIGTERM; a second process on the same
    files (systemd's restart) comes up too. No traceback on stderr or in the log."""
    all_cases = start_fuzz.cases(CASES)
    picked = [all_cases[i * CASES // PROCESSES + 7] for i in range(PROCESSES)]
    failures, t0, fams = [], time.monotonic(), Counter[str]()
    # the first box's first start is a fresh interpreter, the others are forked from the worker's zygote, which has
    # imported the companion (tests/zygote.py): the same `companion run`, without 23 imports of it (all fresh under
    # COMPANION_TEST_FRESH=1); each child gets this test's own environment
    zygote: Zygote | None = None if FRESH else _the_zygote()
    for k, (seed, names) in enumerate(picked):
        fams.update(start_fuzz.family(name) for name in names)
        box = fresh_box(base)
        start_fuzz.damage(box, names, seed)
        expected = in_process(box, capsys)
        box = fresh_box(base)
        start_fuzz.damage(box, names, seed)
        for which in ("first", "second"):
            fresh = zygote is None or (k == 0 and which == "first")
            ready, status, err = _process(box, base.parent, None if fresh else zygote)
            if not ready or status != 0 or "Traceback" in err:
                failures.append(f"{names} ({which} process{', fresh' * fresh}): ready {ready}, status {status}: "
                                f"{err[-400:]}")
            if which == "first" and start_fuzz.set_aside_files(box) != expected.aside:
                failures.append(f"{names}: the process set aside {start_fuzz.set_aside_files(box)}, the "
                                f"in-process start {expected.aside}")
    capsys.readouterr()
    with capsys.disabled():
        print(f"\nstart fuzz, processes: {PROCESSES} damaged boxes ({dict(sorted(fams.items()))}), 2 `companion "
              f"run` each: {2 * PROCESSES - len(failures)} of {2 * PROCESSES} came up and stopped cleanly, "
              f"{time.monotonic() - t0:.0f} s")
    assert not failures, "\n".join(failures)


def test_play_resume_export_and_check_say_one_line_on_every_journal_damage(
        base: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """What `journal check` reports, `play --resume` and `export` say in a line (or play on): never a traceback."""
    import companion.cli

    parser = _cli_parser()  # built once (argparse formats its ~400 options while building; parsing leaves it as it was)
    monkeypatch.setattr(companion.cli, "build_parser", lambda: parser)
    failures, statuses = [], Counter[str]()
    for i, (name, _fn) in enumerate(start_fuzz.JOURNAL):
        box = fresh_box(base)
        monkeypatch.setenv("STATE_DIRECTORY", str(box))
        start_fuzz.damage(box, [name], i)
        script = base.parent / "s.txt"
        script.write_text("\n".join(start_fuzz.PRESSES + ["ok", "ok", "down", "ok"]) + "\n")  # its game, and on
        journal = str(box / "journal.sqlite")
        for argv in (["journal", "check", journal], ["export", "--list", "--journal", journal],
                     ["export", "--journal", journal],
                     ["play", str(box / "games" / "race.toml"), "--script", str(script), "--journal", journal,
                      "--resume", "--state-json", str(base.parent / "out.json")]):
            try:
                status = companion.cli.main(argv)
            except BaseException as e:  # noqa: BLE001
                status = -1
                failures.append(f"{name}: {argv[0]} raised {type(e).__name__}: {e}")
            err = capsys.readouterr().err
            statuses[f"{argv[0]} {status}"] += 1
            if "Traceback" in err or status not in (0, 1, 2, 3) or not all(ln.startswith("companion: ") or
                                                                             "/" in ln for ln in err.splitlines()):
                failures.append(f"{name}: {argv[0]} said {err[-300:]!r}")
    with capsys.disabled():
        print(f"\nthe CLI on {len(start_fuzz.JOURNAL)} kinds of journal damage: {dict(sorted(statuses.items()))}")
    assert not failures, "\n".join(failures[:20])


def test_a_stop_signal_another_thread_takes_still_ends_the_loop() -> None:
    """The kernel may hand SIGTERM to any thread not blocking it (the web server's, say); Python runs the handler in
    the main thread only when that thread wakes, and the loop's main thread sleeps in ``events.get()`` with nothing
    due: the QuitEvent must still come at once (seen as a `companion run` that ignored systemd's stop, killed 30 s
    later, about once in a hundred starts)."""
    import queue

    from companion.events import QuitEvent
    from companion.loop.pieces import install_signal_handlers

    assert threading.current_thread() is threading.main_thread()
    events: queue.SimpleQueue[Any] = queue.SimpleQueue()
    old = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT)}
    old_fd = signal.set_wakeup_fd(-1)
    try:
        install_signal_handlers(events)
        def take_it() -> None:  # once the main thread sleeps in events.get()
            time.sleep(0.2)
            signal.pthread_kill(threading.get_ident(), signal.SIGTERM)

        other = threading.Thread(target=take_it)
        t0 = time.monotonic()
        other.start()
        got: list[Any] = []
        while not any(isinstance(ev, QuitEvent) for ev in got) and time.monotonic() < t0 + 3:
            try:
                got.append(events.get(timeout=3))
            except queue.Empty:
                pass
        other.join()
        assert QuitEvent("SIGTERM") in got and time.monotonic() - t0 < 2, (got, time.monotonic() - t0)
    finally:
        signal.set_wakeup_fd(old_fd)
        for s, h in old.items():
            signal.signal(s, h)
