"""Replay and resume measurements: a 10,000-input TOML game, a long real Sovereign game, and resuming a
20,000-input Sovereign game from its verified snapshot next to its full replay."""
from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

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


def table_walk(s: Any, n: int, seed: int = 3) -> Iterator[Any]:
    """A long game as the table plays it, for the session ``s`` until it has taken ``n`` inputs (the caller hands
    each to ``s`` before taking the next, with any clock lines of its own): presses (mostly OK, some moves, a few
    BACKs) and roller rolls whenever dice are asked for; when the game is over, the table takes back a few steps
    from the game menu and plays on (a random walk mates in about a thousand presses of Sovereign Chess; an evening
    is longer). Deterministic for a seed."""
    from companion.events import Key, KeyEvent, RollEvent
    from fsm.prompts import Dice

    rng = random.Random(seed)
    keys = ["ok"] * 10 + ["down"] * 4 + ["up"] * 3 + ["back"]
    takeback: list[Any] = [KeyEvent(Key.HOLD), KeyEvent(Key.DOWN), KeyEvent(Key.OK)] * TAKEBACK  # menu → Undo
    while s.n_inputs < n:
        p = s.prompt()
        if s.game is not None and s.game.is_over:
            batch = takeback
        elif isinstance(p, Dice) and not s.overlays and rng.random() < 0.8:
            sides = 6 if p.die == "d6" else 12
            batch = [RollEvent(p.die, tuple(rng.randint(1, sides) for _ in range(p.count)), roller="roller")]
        else:
            batch = [KeyEvent(Key(rng.choice(keys)))]
        for ev in batch:
            if s.n_inputs >= n:
                return
            yield ev


TAKEBACK = 12  #: steps :func:`table_walk` takes back when a game is over


def sovereign_script(n: int, seed: int = 3) -> list[Any]:
    """A long Sovereign game as the table plays it (:func:`table_walk`), as a list of inputs."""
    from companion.config.load import parse_config
    from companion.session.headless import new_record, open_session
    from companion.journal.store import Journal

    cfg = parse_config({})
    journal = Journal(":memory:")
    s = open_session(journal, new_record(journal, "sovereign", cfg, 1), cfg)
    events: list[Any] = []
    for ev in table_walk(s, n, seed):
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

    events = sovereign_script(n)
    resume, replay = _resume_and_replay("sovereign", lambda s: events, parse_config({}))
    return {"resume_sovereign_20k_ms": resume, "replay_sovereign_20k_ms": replay}


CHESS_CLOCK = "fischer 300+3"  #: the clock of the chess game :func:`resume_chess_clock_20k` journals
PRESS_S = 0.4  #: seconds between two presses of that game (its clock runs on them; the checkpoints follow)


def resume_chess_clock_20k(n: int = 20_000) -> dict[str, Any]:
    """The same for a 20,000-input Sovereign Chess game with a Fischer clock running, journaled as the loop does:
    each press, then the clock's state line whenever a move switched the clock or the last one is 10 s old
    (resume_chess_clock_20k_ms, replay_chess_clock_20k_ms)."""
    from companion.config.load import parse_config

    cfg = parse_config({"games": {"sovereign-chess": {"clock": CHESS_CLOCK}}})
    resume, replay = _resume_and_replay("sovereign-chess", lambda s: table_walk(s, n, 5), cfg, PRESS_S)
    return {"resume_chess_clock_20k_ms": resume, "replay_chess_clock_20k_ms": replay}


def resume_toml_20k(n: int = 20_000) -> dict[str, Any]:
    """The same for a 20,000-press game of the bench's TOML game (resume_toml_20k_ms, replay_toml_20k_ms)."""
    from companion.config.load import parse_config
    from companion.events import Key, KeyEvent

    with tempfile.TemporaryDirectory() as d:
        game = Path(d) / "bench.toml"
        game.write_text(BENCH_GAME)
        events = [KeyEvent(Key(k)) for k in keys(random.Random(2), n)]
        resume, replay = _resume_and_replay(str(game), lambda s: events, parse_config({}))
    return {"resume_toml_20k_ms": resume, "replay_toml_20k_ms": replay}


def _resume_and_replay(game: str, events: Callable[[Any], Iterable[Any]], cfg: Any, press_s: float | None = None) \
        -> tuple[float, float]:
    """Journal ``events(session)`` as a game of ``game``, committed input by input as the loop does (its resume
    snapshots; with ``press_s``, a monotonic time that many seconds on per press and the clock's checkpoints); then
    open it to its first frame from the latest snapshot and by the full replay: the best of 3 ms of each."""
    from companion.journal.store import Journal
    from companion.session import snapshot
    from companion.session import Session, encode_event
    from companion.session.headless import new_record, open_session

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "j.sqlite"
        journal = Journal(path)
        rec = new_record(journal, game, cfg, 1)
        s: Session = open_session(journal, rec, cfg)
        now = 0.0 if press_s else None

        def commit(ev: Any) -> None:
            t = time.time()
            records = s.handle(ev, t, now)
            journal.commit(rec.id, s.n_inputs, encode_event(ev), records, s.summary(), t=s._t)
            snapshot.after_commit(journal, rec.id, s)

        with journal.db:  # one transaction around the lot: building the file is not what is measured
            journal.db.execute("PRAGMA synchronous=OFF")
            for ev in events(s):
                if now is not None and press_s:
                    now += press_s
                commit(ev)
                line = s.clock_checkpoint(now) if now is not None else None
                if line is not None:  # as App._commit: the clock's state after a switch, or every 10 s
                    commit(line)
        state = _comparable(s.state_json())
        journal.close()
        seen: list[dict[str, Any]] = []

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
                seen.append(resumed.state_json())
                j.close()
            return round(best, 1)

        times = timed(False), timed(True)
        if any(x != seen[0] for x in seen) or _comparable(seen[0]) != state:
            raise RuntimeError(f"resuming the {s.n_inputs:,}-input {game} journal did not reach the same state")
        return times


def _comparable(state: dict[str, Any]) -> dict[str, Any]:
    """The state JSON without the seconds left on the clocks (the live game has charged the running turn's
    seconds since its last checkpoint; a resume does not): resume and replay must agree on them too."""
    return {k: v for k, v in state.items() if k != "clocks"}
