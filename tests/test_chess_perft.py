"""Perft from the start, one suite over every variant of the family with its own counts (as python-chess runs one
perft suite over its variants): ordinary moves, every promotion choice counted, defections not counted. A Royale ply
is one seat's move; its start-of-turn events are not plies."""
from __future__ import annotations

from typing import Any, Callable

import pytest

from companion.rules.sovereign_chess import (START, count_legal, divide, parse_position, parse_royale, perft,
                                             position_text, royale_perft, royale_start, royale_text)
from companion.rules.sovereign_chess.bench import perft_bench

#: variant → (read its position text, the start, write it back, perft function, leaf counts by depth from 0)
VARIANTS: dict[str, tuple[Callable[[str], Any], Callable[[], str], Callable[[Any], str], Callable[..., int],
                          tuple[int, ...]]] = {
    # measured with this engine (bulk and full counting agree; the rules are cross-checked move by move against
    # the reference in test_chess_reference.py) — depth 4 is a guard against regressions, not an outside figure
    "sovereign-chess": (parse_position, lambda: START, position_text, perft, (1, 20, 400, 9940, 247005)),
    # every seat's first move is independent of the others' at the start: 20 each
    "sovereign-chess-royale": (parse_royale, royale_start, royale_text, royale_perft, (1, 20, 400, 8000)),
}
CASES = [(v, d, n) for v, (*_, counts) in VARIANTS.items() for d, n in enumerate(counts)]


@pytest.mark.parametrize(("variant", "depth", "nodes"), CASES, ids=[f"{v}-{d}" for v, d, _ in CASES])
def test_perft_from_the_start(variant: str, depth: int, nodes: int) -> None:
    read, start, write, count, _ = VARIANTS[variant]
    pos = read(start())
    assert count(pos, depth) == nodes
    assert write(pos) == start()  # make/unmake put everything back


@pytest.mark.parametrize(("variant", "depth"), [("sovereign-chess", 3), ("sovereign-chess-royale", 2)])
def test_perft_without_bulk_counting_agrees(variant: str, depth: int) -> None:
    read, start, _, count, counts = VARIANTS[variant]
    assert count(read(start()), depth, bulk=False) == counts[depth]


def test_divide_sums_to_perft() -> None:
    pos = parse_position(START)
    rows = divide(pos, 2)
    assert len(rows) == 20 and all(n == 20 for _, n in rows)
    assert sum(n for _, n in rows) == 400


def test_count_legal_excludes_defections() -> None:
    # a white pawn on e5 gives white navy: one defection is legal but perft does not count it
    pos = parse_position("8bk7/16/16/16/16/16/16/16/16/16/16/4wp11/16/16/16/8wk7 1 w b - 0")
    assert count_legal(pos) == perft(pos, 1) == 7  # 5 king moves + 2 pawn moves


def test_bench_reports_nodes_and_speed() -> None:
    result = perft_bench(repeats=1)
    assert result["perft3_nodes"] == 9940 and result["perft4_nodes"] == 247005
    assert result["perft3_nodes_per_s"] > 0 and result["perft3_seconds"] > 0
