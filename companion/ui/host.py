"""What the home menus need from the program that shows them: the seam between ``companion.ui`` and the loop.

The home menu and the settings menu call back into the running app (start a game, resume one, open Pair a phone,
apply a changed config). They are given the app as a :class:`MenuHost` rather than importing ``companion.loop``, so
the UI package sits below the loop and imports nothing back up (``tests/test_layering.py`` holds it so).
``companion.loop.app.App`` is one; a test's stand-in needs only these names.
"""
from __future__ import annotations

from typing import Any, Protocol


class MenuHost(Protocol):
    cfg: Any  #: the running ``companion.config.load.Config``
    journal: Any  #: the ``companion.journal.store.Journal``: ``games()``, ``game(id)``, ``physical_rolls()``, ``path``
    roller_state: Any  #: a ``companion.events.RollerState``
    roller_detail: str
    web: Any  #: the web view's hub (``address``), or None when it is off

    def start_new(self, game: str) -> None: ...

    def resume(self, record: Any) -> None: ...

    def open_pairing(self) -> None: ...

    def apply_config(self, cfg: Any) -> None: ...


__all__ = ["MenuHost"]
