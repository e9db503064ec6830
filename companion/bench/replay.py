"""Replay and resume measurements: a 10,000-input TOML game, a long real Sovereign game, and resuming a
20,000-input Sovereign game from its verified snapshot next to its full replay."""
from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.bench.common import BENCH_GAME, keys


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
        for k in keys(random.Random(2), 10_000):
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


def resume_sovereign_20k(n: int = 20_000) -> dict[str, Any]:
    """A journal holding a 20,000-input Sovereign game, committed input by input as the loop does (so it keeps
    its resume snapshots): opening it to the first frame (resume_sovereign_20k_ms: the latest verified snapshot and
    the tail) next to the full replay of the same inputs (replay_sovereign_20k_ms). Best of 3 each."""
    from companion.config.load import parse_config
    from companion.journal.store import Journal
    from companion.session import snapshot
    from companion.session import Session, encode_event
    from companion.session.headless import new_record, open_session

    events = sovereign_script(n)
    cfg = parse_config({})
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "j.sqlite"
        journal = Journal(path)
        rec = new_record(journal, "sovereign", cfg, 1)
        s: Session = open_session(journal, rec, cfg)
        with journal.db:  # one transaction around the lot: building the file is not what is measured
            journal.db.execute("PRAGMA synchronous=OFF")
            for ev in events:
                t = time.time()
                records = s.handle(ev, t)
                journal.commit(rec.id, s.n_inputs, encode_event(ev), records, s.summary(), t=t)
                snapshot.after_commit(journal, rec.id, s)
        state = s.state_json()
        journal.close()

        def timed(full: bool) -> float:
            best = float("inf")
            for _ in range(3):
                restore = snapshot.restore
                if full:
                    snapshot.restore = lambda *a: None  # type: ignore[assignment]
                try:
                    t0 = time.perf_counter()
                    j = Journal(path)
                    resumed = open_session(j, j.game(rec.id), cfg)
                    resumed.render()
                    best = min(best, (time.perf_counter() - t0) * 1000)
                finally:
                    snapshot.restore = restore  # type: ignore[assignment]
                if resumed.state_json() != state:
                    raise RuntimeError("resuming the 20,000-input Sovereign journal did not reach the same state")
                j.close()
            return round(best, 1)

        return {"resume_sovereign_20k_ms": timed(False), "replay_sovereign_20k_ms": timed(True)}
