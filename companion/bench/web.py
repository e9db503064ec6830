"""The web view's figures for `make bench` (loopback only, bounded in count and time).

* ``web_update_ms`` — a press journaled → its Server-Sent Event written to one connected browser, p50 and p99.
* ``web_update_200_ms`` — the same with 200 more browsers reading the live stream: every write to every one of them
  is counted (p50, p99 over all writes), so the slowest reader is in it.
* ``press_to_frame_200_ms`` — the device's press → frame meanwhile (the loop builds the snapshot and wakes the
  server, which shares the CPU), next to ``press_to_frame_idle_ms`` measured the same way with no browser: the
  promise is at most twice the idle figure (``press_to_frame_200_ratio``).
"""
from __future__ import annotations

import random
import selectors
import socket
import tempfile
import threading
import time
from pathlib import Path
from typing import Any, Callable

CLIENTS = 200


def _wait(pred: Callable[[], bool], timeout: float = 5.0) -> None:
    end = time.perf_counter() + timeout
    while not pred():
        if time.perf_counter() > end:
            raise RuntimeError(f"the web view sent no event within {timeout} s")
        time.sleep(0.0002)


def _pct(times: list[float]) -> dict[str, Any]:
    times = sorted(times)
    return {"p50": round(times[len(times) // 2], 3), "p99": round(times[int(len(times) * 0.99)], 3),
            "events": len(times)}


class _Readers:
    """``n`` browsers on the live stream, read by one thread (a selector), so 200 of them cost no 200 threads."""

    def __init__(self, port: int, n: int) -> None:
        self.sel = selectors.DefaultSelector()
        self.socks: list[socket.socket] = []
        for _ in range(n):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            s.setblocking(False)
            self.sel.register(s, selectors.EVENT_READ)
            self.socks.append(s)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._drain, daemon=True)
        self._thread.start()

    def _drain(self) -> None:
        while not self._stop.is_set():
            for key, _ in self.sel.select(0.1):
                try:
                    key.fileobj.recv(65536)  # type: ignore[union-attr]
                except OSError:
                    pass

    def close(self) -> None:
        self._stop.set()
        self._thread.join(5)
        for s in self.socks:
            self.sel.unregister(s)
            s.close()
        self.sel.close()


def _run(n: int, clients: int) -> tuple[list[float], list[float]]:
    """(press→event-written ms for every write, press→frame ms) over ``n`` presses with ``clients`` extra readers."""
    from companion.bench.common import bench_app as _app
    from companion.bench.common import keys as _keys
    from companion.events import Key, KeyEvent
    from companion.web.hub import Hub
    from companion.web.server import WebServer

    with tempfile.TemporaryDirectory() as d:
        app, _display = _app(Path(d))
        hub = Hub(app.events.put)
        server = WebServer(hub, "127.0.0.1", 0, max_connections=CLIENTS + 56)
        port = server.start()
        hub.address = f"http://127.0.0.1:{port}/"
        app.web = hub
        hub.sent_ms = []
        app.boot()
        app.draw()
        readers = _Readers(port, clients + 1)
        frames: list[float] = []
        try:
            _wait(lambda: len(hub.sent_ms or []) >= clients + 1, 20.0)
            hub.sent_ms.clear()
            for k in _keys(random.Random(3), n):
                before, sent = hub.latest.version, len(hub.sent_ms)
                t0 = time.perf_counter()
                app.dispatch(KeyEvent(Key(k)))
                frames.append((time.perf_counter() - t0) * 1000)
                if hub.latest.version != before:
                    _wait(lambda: len(hub.sent_ms or []) >= sent + clients + 1)
            times = list(hub.sent_ms)
        finally:
            readers.close()
            server.stop()
            app.journal.close()
    return times, frames


def web_update(n: int = 300) -> dict[str, Any]:
    """Press → journal → snapshot → SSE event written to one connected browser."""
    times, _frames = _run(n, 0)
    return {"web_update_ms": _pct(times)}


def web_update_loaded(n: int = 200, clients: int = CLIENTS) -> dict[str, Any]:
    """``web_update_200_ms`` and the device's press→frame with 200 browsers connected, next to it with none."""
    _t, idle = _run(n, 0)
    times, loaded = _run(n, clients)
    idle_p = _pct(idle)
    loaded_p = _pct(loaded)
    return {"web_update_200_ms": _pct(times), "press_to_frame_idle_ms": idle_p, "press_to_frame_200_ms": loaded_p,
            "press_to_frame_200_ratio": round(loaded_p["p50"] / idle_p["p50"], 2) if idle_p["p50"] else None}


__all__ = ["web_update", "web_update_loaded"]
