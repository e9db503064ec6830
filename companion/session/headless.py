"""Headless scripted play: `companion play GAME --script FILE`, for tests, demos and bug reports.

A script has one event per line: ``up``, ``down``, ``ok``, ``back``, ``hold``, ``roll d12 7`` (a roll arriving from
the roller; several values allowed), ``move TEXT`` (a move typed in the game's notation, e.g. Sovereign Chess move
text), ``wait 0.5`` and ``#`` comments. Every event is journaled like a press at the
table, so a run killed part-way continues with ``--resume``: the events already in the journal are skipped.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from companion.config.load import Config, load_config
from companion.errors import CompanionError, ScriptError
from companion.events import EntryEvent, Key, KeyEvent, RollEvent
from companion.errors import JournalDamagedError
from companion.journal.store import ChainBreak, GameRecord, Journal
from companion.journal.guard import damaged_advice
from companion.session import Session, decode_event, encode_event, snapshot

log = logging.getLogger(__name__)

KEYS = {k.value for k in Key}


@dataclass(frozen=True)
class ScriptLine:
    line: int
    event: KeyEvent | RollEvent | EntryEvent | None  #: None for a wait
    wait: float = 0.0


def parse_script(text: str, name: str = "script") -> list[ScriptLine]:
    out: list[ScriptLine] = []
    for i, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        head = words[0].lower()
        if head in KEYS and len(words) == 1:
            out.append(ScriptLine(i, KeyEvent(Key(head))))
        elif head == "roll":
            if len(words) < 3 or words[1] not in ("d6", "d12"):
                raise ScriptError(f"{name} line {i}: '{line}': write 'roll d6 N' or 'roll d12 N [N ...]'")
            try:
                values = tuple(_ascii_int(v) for v in words[2:])
            except ValueError:
                raise ScriptError(f"{name} line {i}: '{line}': dice values must be whole numbers") from None
            sides = 6 if words[1] == "d6" else 12
            if not 1 <= len(values) <= 8 or any(not 1 <= v <= sides for v in values):
                raise ScriptError(f"{name} line {i}: '{line}': 1 to 8 values, each 1 to {sides}")
            out.append(ScriptLine(i, RollEvent(words[1], values, roller="roller")))
        elif head == "move":
            if len(words) != 2:
                raise ScriptError(f"{name} line {i}: '{line}': write 'move TEXT' with the move text, no spaces "
                                  "(e.g. 'move wPi2-i4', 'move accept')")
            out.append(ScriptLine(i, EntryEvent("move", words[1])))
        elif head == "wait" and len(words) == 2:
            secs = wait_seconds(words[1])
            if secs is None:
                raise ScriptError(f"{name} line {i}: '{line}': wait takes seconds from 0 to {WAIT_MAX}, written "
                                  "like 2 or 0.5")
            out.append(ScriptLine(i, None, secs))
        else:
            raise ScriptError(f"{name} line {i}: '{line}' is not an event; use up, down, ok, back, hold, "
                              "roll d6|d12 N…, move TEXT, wait SECONDS or # comment")
    return out


WAIT_MAX = 3600  #: the longest ``wait`` a script may ask for, in seconds
_SECONDS = re.compile(r"\d+(\.\d*)?|\.\d+")


def wait_seconds(text: str, most: float = WAIT_MAX) -> float | None:
    """The seconds of a ``wait`` line, or None: plain decimal digits only (float() would also take "1_000", "1e3"
    and other scripts' digits), from 0 to ``most``."""
    if not (text.isascii() and _SECONDS.fullmatch(text)):
        return None
    secs = float(text)
    return secs if secs <= most else None


def _ascii_int(v: str) -> int:
    if not (v.isascii() and v.isdigit()):  # int() reads other scripts' digits: "١٢" would be 12
        raise ValueError(v)
    return int(v)


def game_key(game: str, cfg: Config) -> str:
    """What the journal stores for a game: a built-in id, or a TOML file's absolute path."""
    from companion.games import BUILTIN

    if game in BUILTIN:
        return game
    p = Path(game).expanduser()
    if p.exists():
        return str(p.resolve())
    from companion.games import load

    cls = load(game, cfg.games.folder)
    src = getattr(cls, "source_path", None)
    return str(src) if src else game


def open_session(journal: Journal, record: GameRecord, cfg: Config, roller_connected: Any = None) -> Session:
    """Rebuild a saved game's session by replaying its journaled inputs (up to a damaged one, if any)."""
    return replay(journal, record, cfg, roller_connected)[0]


def replay(journal: Journal, record: GameRecord, cfg: Config, roller_connected: Any = None,
           observe: Callable[[Session, float, Any], bool | None] | None = None,
           quiet: bool = False) -> tuple[Session, ChainBreak | None]:
    """Replay a saved game's verified inputs. Replay stops at the first input failing its check (see
    :meth:`Journal.verified_inputs`) or that cannot be decoded, and returns that break with the session.
    ``observe`` is called after every input with its time and the input (the game is then replayed from its start,
    not from a snapshot); when it returns True the replay stops there. ``quiet``: a snapshot that cannot be used
    (after an upgrade, say) is logged at debug level only."""
    from companion.games import load

    cls = load(record.game, cfg.games.folder)
    setup = record.setup
    session = Session(cls, seed=record.seed, presets=setup.get("names", ()), options=setup.get("options", {}),
                      sources=setup.get("sources", ("roller", "typed", "rng")),
                      roller_connected=roller_connected or (lambda: False), contract=bool(setup.get("contract")),
                      pass4=bool(setup.get("pass4")))
    restored = snapshot.restore(journal, record.id, session, quiet) \
        if str(journal.path) != ":memory:" and observe is None else None
    if restored is not None:  # the latest verified snapshot: only the inputs after it are read and replayed
        session, at, digest = restored
        rows, brk = journal.verified_from(record.id, at, digest)
    else:
        rows, brk = journal.verified_inputs(record.id)
    session.story_hint = cfg.web.enabled  # the last screen points at the phones' History only when they have one
    for n, t, text in rows:
        try:
            ev = decode_event(text)
        except (ValueError, IndexError):
            return session, ChainBreak(record.id, n, f"is not an input the companion writes ({text[:20]!r})")
        session.handle(ev, t)
        if observe is not None and observe(session, t, ev):
            break
    return session, brk


def resume_verified(journal: Journal, record: GameRecord, cfg: Config, roller_connected: Any = None) \
        -> tuple[Session, GameRecord, str | None]:
    """Replay a saved game to play on. A damaged game is copied up to its last good input and the copy plays on
    (the damaged rows stay as they are); the third value is then the message saying so, else None."""
    loss = journal.losses.get(record.id)
    lost = f"{loss.message(journal.path)}; it plays on from there" if loss is not None else None
    session, brk = replay(journal, record, cfg, roller_connected)
    if brk is None:
        return session, record, lost
    rows = journal.verified_inputs(record.id)[0][:brk.n - 1]
    copy = journal.fork(record, brk.n - 1, rows)
    damage = f"{brk.message(journal.path)}; it plays on as game {copy.id}"
    return session, copy, damage if lost is None else f"{lost}. {damage}"


def new_record(journal: Journal, game: str, cfg: Config, seed: int | None) -> GameRecord:
    from companion.games import load

    key = game_key(game, cfg)
    cls = load(key, cfg.games.folder)
    options = dict(cfg.game_options(cls.game_id))
    try:
        cls.resolve_options(options)
    except ValueError as e:
        from companion.errors import ConfigError

        raise ConfigError(str(e)) from None
    seed = int.from_bytes(os.urandom(4), "big") if seed is None else seed
    setup = {"options": options, "names": list(cfg.players.names), "sources": list(cfg.dice.sources),
             "contract": True,  # issue 22's BACK and cursor rules: games saved before them replay without
             "pass4": True}  # issue 33's screens and cursor defaults: likewise
    gid = journal.new_game(key, cls.name, seed, setup)
    return journal.game(gid)


FRAME_SCALE = 4  #: --frame-scale's default: a PNG pixel block per OLED pixel (512×256, readable on a laptop)
FRAME_NAME = re.compile(r"\d{4}\.png")  #: the frames this writer names; nothing else in the folder is touched


class FrameWriter:
    """Saves a PNG for every distinct screen, numbered in order, each OLED pixel ``scale``×``scale`` pixels.

    A new run starts the folder's numbering afresh (removing the numbered frames an earlier run left there, and
    saying so); ``resume`` continues after the last one, as the game does."""

    def __init__(self, folder: Path, scale: int = FRAME_SCALE, *, resume: bool = False,
                 notify: Callable[[str], None] | None = None) -> None:
        self.folder, self.scale = folder, scale
        try:
            folder.mkdir(parents=True, exist_ok=True)
            old = sorted(p for p in folder.iterdir() if FRAME_NAME.fullmatch(p.name))
            if old and not resume:
                for p in old:
                    p.unlink()
                if notify is not None:
                    notify(f"--frames {folder}: removed the {len(old)} frames of an earlier run; numbering starts "
                           "at 0001")
            self.count = int(old[-1].stem) if old and resume else 0
            if old and resume and notify is not None:
                notify(f"--frames {folder}: --resume continues after frame {old[-1].name}")
        except OSError as e:
            raise CompanionError(f"--frames {folder}: cannot use it as a folder ({e.strerror}); give a folder "
                                 "that exists or can be made") from None
        self.last = b""

    def add(self, session: Session) -> None:
        img = session.render()
        digest = hashlib.sha1(img.tobytes()).digest()
        if digest != self.last:
            self.last = digest
            self.count += 1
            target = self.folder / f"{self.count:04d}.png"
            try:
                img.convert("L").resize((img.width * self.scale, img.height * self.scale), 0).save(target)
            except OSError as e:
                raise CompanionError(f"cannot write the frame {target}: {e.strerror or e}; free some space or give "
                                     "another --frames folder (the game itself is saved in the journal)") from None


def read_script(script: Path) -> list[ScriptLine]:
    try:
        text = script.read_bytes().decode("utf-8-sig")  # a leading BOM (Notepad) is no error
    except OSError as e:
        raise ScriptError(f"cannot read script {script}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise ScriptError(f"script {script} is not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    return parse_script(text, script.name)


def play(game: str, script: Path, *, seed: int | None = None, journal_path: Path | None = None,
         resume: bool = False, state_json: Path | None = None, frames: Path | None = None,
         config: str | None = None, notify: Callable[[str], None] | None = None,
         frame_scale: int = FRAME_SCALE, clock: Callable[[], float] | None = None,
         sleep: Callable[[float], None] | None = None) -> dict[str, Any]:
    """Play a script headless. ``notify`` hears the lines a user should see besides the state (a damaged game).
    ``clock`` and ``sleep`` (a test's fake clock): the game clock's time and a ``wait`` line's waiting, by default
    ``time.monotonic`` and ``time.sleep``."""
    monotonic: Callable[[], float] = clock if clock is not None else time.monotonic
    pause: Callable[[float], None] = sleep if sleep is not None else time.sleep
    if not 1 <= frame_scale <= 16:
        raise CompanionError(f"--frame-scale {frame_scale}: give a whole number from 1 to 16 (4 makes 512x256 PNGs)")
    cfg = load_config(config)
    from companion.games import check_options

    check_options(cfg.games.options, cfg.games.folder, also=game)
    lines = read_script(script)
    if state_json is not None and not state_json.parent.is_dir():  # say so before anything is journaled
        raise CompanionError(f"--state-json {state_json}: the folder {state_json.parent} does not exist; "
                             "create it or write elsewhere")
    # a bad --frames folder: before the journal too
    writer = FrameWriter(frames, frame_scale, resume=resume, notify=notify) if frames is not None else None
    journal = Journal(journal_path if journal_path is not None else ":memory:", lock=journal_path is not None)
    damaged = False
    try:
        if journal_path is not None and (problem := journal.quick_check()) is not None:
            damaged = True
            # never write into a file SQLite reports damaged: salvage copies what is readable into a new one
            lost = "".join(f"; {loss.message(journal_path)}" for loss in journal.losses.values())
            raise JournalDamagedError(f"the journal {journal_path} is damaged (SQLite's check: {problem}){lost}; "
                                      f"{damaged_advice(journal_path)}")
        key = game_key(game, cfg)
        record = None
        if resume:  # the latest game of this kind, whatever became of it (an ended game stays ended)
            record = next((r for r in journal.games() if r.game == key and r.status != "damaged"), None)
        if notify is not None:  # a game lost whole (its creation was in the damaged -wal) has no resume to say it
            for line in journal.unreadable.values():  # (a game whose row is damaged is left out: said once)
                notify(line)
            for gid, loss in journal.losses.items():
                if record is None or gid != record.id:
                    notify(loss.message(journal_path or ""))
        if record is None:
            record = new_record(journal, game, cfg, seed)
        session, record, damage = resume_verified(journal, record, cfg, roller_connected=lambda: True)
        session.restart_clock(monotonic())  # as the loop after a restart: the time between runs is free
        if damage and notify is not None:
            notify(damage)
        events = [ln for ln in lines if ln.event is not None]
        _check_same_script(journal, record, events, script)
        if writer:
            writer.add(session)
        # the script's events already journaled (clock lines are the companion's own, not the script's)
        done = sum(1 for _n, _t, text in journal.inputs(record.id) if not text.startswith("clock "))

        def clock_line() -> None:
            """The clock's state after an input, journaled as the loop does (a resume, a replay and the figures then
            see the clock the table saw)."""
            ev = session.clock_checkpoint(monotonic())
            if ev is not None:
                session.handle(ev, time.time(), monotonic())
                journal.commit(record.id, session.n_inputs, encode_event(ev), [], session.summary(), t=session._t)
                snapshot.after_commit(journal, record.id, session)

        def flag_check() -> None:
            """A game clock that ran out during a ``wait`` ends the game (journaled, as at the table)."""
            ev = session.clock_flag(monotonic())
            if ev is not None:
                session.handle(ev, time.time(), monotonic())
                journal.commit(record.id, session.n_inputs, encode_event(ev), [], session.summary(), t=session._t)
                snapshot.after_commit(journal, record.id, session)
                clock_line()
                if writer:  # the game-over screen, even when no press follows
                    writer.add(session)

        def wait(seconds: float) -> None:
            """A ``wait`` line, as the table waits: a running clock's state journaled every 10 s meanwhile (a kill
            in a long wait loses only the seconds since), its flag when it falls."""
            if session.timekeeper is None:
                pause(seconds)
                return
            end = monotonic() + seconds
            while (now := monotonic()) < end:
                due = session.timekeeper.deadline(now)
                pause((end if due is None else min(end, max(due, now + 0.01))) - now)
                flag_check()
                clock_line()

        for ln in lines:
            if ln.event is None:
                if done == 0:  # waits before the resume point were waited the first time
                    wait(ln.wait)
                continue
            if done > 0:
                done -= 1
                continue
            flag_check()
            records = session.handle(ln.event, time.time(), monotonic())
            if isinstance(ln.event, EntryEvent) and session.refused:
                where = f"{script.name} line {ln.line}: '{ln.event.kind} {ln.event.text}'"
                raise ScriptError(f"{where}: {session.refused}")
            if session.refused and notify is not None:  # what the table would have read on the screen
                notify(f"{script.name} line {ln.line}: '{encode_event(ln.event)}' refused: {session.refused}")
            journal.commit(record.id, session.n_inputs, encode_event(ln.event), records, session.summary(),
                           t=session._t)  # the time the session took it: a snapshot then equals the replay
            snapshot.after_commit(journal, record.id, session)
            clock_line()
            if writer:
                writer.add(session)
        flag_check()
        if session.status != record.status:
            journal.set_status(record.id, session.status, session.summary())
        state = session.state_json()
        if state_json is not None:
            try:
                state_json.write_text(json.dumps(state, indent=2, sort_keys=True) + "\n", encoding="utf-8")
            except OSError as e:
                raise CompanionError(f"cannot write --state-json {state_json}: {e.strerror}; the game itself is "
                                     "saved in the journal") from None
        return state
    finally:
        journal.close(checkpoint=not damaged)  # a damaged file is left exactly as it was


def _check_same_script(journal: Journal, record: GameRecord, events: list[ScriptLine], script: Path) -> None:
    """--resume with another script would mix two games: the journaled inputs must be where the script starts."""
    done = [text for _n, _t, text in journal.verified_inputs(record.id)[0] if not text.startswith("clock ")]
    for i, text in enumerate(done):  # the clock's lines are the companion's own, not the script's
        if i >= len(events):
            return  # the journal went further than this script: nothing left to play
        ln = events[i]
        want = encode_event(ln.event) if ln.event is not None else ""
        if text != want:
            raise ScriptError(f"{script.name} line {ln.line} is '{want}', but input {i + 1} of game {record.id} in "
                              f"{journal.path} is '{text}': resume with the script that game was played from, or "
                              "use a new --journal")
