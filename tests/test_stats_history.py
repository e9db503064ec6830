"""`companion stats --json` over scripted games of every kind: the issue's keys, standings and luck that a
reviewer's own calculator recomputes from the games and battles listed, filters, active games that show nothing
that moves, and the summaries' cache (used while it holds, recomputed when the game or the code changes, set aside
when damaged)."""
from __future__ import annotations

import json
import math
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from companion.stats import history as H
from stats_kit import cli, journal_of, stats

GAME_KEYS = {"id", "game", "status", "started", "duration_s", "rounds", "players"}
PLAYER_KEYS = {"plays", "wins", "win_rate", "luck"}
BATTLE_KEYS = {"game_id", "attacker", "defender", "p_attacker_wins", "attacker_won", "odds_args"}


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return journal_of(tmp_path_factory.mktemp("history"), games=13, distinct=11, seed=11)


@pytest.fixture(scope="module")
def doc(journal: Path) -> dict[str, Any]:
    return stats(journal)


def test_the_issue_keys_and_fields(doc: dict[str, Any]) -> None:
    assert set(doc) == {"games", "players", "battles"}
    assert len(doc["games"]) >= 12 and doc["battles"]
    kinds = {g["game"] for g in doc["games"]}
    assert {"sovereign", "soverana", "sovereigns-chain", "sovereign-chess", "sovereign-chess-royale", "society",
            "race-to-ten", "vp-tracker"} <= kinds
    for g in doc["games"]:
        assert GAME_KEYS <= set(g), g
        assert g["status"] in ("ended", "abandoned", "active")
        for p in g["players"]:
            assert {"name", "seat"} <= set(p)
            if g["status"] == "ended":
                assert isinstance(p["place"], int) and isinstance(p["winner"], bool)
                assert ("score" in p) == (g["game"] not in ("sovereign-chess", "sovereign-chess-royale", "society"))
    for name, p in doc["players"].items():
        assert PLAYER_KEYS <= set(p), name
    for b in doc["battles"]:
        assert BATTLE_KEYS <= set(b) and 0.0 <= b["p_attacker_wins"] <= 1.0


def recompute(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A reviewer's own calculator: standings and luck from the games and battles lists alone."""
    out: dict[str, dict[str, Any]] = defaultdict(lambda: {"plays": 0, "wins": 0, "places": [], "luck": 0.0})
    for g in doc["games"]:
        for p in g["players"]:
            row = out[p["name"]]
            if g["status"] == "ended":
                row["plays"] += 1
                row["wins"] += p["winner"]
                row["places"].append(p["place"])
    for b in doc["battles"]:
        won = 1.0 if b["attacker_won"] else 0.0
        out[b["attacker"]]["luck"] += won - b["p_attacker_wins"]
        out[b["defender"]]["luck"] += (1.0 - won) - (1.0 - b["p_attacker_wins"])
    return out


def test_standings_and_luck_agree_with_a_calculator_of_ones_own(doc: dict[str, Any]) -> None:
    mine = recompute(doc)
    assert set(mine) == set(doc["players"])
    for name, p in doc["players"].items():
        m = mine[name]
        assert (p["plays"], p["wins"]) == (m["plays"], m["wins"]), name
        assert p["win_rate"] == (round(m["wins"] / m["plays"], 4) if m["plays"] else None)
        assert p["avg_place"] == (round(sum(m["places"]) / len(m["places"]), 4) if m["places"] else None)
        assert math.isclose(p["luck"], m["luck"], abs_tol=1e-3), name
    assert math.isclose(sum(p["luck"] for p in doc["players"].values()), 0.0, abs_tol=1e-6 * len(doc["battles"]) + 1e-3)
    # three games by hand: the places are competition ranks of the winners first, then the score
    for g in [g for g in doc["games"] if g["status"] == "ended" and any("score" in p for p in g["players"])][:3]:
        for p in g["players"]:
            better = [o for o in g["players"] if (o["winner"], o["score"]) > (p["winner"], p["score"])]
            if g["game"] != "sovereigns-chain":  # the chain ranks by games won before the score
                assert p["place"] == 1 + len(better), g


def test_filters_by_game_and_by_player(journal: Path, doc: dict[str, Any]) -> None:
    only = stats(journal, "--game", "soverana")
    assert only["games"] and all(g["game"] == "soverana" for g in only["games"]) and not only["battles"]
    who = next(iter(doc["players"]))
    mine = stats(journal, "--player", who.upper())
    assert mine["games"] and all(any(p["name"] == who for p in g["players"]) for g in mine["games"])
    assert mine["players"][who]["plays"] == doc["players"][who]["plays"]


def test_an_active_game_shows_its_players_and_start_only(doc: dict[str, Any]) -> None:
    active = [g for g in doc["games"] if g["status"] == "active"]
    assert active, "the journal ends with games still running"
    for g in active:
        assert g["rounds"] is None and g["duration_s"] is None and g["ended"] is None and g["result"] is None
        assert all(set(p) == {"name", "seat"} for p in g["players"])
    assert not any(b["game_id"] in {g["id"] for g in active} for b in doc["battles"])


def test_durations_cap_the_gaps_and_the_longest_game_is_named(journal: Path, doc: dict[str, Any]) -> None:
    from companion.stats.summary import play_time

    assert play_time(0.0, [10.0, 20.0, 20.0 + 5 * 3600]) == 20.0 + 1800.0
    full = json.loads(H_doc(journal))
    for gid, s in full["standings"].items():
        ended = [g for g in full["games"] if g["game"] == gid and g["status"] == "ended"]
        assert s["plays"] == len(ended)
        assert s["longest_s"] == max(g["duration_s"] for g in ended)
        assert s["shortest_s"] == min(g["duration_s"] for g in ended)


def H_doc(journal: Path) -> str:
    from companion.config.load import parse_config
    from companion.stats.provider import web_callables

    history, _story, _names = web_callables(parse_config({"journal": {"path": str(journal)}}))
    return history({})


def test_the_web_document_adds_standings_luck_dice_and_names(journal: Path, doc: dict[str, Any]) -> None:
    # ``doc`` (companion stats) summarised every game first: the phone's request never computes, it reads the cache
    full = json.loads(H_doc(journal))
    assert {"games", "players", "battles", "standings", "luck", "dice", "names", "pending"} <= set(full)
    assert full["pending"] == 0
    d12 = full["dice"]["d12"]
    assert len(d12["counts"]) == 12 and sum(d12["counts"]) == d12["n"] > 0
    assert d12["band"][0] < d12["expected"] < d12["band"][1]
    for name, series in full["luck"].items():
        assert len(series["values"]) == len(series["lo"]) == len(series["hi"]) == full["players"][name]["battles"]
        assert math.isclose(series["values"][-1], full["players"][name]["luck"], abs_tol=1e-3)
        assert all(lo <= 0 <= hi for lo, hi in zip(series["lo"], series["hi"]))


def copy(journal: Path, folder: Path) -> Path:
    """The journal and its statistics cache, copied: the cache still holds for the copy."""
    stats(journal)
    for p in journal.parent.iterdir():
        if p.is_file():
            shutil.copy(p, folder / p.name)
    assert (folder / "stats-cache.sqlite").exists()
    return folder / journal.name


def test_h_index() -> None:
    assert H.h_index([10, 6, 5, 4]) == 4 and H.h_index([1, 1, 1]) == 1 and H.h_index([]) == 0
    assert H.h_index([3, 3, 3, 1]) == 3


def test_the_cache_is_used_while_it_holds_and_set_aside_when_damaged(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    j = journal_of(tmp_path, games=6, distinct=3, game="race-to-ten")
    first = stats(j)
    assert (tmp_path / "stats-cache.sqlite").exists()

    def no_replay(*a: Any, **k: Any) -> Any:
        raise AssertionError("replayed a game whose summary is cached")

    monkeypatch.setattr(H, "summarize", no_replay)
    done = [g for g in first["games"] if g["status"] != "active"]
    again = stats(j)
    assert [g for g in again["games"] if g["status"] != "active"] == done
    monkeypatch.undo()
    (tmp_path / "stats-cache.sqlite").write_bytes(b"not a database at all" * 100)
    assert stats(j)["games"] == first["games"]
    assert (tmp_path / "stats-cache.sqlite.bad").exists()


def test_a_game_whose_record_changed_is_summarised_again(tmp_path: Path, journal: Path) -> None:
    from companion.journal.store import Journal

    j = copy(journal, tmp_path)
    before = stats(j)
    ended = next(g for g in before["games"] if g["status"] == "ended")
    w = Journal(j)
    w.set_status(ended["id"], "hidden")
    w.close()
    after = stats(j)
    assert next(g for g in after["games"] if g["id"] == ended["id"])["hidden"] is True


def test_unknown_game_and_missing_journal_are_one_line(tmp_path: Path, journal: Path) -> None:
    status, _ = cli("stats", "--journal", str(tmp_path / "none.sqlite"), "--json")
    assert status == 2
    status, _ = cli("stats", "--journal", str(journal), "--game-id", "9999")
    assert status == 2


def test_after_an_upgrade_a_phone_sees_the_games_as_they_were_until_they_are_read_again(
        tmp_path: Path, journal: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.config.load import parse_config
    from companion.stats.provider import History, web_callables

    j = copy(journal, tmp_path)
    before = stats(j)
    monkeypatch.setattr(H, "_code", lambda game, cfg, memo: "a newer companion")
    cfg = parse_config({"journal": {"path": str(j)}})
    hist = History(cfg)
    asked: list[bool] = []
    monkeypatch.setattr(hist, "warm", lambda: asked.append(True))  # the summariser itself: test_stats_units
    history, _story, _names = web_callables(cfg, hist)
    doc = json.loads(history({}))
    done = [g for g in before["games"] if g["status"] != "active"]
    assert doc["pending"] == len(done) and asked  # to be read again, by the summariser's own process
    assert [g for g in doc["games"] if g["status"] != "active"] == done  # shown as they were meanwhile
