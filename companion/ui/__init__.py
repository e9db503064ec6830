"""Screens and widgets drawn on the OLED's 128×64 1-bit frame: the widgets, one screen per prompt type (``screens``
picks it; ``board_screens`` adds a board on the left half), the home and settings menus, the new-game wizard, the
idle and glance views, and the drawing primitives (``draw``, ``fonts/``).

May import ``fsm.prompts`` (what a screen asks), ``companion.events``, ``companion.errors``, ``companion.config`` and,
lazily, ``companion.games`` (the New game list). Never ``companion.loop``: the menus call back into the running app
through :class:`companion.ui.host.MenuHost`, so the UI sits below the loop and the session
(``tests/test_layering.py``).
"""
from companion.ui.draw import HEIGHT, WIDTH, new_frame

__all__ = ["WIDTH", "HEIGHT", "new_frame"]
