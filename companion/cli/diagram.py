"""`companion diagram`: a game's phase graph as a Mermaid ``stateDiagram-v2``.

The diagram is drawn by pytransitions' own mermaid engine from the machine class's ``STATES``, ``TRANSITIONS`` and
``INITIAL`` — the very lists the game runs on — so it cannot drift from the code. Final states (``FINAL``) get an
arrow to ``[*]``. No graphviz is needed.

The diagram of every built-in game is kept in ``fsm/diagrams/<id>.mmd`` (``make diagrams`` rewrites them) and
``tests/test_diagrams.py`` fails when one is stale or missing.
"""
from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError

if TYPE_CHECKING:
    from fsm.base import GameMachine

log = logging.getLogger(__name__)

#: where the committed diagrams live, relative to the repository root
DIAGRAM_DIR = Path("fsm") / "diagrams"


class DiagramError(CompanionError):
    """A diagram cannot be drawn or written."""


class _Blank:
    """A model with nothing on it: the diagram needs the graph, not a game in progress."""


def mermaid(cls: "type[GameMachine]") -> str:
    """The Mermaid ``stateDiagram-v2`` source for a game machine class, ending in a newline."""
    from transitions.extensions.diagrams import GraphMachine

    label = cls.game_id or cls.__name__
    names = _state_names(cls)
    _check_graph(cls, label, names)
    title = cls.name or label
    try:
        machine: Any = GraphMachine(model=_Blank(), states=list(cls.STATES),
                                    transitions=[dict(t) for t in cls.TRANSITIONS], initial=cls.INITIAL,
                                    auto_transitions=False, graph_engine="mermaid",
                                    title=f"title: {json.dumps(title)}")
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise DiagramError(f"cannot draw {label}: its STATES/TRANSITIONS are invalid ({e})") from e
    # a fresh graph of the machine alone: no "active" state highlighted, whatever the model's state is
    graph = machine.graph_cls(machine)
    lines = graph.get_graph(title=machine.title).source.rstrip("\n").split("\n")
    lines += [f"  {final} --> [*]" for final in cls.FINAL if final in names]
    return "\n".join(line.rstrip() for line in lines) + "\n"


def _state_names(cls: "type[GameMachine]") -> list[str]:
    out: list[str] = []
    for s in cls.STATES:
        out.append(s if isinstance(s, str) else str(s["name"]) if isinstance(s, dict) else str(s.name))
    return out


def _check_graph(cls: "type[GameMachine]", label: str, names: list[str]) -> None:
    """Refuse a graph pytransitions would accept but draw wrongly: arrows to or from undeclared states."""
    known = set(names)
    if cls.INITIAL not in known:
        raise DiagramError(f"cannot draw {label}: INITIAL {cls.INITIAL!r} is not one of its STATES")
    for t in cls.TRANSITIONS:
        sources = t.get("source", [])
        ends = [*(sources if isinstance(sources, (list, tuple)) else [sources]), t.get("dest")]
        for end in ends:
            if end not in known and end not in ("*", "=", None):
                raise DiagramError(f"cannot draw {label}: transition {t.get('trigger')!r} names {end!r}, "
                                   "which is not one of its STATES")


def diagram_for(game: str, games_dir: Path | None = None) -> tuple[str, str]:
    """``(game_id, mermaid source)`` for a built-in id or a TOML game path."""
    from companion.games import load

    cls = load(game, games_dir)
    return cls.game_id or game, mermaid(cls)


def write_all(directory: Path) -> list[tuple[Path, bool]]:
    """Write ``<id>.mmd`` for every built-in game into ``directory``; returns (path, changed) per game."""
    from companion.games import builtin_ids

    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DiagramError(f"cannot create {directory}: {e.strerror}") from e
    done: list[tuple[Path, bool]] = []
    for gid in builtin_ids():
        _, text = diagram_for(gid)
        done.append((directory / f"{gid}.mmd", _write(directory / f"{gid}.mmd", text)))
    return done


def stale(directory: Path) -> list[str]:
    """What is wrong with the diagrams in ``directory``: one line per missing, outdated or orphaned file."""
    from companion.games import builtin_ids

    problems: list[str] = []
    ids = builtin_ids()
    for gid in ids:
        path = directory / f"{gid}.mmd"
        if not path.exists():
            problems.append(f"{path} is missing")
        elif path.read_text(encoding="utf-8") != diagram_for(gid)[1]:
            problems.append(f"{path} is out of date")
    for path in sorted(directory.glob("*.mmd")):
        if path.stem not in ids:
            problems.append(f"{path} belongs to no registered game; delete it")
    return problems


def _write(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` unless it already holds exactly that; True when the file changed."""
    try:
        if path.exists() and path.read_text(encoding="utf-8") == text:
            return False
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise DiagramError(f"cannot write {path}: {e.strerror}") from e
    log.info("wrote %s", path)
    return True


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("diagram", help="print a game's state diagram (Mermaid)",
                       description="Print the Mermaid stateDiagram-v2 of a game's phase machine, or write one "
                                   "<id>.mmd file per built-in game with --all --write DIR.")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("game", nargs="?", metavar="GAME", help="a built-in game id or the path of a game .toml")
    which.add_argument("--all", action="store_true", help="every built-in game")
    p.add_argument("--write", metavar="DIR", type=Path,
                   help="write DIR/<id>.mmd instead of printing (the repository keeps them in fsm/diagrams)")
    p.set_defaults(func=cmd_diagram)


def cmd_diagram(args: argparse.Namespace) -> int:
    if args.all:
        if args.write is None:
            from companion.games import builtin_ids

            for i, gid in enumerate(builtin_ids()):
                print(("\n" if i else "") + f"%% {gid}")
                print(diagram_for(gid)[1], end="")
            return 0
        for path, changed in write_all(args.write):
            print(f"{path}: {'written' if changed else 'up to date'}")
        return 0
    gid, text = diagram_for(args.game)
    if args.write is None:
        print(text, end="")
        return 0
    try:
        args.write.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise DiagramError(f"cannot create {args.write}: {e.strerror}") from e
    path = args.write / f"{gid}.mmd"
    print(f"{path}: {'written' if _write(path, text) else 'up to date'}")
    return 0
