"""Presses per order on the device: the kit's scripted eight-turn game entered with the buttons (the Driver presses
the shortest way from each prompt's cursor to the answer), counting only the presses spent entering orders.

    .venv/bin/python tests/society_presses.py      # prints: orders, presses, presses per order
"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from society_kit import TURNS, Driver  # noqa: E402


def measure() -> tuple[int, int]:
    d = Driver(seed=1)
    d.setup()
    orders = presses = 0
    for turn in TURNS:
        for od in turn:
            before = len(d.keys)
            d.order(od)
            presses += len(d.keys) - before
            orders += 1
        d.give("process")
        d.give(True)
        d.give(True)
    return orders, presses


if __name__ == "__main__":
    n, p = measure()
    print(f"{n} orders, {p} presses, {p / n:.1f} presses per order")
