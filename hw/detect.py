"""Is this a Pi with the display attached? ``companion run`` asks before choosing hardware or the simulator."""
from __future__ import annotations

import glob
import logging
import os
from typing import Any, Callable

log = logging.getLogger(__name__)


def _smbus(port: int) -> Any:
    import smbus2  # installed with luma.core

    return smbus2.SMBus(port)


def detect_pi(port: int, address: int, *, dev: str = "/dev", open_bus: Callable[[int], Any] = _smbus) -> bool:
    """True only if ``/dev/i2c-<port>`` exists, a ``/dev/gpiochip*`` exists, and a device acknowledges ``address``
    on that bus (an SMBus quick write, as ``i2cdetect`` does, or a one-byte read where quick writes are not
    supported). Never raises; the reason for a False is logged at INFO."""
    try:
        bus_path = os.path.join(dev, f"i2c-{port}")
        if not os.path.exists(bus_path):
            log.info("no hardware: %s does not exist", bus_path)
            return False
        if not glob.glob(os.path.join(dev, "gpiochip*")):
            log.info("no hardware: no %s/gpiochip*", dev)
            return False
        bus = open_bus(port)
        try:
            try:
                bus.write_quick(address)
            except OSError:
                bus.read_byte(address)
        finally:
            bus.close()
    except Exception as e:  # permissions, NAKs, odd adapters: the answer is "no", never a crash
        log.info("no display answered at 0x%02X on %s: %s", address, f"/dev/i2c-{port}", e)
        return False
    return True


def is_raspberry_pi(model: str = "/proc/device-tree/model") -> bool:
    """This is a Raspberry Pi (its device tree says so), whether or not its display answers."""
    try:
        with open(model, "rb") as f:
            return b"Raspberry Pi" in f.read(256)
    except OSError:
        return False


__all__ = ["detect_pi", "is_raspberry_pi"]
