"""The `sovereign-chess-royale` game machine: armies assigned, a scripted four-player game to the last king,
announcements, the status page and the state JSON."""
from __future__ import annotations

from fsm.screen_text import fits

from pathlib import Path
from typing import Any

import pytest

from companion.rules.sovereign_chess import parse_square, royale_start
from companion.rules.sovereign_chess.fen import board_text
from companion.rules.sovereign_chess.squares import COLOUR_LETTERS, ROLE_LETTERS
from fsm.base import Player, Setup
from fsm.prompts import Choice, Info, InvalidAnswer, Random
from fsm.sovereign_chess_royale import SovereignChessRoyaleGame

NAMES = ("Ann", "Ben", "Cleo", "Dee")


def composed(pieces: dict[str, str]) -> str:
    board = [0] * 256
    for name, piece in pieces.items():
        board[parse_square(name)] = (COLOUR_LETTERS.index(piece[0]) << 3) | ROLE_LETTERS.index(piece[1])
    return f"{board_text(board)} 1 w a s b - 0"


#: A composed battle for the whole story. White: king m1, rooks e13 p9 o8 i2, bishop e4 (attacking Ash's king on
#: c6), knight g12. Ash: king c6, queen c11 (its diagonal to h16 hidden by White's rook on e13). Slate: king p1 in a
#: trap (its knight on p4 pinned by the rook on p9; o1, o2, p2 covered by the rooks on o8 and i2). Black: king h16,
#: pawns h11 and c14.
STORY_START = composed({
    "m1": "wk", "e13": "wr", "p9": "wr", "o8": "wr", "i2": "wr", "e4": "wb", "g12": "wn",
    "c6": "ak", "c11": "aq",
    "p1": "sk", "p4": "sn",
    "h16": "bk", "h11": "bp", "c14": "bp",
})
STORY = [
    ("wRe13-e16", "Check: Ben by Ann; Dee by Ann, Ben"),  # check given (and Ash's queen uncovered)
    ("aQc11xh16", "Ben took Dee's king; Cleo's king escaped: take it off p1 (Interregnum); Check: Ben by Ann"),
    ("sNp4-n5", "Check: Ben by Ann"),  # Slate, without its king, still moves
    # the pawn left h11, a pink square: control lost is said after the kings, before the checks
    ("bPh11-h10=K", "Long live the king! Dee crowned on h10; Dee lost pink; Check: Ben by Ann; Check: Dee by Ann, Ben"),
    ("wBe4xc6", "Ann took Ben's king; Check: Dee by Ann, Ben"),
    ("aQh16-h14", "Check: Dee by Ann, Ben"),
    ("sNn5-l6", "Check: Dee by Ann, Ben"),
    ("bPc14-c13", "Check: Dee by Ann, Ben"),
    ("wNg12xh10", "Ann took Dee's king"),
]


def new_game(**options: Any) -> SovereignChessRoyaleGame:
    return SovereignChessRoyaleGame(Setup(tuple(Player(n, i + 1) for i, n in enumerate(NAMES)), options))


def test_registered_for_exactly_four_players() -> None:
    from companion.games import load

    cls = load("sovereign-chess-royale")
    assert cls is SovereignChessRoyaleGame and (cls.min_players, cls.max_players) == (4, 4)
    with pytest.raises(ValueError, match="takes 4 to 4 players"):
        SovereignChessRoyaleGame(Setup(tuple(Player(n, i + 1) for i, n in enumerate(NAMES[:3]))))


def test_armies_drawn_at_random() -> None:
    g = new_game()
    g.answer("random")
    prompt = g.prompt()
    assert isinstance(prompt, Random) and len(prompt.keys) == 24 and "3142" in prompt.keys
    g.answer("3142")  # Cleo White, Ann Ash, Dee Slate, Ben Black
    # the draw is announced: everyone must see who plays which army; Cleo, moving first, presses OK
    prompt = g.prompt()
    assert isinstance(prompt, Info) and prompt.title == "Announcement" and prompt.player == 3
    assert prompt.lines == ("Drawn at random:", "White: Cleo", "Ash: Ann", "Slate: Dee", "Black: Ben")
    g.answer(True)
    js = g.state_json()
    assert js["armies"] == {"3": "white", "1": "ash", "4": "slate", "2": "black"}
    assert js["to_move"] == 3 and js["active_player"] == 3
    g.answer(g.entry_answer("wPe2-e4"))
    assert g.state_json()["to_move"] == 1  # Ash (Ann) moves second
    assert g.data["log"][0] == "Armies: white Cleo, ash Ann, slate Dee, black Ben"


def test_armies_chosen() -> None:
    g = new_game()
    g.answer("choose")
    for seat, title in ((4, "White"), (2, "Ash"), (1, "Slate")):
        prompt = g.prompt()
        assert isinstance(prompt, Choice) and prompt.title == f"Who plays {title}?"
        g.answer(str(seat))
    assert g.state == "move"
    assert g.state_json()["armies"] == {"4": "white", "2": "ash", "1": "slate", "3": "black"}


def test_seats_option_and_the_default_start() -> None:
    g = new_game(armies="seats")
    assert g.state == "move" and g.data["position"] == royale_start()
    js = g.state_json()
    assert js["owned"] == {"1": "white", "2": "ash", "3": "slate", "4": "black"}
    assert js["kings"] == {"1": "i1", "2": "a9", "3": "p8", "4": "h16"}
    assert js["interregnum"] == [] and js["check"] == {} and js["result"] is None
    prompt = g.prompt()
    assert isinstance(prompt, Choice) and prompt.player == 1 and prompt.board is not None
    moves = [o for o in prompt.options if not o.in_menu]
    assert len(moves) == 20 and all(o.path for o in moves)  # entered piece first, then target
    assert [o.key for o in prompt.options if o.in_menu] == ["agree"]


def test_all_agree_to_a_draw_from_the_menu() -> None:
    g = new_game(armies="seats")
    g.answer("agree")
    js = g.state_json()
    assert g.state == "game_over" and js["result"] == "1/4-1/4-1/4-1/4" and js["termination"] == "agreement"
    assert js["winner"] is None and g.data["winners"] == list(NAMES)


def test_bad_start_option_is_one_line() -> None:
    with pytest.raises(ValueError) as e:
        new_game(start="16/16 1 w a s b - 0")
    assert str(e.value).startswith("[games.sovereign-chess-royale] start: Royale position text: board: expected 16 ranks")


def test_illegal_move_text_is_refused_and_changes_nothing() -> None:
    g = new_game(armies="seats")
    before = g.snapshot()
    with pytest.raises(InvalidAnswer, match="not legal for the White army"):
        g.entry_answer("wPe2-e5")
    with pytest.raises(InvalidAnswer, match="expected"):
        g.entry_answer("e4")
    with pytest.raises(InvalidAnswer):
        g.answer("wPe2-e5")
    assert g.snapshot() == before


def test_scripted_four_player_game_to_the_last_king() -> None:
    g = new_game(armies="seats", start=STORY_START)
    assert g.state_json()["check"] == {"2": [1]}  # already in check at the start: shown before anyone moves
    for text, said in STORY:
        g.answer(g.entry_answer(text))
        if g.state == "news":  # kings taken, crowned or escaped: shown until the next player presses OK
            prompt = g.prompt()
            assert isinstance(prompt, Info) and prompt.title == "Announcement"
            assert "; ".join(g.data["news"]) == said, text
            assert prompt.lines == tuple(g.data["news"])  # whole: the OLED wraps them, the phone shows them
            assert prompt.player == g.state_json()["to_move"]
            g.answer(True)
        elif g.state == "move":
            assert g.data["announce"] == said, text  # checks only: a toast
    assert g.data["news"] == ["Ann took Dee's king"]
    js = g.state_json()
    assert js["moves"] == [t for t, _ in STORY] and js["round"] == 3  # nine moves: the third round of four
    assert js["winner"] == 1 and js["winner_name"] == "Ann"
    assert js["result"] == "1-0-0-0" and js["termination"] == "last king"
    assert js["interregnum"] == [2, 3, 4]
    assert js["kings"] == {"1": "m1", "2": None, "3": None, "4": None}
    assert js["standing"] == {"1": "playing", "2": "interregnum", "3": "interregnum", "4": "interregnum"}
    assert g.state == "game_over" and isinstance(g.prompt(), Info)
    assert g.prompt().lines == ("Ann took Dee's king", "Ann wins (last king)", "Tied: Ben, Cleo, Dee")


def test_state_json_in_the_middle_and_the_status_page() -> None:
    g = new_game(armies="seats", start=STORY_START)
    for text, _ in STORY[:2]:
        g.answer(g.entry_answer(text))
    g.answer(True)  # the announcement: Dee's king taken, Cleo's escaped
    js = g.state_json()
    for key in ("position", "moves", "to_move", "owned", "controlled", "check", "result", "termination",
                "interregnum", "kings"):
        assert key in js
    assert js["to_move"] == 3 and js["interregnum"] == [3, 4]
    assert js["kings"] == {"1": "m1", "2": "c6", "3": None, "4": None}
    assert js["check"] == {"2": [1]}
    prompt = g.prompt()
    assert isinstance(prompt, Choice) and prompt.lines == ("No king", "owns slate")
    (status,) = g.views()
    assert status.title == "Status"
    assert status.lines[:4] == ("Ann: playing", " white army, owns white", " king m1", "Ben: playing")
    assert "Cleo: Interregnum" in status.lines and "Dee: Interregnum" in status.lines
    assert status.lines[-1] == "Check: Ben by Ann"
    assert all(fits(line) for line in status.lines)  # measured as drawn
    prompt = g.prompt()
    assert prompt.player == 3


def test_an_army_with_no_piece_left_is_out_and_passed_over() -> None:
    # Slate has nothing left on the board: it is out, and its turns are passed over
    g = new_game(armies="seats", start=composed({"m1": "wk", "c6": "ak", "h16": "bk", "m4": "wp", "a3": "ap"}))
    js = g.state_json()
    assert js["standing"]["3"] == "out" and js["interregnum"] == [3]
    g.answer(g.entry_answer("wPm4-m5"))
    g.answer(g.entry_answer("aPa3-a4"))
    assert g.state == "news" and g.prompt().lines == ("Cleo passes: no move",)
    assert g.state_json()["to_move"] == 4


def test_checked_seats_leds_flash_through_the_session() -> None:
    from companion.events import EntryEvent, Key, KeyEvent
    from companion.session import Session
    from hw.leds import SimLeds

    s = Session(SovereignChessRoyaleGame, seed=1, presets=list(NAMES),
                options={"armies": "seats", "start": STORY_START})
    s.handle(KeyEvent(Key.OK))  # the wizard: four players, start
    assert s.game is not None and s.alerts() == (2,)  # Ben's king is in check from the start
    s.handle(EntryEvent("move", STORY[0][0]))
    assert s.alerts() == (2, 4) and s.toast == STORY[0][1]
    leds = SimLeds(4)
    leds.show(*s.leds(), s.alerts())
    assert leds.snapshot().players == ("off", "fast", "off", "fast")  # Ben is to move, and in check
    s.handle(EntryEvent("move", STORY[1][0]))  # Ben takes Dee's king: an announcement waits for OK
    assert s.prompt().title == "Announcement" and s.alerts() == (2,)
    s.handle(KeyEvent(Key.OK))
    assert s.prompt().title == "Move" and s.game.state_json()["to_move"] == 3


SCRIPT = Path(__file__).parent / "scripts" / "royale_last_king_standing.txt"


def test_the_story_script_is_the_story() -> None:
    """The shipped script (tests/scripts/royale_last_king_standing.txt) plays exactly STORY from STORY_START."""
    from script_kit import header

    head = header(SCRIPT)
    assert head["game"] == "sovereign-chess-royale" and head["options"] == {"armies": "seats", "start": STORY_START}
    moves = [ln.split()[1] for ln in SCRIPT.read_text().splitlines() if ln.startswith("move ")]
    assert moves == [t for t, _ in STORY]


def test_the_story_played_from_a_script_through_the_cli(tmp_path: Any) -> None:
    """Issue 12's "Done when": `companion play sovereign-chess-royale --script F --state-json OUT` with four
    players from the composed start (the game's `start` option): a check announced, a king captured by a following
    player, an escaped king, an army in Interregnum crowned again by promotion, and the last king standing wins."""
    import json

    from companion.cli import main
    from script_kit import header

    opts = header(SCRIPT)["options"]
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[players]\nnames = {json.dumps(list(NAMES))}\n[games.sovereign-chess-royale]\n'
                   + "".join(f"{k} = {json.dumps(v)}\n" for k, v in opts.items()))
    out = tmp_path / "state.json"
    assert main(["--config", str(cfg), "play", "sovereign-chess-royale", "--script", str(SCRIPT), "--seed", "1",
                 "--state-json", str(out)]) == 0
    state = json.loads(out.read_text())
    assert state["state"] == "game_over" and state["winner"] == 1 and state["winner_name"] == "Ann"
    assert state["result"] == "1-0-0-0" and state["termination"] == "last king"
    assert state["moves"] == [t for t, _ in STORY]
    assert state["interregnum"] == [2, 3, 4] and state["kings"] == {"1": "m1", "2": None, "3": None, "4": None}
    assert state["check"] == {} and state["to_move"] is None
    assert [p["name"] for p in state["players"]] == list(NAMES) and len(state["owned"]) == 4


def test_royale_is_easy_to_find(tmp_path: Any) -> None:
    """`companion games --ids` names it; `companion games` keeps every description in one column although its id is
    the longest; the New game menu lists it by name."""
    import queue

    from companion.loop.app import App
    from companion.config.load import parse_config
    from companion.events import Key, KeyEvent
    from companion.journal.store import Journal
    from conftest import run_companion
    from test_app import FakeOutput

    assert "sovereign-chess-royale" in run_companion("games", "--ids").stdout.split()
    rows = [ln for ln in run_companion("games").stdout.splitlines() if not ln.endswith(".toml)")]
    starts = {len(ln) - len(ln.split(" ", 1)[1].lstrip()) for ln in rows}  # where each description starts
    assert len(rows) >= 6 and len(starts) == 1, rows
    royale = next(ln for ln in rows if ln.startswith("sovereign-chess-royale "))
    assert royale.split(None, 1)[1] == SovereignChessRoyaleGame.description
    cfg = parse_config({"journal": {"path": str(tmp_path / "j.sqlite")}})
    app = App(cfg, Journal(cfg.journal_path()), queue.SimpleQueue(), FakeOutput())
    app.boot()
    app.dispatch(KeyEvent(Key.OK))  # New game
    labels = [it.label for it in app.home.stack[-1][2].items]
    assert "Sovereign Chess Royale" in labels, labels


def test_checked_seats_leds_flash_through_the_app(tmp_path: Any) -> None:
    """The app hands the game's alert seats (kings in check) to the LEDs with every frame, next to the active one."""
    import queue

    from companion.loop.app import App
    from companion.config.load import parse_config
    from companion.events import EntryEvent, Key, KeyEvent
    from companion.journal.store import Journal
    from test_app import FakeOutput

    cfg = parse_config({"journal": {"path": str(tmp_path / "j.sqlite")}, "players": {"names": list(NAMES)},
                        "games": {"sovereign-chess-royale": {"armies": "seats", "start": STORY_START}}})
    out = FakeOutput()
    app = App(cfg, Journal(cfg.journal_path()), queue.SimpleQueue(), out, game="sovereign-chess-royale")
    app.boot()
    app.dispatch(KeyEvent(Key.OK))  # the wizard: four players, start
    assert out.leds[-1] == (1, True) and out.alerts[-1] == (2,)  # Ann to move; Ben in check from the start
    app.dispatch(EntryEvent("move", STORY[0][0]))
    assert out.leds[-1] == (2, True) and out.alerts[-1] == (2, 4)  # Ben to move, Ben and Dee in check
    assert app.session is not None and app.session.toast == STORY[0][1]
    app.dispatch(EntryEvent("move", STORY[1][0]))  # Ben takes Dee's king: Dee's LED stops flashing
    assert out.alerts[-1] == (2,)


#: A whole game from the default start (found by a capture-happy random player, then kept): Ash takes Black's king
#: (ply 10), White takes Slate's (13), Black regains a king by promotion (60) and loses it to Slate (71), and
#: White takes Ash's king (81): the last king.
DEFAULT_START_GAME = (
    "wPl2-l3 aPb9-c9 sPo11-n11 bPf15-f14 wPi2-i3 aQa8xh15 sBp10xk15 bBg16-d13 wQh1xo8 aQh15xh16 sBk15xj16 "
    "bQi16xj16 wQo8xp8 aQh16xj16 sNp6-o8 bBd13xb11 wQp8xo8 aQj16xj15 sQp9xo8 bBb11xa12 wPk2-k4 aQj15xi15 "
    "sQo8xk4 bNk16xi15 wPl3xk4 aNa11-c10 sBp7-m10 bPf14-f13 wBj1xo6 aPb12-b11 sBm10xe2 bPf13-g13 wRe1xe2 "
    "aPb6-c6 sPn11-m11 bBa12xb11 wBo6xp5 aBa7xf2 sPo12-o11 bBb11xc10 wRe2xf2 aPc6-d6 sRp12-h12 bBc10-e12 "
    "wPi3-i4 aPd6-d7 sRh12xe12 bPe15-f15 wBp5-k10 aBa10xf15 sRe12xe16 bPg13-g12 wBk10xf15 aPd7-e7 "
    "sRe16xf16 bPg12-g11 wRl1-l4 aPe7-e8 sRf16xl16 bPg11-g10=K wPk4-j4 aKa9-b9 sRl16xl15 bNi15-k16 "
    "wNk1-i2 aPb8-c8 sRl15xg15 bKg10-g9 wRf2-f9 aPb5-b6 sRg15xg9 bNk16-l14 wBg1xb6 aPe8xf9 sRg9xg2 "
    "bNl14-k16 wRl4-l12 aKb9-a10 sPm11xl12 bNk16-i15 wBf15xa10 "
).split()


def test_a_whole_game_from_the_default_start() -> None:
    g = new_game(armies="seats")
    news = []
    for text in DEFAULT_START_GAME:
        g.answer(g.entry_answer(text))
        if g.state == "news":
            news += g.data["news"]
            g.answer(True)
    control = (" now controls ", " now owns ", " lost ")
    assert [n for n in news if not n.startswith("Check") and not any(c in n for c in control)] == [
        "Ben took Dee's king", "Ann took Cleo's king", "Long live the king! Dee crowned on g10",
        "Cleo took Dee's king",
    ]
    js = g.state_json()
    assert g.state == "game_over" and js["winner_name"] == "Ann" and js["termination"] == "last king"
    assert len(js["moves"]) == 81 and js["interregnum"] == [2, 3, 4]


def test_a_new_king_tells_the_table_to_take_the_old_one_off() -> None:
    g = new_game(armies="seats", start=composed({"m1": "wk", "h6": "wp", "c6": "ak", "h16": "bk", "p1": "sk"}))
    g.answer(g.entry_answer("wPh6-h7=K"))
    # h6 is a violet square: the pawn leaving it is said too
    assert g.state == "news" and g.data["news"] == ["Ann's new king: take the old one off m1", "Ann lost violet"]
    assert g.state_json()["kings"]["1"] == "h7"


def test_a_seat_whose_time_runs_out_loses_its_king() -> None:
    g = new_game(armies="seats", clock="fischer 60+1")
    g.time_out(3)
    js = g.state_json()
    assert js["kings"]["3"] is None and js["interregnum"] == [3] and g.state == "news"
    assert g.prompt().lines == ("Cleo: time is up, king off p8",)
    assert "p5" not in js["position"].split()[6]  # Slate's castling rights went with its king
    g.answer(True)
    g.answer(g.entry_answer("wPe2-e4"))  # play goes on
    g.time_out(3)  # no king left to lose: only noted
    assert g.data["log"][-1] == "Cleo: time is up (no king to lose)"


def test_a_check_uncovered_by_a_king_lost_on_time_is_announced() -> None:
    # Ann's king on e3 stands between Dee's rook on h3 and Ben's king on c3: when Ann's time runs out and her king
    # leaves the board, Ben is in check, and the table is told so with the time-out
    g = new_game(armies="seats", start=composed({"e3": "wk", "m4": "wp", "c3": "ak", "h3": "br", "h16": "bk",
                                                 "p1": "sk"}))
    assert g.state_json()["check"] == {"1": [4]}
    g.time_out(1)
    assert g.state == "news" and g.data["news"] == ["Ann: time is up, king off e3", "Check: Ben by Dee"]
    assert g.state_json()["check"] == {"2": [4]} and g.alert_seats() == [2]


def test_time_running_out_can_leave_the_last_king() -> None:
    g = new_game(armies="seats", start=composed({"m1": "wk", "c6": "ak", "a3": "sp", "h16": "bp"}))
    g.time_out(2)
    assert g.state == "game_over" and g.state_json()["winner_name"] == "Ann"


def test_a_seat_whose_time_runs_out_on_its_turn_with_only_its_king_is_passed_over() -> None:
    # White's king is all it has: when its flag falls on its own turn it has no move, so its turn passes to Ash
    g = new_game(armies="seats", start=composed({"m1": "wk", "c6": "ak", "p16": "sk", "h16": "bk", "a3": "ap"}))
    g.time_out(1)
    assert g.state == "news" and g.data["news"] == ["Ann: time is up, king off m1", "Ann passes: no move"]
    g.answer(True)
    assert g.state_json()["to_move"] == 2 and "aPa3-a4" in {o.key for o in g.prompt().options}


def test_a_start_option_whose_seat_to_move_cannot_move_is_passed_over() -> None:
    # composed start: White has only a king, hemmed in by neutral pawns (not in check): it escapes and White,
    # left with nothing, is passed over; Ash moves first
    g = new_game(armies="seats", start=composed({"a1": "wk", "a2": "pp", "b1": "pp", "b2": "pp", "c6": "ak",
                                                 "h16": "bk", "p1": "sk"}))
    js = g.state_json()
    assert js["to_move"] == 2 and js["kings"]["1"] is None and js["interregnum"] == [1]
    assert "Start: White's king escaped: take it off a1 (Interregnum)" in g.data["log"]
    assert "Start: White passes: no move" in g.data["log"]
    # and told to the table before the first move
    assert g.state == "news" and g.prompt().lines == ("Ann's king escaped: take it off a1 (Interregnum)",
                                                      "Ann passes: no move")
    g.answer(True)
    assert g.state == "move" and g.prompt().player == 2


def test_four_clocks_run_through_the_session() -> None:
    from companion.events import Key, KeyEvent
    from companion.session import Session

    s = Session(SovereignChessRoyaleGame, seed=1, presets=list(NAMES),
                options={"armies": "seats", "clock": "sudden 300"})
    s.handle(KeyEvent(Key.OK), 100.0)
    js = s.state_json()
    assert sorted(js["clocks"]) == [1, 2, 3, 4] or sorted(js["clocks"]) == ["1", "2", "3", "4"]
    assert s.render().size == (128, 64)


def test_board_screen_shows_only_the_running_seats_time_of_four() -> None:
    from companion.events import Key, KeyEvent
    from companion.session import Session

    s = Session(SovereignChessRoyaleGame, seed=1, presets=list(NAMES), options={"armies": "seats", "clock": "sudden 300"})
    s.handle(KeyEvent(Key.OK), 100.0)
    s.render()
    screen: Any = s.screen
    assert len(screen.clock) == 4 and [r[0] for r in screen.shown_clock()] == ["Ann"]


def test_export_record_names_the_four_armies(tmp_path: Any) -> None:
    from companion.session.headless import play
    from conftest import run_companion

    journal = tmp_path / "j.sqlite"
    script = tmp_path / "s.txt"
    script.write_text("ok\nmove wPe2-e4\nmove aPb9-c9\n")
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[players]\nnames = {list(NAMES)!r}\n[games.sovereign-chess-royale]\narmies = "seats"\n'
                   .replace("'", '"'))
    play("sovereign-chess-royale", script, seed=2, journal_path=journal, config=str(cfg))
    r = run_companion("export", "--journal", str(journal), "--record")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == '[Game "Sovereign Chess Royale"]'
    for army, name in zip(("White", "Ash", "Slate", "Black"), NAMES):
        assert f'[{army} "{name}"]' in lines
    assert lines[lines.index("") + 1:] == ["wPe2-e4", "aPb9-c9", "*"]


def test_chess_inspect_shows_a_royale_position_and_replays_its_record(tmp_path: Any,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """A table writing its own start position (the printed figure) checks it with `companion chess inspect`: Royale
    position text is shown as Royale (four seats, kings, checks); an exported Royale record replays."""
    import json

    from companion.cli import main
    from companion.session.headless import play

    assert main(["chess", "inspect", "--fen", royale_start()]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("16 cQ vR vB vQ bR bN bB bK bQ") and out[15].startswith(" 1 rQ rB rR pN wR wN wB wQ wK")
    assert "seat 2 (ash army): owns ash, controls nothing else; king a9" in out
    assert "no king in check" in out and out[-1] == "20 legal moves"
    assert main(["chess", "inspect", "--fen", STORY_START, "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["check"] == {"2": [1]} and js["seats"]["3"] == {"army": "slate", "owned": "slate", "controlled": [],
                                                             "king": "p1"}
    # the story's record, exported, replays to the last king (its Start header gives the composed start)
    journal = tmp_path / "j.sqlite"
    cfg = tmp_path / "c.toml"
    cfg.write_text(f'[players]\nnames = {json.dumps(list(NAMES))}\n[games.sovereign-chess-royale]\n'
                   f'armies = "seats"\nstart = "{STORY_START}"\n')
    play("sovereign-chess-royale", SCRIPT, seed=1, journal_path=journal, config=str(cfg))
    assert main(["export", "--journal", str(journal), "--record"]) == 0
    record = tmp_path / "story.txt"
    record.write_text(capsys.readouterr().out)
    assert main(["chess", "inspect", "--moves-file", str(record), "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert js["moves"] == [t for t, _ in STORY] and js["interregnum"] == [2, 3, 4]
    assert js["outcome"] == {"winner": 1, "tied": [2, 3, 4], "reason": "last king"}
    # bad input: one line naming what is wrong
    record.write_text("wPe2-e4\nwPe4-e5\n")
    assert main(["chess", "inspect", "--royale", "--moves-file", str(record)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "story.txt line 2" in err[0] and "not legal for the Ash army" in err[0]
    assert main(["chess", "inspect", "--fen", "16/16 1 w a s b - 0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "Royale position text: board: expected 16 ranks" in err[0]


def test_four_clocks_follow_the_armies_at_the_table(tmp_path: Any) -> None:
    """The clock runs for the table seat playing the army to move (armies chosen: Cleo White, Ann Ash, Dee Slate,
    Ben Black), one clock per player; a flag falling takes that player's king off and says so."""
    import queue

    from companion.loop.app import App
    from companion.config.load import parse_config
    from companion.events import EntryEvent, Key, KeyEvent, TickEvent
    from companion.journal.store import Journal
    from test_app import FakeOutput

    t = [100.0]
    cfg = parse_config({"journal": {"path": str(tmp_path / "j.sqlite")}, "players": {"names": list(NAMES)},
                        "games": {"sovereign-chess-royale": {"clock": "sudden 10"}}})
    out = FakeOutput()
    app = App(cfg, Journal(cfg.journal_path()), queue.SimpleQueue(), out, clock=lambda: t[0],
              game="sovereign-chess-royale")
    app.boot()
    for k in ("ok", "down", "ok", "down", "down", "ok", "ok", "down", "ok"):  # start; Choose: Cleo, Ann, Dee
        app.dispatch(KeyEvent(Key(k)))
    s = app.session
    assert s is not None and s.state_json()["armies"] == {"3": "white", "1": "ash", "4": "slate", "2": "black"}
    for dt, move in ((2, "wPe2-e4"), (3, "aPb9-c9"), (4, "sPo9-n9"), (1, "bPf15-f14")):
        t[0] += dt
        app.dispatch(EntryEvent("move", move))
        assert s.refused is None, move
    assert s.state_json()["clocks"] == {"1": 7.0, "2": 9.0, "3": 8.0, "4": 6.0}
    assert out.leds[-1] == (3, True)  # Cleo (White) to move again
    end = t[0] + 9
    while (nxt := app.clock_deadline()) is not None and nxt <= end:
        t[0] = max(t[0], nxt)
        app.dispatch(TickEvent())
    js = s.state_json()
    assert js["kings"]["3"] is None and js["interregnum"] == [3] and js["clocks"]["3"] == 0.0
    assert "Cleo: time is up, king off i1" in s.game.data["log"]


def test_a_change_of_control_is_announced_as_in_the_two_player_game() -> None:
    g = new_game(armies="seats")
    opening = ["wPg2-g4", "aPb9-d9", "sPo9-n9", "bPk15-k13", "wPl2-l4", "aBa10-c8", "sPo6-n6", "bPh15-h13",
               "wPf2-g2"]
    for text in opening:
        g.answer(g.entry_answer(text))
        assert g.data["announce"] is None, text  # nothing changed hands yet
    g.answer(g.entry_answer("aQa8-e12"))  # Ash's queen onto a red square
    assert g.state == "move" and g.data["announce"] == "Ben now controls red through e12"
    assert "red" in g.state_json()["controlled"]["2"]
    assert g.data["log"][-1].endswith("aQa8-e12; Ben now controls red through e12")
