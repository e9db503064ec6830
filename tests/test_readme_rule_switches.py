"""The switch tables and ambiguity lists of the Sovereign and SOVERANA manuals (companion/manuals/<id>.md, which
hold what the README's game sections used to) are the games' own OPTIONS: every switch listed with the default the
code has, and the readings issue 17 made switches named where the manual says why (so a new or changed switch cannot
go undocumented)."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.games import load

MANUALS = Path(__file__).resolve().parent.parent / "companion" / "manuals"
SHARED = {"clock"}  #: the game clock is one switch for every game, described in its own section


def section(game: str, title: str) -> str:
    return (MANUALS / f"{game}.md").read_text().split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def toml(value: object) -> str:
    return json.dumps(value)  # strings, numbers and booleans are written alike in TOML


def rows(text: str) -> dict[str, list[str]]:
    """The table's rows as ``key -> [cells after the key]`` for rows whose first cell is a `key`."""
    out = {}
    for line in text.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        m = re.fullmatch(r"`(\w+)`", cells[0]) if line.startswith("|") else None
        if m:
            out[m[1]] = cells[1:]
    return out


GAMES = {
    "sovereign": ("Options (`[games.sovereign]` in the config)", "Ambiguities and how they are decided",
                  ("forts_need_code_of_laws", "espionage_researchable", "air_raid_loss", "construction_bonus")),
    "soverana": ("Switches (`[games.soverana]` in the config)",
                 "Ambiguities: the rules text is silent or unclear, so this is what the companion does",
                 ("board_file", "check_moves")),
}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_switch_is_in_the_readme_with_its_default(game: str) -> None:
    table, _ambiguities, _new = GAMES[game]
    options = {k: o for k, o in load(game).OPTIONS.items() if k not in SHARED}
    listed = rows(section(game, table))
    assert sorted(listed) == sorted(options), f"the {game} manual's table and the game's OPTIONS differ"
    for key, spec in options.items():
        first = re.findall(r"`([^`]*)`", listed[key][0])
        assert first and first[0] == toml(spec.default), (key, listed[key][0], spec.default)
        if spec.choices:
            shown = [c for cell in listed[key] for c in re.findall(r"`([^`]*)`", cell)]
            assert all(toml(c) in shown for c in spec.choices), (key, shown, spec.choices)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_new_switches_are_explained_in_the_ambiguities(game: str) -> None:
    _table, ambiguities, new = GAMES[game]
    text = section(game, ambiguities)
    options = load(game).OPTIONS
    for key in new:
        assert f"`{key}" in text, f"the {game} ambiguities do not say why `{key}` is a switch"
        if game == "sovereign":  # each reading gives its default where it is explained
            assert f"`{key} = {toml(options[key].default)}`" in text, key
