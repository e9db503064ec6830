"""The suite's conftest runs with or without pytest-xdist: a venv made before xdist joined the test tools, or
``-p no:xdist`` to debug one test, runs the tests instead of stopping at an unknown hook."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def test_the_suite_runs_without_pytest_xdist(tmp_path: Path) -> None:
    here = Path(__file__).parent
    (tmp_path / "conftest.py").write_text((here / "conftest.py").read_text())
    (tmp_path / "test_one.py").write_text("def test_one() -> None:\n    assert 1 + 1 == 2\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), str(tmp_path / "test_one.py")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-800:] + done.stderr[-800:]


def test_the_controller_rewrites_the_test_modules_once_as_pytest_would(tmp_path: Path,
                                                                       pytestconfig: pytest.Config) -> None:
    """tests/warm_bytecode.py: every stale test module (and conftest.py) gets the rewritten bytecode pytest itself
    would write and read back, split over two processes; a module already up to date is left as it is."""
    from _pytest.assertion import rewrite

    from warm_bytecode import warm

    here = Path(__file__).parent
    sources = sorted(here.glob("test_*.py"), key=lambda p: p.stat().st_size)[:11] + [here / "conftest.py"]
    for src in sources:
        (tmp_path / src.name).write_bytes(src.read_bytes())
    copies = [tmp_path / src.name for src in sources]

    def pyc(fn: Path) -> Path:
        return rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)

    kept = copies[0]
    _, code = rewrite._rewrite_test(kept, pytestconfig)
    pyc(kept).parent.mkdir(exist_ok=True)
    rewrite._write_pyc(pytestconfig.stash[rewrite.assertstate_key], code, rewrite.importlib.util.source_hash(
        kept.read_bytes()), pyc(kept))
    before = pyc(kept).stat().st_mtime_ns
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sys, "dont_write_bytecode", False)
        warm(pytestconfig, tmp_path, 2)
    assert pyc(kept).stat().st_mtime_ns == before, "an up-to-date module was rewritten again"
    for fn in copies:
        read = rewrite._read_pyc(fn, pyc(fn))
        assert read is not None, f"{fn.name}: no rewritten bytecode pytest would read"
        assert read == rewrite._rewrite_test(fn, pytestconfig)[1], f"{fn.name}: not the code pytest would make"
