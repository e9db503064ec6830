"""Sovereign Chess and its Royale are one engine family: Royale's modules override the two-player engine's hooks
and copy none of its code (issue 34). A run of ten or more lines that a Royale module shares with a two-player
module — the same lines, or lines of the same shape with other names, numbers and strings — fails here, in the rules
and in the machines.

Lines are compared as token shapes: every name is ``N``, every number or string ``V`` (a docstring is one ``V``
line), keywords and operators stay; blank lines, comments and imports do not count.
"""
from __future__ import annotations

import io
import keyword
import tokenize
from pathlib import Path

import pytest

from conftest import ROOT

RUN = 10  #: shared lines that make a copy

RULES = ROOT / "companion" / "rules" / "sovereign_chess"
FAMILIES = {
    "rules": (sorted(p for p in RULES.glob("*.py") if not p.name.startswith("royale")),
              sorted(RULES.glob("royale*.py"))),
    "fsm": (sorted((ROOT / "fsm" / "sovereign_chess").glob("*.py")),
            sorted((ROOT / "fsm" / "sovereign_chess_royale").glob("*.py"))),
}
_SKIP = {tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING,
         tokenize.ENDMARKER}


def shapes(source: str) -> list[tuple[int, str]]:
    """(line number, the line's token shape) for every line that starts a token and is not an import."""
    rows: dict[int, list[str]] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type in _SKIP:
            continue
        if tok.type == tokenize.NAME and not keyword.iskeyword(tok.string):
            word = "N"
        elif tok.type in (tokenize.NUMBER, tokenize.STRING) or tok.type == getattr(tokenize, "FSTRING_START", -1):
            word = "V"
        elif tok.type in (getattr(tokenize, "FSTRING_MIDDLE", -1), getattr(tokenize, "FSTRING_END", -1)):
            continue
        else:
            word = tok.string
        rows.setdefault(tok.start[0], []).append(word)
    out = []
    in_import = False
    for line, words in sorted(rows.items()):
        starts_import = words[0] in ("import", "from") and not (words[0] == "from" and "(" not in words and
                                                                 "import" not in words)
        if starts_import or in_import:
            in_import = (starts_import and "(" in words and ")" not in words) or (in_import and ")" not in words)
            continue
        out.append((line, " ".join(words)))
    return out


def shared_runs(a: list[tuple[int, str]], b: list[tuple[int, str]], run: int = RUN) -> list[tuple[int, int]]:
    """(line in a, line in b) where a run of ``run`` consecutive shapes starts in both."""
    windows: dict[tuple[str, ...], int] = {}
    for i in range(len(b) - run + 1):
        windows.setdefault(tuple(s for _, s in b[i:i + run]), b[i][0])
    return [(a[i][0], windows[key]) for i in range(len(a) - run + 1)
            if (key := tuple(s for _, s in a[i:i + run])) in windows]


def copies(two: list[Path], royale: list[Path]) -> list[str]:
    found = []
    parsed = {p: shapes(p.read_text(encoding="utf-8")) for p in [*two, *royale]}
    for r in royale:
        for t in two:
            runs = shared_runs(parsed[r], parsed[t])
            if runs:
                (ra, ta) = runs[0]
                found.append(f"{r.relative_to(ROOT)}:{ra} ~ {t.relative_to(ROOT)}:{ta} ({len(runs)} windows)")
    return found


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_no_royale_module_copies_ten_lines_of_the_two_player_game(family: str) -> None:
    two, royale = FAMILIES[family]
    assert len(two) >= 4 and len(royale) >= 2
    found = copies(two, royale)
    assert not found, "Royale repeats the two-player engine; override a hook instead: " + "; ".join(found)


def test_the_shape_finder_sees_a_copy_with_other_names() -> None:
    original = "def f(a, b):\n" + "".join(f"    x{i} = a.y + b[{i}]  # c\n" for i in range(12))
    renamed = "import os\n\n" + original.replace("x", "z").replace("a.y", "q.r").replace("[1", "[7")
    assert len(shared_runs(shapes(renamed), shapes(original))) == 4  # 13 lines: four windows of ten
    assert shared_runs(shapes(original), shapes("def f(a, b):\n" + "    return a\n" * 12)) == []
    assert shapes('"""doc\nstring"""\nfrom a import (b,\n    c)\nx = 1\n') == [(1, "V"), (5, "N = V")]


@pytest.mark.parametrize("game", ["sovereign-chess", "sovereign-chess-royale"])
def test_the_familys_cached_prompt_is_the_prompt_built_afresh(game: str) -> None:
    """The base keeps each machine's prompt until what it is built from changes (the board is the costly part): after
    every answer, undo and lost clock of a random game, the prompt it serves is the one built afresh."""
    import random

    from companion.games import load
    from fsm.autoplay import random_answer
    from fsm.base import Player, Setup
    from fsm.prompts import InvalidAnswer

    rng = random.Random(34)
    cls = load(game)
    players = tuple(Player(n, i + 1) for i, n in enumerate(["Ana", "Ben", "Cleo", "Dev"][:cls.max_players]))
    changes = 0
    for games in range(8):  # short games: each start's screens (who moves first, the armies) and a few moves
        g, played = cls(Setup(players)), changes
        while not g.is_over and changes < played + 20:
            prompt = g.prompt()
            assert prompt == g.build_prompt(), (games, changes, prompt.title)
            snap = g.snapshot()
            keys = [o.key for o in getattr(prompt, "options", ()) if not o.in_menu]  # moves, mostly: long games
            try:
                if g.state == "move" and rng.random() < 0.02:
                    g.time_out(g.active_seat() or 1)
                else:
                    g.answer(rng.choice(keys) if keys and rng.random() < 0.95 else random_answer(prompt, rng))
            except InvalidAnswer:
                continue
            changes += 1
            if rng.random() < 0.2:  # undo: the earlier prompt again
                g.restore(snap)
                assert g.prompt() == g.build_prompt() == prompt
        assert g.prompt() == g.build_prompt()
    assert changes > 100
