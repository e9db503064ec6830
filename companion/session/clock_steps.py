"""The session's side of the game clock: start it with the game, follow the active seat, apply journaled clock
lines (a flag is an undoable timeout step), and the checkpoints and flags the loop journals."""
from __future__ import annotations

from companion.events import ClockEvent
from companion.session.core import SessionCore
from companion.session.history import ActionGroup, push_step
from companion.session.timekeeper import Timekeeper, clock_setting


class ClockSteps(SessionCore):
    """Part of :class:`companion.session.Session`."""

    def _start_clock(self) -> None:
        if self.game is None:
            return
        spec = clock_setting(self.game)
        if spec.running:
            self.timekeeper = Timekeeper(spec, self.game.seats)
            self._follow_clock()

    def _follow_clock(self) -> None:
        """After anything that may change whose turn it is: the clock runs for the game's active seat."""
        if self.timekeeper is not None and self.game is not None:
            seat = None if self.game.is_over else self.game.active_seat()
            self.timekeeper.follow(seat, self._now)

    def _on_clock(self, ev: ClockEvent) -> None:
        if self.timekeeper is None:
            return
        seat = self.timekeeper.apply(ev)
        if seat is None:
            if self._now is not None:  # live: the state was just written from this clock; it runs on
                self.timekeeper.restart(self._now)
            return
        if self.game is None or self._game_over:
            return
        group = ActionGroup(title="Time", what=f"{self._who(seat)}: time is up", rolled=True)
        before = self._snapshot()
        value = {"clock": "timeout", "seat": seat}
        self._model_answer(value)
        group.answers.append((value, True))
        self.action_log.append({"t": self._t, "player": seat, "title": "Time", "answer": value, "auto": True})
        push_step(self.undo_stack, before, group)
        self.redo_stack.clear()
        self.screen = self._new_screen()
        self.toast = f"{self.names[seat - 1]}: time is up"
        self._announce([])
        self._follow_clock()

    def set_now(self, now: float) -> None:
        """The app's monotonic time for drawing the clock between inputs."""
        self._now = now

    def restart_clock(self, now: float) -> None:
        """After a replay: the running seat's clock goes on from ``now``; the time the companion was off is free."""
        if self.timekeeper is not None:
            self._now = now
            self.timekeeper.restart(now)

    def clock_checkpoint(self, now: float | None) -> ClockEvent | None:
        """The clock's state to journal, when it changed or is due (None: nothing to write)."""
        tk = self.timekeeper
        if tk is None or (now is not None and not tk.checkpoint_due(now)) or (now is None and not tk.dirty):
            return None
        return tk.checkpoint(now)

    def clock_flag(self, now: float) -> ClockEvent | None:
        """The flag to journal when the running seat's time has run out."""
        if self.timekeeper is None or self._game_over:
            return None
        seat = self.timekeeper.clock.flag_due(now)
        return ClockEvent("flag", str(seat)) if seat is not None else None
