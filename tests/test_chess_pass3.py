"""Issue 27, Sovereign Chess: the opening choice only after a White piece's first move (rule 3), a byo-yomi loser
shows no period left, and --frames keeps the game-over screen after a flag fall with no press after it."""
from __future__ import annotations

import json
from pathlib import Path

from companion.rules.sovereign_chess import SovereignChess
from companion.session.headless import play

#: player 1 owns White and controls navy (a white pawn on e5, a navy square); a navy knight stands on a1
COMPOSED = "8bk7/16/16/16/16/16/16/16/16/16/16/4wp11/16/16/16/nn7wk7 1 w b - 0"


def test_the_opening_choice_follows_only_a_white_piece_s_first_move() -> None:
    g = SovereignChess(COMPOSED)
    g.make("nNa1-c2")  # a navy piece moves first: no White move to accept or reject
    assert not g.opening_choice_pending
    g = SovereignChess(COMPOSED)
    g.make("wKi1-h2")
    assert g.opening_choice_pending
    assert SovereignChess().opening_choice_pending is False  # before any move: nothing to choose


def _cfg(tmp_path: Path, clock: str) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[games.sovereign-chess]\nclock = "{clock}"\n')
    return cfg


def test_a_byoyomi_flag_fall_leaves_no_period(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("ok\ndown\nok\nmove wPi2-i4\nwait 1.3\n")  # Bo lets the one 1-second period run out
    out = tmp_path / "state.json"
    state = play("sovereign-chess", script, seed=1, state_json=out, config=str(_cfg(tmp_path, "byoyomi 0 1x1")))
    assert state["termination"] == "time" and state["winner_name"] == "Ana"
    assert json.loads(out.read_text())["clocks"]["2"] == 0


def test_frames_keep_the_game_over_screen_after_a_flag_fall(tmp_path: Path) -> None:
    keys = "ok\ndown\nok\nmove wPi2-i4\n"
    counts = []
    for name, text in (("before", keys), ("flag", keys + "wait 1.2\n")):
        script = tmp_path / f"{name}.txt"
        script.write_text(text)
        folder = tmp_path / name
        state = play("sovereign-chess", script, seed=1, frames=folder, config=str(_cfg(tmp_path, "sudden 1")))
        counts.append(len(list(folder.glob("*.png"))))
    assert state["termination"] == "time"
    assert counts[1] == counts[0] + 1  # one more frame: the game-over screen nobody pressed a key on
