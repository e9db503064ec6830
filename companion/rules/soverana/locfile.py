"""The department → three locations assignment: loaded from TOML and validated.

The rules text does not say which locations each department runs (the department cards do), so the companion ships
``companion/data/soverana_locations.toml`` as its default, to be checked against the cards. A table can point at its
own copy with ``[games.soverana] locations_file = "..."``. Every problem is one line naming the file and the fault.
"""
from __future__ import annotations

import logging
import tomllib
from pathlib import Path
from typing import Any, Mapping

from companion.errors import ConfigError
from companion.rules.soverana.model import DEPARTMENTS, INDEPENDENT, LOCATION_NAMES

log = logging.getLogger(__name__)

DEFAULT_FILE = Path(__file__).resolve().parents[2] / "data" / "soverana_locations.toml"

Assignment = dict[str, list[str]]


class LocationsFileError(ConfigError):
    """The SOVERANA locations file is missing, not TOML, or does not describe six departments × three locations."""


def _key(name: str) -> str:
    return " ".join(name.replace(" and ", " & ").lower().split())


_DEPT_BY_KEY = {_key(d): d for d in DEPARTMENTS}
_LOC_BY_KEY = {_key(n): n for n in LOCATION_NAMES}


def load_locations(path: str | Path | None = None) -> Assignment:
    """The assignment in ``path`` (the shipped default when None or empty), validated."""
    p = DEFAULT_FILE if path in (None, "") else Path(str(path)).expanduser()
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise LocationsFileError(f"{p}: no such SOVERANA locations file") from None
    except OSError as e:
        raise LocationsFileError(f"{p}: cannot read the locations file ({e.strerror})") from None
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LocationsFileError(f"{p}: not valid TOML: {e}") from None
    out = validate_assignment(raw, str(p))
    log.info("SOVERANA locations from %s", p)
    return out


def validate_assignment(raw: Mapping[str, Any], where: str = "locations file") -> Assignment:
    """Check a parsed file: a ``[departments]`` table of the six departments, three known locations each."""
    table = raw.get("departments")
    if not isinstance(table, dict):
        raise LocationsFileError(f"{where}: needs a [departments] table naming each department's three locations")
    out: Assignment = {}
    owner: dict[str, str] = {}
    for given, locs in table.items():
        dept = _DEPT_BY_KEY.get(_key(str(given)))
        if dept is None:
            raise LocationsFileError(f"{where}: unknown department {given!r}; the six are {', '.join(DEPARTMENTS)}")
        if dept in out:
            raise LocationsFileError(f"{where}: department {dept!r} is listed twice")
        if not isinstance(locs, list) or not all(isinstance(x, str) for x in locs):
            raise LocationsFileError(f"{where}: {dept!r} must be a list of three location names")
        if len(locs) != 3:
            raise LocationsFileError(f"{where}: {dept!r} must list exactly three locations, not {len(locs)}")
        names: list[str] = []
        for x in locs:
            name = _LOC_BY_KEY.get(_key(x))
            if name is None:
                raise LocationsFileError(f"{where}: {dept!r} lists {x!r}, which is not one of the twenty locations")
            if name in INDEPENDENT:
                raise LocationsFileError(f"{where}: {name} is independent; no department runs it ({dept!r} lists it)")
            if name in owner:
                raise LocationsFileError(f"{where}: {name!r} is listed twice ({owner[name]!r} and {dept!r})")
            owner[name] = dept
            names.append(name)
        out[dept] = names
    missing = [d for d in DEPARTMENTS if d not in out]
    if missing:
        raise LocationsFileError(f"{where}: department {missing[0]!r} is missing; all six need three locations")
    return {d: out[d] for d in DEPARTMENTS}
