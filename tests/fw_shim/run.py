"""Run the roller firmware for a test: ``python run.py INTERPRETER FIRMWARE LINK [options]``.

INTERPRETER is ``micropython`` (MicroPython's WebAssembly port under Node.js) or ``cpython`` (this Python, with the
stand-ins in this folder); see :mod:`engines`. Either way the firmware's USB serial is a pty symlinked at LINK,
where the host reader opens it, and the same control lines on stdin drive it, each answered on stdout (``ok CMD``,
or ``leds N``). ``ready`` comes first; ``halted WHY`` comes whenever the firmware stops (an exception, safe mode):

  press | release | tap [MS] [fast] | switch 0|1 (0 = closed = d12)
  unplug | replug | corrupt (the next ROLL goes out with a wrong CRC) | drop_ack (the host's next ACK is lost)
  inject HEX (bytes on the wire to the firmware, e.g. 03) | freeze | thaw (the firmware hangs / goes on)
  stall MS [AFTER] (AFTER ms from now, the firmware's loop stops for MS ms: a starved board; answered at once)
  advance MS (jump the firmware's clock) | leds (LED blinks so far) | quit

``tap MS`` (default 80) is a press the firmware's own steps saw held for MS of its ticks, then a release they saw
for DEBOUNCE_MS (fw_tap.py): answered ``ok tap`` once they have, however long its loop was starved meanwhile.
``tap MS fast`` holds it as long in the firmware's ticks, but its clock jumps over the hold once the press is debounced.

Options: --ticks-start N (default 2**30 - 2000: the ticks wrap 2 s in), --seed N (the rolls' random bytes),
--set NAME=JSON (a firmware constant, e.g. SWITCH_PIN=13), --button-held (held at power-up: safe mode).
"""
from __future__ import annotations

import argparse
import json
import os
import select
import sys
import threading
import time
from typing import Any, TextIO

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from engines import ENGINES  # type: ignore[import-not-found]  # noqa: E402
from link import UsbLink, constants  # type: ignore[import-not-found]  # noqa: E402
from utime import NEAR_WRAP  # type: ignore[import-not-found]  # noqa: E402


def relay(engine: Any, link: UsbLink) -> None:
    """The host's bytes, from the pty, to the firmware (less any ACK the test has the link lose)."""
    while True:
        r, _, _ = select.select([link.fd], [], [], 0.05)
        if r:
            data = link.host_bytes(link.read(512))
            if data:
                engine.feed(data)


def stall(engine: Any, seconds: float) -> None:
    engine.freeze(True)
    time.sleep(seconds)
    engine.freeze(False)


def control(engine: Any, link: UsbLink, consts: dict[str, Any], ctl: TextIO, out: TextIO,
            lock: threading.Lock) -> None:
    button, led, switch = consts.get("BUTTON_PIN", 14), consts.get("LED_PIN", 15), consts.get("SWITCH_PIN") or 13
    debounce = int(consts.get("DEBOUNCE_MS", 20))
    for line in ctl:
        words = line.split()
        if not words:
            continue
        cmd, reply = words[0], f"ok {words[0]}"
        if cmd in ("press", "release"):
            engine.pin(button, 0 if cmd == "press" else 1)
        elif cmd == "tap":
            if not engine.tap(button, int(words[1]) if len(words) > 1 else 80, debounce, words[2:] == ["fast"]):
                reply = "error tap: the firmware stopped stepping (frozen or halted) before the tap was over"
        elif cmd == "stall":
            after = int(words[2]) / 1000 if len(words) > 2 else 0.0
            timer = threading.Timer(after, stall, (engine, int(words[1]) / 1000))
            timer.daemon = True
            timer.start()
        elif cmd == "switch":
            engine.pin(switch, int(words[1]))
        elif cmd == "unplug":
            link.unplug()
        elif cmd == "replug":
            link.plug()
        elif cmd == "corrupt":
            link.corrupt_rolls += 1
        elif cmd == "drop_ack":
            link.drop_acks += 1
        elif cmd == "inject":
            engine.feed(bytes.fromhex(words[1]))
        elif cmd in ("freeze", "thaw"):
            engine.freeze(cmd == "freeze")
        elif cmd == "advance":
            engine.advance(int(words[1]))
        elif cmd == "leds":
            reply = f"leds {engine.leds(led)}"
        elif cmd == "quit":
            break
        else:
            reply = f"error unknown command {cmd}"
        with lock:
            out.write(reply + "\n")
            out.flush()
    link.unplug()
    os._exit(0)


def setting(text: str) -> tuple[str, Any]:
    name, _, value = text.partition("=")
    return name, json.loads(value)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("interpreter", choices=sorted(ENGINES))
    p.add_argument("firmware")
    p.add_argument("link")
    p.add_argument("--ticks-start", type=int, default=NEAR_WRAP)
    p.add_argument("--seed", type=int, default=35)
    p.add_argument("--set", action="append", default=[], type=setting, dest="sets")
    p.add_argument("--button-held", action="store_true")
    args = p.parse_args()
    consts = {**constants(args.firmware), **dict(args.sets)}
    ctl, out = os.fdopen(os.dup(0), "r"), os.fdopen(os.dup(1), "w")  # (the firmware gets sys.stdin and stdout)
    lock = threading.Lock()

    def halted(why: str) -> None:
        with lock:
            out.write(f"halted {why}\n")
            out.flush()

    link = UsbLink(args.link)
    link.plug()
    opts = {"ticks_start": args.ticks_start, "seed": args.seed, "sets": args.sets,
            "pins": [(consts.get("BUTTON_PIN", 14), 0)] if args.button_held else []}
    engine = ENGINES[args.interpreter](args.firmware, link, opts, halted)
    threading.Thread(target=relay, args=(engine, link), daemon=True).start()

    def serve() -> None:  # ready, and taking commands, once the firmware has booted (a press before is safe mode)
        engine.booted.wait()
        with lock:
            out.write("ready\n")
            out.flush()
        control(engine, link, consts, ctl, out, lock)

    threading.Thread(target=serve, daemon=True).start()
    engine.run()


if __name__ == "__main__":
    main()
