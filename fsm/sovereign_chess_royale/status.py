"""What the Royale table is told: each seat's standing, the announcements after a move, the status page.

Pure functions of the engine game and the players' names; the machine keeps no state here. "Seat" is always the
engine's seat (1 White, 2 Ash, 3 Slate, 4 Black — the order of play); the machine maps table seats onto them.
"""
from __future__ import annotations

from typing import Callable, Mapping

from companion.rules.sovereign_chess import MoveReport, SovereignChessRoyale, square_name

from fsm.screen_text import LINE_PX, squeeze, wrap_words
from fsm.screen_text import wrap as wrap_px

ARMIES = ("white", "ash", "slate", "black")  #: the armies in the order of play (engine seats 1-4)
PLAYING, INTERREGNUM, OUT = "playing", "interregnum", "out"
LABELS = {PLAYING: "playing", INTERREGNUM: "Interregnum", OUT: "out"}

Name = Callable[[int], str]  #: engine seat → the player's name


def standing(game: SovereignChessRoyale, seat: int) -> str:
    """``playing`` (has a king), ``interregnum`` (no king, still has pieces of its own colour) or ``out`` (no king
    and no piece of its colour left: it can never move again)."""
    if game.king_square(seat) is not None:
        return PLAYING
    if game.position.by_colour[game.owned(seat)]:
        return INTERREGNUM
    return OUT


def check_lines(checks: dict[int, tuple[int, ...]], name: Name) -> list[str]:
    """``Check: Ann by Bo, Cy`` for every king in check."""
    return [f"Check: {name(s)} by {', '.join(name(b) for b in by)}" for s, by in sorted(checks.items())]


def check_toast(checks: dict[int, tuple[int, ...]], name: Name) -> str | None:
    """The checks in one short line for a toast: ``Check: Ben by Ann; Dee by Ann, Ben``."""
    if not checks:
        return None
    return "Check: " + "; ".join(f"{name(s)} by {', '.join(name(b) for b in by)}" for s, by in sorted(checks.items()))


def announcements(report: MoveReport, name: Name) -> list[str]:
    """Everything the table must hear after a move, in order: kings taken, crowned (or replaced: the old king must
    leave the physical board), escaped, seats passed over, then every king in check and by whom."""
    out = []
    for s in report.captured:
        out.append(f"{name(report.seat)} took {name(s)}'s king")
    for s in report.crowned:
        out.append(f"Long live the king! {name(s)} crowned on {square_name(report.move.to_sq)}")
    old = report.removed.get(report.seat) if report.seat not in report.escaped else None
    if old is not None:
        out.append(f"{name(report.seat)}'s new king: take the old one off {square_name(old)}")
    out += turn_events(report.escaped, report.passed, name, report.removed)
    return out + check_lines(report.checks, name)


def turn_events(escaped: tuple[int, ...], passed: tuple[int, ...], name: Name,
                squares: Mapping[int, int | None] | None = None) -> list[str]:
    """What the start of a turn did: kings escaped (``squares``: where they stood, for the table to take them off the
    board), seats passed over for having no move."""
    out = []
    for s in escaped:
        sq = (squares or {}).get(s)
        out.append(f"{name(s)}'s king escaped: take it off {square_name(sq)} (Interregnum)" if sq is not None
                   else f"{name(s)}'s king escaped: Interregnum")
    return out + [f"{name(s)} passes: no move" for s in passed]


def wrap(lines: list[str], px: int = LINE_PX) -> list[str]:
    """Lines broken at spaces to fit ``px`` pixels as drawn, continuations indented by one space."""
    return [x for line in lines for x in wrap_px(line, px, indent=" ")]


def status_lines(game: SovereignChessRoyale, name: Name) -> list[str]:
    """The status page: per seat whether it plays, is in Interregnum or is out, its army, the colour it owns now,
    its king and the colours it controls; every line measured as drawn (a name gives way only as far as it must)."""
    lines = []
    for seat in (1, 2, 3, 4):
        lines.append(squeeze("{}: " + LABELS[standing(game, seat)], name(seat)))
        lines.append(f" {ARMIES[seat - 1]} army, owns {game.owned(seat).label}")
        ks = game.king_square(seat)
        lines.append(f" king {square_name(ks)}" if ks is not None else " no king")
        words = [c.label for c in game.controlled(seat)]
        if words:
            lines += wrap_words(words, " controls", indent="      ")
    return lines
