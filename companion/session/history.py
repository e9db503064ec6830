"""The session's history: one undoable step (:class:`ActionGroup`), the screens laid over the game
(:class:`Overlay`), and an answer in words for the undo and redo toasts."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from fsm.prompts import Dice, Prompt, SecretVote

from companion.ui.prompt_screens import ChoiceScreen, NumberScreen
from companion.ui.widgets import Item, ListWidget


@dataclass
class ActionGroup:
    """One undoable step: a player's answer and the automatic picks that followed it."""

    answers: list[tuple[Any, bool]] = field(default_factory=list)  #: (value, automatic)
    dice: list[int] = field(default_factory=list)  #: indices into Session.dice_history
    title: str = ""
    player: int | None = None  #: who answered (the prompt's seat)
    what: str = ""  #: the action in words, for the undo and redo toasts ("Ben: Build a fort")
    rolled: bool = False  #: a roll or a random pick happened: BACK never takes that back (the menu's Undo does)
    nav: bool = False  #: the answer was the screen's own BACK (out of a submenu): a way back, not a step
    #: the prompt the step was answered on: the prompt of the state an undo of it goes back to (the same state, so
    #: the same prompt), kept so that BACK and undo show it without building it again — on the last step only
    #: (:func:`push_step`: a chess prompt is tens of kilobytes, and the undo stack grows all game). Never saved: a
    #: step read back from a resume snapshot builds it afresh.
    prompt: Prompt | None = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k != "prompt"}


@dataclass
class Overlay:
    """A screen over the game: the game menu, a text page, or a confirmation."""

    kind: str
    title: str
    widget: Any


def entry_list(lines: Sequence[str]) -> ListWidget:
    """A log as a list, newest at the cursor; OK opens an entry whole."""
    return ListWidget([Item(str(i), line) for i, line in enumerate(lines)] or [Item("-1", "(nothing yet)", False,
                                                                                    "nothing to open")],
                      cursor=max(0, len(lines) - 1))


def describe(prompt: Prompt, value: Any, names: Sequence[str]) -> str:
    """An answer in words, for the undo toast: "Ben: Build a fort (Spend 4 pts)", never a secret ballot."""
    from fsm.prompts import Choice, Confirm, MultiSelect, Number

    if isinstance(prompt, Choice):
        label = next((o.label for o in prompt.options if o.key == value), "back" if value == prompt.back else value)
        what = f"{prompt.title}: {label}" if value == prompt.back else f"{label} ({prompt.title})"
    elif isinstance(prompt, Number):
        what = f"{prompt.title} {value}{(' ' + prompt.unit) if prompt.unit else ''}"
    elif isinstance(prompt, Confirm):
        what = f"{prompt.title} {prompt.yes if value else prompt.no}"
    elif isinstance(prompt, MultiSelect):
        labels = [o.label for o in prompt.options if o.key in value]
        what = f"{prompt.title}: " + (", ".join(labels) if labels else "none")
    elif isinstance(prompt, SecretVote):
        what = "a secret vote"
    elif isinstance(prompt, Dice):
        what = f"roll {prompt.die} {' '.join(map(str, value['values']))}"
    else:
        what = prompt.title
    who = names[prompt.player - 1] if prompt.player is not None and 0 < prompt.player <= len(names) else ""
    return f"{who}: {what}" if who else what


def push_step(undo_stack: list[tuple[Any, ActionGroup]], before: Any, group: ActionGroup) -> None:
    """Put a step on the undo stack; the step below it lets go of its prompt (only the last step keeps one)."""
    if undo_stack:
        undo_stack[-1][1].prompt = None
    undo_stack.append((before, group))


def round_trip(undo_stack: list[tuple[Any, ActionGroup]], group: ActionGroup, title: str,
               snapshot: Callable[[], Any], depth: int = 24) -> tuple[Any] | None:
    """An answer (``group``, not rolled) that brought the player back to a screen of their own step exactly as it was
    (out of a submenu by its BACK or Done with nothing changed): the steps since are dropped from ``undo_stack``, so
    BACK there goes on to the screen before it instead of into the submenu again (no BACK ping-pong). Returns (the
    answer given on that screen,) to put the cursor back on; None when the answer is a step of its own."""
    if group.rolled:
        return None
    now = None
    for i in range(len(undo_stack) - 1, max(-1, len(undo_stack) - 1 - depth), -1):
        snap, g = undo_stack[i]
        if g.rolled or g.player != group.player:
            return None
        if g.title != title:
            continue
        now = now or snapshot()
        if snap[0] != now[0]:  # the game began since: not a way back
            return None
        if snap[1] == now[1] and (snap[0] == "setup" or snap[2] is now[2]):
            del undo_stack[i:]
            return (g.answers[0][0],) if g.answers else None
    return None


def back_span(undo_stack: list[tuple[Any, ActionGroup]], player: int | None,
              who: Callable[[int | None], str], whole_visits: bool = True) -> tuple[int, str]:
    """How many steps BACK takes back (and why none): the last one, when it was ``player``'s (or the table's) and
    rolled nothing. A submenu left by its own BACK goes with the step that entered it, so BACK from the screen it
    returned to goes on to the screen before, never into the submenu again (no BACK ping-pong)."""
    depth = 0
    for n, (_snap, g) in enumerate(reversed(undo_stack), start=1):
        if g.rolled:
            return 0, "BACK keeps rolls: hold OK, Undo takes one back"
        if g.player is not None and g.player != player:
            return 0, f"{who(g.player)}'s step is done: hold OK, Undo"
        depth += 1 if g.nav and whole_visits else -1
        if depth <= 0:
            return n, ""
    return len(undo_stack), ""


def entered_from(undo_stack: list[tuple[Any, ActionGroup]], title: str) -> tuple[Any] | None:
    """After a submenu's own BACK (the last step), the answer that entered it, when it was given on the screen
    titled ``title`` that BACK returned to: the cursor goes back on it."""
    n, _why = back_span(undo_stack, undo_stack[-1][1].player, str)
    g = undo_stack[-n][1] if n else None
    return (g.answers[0][0],) if g is not None and g.title == title and g.answers else None


def returned_to(undo_stack: list[tuple[Any, ActionGroup]], prompt: Prompt, depth: int = 4) -> tuple[Any] | None:
    """After Done or a number entry that brings the player back to a choice they left by one of its entries a few
    steps ago (Spend after a purchase, a phase after a counter, Distribution after a department's share): that
    entry, for the cursor to go back on. None when the choice moves on by design (``advance``), or the player did
    not come from it (another player's step or a roll came between)."""
    from fsm.prompts import Choice

    if not isinstance(prompt, Choice) or prompt.advance or prompt.board is not None:
        return None
    for _snap, g in undo_stack[:-depth - 1:-1]:
        if g.nav or g.rolled or prompt.player is not None and g.player != prompt.player:
            return None
        if g.title == prompt.title:
            return (g.answers[0][0],) if g.answers else None
    return None


def point_at(screen: Any, came_from: tuple[Any] | None) -> None:
    """After BACK or Done the cursor stands on the entry the player came from, and a number BACK returns to shows
    the value typed there (a plain choice or number only: a secret ballot never shows an earlier vote)."""
    if came_from is None:
        return
    value = came_from[0]
    if type(screen) is ChoiceScreen and isinstance(value, str):
        screen.list.move_to(value)
    elif type(screen) is NumberScreen and type(value) is int and screen.spin.lo <= value <= screen.spin.hi:
        screen.spin.value = value
