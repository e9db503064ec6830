"""`companion games`: every name in its first column plays with `companion play NAME` (issue #22 item 13)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import EXAMPLES
from companion.cli import main
from companion.games.toml_game import load_toml_game


def folder_config(tmp_path: Path) -> Path:
    """A games folder with an own game, one whose id a built-in game has, and two files sharing one id."""
    games = tmp_path / "games"
    games.mkdir()
    vp = (EXAMPLES / "vp-tracker.toml").read_text()
    assert 'id = "vp-tracker"' in vp
    (games / "a-mine.toml").write_text(vp.replace('id = "vp-tracker"', 'id = "my-vp"'))
    (games / "b-twin.toml").write_text(vp.replace('id = "vp-tracker"', 'id = "my-vp"'))
    (games / "c-taken.toml").write_text(vp.replace('id = "vp-tracker"', 'id = "sovereign"'))
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n\n[games]\nfolder = "{games}"\n')
    return cfg


def listed(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main([*argv]) == 0
    return capsys.readouterr().out.splitlines()


def test_every_listed_name_plays_by_that_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cfg = folder_config(tmp_path)
    ids = listed(capsys, "--config", str(cfg), "games", "--ids")
    rows = listed(capsys, "--config", str(cfg), "games")
    assert [r.split()[0] for r in rows] == ids  # the listing's first column is what --ids prints
    assert "race-to-ten" in ids and "my-vp" in ids and "sovereign" in ids
    assert ids.count("my-vp") == 1 and ids.count("sovereign") == 1  # a second file of an id is named by its path
    assert str(tmp_path / "games" / "b-twin.toml") in ids and str(tmp_path / "games" / "c-taken.toml") in ids
    script = tmp_path / "none.txt"
    script.write_text("")
    for name in ids:
        assert main(["--config", str(cfg), "play", name, "--script", str(script)]) == 0, name
        state = json.loads(capsys.readouterr().out)
        want = load_toml_game(Path(name)).game_id if name.endswith(".toml") else name
        assert state["game"] == want, name


def test_examples_play_by_id_without_a_games_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "none.txt"
    script.write_text("")
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n\n[games]\nfolder = "{tmp_path / "nothing"}"\n')
    ids = listed(capsys, "--config", str(cfg), "games", "--ids")
    assert "race-to-ten" in ids and "vp-tracker" in ids and not any(i.endswith(".toml") for i in ids)
    for name in ("race-to-ten", "vp-tracker"):
        assert main(["--config", str(cfg), "play", name, "--script", str(script)]) == 0
        assert json.loads(capsys.readouterr().out)["game"] == name
