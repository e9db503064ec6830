"""The event loop: one thread blocks on one queue, journals each input, updates the game, draws.

Hardware threads (gpiozero callbacks, the key reader, the roller reader) only ``put`` events. The loop never polls:
it sleeps in ``queue.get`` until an event arrives or a deadline it set itself (watchdog ping, toast expiry) comes.
"""
from __future__ import annotations

import logging
import queue
import time
from typing import Any, Callable

from PIL import Image

from companion.config.load import Config
from companion.loop.testhooks import HANG, hang_forever
from companion.errors import CompanionError
from companion.errors import JournalError, JournalFullError
from companion.events import (AnswerEvent, ClockEvent, Event, KeyEvent, QuitEvent, RollerState, RollerStatusEvent, RollEvent,
                     RollRequestEvent, TickEvent, WebEvent)
from companion.session.headless import new_record, open_session, resume_verified
from companion.session.snapshot import after_commit
from companion.ui.idle import Idle, Level, shifted
from companion.journal.store import GameRecord, Journal, RollRecord
from companion.ui.menus import Home
from companion.session import Session, encode_event
from companion.loop.pieces import (TOAST_SECONDS, DrawRetry, LoopStats, Output, Roller, farewell_frame,
                                   install_signal_handlers, toast_seconds)
from companion.loop import panel
from companion.loop.web_side import WebSide

log = logging.getLogger(__name__)

class App(WebSide):
    def __init__(self, cfg: Config, journal: Journal, events: "queue.SimpleQueue[Event]", output: Output, *,
                 roller: Roller | None = None, notifier: Any = None, game: str | None = None,
                 clock: Callable[[], float] = time.monotonic, web: Any = None) -> None:
        self.cfg = cfg
        self.journal = journal
        self.events = events
        self.output = output
        self.roller = roller
        self.notifier = notifier
        self.clock = clock
        self.roller_state = RollerState.OFFLINE
        self.roller_detail = ""
        self.session: Session | None = None
        self.record: GameRecord | None = None
        self.home = Home(self)
        self.toast_until: float | None = None
        self.stats = LoopStats()
        self.running = True
        self._game_arg = game
        self._output_failed = False
        self._new_toast = False
        self.idle = Idle(cfg.screen, clock)  #: glance view, dimming, blanking, pixel shift
        self._shown_offset = (0, 0)
        self.draw_retry = DrawRetry()
        self.web = web  #: the web view's Hub (companion/web/hub.py), or None when [web] is off
        if web is not None:
            web.game_manual = self.game_manual
        self.pair_screen: Any = None  #: the "Pair a phone" screen while it is shown
        self._t_input: float | None = None
        self.notices: list[str] = []  #: one line each every phone shows (a file set aside at start, no panel)

    # ------------------------------------------------------------------ games
    def start_new(self, game: str) -> None:
        self.record = new_record(self.journal, game, self.cfg, None)
        self.session = self._open(self.record)
        log.info("new game %d: %s", self.record.id, self.record.title)

    def resume(self, record: GameRecord) -> None:
        t0 = time.perf_counter()
        self.session, record, damage = resume_verified(
            self.journal, record, self.cfg, roller_connected=lambda: self.roller_state is RollerState.CONNECTED)
        self.record = record
        self.session.pair_hook = self.open_phones
        self.session.restart_clock(self.clock())  # the time the companion was off is not charged
        self.session.ended = self.session.closed = self.session.left = self.session.away = False  # playing on
        if damage is not None:  # the copy plays on from the last good input; the log has the whole line
            log.error("%s", damage)
            what = "Inputs lost" if "saved input" in damage else "Journal damaged"
            self.session.toast = f"{what}: replayed to input {self.session.n_inputs}"
        if self.session.status != record.status:
            self.journal.set_status(record.id, self.session.status)
            self.record = self.journal.game(record.id)
        log.info("resumed game %d (%d inputs) in %.0f ms", record.id, self.session.n_inputs,
                 (time.perf_counter() - t0) * 1000)

    def _open(self, record: GameRecord) -> Session:
        session = open_session(self.journal, record, self.cfg,
                               roller_connected=lambda: self.roller_state is RollerState.CONNECTED)
        session.pair_hook = self.open_phones
        return session

    # ------------------------------------------------------------------ settings, idle screen
    def apply_config(self, cfg: Config) -> None:
        """Settings changed on the device: new games use them; the running game keeps its own."""
        self.cfg = cfg
        self.idle.cfg = cfg.screen
        self._send_contrast()
        self.draw()

    def _send_contrast(self) -> None:
        send = getattr(self.output, "set_contrast", None)
        if send is None:
            return
        try:
            send(self.idle.contrast(self.cfg.display.contrast))
        except CompanionError as e:
            log.warning("%s", e)

    def glance(self) -> Any:
        """What the glance view would show now (companion/ui/glance.py), or None; the same under the PIN screen."""
        if self.session is None:
            return None
        from companion.ui.glance import glance_for

        return glance_for(self.session)

    def idle_deadline(self) -> float | None:
        return self.idle.deadline(self.glance() is not None)

    def _idle_tick(self) -> None:
        level = self.idle.level
        if self.idle.tick(self.glance() is not None) or self.idle.offset() != self._shown_offset:
            if (level is Level.DIM) != (self.idle.level is Level.DIM):
                self._send_contrast()
            self.draw()

    def _oled_frame(self, img: Image.Image) -> Image.Image:
        """What the OLED shows: the working screen, or the glance view, or nothing; moved by the pixel shift."""
        lv = self.idle.level
        if lv is Level.BLANK:
            return Image.new("1", img.size, 0)
        if lv in (Level.GLANCE, Level.DIM) and (g := self.glance()) is not None:
            from companion.ui.glance import render_glance

            img = render_glance(g, self.session.toast if self.session is not None else None)
        self._shown_offset = self.idle.offset()
        return shifted(img, self._shown_offset)

    def boot(self) -> None:
        """Into the game in progress exactly where it was; else the game asked for; else the home menu.

        A game that cannot be resumed (a journal error, a full disk, anything) leaves the box on the home menu
        saying so (companion/loop/aside.py): it must always start."""
        from companion.loop.aside import boot_failed, booted

        try:
            self._boot()
        except Exception as e:  # noqa: BLE001  (whatever a damaged saved game raises, the box starts)
            boot_failed(self, e)
        booted(self)

    def _boot(self) -> None:
        latest = self.journal.latest_active()
        if self._game_arg is not None:
            from companion.session.headless import game_key

            key = game_key(self._game_arg, self.cfg)
            if latest is not None and latest.game == key:
                self.resume(latest)
            else:
                self.start_new(self._game_arg)
        elif latest is not None:
            self.resume(latest)

    def leave_game(self, to_list: str | None = None, how: str | None = None) -> None:
        self.session, self.record = None, None
        self.home.reset(to_list, how)

    # ------------------------------------------------------------------ one event
    def dispatch(self, ev: Event) -> None:
        """Handle one event: journal first (durable), then update, then draw."""
        if isinstance(ev, QuitEvent):
            self.running = False
            return
        if isinstance(ev, TickEvent):
            if ev.reason == HANG:  # the watchdog test's hook (companion/loop/testhooks.py; off unless set)
                hang_forever()
            self._clock_tick()
            self._idle_tick()
            if self.draw_retry.due(self.clock()):
                self.draw()
            if self.toast_until is not None and self.clock() >= self.toast_until:
                self.toast_until = None
                if self.session is not None:
                    self.session.toast = None
                self.home.toast = None
                self.draw()
            return
        if isinstance(ev, RollerStatusEvent):
            changed = ev.state is not self.roller_state
            self.roller_state, self.roller_detail = ev.state, ev.detail
            self.output.set_roller(ev.state, ev.detail)
            if changed:  # say it on the screen too (a toast: it is not part of any game)
                text = {RollerState.CONNECTED: "Roller connected",
                        RollerState.OFFLINE: "Roller offline: type the dice or roll here",
                        RollerState.ERROR: f"Roller error: {ev.detail}"}[ev.state]
                if self.session is not None:
                    self.session.toast = text
                    self.session.toast_sticky = False
                else:
                    self.home.toast = text
                self._new_toast = True
            self.draw()
            return
        if isinstance(ev, RollRequestEvent):
            self._request_roll()
            return
        if isinstance(ev, WebEvent):
            self.web_event(ev)
            return
        if self.pair_screen is not None and isinstance(ev, KeyEvent):  # not a game input: it answers that screen
            self.web_screen_key(ev)
            return
        if isinstance(ev, (KeyEvent, RollEvent)) and self.idle.wake():
            self._send_contrast()
            if isinstance(ev, KeyEvent):  # the press only wakes the screen: not an input, not journaled; it says so
                self._new_toast = self.session is not None and self.session.woken()
                self.draw()
                return
        if isinstance(ev, KeyEvent) and (ev := self.private_key(ev)) is None:  # type: ignore[assignment]
            return
        if isinstance(ev, AnswerEvent) and ev.source != "device" and self.web is not None:
            self.web_answer(ev)
            self.next_request()
            return
        self.stats.inputs += 1
        self._new_toast = True  # whatever toast this input leaves is a new message: its timer starts now
        try:
            self._input(ev)
        except JournalError as e:  # a full disk or a failing card: refuse the press, keep what is saved
            self._refused(e)
        self.next_request()
        self.draw()

    def _input(self, ev: Event) -> None:
        if self.session is not None and self.record is not None:
            rolls = self.session.handle(ev, time.time(), self.clock())  # type: ignore[arg-type]
            self._commit(ev, rolls)
        elif isinstance(ev, RollEvent):
            self.journal.record_rolls([RollRecord(ev.roller, "roller", ev.die, v, None, "unrequested")
                                       for v in ev.values])
            self.home.toast = f"Rolled {ev.die} {' '.join(map(str, ev.values))}: no game running"
        elif isinstance(ev, KeyEvent):
            self.home.key(ev.key, ev.repeat)

    def _commit(self, ev: Event, rolls: list[RollRecord]) -> None:
        """Journal an input the session has taken; follow the game's status; leave an ended game."""
        s, rec = self.session, self.record
        assert s is not None and rec is not None
        # saved at the time the session took it (a resume from a snapshot then equals the full replay)
        self.journal.commit(rec.id, s.n_inputs, encode_event(ev), rolls, s.summary(), t=s._t)  # type: ignore[arg-type]
        after_commit(self.journal, rec.id, s)
        self._t_input = time.perf_counter()
        self._clock_save(s.clock_checkpoint(self.clock()))
        if s.status != rec.status:  # both ways: undo out of game over makes it active again
            self.journal.set_status(rec.id, s.status, s.summary())
            self.record = self.journal.game(rec.id)
        if s.ended or s.closed or s.left or s.away:  # BACK before the game began: the game list, on that game
            self.leave_game(rec.game if s.left else None, "kept" if s.away else "ended" if s.ended else None)

    def _refused(self, e: JournalError) -> None:
        """The journal refused a write: the game goes back to what is saved (replayed), and the screen says why."""
        log.error("%s", e)
        text = "Disk full: that press was not saved" if isinstance(e, JournalFullError) else \
            "Not saved: see the log"
        if self.record is not None and self.session is not None:
            try:
                self.session = self._open(self.record)
                self.session.restart_clock(self.clock())
                self.session.ended = self.session.closed = False
                self.session.toast = text
                return
            except JournalError as again:
                log.error("%s", again)
                self.leave_game()
        self.home.toast = text

    def _time_toast(self) -> None:
        """Each new message restarts the toast timer; an announcement (sticky) stays until the next press."""
        toast = self.session.toast if self.session is not None else self.home.toast
        sticky = self.session is not None and self.session.toast_sticky
        if not toast or sticky:
            self.toast_until = None
        elif self._new_toast or self.toast_until is None:
            self.toast_until = self.clock() + toast_seconds(toast)
        self._new_toast = False

    # ------------------------------------------------------------------ the game clock
    def clock_deadline(self) -> float | None:
        """When the loop must wake for the game clock: its next second, the flag, a checkpoint."""
        s = self.session
        if s is None or s.timekeeper is None or s.status != "active":
            return None
        return s.timekeeper.deadline(self.clock())

    def _clock_tick(self) -> None:
        """A clock deadline passed: journal a flag or a checkpoint, and redraw (the digits, the LED's warning)."""
        s = self.session
        if s is None or s.timekeeper is None:
            return
        now = self.clock()
        flag = s.clock_flag(now)
        if flag is not None:
            self._clock_save(flag)
            self._clock_save(s.clock_checkpoint(now))
            if self.record is not None and s.status != self.record.status:  # lost on time: the game is over
                self.journal.set_status(self.record.id, s.status, s.summary())
                self.record = self.journal.game(self.record.id)
        elif s.timekeeper.checkpoint_due(now):
            self._clock_save(s.clock_checkpoint(now))
        self.draw()

    def _clock_save(self, ev: ClockEvent | None) -> None:
        """Journal a clock line like an input (the session takes it too, so replay sees the same sequence)."""
        s, rec = self.session, self.record
        if ev is None or s is None or rec is None:
            return
        s.handle(ev, time.time(), self.clock())
        self.journal.commit(rec.id, s.n_inputs, encode_event(ev), [], s.summary(), t=s._t)
        after_commit(self.journal, rec.id, s)

    def _request_roll(self) -> None:
        if self.roller is None:
            return
        from fsm.prompts import Dice

        p = self.session.prompt() if self.session is not None else None
        if isinstance(p, Dice):
            self.roller.request(p.die, p.count)
        else:
            self.roller.request("d6", 1)

    # ------------------------------------------------------------------ drawing
    def frame(self) -> Image.Image:
        return self.pair_screen.render() if self.pair_screen is not None else self._working_frame()

    def _working_frame(self) -> Image.Image:
        return self.session.render() if self.session is not None else self.home.render()

    def draw(self, publish: bool = True) -> None:
        """Draw the OLED; ``publish=False``: leave the web view as it is (a secret ballot's cursor: not even the work
        of building a snapshot may show a move)."""
        if self.session is not None:
            self.session.set_now(self.clock())  # the game clock shows the time as of this frame
        under = self._oled_frame(self._working_frame())  # the working screen, or the glance view, dimmed or blank
        top = self.pair_screen  # a screen for the phones over it (the PIN, the Phones menu, a seat request)
        shown = under if top is None or self.idle.level is Level.BLANK else shifted(top.render(), self._shown_offset)
        self._time_toast()
        active, waiting = self.session.leds() if self.session is not None else (None, False)
        alerts = self.session.alerts() if self.session is not None else ()
        if self.session is not None and (seat := self.session.clock_warning(self.clock())) is not None:
            alerts = (*alerts, seat)  # the last seconds on the clock: that seat's LED flashes fast
        if self.web is not None and publish:  # the mirror never shows a screen for one person's eyes: what is under it
            self.web.publish(self, self.mirrored(under, shown), self._t_input)
            self._t_input = None
        try:
            self.output.present(shown, active, waiting, alerts)
        except CompanionError as e:  # a loose wire must not stop the game: the journal has it all; retry on a timer
            if not self._output_failed:
                panel.lost(self, e)  # the phones are the panel meanwhile
            self._output_failed = True
            self.draw_retry.failed(self.clock())
            return
        self.draw_retry.worked()
        if self._output_failed:
            self._output_failed = False
            panel.back(self, publish)
        self.stats.frames += 1

    # ------------------------------------------------------------------ the loop
    def run(self) -> None:
        self.boot()
        self.draw()
        interval = self.notifier.watchdog_interval() if self.notifier is not None else None
        if self.notifier is not None:
            self.notifier.ready("playing" if self.session else "home menu")
        next_ping = self.clock() + interval if interval else None
        while self.running:
            deadlines = [d for d in (next_ping, self.toast_until, self.clock_deadline(), self.draw_retry.at,
                                     self.idle_deadline()) if d is not None]
            timeout = max(0.0, min(deadlines) - self.clock()) if deadlines else None
            try:
                ev: Event = self.events.get(timeout=timeout)
            except queue.Empty:
                ev = TickEvent()
            self.dispatch(ev)
            if next_ping is not None and interval and self.clock() >= next_ping:
                self.notifier.ping()
                next_ping = self.clock() + interval

    def shutdown(self) -> None:
        if self.notifier is not None:
            self.notifier.stopping()
        self.journal.close()
        self.output.close(farewell_frame())


__all__ = ["App", "Output", "TOAST_SECONDS", "farewell_frame", "install_signal_handlers", "toast_seconds"]
