"""State diagrams: drawn by pytransitions' mermaid engine from the machine itself, and kept fresh in fsm/diagrams."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion import games
from companion.cli import main
from companion.cli.diagram import DIAGRAM_DIR, DiagramError, mermaid, stale, write_all
from fsm.base import GameMachine
from fsm.prompts import Choice, Prompt, options

ROOT = Path(__file__).resolve().parent.parent


class Tiny(GameMachine):
    """A three-phase game: enough to show initial, loop, branch and final states."""

    game_id = "tiny"
    name = "Tiny: a test"
    description = "a game for the diagram tests"
    STATES = ["setup", {"name": "turn"}, "game_over"]
    TRANSITIONS = [
        {"trigger": "begin", "source": "setup", "dest": "turn"},
        {"trigger": "next_turn", "source": "turn", "dest": "turn"},
        {"trigger": "finish", "source": "turn", "dest": "game_over"},
        {"trigger": "abandon", "source": ["setup", "turn"], "dest": "game_over"},
    ]
    INITIAL = "setup"

    def prompt(self) -> Prompt:
        return Choice(title="go", options=options("go"))

    def answer(self, value: Any) -> None:
        self.fire("begin")


TINY_MERMAID = """\
---
title: "Tiny: a test"
---
stateDiagram-v2
  direction LR
  classDef s_default fill:white,color:black
  classDef s_inactive fill:white,color:black
  classDef s_parallel color:black,fill:white
  classDef s_active color:red,fill:darksalmon
  classDef s_previous color:blue,fill:azure

  state "setup" as setup
  Class setup s_default
  state "turn" as turn
  Class turn s_default
  state "game_over" as game_over
  Class game_over s_default

  setup --> turn: begin
  setup --> game_over: abandon
  turn --> turn: next_turn
  turn --> game_over: finish | abandon
  [*] --> setup
  game_over --> [*]
"""


@pytest.fixture
def only_tiny(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry holding just the test game."""
    monkeypatch.setattr(games, "BUILTIN", {"tiny": f"{__name__}:Tiny"})


def test_mermaid_from_the_machine_classes_lists() -> None:
    assert mermaid(Tiny) == TINY_MERMAID


def test_diagram_follows_the_machine() -> None:
    class Longer(Tiny):
        STATES = [*Tiny.STATES, "scoring"]
        TRANSITIONS = [*Tiny.TRANSITIONS, {"trigger": "score", "source": "turn", "dest": "scoring"}]

    text = mermaid(Longer)
    assert "turn --> scoring: score" in text
    assert 'state "scoring" as scoring' in text
    assert text != TINY_MERMAID


def test_no_state_is_highlighted_as_active() -> None:
    assert "s_active\n" not in mermaid(Tiny).split("classDef s_previous")[1]


def test_a_broken_machine_is_one_clear_error() -> None:
    class Broken(Tiny):
        game_id = "broken"
        TRANSITIONS = [{"trigger": "go", "source": "setup", "dest": "nowhere"}]

    with pytest.raises(DiagramError, match="cannot draw broken"):
        mermaid(Broken)


def test_cli_prints_the_diagram(only_tiny: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "tiny"]) == 0
    assert capsys.readouterr().out == TINY_MERMAID


def test_cli_unknown_game_is_one_line(only_tiny: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no game 'nope'" in err and "tiny" in err


def test_cli_needs_a_game_or_all(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["diagram"])
    assert e.value.code == 2
    assert "GAME --all" in capsys.readouterr().err


def test_cli_write_all_then_up_to_date(only_tiny: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "fsm" / "diagrams"
    assert main(["diagram", "--all", "--write", str(out_dir)]) == 0
    assert capsys.readouterr().out == f"{out_dir / 'tiny.mmd'}: written\n"
    assert (out_dir / "tiny.mmd").read_text() == TINY_MERMAID
    assert main(["diagram", "--all", "--write", str(out_dir)]) == 0
    assert capsys.readouterr().out == f"{out_dir / 'tiny.mmd'}: up to date\n"


def test_cli_write_one(only_tiny: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diagram", "tiny", "--write", str(tmp_path)]) == 0
    assert (tmp_path / "tiny.mmd").read_text() == TINY_MERMAID


def test_cli_write_into_a_file_is_one_line(only_tiny: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["diagram", "--all", "--write", str(blocker / "sub")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: cannot create ") and err.count("\n") == 1


def test_stale_finds_missing_outdated_and_orphaned(only_tiny: None, tmp_path: Path) -> None:
    assert stale(tmp_path) == [f"{tmp_path / 'tiny.mmd'} is missing"]
    write_all(tmp_path)
    assert stale(tmp_path) == []
    (tmp_path / "tiny.mmd").write_text(TINY_MERMAID.replace("finish", "end"))
    assert stale(tmp_path) == [f"{tmp_path / 'tiny.mmd'} is out of date"]
    write_all(tmp_path)
    (tmp_path / "gone.mmd").write_text("stateDiagram-v2\n")
    assert stale(tmp_path) == [f"{tmp_path / 'gone.mmd'} belongs to no registered game; delete it"]


def test_committed_diagrams_are_fresh() -> None:
    """Every registered game has fsm/diagrams/<id>.mmd, identical to what its machine draws now."""
    problems = stale(ROOT / DIAGRAM_DIR)
    assert not problems, "state diagrams need regenerating (run `make diagrams`):\n" + "\n".join(problems)
