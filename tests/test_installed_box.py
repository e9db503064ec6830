"""Issue #26: the box as installed. Settings save where the service may write (and a user's simulator never writes
/etc), the installer's findings (64-bit, the summary when the service fails, no root-owned build files in the
checkout, full [display]/[roller] tables), and the maker docs' statements held to what is true.
"""
from __future__ import annotations

import errno
import os
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

from companion.config import load as config_load
from companion.config.load import load_config, parse_config
from companion.config.write import save_settings
from companion.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "systemd" / "install.sh"
ETC_TEXT = "# the maker's own comment\nhardware = \"pi\"\n\n[display]\n# 1.3-inch module\ndriver = \"sh1106\"\n"


# ------------------------------------------------------------------ where Settings are saved
@pytest.fixture
def homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    etc = tmp_path / "etc" / "companion" / "config.toml"
    etc.parent.mkdir(parents=True)
    monkeypatch.setattr(config_load, "DEFAULT_PATH", etc)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    return etc, tmp_path / "xdg" / "companion" / "config.toml"


def test_without_config_settings_go_to_the_users_own_file(homes: tuple[Path, Path]) -> None:
    """Issue #22 item 11b: the simulator without --config reads /etc but saves in the user's config folder."""
    etc, mine = homes
    etc.write_text(ETC_TEXT)
    cfg = load_config()
    assert cfg.source == etc and cfg.save_path == mine
    saved = save_settings(cfg.save_path, {("display", "contrast"): 80}, base=cfg.source)
    assert etc.read_text() == ETC_TEXT  # /etc untouched
    text = mine.read_text()
    assert "# the maker's own comment" in text and "# 1.3-inch module" in text  # seeded from what was read
    assert saved.display.contrast == 80 and saved.display.driver == "sh1106"
    again = load_config()
    assert again.source == mine and again.display.contrast == 80  # the user's file is read from now on


def test_no_config_anywhere_saves_in_the_users_folder(homes: tuple[Path, Path]) -> None:
    _etc, mine = homes
    cfg = load_config()
    assert cfg.save_path == mine and cfg.source is None


def test_an_explicit_config_is_where_settings_go(homes: tuple[Path, Path], tmp_path: Path) -> None:
    named = tmp_path / "box.toml"
    named.write_text(ETC_TEXT)
    assert load_config(named).save_path == named


def test_the_settings_menu_saves_to_the_save_path(homes: tuple[Path, Path]) -> None:
    from companion.ui.settings_menu import SettingsMenu

    etc, mine = homes
    etc.write_text(ETC_TEXT)

    class FakeApp:
        cfg = load_config()

        def apply_config(self, cfg: object) -> None:
            self.cfg = cfg

    menu = SettingsMenu(FakeApp())  # type: ignore[arg-type]
    assert menu.path == mine
    menu._save({("display", "contrast"): 96}, "Contrast 96")
    assert etc.read_text() == ETC_TEXT and "contrast = 96" in mine.read_text()


def test_saving_keeps_the_files_permission_bits(tmp_path: Path) -> None:
    """The service's UMask=0077 must not turn the 0644 config into 0600 (`companion check` as the Pi's user reads it)."""
    conf = tmp_path / "config.toml"
    conf.write_text(ETC_TEXT)
    conf.chmod(0o644)
    old = os.umask(0o077)
    try:
        save_settings(conf, {("display", "contrast"): 10})
    finally:
        os.umask(old)
    assert conf.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("err", [errno.EACCES, errno.EROFS])
def test_a_refused_save_says_who_must_own_it_not_chmod(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        err: int) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text(ETC_TEXT)

    def refuse(*_a: object) -> None:
        raise OSError(err, os.strerror(err))

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(ConfigError) as e:
        save_settings(conf, {("display", "contrast"): 10})
    msg = str(e.value)
    assert "\n" not in msg and "chmod" not in msg and "check the folder's permissions" not in msg
    assert "install.sh" in msg
    assert conf.read_text() == ETC_TEXT


def test_headless_is_a_hardware_mode_and_binds_the_network() -> None:
    cfg = parse_config({"hardware": "headless", "web": {"port": 18080}})
    assert cfg.hardware == "headless" and cfg.web.port == 18080
    assert cfg.web.bind_for("headless") == "0.0.0.0"


def test_check_in_headless_mode_does_not_fail_on_the_missing_panel() -> None:
    from companion.cli.check import run_checks

    results = run_checks(parse_config({"hardware": "headless", "roller": {"port": "none"}}))
    assert all(r.ok for r in results), [r.line() for r in results]


# ------------------------------------------------------------------ the installer
def _function(name: str) -> str:
    text = INSTALL.read_text()
    m = re.search(rf"^{name}\(\) {{\n.*?^}}\n", text, re.S | re.M)
    assert m, name
    return m.group(0)


def test_summary_prints_when_the_service_fails_to_start() -> None:
    """`systemctl restart` failing under set -e used to end the script before its Done/command/docs lines."""
    script = ("set -Eeuo pipefail\nSERVICE=companion.service; DOCS=/opt/companion/docs; REBOOT=0; CHANGED=0\n"
              "on_system() { return 0; }\nhas_systemd() { return 0; }\nsystemctl() { [ \"$1\" != restart ]"
              " && [ \"$1\" != is-active ]; }\n"
              "did() { echo \"  + $*\"; }\nwarn() { echo \"  ! $*\"; }\nskip() { :; }\n"
              + _function("start") + "start\necho SUMMARY\n")
    proc = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=30)
    assert proc.returncode == 0 and "SUMMARY" in proc.stdout, proc.stdout + proc.stderr
    assert "did not start" in proc.stdout and "journalctl -u companion" in proc.stdout


def test_a_32_bit_system_stops_in_one_line(tmp_path: Path) -> None:
    fake = tmp_path / "python3"
    fake.write_text("#!/bin/sh\necho 32 armv7l\n")
    fake.chmod(0o755)
    proc = subprocess.run(["bash", str(INSTALL), "--root", str(tmp_path / "root"), "--yes"], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHON": str(fake)})
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "32-bit" in lines[0] and "64-bit" in lines[0] and "armv7l" in lines[0]
    assert not (tmp_path / "root" / "opt").exists()  # nothing installed


def test_the_package_is_built_from_a_copy_not_the_checkout() -> None:
    body = _function("venv_and_package")
    install_line = next(ln for ln in body.splitlines() if "--no-deps --force-reinstall" in ln)
    assert '"$SRC"' not in install_line and '"$stage"' in install_line  # pip builds in place: build/, *.egg-info
    assert "--exclude='*.egg-info'" in body and "--exclude=./build" in body


def test_written_config_has_full_display_and_roller_tables(tmp_path: Path) -> None:
    body = _function("config_file")
    text = body.split("<<EOF\n", 1)[1].split("\nEOF\n", 1)[0].replace("$DOCS", "/opt/companion/docs") \
        .replace("$GAMES_DIR", "/etc/companion/games").replace("$CONF", "/etc/companion/config.toml")
    raw = tomllib.loads(text)
    assert set(raw["display"]) == {"driver", "port", "address", "rotate", "contrast"}
    assert raw["roller"] == {"port": "auto"}
    cfg = parse_config(raw)
    assert cfg.display == config_load.DisplayConfig()  # the written values are the defaults
    assert "sudo nano /etc/companion/config.toml" in text
    assert "chown \"$APP_USER:$APP_USER\" \"$CONF_DIR\" \"$CONF\"" in body  # the service may save into it


# ------------------------------------------------------------------ the docs
#: the maker's docs the installer puts on the box (README.md's config section is being rewritten under #28)
DOCS = [*sorted((ROOT / "firmware_docs").glob("*.md")), ROOT / "firmware_docs/roller/README.md"]


def test_no_config_edit_in_one_line_shorthand() -> None:
    """`[display] driver = "sh1106"` typed as written is not TOML: the docs show a table with its key below it."""
    shorthand = re.compile(r"`\[[a-z_.]+\] [a-z_]+ = [^`]*`")
    for doc in DOCS:
        found = shorthand.findall(doc.read_text())
        assert not found, f"{doc.name}: {found}"


def test_toml_blocks_in_the_docs_are_valid() -> None:
    for doc in DOCS:
        for block in re.findall(r"```toml\n(.*?)```", doc.read_text(), re.S):
            parse_config(tomllib.loads("\n".join(line.strip() for line in block.splitlines())))


def test_roller_firmware_can_be_flashed_from_a_lite_pi_over_ssh() -> None:
    text = (ROOT / "firmware_docs/roller/README.md").read_text()
    step1 = text.split("1. **MicroPython.**", 1)[1].split("2. **The firmware", 1)[0]
    assert "over SSH" in step1 and "wget" in step1 and "sudo mount -L RPI-RP2 /mnt" in step1
    assert "sudo cp micropython.uf2 /mnt/" in step1


def test_led_current_statement_is_true() -> None:
    """Seven LEDs at the lowest resistor of the table with the lowest forward voltage: the doc's figure is that."""
    text = (ROOT / "firmware_docs/wiring.md").read_text()
    rows = re.findall(r"\| about ([\d.]+)–[\d.]+ V \| \*\*(\d+) Ω", text)
    assert rows
    worst = max((3.3 - float(vf)) / int(r) * 1000 for vf, r in rows)
    assert re.search(rf"all seven about \**{round(7 * worst)} mA", text)  # 48 mA at 220 Ω, said as it is
    assert "well under the header's 50 mA" not in text
