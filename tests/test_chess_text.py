"""Position text and move text: round trips, and malformed text rejected with a message that says where."""
from __future__ import annotations

import random

import pytest

from companion.rules.sovereign_chess import (
    START,
    IllegalMoveError,
    MoveTextError,
    PositionTextError,
    SovereignChess,
    parse_move_text,
    parse_position,
    position_text,
)


def test_start_round_trip() -> None:
    assert position_text(parse_position(START)) == START
    g = SovereignChess()
    assert g.turn == 1 and g.ply == 0 and g.text == START


def test_round_trip_along_a_random_game() -> None:
    rng = random.Random(7)
    g = SovereignChess()
    seen = [g.text]
    for _ in range(80):
        moves = g.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        assert g.parse_move(move.text) == move  # move text round trip
        g.make(move.text)
        assert position_text(parse_position(g.text)) == g.text
        seen.append(g.text)
    assert g.ply == len(seen) - 1
    while g.ply:
        g.unmake()
        seen.pop()
        assert g.text == seen[-1]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", "expected 6"),
        (START.replace(" 1 w b", " 3 w b"), "side to move must be 1 or 2"),
        (START.replace("/nbnp12opob/", "/nbnp12opob/16/"), "expected 16 ranks"),
        (START.replace("nqnp12opoq", "nqnp11opoq"), "rank 13"),
        (START.replace("nqnp12opoq", "nqnp13opoq"), "rank 13 ('nqnp13opoq'): more than 16"),
        (START.replace("crcp12rprr", "crcp12rxrr"), "rank 12 ('crcp12rxrr'): colour 'r' at character 7"),
        (START.replace("cncp12rprn", "cncp12zprn"), "rank 11 ('cncp12zprn'): 'z' at character 7"),
        (START.replace("gbgp12pppb", "gbgp0pppb"), "rank 10"),
        (START.replace(" 1 w b ", " 1 x b "), "player 1's colour 'x'"),
        (START.replace(" 1 w b ", " 1 w w "), "both players own white"),
        (START.replace("CELNceln", "CELNcelnD"), "castling: 'D' names d1, which holds no rook"),
        (START.replace("CELNceln", "CELNcelnQ"), "castling: 'Q' is not a file letter"),
        (START.replace("CELNceln", "CCELN"), "castling: 'C' given twice"),
        (START.replace("CELNceln", "CE1"), "castling: '1'"),
        (START[:-1] + "x", "ply count"),
        ("16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/7wk8 1 w b C 0", "c1, which holds no rook"),
        ("16/16/16/16/16/16/16/16/16/16/16/16/16/16/16/7nk8 1 w b - 0", "navy king on h1"),
        ("16/16/16/16/16/16/16/16/7bn8/16/16/16/16/16/16/7wk7wk 1 w b - 0", "two white kings"),
        ("16/16/16/16/16/16/16/7bn8/8wn7/16/16/16/16/16/16/7wk8 1 w b - 0", "both white squares (h9 and i8)"),
        ("8bk7/16/16/16/16/16/16/16/8wr7/16/16/16/16/16/16/16 1 w b - 0", "player 2 is in check"),
        # digits other than ASCII 0-9 are not numbers here (they used to crash int() or be read as numbers)
        (START[:-1] + "\u00b2", "ply count"),
        (START[:-1] + "\u0661", "ply count"),
        (START.replace("nqnp12opoq", "nqnp1\u00b2opoq"), "rank 13"),
        (START.replace("nqnp12opoq", "nqnp\u0661\u0662opoq"), "rank 13"),
    ],
)
def test_malformed_position_text_says_where(text: str, where: str) -> None:
    with pytest.raises(PositionTextError) as info:
        parse_position(text)
    assert where in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("", "character 1"),
        ("xPi2-i4", "expected a colour letter"),
        ("wZi2-i4", "role letter"),
        ("wPq2-i4", "character 3"),
        ("wPi17-i4", "a rank 1-16"),
        ("wPi2=i4", "'-' or 'x' at character 5"),
        ("wPi2-i4=P", "promotion letter"),
        ("wPi2-i4 extra", "expected '=' at character 8"),
        ("O-O-O", "character 4"),
        ("wK=purple", "colour name"),
        ("wK=navy,wKe5-e6", "'n' (the king's new colour)"),
        ("wPi1\u0661-i4", "'-' or 'x' at character 5"),  # not read as i11
    ],
)
def test_malformed_move_text_says_where(text: str, where: str) -> None:
    with pytest.raises(MoveTextError) as info:
        parse_move_text(text)
    assert where in str(info.value)


def test_move_text_forms() -> None:
    g = SovereignChess()
    assert g.make("wPi2-i4").text == "wPi2-i4"
    with pytest.raises(IllegalMoveError):
        g.make("bPi15-i11")  # well formed, not legal
    with pytest.raises(IllegalMoveError):
        g.make("bPi15xi13")  # nothing to take there
    assert g.make("bPi15-i13").text == "bPi15-i13"


def test_opening_choice_accept_and_reject() -> None:
    g = SovereignChess()
    assert not g.opening_choice_pending
    g.make("wPh2-h4")
    assert g.opening_choice_pending
    g.accept_opening()  # player 2 takes white (and the move): player 1 now owns black and moves
    assert g.owned(1).label == "black" and g.owned(2).label == "white" and g.turn == 1
    assert g.text.split()[1:4] == ["1", "b", "w"]
    assert all(m.colour.label == "black" for m in g.legal_moves())
    with pytest.raises(IllegalMoveError):
        g.accept_opening()
    assert g.unmake() is None
    assert g.turn == 2 and g.owned(2).label == "black"  # rejecting: player 2 plays black
    assert all(m.colour.label == "black" for m in g.legal_moves())


def test_checkmate_and_stalemate() -> None:
    # white king a1; black rooks a9 (eight squares: check) and b9 (covering b1 and b2)
    g = SovereignChess("16/16/16/16/16/16/16/brbr14/16/16/16/16/16/16/16/wk7bk7 1 w b - 0")
    assert g.in_check()
    out = g.outcome()
    assert out is not None and out.result == "checkmate" and out.winner == 2
    # one square further and it is no longer check: the rooks reach only eight squares
    g = SovereignChess("16/16/16/16/16/16/brbr14/16/16/16/16/16/16/16/16/wk7bk7 1 w b - 0")
    assert not g.in_check() and g.outcome() is None
    s = SovereignChess("16/16/16/16/16/16/16/16/16/16/16/16/16/16/2bq13/wk7bk7 1 w b - 0")
    out = s.outcome()
    assert out is not None and out.result == "stalemate" and out.winner is None


def test_regime_changes_count_among_the_moves_for_mate_and_stalemate() -> None:
    # the mate above, but a white pawn can promote to a king on g7: a coup d'état escapes
    g = SovereignChess("16/16/16/16/16/16/16/brbr14/16/16/6wp9/16/16/16/16/wk7bk7 1 w b - 0")
    assert g.in_check() and g.outcome() is None
    assert {m.text for m in g.legal_moves()} == {"wPg6-g7=K"}
    # the stalemate above, but a white pawn on e5 (a navy square) gives white navy; orange pawns (nobody's)
    # block it, so the only move is the defection
    s = SovereignChess("16/16/16/16/16/16/16/16/16/16/4op11/4wpop10/16/16/2bq13/wk7bk7 1 w b - 0")
    assert [m.text for m in s.legal_moves()] == ["wK=navy"]
    assert s.outcome() is None
