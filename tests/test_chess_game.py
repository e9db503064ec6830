"""Sovereign Chess at the table: the machine, typed `move` entry, the opening choice, mate, stalemate, draws."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.errors import ScriptError
from companion.events import EntryEvent, Key, KeyEvent
from companion.games import BUILTIN, load
from companion.session.headless import play
from companion.session import Session, decode_event, encode_event
from fsm.base import Player, Setup
from fsm.prompts import Choice, InvalidAnswer
from fsm.sovereign_chess import SovereignChessGame

from conftest import run_companion

STATE_KEYS = {"position", "moves", "to_move", "owned", "controlled", "check", "result", "termination"}
#: rooks on a10 and b9 against the white king on a1; black to move mates with bRa10-a9
MATE_IN_ONE = "16/16/16/16/16/16/br15/1br14/16/16/16/16/16/16/16/wk7bk7 2 w b - 0"
#: the black queen on d2; bQd2-c2 leaves the white king on a1 no move and not in check
STALEMATE_IN_ONE = "16/16/16/16/16/16/16/16/16/16/16/16/16/16/3bq12/wk7bk7 2 w b - 0"


def game(**options: Any) -> SovereignChessGame:
    return SovereignChessGame(Setup((Player("Ann", 1), Player("Bo", 2)), options))


def session(**options: Any) -> Session:
    s = Session(SovereignChessGame, seed=1, presets=["Ann", "Bo"], options=options)
    s.handle(KeyEvent(Key.OK))  # the wizard: start with Ann and Bo
    return s


def moves(s: Session, *texts: str) -> None:
    for t in texts:
        s.handle(EntryEvent("move", t))
        assert s.refused is None, (t, s.refused)


def test_registered_and_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert load("sovereign-chess") is SovereignChessGame and "sovereign-chess" in BUILTIN
    assert run_companion("games", "--ids").stdout.split().count("sovereign-chess") == 1


def test_first_mover_chosen_then_reject_keeps_seats() -> None:
    g = game()
    with pytest.raises(InvalidAnswer, match="^first say who makes White's first move$"):
        g.entry_answer("wPi2-i4")
    g.answer("seat2")  # Bo makes White's first move
    assert g.to_move() == 2 and g.state_json()["to_move"] == 2
    g.answer(g.entry_answer("wPi2-i4"))
    assert g.state == "opening" and g.prompt().player == 1
    with pytest.raises(InvalidAnswer, match="^Ann first accepts or rejects the first move: 'move accept' or 'move"):
        g.entry_answer("bPe15-e13")
    g.answer("reject")
    js = g.state_json()
    assert js["moves"] == ["wPi2-i4", "reject"] and js["to_move"] == 1
    assert js["owned"] == {"2": "white", "1": "black"}
    assert set(js) >= STATE_KEYS


def test_accept_takes_white_and_the_move() -> None:
    g = game()
    g.answer("seat1")
    g.answer("wPi2-i4")
    g.answer("accept")
    js = g.state_json()
    assert js["owned"] == {"1": "black", "2": "white"} and js["to_move"] == 1
    assert js["moves"] == ["wPi2-i4", "accept"]
    assert all(o.key.startswith("b") for o in g.prompt().options if not o.in_menu)  # Ann now moves Black


def test_random_first_mover_is_a_random_prompt() -> None:
    s = Session(SovereignChessGame, seed=3, presets=["Ann", "Bo"], options={"first": "random"})
    s.handle(KeyEvent(Key.OK))
    assert s.game is not None and s.game.state == "move" and s.game.data["first"] in (1, 2)
    assert any(a.get("auto") for a in s.action_log)  # drawn by the session's RNG, journaled as an automatic pick
    first = s.game.player_name(s.game.data["first"])
    assert s.toast == f"{first} drawn to make White's first move" and s.toast_sticky  # the table is told who
    s.handle(EntryEvent("move", "wPi2-i4"))
    assert s.toast is None  # gone with the next press; the move's own toast (none here) takes over


def test_move_entry_is_a_path_choice_of_legal_moves_only() -> None:
    g = game()
    g.answer("seat1")
    p = g.prompt()
    assert isinstance(p, Choice) and p.board is not None
    moves_ = [o for o in p.options if not o.in_menu]
    legal = {m.text for m in g.engine().legal_moves()}
    assert {o.key for o in moves_} == legal
    assert all(len(o.path) == 2 and o.path[0].split()[1] == o.key[2:].split("-")[0] for o in moves_)
    spots = dict(p.board.spots)
    assert spots["wPi2-i4"] == (8 + 16, 8 + 48)  # i2, i4
    with pytest.raises(InvalidAnswer):
        g.entry_answer("wPi2-i5")
    with pytest.raises(InvalidAnswer, match="expected"):
        g.entry_answer("zz")


def test_state_json_keys_and_undo_move_by_move() -> None:
    s = session()
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))  # Ann moves first
    moves(s, "wPi2-i4", "reject", "bPe15-e13")
    js = s.state_json()
    assert set(js) >= STATE_KEYS and "clocks" not in js
    assert js["moves"] == ["wPi2-i4", "reject", "bPe15-e13"] and js["to_move"] == 1
    assert js["check"] is False and js["result"] is None and js["termination"] is None
    assert s.undo() == "Undone: Bo: bPe15-e13 (Move)"  # the move undone, not just the screen
    assert s.state_json()["moves"] == ["wPi2-i4", "reject"]
    s.undo()
    assert s.game is not None and s.game.state == "opening"
    s.redo()
    s.redo()
    assert s.state_json()["moves"] == ["wPi2-i4", "reject", "bPe15-e13"]


def test_buttons_enter_a_move_piece_then_target_back_steps_back() -> None:
    s = session()
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))
    assert s.game is not None
    first = [o for o in s.prompt().options if not o.in_menu][0]
    s.handle(KeyEvent(Key.OK))  # the piece
    s.handle(KeyEvent(Key.BACK))  # back to the pieces
    s.handle(KeyEvent(Key.OK))
    s.handle(KeyEvent(Key.OK))  # its first target
    assert s.game.data["moves"] == [first.key]


def test_mate_ends_the_game_with_a_winner_and_result() -> None:
    s = session(start=MATE_IN_ONE)
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))  # Ann is player 1: White, and Bo (Black) is to move here
    moves(s, "bRa10-a9")
    js = s.state_json()
    assert js["result"] == "0-1" and js["termination"] == "checkmate" and js["winner"] == 2
    assert js["check"] is True and js["to_move"] is None
    assert s.game is not None and s.game.is_over and s.status == "finished"
    s.handle(EntryEvent("move", "wKa1-b1"))
    assert s.refused and "no game is waiting" in s.refused


def test_stalemate_is_a_draw() -> None:
    s = session(start=STALEMATE_IN_ONE)
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))
    moves(s, "bQd2-c2")
    js = s.state_json()
    assert (js["result"], js["termination"], js["winner"]) == ("1/2-1/2", "stalemate", None)


def _menu_action(s: Session, key: str, confirm: bool = True) -> None:
    s.handle(KeyEvent(Key.HOLD))
    w = s.overlays[-1].widget
    for _ in range(len(w.items)):
        if w.items[w.cursor].key == f"act:{key}":
            break
        s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))
    if confirm:
        s.handle(KeyEvent(Key.UP))  # the confirmation starts on No
    s.handle(KeyEvent(Key.OK))


def test_resign_and_agreed_draw_from_the_game_menu() -> None:
    s = session()
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))
    moves(s, "wPi2-i4", "accept")
    _menu_action(s, "resign", confirm=False)  # No: nothing happens
    assert s.game is not None and not s.game.is_over
    _menu_action(s, "resign")  # Ann (to move, now Black) resigns: Bo, White, wins
    js = s.state_json()
    assert (js["termination"], js["winner"], js["result"]) == ("resignation", 2, "1-0")
    s.undo()
    _menu_action(s, "agree")
    assert s.state_json()["result"] == "1/2-1/2" and s.state_json()["termination"] == "agreement"


def test_threefold_repetition_can_be_claimed_only_when_it_applies() -> None:
    g = game()
    g.answer("seat1")
    for text in ("wNf1-e3", "reject"):
        g.answer(text)
    claim = next(o for o in g.prompt().options if o.key == "claim")
    assert not claim.enabled
    with pytest.raises(InvalidAnswer):
        g.answer("claim")
    for _ in range(2):
        for text in ("bNf16-e14", "wNe3-f1", "bNe14-f16", "wNf1-e3"):
            g.answer(text)
    claim = next(o for o in g.prompt().options if o.key == "claim")
    assert claim.enabled and "threefold" in claim.label
    g.answer("claim")
    assert g.state_json()["termination"] == "threefold repetition"


def test_fifty_move_rule_counts_quiet_half_moves() -> None:
    g = game()
    g.answer("seat1")
    g.answer("wNf1-e3")
    g.answer("reject")
    g.data["quiet"] = 99
    g.answer("bNf16-e14")
    assert "fifty" in next(o for o in g.prompt().options if o.key == "claim").label
    g.answer("wPi2-i4")  # a pawn move starts the count again
    assert g.data["quiet"] == 0


def test_a_bad_start_position_is_one_line() -> None:
    with pytest.raises(ValueError, match=r"\[games.sovereign-chess\] start: position text"):
        SovereignChessGame.resolve_options({"start": "not a position"})


def test_journal_text_of_a_typed_move_round_trips() -> None:
    ev = EntryEvent("move", "wPi2-i4")
    assert encode_event(ev) == "move wPi2-i4" and decode_event("move wPi2-i4") == ev


def test_scripted_play_with_move_lines(tmp_path: Path) -> None:
    script = tmp_path / "s.txt"
    script.write_text("ok\ndown\nok  # Ann moves first\nmove wPi2-i4\nmove accept\nmove bPe15-e13\n")
    out = tmp_path / "st.json"
    state = play("sovereign-chess", script, seed=1, state_json=out)
    assert state["moves"] == ["wPi2-i4", "accept", "bPe15-e13"] and state["to_move"] == 2
    assert json.loads(out.read_text())["position"] == state["position"]
    script.write_text("ok\ndown\nok\nmove wPi2-i5\n")
    with pytest.raises(ScriptError, match="s.txt line 4: 'move wPi2-i5': move 'wPi2-i5' is not legal"):
        play("sovereign-chess", script, seed=1)
    script.write_text("move\n")
    with pytest.raises(ScriptError, match="line 1"):
        play("sovereign-chess", script, seed=1)


def _cell(img: Any, sq: int) -> list[str]:
    x, y = (sq % 16) * 4, (15 - sq // 16) * 4
    return ["".join("#" if img.getpixel((x + c, y + r)) else "." for c in range(4)) for r in range(4)]


def test_board_screen_draws_pieces_cursor_and_targets() -> None:
    s = session()
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))  # Ann moves first, White
    img = s.render()
    # the white king on i1 is Ann's own army: the cell inverted, the king's cross dark
    assert _cell(img, 8) == [
        "#.##",
        "...#",
        "#.##",
        "####",
    ]
    # the black rook on e16 is the opponent's: the rook's box, underlined
    assert _cell(img, 15 * 16 + 4) == ["###.", "#.#.", "###.", "###."]
    # an empty square of colour (h9, white) is a dot
    assert _cell(img, 8 * 16 + 7) == ["....", ".#..", "....", "...."]
    first = [o for o in s.prompt().options if not o.in_menu][0]
    s.handle(KeyEvent(Key.OK))  # pick the first piece: its targets show as blocks
    img = s.render()
    target = dict(s.prompt().board.spots)[first.key][1]  # type: ignore[union-attr]
    assert _cell(img, target)[1] == ".##." and _cell(img, target)[2] == ".##."
    text = "".join(str(img.getpixel((x, y))) for x in range(66, 128) for y in range(0, 64))
    assert "1" in text  # the text half says something


def test_no_text_is_clipped_on_the_board_screens_through_a_whole_game() -> None:
    from pathlib import Path

    from companion.ui.board_screens import TEXT_W, wrap
    from companion.ui.draw import WIDTH, font

    f = font()
    moves = (Path(__file__).parent / "data" / "sovereign_chess_game.txt").read_text().split()
    g = game(clock="fischer 600+5")
    g.answer("seat1")
    seen = set()
    for move in moves:
        p = g.prompt()
        for line in p.lines:
            assert all(f.getlength(row) <= TEXT_W for row in wrap(line, TEXT_W)), line
        for o in p.options:
            seen.update(o.path)
        for line in g.control_map():
            assert f.getlength(line) <= WIDTH - 8, line  # the game menu's page
        g.answer(move)
    for line in g.prompt().lines:  # game over
        assert all(f.getlength(row) <= TEXT_W for row in wrap(line, TEXT_W)), line
    too_wide = [label for label in seen if f.getlength(label) > TEXT_W]
    assert not too_wide
    assert {"defect", "Take White", "Play Black"} <= seen and any(s.startswith("=K") for s in seen)


def test_check_flashes_the_checked_players_led() -> None:
    g = game(start="16/16/16/16/16/16/br15/2br13/16/16/16/16/16/16/16/wk7bk7 2 w b - 0")
    g.answer("seat1")
    assert g.alert_seats() == []
    g.answer("bRa10-a9")  # check (c9 does not cover b1 and b2: not mate)
    assert g.state_json()["check"] is True and g.alert_seats() == [1]
    g.answer(g.entry_answer("wKa1-b2"))
    assert g.alert_seats() == []


def test_back_at_the_piece_step_opens_the_control_map() -> None:
    s = session()
    s.handle(KeyEvent(Key.DOWN))
    s.handle(KeyEvent(Key.OK))
    moves(s, "wPl2-l4", "reject", "bPe15-e13", "wPl4-l5")  # l5 is a red square: Ann now controls red
    assert s.toast == "Ann now controls red through l5"
    board = s.prompt().board
    assert board is not None and board.cells[4 * 16 + 11] == "Pe*"  # Bo to move: Ann's pawn on l5 (red), marked
    s.handle(KeyEvent(Key.BACK))
    assert s.overlays and s.overlays[-1].title == "Control map"
    lines = s.overlays[-1].widget.lines
    assert lines[:2] == ["Ann: owns white", " red via l5"] and lines[2] == "Bo: owns black"
    assert lines[-1].startswith("Blocked:") and "e12" in lines[-1]
    s.handle(KeyEvent(Key.BACK))
    assert not s.overlays
    assert _cell(s.render(), 4 * 16 + 11)[0] == "...#"  # the pawn on l5 has its dot at the top right


def test_companion_play_script_ends_in_mate_from_a_composed_start(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text(f'[games.sovereign-chess]\nstart = "{MATE_IN_ONE}"\n')
    script = tmp_path / "mate.txt"
    script.write_text("ok\ndown\nok\nmove bRa10-a9\n")
    out = tmp_path / "state.json"
    r = run_companion("--config", str(cfg), "play", "sovereign-chess", "--script", str(script), "--state-json",
                      str(out), "--seed", "1")
    assert r.returncode == 0, r.stderr
    state = json.loads(out.read_text())
    assert (state["termination"], state["result"], state["winner_name"]) == ("checkmate", "0-1", "Ben")


def test_held_buttons_go_faster_and_stop_at_the_ends() -> None:
    from companion.ui.board_screens import PathChoice
    from fsm.prompts import Option

    walk = PathChoice([Option(str(i), str(i), path=(f"p{i:02d}", "t")) for i in range(30)])
    walk.key(Key.UP)
    assert walk.cursor == 29  # a press wraps
    walk.key(Key.DOWN)
    for _ in range(6):
        walk.key(Key.DOWN, repeat=True)
    assert walk.cursor == 7  # the sixth repeat already moves two
    for _ in range(5):
        walk.key(Key.DOWN, repeat=True)
    assert walk.cursor == 17  # two a step from then on
    for _ in range(20):
        walk.key(Key.DOWN, repeat=True)
    assert walk.cursor == 29  # held, it stops at the end


def test_companion_play_script_ends_on_time(tmp_path: Path) -> None:
    cfg = tmp_path / "config.toml"
    cfg.write_text('[games.sovereign-chess]\nclock = "sudden 1"\n')
    script = tmp_path / "time.txt"
    script.write_text("ok\ndown\nok\nmove wPi2-i4\nwait 1.2\n")  # Bo lets the second run out
    journal = tmp_path / "j.sqlite"
    out = tmp_path / "state.json"
    r = run_companion("--config", str(cfg), "play", "sovereign-chess", "--script", str(script), "--state-json",
                      str(out), "--seed", "1", "--journal", str(journal))
    assert r.returncode == 0, r.stderr
    state = json.loads(out.read_text())
    assert (state["termination"], state["result"], state["winner_name"]) == ("time", "1-0", "Ana")
    assert state["clocks"]["2"] == 0


def _drawn(cell: str) -> tuple[str, ...]:
    from PIL import Image, ImageDraw

    from companion.ui.board import draw_cell

    img = Image.new("1", (4, 4), 0)
    draw_cell(ImageDraw.Draw(img), 0, 0, cell)
    return tuple("".join("#" if img.getpixel((x, y)) else "." for x in range(4)) for y in range(4))


def test_every_piece_style_and_mark_draws_a_cell_of_its_own() -> None:
    """Compared with the physical board square by square: no two (role, whose, on a square of colour) cells look
    alike, nor like an empty or blocked square of colour; the role's lit shape is the same for a controlled, an
    opponent's and a neutral piece (only the own army is inverted)."""
    cells = [role + style + mark for role in "KQRBNP" for style in "ocen" for mark in ("", "*")]
    drawn = {cell: _drawn(cell) for cell in [*cells, ".", "#", ""]}
    seen: dict[tuple[str, ...], str] = {}
    for cell, pattern in drawn.items():
        assert pattern not in seen, f"{cell!r} looks like {seen[pattern]!r}: {pattern}"
        seen[pattern] = cell
    for role in "KQRBNP":
        shapes = {style: tuple(row[:3] for row in drawn[role + style][:3]) for style in "cen"}
        assert len(set(shapes.values())) == 1, (role, shapes)


def test_the_glance_view_keeps_the_running_clock_in_view(tmp_path: Path) -> None:
    """Idle for a few seconds, the screen shows whose move it is in large type: with a clock running it still shows
    the mover's time, ticking, and the move number; paused, it says so."""
    import queue

    from companion.loop.app import App
    from companion.config.load import parse_config
    from companion.ui.idle import Level
    from companion.journal.store import Journal
    from companion.ui.glance import render_glance

    t = [100.0]
    frames: list[Any] = []

    class Out:
        def present(self, frame: Any, active: Any, waiting: Any, alerts: Any = ()) -> None:
            frames.append(frame)

        def set_roller(self, *args: Any) -> None:
            pass

        def close(self, farewell: Any = None) -> None:
            pass

    cfg = parse_config({"journal": {"path": str(tmp_path / "j.sqlite")}, "screen": {"glance_seconds": 8},
                        "games": {"sovereign-chess": {"clock": "fischer 300+5"}}})
    app = App(cfg, Journal(tmp_path / "j.sqlite"), queue.SimpleQueue(), Out(), clock=lambda: t[0],
              game="sovereign-chess")
    app.boot()
    for k in (Key.OK, Key.DOWN, Key.OK):
        app.dispatch(KeyEvent(k))
    for text in ("wPi2-i4", "reject", "bPe15-e13"):
        app.dispatch(EntryEvent("move", text))
    t[0] += 9
    app._idle_tick()
    assert app.idle.level is Level.GLANCE
    g = app.glance()
    assert g is not None and (g.name, g.round, g.clock) == ("Ana", 2, "4:56")
    assert frames[-1].tobytes() == render_glance(g).tobytes()
    t[0] += 1
    app._clock_tick()
    assert app.glance().clock == "4:55" and frames[-1].tobytes() == render_glance(app.glance()).tobytes()
    assert app.session is not None
    app.session.timekeeper.pause(t[0])  # type: ignore[union-attr]
    assert app.glance().clock == "clock paused"


def test_a_defection_is_announced_as_a_new_owned_colour_not_as_a_loss() -> None:
    """Bo (White) defects to red, which he controlled through his pawn on l5: he now owns red and no longer owns
    white; nothing was lost to the other side."""
    g = game()
    g.answer("seat2")
    record = (Path(__file__).parent / "data" / "sovereign_chess_game.txt").read_text().split()
    for text in record[:9]:
        g.answer(text)
    assert g.state_json()["controlled"]["2"] == ["red", "violet"]  # red through the pawn on l5
    g.answer("wK=red")
    assert g.state_json()["owned"]["2"] == "red"
    assert g.data["announce"] == "Bo now owns red, no longer white"
    assert g.data["log"][-1] == "Bo: wK=red defects to red; Bo now owns red, no longer white"


def test_an_overthrow_is_announced_and_a_coup_keeps_the_owned_colour() -> None:
    # White controls navy through the knight on e5; the navy pawn on h6 (a violet square) promotes on h7
    start = "16/16/16/16/16/16/16/16/16/16/7np8/4wn11/16/16/16/wkwr13bk 1 w b - 0"
    g = game(start=start)
    g.answer("seat1")
    g.answer(g.entry_answer("nPh6-h7=K"))
    assert g.state_json()["owned"]["1"] == "navy"
    assert g.data["announce"] == "Ann: overthrow to navy, take the king off a1; Ann lost violet"
    assert g.engine().piece_at(0) is None
    g = game(start="16/16/16/16/16/16/16/16/16/16/7wp8/16/16/16/16/wk14bk 1 w b - 0")
    g.answer("seat1")
    g.answer(g.entry_answer("wPh6-h7=K"))
    assert g.state_json()["owned"]["1"] == "white"
    assert g.data["announce"] == "Ann: coup d'état, take the king off a1; Ann lost violet"  # h6 is violet
    assert "regime change" in g.data["log"][-1]
