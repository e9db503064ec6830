"""The host reader against the virtual roller over real ptys: every roll once, faults survived, unplug/replug."""
from __future__ import annotations

import errno
import os
import queue
import threading
import time
import tty
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest
import serial  # type: ignore[import-untyped]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.events import Event, RollerState, RollerStatusEvent, RollEvent
from hw import faults
from hw.roller import ports
from hw.roller import reader as reader_mod
from hw.roller.protocol import Ack, Beat, Hello, Roll, encode, frame
from hw.roller.reader import RollerReader
from hw.roller.virtual import VirtualRoller


class Sink:
    """Collects what the reader puts, thread-safely, and waits for it."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self._cv = threading.Condition()

    def put(self, ev: Event) -> None:
        with self._cv:
            self.events.append(ev)
            self._cv.notify_all()

    def rolls(self) -> list[RollEvent]:
        with self._cv:
            return [e for e in self.events if isinstance(e, RollEvent)]

    def states(self) -> list[RollerState]:
        with self._cv:
            return [e.state for e in self.events if isinstance(e, RollerStatusEvent)]

    def wait(self, pred: Callable[[], bool], timeout: float = 5.0) -> None:
        deadline = time.monotonic() + timeout
        with self._cv:
            while not pred():
                left = deadline - time.monotonic()
                assert left > 0, f"timed out; events so far: {self.events}"
                self._cv.wait(min(left, 0.05))

    def wait_state(self, state: RollerState, after: int = 0, timeout: float = 5.0) -> None:
        self.wait(lambda: state in self.states()[after:], timeout)

    def wait_rolls(self, n: int, timeout: float = 5.0) -> list[RollEvent]:
        self.wait(lambda: len(self.rolls()) >= n, timeout)
        return self.rolls()


class HostClock:
    """A reader's clock: time.monotonic, plus the jumps a test makes (a silence without waiting it out)."""

    def __init__(self) -> None:
        self.skew = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.skew


#: the reconnect pauses a fifth of the product's (0.1 s doubling to 2 s): the same backoff, five times sooner
FAST_BACKOFF: dict[str, Any] = {"backoff_min": 0.02, "backoff_max": 0.4}
#: the reader's read timeout (0.1 s in the product): how long stop(), a REQ or an offline check may wait for a read
QUICK_READS = 0.02


@pytest.fixture
def link(tmp_path: Path) -> Path:
    return tmp_path / "roller"


@pytest.fixture
def roller(link: Path) -> Iterator[VirtualRoller]:
    v = VirtualRoller(link=str(link), seed=7).start()
    yield v
    v.stop()


@pytest.fixture
def sink() -> Sink:
    return Sink()


@contextmanager
def reading(path: str, sink: Sink, **options: Any) -> Iterator[RollerReader]:
    """A reader of ``path`` (offline_after 1.2 s, QUICK_READS, unless ``options`` say), connected; stopped, and
    dead, after."""
    r = RollerReader(path, sink.put, name="table", **{"offline_after": 1.2, "read_timeout": QUICK_READS, **options})
    r.start()
    try:
        sink.wait_state(RollerState.CONNECTED)
        yield r
    finally:
        r.stop()
    assert not r.alive


@pytest.fixture
def reader(roller: VirtualRoller, sink: Sink) -> Iterator[RollerReader]:
    with reading(roller.path, sink) as r:
        yield r


def test_roll_arrives_once_with_the_roller_name(roller: VirtualRoller, reader: RollerReader, sink: Sink) -> None:
    roller.roll("d6", 2)
    roller.roll("d12")
    got = sink.wait_rolls(2)
    made = roller.stats().rolls
    assert [(e.die, e.values, e.seq, e.roller) for e in got] == [(r.die, r.values, r.seq, "table") for r in made]
    sink.wait(lambda: roller.pending == 0)  # both acknowledged
    time.sleep(0.4)  # longer than the resend timeout: nothing else arrives
    assert len(sink.rolls()) == 2
    assert reader.counters["accepted"] == 2 and reader.counters["duplicates"] == 0


def test_bad_crc_is_rejected_then_the_resend_is_accepted(roller: VirtualRoller, reader: RollerReader,
                                                         sink: Sink) -> None:
    roller.corrupt_next()
    roller.roll("d12")
    got = sink.wait_rolls(1)
    sink.wait(lambda: roller.pending == 0)  # the resend ACKed: the reader has read the corrupted line before it
    assert len(sink.rolls()) == 1 and got[0].values == roller.stats().rolls[0].values
    assert reader.counters["bad_crc"] == 1
    assert roller.stats().resends >= 1


def test_duplicate_seq_counts_once(roller: VirtualRoller, reader: RollerReader, sink: Sink) -> None:
    roller.duplicate_next()
    roller.roll("d6")
    sink.wait_rolls(1)
    sink.wait(lambda: reader.counters["duplicates"] == 1)
    sink.wait(lambda: roller.pending == 0)  # (nothing resent after its ACK: test_roll_arrives_once waits that out)
    assert len(sink.rolls()) == 1 and reader.counters["duplicates"] == 1


def test_garbage_is_counted_and_reading_goes_on(roller: VirtualRoller, reader: RollerReader, sink: Sink) -> None:
    for _ in range(5):
        roller.garbage(300)
    roller.roll("d6", 3)
    got = sink.wait_rolls(1)
    assert got[0].values == roller.stats().rolls[0].values
    c = reader.counters
    assert c["framing"] + c["overlong"] + c["bad_crc"] + c["malformed"] + c["unknown_type"] >= 1
    assert reader.alive


def test_silence_goes_offline_then_back(roller: VirtualRoller, sink: Sink) -> None:
    """(offline_after passes by a jump of the reader's clock; test_roller_firmware's heartbeat case waits one out.)"""
    clock = HostClock()
    with reading(roller.path, sink, clock=clock) as reader:
        n = len(sink.states())
        roller.silence()
        roller.roll("d6")  # made while silent: held by the roller, delivered when it talks again
        roller.sync()  # silent from here on
        clock.skew += 1.2  # the reader hears nothing for offline_after
        sink.wait_state(RollerState.OFFLINE, after=n, timeout=4)
        assert sink.rolls() == [] and reader.alive
        roller.silence(False)
        sink.wait_state(RollerState.CONNECTED, after=n + 1, timeout=4)
        assert len(sink.wait_rolls(1)) == 1


def test_unplug_and_replug_on_a_symlinked_pty(roller: VirtualRoller, sink: Sink, link: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    with reading(roller.path, sink, **FAST_BACKOFF) as reader:
        attempts: list[float] = []
        real_resolve = ports.resolve

        def counting(port: str, dev: Path = Path("/dev")) -> str | None:
            attempts.append(time.monotonic())
            return real_resolve(port, dev)

        monkeypatch.setattr(ports, "resolve", counting)
        roller.roll("d6")
        sink.wait_rolls(1)
        n = len(sink.states())
        roller.unplug()
        roller.sync()
        assert not link.exists()
        sink.wait_state(RollerState.OFFLINE, after=n)
        offline = next(e for e in sink.events[n:] if isinstance(e, RollerStatusEvent))
        assert str(link) in offline.detail
        roller.roll("d12", 2)  # rolled while unplugged: kept, sent after the replug
        time.sleep(0.32)
        # backoff (FAST_BACKOFF): 0.02, 0.04, 0.08, 0.16 s ... never a busy loop
        assert 2 <= len(attempts) <= 7, attempts
        assert reader.alive
        hellos = reader.counters["hellos"]
        roller.replug()
        sink.wait_state(RollerState.CONNECTED, after=n + 1, timeout=5)
        got = sink.wait_rolls(2)
        # the roller's HELLO comes once its rolls are ACKed (none sent after it): the reader has read every resend
        sink.wait(lambda: reader.counters["hellos"] > hellos)
        assert len(sink.rolls()) == 2 and got[1].values == roller.stats().rolls[1].values
        assert reader.counters["reconnects"] == 1


def test_lost_acks_across_a_replug_still_count_once(link: Path, sink: Sink) -> None:
    """The host saw the ROLL, its ACKs were lost, the cable was pulled: after the replug the roller resends it
    before its HELLO, the host still remembers the seq, and the roll counts once. (The roller resends three times
    sooner than the protocol's ACK_TIMEOUT, the reader reconnects five times sooner: nothing here depends on how
    long either waits.)"""
    with VirtualRoller(link=str(link), seed=7, ack_timeout=0.1) as roller, \
            reading(roller.path, sink, **FAST_BACKOFF) as reader:
        roller.lose_acks()
        roller.roll("d6")
        sink.wait_rolls(1)
        sink.wait(lambda: reader.counters["duplicates"] >= 2)
        n = len(sink.states())
        roller.unplug()
        sink.wait_state(RollerState.OFFLINE, after=n)
        roller.replug()
        sink.wait_state(RollerState.CONNECTED, after=n + 1)
        roller.lose_acks(False)
        sink.wait(lambda: roller.pending == 0, timeout=6)
        roller.roll("d6")
        sink.wait_rolls(2)
        sink.wait(lambda: roller.pending == 0)  # every resend of it read, and ACKed
        assert [e.seq for e in sink.rolls()] == [0, 1]


def test_request_makes_the_roller_roll(roller: VirtualRoller, reader: RollerReader, sink: Sink) -> None:
    assert reader.request("d12", 3)
    got = sink.wait_rolls(1)
    assert got[0].die == "d12" and len(got[0].values) == 3 and all(1 <= v <= 12 for v in got[0].values)
    with pytest.raises(ValueError):
        reader.request("d20", 1)
    with pytest.raises(ValueError):
        reader.request("d6", 9)


def test_request_while_offline_is_refused(link: Path, sink: Sink) -> None:
    r = RollerReader(str(link), sink.put)
    r.start()
    try:
        sink.wait_state(RollerState.OFFLINE)
        assert r.request("d6", 1) is False
    finally:
        r.stop()


def test_the_port_is_opened_exclusively(roller: VirtualRoller, reader: RollerReader) -> None:
    second = Sink()
    other = RollerReader(roller.path, second.put)
    other.start()
    try:
        second.wait_state(RollerState.ERROR)
        status = next(e for e in second.events if isinstance(e, RollerStatusEvent))
        assert "busy" in status.detail
    finally:
        other.stop()
    reader.stop()
    third = Sink()
    after = RollerReader(roller.path, third.put)  # stop() released the port
    after.start()
    try:
        third.wait_state(RollerState.CONNECTED)
    finally:
        after.stop()


def test_a_missing_port_is_offline_with_the_fault_message(tmp_path: Path, sink: Sink) -> None:
    r = RollerReader(str(tmp_path / "nothing"), sink.put)
    r.start()
    try:
        sink.wait_state(RollerState.OFFLINE)
        assert sink.events[0] == RollerStatusEvent(
            RollerState.OFFLINE, faults.ROLLER_NOT_SEEN.format(where=f"{tmp_path / 'nothing'} does not exist"))
    finally:
        r.stop()


def test_not_a_serial_port_is_an_error_and_the_thread_lives(tmp_path: Path, sink: Sink,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    plain = tmp_path / "file"
    plain.write_text("not a tty")
    attempts: list[str | None] = []
    real_resolve = ports.resolve

    def counting(port: str, dev: Path = Path("/dev")) -> str | None:
        attempts.append(real_resolve(port, dev))
        return attempts[-1]

    monkeypatch.setattr(ports, "resolve", counting)
    r = RollerReader(str(plain), sink.put)
    r.start()
    try:
        sink.wait_state(RollerState.ERROR)
        sink.wait(lambda: len(attempts) >= 2)  # it tried again after the error: a thread that died would not
        assert r.alive
    finally:
        r.stop()


@pytest.mark.parametrize("code,state,needle", [
    (errno.EACCES, RollerState.ERROR, "dialout"),
    (errno.ENOENT, RollerState.OFFLINE, "no dice roller found"),
    (errno.EBUSY, RollerState.ERROR, "busy"),
])
def test_open_errors_map_to_plain_states(code: int, state: RollerState, needle: str, sink: Sink) -> None:
    r = RollerReader("/dev/ttyACM9", sink.put)
    r._open_failed("/dev/ttyACM9", serial.SerialException(code, "could not open port"))
    assert isinstance(sink.events[-1], RollerStatusEvent)
    assert sink.events[-1].state is state and needle in sink.events[-1].detail


def test_in_waiting_oserror_does_not_kill_the_thread(roller: VirtualRoller, sink: Sink,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """pyserial's ReaderThread dies on this; ours reconnects."""
    with reading(roller.path, sink, **FAST_BACKOFF) as reader:
        real = serial.Serial.in_waiting
        failures = [3]

        def flaky(self: serial.Serial) -> int:
            if failures[0] > 0:
                failures[0] -= 1
                raise OSError(errno.EIO, "Input/output error")
            return real.fget(self)  # type: ignore[no-any-return]

        monkeypatch.setattr(serial.Serial, "in_waiting", property(flaky))
        sink.wait(lambda: failures[0] == 0)
        sink.wait(lambda: reader.state is RollerState.CONNECTED)
        roller.roll("d6")
        sink.wait_rolls(1)
        assert reader.alive and reader.counters["reconnects"] >= 1


def test_a_broken_consumer_does_not_kill_the_reader(roller: VirtualRoller) -> None:
    got: list[Event] = []

    def put(ev: Event) -> None:
        got.append(ev)
        if isinstance(ev, RollEvent) and len(got) < 3:
            raise RuntimeError("consumer bug")

    r = RollerReader(roller.path, put)
    r.start()
    try:
        roller.roll("d6")
        roller.roll("d6")
        deadline = time.monotonic() + 5
        while sum(isinstance(e, RollEvent) for e in got) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert r.alive and sum(isinstance(e, RollEvent) for e in got) == 2
    finally:
        r.stop()


def test_auto_finds_the_udev_link(tmp_path: Path, roller: VirtualRoller, sink: Sink) -> None:
    (tmp_path / "dev").mkdir()
    os.symlink(roller.path, tmp_path / "dev" / ports.UDEV_LINK)
    r = RollerReader("auto", sink.put, dev=tmp_path / "dev")
    r.start()
    try:
        sink.wait_state(RollerState.CONNECTED)
        assert r.hello == roller.hello
    finally:
        r.stop()


def test_port_discovery_order(tmp_path: Path) -> None:
    dev = tmp_path / "dev"
    by_id = dev / "serial" / "by-id"
    by_id.mkdir(parents=True)
    target = tmp_path / "ttyACM0"
    target.touch()
    assert ports.find_roller(dev) is None
    assert ports.resolve("auto", dev) is None and ports.resolve("/dev/ttyUSB3", dev) == "/dev/ttyUSB3"
    os.symlink(target, by_id / "usb-Arduino_LLC_Uno_123-if00")
    assert ports.find_roller(dev) is None  # not a roller
    os.symlink(target, by_id / "usb-MicroPython_Board_in_FS_mode_e6614c311b7f1234-if00")
    assert ports.find_roller(dev) == str(by_id / "usb-MicroPython_Board_in_FS_mode_e6614c311b7f1234-if00")
    os.symlink(target, by_id / "usb-Acme_companion_roller_77-if00")
    assert ports.find_roller(dev) == str(by_id / "usb-Acme_companion_roller_77-if00")
    os.symlink(target, dev / "companion-roller")
    assert ports.find_roller(dev) == str(dev / "companion-roller")
    os.symlink(tmp_path / "gone", by_id / "usb-MicroPython_dangling-if00")
    assert str(by_id / "usb-MicroPython_dangling-if00") not in ports.candidates(dev)


def test_an_intact_but_invalid_roll_is_acknowledged_not_accepted() -> None:
    """ACK means "received, stop resending": a ROLL with a good CRC but a d6 showing 7 is counted as out of range,
    acknowledged so the roller does not resend it forever, and never becomes a roll."""
    import select

    master, slave = os.openpty()
    tty.setraw(slave)
    sink = Sink()
    r = RollerReader(os.ttyname(slave), sink.put)
    r.start()
    try:
        got = b""
        deadline = time.monotonic() + 5
        while b"HELLO?" not in got:  # the reader has opened the port (and flushed what was there before)
            assert time.monotonic() < deadline, got
            if select.select([master], [], [], 0.1)[0]:
                got += os.read(master, 1024)
        os.write(master, frame("ROLL,9,d6,7") + encode(Beat(1)))
        while encode(Ack(9)) not in got:
            assert time.monotonic() < deadline, got
            if select.select([master], [], [], 0.1)[0]:
                got += os.read(master, 1024)
        assert r.counters["out_of_range"] == 1 and sink.rolls() == []
    finally:
        r.stop()
        os.close(master)
        os.close(slave)


# --- fuzz through a real pty: no exception escapes, every valid ROLL in the noise is accepted once -----------------

SENTINEL = Roll(65535, "d12", (12, 12, 12, 12, 12, 12, 12, 12))


class PtyHost:
    """One reader on a raw pty for many hypothesis examples; a thread drains what the reader writes."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.sink = Sink()
        self.reader = RollerReader(os.ttyname(self.slave), self.sink.put, offline_after=60)
        self._stop = threading.Event()
        self._opened = threading.Event()
        self._drain = threading.Thread(target=self._drain_loop, daemon=True)

    def _drain_loop(self) -> None:
        import select

        while not self._stop.is_set():
            if select.select([self.master], [], [], 0.05)[0] and b"HELLO?" in os.read(self.master, 4096):
                self._opened.set()

    def start(self) -> "PtyHost":
        self._drain.start()
        self.reader.start()
        assert self._opened.wait(5)  # the reader opened the port (opening flushes what was written before)
        return self

    def stop(self) -> None:
        self.reader.stop()
        self._stop.set()
        self._drain.join()
        os.close(self.master)
        os.close(self.slave)


@pytest.fixture(scope="module")
def pty_host() -> Iterator[PtyHost]:
    host = PtyHost().start()
    yield host
    host.stop()


NASTY = [b"$", b"*", b"\n", b"\r", b",", b"$ROLL,", b"*FFFF\n", b"\x00\xff\x03", b"$" + b"Q" * 200,
         b"$ROLL,1,d6,7*0000\n", encode(Beat(5))]
noise = st.lists(st.one_of(st.binary(max_size=50), st.sampled_from(NASTY)), max_size=3).map(b"".join)
rolls_ = st.builds(lambda seq, die, vals: Roll(seq, die, tuple(min(v, 6 if die == "d6" else 12) for v in vals)),
                   st.integers(0, 65534), st.sampled_from(["d6", "d12"]),
                   st.lists(st.integers(1, 12), min_size=1, max_size=8))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(frames=st.lists(rolls_, max_size=6), gaps=st.lists(noise, min_size=7, max_size=7))
def test_fuzzed_bytes_through_the_reader(pty_host: PtyHost, frames: list[Roll], gaps: list[bytes]) -> None:
    sink, reader = pty_host.sink, pty_host.reader
    before_rolls = len(sink.rolls())
    before_dups = reader.counters["duplicates"]
    data = encode(Hello(1, "fuzz", "0", ("d6", "d12")))  # a new session of seqs
    for gap, frame_ in zip(gaps, frames):
        data += gap + encode(frame_)
    data += gaps[-1] + encode(SENTINEL)
    for i in range(0, len(data), 97):
        os.write(pty_host.master, data[i:i + 97])
    sink.wait(lambda: any(e.seq == 65535 for e in sink.rolls()[before_rolls:]))
    got = [Roll(e.seq or 0, e.die, e.values) for e in sink.rolls()[before_rolls:]]
    first: dict[int, Roll] = {}
    for f in frames:
        first.setdefault(f.seq, f)
    assert got == [*first.values(), SENTINEL]
    assert reader.counters["duplicates"] - before_dups == len(frames) - len(first)
    assert reader.alive
