"""The screen for a prompt: one place that knows every kind of screen, the board screens included.

It sits above ``prompt_screens`` (the text screens, one per prompt type) and ``board_screens`` (a board on the left
half), which import nothing from each other's way back, so there is no import circle between them.
"""
from __future__ import annotations

from typing import Sequence

from fsm.prompts import Choice, Confirm, Dice, Info, MultiSelect, Number, Prompt, SecretVote

from companion.ui.board_screens import BoardChoiceScreen, BoardInfoScreen
from companion.ui.prompt_screens import (ChoiceScreen, ConfirmScreen, DiceContext, DiceScreen, InfoScreen,
                                         MultiSelectScreen, NumberScreen, PromptScreen, SecretVoteScreen)


def screen_for(prompt: Prompt, names: Sequence[str], dice: DiceContext) -> PromptScreen:
    if prompt.board is not None and isinstance(prompt, (Choice, Info)):
        return BoardChoiceScreen(prompt, names) if isinstance(prompt, Choice) else BoardInfoScreen(prompt, names)
    if isinstance(prompt, Choice):
        return ChoiceScreen(prompt, names)
    if isinstance(prompt, Number):
        return NumberScreen(prompt, names)
    if isinstance(prompt, Confirm):
        return ConfirmScreen(prompt, names)
    if isinstance(prompt, MultiSelect):
        return MultiSelectScreen(prompt, names)
    if isinstance(prompt, SecretVote):
        return SecretVoteScreen(prompt, names)
    if isinstance(prompt, Dice):
        return DiceScreen(prompt, names, dice)
    if isinstance(prompt, Info):
        return InfoScreen(prompt, names)
    raise TypeError(f"no screen for {type(prompt).__name__}")


__all__ = ["screen_for"]
