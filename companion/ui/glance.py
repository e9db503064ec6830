"""The glance view: whose turn it is in large type, with the round, the phase and what to do.

Players look up for a second; the working screens are dense (a title, context lines, a menu), so the companion
shows this instead while it waits on a player who has not begun (the turn just passed to them) and nobody has touched
it for ``glance_seconds`` (30 by default). Never part-way through a step: not after the player's own answer of this
step, not while dice are being typed, a board move is half chosen or a ballot is open. The first press brings the
working screen back, says so, and does nothing else (the App drops that press before the journal, so replay is
exact).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PIL import Image

from companion.ui.draw import ROW, WIDTH, big_text, draw_text, new_frame, text_width

if TYPE_CHECKING:
    from companion.session import Session

GLANCE_MORE = "any key: read it all"  #: an announcement too long for the glance view's two lines ends so
NAME_Y = 12  #: top of the large name's cell (its capitals start 3 px lower and are 15 px tall)


@dataclass(frozen=True)
class Glance:
    name: str
    round: int | None
    phase: str
    doing: str  #: the prompt's title: what the player is asked for
    clock: str | None = None  #: the running game clock (``4:59``, ``clock paused``), when the game has one


def glance_for(session: "Session") -> Glance | None:
    """What the glance view shows now, or None when it has nothing to say (no game, no one to wait on)."""
    g = session.game
    if g is None or g.is_over or session.overlays or session.screen.part_way():
        return None
    p = session.prompt()
    seat = p.player
    if seat is None or not 0 < seat <= len(g.players):
        return None
    if session.undo_stack and session.undo_stack[-1][1].player == seat:  # part-way through their own step: they
        return None  # are reading or deciding (a Spend menu, a battle), not looking across the table
    rnd = g.data.get("round")
    return Glance(g.player_name(seat), rnd if isinstance(rnd, int) else None, g.phase_label(), p.title,
                  session.clock_shown())


def _centred(d: "object", y: int, text: str) -> None:
    w = min(text_width(text), WIDTH - 2)
    draw_text(d, max(1, (WIDTH - w) // 2), y, text, width=WIDTH - 2, height=ROW)  # type: ignore[arg-type]


def render_glance(info: Glance, toast: str | None = None) -> Image.Image:
    """The glance frame; an announcement still up (who starts, a result) covers its bottom rows."""
    img, d = new_frame()
    head = " · ".join(x for x in (f"Round {info.round}" if info.round is not None else "", info.phase) if x)
    _centred(d, 0, head)
    big_text(d, NAME_Y, info.name, "large")
    _centred(d, 41, f"{info.doing} · {info.clock}" if info.clock else info.doing)  # a running clock stays in view
    _centred(d, 53, "any key: back")
    if toast:
        from companion.ui.widgets import draw_toast

        draw_toast(d, toast, max_lines=2, more=GLANCE_MORE)
    return img


__all__ = ["GLANCE_MORE", "Glance", "glance_for", "render_glance"]
