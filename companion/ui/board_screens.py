"""Screens for prompts that carry a board: the board on the left half, the text on the right.

A Choice whose options have a ``path`` is walked step by step (the piece, then its target, then the promotion):
UP/DOWN move among the current step's choices (wrapping; held, they go faster and stop at the ends), OK takes one,
BACK steps back. The board shows the cursor, the selected piece and its targets.
"""
from __future__ import annotations

from typing import Any, Sequence

from PIL import Image, ImageDraw

from fsm.prompts import BoardView, Choice, Info, Option

from companion.events import Key
from companion.ui.board import CELL, paste_board
from companion.ui.clock_face import draw_time, time_width
from companion.ui.draw import HEIGHT, MARK_W, ROW, WIDTH, focus, font, new_frame, scroll_marks, text_row
from companion.ui.prompt_screens import PromptScreen
from companion.ui.widgets import Back, Done, Outcome, Toast, no_move

TEXT_X = 66  #: the text half starts here, right of the board
TEXT_W = WIDTH - TEXT_X - 1
ROWS = HEIGHT // ROW  #: text rows in the half (6)


def wrap(text: str, width: int) -> list[str]:
    """A line as the rows it takes at ``width`` pixels, broken between words."""
    f = font()
    rows: list[str] = []
    cur = ""
    for word in text.split():
        cand = f"{cur} {word}".strip()
        if cur and f.getlength(cand) > width:
            rows.append(cur)
            cur = word
        else:
            cur = cand
    return [*rows, cur] if cur else rows


def abbreviate(name: str, width: int) -> str:
    """As much of a name as fits (at least its first letter), without an ellipsis: a clock row's label."""
    f = font()
    while len(name) > 1 and f.getlength(name) > width:
        name = name[:-1]
    return name


def path(o: Option) -> tuple[str, ...]:
    """An option's steps; an option without a path is one step, its label."""
    return o.path or (o.label,)


class PathChoice:
    """The steps of a Choice whose options carry paths: a cursor per step, the chosen labels so far."""

    def __init__(self, options: Sequence[Option], default: str | None = None) -> None:
        self.options = [o for o in options if not o.in_menu]
        self.chosen: list[str] = []
        self.cursor = 0
        self._repeats = 0
        #: the steps chosen -> (the options they lead to, the next step's labels): a board screen asks for them
        #: several times a frame and again on every cursor move, and the options never change
        self._steps: dict[tuple[str, ...], tuple[list[Option], list[str]]] = {}
        if default is not None:
            for o in self.options:
                if o.key == default:
                    self.cursor = self.labels().index(path(o)[0])

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "_steps"}  # (worked out again when needed)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._steps = {}

    def _step(self) -> tuple[list[Option], list[str]]:
        chosen = tuple(self.chosen)
        got = self._steps.get(chosen)
        if got is None:
            n = len(chosen)
            matching = [o for o in self.options if path(o)[:n] == chosen]
            labels: list[str] = []
            for o in matching:
                if len(path(o)) > n and path(o)[n] not in labels:
                    labels.append(path(o)[n])
            got = self._steps[chosen] = (matching, labels)
        return got

    def matching(self) -> list[Option]:
        return list(self._step()[0])

    def labels(self) -> list[str]:
        """The current step's choices, in option order."""
        return list(self._step()[1])

    def under_cursor(self) -> list[Option]:
        """The options the cursor's choice leads to (the first is the one the board points at)."""
        labels = self.labels()
        if not labels:
            return []
        label = labels[self.cursor % len(labels)]
        n = len(self.chosen)
        return [o for o in self.matching() if path(o)[n] == label]

    def key(self, k: Key, repeat: bool = False) -> Outcome | str:
        labels = self.labels()
        n = len(labels)
        if k in (Key.UP, Key.DOWN) and n:
            self._repeats = self._repeats + 1 if repeat else 0
            step = 2 if self._repeats >= 6 else 1
            delta = -step if k is Key.UP else step
            was = self.cursor
            self.cursor = (self.cursor + delta) % n if not repeat else min(n - 1, max(0, self.cursor + delta))
            return no_move(n, k) if self.cursor == was else None
        if k is Key.OK and n:
            label = labels[self.cursor]
            depth = len(self.chosen)
            leaf = [o for o in self.under_cursor() if len(path(o)) == depth + 1]
            if leaf:
                if not leaf[0].enabled:
                    return Toast(leaf[0].hint or f"{label}: not now")
                return Done(leaf[0].key)
            self.chosen.append(label)
            self.cursor = 0
            return None
        if k is Key.BACK:
            if self.chosen:
                label = self.chosen.pop()
                self.cursor = self.labels().index(label)
                return None
            return Back()
        return None


def spots_of(view: BoardView, key: str) -> tuple[int, ...]:
    for k, spots in view.spots:
        if k == key:
            return spots
    return ()


class BoardChoiceScreen(PromptScreen):
    prompt: Choice

    def __init__(self, prompt: Choice, names: Sequence[str]) -> None:
        super().__init__(prompt, names)
        self.paths = PathChoice(prompt.options, prompt.default)
        #: the game clock's rows (name, time shown, running), set by the session before each draw
        self.clock: list[tuple[str, str, bool]] = []
        self.paused = False
        self._static: tuple[Any, Image.Image] | None = None
        self._slots: list[tuple[int, bool]] = []
        #: the move just made, for the player who must answer it ("Ana: Nb1c3"), set by the session
        self.last_move = ""

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a resume snapshot) as a replay leaves it, never drawn: what the session sets before each draw and
        the board image kept for the clock's ticks are drawn again."""
        return {**self.__dict__, "clock": [], "paused": False, "_static": None, "_slots": [], "last_move": ""}

    def part_way(self) -> bool:
        return bool(self.paths.chosen)

    def set_clock(self, rows: list[tuple[str, str, bool]], paused: bool) -> None:
        self.clock, self.paused = rows, paused

    def shown_clock(self) -> list[tuple[str, str, bool]]:
        """The clock rows drawn: all of them for two players; with more, only the running seat's (else the first),
        so the text half keeps room for the prompt's lines."""
        labels = self.paths.labels()
        free = ROWS - 1 - (len(self.paths.chosen) + 1 if labels else 0)  # the rows above the steps of the move
        if len(self.clock) <= min(2, free):
            return self.clock
        return ([r for r in self.clock if r[2]][:1] or self.clock[:1])[:max(0, free)]

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        out = self.paths.key(k, repeat)
        if isinstance(out, Back):
            return Done(self.prompt.back) if self.prompt.back is not None else out
        return out  # type: ignore[return-value]

    def draw(self, d: ImageDraw.ImageDraw) -> None:
        self.draw_body(d)

    def focus(self) -> tuple[int | None, int | None, list[int]]:
        """(cursor square, selected piece's square, target squares) for the board."""
        view = self.prompt.board
        if view is None:
            return None, None, []
        depth = len(self.paths.chosen)
        under = self.paths.under_cursor()
        cursor = None
        if under:
            spots = spots_of(view, under[0].key)
            cursor = spots[depth] if len(spots) > depth else None
        selected = None
        targets: list[int] = []
        if depth:
            match = self.paths.matching()
            spots = spots_of(view, match[0].key) if match else ()
            selected = spots[0] if spots else None
            for o in match:
                s = spots_of(view, o.key)
                if len(s) > depth and s[depth] != selected:
                    targets.append(s[depth])
        return cursor, selected, targets

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        """Everything but the clock digits is drawn once per cursor position and kept; a clock tick pastes that and
        draws the digits."""
        key = (tuple(self.paths.chosen), self.paths.cursor, self.paused, self.last_move,
               tuple((name, len(shown), running) for name, shown, running in self.shown_clock()))
        if self._static is None or self._static[0] != key:
            img, sd = new_frame()
            self._slots = self._draw_static(sd)
            self._static = (key, img)
        d.bitmap((0, 0), self._static[1], fill=1)
        if self.paths.labels():  # the step OK takes, at the bottom of the text half
            focus(d, HEIGHT - ROW, HEIGHT, TEXT_X, WIDTH)
        for (y, running), (_name, shown, _r) in zip(self._slots, self.shown_clock()):
            draw_time(d, WIDTH - 2, y, shown, fill=0 if running else 1)

    def _draw_static(self, d: ImageDraw.ImageDraw) -> list[tuple[int, bool]]:
        """Draw all but the clock digits; returns where the digits go: (y, on an inverted box)."""
        slots: list[tuple[int, bool]] = []
        p = self.prompt
        depth = len(self.paths.chosen)
        labels = self.paths.labels()
        cur = self.paths.cursor % len(labels) if labels else 0
        count = f"{cur + 1} of {len(labels)}" if len(labels) > 1 else ""  # the step row's ▲▼ say UP/DOWN go on
        # the player to act heads the text half (the prompt's title when nobody in particular acts)
        head = self.tag or p.title
        cw = int(font().getlength(count)) + 3 if count else 0
        if count and font().getlength(head) > TEXT_W - cw - 2:  # the name matters more than the count
            count, cw = "", 0
        text_row(d, 0, head, inverse=True, x=TEXT_X, width=TEXT_W - cw - 2)
        if count:
            text_row(d, 0, count, x=WIDTH - cw, width=cw)
        steps = list(self.paths.chosen)
        room = ROWS - 1 - (depth + 1 if labels else 0) - len(self.shown_clock())
        lines = [w for line in p.lines for w in wrap(line, TEXT_W)]
        if self.paused and self.clock:
            lines.insert(1, "Paused")
        if self.last_move:  # first; when rows are short, the prompt's last lines ("CHECK!") stay with it
            last = wrap(self.last_move, TEXT_W)[:2]
            lines = last + (lines[len(lines) - max(0, room - len(last)):] if room > len(last) else [])
        y = ROW
        for line in lines[:max(0, room)]:
            text_row(d, y, line, x=TEXT_X, width=TEXT_W)
            y += ROW
        y = ROW * (1 + max(0, min(room, len(lines))))
        for name, shown, running in self.shown_clock():
            w = time_width(shown)
            text_row(d, y, abbreviate(name, TEXT_W - w - 5), x=TEXT_X, width=TEXT_W - w - 4)
            if running:
                d.rectangle((WIDTH - w - 3, y, WIDTH - 1, y + ROW - 1), fill=1)
            slots.append((y, running))
            y += ROW
        if labels:
            y = HEIGHT - ROW * (depth + 1)
            for label in steps:
                text_row(d, y, label, x=TEXT_X, width=TEXT_W)
                y += ROW
            text_row(d, y, labels[cur], inverse=True, x=TEXT_X, width=TEXT_W - MARK_W)
            scroll_marks(d, y, y + ROW, len(labels) > 1, len(labels) > 1)
        view = p.board
        if view is not None:
            cursor, selected, targets = self.focus()
            d.rectangle((0, 0, TEXT_X - 1, HEIGHT - 1), fill=0)
            paste_board(d, view, cursor=cursor, selected=selected, targets=targets)
            d.line((view.files * CELL, 0, view.files * CELL, HEIGHT - 1), fill=1)
        return slots


class BoardInfoScreen(PromptScreen):
    """An Info prompt beside the board (game over): OK continues."""

    prompt: Info

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        if k is Key.BACK:
            return Back()  # the session steps back or says why not
        return Done(True) if k is Key.OK else None

    def draw(self, d: ImageDraw.ImageDraw) -> None:
        self.draw_body(d)

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        p = self.prompt
        text_row(d, 0, p.title, inverse=True, x=TEXT_X, width=TEXT_W)
        lines = [w for line in p.lines for w in wrap(line, TEXT_W)]
        for i, line in enumerate(lines[:ROWS - 1]):
            text_row(d, ROW * (i + 1), line, x=TEXT_X, width=TEXT_W)
        if p.board is not None:
            d.rectangle((0, 0, TEXT_X - 1, HEIGHT - 1), fill=0)
            paste_board(d, p.board)
            d.line((p.board.files * CELL, 0, p.board.files * CELL, HEIGHT - 1), fill=1)


__all__ = ["BoardChoiceScreen", "BoardInfoScreen", "PathChoice"]
