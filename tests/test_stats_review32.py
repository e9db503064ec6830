"""A fresh review of the figures (#32): the luck plot runs from the oldest game, a merge never makes one player of
two seats at one table, a damaged journal or a game file gone is one line and counts for nobody, a folder or an
unknown game id is one plain line, and a clock's time per move is the clock's (a pause is not thinking)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.stats import history as H
from companion.stats.names import Names


def summary(gid: int, t: float, seats: list[str], battles: list[tuple[int, int, float, bool]]) -> dict[str, Any]:
    """A game's summary as the cache keeps it: ``battles`` as (attacker seat, defender seat, p, attacker won)."""
    return {"id": gid, "game": "sovereign", "title": "Sovereign", "status": "ended", "hidden": False,
            "started": f"t{t}", "t_start": t, "ended": f"t{t + 1}", "t_end": t + 1, "duration_s": 60, "rounds": 3,
            "players": [{"name": n, "seat": i + 1, "place": i + 1, "winner": i == 0, "score": 7 - i}
                        for i, n in enumerate(seats)],
            "result": "", "decider": "", "cooperative": False, "start_seat": 1, "genesis": f"g{gid}",
            "battles": [{"round": 1, "attacker": a, "defender": d, "p_attacker_wins": p, "p_exact": "1/2",
                         "attacker_won": won, "how": "destroyed", "odds_args": []} for a, d, p, won in battles]}


def test_the_luck_plot_runs_from_the_oldest_game() -> None:
    old = summary(1, 100.0, ["Ann", "Bob"], [(1, 2, 0.25, True), (1, 2, 0.5, False)])
    new = summary(2, 200.0, ["Ann", "Bob"], [(2, 1, 0.9, True)])
    doc = H.document([new, old], Names(), full=True)  # newest first, as collected
    assert [round(v, 3) for v in doc["luck"]["Ann"]["values"]] == [0.75, 0.25, 0.15]
    assert [round(v, 3) for v in doc["luck"]["Bob"]["values"]] == [-0.75, -0.25, -0.15]


def test_a_merge_of_two_names_at_one_table_is_refused_and_the_file_kept(tmp_path: Path) -> None:
    import pytest

    from companion.stats.names import NamesError

    tables = [(1, ["Ann", "Bob", "Cat"]), (2, ["Ann", "Dan"])]
    book = Names(tmp_path / "player-names.json")
    with pytest.raises(NamesError, match="Bob and Cat sat at the same table in game 1"):
        book.merge("Cat", "Bob", tables)
    with pytest.raises(NamesError, match="they sat at one table in game 1"):
        book.rename("Cat", "Bob", tables)  # a rename into a seat-mate's name would merge the two
    with pytest.raises(NamesError, match="merge Dan into Bob instead"):
        book.rename("Dan", "Bob", tables)  # another player's name as played: that is a merge
    assert not (tmp_path / "player-names.json").exists() and book.id_of("Cat") == "cat"
    book.merge("Dan", "Bob", tables)  # never at one table: one player
    assert Names(tmp_path / "player-names.json").id_of("Dan") == "bob"


def test_a_merge_made_before_two_names_sat_together_counts_neither_twice() -> None:
    from companion.stats.plays import plays

    book = Names()
    book.merge("Cat", "Bob")  # made before game 1 seated both
    game = summary(1, 100.0, ["Ann", "Bob", "Cat"], [(2, 3, 0.5, True)])
    doc = H.document([game], book)
    assert sorted(doc["players"]) == ["Ann", "Bob", "Cat"]
    assert doc["players"]["Bob"]["plays"] == doc["players"]["Cat"]["plays"] == 1
    assert [(b["attacker"], b["defender"]) for b in doc["battles"]] == [("Bob", "Cat")]
    assert len({s.player for s in plays([game], book)[0].seats}) == 3
