"""The whole stack: gpiozero MockFactory buttons → the one queue → the loop thread → luma.oled's real ssd1306
driver over a fake I2C bus, whose captured bytes are decoded back and compared with the frame the loop drew;
the player LEDs on mock pins."""
from __future__ import annotations

import queue
import threading
import time
from pathlib import Path
from typing import Any, Callable

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.loop.app import App
from companion.config.load import parse_config
from companion.events import Event, TickEvent
from companion.journal.store import Journal
from companion.loop.pieces import DrawRetry
from companion.loop.runtime import PiOutput
from conftest import EXAMPLES
from hw.buttons import Buttons
from hw.display import OledDisplay
from hw.fake_i2c import FakeI2CBus
from hw.leds import GpioLeds

PINS = {"up": 5, "down": 6, "ok": 13, "back": 19}


@pytest.fixture
def factory() -> Any:
    f = MockFactory()
    yield f
    f.reset()
    Device.pin_factory = None


def wait_for(cond: Callable[[], bool], timeout: float = 3.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out")
        time.sleep(0.005)


class Rig:
    def __init__(self, tmp: Path, factory: Any, driver: str = "ssd1306") -> None:
        self.factory = factory
        self.bus = FakeI2CBus(driver)
        self.events: "queue.SimpleQueue[Event]" = queue.SimpleQueue()
        cfg = parse_config({"journal": {"path": str(tmp / "j.sqlite")}})
        self.display = OledDisplay(driver, bus=self.bus)
        self.leds = GpioLeds([12, 16], 25, pin_factory=factory, blink=(0.05, 0.05))
        self.buttons = Buttons(PINS, self.events.put, pin_factory=factory, bounce_time=0.0, hold_time=0.15,
                               repeat_delay=10, repeat_interval=1)
        self.skipped = 0.0  #: seconds the loop's clock was moved on (a timer's wait passed without waiting it)
        self.app = App(cfg, Journal(cfg.journal_path()), self.events, PiOutput(self.display, self.leds),
                       game=str(EXAMPLES / "race-to-ten.toml"), clock=lambda: time.monotonic() + self.skipped)
        self.thread = threading.Thread(target=self.app.run)
        self.thread.start()
        wait_for(lambda: self.app.stats.frames >= 1)

    def press(self, name: str, hold: float = 0.0, drawn: bool = True) -> None:
        """``drawn=False``: wait for the input only (while the display fails no frame goes out)."""
        before, frames = self.app.stats.inputs, self.app.stats.frames
        pin = self.factory.pin(PINS[name])
        pin.drive_low()
        time.sleep(max(hold, 0.03))
        pin.drive_high()
        # the input is counted before it is drawn: wait for the frame too (a slow machine, qemu, lags here)
        wait_for(lambda: self.app.stats.inputs > before and (not drawn or self.app.stats.frames > frames))
        time.sleep(0.02)

    def stop(self) -> None:
        from companion.events import QuitEvent

        self.events.put(QuitEvent())
        self.thread.join(5)
        self.buttons.close()
        self.app.shutdown()


@pytest.mark.parametrize("driver", ["ssd1306", "sh1106"])
def test_button_presses_reach_the_oled_exactly(tmp_path: Path, factory: Any, driver: str) -> None:
    rig = Rig(tmp_path, factory, driver)
    try:
        assert rig.bus.image().tobytes() == rig.app.frame().tobytes()
        rig.press("ok")  # 2 players
        rig.press("ok")  # start: roll-off, Ana to roll
        assert rig.bus.image().tobytes() == rig.app.frame().tobytes()
        assert rig.app.session is not None and rig.app.session.game is not None
        # Ana's LED blinks while the companion waits for her roll; Ben's is dark
        seen = set()
        end = time.monotonic() + 0.5
        while time.monotonic() < end and seen != {0, 1}:  # both seen: it blinks
            seen.add(factory.pin(12).state)
            time.sleep(0.005)
        assert seen == {0, 1} and factory.pin(16).state == 0
        rig.press("down")  # the cursor moves to "Roll for me"
        sent = rig.display.last_update_bytes
        assert 0 < sent < 1024, "only the changed pages go over the bus"
        rig.press("ok")  # the companion rolls for Ana
        rig.press("down")
        rig.press("ok")  # and for Ben
        assert rig.bus.image().tobytes() == rig.app.frame().tobytes()
        rig.press("ok", hold=0.3)  # long press: the game menu, not an OK
        assert rig.app.session.overlays and rig.app.session.overlays[-1].kind == "menu"
        assert rig.bus.image().tobytes() == rig.app.frame().tobytes()
    finally:
        rig.stop()


def test_the_journal_holds_every_press(tmp_path: Path, factory: Any) -> None:
    rig = Rig(tmp_path, factory)
    try:
        for k in ("ok", "ok", "down", "up", "back"):
            rig.press(k)
        rec = rig.app.record
        assert rec is not None
        events = [e for _n, _t, e in rig.app.journal.inputs(rec.id)]
    finally:
        rig.stop()
    assert events == ["ok", "ok", "down", "up", "back"]


def test_a_panel_that_lost_power_comes_back_without_a_press(tmp_path: Path, factory: Any) -> None:
    """While the bus fails the LEDs still follow the game (they go first); afterwards the controller is set up
    again and the frame redrawn on the loop's retry deadline, with no press needed."""
    import errno

    rig = Rig(tmp_path, factory)
    try:
        rig.press("ok")  # the set-up's first answer
        rig.bus.fail = OSError(errno.EREMOTEIO, "Remote I/O error")
        frames = rig.app.stats.frames
        for _ in range(3):
            rig.press("ok", drawn=False)
        assert rig.app.stats.frames == frames and rig.app.draw_retry.at is not None
        active, _waiting = rig.app.session.leds()
        if active is not None:  # the LED of the seat to play was updated although no frame went out
            wait_for(lambda: rig.factory.pin(12 if active == 1 else 16).state != 0, timeout=1.0)
        rig.bus.power_cycle()
        rig.bus.fail = None
        rig.skipped += DrawRetry.LONGEST  # the retry's longest wait passes on the loop's clock, and its timer
        rig.events.put(TickEvent())  # wakes the loop (the event the loop makes itself when a deadline passes)
        wait_for(lambda: rig.app.stats.frames > frames, timeout=4.0)
        assert rig.bus.display_on and rig.display.reinits == 1
        assert rig.bus.image().tobytes() == rig.app.frame().tobytes()
        assert rig.app.draw_retry.at is None
    finally:
        rig.stop()
