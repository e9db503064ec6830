"""The statistics' small pieces: luck and its band (exact against a brute-force count), dice bands, names kept apart
from the journal (rename, merge, a damaged file set aside), and the web view's callables."""
from __future__ import annotations

import itertools
import json
import math
import random
from pathlib import Path

import pytest

from companion.stats import luck as L
from companion.stats.dice import band, dice_doc
from companion.stats.names import Names, NamesError


def brute_band(ps: list[float]) -> tuple[float, float]:
    """The 2.5 % and 97.5 % quantiles of the wins minus their mean, by listing every outcome."""
    dist: dict[int, float] = {}
    for outcome in itertools.product((0, 1), repeat=len(ps)):
        w = math.prod(p if o else 1 - p for p, o in zip(ps, outcome))
        dist[sum(outcome)] = dist.get(sum(outcome), 0.0) + w
    acc, lo, hi = 0.0, None, None
    for s in sorted(dist):
        acc += dist[s]
        if lo is None and acc >= 0.025 - 1e-12:
            lo = s
        if hi is None and acc >= 0.975 - 1e-12:
            hi = s
    return lo - sum(ps), hi - sum(ps)


def test_the_band_is_exact_for_few_battles_and_normal_beyond() -> None:
    rng = random.Random(32)
    ps = [0.1 + 0.8 * rng.random() for _ in range(120)]
    bands = L.bands(ps)
    for k in (1, 2, 5, 9, 12):
        assert bands[k - 1] == pytest.approx(brute_band(ps[:k]), abs=1e-6)
    var = sum(p * (1 - p) for p in ps)
    assert bands[-1] == pytest.approx((-1.96 * math.sqrt(var), 1.96 * math.sqrt(var)), abs=1e-3)
    # the research note's reference figures (its own calculator, seed 32): after 5 battles [-2.093, +1.907]
    ref = [0.1 + 0.8 * r for r in (lambda g: [g.random() for _ in range(500)])(random.Random(32))]
    assert L.bands(ref[:5])[-1] == pytest.approx((-2.093, 1.907), abs=1e-3)
    assert L.bands(ref[:20])[-1] == pytest.approx((-4.148, 3.852), abs=1e-3)


def test_luck_of_the_two_sides_sums_to_zero() -> None:
    att, dfn = L.sides(0.3, True)
    assert L.luck([att]) + L.luck([dfn]) == pytest.approx(0.0)
    assert L.running([(0.3, True), (0.8, False)]) == pytest.approx([0.7, -0.1])


def test_the_dice_picture() -> None:
    mean, lo, hi = band(600, 6)
    assert mean == 100 and lo < 100 < hi and hi - 100 == pytest.approx(100 - lo)
    doc = dice_doc({("roller", "d12"): [1, 12, 12, 5] * 30, ("typed", "d12"): [3] * 10, ("roller", "d7"): [1]})
    assert set(doc) == {"d12"} and doc["d12"]["n"] == 130 and doc["d12"]["counts"][11] == 60
    assert doc["d12"]["flagged"] and "loaded" in doc["d12"]["verdict"]


def test_rename_and_merge_are_kept_beside_the_journal(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite"
    names = Names.beside(journal)
    assert names.shown("  ana ") == "ana" and names.id_of("ANA") == "ana"
    names.rename("Ana", "Ana B.")
    names.merge("Anna", "ana b.")
    again = Names.beside(journal)
    assert again.shown("Anna") == again.shown("ana") == again.shown("Ana B.") == "Ana B."
    assert again.id_of("Anna") == again.id_of("Ana") == "ana"
    assert again.mapping() == {"ana": "Ana B.", "anna": "Ana B."}
    with pytest.raises(NamesError):
        again.merge("Anna", "Ana")
    again.rename("Ben", "Benno")
    with pytest.raises(NamesError):
        again.rename("Cleo", "Benno")  # another player's name: a merge, not a rename
    with pytest.raises(NamesError):
        again.rename("Cleo", "   ")
    assert not journal.exists()  # nothing of it is in the journal


def test_a_damaged_names_file_is_set_aside(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "player-names.json").write_text('{"ids": [1, 2]}')
    names = Names.beside(tmp_path / "journal.sqlite")
    assert names.shown("Ana") == "Ana"
    assert (tmp_path / "player-names.json.bad").exists() and "set aside" in caplog.text
    (tmp_path / "player-names.json").write_text(json.dumps({"ids": {"a": "b", "b": "a"}, "shown": {}}))
    assert Names.beside(tmp_path / "journal.sqlite").id_of("a") in ("a", "b")  # a loop ends, it does not hang


def test_the_web_callables_speak_json_and_leave_the_replays_to_another_process(tmp_path: Path) -> None:
    from companion.config.load import parse_config
    from companion.stats.provider import History, web_callables
    from stats_kit import journal_of

    j = journal_of(tmp_path, games=5, distinct=5, game="race-to-ten")
    cfg = parse_config({"journal": {"path": str(j)}})
    hist = History(cfg)
    history, story, names = web_callables(cfg, hist)
    doc = json.loads(history({"game": "race-to-ten"}))
    assert doc["pending"] == 3 and [g["status"] for g in doc["games"]] == ["active", "active"]
    first = json.loads(story(1))
    assert first["pending"] is True and first["charts"] == []
    assert hist.wait(60)  # the summariser runs in its own process: the phone asks again later
    doc = json.loads(history({"game": "race-to-ten"}))
    assert doc["pending"] == 0 and len(doc["games"]) == 5
    first = doc["games"][-1]
    one = json.loads(story(first["id"]))
    assert one["id"] == first["id"] and one["charts"] and one["charts"][0]["series"]
    assert "error" in json.loads(story(999))
    who = first["players"][0]["name"]
    assert json.loads(names({"rename": {"from": who, "to": "Zoe"}})) == {"ok": True, "names": {who.casefold(): "Zoe"}}
    assert "Zoe" in json.loads(history({}))["players"]
    assert json.loads(story(first["id"]))["players"][0]["name"] == "Zoe"
    assert "error" in json.loads(names({"rename": {"from": who, "to": ""}}))
    assert "error" in json.loads(names({"bogus": 1}))


def test_the_loop_hands_the_web_view_its_history_and_goes_on_without_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    from types import SimpleNamespace

    from companion.config.load import parse_config
    from companion.loop.runtime import _history_for
    from companion.stats import provider

    cfg = parse_config({"journal": {"path": str(tmp_path / "journal.sqlite")}})
    hub = SimpleNamespace(history=None, story=None, player_names=None)
    _history_for(hub, cfg)
    assert callable(hub.history) and callable(hub.story) and callable(hub.player_names)
    assert "no journal" in json.loads(hub.history({}))["error"]  # nothing played yet: one line, no crash

    def broken(*a: object) -> None:
        raise RuntimeError("no room for it")

    monkeypatch.setattr(provider, "web_callables", broken)
    hub = SimpleNamespace(history=None, story=None, player_names=None)
    _history_for(hub, cfg)
    assert hub.history is None and "the history page is off: no room for it" in caplog.text


def test_luck_battle_by_battle_runs_from_the_first_battle_to_the_last() -> None:
    """The history lists games newest first; a player's luck line must still start at their first battle, so that
    battle 1 on the phone is the first they fought and the band widens as the evenings go by."""
    from companion.stats.history import document

    def game(gid: int, t: float, p: float, won: bool) -> dict[str, object]:
        return {"id": gid, "game": "sovereign", "title": "Sovereign", "status": "ended", "hidden": False,
                "started": f"2026-01-0{gid}T20:00:00+00:00", "t_start": t, "ended": None, "duration_s": 600,
                "rounds": 1, "result": "", "decider": "", "cooperative": False,
                "players": [{"name": "Ana", "seat": 1, "place": 1, "winner": True, "score": 7},
                            {"name": "Ben", "seat": 2, "place": 2, "winner": False, "score": 1}],
                "battles": [{"round": 1, "attacker": 1, "defender": 2, "p_attacker_wins": p, "p_exact": "",
                             "attacker_won": won, "how": "destroyed", "odds_args": []}]}
    newest_first = [game(2, 2000.0, 0.9, False), game(1, 1000.0, 0.5, True)]  # as collect() lists them
    doc = document(newest_first, Names(), full=True)
    assert doc["luck"]["Ana"]["values"] == pytest.approx([0.5, -0.4])  # game 1's battle, then game 2's
    assert doc["luck"]["Ben"]["values"] == pytest.approx([-0.5, 0.4])
    assert doc["luck"]["Ana"]["lo"][0] == pytest.approx(L.bands([0.5])[0][0], abs=1e-3)
