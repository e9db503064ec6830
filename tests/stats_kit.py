"""Helpers of the statistics' tests: a journal of scripted saved games, and `companion ...` run in this process
(its stdout as text)."""
from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
from pathlib import Path
from typing import Any
from unittest import mock

from companion.bench.table_games import KINDS, make_journal
from companion.cli import build_parser, main


def journal_of(folder: Path, games: int = 18, distinct: int | None = 18, seed: int = 7, game: str | None = None) \
        -> Path:
    """A journal in ``folder`` holding ``games`` scripted games of every kind (see companion/bench/table_games), or
    of one ``game``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "journal.sqlite"
    kinds = [k for k in KINDS if game is None or k.game == game]
    make_journal(path, games, seed, distinct=distinct, kinds=kinds)
    return path


@functools.cache
def _parser() -> argparse.ArgumentParser:
    return build_parser()


def cli(*args: str) -> tuple[int, str]:
    """`companion ARGS` in this process: (exit status, stdout). The CLI's parser is built once (argparse asks for
    the terminal's size and formats every one of its ~400 options while building; parsing leaves it unchanged) —
    the odds tests run the command a hundred times."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), mock.patch("companion.cli.build_parser", _parser):
        status = main(list(args))
    return status, out.getvalue()


def stats(journal: Path, *args: str) -> dict[str, Any]:
    status, text = cli("stats", "--journal", str(journal), "--json", *args)
    assert status == 0, text
    return json.loads(text)  # type: ignore[no-any-return]
