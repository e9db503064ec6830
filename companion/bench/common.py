"""What the bench's measurements share: the bench TOML game, an App over a fake I2C bus, a press script, and
reading a process's CPU time and peak memory."""
from __future__ import annotations

import os
import queue
import random
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
BENCH_GAME = """
[game]
id = "bench"
name = "Bench"
min_players = 4
max_players = 4
first_player = "seat1"
rounds = 999
[[counters]]
id = "vp"
max = 999
[[counters]]
id = "gold"
max = 999
[[phases]]
name = "Turn"
[[phases]]
name = "Income"
each_player = false
"""


class NoLeds:
    def show(self, active: int | None, waiting: bool, alerts: Any = ()) -> None: ...

    def set_status(self, state: Any) -> None: ...

    def close(self) -> None: ...


def bench_app(tmp: Path) -> Any:
    from companion.loop.app import App
    from companion.config.load import parse_config
    from companion.journal.store import Journal
    from companion.loop.runtime import PiOutput
    from hw.display import OledDisplay
    from hw.fake_i2c import FakeI2CBus

    game = tmp / "bench.toml"
    game.write_text(BENCH_GAME)
    cfg = parse_config({"journal": {"path": str(tmp / "journal.sqlite")}})
    display = OledDisplay("ssd1306", bus=FakeI2CBus("ssd1306"))
    app = App(cfg, Journal(cfg.journal_path()), queue.SimpleQueue(), PiOutput(display, NoLeds()), game=str(game))
    return app, display


def keys(rng: random.Random, n: int) -> list[str]:
    return [rng.choice(["up", "up", "down", "ok", "ok", "ok"]) for _ in range(n)]


def peak_rss_mb() -> float:
    """This process's own peak resident memory in MB: VmHWM, which exec starts afresh. (getrusage's ru_maxrss
    survives exec on Linux: a child started by a big bench process would report the parent's peak as its own.)"""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    import resource

    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def wait_for(pred: Any, timeout: float = 5.0) -> None:
    end = time.perf_counter() + timeout
    while not pred():
        if time.perf_counter() > end:
            raise RuntimeError("the web view sent no event within 5 s")
        time.sleep(0.0002)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
