"""Settings on the device: saved atomically into the config file with its comments kept; a running game keeps the
settings it started with; names typed with the character picker."""
from __future__ import annotations

import queue
from pathlib import Path

import pytest

from companion.loop.app import App
from companion.config.load import load_config
from companion.config.write import save_settings, updated_text
from companion.errors import ConfigError
from companion.events import Key, KeyEvent
from companion.journal.store import Journal
from companion.ui.picker import CHARS, DONE, CharPicker
from companion.ui.widgets import Back, Done
from conftest import EXAMPLES
from test_app import FakeOutput

CONFIG = """\
# my table's companion
[display]
driver = "ssd1306"   # the 0.96" one
contrast = 207

[dice]
# no roller at this table
sources = ["typed", "rng"]
"""


def test_saving_keeps_comments_and_layout_and_adds_what_is_new(tmp_path: Path) -> None:
    p = tmp_path / "config.toml"
    p.write_text(CONFIG)
    cfg = save_settings(p, {("display", "contrast"): 64, ("games", "sovereign", "air_raids"): False})
    text = p.read_text()
    assert "# my table's companion" in text and '# the 0.96" one' in text and "# no roller at this table" in text
    assert "contrast = 64" in text and cfg.display.contrast == 64
    assert load_config(p).game_options("sovereign") == {"air_raids": False}
    assert [f.name for f in tmp_path.iterdir()] == ["config.toml"], "no temporary file left behind"


def test_a_bad_value_is_refused_before_the_file_is_touched(tmp_path: Path) -> None:
    p = tmp_path / "config.toml"
    p.write_text(CONFIG)
    with pytest.raises(ConfigError, match="contrast"):
        save_settings(p, {("display", "contrast"): 999})
    assert p.read_text() == CONFIG


def test_an_unwritable_folder_says_what_to_check(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    (folder / "config.toml").write_text(CONFIG)
    folder.chmod(0o500)
    try:
        import os

        if os.geteuid() == 0:
            pytest.skip("root writes anywhere")
        with pytest.raises(ConfigError, match="must own"):  # who must own it, not chmod (issue #26)
            save_settings(folder / "config.toml", {("display", "contrast"): 10})
    finally:
        folder.chmod(0o700)


@pytest.mark.parametrize("content, match", [
    (b"[display]\ncontrast = 10 # \xff\n", "is not UTF-8 text"),
    (b"[display\ncontrast = 10\n", "is not valid TOML"),
])
def test_a_config_file_edited_into_nonsense_since_start_is_one_line(tmp_path: Path, content: bytes,
                                                                    match: str) -> None:
    p = tmp_path / "config.toml"
    p.write_bytes(content)
    with pytest.raises(ConfigError, match=match) as e:
        save_settings(p, {("display", "contrast"): 64})
    assert "\n" not in str(e.value) and str(p) in str(e.value)
    assert p.read_bytes() == content


def test_a_full_disk_when_saving_settings_says_full_and_keeps_the_file(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import errno
    import os

    p = tmp_path / "config.toml"
    p.write_text("[display]\ncontrast = 10\n")

    def fsync(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(ConfigError, match="the disk is full; free some space") as e:
        save_settings(p, {("display", "contrast"): 64})
    assert "permissions" not in str(e.value)
    assert p.read_text() == "[display]\ncontrast = 10\n" and [f.name for f in tmp_path.iterdir()] == ["config.toml"]


def test_updated_text_changes_only_the_key() -> None:
    new = updated_text(CONFIG, {("dice", "sources"): ["roller", "typed"]})
    assert new.replace('sources = ["roller", "typed"]', 'sources = ["typed", "rng"]') == CONFIG


def test_the_character_picker_types_a_name() -> None:
    p = CharPicker("")
    assert p.candidate == "A"
    p.key(Key.UP)
    p.key(Key.OK)  # B
    for _ in range(CHARS.index("o") - CHARS.index("a")):
        p.key(Key.UP)
    p.key(Key.OK)  # o
    p.key(Key.DOWN)  # from "a" one step down is the tick
    assert p.candidate == DONE
    assert p.key(Key.OK) == Done("Bo")
    p.key(Key.BACK)
    assert p.text == "B"
    p.key(Key.BACK)
    assert isinstance(p.key(Key.BACK), Back)


def make(tmp_path: Path) -> tuple[App, Path]:
    p = tmp_path / "config.toml"
    p.write_text(CONFIG + f'\n[journal]\npath = "{tmp_path / "j.sqlite"}"\n\n[games]\nfolder = "{EXAMPLES}"\n')
    cfg = load_config(p)
    app = App(cfg, Journal(cfg.journal_path()), queue.SimpleQueue(), FakeOutput())
    app.boot()
    app.draw()
    return app, p


def keys(app: App, *names: str) -> None:
    for n in names:
        app.dispatch(KeyEvent(Key(n)))


def open_settings(app: App) -> None:
    labels = [it.label for it in app.home.stack[-1][2].items]
    keys(app, *["down"] * labels.index("Settings"), "ok")


def test_dice_sources_from_the_menu_apply_to_new_games_not_the_running_one(tmp_path: Path) -> None:
    app, p = make(tmp_path)
    app.start_new(str(EXAMPLES / "vp-tracker.toml"))
    running = app.session
    assert running is not None and running.sources == ("typed", "rng")
    app.leave_game()
    open_settings(app)
    keys(app, "down", "ok")  # Dice sources
    keys(app, "ok")  # tick Roller
    keys(app, "down", "down", "down", "ok")  # Done
    assert load_config(p).dice.sources == ("roller", "typed", "rng")
    assert "# no roller at this table" in p.read_text()
    assert running.sources == ("typed", "rng"), "the game already started keeps its sources"
    assert app.cfg.dice.sources == ("roller", "typed", "rng")


def test_contrast_is_saved_and_sent_to_the_display(tmp_path: Path) -> None:
    app, p = make(tmp_path)
    sent: list[int] = []
    app.output.set_contrast = sent.append  # type: ignore[attr-defined]
    open_settings(app)
    keys(app, "ok")  # Contrast
    keys(app, "down", "ok")  # 207 - 16
    assert load_config(p).display.contrast == 191 and sent[-1] == 191


def test_a_player_name_typed_on_the_device(tmp_path: Path) -> None:
    app, p = make(tmp_path)
    open_settings(app)
    keys(app, "down", "down", "ok")  # Player names
    keys(app, "ok")  # Seat 1
    keys(app, *["back"] * len(app.cfg.players.names[0]))  # rub out the old name (once more would leave)
    keys(app, "ok", "down", "ok")  # "A", then the tick: done
    assert load_config(p).players.names[0] == "A"


def test_a_rule_switch_from_the_menu_applies_to_new_games_not_the_running_one(tmp_path: Path) -> None:
    app, p = make(tmp_path)
    app.start_new("sovereign")
    running = app.session
    assert running is not None
    app.leave_game()
    open_settings(app)
    keys(app, "down", "down", "down", "ok")  # Rules for new games
    menu = app.home.stack[-1][2]  # the settings menu keeps its own pages
    games = [it.key for it in menu.stack[-1][2].items]
    keys(app, *["down"] * games.index("sovereign"), "ok")
    names = [it.key for it in menu.stack[-1][2].items]
    keys(app, *["down"] * names.index("espionage_researchable"), "ok")  # a yes/no switch: OK flips it
    assert load_config(p).game_options("sovereign") == {"espionage_researchable": False}
    assert "# no roller at this table" in p.read_text(), "the user's comments are kept"
    label = menu.stack[-1][2].items[names.index("espionage_researchable")].label
    assert label.startswith("espionage_research") and label.endswith(": off"), label
    assert running.wizard.options.get("espionage_researchable", True) is True, "the running game keeps its rules"
    app.start_new("sovereign")
    assert app.session is not None and app.session.wizard.options.get("espionage_researchable") is False


def test_a_rule_row_keeps_its_value_in_view() -> None:
    from companion.ui.settings_menu import _rule_label
    from companion.ui.draw import LIST_W, text_width

    label = _rule_label("ousted_mayor_eligible", "off")
    assert label.endswith(": off") and "…" in label and text_width(label) <= LIST_W
    assert _rule_label("tie_roll", "all") == "tie_roll: all"


def test_the_names_page_shows_the_name_just_saved(tmp_path: Path) -> None:
    """Issue #22 item 11a: after "Seat 1: A: saved" the list under the toast read the old name."""
    app, p = make(tmp_path)
    open_settings(app)
    keys(app, "down", "down", "ok")  # Player names
    menu = app.home.stack[-1][2]
    old = menu.stack[-1][2].items[0].label
    keys(app, "ok")  # Seat 1
    keys(app, *["back"] * len(app.cfg.players.names[0]))
    keys(app, "ok", "down", "ok")  # "A", then the tick
    assert load_config(p).players.names[0] == "A"
    assert menu.stack[-1][1] == "Player names" and menu.stack[-1][2].items[0].label == "Seat 1: A", old


def test_the_screen_page_shows_the_time_just_saved(tmp_path: Path) -> None:
    app, p = make(tmp_path)
    open_settings(app)
    menu = app.home.stack[-1][2]
    keys(app, *["down"] * [it.key for it in menu.stack[-1][2].items].index("screen"), "ok")
    keys(app, "ok", "up", "ok")  # Glance after: one second more
    want = load_config(p).screen.glance_seconds
    assert menu.stack[-1][2].items[0].label == f"Glance after {want} s"
