"""Type checks that hold: mypy --strict on every machine, every game's rules and the chess CLI (Sovereign's Chain's
packages and the Sovereign Chess engine among them: their own strict runs were the same check again, with the same
options and no per-module config), mypy on the platform."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import ROOT

STRICT = ["fsm", "companion/rules", "companion/cli/chess.py"]
PLATFORM = ["companion/session", "companion/journal", "companion/config", "companion/loop/app.py", "companion/games",
            "companion/ui", "companion/web", "companion/records", "companion/stats", "companion/cli/stats.py",
            "companion/bench/table_games.py"]


@pytest.mark.slow
@pytest.mark.parametrize("args", [["--strict", *STRICT], PLATFORM], ids=["fsm-and-rules-strict", "platform"])
def test_mypy(args: list[str], request: pytest.FixtureRequest) -> None:
    # each run its own cache: the two runs' options differ, and in one cache each made the other check every module
    # they share again (1.4 s of CPU a run instead of 0.2 s once the caches are warm); a changed file is checked again
    cache = ROOT / ".mypy_cache" / request.node.callspec.id
    r = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", "--cache-dir", str(cache), *args],
                       cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
