"""The paired phones on the device: each phone (its code, seat and host rights), OK on one for Forget / Make host,
and "Forget all phones". In Settings (no game running) and from the game menu's Phones, during a game, without
ending it; there "Pair a phone" comes first.

Not part of any game: its keys are never journaled. It changes only the web view's pairings (``web.pairing``, shared
and locked), then wakes the phones (``web.wake()``) so they see it at once.
"""
from __future__ import annotations

from typing import Any

from PIL import Image

from companion.events import Key
from companion.ui.draw import BAR, new_frame, title_bar
from companion.ui.widgets import Back, Done, Item, ListWidget, Outcome, Toast, draw_toast
from fsm.screen_text import plural

PAIR = "*pair"
ALL = "*all"


def phone_label(p: Any) -> str:
    """``K7QX seat 2``, ``K7QX host``, ``K7QX seat 1, host``, ``K7QX watching``."""
    roles = ([f"seat {p.seat}"] if p.seat else []) + (["host"] if p.host else [])
    return f"{p.code} " + (", ".join(roles) or "watching")


class PhonesMenu:
    """A widget with its own stack: the list, then one phone's actions. Returns :class:`Done` ``"pair"`` for Pair a
    phone (the app shows the PIN), :class:`Toast` after an action, :class:`Back` when left."""

    def __init__(self, web: Any, pair_item: bool = False, title: str = "Phones") -> None:
        self.web, self.pair_item = web, pair_item
        self.stack: list[tuple[str, str, ListWidget]] = [("list", title, ListWidget(self._items()))]

    @property
    def title(self) -> str:
        return self.stack[-1][1]

    def _items(self) -> list[Item]:
        phones = self.web.pairing.phones()
        items = [Item(PAIR, "Pair a phone")] if self.pair_item else []
        items += [Item(p.key, phone_label(p), hint="OK: forget or make host") for p in phones]
        return items + [Item(ALL, "Forget all phones", enabled=bool(phones), hint="No phone is paired")]

    def refresh(self) -> None:
        """The list as the phones are now, the cursor on the entry it was on (or the one after a forgotten phone)."""
        w = self.stack[0][2]
        was = w.items[w.cursor].key if w.items else None
        w.items = self._items()
        if was is None or not w.move_to(was):
            w.cursor = min(w.cursor, len(w.items) - 1)
            w.follow()

    def key(self, k: Key, repeat: bool = False) -> Outcome:
        kind, _title, w = self.stack[-1]
        out = w.key(k, repeat)
        if isinstance(out, Back):
            if len(self.stack) == 1:
                return out
            self.stack.pop()  # back on the phone it came from
            self.refresh()
            return None
        if not isinstance(out, Done):
            return out
        pairing = self.web.pairing
        if kind == "list":
            if out.value == PAIR:
                return Done("pair")
            if out.value == ALL:
                n = pairing.forget_all()
                return self._done(f"{plural(n, 'phone')} forgotten")
            phone = next((p for p in pairing.phones() if p.key == out.value), None)
            if phone is None:
                return self._done("That phone is gone")
            self.stack.append((f"phone:{phone.key}", f"Phone {phone.code}", ListWidget([
                Item("forget", "Forget this phone"),
                Item("host", "Make it the host", not phone.host, "It is the host already")])))
            return None
        key = kind.split(":", 1)[1]
        code = next((p.code for p in pairing.phones() if p.key == key), None)
        self.stack.pop()
        if code is None:
            return self._done("That phone is gone")
        if out.value == "forget":
            pairing.unpair(key)
            return self._done(f"Phone {code} forgotten")
        return self._done(pairing.make_host(key))

    def _done(self, said: str) -> Toast:
        self.web.wake()
        self.refresh()
        return Toast(said)

    def draw(self, d: Any, y0: int) -> None:
        self.stack[-1][2].draw(d, y0)


class PhonesScreen:
    """The game menu's Phones, shown by the app over the game until BACK (a screen of its own, not the session's:
    its keys are not inputs). Mirrored like any screen (the host phone drives it with the companion's buttons); a
    PIN opened from it is not: the page goes on showing this menu under the PIN."""

    private = False

    def __init__(self, web: Any) -> None:
        self.menu = PhonesMenu(web, pair_item=True)
        self.toast = ""

    def key(self, k: Key, repeat: bool = False) -> str | None:
        """"close" when BACK leaves it, "pair" for Pair a phone, else None (it redraws)."""
        self.toast = ""
        out = self.menu.key(k, repeat)
        if isinstance(out, Back):
            return "close"
        if isinstance(out, Done):
            return "pair"
        if isinstance(out, Toast):
            self.toast = out.text
        return None

    def refresh(self) -> None:
        self.menu.refresh()

    def render(self) -> Image.Image:
        img, d = new_frame()
        title_bar(d, self.menu.title)
        self.menu.draw(d, BAR)
        if self.toast:
            draw_toast(d, self.toast)
        return img


__all__ = ["PhonesMenu", "PhonesScreen", "phone_label"]
