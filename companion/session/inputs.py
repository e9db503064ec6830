"""Inputs as the journal writes them: one line of text per event, and back.

``ok``, ``up+`` (auto-repeat), ``roll d12 7 5 roller``, ``move wPi2-i4`` (typed entry), ``clock flag 2`` and a
phone's ``answer 12 web:seat2 "yes"``. The text is what the journal's hash chain covers, so it never changes shape.
"""
from __future__ import annotations

import json

from companion.events import AnswerEvent, ClockEvent, EntryEvent, Key, KeyEvent, RollEvent

EventIn = KeyEvent | RollEvent | EntryEvent | ClockEvent | AnswerEvent

#: the typed-entry notations a journal line may start with (``move wPi2-i4``)
ENTRY_KINDS = ("move",)


def encode_event(ev: EventIn) -> str:
    """The journal's text for an input: ``ok``, ``up+`` (auto-repeat), ``roll d12 7 5 roller``, or an answer from a
    phone: ``answer 12 web:seat2 "yes"`` (the prompt number it answers, its source, the value as JSON)."""
    if isinstance(ev, KeyEvent):
        return ev.key.value + ("+" if ev.repeat else "")
    if isinstance(ev, AnswerEvent):
        return f"answer {ev.seq} {ev.source} {json.dumps(ev.value, separators=(',', ':'))}"
    if isinstance(ev, EntryEvent):
        return f"{ev.kind} {ev.text}"
    if isinstance(ev, ClockEvent):
        return f"clock {ev.kind} {ev.detail}"
    return f"roll {ev.die} {' '.join(map(str, ev.values))} {ev.roller}"


def decode_event(text: str) -> EventIn:
    if text.startswith("answer "):
        _, seq, source, value = text.split(" ", 3)
        return AnswerEvent(json.loads(value), int(seq), source)
    if text.startswith("roll "):
        parts = text.split()
        return RollEvent(parts[1], tuple(int(v) for v in parts[2:-1]), roller=parts[-1])
    head, _, rest = text.partition(" ")
    if head == "clock":
        kind, _, detail = rest.partition(" ")
        return ClockEvent(kind, detail)
    if head in ENTRY_KINDS:
        return EntryEvent(head, rest)
    return KeyEvent(Key(text.rstrip("+")), repeat=text.endswith("+"))
