"""Events: the only thing hardware threads hand to the main loop.

Button callbacks, the key reader and the roller reader run on their own threads; they build one of these frozen
values and put it on the single :class:`queue.Queue` the loop blocks on. Nothing else crosses threads.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any, Union


class Key(str, Enum):
    """The five inputs a game ever sees (an encoder maps onto the same keys)."""

    UP = "up"
    DOWN = "down"
    OK = "ok"
    BACK = "back"
    HOLD = "hold"  #: a long press of OK: opens the game menu


@dataclass(frozen=True)
class KeyEvent:
    key: Key
    repeat: bool = False  #: an auto-repeat while UP/DOWN is held


@dataclass(frozen=True)
class RollEvent:
    """Dice values that arrived from a roller (or the simulator's virtual roller)."""

    die: str  #: "d6" or "d12"
    values: tuple[int, ...]
    roller: str = "roller"  #: a stable name for the device, used by the fairness monitor
    seq: int | None = None


@dataclass(frozen=True)
class EntryEvent:
    """Typed entry that answers the current prompt in the game's own notation: a script's ``move TEXT`` line, or a
    remote. ``kind`` is the notation's word (``move``)."""

    kind: str
    text: str


@dataclass(frozen=True)
class ClockEvent:
    """The game clock, journaled like an input so a resume is exact: ``state`` carries its JSON (time left, the
    running seat and what it has used this turn); ``flag`` says a seat's time ran out."""

    kind: str  #: "state" or "flag"
    detail: str  #: the state's JSON, or the seat that flagged


class RollerState(str, Enum):
    CONNECTED = "connected"
    OFFLINE = "offline"
    ERROR = "error"


@dataclass(frozen=True)
class AnswerEvent:
    """An answer to the current prompt from outside the buttons (a paired phone, via the web view).

    It goes through the same journal and the same validation as a button press. ``seq`` is the prompt it answers
    (:attr:`companion.session.Session.prompt_seq`): if the table has moved on meanwhile, it is refused, not applied to
    the next question.
    """

    value: Any  #: the answer, shaped as fsm/prompts.py says (JSON values only)
    seq: int
    source: str = "web"  #: who answered, recorded in the journal: "web" or "web:seat2"
    ref: str = ""  #: the web request waiting for the outcome (not journaled)


@dataclass(frozen=True)
class RollerStatusEvent:
    state: RollerState
    detail: str = ""  #: one line for the screen, e.g. the port or the error


@dataclass(frozen=True)
class RollRequestEvent:
    """Someone asked the roller to roll (the simulator's `r` key); the loop sends REQ for the pending prompt."""


@dataclass(frozen=True)
class WebEvent:
    """The web view needs the loop (never journaled itself): ``"request"`` seat requests or phones changed (the
    device shows what is asked now); ``"key"`` the host phone pressed the companion's button ``value`` (handled as
    the device's own press, which is journaled as usual; the outcome goes back to the request ``ref``)."""

    kind: str
    value: str = ""
    ref: str = ""


@dataclass(frozen=True)
class TickEvent:
    """A timer fired (watchdog, toast expiry); carries no input."""

    reason: str = "tick"


@dataclass(frozen=True)
class QuitEvent:
    reason: str = "quit"


Event = Union[KeyEvent, RollEvent, EntryEvent, AnswerEvent, ClockEvent, RollerStatusEvent, RollRequestEvent,
              TickEvent, QuitEvent, WebEvent]


def key(name: str) -> KeyEvent:
    """Build a key event from its name ("up", "ok", ...)."""
    return KeyEvent(Key(name))


__all__ = ["AnswerEvent", "ClockEvent", "EntryEvent", "Event", "Key", "KeyEvent", "RollEvent", "RollerState",
           "RollerStatusEvent", "RollRequestEvent", "TickEvent", "WebEvent",
           "QuitEvent", "key"]
