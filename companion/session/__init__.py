"""One game in progress: inputs in, frames and answers out, undo/redo, the dice service and the game clock.

``core`` holds :class:`Session` (a deterministic function of its inputs, so a replay of the journal rebuilds it);
``timekeeper`` and ``clock`` run a game's clock; ``headless`` plays scripts and resumes games without a screen. It may
import the games (``fsm``, ``companion.games``), ``companion.ui`` for drawing and ``companion.journal`` for reading;
never ``companion.loop`` or ``hw``.
"""
