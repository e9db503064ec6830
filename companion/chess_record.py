"""The Sovereign Chess game record: a header, then the moves one per line in the engine's move text.

::

    [Game "Sovereign Chess"]
    [Date "2026.11.23"]
    [White "Ann"]
    [Black "Bo"]
    [Result "1-0"]
    [Termination "checkmate"]
    [Clock "fischer 300+3"]

    wPi2-i4
    reject
    bPe15-e13
    ...
    1-0

The opening choice is the word ``accept`` or ``reject`` on the line after White's first move. A plain file of moves,
one per line, is a record too; ``#`` starts a comment. :func:`replay` plays a record from a start position.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from .rules.sovereign_chess import START, ChessError, SovereignChess, SovereignChessRoyale

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
_HEADER = re.compile(r'^\[(\w+) "(.*)"\]$')


class RecordError(ValueError):
    """A record line that is not a move legal at that point; the message names the line."""


def record_text(headers: Mapping[str, Any], moves: list[str], result: str | None) -> str:
    lines = [f'[{k} "{str(v).replace(chr(34), chr(39))}"]' for k, v in headers.items() if v is not None]
    return "\n".join([*lines, "", *moves, result or "*"]) + "\n"


@dataclass
class Replayed:
    game: SovereignChess
    moves: list[str]
    headers: dict[str, str]


def replay(text: str, start: str = START, name: str = "record") -> Replayed:
    """Play a record (or a plain list of moves) from ``start``. Raises :class:`RecordError` naming the line."""
    game = SovereignChess(start)
    headers: dict[str, str] = {}
    moves: list[str] = []
    decided = False
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _HEADER.match(line)
        if m:
            headers[m.group(1)] = m.group(2)
            if m.group(1) == "Start" and not moves:
                try:
                    game = SovereignChess(m.group(2))
                except ChessError as e:
                    raise RecordError(f"{name} line {i}: {e}") from None
            continue
        if line in RESULTS:
            continue
        try:
            if line in ("accept", "reject"):
                if not game.opening_choice_pending or decided:
                    raise RecordError(f"{name} line {i}: '{line}' only right after White's first move")
                decided = True
                if line == "accept":
                    game.accept_opening()
            else:
                game.make(line)
                if game.ply > 1:
                    decided = True
        except ChessError as e:
            raise RecordError(f"{name} line {i}: {e}") from None
        moves.append(line)
    return Replayed(game, moves, headers)


#: a Royale result: one of 1, 0 or 1/4 per seat (``1-0-0-0``, ``1/4-1/4-1/4-1/4``)
_ROYALE_RESULT = re.compile(r"^(1|0|1/4)(-(1|0|1/4)){3}$")


def is_royale_record(text: str) -> bool:
    """Whether a record says it is a Royale game (its ``Game`` header, as `companion export --record` writes)."""
    return any(line.strip() == '[Game "Sovereign Chess Royale"]' for line in text.splitlines())


@dataclass
class RoyaleReplayed:
    game: SovereignChessRoyale
    moves: list[str]
    headers: dict[str, str]


def replay_royale(text: str, start: str | None = None, name: str = "record") -> RoyaleReplayed:
    """Play a Royale record (or a plain list of moves) from ``start`` (None: the Royale start) or the record's
    ``Start`` header. Raises :class:`RecordError` naming the line."""
    try:
        game = SovereignChessRoyale(start)
    except ChessError as e:
        raise RecordError(str(e)) from None
    headers: dict[str, str] = {}
    moves: list[str] = []
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = _HEADER.match(line)
        if m:
            headers[m.group(1)] = m.group(2)
            if m.group(1) == "Start" and not moves:
                try:
                    game = SovereignChessRoyale(m.group(2))
                except ChessError as e:
                    raise RecordError(f"{name} line {i}: {e}") from None
            continue
        if line == "*" or _ROYALE_RESULT.match(line):
            continue
        try:
            game.make(line)
        except ChessError as e:
            raise RecordError(f"{name} line {i}: {e}") from None
        moves.append(line)
    return RoyaleReplayed(game, moves, headers)


__all__ = ["RecordError", "Replayed", "RoyaleReplayed", "is_royale_record", "record_text", "replay", "replay_royale",
           "RESULTS"]
