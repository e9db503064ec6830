"""Text that fits, always: every screen the random walk reaches in every game is drawn, and every piece of text must
lie inside the box it was given, inside the frame, and clear of the scroll arrows.

The drawing helpers (companion/ui/draw.py) report each text and arrow they draw; ``ImageDraw.text`` itself is also
watched, so a widget drawing text on its own is held to the frame's edges.
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pytest

from companion.ui import draw
from companion.ui.draw import WIDTH
from walk_checks import WALKS, Recorder, report, watching


@pytest.fixture
def recorder() -> Iterator[Recorder]:
    with watching(Recorder()) as rec:
        yield rec


@pytest.mark.parametrize("game, seed", WALKS)
def test_every_screen_fits(game: str, seed: int, shared_dir: Path) -> None:
    """Every frame of the UI fuzz's walks (tests/test_ui_fuzz.py: same games, seeds and steps) is drawn and held,
    and the glance view each screen would give way to (tests/walk_checks.py takes each walk once)."""
    bad = report(game, seed, shared_dir).problems["fits"]
    assert not bad, "\n".join(bad[:20])


def test_the_check_catches_text_past_the_edge(recorder: Recorder) -> None:
    """The check is not empty: text drawn past the right edge, or under an arrow, is caught."""
    img, d = draw.new_frame()
    d.text((100, 0), "far too long for here", font=draw.font())
    draw.draw_text(d, 2, 11, "a row that reaches the arrow column", width=WIDTH - 2)
    draw.scroll_marks(d, 11, 61, True, True)
    draw_text_over = draw.draw_text(d, 1, 1, "A title given the whole bar", width=WIDTH - 2)
    draw.draw_text(d, draw_text_over - 20, 1, "Cleopatra", width=60)  # a name tag drawn over the title's end
    problems = recorder.problems()
    assert any("outside the frame" in p for p in problems)
    assert any("under the scroll arrow" in p for p in problems)
    assert any("runs into 'Cleopatra'" in p for p in problems)


def test_a_toast_may_cover_part_of_a_text(recorder: Recorder) -> None:
    """A toast box painted over the lower half of a big number hides it: not two texts running together."""
    img, d = draw.new_frame()
    draw.big_text(d, 20, "12")
    d.rectangle((2, 40, 125, 63), fill=1)
    draw.cover(2, 40, 126, 64)
    draw.draw_text(d, 4, 43, "Rolled d6 4", width=118, fill=0)
    assert recorder.problems() == []


def test_fit_measures_what_is_drawn() -> None:
    """The width fit() allows is the width the frame (mode "1") really gets, with an ellipsis when cut."""
    for text in ("Woodland costs 5; 4 points", "Cleopatra's City 11 +1 tile", "W", "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii"):
        for width in (20, 60, 124):
            shown = draw.fit(text, width)
            img, d = draw.new_frame()
            d.text((0, 0), shown, font=draw.font())
            box = img.getbbox()
            assert box is None or box[2] <= width, (text, width, box)
            if shown != draw.encode(text):
                assert shown.endswith(draw.ELLIPSIS)


def test_fonts_are_bitmap_fonts_with_tall_enough_capitals() -> None:
    """Body capitals at least 7 px; the large size (names, numbers) at least 14 px; both shipped with a licence."""
    from PIL import ImageFont

    for size, least in (("body", 7), ("large", 14)):
        f = draw.font(size)
        assert isinstance(f, ImageFont.ImageFont) and not isinstance(f, ImageFont.FreeTypeFont)
        img, d = draw.new_frame()
        d.text((0, 0), "H", font=f, fill=1)
        box = img.getbbox()
        assert box is not None and box[3] - box[1] >= least, (size, box)
    assert (draw.FONT_DIR / "LICENSES.md").is_file()


def test_home_menus_and_settings_fit(recorder: Recorder, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The home menu, resume, fairness and every settings page (the character picker too), by random presses."""
    import queue
    import random

    from companion.loop.app import App
    from companion.config.load import load_config
    from companion.events import Key, KeyEvent
    from companion.journal.store import Journal
    from test_app import FakeOutput

    p = tmp_path / "c.toml"
    p.write_text(f'[journal]\npath = "{tmp_path / "j.sqlite"}"\n')
    cfg = load_config(p)
    app = App(cfg, Journal(cfg.journal_path()), queue.SimpleQueue(), FakeOutput())
    app.boot()
    rng = random.Random(4)
    bad: list[str] = []
    for _ in range(600):
        app.dispatch(KeyEvent(rng.choice([Key.UP, Key.DOWN, Key.DOWN, Key.OK, Key.OK, Key.BACK])))
        if app.session is not None:
            app.leave_game()
        recorder.clear()
        app.frame()
        bad += [f"{app.home.stack[-1][1]}: {x}" for x in recorder.problems()]
    assert not bad, "\n".join(bad[:10])
