"""Answers that do not come from a key press on a prompt screen: a phone's answer, and the keys of an open secret
ballot on the device.

* A phone's answer goes through the same validation and history as OK on the device. :meth:`RemoteInputs.try_remote`
  applies it only if it is taken: a refused one leaves the session exactly as it was (nothing to journal, nothing on
  the OLED) and its reason goes back to the phone alone.
* While a secret ballot is open on the device, UP and DOWN move its cursor without being inputs: nothing is journaled
  and no count moves, so nobody watching can count the moves (a two-option ballot wraps: an odd count would say NO).
  OK casts the ballot as one answer (``answer N device "no"``), exactly what a phone sends.
"""
from __future__ import annotations

from typing import Any

from fsm.prompts import Choice, Dice, MultiSelect, Random, SecretVote

from companion.events import AnswerEvent, Key, KeyEvent
from companion.journal.store import RollRecord
from companion.session.core import SessionCore
from companion.ui.widgets import Done

_SCALAR = (str, int, float, bool, type(None))


def _shape_refusal(p: Any, value: Any) -> str | None:
    """A plain refusal for JSON that cannot be a choice at all (a list or an object where a key belongs)."""
    if isinstance(p, Choice) and p.text and isinstance(value, dict):
        return None  # a pasted message: validate_answer checks its shape and length
    if isinstance(p, (Choice, SecretVote)) and not isinstance(value, _SCALAR):
        return "That is not one of the choices"
    if isinstance(p, MultiSelect) and isinstance(value, list) and not all(isinstance(v, _SCALAR) for v in value):
        return "Pick from the list"
    return None


class RemoteInputs(SessionCore):
    """Part of :class:`companion.session.Session`."""

    def _remote_answer(self, ev: AnswerEvent) -> None:
        """An answer from a phone: the same validation and history as OK on the device, for the prompt it names."""
        p = self.prompt()
        if type(ev.seq) is not int or ev.seq != self.prompt_seq:  # journaled as is: only a whole number reads back
            self.toast = self.refused = "The question changed; answer the new one"
            return
        if self._game_over:
            self.toast = self.refused = "The game is over"
            return
        if isinstance(p, Random):
            self.toast = self.refused = "The companion draws this one itself"
            return
        value = ev.value
        why = _shape_refusal(p, value)
        if why is not None:
            self.toast = self.refused = why
            return
        if isinstance(p, Dice):
            src = value.get("source") if isinstance(value, dict) else None
            if src not in ("typed", "rng") or src not in self.sources:
                allowed = " or ".join(s for s in ("typed", "rng") if s in self.sources) or "the roller"
                self.toast = self.refused = f"Dice here come from {allowed}; see [dice] sources"
                return
            value = {"values": self._rng_values(p.die, p.count) if src == "rng" else value.get("values"),
                     "source": src}
        self._answer(value)

    def try_remote(self, ev: AnswerEvent, t: float, now: float | None) -> tuple[list[RollRecord], str | None]:
        """Apply a phone's answer if it is taken: ``(rolls, None)``. If refused, the session is left exactly as it
        was (its inputs count, toast, screen, dice and random draws) and ``([], reason)`` comes back."""
        kept = (self.n_inputs, self._t, self._now, self.toast, self.toast_sticky, self.refused, self.screen,
                self.rng.getstate(), len(self.action_log), len(self.dice_history), self.toast_more)
        seq = self.prompt_seq
        rolls = self.handle(ev, t, now)
        if self.prompt_seq != seq:
            return rolls, None
        why = self.refused or self.toast or "Not taken"
        (self.n_inputs, self._t, self._now, self.toast, self.toast_sticky, self.refused, self.screen, rng,
         n_actions, n_dice, self.toast_more) = kept
        self.rng.setstate(rng)
        del self.action_log[n_actions:], self.dice_history[n_dice:]
        self._memo = None
        return [], why

    def private_key(self, ev: KeyEvent) -> KeyEvent | AnswerEvent | None:
        """A key while :meth:`private_screen` is true: UP/DOWN move the ballot's cursor and are not inputs (None);
        OK becomes the ballot's answer; BACK and the long press go on as inputs."""
        if ev.key in (Key.UP, Key.DOWN):
            self.screen.key(ev.key, ev.repeat)
            return None
        if ev.key is Key.OK:
            out = self.screen.key(Key.OK)
            if isinstance(out, Done):
                return AnswerEvent(out.value, self.prompt_seq, "device")
            return None
        return ev


__all__ = ["RemoteInputs"]
