"""The roller's firmware (firmware_docs/roller/main.py), live, against the host's real reader (hw/roller).

Every case runs twice, with the same steps and the same expectations: in MicroPython's own interpreter (1.27, its
WebAssembly port under Node.js — the interpreter the Pico runs) and in CPython with tests/fw_shim's stand-ins. The
firmware's USB serial is a pty symlinked as /dev/companion-roller would be; the ticks start 2 s before they wrap
(2**30 ms, as on the RP2040), so every case also crosses the wrap. In-process cases: test_roller_firmware_script.py.
"""
from __future__ import annotations

import binascii
import time
from pathlib import Path
from typing import Callable, Iterator

import pytest
import serial  # type: ignore[import-untyped]

from companion.events import RollerState, RollEvent
from fw_shim.harness import INTERPRETERS, Firmware
from hw.roller.reader import RollerReader
from test_roller_reader import QUICK_READS, HostClock, Sink

WRAP = 1 << 30


@pytest.fixture(params=INTERPRETERS)
def interpreter(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def firmware(tmp_path: Path, interpreter: str) -> Iterator[Firmware]:
    with Firmware(tmp_path / "companion-roller", interpreter) as fw:
        yield fw
    assert fw.halts == []  # the firmware never stopped


def open_host(fw: Firmware, clock: Callable[[], float] = time.monotonic,
              offline_after: float = 2.0) -> tuple[RollerReader, Sink]:
    sink = Sink()
    reader = RollerReader(str(fw.link), sink.put, name="pico", offline_after=offline_after, clock=clock,
                          read_timeout=QUICK_READS)
    reader.start()
    sink.wait_state(RollerState.CONNECTED)
    return reader, sink


@pytest.fixture
def host(firmware: Firmware) -> Iterator[tuple[RollerReader, Sink]]:
    reader, sink = open_host(firmware)
    yield reader, sink
    reader.stop()
    assert not reader.alive


def settle(firmware: Firmware, sink: Sink) -> list[RollEvent]:
    """Past every resend timeout at once, then one more press; the rolls once its roll is in.

    The firmware's clock jumps 2 s (well past ACK_TIMEOUT_MS): a roll still unacknowledged goes out again at its next
    step. The press's roll is written after that step, so once the host has it, it has read anything resent.
    """
    n = len(sink.rolls())
    firmware.command("advance 2000")
    firmware.tap()
    return sink.wait_rolls(n + 1)


def test_hello_and_heartbeat(tmp_path: Path, interpreter: str) -> None:
    """The BEATs, by the firmware's real ticks, keep the host connected past its real offline_after. Both are set
    shorter, with 0.75 s to spare (1 s before): BEAT_MS 250 (1000 in the firmware, a value
    test_no_timer_goes_stale_over_half_a_ticks_period pins) and offline_after 1 s (2 s in the other cases)."""
    with Firmware(tmp_path / "companion-roller", interpreter, "--set", "BEAT_MS=250") as fw:
        reader, sink = open_host(fw, offline_after=1.0)
        try:
            sink.wait(lambda: reader.hello is not None)
            assert reader.hello is not None
            hello = (reader.hello.version, reader.hello.firmware, reader.hello.dice)
            assert hello == (1, "companion-roller", ("d6", "d12"))
            time.sleep(1.3)  # longer than offline_after: the BEATs keep it connected
            assert sink.states() == [RollerState.CONNECTED]
        finally:
            reader.stop()
        assert not reader.alive
    assert fw.halts == []  # the firmware never stopped


def test_press_rolls_once_and_blinks(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    reader, sink = host
    blinks = firmware.leds()
    firmware.tap()
    got = sink.wait_rolls(1)
    assert got[0].die == "d6" and len(got[0].values) == 1 and 1 <= got[0].values[0] <= 6
    assert got[0].roller == "pico" and got[0].seq == 0
    time.sleep(0.3)  # a blink is 80 ms on and 120 off: a second one would have begun
    assert firmware.leds() == blinks + 1
    assert [e.seq for e in settle(firmware, sink)] == [0, 1]  # past the resend timeout: the ACK stopped the resends
    assert reader.counters["duplicates"] == 0


def test_corrupted_line_is_resent_and_arrives_once(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    reader, sink = host
    firmware.corrupt_next_roll()
    firmware.tap()
    sink.wait_rolls(1)
    assert [e.seq for e in settle(firmware, sink)] == [0, 1]
    assert reader.counters["bad_crc"] == 1


def test_a_lost_ack_is_resent_and_counted_once(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    reader, sink = host
    firmware.command("drop_ack")
    firmware.tap()
    sink.wait_rolls(1)
    sink.wait(lambda: reader.counters["duplicates"] == 1)  # the resend came, and was acknowledged again
    assert [e.seq for e in settle(firmware, sink)] == [0, 1]
    assert reader.counters["duplicates"] == 1


def test_a_tap_is_not_lost_when_the_firmware_is_starved(firmware: Firmware,
                                                        host: tuple[RollerReader, Sink]) -> None:
    """A loaded machine starves the firmware's loop: a tap is held for its 80 ms of the firmware's own ticks, so it
    still rolls (held for 80 ms of the test's clock, the press was over before the firmware read it twice, 20 ms
    apart, and was lost)."""
    _reader, sink = host
    firmware.command("stall 150")  # starved from before the press to well after the 80 ms
    firmware.tap()
    assert sink.wait_rolls(1)[0].die == "d6"  # a short press: no long press toggled the die instead
    firmware.command("stall 150 10")  # starved 10 ms into the press, before it was debounced
    firmware.tap()
    assert [(e.seq, e.die) for e in sink.wait_rolls(2)] == [(0, "d6"), (1, "d6")]


def test_unplug_offline_replug_connected(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    reader, sink = host
    firmware.tap()
    sink.wait_rolls(1)
    n = len(sink.states())
    firmware.unplug()
    sink.wait_state(RollerState.OFFLINE, after=n)
    assert not firmware.link.exists()
    firmware.tap()  # pressed while unplugged: kept until the host acknowledges it
    firmware.command("advance 500")  # and resent into the void meanwhile
    firmware.replug()
    sink.wait_state(RollerState.CONNECTED, after=n + 1)
    sink.wait_rolls(2)
    firmware.tap()
    sink.wait_rolls(3)
    assert [e.seq for e in settle(firmware, sink)] == [0, 1, 2, 3]
    assert reader.counters["reconnects"] == 1 and reader.alive


def test_silence_goes_offline_and_the_next_beat_connects(firmware: Firmware) -> None:
    """(The host's offline_after and the firmware's BEAT_MS pass by their clocks' jumps; test_hello_and_heartbeat
    waits them out.)"""
    clock = HostClock()
    reader, sink = open_host(firmware, clock)
    try:
        n = len(sink.states())
        firmware.command("freeze")  # the firmware hangs: no BEAT
        clock.skew += 2.0  # the host hears nothing for offline_after
        sink.wait_state(RollerState.OFFLINE, after=n)
        firmware.command("advance 1000")  # and a BEAT is due
        firmware.command("thaw")
        sink.wait_state(RollerState.CONNECTED, after=n + 1)
    finally:
        reader.stop()
    assert not reader.alive


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
    firmware.tap(900, fast=True)  # (900 ms of the firmware's ticks, jumped over once it has debounced the press)
    firmware.tap()  # (a tap is over once the firmware has debounced its release: the next one may begin)
    assert sink.wait_rolls(1)[0].die == "d12"
    firmware.tap(900, fast=True)
    firmware.tap()
    assert sink.wait_rolls(2)[1].die == "d6"


def test_a_stray_ctrl_c_does_not_stop_the_roller(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    """0x03 is the REPL's interrupt: the firmware switches it off (rp2's USB driver would raise KeyboardInterrupt)."""
    _reader, sink = host
    firmware.command("inject 03")  # read at the firmware's next step, before the press is (it takes a few)
    firmware.tap()
    assert sink.wait_rolls(1)[0].die == "d6"
    assert firmware.halts == []


def test_a_number_in_other_digits_is_ignored(firmware: Firmware, host: tuple[RollerReader, Sink]) -> None:
    """'²' and '١' pass CPython's str.isdigit() (and int('²') raises): a frame with one, its CRC good, does
    nothing."""
    _reader, sink = host
    for body in ("ACK,²".encode(), "REQ,d12,١".encode()):
        firmware.command("inject " + (b"$" + body + b"*%04X\n" % binascii.crc_hqx(body, 0xFFFF)).hex())
    firmware.tap()  # (the frames are read at the firmware's next steps, before the press)
    got = sink.wait_rolls(1)
    assert got[0].die == "d6" and len(got[0].values) == 1 and firmware.halts == []


def test_the_switch_picks_the_die(tmp_path: Path, interpreter: str) -> None:
    with Firmware(tmp_path / "companion-roller", interpreter, "--set", "SWITCH_PIN=13") as fw:
        reader, sink = open_host(fw)
        try:
            fw.command("switch 0")  # closed: d12 (the firmware reads the switch when the press rolls)
            fw.tap()
            assert sink.wait_rolls(1)[0].die == "d12"
            fw.command("switch 1")
            fw.tap(900, fast=True)  # with a switch fitted a long press toggles nothing
            assert sink.wait_rolls(2)[1].die == "d6"
        finally:
            reader.stop()
        assert fw.halts == []


@pytest.mark.parametrize("before", [150, 1000])
def test_timeouts_hold_across_the_ticks_wrap(tmp_path: Path, interpreter: str, before: int) -> None:
    """The ticks wrap during a press's debounce and blink (150 ms in), or during its ACK timeout and resend."""
    with Firmware(tmp_path / "companion-roller", interpreter, "--ticks-start", str(WRAP - before)) as fw:
        reader, sink = open_host(fw)
        try:
            fw.command(f"advance {max(0, before - 500)}")  # (the wrap 500 ms ahead, or less)
            blinks = fw.leds()
            fw.command("drop_ack")
            fw.tap()
            sink.wait_rolls(1)
            sink.wait(lambda: reader.counters["duplicates"] == 1)  # resent once after ACK_TIMEOUT_MS, no sooner
            assert fw.leds() == blinks + 1  # (the blink was over before the resend)
            assert [e.seq for e in settle(fw, sink)] == [0, 1]
            assert sink.states() == [RollerState.CONNECTED]  # BEATs went on
        finally:
            reader.stop()
        assert fw.halts == []


def test_safe_mode_when_the_button_is_held_at_power_up(tmp_path: Path, interpreter: str) -> None:
    with Firmware(tmp_path / "companion-roller", interpreter, "--button-held") as fw:
        deadline = time.monotonic() + 5
        while not fw.halts and time.monotonic() < deadline:
            time.sleep(0.05)
        assert fw.halts == ["halted safe mode"]  # main() returned at once: the REPL is left to mpremote
        with serial.Serial(str(fw.link), timeout=0.5) as port:
            assert port.read(64) == b""  # and nothing was said on the link
