"""A clock setting, as text and as what it means: ``fischer 300+5`` parsed into a :class:`ClockSpec`.

Pure data with no platform behind it, so both sides can use it: the games declare the switch
(:mod:`fsm.clock_option`), the config and the wizard check it, and the session runs the clock
(:mod:`companion.session.clock`, which re-exports these names).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

MODES = ("none", "sudden", "fischer", "bronstein", "delay", "byoyomi")
MODE_NAMES = {"none": "No clock", "sudden": "Sudden death", "fischer": "Fischer", "bronstein": "Bronstein",
              "delay": "Simple delay", "byoyomi": "Byo-yomi"}


class ClockSpecError(ValueError):
    """A clock setting that makes no sense; the message says what to write."""


def _mmss(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 60}:{s % 60:02d}" if s % 60 else f"{s // 60}m"


@dataclass(frozen=True)
class ClockSpec:
    """How a clock runs. ``main`` is each seat's main time; ``extra`` is the Fischer increment, the Bronstein or
    simple delay, or the length of a byo-yomi period; ``periods`` counts byo-yomi periods; ``warn`` is how many
    seconds before the flag the LED starts warning."""

    mode: str = "none"
    main: int = 0
    extra: int = 0
    periods: int = 0
    warn: int = 10

    SYNTAX = ("none | sudden MAIN | fischer MAIN+INC | bronstein MAIN+DELAY | delay MAIN+DELAY | "
              "byoyomi MAIN PERIODSxSECONDS (seconds, e.g. 'fischer 300+5', 'byoyomi 600 5x30')")

    @property
    def running(self) -> bool:
        return self.mode != "none"

    @classmethod
    def parse(cls, text: str, warn: int = 10) -> "ClockSpec":
        """``"fischer 300+5"`` → a spec. Raises :class:`ClockSpecError` naming the syntax."""
        words = str(text).split()
        bad = ClockSpecError(f"clock {text!r}: write {cls.SYNTAX}")
        if not words or words[0] not in MODES:
            raise bad
        mode = words[0]
        try:
            if mode == "none" and len(words) == 1:
                return cls()
            if mode == "sudden" and len(words) == 2:
                return cls.make(mode, int(words[1]), warn=warn)
            if mode in ("fischer", "bronstein", "delay") and len(words) == 2 and "+" in words[1]:
                main, extra = words[1].split("+", 1)
                return cls.make(mode, int(main), int(extra), warn=warn)
            if mode == "byoyomi" and len(words) == 3 and "x" in words[2]:
                n, secs = words[2].split("x", 1)
                return cls.make(mode, int(words[1]), int(secs), int(n), warn=warn)
        except ValueError as e:
            if isinstance(e, ClockSpecError):
                raise
            raise bad from None
        raise bad

    @classmethod
    def make(cls, mode: str, main: int = 0, extra: int = 0, periods: int = 0, warn: int = 10) -> "ClockSpec":
        """A checked spec (whole seconds)."""
        if mode not in MODES:
            raise ClockSpecError(f"clock mode {mode!r}: use one of {', '.join(MODES)}")
        if mode == "none":
            return cls()
        if not 1 <= main <= 24 * 3600 and not (mode == "byoyomi" and main == 0):
            raise ClockSpecError(f"clock main time {main} s: use 1 to 86400 seconds")
        if mode in ("fischer", "bronstein", "delay", "byoyomi") and not 0 <= extra <= 3600:
            raise ClockSpecError(f"clock {mode} seconds {extra}: use 0 to 3600")
        if mode == "byoyomi" and (not 1 <= periods <= 99 or extra < 1):
            raise ClockSpecError("byo-yomi needs 1 to 99 periods of at least 1 second")
        if not 0 <= warn <= 600:
            raise ClockSpecError(f"clock warn {warn}: use 0 to 600 seconds")
        return cls(mode, main, extra if mode != "sudden" else 0, periods if mode == "byoyomi" else 0, warn)

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> "ClockSpec":
        """A TOML ``[clock]`` table: mode, main, and increment / delay / period + periods, warn (seconds)."""
        known = {"mode", "main", "increment", "delay", "period", "periods", "warn"}
        extra_keys = sorted(set(table) - known)
        if extra_keys:
            raise ClockSpecError(f"[clock] has no key {extra_keys[0]!r}; use {', '.join(sorted(known))}")
        for k, v in table.items():
            if k != "mode" and (isinstance(v, bool) or not isinstance(v, int)):
                raise ClockSpecError(f"[clock] {k} = {v!r} must be a whole number of seconds")
        mode = table.get("mode", "none")
        if not isinstance(mode, str):
            raise ClockSpecError(f"[clock] mode = {mode!r} must be one of {', '.join(MODES)}")
        extra = table.get("increment", table.get("delay", table.get("period", 0)))
        return cls.make(mode, table.get("main", 0), extra, table.get("periods", 0), table.get("warn", 10))

    @property
    def text(self) -> str:
        """The option text that parses back to this spec (``fischer 300+5``)."""
        if self.mode == "none":
            return "none"
        if self.mode == "sudden":
            return f"sudden {self.main}"
        if self.mode == "byoyomi":
            return f"byoyomi {self.main} {self.periods}x{self.extra}"
        return f"{self.mode} {self.main}+{self.extra}"

    @property
    def label(self) -> str:
        """For people: ``Fischer 5m+3s``."""
        name = MODE_NAMES[self.mode]
        if self.mode == "none":
            return name
        if self.mode == "sudden":
            return f"{name} {_mmss(self.main)}"
        if self.mode == "byoyomi":
            return f"{name} {_mmss(self.main)} {self.periods}x{self.extra}s"
        return f"{name} {_mmss(self.main)}+{self.extra}s"


__all__ = ["MODES", "MODE_NAMES", "ClockSpec", "ClockSpecError"]
