"""Hostile or careless record files for `companion chess inspect --moves-file`: each gets one short plain line on
stderr naming the file's line, and no traceback; a line of any length is quoted short."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main

START = '[Start "4rr3bk4rr2/16/16/16/4bp11/16/16/16/16/16/16/4wp2wp8/16/16/16/4nr3wk4nr2 1 w b ENen 0"]\n\n'
CASES = {
    "garbage": (START + "wPh5-h6\nreject\nhello world\n", "line 5"),
    "long_line": (START + "x" * 100_000 + "\n", "line 3"),
    "long_castling": (START + "O-O" + "-O" * 50_000 + "@g1\n", "line 3"),
    "long_marks": (START + "wPh5-h6" + "=Q" * 30_000 + "\n", "line 3"),
    # a second game pasted after the first one's result: its moves (legal here too) are not the first game's
    "after_result": (START + "wPh5-h6\nreject\n*\n\nbK=red\n", "line 7"),
    "after_result_royale": ('[Game "Sovereign Chess Royale"]\n\n*\nwPi2-i4\n', "line 4"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_hostile_record_gets_one_short_line(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, where = CASES[name]
    f = tmp_path / f"{name}.txt"
    f.write_text(text)
    capsys.readouterr()
    assert main(["chess", "inspect", "--moves-file", str(f)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and len(err) < 240, err[:300]
    assert err.startswith(f"companion: {f.name} {where}:"), err[:300]
    assert "Traceback" not in err


def test_results_and_a_record_s_own_moves_still_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "ok.txt"
    f.write_text(START + "wPh5-h6\nreject\nbK=red\n*\n\n")  # a result at the end, blank lines after it
    assert main(["chess", "inspect", "--moves-file", str(f), "--json"]) == 0
    assert '"bK=red"' in capsys.readouterr().out
