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
def test_mypy(args: list[str]) -> None:
    r = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary", *args], cwd=ROOT,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
