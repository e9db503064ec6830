"""The test modules' rewritten bytecode, made once before pytest-xdist's workers start (tests/conftest.py).

pytest rewrites every test module's asserts (a pure-Python pass over its syntax tree, about 35 ms a module) and keeps
the result in ``__pycache__``. In a fresh clone no such file exists yet, so each of ``make test``'s workers rewrites
all of them at once, side by side: about 5 s of CPU per worker for the same files. Here the controller does it once,
split over the cores, with pytest's own functions, so the workers only read what it wrote.

Only speed depends on this: if pytest's private functions are not what this expects, nothing is done and the workers
rewrite as they always did. A file whose bytecode is already up to date (any run after the first) costs one hash.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest


def _stale(files: list[Path]) -> list[Path]:
    from _pytest.assertion import rewrite

    return [fn for fn in files
            if rewrite._read_pyc(fn, rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)) is None]


def _rewrite(files: list[Path], config: pytest.Config) -> None:
    from _pytest.assertion import rewrite

    state = config.stash[rewrite.assertstate_key]
    for fn in files:
        cache_dir = rewrite.get_cache_dir(fn)
        if rewrite.try_makedirs(cache_dir):
            source_hash, co = rewrite._rewrite_test(fn, config)
            rewrite._write_pyc(state, co, source_hash, cache_dir / (fn.name[:-3] + rewrite.PYC_TAIL))


def warm(config: pytest.Config, folder: Path, cores: int) -> None:
    """Rewrite the stale test modules of ``folder`` (and its conftest.py) in ``cores`` processes; never raises."""
    if sys.dont_write_bytecode or config.getoption("assertmode", "rewrite") != "rewrite":
        return  # the workers will not write (or not rewrite) either
    try:
        files = sorted(fn for fn in folder.rglob("*.py")
                       if fn.name == "conftest.py" or (fn.name.startswith("test_") and "__pycache__" not in fn.parts))
        stale = sorted(_stale(files), key=lambda fn: -fn.stat().st_size)
    except Exception:  # noqa: BLE001 — pytest's private names moved: the workers do it themselves
        return
    if len(stale) < 8:
        return  # a few edited files: not worth a fork
    shares = [stale[i::cores] for i in range(cores)]
    children = []
    for share in shares[1:]:
        pid = os.fork()
        if pid == 0:  # pragma: no cover — the child
            code = 0
            try:
                _rewrite(share, config)
            except BaseException:  # noqa: BLE001
                code = 1
            os._exit(code)
        children.append(pid)
    try:
        _rewrite(shares[0], config)
    except Exception:  # noqa: BLE001 — what is left stale the workers rewrite
        pass
    for pid in children:
        os.waitpid(pid, 0)
