"""A CPython stand-in for MicroPython's ``time``: ticks that wrap at 2**30 like a Pico's, real sleeps.

The ticks count real milliseconds from where the test starts them (:func:`set_start`, by default 2 s before the
wrap; or they stand still, for a script that moves them itself), plus any jump the test asks for (:func:`advance`).
:func:`freeze` makes ``sleep_ms`` block, so the firmware stops as a hung board would. ``ticks_add`` refuses an
interval of half a period or more, as MicroPython's does. (An earlier shim added its offset to ``time.monotonic()``,
which counts from the machine's boot: its ticks started days away from the wrap, so no test ever crossed it.)
"""
from __future__ import annotations

import threading
import time as _t

#: MicroPython's ticks period (MICROPY_PY_TIME_TICKS_PERIOD): 2**30 on the RP2040 port and the WebAssembly port
TICKS_PERIOD = 1 << 30
NEAR_WRAP = TICKS_PERIOD - 2_000

_base = _t.monotonic()
_start = NEAR_WRAP
_skew = 0
_real = True
_running = threading.Event()
_running.set()


def set_start(ticks: int, real: bool = True) -> None:
    """Start the ticks at ``ticks`` now; with ``real`` false they move only by :func:`advance`."""
    global _base, _start, _skew, _real
    _base, _start, _skew, _real = _t.monotonic(), ticks % TICKS_PERIOD, 0, real


def advance(ms: int) -> None:
    """Jump the clock ``ms`` milliseconds ahead."""
    global _skew
    _skew = (_skew + ms) % TICKS_PERIOD


def freeze(on: bool) -> None:
    """Stop (or restart) the firmware's loop at its next sleep."""
    (_running.clear if on else _running.set)()


def ticks_ms() -> int:
    return (_start + (int((_t.monotonic() - _base) * 1000) if _real else 0) + _skew) % TICKS_PERIOD


def ticks_us() -> int:
    return (ticks_ms() * 1000) % TICKS_PERIOD


def ticks_add(ticks: int, delta: int) -> int:
    if not -TICKS_PERIOD // 2 < delta < TICKS_PERIOD // 2:
        raise OverflowError("ticks interval overflow")
    return (ticks + delta) % TICKS_PERIOD


def ticks_diff(a: int, b: int) -> int:
    half = TICKS_PERIOD // 2
    return ((a - b + half) % TICKS_PERIOD) - half


def sleep_ms(ms: int) -> None:
    _t.sleep(ms / 1000)
    _running.wait()


def sleep_us(us: int) -> None:
    _t.sleep(us / 1_000_000)
    _running.wait()


def sleep(s: float) -> None:
    _t.sleep(s)


def time() -> int:
    return int(_t.time())
