"""The device's end of game (issue 32): the last screen says who won and the figure that decided it (the game's
``outcome()``), names whole, measured to fit, with a line on its first screen pointing at the phones' story; the
phone is asked the same prompt; the last announcement gives way to it instead of covering it until a press."""
from __future__ import annotations

import random
from pathlib import Path
from typing import Iterator

import pytest

from companion.events import AnswerEvent
from companion.games import load
from companion.session import Session
from companion.session.ending import STORY_LINE
from companion.ui.draw import LIST_W, text_width, wrap
from companion.ui.prompt_screens import ROWS
from companion.web.snapshot import prompt_json
from fsm.autoplay import random_answer
from script_kit import SCRIPTS, run_script
from walk_checks import Recorder, watching

@pytest.fixture
def recorder() -> Iterator[Recorder]:
    """Every text drawn, held to its box (tests/walk_checks.py)."""
    with watching(Recorder()) as rec:
        yield rec


ENDINGS = ["chess_resignation.txt", "chess_stalemate.txt", "royale_last_king_standing.txt", "soverana_bank.txt"]


def first_screen(lines: tuple[str, ...]) -> list[str]:
    return [w for line in lines for w in wrap(line, LIST_W)][:ROWS]


def shown(session: Session, recorder: Recorder) -> list[str]:
    """The texts the last screen draws, the announcement gone (it is timed at the end: see below)."""
    session.toast = None
    session.screen = session._new_screen()
    recorder.clear()
    session.render()
    assert recorder.problems() == []
    return [it.text for it in recorder.visible() if it.kind == "text"]


@pytest.mark.parametrize("script", ENDINGS)
def test_the_last_screen_says_who_won_what_decided_it_and_where_the_story_is(script: str,
                                                                             recorder: Recorder) -> None:
    session, _seen = run_script(SCRIPTS / script)
    assert session.game is not None and session.game.is_over
    p = session.prompt()
    result, decider = session.game.outcome()
    assert p.title == "Game over" and p.board is None and p.player is None  # the whole width for the words
    assert p.lines[0] == result and (not decider or p.lines[1] == decider)
    said = [x for x in (result, decider) if x]
    drawn = shown(session, recorder)
    assert any(result.startswith(t) for t in drawn)
    if sum(len(wrap(x, LIST_W)) for x in said) < ROWS:  # on the first screen, without scrolling
        assert STORY_LINE in first_screen(p.lines) and STORY_LINE in drawn
    else:  # who won and what decided it fill the screen: the story line is the next, one press down
        assert p.lines[len(said)] == STORY_LINE
    assert prompt_json(p, session.names, session.sources)["lines"] == list(p.lines)  # the phone is asked the same
    assert not session.toast_sticky  # the final announcement is timed: the summary shows once it is gone


def test_long_names_stay_whole_and_the_story_line_fits_one_row(recorder: Recorder) -> None:
    assert text_width(STORY_LINE) <= LIST_W
    cls = load("race-to-ten")
    s = Session(cls, seed=2, presets=("Bartholomew-Alexander", "Bo"), options={})
    rng = random.Random(2)
    for _ in range(3000):
        if s.game is not None and s.game.is_over:
            break
        s.handle(AnswerEvent(random_answer(s.prompt(), rng), s.prompt_seq, "device"))
    assert s.game is not None and s.game.is_over and s.game.winner_seat() == 1
    lines = s.prompt().lines
    assert lines[0] == s.game.outcome()[0] and lines[0].startswith("Bartholomew-Alexander wins")
    screen = first_screen(lines)
    assert screen[0] == "Bartholomew-Alexander" and screen[1].startswith("wins")  # wrapped at a space, never cut
    assert screen[-1] == STORY_LINE
    assert "…" not in "".join(screen)
    assert "Bartholomew-Alexander" in shown(s, recorder)


def test_without_the_web_view_the_last_screen_points_nowhere(tmp_path: Path) -> None:
    session, _ = run_script(SCRIPTS / "chess_resignation.txt")
    session.story_hint = False
    assert STORY_LINE not in session.prompt().lines and session.prompt().lines[0] == session.game.outcome()[0]
    from companion.config.load import parse_config
    from companion.journal.store import Journal
    from companion.session.headless import new_record, open_session

    for on in (True, False):
        cfg = parse_config({"journal": {"path": str(tmp_path / f"j{on}.sqlite")}, "web": {"enabled": on}})
        journal = Journal(cfg.journal_path())
        try:
            assert open_session(journal, new_record(journal, "sovereign", cfg, 1), cfg).story_hint is on
        finally:
            journal.close()
