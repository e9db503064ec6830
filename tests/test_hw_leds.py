"""hw.leds: what the LEDs show, on gpiozero's MockFactory and in the fake."""
from __future__ import annotations

import time
from typing import Callable, Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from companion.errors import HardwareError
from companion.events import RollerState
from hw.leds import GpioLeds, LedSnapshot, SimLeds

PLAYERS, STATUS = [5, 6, 13, 19], 26
BLINK, FAST = (0.04, 0.04), (0.01, 0.01)


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.close()


@pytest.fixture
def leds(factory: MockFactory) -> Iterator[GpioLeds]:
    l = GpioLeds(PLAYERS, STATUS, pin_factory=factory, blink=BLINK, fast=FAST)
    yield l
    l.close()


def lit(factory: MockFactory, pin: int) -> bool:
    return bool(factory.pin(pin).state)


def toggles(factory: MockFactory, pin: int, seconds: float) -> int:
    """State changes the pin goes through in the next ``seconds``."""
    p = factory.pin(pin)
    p.clear_states()
    time.sleep(seconds)
    return len(p.states) - 1


def blinking(factory: MockFactory, pin: int, changes: int, between: Callable[[], object] = lambda: None,
             within: float = 5.0) -> list[float]:
    """Wait for the pin to go through ``changes`` state changes from now, calling ``between`` every 2 ms (what the
    loop does after each frame); the seconds between its whole on/off phases. Fails if it takes ``within`` seconds:
    a loaded machine may run the blink thread late, never an LED that stays lit or dark."""
    p = factory.pin(pin)
    p.clear_states()
    deadline = time.monotonic() + within
    while len(p.states) - 1 < changes:
        assert time.monotonic() < deadline, f"pin {pin}: {len(p.states) - 1} changes in {within} s, not {changes}"
        between()
        time.sleep(0.002)
    return [s.timestamp for s in p.states[2:]]  # the first change ends a phase that began before clear_states()


@pytest.mark.parametrize("make", [lambda f: SimLeds(4), lambda f: GpioLeds(PLAYERS, STATUS, pin_factory=f)])
def test_both_models_agree(factory: MockFactory, make) -> None:
    leds = make(factory)
    assert leds.snapshot() == LedSnapshot(("off",) * 4, "off")
    leds.show(2, waiting=False)
    assert leds.snapshot().players == ("off", "on", "off", "off")
    leds.show(3, waiting=True)
    assert leds.snapshot().players == ("off", "off", "blink", "off")
    leds.show(None, waiting=False)
    assert leds.snapshot().players == ("off",) * 4
    leds.show(9, waiting=True)  # a seat without an LED
    assert leds.snapshot().players == ("off",) * 4
    for state, light in [(RollerState.CONNECTED, "on"), (RollerState.OFFLINE, "blink"), (RollerState.ERROR, "fast"),
                         (None, "off")]:
        leds.set_status(state)
        assert leds.snapshot().status == light
    leds.close()
    assert leds.snapshot() == LedSnapshot.dark(4)


def test_active_player_led_is_lit(leds: GpioLeds, factory: MockFactory) -> None:
    leds.show(1, waiting=False)
    assert [lit(factory, p) for p in PLAYERS] == [True, False, False, False]
    leds.show(4, waiting=False)
    assert [lit(factory, p) for p in PLAYERS] == [False, False, False, True]
    assert toggles(factory, PLAYERS[3], 0.15) == 0  # steady


def test_waiting_player_led_blinks(leds: GpioLeds, factory: MockFactory) -> None:
    leds.show(2, waiting=True)
    assert min(blinking(factory, PLAYERS[1], 4)) >= BLINK[0] - 0.005
    assert not any(lit(factory, p) for p in (PLAYERS[0], PLAYERS[2], PLAYERS[3]))
    leds.show(2, waiting=False)  # answered: steady on
    assert lit(factory, PLAYERS[1]) and toggles(factory, PLAYERS[1], 0.15) == 0


def test_status_led(leds: GpioLeds, factory: MockFactory) -> None:
    leds.set_status(RollerState.CONNECTED)
    assert lit(factory, STATUS) and toggles(factory, STATUS, 0.12) == 0
    leds.set_status(RollerState.OFFLINE)
    slow = blinking(factory, STATUS, 5)
    leds.set_status(RollerState.ERROR)
    fast = blinking(factory, STATUS, 5)
    assert min(fast) < BLINK[0] - 0.005 <= min(slow)  # a late blink thread stretches phases, never shortens them
    leds.set_status(None)
    assert not lit(factory, STATUS) and toggles(factory, STATUS, 0.12) == 0


def test_repeating_the_same_state_does_not_restart_blinking(leds: GpioLeds, factory: MockFactory) -> None:
    leds.show(1, waiting=True)
    # the loop calls show() after every frame: a blink restarted each time would sit in its "on" phase (and fail
    # after 5 s); one left running goes on blinking
    assert blinking(factory, PLAYERS[0], 3, between=lambda: leds.show(1, waiting=True))


def test_no_status_led(factory: MockFactory) -> None:
    with_none = GpioLeds([5, 6], None, pin_factory=factory)
    with_none.set_status(RollerState.ERROR)
    assert with_none.snapshot() == LedSnapshot(("off", "off"), "fast")
    with_none.close()


def test_close_turns_everything_off_and_frees_pins(factory: MockFactory) -> None:
    leds = GpioLeds(PLAYERS, STATUS, pin_factory=factory, blink=BLINK)
    leds.show(3, waiting=True)
    leds.set_status(RollerState.CONNECTED)
    leds.close()
    leds.close()
    assert not any(lit(factory, p) for p in [*PLAYERS, STATUS])
    GpioLeds(PLAYERS, STATUS, pin_factory=factory).close()


def test_pin_clash(factory: MockFactory) -> None:
    with pytest.raises(HardwareError, match=r"\[leds\]"):
        GpioLeds([5, 5], None, pin_factory=factory)
    GpioLeds([5], None, pin_factory=factory).close()


def test_sim_history_records_distinct_states() -> None:
    sim = SimLeds(2)
    sim.show(1, False)
    sim.show(1, False)
    sim.show(1, True)
    sim.set_status(RollerState.OFFLINE)
    assert sim.history == [LedSnapshot(("off", "off")), LedSnapshot(("on", "off")), LedSnapshot(("blink", "off")),
                           LedSnapshot(("blink", "off"), "blink")]


# ------------------------------------------------------------------ active-low (common-anode) LEDs

def test_active_low_leds_light_on_a_low_pin(factory: MockFactory) -> None:
    leds = GpioLeds(PLAYERS, STATUS, pin_factory=factory, blink=BLINK, active_high=False)
    assert all(lit(factory, p) for p in [*PLAYERS, STATUS])  # pins high: every LED dark from the start
    leds.show(2, waiting=False)
    assert [lit(factory, p) for p in PLAYERS] == [True, False, True, True]  # seat 2's pin low: lit
    assert leds.snapshot().players == ("off", "on", "off", "off")
    leds.set_status(RollerState.CONNECTED)
    assert not lit(factory, STATUS)
    leds.show(3, waiting=True)
    assert toggles(factory, PLAYERS[2], 0.3) >= 3 and lit(factory, PLAYERS[1])
    leds.close()


def test_active_high_is_the_default_and_starts_dark(factory: MockFactory) -> None:
    leds = GpioLeds(PLAYERS, STATUS, pin_factory=factory)
    assert not any(lit(factory, p) for p in [*PLAYERS, STATUS])
    leds.show(1, waiting=False)
    assert lit(factory, PLAYERS[0])
    leds.close()


def test_the_config_switch_reaches_the_leds(monkeypatch: pytest.MonkeyPatch) -> None:
    """[leds] active_high = false is what companion.loop.runtime builds the LEDs with."""
    from companion.loop import runtime
    from companion.config.load import parse_config

    made: dict[str, object] = {}

    class Spy:
        def __init__(self, players: object, status: object, **kw: object) -> None:
            made.update(players=players, status=status, **kw)

    monkeypatch.setattr("hw.leds.GpioLeds", Spy)
    monkeypatch.setattr("hw.display.OledDisplay", lambda *a, **kw: object())
    cfg = parse_config({"leds": {"active_high": False}, "buttons": {"up": "none", "down": "none", "back": "none",
                                                                  "ok": 13}, "roller": {"port": "none"}})
    import contextlib
    import queue

    monkeypatch.setattr("hw.buttons.Buttons", lambda *a, **kw: type("B", (), {"close": lambda self: None})())
    with contextlib.ExitStack() as stack:
        runtime._build_pi(cfg, queue.SimpleQueue(), stack)
    assert made == {"players": (12, 16, 20, 21, 23, 24), "status": 25, "active_high": False}


@pytest.mark.parametrize("make", [lambda f: SimLeds(4), lambda f: GpioLeds(PLAYERS, STATUS, pin_factory=f)])
def test_alerted_seats_flash_fast(factory: MockFactory, make) -> None:
    # a game's alert (a king in check) makes those seats' LEDs flash fast, the active seat's too
    leds = make(factory)
    leds.show(2, waiting=True, alerts=(2, 4))
    assert leds.snapshot().players == ("off", "fast", "off", "fast")
    leds.show(3, waiting=True, alerts=(4,))
    assert leds.snapshot().players == ("off", "off", "blink", "fast")
    leds.show(3, waiting=True)
    assert leds.snapshot().players == ("off", "off", "blink", "off")
    leds.close()


def test_a_fast_player_led_toggles_quickly(factory: MockFactory, leds: GpioLeds) -> None:
    leds.show(1, waiting=True, alerts=(4,))
    assert toggles(factory, PLAYERS[3], 0.2) >= 6  # 0.01 s on / off: many changes in 0.2 s
