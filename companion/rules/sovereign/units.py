"""Units: the chart notation ``A-D-M(C)[T]{R}``, the unit table (companion/data/sovereign_units.toml) and specs.

A *spec* names units the way the odds command and tests take them: a unit name (``Catapult``), a count
(``3*Horseman``), chart notation (``2-1-2(3){1}``) or a name with notation (``Air raid:4-0-6{2}``).
"""
from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from companion.rules.sovereign.techs import chart_units

DATA_FILE = Path(__file__).resolve().parents[2] / "data" / "sovereign_units.toml"
MAX_VALUE = 99
MAX_COUNT = 8


class UnitSpecError(ValueError):
    """A unit spec or notation that cannot be read; the message is one line naming the text and the fix."""


class UnitTableError(ValueError):
    """The unit data file is malformed; the message names the file and the unit."""


@dataclass(frozen=True)
class UnitStats:
    attack: int
    defence: int
    move: int = 0
    cost: int | None = None
    transport: int = 0
    range: int = 0

    def notation(self) -> str:
        out = f"{self.attack}-{self.defence}-{self.move}"
        if self.cost is not None:
            out += f"({self.cost})"
        if self.transport:
            out += f"[{self.transport}]"
        if self.range:
            out += f"{{{self.range}}}"
        return out


@dataclass(frozen=True)
class UnitType:
    name: str
    techs: tuple[str, ...]
    stats: UnitStats | None  #: None: not known yet (the owner fills it in from their chart)
    air: bool = False  #: an air raid: destroyed as soon as it loses a roll; no city adjacency bonus against it
    ship: bool = False  #: destroyed last in a battle at sea


@dataclass(frozen=True)
class Fighter:
    """One unit in a battle."""

    name: str
    attack: int
    defence: int
    move: int = 0
    range: int = 0
    air: bool = False
    ship: bool = False

    @property
    def total(self) -> int:
        """Attack + defence + move: the designer's tie-break for equal-strength removals."""
        return self.attack + self.defence + self.move

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "a": self.attack, "d": self.defence, "m": self.move, "r": self.range,
                "air": self.air, "ship": self.ship}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Fighter":
        return cls(str(d["name"]), int(d["a"]), int(d["d"]), int(d.get("m", 0)), int(d.get("r", 0)),
                   bool(d.get("air", False)), bool(d.get("ship", False)))

    def label(self) -> str:
        """``Catapult 2-1-2{1}``; a unit entered by its statistics alone is already named by them."""
        rng = f"{{{self.range}}}" if self.range else ""
        stats = f"{self.attack}-{self.defence}-{self.move}{rng}"
        return self.name if self.name.endswith(stats) else f"{self.name} {stats}"


_NOTATION = re.compile(r"^(\d+)-(\d+)(?:-(\d+))?(?:\((\d+)\))?(?:\[(\d+)\])?(?:\{(\d+)\})?$")
_HELP = "use A-D-M(C)[T]{R}, e.g. 2-1-2(3){1} (move, cost, transport and range optional)"


def parse_notation(text: str) -> UnitStats:
    """``"2-1-2(3){1}"`` -> UnitStats(2, 1, 2, 3, 0, 1). En and em dashes are accepted; spaces are ignored."""
    s = re.sub(r"\s+", "", str(text)).replace("\u2013", "-").replace("\u2014", "-")
    m = _NOTATION.match(s)
    if not m:
        raise UnitSpecError(f"cannot read unit statistics {text!r}: {_HELP}")
    vals = [None if g is None else int(g) for g in m.groups()]
    if any(v is not None and v > MAX_VALUE for v in vals):
        raise UnitSpecError(f"unit statistics {text!r}: values go up to {MAX_VALUE}")
    a, d, mv, c, t, r = vals
    if a is None or d is None:
        raise RuntimeError("invariant: a and d are set here")
    return UnitStats(a, d, mv or 0, c, t or 0, r or 0)


def norm_name(name: str) -> str:
    return " ".join(re.sub(r"[_\-]+", " ", name).split()).casefold()


def _parse_entry(path: Path, entry: Any) -> UnitType:
    if not isinstance(entry, dict) or not isinstance(entry.get("name"), str) or not entry["name"].strip():
        raise UnitTableError(f"{path}: every [[unit]] needs a name")
    name = entry["name"].strip()
    techs = entry.get("tech", [])
    if isinstance(techs, str):
        techs = [techs]
    if not isinstance(techs, list) or not all(isinstance(t, str) for t in techs):
        raise UnitTableError(f"{path}: unit {name!r}: tech must be a technology name or a list of them")
    stats_text = entry.get("stats")
    if not isinstance(stats_text, str):
        raise UnitTableError(f"{path}: unit {name!r}: stats must be chart notation like \"2-1-2(3){{1}}\" "
                             "or \"unknown\"")
    stats: UnitStats | None = None
    if stats_text.strip().lower() != "unknown":
        try:
            stats = parse_notation(stats_text)
        except UnitSpecError as e:
            raise UnitTableError(f"{path}: unit {name!r}: {e}") from None
    for flag in ("air", "ship"):
        if not isinstance(entry.get(flag, False), bool):
            raise UnitTableError(f"{path}: unit {name!r}: {flag} must be true or false")
    return UnitType(name, tuple(techs), stats, bool(entry.get("air", False)), bool(entry.get("ship", False)))


def load_table(path: Path | None = None) -> dict[str, UnitType]:
    """The unit table keyed by normalised name. Raises UnitTableError with the file and unit named."""
    p = Path(path) if path is not None else DATA_FILE
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise UnitTableError(f"{p}: cannot read the unit table ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise UnitTableError(f"{p}: not valid TOML ({e})") from None
    entries = raw.get("unit")
    if not isinstance(entries, list):
        raise UnitTableError(f"{p}: expected [[unit]] tables")
    out: dict[str, UnitType] = {}
    for entry in entries:
        u = _parse_entry(p, entry)
        key = norm_name(u.name)
        if key in out:
            raise UnitTableError(f"{p}: unit {u.name!r} is listed twice")
        out[key] = u
    return out


@functools.lru_cache(maxsize=1)
def default_table() -> dict[str, UnitType]:
    """The shipped table, read once. Every unit the chart names is in it (checked by the tests)."""
    return load_table()


def table_in_chart_order(table: Mapping[str, UnitType] | None = None) -> list[UnitType]:
    tab = default_table() if table is None else table
    order = {norm_name(n): i for i, n in enumerate(chart_units())}
    return sorted(tab.values(), key=lambda u: order.get(norm_name(u.name), len(order)))


def fighter(unit: UnitType, stats: UnitStats | None = None) -> Fighter:
    st = stats or unit.stats
    if st is None:
        raise UnitSpecError(f"{unit.name}: statistics unknown; fill them in {DATA_FILE.name} "
                            f"or give them as \"{unit.name}:A-D-M\"")
    return Fighter(unit.name, st.attack, st.defence, st.move, st.range, unit.air, unit.ship)


def parse_spec(text: str, table: Mapping[str, UnitType] | None = None) -> list[Fighter]:
    """One spec: ``Catapult``, ``3*Horseman``, ``2-1-2(3){1}`` or ``Name:notation``, with an optional ``N*``."""
    tab = default_table() if table is None else table
    s = text.strip()
    if not s:
        raise UnitSpecError("empty unit spec: give a unit name, N*name or chart notation like 2-1-2(3){1}")
    count = 1
    m = re.match(r"^(\d+)\s*[*x]\s*(.+)$", s)
    if m:
        count = int(m.group(1))
        s = m.group(2).strip()
        if not 1 <= count <= MAX_COUNT:
            raise UnitSpecError(f"{text!r}: a count goes from 1 to {MAX_COUNT}")
    name, sep, notation = s.partition(":")
    if sep:
        st = parse_notation(notation)
        unit = tab.get(norm_name(name))
        if unit is not None:
            f = fighter(unit, st)
        else:
            f = Fighter(name.strip() or st.notation(), st.attack, st.defence, st.move, st.range)
    elif s[:1].isdigit():
        st = parse_notation(s)
        f = Fighter(st.notation(), st.attack, st.defence, st.move, st.range)
    else:
        unit = tab.get(norm_name(s))
        if unit is None:
            known = ", ".join(u.name for u in table_in_chart_order(tab))
            raise UnitSpecError(f"no unit {s!r}: use one of {known}, or chart notation like 2-1-2(3){{1}}")
        f = fighter(unit)
    return [f] * count


def parse_specs(text: str, table: Mapping[str, UnitType] | None = None) -> list[Fighter]:
    """A comma-separated list of specs."""
    out: list[Fighter] = []
    for part in str(text).split(","):
        out.extend(parse_spec(part, table))
    return out
