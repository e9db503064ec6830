"""The replay path `make bench` times: a Sovereign game resumed from its journal reaches exactly the same state
(pickled undo snapshots and the per-input prompt memo must not change a thing)."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.bench.run import sovereign_script
from companion.config.load import parse_config
from companion.session.headless import new_record, open_session
from companion.journal.store import Journal
from companion.session import encode_event


def test_a_long_sovereign_game_replays_exactly(tmp_path: Path) -> None:
    events = sovereign_script(600, seed=7)  # a walk that gets past round 1 (BACK steps back since issue 14)
    cfg = parse_config({})
    journal = Journal(tmp_path / "j.sqlite")
    rec = new_record(journal, "sovereign", cfg, 1)
    live = open_session(journal, rec, cfg)
    for i, ev in enumerate(events):
        live.handle(ev, float(i))
    journal.append_inputs(rec.id, [(float(i), encode_event(ev)) for i, ev in enumerate(events)])
    resumed = open_session(journal, rec, cfg)
    assert resumed.state_json() == live.state_json() and resumed.state_json()["round"] >= 2
    assert resumed.render().tobytes() == live.render().tobytes()
    assert len(resumed.undo_stack) == len(live.undo_stack)
    assert [g.answers for _b, g in resumed.undo_stack] == [g.answers for _b, g in live.undo_stack]
    journal.close()


def test_a_childs_peak_memory_is_its_own_not_the_bench_processs() -> None:
    """`make bench` starts each cold start from its own big process: the child must not report that one's peak."""
    import subprocess
    import sys

    from companion.bench.run import peak_rss_mb

    ballast = bytearray(96 * 2**20)
    for i in range(0, len(ballast), 4096):  # touch every page: this process is now over 96 MB resident
        ballast[i] = 1
    assert peak_rss_mb() > 96
    out = subprocess.run([sys.executable, "-c", "from companion.bench.run import peak_rss_mb; print(peak_rss_mb())"],
                         capture_output=True, text=True, timeout=60, check=True)
    del ballast
    assert 1 < float(out.stdout) < 60, out.stdout  # a Python importing the bench module: tens of MB, not 96+


def test_the_resume_pairs_open_their_journals_both_ways_to_the_same_game() -> None:
    """`make bench`'s resume/replay pairs, on short games (one snapshot each): each journal opens from its snapshot
    and by the full replay to the same state (the bench raises otherwise), a chess clock's lines journaled."""
    from companion.bench.replay import resume_chess_clock_20k, resume_toml_20k

    got = {**resume_toml_20k(520), **resume_chess_clock_20k(505)}
    assert set(got) == {"resume_toml_20k_ms", "replay_toml_20k_ms", "resume_chess_clock_20k_ms",
                        "replay_chess_clock_20k_ms"}
    assert all(isinstance(v, float) and v > 0 for v in got.values())


def test_bench_help_or_a_typo_never_starts_the_long_run(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    from companion.bench import run

    def measured() -> dict[str, float]:
        raise AssertionError("a measurement ran")

    monkeypatch.setattr(run, "MEASUREMENTS", [measured])
    assert run.main(["--help"]) == 0 and "usage: python -m companion.bench" in capsys.readouterr().out
    assert run.main(["--only"]) == 2
    assert capsys.readouterr().err.strip() == ("companion.bench: unknown argument '--only'; usage: python -m "
                                               "companion.bench (no arguments: every measurement, several "
                                               "minutes; `make bench`)")
