"""The screen walks, taken once for every screen test (issue 34).

tests/test_ui_fuzz.py, test_screens_fit.py, test_interaction_contract.py and test_back_everywhere.py hold their
rules on every frame of the same 24 random walks (tests/screen_walk.py: every game, three seeds). Each walk is taken
once per run: every frame is drawn once with every check listening, and each test asserts its own check's findings.

**A new per-frame check is one function here**, registered with ``@check("name")``: it is given each
:class:`Frame` of the walk and yields one line per problem it finds (plain strings: the report is JSON). Its test
asserts ``report(game, seed, shared_dir).problems["name"] == []``. A check that presses keys does it on
``frame.copy()``: the walk itself must go on as every other check sees it. ``frame.first(tag, key)`` is True the
first time a walk meets ``key`` under ``tag`` (a screen to probe once); ``report.counts[tag]`` is how many it met.

Under pytest-xdist the report is shared through the run's common folder (``shared_dir``, tests/conftest.py): the
first worker to need a walk takes it under a lock and writes the report; the others read it.
"""
from __future__ import annotations

import copy
import dataclasses
import fcntl
import json
import logging
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Hashable, Iterable, Iterator

import pytest
from PIL import ImageDraw

from companion.events import Key, KeyEvent
from companion.session import Session
from companion.ui import draw
from companion.ui.draw import HEIGHT, WIDTH, Drawn
from fsm.prompts import Choice, Prompt
from screen_walk import GAMES, SEEDS, STEPS, walk_events

#: ``@pytest.mark.parametrize("game, seed", WALKS)``: one test per walk, with the ids of the old stacked
#: parametrisation (``test_x[0-sovereign]``)
PAIRS = [(game, seed) for seed in SEEDS for game in GAMES]
WALKS = [pytest.param(game, seed, id=f"{seed}-{game}") for game, seed in PAIRS]


# ------------------------------------------------------------------------------------ what a frame drew
def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(ink: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    return box[0] <= ink[0] and box[1] <= ink[1] and ink[2] <= box[2] and ink[3] <= box[3]


class Recorder:
    """What was drawn: the pieces the drawing helpers report (``items``) and every ``ImageDraw.text`` on the frame
    (``raw``, while :func:`watching`), so a widget drawing text on its own is held to the frame's edges too."""

    def __init__(self) -> None:
        self.items: list[Drawn] = []
        self.raw: list[tuple[str, tuple[int, int, int, int]]] = []

    def __call__(self, item: Drawn) -> None:
        self.items.append(item)

    def clear(self) -> None:
        self.items.clear()
        self.raw.clear()

    def visible(self, whole: bool = False) -> list[Drawn]:
        """What still shows: pieces painted over by a later cover (a toast) are gone (``whole``: and pieces the
        cover hides a part of)."""
        out: list[Drawn] = []
        for it in self.items:
            if it.kind == "cover":
                out = [o for o in out if not (overlap if whole else _inside)(o.ink, it.box)]
            else:
                out.append(it)
        return out

    def problems(self) -> list[str]:
        """Text outside its box or the frame, under a scroll arrow, or running into another text."""
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
                if overlap(a.ink, b_.ink):
                    out.append(f"{a.text!r} ink {a.ink} runs into {b_.text!r} ink {b_.ink}")
        for text, (l, t, r, b) in self.raw:
            if l < 0 or t < 0 or r > WIDTH or b > HEIGHT:
                out.append(f"{text!r} drawn at {(l, t, r, b)}: outside the frame")
        return out


#: (where, text, font, mode) -> the ink box ``ImageDraw.textbbox`` gives for it (the fonts never change)
_BOXES: dict[tuple[Any, ...], tuple[int, int, int, int]] = {}


class watching:
    """While open, ``rec`` gets every piece the drawing helpers report and every ``ImageDraw.text`` on the frame."""

    def __init__(self, rec: Recorder) -> None:
        self.rec = rec
        self.real = ImageDraw.ImageDraw.text

    def __enter__(self) -> Recorder:
        rec, real = self.rec, self.real

        def watched(d: ImageDraw.ImageDraw, xy, text, *args, **kwargs):  # type: ignore[no-untyped-def]
            if isinstance(text, str) and text and d.im.size == (WIDTH, HEIGHT):  # the frame, not a glyph's scratch
                key = (tuple(xy), text, kwargs.get("font"), d.mode)
                box = _BOXES.get(key)
                if box is None:  # the same texts are drawn at the same places frame after frame
                    b = d.textbbox(xy, text, font=kwargs.get("font"))
                    box = _BOXES[key] = (int(b[0]), int(b[1]), int(b[2]), int(b[3]))
                rec.raw.append((text, box))
            return real(d, xy, text, *args, **kwargs)

        ImageDraw.ImageDraw.text = watched  # type: ignore[method-assign]
        draw.RECORDERS.append(rec)
        return rec

    def __exit__(self, *exc: object) -> None:
        ImageDraw.ImageDraw.text = self.real  # type: ignore[method-assign]
        draw.RECORDERS.remove(self.rec)


# ------------------------------------------------------------------------------------ one frame of a walk
def session_copy(s: Session) -> Session:
    """A deep copy of ``s`` to press keys on. The steps of its undo and redo history, the states they go back to
    and the entries of its action log are shared, not copied (most of a long game's copying): nothing changes them
    once they are there (undo and redo move a step from one stack to the other and restore a copy of its state; the
    log is only appended to and cut). So is the prompt on screen, when it is immutable (hashable: frozen all the way
    down). The undo stack's pairs are built here rather than by ``deepcopy`` (each names the copied game), and the
    dice rolls are copied one level down (undo and redo flip their ``undone``; the rest is numbers and text)."""
    kept: list[object] = [*(x for snap, g in s.undo_stack for x in (snap[1], g)), *s.redo_stack, *s.action_log]
    memo: dict[int, Any] = {id(x): x for x in kept}
    if s._memo is not None and _immutable(s._memo[2]):
        memo[id(s._memo[2])] = s._memo[2]
    undo: list[tuple[Any, Any]] = []
    memo[id(s.undo_stack)] = undo
    rolls = [{k: list(v) if type(v) is list else v for k, v in d.items()} for d in s.dice_history]
    if all(_flat(d) for d in rolls):
        memo[id(s.dice_history)] = rolls
    c = copy.deepcopy(s, memo)
    undo.extend((snap[:-1] + (copy.deepcopy(snap[-1], memo),) if snap[0] == "game" else snap, g)
                for snap, g in s.undo_stack)
    return c


def _immutable(x: object) -> bool:
    try:
        hash(x)
    except TypeError:
        return False
    return True


def _flat(roll: dict[str, Any]) -> bool:
    """A dice roll holds text, numbers and lists of numbers only (what one level of copying copies whole)."""
    return all(v is None or type(v) in (str, int, float, bool) or type(v) is list and all(type(n) is int for n in v)
               for v in roll.values())


@dataclass(frozen=True)
class Before:
    """What the frame before showed: its pixels, the question's number, the undo depth, a menu over the game."""

    pixels: bytes
    seq: int
    depth: int
    menu: bool


@dataclass
class Frame:
    """The session after one input of the walk, drawn once. Checks read it; they never change ``s``."""

    step: int
    s: Session
    prompt: Prompt  #: the prompt on screen
    where: str  #: the title on screen: the top overlay's, else the prompt's
    size: tuple[int, int]  #: the rendered frame's size
    drawn: Recorder  #: what drawing the frame reported
    #: undo depth after an answer -> the prompt that answer was given on (the screen BACK should go back to)
    answered_on: dict[int, Prompt]
    _seen: dict[str, set[Hashable]]
    event: Any = None  #: the input that led to this frame
    before: Before | None = None  #: the frame before it, as the checks comparing the two need it
    pixels: bytes = b""  #: this frame's pixels
    _backed: "Backed | None" = None

    @property
    def screen(self) -> tuple[str, str]:
        """The screen as the checks tell them apart: the prompt's kind and title."""
        return type(self.prompt).__name__, self.prompt.title

    def first(self, tag: str, key: Hashable) -> bool:
        """True the first time this walk meets ``key`` under ``tag`` (``Report.counts[tag]`` counts them)."""
        seen = self._seen.setdefault(tag, set())
        if key in seen:
            return False
        seen.add(key)
        return True

    def copy(self) -> Session:
        """A copy of the session to press keys on."""
        return session_copy(self.s)

    def back_once(self) -> "Backed":
        """A copy of the session with BACK pressed once on it, made once for the frame: the checks that press BACK
        on a copy share it (the check "back" reads what that one press did; "contract", after it, presses on).
        What the copy draws is not recorded as the frame's (:meth:`aside`)."""
        if self._backed is None:
            with self.aside():
                self._backed = press_back(self.copy())
        return self._backed

    @contextmanager
    def aside(self) -> Iterator[None]:
        """What is drawn meanwhile (a copy pressed on) is left out of the frame's record, for the checks after."""
        items, raw = len(self.drawn.items), len(self.drawn.raw)
        try:
            yield
        finally:
            del self.drawn.items[items:], self.drawn.raw[raw:]

    def record(self, paint: Callable[[], object]) -> Recorder:
        """What ``paint`` draws (another view of this moment: the glance view), recorded as the frame was; the
        frame's own record is left as it was for the checks after this one."""
        items, raw = list(self.drawn.items), list(self.drawn.raw)
        self.drawn.clear()
        paint()
        out = Recorder()
        out.items, out.raw = list(self.drawn.items), list(self.drawn.raw)
        self.drawn.items[:], self.drawn.raw[:] = items, raw
        return out


FrameCheck = Callable[[Frame], Iterable[str]]
CHECKS: dict[str, FrameCheck] = {}


def check(name: str) -> Callable[[FrameCheck], FrameCheck]:
    """Register a per-frame check; its findings are ``Report.problems[name]``."""
    def register(fn: FrameCheck) -> FrameCheck:
        CHECKS[name] = fn
        return fn
    return register


# ------------------------------------------------------------------------------------ the checks
@check("fuzz")
def no_internal_error(f: Frame) -> Iterator[str]:
    """tests/test_ui_fuzz.py: no input ends in "Internal error"; every frame is the OLED's size."""
    if (f.s.toast or "").startswith("Internal error"):
        yield f"step {f.step}: {f.s.toast}"
    if f.size != (WIDTH, HEIGHT):
        yield f"step {f.step}: a frame of {f.size}, not {(WIDTH, HEIGHT)}"


@check("fits")
def text_fits(f: Frame) -> Iterator[str]:
    """tests/test_screens_fit.py: the frame's text, and the glance view's the screen would give way to."""
    from companion.ui.glance import glance_for, render_glance

    problems = f.drawn.problems()
    if problems and f.first("fits: screens with a problem", f.where):
        yield from (f"{f.where}: {p}" for p in problems[:3])
    g = glance_for(f.s)  # the glance view this screen would give way to after a few idle seconds
    if g is not None and f.first("glance views", (g, f.s.toast)):
        yield from (f"glance view {g}: {p}" for p in f.record(lambda: render_glance(g, f.s.toast)).problems()[:3])


def covered_focus(items: list[Drawn]) -> list[str]:
    """(a): a box painted over the row OK acts on after that row was drawn."""
    out, focus = [], None
    for it in items:
        if it.kind == "focus":
            focus = it
        elif it.kind == "cover" and focus is not None and overlap(it.box, focus.box):
            out.append(f"a toast {it.box} covers the row OK acts on {focus.box}")
    return out


def _signature(s: Session) -> Any:
    snap = s._snapshot()
    return (repr(s.prompt()), snap[0], snap[1] if snap[0] == "game" else repr(snap[1]), len(s.overlays))


@dataclass
class Backed:
    """A session copy after one BACK, and what it was before that press: its prompt, frame, undo depth, signature."""

    s: Session
    prompt: Prompt
    pixels: bytes
    depth: int
    signature: Any


def press_back(c: Session, draw: bool = True) -> Backed:
    """Press BACK once on ``c`` (a copy), noting what it showed before (``draw``: its frame too)."""
    b = Backed(c, c.prompt(), c.render().tobytes() if draw else b"", len(c.undo_stack), _signature(c))
    c.handle(KeyEvent(Key.BACK))
    return b


def probe(b: Backed, answered_on: dict[int, Prompt]) -> str | None:
    """BACK pressed once (``b``); None when it did something visible, else what went wrong."""
    s, p0 = b.s, b.prompt
    if len(s.undo_stack) == b.depth - 1 and not (isinstance(p0, Choice) and p0.back is not None):
        want = answered_on.get(b.depth)
        if want is not None and s.prompt() != want:
            return f"BACK on {p0.title!r} went to {s.prompt().title!r}, not the step before"
        return None
    if s.prompt() != p0 or s.render().tobytes() != b.pixels:
        return None
    return f"BACK on {p0.title!r} did nothing and said nothing"


@check("back")
def back_everywhere(f: Frame) -> Iterator[str]:
    """tests/test_back_everywhere.py: BACK, pressed once on each new game screen, does something visible."""
    if not f.s.overlays and not f.s.toast and f.s.game is not None and f.first("game screens", f.screen):
        with f.aside():
            err = probe(f.back_once(), f.answered_on)
        if err:
            yield err


def back_loop(s: Session, presses: int = 12, backed: Backed | None = None) -> str | None:
    """(c): BACK pressed up to ``presses`` times on a copy of ``s`` (``backed``: that copy after its first BACK);
    the circle it went round, or None.

    Coming back once to a screen is fine (a page BACK opened closes again; BACK takes back the Done that left a
    submenu, then leaves it by its own BACK); going round the same screens again and again is the ping-pong."""
    b = backed if backed is not None else press_back(session_copy(s), draw=False)
    c = b.s
    sigs, titles = [b.signature], [b.prompt.title]
    for i in range(presses):
        if i:
            c.handle(KeyEvent(Key.BACK))
        sigs.append(_signature(c))
        titles.append(c.prompt().title)
        if sigs[-1] == sigs[-2]:  # BACK stopped here (and said why): no circle
            return None
        for period in range(2, len(sigs) // 2 + 1):
            if sigs[-period:] == sigs[-2 * period:-period]:
                return "BACK went round in a circle: " + " -> ".join(titles)
    return None


@check("contract")
def contract(f: Frame) -> Iterator[str]:
    """tests/test_interaction_contract.py: no toast covers the row OK acts on; from each new screen BACK pressed
    again and again never goes round in a circle."""
    yield from (f"{f.where} (toast {f.s.toast!r}): {p}" for p in covered_focus(f.drawn.items))
    if not f.s.overlays and f.first("screens", f.screen):
        with f.aside():
            err = back_loop(f.s, backed=f.back_once())  # on the frame's copy, after the check "back" read it
        if err:
            yield err


@check("silent")
def silent_move(f: Frame) -> Iterator[str]:
    """(b) tests/test_interaction_contract.py: an UP or DOWN that left the frame as it was says what moves on; a BACK
    or OK that left it as it was says why (but OK on the last screen: the companion goes home on it)."""
    ev, over = f.event, f.s.game is not None and f.s.game.is_over
    keys = (Key.UP, Key.DOWN, Key.BACK) if over else (Key.UP, Key.DOWN, Key.BACK, Key.OK)
    if isinstance(ev, KeyEvent) and ev.key in keys and f.before is not None and f.before.pixels == f.pixels \
            and not f.s.toast:
        widget = f.s.overlays[-1].widget if f.s.overlays else f.s.screen
        yield f"{ev.key.value.upper()} on {f.where!r} ({type(widget).__name__}) changed nothing and said nothing"


def came_from(s: Session, depth: int = 4) -> str | None:
    """(d): the entry of this choice the player left it by, a few steps back in their own step (None: none)."""
    p = s.prompt()
    if not isinstance(p, Choice) or getattr(p, "advance", False) or p.board is not None:
        return None
    for _snap, g in s.undo_stack[:-depth - 1:-1]:
        if g.nav or g.rolled or p.player is not None and g.player != p.player:
            return None
        if g.title == p.title:
            key = g.answers[0][0] if g.answers else None
            return key if any(o.key == key and o.enabled and not o.in_menu for o in p.options) else None
    return None


@check("cursor")
def cursor_came_back(f: Frame) -> Iterator[str]:
    """(d) tests/test_interaction_contract.py: after an answer (not the menu's Redo, not a round trip, which puts the
    cursor back itself) that returns to a choice left by one of its entries, the cursor is on that entry."""
    s, b = f.s, f.before
    if b is None or not (isinstance(f.event, KeyEvent) and f.event.key is Key.OK) or b.menu or s.overlays:
        return
    if s.prompt_seq != b.seq and len(s.undo_stack) == b.depth + 1 and type(s.screen).__name__ == "ChoiceScreen" \
            and (key := came_from(s)) is not None:
        at = s.screen.list.items[s.screen.list.cursor].key
        if at != key:
            yield f"{f.where}: back from {key!r}, the cursor is on {at!r}"


def cut_with_room(s: Session, items: list[Drawn]) -> str | None:
    """(e): the announcement drawn cut ("…") while the screen, less the row OK acts on, had room for another line."""
    from companion.ui.draw import ELLIPSIS, ROW, wrap
    from companion.ui.widgets import ANNOUNCE_LINES, TOAST_W

    if not (s.toast and s.toast_sticky) or s.prompt().board is not None and not s.overlays:
        return None
    covers = [it for it in items if it.kind == "cover"]
    if not covers:
        return None
    box = covers[-1].box
    shown = [it for it in items if it.kind == "text" and box[1] <= it.box[1] < box[3]]
    if not any(it.text.endswith(("…", ELLIPSIS)) for it in shown):
        return None
    foci = [it for it in items if it.kind == "focus"]
    band = foci[-1].box[3] - foci[-1].box[1] if foci else 0
    if len(shown) < ANNOUNCE_LINES and HEIGHT - band - (box[3] - box[1]) >= ROW:
        return f"announcement cut to {len(shown)} of {len(wrap(s.toast, TOAST_W))} lines with room for more: " \
               f"{s.toast!r}"
    return None


@check("announce")
def announcement_whole(f: Frame) -> Iterator[str]:
    """(e) tests/test_interaction_contract.py: no announcement cut above a row it could have used."""
    if (err := cut_with_room(f.s, f.drawn.items)) is not None:
        yield f"{f.where}: {err}"


def left_tail(prompt: Prompt, items: list[Drawn], visible: list[Drawn]) -> str | None:
    """(f): a line of the question whose first rows a toast hides while its last rows still show ("other city."
    under "Ben places City 1 (4 tiles)"): a stray end of a sentence nobody can read the start of."""
    from companion.ui.draw import LIST_W, encode, wrap

    texts = [it for it in items if it.kind == "text"]
    for line in prompt.lines:
        rows = [encode(r) for r in wrap(line, LIST_W)]
        for i in range(len(texts) - len(rows) + 1) if len(rows) > 1 else ():
            run = texts[i:i + len(rows)]
            if [encode(it.text) for it in run] != rows:
                continue
            shown = [it in visible for it in run]
            if not shown[0] and any(shown):
                return f"a toast hides the start of {line!r} and leaves " \
                       f"{' '.join(it.text for it, on in zip(run, shown) if on)!r}"
    return None


@check("tail")
def no_left_tail(f: Frame) -> Iterator[str]:
    """(f) tests/test_interaction_contract.py: a toast over the question's lines takes whole lines of it."""
    if f.s.toast and (err := left_tail(f.prompt, f.drawn.items, f.drawn.visible(whole=True))) is not None \
            and f.first("tail", (f.where, err)):
        yield f"{f.where}: {err}"


# ------------------------------------------------------------------------------------ the walk, once
@dataclass
class Report:
    """What one walk found: each check's problems, how often ``Frame.first`` met something new, and how the walk
    ended."""

    problems: dict[str, list[str]] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    frames: int = 0
    answers: int = 0  #: answers given (BACK steps back through undo: counted from the action log)
    started: bool = False  #: a game was set up
    over: bool = False
    logged: str = ""  #: what was logged at ERROR during the walk


class _Errors(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(self.format(record))


def take(game: str, seed: int) -> Report:
    """Walk ``game`` with ``seed`` (tests/screen_walk.py), every frame drawn once and given to every check."""
    r = Report(problems={name: [] for name in CHECKS})
    seen: dict[str, set[Hashable]] = {}
    answered_on: dict[int, Prompt] = {}
    last_prompt: Prompt | None = None
    last_depth = 0
    errors = _Errors()
    logging.getLogger().addHandler(errors)
    s = None
    try:
        before: Before | None = None
        with watching(Recorder()) as rec:
            for i, (ev, s) in enumerate(walk_events(game, seed=seed, steps=STEPS)):
                p, depth = s.prompt(), len(s.undo_stack)
                if depth > last_depth and last_prompt is not None:
                    answered_on[depth] = last_prompt
                rec.clear()
                img = s.render()
                f = Frame(i, s, p, s.overlays[-1].title if s.overlays else p.title, img.size, rec, answered_on, seen,
                          ev, before, img.tobytes())
                for name, fn in CHECKS.items():
                    try:
                        r.problems[name] += list(fn(f))
                    except Exception:  # a broken check fails its own test, not the other checks'
                        r.problems[name].append(f"step {i}: the check failed:\n{traceback.format_exc()}")
                r.frames += 1
                last_prompt, last_depth = p, depth
                before = Before(f.pixels, s.prompt_seq, depth, bool(s.overlays))
    finally:
        logging.getLogger().removeHandler(errors)
    r.counts = {tag: len(keys) for tag, keys in seen.items()}
    r.logged = "\n".join(errors.lines)
    if s is not None and s.game is not None:
        r.started, r.over = True, bool(s.game.is_over)
        r.answers = sum(1 for e in s.action_log if "answer" in e)
    return r


_TAKEN: dict[str, Report] = {}  #: the reports this process has: walk key -> report


def _key(game: str, seed: int) -> str:
    return f"{seed}-{Path(game).stem}"


def _shared(game: str, seed: int, folder: Path, wait: bool) -> Report | None:
    """The walk's report from ``folder``, taken here if no process has taken it yet; None when another process is
    taking it right now (unless ``wait``: then wait for its report)."""
    path = folder / f"walk-{_key(game, seed)}.json"
    with open(path.with_suffix(".lock"), "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return None
        if path.exists():
            return Report(**json.loads(path.read_text()))
        r = take(game, seed)
        part = path.with_suffix(".part")
        part.write_text(json.dumps(dataclasses.asdict(r)))
        part.replace(path)
        return r


def report(game: str, seed: int, folder: Path, have: dict[str, Report] = _TAKEN) -> Report:
    """The report of ``game``'s walk with ``seed``: taken once per run by whichever process asks first (``have``:
    the reports this process has). A process that finds another one taking it takes a walk nobody has started
    meanwhile (from the other end of the list, away from the others), so no core waits while a walk is left."""
    key = _key(game, seed)
    while key not in have:
        r = _shared(game, seed, folder, wait=False)
        if r is not None:
            have[key] = r
            break
        for g, s in reversed(PAIRS):
            if _key(g, s) not in have and (other := _shared(g, s, folder, wait=False)) is not None:
                have[_key(g, s)] = other
                break
        else:  # every other walk is taken or being taken: wait for this one
            waited = _shared(game, seed, folder, wait=True)
            assert waited is not None
            have[key] = waited
    return have[key]
