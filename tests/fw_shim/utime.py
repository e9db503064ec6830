"""A host stand-in for MicroPython's ``time`` module: ticks that wrap like a Pico's, real sleeps."""
from __future__ import annotations

import time as _t

#: MicroPython's ticks_ms wraps at 2**30; tests start near the wrap so ticks_diff arithmetic is exercised
TICKS_PERIOD = 1 << 30
_OFFSET_MS = TICKS_PERIOD - 2_000


def ticks_ms() -> int:
    return (int(_t.monotonic() * 1000) + _OFFSET_MS) % TICKS_PERIOD


def ticks_us() -> int:
    return (int(_t.monotonic() * 1_000_000) + _OFFSET_MS * 1000) % TICKS_PERIOD


def ticks_add(ticks: int, delta: int) -> int:
    return (ticks + delta) % TICKS_PERIOD


def ticks_diff(a: int, b: int) -> int:
    half = TICKS_PERIOD // 2
    return ((a - b + half) % TICKS_PERIOD) - half


def sleep_ms(ms: int) -> None:
    _t.sleep(ms / 1000)


def sleep_us(us: int) -> None:
    _t.sleep(us / 1_000_000)


def sleep(s: float) -> None:
    _t.sleep(s)


def time() -> int:
    return int(_t.time())


def monotonic() -> float:
    return _t.monotonic()
