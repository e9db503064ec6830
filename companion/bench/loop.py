"""The loop's measurements: press to frame, cold start and memory, idle CPU (with and without a running game
clock), and the web view's update latency. Child processes run ``python -m companion.bench --child MODE DIR``."""
from __future__ import annotations

import json
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.bench.common import ROOT, NoLeds, bench_app, cpu_seconds, keys, peak_rss_mb


def press_to_frame(n: int = 600) -> dict[str, Any]:
    from companion.events import Key, KeyEvent

    with tempfile.TemporaryDirectory() as d:
        app, display = bench_app(Path(d))
        app.boot()
        app.draw()
        times, sent = [], []
        for k in keys(random.Random(1), n):
            before = display.bytes_sent
            t0 = time.perf_counter()
            app.dispatch(KeyEvent(Key(k)))
            times.append((time.perf_counter() - t0) * 1000)
            sent.append(display.bytes_sent - before)
        app.journal.close()
    times.sort()
    return {"press_to_frame_ms": {"p50": round(times[len(times) // 2], 3), "p99": round(times[int(len(times) * 0.99)], 3)},
            "i2c_bytes_per_update": round(statistics.mean(sent), 1)}


def child(mode: str, tmp: str) -> None:
    """Runs in a fresh process: boot to the first frame (and, for idle, block in the loop)."""
    from contextlib import ExitStack

    app, _display = bench_app(Path(tmp))
    stack = ExitStack()
    if mode == "cold-web":
        from companion.config.load import Config, WebConfig
        from companion.web import start_web

        app.web = start_web(Config(web=WebConfig(port=0)), "sim", app.events.put, stack)
        if app.web is None:
            raise RuntimeError("the web view did not start")
    app.boot()
    app.draw()
    print(json.dumps({"ready": True, "peak_rss_mb": peak_rss_mb()}), flush=True)
    if mode == "idle":
        app.run()


def cold_start(mode: str = "cold") -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            out = subprocess.run([sys.executable, "-m", "companion.bench", "--child", mode, d], cwd=ROOT,
                                 capture_output=True, text=True, timeout=60, check=True)
            runs.append(((time.perf_counter() - t0) * 1000, json.loads(out.stdout.splitlines()[-1])))
        runs.sort(key=lambda r: r[0])
        ms, info = runs[1]
    return {"cold_start_ms": round(ms, 1), "peak_rss_mb": info["peak_rss_mb"]}


def idle_cpu(seconds: float = 10.0) -> float:
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.Popen([sys.executable, "-m", "companion.bench", "--child", "idle", d], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
        try:
            assert p.stdout is not None
            p.stdout.readline()  # ready
            time.sleep(0.5)
            c0 = cpu_seconds(p.pid)
            time.sleep(seconds)
            c1 = cpu_seconds(p.pid)
        finally:
            p.kill()
            p.wait()
    return round((c1 - c0) * 10.0 / seconds, 3)


def clock_idle_cpu(seconds: float = 10.0) -> float:
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.Popen([sys.executable, "-m", "companion.bench", "--child", "clock", d], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
        try:
            if p.stdout is None:
                raise RuntimeError("no pipe from the bench child")
            p.stdout.readline()  # ready
            time.sleep(1.5)  # the game started and the first frames drawn
            c0 = cpu_seconds(p.pid)
            time.sleep(seconds)
            c1 = cpu_seconds(p.pid)
        finally:
            p.kill()
            p.wait()
    return round((c1 - c0) * 10.0 / seconds, 3)


def clock_child(tmp: str) -> None:
    """A Sovereign Chess game with a Fischer clock running for the first mover; block in the loop."""
    from companion.loop.app import App
    from companion.config.load import parse_config
    from companion.events import Key, KeyEvent
    from companion.journal.store import Journal
    from companion.loop.runtime import PiOutput
    from hw.display import OledDisplay
    from hw.fake_i2c import FakeI2CBus

    cfg = parse_config({"journal": {"path": str(Path(tmp) / "journal.sqlite")},
                        "games": {"sovereign-chess": {"clock": "fischer 300+3"}}})
    display = OledDisplay("ssd1306", bus=FakeI2CBus("ssd1306"))
    events: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
    for k in (Key.OK, Key.DOWN, Key.OK):  # start; the first player makes White's first move: the clock runs
        events.put(KeyEvent(k))
    app = App(cfg, Journal(cfg.journal_path()), events, PiOutput(display, NoLeds()), game="sovereign-chess")
    print(json.dumps({"ready": True}), flush=True)
    app.run()
