# A tap of the roller's button measured in the firmware's own steps and ticks, in both interpreters (plain Python
# MicroPython runs too, like machine.py). A tap timed by the test's wall clock is lost when the firmware's loop is
# starved (a loaded machine): it may never read the press twice DEBOUNCE_MS apart. So the engine calls step(now)
# after each of the firmware's steps, with the tick that step used (roller.last_tick), and the tap moves the pin only
# between steps: pressed after the first, held until the firmware has read it low on at least two steps and for `ms`
# of its ticks, released, and done once the firmware has read the release for DEBOUNCE_MS of its ticks (then the
# step that saw that has acted on it: rolled, or ended a long press). A `fast` tap holds the press as long in the
# firmware's ticks but not in the test's time: once the firmware has debounced it, the rest of the hold passes at
# once (the firmware's clock jumps: `time` is the interpreter's stand-in, fw_time or utime, which can advance).
import time

import fw_board as board

PERIOD = 1 << 30  # MicroPython's ticks period (MICROPY_PY_TIME_TICKS_PERIOD) on the RP2040 and WebAssembly ports


def _set(pin, level):
    with board.lock:
        board.inputs[pin] = level


class Tap:
    def __init__(self, pin, ms, debounce_ms, fast=False):
        self.pin = pin
        self.ms = ms
        self.debounce_ms = debounce_ms
        self.fast = fast
        self.phase = 0  # 0: not pressed yet, 1: held, 2: released, 3: done
        self.since = 0  # the tick of the first step that read the pin at its present level
        self.seen = 0  # steps that read it at that level

    def step(self, now):
        """Called after each step of the firmware, with that step's tick: whether the tap is over."""
        if self.phase == 0:
            _set(self.pin, 0)  # the next step is the first to read it
            self.phase = 1
        elif self.phase == 1:
            if self.seen == 0:
                self.since = now
            self.seen += 1
            held = (now - self.since) % PERIOD
            if self.seen >= 2 and held >= self.ms:
                _set(self.pin, 1)
                self.phase = 2
                self.seen = 0
            elif self.fast and self.seen >= 2 and held >= self.debounce_ms:
                time.advance(self.ms - held)  # debounced by this step: its next step reads the press held `ms`
        elif self.phase == 2:
            if self.seen == 0:
                self.since = now
            self.seen += 1
            if (now - self.since) % PERIOD >= self.debounce_ms:  # the firmware's own test: ticks_diff >= DEBOUNCE_MS
                self.phase = 3
        return self.phase == 3
