"""`companion export`: players, the action log with times, dice rolls (undone ones marked) and the outcome."""
from __future__ import annotations

import json
from pathlib import Path

from companion.session.headless import play
from conftest import EXAMPLES, run_companion


def test_export_has_players_actions_dice_and_outcome(tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    script = tmp_path / "s.txt"
    # 2 players; roll-off: Ana 6, Ben 2; undo Ben's roll (it stays in the dice history, marked undone); Ben 1
    script.write_text("ok\nok\nroll d6 6\nroll d6 2\nhold\ndown\nok\nroll d6 1\n")
    play(str(EXAMPLES / "race-to-ten.toml"), script, seed=4, journal_path=journal)
    r = run_companion("export", "--journal", str(journal))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert [p["name"] for p in data["players"]] == ["Ana", "Ben"]
    assert data["inputs"] == 8 and data["seed"] == 4
    dice = [(d["player"], d["values"], d["undone"], d["source"]) for d in data["dice"]]
    assert dice == [(1, [6], False, "roller"), (2, [2], True, "roller"), (2, [1], False, "roller")]
    assert any(a.get("undo") == "First player" for a in data["actions"])
    assert all(isinstance(a["t"], float) and a["t"] > 1e9 for a in data["actions"])
    assert data["outcome"]["state"] == "playing" and data["outcome"]["game"] == "race-to-ten"
    listing = run_companion("export", "--journal", str(journal), "--list")
    assert listing.returncode == 0 and "Race to ten" in listing.stdout


def test_export_without_journal_is_one_line(tmp_path: Path) -> None:
    r = run_companion("export", "--journal", str(tmp_path / "none.sqlite"))
    assert r.returncode == 2 and "no journal" in r.stderr and "Traceback" not in r.stderr
