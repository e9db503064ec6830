# Companion dice roller - reference firmware, protocol version 1 (see ../roller-protocol.md).
#
# MicroPython for a Raspberry Pi Pico / Pico W / Pico 2. Copy it to the board as main.py (see README.md).
# The link is the Pico's USB serial (CDC): frames are written to stdout and read from stdin.
#
#   button (GP14 to GND)      short press: roll one die of the selected type (or what the host asked for)
#                             long press (no switch fitted): toggle d6 / d12 (LED blinks 1x for d6, 2x for d12)
#   switch (GP13 to GND)      optional: closed = d12, open = d6 (set SWITCH_PIN = 13)
#   LED (GP15, 330 ohm)       one blink per roll; slow blinking = the host asked for a roll; 3 fast = refused
#
# Hold the button while plugging in to skip the firmware (safe mode: the REPL stays usable for mpremote).
#
# The tests run this file unchanged in MicroPython's own interpreter (its WebAssembly port) and in CPython, each
# with a stand-in for `machine` and its USB serial on a pty: see tests/fw_shim.

import os
import select
import sys
import time

from machine import Pin

try:
    import micropython
except ImportError:  # not MicroPython and no shim: nothing to switch off
    micropython = None

FIRMWARE = "companion-roller"
VERSION = "1.0.0"
PROTOCOL = 1

BUTTON_PIN = 14
SWITCH_PIN = None  # 13 if a d6/d12 switch is fitted
LED_PIN = 15
ONBOARD_LED = "LED"  # mirrors LED_PIN; set to None if your board has none

DEBOUNCE_MS = 20
LONG_PRESS_MS = 700
ACK_TIMEOUT_MS = 300
MAX_RESENDS = 5
BEAT_MS = 1000
LOOP_MS = 5
MAX_PENDING = 8
MAX_LINE = 96
MAX_DICE = 8
SIDES = {"d6": 6, "d12": 12}
DICE = "d6+d12"


def crc16(data):
    """CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF (binascii.crc_hqx(data, 0xFFFF) on the host)."""
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc


def frame(body):
    raw = body.encode()
    return b"$" + raw + ("*%04X\n" % crc16(raw)).encode()


def parse(line):
    """The fields of a valid frame from the host, or None. ``line`` is bytes without the line end."""
    if line[-1:] == b"\r":
        line = line[:-1]
    if len(line) < 6 or len(line) > MAX_LINE or line[:1] != b"$" or line[-5:-4] != b"*":
        return None
    body = line[1:-5]
    try:
        if int(line[-4:].decode(), 16) != crc16(body):
            return None
        return body.decode().split(",")
    except (ValueError, UnicodeError):
        return None


def roll_die(sides):
    """A uniform face 1..sides from the hardware RNG, by rejection sampling (no modulo bias)."""
    limit = 256 - 256 % sides
    while True:
        b = os.urandom(1)[0]
        if b < limit:
            return b % sides + 1


def number(text, lo, hi):
    # ASCII digits checked by hand: CPython's str.isdigit() is also true for "²" or "١" (and int("²") then raises),
    # MicroPython's is not; this way a host's number reads the same in both interpreters, and nothing raises.
    if not text or len(text) > 5 or not all("0" <= c <= "9" for c in text):
        return None
    v = int(text)
    return v if lo <= v <= hi else None


class Led:
    """Non-blocking blink patterns on one or two pins."""

    def __init__(self, pins):
        self.pins = pins
        self.steps = []  # [(level, ms), ...] still to show
        # a tick, not 0: ticks_diff(now, 0) is negative for half of the ticks period (2**30 ms on the RP2040), so a
        # board whose ticks start there would keep its LED dark for up to 6.2 days
        self.until = time.ticks_ms()
        self.armed = False
        self.set(0)

    def set(self, level):
        for p in self.pins:
            p.value(level)

    def blink(self, times, on_ms=80, off_ms=120):
        for _ in range(times):
            self.steps.append((1, on_ms))
            self.steps.append((0, off_ms))

    def update(self, now):
        if time.ticks_diff(now, self.until) < 0:
            return
        if self.steps:
            level, ms = self.steps.pop(0)
            self.set(level)
            self.until = time.ticks_add(now, ms)
        elif self.armed:
            self.steps.append((1, 250))
            self.steps.append((0, 250))
        else:
            self.set(0)
            # kept at now while idle: an `until` left more than half a ticks period (6.2 days) behind reads as the
            # future, and the next blink would wait that long
            self.until = now


class Roller:
    def __init__(self, out):
        self.out = out
        self.button = Pin(BUTTON_PIN, Pin.IN, Pin.PULL_UP)
        self.switch = Pin(SWITCH_PIN, Pin.IN, Pin.PULL_UP) if SWITCH_PIN is not None else None
        pins = [Pin(LED_PIN, Pin.OUT)]
        if ONBOARD_LED is not None:
            try:
                pins.append(Pin(ONBOARD_LED, Pin.OUT))
            except (ValueError, TypeError):
                pass
        self.led = Led(pins)
        self.die = "d6"
        self.seq = 0
        self.pending = []  # [seq, frame, sent_ms, resends, NOACK sent], oldest first
        self.hello_owed = False
        self.armed = None  # (die, count) asked for by REQ
        self.line = b""
        self.discard = False
        self.raw = False
        self.raw_since = 0
        self.pressed = False
        self.press_start = 0
        self.long_done = False
        now = time.ticks_ms()
        self.last_tick = now
        self.last_beat = now
        self.uptime_ms = 0

    # --- link ---------------------------------------------------------------------------------------------------

    def send(self, body):
        self.write(frame(body))

    def write(self, data):
        try:
            self.out.write(data)
        except OSError:
            pass  # no host on the USB port: the frame is lost, a ROLL is resent later

    def send_hello(self):
        self.send("HELLO,%d,%s,%s,%s" % (PROTOCOL, FIRMWARE, VERSION, DICE))

    def feed(self, b):
        if b == 0x24:  # '$' always starts a new frame
            self.line = b"$"
            self.discard = False
        elif b == 0x0A:
            if self.line and not self.discard:
                fields = parse(self.line)
                if fields is not None:
                    self.on_host(fields)
            self.line = b""
            self.discard = False
        elif self.line and not self.discard:
            if len(self.line) > MAX_LINE:
                self.discard = True
                self.line = b""
            else:
                self.line += bytes((b,))

    def on_host(self, fields):
        due = time.ticks_add(time.ticks_ms(), -ACK_TIMEOUT_MS)
        for p in self.pending:  # the host is there again: a fresh round of resends
            if p[3] >= MAX_RESENDS:
                p[3] = 0
                p[4] = False
                # resent at the next tick: the send time of a roll given up on is not kept fresh, and after half a
                # ticks period (6.2 days) ticks_diff would read it as the future and hold the resend that long
                p[2] = due
        kind = fields[0]
        if kind == "HELLO?":
            if self.pending:
                # no ROLL sent before a HELLO may be sent after it: flush them, HELLO once all are acknowledged
                self.hello_owed = True
                now = time.ticks_ms()
                for p in self.pending:
                    p[2] = now
                    self.write(p[1])
            else:
                self.send_hello()
        elif kind == "ACK" and len(fields) >= 2:
            seq = number(fields[1], 0, 65535)
            self.pending = [p for p in self.pending if p[0] != seq]
            if self.hello_owed and not self.pending:
                self.hello_owed = False
                self.send_hello()
        elif kind == "REQ" and len(fields) >= 3:
            count = number(fields[2], 1, MAX_DICE)
            if fields[1] in SIDES and count is not None:
                self.armed = (fields[1], count)
                self.led.armed = True
            else:
                self.send("ERR,BADREQ,this roller rolls 1 to %d of %s" % (MAX_DICE, DICE))
        # anything else (a newer host's messages) is ignored

    # --- rolling ------------------------------------------------------------------------------------------------

    def selected_die(self):
        if self.switch is not None:
            return "d12" if self.switch.value() == 0 else "d6"
        return self.die

    def roll(self, die, count):
        """Roll and send; False if refused (MAX_PENDING rolls unacknowledged)."""
        if len(self.pending) >= MAX_PENDING:
            self.led.blink(3, 40, 60)  # refused: the host has not acknowledged earlier rolls
            return False
        values = [roll_die(SIDES[die]) for _ in range(count)]
        body = "ROLL,%d,%s,%s" % (self.seq, die, ",".join(str(v) for v in values))
        line = frame(body)
        self.pending.append([self.seq, line, time.ticks_ms(), 0, False])
        self.seq = (self.seq + 1) % 65536
        self.write(line)
        self.led.blink(1)
        return True

    def on_press(self):
        if self.armed is None:
            self.roll(self.selected_die(), 1)
        elif self.roll(*self.armed):  # a refused press leaves the request armed for the next one
            self.armed = None
            self.led.armed = False

    def scan_button(self, now):
        raw = self.button.value() == 0
        if raw != self.raw:
            self.raw = raw
            self.raw_since = now
        elif raw != self.pressed and time.ticks_diff(now, self.raw_since) >= DEBOUNCE_MS:
            self.pressed = raw
            if raw:
                self.press_start = now
                self.long_done = False
            elif not self.long_done:
                self.on_press()
        if (self.pressed and not self.long_done and self.switch is None
                and time.ticks_diff(now, self.press_start) >= LONG_PRESS_MS):
            self.long_done = True
            self.die = "d12" if self.die == "d6" else "d6"
            self.led.blink(2 if self.die == "d12" else 1, 200, 200)

    # --- timing -------------------------------------------------------------------------------------------------

    def tick(self, now):
        self.uptime_ms += time.ticks_diff(now, self.last_tick)
        self.last_tick = now
        for p in self.pending:
            if time.ticks_diff(now, p[2]) < ACK_TIMEOUT_MS:
                continue
            if p[3] < MAX_RESENDS:
                p[2] = now
                p[3] += 1
                self.write(p[1])
            elif not p[4]:  # out of resends: say so once; the host's next frame starts a fresh round
                p[4] = True
                self.send("ERR,NOACK,%d unacknowledged" % p[0])
        if time.ticks_diff(now, self.last_beat) >= BEAT_MS:
            self.last_beat = now
            self.send("BEAT,%d" % (self.uptime_ms // 1000))
        self.scan_button(now)
        self.led.update(now)


def boot():
    """Take over the USB serial and say HELLO: (roller, link_in, poller), or None in safe mode (button held)."""
    if Pin(BUTTON_PIN, Pin.IN, Pin.PULL_UP).value() == 0:
        return None  # safe mode: button held at power-up
    if micropython is not None:
        micropython.kbd_intr(-1)  # a stray 0x03 on the link must not stop the roller
    link_in = getattr(sys.stdin, "buffer", sys.stdin)
    link_out = getattr(sys.stdout, "buffer", sys.stdout)
    poller = select.poll()
    poller.register(sys.stdin, select.POLLIN)
    roller = Roller(link_out)
    roller.send_hello()
    return roller, link_in, poller


def step(roller, link_in, poller):
    """One pass of the main loop: read what the host sent (at most 64 bytes), then tick.

    A function of its own (and boot() too) so that a test can step the firmware from outside: MicroPython's
    WebAssembly port runs Python synchronously inside Node's event loop, so an endless loop there never sees a byte.
    """
    for _ in range(64):  # at most 64 bytes per pass keeps the button responsive
        ready = poller.poll(0)
        if not ready or not ready[0][1] & select.POLLIN:
            break
        data = link_in.read(1)
        if not data:  # (the WebAssembly port's stdin polls ready and reads b"" when it has nothing)
            break
        if isinstance(data, str):
            data = data.encode()
        roller.feed(data[0])
    roller.tick(time.ticks_ms())


def main():
    booted = boot()
    if booted is None:
        return
    while True:
        step(*booted)
        time.sleep_ms(LOOP_MS)


if __name__ == "__main__":
    main()
