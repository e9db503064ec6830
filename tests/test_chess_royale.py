"""Sovereign Chess Royale in the engine: the start position and each Royale rule on composed positions (perft: the
family's suite in test_chess_perft.py)."""
from __future__ import annotations

import pytest

from companion.rules.sovereign_chess import (
    START,
    Colour,
    IllegalMoveError,
    PositionTextError,
    SovereignChessRoyale,
    parse_position,
    parse_royale,
    parse_square,
    royale_start,
    royale_text,
)
from companion.rules.sovereign_chess.fen import board_text
from companion.rules.sovereign_chess.squares import COLOUR_LETTERS, ROLE_LETTERS


def royale(pieces: dict[str, str], turn: int = 1, owned: str = "wasb", castling: str = "-") -> SovereignChessRoyale:
    """A composed Royale game: ``{"i1": "wk", ...}``."""
    board = [0] * 256
    for name, piece in pieces.items():
        board[parse_square(name)] = (COLOUR_LETTERS.index(piece[0]) << 3) | ROLE_LETTERS.index(piece[1])
    return SovereignChessRoyale(f"{board_text(board)} {turn} {' '.join(owned)} {castling} 0")


KINGS = {"m1": "wk", "a9": "ak", "p8": "sk", "h16": "bk"}

# ---------------------------------------------------------------------------------------------- the start position


def derived_start() -> str:
    """The start position rebuilt from the setup facts, with the readings its manual lists."""
    board = [0] * 256

    def put(name: str, colour: str, role: str) -> None:
        board[parse_square(name)] = (COLOUR_LETTERS.index(colour) << 3) | ROLE_LETTERS.index(role)

    for i, f in enumerate("efghijkl"):
        put(f"{f}1", "w", "rnbqkbnr"[i])  # queen h1 (light)
        put(f"{f}2", "w", "p")
        put(f"{f}16", "b", "rnbkqbnr"[i])  # queen i16 (light)
        put(f"{f}15", "b", "p")
    for i, r in enumerate(range(5, 13)):
        put(f"a{r}", "a", "rnbqkbnr"[i])  # queen a8 (light)
        put(f"b{r}", "a", "p")
        put(f"p{r}", "s", "rnbkqbnr"[i])  # queen p9 (light)
        put(f"o{r}", "s", "p")
    # the outer ring, clockwise from next to White's left rook: N R B Q R B Q in each corner, restarting at each;
    # the twelve colours are the knight's, then one colour per rook-bishop-queen triple
    walks = [
        ["d1", "c1", "b1", "a1", "a2", "a3", "a4"],
        ["a13", "a14", "a15", "a16", "b16", "c16", "d16"],
        ["m16", "n16", "o16", "p16", "p15", "p14", "p13"],
        ["p4", "p3", "p2", "p1", "o1", "n1", "m1"],
    ]
    colours = "pry" "gcv" "yop" "vng"
    for k, walk in enumerate(walks):
        cs = [colours[3 * k]] + [colours[3 * k + 1]] * 3 + [colours[3 * k + 2]] * 3
        for name, colour, role in zip(walk, cs, "nrbqrbq"):
            put(name, colour, role)
    # the second ring's corners (same clockwise walk): knights, with pawns of their colour beside them
    for (knight, p1, p2), colour in zip(
        [("b2", "c2", "b3"), ("b15", "b14", "c15"), ("o15", "n15", "o14"), ("o2", "o3", "n2")], "onrc"
    ):
        put(knight, colour, "n")
        put(p1, colour, "p")
        put(p2, colour, "p")
    for name, beside in [("d2", "d1"), ("b4", "a4"), ("b13", "a13"), ("d15", "d16"),
                         ("m15", "m16"), ("o13", "p13"), ("o4", "p4"), ("m2", "m1")]:
        board[parse_square(name)] = (board[parse_square(beside)] & ~7) | 1
    rooks = "c1,e1,l1,o1,a2,p3,a5,p5,a12,p12,a14,p15,b16,e16,l16,n16"
    return f"{board_text(board)} 1 w a s b {rooks} 0"


def test_start_file_is_the_derivation_of_the_setup_facts() -> None:
    assert royale_start() == derived_start()
    game = SovereignChessRoyale()
    assert game.text == royale_start()
    assert [game.owned(s) for s in (1, 2, 3, 4)] == [Colour.WHITE, Colour.ASH, Colour.SLATE, Colour.BLACK]
    assert game.kings() == {1: parse_square("i1"), 2: parse_square("a9"), 3: parse_square("p8"),
                            4: parse_square("h16")}
    assert game.interregnum() == [] and game.checks() == {} and game.outcome() is None


def test_start_position_piece_counts() -> None:
    game = SovereignChessRoyale()
    counts: dict[tuple[Colour, str], int] = {}
    queens_light = []
    for sq in range(256):
        piece = game.piece_at(sq)
        if piece is None:
            continue
        key = (piece.colour, piece.role.letter)
        counts[key] = counts.get(key, 0) + 1
        if piece.role.letter == "q" and piece.colour <= Colour.BLACK:
            queens_light.append(((sq & 15) + (sq >> 4)) % 2 == 1)
    for army in (Colour.WHITE, Colour.ASH, Colour.SLATE, Colour.BLACK):
        assert [counts.get((army, r), 0) for r in "kqrbnp"] == [1, 1, 2, 2, 2, 8]
    for colour in list(Colour)[4:]:
        assert [counts.get((colour, r), 0) for r in "kqrbn"] == [0, 1, 1, 1, 1]
        assert counts[(colour, "p")] == 2
    assert queens_light == [True] * 4  # every player's queen on a light square (a1 is dark)
    assert sum(counts.values()) == 4 * 16 + 8 * 6


# ---------------------------------------------------------------------------------------------- position text


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("16/16 1 w a s b - 0", "expected 16 ranks"),
        (f"{'16/' * 15}16 5 w a s b - 0", "seat to move must be 1, 2, 3 or 4"),
        (f"{'16/' * 15}16 1 w a w b - 0", "seats 1 and 3 both own white"),
        (f"{'16/' * 15}16 1 w a s b e1 0", "e1 holds no rook"),
        (f"{'16/' * 15}4wr11 1 w a s b e1 0", "needs an unmoved king on i1"),
        (f"{'16/' * 15}4wr11 1 w a s b zz 0", "'zz' is not a square"),
        (f"{'16/' * 15}16 1 w b - 0", "expected 8 space-separated fields"),
        (f"{'16/' * 15}nk15 1 w a s b - 0", "every king must be a seat's owned colour"),
    ],
)
def test_royale_text_errors_name_the_field(text: str, says: str) -> None:
    with pytest.raises(PositionTextError, match=says):
        parse_royale(text)


# ---------------------------------------------------------------------------------------------- the rules


def test_turn_order_is_fixed_even_after_a_defection() -> None:
    # White's pawn on e5 (navy) gives White navy: White defects, and Ash still moves next, then Slate, then Black
    game = royale({**KINGS, "e5": "wp", "c3": "np", "b12": "ap", "o12": "sp", "h14": "bp"})
    assert game.controlled(1) == [Colour.NAVY]
    assert game.make("wK=navy").text == "wK=navy"
    assert game.owned(1) is Colour.NAVY and game.turn == 2
    for text, nxt in (("aPb12-c12", 3), ("sPo12-n12", 4), ("bPh14-h13", 1)):
        game.make(text)
        assert game.turn == nxt
    assert game.king_square(1) == parse_square("m1") and game.piece_at(parse_square("m1")).colour is Colour.NAVY


def test_moving_into_check_and_staying_in_check_are_legal() -> None:
    game = royale({**KINGS, "l9": "br"})  # the black rook covers the l-file down to l1
    assert "wKm1-l1" in {m.text for m in game.legal_moves()}
    game.make("wKm1-l1")
    assert game.checks() == {1: (4,)}
    game = royale({**KINGS, "m9": "br"})  # the rook checks White's king on m1 (eight squares)
    assert game.checks() == {1: (4,)}
    assert "wKm1-m2" in {m.text for m in game.legal_moves()}  # stepping along the checking line: still in check
    game.make("wKm1-m2")
    assert game.checks() == {1: (4,)}


def test_castling_out_of_and_through_check() -> None:
    # the black rook on i6 checks White's king on i1; the one on j9 attacks j1, which castling to k1 passes
    pieces = {"i1": "wk", "l1": "wr", "a9": "ak", "p8": "sk", "h16": "bk", "i6": "br", "j9": "br"}
    game = royale(pieces, castling="l1")
    assert game.checks() == {1: (4,)}
    castles = sorted(m.text for m in game.legal_moves() if m.text.startswith("O-O"))
    assert castles == ["O-O@j1", "O-O@k1"]
    game.make("O-O@k1")
    assert game.piece_at(parse_square("j1")).role.letter == "r" and game.king_square(1) == parse_square("k1")
    assert game.checks() == {}


def test_castling_along_a_file() -> None:
    game = royale({**KINGS, "a5": "ar", "a12": "ar"}, turn=2, castling="a5,a12")
    castles = sorted(m.text for m in game.legal_moves() if m.text.startswith("O-O"))
    assert castles == ["O-O@a10", "O-O@a11", "O-O@a6", "O-O@a7", "O-O@a8"]
    game.make("O-O@a7")
    assert game.piece_at(parse_square("a8")).role.letter == "r" and game.king_square(2) == parse_square("a7")
    assert game.text.split()[6] == "-"  # the king left home: both rights on the a-file are gone


def test_a_checked_king_is_captured_by_a_following_seat() -> None:
    # White's rook checks Black's king along rank 16 and uncovers Ash's queen; Ash, moving before Black, takes it
    pieces = {"m1": "wk", "a9": "ak", "p8": "sk", "h16": "bk", "e13": "wr", "c11": "aq", "c3": "bp"}
    game = royale(pieces)
    game.make("wRe13-e16")
    assert game.last_report is not None and game.last_report.checks == {4: (1, 2)}
    assert game.turn == 2
    game.make("aQc11xh16")
    report = game.last_report
    assert report is not None and report.captured == (4,) and report.seat == 2
    assert game.interregnum() == [4] and game.kings()[4] is None and game.turn == 3
    game.make("sKp8-p9")
    assert "bPc3-d3" in {m.text for m in game.legal_moves()}  # the kingless army still moves
    assert game.outcome() is None  # three kings are left


def test_escaped_king_is_removed_and_the_army_moves_on() -> None:
    # Ash's king on a1 is not in check, but every Ash move puts it in check: the knight on a4 is pinned by the
    # white rook on a9, the rooks on h2 and b8 cover a2, b1 and b2. At the start of Ash's turn the king escapes.
    pieces = {"m1": "wk", "a1": "ak", "a4": "an", "a9": "wr", "h2": "wr", "b8": "wr", "p8": "sk", "h16": "bk"}
    game = royale(pieces)
    before = game.text
    game.make("wKm1-n1")
    report = game.last_report
    assert report is not None and report.escaped == (2,) and report.passed == ()
    assert report.removed == {2: parse_square("a1")}  # for the table to take it off the board
    assert game.king_square(2) is None and game.interregnum() == [2] and game.turn == 2
    assert game.piece_at(parse_square("a1")) is None
    assert "aNa4-b6" in {m.text for m in game.legal_moves()}  # the army still moves, its knight no longer pinned
    game.unmake()
    assert game.text == before and game.king_square(2) == parse_square("a1")


def test_a_seat_with_no_move_is_passed_over() -> None:
    # after its king escapes, Ash has no piece at all: its turn is passed over and Slate moves
    pieces = {"m1": "wk", "a1": "ak", "h2": "wr", "b8": "wr", "p8": "sk", "h16": "bk"}
    game = royale(pieces)
    game.make("wKm1-n1")
    report = game.last_report
    assert report is not None and report.escaped == (2,) and report.passed == (2,)
    assert game.turn == 3


def test_settle_runs_the_start_of_turn_rules_on_a_position_read_from_text() -> None:
    # Ash to move in a composed position: its king on a1 is not in check but every move puts it in check (as in
    # the test above), so it has escaped; with no other piece Ash has no move: settling removes the king and
    # passes Ash over. The default start is already settled.
    pieces = {"m1": "wk", "a1": "ak", "h2": "wr", "b8": "wr", "p8": "sk", "h16": "bk"}
    game = royale(pieces, turn=2)
    assert game.king_square(2) == parse_square("a1") and not game.in_check(2)  # as read, its moves all lose it
    assert game.settle() == ((2,), (2,))
    assert game.king_square(2) is None and game.turn == 3 and game.legal_moves()
    assert game.settle() == ((), ())
    start = SovereignChessRoyale()
    assert start.settle() == ((), ()) and start.text == royale_start()


def test_interregnum_army_keeps_its_colour_and_control_and_regains_a_king_by_promotion() -> None:
    # Black (seat 4) has no king: it still owns black, its pawns on e12 and h11 still control red and pink, and
    # White's knight on the black square i9 takes nothing over; promoting its pawn to a king ends the Interregnum
    pieces = {"m1": "wk", "a9": "ak", "p8": "sk", "e12": "bp", "h11": "bp", "i9": "wn", "c3": "wp"}
    game = royale(pieces, turn=4)
    assert game.interregnum() == [4]
    assert game.controlled(4) == [Colour.PINK, Colour.RED] and game.controller(Colour.BLACK) == 4
    assert "bPh11-h10=K" in {m.text for m in game.legal_moves()}
    game.make("bPh11-h10=K")
    report = game.last_report
    assert report is not None and report.crowned == (4,)
    assert game.interregnum() == [] and game.king_square(4) == parse_square("h10")


def test_last_king_standing_wins_and_the_kingless_tie() -> None:
    # only White's and Black's kings are left; Black's king is captured: White wins, the rest tie
    pieces = {"m1": "wk", "h16": "bk", "h10": "wr", "a3": "ap", "o3": "sp"}
    game = royale(pieces)
    assert game.interregnum() == [2, 3] and game.outcome() is None
    game.make("wRh10xh16")
    report = game.last_report
    assert report is not None and report.captured == (4,)
    outcome = game.outcome()
    assert outcome is not None and (outcome.winner, outcome.tied, outcome.reason) == (1, (2, 3, 4), "last king")
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError, match="the game is over"):
        game.make("aPa3-a4")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playouts_round_trip_and_unmake(seed: int) -> None:
    import random

    rng = random.Random(seed)
    game = SovereignChessRoyale()
    texts = [game.text]
    for _ in range(120):
        moves = game.legal_moves()
        if not moves:
            break
        game.make(rng.choice(moves))
        assert parse_royale(game.text) is not None and royale_text(parse_royale(game.text)) == game.text
        texts.append(game.text)
    while texts[:-1]:
        texts.pop()
        game.unmake()
        assert game.text == texts[-1]


def test_cli_perft_royale(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    assert main(["perft", "sovereign-chess-royale", "--depth", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "nodes 400"
    assert main(["perft", "sovereign-chess-royale", "--depth", "1", "--fen", royale_start(), "--divide"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "wPe2-e4 1" in out and "nodes 20" in out
    assert main(["perft", "sovereign-chess-royale", "--depth", "1", "--fen", START]) == 2
    err = capsys.readouterr().err
    assert "expected 8 space-separated fields" in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("seed", [11, 12])
def test_royale_moves_match_the_two_player_generator_when_ash_and_slate_are_absent(seed: int) -> None:
    """With no ash or slate piece on the board, White (seat 1) and Black (seat 4) face each other as in two-player
    Sovereign Chess: the Royale generator must give exactly the two-player pseudo-legal moves (castling aside)."""
    import random

    from companion.rules.sovereign_chess.movegen import pseudo_moves as two_player_moves
    from companion.rules.sovereign_chess.royale import RoyalePosition, pseudo_moves

    rng = random.Random(seed)
    pos = parse_position(START)
    for sq, p in enumerate(pos.board):
        if p >> 3 in (Colour.ASH, Colour.SLATE):
            pos.board[sq] = 0
    pos = type(pos)(pos.board, 1, (Colour.WHITE, Colour.BLACK), 0, 0)
    compared = 0
    for _ in range(160):
        two: list[int] = []
        two_player_moves(pos, two)
        r = RoyalePosition(pos.board, 1 if pos.turn == 1 else 4, [pos.owned[1], 1, 2, pos.owned[2]], 0, 0)
        assert sorted(pseudo_moves(r, with_defections=False)) == sorted(two)
        compared += len(two)
        if not two:
            break
        pos.push(rng.choice(two))
        if pos.kings[1] < 0 or pos.kings[2] < 0 or pos.owned[1] in (1, 2) or pos.owned[2] in (1, 2):
            break
    assert compared > 1000


def test_a_king_that_can_defect_has_not_escaped() -> None:
    # the escape trap again, but Ash's pawn on e5 (navy's square; blocked by neutral orange pawns) gives Ash navy:
    # defecting to navy leaves the king on a1 out of check, so it is a move that avoids check and the king stays
    pieces = {"m1": "wk", "a1": "ak", "a4": "an", "a9": "wr", "h2": "wr", "b8": "wr", "p8": "sk", "h16": "bk",
              "e5": "ap", "f5": "op", "e6": "op"}
    game = royale(pieces)
    game.make("wKm1-n1")
    report = game.last_report
    assert report is not None and report.escaped == ()
    assert game.king_square(2) == parse_square("a1")
    assert not [m for m in game.legal_moves() if m.text.startswith("aP")]
    assert "aK=navy" in {m.text for m in game.legal_moves()}


def test_remove_king_is_a_ruling_outside_the_moves() -> None:
    game = SovereignChessRoyale()
    game.make("wPe2-e4")
    assert game.remove_king(2) == parse_square("a9")
    assert game.interregnum() == [2] and game.piece_at(parse_square("a9")) is None
    assert ",a5," not in game.text and "a12" not in game.text.split()[6]  # Ash's castling rights went with it
    assert parse_royale(game.text) is not None and game.remove_king(2) is None
    with pytest.raises(IndexError):
        game.unmake()


@pytest.mark.parametrize("seed", range(2))
def test_four_seat_control_matches_a_fixpoint_reference(seed: int) -> None:
    """Control computed as a plain fixpoint: each seat starts from its owned colour and adds the colour of every
    square of colour holding one of its pieces, never another seat's owned colour."""
    import random

    from companion.rules.sovereign_chess.royale import control_of
    from companion.rules.sovereign_chess.squares import COLOUR_SQUARES

    rng = random.Random(seed)
    for _ in range(200):
        board = [0] * 256
        owned = rng.sample(range(12), 4)
        for a, b in COLOUR_SQUARES:
            if rng.random() < 0.6:
                board[rng.choice((a, b))] = (rng.randrange(12) << 3) | rng.randint(1, 5)
        ref = [0] * 12
        for seat, own in enumerate(owned, 1):
            got = {own}
            grew = True
            while grew:
                grew = False
                for colour, pair in enumerate(COLOUR_SQUARES):
                    if colour in got or colour in owned:
                        continue
                    if any(board[sq] and board[sq] >> 3 in got for sq in pair):
                        got.add(colour)
                        grew = True
            for colour in got:
                ref[colour] = seat
        assert control_of(board, [-1, *owned]) == ref


def test_a_king_that_can_take_the_last_other_king_has_not_escaped() -> None:
    # White's king on a1 is not in check; its rook on b2 is pinned by Ash's bishop on e5 (Ash has no king), and Ash's
    # knights cover a2 and b1: every White move but one leaves the king in check. That one, Rb2xb9, takes Black's
    # king — the last other king — and ends the game, so White's king has not escaped: White moves and wins.
    game = royale({"a1": "wk", "b2": "wr", "e5": "ab", "a3": "an", "c1": "an", "b9": "bk", "h14": "bp"}, turn=4)
    game.make("bPh14-h13")
    report = game.last_report
    assert report is not None and report.escaped == () and game.king_square(1) == parse_square("a1")
    assert game.turn == 1 and game.outcome() is None
    game.make("wRb2xb9")
    outcome = game.outcome()
    assert outcome is not None and (outcome.winner, outcome.tied, outcome.reason) == (1, (2, 3, 4), "last king")


def test_a_rook_in_a_corner_castles_along_its_rank_only() -> None:
    # p1 is on rank 1 and on the p-file: its right belongs to rank 1 (the king on i1), never to Slate's king on p8,
    # even with a slate rook there and the p-file empty between them
    pieces = {"i1": "wk", "p1": "sr", "a9": "ak", "p8": "sk", "h16": "bk"}
    game = royale(pieces, turn=3, castling="p1")
    assert not [m for m in game.legal_moves() if m.text.startswith("O-O")]
    game.make("sKp8-o8")  # and Slate's king leaving p8 leaves the rank-1 right alone
    assert game.text.split()[6] == "p1"
    game = royale({**pieces, "p1": "wr"}, castling="p1")
    assert sorted(m.text for m in game.legal_moves() if m.text.startswith("O-O")) == [
        "O-O@j1", "O-O@k1", "O-O@l1", "O-O@m1", "O-O@n1", "O-O@o1"]


def test_interregnum_ends_by_overthrow_with_a_controlled_pawn() -> None:
    # Black has no king; its pawn on e12 (red square) gives it red, and the red pawn on i11 (violet square) gives it
    # violet. Promoting that red pawn to a king is an overthrow: Black's seat now owns red, with a king on i10; the
    # black pieces are nobody's now, and with the red pawn gone from i11 so is violet
    game = royale({"m1": "wk", "a9": "ak", "p8": "sk", "e12": "bp", "i11": "rp", "c3": "wp"}, turn=4)
    assert game.interregnum() == [4] and game.controlled(4) == [Colour.RED, Colour.VIOLET]
    game.make("rPi11-i10=K")
    report = game.last_report
    assert report is not None and report.crowned == (4,) and game.interregnum() == []
    assert game.owned(4) is Colour.RED and game.king_square(4) == parse_square("i10")
    assert game.controller(Colour.BLACK) == 0 and game.controller(Colour.VIOLET) == 0 and game.turn == 1


def test_a_promotion_to_king_reports_the_old_king_taken_off() -> None:
    # a coup d'état: White's pawn on h6 promotes to a king on h7; the old king on m1 leaves the board
    game = royale({**KINGS, "h6": "wp"})
    game.make("wPh6-h7=K")
    report = game.last_report
    assert report is not None and report.removed == {1: parse_square("m1")} and report.crowned == ()
    assert game.king_square(1) == parse_square("h7") and game.piece_at(parse_square("m1")) is None
