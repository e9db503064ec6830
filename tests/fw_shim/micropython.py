"""A host stand-in for MicroPython's ``micropython`` module."""
from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")
kbd_intr_char: int = 3


def const(x: T) -> T:
    return x


def kbd_intr(ch: int) -> None:
    global kbd_intr_char
    kbd_intr_char = ch
