"""Society: the game master's desk tool for the forum civilisation game."""
from fsm.society.machine import SocietyGame

__all__ = ["SocietyGame"]
