"""The engine type-checks under `mypy --strict` and imports nothing from hw/ or fsm/."""
from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion" / "rules" / "sovereign_chess"


def test_mypy_strict_passes(tmp_path: Path) -> None:
    if subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True).returncode != 0:
        pytest.skip("mypy is not installed in this environment")
    cache = tmp_path / "mypy_cache"  # a private cache: other test runs may be using the shared one
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), str(PACKAGE),
         str(ROOT / "companion" / "cli" / "chess.py")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=110,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_imports_nothing_from_hw_or_fsm() -> None:
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                assert not name.startswith(("hw", "fsm", "companion.loop.app", "companion.ui")), (path.name, name)
