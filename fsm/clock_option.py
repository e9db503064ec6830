"""The ``clock`` switch a built-in game offers: none, sudden death, Fischer, Bronstein, simple delay, byo-yomi.

The setting's text and meaning are :mod:`fsm.clock_spec`; the clock itself is a platform piece
(:mod:`companion.session.clock`, run by the session); a game only declares the switch::

    OPTIONS = {"clock": ClockOption()}
"""
from __future__ import annotations

from typing import Any

from fsm.base import OptionSpec
from fsm.clock_spec import ClockSpec, ClockSpecError

#: what the new-game wizard offers (the configured value is offered too)
PRESETS = ("none", "sudden 600", "fischer 300+3", "fischer 900+10", "bronstein 300+3", "delay 300+3",
           "byoyomi 600 5x30")


class ClockOption(OptionSpec):
    """A clock setting as text (``fischer 300+5``), checked when the config is read."""

    def __init__(self, default: str = "none",
                 help: str = "the game clock: " + ClockSpec.SYNTAX) -> None:
        super().__init__(default, help)

    def check(self, game_id: str, name: str, value: Any) -> Any:
        if not isinstance(value, str):
            raise ValueError(f"[games.{game_id}] {name} = {value!r} must be a string: {ClockSpec.SYNTAX}")
        try:
            return ClockSpec.parse(value).text
        except ClockSpecError as e:
            raise ValueError(f"[games.{game_id}] {name}: {e}") from None


def preset_choices(current: str) -> list[tuple[str, str]]:
    """(option text, label) for the wizard, the current setting first."""
    texts = [current] + [p for p in PRESETS if p != current]
    return [(t, ClockSpec.parse(t).label) for t in texts]


__all__ = ["ClockOption", "PRESETS", "preset_choices"]
