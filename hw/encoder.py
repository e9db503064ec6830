"""A rotary encoder with a push button, standing in for UP/DOWN/OK.

Turning is read by gpiozero's ``RotaryEncoder`` (A and B to BCM pins, C to ground; internal pull-ups), whose
quadrature state machine counts one step per full detent and ignores contact wiggle. Direction, as gpiozero counts
it (A changes before B when turning clockwise):

* clockwise → DOWN (down a menu, like scrolling a page);
* counter-clockwise → UP.

If a knob turns the "wrong" way, swap the A and B wires (or pins), or pass ``reverse=True``. The push switch
behaves like the OK button of :mod:`hw.buttons`: a short push is OK, a long push (``hold_time``) is HOLD.
"""
from __future__ import annotations

import logging
from typing import Any, Callable

from gpiozero import GPIOZeroError, RotaryEncoder  # type: ignore[import-untyped]

from companion.errors import HardwareError
from companion.events import Event, Key, KeyEvent

from hw.buttons import Buttons
from hw.gpio import default_pin_factory, pin_error, pin_errors

log = logging.getLogger(__name__)


class Encoder:
    """Knob on pins ``a``/``b`` and an optional push switch on ``push``; events go to ``put`` (must not block)."""

    def __init__(self, a: int, b: int, push: int | None, put: Callable[[Event], None], *, pin_factory: Any = None,
                 hold_time: float = 0.8, bounce_time: float = 0.02, reverse: bool = False) -> None:
        factory = pin_factory if pin_factory is not None else default_pin_factory()
        clockwise, counter = (Key.UP, Key.DOWN) if reverse else (Key.DOWN, Key.UP)
        try:
            # max_steps=0: count without bounds, nothing saturates; bounce is handled by the state machine
            self._rotor = RotaryEncoder(a, b, max_steps=0, pin_factory=factory)
        except pin_errors() as e:
            raise pin_error(f"[encoder] a = {a}, b = {b}", e) from e
        self._rotor.when_rotated_clockwise = lambda: put(KeyEvent(clockwise))
        self._rotor.when_rotated_counter_clockwise = lambda: put(KeyEvent(counter))
        self.push: Buttons | None = None
        if push is not None:
            try:
                self.push = Buttons({"ok": push}, put, pin_factory=factory, hold_time=hold_time,
                                    bounce_time=bounce_time)
            except HardwareError as e:
                self._rotor.close()  # the push switch is a one-button Buttons: name it as the config does
                message = str(e).replace(f"[buttons] ok = {push}", f"[encoder] push = {push}", 1)
                raise HardwareError(message) from e

    def close(self) -> None:
        if self.push is not None:
            self.push.close()
        try:
            self._rotor.close()
        except GPIOZeroError as e:  # pragma: no cover - closing a pin
            log.debug("closing the encoder: %s", e)

    def __enter__(self) -> Encoder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["Encoder"]
