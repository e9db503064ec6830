"""What keeps the web server standing under hostile load: a fair connection cap, header and idle timeouts, rate limits
and the Host/Origin allow-list. Pure asyncio and stdlib: no game, no aiohttp.

* :class:`ConnectionGuard` wraps the server's protocol factory. At most ``limit`` connections are open; when a new
  one arrives and the server is full, the address holding the most connections gives up its oldest one (unless the
  newcomer's address already holds as many, less one): one greedy client cannot lock new phones out, and an address
  with no connection always gets one, so neither can many clients holding one live stream each. A paired phone's
  connections go last. A connection must send a
  whole request head within :data:`HEADER_S` of connecting or of its last answer (so slow or idle clients are
  dropped); a long answer (the live stream) is not timed out while it is being written.
* :class:`RateLimit` is a token bucket per key (a session, an address).
* :func:`allowed_host` says whether a ``Host`` (or an ``Origin``'s host) names this companion.
"""
from __future__ import annotations

import asyncio
import ipaddress
import time
from typing import Any, Callable, Iterable

HEADER_S = 10.0  #: seconds a connection has to send a whole request head (after connecting or its last answer)
SWEEP_S = 1.0


class _Conn:
    __slots__ = ("transport", "addr", "since", "busy", "paired")

    def __init__(self, transport: Any, addr: str, now: float) -> None:
        self.transport, self.addr, self.since, self.busy = transport, addr, now, 0
        self.paired = False  #: it carried a paired phone's cookie: dropped only when nothing else can be


class _Guarded(asyncio.Protocol):
    """Passes everything to the real protocol; tells the guard when the connection opens and closes."""

    def __init__(self, guard: "ConnectionGuard", inner: Any) -> None:
        self.guard, self.inner = guard, inner
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.inner.connection_made(transport)
        self.guard.opened(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        self.guard.closed(self.transport)
        self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received()  # type: ignore[no-any-return]

    def pause_writing(self) -> None:
        self.inner.pause_writing()

    def resume_writing(self) -> None:
        self.inner.resume_writing()


class ConnectionGuard:
    def __init__(self, factory: Callable[[], Any], limit: int, clock: Callable[[], float] = time.monotonic,
                 header_s: float = HEADER_S) -> None:
        self.factory, self.limit, self.clock, self.header_s = factory, limit, clock, header_s
        self.conns: dict[int, _Conn] = {}
        self.dropped = {"full": 0, "slow": 0}

    def __call__(self) -> asyncio.Protocol:
        return _Guarded(self, self.factory())

    # ------------------------------------------------------------------ open / close
    def opened(self, transport: Any) -> None:
        peer = transport.get_extra_info("peername")
        addr = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if len(self.conns) >= self.limit:
            victim = self._victim(addr)
            self.dropped["full"] += 1
            if victim is None:  # the newcomer's address is as greedy: it waits
                transport.abort()
                return
            self._drop(victim)
        self.conns[id(transport)] = _Conn(transport, addr, self.clock())

    def _victim(self, addr: str) -> _Conn | None:
        """The connection a newcomer from ``addr`` takes the place of: the oldest (idle first) of the address holding
        the most, paired phones' last; None if ``addr`` holds as many (less one) itself."""
        mine = sum(1 for c in self.conns.values() if c.addr == addr)
        pool = [c for c in self.conns.values() if not c.paired] or list(self.conns.values())
        counts: dict[str, int] = {}
        for c in pool:
            counts[c.addr] = counts.get(c.addr, 0) + 1
        most = max(counts.values())
        if most < (mine + 2 if mine else 1):
            return None
        return min((c for c in pool if counts[c.addr] == most), key=lambda c: (c.busy, c.since))

    def closed(self, transport: Any) -> None:
        self.conns.pop(id(transport), None)

    def _drop(self, c: _Conn) -> None:
        self.conns.pop(id(c.transport), None)
        c.transport.abort()

    # ------------------------------------------------------------------ requests (from the server's middleware)
    def started(self, transport: Any) -> None:
        c = self.conns.get(id(transport))
        if c is not None:
            c.busy += 1

    def paired(self, transport: Any) -> None:
        """This connection carries a paired phone's requests."""
        c = self.conns.get(id(transport))
        if c is not None:
            c.paired = True

    def finished(self, transport: Any) -> None:
        c = self.conns.get(id(transport))
        if c is not None:
            c.busy = max(0, c.busy - 1)
            c.since = self.clock()  # from now it has HEADER_S for its next request head

    def sweep(self) -> None:
        """Drop connections that have been idle or slow (no whole request head) for :attr:`header_s`."""
        now = self.clock()
        for c in [c for c in self.conns.values() if not c.busy and now - c.since > self.header_s]:
            self.dropped["slow"] += 1
            self._drop(c)

    async def run(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_S)
            self.sweep()


class RateLimit:
    """A token bucket per key: ``rate`` a second, at most ``burst`` at once."""

    def __init__(self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self._b: dict[str, tuple[float, float]] = {}

    def take(self, key: str) -> bool:
        now = self.clock()
        tokens, at = self._b.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if len(self._b) > 4096:  # keep the table small: full buckets carry no information
            self._b = {k: v for k, v in self._b.items() if v[0] < self.burst}
        if tokens < 1:
            self._b[key] = (tokens, now)
            return False
        self._b[key] = (tokens - 1, now)
        return True


def split_host(value: str) -> str:
    """``name:port`` or ``[v6]:port`` → the host, lower case."""
    v = value.strip().lower()
    if v.startswith("["):
        return v[1:v.find("]")] if "]" in v else v
    return v.rsplit(":", 1)[0] if v.count(":") == 1 else v


def allowed_host(value: str | None, names: Iterable[str]) -> bool:
    """True if ``value`` (a Host header) names this companion: one of ``names``, localhost, or an IP address (a page
    on another site reaches the box by rebinding its own *name*, so a name must be one of ours)."""
    if not value:
        return False
    host = split_host(value)
    if host in {n.lower().rstrip(".") for n in names} or host.rstrip(".") in ("localhost", "localhost.localdomain"):
        return True
    try:  # an address typed as digits: DNS rebinding needs a name, so every address of this box is fine
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return False


__all__ = ["ConnectionGuard", "RateLimit", "allowed_host", "split_host", "HEADER_S"]
