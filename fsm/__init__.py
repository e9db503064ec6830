"""Game state machines: one pytransitions machine per game, and the shared turn-order pieces.

Imports nothing from ``hw/``.
"""
from fsm.base import GameMachine, OptionSpec, Player, Setup
from fsm.prompts import InvalidAnswer, Prompt, View

__all__ = ["GameMachine", "OptionSpec", "Player", "Setup", "InvalidAnswer", "Prompt", "View"]
