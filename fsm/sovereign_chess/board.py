"""The position as a :class:`~fsm.prompts.BoardView` (what the OLED's board widget draws) and the control map."""
from __future__ import annotations

from companion.rules.sovereign_chess import AnyChess, Colour, square_name
from companion.rules.sovereign_chess.squares import COLOUR_SQUARES, NSQ, SQ_COLOUR
from fsm.prompts import BoardView

from fsm.sovereign_chess.entry import Entry


def cell_style(game: AnyChess, colour: Colour, viewer: int) -> str:
    """``o`` owned by ``viewer`` (an engine player), ``c`` controlled by them, ``n`` neutral, ``e`` the other side's."""
    who = game.controller(colour)
    if who == 0:
        return "n"
    if who != viewer:
        return "e"
    return "o" if game.owned(viewer) is colour else "c"


def cells(game: AnyChess, viewer: int) -> tuple[str, ...]:
    blocked = set(game.blocked())
    out = []
    for sq in range(NSQ):
        piece = game.piece_at(sq)
        if piece is not None:
            mark = "*" if SQ_COLOUR[sq] >= 0 else ""  # a piece on a square of colour (it gives control)
            out.append(piece.role.letter.upper() + cell_style(game, piece.colour, viewer) + mark)
        elif sq in blocked:
            out.append("#")
        elif SQ_COLOUR[sq] >= 0:
            out.append(".")
        else:
            out.append("")
    return tuple(out)


def board_view(game: AnyChess, viewer: int, entries: list[Entry] = (),  # type: ignore[assignment]
               last: tuple[int, ...] = ()) -> BoardView:
    return BoardView(16, 16, cells(game, viewer), tuple((e.move.text, e.spots) for e in entries), last)


def giver(game: AnyChess, colour: Colour) -> int | None:
    """The occupied square of ``colour``'s pair (the one that gives control of it), or None."""
    for sq in COLOUR_SQUARES[colour]:
        if game.piece_at(sq) is not None:
            return sq
    return None


def control(game: AnyChess, player: int) -> dict[str, str]:
    """{colour: square giving it} for the colours ``player`` controls (their owned colour not included)."""
    out = {}
    for colour in game.controlled(player):
        sq = giver(game, colour)
        out[colour.label] = square_name(sq) if sq is not None else "?"
    return out


def neutral(game: AnyChess) -> list[str]:
    return [c.label for c in Colour if game.controller(c) == 0]


def holdings(game: AnyChess, player: int) -> tuple[str, dict[str, str]]:
    """(the owned colour, {controlled colour: the square giving it}) of ``player``: what :func:`changes` compares."""
    return game.owned(player).label, control(game, player)


def changes(before: dict[int, tuple[str, dict[str, str]]], after: dict[int, tuple[str, dict[str, str]]],
            names: dict[int, str]) -> list[str]:
    """What changed hands: "Ann now owns red, no longer white" (a defection or an overthrow), "Ann now controls navy
    through e5", "Bo lost pink"."""
    out = []
    for p in sorted(after):
        own0, ctl0 = before[p]
        own1, ctl1 = after[p]
        if own1 != own0:
            out.append(f"{names[p]} now owns {own1}" + ("" if own0 in ctl1 else f", no longer {own0}"))
        for colour, sq in ctl1.items():
            if colour not in ctl0:
                out.append(f"{names[p]} now controls {colour} through {sq}")
    for p in sorted(before):
        own1, ctl1 = after[p]
        for colour in before[p][1]:
            if colour not in ctl1 and colour != own1:
                out.append(f"{names[p]} lost {colour}")
    return out
