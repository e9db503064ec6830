"""The suite's conftest runs with or without pytest-xdist: a venv made before xdist joined the test tools, or
``-p no:xdist`` to debug one test, runs the tests instead of stopping at an unknown hook."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def test_the_suite_runs_without_pytest_xdist(tmp_path: Path) -> None:
    here = Path(__file__).parent
    (tmp_path / "conftest.py").write_text((here / "conftest.py").read_text())
    (tmp_path / "test_one.py").write_text("def test_one() -> None:\n    assert 1 + 1 == 2\n")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider",
                           "--rootdir", str(tmp_path), str(tmp_path / "test_one.py")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout[-800:] + done.stderr[-800:]
