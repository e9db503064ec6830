"""Helpers of the statistics' tests: a journal of scripted saved games, and `companion ...` run in this process
(its stdout as text)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.bench.table_games import KINDS, make_journal
from conftest import companion_here


def journal_of(folder: Path, games: int = 18, distinct: int | None = 18, seed: int = 7, game: str | None = None) \
        -> Path:
    """A journal in ``folder`` holding ``games`` scripted games of every kind (see companion/bench/table_games), or
    of one ``game``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "journal.sqlite"
    kinds = [k for k in KINDS if game is None or k.game == game]
    make_journal(path, games, seed, distinct=distinct, kinds=kinds)
    return path


def cli(*args: str) -> tuple[int, str]:
    """`companion ARGS` in this process: (exit status, stdout)."""
    r = companion_here(*args)
    return r.returncode, r.stdout


def stats(journal: Path, *args: str) -> dict[str, Any]:
    status, text = cli("stats", "--journal", str(journal), "--json", *args)
    assert status == 0, text
    return json.loads(text)  # type: ignore[no-any-return]
