"""hw.fake_i2c on its own: the controller emulation that the display tests rely on."""
from __future__ import annotations

import errno

import pytest
from smbus2 import i2c_msg

from hw.fake_i2c import FakeI2CBus

ADDR = 0x3C


def cmd(bus: FakeI2CBus, *b: int) -> None:
    bus.write_i2c_block_data(ADDR, 0x00, list(b))


def data(bus: FakeI2CBus, *b: int) -> None:
    bus.write_i2c_block_data(ADDR, 0x40, list(b))


def normal(bus: FakeI2CBus) -> None:
    cmd(bus, 0xA1, 0xC8, 0xAF)  # luma's orientation, display on


def test_ssd1306_horizontal_window_wraps_to_the_next_page() -> None:
    bus = FakeI2CBus("ssd1306")
    normal(bus)
    cmd(bus, 0x20, 0x00, 0x21, 10, 11, 0x22, 2, 3)
    data(bus, 0x01, 0x02, 0x04, 0x08, 0xFF)  # (p2,c10) (p2,c11) (p3,c10) (p3,c11) then back to (p2,c10)
    assert bus.ram[2 * 128 + 10] == 0xFF and bus.ram[2 * 128 + 11] == 0x02
    assert bus.ram[3 * 128 + 10] == 0x04 and bus.ram[3 * 128 + 11] == 0x08
    img = bus.image()
    assert img.getpixel((10, 16)) and img.getpixel((10, 23)) and img.getpixel((11, 17)) and img.getpixel((11, 27))
    assert sum(bin(v).count("1") for v in img.tobytes()) == 8 + 1 + 1 + 1


def test_ssd1306_page_and_vertical_modes() -> None:
    bus = FakeI2CBus("ssd1306")
    cmd(bus, 0x20, 0x02, 0xB5, 0x03, 0x12)  # page mode: page 5, column 0x23
    data(bus, 0xAA)
    assert bus.ram[5 * 128 + 0x23] == 0xAA
    cmd(bus, 0x20, 0x01, 0x21, 0, 1, 0x22, 0, 1)  # vertical: down the pages first
    data(bus, 1, 2, 3)
    assert (bus.ram[0], bus.ram[128], bus.ram[1]) == (1, 2, 3)


def test_sh1106_page_addressing_and_offset() -> None:
    bus = FakeI2CBus("sh1106")
    normal(bus)
    cmd(bus, 0xB1, 0x02, 0x10)  # page 1, column 2: the panel's first visible column
    data(bus, 0x01)
    assert bus.ram[1 * 132 + 2] == 0x01
    assert bus.image().getpixel((0, 8))
    cmd(bus, 0xB0, 0x03, 0x18)  # column 131: the counter stops there
    data(bus, 1, 2, 3)
    assert bus.ram[131] == 3


def test_co_bit_control_bytes() -> None:
    bus = FakeI2CBus("ssd1306")
    # Co=1 command byte, then Co=0 data stream, in one transfer
    bus.i2c_rdwr(i2c_msg.write(ADDR, [0x80, 0xAF, 0x40, 0x55, 0x66]))
    assert bus.display_on and bus.ram[0] == 0x55 and bus.ram[1] == 0x66
    assert bus.bytes_written == 5 and bus.data_bytes == 2 and bus.writes == 1


def test_panel_state_in_the_image() -> None:
    bus = FakeI2CBus("ssd1306")
    normal(bus)
    data(bus, 0x01)
    assert bus.image().getpixel((0, 0))
    cmd(bus, 0xA7)  # inverse
    assert not bus.image().getpixel((0, 0)) and bus.image().getpixel((5, 5))
    cmd(bus, 0xA6, 0xA0)  # segment remap off: mirrored left to right
    assert bus.image().getpixel((127, 0))
    cmd(bus, 0xA1, 0xA5)  # entire display on
    assert bus.image().getpixel((60, 60))
    cmd(bus, 0xA4, 0xAE)  # off
    assert not any(bus.image().tobytes())


def test_counting_and_failures() -> None:
    bus = FakeI2CBus("ssd1306", record=True)
    cmd(bus, 0xAF)
    data(bus, *range(32))
    assert bus.take_bytes() == 2 + 33 and bus.take_bytes() == 0
    assert [t.control for t in bus.transfers] == [0x00, 0x40]
    with pytest.raises(OSError) as e:
        bus.write_i2c_block_data(0x3D, 0x00, [0xAF])
    assert e.value.errno == errno.EREMOTEIO
    with pytest.raises(OSError):
        data(bus, *range(33))  # longer than an SMBus block
    bus.write_quick(ADDR)
    assert bus.read_byte(ADDR) == 0x43
    bus.close()
    with pytest.raises(OSError):
        cmd(bus, 0xAE)
    with pytest.raises(ValueError):
        FakeI2CBus("ssd1309")
