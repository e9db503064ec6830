"""A whole Sovereign Chess game at the table, entered button by button with a Fischer clock running: the opening
choice, a capture that gives control, a defection, a promotion to king, castling, check and mate — killed in the
middle (nothing closed) and resumed with the position and both clocks as they were."""
from __future__ import annotations

import queue
from pathlib import Path
from typing import Any

from PIL import Image

from companion.loop.app import App
from companion.records.chess import replay
from companion.config.load import parse_config
from companion.events import Event, Key, KeyEvent
from companion.journal.store import Journal
from companion.ui.board_screens import BoardChoiceScreen, PathChoice, path

GAME = Path(__file__).parent / "data" / "sovereign_chess_game.txt"


class Out:
    def present(self, frame: Image.Image, active: int | None, waiting: bool, alerts: tuple[int, ...] = ()) -> None:
        self.frame = frame

    def set_roller(self, *args: Any) -> None:
        pass

    def close(self, farewell: Image.Image | None = None) -> None:
        pass


def open_app(journal: Path, t: list[float]) -> App:
    cfg = parse_config({"journal": {"path": str(journal)}, "games": {"sovereign-chess": {"clock": "fischer 600+5"}}})
    events: "queue.SimpleQueue[Event]" = queue.SimpleQueue()
    app = App(cfg, Journal(journal), events, Out(), clock=lambda: t[0], game="sovereign-chess")
    app.boot()
    return app


def presses_for(app: App, move: str) -> list[Key]:
    """The keys a player presses to enter ``move`` on the board screen: UP or DOWN to it on each step, then OK."""
    assert app.session is not None
    screen = app.session.screen
    assert isinstance(screen, BoardChoiceScreen)
    option = next(o for o in screen.prompt.options if o.key == move)
    walk = PathChoice(screen.prompt.options)
    keys: list[Key] = []
    for step in path(option):
        labels = walk.labels()
        i = labels.index(step)
        keys += [Key.DOWN] * i if i <= len(labels) - i else [Key.UP] * (len(labels) - i)
        keys.append(Key.OK)
        walk.chosen.append(step)
    return keys


def enter(app: App, t: list[float], move: str, think: float) -> int:
    t[0] += think
    keys = presses_for(app, move)
    for k in keys:
        app.dispatch(KeyEvent(k))
    assert app.session is not None and app.session.state_json()["moves"][-1] == move, move
    return len(keys)


def test_a_whole_game_by_buttons_with_a_clock_killed_and_resumed(tmp_path: Path) -> None:
    moves = [m for m in GAME.read_text().split() if m]
    journal = tmp_path / "journal.sqlite"
    t = [5000.0]
    app = open_app(journal, t)
    for k in (Key.OK, Key.DOWN, Key.OK):  # start; Ana makes White's first move
        app.dispatch(KeyEvent(k))
    half = len(moves) // 2
    presses = 0
    for i, move in enumerate(moves[:half]):
        presses += enter(app, t, move, 2.0 + i % 5)
    assert app.session is not None
    before = app.session.state_json()
    # kill -9: the app is dropped without closing anything; the power stays off for an hour
    t[0] += 3600
    app = open_app(journal, t)
    assert app.session is not None
    after = app.session.state_json()
    assert after["position"] == before["position"] and after["moves"] == before["moves"]
    assert after["clocks"] == before["clocks"]  # the last move journaled the clocks; the hour off is not charged
    for i, move in enumerate(moves[half:]):
        presses += enter(app, t, move, 2.0 + i % 5)
    state = app.session.state_json()
    assert (state["termination"], state["result"]) == ("checkmate", "0-1") and state["winner"] == 2
    assert state["check"] is True and app.record is not None and app.record.status == "finished"
    assert presses / len(moves) < 8
    log = "\n".join(app.session.game.data["log"]) if app.session.game else ""
    assert state["moves"][1] == "reject" and "rejects the first move" in log  # the opening choice
    assert "defects to red" in log  # a defection
    assert "regime change" in log  # a promotion to king
    assert any(m.startswith("O-O@") for m in state["moves"])  # castling
    assert "now controls" in log and any("x" in m and "now controls" in line for line in log.splitlines()
                                         for m in [line.split(": ", 1)[-1].split()[0]])  # a capture gives control
    # both clocks ran: each lost thinking time and gained increments; neither flagged
    assert all(0 < v < 600 + 5 * len(moves) for v in state["clocks"].values())
    # the record replays to the same final position
    assert replay("\n".join(state["moves"])).game.text == state["position"]
