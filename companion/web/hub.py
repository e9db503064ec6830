"""The one meeting point of the main loop and the web server's thread.

The main loop calls :meth:`Hub.publish` after it draws (building a new immutable snapshot if anything changed) and
:meth:`Hub.answered` after it handled a phone's answer. The server reads :attr:`Hub.latest`, subscribes to be woken,
and puts answers on the one event queue with :meth:`Hub.submit`. Nothing here touches a game.
"""
from __future__ import annotations

import logging
import threading
import time
import uuid
from typing import TYPE_CHECKING, Any, Callable

from PIL import Image

from companion.events import AnswerEvent, Event, WebEvent

from companion.web.pairing import Pairing
from companion.web.snapshot import EMPTY, Snapshot, SnapshotBuilder

if TYPE_CHECKING:
    from companion.loop.app import App

log = logging.getLogger(__name__)

Outcome = Callable[[bool, str], None]


class Hub:
    def __init__(self, put: Callable[[Event], None], *, view: str = "open", address: str = "",
                 pairing: Pairing | None = None) -> None:
        self.put = put
        self.view = view  #: "open" or "paired": who may watch
        self.address = address  #: the URL to open, once the server is listening
        self.pairing = pairing or Pairing()
        #: the box has a panel someone can see and press (False: headless, or the display is gone): the phones then
        #: do all of it, and their words say so
        self.panel = True
        self.latest: Snapshot = EMPTY
        self.builder = SnapshotBuilder()
        self._lock = threading.Lock()
        self._listeners: list[Callable[[], None]] = []
        self._waiting: dict[str, Outcome] = {}
        #: when set (by `make bench`), the server appends ms from an input journaled to its event sent
        self.sent_ms: list[float] | None = None
        self._game: object = ()  #: the game the pairings were last told about
        self._failed = False
        #: the saved games' figures, handed over by the loop (companion/stats/provider.py: JSON text in and out; the
        #: server runs them on its executor, never on the loop): the history document, one game's story, renames
        self.history: Callable[[dict[str, Any]], str] | None = None
        self.story: Callable[[int], str] | None = None
        self.player_names: Callable[[dict[str, Any]], str] | None = None

    # ------------------------------------------------------------------ main loop side
    def publish(self, app: "App", frame: Image.Image | None, t_input: float | None = None) -> None:
        """Called by the main loop after each draw. A failure here is logged, never raised: the table plays on."""
        game = app.record.id if app.record is not None and app.session is not None else None
        if game != self._game:  # phones paired in a game end with it
            self._game = game
            self.pairing.game_is(game)
        try:
            snap = self.builder.build(app, frame, t_input)
        except Exception:
            if not self._failed:
                log.exception("the web view could not show this moment of the game; the table plays on")
            self._failed = True
            return
        self._failed = False
        if snap is None:
            return
        self.latest = snap  # one reference assignment: readers see the old snapshot or the new one, whole
        with self._lock:
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    def answered(self, ref: str, ok: bool, message: str) -> None:
        with self._lock:
            done = self._waiting.pop(ref, None)
        if done is not None:
            done(ok, message)

    def wake(self) -> None:
        """Seats or pairings changed (on the main loop): readers look again (their ``me`` changed)."""
        with self._lock:
            listeners = list(self._listeners)
        for wake in listeners:
            wake()

    # ------------------------------------------------------------------ server side
    def tell(self, kind: str) -> None:
        """The loop must look again (a seat request, phones changed): a :class:`WebEvent` on the queue."""
        self.put(WebEvent(kind))

    def press(self, key: str, done: Outcome) -> str:
        """The host phone presses the companion's button ``key``; ``done(ok, message)`` once the loop handled it."""
        ref = self._await(done)
        self.put(WebEvent("key", key, ref))
        return ref

    def _await(self, done: Outcome) -> str:
        ref = uuid.uuid4().hex
        with self._lock:
            self._waiting[ref] = done
        return ref

    def subscribe(self, wake: Callable[[], None]) -> Callable[[], None]:
        """``wake`` is called (on the main loop's thread: make it thread-safe) after each new snapshot."""
        with self._lock:
            self._listeners.append(wake)

        def unsubscribe() -> None:
            with self._lock:
                if wake in self._listeners:
                    self._listeners.remove(wake)
        return unsubscribe

    def submit(self, value: Any, seq: int, source: str, done: Outcome) -> str:
        """Put a phone's answer on the queue; ``done(ok, message)`` is called once the main loop has handled it."""
        ref = self._await(done)
        self.put(AnswerEvent(value, seq, source, ref))
        return ref

    def forget(self, ref: str) -> None:
        with self._lock:
            self._waiting.pop(ref, None)

    def record_sent(self, snap: Snapshot) -> None:
        if self.sent_ms is not None and snap.t_input:
            self.sent_ms.append((time.perf_counter() - snap.t_input) * 1000)


__all__ = ["Hub"]
