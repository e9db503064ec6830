"""One screen per prompt type: the title bar, the prompt's context lines, and the widget that answers it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from PIL import ImageDraw

from fsm.prompts import Choice, Confirm, Dice, Info, MultiSelect, Number, Prompt, SecretVote

from companion.events import Key, RollEvent
from companion.ui.draw import BAR, HEIGHT, LIST_W, ROW, focus, line_starts, scroll_marks, text_row, title_bar, wrap
from companion.ui.widgets import (Back, ButtonRow, ConfirmWidget, Done, Item, ListWidget, MultiSelectWidget, Outcome, Spinner, TextView,
                      Toast, draw_lines)

ROWS = (HEIGHT - BAR) // ROW  #: text rows under the title bar (5)
INFO_ROWS = ROWS - 1  #: an information screen's rows of text: its last row says what OK does
NUMBER_LINES = 3  #: context lines above a number: the large digits still fit under three


@dataclass
class DiceContext:
    """What the dice prompt needs from the session: allowed sources, the roller's state, the RNG."""

    sources: tuple[str, ...]
    roller_connected: Callable[[], bool]
    rng_values: Callable[[str, int], list[int]]


class PromptScreen:
    """Base: draws the title bar with the acting player's name at the right."""

    prompt: Prompt

    def __init__(self, prompt: Prompt, names: Sequence[str]) -> None:
        self.prompt = prompt
        self.names = names
        #: the context lines as drawn: a line wider than the screen wraps at spaces here, so a game gives whole
        #: sentences (the phone shows them whole) and the OLED breaks them where its font needs
        self.lines: list[str] = []
        #: the rows where a line of the prompt begins (a page that scrolls starts at one: no dangling word)
        self.starts = [0]
        for line in prompt.lines:
            self.lines += wrap(line, LIST_W)
            self.starts.append(len(self.lines))

    @property
    def tag(self) -> str:
        p = self.prompt.player
        return self.names[p - 1] if p is not None and 0 < p <= len(self.names) else ""

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        raise NotImplementedError

    def roll(self, ev: RollEvent) -> Outcome:
        """A roll arrived from the roller while this screen is up. Only the dice prompt takes it."""
        return None

    def part_way(self) -> bool:
        """True while the player is part-way through this screen (typing dice, a move half chosen, a ballot open):
        the glance view must not take its place."""
        return False

    def is_private(self) -> bool:
        """True while the screen shows what only the player at the device may see (an open secret ballot): the web
        view then mirrors a cover instead of the OLED."""
        return False

    def draw(self, d: ImageDraw.ImageDraw) -> None:
        title_bar(d, self.prompt.title, self.tag)
        self.draw_body(d)

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        raise NotImplementedError


class ChoiceScreen(PromptScreen):
    prompt: Choice

    def __init__(self, prompt: Choice, names: Sequence[str]) -> None:
        super().__init__(prompt, names)
        shown = [o for o in prompt.options if not o.in_menu]  # the others are offered from the game menu
        items = [Item(o.key, o.label, o.enabled, o.hint) for o in shown]
        keys = [o.key for o in shown]
        cursor = keys.index(prompt.default) if prompt.default in keys else 0
        self.n_lines = min(len(self.lines), max(0, ROWS - min(len(prompt.options), 3)))
        #: more lines than room above the options: lines and options scroll as one page (the cursor's row always in
        #: view; on the first option every line above it that fits), so no line is out of reach
        self.scrolls = len(self.lines) > self.n_lines
        self.top = 0  #: the page row at the top of the screen, when it scrolls
        self.list = ListWidget(items, cursor=cursor, back_ok=True, rows=max(1, ROWS - self.n_lines))
        self._follow()

    def _follow(self) -> None:
        if not self.scrolls:
            return
        row = len(self.lines) + self.list.cursor
        if self.list.cursor == 0:
            self.top = max(0, row - ROWS + 1)
        self.top = min(max(self.top, row - ROWS + 1), row)
        self.top = next((x for x in self.starts if x >= self.top), self.top)  # the page starts with a whole line
        shown = max(0, len(self.lines) - self.top)  # context rows in view
        self.list.rows = ROWS - min(shown, ROWS - 1)
        self.list.top = max(0, self.top - len(self.lines))

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        out = self.list.key(k, repeat)
        self._follow()
        if isinstance(out, Back) and self.prompt.back is not None:
            return Done(self.prompt.back)  # the game's own way back
        return out

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        if not self.scrolls:
            y = draw_lines(d, BAR, self.lines, self.n_lines, self.starts)
            self.list.draw(d, y)
            return
        y = BAR
        line_starts(d, BAR, self.starts, self.top, len(self.lines[self.top:self.top + ROWS - 1]))
        for line in self.lines[self.top:self.top + ROWS - 1]:
            text_row(d, y, line, width=LIST_W)
            y += ROW
        self.list.draw(d, y)
        if self.top > 0:
            scroll_marks(d, BAR, HEIGHT, True, False)


class NumberScreen(PromptScreen):
    prompt: Number

    def __init__(self, prompt: Number, names: Sequence[str]) -> None:
        super().__init__(prompt, names)
        self.spin = Spinner(prompt.lo, prompt.hi, min(prompt.hi, max(prompt.lo, prompt.default)), prompt.step,
                            prompt.unit, back_ok=True)

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        out = self.spin.key(k, repeat)
        if isinstance(out, Back) and self.prompt.back is not None:
            return Done(self.prompt.back)  # the game's own way back
        return out

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        y = draw_lines(d, BAR, self.lines, NUMBER_LINES, self.starts)
        self.spin.draw(d, y)


class ConfirmScreen(PromptScreen):
    prompt: Confirm

    def __init__(self, prompt: Confirm, names: Sequence[str]) -> None:
        super().__init__(prompt, names)
        self.box = ConfirmWidget(prompt.yes, prompt.no, prompt.default, back_ok=True)

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        return self.box.key(k, repeat)

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        draw_lines(d, BAR, self.lines, ROWS - 1, self.starts)
        self.box.draw(d, BAR)


class MultiSelectScreen(PromptScreen):
    prompt: MultiSelect

    def __init__(self, prompt: MultiSelect, names: Sequence[str]) -> None:
        super().__init__(prompt, names)
        items = [Item(o.key, o.label, o.enabled, o.hint, checked=o.key in prompt.preselected) for o in prompt.options]
        self.multi = MultiSelectWidget(items, prompt.min_count, prompt.max_count)
        self.multi.inner.back_ok = True
        self.multi.inner.rows = ROWS - min(1, len(self.lines))
        self.multi.inner.follow()

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        return self.multi.key(k, repeat)

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        y = draw_lines(d, BAR, self.lines, 1, self.starts)
        self.multi.draw(d, y)


class SecretVoteScreen(PromptScreen):
    """First "pass to NAME" with nothing shown; OK reveals the ballot; the choice is never echoed."""

    prompt: SecretVote

    def __init__(self, prompt: SecretVote, names: Sequence[str]) -> None:
        super().__init__(prompt, names)
        self.hidden = True
        n_lines = min(len(self.lines), max(0, ROWS - len(prompt.options)))
        self.list = ListWidget([Item(o.key, o.label) for o in prompt.options], back_ok=True, rows=ROWS - n_lines)

    @property
    def voter(self) -> str:
        return self.prompt.voter_name or self.tag or "the next voter"

    def is_private(self) -> bool:
        return not self.hidden

    def part_way(self) -> bool:
        return not self.hidden

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        if self.hidden:
            if k is Key.OK:
                self.hidden = False
            elif k in (Key.UP, Key.DOWN):
                return Toast(f"OK opens the ballot for {self.voter}", refusal=False)
            return Back() if k is Key.BACK else None
        out = self.list.key(k, repeat)
        if isinstance(out, Back):
            self.hidden = True
            self.list.cursor = 0
            return None
        return out

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        if self.hidden:
            text_row(d, BAR, f"Pass to {self.voter}.")  # on the rows a toast blanks whole: no stray dots
            text_row(d, BAR + ROW, "Secret vote: others")
            text_row(d, BAR + 2 * ROW, "look away.")
            text_row(d, HEIGHT - ROW, "OK when ready", inverse=True)
            focus(d, HEIGHT - ROW, HEIGHT)
            return
        y = draw_lines(d, BAR, self.lines, max(0, ROWS - len(self.prompt.options)), self.starts)
        self.list.draw(d, y)


class InfoScreen(PromptScreen):
    """Lines to read, and at the bottom the row OK acts on: the prompt's own last line when it says what OK does
    ("OK when placed", "OK: round 2"), else "OK: continue". UP/DOWN scroll a long page, and say so when there is
    nothing to scroll."""

    prompt: Info

    def __init__(self, prompt: Info, names: Sequence[str]) -> None:
        super().__init__(prompt, names)
        said = prompt.lines[-1] if prompt.lines and prompt.lines[-1].startswith("OK") else ""
        self.action = said or "OK: continue"
        self.said = said
        body = [w for line in prompt.lines[:-1 if said else None] for w in wrap(line, LIST_W)]
        self.view = TextView(body, top=0, rows=INFO_ROWS)

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        if k is Key.OK:
            return Done(True)
        if k is Key.BACK:
            return Back()
        if k in (Key.UP, Key.DOWN):
            top = self.view.top
            self.view.key(k, repeat)
            if self.view.top == top:
                return Toast(f"All shown: {self.said or 'OK goes on'}", refusal=False)
        return None

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        self.view.draw(d, BAR, HEIGHT - ROW)
        v = self.view
        line_starts(d, BAR, self.starts, v.top, len(v.lines[v.top:v.top + v.rows]))
        text_row(d, HEIGHT - ROW, self.action, inverse=True)
        focus(d, HEIGHT - ROW, HEIGHT)


class DiceScreen(PromptScreen):
    """"NAME: roll 2×d12". A roll from the roller answers it; or type the values; or let the companion roll."""

    prompt: Dice

    def __init__(self, prompt: Dice, names: Sequence[str], ctx: DiceContext) -> None:
        super().__init__(prompt, names)
        self.ctx = ctx
        self.got: list[int] = []  #: values from the roller so far (a 2-dice roll may come one die at a time)
        self.typing: Spinner | None = None
        self.typed: list[int] = []
        items = []  # the roller's status is a line of text; these buttons offer the other sources
        if "typed" in ctx.sources:
            items.append(Item("typed", "Type dice"))
        if "rng" in ctx.sources:
            items.append(Item("rng", "Roll here"))
        self.menu = ButtonRow(items)

    def part_way(self) -> bool:
        return self.typing is not None or bool(self.got)

    def _want(self) -> str:
        p = self.prompt
        return f"{p.count}×{p.die}" if p.count > 1 else p.die

    def roll(self, ev: RollEvent) -> Outcome:
        if "roller" not in self.ctx.sources:
            return Toast("roller rolls are off in [dice] sources")
        if ev.die != self.prompt.die:
            return Toast(f"that was a {ev.die}; roll a {self.prompt.die}")
        need = self.prompt.count - len(self.got)
        self.got.extend(ev.values[:need])
        if len(self.got) == self.prompt.count:
            return Done({"values": list(self.got), "source": "roller"})
        return None

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        if self.typing is not None:
            out = self.typing.key(k, repeat)
            if isinstance(out, Back):
                if self.typed:
                    self.typing = Spinner(1, self.prompt.sides, self.typed.pop(), back_ok=True)
                else:
                    self.typing = None
                return None
            if isinstance(out, Done):
                self.typed.append(int(out.value))
                if len(self.typed) == self.prompt.count:
                    return Done({"values": list(self.typed), "source": "typed"})
                self.typing = Spinner(1, self.prompt.sides, 1, back_ok=True)
            return out if isinstance(out, Toast) else None
        out = self.menu.key(k, repeat)
        if isinstance(out, Done):
            if out.value == "typed":
                self.typed = []
                self.typing = Spinner(1, self.prompt.sides, 1, back_ok=True)
                return None
            return Done({"values": self.ctx.rng_values(self.prompt.die, self.prompt.count), "source": "rng"})
        if out is None and k in (Key.OK, Key.UP, Key.DOWN) and not self.menu.items:
            return Toast("roll the roller: typed and built-in dice are off", refusal=k is Key.OK)
        if out is None and k is Key.BACK:
            return Back()
        return out

    def draw_body(self, d: ImageDraw.ImageDraw) -> None:
        p = self.prompt
        if self.typing is not None:
            i = len(self.typed) + 1
            text_row(d, BAR, f"Type {p.die}" + (f" {i} of {p.count}" if p.count > 1 else "")
                     + (f"  (got {' '.join(map(str, self.typed))})" if self.typed else ""))
            self.typing.draw(d, BAR + ROW)
            return
        y = BAR
        head = f"Roll {self._want()}" + (f": {p.purpose}" if p.purpose else "")
        text_row(d, y, head)
        y += ROW
        rows_left = ROWS - 1 - (1 if self.menu.items else 0) - (1 if "roller" in self.ctx.sources else 0)
        y = draw_lines(d, y, self.lines, max(0, rows_left), self.starts)
        if "roller" in self.ctx.sources:
            if self.got:
                status = f"Got {' '.join(map(str, self.got))}, roll {p.count - len(self.got)} more"
            else:
                status = "Roller ready: roll it" if self.ctx.roller_connected() else "Roller offline"
            text_row(d, y, status)
            y += ROW
        if self.menu.items:
            self.menu.draw(d, HEIGHT - ROW)


def roll_summary(prompt: Dice, value: Any, names: Sequence[str]) -> str:
    who = names[prompt.player - 1] if prompt.player else "Roll"
    vals = " ".join(str(v) for v in value["values"])
    return f"{who}: {prompt.die} → {vals}"


__all__ = ["DiceContext", "PromptScreen", "roll_summary"]
