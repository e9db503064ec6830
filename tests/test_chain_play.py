"""End to end: Sovereign's Chain as button presses through `companion play --script --state-json`."""
from __future__ import annotations

import json
from pathlib import Path

from conftest import run_companion

CONFIG = '[games.sovereigns-chain]\nfair_winds = true\nscore_entry = "totals"\n'


def two_player_script() -> str:
    keys = ["# wizard: two players, start", "ok", "ok"]
    keys += ["# dealer: down from Random to Ana", "down", "ok"]
    keys += ["# Fair Winds (the config default), a one-game match", "ok", "ok"]
    keys += ["# eleven turns, each on the player's own chain, OK through the defaults: Ben reaches 7"]
    keys += ["ok", "ok"] * 11
    keys += ["# reveal: Ben, then Ana, one facedown card each", "ok", "ok", "ok", "ok"]
    keys += ["# Ben: stars 7, planets 2", *["up"] * 7, "ok", "up", "up", "ok"]
    keys += ["# Ana: stars 1, planets 4", "up", "ok", *["up"] * 4, "ok"]
    keys += ["# end the match", "ok"]
    return "\n".join(keys) + "\n"


def test_two_player_game_end_to_end(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(CONFIG)
    script = tmp_path / "chain.txt"
    script.write_text(two_player_script())
    out = tmp_path / "state.json"
    r = run_companion("--config", str(cfg), "play", "sovereigns-chain", "--script", str(script), "--seed", "3",
                      "--state-json", str(out))
    assert r.returncode == 0, r.stderr
    s = json.loads(out.read_text())
    assert s["game"] == "sovereigns-chain" and s["state"] == "game_over"
    ana, ben = s["players"]
    assert (ana["seat"], ben["seat"]) == (1, 2)
    assert (ana["chain_length"], ben["chain_length"]) == (6, 7)
    assert (ana["facedown"], ben["facedown"]) == (0, 0)
    assert (ana["score"], ben["score"]) == (3, 5)
    assert s["dealer"] == 1 and s["first_player"] == 2 and s["first_to_seven"] == 2
    assert s["match_wins"] == {ana["name"]: 0, ben["name"]: 1}
    assert s["winner"] == 2 and s["fair_winds"] is True and s["event"] is None
    assert s["journal_entries"] == len([x for x in two_player_script().splitlines() if not x.startswith("#")])


def test_solitaire_loss_end_to_end(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(CONFIG)
    keys = ["# one player", "down", "ok", "ok", "# Fair Winds", "ok"]
    for value in range(1, 7):
        keys += [f"# card {value}"] + ["up"] * (value - 1) + ["ok", "ok"]   # value, star
    keys += ["# card 7: a 7 planet", *["up"] * 6, "ok", "down", "ok"]
    keys += ["# no legal play: move to it, confirm (the default is No)", "down", "ok", "up", "ok", "ok"]
    script = tmp_path / "solo.txt"
    script.write_text("\n".join(keys) + "\n")
    out = tmp_path / "state.json"
    r = run_companion("--config", str(cfg), "play", "sovereigns-chain", "--script", str(script),
                      "--state-json", str(out))
    assert r.returncode == 0, r.stderr
    s = json.loads(out.read_text())
    assert s["state"] == "game_over" and s["mode"] == "solitaire" and s["result"] == "lost"
    assert s["winner"] is None and s["players"][0]["positions"] == [f"{v}S" for v in range(1, 7)] + ["7P"]
