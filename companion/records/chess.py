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
one per line, is a record too; ``#`` starts a comment (a check mark ``#`` ends a move only right after it, with no
space). :func:`replay` plays a record from a start position, in the companion's notation or OpenSovereignChess's
(:mod:`companion.records.osc`); :func:`osc_record` writes a record in OpenSovereignChess's.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Mapping, TypeVar

from companion.records.osc import companion_text, to_osc
from companion.rules.sovereign_chess import START, ChessError, SovereignChess, SovereignChessRoyale

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
G = TypeVar("G", SovereignChess, SovereignChessRoyale)
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


@dataclass
class _Lines:
    """A record split into its headers and its move lines (numbered), results and comments left out."""
    headers: dict[str, str]
    start: tuple[int, str] | None  #: the line number and text of a ``Start`` header standing before the first move
    moves: list[tuple[int, str]]


def _lines(text: str, is_result: Callable[[str], bool], name: str) -> _Lines:
    out = _Lines({}, None, [])
    ended = 0  #: the line of the result, which ends the game: a move after it is another game's
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line or is_result(line):
            ended = ended or (i if line else 0)
            continue
        if ended and not _HEADER.match(line):
            raise RecordError(f"{name} line {i}: a move after the result on line {ended}: one game per file")
        m = _HEADER.match(line)
        if m:
            out.headers[m.group(1)] = m.group(2)
            if m.group(1) == "Start" and not out.moves:
                out.start = (i, m.group(2))
        else:
            out.moves.append((i, line))
    return out


def _start(make: Callable[[str], G], rec: _Lines, name: str) -> G | None:
    """The game from the record's own ``Start`` header, if it has one."""
    if rec.start is None:
        return None
    i, text = rec.start
    try:
        return make(text)
    except ChessError as e:
        raise RecordError(f"{name} line {i}: {e}") from None


def replay(text: str, start: str = START, name: str = "record") -> Replayed:
    """Play a record (or a plain list of moves) from ``start``. Raises :class:`RecordError` naming the line."""
    rec = _lines(text, lambda line: line in RESULTS, name)
    game = _start(SovereignChess, rec, name)
    if game is None:
        game = SovereignChess(start)
    moves: list[str] = []
    decided = False
    for i, line in rec.moves:
        try:
            if line in ("accept", "reject"):
                if not game.opening_choice_pending or decided:
                    raise RecordError(f"{name} line {i}: '{line}' only right after White's first move")
                decided = True
                if line == "accept":
                    game.accept_opening()
            else:
                line = companion_text(game, line)  # OpenSovereignChess's O-O-O@h1 and check marks too
                game.make(line)
                if game.ply > 1:
                    decided = True
        except ChessError as e:
            raise RecordError(f"{name} line {i}: {e}") from None
        moves.append(line)
    return Replayed(game, moves, rec.headers)


def osc_record(text: str) -> str:
    """A 2-player record (the companion's notation or OpenSovereignChess's) rewritten in OpenSovereignChess's:
    the same headers (``Notation`` says which), the same moves and result."""
    done = replay(text)
    rec = _lines(text, lambda line: line in RESULTS, "record")
    start = _start(SovereignChess, rec, "record") or SovereignChess(START)
    results = [line.strip() for line in text.splitlines() if line.strip() in RESULTS]
    headers = {**done.headers, "Notation": "OpenSovereignChess"}
    return record_text(headers, to_osc(done.moves, start), results[-1] if results else None)


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
    rec = _lines(text, lambda line: line == "*" or bool(_ROYALE_RESULT.match(line)), name)
    game = _start(SovereignChessRoyale, rec, name)
    if game is None:
        try:
            game = SovereignChessRoyale(start)
        except ChessError as e:
            raise RecordError(str(e)) from None
    for i, line in rec.moves:
        try:
            game.make(line)
        except ChessError as e:
            raise RecordError(f"{name} line {i}: {e}") from None
    return RoyaleReplayed(game, [line for _i, line in rec.moves], rec.headers)


__all__ = ["RecordError", "Replayed", "RoyaleReplayed", "is_royale_record", "osc_record", "record_text", "replay",
           "replay_royale", "RESULTS"]
