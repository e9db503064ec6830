"""End to end: a whole five-round SOVERANA game as button presses through `companion play --script --state-json`.

The script is what a table would press: OK through the defaults, UP/DOWN where it picks something else, and the
roller's d6 for the mayor. Every number expected below is worked out by hand in the comments.
"""
from __future__ import annotations

import json
from pathlib import Path

from companion.session.headless import play

from conftest import run_companion

# Seats: Ana, Ben, Cleo, Dev, Eli, Fay (the default names) run Economy, Education, Energy, Health, Justice, Urban
# (the mayor takes the default at each department prompt). Figures are not tracked (start_positions = "none").


def round_keys(r: int) -> list[str]:
    keys = ["ok"]  # mission cards
    # major event: put the first two active locations into crisis, then "Card done" (cursor starts on "pay")
    keys += ["ok", "ok", "down", "ok", "up", "up", "ok", "down", "down", "down", "ok"]
    keys += ["up", "ok", "up", "ok"]  # two minor events: nothing ("Card done" is one UP from "Into crisis")
    if r == 2:
        # fix the first location in crisis (Press and Media Center) with Ana and Ben; figures are not tracked, so
        # each is asked: OK = "Moves there now" (their move this round); then "Moving done"
        keys += ["ok", "ok", "ok", "down", "ok", "up", "up", "ok", "ok", "ok", "ok"]
    else:
        keys += ["down", "down", "ok"]  # "Moving done"
    # distribution: OK on the suggested department and amount until all is handed out, then "Done"
    pairs = 6  # an even split of what is left: every department gets a share
    keys += ["ok", "ok"] * pairs + ["ok"]
    if r == 5:
        # 100 resource tokens in the box: 100 are out before this distribution of 11, so the table is warned
        keys += ["ok"]
    keys += ["ok", "ok"]  # no missions; the end-of-round screen
    keys += ["ok", "ok"] * 6 + ["ok"]  # six secret YES ballots (reveal, vote), the result
    keys += ["ok"]  # the round summary
    return keys


def script_text() -> str:
    keys = ["ok"]  # start the game (six seats)
    keys += ["roll d6 6"] + ["roll d6 1"] * 5 + ["ok"]  # Ana is mayor
    keys += ["ok"] * 5  # departments in the default order; the sixth is given
    for r in range(1, 6):
        keys += [f"# round {r}"] + round_keys(r)
    return "\n".join(keys) + "\n"


def test_five_round_game_end_to_end(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text('[games.soverana]\nstart_positions = "none"\n')
    script = tmp_path / "soverana.txt"
    script.write_text(script_text())
    out = tmp_path / "state.json"
    r = run_companion("--config", str(cfg), "play", "soverana", "--script", str(script), "--seed", "1",
                      "--state-json", str(out))
    assert r.returncode == 0, r.stderr
    s = json.loads(out.read_text())
    assert s["game"] == "soverana" and s["state"] == "game_over"
    assert s["outcome"] == "rounds-complete" and s["round"] == 5
    assert s["mayor"] == "Ana"
    # crisis, two a round in location order: Press+Stock Exchange, Transit+Substation (Press fixed in round 2),
    # Press+Police, Fire+Sewage, Recycling+Train station
    crisis = sorted(n for n, v in s["locations"].items() if v == "crisis")
    assert crisis == sorted(["Stock Exchange", "Public Transit Authority", "Electrical Substation",
                             "Press and Media Center", "Police Station", "Fire Station", "Sewage Plant",
                             "Recycling Plant", "Train station"])
    # votes cards: 1 each; Ana and Ben +1 for the fix; complete departments: Education and Health every round,
    # Energy and Urban in round 1, Justice in rounds 1-2
    assert s["votes"] == {"Ana": 2, "Ben": 7, "Cleo": 2, "Dev": 6, "Eli": 3, "Fay": 2}
    assert s["winners"] == ["Ben"] and s["winner_name"] == "Ben"
    # pools 18, 17, 15, 13, 11 split by the suggested shares: an even split of what is left, so Urban (the last
    # department) gets its share too (it got 12 when each suggestion was a sixth of the pool)
    assert s["departments"] == {"Economy": 20, "Education": 20, "Energy & Environment": 20,
                                "Health & Welfare": 18, "Justice & Safety": 17, "Urban Development": 16}
    assert s["journal_entries"] == len([x for x in script_text().splitlines() if not x.startswith("#")])


def test_resume_mid_game_matches_the_uninterrupted_run(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text('[games.soverana]\nstart_positions = "none"\n')
    text = script_text()
    script = tmp_path / "s.txt"
    script.write_text(text)
    full = play("soverana", script, seed=4, config=str(cfg))
    events = [x for x in text.splitlines() if not x.startswith("#")]
    for cut in (9, 140):
        part = tmp_path / f"p{cut}.txt"
        part.write_text("\n".join(events[:cut]) + "\n")
        journal = tmp_path / f"j{cut}.sqlite"
        play("soverana", part, seed=4, journal_path=journal, config=str(cfg))
        assert play("soverana", script, seed=9, journal_path=journal, resume=True, config=str(cfg)) == full
