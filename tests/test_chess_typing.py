"""The engine imports nothing from hw/ or fsm/. (Its `mypy --strict` run, with the chess CLI, is in test_typing.py's
strict run over fsm/ and companion/rules/: the same check with the same options.)"""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "companion" / "rules" / "sovereign_chess"


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
