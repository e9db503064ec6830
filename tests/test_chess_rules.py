"""Sovereign Chess rules on hand-built positions: control chains, the seven ways out of check, defection, castling,
regime change by promotion, the eight-square limit, blocked twin squares and the pawn's moves."""
from __future__ import annotations

import pytest

from companion.rules.sovereign_chess import (
    Colour,
    IllegalMoveError,
    MoveKind,
    Piece,
    Role,
    SovereignChess,
    parse_square,
)


def fen(pieces: dict[str, str], turn: int = 1, owned: str = "w b", castling: str = "-", ply: int = 10) -> str:
    """Position text from {"e5": "wP", ...} (colour letter, role letter), written out independently of the engine."""
    rows = []
    for rank in range(16, 0, -1):
        row, run = "", 0
        for file in "abcdefghijklmnop":
            code = pieces.get(f"{file}{rank}")
            if code is None:
                run += 1
                continue
            if run:
                row, run = row + str(run), 0
            row += code[0] + code[1].lower()
        rows.append(row + (str(run) if run else ""))
    return f"{'/'.join(rows)} {turn} {owned} {castling} {ply}"


def game(pieces: dict[str, str], **kw: object) -> SovereignChess:
    return SovereignChess(fen(pieces, **kw))  # type: ignore[arg-type]


def texts(g: SovereignChess) -> set[str]:
    return {m.text for m in g.legal_moves()}


def sq(name: str) -> int:
    return parse_square(name)


# ------------------------------------------------------------------------------------------------ control


FIGURE_4 = {
    "i1": "wK", "i16": "bK",
    "e5": "wP",  # white on a navy square: white controls navy
    "i6": "wP",  # white on a pink square: white controls pink ...
    "k9": "pP",  # ... and a pink pawn on a cyan square: cyan too (a chain)
    "e12": "bP",  # black controls red ...
    "k11": "rP",  # ... and, through a red pawn on a green square, green
    "h9": "bB",  # black on a white square: no control of white, which player 1 owns
    "k8": "vQ",  # violet on an orange square: violet is nobody's, so orange is nobody's
    "c5": "nR", "a12": "cQ", "o3": "gN", "d8": "oR",
}


def test_control_through_squares_of_colour_and_chains() -> None:
    g = game(FIGURE_4)
    assert g.owned(1) is Colour.WHITE and g.owned(2) is Colour.BLACK
    assert g.controlled(1) == [Colour.PINK, Colour.CYAN, Colour.NAVY]
    assert g.controlled(2) == [Colour.RED, Colour.GREEN]
    assert g.controller(Colour.VIOLET) == g.controller(Colour.ORANGE) == 0
    assert g.controller(Colour.WHITE) == 1  # the black bishop on h9 does not take it
    names = sorted(m for m in ("f6", "f8", "f9", "h11", "i8", "l5", "l12"))
    assert sorted(square_names(g.blocked())) == names


def square_names(squares: list[int]) -> list[str]:
    from companion.rules.sovereign_chess import square_name

    return [square_name(s) for s in squares]


def test_controlled_pieces_move_and_uncontrolled_ones_do_not() -> None:
    g = game(FIGURE_4)
    movers = {m.colour for m in g.legal_moves() if m.kind is MoveKind.ORDINARY}
    assert movers == {Colour.WHITE, Colour.PINK, Colour.CYAN, Colour.NAVY}
    g.make("wPe5-e6")  # off the navy square: navy is lost
    assert g.controlled(1) == [Colour.PINK, Colour.CYAN]
    assert g.controlled(2) == [Colour.RED, Colour.GREEN]
    g.unmake()
    assert g.controlled(1) == [Colour.PINK, Colour.CYAN, Colour.NAVY]


def test_capturing_a_link_breaks_the_chain() -> None:
    g = game({**FIGURE_4, "j9": "wN"})
    g.make("wNj9xk11")  # takes the red pawn that gave black green; the knight now gives white green
    assert g.controlled(2) == [Colour.RED]
    assert Colour.GREEN in g.controlled(1)


def test_only_pieces_the_opponent_controls_can_be_captured() -> None:
    # the white queen reaches the violet queen (nobody's), the red pawn (black's) and the cyan queen (its own side's)
    g = game({"i1": "wK", "i16": "bK", "k4": "wQ", "k8": "vQ", "o8": "bP", "g4": "cQ", "h4": "pP", "k9": "pN"})
    moves = texts(g)
    assert "wQk4xo8" in moves
    assert not any(t.startswith("wQk4xk8") or t.startswith("wQk4xg4") for t in moves)


def test_never_the_opponents_owned_colour() -> None:
    # a black piece on a white square never gives black the white pieces; a white piece on a black square
    # never gives white the black pieces
    g = game({"i1": "wK", "i16": "bK", "h9": "bN", "h8": "wN"})
    assert g.controlled(1) == [] and g.controlled(2) == []


# ------------------------------------------------------------------------------------------- eight squares


def test_sliders_move_at_most_eight_squares() -> None:
    g = game({"a1": "wK", "p16": "bK", "a3": "wR", "c5": "wB"})
    moves = texts(g)
    assert "wRa3-i3" in moves and "wRa3-j3" not in moves  # 8 along the rank, not 9
    assert "wRa3-a11" in moves and "wRa3-a12" not in moves
    assert "wBc5-k13" in moves and "wBc5-l14" not in moves


def test_no_check_from_further_than_eight_squares() -> None:
    assert game({"a4": "wK", "a12": "bR", "p16": "bK"}).in_check()  # 8 squares
    assert not game({"a3": "wK", "a12": "bR", "p16": "bK"}).in_check()  # 9 squares
    assert game({"c3": "wK", "k11": "bQ", "p16": "bK"}).in_check()  # 8 diagonally
    assert not game({"b2": "wK", "k11": "bQ", "p16": "bK"}).in_check()


# -------------------------------------------------------------------------------- the seven ways out of check

BASE = {"p16": "bK"}


def escapes(pieces: dict[str, str], **kw: object) -> set[str]:
    g = game({**BASE, **pieces}, **kw)
    assert g.in_check()
    return texts(g)


def test_escape_1_move_out_of_the_line() -> None:
    moves = escapes({"h3": "wK", "h10": "bR"})
    assert "wKh3-g3" in moves
    assert "wKh3-h4" not in moves


def test_escape_2_move_out_of_range() -> None:
    moves = escapes({"h2": "wK", "h10": "bR"})  # eight squares: check
    assert "wKh2-h1" in moves  # nine squares away, still on the line
    assert "wKh2-h3" not in moves


def test_escape_3_move_onto_a_square_of_the_checkers_colour() -> None:
    # player 2 owns navy; the navy rook checks along the e-file. e5 is a navy square: the rook cannot land there.
    moves = escapes({"e4": "wK", "e10": "nR", "p16": "nK"}, owned="w n")
    assert "wKe4-e5" in moves
    assert "wKe4-e3" not in moves


def test_escape_4_block() -> None:
    moves = escapes({"h3": "wK", "h10": "bR", "a5": "wR"})
    assert "wRa5-h5" in moves
    assert "wRa5-a6" not in moves


def test_escape_5_capture_the_checking_piece() -> None:
    moves = escapes({"h3": "wK", "h10": "bR", "e7": "wB"})
    assert "wBe7xh10" in moves
    assert "wBe7-d6" not in moves


def test_escape_6_capture_that_takes_control_of_the_checking_piece() -> None:
    # the green rook checks because black's pawn on f6 (a green square) gives black green.
    g = game({**BASE, "h3": "wK", "h10": "gR", "f6": "bP", "d5": "wN"})
    assert g.in_check() and g.controlled(2) == [Colour.GREEN]
    moves = texts(g)
    assert "wNd5xf6" in moves
    assert "wNd5-c7" not in moves
    g.make("wNd5xf6")
    assert g.controlled(1) == [Colour.GREEN]
    assert not g.in_check(1)


def test_escape_7_regime_change() -> None:
    moves = escapes({"h3": "wK", "h10": "bR", "g6": "wP"})
    assert "wPg6-g7=K" in moves  # coup d'état: the king on h3 disappears
    assert "wPg6-g7=Q" not in moves


def test_a_move_that_leaves_the_king_in_check_is_refused() -> None:
    g = game({**BASE, "h3": "wK", "h10": "bR", "a5": "wR"})
    with pytest.raises(IllegalMoveError):
        g.make("wRa5-a6")
    assert g.in_check()


def test_pinned_piece_may_not_expose_the_king() -> None:
    g = game({"h2": "wK", "h5": "wN", "h9": "bR", "p16": "bK"})
    assert not any(t.startswith("wNh5") for t in texts(g))
    # with the rook out of range (beyond eight squares) the knight is free
    g = game({"h1": "wK", "h5": "wN", "h10": "bR", "p16": "bK"})
    assert any(t.startswith("wNh5") for t in texts(g))


# ------------------------------------------------------------------------------------------------ defection


def test_defection_is_a_whole_move() -> None:
    g = game({"i1": "wK", "p16": "bK", "e5": "wP", "a8": "nR", "c1": "wR"})
    move = g.make("wK=navy")
    assert move.kind is MoveKind.DEFECTION and g.turn == 2
    assert g.owned(1) is Colour.NAVY
    assert g.piece_at(sq("i1")) is not None and g.piece_at(sq("i1")).colour is Colour.NAVY  # type: ignore[union-attr]
    # the white pieces are nobody's now: player 1 cannot move them, so neither the rook nor the pawn
    assert g.controller(Colour.WHITE) == 0
    g.unmake()
    assert g.owned(1) is Colour.WHITE and g.turn == 1


def test_defection_to_the_colour_the_king_stands_on_must_move_off() -> None:
    g = game({"i6": "wK", "p16": "bK", "c2": "pP", "a1": "wR"})
    assert g.controlled(1) == [Colour.PINK]
    pink = [m for m in g.legal_moves() if m.defect_to is Colour.PINK]
    assert pink and all(m.to_sq != m.from_sq for m in pink)
    assert "wK=pink,pKi6-i5" in {m.text for m in pink}
    assert "wK=pink" not in texts(g)
    g.make("wK=pink,pKi6-i5")
    assert g.owned(1) is Colour.PINK and g.king_square(1) == sq("i5")
    assert g.piece_at(sq("i6")) is None


def test_no_defection_when_the_king_cannot_move_off() -> None:
    ring = {s: "wN" for s in ("h5", "i5", "j5", "h7", "i7", "j7")}
    g = game({"i6": "wK", "p16": "bK", "h6": "wB", "j6": "wB", **ring})
    assert Colour.PINK in g.controlled(1) and Colour.VIOLET in g.controlled(1)  # h6 is a violet square
    defections = [m for m in g.legal_moves() if m.kind is MoveKind.DEFECTION]
    assert not [m for m in defections if m.defect_to is Colour.PINK]
    assert "wK=violet" in {m.text for m in defections}


def test_defection_may_not_leave_the_new_king_in_check() -> None:
    # once white stops being owned, black's pawn on a white square (i8) gives black the white rook, which attacks i1
    g = game({"i1": "wK", "p16": "bK", "e5": "wP", "i8": "bP", "i4": "wR"})
    assert "wK=navy" not in texts(g)


# ------------------------------------------------------------------------------------------------- castling


def test_castling_to_any_square_between_not_through_or_into_check() -> None:
    g = game({"i1": "wK", "e1": "wR", "l1": "wR", "p16": "bK", "g5": "bR", "k7": "bR"}, castling="EL")
    castles = {m.text for m in g.legal_moves() if m.kind is MoveKind.CASTLING}
    # g1 is attacked (rook g5): the king may stop on h1 but not on g1 or pass it to f1; k1 is attacked (rook k7)
    assert castles == {"O-O@h1", "O-O@j1"}
    g.make("O-O@h1")
    assert g.piece_at(sq("h1")) == Piece(Colour.WHITE, Role.KING)
    assert g.piece_at(sq("i1")) == Piece(Colour.WHITE, Role.ROOK)  # the rook goes to the king's far side
    assert g.text.split()[4] == "-"


def test_no_castling_out_of_check_or_with_an_uncontrolled_rook() -> None:
    assert not any(m.kind is MoveKind.CASTLING for m in game(
        {"i1": "wK", "l1": "wR", "i7": "bR", "p16": "bK"}, castling="L").legal_moves())
    assert not any(m.kind is MoveKind.CASTLING for m in game(
        {"i1": "wK", "l1": "nR", "p16": "bK"}, castling="L").legal_moves())


def test_castling_with_a_controlled_rook_and_after_a_defection() -> None:
    g = game({"i1": "wK", "l1": "nR", "e5": "wP", "p16": "bK"}, castling="L")
    assert {"O-O@j1", "O-O@k1"} <= texts(g)  # navy is controlled through e5
    g.make("wK=navy")
    assert g.text.split()[4] == "L"
    g.make("bKp16-p15")
    g.make("O-O@k1")
    assert g.piece_at(sq("k1")) is not None and g.piece_at(sq("k1")).colour is Colour.NAVY  # type: ignore[union-attr]
    assert g.piece_at(sq("j1")).role is Role.ROOK  # type: ignore[union-attr]


def test_a_king_that_moved_has_lost_castling() -> None:
    g = game({"i1": "wK", "l1": "wR", "p16": "bK"}, castling="L")
    g.make("wKi1-h1")
    g.make("bKp16-p15")
    g.make("wKh1-i1")
    g.make("bKp15-p16")
    assert not any(m.kind is MoveKind.CASTLING for m in g.legal_moves())


# ---------------------------------------------------------------------------------------------- promotion


def test_promotion_choices_and_coup_detat() -> None:
    g = game({"h3": "wK", "g6": "wP", "p16": "bK"})
    promos = sorted(m.text for m in g.legal_moves() if m.from_sq == sq("g6") and m.to_sq == sq("g7"))
    assert promos == ["wPg6-g7=B", "wPg6-g7=K", "wPg6-g7=N", "wPg6-g7=Q", "wPg6-g7=R"]
    g.make("wPg6-g7=K")
    assert g.king_square(1) == sq("g7") and g.piece_at(sq("h3")) is None
    assert g.owned(1) is Colour.WHITE
    g.unmake()
    assert g.king_square(1) == sq("h3") and g.piece_at(sq("g6")).role is Role.PAWN  # type: ignore[union-attr]


def test_overthrow_changes_the_owned_colour() -> None:
    g = game({"c3": "wK", "a2": "wR", "e5": "wP", "j6": "nP", "p16": "bK"})
    assert g.controlled(1) == [Colour.NAVY]
    g.make("nPj6-j7=K")  # j7 is a slate square
    assert g.owned(1) is Colour.NAVY
    assert g.king_square(1) == sq("j7") and g.piece_at(sq("c3")) is None
    assert g.controlled(1) == [Colour.SLATE]  # white is nobody's now: no piece on a white square
    assert g.controller(Colour.WHITE) == 0


# ------------------------------------------------------------------------------------------ blocked squares


def test_blocked_twin_square() -> None:
    # black's bishop on h9 (a white square) blocks i8 for everyone
    g = game({"i1": "wK", "p16": "bK", "h9": "bB", "k7": "wN", "i5": "wR"})
    assert sq("i8") in g.blocked()
    moves = texts(g)
    assert "wNk7-i8" not in moves and "wRi5-i8" not in moves
    assert "wRi5-i7" in moves and "wRi5xi9" not in moves


def test_uncontrolled_piece_on_a_square_of_colour_cannot_move_or_be_taken() -> None:
    g = game({"i1": "wK", "p16": "bK", "k8": "vQ", "k4": "wR", "f5": "bN"}, turn=1)
    assert sq("f9") in g.blocked()
    assert not any(m.to_sq == sq("k8") for m in g.legal_moves())
    assert not any(m.to_sq == sq("f9") for m in g.legal_moves())
    g.make("wKi1-h1")
    assert not any(m.from_sq == sq("k8") or m.to_sq == sq("f9") for m in g.legal_moves())


def test_the_piece_on_a_square_of_colour_may_step_to_its_twin() -> None:
    # h8 and i9 are the black squares; leaving one frees the other (our reading)
    g = game({"a1": "wK", "p15": "bK", "h8": "wB"})
    assert "wBh8-i9" in texts(g)


def test_no_piece_lands_on_its_own_colour_but_may_pass_over_it() -> None:
    # player 1 owns navy; both navy squares (e5, l12) are empty
    g = game({"a1": "nK", "p15": "bK", "l4": "nR", "e1": "nR"}, owned="n b")
    moves = texts(g)
    assert "nRl4-l11" in moves and "nRl4-l12" not in moves
    assert "nRe1-e4" in moves and "nRe1-e5" not in moves and "nRe1-e6" in moves  # over e5


def test_a_controlled_colours_other_square_is_blocked_anyway() -> None:
    g = game({"a1": "wK", "p15": "bK", "e5": "wP", "l4": "nR"})
    assert g.controlled(1) == [Colour.NAVY] and sq("l12") in g.blocked()
    assert "nRl4-l11" in texts(g) and "nRl4-l12" not in texts(g)


# --------------------------------------------------------------------------------------------------- pawns


def test_pawns_move_toward_the_brown_lines() -> None:
    g = game({"a1": "wK", "p16": "bK", "e4": "wP", "m12": "wP", "h3": "wP", "c8": "wP"})
    moves = texts(g)
    assert {"wPe4-e5", "wPe4-f4"} <= moves and not {"wPe4-d4", "wPe4-e3"} & moves
    assert {"wPm12-m11", "wPm12-l12"} <= moves and not {"wPm12-n12", "wPm12-m13"} & moves
    assert "wPh3-h4" in moves and "wPh3-i3" not in moves  # crossing the line is not nearer
    assert "wPc8-d8" in moves and "wPc8-c9" not in moves and "wPc8-c7" not in moves


def test_pawn_captures_diagonally_toward_at_least_one_line() -> None:
    g = game({"a1": "wK", "p16": "bK", "e2": "wP", "d3": "bN", "f3": "bN", "f1": "bN", "d1": "bN"})
    moves = texts(g)
    assert {"wPe2xd3", "wPe2xf3", "wPe2xf1"} <= moves
    assert "wPe2xd1" not in moves


def test_two_square_move_from_the_first_or_second_ring_even_after_moving() -> None:
    g = game({"a16": "wK", "p16": "bK", "c2": "wP", "b3": "bN", "e1": "wP"})
    g.make("wPc2xb3")  # a capture away from the file line but toward the rank line
    g.make("bKp16-p15")
    moves = texts(g)
    assert "wPb3-d3" in moves  # two squares away from the closest edge (the a-file)
    assert "wPb3-b5" not in moves
    assert "wPe1-e3" in moves  # first ring too


def test_pawn_may_not_enter_a_square_of_its_own_colour() -> None:
    g = game({"a1": "pK", "p15": "bK", "i5": "pP", "h5": "pP"}, owned="p b")
    moves = texts(g)
    assert not any(t.startswith("pPi5") for t in moves)  # i6 is pink
    assert "pPh5-h6" in moves  # h6 is violet


def test_perft_of_the_opening_counts_the_twenty_first_moves() -> None:
    g = SovereignChess()
    first = sorted(m.text for m in g.legal_moves())
    assert len(first) == 20
    assert "wPe2-e4" in first and "wNf1-e3" in first and "wNk1-l3" in first
