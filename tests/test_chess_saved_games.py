"""Chess games journaled before the engine became one family (Royale as hooks on the two-player engine) replay to
the very same states: the journal keeps inputs (presses, typed moves, clock lines), so the machines' prompts,
option order and answers must not change.

``tests/data/chess_saved_games.json`` holds one two-player game and one Royale game, each with a running clock,
played by seeded random presses and typed moves through the App and recorded at commit 8cf8695 (before the change)
by :func:`record` — run ``COMPANION_RECORD_SAVED_GAMES=1 python tests/test_chess_saved_games.py`` on that commit to
make it again; the test never writes it. For each input the file keeps a digest of what the table then had: the
machine's state, its data and state JSON, and the prompt's options.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).parent / "data" / "chess_saved_games.json"


def _digest(session: Any) -> str:
    game = session.game
    if game is None:
        return "setup"
    prompt = session.prompt()
    options = [[o.key, o.label, list(o.path)] for o in getattr(prompt, "options", ())]
    doc = [game.state, game.data, game.state_json(), type(prompt).__name__, getattr(prompt, "title", None), options]
    return hashlib.sha1(json.dumps(doc, sort_keys=True, default=repr).encode()).hexdigest()[:16]


def _replay(entry: dict[str, Any]) -> tuple[Any, list[str]]:
    """The saved game rebuilt as the box rebuilds one: a session fed the journaled inputs (no snapshot)."""
    from companion.games import load
    from companion.session import Session, decode_event

    setup = entry["setup"]
    session = Session(load(entry["game"], None), seed=entry["seed"], presets=setup.get("names", ()),
                      options=setup.get("options", {}), sources=setup.get("sources", ("roller", "typed", "rng")),
                      roller_connected=lambda: False, contract=bool(setup.get("contract")),
                      pass4=bool(setup.get("pass4")))
    digests = []
    for _n, t, text in entry["inputs"]:
        session.handle(decode_event(text), t)
        digests.append(_digest(session))
    return session, digests


@pytest.mark.parametrize("game", ["sovereign-chess", "sovereign-chess-royale"])
def test_a_game_journaled_before_the_engine_family_replays_exactly(game: str) -> None:
    entry = json.loads(DATA.read_text(encoding="utf-8"))[game]
    session, digests = _replay(entry)
    first_off = next((i for i, (a, b) in enumerate(zip(digests, entry["digests"])) if a != b), None)
    assert first_off is None, f"input {first_off + 1} ({entry['inputs'][first_off][2]!r}) replays differently"
    assert len(digests) == len(entry["digests"]) > 150
    state = session.game.state_json()
    assert json.loads(json.dumps(state)) == entry["state"]
    assert session.game.data["log"] == entry["log"]
    assert len(entry["state"]["moves"]) >= 30  # a real game was played, not a few presses


# ---------------------------------------------------------------------------------------------- recording


def _play(game: str, seed: int, options: dict[str, Any], names: list[str], tmp: Path, steps: int) -> dict[str, Any]:
    """Play through the App with a fake clock: typed random legal moves, random presses (move entry by buttons,
    BACK, the game menu opened and closed), clock ticks; return what the journal holds."""
    import queue

    from companion.config.load import parse_config
    from companion.events import EntryEvent, Key, KeyEvent
    from companion.journal.store import Journal
    from companion.loop.app import App

    class Out:
        def present(self, *args: Any, **kw: Any) -> None:
            pass

        def set_roller(self, *args: Any) -> None:
            pass

        def close(self, farewell: Any = None) -> None:
            pass

    rng = random.Random(seed)
    t = [1000.0]
    path = tmp / f"{game}.sqlite"
    cfg = parse_config({"journal": {"path": str(path)}, "players": {"names": names}, "games": {game: options}})
    app = App(cfg, Journal(path), queue.SimpleQueue(), Out(), clock=lambda: t[0], game=game)
    app.boot()
    for _ in range(steps):
        s = app.session
        if s is None or s.game is None or s.game.is_over:
            if s is None or s.game is not None:
                break
            app.dispatch(KeyEvent(Key.OK))
            continue
        t[0] += rng.choice((0.4, 1.5, 3.0, 7.0))
        app._clock_tick()
        g = s.game
        r = rng.random()
        if g.state in ("move", "opening") and r < 0.6:
            if g.state == "opening":
                app.dispatch(EntryEvent("move", rng.choice(("accept", "reject"))))
            else:
                eng = g.engine()
                moves = eng.legal_moves()
                kings = [m for m in moves if m.capture and (p := eng.piece_at(m.to_sq)) and p.role.letter == "k"]
                captures = [m for m in moves if m.capture]
                pick = kings or (captures if captures and rng.random() < 0.5 else moves)
                if pick:
                    app.dispatch(EntryEvent("move", rng.choice(pick).text))
        elif r < 0.95:
            for _k in range(rng.randint(1, 4)):
                app.dispatch(KeyEvent(rng.choice((Key.DOWN, Key.DOWN, Key.UP, Key.OK))))
            app.dispatch(KeyEvent(Key.OK))
        else:
            app.dispatch(KeyEvent(rng.choice((Key.BACK, Key.HOLD))))
            app.dispatch(KeyEvent(Key.BACK))
    if app.record is None:
        raise RuntimeError("no game was recorded")
    record = app.journal.game(app.record.id)
    inputs = [list(row) for row in app.journal.inputs(record.id)]
    return {"game": record.game, "seed": record.seed, "setup": record.setup, "inputs": inputs}


def record(out: Path = DATA) -> None:
    import tempfile

    games = {
        "sovereign-chess": (3, {"clock": "fischer 300+5", "first": "random"}, ["Ann", "Bo"], 150),
        "sovereign-chess-royale": (19, {"clock": "fischer 300+5", "armies": "random"}, ["Ann", "Bo", "Cy", "Di"],
                                   250),
    }
    doc: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game, (seed, options, names, steps) in games.items():
            entry = _play(game, seed, options, names, Path(tmp), steps)
            session, digests = _replay(entry)
            entry.update(digests=digests, state=json.loads(json.dumps(session.game.state_json())),
                         log=session.game.data["log"])
            doc[game] = entry
    out.write_text(json.dumps(doc, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover - the recorder, run by hand on the old code
    if os.environ.get("COMPANION_RECORD_SAVED_GAMES") != "1":
        sys.exit("set COMPANION_RECORD_SAVED_GAMES=1 to overwrite " + str(DATA))
    record()
