"""The loop's side of the web view: the PIN screen, the Phones menu, the table's OK for a phone's seat, phones'
answers and the host phone's presses of the companion's buttons.

None of it is a game input: the PIN screen, the Phones menu, seat requests and refused answers are never journaled.
A phone's answer that the session refuses goes back to that phone alone (its HTTP response): nothing on the OLED,
nothing journaled, nothing public changes. A taken answer is journaled like a press; a host phone's press is the
device's own press.
"""
from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from companion.errors import JournalError
from companion.events import AnswerEvent, Key, KeyEvent, WebEvent

log = logging.getLogger(__name__)


class WebSide:
    """Part of :class:`companion.loop.app.App` (which has these)."""

    web: Any
    pair_screen: Any
    session: Any
    record: Any
    cfg: Any
    home: Any
    stats: Any
    clock: Any
    _new_toast: bool
    idle: Any
    #: the box has a panel someone sees and presses; False (headless, the display gone): seat requests are not
    #: shown on it (nobody could answer), the host phone answers them, and the phones' words say so
    panel: bool = True
    if TYPE_CHECKING:
        def draw(self, publish: bool = True) -> None: ...
        def dispatch(self, ev: Any) -> None: ...
        def _commit(self, ev: Any, rolls: Any) -> None: ...
        def _refused(self, e: JournalError) -> None: ...

    def set_panel(self, on: bool) -> None:
        """The panel is there (or gone: headless, a display missing or failing): the loop and the phones follow."""
        self.panel = on
        if self.web is not None:
            self.web.panel = on
            self.web.wake()
        if not on:
            self.pair_screen = None  # nobody can read the PIN or answer a request on it
            if self.web is not None:
                self.web.pairing.close_pin()

    def mirrored(self, under: Any, shown: Any) -> Any:
        """What the web view mirrors of the OLED: ``shown``, unless a screen for one person's eyes (the PIN) is on
        top; then the screen it was opened over (the Phones menu), or the working screen ``under`` everything."""
        from companion.ui.idle import shifted

        top = node = self.pair_screen
        while node is not None and getattr(node, "private", False):
            node = getattr(node, "under", None)
        if node is top or shown is under:
            return shown
        return under if node is None else shifted(node.render(), self.idle.offset())

    def open_pairing(self, under: Any = None) -> None:
        """Pair a phone: a fresh PIN and the address (with its QR code) on the OLED until a key."""
        from companion.web.screen import PairScreen

        if self.web is None or not self.web.address:
            why = "Set [web] enabled = true" if not self.cfg.web.enabled else "It did not start: see the log"
            self.pair_screen = PairScreen(None, None, why, under)
        else:
            self.pair_screen = PairScreen(self.web.address, self.web.pairing.new_pin(), under=under)

    def open_phones(self) -> None:
        """The game menu's Phones: Pair a phone, each phone (forget, make host), forget all; the game goes on."""
        if self.web is None or not self.web.address:
            self.open_pairing()  # it says why there are no phones
            return
        from companion.ui.phones import PhonesScreen

        self.pair_screen = PhonesScreen(self.web)

    def web_screen_key(self, ev: KeyEvent) -> None:
        """A key while a screen for the phones is up (the PIN, the Phones menu, a seat request): it answers that
        screen, never the game."""
        from companion.ui.phones import PhonesScreen
        from companion.web.screen import PairScreen, SeatRequestScreen

        scr = self.pair_screen
        if isinstance(scr, SeatRequestScreen):
            if scr.too_soon(self.clock()):  # meant for the screen before (a phone cannot time it to a press)
                scr.note = "Read the request first"
                self.draw()
                return
            said = ""
            if self.web is not None:
                said = self.web.pairing.grant(scr.key, ev.key is Key.OK, scr.asked)
                self._say(said)
                self.web.wake()
            self._back_to(scr.under, said)
        elif isinstance(scr, PhonesScreen):
            out = scr.key(ev.key, ev.repeat)
            if out == "close":
                self.pair_screen = None
            elif out == "pair":
                self.open_pairing(under=scr)
        else:
            if self.web is not None:
                self.web.pairing.close_pin()  # the PIN is good only while its screen is open
            self._back_to(getattr(scr, "under", None))
        self.next_request()
        self.draw()

    def _back_to(self, screen: Any, said: str = "") -> None:
        """The screen a closed one was opened over, saying ``said`` (what a request answered over it gave): the
        Phones menu (its list as it is now) or the PIN (a new one if its own ran out meanwhile), else the game."""
        from companion.web.screen import PairScreen

        self.pair_screen = screen
        if isinstance(screen, PairScreen) and screen.pin is not None and self.web is not None and \
                not self.web.pairing.pin_valid():
            self.open_pairing(under=screen.under)
        elif screen is not None and hasattr(screen, "refresh"):
            screen.refresh()
        if said and self.pair_screen is not None:
            if isinstance(self.pair_screen, PairScreen):
                self.pair_screen.note = said
            else:
                self.pair_screen.toast = said

    def web_event(self, ev: WebEvent) -> None:
        if ev.kind == "key":
            self.web_key(ev)
            return
        from companion.web.screen import SeatRequestScreen

        scr = self.pair_screen
        if isinstance(scr, SeatRequestScreen) and self.web is not None and not any(
                p.key == scr.key and p.pending == scr.asked for p in self.web.pairing.pending()):
            self._back_to(scr.under)  # answered by the host phone, asked again, or ran out: show what is asked now
        elif scr is not None and hasattr(scr, "refresh"):
            scr.refresh()  # the Phones menu lists the phones as they are now
        self.next_request()
        self.draw()

    def web_key(self, ev: WebEvent) -> None:
        """The host phone pressed one of the companion's buttons: handled exactly as the device's own press (and
        journaled as one), but for a secret ballot, which is its voter's alone."""
        from fsm.prompts import SecretVote

        s = self.session
        try:
            key = Key(ev.value)
        except ValueError:
            self.web.answered(ev.ref, False, "No such button")
            return
        if key is not Key.HOLD and s is not None and self.pair_screen is None and not s.overlays and \
                isinstance(s.prompt(), SecretVote):
            self.web.answered(ev.ref, False, "This ballot is the voter's: cast it on their own phone" + (
                " or hand them the companion" if self.panel else ""))
            return
        before = self._toast_now()
        self.dispatch(KeyEvent(key))
        after = self._toast_now()
        if getattr(self.pair_screen, "private", False):  # the PIN: never mirrored, not even to the host
            after = "The companion shows a PIN for those at the box: any button closes it (Show a PIN gives you one)"
        self.web.answered(ev.ref, True, after if after and after != before else "")

    def _toast_now(self) -> str | None:
        return self.session.toast if self.session is not None else self.home.toast

    def next_request(self) -> None:
        """Show the oldest phone's seat request over what is up (the PIN, the Phones menu), unless a secret ballot is
        open on the device or there is no panel to show it on (the host phone answers it then)."""
        from companion.web.screen import SeatRequestScreen

        if self.web is None or not self.panel or isinstance(self.pair_screen, SeatRequestScreen) or (
                self.pair_screen is None and self.session is not None and self.session.private_screen()):
            return
        waiting = self.web.pairing.pending()
        if not waiting:
            return
        from companion.web.pairing import HOST

        s = waiting[0]
        if s.pending == HOST:
            what, held = "host rights", next((p.code for p in self.web.pairing.phones() if p.host), None)
        else:
            names = self.session.names if self.session is not None else []
            name = names[s.pending - 1] if s.pending is not None and 0 < s.pending <= len(names) else ""
            what = f"seat {s.pending} {name}".strip()
            holder = self.web.pairing.holder(s.pending)
            held = holder.code if holder is not None else None
        self.pair_screen = SeatRequestScreen(s.key, s.code, what, held, self.clock(), s.pending,
                                             under=self.pair_screen)

    def page_extras(self, state: dict[str, Any], prompt: Any) -> dict[str, Any]:
        """What the web page needs that only the rules know (the loop publishes it; companion/web imports no rules)."""
        from companion.loop.chess_page import page_extras

        return page_extras(state, prompt)

    def _say(self, text: str) -> None:
        if self.session is not None:
            self.session.toast, self.session.toast_sticky = text, False
        else:
            self.home.toast = text
        self._new_toast = True

    def private_key(self, ev: KeyEvent) -> AnswerEvent | KeyEvent | None:
        """A key on an open secret ballot: UP/DOWN only move its cursor (redrawn, not journaled, nothing public
        moves); OK becomes the ballot's answer; other keys go on."""
        if self.session is None or not self.session.private_screen():
            return ev
        out = self.session.private_key(ev)
        if out is None:  # the voter sees the cursor; the web view is not even rebuilt (its time would show the move)
            self.draw(publish=False)
        return out

    def web_answer(self, ev: AnswerEvent) -> None:
        """A phone's answer: taken (journaled, drawn, the phone told) or refused to that phone alone."""
        s, rec = self.session, self.record
        if s is None or rec is None:
            self.web.answered(ev.ref, False, "No game is running on the companion")
            return
        rolls, why = s.try_remote(ev, time.time(), self.clock())
        if why is not None:
            self.web.answered(ev.ref, False, why)
            return
        self.stats.inputs += 1
        self._new_toast = True
        try:
            self._commit(ev, rolls)
        except JournalError as e:
            self._refused(e)
            self.draw()
            self.web.answered(ev.ref, False, "Not saved on the companion: see its screen")
            return
        self.draw()
        self.web.answered(ev.ref, True, s.toast or "")


__all__ = ["WebSide"]
