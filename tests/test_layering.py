"""The walls: game rules and fsm/ import nothing from hw/."""
from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

WALLED = [ROOT / "fsm", ROOT / "companion" / "rules"]


def imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
    return out


def test_rules_and_fsm_never_import_hw() -> None:
    files = [p for d in WALLED for p in d.rglob("*.py")]
    assert files
    bad = {str(p.relative_to(ROOT)): sorted(m for m in imports(p) if m == "hw" or m.startswith("hw."))
           for p in files}
    assert {k: v for k, v in bad.items() if v} == {}


def test_rules_never_import_the_platform_or_hardware_libraries() -> None:
    banned = ("gpiozero", "luma", "serial", "companion.loop", "companion.session", "companion.ui")
    files = list((ROOT / "companion" / "rules").rglob("*.py"))
    bad = {str(p.relative_to(ROOT)): sorted(m for m in imports(p) if m.startswith(banned)) for p in files}
    assert {k: v for k, v in bad.items() if v} == {}
