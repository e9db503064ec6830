"""A host stand-in for MicroPython's ``machine`` module: just enough Pin for the roller firmware."""
from __future__ import annotations

import os

import fw_board as board  # type: ignore[import-not-found]  # top level: run.py puts this folder on sys.path


class Pin:
    IN = 0
    OUT = 1
    OPEN_DRAIN = 2
    PULL_UP = 1
    PULL_DOWN = 2
    IRQ_FALLING = 4
    IRQ_RISING = 8

    def __init__(self, id: object, mode: int = IN, pull: int | None = None, value: int | None = None) -> None:
        self.id = id
        self.mode = mode
        self.pull = pull
        if mode == Pin.OUT:
            self.value(0 if value is None else value)

    def value(self, v: int | None = None) -> int | None:
        with board.lock:
            if v is None:
                if self.mode == Pin.OUT:
                    return board.outputs.get(self.id, 0)
                return board.inputs.get(self.id, 1 if self.pull == Pin.PULL_UP else 0)
            level = 1 if v else 0
            if level and not board.outputs.get(self.id, 0):
                board.rising_edges[self.id] = board.rising_edges.get(self.id, 0) + 1
            board.outputs[self.id] = level
        return None

    def on(self) -> None:
        self.value(1)

    def off(self) -> None:
        self.value(0)

    def toggle(self) -> None:
        self.value(0 if self.value() else 1)

    def __call__(self, v: int | None = None) -> int | None:
        return self.value(v)


def unique_id() -> bytes:
    return b"\xe6\x61\x4c\x31\x1b\x7f\x12\x34"


def freq() -> int:
    return 125_000_000


def reset() -> None:
    os._exit(0)
