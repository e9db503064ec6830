"""hw.gpio: the pin factory is chosen once, explicitly; importing the hardware modules has no side effects."""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.errors import HardwareError
from hw.gpio import lgpio_workdir, make_pin_factory

ROOT = Path(__file__).resolve().parents[1]


def test_mock_factory() -> None:
    f = make_pin_factory("mock")
    assert isinstance(f, MockFactory)
    f.close()


def test_unknown_factory() -> None:
    with pytest.raises(HardwareError, match="unknown GPIO pin factory 'pigpio'"):
        make_pin_factory("pigpio")


@pytest.mark.skipif(importlib.util.find_spec("lgpio") is not None, reason="lgpio is installed here")
def test_no_gpio_library_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    with pytest.raises(HardwareError) as e:
        make_pin_factory("lgpio")
    assert "lgpio" in str(e.value) and "\n" not in str(e.value)
    import os

    assert os.environ["LG_WD"] == str(tmp_path)  # lgpio would have put its FIFOs there, not in the cwd


def test_lgpio_workdir_prefers_a_writable_runtime_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("LG_WD", raising=False)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    assert lgpio_workdir() == str(tmp_path)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "missing"))
    assert lgpio_workdir() != str(tmp_path / "missing")


def test_importing_hw_has_no_side_effects(tmp_path: Path) -> None:
    code = (
        "import hw.display, hw.fake_i2c, hw.buttons, hw.encoder, hw.leds, hw.terminal, hw.detect, hw.gpio\n"
        "from gpiozero import Device\n"
        "import sys\n"
        "assert Device.pin_factory is None, Device.pin_factory\n"
        "assert 'lgpio' not in sys.modules and 'smbus2' not in sys.modules\n"
    )
    env_path = f"{ROOT}"
    result = subprocess.run([sys.executable, "-W", "error", "-c", code], cwd=tmp_path, capture_output=True,
                            text=True, timeout=60, env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    assert result.returncode == 0, result.stderr
    assert list(tmp_path.iterdir()) == []  # nothing written in the working directory


# ------------------------------------------------------------------ a pin held by an overlay: "GPIO busy"

class _LgpioError(Exception):
    """Stands for lgpio.error, which is what lgpio raises for a pin a dtoverlay or another program holds."""


@pytest.fixture
def busy_factory(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """A MockFactory whose GPIO 19 and 20 are busy the way lgpio reports it (lgpio itself loaded)."""
    import types

    from gpiozero.pins.mock import MockPin

    fake = types.ModuleType("lgpio")
    fake.error = _LgpioError  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "lgpio", fake)

    class BusyPin(MockPin):  # type: ignore[misc]
        def __init__(self, factory, info):  # type: ignore[no-untyped-def]
            if info.name in ("GPIO19", "GPIO20"):
                raise _LgpioError("GPIO busy")
            super().__init__(factory, info)

    f = MockFactory(pin_class=BusyPin)
    yield f
    f.close()


def test_busy_led_pin_is_one_line_naming_the_key(busy_factory: MockFactory) -> None:
    from hw import faults
    from hw.leds import GpioLeds

    with pytest.raises(HardwareError) as e:
        GpioLeds([12, 16, 20], 25, pin_factory=busy_factory)
    assert str(e.value) == faults.GPIO_BUSY.format(where="[leds] players[2] = 20")
    GpioLeds([12, 16], 25, pin_factory=busy_factory).close()  # the pins it had claimed were given back


def test_busy_button_pin(busy_factory: MockFactory) -> None:
    from hw import faults
    from hw.buttons import Buttons

    with pytest.raises(HardwareError) as e:
        Buttons({"ok": 13, "back": 19}, lambda ev: None, pin_factory=busy_factory)
    assert str(e.value) == faults.GPIO_BUSY.format(where="[buttons] back = 19")


def test_busy_encoder_push(busy_factory: MockFactory) -> None:
    from hw import faults
    from hw.encoder import Encoder

    with pytest.raises(HardwareError) as e:
        Encoder(17, 18, 19, lambda ev: None, pin_factory=busy_factory)
    assert str(e.value) == faults.GPIO_BUSY.format(where="[encoder] push = 19")
    with pytest.raises(HardwareError) as e:
        Encoder(20, 18, None, lambda ev: None, pin_factory=busy_factory)
    assert str(e.value) == faults.GPIO_BUSY.format(where="[encoder] a = 20, b = 18")


def test_other_pin_errors_keep_their_text(busy_factory: MockFactory) -> None:
    from hw.leds import GpioLeds

    with pytest.raises(HardwareError, match=r"^\[leds\] players\[1\] = 12: .*in use"):
        GpioLeds([12, 12], None, pin_factory=busy_factory)
