"""Hostile bytes into the config, game-file and script parsers: one plain line and exit 2, never a traceback."""
from __future__ import annotations

import json
import string
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.config.load import Config, load_config
from companion.errors import CompanionError, ConfigError, GameFileError, ScriptError
from companion.games.toml_spec import read_spec
from companion.session.headless import read_script
from conftest import EXAMPLES, companion_here

VP = str(EXAMPLES / "vp-tracker.toml")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _one_line(e: CompanionError) -> None:
    assert str(e) and "\n" not in str(e) and "\r" not in str(e)


# ------------------------------------------------------------------ the cases found
@pytest.mark.parametrize("text, match", [
    (b"[display]\naddress = \"\xff\xfe\"\n", "not UTF-8 text"),
    (b"x = " + b"[" * 2000 + b"]" * 2000 + b"\n", "nested too deeply|not valid TOML"),
    ("[display]\naddress = \"٦٠\"\n".encode(), "is not a number"),
    (b"[display]\nrotate = 2.0\n", "rotate = 2.0 is not allowed"),
    (b"[display]\nrotate = true\n", "rotate = True is not allowed"),
    (b"[players]\nnames = [\"Ana\", \"   \"]\n", "no blank names"),
    (b"[players]\nnames = [\"An\\na\"]\n", "no blank names, no newlines"),
    (b"[roller]\nport = \"/dev/x\\u0000y\"\n", "without control characters"),
    (b"[\"bad\\nsection\"]\n", 'unknown section \\["bad\\\\nsection"\\]'),
])
def test_config_cases(tmp_path: Path, text: bytes, match: str) -> None:
    p = tmp_path / "c.toml"
    p.write_bytes(text)
    with pytest.raises(ConfigError, match=match) as e:
        load_config(p)
    _one_line(e.value)


GAME = """[game]
id = "{id}"
name = "{name}"
rounds = 5
[[counters]]
id = "vp"
max = {max}
start = {start}
[[phases]]
name = "Turn"
[[end]]
counter = "vp"
reaches = {reaches}
"""


@pytest.mark.parametrize("fields, match", [
    ({"id": "ok\\n"}, "use lower-case letters"),
    ({"name": " "}, "write some text on one line"),
    ({"name": "a\\nb"}, "write some text on one line"),
    ({"reaches": 0}, "is where vp starts"),
    ({"reaches": 1000}, "can never be reached"),
    ({"start": "2.0"}, r"\[\[counters\]\] #1 start = 2\.0 must be a whole number"),
    ({"max": "9.5"}, r"max = 9\.5 must be a whole number"),
])
def test_game_file_cases(tmp_path: Path, fields: dict[str, Any], match: str) -> None:
    values = {"id": "g", "name": "G", "max": 999, "start": 0, "reaches": 10} | fields
    p = tmp_path / "g.toml"
    p.write_text(GAME.format(**values))
    with pytest.raises(GameFileError, match=match) as e:
        read_spec(p)
    _one_line(e.value)


def test_game_file_nested_too_deeply(tmp_path: Path) -> None:
    p = tmp_path / "g.toml"
    p.write_text('[game]\nid = "g"\nname = "G"\nx = ' + "[" * 3000 + "]" * 3000 + "\n")
    with pytest.raises(GameFileError, match="nested too deeply") as e:
        read_spec(p)
    _one_line(e.value)


def test_game_file_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "g.toml"
    p.write_bytes(GAME.format(id="g", name="G", max=9, start=0, reaches=5).encode().replace(b'"G"', b'"\xc3("'))
    with pytest.raises(GameFileError, match="not UTF-8 text"):
        read_spec(p)


def test_a_float_for_a_choice_switch_is_refused() -> None:
    from companion.games import load

    cls = load("sovereign")
    opt = next(k for k, o in cls.OPTIONS.items() if o.choices and all(type(c) is int for c in o.choices))
    with pytest.raises(ValueError, match="not allowed"):
        cls.resolve_options({opt: float(cls.OPTIONS[opt].choices[0])})


@pytest.mark.parametrize("line, match", [
    ("roll d12 ١٢", "whole numbers"),
    ("roll d6 ３", "whole numbers"),
    ("wait ١", "wait takes seconds"),
])
def test_script_cases(tmp_path: Path, line: str, match: str) -> None:
    p = tmp_path / "s.txt"
    p.write_text(line + "\n")
    with pytest.raises(ScriptError, match=match):
        read_script(p)


def test_script_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "s.txt"
    p.write_bytes(b"ok\n\xff\n")
    with pytest.raises(ScriptError, match="not UTF-8 text"):
        read_script(p)


# ------------------------------------------------------------------ property tests
def _toml_key(k: str) -> str:
    return k if k and all(c in string.ascii_letters + string.digits + "_-" for c in k) else json.dumps(k)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v) if v == v and v not in (float("inf"), float("-inf")) else "nan"
    if isinstance(v, str):
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"


KEYS = st.sampled_from(["display", "driver", "port", "address", "rotate", "contrast", "buttons", "up", "ok",
                        "hold_time", "leds", "players", "status", "roller", "dice", "sources", "names", "journal",
                        "path", "games", "folder", "log", "level", "hardware", "encoder", "a", "b", "push", "game",
                        "id", "name", "counters", "phases", "end", "counter", "reaches", "rounds", "min", "max",
                        "start", "each_player", "winner", "order", "min_players", "max_players", "hint"]) | st.text(
    max_size=6)
SCALARS = (st.integers(-2**70, 2**70) | st.integers(-3, 300) | st.floats() | st.booleans()
           | st.text(max_size=12) | st.sampled_from(["ssd1306", "0x3C", "٦٠", "d6", "roller", "", "none", "highest"]))
VALUES = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(KEYS, kids, max_size=4),
                      max_leaves=12)
DOCS = st.dictionaries(KEYS, st.dictionaries(KEYS, VALUES, max_size=5) | st.lists(
    st.dictionaries(KEYS, VALUES, max_size=5), max_size=3) | VALUES, max_size=6)


def _doc_text(doc: dict[str, Any]) -> str:
    return "".join(f"{_toml_key(k)} = {_toml_value(v)}\n" for k, v in doc.items())


def _write(data: bytes) -> Path:
    f = tempfile.NamedTemporaryFile("wb", suffix=".toml", delete=False)
    with f:
        f.write(data)
    return Path(f.name)


@SETTINGS
@given(st.binary(max_size=300) | DOCS.map(lambda d: _doc_text(d).encode("utf-8", "surrogatepass")))
def test_config_parser_never_raises_anything_else(data: bytes) -> None:
    p = _write(data)
    try:
        assert isinstance(load_config(p), Config)
    except ConfigError as e:
        _one_line(e)
    finally:
        p.unlink()


@SETTINGS
@given(st.binary(max_size=300) | DOCS.map(lambda d: _doc_text(d).encode("utf-8", "surrogatepass")))
def test_game_file_parser_never_raises_anything_else(data: bytes) -> None:
    p = _write(data)
    try:
        read_spec(p)
    except GameFileError as e:
        _one_line(e)
    finally:
        p.unlink()


@SETTINGS
@given(st.binary(max_size=200) | st.lists(st.sampled_from(["ok", "up", "roll", "d6", "d12", "wait", "1", "12",
                                                             "٣", "0.5", "#", "\n", " ", "hold", "x", "-1", "1e9",
                                                             "nan", "\u2028"]), max_size=30)
       .map(lambda w: " ".join(w).encode()))
def test_script_parser_never_raises_anything_else(data: bytes) -> None:
    p = _write(data)
    try:
        read_script(p)
    except ScriptError as e:
        _one_line(e)
    finally:
        p.unlink()


def _cli(*argv: str) -> tuple[int, str]:
    r = companion_here(*argv)
    return r.returncode, r.stderr


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=st.binary(max_size=200) | DOCS.map(lambda d: _doc_text(d).encode("utf-8", "surrogatepass")),
       game=st.binary(max_size=200) | DOCS.map(lambda d: _doc_text(d).encode("utf-8", "surrogatepass")),
       script=st.binary(max_size=60))
def test_the_cli_says_one_line_and_exits_2(config: bytes, game: bytes, script: bytes) -> None:
    """Random config, game file and script through `companion play`: exit 0, or one line and exit 2."""
    c, g, s = _write(config), _write(game), _write(script)
    try:
        for argv in (["--config", str(c), "play", VP, "--script", str(s)],
                     ["play", str(g), "--script", str(s)]):
            status, err = _cli(*argv)
            assert status in (0, 2), err
            if status == 2:
                assert err.count("\n") == 1 and err.startswith("companion: "), err
    finally:
        for p in (c, g, s):
            p.unlink()


# ------------------------------------------------------------------ saved by Notepad, and a bad file in the folder
def test_a_leading_byte_order_mark_is_no_error(tmp_path: Path) -> None:
    """Notepad's "UTF-8 with BOM": the script said "'ok' is not an event" with the mark invisible in the quote."""
    bom = b"\xef\xbb\xbf"
    cfg = tmp_path / "c.toml"
    cfg.write_bytes(bom + b"[display]\r\ncontrast = 10\r\n")
    assert load_config(cfg).display.contrast == 10
    script = tmp_path / "s.txt"
    script.write_bytes(bom + b"ok\r\nok\r\n")
    assert len(read_script(script)) == 2
    game = tmp_path / "g.toml"
    game.write_bytes(bom + GAME.format(id="g", name="G", max=9, start=0, reaches=5).encode())
    assert read_spec(game).id == "g"


@pytest.mark.parametrize("content", [b'[game]\nid = "x\xff"\n', b"x = " + b"[" * 3000 + b"]" * 3000 + b"\n"],
                         ids=["not-utf8", "nested"])
def test_a_bad_file_in_the_games_folder_never_stops_a_lookup_by_id(tmp_path: Path, content: bytes) -> None:
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "bad.toml").write_bytes(content)
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[games]\nfolder = "{tmp_path / "games"}"\n')
    script = tmp_path / "s.txt"
    script.write_text("ok\n")
    status, err = _cli("--config", str(cfg), "play", "nothere", "--script", str(script))
    assert status == 2 and err.count("\n") == 1 and "no game 'nothere'" in err, err


def test_a_roller_sim_script_not_utf8_is_one_line(tmp_path: Path) -> None:
    script = tmp_path / "r.txt"
    script.write_bytes(b"roll d6 \xff\n")
    status, err = _cli("roller-sim", "--script", str(script))
    assert status == 2 and err.count("\n") == 1 and "is not UTF-8 text" in err, err
