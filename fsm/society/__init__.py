"""Society: the game master's desk tool for the forum civilisation game."""
from .machine import SocietyGame

__all__ = ["SocietyGame"]
