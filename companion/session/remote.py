"""Answers that do not come from the buttons: a phone's answer (the web view) and typed entry (a script's ``move``
line, a remote): validated and answered exactly like OK on the device. Part of :class:`companion.session.Session`."""
from __future__ import annotations

from typing import Any

from fsm.prompts import Dice, Prompt, Random

from companion.events import AnswerEvent


class RemoteAnswers:
    """Part of :class:`companion.session.SessionCore`; the steps it uses are the core's."""

    prompt_seq: int
    toast: str | None
    sources: tuple[str, ...]

    def prompt(self) -> Prompt:
        raise NotImplementedError

    def _answer(self, value: Any) -> None:
        raise NotImplementedError

    def _rng_values(self, die: str, count: int) -> list[int]:
        raise NotImplementedError

    @property
    def _game_over(self) -> bool:
        raise NotImplementedError

    def _remote_answer(self, ev: AnswerEvent) -> None:
        """An answer from a phone: the same validation and history as OK on the device, for the prompt it names."""
        p = self.prompt()
        if ev.seq != self.prompt_seq:
            self.toast = "The question changed; answer the new one"
            return
        if self._game_over:
            self.toast = "The game is over"
            return
        if isinstance(p, Random):
            self.toast = "The companion draws this one itself"
            return
        value = ev.value
        if isinstance(p, Dice):
            src = value.get("source") if isinstance(value, dict) else None
            if src not in ("typed", "rng") or src not in self.sources:
                allowed = " or ".join(s for s in ("typed", "rng") if s in self.sources) or "the roller"
                self.toast = f"Dice here come from {allowed}; see [dice] sources"
                return
            value = {"values": self._rng_values(p.die, p.count) if src == "rng" else value.get("values"),
                     "source": src}
        self._answer(value)



__all__ = ["RemoteAnswers"]
