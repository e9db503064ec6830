"""The board's connections: which locations a manager can reach in one move (two with the Public Transit Authority).

The rules text does not give the board's graph, and the location cards lie on the twenty numbered places at random,
so the companion ships ``companion/data/soverana_board.toml`` as a labelled default (places, the card on each, the
links between places) that a table corrects with ``[games.soverana] board_file = "..."``. Every problem is one line
naming the file and the fault.
"""
from __future__ import annotations

import logging
import tomllib
from collections import deque
from pathlib import Path
from typing import Any, Mapping

from companion.rules.soverana.locfile import LocationsFileError, _key
from companion.rules.soverana.model import LOCATION_NAMES

log = logging.getLogger(__name__)

DEFAULT_BOARD = Path(__file__).resolve().parents[2] / "data" / "soverana_board.toml"
PLACES = 20

#: location -> the locations one step away
Graph = dict[str, list[str]]

_LOC_BY_KEY = {_key(n): n for n in LOCATION_NAMES}


class BoardFileError(LocationsFileError):
    """The SOVERANA board file is missing, not TOML, or not a connected board of the twenty locations."""


def load_board(path: str | Path | None = None) -> Graph:
    """The connections in ``path`` (the shipped default when None or empty), validated."""
    p = DEFAULT_BOARD if path in (None, "") else Path(str(path)).expanduser()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BoardFileError(f"{p}: no such SOVERANA board file") from None
    except OSError as e:
        raise BoardFileError(f"{p}: cannot read the board file ({e.strerror})") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise BoardFileError(f"{p}: not valid TOML: {e}") from None
    out = validate_board(raw, str(p))
    log.info("SOVERANA board from %s", p)
    return out


def validate_board(raw: Mapping[str, Any], where: str = "board file") -> Graph:
    """Check a parsed file: ``[places]`` 1-20 each naming a distinct location, ``[links] pairs`` of places."""
    places = raw.get("places")
    if not isinstance(places, dict):
        raise BoardFileError(f"{where}: needs a [places] table naming the location on each place 1-{PLACES}")
    at: dict[int, str] = {}
    seen: dict[str, int] = {}
    for k, name in places.items():
        if not str(k).isdigit() or not 1 <= int(k) <= PLACES:
            raise BoardFileError(f"{where}: place {k!r} is not a number from 1 to {PLACES}")
        loc = _LOC_BY_KEY.get(_key(str(name))) if isinstance(name, str) else None
        if loc is None:
            raise BoardFileError(f"{where}: place {k} holds {name!r}, which is not one of the twenty locations")
        if loc in seen:
            raise BoardFileError(f"{where}: {loc!r} lies on two places ({seen[loc]} and {k})")
        seen[loc] = int(k)
        at[int(k)] = loc
    missing = [n for n in LOCATION_NAMES if n not in seen]
    if missing:
        raise BoardFileError(f"{where}: {missing[0]!r} is on no place; all twenty locations need one")
    links = raw.get("links", {}).get("pairs") if isinstance(raw.get("links"), dict) else None
    if not isinstance(links, list) or not links:
        raise BoardFileError(f"{where}: needs [links] pairs = [[1, 2], ...] (places connected to each other)")
    graph: Graph = {n: [] for n in LOCATION_NAMES}
    for pair in links:
        ok = (isinstance(pair, list) and len(pair) == 2 and all(isinstance(x, int) and not isinstance(x, bool)
                                                                 and 1 <= x <= PLACES for x in pair))
        if not ok or pair[0] == pair[1]:
            raise BoardFileError(f"{where}: link {pair!r} must be two different places from 1 to {PLACES}")
        a, b = at[pair[0]], at[pair[1]]
        if b not in graph[a]:
            graph[a].append(b)
            graph[b].append(a)
    far = [n for n in LOCATION_NAMES if n not in reach(graph, LOCATION_NAMES[0], PLACES)]
    if far:
        raise BoardFileError(f"{where}: {far[0]!r} cannot be reached from {LOCATION_NAMES[0]!r}; link every place")
    return graph


def reach(graph: Mapping[str, list[str]], start: str, steps: int) -> dict[str, int]:
    """Every location within ``steps`` moves of ``start``, with its distance (``start`` itself at 0)."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        here = todo.popleft()
        if dist[here] >= steps:
            continue
        for nxt in graph.get(here, []):
            if nxt not in dist:
                dist[nxt] = dist[here] + 1
                todo.append(nxt)
    return dist


def move_refusal(graph: Mapping[str, list[str]], start: str | None, to: str, steps: int,
                 label: Mapping[str, str] | None = None) -> str | None:
    """Why a manager on ``start`` cannot end one move on ``to`` (``steps`` 1, or 2 with Transit), or None.
    ``label`` shortens location names for the screen."""
    if start is None:
        return None  # not tracked: nothing to check against
    name = (lambda n: label.get(n, n)) if label else (lambda n: n)
    if start == to:
        return f"already on {name(to)}: not a move"
    if to not in reach(graph, start, steps):
        return f"{name(to)} is not next door" if steps == 1 else f"{name(to)} is 3+ steps away"
    return None
