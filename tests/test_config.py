"""Config: every key optional; a bad file or value is one line naming the key, the value and what is allowed."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.config.load import Config, load_config, parse_config
from companion.errors import ConfigError
from conftest import run_companion


def test_empty_file_gives_documented_defaults(tmp_path: Path) -> None:
    p = tmp_path / "c.toml"
    p.write_text("")
    cfg = load_config(p)
    assert cfg.display.driver == "ssd1306" and cfg.display.address == 0x3C
    assert cfg.buttons.ok == 13 and cfg.leds.players == (12, 16, 20, 21, 23, 24)
    assert cfg.dice.sources == ("roller", "typed", "rng") and cfg.roller.port == "auto"
    assert cfg.source == p


def test_full_config_is_read(tmp_path: Path) -> None:
    p = tmp_path / "c.toml"
    p.write_text("""
[display]
driver = "sh1106"
address = "0x3D"
rotate = 2
contrast = 100
[encoder]
a = 17
b = 18
push = 27
[buttons]
back = 19
[leds]
players = [5, 6, 13]
status = 26
[roller]
port = "/dev/companion-roller"
[dice]
sources = ["typed", "rng"]
[players]
names = ["Ana", "Ben"]
[games.vp-tracker]
[log]
level = "debug"
""")
    cfg = load_config(p)
    assert cfg.display.driver == "sh1106" and cfg.display.address == 0x3D and cfg.display.rotate == 2
    assert cfg.encoder.enabled and cfg.leds.players == (5, 6, 13)
    assert cfg.dice.sources == ("typed", "rng") and cfg.players.names == ("Ana", "Ben")
    assert cfg.log_level == "debug"


@pytest.mark.parametrize("text, needles", [
    ('[display]\ndriver = "ssd1309"', ["[display] driver", '"ssd1309"', '"ssd1306"', '"sh1106"']),
    ("[display]\nrotate = 1", ["[display] rotate", "1", "0 (as mounted) or 2"]),
    ("[display]\ndrvier = 1", ["[display]", "drvier", "known keys"]),
    ('[dice]\nsources = ["roller", "dice"]', ["[dice] sources", "dice", '"typed"']),
    ("[leds]\nplayers = [12, 12]", ["[leds] players", "twice"]),
    ("[leds]\nplayers = [40]", ["[leds] players", "0 to 27"]),
    ("[buttons]\nup = 12", ["[buttons] up = 12", "already used by [leds] players[0]"]),
    ('[players]\nnames = ["A very long name indeed"]', ["[players] names", "1 to 12"]),
    ("[sound]\non = true", ["unknown section [sound]"]),
    ("[display\n", ["not valid TOML"]),
    ('[log]\nlevel = "loud"', ["[log] level", '"loud"', '"debug"']),
])
def test_bad_values_are_one_line_naming_key_value_and_allowed(tmp_path: Path, text: str,
                                                              needles: list[str]) -> None:
    p = tmp_path / "c.toml"
    p.write_text(text)
    with pytest.raises(ConfigError) as e:
        load_config(p)
    msg = str(e.value)
    assert "\n" not in msg and str(p) in msg
    for n in needles:
        assert n in msg, f"{n!r} not in {msg!r}"


def test_missing_explicit_config_is_an_error_but_missing_default_is_fine(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        load_config(tmp_path / "nope.toml")
    assert isinstance(parse_config({}), Config)


def test_cli_stops_with_one_line_and_starts_nothing(tmp_path: Path) -> None:
    """A command typed by a person stops on a bad config (`companion run`, which must start whatever the file says,
    sets the value aside instead: tests/test_start_aside.py)."""
    p = tmp_path / "c.toml"
    p.write_text('[display]\ndriver = "oled"\n')
    (tmp_path / "s.txt").write_text("ok\n")
    r = run_companion("--config", str(p), "play", "sovereign", "--script", str(tmp_path / "s.txt"))
    assert r.returncode == 2
    assert r.stdout == "" and len(r.stderr.strip().splitlines()) == 1 and "[display] driver" in r.stderr


def test_bad_game_option_is_reported_before_play(tmp_path: Path) -> None:
    from conftest import EXAMPLES

    p = tmp_path / "c.toml"
    p.write_text("[games.vp-tracker]\nspeed = 3\n")
    script = tmp_path / "s.txt"
    script.write_text("ok\n")
    r = run_companion("--config", str(p), "play", str(EXAMPLES / "vp-tracker.toml"), "--script", str(script))
    assert r.returncode == 2 and "[games.vp-tracker] has no option 'speed'" in r.stderr


@pytest.mark.parametrize("text, needle", [
    ("[games.sovereign]\nexplode = \"twice\"\n", "[games.sovereign] explode = 'twice' is not allowed"),
    ("[games.chess960]\nx = 1\n", "[games.chess960]: there is no game 'chess960'"),
])
def test_game_switches_are_checked_before_anything_starts(tmp_path: Path, text: str, needle: str) -> None:
    p = tmp_path / "c.toml"
    p.write_text(text)
    (tmp_path / "s.txt").write_text("ok\n")
    r = run_companion("--config", str(p), "play", "sovereign", "--script", str(tmp_path / "s.txt"))
    assert r.returncode == 2 and needle in r.stderr and len(r.stderr.strip().splitlines()) == 1, r.stderr
