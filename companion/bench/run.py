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
* web_update_ms — with the web view on: from a press journaled to the page's Server-Sent Event written to a
  connected browser (a loopback client), p50 and p99.
* web_update_200_ms — the same with 200 more browsers connected to the live stream (every write to every one of
  them counted), and press_to_frame_200_ms the device's press→frame meanwhile, next to press_to_frame_idle_ms
  measured the same way with no browser (companion/bench/web.py).
* web_server — cold_start_ms and peak_rss_mb as above, with the web view's server started as `companion run` does.
"""
from __future__ import annotations

import json
import os
import queue
import random
import statistics
import subprocess
import sys
import tempfile
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


def _app(tmp: Path) -> Any:
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

    class NoLeds:
        def show(self, active: int | None, waiting: bool, alerts: Any = ()) -> None: ...

        def set_status(self, state: Any) -> None: ...

        def close(self) -> None: ...

    app = App(cfg, Journal(cfg.journal_path()), queue.SimpleQueue(), PiOutput(display, NoLeds()), game=str(game))
    return app, display


def _keys(rng: random.Random, n: int) -> list[str]:
    return [rng.choice(["up", "up", "down", "ok", "ok", "ok"]) for _ in range(n)]


def press_to_frame(n: int = 600) -> dict[str, Any]:
    from companion.events import Key, KeyEvent

    with tempfile.TemporaryDirectory() as d:
        app, display = _app(Path(d))
        app.boot()
        app.draw()
        times, sent = [], []
        for k in _keys(random.Random(1), n):
            before = display.bytes_sent
            t0 = time.perf_counter()
            app.dispatch(KeyEvent(Key(k)))
            times.append((time.perf_counter() - t0) * 1000)
            sent.append(display.bytes_sent - before)
        app.journal.close()
    times.sort()
    return {"press_to_frame_ms": {"p50": round(times[len(times) // 2], 3), "p99": round(times[int(len(times) * 0.99)], 3)},
            "i2c_bytes_per_update": round(statistics.mean(sent), 1)}


def replay_10k() -> dict[str, float]:
    from companion.config.load import parse_config
    from companion.events import Key, KeyEvent
    from companion.session.headless import new_record, open_session
    from companion.journal.store import Journal
    from companion.session import Session, encode_event

    with tempfile.TemporaryDirectory() as d:
        game = Path(d) / "bench.toml"
        game.write_text(BENCH_GAME)
        cfg = parse_config({})
        journal = Journal(Path(d) / "j.sqlite")
        rec = new_record(journal, str(game), cfg, 1)
        s: Session = open_session(journal, rec, cfg)
        rows = []
        for k in _keys(random.Random(2), 10_000):
            s.handle(KeyEvent(Key(k)))
            rows.append((time.time(), encode_event(KeyEvent(Key(k)))))
        journal.append_inputs(rec.id, rows)  # hashed like every commit
        state = s.state_json()
        t0, c0 = time.perf_counter(), time.process_time()
        resumed = open_session(journal, rec, cfg)
        resumed.render()
        ms, cpu = (time.perf_counter() - t0) * 1000, (time.process_time() - c0) * 1000
        if resumed.state_json() != state:
            raise RuntimeError("replay of the 10,000-entry journal did not reach the same state")
        journal.close()
    return {"replay_10k_ms": round(ms, 1), "replay_10k_cpu_ms": round(cpu, 1)}


def sovereign_script(n: int, seed: int = 3) -> list[Any]:
    """A long Sovereign game as the table plays it: presses (mostly OK, some moves, a few BACKs) and roller
    rolls whenever dice are asked for; deterministic for a seed."""
    from companion.config.load import parse_config
    from companion.events import Key, KeyEvent, RollEvent
    from companion.session.headless import new_record, open_session
    from companion.journal.store import Journal
    from fsm.prompts import Dice

    cfg = parse_config({})
    journal = Journal(":memory:")
    s = open_session(journal, new_record(journal, "sovereign", cfg, 1), cfg)
    rng = random.Random(seed)
    events: list[Any] = []
    keys = ["ok"] * 10 + ["down"] * 4 + ["up"] * 3 + ["back"]
    for _ in range(n):
        p = s.prompt()
        if isinstance(p, Dice) and not s.overlays and rng.random() < 0.8:
            sides = 6 if p.die == "d6" else 12
            ev: Any = RollEvent(p.die, tuple(rng.randint(1, sides) for _ in range(p.count)), roller="roller")
        else:
            ev = KeyEvent(Key(rng.choice(keys)))
        s.handle(ev)
        events.append(ev)
    journal.close()
    return events


def replay_10k_sovereign() -> dict[str, Any]:
    """Resuming a real game (Sovereign, 10,000 inputs of :func:`sovereign_script`) from its journal: best of 3."""
    from companion.config.load import parse_config
    from companion.session.headless import new_record, open_session
    from companion.journal.store import Journal
    from companion.session import Session, encode_event

    events = sovereign_script(10_000)
    with tempfile.TemporaryDirectory() as d:
        cfg = parse_config({})
        journal = Journal(Path(d) / "j.sqlite")
        rec = new_record(journal, "sovereign", cfg, 1)
        s: Session = open_session(journal, rec, cfg)
        rows = []
        for ev in events:
            s.handle(ev)
            rows.append((time.time(), encode_event(ev)))
        journal.append_inputs(rec.id, rows)
        state = s.state_json()
        runs, cpus = [], []
        for _ in range(3):
            t0, c0 = time.perf_counter(), time.process_time()
            resumed = open_session(journal, rec, cfg)
            resumed.render()
            runs.append((time.perf_counter() - t0) * 1000)
            cpus.append((time.process_time() - c0) * 1000)
            if resumed.state_json() != state:
                raise RuntimeError("replay of the Sovereign journal did not reach the same state")
        journal.close()
    return {"replay_10k_sovereign_ms": round(min(runs), 1), "replay_10k_sovereign_cpu_ms": round(min(cpus), 1),
            "sovereign_bench_round": state["round"]}


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


def _child(mode: str, tmp: str) -> None:
    """Runs in a fresh process: boot to the first frame (and, for idle, block in the loop)."""
    from contextlib import ExitStack

    app, _display = _app(Path(tmp))
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
            c0 = _cpu(p.pid)
            time.sleep(seconds)
            c1 = _cpu(p.pid)
        finally:
            p.kill()
            p.wait()
    return round((c1 - c0) * 10.0 / seconds, 3)


def chess_presses_per_move(games: int = 12, plies: int = 60, seed: int = 11) -> float:
    """The mean presses for a legal move (see :func:`companion.bench.chess_presses.chess_presses`)."""
    from companion.bench.chess_presses import chess_presses

    return float(chess_presses(games, plies, seed)["chess_presses_per_move"])


def clock_idle_cpu(seconds: float = 10.0) -> float:
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.Popen([sys.executable, "-m", "companion.bench", "--child", "clock", d], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
        try:
            if p.stdout is None:
                raise RuntimeError("no pipe from the bench child")
            p.stdout.readline()  # ready
            time.sleep(1.5)  # the game started and the first frames drawn
            c0 = _cpu(p.pid)
            time.sleep(seconds)
            c1 = _cpu(p.pid)
        finally:
            p.kill()
            p.wait()
    return round((c1 - c0) * 10.0 / seconds, 3)


def _clock_child(tmp: str) -> None:
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

    class NoLeds:
        def show(self, active: int | None, waiting: bool, alerts: Any = ()) -> None: ...

        def set_status(self, state: Any) -> None: ...

        def close(self) -> None: ...

    events: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
    for k in (Key.OK, Key.DOWN, Key.OK):  # start; the first player makes White's first move: the clock runs
        events.put(KeyEvent(k))
    app = App(cfg, Journal(cfg.journal_path()), events, PiOutput(display, NoLeds()), game="sovereign-chess")
    print(json.dumps({"ready": True}), flush=True)
    app.run()


def _cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str]) -> int:
    if argv[:1] == ["--child"]:
        if argv[1] == "clock":
            _clock_child(argv[2])
        else:
            _child(argv[1], argv[2])
        return 0
    out: dict[str, Any] = {}
    out.update(press_to_frame())
    out.update(cold_start())
    out["idle_cpu_s_per_10s"] = idle_cpu()
    out.update(replay_10k())
    out.update(replay_10k_sovereign())
    from companion.bench.chess_presses import chess_presses

    out.update(chess_presses())
    out["clock_idle_cpu_s_per_10s"] = clock_idle_cpu()
    from companion.bench.web import web_update, web_update_loaded

    out.update(web_update())
    out.update(web_update_loaded())
    out["web_server"] = cold_start("cold-web")
    try:
        from companion.rules.sovereign_chess.bench import perft_bench
    except ImportError:
        pass
    else:
        out["chess"] = perft_bench()
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
