"""hw.display over hw.fake_i2c: luma's real drivers, decoded back to pixels."""
from __future__ import annotations

import errno
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from luma.core.interface.serial import i2c
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from companion.errors import ConfigError, HardwareError
from hw import faults
from hw.display import NullDisplay, OledDisplay, changed_runs, pack_pages
from hw.fake_i2c import FakeI2CBus

DRIVERS = ("ssd1306", "sh1106")
ROOT = Path(__file__).resolve().parents[1]


def text_frame(lines: list[str], size: tuple[int, int] = (128, 64)) -> Image.Image:
    img = Image.new("1", size)
    draw = ImageDraw.Draw(img)
    for i, line in enumerate(lines):
        draw.text((2, 1 + 12 * i), line, fill=1)
    return img


def noise(data: bytes, size: tuple[int, int] = (128, 64)) -> Image.Image:
    return Image.frombytes("1", size, data)


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.tobytes() == b.tobytes()


@pytest.fixture(params=DRIVERS)
def rig(request: pytest.FixtureRequest):
    bus = FakeI2CBus(request.param)
    display = OledDisplay(request.param, bus=bus)
    yield display, bus
    display.close()


def test_pack_pages_matches_the_controller_layout() -> None:
    img = Image.new("1", (128, 64))
    img.putpixel((0, 0), 1)
    img.putpixel((5, 9), 1)
    img.putpixel((127, 63), 1)
    pages = pack_pages(img)
    assert [len(p) for p in pages] == [128] * 8
    assert pages[0][0] == 0x01
    assert pages[1][5] == 0x02
    assert pages[7][127] == 0x80
    assert sum(map(sum, pages)) == 0x01 + 0x02 + 0x80


def test_changed_runs_merges_close_runs() -> None:
    old = bytes(128)
    new = bytearray(old)
    new[3] = new[5] = new[100] = 1
    assert changed_runs(old, bytes(new), gap=7) == [(3, 5), (100, 100)]
    assert changed_runs(old, old, gap=7) == []


def test_text_frames_decode_exactly(rig) -> None:
    display, bus = rig
    for lines in (["Sovereign", "Round 1", "P1: roll d12"], ["Menu", "> Undo", "  Redo", "  Log", "  End game"],
                  []):
        frame = text_frame(lines)
        display.show(frame)
        assert same(bus.image(), frame)
    assert display.bytes_sent == bus.bytes_written


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.binary(min_size=1024, max_size=1024), min_size=1, max_size=4))
def test_random_frames_decode_exactly(rig, frames: list[bytes]) -> None:
    display, bus = rig
    for data in frames:
        frame = noise(data)
        display.show(frame)
        assert same(bus.image(), frame)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, 127), st.integers(0, 63), st.integers(1, 40), st.integers(1, 20),
                          st.booleans()), min_size=1, max_size=8))
def test_partial_changes_decode_exactly(rig, boxes) -> None:
    display, bus = rig
    frame = text_frame(["base", "frame", "here"])
    display.show(frame)
    for x, y, w, h, fill in boxes:
        frame = frame.copy()
        ImageDraw.Draw(frame).rectangle((x, y, min(127, x + w), min(63, y + h)), fill=int(fill))
        display.show(frame)
        assert same(bus.image(), frame)


@pytest.mark.parametrize("driver", DRIVERS)
@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_rotation_matches_luma(driver: str, rotate: int) -> None:
    bus = FakeI2CBus(driver)
    display = OledDisplay(driver, bus=bus, rotate=rotate)
    assert display.size == ((128, 64) if rotate % 2 == 0 else (64, 128))
    frame = text_frame(["rotated", str(rotate)], display.size)
    ImageDraw.Draw(frame).rectangle((0, 0, 9, 4), fill=1)  # a mark in the frame's top-left corner
    display.show(frame)
    # luma's own preprocess: rotate clockwise by quarter turns, then crop to the panel
    expected = frame.rotate(rotate * -90, expand=True).crop((0, 0, 128, 64))
    assert same(bus.image(), expected)
    display.close()


@pytest.mark.parametrize("driver", DRIVERS)
def test_fake_decodes_the_stock_driver_the_same_way(driver: str) -> None:
    """The emulator is checked against luma's unmodified class, which sends every byte of every frame."""
    bus = FakeI2CBus(driver)
    cls = ssd1306 if driver == "ssd1306" else sh1106
    frame = noise(bytes((i * 37 + 11) % 256 for i in range(1024)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # the stock drivers call Image.getdata
        device = cls(i2c(bus=bus, address=0x3C))
        bus.take_bytes()
        device.display(frame)
        stock_bytes = bus.take_bytes()
        assert same(bus.image(), frame)
        device.persist = True
        device.cleanup()
    assert stock_bytes >= 1024 + 32


def test_one_line_change_costs_far_less_than_a_full_frame(rig) -> None:
    display, bus = rig
    display.show(text_frame(["Sovereign", "Round 3", "Active: P2", "VP 12"]))
    display.show(text_frame(["Sovereign", "Round 3", "Active: P2", "VP 13"]))
    assert 0 < display.last_update_bytes < 100
    display.show(text_frame(["Sovereign", "Round 4", "Active: P3", "VP 13"]))
    assert display.last_update_bytes < 1024 // 4
    before = bus.bytes_written
    display.show(text_frame(["Sovereign", "Round 4", "Active: P3", "VP 13"]))
    assert display.last_update_bytes == 0 and bus.bytes_written == before


def test_update_bytes_agree_with_the_bus(rig) -> None:
    display, bus = rig
    bus.take_bytes()
    for n in range(5):
        display.show(text_frame([f"count {n}"]))
        assert display.last_update_bytes == bus.take_bytes()
    assert display.bytes_sent == bus.bytes_written
    assert display.updates == 5


def test_contrast_is_sent(rig) -> None:
    display, bus = rig
    assert bus.contrast == 0xCF
    display.set_contrast(0x20)
    assert bus.contrast == 0x20
    other = OledDisplay("sh1106", bus=FakeI2CBus("sh1106"), contrast=7)
    assert other.device._serial_interface._bus.bus.contrast == 7
    other.close()


def test_close_leaves_the_farewell_lit_or_blanks(rig) -> None:
    display, bus = rig
    display.show(text_frame(["playing"]))
    farewell = text_frame(["Saved.", "Bye"])
    display.close(farewell)
    assert bus.display_on and same(bus.image(), farewell)
    writes = bus.writes
    display.close()  # idempotent
    display.device.cleanup()  # what luma's atexit hook calls: nothing more is sent
    assert bus.writes == writes


@pytest.mark.parametrize("driver", DRIVERS)
def test_close_without_farewell_switches_off(driver: str) -> None:
    bus = FakeI2CBus(driver)
    display = OledDisplay(driver, bus=bus)
    display.show(text_frame(["x"]))
    display.close()
    assert not bus.display_on
    assert bus.ram == bytearray(len(bus.ram))
    assert same(bus.image(), Image.new("1", (128, 64)))


def test_ssd1306_driver_on_an_sh1106_shows_the_two_column_shift() -> None:
    bus = FakeI2CBus("sh1106")
    display = OledDisplay("ssd1306", bus=bus)
    frame = text_frame(["shifted"])
    display.show(frame)
    assert not same(bus.image(), frame)
    display.close()


def test_no_display_at_the_address_is_one_clear_line() -> None:
    with pytest.raises(HardwareError) as e:
        OledDisplay("ssd1306", bus=FakeI2CBus("ssd1306", address=0x3C), address=0x3D, port=1)
    assert str(e.value) == faults.OLED_NOT_FOUND.format(address="0x3D", port=1)


def test_bus_error_during_show_then_recovery(rig) -> None:
    display, bus = rig
    display.show(text_frame(["before"]))
    bus.fail = OSError(errno.EREMOTEIO, "Remote I/O error")
    with pytest.raises(HardwareError, match="no OLED answered"):
        display.show(text_frame(["during"]))
    bus.fail = None
    bus.ram[:] = bytes(len(bus.ram))  # the panel was power-cycled meanwhile
    frame = text_frame(["after"])
    display.show(frame)
    assert same(bus.image(), frame)  # sent whole, not as a diff against a frame that never arrived


def test_a_power_cycled_panel_is_set_up_again_after_a_bus_error(rig) -> None:
    """Only the RAM shadow was reset before: a panel that lost power stayed dark (display off, no charge pump)."""
    display, bus = rig
    display.show(text_frame(["before"]))
    bus.fail = OSError(errno.EREMOTEIO, "Remote I/O error")
    with pytest.raises(HardwareError):
        display.show(text_frame(["during"]))
    bus.fail = None
    bus.power_cycle()
    assert not bus.display_on
    frame = text_frame(["after"])
    display.show(frame)
    assert bus.display_on and same(bus.image(), frame) and display.reinits == 1
    assert bus.contrast == 0xCF
    sent = bus.take_bytes()
    display.show(text_frame(["after", "more"]))
    assert display.reinits == 1 and bus.take_bytes() < sent  # once only: then diffs again


@pytest.mark.parametrize("exc, message", [
    (FileNotFoundError(errno.ENOENT, "No such file or directory", "/dev/i2c-1"), faults.I2C_BUS_MISSING),
    (PermissionError(errno.EACCES, "Permission denied", "/dev/i2c-1"), faults.I2C_PERMISSION),
])
def test_opening_the_bus_maps_os_errors(monkeypatch: pytest.MonkeyPatch, exc: OSError, message: str) -> None:
    import smbus2

    def refuse(port: int) -> None:
        raise exc

    monkeypatch.setattr(smbus2, "SMBus", refuse)
    with pytest.raises(HardwareError) as e:
        OledDisplay(port=1)
    assert str(e.value) == message.format(port=1)


def test_a_missing_bus_for_real(tmp_path: Path) -> None:
    port = 97
    if Path(f"/dev/i2c-{port}").exists():  # pragma: no cover
        pytest.skip("this machine has that bus")
    with pytest.raises(HardwareError) as e:
        OledDisplay(port=port)
    assert str(e.value) == faults.I2C_BUS_MISSING.format(port=port)


@pytest.mark.parametrize("kwargs, key", [({"driver": "ssd1309"}, "driver"), ({"rotate": 4}, "rotate"),
                                         ({"contrast": 300}, "contrast")])
def test_bad_settings(kwargs: dict, key: str) -> None:
    with pytest.raises(ConfigError, match=rf"\[display\] {key}"):
        OledDisplay(bus=FakeI2CBus(), **kwargs)


def test_wrong_frame_is_refused(rig) -> None:
    display, _ = rig
    with pytest.raises(ValueError, match="128x64 mode '1'"):
        display.show(Image.new("L", (128, 64)))
    with pytest.raises(ValueError):
        display.show(Image.new("1", (64, 32)))


def test_null_display_keeps_the_last_frame() -> None:
    d = NullDisplay()
    frame = text_frame(["headless"])
    d.show(frame)
    assert same(d.frame, frame) and d.bytes_sent == 0 and d.last_update_bytes == 0
    bye = text_frame(["bye"])
    d.close(bye)
    assert same(d.frame, bye) and d.closed


@pytest.mark.parametrize("ending", ["d.close()", "pass", "OledDisplay(bus=FakeI2CBus(address=0x3D))"])
def test_interpreter_exit_is_clean(ending: str) -> None:
    """luma registers an atexit hook per device; closed, left open or failed, nothing is printed or raised."""
    code = (
        "from PIL import Image\n"
        "from companion.errors import HardwareError\n"
        "from hw.display import OledDisplay\n"
        "from hw.fake_i2c import FakeI2CBus\n"
        "bus = FakeI2CBus('sh1106')\n"
        "d = OledDisplay('sh1106', bus=bus)\n"
        "d.show(Image.new('1', (128, 64), 1))\n"
        f"try:\n    {ending}\nexcept HardwareError:\n    pass\n"
    )
    result = subprocess.run([sys.executable, "-W", "error", "-X", "dev", "-c", code], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "" and result.stdout == ""


def test_the_leds_are_set_before_the_frame_so_a_failing_bus_leaves_them_following_the_game() -> None:
    from companion.loop.runtime import PiOutput

    calls: list[str] = []

    class Leds:
        def show(self, active: int | None, waiting: bool, alerts: tuple[int, ...] = ()) -> None:
            calls.append(f"leds {active} {waiting} {alerts}")

    class FailingDisplay:
        def show(self, frame: Image.Image) -> None:
            calls.append("frame")
            raise HardwareError("no OLED answered")

    out = PiOutput(FailingDisplay(), Leds())
    with pytest.raises(HardwareError):
        out.present(text_frame(["x"]), 2, True, (3,))
    assert calls == ["leds 2 True (3,)", "frame"]
