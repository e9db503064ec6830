"""Issue 27, Sovereign Chess: the opening choice only after a White piece's first move (rule 3), a byo-yomi loser
shows no period left, and --frames keeps the game-over screen after a flag fall with no press after it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.rules.sovereign_chess import SovereignChess
from companion.session.headless import play
from script_kit import FakeTime

#: player 1 owns White and controls navy (a white pawn on e5, a navy square); a navy knight stands on a1
COMPOSED = "8bk7/16/16/16/16/16/16/16/16/16/16/4wp11/16/16/16/nn7wk7 1 w b - 0"


def test_the_opening_choice_follows_only_a_white_piece_s_first_move() -> None:
    g = SovereignChess(COMPOSED)
    g.make("nNa1-c2")  # a navy piece moves first: no White move to accept or reject
    assert not g.opening_choice_pending
    g = SovereignChess(COMPOSED)
    g.make("wKi1-h2")
    assert g.opening_choice_pending
    assert SovereignChess().opening_choice_pending is False  # before any move: nothing to choose


def _cfg(tmp_path: Path, clock: str) -> Path:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[games.sovereign-chess]\nclock = "{clock}"\n')
    return cfg


def test_a_byoyomi_flag_fall_leaves_no_period(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("ok\ndown\nok\nmove wPi2-i4\nwait 1.3\n")  # Bo lets the one 1-second period run out
    out = tmp_path / "state.json"
    fake = FakeTime()
    state = play("sovereign-chess", script, seed=1, state_json=out, config=str(_cfg(tmp_path, "byoyomi 0 1x1")),
                 clock=fake.clock, sleep=fake.sleep)
    assert state["termination"] == "time" and state["winner_name"] == "Ana"
    assert json.loads(out.read_text())["clocks"]["2"] == 0


def test_frames_keep_the_game_over_screen_after_a_flag_fall(tmp_path: Path) -> None:
    keys = "ok\ndown\nok\nmove wPi2-i4\n"
    counts = []
    for name, text in (("before", keys), ("flag", keys + "wait 1.2\n")):
        script = tmp_path / f"{name}.txt"
        script.write_text(text)
        folder = tmp_path / name
        fake = FakeTime()
        state = play("sovereign-chess", script, seed=1, frames=folder, config=str(_cfg(tmp_path, "sudden 1")),
                     clock=fake.clock, sleep=fake.sleep)
        counts.append(len(list(folder.glob("*.png"))))
    assert state["termination"] == "time"
    assert counts[1] == counts[0] + 1  # one more frame: the game-over screen nobody pressed a key on


# ------------------------------------------------------------------ OpenSovereignChess notation (item 8)
#: both kings and their rooks unmoved, a white queen on b3 and a black rook on p11
CASTLES = ("2vr1br3bk2br1yr2/16/16/16/16/15br/16/16/16/16/16/16/16/1wq14/16/2pr1wr3wk2wr1gr2 1 w b CELNceln 0")
OURS = ["O-O@h1", "reject", "O-O@j16", "wQb3-j11", "bRp11xj11"]
OSC = ["O-O-O@h1", "reject", "O-O@j16", "wQb3-j11+", "bRp11xj11"]


def test_a_table_game_exported_in_both_notations_is_read_back_by_inspect(tmp_path: Path) -> None:
    from conftest import run_companion

    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[games.sovereign-chess]\nstart = "{CASTLES}"\n')
    journal = tmp_path / "j.sqlite"
    script = tmp_path / "s.txt"
    script.write_text("ok\ndown\nok\n" + "".join(f"move {m}\n" for m in OURS))
    state = play("sovereign-chess", script, seed=2, journal_path=journal, config=str(cfg))
    for notation, want in (("companion", OURS), ("osc", OSC)):
        r = run_companion("--config", str(cfg), "export", "--journal", str(journal), "--record", "--notation",
                          notation)
        assert r.returncode == 0, r.stderr
        lines = r.stdout.splitlines()
        assert lines[lines.index("") + 1:] == want + ["*"], (notation, lines)
        assert ('[Notation "OpenSovereignChess"]' in lines) == (notation == "osc")
        record = tmp_path / f"{notation}.txt"
        record.write_text(r.stdout)
        out = run_companion("chess", "inspect", "--moves-file", str(record), "--json")
        assert out.returncode == 0, out.stderr
        js = json.loads(out.stdout)
        assert js["position"] == state["position"] and js["moves"] == OURS  # read back as the companion's moves
    bad = run_companion("--config", str(cfg), "export", "--journal", str(journal), "--record", "--notation", "pgn")
    assert bad.returncode != 0 and "use companion or osc" in bad.stderr


def test_osc_text_reads_castling_sides_and_check_marks() -> None:
    from companion.records.chess import RecordError, osc_record, replay

    start = f'[Start "{CASTLES}"]\n\n'
    assert replay(start + "\n".join(OSC) + "\n").moves == OURS
    assert osc_record(start + "\n".join(OURS) + "\n*\n").splitlines()[-6:] == OSC + ["*"]
    with pytest.raises(RecordError, match="line 3: 'O-O-O@j1': castling to j1 is on the king's side: write O-O@j1"):
        replay(start + "O-O-O@j1\n")
    # black rooks a10 (nine squares from a1: no check yet) and b9 (covering b1 and b2): a10-a9 mates
    mate = SovereignChess("16/16/16/16/16/16/br15/1br14/16/16/16/16/16/16/16/wk7bk7 2 w b - 1")
    from companion.records.osc import osc_text

    assert osc_text(mate, mate.parse_move("bRa10-a9")) == "bRa10-a9#"
    assert mate.text.startswith("16/16/16/16/16/16/br15/")  # made and unmade


# ------------------------------------------------------------------ move entry order (item 9)
def _pieces(fen: str) -> tuple[list[str], list[str]]:
    from fsm.sovereign_chess.entry import move_entries

    entries = move_entries(SovereignChess(fen))
    pieces: list[str] = []
    for e in entries:
        if e.path[0] not in pieces:
            pieces.append(e.path[0])
    return pieces, [e.move.text for e in entries if e.path[0] == pieces[0]]


def test_a_piece_that_can_capture_comes_first_with_its_capture_first() -> None:
    # two rooks with many moves and the king; the knight (four moves) can take the black pawn on d3
    pieces, first = _pieces("8bk7/16/16/16/16/16/16/16/16/16/16/16/wr14wr/3bp12/16/2wn5wk7 1 w b - 0")
    assert pieces[0] == "wN c1" and first[0] == "wNc1xd3"


def test_a_piece_that_can_give_check_comes_first_with_its_check_first() -> None:
    # the knight (four moves) checks the black king on e5 from d3; the bishops (many moves) never reach e5
    pieces, first = _pieces("16/16/16/16/12wb3/16/16/9wb6/16/16/16/4bk11/16/16/16/2wn5wk7 1 w b - 0")
    assert pieces[0] == "wN c1" and first[0] == "wNc1-d3"


def test_the_bench_counts_presses_by_move_type() -> None:
    from companion.bench.chess_presses import MOVE_TYPES, chess_presses

    got = chess_presses(games=2, plies=40)
    assert set(got["chess_presses_by_type"]) == set(MOVE_TYPES)
    by = got["chess_presses_by_type"]
    assert by["capture"]["moves"] > 0 and by["capture"]["mean"] < by["quiet"]["mean"]
