"""The department → locations file: the shipped default, validation errors, and a table's own file."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.errors import CompanionError, ConfigError
from companion.rules import soverana as R
from fsm.base import Player, Setup
from fsm.soverana import SoveranaGame

from conftest import run_companion

GOOD = {
    "Economy": ["Stock Exchange", "Shopping Mall", "Business Park"],
    "Education": ["University", "Youth Center", "Cultural Hub"],
    "Energy & Environment": ["Electrical Substation", "Recycling Plant", "Community Garden"],
    "Health & Welfare": ["Hospital", "Social Service", "Sports Complex"],
    "Justice & Safety": ["Police Station", "Fire Station", "Courthouse"],
    "Urban Development": ["Public Transit Authority", "Train station", "Sewage Plant"],
}


def toml(table: dict[str, list[str]]) -> str:
    rows = [f'"{d}" = [{", ".join(repr(x).replace(chr(39), chr(34)) for x in locs)}]' for d, locs in table.items()]
    return "[departments]\n" + "\n".join(rows) + "\n"


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "locs.toml"
    p.write_text(text)
    return p


def test_the_shipped_default_is_valid_and_labelled() -> None:
    assert R.load_locations() == GOOD
    text = R.DEFAULT_FILE.read_text()
    assert "COMPANION'S DEFAULT" in text and "department cards" in text
    used = [n for locs in GOOD.values() for n in locs]
    assert sorted(used + list(R.INDEPENDENT)) == sorted(R.LOCATION_NAMES)


def test_names_match_ignoring_case_and_and(tmp_path: Path) -> None:
    table = {d.lower().replace("&", "and"): [n.upper() for n in locs] for d, locs in GOOD.items()}
    assert R.load_locations(write(tmp_path, toml(table))) == GOOD


def _bad(**change: list[str] | None) -> dict[str, list[str]]:
    table = dict(GOOD)
    for k, v in change.items():
        dept = k.replace("_", " ")
        if v is None:
            del table[dept]
        else:
            table[dept] = v
    return table


@pytest.mark.parametrize("table, message", [
    (_bad(Economy=["Stock Exchange", "Shopping Mall"]), "'Economy' must list exactly three locations, not 2"),
    (_bad(Economy=["Stock Exchange", "Shopping Mall", "Bank"]), "'Economy' lists 'Bank', which is not one of"),
    (_bad(Economy=["Stock Exchange", "Shopping Mall", "City Hall"]), "City Hall is independent"),
    (_bad(Economy=["Stock Exchange", "Shopping Mall", "Press and Media Center"]),
     "Press and Media Center is independent"),
    (_bad(Economy=["Stock Exchange", "Shopping Mall", "Hospital"]), "'Hospital' is listed twice"),
    (_bad(Education=None), "department 'Education' is missing"),
])
def test_validation_errors_name_the_problem(tmp_path: Path, table: dict[str, list[str]], message: str) -> None:
    p = write(tmp_path, toml(table))
    with pytest.raises(R.LocationsFileError) as e:
        R.load_locations(p)
    text = str(e.value)
    assert message in text and str(p) in text and "\n" not in text


@pytest.mark.parametrize("text, message", [
    ("[departments\n", "not valid TOML"),
    ('x = 1\n', "needs a [departments] table"),
    (toml(GOOD) + '"Tourism" = ["a", "b", "c"]\n', "unknown department 'Tourism'"),
    ('[departments]\nEconomy = "Stock Exchange"\n', "must be a list of three location names"),
])
def test_malformed_files(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(R.LocationsFileError) as e:
        R.load_locations(write(tmp_path, text))
    assert message in str(e.value)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no such SOVERANA locations file"):
        R.load_locations(tmp_path / "nope.toml")


def test_a_tables_own_file_is_used_by_the_game(tmp_path: Path) -> None:
    own = dict(GOOD)
    own["Economy"], own["Health & Welfare"] = GOOD["Health & Welfare"], GOOD["Economy"]
    p = write(tmp_path, toml(own))
    players = tuple(Player(n, i + 1) for i, n in enumerate("ABCDEF"))
    g = SoveranaGame(Setup(players, {"locations_file": str(p)}))
    assert g.data["assignment"]["Economy"] == GOOD["Health & Welfare"]
    assert g.state_json()["department_locations"]["Economy"] == GOOD["Health & Welfare"]


def test_a_bad_file_is_refused_with_the_options(tmp_path: Path) -> None:
    p = write(tmp_path, toml(_bad(Economy=["Stock Exchange", "Shopping Mall"])))
    with pytest.raises(CompanionError, match="exactly three"):
        SoveranaGame.resolve_options({"locations_file": str(p)})


def test_cli_reports_a_bad_file_in_one_line(tmp_path: Path) -> None:
    p = write(tmp_path, toml(_bad(Economy=["Stock Exchange", "Shopping Mall", "City Hall"])))
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[games.soverana]\nlocations_file = "{p}"\n')
    script = tmp_path / "s.txt"
    script.write_text("ok\n")
    r = run_companion("--config", str(cfg), "play", "soverana", "--script", str(script))
    assert r.returncode == 2
    assert r.stderr.strip() == (f"companion: {p}: City Hall is independent; no department runs it "
                                f"('Economy' lists it)")
