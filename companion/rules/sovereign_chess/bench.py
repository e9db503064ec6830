"""Perft speed for ``make bench``: nodes per second of perft(3) (and perft(4), by wall and by CPU time) from the
start position."""
from __future__ import annotations

import statistics
import time

from companion.rules.sovereign_chess.fen import START, parse_position
from companion.rules.sovereign_chess.perft import perft


def perft_bench(repeats: int = 7) -> dict[str, float]:
    """Median of ``repeats`` timed perft(3) runs (after one warm-up) and one perft(4) run, from the start."""
    pos = parse_position(START)
    perft(pos, 3)
    times = []
    nodes3 = 0
    for _ in range(repeats):
        t0 = time.perf_counter()
        nodes3 = perft(pos, 3)
        times.append(time.perf_counter() - t0)
    t3 = statistics.median(times)
    t0, c0 = time.perf_counter(), time.process_time()
    nodes4 = perft(pos, 4)
    t4, c4 = time.perf_counter() - t0, time.process_time() - c0
    return {
        "perft3_nodes": nodes3,
        "perft3_seconds": t3,
        "perft3_nodes_per_s": nodes3 / t3,
        "perft4_nodes": nodes4,
        "perft4_seconds": t4,
        "perft4_nodes_per_s": nodes4 / t4,
        "perft4_cpu_seconds": c4,  #: CPU time: it reproduces on a loaded machine, the wall time does not
        "perft4_cpu_nodes_per_s": nodes4 / c4 if c4 > 0 else 0.0,
    }


if __name__ == "__main__":  # pragma: no cover - manual use: python -m companion.rules.sovereign_chess.bench
    for key, value in perft_bench().items():
        print(f"{key:22} {value:,.3f}")
