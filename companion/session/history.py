"""The session's history: one undoable step (:class:`ActionGroup`), the screens laid over the game
(:class:`Overlay`), and an answer in words for the undo and redo toasts."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from fsm.prompts import Dice, Prompt, SecretVote

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
