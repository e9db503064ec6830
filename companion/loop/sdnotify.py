"""Tell systemd how the companion is doing: the sd_notify protocol without libsystemd.

systemd passes ``NOTIFY_SOCKET`` (a unix datagram socket: a path, or ``@name`` in the abstract namespace) to a
``Type=notify`` service, and ``WATCHDOG_USEC``/``WATCHDOG_PID`` when ``WatchdogSec=`` is set. A message is a few
``KEY=value`` lines in one datagram. Outside systemd (``companion run`` in a terminal, the simulator, tests) there is
no socket and every method here does nothing.

The main loop uses it like this::

    notifier = Notifier.from_env()
    interval = notifier.watchdog_interval()     # seconds between pings, or None
    ... first frame on the display ...
    notifier.ready("playing")                   # READY=1
    while running:
        event = queue.get(timeout=interval)      # wake at least every interval
        ...
        notifier.ping()                          # WATCHDOG=1
    notifier.stopping()                          # STOPPING=1 on SIGTERM
"""
from __future__ import annotations

import logging
import os
import socket
from typing import Mapping

log = logging.getLogger(__name__)


def _address(raw: str) -> str | None:
    """The socket address for ``NOTIFY_SOCKET``: a filesystem path, or ``@name`` → abstract ``\\0name``."""
    if raw.startswith("@"):
        return "\0" + raw[1:]
    if raw.startswith("/"):
        return raw
    return None  # vsock and relative paths are not for us


def _one_line(text: str) -> str:
    return " ".join(text.split())


class Notifier:
    """Sends sd_notify messages; every method is a no-op when ``address`` is None (not under systemd)."""

    def __init__(self, address: str | None, watchdog_usec: int | None = None) -> None:
        self.address = address
        self._watchdog_usec = watchdog_usec
        self._sock: socket.socket | None = None
        self._warned = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Notifier":
        """A notifier for this process, read from ``NOTIFY_SOCKET``, ``WATCHDOG_USEC`` and ``WATCHDOG_PID``."""
        env = os.environ if environ is None else environ
        raw = env.get("NOTIFY_SOCKET", "")
        address = _address(raw) if raw else None
        if raw and address is None:
            log.warning("ignoring NOTIFY_SOCKET=%r: not a unix socket path or @abstract name", raw)
        return cls(address, _watchdog_usec(env))

    @property
    def enabled(self) -> bool:
        """True when running under systemd with a notify socket."""
        return self.address is not None

    def watchdog_interval(self) -> float | None:
        """Seconds between :meth:`ping` calls (half of ``WatchdogSec``), or None when there is no watchdog."""
        if not self.enabled or self._watchdog_usec is None:
            return None
        return self._watchdog_usec / 2 / 1_000_000

    def ready(self, status: str = "") -> None:
        """``READY=1``: start-up is over (call it once the first frame is on the display)."""
        self._send("READY=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def status(self, text: str) -> None:
        """``STATUS=``: one line shown by ``systemctl status companion``."""
        self._send(f"STATUS={_one_line(text)}")

    def ping(self) -> None:
        """``WATCHDOG=1``: the main loop is alive. Call it at least every :meth:`watchdog_interval` seconds."""
        if self._watchdog_usec is not None:
            self._send("WATCHDOG=1")

    def stopping(self, status: str = "") -> None:
        """``STOPPING=1``: shutting down on purpose (SIGTERM), so systemd does not count it as a hang."""
        self._send("STOPPING=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None

    def __enter__(self) -> "Notifier":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _send(self, *lines: str) -> None:
        if self.address is None:
            return
        payload = "\n".join(lines).encode("utf-8")
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(payload, self.address)
        except OSError as e:
            # Never let a notification take the companion down; systemd's watchdog notices real trouble.
            if not self._warned:
                log.warning("cannot notify systemd at %s: %s", self.address.replace("\0", "@"), e)
                self._warned = True
            self.close()
        else:
            log.debug("sd_notify %s", payload.decode("utf-8").replace("\n", " "))


def _watchdog_usec(env: Mapping[str, str]) -> int | None:
    """``WATCHDOG_USEC`` if it is meant for this process (``WATCHDOG_PID`` unset or our pid), else None."""
    raw = env.get("WATCHDOG_USEC", "")
    if not raw:
        return None
    pid = env.get("WATCHDOG_PID", "")
    if pid:
        try:
            if int(pid) != os.getpid():
                return None
        except ValueError:
            log.warning("ignoring WATCHDOG_PID=%r: not a number", pid)
            return None
    try:
        usec = int(raw)
    except ValueError:
        log.warning("ignoring WATCHDOG_USEC=%r: not a number", raw)
        return None
    return usec if usec > 0 else None


__all__ = ["Notifier"]
