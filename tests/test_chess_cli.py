"""`companion perft sovereign-chess` and `companion chess inspect`."""
from __future__ import annotations

import json

import pytest

from companion.cli import main
from companion.rules.sovereign_chess import START

# the rules' Figure 4 situation: white on e5 (navy) and i6 (pink), a pink pawn on k9 (cyan); black on e12 (red), a
# red pawn on k11 (green), a black bishop on h9 (white: no control); a violet queen on k8 (orange: nobody's)
FIGURE_4 = "8bk7/16/16/16/cq3bp11/10rp5/16/7bb2pp5/3or6vq5/16/8wp7/2nr1wp11/16/14gn1/16/8wk7 1 w b - 0"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_perft_prints_nodes_and_time(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "sovereign-chess", "--depth", "3")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "nodes 9940"
    assert lines[1].startswith("time ") and lines[1].endswith(" s")
    # CPU time too, and the speed by it: the figure that reproduces on a loaded machine (issue 27)
    assert lines[2].startswith("cpu ") and lines[2].endswith(" s") and lines[3].endswith(" nodes/s (CPU)")


def test_perft_with_fen_and_divide(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "perft", "sovereign-chess", "--depth", "2", "--fen", START, "--divide")
    assert code == 0
    lines = out.splitlines()
    assert "wPe2-e4 20" in lines and "nodes 400" in lines


def test_perft_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "perft", "chess960", "--depth", "2")
    assert code == 2 and "sovereign-chess" in err
    code, _, err = run(capsys, "perft", "sovereign-chess", "--depth", "-1")
    assert code == 2 and "--depth" in err
    code, _, err = run(capsys, "perft", "sovereign-chess", "--depth", "1", "--fen", "16/16 1 w b - 0")
    assert code == 2 and "expected 16 ranks" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_inspect_json_exact_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chess", "inspect", "--fen", START, "--json")
    assert code == 0
    assert json.loads(out) == {
        "position": START,
        "players": {"1": {"owned": "white", "controlled": []}, "2": {"owned": "black", "controlled": []}},
        "blocked": [],
        "check": False,
        "legal_moves": 20,
    }


def test_inspect_json_control_and_blocked(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chess", "inspect", "--fen", FIGURE_4, "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["position", "players", "blocked", "check", "legal_moves"]
    assert data["players"]["1"] == {"owned": "white", "controlled": ["pink", "cyan", "navy"]}
    assert data["players"]["2"] == {"owned": "black", "controlled": ["red", "green"]}
    assert sorted(data["blocked"]) == sorted(["f6", "f8", "f9", "h11", "i8", "l5", "l12"])
    assert data["check"] is False and data["legal_moves"] > 0


def test_inspect_reports_check(capsys: pytest.CaptureFixture[str]) -> None:
    fen = "16/16/16/16/16/16/16/brbr14/16/16/16/16/16/16/16/wk7bk7 1 w b - 0"
    code, out, _ = run(capsys, "chess", "inspect", "--fen", fen, "--json")
    assert json.loads(out)["check"] is True and json.loads(out)["legal_moves"] == 0
    code, out, _ = run(capsys, "chess", "inspect", "--fen", fen)
    assert "checkmate, player 2 wins" in out


def test_inspect_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "chess", "inspect", "--fen", FIGURE_4, "--moves")
    assert code == 0
    assert "player 1: owns white, controls pink, cyan, navy" in out
    assert "blocked: l5, f6, f8, i8, f9, h11, l12" in out
    assert "  wPe5-e6" in out
    assert out.splitlines()[0].startswith("16 ")


def test_inspect_malformed_fen_says_where(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "chess", "inspect", "--fen", START.replace("crcp12rprr", "crcp12rprx"), "--json")
    assert code == 2
    assert err.startswith("companion: position text: rank 12")
