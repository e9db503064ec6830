"""A fake I2C bus with an OLED controller behind it: the fake beside :mod:`hw.display`.

:class:`FakeI2CBus` implements the calls luma.core's ``i2c`` interface makes on an injected bus
(``write_i2c_block_data``, ``i2c_rdwr``, ``close``) plus the probes :mod:`hw.detect` uses (``write_quick``,
``read_byte``). It counts every byte written and emulates the controller's command decoder and display RAM:

* ``"ssd1306"``: 128 x 8 pages of RAM; page, horizontal and vertical addressing (``0x20``), column and page
  windows (``0x21``/``0x22``), page-mode column/page pointers (``0x00-0x1F``, ``0xB0-0xB7``);
* ``"sh1106"``: 132 x 8 pages of RAM, page addressing only; the panel shows RAM columns 2..129 (the 2-column
  offset of the common 1.3-inch modules), so an SSD1306 driver on an SH1106 shows up shifted, as on a real one.

:meth:`FakeI2CBus.image` decodes RAM into the 128x64 picture the panel would show (display on/off, inverse,
all-on, segment remap and COM scan direction included), so tests can compare it pixel for pixel with the frame
that was rendered. A write to any address but the controller's fails like a missing device (``EREMOTEIO``).
"""
from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Any, Iterable, Sequence

from PIL import Image

WIDTH = 128
HEIGHT = 64
PAGES = HEIGHT // 8

#: argument counts of the multi-byte commands each controller knows; anything else is one byte
_SSD1306_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2A: 5, 0x81: 1, 0x8D: 1, 0xA3: 2,
                 0xA8: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
_SH1106_ARGS = {0x81: 1, 0x8D: 1, 0xA8: 1, 0xAD: 1, 0xD3: 1, 0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}
_CONTROLLERS = {"ssd1306": (WIDTH, 0, _SSD1306_ARGS), "sh1106": (132, 2, _SH1106_ARGS)}

_REVERSE_BITS = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))
_INVERT_BITS = bytes(255 - i for i in range(256))

# addressing modes (SSD1306 command 0x20)
_HORIZONTAL, _VERTICAL, _PAGE = 0, 1, 2


@dataclass(frozen=True)
class Transfer:
    """One bus write as it went over the wire (recorded when ``record=True``)."""

    address: int
    control: int  #: 0x00 commands follow, 0x40 data follows
    payload: bytes


class FakeI2CBus:
    """An smbus-like bus with one SSD1306 or SH1106 at ``address``; see the module docstring."""

    def __init__(self, controller: str = "ssd1306", *, address: int = 0x3C, record: bool = False) -> None:
        if controller not in _CONTROLLERS:
            raise ValueError(f"unknown controller {controller!r}: expected one of {sorted(_CONTROLLERS)}")
        self.controller = controller
        self.address = address
        self.ram_width, self.column_offset, self._args = _CONTROLLERS[controller]
        self.ram = bytearray(self.ram_width * PAGES)  #: page-major: byte (page, column) at page*ram_width+column
        self.record = record
        self.transfers: list[Transfer] = []
        self.bytes_written = 0  #: every byte after the address: control bytes, commands and data
        self.data_bytes = 0  #: display RAM bytes only
        self.writes = 0  #: bus transactions
        self.closed = False
        self.fail: OSError | None = None  #: set to make every following transfer raise this (cleared by hand)
        self._taken = 0
        self.commands: list[tuple[int, ...]] = []  #: every command decoded, with its arguments
        self._reset()

    def power_cycle(self) -> None:
        """The panel lost power and came back: registers as after reset, RAM cleared, display off."""
        self.ram[:] = bytes(len(self.ram))
        self._reset()

    def _reset(self) -> None:
        # controller registers, as after reset
        self.mode = _PAGE
        self.col_start, self.col_end = 0, self.ram_width - 1
        self.page_start, self.page_end = 0, PAGES - 1
        self.col = 0
        self.page = 0
        self.display_on = False
        self.inverse = False
        self.all_on = False
        self.segment_remap = False
        self.com_reversed = False
        self.start_line = 0
        self.display_offset = 0
        self.contrast: int | None = None
        self._pending: list[int] = []

    # -- what luma (and smbus2 users) call --------------------------------------------------------------------
    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        if len(data) > 32:
            raise OSError(errno.EINVAL, "SMBus block write longer than 32 bytes")
        self._transfer(i2c_addr, bytes([register, *data]))

    def i2c_rdwr(self, *messages: Any) -> None:
        for msg in messages:
            self._transfer(int(msg.addr), bytes(msg))

    def write_quick(self, i2c_addr: int) -> None:
        self._check(i2c_addr)

    def read_byte(self, i2c_addr: int) -> int:
        self._check(i2c_addr)
        return 0x43 if self.display_on else 0x03  # status byte: display-off flag as a real SSD1306 reports it

    def close(self) -> None:
        self.closed = True

    # -- counting ----------------------------------------------------------------------------------------------
    def take_bytes(self) -> int:
        """Bytes written since the previous call (or since the bus was made): the cost of one update."""
        n, self._taken = self.bytes_written - self._taken, self.bytes_written
        return n

    # -- decoding ----------------------------------------------------------------------------------------------
    def image(self) -> Image.Image:
        """The 128x64 mode "1" picture the panel shows now."""
        if not self.display_on:
            return Image.new("1", (WIDTH, HEIGHT), 0)
        if self.all_on:
            return Image.new("1", (WIDTH, HEIGHT), 1)
        img = self.ram_image()
        if self.ram_width != WIDTH:
            # the panel is wired to the middle 128 segments (2..129 of 132): the same RAM columns either way round
            img = img.crop((self.column_offset, 0, self.column_offset + WIDTH, HEIGHT))
        shift = (self.start_line + self.display_offset) % HEIGHT
        if shift:
            img = _roll_up(img, shift)
        # luma sends SEGREMAP=0xA1 and COMSCANDEC=0xC8, which is how these modules show RAM the right way up
        if not self.segment_remap:
            img = img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        if not self.com_reversed:
            img = img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        if self.inverse:
            img = Image.frombytes("1", img.size, img.tobytes().translate(_INVERT_BITS))
        return img

    def ram_image(self) -> Image.Image:
        """RAM as a ram_width x 64 picture, bit 0 of each byte on top, no panel orientation applied."""
        w = self.ram_width
        # column-major bytes (column c: pages 0..7), each bit-reversed so the top pixel is the high bit
        cols = bytearray(w * PAGES)
        for p in range(PAGES):
            cols[p::PAGES] = self.ram[p * w:(p + 1) * w]
        transposed = Image.frombytes("1", (HEIGHT, w), bytes(cols.translate(_REVERSE_BITS)))
        return transposed.transpose(Image.Transpose.TRANSPOSE)

    # -- the controller --------------------------------------------------------------------------------------
    def _check(self, address: int) -> None:
        if self.fail is not None:
            raise self.fail
        if self.closed:
            raise OSError(errno.EBADF, "bus is closed")
        if address != self.address:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def _transfer(self, address: int, raw: bytes) -> None:
        self._check(address)
        self.writes += 1
        self.bytes_written += len(raw)
        if self.record:
            self.transfers.append(Transfer(address, raw[0] if raw else 0, bytes(raw[1:])))
        i = 0
        while i < len(raw):
            control = raw[i]
            i += 1
            single = bool(control & 0x80)  # Co bit: one byte follows, then another control byte
            chunk = raw[i:i + 1] if single else raw[i:]
            i += len(chunk)
            if control & 0x40:
                self._data(chunk)
            else:
                self._command_bytes(chunk)

    def _command_bytes(self, chunk: Iterable[int]) -> None:
        for b in chunk:
            if self._pending:
                self._pending.append(b)
            elif b in self._args:
                self._pending = [b]
            else:
                self._command((b,))
                continue
            if len(self._pending) == self._args[self._pending[0]] + 1:
                cmd, self._pending = tuple(self._pending), []
                self._command(cmd)

    def _command(self, cmd: tuple[int, ...]) -> None:
        self.commands.append(cmd)
        op = cmd[0]
        ssd = self.controller == "ssd1306"
        if op <= 0x0F:
            self.col = (self.col & 0xF0) | op
        elif op <= 0x1F:
            self.col = (self.col & 0x0F) | ((op & 0x0F) << 4)
        elif ssd and op == 0x20:
            self.mode = cmd[1] & 0x03
        elif ssd and op == 0x21:
            self.col_start, self.col_end = cmd[1] & 0x7F, cmd[2] & 0x7F
            self.col = self.col_start
        elif ssd and op == 0x22:
            self.page_start, self.page_end = cmd[1] & 0x07, cmd[2] & 0x07
            self.page = self.page_start
        elif 0x40 <= op <= 0x7F:
            self.start_line = op & 0x3F
        elif op == 0x81:
            self.contrast = cmd[1]
        elif op in (0xA0, 0xA1):
            self.segment_remap = op == 0xA1
        elif op in (0xA4, 0xA5):
            self.all_on = op == 0xA5
        elif op in (0xA6, 0xA7):
            self.inverse = op == 0xA7
        elif op in (0xAE, 0xAF):
            self.display_on = op == 0xAF
        elif 0xB0 <= op <= 0xB7:
            self.page = op & 0x07
        elif op in (0xC0, 0xC8):
            self.com_reversed = op == 0xC8
        elif op == 0xD3:
            self.display_offset = cmd[1] & 0x3F
        # everything else (clock, multiplex, charge pump, precharge, scrolling...) leaves RAM alone

    def _data(self, chunk: bytes) -> None:
        self.data_bytes += len(chunk)
        w = self.ram_width
        ram = self.ram
        if self.controller == "sh1106" or self.mode == _PAGE:
            last = w - 1 if self.controller == "sh1106" else self.col_end
            for b in chunk:
                ram[self.page * w + self.col] = b
                if self.controller == "sh1106":
                    self.col = min(self.col + 1, last)  # the SH1106 column counter stops at 131
                else:
                    self.col = self.col_start if self.col >= last else self.col + 1
            return
        for b in chunk:
            ram[self.page * w + self.col] = b
            if self.mode == _HORIZONTAL:
                if self.col >= self.col_end:
                    self.col = self.col_start
                    self.page = self.page_start if self.page >= self.page_end else self.page + 1
                else:
                    self.col += 1
            else:  # vertical
                if self.page >= self.page_end:
                    self.page = self.page_start
                    self.col = self.col_start if self.col >= self.col_end else self.col + 1
                else:
                    self.page += 1


def _roll_up(img: Image.Image, shift: int) -> Image.Image:
    """Rows move up by ``shift`` (display start line / offset), wrapping around."""
    w, h = img.size
    out = Image.new("1", (w, h))
    out.paste(img.crop((0, shift, w, h)), (0, 0))
    out.paste(img.crop((0, 0, w, shift)), (0, h - shift))
    return out


__all__ = ["FakeI2CBus", "Transfer", "WIDTH", "HEIGHT"]
