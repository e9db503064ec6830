"""Typing a name with four buttons or an encoder: a character picker.

UP/DOWN (or turning the encoder) change the character under the cursor; OK takes it and moves on; choosing the
tick (✓, one step below "a") and OK finishes; BACK rubs out the last character, or leaves when there is none.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from PIL import ImageDraw

from companion.events import Key
from companion.ui.draw import HEIGHT, ROW, WIDTH, draw_text, text_row, text_width
from companion.ui.widgets import Back, Done, Outcome, Toast

DONE = "✓"
#: the cycle UP walks through; DOWN walks it backwards (so the tick is one step down from "a")
CHARS = (DONE + "abcdefghijklmnopqrstuvwxyz" + "ABCDEFGHIJKLMNOPQRSTUVWXYZ" + "0123456789" + " -'.")
MAX_LEN = 12


@dataclass
class CharPicker:
    text: str = ""
    max_len: int = MAX_LEN
    cur: int = field(init=False)

    def __post_init__(self) -> None:
        self.text = self.text[:self.max_len]
        self.cur = CHARS.index(DONE) if self.text else CHARS.index("A")

    @property
    def candidate(self) -> str:
        return CHARS[self.cur]

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        if k is Key.UP:
            self.cur = (self.cur + 1) % len(CHARS)
        elif k is Key.DOWN:
            self.cur = (self.cur - 1) % len(CHARS)
        elif k is Key.OK:
            if self.candidate == DONE:
                name = self.text.strip()
                return Done(name) if name else Toast("a name needs a letter")
            if len(self.text) >= self.max_len:
                self.cur = CHARS.index(DONE)
                return Toast(f"at most {self.max_len} letters: pick {DONE} to finish")
            self.text += self.candidate
            self.cur = CHARS.index("a") if self.text.strip() else CHARS.index("A")
        elif k is Key.BACK:
            if not self.text:
                return Back()
            self.text = self.text[:-1]
            self.cur = CHARS.index(DONE) if self.text else CHARS.index("A")
        return None

    def draw(self, d: ImageDraw.ImageDraw, y0: int) -> None:
        size = "medium"
        # the name so far, then the character being chosen in a box; the end stays in view when long
        cand = self.candidate if self.candidate != " " else "_"
        cw = text_width(cand, size) + 4
        x = 2
        tail = self.text
        while tail and text_width(tail, size) > WIDTH - 6 - cw:
            tail = tail[1:]
        y = y0 + 3
        right = draw_text(d, x, y, tail, width=WIDTH - 6 - cw, size=size) if tail else x
        d.rectangle((right + 1, y + 1, right + cw, y + 16), fill=1)
        draw_text(d, right + 3, y, cand, width=cw - 2, size=size, fill=0)
        text_row(d, HEIGHT - 2 * ROW, "UP/DOWN letter, OK next")
        text_row(d, HEIGHT - ROW, f"{DONE} OK: done, BACK: rub out")


__all__ = ["CharPicker", "CHARS", "DONE"]
