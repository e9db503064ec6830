"""A game clock for any game: sudden death, Fischer increment, Bronstein delay, simple (US) delay, byo-yomi.

Pure: every call takes ``now``, a monotonic time in seconds, injected by the caller (the app's clock, a test's fake).
Times are kept in whole milliseconds so the state is exact JSON. The clock runs for one seat at a time;
:meth:`GameClock.switch` ends that seat's turn (adding the increment, giving back the delay, resetting a byo-yomi
period) and starts the next. :meth:`GameClock.state` and :meth:`GameClock.load` carry the time used across a restart
without charging the time the companion was off.
"""
from __future__ import annotations

import math
from typing import Any, Mapping

from fsm.clock_spec import MODE_NAMES, MODES, ClockSpec, ClockSpecError  # re-exported: the clock's spec


class GameClock:
    """The clocks of a game's seats; one runs at a time."""

    def __init__(self, spec: ClockSpec, seats: list[int]) -> None:
        self.spec = spec
        self.left: dict[int, int] = {s: spec.main * 1000 for s in seats}  #: main time left (ms)
        self.periods: dict[int, int] = {s: spec.periods for s in seats}  #: byo-yomi periods left
        self.running: int | None = None
        self.used = 0  #: ms the running seat has used this turn before ``since``
        self.since: float | None = None  #: monotonic time the running seat's current stretch began (None: paused)
        self.paused = False
        self.flagged: int | None = None

    # ------------------------------------------------------------------ reading
    def turn_ms(self, now: float) -> int:
        """Ms the running seat has used this turn."""
        if self.since is None:
            return self.used
        return self.used + max(0, int((now - self.since) * 1000))

    def _charge(self, used: int) -> int:
        """How much of a turn's use comes off the main time (simple delay: the first seconds are free)."""
        if self.spec.mode == "delay":
            return max(0, used - self.spec.extra * 1000)
        return used

    def _split(self, seat: int, used: int) -> tuple[int, int, int]:
        """(main ms left, periods left, ms left in the current period) after ``used`` ms of this turn."""
        main = self.left[seat] - self._charge(used)
        if self.spec.mode != "byoyomi" or main > 0:
            return main, self.periods[seat], 0
        period = self.spec.extra * 1000
        over = -main
        spent = over // period
        return 0, self.periods[seat] - spent, period - over % period

    def remaining_ms(self, seat: int, now: float) -> int:
        """Ms until this seat flags, if its clock ran from now on (byo-yomi: main time plus periods)."""
        used = self.turn_ms(now) if seat == self.running else 0
        main, periods, in_period = self._split(seat, used)
        if self.spec.mode != "byoyomi":
            return main
        period = self.spec.extra * 1000
        if main > 0:
            return main + periods * period
        return in_period + (periods - 1) * period if periods > 0 else 0

    def shown(self, seat: int, now: float) -> str:
        """What the screen shows: ``4:59`` (whole seconds, rounded up so 0:00 is the flag), byo-yomi ``3x0:28`` in
        overtime. Under a simple delay the main time simply stands still for the first seconds of a move."""
        used = self.turn_ms(now) if seat == self.running else 0
        main, periods, in_period = self._split(seat, used)
        if self.spec.mode == "byoyomi" and main <= 0:
            return f"{max(periods, 0)}x{_clock_text(in_period if periods > 0 else 0)}"
        return _clock_text(main)

    def next_change(self, now: float) -> float | None:
        """The monotonic time the running seat's display next changes (a whole second) or it flags; None if
        nothing runs."""
        if self.running is None or self.since is None or self.flagged is not None:
            return None
        used = self.turn_ms(now)
        if self.spec.mode == "delay" and used < self.spec.extra * 1000:
            ms = self.spec.extra * 1000 - used  # the main time stands still until the delay is used up
        else:
            left = self.remaining_ms(self.running, now)
            ms = left % 1000 or 1000
            ms = min(ms, left) if left > 0 else 0
        return now + ms / 1000

    def flag_due(self, now: float) -> int | None:
        """The running seat, if its time has run out."""
        if self.running is not None and self.since is not None and self.flagged is None:
            if self.remaining_ms(self.running, now) <= 0:
                return self.running
        return None

    def warning(self, now: float) -> bool:
        """Whether the running seat is in its last ``warn`` seconds."""
        if self.running is None or self.since is None or self.flagged is not None:
            return False
        return self.remaining_ms(self.running, now) <= self.spec.warn * 1000

    # ------------------------------------------------------------------ changing
    def switch(self, seat: int | None, now: float | None) -> None:
        """End the running seat's turn (``now`` None: replaying, nothing is charged) and start ``seat``'s."""
        if seat == self.running:
            return
        if self.running is not None and now is not None and self.flagged is None:
            self._end_turn(self.running, self.turn_ms(now))
        self.running = seat
        self.used = 0
        self.since = None if (self.paused or now is None or seat is None) else now

    def _end_turn(self, seat: int, used: int) -> None:
        spec = self.spec
        main, periods, _ = self._split(seat, used)
        if spec.mode == "fischer":
            main += spec.extra * 1000
        elif spec.mode == "bronstein":
            main += min(used, spec.extra * 1000)
        elif spec.mode == "byoyomi" and main <= 0:
            self.periods[seat] = max(0, periods)
        self.left[seat] = max(0, main)

    def pause(self, now: float | None) -> None:
        """Stop the running seat's clock (``now`` None: replaying; the journaled state follows)."""
        if not self.paused:
            if now is not None:
                self.used = self.turn_ms(now)
            self.since = None
            self.paused = True

    def resume(self, now: float) -> None:
        """Unpause, or after a restart start the running seat's stretch again from ``now``."""
        self.paused = False
        if self.running is not None and self.flagged is None:
            self.since = now

    def flag(self, seat: int) -> None:
        """``seat``'s time is out: no main time and (byo-yomi) no period left, as the state JSON then shows."""
        self.flagged = seat
        self.used = 0
        self.since = None
        self.left[seat] = 0
        self.periods[seat] = 0

    # ------------------------------------------------------------------ persisting
    def state(self, now: float | None) -> dict[str, Any]:
        """JSON for the journal: each seat's time left, the running seat and what it has used this turn."""
        return {"left": {str(s): v for s, v in self.left.items()},
                "periods": {str(s): v for s, v in self.periods.items()},
                "running": self.running, "used": self.turn_ms(now) if now is not None else self.used,
                "paused": self.paused, "flagged": self.flagged}

    def load(self, state: Mapping[str, Any]) -> None:
        """Take a journaled state; the running seat's clock stays stopped until :meth:`resume`."""
        self.left = {int(s): int(v) for s, v in state["left"].items()}
        self.periods = {int(s): int(v) for s, v in state["periods"].items()}
        self.running = state["running"]
        self.used = int(state["used"])
        self.paused = bool(state["paused"])
        self.flagged = state["flagged"]
        self.since = None

    def seconds_left(self, now: float) -> dict[str, float]:
        """{seat: seconds left} for the state JSON."""
        return {str(s): round(max(0, self.remaining_ms(s, now)) / 1000, 3) for s in self.left}


def _clock_text(ms: int) -> str:
    s = max(0, math.ceil(ms / 1000))
    if s >= 3600:
        return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"
    return f"{s // 60}:{s % 60:02d}"


__all__ = ["MODES", "MODE_NAMES", "ClockSpec", "ClockSpecError", "GameClock"]
