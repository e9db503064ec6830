"""The game's last screen: who won and the figure that decided it, and where the phones show the rest.

When the game is over, the session asks this for the prompt in place of the game's own (an ``Info``): its lines are
the game's :meth:`~fsm.base.GameMachine.outcome` — the result ("Ana wins with 31 points"), then what decided it
("Ana took Ben's capital in round 9") — given whole (the OLED wraps them at spaces, never cutting a name), then
what the game's own final screen said that these do not (a SOVERANA table's votes cards), with :data:`STORY_LINE`
on the first screen's last row when the web view is on (right after the result and its decider when those two fill
the screen; the rest below it, for whoever scrolls). The phone shows the same prompt, with a link to the story.
"""
from __future__ import annotations

from fsm.base import GameMachine
from fsm.prompts import Info, Prompt

from companion.ui.draw import LIST_W, wrap
from companion.ui.prompt_screens import ROWS

STORY_LINE = "See the story on a phone"  #: one row of the OLED (110 of its 120 pixels): the web page's History
TITLE = "Game over"


def end_prompt(game: GameMachine, own: Prompt, story: bool = True) -> Info:
    """The final screen for ``game`` (over) in place of its own last prompt ``own``: the result and what decided
    it, then as much of the game's own lines as leaves the first screen's last row (measured in the OLED's font,
    lines wrapped as drawn) for :data:`STORY_LINE`, then the rest of them."""
    lines = [x for x in game.outcome() if x]
    said = " ".join(lines).casefold()
    rest = [x for x in own.lines if x.strip() and x.casefold() not in said]
    if story:
        used = sum(len(wrap(x, LIST_W)) for x in lines)
        while rest and used + len(wrap(rest[0], LIST_W)) < ROWS:
            used += len(wrap(rest[0], LIST_W))
            lines.append(rest.pop(0))
        lines.append(STORY_LINE)
    return Info(title=TITLE, lines=tuple(lines + rest))


__all__ = ["STORY_LINE", "end_prompt"]
