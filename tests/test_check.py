"""`companion check`: each part ok, or the troubleshooting doc's exact message."""
from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from companion.cli.check import NO_PANEL, Result, border_pattern, check_display, check_gpio, check_roller
from companion.config.load import parse_config
from hw import faults
from hw.fake_i2c import FakeI2CBus
from hw.roller.virtual import VirtualRoller


def test_display_ok_shows_the_border_pattern_and_the_driver_hint() -> None:
    bus = FakeI2CBus("sh1106")
    r = check_display(parse_config({"display": {"driver": "sh1106"}}), bus=bus)
    assert r.ok and faults.WRONG_DRIVER in r.message
    assert bus.image().tobytes() == border_pattern("sh1106").tobytes()


def test_missing_bus_and_permission_use_the_fault_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = parse_config({})
    r = check_display(cfg, dev=tmp_path)  # no I2C bus: the box goes on without its panel, so a warning
    assert r.ok and r.warn and r.message == faults.I2C_BUS_MISSING.format(port=1) + NO_PANEL
    assert r.line().startswith("warn  display  /dev/i2c-1 does not exist")
    (tmp_path / "i2c-1").write_text("")
    monkeypatch.setattr(os, "access", lambda *a: False)  # tests run as root, which ignores file modes
    r = check_display(cfg, dev=tmp_path)
    assert not r.ok and not r.warn and r.message == faults.I2C_PERMISSION.format(port=1)
    assert r.line().startswith("FAIL  display  permission denied")


def test_a_display_that_does_not_answer_is_a_warning_not_a_failure(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    bus = FakeI2CBus("ssd1306")
    bus.fail = OSError(errno.EREMOTEIO, "Remote I/O error")  # nothing acknowledges 0x3C
    r = check_display(parse_config({}), bus=bus)
    assert r.ok and r.warn
    assert r.line() == f"warn  display  {faults.OLED_NOT_FOUND.format(address='0x3C', port=1)}{NO_PANEL}"
    # the rest sound: `companion check` exits 0, the display's line a warning
    import companion.cli.check as check

    monkeypatch.setattr(check, "run_checks", lambda cfg: [r, Result("gpio", True, "gpiochip0"),
                                                          Result("roller", True, "off")])
    from companion.cli import main

    (tmp_path / "config.toml").write_text("")
    assert main(["--config", str(tmp_path / "config.toml"), "check"]) == 0
    assert "warn  display  no OLED answered at I2C address 0x3C" in capsys.readouterr().out


def test_gpio(tmp_path: Path) -> None:
    assert not check_gpio(tmp_path).ok
    (tmp_path / "gpiochip0").write_text("")
    assert check_gpio(tmp_path).ok


def test_roller_not_seen_then_seen(tmp_path: Path) -> None:
    r = check_roller(parse_config({}), dev=tmp_path, wait=0.5)
    assert not r.ok and r.message.startswith("no dice roller found (")
    with VirtualRoller() as v:
        r = check_roller(parse_config({"roller": {"port": v.path}}), wait=5)
    assert r.ok, r.message
