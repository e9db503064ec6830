"""`make bench`: the companion's speed and footprint, as one JSON object on stdout.

* press_to_frame_ms — a key press through the loop until the frame is on the bus: the game update, drawing,
  the driver's page encoding, the durable journal commit — with luma.oled's real ssd1306 class over a fake I2C bus.
* i2c_bytes_per_update — bytes on that bus per press (the stock driver sends 1024 of pixel data every time).
* cold_start_ms, peak_rss_mb — a fresh process from exec to its first frame, and its peak resident memory.
* idle_cpu_s_per_10s — CPU a running companion uses in 10 s with nothing happening (the loop blocks; never polls).
* replay_10k_ms — resuming a game from a 10,000-entry journal (a simple TOML game).
* replay_10k_sovereign_ms — the same for a real game: a long Sovereign game (10,000 presses and rolls), best of 3;
  sovereign_bench_round is the round it reached. replay_10k_cpu_ms and replay_10k_sovereign_cpu_ms are the CPU
  time of the same replays (the wall clock counts other processes' turns on a shared machine; the CPU time not).
* chess_presses_per_move — Sovereign Chess: the mean button presses to enter a uniformly chosen legal move (UP/DOWN
  to it on each step, OK on each step), over positions from random playouts that capture and defect;
  chess_presses_per_played_move the same for the moves played; chess_presses_by_type by move type
  (:mod:`companion.bench.chess_presses`).
* clock_idle_cpu_s_per_10s — CPU in 10 s of a Sovereign Chess game waiting for a move with a Fischer clock running
  (the loop wakes once a second to redraw the digits).
* resume_sovereign_20k_ms — opening a journal holding a 20,000-input Sovereign game to its first frame (the
  latest verified snapshot and the tail replayed), next to replay_sovereign_20k_ms, the full replay of the same game.
* resume_chess_clock_20k_ms, replay_chess_clock_20k_ms — the same for a 20,000-input Sovereign Chess game with a
  Fischer clock running (its clock's state lines journaled as the loop writes them); resume_toml_20k_ms,
  replay_toml_20k_ms — for 20,000 presses of the bench's TOML game.
* bytes_written_per_press — bytes the journal writes (SQLite's -wal, its checkpoints into the main file, the head
  witness) per input of a Sovereign game, counted by the kernel (/proc/self/io wchar), close included.
* web_update_ms — with the web view on: from a press journaled to the page's Server-Sent Event written to a
  connected browser (a loopback client), p50 and p99.
* web_update_200_ms — the same with 200 more browsers connected to the live stream (every write to every one of
  them counted), and press_to_frame_200_ms the device's press→frame meanwhile, next to press_to_frame_idle_ms
  measured the same way with no browser (companion/bench/web.py).
* web_server — cold_start_ms and peak_rss_mb as above, with the web view's server started as `companion run` does.
* history_500_ms — the phone's history (every saved game, standings, luck, dice) over 500 saved games of every kind,
  their summaries cached; history_500_cold_ms the same when nothing is cached yet (companion/bench/history.py).
"""
from __future__ import annotations

import json
import sys
from typing import Any, Callable

from companion.bench.chess_presses import chess_presses
from companion.bench.common import peak_rss_mb
from companion.bench.history import history_500
from companion.bench.journal_io import bytes_written_per_press
from companion.bench.loop import child, clock_child, clock_idle_cpu, cold_start, idle_cpu, press_to_frame
from companion.bench.web import web_update, web_update_loaded
from companion.bench.replay import (replay_10k, replay_10k_sovereign, resume_chess_clock_20k, resume_sovereign_20k,
                                    resume_toml_20k, sovereign_script)


def _chess_perft() -> dict[str, Any]:
    try:
        from companion.rules.sovereign_chess.bench import perft_bench
    except ImportError:
        return {}
    return {"chess": perft_bench()}


#: every measurement, in order: each returns a dict of bench keys. A new key is one function (in the module of
#: its family, or a new one) and one line here.
MEASUREMENTS: list[Callable[[], dict[str, Any]]] = [
    press_to_frame,
    cold_start,
    lambda: {"idle_cpu_s_per_10s": idle_cpu()},
    replay_10k,
    replay_10k_sovereign,
    resume_sovereign_20k,
    resume_chess_clock_20k,
    resume_toml_20k,
    lambda: {"bytes_written_per_press": bytes_written_per_press()},
    chess_presses,
    lambda: {"clock_idle_cpu_s_per_10s": clock_idle_cpu()},
    web_update,
    web_update_loaded,
    lambda: {"web_server": cold_start("cold-web")},
    history_500,
    _chess_perft,
]


USAGE = "usage: python -m companion.bench (no arguments: every measurement, several minutes; `make bench`)"


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        if argv[1] == "clock":
            clock_child(argv[2])
        else:
            child(argv[1], argv[2])
        return 0
    if argv[:1] in (["-h"], ["--help"]):  # never the long run for a question
        print(f"{USAGE}\n\n{__doc__}")
        return 0
    if argv:
        print(f"companion.bench: unknown argument {argv[0]!r}; {USAGE}", file=sys.stderr)
        return 2
    out: dict[str, Any] = {}
    for measure in MEASUREMENTS:
        out.update(measure())
    print(json.dumps(out))
    return 0


__all__ = ["MEASUREMENTS", "main", "peak_rss_mb", "sovereign_script"]

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
