"""The session's game clock: it follows the game's active seat, is journaled, flags, pauses.

The clock itself (:mod:`companion.session.clock`) is pure; this is the glue. Time is the app's monotonic clock, handed in
with each input (``now``); while a saved game is replayed ``now`` is None and nothing is charged — the journaled
``clock state`` lines carry the time each seat had used, and :meth:`Timekeeper.restart` starts the running seat
again from the moment the game is resumed, so the time the companion was off is not charged.

Beside the live clock the timekeeper keeps the clock as a replay of the journal rebuilds it (``journaled``: the same
changes, with no time), which is what a resume snapshot keeps (:meth:`Timekeeper.as_replayed`): a game resumed from
a snapshot has the clocks the full replay would give it.
"""
from __future__ import annotations

import json
from typing import Any

from companion.session.clock import ClockSpec, GameClock
from companion.events import ClockEvent
from companion.ui.clock_face import draw_time, time_width

CHECKPOINT_S = 10.0  #: a running clock's state is journaled at least this often (what a power cut can lose)


class Timekeeper:
    def __init__(self, spec: ClockSpec, seats: list[int]) -> None:
        self.spec = spec
        self.clock = GameClock(spec, seats)
        #: the clock as the replay of the journal so far rebuilds it: every change the live clock takes, with no
        #: time (``now`` None), and every journaled clock line; it never runs
        self.journaled = GameClock(spec, seats)
        #: the state changed in a way the journal must keep (a switch, a pause) since the last clock line
        self.dirty = False
        self.saved_at: float | None = None  #: when the state was last journaled (monotonic)

    def follow(self, seat: int | None, now: float | None) -> None:
        """The game's seat to move is ``seat`` (None: nobody, the game is over): switch the clock to it."""
        if seat != self.clock.running:
            for c, at in ((self.clock, now), (self.journaled, None)):
                if c.flagged is not None and seat is not None:
                    c.periods[c.flagged] = self.spec.periods  # a turn timer: the late seat's next turn has them again
                    c.flagged = None  # a turn timer: the next seat's turn starts afresh
                c.switch(seat, at)
            self.dirty = True

    def pause(self, now: float | None) -> None:
        self.clock.pause(now)
        self.journaled.pause(None)
        self.dirty = True

    def resume(self, now: float | None) -> None:
        self.clock.paused = self.journaled.paused = False
        if now is not None:
            self.clock.resume(now)
        self.dirty = True

    def restart(self, now: float) -> None:
        """After a replay: the running seat's clock runs again from ``now`` (unless paused)."""
        if not self.clock.paused:
            self.clock.resume(now)

    def apply(self, ev: ClockEvent) -> int | None:
        """A journaled clock line: load a state; or a flag, returning the seat whose time ran out."""
        if ev.kind == "state":
            state = json.loads(ev.detail)
            self.clock.load(state)
            self.journaled.load(state)
            self.dirty = False  # the journal holds this state
            return None
        seat = int(ev.detail)
        self.clock.flag(seat)
        self.journaled.flag(seat)
        return seat

    def as_replayed(self) -> "Timekeeper":
        """This timekeeper as the replay of the journal up to here rebuilds it, for a resume snapshot: the clock
        stands at the journal's state (the running seat's time since its last clock line is not in it) until
        :meth:`restart`, exactly as after the full replay."""
        tk = Timekeeper.__new__(Timekeeper)
        tk.spec, tk.dirty, tk.saved_at = self.spec, self.dirty, None
        tk.clock, tk.journaled = GameClock(self.spec, []), GameClock(self.spec, [])
        state = self.journaled.state(None)
        tk.clock.load(state)
        tk.journaled.load(state)
        return tk

    def checkpoint(self, now: float | None) -> ClockEvent:
        self.dirty = False
        self.saved_at = now
        return ClockEvent("state", json.dumps(self.clock.state(now), separators=(",", ":"), sort_keys=True))

    def checkpoint_due(self, now: float) -> bool:
        if self.dirty:
            return True
        c = self.clock
        running = c.running is not None and c.since is not None and c.flagged is None
        return running and (self.saved_at is None or now - self.saved_at >= CHECKPOINT_S)

    def deadline(self, now: float) -> float | None:
        """The next moment the app must wake for the clock: a second boundary, the flag, a checkpoint."""
        c = self.clock
        nxt = c.next_change(now)
        if nxt is None:
            return None
        if self.saved_at is not None:
            nxt = min(nxt, self.saved_at + CHECKPOINT_S)
        return nxt

    def rows(self, names: list[str], now: float | None) -> list[tuple[str, str, bool]]:
        """(name, time shown, running) per seat."""
        t = now if now is not None else 0.0
        c = self.clock
        return [(names[s - 1] if 0 < s <= len(names) else str(s), c.shown(s, t), s == c.running and not c.paused)
                for s in sorted(c.left)]


def clock_setting(game: Any) -> ClockSpec:
    """The game's clock: its ``clock`` option (built-in games) or ``clock_spec`` (TOML games), else none."""
    spec = getattr(game, "clock_spec", None)
    if isinstance(spec, ClockSpec):
        return spec
    text = getattr(game, "options", {}).get("clock")
    return ClockSpec.parse(text) if text else ClockSpec()


__all__ = ["Timekeeper", "CHECKPOINT_S", "clock_setting", "draw_time", "time_width"]
