"""The loop's side of the web view: the PIN screen, the table's OK for a phone's seat, phones' answers.

None of it is a game input: the PIN screen, seat requests and refused answers are never journaled. A phone's answer
that the session refuses goes back to that phone alone (its HTTP response): nothing on the OLED, nothing journaled,
nothing public changes. A taken answer is journaled like a press.
"""
from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

from companion.errors import JournalError
from companion.events import AnswerEvent, Key, KeyEvent, WebEvent
from fsm.prompts import SecretVote

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
    if TYPE_CHECKING:
        def draw(self, publish: bool = True) -> None: ...
        def _commit(self, ev: Any, rolls: Any) -> None: ...
        def _refused(self, e: JournalError) -> None: ...

    def open_pairing(self) -> None:
        """Settings → Pair a phone: a fresh PIN and the address (with its QR code) on the OLED until a key."""
        from companion.web.screen import PairScreen

        if self.web is None or not self.web.address:
            why = "Set [web] enabled = true" if not self.cfg.web.enabled else "It did not start: see the log"
            self.pair_screen = PairScreen(None, None, why)
        else:
            self.pair_screen = PairScreen(self.web.address, self.web.pairing.new_pin())

    def web_screen_key(self, ev: KeyEvent) -> None:
        """A key while the PIN screen or a seat request is up: it answers that screen, never the game."""
        from companion.web.screen import SeatRequestScreen

        scr = self.pair_screen
        self.pair_screen = None
        if self.web is not None:
            if isinstance(scr, SeatRequestScreen):
                from companion.web.screen import GRACE_S

                yes = ev.key is Key.OK and self.clock() - scr.shown >= GRACE_S  # a phone cannot time it to a press
                self._say(self.web.pairing.grant(scr.key, yes, scr.asked))
                self.web.wake()
            else:
                self.web.pairing.close_pin()  # the PIN is good only while its screen is open
                if getattr(scr, "voided", False) and ev.key is Key.OK:
                    self.open_pairing()
        self.next_request()
        self.draw()

    def web_event(self, ev: WebEvent) -> None:
        from companion.web.screen import PairScreen, SeatRequestScreen

        if ev.kind == "pin" and isinstance(self.pair_screen, PairScreen) and self.web is not None:
            self.pair_screen.voided = self.web.pairing.pin_voided
        scr = self.pair_screen
        if isinstance(scr, SeatRequestScreen) and self.web is not None and not any(
                p.key == scr.key and p.pending == scr.asked for p in self.web.pairing.pending()):
            self.pair_screen = None  # the phone asked for something else (or its request ran out): show what is asked now
        self.next_request()
        self.draw()

    def next_request(self) -> None:
        """Show the oldest phone's seat request, unless another screen (the PIN, a secret ballot) is up."""
        if self.web is None or self.pair_screen is not None or (
                self.session is not None and self.session.private_screen()):
            return
        waiting = self.web.pairing.pending()
        if not waiting:
            return
        from companion.web.pairing import HOST
        from companion.web.screen import SeatRequestScreen

        s = waiting[0]
        if s.pending == HOST:
            what, held = "host rights", next((p.code for p in self.web.pairing.phones() if p.host), None)
        else:
            names = self.session.names if self.session is not None else []
            name = names[s.pending - 1] if s.pending is not None and 0 < s.pending <= len(names) else ""
            what = f"seat {s.pending} {name}".strip()
            holder = self.web.pairing.holder(s.pending)
            held = holder.code if holder is not None else None
        self.pair_screen = SeatRequestScreen(s.key, s.code, what, held, self.clock(), s.pending)

    def page_extras(self, state: dict[str, Any], prompt: Any) -> dict[str, Any]:
        """What the web page needs that only the rules know (the loop publishes it; companion/web imports no rules)."""
        from companion.loop.chess_page import page_extras

        return page_extras(state, prompt)

    def game_manual(self, game_id: str) -> str | None:
        """A TOML game's manual for the phone (``/manual/<id>``): the running game's own, else the game that id plays
        here. Called on the web server's threads: it reads the running game's class (never changed) and game files."""
        from companion.games.toml_manual import manual_for

        s = self.session
        return manual_for(game_id, self.cfg.games.folder, s.game_cls if s is not None else None)

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
        ballot = isinstance(s.prompt(), SecretVote)
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
        # the voter's phone alone hears that its ballot counted (its HTTP answer): nothing public says so
        said = " ".join(x for x in ("Vote received." if ballot else "", s.toast or "") if x)
        self.web.answered(ev.ref, True, said)


__all__ = ["WebSide"]
