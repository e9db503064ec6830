"""The walls of the house, held: game rules and fsm/ import nothing from hw/; the web view imports no game's rules
or machine; the UI imports nothing back up from the loop; no import circle among the project's modules; no module
over the size limit. A new module that breaks one is named in the failure."""
from __future__ import annotations

import ast
import sys
from functools import lru_cache
from pathlib import Path

import pytest

from conftest import ROOT

WALLED = [ROOT / "fsm", ROOT / "companion" / "rules"]
PACKAGES = ("companion", "fsm", "hw")
MAX_LINES = 400  #: the house rule: no module over about 400 lines ...
SLACK = 10  #: ... "about": a module may run to 410 before it must be split


def imports(path: Path) -> set[str]:
    """Every absolute import in the file, at any depth (inside functions and TYPE_CHECKING blocks too)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
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


# ------------------------------------------------------------------ the web view reads snapshots, not games

#: the game machines: every package under fsm/ (fsm/base.py, prompts.py, turns.py ... are shared, not a game)
GAME_MACHINES = tuple(f"fsm.{p.name}" for p in sorted((ROOT / "fsm").iterdir()) if (p / "__init__.py").is_file())
WEB_FILES = sorted((ROOT / "companion" / "web").rglob("*.py"))


#: the registry: it loads every game's machine by name (importlib), so an import of it is an import of a game
REGISTRY = "companion.games"


def is_game(m: str) -> bool:
    return m == "companion.rules" or m.startswith("companion.rules.") or m == REGISTRY or \
        m.startswith(REGISTRY + ".") or any(m == g or m.startswith(g + ".") for g in GAME_MACHINES)


def game_imports(path: Path) -> list[str]:
    return sorted(m for m in imports(path) if is_game(m))


def reached(start: set[str], graph: dict[str, set[str]]) -> set[str]:
    """Every project module importing ``start`` runs: the modules themselves and, through the module-level
    import graph, what they import in turn."""
    seen, todo = set(), [m for m in start if m in graph]
    while todo:
        m = todo.pop()
        if m not in seen:
            seen.add(m)
            todo.extend(graph[m])
    return seen


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in WEB_FILES])
def test_the_web_view_imports_no_game_rules_or_machine(path: Path) -> None:
    assert GAME_MACHINES and "fsm.sovereign_chess" in GAME_MACHINES
    assert game_imports(path) == [], f"{path.relative_to(ROOT)} imports a game; read it from the snapshot"


@pytest.mark.parametrize("path", [pytest.param(p, id=p.name) for p in WEB_FILES])
def test_the_web_view_reaches_no_game_through_another_module(path: Path) -> None:
    """Not through a shared module either (``companion.records.chess`` imports the chess engine)."""
    graph = import_graph()
    through = sorted(m for m in reached(module_level_imports(path, set(graph)), graph) if is_game(m))
    assert through == [], f"{path.relative_to(ROOT)} reaches a game's rules or machine: {through[:5]}"


def test_rules_and_fsm_reach_no_hw_through_another_module() -> None:
    graph = import_graph()
    bad = {}
    for p in (p for d in WALLED for p in d.rglob("*.py")):
        hw = sorted(m for m in reached(module_level_imports(p, set(graph)), graph) if m == "hw" or m.startswith("hw."))
        if hw:
            bad[str(p.relative_to(ROOT))] = hw[:3]
    assert bad == {}


def test_a_web_import_of_a_game_would_be_caught(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from fsm.society.machine import SocietyGame\n    import companion.rules.sovereign\n")
    assert game_imports(bad) == ["companion.rules.sovereign", "fsm.society.machine",
                                 "fsm.society.machine.SocietyGame"]
    bad.write_text("from companion import games\n")  # the registry loads the games
    assert game_imports(bad) == ["companion.games"]
    graph = {"companion.web.x": {"companion.records.chess"}, "companion.records.chess": {"companion.rules.chess"},
             "companion.rules.chess": set()}
    assert [m for m in reached({"companion.web.x"}, graph) if is_game(m)] == ["companion.rules.chess"]


# ------------------------------------------------------------------ the seams cut in issue 28

def test_the_ui_never_imports_the_loop() -> None:
    """The home and settings menus call back into the app through ``companion.ui.host.MenuHost``: nothing in ui/
    imports the loop, not even for type checking."""
    bad = {p.name: sorted(m for m in imports(p) if m.startswith("companion.loop"))
           for p in (ROOT / "companion" / "ui").rglob("*.py")}
    assert {k: v for k, v in bad.items() if v} == {}


def test_the_statistics_never_import_the_web_the_loop_or_hardware() -> None:
    """companion/stats reads the journal and the games; the loop hands its callables to the web view, so neither
    the web nor the loop (nor hw) is imported there, and the web imports nothing of it."""
    bad = {p.name: sorted(m for m in imports(p) if m.split(".")[:2] in (["companion", "web"], ["companion", "loop"])
                          or m.split(".")[0] == "hw") for p in (ROOT / "companion" / "stats").rglob("*.py")}
    assert {k: v for k, v in bad.items() if v} == {}
    web = {p.name: sorted(m for m in imports(p) if m.startswith("companion.stats"))
           for p in (ROOT / "companion" / "web").rglob("*.py")}
    assert {k: v for k, v in web.items() if v} == {}


@pytest.mark.parametrize("module, never", [
    ("companion/ui/settings_menu.py", "companion.ui.menus"),  # the About page's lines live in ui/about.py
    ("companion/ui/prompt_screens.py", "companion.ui.board_screens"),  # ui/screens.py chooses the screen
    ("companion/ui/board_screens.py", "companion.session"),  # the clock's digits are drawn by ui/clock_face.py
])
def test_a_seam_stays_cut(module: str, never: str) -> None:
    found = sorted(m for m in imports(ROOT / module) if m == never or m.startswith(never + "."))
    assert found == [], f"{module} imports {found}: it would close an import circle again"


# ------------------------------------------------------------------ no import circles

def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def module_level_imports(path: Path, known: set[str], root: Path = ROOT, functions: bool = False) -> set[str]:
    """The project modules ``path`` imports when it is imported: module-level imports (in ``if``/``try``/``with``
    blocks and class bodies too), not those under ``if TYPE_CHECKING:``; with ``functions`` also those inside functions
    (they run on the first call: an import hidden there still ties the two modules together). ``from p import m``
    counts m when it is a module. Importing ``a.b.c`` also runs ``a`` and ``a.b`` (unless the importer is inside
    them already)."""
    me = module_name(path, root)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    found: set[str] = set()

    def add(name: str) -> None:
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            candidate = ".".join(parts[:i])
            if candidate in known and candidate != me and not (me + ".").startswith(candidate + "."):
                found.add(candidate)

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    add(a.name)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([node.module] if node.module else []))
                add(base)
                for a in node.names:
                    if f"{base}.{a.name}" in known:
                        add(f"{base}.{a.name}")
            elif isinstance(node, ast.If):
                test = node.test
                if isinstance(test, (ast.Name, ast.Attribute)) and "TYPE_CHECKING" in ast.unparse(test):
                    visit(node.orelse)
                    continue
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if functions:
                    visit(node.body)
            else:  # try, with, for, while, match, class bodies: every statement block under the node
                for field in ("body", "orelse", "finalbody"):
                    visit(getattr(node, field, None) or [])
                for part in getattr(node, "handlers", None) or getattr(node, "cases", None) or []:
                    visit(part.body)

    visit(ast.parse(path.read_text(), str(path)).body)
    return found


@lru_cache(maxsize=2)  # the tree does not change during a run; read it once (do not mutate the result)
def import_graph(functions: bool = False) -> dict[str, set[str]]:
    """Who imports whom at import time (``functions``: counting the imports inside functions too)."""
    files = {module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    known = set(files)
    return {name: module_level_imports(path, known, functions=functions) for name, path in files.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def strong(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        for v in sorted(graph):
            if v not in index:
                strong(v)
    finally:
        sys.setrecursionlimit(limit)
    return sorted(out)


def test_the_graph_sees_the_imports() -> None:
    graph = import_graph()
    assert "companion.ui.screens" in graph["companion.session.core"]
    assert "companion.ui.board_screens" in graph["companion.ui.screens"]
    assert "companion.ui" in graph["companion.loop.app"]  # the parent package runs first
    assert "companion.loop" not in graph["companion.loop.app"]  # its own package is already importing
    assert "companion.loop.app" not in graph["companion.ui.menus"]


def test_a_circle_would_be_caught(tmp_path: Path) -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    src = tmp_path / "m.py"
    src.write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import x\ndef f():\n    import y\n"
                   "    if TYPE_CHECKING:\n        import w\nimport z\nclass C:\n    def m(self):\n"
                   "        for _ in ():\n            from v import q\n")
    known = {"v", "w", "x", "y", "z"}
    assert module_level_imports(src, known, tmp_path) == {"z"}
    assert module_level_imports(src, known, tmp_path, functions=True) == {"v", "y", "z"}


def test_a_circle_hidden_in_a_function_would_be_caught(tmp_path: Path) -> None:
    """The circle of issue 28 that hid behind an import inside a function (fsm.society.report fetched ``summary``
    from the machine that imports it) is counted: put it back in a copy of the tree and the test sees it."""
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "__init__.py").write_text("")
    (tmp_path / "a" / "machine.py").write_text("from a import report\n")
    (tmp_path / "a" / "report.py").write_text("def views():\n    from a.machine import summary\n")
    files = {module_name(p, tmp_path): p for p in tmp_path.rglob("*.py")}
    graph = {n: module_level_imports(p, set(files), tmp_path, functions=True) for n, p in files.items()}
    assert circles(graph) == [["a.machine", "a.report"]]
    graph = {n: module_level_imports(p, set(files), tmp_path) for n, p in files.items()}
    assert circles(graph) == []


def test_no_import_circle_among_the_project_modules() -> None:
    """Counting the imports inside functions (an import hidden in a function is still a circle), not those under
    ``if TYPE_CHECKING:`` (they never run)."""
    found = circles(import_graph(functions=True))
    assert found == [], "import circles (cut one edge: a callback, a protocol, or move the shared piece down):\n" + \
        "\n".join(" <-> ".join(c) for c in found)


# ------------------------------------------------------------------ the size limit

def test_no_module_over_the_limit() -> None:
    sizes = {str(p.relative_to(ROOT)): len(p.read_text().splitlines())
             for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    over = {path: n for path, n in sorted(sizes.items()) if n > MAX_LINES + SLACK}
    assert over == {}, "modules over the limit (split them by concept):\n" + \
        "\n".join(f"  {path}: {n} lines" for path, n in over.items())
