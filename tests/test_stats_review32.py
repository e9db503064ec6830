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


def test_a_game_the_journal_cannot_give_back_is_one_line_listed_and_counted_for_nobody(
        tmp_path: Path, monkeypatch: Any, caplog: Any) -> None:
    import sqlite3

    from stats_kit import journal_of, stats

    j = journal_of(tmp_path, games=3, distinct=3, game="race-to-ten")
    ended = [g for g in stats(j)["games"] if g["status"] == "ended"]
    (tmp_path / "stats-cache.sqlite").unlink()
    real = H.summarize

    def damaged(journal: Any, rec: Any, cfg: Any) -> Any:
        if rec.id == ended[0]["id"]:
            raise sqlite3.DatabaseError("database disk image is malformed")
        return real(journal, rec, cfg)

    monkeypatch.setattr(H, "summarize", damaged)
    caplog.clear()
    doc = stats(j)
    lines = [r for r in caplog.records if r.levelname in ("WARNING", "ERROR")]
    assert len(lines) == 1 and lines[0].exc_info is None and "companion journal salvage" in lines[0].getMessage()
    listed = next(g for g in doc["games"] if g["id"] == ended[0]["id"])
    assert listed["result"] == "cannot be read: the journal is damaged"
    assert sum(p["plays"] for p in doc["players"].values()) == sum(len(g["players"]) for g in ended[1:])


def test_a_toml_game_whose_file_is_gone_keeps_its_last_summary_or_counts_for_nobody(tmp_path: Path) -> None:
    from stats_kit import cli, stats

    game = tmp_path / "one-round.toml"
    text = (Path(__file__).parent.parent / "examples" / "vp-tracker.toml").read_text()
    game.write_text(text.replace("rounds = 5 ", "rounds = 1 "))
    (tmp_path / "s.txt").write_text("ok\n" * 6)  # three players, each scores nothing: a shared win
    j = tmp_path / "journal.sqlite"
    assert cli("play", str(game), "--script", str(tmp_path / "s.txt"), "--journal", str(j))[0] == 0
    before = stats(j)
    assert [p["wins"] for p in before["players"].values()] == [1, 1, 1]
    game.rename(tmp_path / "moved.toml")
    assert stats(j)["players"] == before["players"]  # the game is what it was: its last summary holds
    (tmp_path / "stats-cache.sqlite").unlink()
    after = stats(j)
    assert "does not exist" in after["games"][0]["result"]
    assert all(p["plays"] == p["wins"] == 0 for p in after["players"].values())  # listed, counted for nobody


def test_a_folder_an_empty_file_or_an_unknown_game_is_one_plain_line(tmp_path: Path, capsys: Any) -> None:
    from companion.cli import main
    from stats_kit import journal_of

    j = journal_of(tmp_path / "j", games=2, distinct=2, game="race-to-ten")
    (tmp_path / "empty.sqlite").write_bytes(b"")
    for args, says in ((["--journal", str(tmp_path)], "is a folder, not a journal"),
                       (["--journal", str(tmp_path / "empty.sqlite")], "holds no companion journal"),
                       (["--journal", str(tmp_path / "none" / "j.sqlite")], "no journal at"),
                       (["--journal", str(j), "--game", "nope"], "--game nope: no game has that id")):
        capsys.readouterr()
        assert main(["stats", *args]) == 2
        err = capsys.readouterr().err.strip()
        assert says in err and len(err.splitlines()) == 1, err
    assert main(["stats", "--journal", str(j), "--game", "soverana"]) == 0  # a game not played yet: no games
    assert "no saved game of soverana" in capsys.readouterr().out


def clock_game(path: Path) -> None:
    """A Sovereign Chess game with a Fischer 300+5 clock, journaled as the loop does (each input, then the clock's
    line when it changed or every 10 s while it runs) on a made-up monotonic clock: Ann moves first, Bob takes
    White, and Ann's clock is paused ten minutes during her second move."""
    import time

    from companion.config.load import parse_config
    from companion.journal.store import Journal
    from companion.session import encode_event
    from companion.session.headless import new_record, open_session, parse_script

    cfg = parse_config({"players": {"names": ["Ann", "Bob"]}, "games": {"sovereign-chess": {"clock": "fischer 300+5"}}})
    journal = Journal(path)
    rec = new_record(journal, "sovereign-chess", cfg, 1)
    s = open_session(journal, rec, cfg)
    t0, clock = time.time() + 1, [0.0]

    def save(ev: Any) -> None:
        records = s.handle(ev, t0 + clock[0], clock[0])
        journal.commit(rec.id, s.n_inputs, encode_event(ev), records, s.summary(), t=s._t)

    def at(when: float, text: str) -> None:
        while clock[0] + 10 <= when:  # the loop's checkpoints while a clock runs
            clock[0] += 10
            if s.timekeeper is not None and s.timekeeper.checkpoint_due(clock[0]):
                save(s.clock_checkpoint(clock[0]))
        clock[0] = when
        for ln in parse_script(text):
            save(ln.event)
            line = s.clock_checkpoint(clock[0])
            if line is not None:
                save(line)

    pause = "hold\n" + "down\n" * 10 + "ok\n"  # the game menu's Pause clock / Resume clock
    for when, text in ((0, "ok\ndown\nok"), (12, "move wPe2-e4"), (20, "move accept"), (35, "move bPf15-f13"),
                       (40, "move wPh2-h3"), (44, pause), (644, pause), (650, "move bPf13-f12"),
                       (700, "move wPh3-h4"), (703, "move bPi15-i13"),
                       (705, "hold\n" + "down\n" * 9 + "ok\nup\nok")):  # then a resignation
        at(when, text)
    journal.set_status(rec.id, s.status, s.summary())
    journal.close()


def test_a_clocks_time_per_move_is_the_clocks_own(tmp_path: Path) -> None:
    import json
    import sqlite3

    from stats_kit import cli

    j = tmp_path / "journal.sqlite"
    clock_game(j)
    # what the clock charged each turn, from its own journaled lines: time left before - after, + the increment
    db = sqlite3.connect(j)
    lines = [json.loads(e[12:]) for (e,) in db.execute("SELECT event FROM inputs ORDER BY n")
             if e.startswith("clock state")]
    db.close()
    charged = [(a["running"], (a["left"][str(a["running"])] - b["left"][str(a["running"])]) / 1000 + 5)
               for a, b in zip(lines, lines[1:]) if a["running"] is not None and b["running"] != a["running"]]
    assert charged == [(1, 12), (2, 8), (1, 15), (2, 5), (1, 10), (2, 50), (1, 3), (2, 2)]  # 8 s: taking White
    status, text = cli("stats", "--journal", str(j), "--game-id", "1")
    chart = next(c for c in json.loads(text)["charts"] if c["id"] == "moves")
    took = [(s["seat"], v) for i in range(len(chart["x"])) for s in chart["series"] if s["values"][i] is not None
            for v in [s["values"][i]]]
    assert took == [(1, 12), (1, 15), (2, 5), (1, 10), (2, 50), (1, 3)]  # the pause is no thinking; no move of 23 s


def test_companion_play_journals_the_clock_so_the_saved_game_has_it(tmp_path: Path) -> None:
    import json

    from stats_kit import cli

    (tmp_path / "c.toml").write_text('[players]\nnames = ["Ann", "Bob"]\n[games.sovereign-chess]\n'
                                     'clock = "fischer 300+5"\n')
    (tmp_path / "s.txt").write_text("ok\ndown\nok\nwait 1.2\nmove wPe2-e4\nmove accept\n")
    j, state = tmp_path / "journal.sqlite", tmp_path / "state.json"
    assert cli("--config", str(tmp_path / "c.toml"), "play", "sovereign-chess", "--script", str(tmp_path / "s.txt"),
               "--journal", str(j), "--state-json", str(state))[0] == 0
    live = json.loads(state.read_text())["clocks"]
    status, text = cli("--config", str(tmp_path / "c.toml"), "export", "--journal", str(j))
    replayed = json.loads(text)["outcome"]["clocks"]
    assert 300.0 < live["1"] <= 303.8 and replayed["1"] == live["1"]  # Ann's 1.2 s and her increment, as saved


def test_stats_replays_say_nothing_of_snapshots_an_upgrade_made_unusable(monkeypatch: Any, caplog: Any) -> None:
    """`companion stats` replays every saved game: a snapshot it cannot use (a new version, another key) is no news
    to its reader (three warnings per long game after an upgrade); a resume still says it."""
    import logging
    import sqlite3
    from types import SimpleNamespace

    from companion.journal import snapshots
    from companion.session import snapshot

    def unreadable(*_a: Any) -> Any:
        raise sqlite3.OperationalError("database disk image is malformed")

    monkeypatch.setattr(snapshots, "latest", unreadable)
    journal = SimpleNamespace(db=None)
    with caplog.at_level(logging.DEBUG, logger="companion.session.snapshot"):
        assert snapshot.restore(journal, 7, None, quiet=True) is None  # type: ignore[arg-type]
        assert [r.levelno for r in caplog.records] == [logging.DEBUG]
        caplog.clear()
        assert snapshot.restore(journal, 7, None) is None  # type: ignore[arg-type]
        assert [r.levelno for r in caplog.records] == [logging.WARNING]


def test_the_summaries_replay_quietly(monkeypatch: Any, tmp_path: Path) -> None:
    from companion.session import snapshot
    from stats_kit import journal_of, stats

    asked: list[bool] = []
    real = snapshot.restore

    def spy(journal: Any, game_id: int, fresh: Any, quiet: bool = False) -> Any:
        asked.append(quiet)
        return real(journal, game_id, fresh, quiet)

    monkeypatch.setattr(snapshot, "restore", spy)
    assert stats(journal_of(tmp_path, games=3, distinct=3, seed=5))["games"]
    assert asked and all(asked)
