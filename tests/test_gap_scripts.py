"""`companion play` scripts (tests/scripts/*.txt) showing each rule of issue 17 refusing what it must refuse with
one plain line (or warning, for the box and the bank; or showing a screen, for sudden death's re-score): the line
is seen at the table, and the CLI plays the script to the same state, saying each refusal on stderr."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.cli import main
from script_kit import SCRIPTS, header, run_script

ALL = sorted(SCRIPTS.glob("*.txt"))


def _expected(head: dict[str, object], key: str) -> list[str]:
    got = head.get(key, [])
    return [got] if isinstance(got, str) else list(got)  # type: ignore[arg-type]


@pytest.mark.parametrize("path", ALL, ids=[p.stem for p in ALL])
def test_script_shows_its_refusal_in_one_plain_line(path: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    head = header(path)
    lines = _expected(head, "refuses") + _expected(head, "warns") + _expected(head, "shows")
    assert lines, f"{path.name} says what it refuses, warns about or shows"
    session, seen = run_script(path)
    for line in lines:
        assert line in seen, (line, seen)
        assert "\n" not in line and len(line) < 80
    assert not any("Internal error" in s for s in seen)
    # the same script through the CLI ends in the same state
    cfg = tmp_path / "c.toml"
    opts = head.get("options", {})
    cfg.write_text(f"[players]\nnames = {json.dumps(['Ann', 'Bob', 'Cat', 'Dan', 'Eve', 'Fay'])}\n"
                   + (f"[games.{head['game']}]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in opts.items())
                      if opts else ""))
    out = tmp_path / "state.json"
    capsys.readouterr()
    assert main(["--config", str(cfg), "play", str(head["game"]), "--script", str(path), "--seed", "5",
                 "--state-json", str(out)]) == 0
    # `companion play` says each refusal on stderr, one line naming the script line, as the table read it
    err = capsys.readouterr().err.splitlines()
    for line in _expected(head, "refuses"):
        assert any(e.startswith(f"companion: {path.name} line ") and e.endswith(f"' refused: {line}") for e in err), \
            (line, err)
    state = json.loads(out.read_text())
    mine = session.state_json()
    for key in ("state", "round", "active_player", "players", "winner"):
        assert state[key] == mine[key], key
