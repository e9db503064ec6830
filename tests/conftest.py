"""Shared fixtures: a CLI runner and paths. Hardware tests bring their own MockFactory fixtures."""
from __future__ import annotations

import contextlib
import functools
import io
import itertools
import os
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Iterator
from unittest import mock

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def _tmp_in_ram() -> None:
    """Test files on tmpfs (/dev/shm) when it has 2 GiB free and TMPDIR is not chosen already: a journal's fsyncs
    then never wait for a disk someone else's writes keep busy (tmp_path, and every subprocess's temp files). Only
    a failed test's folder is kept (tmp_path_retention_policy), so the run gives the memory back."""
    shm = "/dev/shm"
    if "TMPDIR" in os.environ or not os.access(shm, os.W_OK):
        return
    st = os.statvfs(shm)
    if st.f_bavail * st.f_frsize >= 2 << 30:
        os.environ["TMPDIR"] = shm
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again (pytest's capture asked it already)


_tmp_in_ram()
# hypothesis loads every "hypothesis" entry point when first imported: trio (selenium's dependency) registers one that
# imports all of trio, 0.27 s of CPU in every worker and every pytest the tests start; no test runs trio under
# hypothesis. Set before any test module imports hypothesis (its pytest plugin imports it only for its own options).
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")


@pytest.hookimpl(optionalhook=True)  # pytest-xdist's hook: without xdist (-p no:xdist, an older venv) unused
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (``make test``): one worker more than the cores, so that a test waiting on a timer, a pipe or a
    child process leaves its core to another worker's test (PYTEST_XDIST_AUTO_NUM_WORKERS still decides)."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # pytest-xdist's own hook reads it
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores + 1


def pytest_configure(config: pytest.Config) -> None:
    """Under pytest-xdist's controller (``make test``): the test modules' asserts rewritten once, over the cores,
    before the workers start and would each rewrite them all (tests/warm_bytecode.py; a fresh clone's first run)."""
    workers = getattr(config.option, "numprocesses", None)
    if not hasattr(config, "workerinput") and isinstance(workers, int) and workers > 1:
        from warm_bytecode import warm

        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        warm(config, Path(__file__).parent, max(1, min(workers, cores)))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """The tests marked slow first (each module's together; otherwise in collection order), so that they start at
    once and never end a run alone on one core.

    Under pytest-xdist (``make test``) the default ``--dist load`` first hands each of the n workers one contiguous
    chunk of a quarter of its share, then feeds them as they go: the slow modules are dealt round-robin to the heads
    of those first chunks, so every worker starts on its part of them (docs/speed.md)."""
    slow: dict[Path, list[pytest.Item]] = {}
    rest: list[pytest.Item] = []
    for item in items:
        if item.get_closest_marker("slow") is not None:
            slow.setdefault(item.path, []).append(item)
        else:
            rest.append(item)
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    heads: list[list[pytest.Item]] = [[] for _ in range(workers)]
    for i, module in enumerate(slow.values()):
        heads[i % workers] += module
    chunk = max(2, len(items) // workers // 4)  # xdist's first chunk per worker (scheduler/load.py)
    order: list[pytest.Item] = []
    fill = iter(rest)
    for i, head in enumerate(heads):
        order += head
        if i < workers - 1:
            order += itertools.islice(fill, max(0, (i + 1) * chunk - len(order)))
    order += fill
    items[:] = order


@pytest.fixture(autouse=True)
def _no_system_config(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Tests never read /etc/companion or write to the user's real journal."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))  # never the user's own config file
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)


FRESH = os.environ.get("COMPANION_TEST_FRESH") == "1"
"""``COMPANION_TEST_FRESH=1``: every :func:`run_companion` a fresh interpreter, none forked from the worker's zygote."""
_INTERPRETER_START = ("PYTHON", "LC_", "LANG")
"""Variables the interpreter reads at its own start (flags, hash seed, locale, stdio encoding): a call that sets one
needs a fresh start."""
_zygote: Any = None  # the worker's tests/zygote.py Zygote, once a test ran the companion
_zygote_made = threading.Lock()


def run_companion(*args: str, timeout: float = 60, input: str | None = None, env: dict[str, str] | None = None,
                  fresh: bool = False) -> subprocess.CompletedProcess[str]:
    """Run `python -m companion.cli ARGS` in a process of its own; returns the completed process (text mode).

    The process is forked from the worker's zygote (tests/zygote.py: one interpreter that imported the companion
    once) with this argv, environment, working folder, stdin text, its own stdout and stderr, its exit status and the
    timeout; nothing the companion computes at import depends on these (docs/speed.md). ``fresh=True`` (where the
    interpreter's own start is the point: ``--help`` of a clean start), a variable in ``env`` the interpreter reads at
    start, or ``COMPANION_TEST_FRESH=1`` runs a fresh ``python -m companion.cli`` instead."""
    e = dict(os.environ)
    e.update(env or {})
    if fresh or FRESH or any(k.startswith(_INTERPRETER_START) for k in env or {}):
        return subprocess.run([sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True,
                              timeout=timeout, input=input, cwd=ROOT, env=e)
    return _the_zygote().run(list(args), input=input, cwd=ROOT, env=e, timeout=timeout)


def start_companion(*args: str, stderr: Path) -> Any:
    """`python -m companion.cli ARGS` started in ROOT (stdin and stdout /dev/null, stderr to a file) and not waited
    for: forked as :func:`run_companion` does (a real process: pid, signals, exit status), or a fresh
    :class:`subprocess.Popen` under ``COMPANION_TEST_FRESH=1``. Either has poll, wait, send_signal, kill."""
    if FRESH:
        with stderr.open("ab") as err:
            return subprocess.Popen([sys.executable, "-m", "companion.cli", *args], cwd=ROOT,
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err)
    return _the_zygote().start(list(args), stdin=os.devnull, stdout=os.devnull, stderr=stderr, cwd=ROOT,
                               env=dict(os.environ))


def _the_zygote() -> Any:
    global _zygote
    with _zygote_made:  # a test's threads may ask at once: one zygote
        if _zygote is None:
            from zygote import Zygote

            clean = {k: v for k, v in os.environ.items() if not k.startswith("XDG_")}  # not a test's own folders
            _zygote = Zygote(ROOT, clean)
    return _zygote


def pytest_sessionfinish() -> None:
    """The worker's zygote ends with its session (its children's CPU is counted when it is reaped)."""
    global _zygote
    if _zygote is not None:
        _zygote.close()
        _zygote = None


@functools.cache
def _cli_parser() -> Any:
    from companion.cli import build_parser

    return build_parser()


def companion_here(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`companion ARGS` run in this process (no interpreter start, no imports again), for tests of what the CLI
    says and writes rather than of its process: the same CompletedProcess as :func:`run_companion` gives (status,
    stdout, stderr; an exception escaping the CLI fails the test as a traceback would). ``env`` is set for the call
    and put back after. The CLI's parser is built once (argparse formats each of its ~400 options while building;
    parsing leaves it as it was)."""
    from companion.cli import main

    parser = _cli_parser()  # built before the patch below
    out, err = io.StringIO(), io.StringIO()
    saved = {k: os.environ.get(k) for k in env or {}}
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                mock.patch("companion.cli.build_parser", lambda: parser):
            try:
                status = main(list(args))
            except SystemExit as e:  # argparse's usage errors and --help
                status = e.code if isinstance(e.code, int) else 0 if e.code is None else 1
                if isinstance(e.code, str):
                    print(e.code, file=sys.stderr)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return subprocess.CompletedProcess(["companion", *args], status, out.getvalue(), err.getvalue())


@pytest.fixture(scope="session")
def shared_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this run that every pytest-xdist worker shares (the run's base folder; without xdist, its own):
    work one test does for several, taken once per run (tests/walk_checks.py)."""
    base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "shared"
    folder.mkdir(exist_ok=True)
    return folder


@pytest.fixture
def companion():
    return run_companion


_browser_pool: Any = None  # the worker's Browsers, once a test asked for them


@pytest.fixture(scope="session")
def browsers() -> Iterator[Any]:
    """The worker's headless Chromiums, one per screen size, lent clean to each module (tests/browsers.py)."""
    global _browser_pool
    from browsers import Browsers

    pool = _browser_pool = Browsers()
    try:
        yield pool
    finally:
        _browser_pool = None
        pool.close()


@pytest.fixture(scope="module", autouse=True)
def _browsers_parked() -> Iterator[None]:
    """After each module, the browsers it borrowed wait on about:blank (Browsers.park), not on its last page."""
    yield
    if _browser_pool is not None:
        _browser_pool.park()
