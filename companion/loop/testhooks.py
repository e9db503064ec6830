"""Test hooks for a box with no buttons under test (`make pi-boot`, systemd/pi-boot.sh). Off by default.

They are on only when the environment variable ``COMPANION_TEST_HOOKS`` names a folder (a drop-in's
``Environment=``; never set on a table). One thread looks into that folder twice a second and, like every hardware
thread, only puts events on the queue:

* a file ``keys``: its lines (``up``, ``down``, ``ok``, ``back``, ``hold``; ``#`` comments) are pressed in order — the
  Settings menu of a box with no panel or buttons, driven from a script;
* a file ``hang``: the main loop stops for good (no frames, no watchdog pings), as a loop stuck in a bug would; the
  unit's ``WatchdogSec=`` must kill and restart the service, which resumes the game from the journal.

Each file is removed once read (a restarted service does not hang again). The folder must be the service's own
(e.g. /var/lib/companion/test-hooks) so it can remove them.
"""
from __future__ import annotations

import logging
import os
import threading
import time
from pathlib import Path
from typing import Callable

from companion.events import Event, Key, KeyEvent, TickEvent

log = logging.getLogger(__name__)

ENV = "COMPANION_TEST_HOOKS"
HANG = "test-hang"  #: the TickEvent reason that stops the loop
POLL_S = 0.5


def hooks_folder(environ: "os._Environ[str] | dict[str, str]" = os.environ) -> Path | None:
    """The folder named by COMPANION_TEST_HOOKS, or None (the default: no hooks)."""
    value = environ.get(ENV, "").strip()
    return Path(value) if value else None


def read_keys(text: str) -> list[KeyEvent]:
    """The presses a ``keys`` file asks for; an unknown word is logged and skipped."""
    out = []
    for raw in text.splitlines():
        word = raw.split("#", 1)[0].strip().lower()
        if not word:
            continue
        try:
            out.append(KeyEvent(Key(word)))
        except ValueError:
            log.warning("test hook: %r is not a key (up, down, ok, back, hold); skipped", word)
    return out


class HookWatcher:
    """The watcher thread: ``poll()`` once per tick; ``start()`` runs it until ``stop()``."""

    def __init__(self, folder: Path, put: Callable[[Event], None]) -> None:
        self.folder, self.put = folder, put
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _take(self, name: str) -> str | None:
        path = self.folder / name
        try:
            text = path.read_text(encoding="utf-8")
            path.unlink()
        except OSError:
            return None
        return text

    def poll(self) -> None:
        keys = self._take("keys")
        if keys is not None:
            for ev in read_keys(keys):
                self.put(ev)
        if self._take("hang") is not None:
            log.warning("test hook: the main loop is told to hang (watchdog test)")
            self.put(TickEvent(HANG))

    def start(self) -> "HookWatcher":
        log.warning("test hooks on (%s=%s): never set this on a table", ENV, self.folder)
        self._thread = threading.Thread(target=self._run, name="test-hooks", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(POLL_S):
            self.poll()

    def stop(self) -> None:
        self._stop.set()


def hang_forever() -> None:
    """What the main loop does on the hang hook: nothing, ever (no frames, no watchdog pings)."""
    while True:
        time.sleep(3600)


__all__ = ["ENV", "HANG", "HookWatcher", "hooks_folder", "read_keys", "hang_forever"]
