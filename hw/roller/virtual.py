"""A virtual roller on a pseudo-terminal: the fake beside the real roller.

It speaks protocol version 1 exactly like the reference firmware (HELLO at boot and on ``HELLO?``, a BEAT every
second, each ROLL resent every 300 ms until acknowledged, at most 5 times per contact; REQ rolls at once) and has
switches to inject the faults a real link suffers: garbage bytes, a bad CRC, a duplicated ROLL, lost ACKs,
silence, and unplugging (the pty and its symlink vanish, later come back). The host opens
:attr:`VirtualRoller.path` as if it were ``/dev/ttyACM0``. All state lives on the roller's own thread; the public methods only queue commands.
"""
from __future__ import annotations

import logging
import os
import queue
import random
import select
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from hw.roller.protocol import (ACK_TIMEOUT, BEAT_INTERVAL, HOST_TYPES, MAX_DICE, MAX_RESENDS, PROTOCOL_VERSION, SIDES,
                       Ack, Beat, Decoder, Err, Hello, HelloQuery, Message, Req, Roll, encode)

log = logging.getLogger(__name__)


@dataclass
class _Pending:
    roll: Roll
    last_sent: float
    resends: int = 0
    noack_sent: bool = False


@dataclass
class VirtualStats:
    """What the virtual roller did (read it after :meth:`VirtualRoller.stop`, or via :meth:`VirtualRoller.stats`)."""

    rolls: list[Roll] = field(default_factory=list)  #: every roll made, in order
    acked: set[int] = field(default_factory=set)
    transmissions: int = 0  #: ROLL lines written, resends included
    resends: int = 0
    dropped_writes: int = 0
    host_frames: int = 0
    bad_host_lines: int = 0


class VirtualRoller:
    """A roller on a pty. ``link``: a symlink to create for the pty (it moves with unplug/replug)."""

    def __init__(self, link: str | None = None, *, firmware: str = "virtual-roller", version: str = "1.0",
                 dice: tuple[str, ...] = ("d6", "d12"), seed: int | None = None,
                 beat_interval: float = BEAT_INTERVAL, ack_timeout: float = ACK_TIMEOUT,
                 max_resends: int = MAX_RESENDS, max_pending: int = 16) -> None:
        self.link = Path(link) if link else None
        self.hello = Hello(PROTOCOL_VERSION, firmware, version, dice)
        self._rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
        self._beat_interval = beat_interval
        self._ack_timeout = ack_timeout
        self._max_resends = max_resends
        self._max_pending = max_pending
        self._commands: queue.Queue[Callable[[], None]] = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._slave_path: str | None = None
        self._decoder = Decoder(HOST_TYPES)
        self._pending: dict[int, _Pending] = {}
        self._seq = 0
        self._hello_owed = False
        self._silent = False
        self._corrupt_next = False
        self._duplicate_next = False
        self._ignore_acks = False
        self._started_at = 0.0
        self._last_beat = 0.0
        self._lock = threading.Lock()
        self._stats = VirtualStats()

    # --- lifecycle ----------------------------------------------------------------------------------------------

    def start(self) -> "VirtualRoller":
        if self._thread is not None:
            raise RuntimeError("VirtualRoller already started")
        self._plug()
        self._started_at = self._last_beat = time.monotonic()
        self._send(encode(self.hello))
        self._thread = threading.Thread(target=self._run, name="virtual-roller", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5.0)
        self._unplug()

    def __enter__(self) -> "VirtualRoller":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def path(self) -> str:
        """What the host opens: the symlink, or the pty's slave path."""
        if self.link is not None:
            return str(self.link)
        if self._slave_path is None:
            raise RuntimeError("the virtual roller is not started (or unplugged)")
        return self._slave_path

    @property
    def plugged(self) -> bool:
        return self._master is not None

    def stats(self) -> VirtualStats:
        """A copy of the counters."""
        with self._lock:
            s = self._stats
            return VirtualStats(list(s.rolls), set(s.acked), s.transmissions, s.resends, s.dropped_writes,
                                s.host_frames, s.bad_host_lines)

    @property
    def pending(self) -> int:
        """ROLLs sent but not yet acknowledged."""
        return len(self._pending)

    # --- commands (any thread) ----------------------------------------------------------------------------------

    def roll(self, die: str, count: int = 1) -> None:
        """Roll ``count`` dice of ``die`` as if its button were pressed."""
        if die not in SIDES or die not in self.hello.dice:
            raise ValueError(f"this roller rolls {'/'.join(self.hello.dice)}, not {die!r}")
        if not 1 <= count <= MAX_DICE:
            raise ValueError(f"count must be 1..{MAX_DICE}, not {count}")
        self._commands.put(lambda: self._do_roll(die, count))

    def garbage(self, n: int = 40) -> None:
        """Write ``n`` random bytes (line noise) onto the link."""
        def noise() -> None:
            self._send(bytes(self._rng.randrange(256) for _ in range(n)))

        self._commands.put(noise)

    def corrupt_next(self) -> None:
        """The next ROLL goes out once with a wrong CRC (the host rejects it; the resend gets through)."""
        self._commands.put(lambda: setattr(self, "_corrupt_next", True))

    def duplicate_next(self) -> None:
        """The next ROLL is written twice at once (the host must count it once)."""
        self._commands.put(lambda: setattr(self, "_duplicate_next", True))

    def lose_acks(self, on: bool = True) -> None:
        """Ignore (or again honour) the host's ACKs, as if they were lost on the way: ROLLs are resent."""
        self._commands.put(lambda: setattr(self, "_ignore_acks", on))

    def silence(self, on: bool = True) -> None:
        """Stop (or resume) sending and answering anything, like a hung roller. Rolls made meanwhile wait."""
        self._commands.put(lambda: setattr(self, "_silent", on))

    def unplug(self) -> None:
        """The cable is pulled: the pty (and the symlink) vanish. Unacknowledged rolls are kept."""
        self._commands.put(self._unplug)

    def replug(self) -> None:
        """The cable goes back in: a new pty appears (at the same symlink)."""
        self._commands.put(self._replug)

    def sync(self, timeout: float = 2.0) -> None:
        """Wait until every command queued so far has run."""
        done = threading.Event()
        self._commands.put(done.set)
        if not done.wait(timeout):
            raise TimeoutError("virtual roller did not run its commands")

    # --- the pty ------------------------------------------------------------------------------------------------

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: bytes pass through as they are
        os.set_blocking(master, False)
        self._master, self._slave = master, slave  # keeping the slave open: the host may come and go
        self._slave_path = os.ttyname(slave)
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".new")
            tmp.unlink(missing_ok=True)
            os.symlink(self._slave_path, tmp)
            os.replace(tmp, self.link)
        log.info("virtual roller on %s", self.link or self._slave_path)

    def _unplug(self) -> None:
        if self.link is not None:
            try:
                if self.link.is_symlink() and os.readlink(self.link) == self._slave_path:
                    self.link.unlink()
            except OSError:
                pass
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        self._slave_path = None
        self._decoder.reset()

    def _replug(self) -> None:
        if self._master is None:
            self._plug()

    def _send(self, data: bytes) -> bool:
        if self._master is None or self._silent:
            return False
        try:
            os.write(self._master, data)
            return True
        except OSError:  # buffer full (nobody reading) or the pty is gone: a real USB link drops it too
            with self._lock:
                self._stats.dropped_writes += 1
            return False

    # --- the roller's behaviour (roller thread only) ------------------------------------------------------------

    def _do_roll(self, die: str, count: int) -> None:
        if len(self._pending) >= self._max_pending:
            log.warning("virtual roller: %d rolls unacknowledged; refusing to roll", len(self._pending))
            return
        values = tuple(self._rng.randint(1, SIDES[die]) for _ in range(count))
        roll = Roll(self._seq, die, values)
        self._seq = (self._seq + 1) % 65536
        with self._lock:
            self._stats.rolls.append(roll)
        self._pending[roll.seq] = _Pending(roll, time.monotonic())
        line = encode(roll)
        if self._corrupt_next:
            self._corrupt_next = False
            bad = line[:-2] + (b"0" if line[-2:-1] != b"0" else b"1") + b"\n"
            self._transmit(bad)
        else:
            self._transmit(line)
        if self._duplicate_next:
            self._duplicate_next = False
            self._transmit(line)

    def _transmit(self, line: bytes, resend: bool = False) -> None:
        if self._send(line):
            with self._lock:
                self._stats.transmissions += 1
                self._stats.resends += resend

    def _on_message(self, msg: Message) -> None:
        with self._lock:
            self._stats.host_frames += 1
        for p in self._pending.values():  # the host is back: a fresh round of resends
            if p.resends >= self._max_resends:
                p.resends = 0
                p.noack_sent = False
        if isinstance(msg, Ack):
            if self._ignore_acks:
                return
            if self._pending.pop(msg.seq, None) is not None:
                with self._lock:
                    self._stats.acked.add(msg.seq)
            if self._hello_owed and not self._pending:
                self._hello_owed = False
                self._send(encode(self.hello))
        elif isinstance(msg, HelloQuery):
            if self._pending:  # no ROLL sent before a HELLO may be sent after it: flush them first
                self._hello_owed = True
                now = time.monotonic()
                for p in self._pending.values():
                    p.last_sent = now
                    self._transmit(encode(p.roll), resend=True)
            else:
                self._send(encode(self.hello))
        elif isinstance(msg, Req):
            if msg.die in self.hello.dice:
                self._do_roll(msg.die, msg.count)
            else:
                self._send(encode(Err("BADREQ", f"no {msg.die} on this roller")))

    def _tick(self, now: float) -> None:
        for p in list(self._pending.values()):
            if now - p.last_sent < self._ack_timeout or self._silent or self._master is None:
                continue
            if p.resends < self._max_resends:
                p.resends += 1
                p.last_sent = now
                self._transmit(encode(p.roll), resend=True)
            elif not p.noack_sent:  # out of resends: tell the host, whose next frame starts a fresh round
                p.noack_sent = True
                self._send(encode(Err("NOACK", f"{p.roll.seq} unacknowledged")))
        if now - self._last_beat >= self._beat_interval:
            self._last_beat = now
            self._send(encode(Beat(int(now - self._started_at))))

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                while True:
                    self._commands.get_nowait()()
            except queue.Empty:
                pass
            except Exception:
                log.exception("virtual roller command failed")
            fd = self._master
            if fd is None:
                time.sleep(0.02)
            else:
                ready, _, _ = select.select([fd], [], [], 0.02)
                if ready:
                    try:
                        data = os.read(fd, 512)
                    except OSError:
                        data = b""
                    if not self._silent:
                        before = sum(self._decoder.rejected.values())
                        for msg in self._decoder.feed(data):
                            self._on_message(msg)
                        with self._lock:
                            self._stats.bad_host_lines += sum(self._decoder.rejected.values()) - before
            self._tick(time.monotonic())
