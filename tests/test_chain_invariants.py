"""Random tables (every answer the prompts allow, undo now and then) never break the bookkeeping: the supply stays
within the box, facedown cards never outnumber the cards in play, no chain passes seven outside sudden death, and
the screen text fits the OLED. (The package's mypy --strict is tests/test_typing.py's: it checks fsm/ and
companion/rules/ whole, the chain's packages among them.)"""
from __future__ import annotations

from companion.ui.draw import LIST_W, text_width, title_room, wrap

import json
import random

import pytest

from companion.rules.sovereigns_chain import SUPPLY
from fsm.autoplay import random_answer
from fsm.prompts import InvalidAnswer

from test_chain_helpers import Table


@pytest.mark.parametrize("seed", range(12))
def test_random_tables_keep_the_books(seed: int) -> None:
    rng = random.Random(seed)
    t = Table(seed % 4 + 1, match_games=2)
    g = t.g
    sudden_seen = False
    for _ in range(1500):
        if g.is_over:
            break
        raw = g.step_prompt()
        # measured as drawn: the title beside the acting player's name (names are never cut by letters); every
        # line whole, wrapped by the screen without cutting a word (a choice scrolls its lines with its options)
        tag = g.player_name(raw.player) if raw.player else ""
        assert text_width(raw.title) <= title_room(tag), raw
        assert all(text_width(x) <= LIST_W and not x.endswith("…") for ln in raw.lines for x in wrap(ln, LIST_W)), raw
        snap = g.snapshot()
        try:
            g.answer(random_answer(g.prompt(), rng))
        except InvalidAnswer:
            assert g.snapshot() == snap
            continue
        js = g.state_json()
        json.dumps(js)
        sudden_seen = sudden_seen or g.data["sd"] is not None
        assert all(0 <= js["supply"][k.value] <= SUPPLY[k] for k in SUPPLY)
        for p in js["players"]:
            assert 0 <= p["facedown"] <= p["chain_length"]
            if not sudden_seen and js["mode"] == "chain":
                assert p["chain_length"] <= 7
        if g.data["ui"]["step"] == "reveal":
            assert sum(p["facedown"] for p in js["players"]) > 0
        if g.state == "game_end":
            sudden_seen = False
        if rng.random() < 0.03:
            g.restore(snap)
    assert g.data["game_no"] >= 1

