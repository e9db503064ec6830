"""`companion check`: the maker's self-test. One line per part — the display, the GPIO chip, the roller — each
either "ok" or the same fault message firmware_docs/troubleshooting.md explains. A display that is missing (no I2C
bus, nothing answering at its address) is a warning, not a failure: the service goes on without its panel and is
played from the phones."""
from __future__ import annotations

import os
import queue
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw

from companion.config.load import Config
from companion.errors import CompanionError
from companion.events import Event, RollerState, RollerStatusEvent


#: said after a missing display's fault line: what the box does without it
NO_PANEL = "; the companion goes on without its panel: play from the phones"


@dataclass(frozen=True)
class Result:
    part: str
    ok: bool
    message: str
    warn: bool = False  #: ok for the exit status, but something to look at (a missing display)

    def line(self) -> str:
        return f"{'warn' if self.warn else 'ok  ' if self.ok else 'FAIL'}  {self.part:8} {self.message}"


def border_pattern(driver: str) -> Image.Image:
    """A border on the outermost pixels and a label: a shifted or garbled border means the wrong driver."""
    from companion.ui.draw import font

    img = Image.new("1", (128, 64))
    d = ImageDraw.Draw(img)
    d.rectangle((0, 0, 127, 63), outline=1)
    d.text((6, 8), "Sovereign Companion", font=font(), fill=1)
    d.text((6, 24), f"driver: {driver}", font=font(), fill=1)
    d.text((6, 40), "border all round?", font=font(), fill=1)
    return img


def check_display(cfg: Config, *, bus: Any = None, dev: Path = Path("/dev")) -> Result:
    from hw import faults

    d = cfg.display
    if bus is None:
        node = dev / f"i2c-{d.port}"
        if not node.exists():
            return Result("display", True, faults.I2C_BUS_MISSING.format(port=d.port) + NO_PANEL, warn=True)
        if not os.access(node, os.R_OK | os.W_OK):
            return Result("display", False, faults.I2C_PERMISSION.format(port=d.port))
    from hw.display import OledDisplay

    try:
        oled = OledDisplay(d.driver, port=d.port, address=d.address, rotate=d.rotate, contrast=d.contrast, bus=bus)
        oled.show(border_pattern(d.driver))
    except CompanionError as e:
        missing = str(e) in (faults.OLED_NOT_FOUND.format(address=f"0x{d.address:02X}", port=d.port),
                             faults.I2C_BUS_MISSING.format(port=d.port))
        return Result("display", missing, str(e) + (NO_PANEL if missing else ""), warn=missing)
    return Result("display", True, f"{d.driver} at 0x{d.address:02X} on /dev/i2c-{d.port} shows a test frame "
                                   f"with a border. If {faults.WRONG_DRIVER}")


def check_gpio(dev: Path = Path("/dev")) -> Result:
    from hw import faults

    chips = sorted(p.name for p in dev.glob("gpiochip*"))
    if not chips:
        return Result("gpio", False, faults.NO_GPIOCHIP)
    unusable = [c for c in chips if not os.access(dev / c, os.R_OK | os.W_OK)]
    if len(unusable) == len(chips):
        return Result("gpio", False, faults.GPIO_PERMISSION.format(chip=chips[0]))
    return Result("gpio", True, ", ".join(chips))


def check_roller(cfg: Config, *, dev: Path = Path("/dev"), wait: float = 3.5) -> Result:
    from hw import faults
    from hw.roller.ports import describe, resolve
    from hw.roller.reader import RollerReader

    if cfg.roller.port == "none":
        return Result("roller", True, "off ([roller] port = \"none\"): dice are typed or rolled by the companion")
    port = resolve(cfg.roller.port, dev)
    if port is None or not Path(port).exists():
        return Result("roller", False, faults.ROLLER_NOT_SEEN.format(where=describe(cfg.roller.port)))
    if not os.access(port, os.R_OK | os.W_OK):
        return Result("roller", False, faults.ROLLER_PERMISSION.format(port=port))
    events: "queue.SimpleQueue[Event]" = queue.SimpleQueue()
    reader = RollerReader(port, events.put, dev=dev)
    reader.start()
    try:
        end = time.monotonic() + wait
        while (left := end - time.monotonic()) > 0:
            try:
                ev = events.get(timeout=left)
            except queue.Empty:
                break
            if isinstance(ev, RollerStatusEvent) and ev.state is RollerState.CONNECTED:
                return Result("roller", True, ev.detail or port)
    finally:
        reader.stop()
    return Result("roller", False, faults.ROLLER_SILENT.format(port=port, wait=f"{wait:.0f}"))


def run_checks(cfg: Config) -> list[Result]:
    if cfg.hardware == "headless":  # no panel, buttons or LEDs by design: the web view is the screen
        return [Result("display", True, 'none (hardware = "headless"): the web view shows the screen'),
                Result("gpio", True, 'not used (hardware = "headless"): no buttons or LEDs'), check_roller(cfg)]
    return [check_display(cfg), check_gpio(), check_roller(cfg)]
