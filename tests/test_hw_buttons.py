"""hw.buttons and hw.encoder against gpiozero's MockFactory (pins driven low = pressed)."""
from __future__ import annotations

import queue
import time
from typing import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.errors import ConfigError, HardwareError
from companion.events import Event, Key, KeyEvent
from hw.buttons import Buttons
from hw.encoder import Encoder

PINS = {"up": 5, "down": 6, "ok": 13, "back": 19}
# short times keep the suite fast; the gaps between them leave room for a loaded CI machine
BOUNCE, HOLD, DELAY, INTERVAL = 0.03, 0.25, 0.2, 0.05


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


@pytest.fixture
def events() -> "queue.Queue[Event]":
    return queue.Queue()


@pytest.fixture
def buttons(factory: MockFactory, events: "queue.Queue[Event]") -> Iterator[Buttons]:
    b = Buttons(PINS, events.put, pin_factory=factory, bounce_time=BOUNCE, hold_time=HOLD, repeat_delay=DELAY,
                repeat_interval=INTERVAL)
    yield b
    b.close()


def drain(q: "queue.Queue[Event]", settle: float = 0.0) -> list[Event]:
    if settle:
        time.sleep(settle)
    out = []
    while True:
        try:
            out.append(q.get_nowait())
        except queue.Empty:
            return out


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()


def release(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_high()


def tap(factory: MockFactory, pin: int) -> None:
    press(factory, pin)
    time.sleep(BOUNCE * 1.5)
    release(factory, pin)
    time.sleep(BOUNCE * 1.5)


def test_each_button_sends_its_key(buttons: Buttons, factory: MockFactory, events) -> None:
    for name in ("up", "down", "back"):
        press(factory, PINS[name])
        assert events.get(timeout=1) == KeyEvent(Key(name))  # on press, before release
        time.sleep(BOUNCE * 1.5)
        release(factory, PINS[name])
        time.sleep(BOUNCE * 1.5)
    assert drain(events) == []
    tap(factory, PINS["ok"])
    assert drain(events) == [KeyEvent(Key.OK)]


def test_ok_is_sent_on_release_not_on_press(buttons: Buttons, factory: MockFactory, events) -> None:
    press(factory, PINS["ok"])
    assert drain(events, settle=BOUNCE * 2) == []
    release(factory, PINS["ok"])
    assert events.get(timeout=1) == KeyEvent(Key.OK)


def test_holding_ok_sends_hold_once_and_no_ok(buttons: Buttons, factory: MockFactory, events) -> None:
    press(factory, PINS["ok"])
    assert events.get(timeout=HOLD * 8) == KeyEvent(Key.HOLD)
    time.sleep(HOLD * 1.5)  # still held: no second HOLD
    release(factory, PINS["ok"])
    assert drain(events, settle=BOUNCE * 2) == []
    tap(factory, PINS["ok"])  # the next short press is an OK again
    assert drain(events) == [KeyEvent(Key.OK)]


@pytest.mark.parametrize("name", ["up", "down"])
def test_up_down_auto_repeat_while_held(buttons: Buttons, factory: MockFactory, events, name: str) -> None:
    press(factory, PINS[name])
    assert events.get(timeout=1) == KeyEvent(Key(name))
    time.sleep(DELAY + INTERVAL * 6)
    release(factory, PINS[name])
    got = drain(events)
    assert len(got) >= 3 and all(e == KeyEvent(Key(name), repeat=True) for e in got)
    assert drain(events, settle=DELAY + INTERVAL * 2) == []  # stops on release


def test_a_short_press_does_not_repeat(buttons: Buttons, factory: MockFactory, events) -> None:
    tap(factory, PINS["up"])
    assert drain(events, settle=DELAY + INTERVAL * 3) == [KeyEvent(Key.UP)]


def test_contact_bounce_is_one_press(buttons: Buttons, factory: MockFactory, events) -> None:
    pin = factory.pin(PINS["down"])
    for _ in range(5):  # a bouncing contact, faster than the bounce window
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(BOUNCE * 2)
    for _ in range(3):  # and bouncing on release
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    assert drain(events, settle=BOUNCE * 3) == [KeyEvent(Key.DOWN)]


def test_a_tap_shorter_than_the_bounce_window_is_not_lost(buttons: Buttons, factory: MockFactory, events) -> None:
    press(factory, PINS["ok"])
    release(factory, PINS["ok"])  # released inside the window: seen when the window closes
    assert events.get(timeout=1) == KeyEvent(Key.OK)
    assert drain(events, settle=HOLD * 1.5) == []  # and not left "held down"


def test_back_is_optional(factory: MockFactory, events) -> None:
    with Buttons({"up": 5, "down": 6, "ok": 13}, events.put, pin_factory=factory, bounce_time=BOUNCE) as b:
        assert b.names == ("up", "down", "ok")
        tap(factory, 6)
        assert drain(events) == [KeyEvent(Key.DOWN)]


def test_idle_buttons_do_not_poll(buttons: Buttons, factory: MockFactory, events) -> None:
    tap(factory, PINS["ok"])
    time.sleep(BOUNCE * 2)
    woke = buttons.wakeups
    time.sleep(0.3)
    assert buttons.wakeups == woke


def test_unknown_button_name(factory: MockFactory, events) -> None:
    with pytest.raises(ConfigError, match=r"\[buttons\] select"):
        Buttons({"select": 4}, events.put, pin_factory=factory)


def test_one_pin_for_two_buttons(factory: MockFactory, events) -> None:
    with pytest.raises(HardwareError, match=r"\[buttons\]"):
        Buttons({"up": 5, "down": 5}, events.put, pin_factory=factory)
    # the pin that was claimed before the failure is free again
    Buttons({"up": 5}, events.put, pin_factory=factory).close()


def test_close_releases_pins_and_stops(factory: MockFactory, events) -> None:
    b = Buttons(PINS, events.put, pin_factory=factory, bounce_time=BOUNCE)
    b.close()
    b.close()
    assert not b._thread.is_alive()
    press(factory, PINS["up"])
    assert drain(events) == []
    Buttons(PINS, events.put, pin_factory=factory).close()  # pins reusable


# -- the rotary encoder -----------------------------------------------------------------------------------------

A, B, PUSH = 17, 27, 22


def turn(factory: MockFactory, clockwise: bool, detents: int = 1) -> None:
    """One detent is a full quadrature cycle; clockwise, A leads B (gpiozero's convention)."""
    first, second = (factory.pin(A), factory.pin(B)) if clockwise else (factory.pin(B), factory.pin(A))
    for _ in range(detents):
        first.drive_low()
        second.drive_low()
        first.drive_high()
        second.drive_high()


@pytest.fixture
def encoder(factory: MockFactory, events) -> Iterator[Encoder]:
    e = Encoder(A, B, PUSH, events.put, pin_factory=factory, hold_time=HOLD, bounce_time=BOUNCE)
    yield e
    e.close()


def test_clockwise_is_down_counter_clockwise_is_up(encoder: Encoder, factory: MockFactory, events) -> None:
    turn(factory, clockwise=True, detents=3)
    assert drain(events) == [KeyEvent(Key.DOWN)] * 3
    turn(factory, clockwise=False, detents=2)
    assert drain(events) == [KeyEvent(Key.UP)] * 2


def test_encoder_wiggle_without_a_full_detent_sends_nothing(encoder: Encoder, factory: MockFactory, events) -> None:
    a, b = factory.pin(A), factory.pin(B)
    a.drive_low()
    a.drive_high()  # back to rest: no step
    a.drive_low()
    b.drive_low()
    b.drive_high()
    a.drive_high()
    assert drain(events) == []


def test_encoder_push_and_long_push(encoder: Encoder, factory: MockFactory, events) -> None:
    tap(factory, PUSH)
    assert drain(events) == [KeyEvent(Key.OK)]
    press(factory, PUSH)
    assert events.get(timeout=HOLD * 8) == KeyEvent(Key.HOLD)
    release(factory, PUSH)
    assert drain(events, settle=BOUNCE * 2) == []


def test_encoder_reversed(factory: MockFactory, events) -> None:
    with Encoder(A, B, None, events.put, pin_factory=factory, reverse=True) as e:
        assert e.push is None
        turn(factory, clockwise=True)
        assert drain(events) == [KeyEvent(Key.UP)]


def test_encoder_close_releases_pins(factory: MockFactory, events) -> None:
    Encoder(A, B, PUSH, events.put, pin_factory=factory).close()
    Encoder(A, B, PUSH, events.put, pin_factory=factory).close()


def test_encoder_pin_clash(factory: MockFactory, events) -> None:
    with pytest.raises(HardwareError, match=r"\[encoder\]"):
        Encoder(A, A, None, events.put, pin_factory=factory)
