"""How to play a game described in TOML, as the phone's manual shows it: built from the game's spec (its description,
who goes first, the phases of a round, the counters, when it ends and who wins), never the TOML authoring page.

:func:`manual_for` is what the loop hands the web view (``Hub.game_manual``): the web package imports no game, so it
asks the loop for a TOML game's manual by id and renders the Markdown it gets like any other manual.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from fsm.clock_spec import ClockSpec

from companion.games.toml_spec import CounterSpec, GameSpec, PhaseSpec

FIRST = {
    "rolloff": "Everyone rolls a {die} (on the roller, typed in, or rolled by the companion); the highest roll goes "
               "first, and a tie rolls again among the tied players only.",
    "choose": "The table picks who goes first on the companion.",
    "random": "The companion draws who goes first.",
    "seat1": "Seat 1 goes first.",
}


def _players(s: GameSpec) -> str:
    if s.min_players == s.max_players:
        return f"{s.min_players} player{'s' if s.min_players != 1 else ''}."
    return f"{s.min_players} to {s.max_players} players ({s.default_players} unless the table picks another number)."


def _names(s: GameSpec, ids: tuple[str, ...]) -> str:
    by_id = {c.id: c.name for c in s.counters}
    return ", ".join(by_id[i] for i in ids)


def _phase(s: GameSpec, p: PhaseSpec) -> str:
    who = "each player in turn" if p.each_player else "everyone at once"
    out = f"**{p.name}**, {who}"
    if p.hint:
        out += f": {p.hint.rstrip('.')}."
    else:
        out += "."
    if p.counters:
        out += f" Counters changed here: {_names(s, p.counters)}."
    return out


def _range(c: CounterSpec) -> str:
    return f"{c.min} to {c.max}"


def _reaches(c: CounterSpec, target: int) -> str:
    """The end condition's words, the way the game checks it (down from its start: at or below)."""
    return f"falls to {target} or below" if target < c.start else f"reaches {target} or more"


def _ends(s: GameSpec) -> list[str]:
    out = []
    for e in s.ends:
        if e.counter is not None and e.reaches is not None:
            c = next(c for c in s.counters if c.id == e.counter)
            out.append(f"At once when any player's {c.name} {_reaches(c, e.reaches)}.")
        elif e.rounds and s.rounds is not None:
            out.append(f"After round {s.rounds}.")
    return out


def _winner(s: GameSpec) -> str:
    if s.winner_counter is None:
        return "The game names no winner: it keeps the counts, the table decides."
    name = next(c.name for c in s.counters if c.id == s.winner_counter)
    most = "most" if s.winner_order == "highest" else "fewest"
    return f"The player with the {most} {name} wins; players tied for the {most} share the win."


def how_to_play(s: GameSpec) -> str:
    """The game's manual in Markdown, headed by its name (the page makes that "How this table plays <name>")."""
    lines: list[Any] = [f"# {s.name}", "", s.description.rstrip(".") + ".", "", _players(s), "",
                        "## Who goes first", "", FIRST[s.first_player].format(die=s.die)]
    if s.rotate_first:
        lines.append("Each new round, the first player passes one seat to the left.")
    lines += ["", "## A round", ""]
    if s.rounds is not None:
        lines.append(f"The game lasts at most {s.rounds} round{'s' if s.rounds != 1 else ''}. "
                     "Each round plays these phases, in order:")
    else:
        lines.append("Each round plays these phases, in order:")
    lines.append("")
    lines += [f"{i}. {_phase(s, p)}" for i, p in enumerate(s.phases, 1)]
    if s.counters:
        lines += ["", "## Counters", "", "Every player has these, each kept by the companion:", "",
                  "| Counter | Starts at | Goes from |", "|---|---|---|"]
        lines += [f"| {c.name} | {c.start} | {_range(c)} |" for c in s.counters]
    lines += ["", "## The end", ""]
    lines += [f"- {x}" for x in _ends(s)]
    lines += ["", "## Who wins", "", _winner(s)]
    clock = ClockSpec.parse(s.clock)
    if clock.running:
        lines += ["", "## The clock", "", f"Each player's turn is timed: {clock.label} (see [The clock](clock.md))."]
    lines += ["", "## On the companion", "",
              "Each phase's screen shows the round and the phase's hint. Its first row, *Done*, ends the player's step "
              "(in an all-at-once phase: the phase); the rows below are the counters: OK on one opens its new total "
              "(UP/DOWN, then OK). The phone shows every counter in the players table, and a paired phone answers "
              "its own seat's steps. Hold OK for the game menu (undo, the scores page).",
              "", f"This game comes from `{s.path.name}`; how such a file is written: "
              "[Your own game in TOML](toml.md)."]
    return "\n".join(str(x) for x in lines) + "\n"


def manual_for(game_id: str, games_dir: Path | None, running: Any = None) -> str | None:
    """The Markdown manual of the TOML game ``game_id``: the running game's own (``running``: its class, whatever
    file it came from), else the game that id plays on this box (the games folder, then the shipped examples).
    None when no TOML game has that id, or its file cannot be read (the web view answers 404)."""
    from companion.errors import GameFileError
    from companion.games import toml_for_id
    from companion.games.toml_spec import read_spec

    spec = getattr(running, "spec", None)
    if isinstance(spec, GameSpec) and spec.id == game_id:
        return how_to_play(spec)
    path = toml_for_id(game_id, games_dir)
    if path is None:
        return None
    try:
        return how_to_play(read_spec(path))
    except GameFileError:
        return None


__all__ = ["how_to_play", "manual_for"]
