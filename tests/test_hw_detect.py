"""hw.detect: the Pi check never raises and needs bus, gpiochip and an answering display."""
from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

import pytest

from hw.detect import detect_pi
from hw.fake_i2c import FakeI2CBus


@pytest.fixture
def dev(tmp_path: Path) -> Path:
    (tmp_path / "i2c-1").touch()
    (tmp_path / "gpiochip0").touch()
    return tmp_path


def opener(bus: Any):
    opened: list[int] = []

    def open_bus(port: int) -> Any:
        opened.append(port)
        return bus

    open_bus.opened = opened  # type: ignore[attr-defined]
    return open_bus


def test_display_answering(dev: Path) -> None:
    bus = FakeI2CBus(address=0x3C)
    open_bus = opener(bus)
    assert detect_pi(1, 0x3C, dev=str(dev), open_bus=open_bus) is True
    assert open_bus.opened == [1] and bus.closed


def test_nothing_at_the_address(dev: Path) -> None:
    bus = FakeI2CBus(address=0x3D)
    assert detect_pi(1, 0x3C, dev=str(dev), open_bus=opener(bus)) is False
    assert bus.closed


def test_quick_write_unsupported_falls_back_to_a_read(dev: Path) -> None:
    class NoQuick(FakeI2CBus):
        def write_quick(self, i2c_addr: int) -> None:
            raise OSError(errno.EOPNOTSUPP, "Operation not supported")

    assert detect_pi(1, 0x3C, dev=str(dev), open_bus=opener(NoQuick())) is True


def test_missing_bus_or_gpiochip(tmp_path: Path) -> None:
    never = opener(None)
    assert detect_pi(1, 0x3C, dev=str(tmp_path), open_bus=never) is False
    (tmp_path / "i2c-1").touch()
    assert detect_pi(1, 0x3C, dev=str(tmp_path), open_bus=never) is False
    assert never.opened == []


def test_permission_denied_is_false(dev: Path) -> None:
    def refuse(port: int) -> Any:
        raise PermissionError(errno.EACCES, "Permission denied", f"/dev/i2c-{port}")

    assert detect_pi(1, 0x3C, dev=str(dev), open_bus=refuse) is False


def test_this_machine_is_answered_without_raising() -> None:
    result = detect_pi(1, 0x3C)
    assert isinstance(result, bool)
    if not Path("/dev/i2c-1").exists():
        assert result is False
