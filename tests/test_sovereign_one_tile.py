"""A city founded by a Settler has one tile: the screens and the log say "1 tile", not "1 tiles"."""
from __future__ import annotations

from fsm.prompts import Choice
from test_sovereign_kit import give, ok, pick, player, started


def _labels(g) -> list[str]:  # type: ignore[no-untyped-def]
    p = g.prompt()
    assert isinstance(p, Choice)
    return [o.label for o in p.options] + list(p.lines)


def test_a_one_tile_city_is_one_tile_everywhere() -> None:
    g = started(2)
    give(g, 2, "pottery")
    player(g, 2)["cities"].append({"name": "City 2", "tiles": 1, "start": None})
    pick(g, "collect")
    pick(g, "done")
    ok(g)
    pick(g, "capture")
    pick(g, "2")
    assert "City 2: 1 tile" in _labels(g)
    pick(g, "1")
    pick(g, "none")
    assert not any("(1 tiles)" in e for e in g.data["log"]), g.data["log"][-3:]
    assert any("City 2 (1 tile)" in e for e in g.data["log"]), g.data["log"][-3:]
    player(g, 1)["cities"].append({"name": "City 3", "tiles": 1, "start": None})
    pick(g, "cities")
    pick(g, "1")
    assert "City 3: 1 tile" in _labels(g)
    pick(g, str(len(player(g, 1)["cities"]) - 1))
    assert "of Ann: 1 tile" in _labels(g)
