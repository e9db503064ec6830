# The firmware's `time` inside MicroPython's interpreter (put in sys.modules["time"] before the firmware is imported).
# ticks_add, ticks_diff and sleep_ms are MicroPython's own, so the wrap arithmetic under test is the interpreter's;
# only ticks_ms is ours: real milliseconds from where the test starts them (near the wrap; or standing still, for a
# script that moves them itself), plus any jump it asks for.
from time import sleep, sleep_ms, sleep_us, ticks_add, ticks_cpu, ticks_diff, ticks_us, time
from time import ticks_ms as _real_ms

TICKS_PERIOD = 1 << 30  # MICROPY_PY_TIME_TICKS_PERIOD: the RP2040 port's and this port's
_base = _real_ms()
_start = 0
_skew = 0
_real = True


def set_start(ticks, real=True):
    global _base, _start, _skew, _real
    _base, _start, _skew, _real = _real_ms(), ticks & (TICKS_PERIOD - 1), 0, real


def advance(ms):
    global _skew
    _skew = (_skew + ms) & (TICKS_PERIOD - 1)


def ticks_ms():
    return (_start + (ticks_diff(_real_ms(), _base) if _real else 0) + _skew) & (TICKS_PERIOD - 1)
