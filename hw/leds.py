"""The LEDs: one per player seat and a status LED.

What they show (:class:`LedSnapshot`):

* the active player's LED is lit (``"on"``); it blinks (``"blink"``, 0.5 s on / 0.5 s off) while the companion waits
  for that player's input or roll; every other player LED is off — except the seats a game raises an alert for (a
  king in check), whose LEDs flash fast (``"fast"``, 0.1 s on / 0.1 s off);
* the status LED shows the dice roller: connected → on; offline → slow blink (the companion runs, no roller is
  answering); error → fast blink (0.1 s on / 0.1 s off); ``None`` (no roller in use) → off.

:class:`GpioLeds` drives gpiozero ``LED`` objects: active-high by default (BCM pin → resistor → anode, cathode to
ground), or active-low with ``active_high=False`` (3.3 V → resistor → anode, cathode to the pin: common-anode parts);
:class:`SimLeds` is the fake the terminal simulator draws and tests read. Both only touch the outputs when what
they show changes, so the loop may call :meth:`~GpioLeds.show` after every frame.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Literal, Sequence

from companion.events import RollerState

from hw.gpio import default_pin_factory, pin_error, pin_errors

log = logging.getLogger(__name__)

PlayerLight = Literal["off", "on", "blink", "fast"]
StatusLight = Literal["off", "on", "blink", "fast"]

BLINK = (0.5, 0.5)  #: seconds on, off: waiting for the active player; roller offline
FAST = (0.1, 0.1)  #: roller error

_STATUS: dict[RollerState | None, StatusLight] = {
    RollerState.CONNECTED: "on",
    RollerState.OFFLINE: "blink",
    RollerState.ERROR: "fast",
    None: "off",
}


@dataclass(frozen=True)
class LedSnapshot:
    """What the LEDs show: one entry per player seat (seat 1 first) and the status LED."""

    players: tuple[PlayerLight, ...]
    status: StatusLight = "off"

    @classmethod
    def dark(cls, n_players: int) -> LedSnapshot:
        off: PlayerLight = "off"
        return cls((off,) * n_players, "off")


def player_lights(n_players: int, active: int | None, waiting: bool,
                  alerts: Sequence[int] = ()) -> tuple[PlayerLight, ...]:
    """``active`` is a 1-based seat; a seat without an LED (or None) leaves every player LED off. Seats in
    ``alerts`` flash fast, the active one included."""
    lit: PlayerLight = "blink" if waiting else "on"
    fast: PlayerLight = "fast"
    off: PlayerLight = "off"
    return tuple(fast if seat in alerts else lit if seat == active else off for seat in range(1, n_players + 1))


def status_light(state: RollerState | None) -> StatusLight:
    return _STATUS[state]


class SimLeds:
    """The fake: remembers what the LEDs show, and every distinct state in ``history``."""

    def __init__(self, n_players: int) -> None:
        self._snap = LedSnapshot.dark(n_players)
        self.history: list[LedSnapshot] = [self._snap]

    def show(self, active: int | None, waiting: bool, alerts: Sequence[int] = ()) -> None:
        self._set(LedSnapshot(player_lights(len(self._snap.players), active, waiting, alerts), self._snap.status))

    def set_status(self, state: RollerState | None) -> None:
        self._set(LedSnapshot(self._snap.players, status_light(state)))

    def snapshot(self) -> LedSnapshot:
        return self._snap

    def close(self) -> None:
        self._set(LedSnapshot.dark(len(self._snap.players)))

    def _set(self, snap: LedSnapshot) -> None:
        if snap != self._snap:
            self._snap = snap
            self.history.append(snap)


class GpioLeds:
    """LEDs on BCM pins: ``players`` in seat order, ``status`` optional; ``active_high=False`` for LEDs wired from
    3.3 V to the pin (lit when the pin is low)."""

    def __init__(self, players: Sequence[int], status: int | None, *, pin_factory: Any = None,
                 blink: tuple[float, float] = BLINK, fast: tuple[float, float] = FAST,
                 active_high: bool = True) -> None:
        from gpiozero import LED  # type: ignore[import-untyped]

        factory = pin_factory if pin_factory is not None else default_pin_factory()
        self._blink = blink
        self._fast = fast
        self._players: list[Any] = []
        self._status: Any = None
        where = ""
        try:
            for seat, pin in enumerate(players):
                where = f"[leds] players[{seat}] = {pin}"
                self._players.append(LED(pin, active_high=active_high, initial_value=False, pin_factory=factory))
            if status is not None:
                where = f"[leds] status = {status}"
                self._status = LED(status, active_high=active_high, initial_value=False, pin_factory=factory)
        except pin_errors() as e:
            self._close_all()
            raise pin_error(where, e) from e
        self._n = len(self._players)
        self._snap = LedSnapshot.dark(self._n)

    def show(self, active: int | None, waiting: bool, alerts: Sequence[int] = ()) -> None:
        new = player_lights(self._n, active, waiting, alerts)
        for led, old_light, light in zip(self._players, self._snap.players, new):
            if light != old_light:
                self._drive(led, light)
        self._snap = LedSnapshot(new, self._snap.status)

    def set_status(self, state: RollerState | None) -> None:
        light = status_light(state)
        if light != self._snap.status and self._status is not None:
            self._drive(self._status, light)
        self._snap = LedSnapshot(self._snap.players, light)

    def snapshot(self) -> LedSnapshot:
        """What the LEDs show (the status entry is kept even without a status LED wired)."""
        return self._snap

    def close(self) -> None:
        """All off, pins released. Safe to call twice."""
        self._close_all()
        self._snap = LedSnapshot.dark(self._n)

    def _drive(self, led: Any, light: str) -> None:
        if light == "off":
            led.off()
        elif light == "on":
            led.on()
        else:
            on, off = self._fast if light == "fast" else self._blink
            led.blink(on_time=on, off_time=off, background=True)

    def _close_all(self) -> None:
        leds, self._players, self._status = [*self._players, self._status], [], None
        for led in leds:
            if led is not None:
                led.off()
                led.close()


__all__ = ["BLINK", "FAST", "GpioLeds", "LedSnapshot", "SimLeds", "player_lights", "status_light"]
