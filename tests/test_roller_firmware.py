"""The reference firmware (firmware_docs/roller/main.py), unchanged, against the real host reader.

The firmware runs in a subprocess through tests/fw_shim (machine, micropython and MicroPython's time are shims; its
stdio is a pty symlinked like /dev/companion-roller). A few pure pieces are also checked in-process.
"""
from __future__ import annotations

import binascii
import importlib.util
import sys
import time
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.events import RollerState
from fw_shim.harness import FIRMWARE, HERE, Firmware
from hw.roller.protocol import Ack, HelloQuery, Req, decode_line, encode, frame
from hw.roller.reader import RollerReader
from test_roller_reader import Sink


@pytest.fixture
def firmware(tmp_path: Path) -> Iterator[Firmware]:
    with Firmware(tmp_path / "companion-roller") as fw:
        yield fw


@pytest.fixture
def host(firmware: Firmware) -> Iterator[tuple[RollerReader, Sink]]:
    sink = Sink()
    reader = RollerReader(str(firmware.link), sink.put, name="pico", offline_after=2.0)
    reader.start()
    sink.wait_state(RollerState.CONNECTED)
    yield reader, sink
    reader.stop()
    assert not reader.alive


def test_hello_and_heartbeat(host: tuple[RollerReader, Sink]) -> None:
    reader, sink = host
    sink.wait(lambda: reader.hello is not None)
    assert reader.hello is not None
    assert (reader.hello.version, reader.hello.firmware, reader.hello.dice) == (1, "companion-roller", ("d6", "d12"))
    time.sleep(2.5)  # longer than offline_after: the BEATs keep it connected
    assert sink.states() == [RollerState.CONNECTED]


def test_press_rolls_once_and_blinks(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    reader, sink = host
    blinks = firmware.leds()
    firmware.tap()
    got = sink.wait_rolls(1)
    assert got[0].die == "d6" and len(got[0].values) == 1 and 1 <= got[0].values[0] <= 6
    assert got[0].roller == "pico" and got[0].seq == 0
    time.sleep(0.8)  # well past the resend timeout: the ACK stopped the resends
    assert len(sink.rolls()) == 1 and reader.counters["duplicates"] == 0
    assert firmware.leds() == blinks + 1


def test_corrupted_line_is_resent_and_arrives_once(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    reader, sink = host
    firmware.corrupt_next_roll()
    firmware.tap()
    sink.wait_rolls(1)
    time.sleep(0.8)
    assert len(sink.rolls()) == 1
    assert reader.counters["bad_crc"] == 1


def test_unplug_offline_replug_connected(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    reader, sink = host
    firmware.tap()
    sink.wait_rolls(1)
    n = len(sink.states())
    firmware.unplug()
    sink.wait_state(RollerState.OFFLINE, after=n)
    assert not firmware.link.exists()
    firmware.tap()  # pressed while unplugged: kept until the host acknowledges it
    time.sleep(0.5)
    firmware.replug()
    sink.wait_state(RollerState.CONNECTED, after=n + 1)
    got = sink.wait_rolls(2)
    firmware.tap()
    got = sink.wait_rolls(3)
    time.sleep(0.6)
    assert [e.seq for e in sink.rolls()] == [0, 1, 2]
    assert reader.counters["reconnects"] == 1 and reader.alive


def test_request_arms_and_the_press_rolls_what_was_asked(firmware: Firmware,
                                                         host: tuple[RollerReader, Sink]) -> None:
    reader, sink = host
    assert reader.request("d12", 3)
    time.sleep(0.4)
    assert sink.rolls() == []  # armed, waiting for the press
    firmware.tap()
    got = sink.wait_rolls(1)
    assert got[0].die == "d12" and len(got[0].values) == 3 and all(1 <= v <= 12 for v in got[0].values)
    firmware.tap()  # disarmed: back to one die of the selected type
    assert sink.wait_rolls(2)[1].die == "d6" and len(sink.rolls()[1].values) == 1


def test_long_press_toggles_d6_and_d12(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    _reader, sink = host
    firmware.tap(900)
    time.sleep(0.1)
    firmware.tap()
    assert sink.wait_rolls(1)[0].die == "d12"
    time.sleep(0.1)
    firmware.tap(900)
    time.sleep(0.1)
    firmware.tap()
    assert sink.wait_rolls(2)[1].die == "d6"


# --- in-process: the firmware's pure pieces -----------------------------------------------------------------------


@pytest.fixture
def fw(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The firmware module, imported (not run) with the machine shim; its ``time`` is MicroPython's (the shim)."""
    monkeypatch.syspath_prepend(str(HERE))
    for name in ("machine", "micropython", "utime", "fw_board"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    import machine  # type: ignore[import-not-found]
    import utime  # type: ignore[import-not-found]

    monkeypatch.setitem(sys.modules, "machine", machine)
    spec = importlib.util.spec_from_file_location("roller_firmware", FIRMWARE)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.time = utime  # type: ignore[attr-defined]
    return mod


@given(st.binary(max_size=200))
def test_firmware_crc_matches_the_host(data: bytes) -> None:
    source = FIRMWARE.read_text()
    ns: dict[str, object] = {}
    exec(source[source.index("def crc16"):source.index("def frame")], ns)  # the CRC function alone
    assert ns["crc16"](data) == binascii.crc_hqx(data, 0xFFFF)  # type: ignore[operator]


@pytest.mark.parametrize("sides", [6, 12])
def test_rejection_sampling_has_no_modulo_bias(fw: ModuleType, sides: int) -> None:
    """Feed every byte value once: each face comes up exactly equally often, and 252..255 are thrown away."""
    stream = iter(range(256))

    class Urandom:
        @staticmethod
        def urandom(n: int) -> bytes:
            return bytes([next(stream)])

    fw.os = Urandom  # type: ignore[attr-defined]
    faces: Counter[int] = Counter()
    try:
        while True:
            faces[fw.roll_die(sides)] += 1
    except StopIteration:
        pass
    assert sorted(faces) == list(range(1, sides + 1))
    assert set(faces.values()) == {252 // sides}


class Wire:
    def __init__(self) -> None:
        self.data = b""

    def write(self, b: bytes) -> int:
        self.data += b
        return len(b)


@settings(max_examples=150, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=400))
def test_firmware_survives_any_host_bytes(fw: ModuleType, data: bytes) -> None:
    wire = Wire()
    roller = fw.Roller(wire)
    roller.roll("d6", 1)
    for b in data + encode(HelloQuery()) + b"\n":
        roller.feed(b)
    roller.tick(fw.time.ticks_ms())
    assert len(roller.line) <= fw.MAX_LINE + 1


def test_firmware_protocol_steps(fw: ModuleType) -> None:
    wire = Wire()
    roller = fw.Roller(wire)

    def frames() -> list[Any]:
        out = [decode_line(line) for line in wire.data.split(b"\n") if line]
        wire.data = b""
        return out

    def feed(msg: object) -> None:
        for b in encode(msg):  # type: ignore[arg-type]
            roller.feed(b)

    roller.roll("d12", 2)
    (r,) = frames()
    assert r.seq == 0 and r.die == "d12" and len(r.values) == 2  # type: ignore[attr-defined]
    feed(HelloQuery())  # pending roll: resent first, HELLO owed
    assert [type(m).__name__ for m in frames()] == ["Roll"]
    feed(Ack(0))
    assert [type(m).__name__ for m in frames()] == ["Hello"]
    for b in frame("REQ,d6,9"):  # out of range: the host gets an ERR, nothing is armed
        roller.feed(b)
    (err,) = frames()
    assert err.code == "BADREQ" and roller.armed is None  # type: ignore[attr-defined]
    feed(Req("d6", 4))
    assert roller.armed == ("d6", 4)
    now = fw.time.ticks_ms()
    for _ in range(fw.MAX_PENDING):
        roller.roll("d6", 1)
    roller.roll("d6", 1)  # the ninth unacknowledged roll is refused, not invented later
    assert len(roller.pending) == fw.MAX_PENDING
    assert [type(m).__name__ for m in frames()] == ["Roll"] * fw.MAX_PENDING
    for step in range(1, 8):  # five resends each, then one NOACK each, then quiet
        roller.tick(fw.time.ticks_add(now, step * (fw.ACK_TIMEOUT_MS + 1)))
    kinds = Counter(type(m).__name__ for m in frames())
    assert kinds["Roll"] == fw.MAX_RESENDS * fw.MAX_PENDING
    assert kinds["Err"] == fw.MAX_PENDING


def test_safe_mode_when_the_button_is_held_at_power_up(fw: ModuleType) -> None:
    import fw_board  # type: ignore[import-not-found]

    fw_board.inputs[fw.BUTTON_PIN] = 0
    try:
        assert fw.main() is None  # returns at once instead of taking over the USB serial
    finally:
        fw_board.inputs.pop(fw.BUTTON_PIN, None)
