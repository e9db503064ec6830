"""Text that fits, always: every screen the random walk reaches in every game is drawn, and every piece of text must
lie inside the box it was given, inside the frame, and clear of the scroll arrows.

The drawing helpers (companion/ui/draw.py) report each text and arrow they draw; ``ImageDraw.text`` itself is also
watched, so a widget drawing text on its own is held to the frame's edges.
"""
from __future__ import annotations

from typing import Iterator

import pytest
from PIL import ImageDraw

from companion.ui import draw
from companion.ui.draw import HEIGHT, WIDTH, Drawn
from screen_walk import GAMES, SEEDS, STEPS, walk


class Recorder:
    def __init__(self) -> None:
        self.items: list[Drawn] = []
        self.raw: list[tuple[str, tuple[int, int, int, int]]] = []

    def __call__(self, item: Drawn) -> None:
        self.items.append(item)

    def visible(self, whole: bool = False) -> list[Drawn]:
        """What still shows: pieces painted over by a later cover (a toast) are gone (``whole``: and pieces the
        cover hides a part of)."""
        out: list[Drawn] = []
        for it in self.items:
            if it.kind == "cover":
                out = [o for o in out if not (_overlap if whole else _inside)(o.ink, it.box)]
            else:
                out.append(it)
        return out

    def problems(self) -> list[str]:
        out = []
        items = self.visible()
        marks = [m for m in items if m.kind == "mark"]
        for it in items:
            if it.kind != "text":
                continue
            l, t, r, b = it.ink
            bl, bt, br, bb = it.box
            if l < bl or r > br or t < bt or b > bb:
                out.append(f"{it.text!r} ink {it.ink} outside its box {it.box}")
            if l < 0 or t < 0 or r > WIDTH or b > HEIGHT:
                out.append(f"{it.text!r} ink {it.ink} outside the frame")
            for m in marks:
                if l < m.ink[2] and m.ink[0] < r and t < m.ink[3] and m.ink[1] < b:
                    out.append(f"{it.text!r} ink {it.ink} under the scroll arrow at {m.ink}")
        texts = [it for it in self.visible(whole=True) if it.kind == "text"]
        for i, a in enumerate(texts):  # two texts running into each other (a title into the name beside it)
            for b_ in texts[i + 1:]:
                if _overlap(a.ink, b_.ink):
                    out.append(f"{a.text!r} ink {a.ink} runs into {b_.text!r} ink {b_.ink}")
        for text, (l, t, r, b) in self.raw:
            if l < 0 or t < 0 or r > WIDTH or b > HEIGHT:
                out.append(f"{text!r} drawn at {(l, t, r, b)}: outside the frame")
        return out


def _overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(ink: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= ink[0] and box[1] <= ink[1] and ink[2] <= box[2] and ink[3] <= box[3]


@pytest.fixture
def recorder(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorder]:
    rec = Recorder()
    real_text = ImageDraw.ImageDraw.text

    def watched(self: ImageDraw.ImageDraw, xy, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        if isinstance(text, str) and text and self.im.size == (WIDTH, HEIGHT):  # the frame, not a glyph cache's scratch
            box = self.textbbox(xy, text, font=kwargs.get("font"))
            rec.raw.append((text, tuple(int(v) for v in box)))  # type: ignore[arg-type]
        return real_text(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", watched)
    draw.RECORDERS.append(rec)
    try:
        yield rec
    finally:
        draw.RECORDERS.remove(rec)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", SEEDS)
def test_every_screen_fits(game: str, seed: int, recorder: Recorder) -> None:
    """Every frame of the UI fuzz's walks (tests/test_ui_fuzz.py: same games, seeds and steps) is drawn and held."""
    from companion.ui.glance import glance_for, render_glance

    seen: set[str] = set()
    glances: set[object] = set()
    bad: list[str] = []
    for s in walk(game, seed=seed, steps=STEPS):
        recorder.items.clear()
        recorder.raw.clear()
        s.render()
        problems = recorder.problems()
        if problems:
            where = s.overlays[-1].title if s.overlays else s.prompt().title
            if where not in seen:
                seen.add(where)
                bad += [f"{where}: {p}" for p in problems[:3]]
        g = glance_for(s)  # the glance view this screen would give way to after a few idle seconds
        if g is not None and (g, s.toast) not in glances:
            glances.add((g, s.toast))
            recorder.items.clear()
            recorder.raw.clear()
            render_glance(g, s.toast)
            bad += [f"glance view {g}: {p}" for p in recorder.problems()[:3]]
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
        recorder.items.clear()
        recorder.raw.clear()
        app.frame()
        bad += [f"{app.home.stack[-1][1]}: {x}" for x in recorder.problems()]
    assert not bad, "\n".join(bad[:10])
