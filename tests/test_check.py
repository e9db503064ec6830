"""`companion check`: each part ok, or the troubleshooting doc's exact message."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.cli.check import check_display, check_gpio, check_roller, border_pattern
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
    r = check_display(cfg, dev=tmp_path)
    assert not r.ok and r.message == faults.I2C_BUS_MISSING.format(port=1)
    (tmp_path / "i2c-1").write_text("")
    monkeypatch.setattr(os, "access", lambda *a: False)  # tests run as root, which ignores file modes
    r = check_display(cfg, dev=tmp_path)
    assert not r.ok and r.message == faults.I2C_PERMISSION.format(port=1)


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
