"""Perft from the start: ordinary moves, every promotion choice counted, defections not counted."""
from __future__ import annotations

import pytest

from companion.rules.sovereign_chess import START, count_legal, divide, parse_position, perft, position_text
from companion.rules.sovereign_chess.bench import perft_bench


@pytest.mark.parametrize(("depth", "nodes"), [(0, 1), (1, 20), (2, 400), (3, 9940)])
def test_perft_from_the_start(depth: int, nodes: int) -> None:
    pos = parse_position(START)
    assert perft(pos, depth) == nodes
    assert position_text(pos) == START  # make/unmake put everything back


def test_perft_without_bulk_counting_agrees() -> None:
    pos = parse_position(START)
    assert perft(pos, 3, bulk=False) == 9940


def test_perft_4_regression() -> None:
    # measured with this engine (bulk and full counting agree; the rules are cross-checked move by move against
    # the reference in test_chess_reference.py) — a guard against regressions, not an outside figure
    assert perft(parse_position(START), 4) == 247005


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
