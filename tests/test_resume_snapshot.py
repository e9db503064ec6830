"""Resume from a verified snapshot equals the full replay, for every registered game, with and without a game
clock, and for TOML games (issues #25, #34).

Seeded random play (phone answers from fsm/autoplay's random player, presses, BACKs, rolls; with a clock, the
clock's lines as the loop journals them: checkpoints, flags, pauses from the game menu) is journaled with a snapshot
every few inputs; the snapshot + tail resume must then be the same session as the full replay — state, screen,
clocks, undo history (undone all the way back through the stored chunks) — and a stale, edited or damaged snapshot
falls back to the full replay, saying so.
"""
from __future__ import annotations

import logging
import random
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from companion.config.load import parse_config
from companion.events import AnswerEvent, Key, KeyEvent, RollEvent
from companion.games import BUILTIN
from companion.journal.store import Journal
from companion.session import snapshot
from companion.session import Session, encode_event
from companion.session.headless import new_record, open_session, replay
from fsm.autoplay import random_answer
from fsm.clock_spec import ClockSpec
from fsm.prompts import Dice, Random

STEPS = 500
#: a TOML game long enough for the walk: a roll-off for the first player, two counters, forty rounds
TOML_GAME = """
[game]
id = "snap-toml"
name = "Snapshot TOML"
min_players = 2
max_players = 4
default_players = 3
first_player = "rolloff"
rotate_first = true
rounds = 40
[[counters]]
id = "vp"
max = 999
[[counters]]
id = "gold"
start = 5
max = 99
[[phases]]
name = "Turn"
hint = "Play, then score"
[[phases]]
name = "Income"
each_player = false
[winner]
counter = "vp"
"""
#: each game as the walk plays it: (game, its clock setting or None, inputs); "toml" is TOML_GAME. A chess game's
#: prompts cost the most to build (every legal move's check mark): its clocked walks are shorter.
CASES = [(g, None, STEPS) for g in sorted(BUILTIN)] + [
    ("sovereign", "byoyomi 0 1x20", STEPS),  # a turn timer: running out is only said
    ("sovereign-chess", "fischer 300+3", 200),
    ("sovereign-chess-royale", "byoyomi 30 3x10", 200),  # periods used up, the game lost on time and taken back
    ("toml", None, STEPS),
    ("toml", "sudden 900", STEPS),
    ("toml", "bronstein 60+3", STEPS),
    ("toml", "delay 30+5", STEPS),
    ("toml", "byoyomi 0 1x12", STEPS),
]


@pytest.fixture(autouse=True)
def small_snapshots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(snapshot, "EVERY", 40)  # many snapshots and chunks in a short game
    monkeypatch.setattr(snapshot, "CHUNK", 7)
    snapshot._SNAPSHOTTERS.clear()


def _event(s: Session, rng: random.Random, menu: bool = False) -> Any:
    p = s.prompt()
    r = rng.random()
    if isinstance(p, Dice) and not s.overlays and r < 0.7:
        sides = 6 if p.die == "d6" else 12
        return RollEvent(p.die, tuple(rng.randint(1, sides) for _ in range(p.count)), roller="roller")
    if r < 0.55 and not s.overlays and not isinstance(p, (Dice, Random)):
        return AnswerEvent(random_answer(p, rng), s.prompt_seq, "web:table")
    if menu and r > 0.97:
        return KeyEvent(Key.HOLD)  # the game menu: the walk may pause or resume the clock there
    return KeyEvent(Key(rng.choice(["ok", "ok", "ok", "down", "down", "up", "back", "back"])))


class Walk:
    """A session played as the loop plays it: each input (and, with a clock, its lines: a flag when the time has
    run out, a checkpoint after a switch or every 10 s) handled at a monotonic time and, with a journal, committed
    input by input with its resume snapshots, then drawn (``draw``; off where the test draws the session itself
    after every step, to compare the frames)."""

    def __init__(self, s: Session, journal: Journal | None = None, gid: int = 0, now: float | None = None,
                 draw: bool = True) -> None:
        self.s, self.journal, self.gid, self.now, self.draw = s, journal, gid, now, draw

    def take(self, ev: Any) -> None:
        s = self.s
        t = float(s.n_inputs + 1)
        records = s.handle(ev, t, self.now)
        if self.journal is not None:
            self.journal.commit(self.gid, s.n_inputs, encode_event(ev), records, s.summary(), t=t)
            snapshot.after_commit(self.journal, self.gid, s)

    def clock_lines(self) -> list[str]:
        """What the loop journals for the clock at this moment (as App._clock_tick and App._commit)."""
        s, now, said = self.s, self.now, []
        if s.timekeeper is None or now is None:
            return said
        flag = s.clock_flag(now)
        line = flag if flag is not None else s.clock_checkpoint(now)
        while line is not None:
            said.append(encode_event(line))
            self.take(line)
            line = s.clock_checkpoint(now)
        return said

    def step(self, ev: Any, dt: float = 0.0) -> list[str]:
        if self.now is not None:
            self.now += dt
        said = self.clock_lines()
        self.take(ev)
        said += self.clock_lines()
        if self.draw:
            self.s.render()  # what a screen keeps of its drawing must not get into a snapshot
        return said


def _play(walk: Walk, rng: random.Random, n: int, menu: bool = False) -> None:
    """``n`` inputs of the walk; ``menu``: the game menu too, and a game over is taken back from there (Undo)."""
    s = walk.s
    for _ in range(n):
        if menu and s.game is not None and s.game.is_over and not s.overlays:
            for k in (Key.HOLD, Key.DOWN, Key.OK):
                walk.step(KeyEvent(k), rng.uniform(0.0, 4.0))
        else:
            walk.step(_event(s, rng, menu), rng.uniform(0.0, 4.0))


def _clock(s: Session) -> Any:
    """The clock's whole state: live, as journaled, whether the journal is behind, when it was last written."""
    tk = s.timekeeper
    if tk is None:
        return None
    return (tk.clock.state(None), tk.clock.since, tk.journaled.state(None), tk.dirty, tk.saved_at, tk.spec)


def _same(a: Session, b: Session, *, live: bool = False) -> None:
    """``b`` is the same session as ``a``; ``live``: ``b`` was played with a running clock, so its clocks have the
    time since their last journaled line charged (compared as journaled) and its screen shows them."""
    assert a.n_inputs == b.n_inputs
    sa, sb = a.state_json(), b.state_json()
    if live and b.timekeeper is not None:
        assert a.timekeeper is not None
        assert a.timekeeper.clock.state(None) == b.timekeeper.journaled.state(None)
        assert a.timekeeper.dirty == b.timekeeper.dirty
        sa.pop("clocks"), sb.pop("clocks")
    else:
        assert _clock(a) == _clock(b)
        assert a.render().tobytes() == b.render().tobytes()
    assert sa == sb
    assert (a.prompt_seq, a.toast, len(a.undo_stack), len(a.redo_stack), len(a.overlays)) == \
           (b.prompt_seq, b.toast, len(b.undo_stack), len(b.redo_stack), len(b.overlays))
    assert a.rng.getstate() == b.rng.getstate()
    assert a.dice_history == b.dice_history and a.action_log == b.action_log


def _fresh_replay(journal: Journal, rec: Any, cfg: Any, monkeypatch: pytest.MonkeyPatch) -> Session:
    with monkeypatch.context() as m:
        m.setattr(snapshot, "restore", lambda *a: None)
        return replay(journal, rec, cfg)[0]


def _game(game: str, clock: str | None, tmp_path: Path) -> tuple[str, Any]:
    """The game's key and config: a built-in id with ``[games.<id>] clock``, or TOML_GAME with a [clock] table."""
    if game != "toml":
        return game, parse_config({"games": {game: {"clock": clock}}} if clock else {})
    spec = ClockSpec.parse(clock or "none")
    table = f'\n[clock]\nmode = "{spec.mode}"\nmain = {spec.main}\nperiod = {spec.extra}\nperiods = {spec.periods}\n'
    path = tmp_path / "snap.toml"
    path.write_text(TOML_GAME + table)
    return str(path), parse_config({})


@pytest.mark.slow
@pytest.mark.parametrize(("game", "clock", "steps"), CASES,
                         ids=[f"{g}-{c or 'no clock'}".replace(" ", "_") for g, c, _n in CASES])
def test_snapshot_and_tail_equal_the_full_replay(game: str, clock: str | None, steps: int, tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  caplog: pytest.LogCaptureFixture) -> None:
    key, cfg = _game(game, clock, tmp_path)
    journal = Journal(tmp_path / "j.sqlite")
    rec = new_record(journal, key, cfg, 7)
    live = open_session(journal, rec, cfg)
    rng = random.Random(f"{game}-{clock}-25")
    with caplog.at_level(logging.INFO, logger=snapshot.__name__):
        _play(Walk(live, journal, rec.id, 1000.0), rng, steps, menu=clock is not None)
    assert not [r for r in caplog.records if "snapshot" in r.getMessage()]  # every snapshot was taken
    latest = journal.db.execute("SELECT max(n) FROM snapshots WHERE game=?", (rec.id,)).fetchone()[0]
    assert latest is not None and latest > live.n_inputs - snapshot.EVERY  # taken all along, to the last one
    if clock:  # (without one configured, the walk's set-up answers may still switch a clock on)
        lines = [t for _n, _t, t in journal.inputs(rec.id) if t.startswith("clock ")]
        assert live.timekeeper is not None and len(lines) >= 4, "the clock ran through the walk, journaled"
    caplog.clear()
    with caplog.at_level(logging.WARNING):
        resumed, brk = replay(journal, rec, cfg)
    assert brk is None and not [r for r in caplog.records if "snapshot" in r.getMessage()]
    full = _fresh_replay(journal, rec, cfg, monkeypatch)
    _same(resumed, live, live=True)
    _same(resumed, full)
    # both play on alike (their clocks started again at the same moment), through undos reaching back into the
    # stored chunks (_same draws both after every step)
    more = random.Random(f"{game}-more")
    walks = Walk(full, now=5000.0, draw=False), Walk(resumed, now=5000.0, draw=False)
    for w in walks:
        w.s.restart_clock(5000.0)
    for _ in range(steps * 3 // 10):
        ev, dt = _event(full, more, clock is not None), more.uniform(0.0, 4.0)
        assert walks[0].step(ev, dt) == walks[1].step(ev, dt)
        _same(resumed, full)
    while full.undo_stack:
        full.undo()
        resumed.undo()
        _same(resumed, full)
    journal.close()


def test_a_stale_edited_or_damaged_snapshot_falls_back_to_the_full_replay_saying_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    cfg = parse_config({})
    journal = Journal(tmp_path / "j.sqlite")
    rec = new_record(journal, "sovereign", cfg, 3)
    live = open_session(journal, rec, cfg)
    _play(Walk(live, journal, rec.id), random.Random(7), 300)
    assert live.timekeeper is None  # (random set-up answers may switch a game clock on: this walk does not)
    full = _fresh_replay(journal, rec, cfg, monkeypatch)
    harms = {
        "stale": "UPDATE snapshots SET code='0'",
        "hash": "UPDATE snapshots SET hash='0'",
        "digest": "UPDATE snapshots SET state=zeroblob(10)",
        "chunk": "DELETE FROM undo_chunks",
    }
    pristine = journal.db.execute("SELECT * FROM snapshots").fetchall()
    chunks = journal.db.execute("SELECT * FROM undo_chunks").fetchall()
    for name, sql in harms.items():
        journal.db.execute("DELETE FROM snapshots")
        journal.db.execute("DELETE FROM undo_chunks")
        journal.db.executemany("INSERT INTO snapshots VALUES (?,?,?,?,?,?,?)", pristine)
        journal.db.executemany("INSERT INTO undo_chunks VALUES (?,?,?)", chunks)
        journal.db.execute(sql)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            got = replay(journal, rec, cfg)[0]
        said = " ".join(r.getMessage() for r in caplog.records)
        assert "replaying all 300 inputs" in said, (name, said)
        _same(got, full)
    journal.close()


def test_a_snapshot_never_builds_what_is_not_the_projects_own(tmp_path: Path) -> None:
    """A snapshot row is read back from a file: one naming os.system is refused, and the game replays."""
    import pickle
    import zlib

    class Evil:
        def __reduce__(self) -> Any:
            import os
            return (os.system, ("echo pwned > " + str(tmp_path / "pwned"),))

    data = zlib.compress(pickle.dumps({"n_inputs": 1, "x": Evil()}), 1)
    with pytest.raises(pickle.UnpicklingError):
        snapshot._loads(zlib.decompress(data))
    assert not (tmp_path / "pwned").exists()
    _ = sqlite3, time  # (kept for parity with the other journal tests' imports)


def test_a_snapshot_that_cannot_be_taken_is_said_once_per_game_in_the_log_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Below the level a terminal shows (a table never reads a Python error), and once, however long the game."""
    import pickle

    def refuse(*a: Any) -> None:
        raise pickle.PicklingError("Can't pickle <class 'Gadget'>")

    monkeypatch.setattr(snapshot.Snapshotter, "take", refuse)
    cfg = parse_config({})
    journal = Journal(tmp_path / "j.sqlite")
    rec = new_record(journal, "sovereign", cfg, 3)
    with caplog.at_level(logging.DEBUG, logger=snapshot.__name__):
        _play(Walk(open_session(journal, rec, cfg), journal, rec.id), random.Random(7), 3 * snapshot.EVERY + 1)
    said = [r for r in caplog.records if r.name == snapshot.__name__]
    assert [r.levelno for r in said] == [logging.INFO], said
    assert "game 1: no resume snapshot at input 40 (PicklingError: Can't pickle" in said[0].getMessage()
    journal.close()


def test_a_toml_games_class_is_named_by_its_file_and_its_digest(tmp_path: Path) -> None:
    """A TOML game's class lives in no module: a snapshot names it by its file and digest, and builds it again only
    as the game being resumed (the same file, the same bytes)."""
    import io
    import os
    import pickle

    from companion.games.toml_game import load_toml_game

    (tmp_path / "a.toml").write_text(TOML_GAME)
    (tmp_path / "b.toml").write_text(TOML_GAME.replace("rounds = 40", "rounds = 41"))
    game, other = load_toml_game(tmp_path / "a.toml"), load_toml_game(tmp_path / "b.toml")
    f = io.BytesIO()
    snapshot._pickler(f).dump({"cls": game, "games": [game.__new__(game)]})
    data = f.getvalue()
    back = snapshot._loads(data, game)
    assert back["cls"] is game and type(back["games"][0]) is game
    for wrong in (other, None):
        with pytest.raises(pickle.UnpicklingError, match="not of this game"):
            snapshot._loads(data, wrong)
    assert pickle.loads(data)["cls"] is game  # plain pickle reads the file again (and checks its digest)
    (tmp_path / "a.toml").write_text(TOML_GAME.replace("rounds = 40", "rounds = 39"))
    os.utime(tmp_path / "a.toml", (1, 1))  # (a new modification time: the file is read again)
    with pytest.raises(ValueError, match="has changed since"):
        pickle.loads(data)


def test_companion_play_of_a_long_toml_game_says_nothing_of_snapshots_and_keeps_them(
        tmp_path: Path, companion: Any) -> None:
    """`companion play` of a TOML game past its 500th input: no Python error line on the terminal (there was one
    every 500 inputs: Can't pickle <class TomlGame_…>), and the journal holds the game's snapshot."""
    game = tmp_path / "long.toml"
    game.write_text(TOML_GAME)
    script = tmp_path / "long.txt"
    script.write_text("ok\nroll d6 6\nroll d6 2\nroll d6 1\n" + "down\nok\nup\nok\nok\n" * 104)
    r = companion("play", str(game), "--script", str(script), "--journal", str(tmp_path / "j.sqlite"), "--seed", "1")
    assert r.returncode == 0 and r.stderr == "", r.stderr[-400:]
    journal = Journal(tmp_path / "j.sqlite")
    assert journal.db.execute("SELECT n FROM snapshots").fetchall() == [(500,)]
    journal.close()


@pytest.mark.slow
def test_companion_play_killed_while_a_clock_runs_resumes_from_its_snapshot(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """kill -9 of `companion play` of a Sovereign Chess game with a Fischer clock, in a wait past its 500th input
    (the clock running): the journal resumes from the snapshot that process wrote, to what the full replay gives."""
    import signal

    from conftest import start_companion

    (tmp_path / "config.toml").write_text('[games.sovereign-chess]\nclock = "fischer 300+3"\n')
    rng = random.Random(34)
    presses = "\n".join(rng.choice(["ok"] * 10 + ["down"] * 4 + ["up"] * 3 + ["back"]) for _ in range(520))
    (tmp_path / "s.txt").write_text(f"ok\ndown\nok\n{presses}\nwait 60\nok\n")
    path, stderr = tmp_path / "j.sqlite", tmp_path / "stderr.txt"
    # a real process, killed: forked from the worker's zygote as test_play's kills are (no interpreter start)
    proc = start_companion("play", "sovereign-chess", "--script", str(tmp_path / "s.txt"), "--journal", str(path),
                           "--seed", "5", "--config", str(tmp_path / "config.toml"), stderr=stderr)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:  # until every press before the wait is saved
            if path.exists():
                db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
                try:
                    n = db.execute("SELECT count(*) FROM inputs WHERE event NOT LIKE 'clock %'").fetchone()[0]
                except sqlite3.OperationalError:
                    n = 0
                db.close()
                if n >= 523:
                    break
            time.sleep(0.05)
        assert proc.poll() is None, stderr.read_text() if stderr.exists() else "(no stderr)"
        proc.send_signal(signal.SIGKILL)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    assert not stderr.exists() or stderr.read_text() == ""
    cfg = parse_config({"games": {"sovereign-chess": {"clock": "fischer 300+3"}}})
    journal = Journal(path)
    rec = journal.games()[0]
    restored: list[Any] = []
    restore = snapshot.restore
    monkeypatch.setattr(snapshot, "restore", lambda *a: restored.append(restore(*a)) or restored[-1])
    resumed, brk = replay(journal, rec, cfg)
    assert brk is None and restored[-1] is not None and restored[-1][1] == 500
    full = _fresh_replay(journal, rec, cfg, monkeypatch)
    presses = sum(1 for _n, _t, text in journal.inputs(rec.id) if not text.startswith("clock "))
    assert presses == 523 and resumed.n_inputs == journal.count_inputs(rec.id)  # with the clock's lines, as played
    assert resumed.timekeeper is not None and resumed.timekeeper.clock.running
    _same(resumed, full)
    journal.close()


def test_a_snapshot_builds_only_what_a_session_is_made_of() -> None:
    """The unpickler's allow-list is the session's packages: the machines, the rules, the session, its screens,
    pytransitions. The loop, the config, the journal, the web view or hardware are none of a session's state."""
    import pickle

    from companion.config.load import Config
    from companion.journal.store import RollRecord
    from companion.loop.pieces import LoopStats

    for foreign in (Config(), LoopStats(), RollRecord("r", "roller", "d6", 6, 1, "battle")):
        with pytest.raises(pickle.UnpicklingError, match="may not hold"):
            snapshot._loads(pickle.dumps({"x": foreign}))
