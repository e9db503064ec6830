"""The loop's small parts: what it draws on (:class:`Output`) and asks rolls of (:class:`Roller`), how long a toast
stays, retrying a failing display, its counters, the farewell frame and the signals that end it."""
from __future__ import annotations

import os
import queue
import signal
import threading
from dataclasses import dataclass
from typing import Any, Protocol

from PIL import Image

from companion.events import Event, QuitEvent, RollerState, TickEvent
from companion.ui.draw import new_frame, text_row, title_bar

TOAST_SECONDS = 2.5  #: the shortest time a toast stays; longer ones stay long enough to read


def toast_seconds(text: str) -> float:
    """Long enough to read: 2.5 s, plus about a third of a second per word past the fifth."""
    return TOAST_SECONDS + 0.35 * max(0, len(text.split()) - 5)


class Output(Protocol):
    """Where frames and LED states go: the OLED and GPIO LEDs, or the terminal simulator."""

    def present(self, frame: Image.Image, active: int | None, waiting: bool,
                alerts: tuple[int, ...] = ()) -> None: ...

    def set_roller(self, state: RollerState, detail: str) -> None: ...

    def close(self, farewell: Image.Image | None = None) -> None: ...


class Roller(Protocol):
    def request(self, die: str, count: int) -> None: ...


class DrawRetry:
    """While the display fails, a deadline to draw again (1 s, doubling to 10 s): no press needed, no blocking."""

    FIRST, LONGEST = 1.0, 10.0

    def __init__(self) -> None:
        self.at: float | None = None  #: when to try again; None while drawing works
        self._delay = self.FIRST

    def failed(self, now: float) -> None:
        if self.at is not None and now < self.at:
            return  # a draw for a press or a phone failed before the retry: the retry stays where it was
        self.at = now + self._delay
        self._delay = min(self._delay * 2, self.LONGEST)

    def worked(self) -> None:
        self.at, self._delay = None, self.FIRST

    def due(self, now: float) -> bool:
        return self.at is not None and now >= self.at


@dataclass
class LoopStats:
    inputs: int = 0
    frames: int = 0


def farewell_frame() -> Image.Image:
    img, d = new_frame()
    title_bar(d, "Sovereign Companion")
    text_row(d, 20, "Game saved.")
    text_row(d, 32, "Safe to unplug.")
    return img


def install_signal_handlers(events: "queue.SimpleQueue[Event]") -> None:
    """SIGTERM and SIGINT become a QuitEvent on the queue (SimpleQueue.put is safe in a signal handler).

    Python runs a handler in the main thread only, when that thread next runs; the kernel may hand the signal to
    another thread (the web server's), and then the main thread, asleep in ``events.get()`` with nothing due, would
    never wake to run it: the box would not stop until systemd killed it. CPython also writes the signal's number to
    the wakeup fd from whichever thread took it, so a small thread reading that fd puts a tick on the queue: the main
    thread wakes, runs the handler, and reads its QuitEvent next."""
    def handler(signum: int, _frame: Any) -> None:
        events.put(QuitEvent(signal.Signals(signum).name))
    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    read, write = os.pipe()
    os.set_blocking(write, False)
    signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    threading.Thread(target=_wake_on_signal, args=(read, events), name="signal-wake", daemon=True).start()


def _wake_on_signal(fd: int, events: "queue.SimpleQueue[Event]") -> None:
    try:
        while os.read(fd, 64):
            events.put(TickEvent("signal"))
    except OSError:
        pass
