"""The Sovereign Chess game record: `companion export --record`, and `companion chess inspect --moves-file`."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.records.chess import RecordError, replay
from companion.session.headless import play
from companion.rules.sovereign_chess import START, SovereignChess
from conftest import run_companion

MOVES = ["wPi2-i4", "reject", "bPe15-e13", "wNf1-e3"]


def test_export_record_then_inspect_replays_it(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    script = tmp_path / "s.txt"
    script.write_text("ok\ndown\nok\n" + "".join(f"move {m}\n" for m in MOVES))
    state = play("sovereign-chess", script, seed=2, journal_path=journal)
    r = run_companion("export", "--journal", str(journal), "--record")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == '[Game "Sovereign Chess"]' and lines[1].startswith('[Date "20')
    assert '[White "Ana"]' in lines and '[Black "Ben"]' in lines and '[Result "*"]' in lines
    assert lines[lines.index("") + 1:] == MOVES + ["*"]
    data = json.loads(run_companion("export", "--journal", str(journal)).stdout)
    assert data["record"] == r.stdout and data["outcome"]["moves"] == MOVES
    record = tmp_path / "game.txt"
    record.write_text(r.stdout)
    out = run_companion("chess", "inspect", "--moves-file", str(record), "--json")
    assert out.returncode == 0, out.stderr
    js = json.loads(out.stdout)
    assert js["position"] == state["position"] and js["moves"] == MOVES
    text = run_companion("chess", "inspect", "--moves-file", str(record))
    assert f"position {state['position']}" in text.stdout and "after 3 moves and reject" in text.stdout


def test_inspect_json_carries_the_position_without_a_file() -> None:
    out = run_companion("chess", "inspect", "--json")
    assert json.loads(out.stdout)["position"] == START


def test_a_plain_file_of_moves_and_its_errors(tmp_path: Path) -> None:
    g = SovereignChess()
    g.make("wPi2-i4")
    g.accept_opening()
    g.make("bPe15-e13")
    rep = replay("wPi2-i4\naccept\n# Black now\nbPe15-e13\n")
    assert rep.game.text == g.text and rep.moves == ["wPi2-i4", "accept", "bPe15-e13"]
    with pytest.raises(RecordError, match="moves line 3: 'accept' only right after"):
        replay("wPi2-i4\nreject\naccept\n", name="moves")
    bad = tmp_path / "bad.txt"
    bad.write_text("wPi2-i4\nreject\nwQh1-h9\n")
    r = run_companion("chess", "inspect", "--moves-file", str(bad))
    assert r.returncode == 2 and r.stderr.strip() == (
        "companion: bad.txt line 3: move 'wQh1-h9' is not legal for player 2 in this position")
    r = run_companion("chess", "inspect", "--moves-file", str(tmp_path / "none.txt"))
    assert r.returncode == 2 and "cannot read moves file" in r.stderr and "Traceback" not in r.stderr


def test_a_bad_start_header_names_its_line_in_both_variants() -> None:
    from companion.records.chess import RecordError, replay, replay_royale

    text = '[Game "x"]\n[Start "not a position"]\n\nwPi2-i4\n'
    for play in (replay, replay_royale):
        with pytest.raises(RecordError, match=r"^rec line 2: "):
            play(text, name="rec")
