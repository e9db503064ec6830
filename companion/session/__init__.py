"""One game in progress: inputs in, frames and answers out, undo/redo, the dice service and the game clock.

``core`` holds :class:`Session` (a deterministic function of its inputs, so a replay of the journal rebuilds it);
``timekeeper`` and ``clock`` run a game's clock; ``headless`` plays scripts and resumes games without a screen. It may
import the games (``fsm``, ``companion.games``), ``companion.ui`` for drawing and ``companion.journal`` for reading;
never ``companion.loop`` or ``hw``.
"""

from companion.session.clock_steps import ClockSteps
from companion.session.game_menu import GameMenu
from companion.session.inputs import EventIn, decode_event, encode_event
from companion.session.output import SessionOutput
from companion.session.remote import RemoteInputs


class Session(ClockSteps, GameMenu, RemoteInputs, SessionOutput):
    """One game in progress (see :mod:`companion.session.core`): its core, clock, game menu and output."""


__all__ = ["Session", "EventIn", "encode_event", "decode_event"]
