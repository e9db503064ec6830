"""Push buttons on GPIO: debounced, UP/DOWN auto-repeat, OK hold.

Each button is a gpiozero ``DigitalInputDevice`` with the internal pull-up (wire the switch between the BCM pin and
ground). The rules:

* UP and DOWN send a :class:`~companion.events.KeyEvent` when pressed; held past ``repeat_delay`` they repeat every
  ``repeat_interval`` (``KeyEvent(key, repeat=True)``), so counts move fast;
* OK sends OK when released, unless it was held past ``hold_time``: then it sent HOLD once (which opens the game
  menu) and the release sends nothing;
* BACK sends BACK when pressed.

Debouncing is done here, in software, identically on every pin factory (gpiozero's ``MockFactory`` ignores
``bounce_time``): the first edge counts at once, further edges within ``bounce_time`` are ignored, and when that
window closes the pin is read again so a short tap is never lost or left "stuck down".

Timers run on one thread per :class:`Buttons` that sleeps on a condition variable until the next deadline, or
indefinitely when no button is down; it never polls. Callbacks only update a little state and call ``put``.
"""
from __future__ import annotations

import logging
import math
import threading
from dataclasses import dataclass
from time import monotonic
from typing import Any, Callable, Mapping

from gpiozero import DigitalInputDevice, GPIOZeroError  # type: ignore[import-untyped]

from companion.errors import ConfigError
from companion.events import Event, Key, KeyEvent

from hw.gpio import default_pin_factory, pin_error, pin_errors

log = logging.getLogger(__name__)

BUTTON_NAMES = ("up", "down", "ok", "back")
_REPEATING = (Key.UP, Key.DOWN)


@dataclass(eq=False)
class _Switch:
    key: Key
    device: Any  # DigitalInputDevice
    pressed: bool = False  #: the debounced state
    changed_at: float = -math.inf  #: when the debounced state last changed
    held: bool = False  #: OK: HOLD was sent during this press
    due: float | None = None  #: next repeat (UP/DOWN) or the hold (OK)
    settle: float | None = None  #: end of the bounce window, when edges were ignored in it


class Buttons:
    """Buttons named ``up``, ``down``, ``ok``, ``back`` (any subset) on BCM ``pins``; events go to ``put``.

    ``put`` must not block (``queue.Queue.put`` on an unbounded queue).
    """

    def __init__(self, pins: Mapping[str, int], put: Callable[[Event], None], *, pin_factory: Any = None,
                 bounce_time: float = 0.02, hold_time: float = 0.8, repeat_delay: float = 0.4,
                 repeat_interval: float = 0.08) -> None:
        for name in pins:
            if name not in BUTTON_NAMES:
                raise ConfigError(f"[buttons] {name}: not a button; use {', '.join(BUTTON_NAMES)}")
        for label, value in (("bounce_time", bounce_time), ("hold_time", hold_time),
                             ("repeat_delay", repeat_delay), ("repeat_interval", repeat_interval)):
            if not value >= 0 or (label == "repeat_interval" and value == 0):
                raise ValueError(f"{label} = {value!r} must be a positive number of seconds")
        self._put = put
        self.bounce_time = bounce_time
        self.hold_time = hold_time
        self.repeat_delay = repeat_delay
        self.repeat_interval = repeat_interval
        self._factory = pin_factory if pin_factory is not None else default_pin_factory()
        self._cond = threading.Condition()
        self._closed = False
        self._switches: list[_Switch] = []
        self.wakeups = 0  #: times the timer thread woke up (a test checks it stays put while idle)
        where = ""
        try:
            for name, pin in pins.items():
                where = f"[buttons] {name} = {pin}"
                device = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=self._factory)
                sw = _Switch(Key(name), device, pressed=bool(device.is_active))  # already down: wait for release
                self._switches.append(sw)
                device.when_activated = device.when_deactivated = self._callback(sw)
        except pin_errors() as e:
            self._close_devices()
            raise pin_error(where, e) from e
        self._thread = threading.Thread(target=self._run, name="buttons", daemon=True)
        self._thread.start()

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(sw.key.value for sw in self._switches)

    def close(self) -> None:
        """Stop the timer thread and release the pins. Safe to call twice."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            self._cond.notify_all()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._close_devices()

    def __enter__(self) -> Buttons:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- pin thread ----------------------------------------------------------------------------------------------
    def _callback(self, sw: _Switch) -> Callable[[], None]:
        def changed() -> None:
            self._edge(sw)

        return changed

    def _edge(self, sw: _Switch) -> None:
        with self._cond:
            if self._closed:
                return
            now = monotonic()
            if now - sw.changed_at < self.bounce_time:
                sw.settle = sw.changed_at + self.bounce_time  # look again when the window closes
            else:
                self._read(sw, now)
            self._cond.notify()

    # -- both threads, under the lock -------------------------------------------------------------------------------
    def _read(self, sw: _Switch, now: float) -> None:
        active = bool(sw.device.is_active)
        if active == sw.pressed:
            return
        sw.pressed, sw.changed_at = active, now
        if active:
            sw.held = False
            if sw.key in _REPEATING:
                self._put(KeyEvent(sw.key))
                sw.due = now + self.repeat_delay
            elif sw.key is Key.OK:
                sw.due = now + self.hold_time
            else:
                self._put(KeyEvent(sw.key))
        else:
            sw.due = None
            if sw.key is Key.OK and not sw.held:
                self._put(KeyEvent(Key.OK))
            sw.held = False

    def _fire(self, sw: _Switch, now: float) -> None:
        if sw.key in _REPEATING:
            self._put(KeyEvent(sw.key, repeat=True))
            sw.due = now + self.repeat_interval
        else:  # OK held long enough
            sw.held = True
            sw.due = None
            self._put(KeyEvent(Key.HOLD))

    # -- timer thread --------------------------------------------------------------------------------------------------
    def _run(self) -> None:
        with self._cond:
            while not self._closed:
                now = monotonic()
                wake: float | None = None
                for sw in self._switches:
                    if sw.settle is not None and sw.settle <= now:
                        sw.settle = None
                        self._read(sw, now)
                    if sw.due is not None and sw.due <= now and sw.pressed:
                        self._fire(sw, now)
                    for t in (sw.settle, sw.due):
                        if t is not None:
                            wake = t if wake is None else min(wake, t)
                self._cond.wait(None if wake is None else max(0.0, wake - now))
                self.wakeups += 1

    def _close_devices(self) -> None:
        for sw in self._switches:
            try:
                sw.device.close()
            except GPIOZeroError as e:  # pragma: no cover - closing a pin
                log.debug("closing %s: %s", sw.key.value, e)


__all__ = ["BUTTON_NAMES", "Buttons"]
