"""The host side of the roller link: one thread that reads the port, acknowledges rolls and reports its state.

It replaces pyserial's ``ReaderThread``, which has two gaps: an ``OSError`` from ``in_waiting`` when the device
is unplugged kills its thread, and its packetizer buffer grows without bound on a stream with no line ends. Here
every read is guarded, the decoder never buffers more than one line, and the loop goes back to opening the port
(with a growing pause, never a busy loop) whenever the port fails or vanishes — a ``/dev/serial/by-id`` name, a
udev symlink or a pty may disappear and come back. The thread only ever calls ``put(event)``.
"""
from __future__ import annotations

import errno
import fcntl
import logging
import termios
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable

import serial  # type: ignore[import-untyped]

from companion.events import Event, RollerState, RollerStatusEvent, RollEvent
from hw import faults

from hw.roller import ports
from hw.roller.protocol import (MAX_DICE, OFFLINE_AFTER, REJECT_KINDS, ROLLER_TYPES, SIDES, Ack, Beat, Decoder, Err,
                       Hello, HelloQuery, Message, Req, Roll, encode)

log = logging.getLogger(__name__)

#: how many recent seqs are remembered to spot a resent ROLL (a roller holds at most a few unacknowledged)
SEEN_WINDOW = 256
READ_CHUNK = 512
COUNTER_KEYS: tuple[str, ...] = ("accepted", "duplicates", *REJECT_KINDS, "reconnects", "hellos", "roller_errors",
                                 "write_errors")


class _PortGone(Exception):
    """The open port failed; go back to opening it."""


class RollerReader:
    """Reads one roller. ``put`` receives :class:`RollEvent` once per accepted roll and
    :class:`RollerStatusEvent` whenever the state changes. Call :meth:`start`, later :meth:`stop`.

    ``port`` is a path or ``"auto"`` (see :mod:`hw.roller.ports`), resolved again on every reconnect.
    """

    def __init__(self, port: str, put: Callable[[Event], None], *, name: str = "roller",
                 baudrate: int = 115200, offline_after: float = OFFLINE_AFTER, hello_every: float = 1.5,
                 backoff_min: float = 0.1, backoff_max: float = 2.0, read_timeout: float = 0.1,
                 dev: Path = Path("/dev"), clock: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.name = name
        self._put = put
        self._baudrate = baudrate
        self._offline_after = offline_after
        self._hello_every = hello_every
        self._backoff_min = backoff_min
        self._backoff_max = backoff_max
        self._read_timeout = read_timeout
        self._dev = dev
        self._clock = clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._counts: dict[str, int] = {k: 0 for k in COUNTER_KEYS}
        self._decoder = Decoder(ROLLER_TYPES)
        self._seen: deque[int] = deque(maxlen=SEEN_WINDOW)
        self._seen_set: set[int] = set()
        self._outbox: deque[bytes] = deque(maxlen=8)
        self._state: RollerState | None = None
        self._hello: Hello | None = None
        self._opened_once = False
        self.path: str | None = None  #: the port currently open

    # --- public -------------------------------------------------------------------------------------------------

    def start(self) -> None:
        if self._thread is not None:
            raise RuntimeError("RollerReader already started")
        self._thread = threading.Thread(target=self._run, name=f"roller-reader-{self.name}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop reading, close the port and join the thread."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def request(self, die: str, count: int) -> bool:
        """Ask the roller to roll ``count`` dice of ``die`` (REQ). False when no roller is connected."""
        if die not in SIDES:
            raise ValueError(f"die must be one of {sorted(SIDES)}, not {die!r}")
        if not 1 <= count <= MAX_DICE:
            raise ValueError(f"count must be 1..{MAX_DICE}, not {count}")
        if self._state is not RollerState.CONNECTED:
            return False
        self._outbox.append(encode(Req(die, count)))
        return True

    @property
    def state(self) -> RollerState | None:
        return self._state

    @property
    def hello(self) -> Hello | None:
        """The roller's last HELLO (firmware name, version, dice), if any."""
        return self._hello

    @property
    def counters(self) -> dict[str, int]:
        """A snapshot: accepted, duplicates, each rejected kind, reconnects, hellos, roller_errors, write_errors."""
        with self._lock:
            counts = dict(self._counts)
            counts.update(self._decoder.rejected)
        return counts

    summary = counters

    # --- the thread ---------------------------------------------------------------------------------------------

    def _count(self, key: str, n: int = 1) -> None:
        with self._lock:
            self._counts[key] += n

    def _emit(self, event: Event) -> None:
        try:
            self._put(event)
        except Exception:  # a broken consumer must not kill the reader
            log.exception("roller %s: put() failed for %r", self.name, event)

    def _status(self, state: RollerState, detail: str) -> None:
        if state is self._state:
            return
        self._state = state
        log.info("roller %s: %s (%s)", self.name, state.value, detail)
        self._emit(RollerStatusEvent(state, detail))

    def _run(self) -> None:
        backoff = self._backoff_min
        while not self._stop.is_set():
            try:
                healthy = self._attempt()
            except Exception as e:  # never let the thread die
                log.exception("roller %s: unexpected error", self.name)
                self._status(RollerState.ERROR, f"roller reader error: {e}")
                healthy = False
            if healthy:
                backoff = self._backoff_min
            if self._stop.wait(backoff):
                break
            if not healthy:
                backoff = min(self._backoff_max, backoff * 2)
        self.path = None

    def _attempt(self) -> bool:
        """Open the port and read it until it fails. True if the roller talked to us."""
        path = ports.resolve(self.port, self._dev)
        if path is None:
            self._status(RollerState.OFFLINE, faults.ROLLER_NOT_SEEN.format(where=ports.describe(self.port)))
            return False
        try:
            ser = self._open(path)
        except serial.SerialException as e:
            self._open_failed(path, e)
            return False
        if self._opened_once:
            self._count("reconnects")
        self._opened_once = True
        self.path = path
        try:
            return self._session(ser, path)
        finally:
            self._close(ser)
            self.path = None
            self._outbox.clear()
            self._decoder.reset()
            if not self._stop.is_set():
                self._status(RollerState.OFFLINE, f"roller lost on {path}")

    def _open(self, path: str) -> serial.Serial:
        ser = serial.Serial(path, self._baudrate, timeout=self._read_timeout, write_timeout=0.5, exclusive=True)
        try:
            fcntl.ioctl(ser.fileno(), termios.TIOCEXCL)  # refuse other openers too, not only flock users
        except OSError as e:  # pragma: no cover - every tty supports it
            log.debug("TIOCEXCL on %s: %s", path, e)
        return ser

    def _close(self, ser: serial.Serial) -> None:
        try:
            fcntl.ioctl(ser.fileno(), termios.TIOCNXCL)
        except Exception:
            pass
        try:
            ser.close()
        except Exception:
            log.debug("closing %s failed", ser.port, exc_info=True)

    def _open_failed(self, path: str, e: serial.SerialException) -> None:
        code = e.errno if isinstance(e.errno, int) else None
        text = str(e)
        if code in (errno.ENOENT, errno.ENODEV, errno.ENXIO, errno.EIO):
            self._status(RollerState.OFFLINE, faults.ROLLER_NOT_SEEN.format(where=ports.describe(path)))
        elif code in (errno.EACCES, errno.EPERM):
            self._status(RollerState.ERROR, faults.ROLLER_PERMISSION.format(port=path))
        elif code == errno.EBUSY or "lock" in text.lower():
            self._status(RollerState.ERROR, f"{path} is busy: another program has the roller open")
        else:
            self._status(RollerState.ERROR, f"cannot open {path}: {text}")

    def _write(self, ser: serial.Serial, data: bytes) -> None:
        try:
            ser.write(data)
        except serial.SerialTimeoutException:
            self._count("write_errors")
            log.warning("roller %s: write timed out", self.name)
        except (serial.SerialException, OSError) as e:
            raise _PortGone(str(e)) from e

    def _session(self, ser: serial.Serial, path: str) -> bool:
        talked = False
        opened = last_hello = self._clock()
        last_frame: float | None = None
        self._write_safe(ser, HelloQuery())
        while not self._stop.is_set():
            try:
                while self._outbox:
                    self._write(ser, self._outbox.popleft())
                try:
                    waiting = ser.in_waiting
                    data = ser.read(min(max(waiting, 1), READ_CHUNK))
                except (serial.SerialException, OSError) as e:
                    raise _PortGone(str(e)) from e
                now = self._clock()
                if data:
                    with self._lock:
                        messages = self._decoder.feed(data)
                    for msg in messages:
                        talked = True
                        last_frame = now
                        self._handle(ser, msg, path)
                    while self._decoder.unacceptable:  # received intact but invalid: stop its resends
                        self._write(ser, encode(Ack(self._decoder.unacceptable.popleft())))
                silent = now - (opened if last_frame is None else last_frame)
                if silent >= self._offline_after:
                    self._status(RollerState.OFFLINE, f"no heartbeat from the roller on {path}")
                if silent >= self._hello_every and now - last_hello >= self._hello_every:
                    self._write(ser, encode(HelloQuery()))
                    last_hello = now
            except _PortGone as e:
                log.info("roller %s: port %s failed: %s", self.name, path, e)
                return talked
        return talked

    def _write_safe(self, ser: serial.Serial, msg: Message) -> None:
        try:
            self._write(ser, encode(msg))
        except _PortGone:
            pass  # the read that follows notices

    def _handle(self, ser: serial.Serial, msg: Message, path: str) -> None:
        if isinstance(msg, Roll):
            if msg.seq in self._seen_set:
                self._count("duplicates")
            else:
                if len(self._seen) == self._seen.maxlen:
                    self._seen_set.discard(self._seen[0])
                self._seen.append(msg.seq)
                self._seen_set.add(msg.seq)
                self._count("accepted")
                self._emit(RollEvent(msg.die, msg.values, roller=self.name, seq=msg.seq))
            self._write(ser, encode(Ack(msg.seq)))
        elif isinstance(msg, Hello):
            self._seen.clear()
            self._seen_set.clear()
            self._hello = msg
            self._count("hellos")
            if msg.version != 1:
                log.info("roller %s speaks protocol %d; using version 1", self.name, msg.version)
        elif isinstance(msg, Err):
            self._count("roller_errors")
            log.warning("roller %s reports ERR %s: %s", self.name, msg.code, msg.text)
            if msg.code == "NOACK":  # it gave up resending: any frame from us starts a fresh round
                self._write(ser, encode(HelloQuery()))
        elif isinstance(msg, Beat):
            pass
        self._status(RollerState.CONNECTED, self._connected_detail(path))

    def _connected_detail(self, path: str) -> str:
        if self._hello is None:
            return path
        return f"{self._hello.firmware} {self._hello.firmware_version} on {path}"


def describe_counts(counts: dict[str, Any]) -> str:
    """One plain line for the counters."""
    return ", ".join(f"{k} {counts.get(k, 0)}" for k in COUNTER_KEYS)
