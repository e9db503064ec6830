"""The OLED: luma.oled's real ``ssd1306``/``sh1106`` drivers, sending only what changed.

The stock luma drivers convert every frame pixel by pixel (through ``Image.getdata``, deprecated since Pillow 12.1)
and send all 1024 bytes of display RAM on each update. :class:`DiffSSD1306` and :class:`DiffSH1106` subclass them
and override ``display()``: the frame is packed into pages with ``transpose``/``tobytes``/``translate`` (no Python
loop over pixels), compared with the last frame sent, and only the changed columns of the changed pages go out:

* SSD1306: horizontal addressing with a column window (``0x21``) and page window (``0x22``); neighbouring pages
  are merged into one rectangle when that costs fewer bytes than a window each (a tiny dynamic programme);
* SH1106: page addressing, ``0xB0|page`` then the column (low/high nibble, plus the module's 2-column offset).

:class:`OledDisplay` is what the companion uses: it opens the bus (or takes an injected one, e.g.
:class:`hw.fake_i2c.FakeI2CBus`), counts every byte written (:attr:`OledDisplay.bytes_sent`,
:attr:`OledDisplay.last_update_bytes`), and turns OS errors into :class:`~companion.errors.HardwareError` with the
messages of :mod:`hw.faults`. :class:`PluggableDisplay` opens it at the first frame and again while it is missing
(the box goes on without its panel meanwhile). :class:`NullDisplay` keeps the last frame, for headless play.
"""
from __future__ import annotations

import errno
import logging
from typing import Any, Callable, Protocol, Sequence

import luma.core.error  # type: ignore[import-untyped]
from luma.core.interface.serial import i2c  # type: ignore[import-untyped]
from PIL import Image

from companion.errors import ConfigError, HardwareError

from hw import faults
from hw.oled_diff import DiffSH1106, DiffSSD1306, changed_runs, pack_pages  # noqa: F401  (names others import here)

log = logging.getLogger(__name__)

WIDTH = 128
HEIGHT = 64
DRIVERS = ("ssd1306", "sh1106")

class _CountingBus:
    """Forwards to an smbus-style bus and counts the bytes of every write (control byte included)."""

    def __init__(self, bus: Any) -> None:
        self.bus = bus
        self.count = 0

    def write_i2c_block_data(self, i2c_addr: int, register: int, data: Sequence[int]) -> None:
        self.bus.write_i2c_block_data(i2c_addr, register, data)
        self.count += 1 + len(data)

    def i2c_rdwr(self, *messages: Any) -> None:
        self.bus.i2c_rdwr(*messages)
        self.count += sum(len(bytes(m)) for m in messages)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.bus, name)


class Display(Protocol):
    """What the loop draws on: :class:`OledDisplay` or :class:`NullDisplay`."""

    size: tuple[int, int]
    last_update_bytes: int

    @property
    def bytes_sent(self) -> int: ...

    def show(self, image: Image.Image) -> None: ...

    def close(self, farewell: Image.Image | None = None) -> None: ...


class OledDisplay:
    """An SSD1306 or SH1106 on I2C. ``show()`` takes a frame of :attr:`size` (128x64; 64x128 when rotate is 1 or 3).

    ``bus`` injects an smbus-style bus (tests and ``make bench`` use :class:`hw.fake_i2c.FakeI2CBus`); without it
    ``/dev/i2c-<port>`` is opened with smbus2. Either way luma talks to it in 32-byte block writes.
    """

    def __init__(self, driver: str = "ssd1306", *, port: int = 1, address: int = 0x3C, rotate: int = 0,
                 contrast: int = 0xCF, bus: Any = None) -> None:
        if driver not in DRIVERS:
            raise ConfigError(f"[display] driver = {driver!r} is not known: use \"ssd1306\" or \"sh1106\"")
        if rotate not in (0, 1, 2, 3):
            raise ConfigError(f"[display] rotate = {rotate!r}: use 0, 1, 2 or 3 (quarter turns clockwise)")
        if not 0 <= contrast <= 255:
            raise ConfigError(f"[display] contrast = {contrast!r}: use 0..255")
        self.driver = driver
        self.port = port
        self.address = address
        self._owned = _open_smbus(port) if bus is None else None  # a bus we opened is ours to close
        self._bus = _CountingBus(bus if self._owned is None else self._owned)
        self.last_update_bytes = 0  #: bytes the last show() wrote (0 when nothing changed)
        self.updates = 0
        self.reinits = 0  #: times the controller's set-up was sent again after a bus error
        self._closed = False
        self._contrast = contrast
        self._needs_setup = False  # after a bus error: the panel may have been power-cycled
        cls = DiffSSD1306 if driver == "ssd1306" else DiffSH1106
        try:
            serial = i2c(bus=self._bus, address=address)
            self.device = cls(serial, width=WIDTH, height=HEIGHT, rotate=rotate, on_cleanup=self._close_bus)
            self.device.contrast(contrast)
        except (OSError, luma.core.error.Error) as e:
            self._close_bus()
            raise self._fault(e) from e
        self.size: tuple[int, int] = self.device.size
        log.info("%s display at 0x%02X: %d bytes of set-up", driver, address, self._bus.count)

    @property
    def bytes_sent(self) -> int:
        """Every byte written to the bus so far (set-up, commands, control bytes and pixel data)."""
        return self._bus.count

    def show(self, image: Image.Image) -> None:
        """Send the frame; only the pages/columns that differ from the last frame go over the bus."""
        before = self._bus.count
        try:
            if self._needs_setup:
                self.device.resend_setup()
                self.device.contrast(self._contrast)
                self.device.display(image)
                self.device.show()
                self._needs_setup = False
                self.reinits += 1
                log.info("display set up again after a bus error")
            else:
                self.device.display(image)
        except (OSError, luma.core.error.Error) as e:
            self.device.invalidate()
            self._needs_setup = True
            raise self._fault(e) from e
        finally:
            self.last_update_bytes = self._bus.count - before
        self.updates += 1

    def set_contrast(self, level: int) -> None:
        if not 0 <= level <= 255:
            raise ConfigError(f"[display] contrast = {level!r}: use 0..255")
        try:
            self.device.contrast(level)
        except (OSError, luma.core.error.Error) as e:
            self._needs_setup = True
            raise self._fault(e) from e
        self._contrast = level

    def invalidate(self) -> None:
        """Send the next frame whole (after the panel may have lost its RAM)."""
        self.device.invalidate()

    def close(self, farewell: Image.Image | None = None) -> None:
        """Leave ``farewell`` on the panel (it stays lit), or blank and switch it off; then let go of the bus.

        Never raises: a display that has gone away is logged, not fatal, at shutdown.
        """
        if self._closed:
            return
        self._closed = True
        try:
            if farewell is not None:
                self.device.display(farewell)
                self.device.persist = True
            self.device.cleanup()
        except (OSError, luma.core.error.Error, ValueError) as e:
            log.warning("closing the display: %s", e)
            self.device._closed = True
            self._close_bus()

    def _close_bus(self) -> None:
        if self._owned is not None:
            try:
                self._owned.close()
            except OSError as e:  # pragma: no cover - closing a file descriptor
                log.debug("closing /dev/i2c-%d: %s", self.port, e)
            self._owned = None

    def _fault(self, e: BaseException) -> HardwareError:
        log.debug("display fault: %r", e)
        return HardwareError(_fault_message(e, self.port, self.address))


def _fault_message(e: BaseException, port: int, address: int) -> str:
    code = getattr(e, "errno", None)
    if isinstance(e, (PermissionError, luma.core.error.DevicePermissionError)) or code in (errno.EACCES,
                                                                                            errno.EPERM):
        return faults.I2C_PERMISSION.format(port=port)
    if isinstance(e, FileNotFoundError) or code in (errno.ENOENT, errno.ENODEV):
        return faults.I2C_BUS_MISSING.format(port=port)
    # a NAK (EREMOTEIO on the Pi, ENXIO or EIO on other adapters), a timeout, a missing pull-up...
    return faults.OLED_NOT_FOUND.format(address=f"0x{address:02X}", port=port)


def _open_smbus(port: int) -> Any:
    import smbus2  # installed with luma.core; imported only when real hardware is wanted

    try:
        return smbus2.SMBus(port)
    except OSError as e:
        raise HardwareError(_fault_message(e, port, 0)) from e


class PluggableDisplay:
    """The OLED of a box that goes on without it: ``open_display`` (an :class:`OledDisplay` maker) is called at the
    first frame, and at each frame after that while it raised. Until it opens, :meth:`show` raises its
    :class:`~companion.errors.HardwareError` (no OLED at the address, no I2C bus): the loop draws again on a timer
    (``DrawRetry``) and the phones are the panel meanwhile. Once open it is kept: after a bus error it sets itself
    up again when the panel answers (:meth:`OledDisplay.show`)."""

    def __init__(self, open_display: Callable[[], OledDisplay], rotate: int = 0) -> None:
        self._open = open_display
        self.oled: OledDisplay | None = None
        self.size: tuple[int, int] = (HEIGHT, WIDTH) if rotate in (1, 3) else (WIDTH, HEIGHT)
        self.last_update_bytes = 0
        self._contrast: int | None = None  #: a level set while it was missing, sent once it opens

    @property
    def bytes_sent(self) -> int:
        return self.oled.bytes_sent if self.oled is not None else 0

    def show(self, image: Image.Image) -> None:
        if self.oled is None:
            self.oled = self._open()
            if self._contrast is not None:
                self.oled.set_contrast(self._contrast)
        try:
            self.oled.show(image)
        finally:
            self.last_update_bytes = self.oled.last_update_bytes

    def set_contrast(self, level: int) -> None:
        if not 0 <= level <= 255:
            raise ConfigError(f"[display] contrast = {level!r}: use 0..255")
        self._contrast = level
        if self.oled is not None:
            self.oled.set_contrast(level)

    def close(self, farewell: Image.Image | None = None) -> None:
        if self.oled is not None:
            self.oled.close(farewell)


class NullDisplay:
    """No panel: keeps the last frame (headless play, ``--frames``, tests)."""

    def __init__(self, size: tuple[int, int] = (WIDTH, HEIGHT)) -> None:
        self.size = size
        self.frame: Image.Image = Image.new("1", size)
        self.updates = 0
        self.last_update_bytes = 0
        self.closed = False

    @property
    def bytes_sent(self) -> int:
        return 0

    def show(self, image: Image.Image) -> None:
        if image.mode != "1" or image.size != self.size:
            raise ValueError(f"the display takes a {self.size[0]}x{self.size[1]} mode '1' image, "
                             f"not {image.size[0]}x{image.size[1]} mode {image.mode!r}")
        self.frame = image.copy()
        self.updates += 1

    def close(self, farewell: Image.Image | None = None) -> None:
        if farewell is not None:
            self.frame = farewell.copy()
        self.closed = True


__all__ = ["Display", "DiffSH1106", "DiffSSD1306", "NullDisplay", "OledDisplay", "PluggableDisplay", "pack_pages",
           "changed_runs", "DRIVERS", "WIDTH", "HEIGHT"]
