"""The replay path `make bench` times: a Sovereign game resumed from its journal reaches exactly the same state
(pickled undo snapshots and the per-input prompt memo must not change a thing)."""
from __future__ import annotations

from pathlib import Path

from companion.bench import sovereign_script
from companion.config import parse_config
from companion.headless import new_record, open_session
from companion.journal import Journal
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
