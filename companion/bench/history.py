"""The history page's cost: 500 saved games of every kind (:mod:`companion.bench.table_games`) read as the phone's
history asks for them (the web view's ``history`` callable: every summary, standings, luck, dice, JSON text).

* history_500_ms — with the summaries cached (every request after the first): best of 3; history_500_cpu_ms its
  CPU time (what a loaded machine does not change);
* history_500_cold_ms — summarising them when nothing is cached yet (after an upgrade: what the history's
  summariser process does, :mod:`companion.stats.warm`): every game replayed once.
"""
from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any


def history_500(n: int = 500) -> dict[str, Any]:
    from companion.bench.table_games import make_journal
    from companion.config.load import parse_config
    from companion.stats.provider import History

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "journal.sqlite"
        make_journal(path, n, distinct=45)
        cfg = parse_config({"journal": {"path": str(path)}})
        hist = History(cfg)
        t0 = time.perf_counter()
        hist.document(full=True)
        cold = (time.perf_counter() - t0) * 1000
        hist.close()
        from companion.stats.provider import web_callables

        history, _story, _names = web_callables(cfg)
        best = cpu = float("inf")
        for _ in range(3):
            t0, c0 = time.perf_counter(), time.process_time()
            text = history({})
            best = min(best, (time.perf_counter() - t0) * 1000)
            cpu = min(cpu, (time.process_time() - c0) * 1000)
        if '"pending":0' not in text or text.count('"id":') < n:
            raise RuntimeError("the history of 500 games came back incomplete")
    return {"history_500_ms": round(best, 1), "history_500_cpu_ms": round(cpu, 1), "history_500_cold_ms": round(cold, 1)}


__all__ = ["history_500"]
