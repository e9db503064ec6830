"""Resume from a verified snapshot: a saved game comes back in the time of its last few hundred inputs, not of all.

Every :data:`EVERY` inputs the session (the game, the wizard, the screen and cursor, the dice service and its RNG,
the undo history, the game clock) is pickled into the journal with the input number, the chained hash of that input
and the code version, as the full replay up to that input would leave it: the game clock as the journal has it (no
time since its last line: :meth:`Timekeeper.as_replayed`), a TOML game's class by its file and digest (it lives in
no module), no screen's drawing. At resume the latest snapshot whose hash matches the verified chain, whose seal (a
digest keyed with this installation's key) matches and whose code version is this one is restored, and only the
inputs after it are replayed. Anything else — none yet, a stale code version, a hash or seal that does not match,
an undo chunk missing, a snapshot that does not load — falls back to the full replay, and the log says why.

The undo history is most of a long game's state (a copy of the game per action): it is stored in chunks of
:data:`CHUNK` entries, each once by its digest, and read back only when an undo reaches into it.

A snapshot is loaded only when its seal, keyed with this installation's key (see
:mod:`companion.journal.snapshots`), matches: crafted pickle bytes could otherwise run code even through the
unpickler below, which builds only the project's own classes and plain values.
"""
from __future__ import annotations

import functools
import gc
import hashlib
import inspect
import io
import logging
import pickle
import sqlite3
import zlib
from pathlib import Path
from typing import Any, Callable

from companion.errors import JournalDamagedError, JournalError, one_line
from companion.journal import snapshots
from companion.journal.guard import sqlite_text
from companion.journal.snapshots import SnapshotRow, digest
from companion.journal.store import Journal
from companion.session import Session
from companion.ui.prompt_screens import DiceContext

log = logging.getLogger(__name__)

EVERY = 500  #: inputs between snapshots: the tail a resume replays is at most this long
CHUNK = 256  #: undo entries per stored chunk
_ROOT = Path(__file__).resolve().parents[2]
#: the packages whose classes a snapshot may hold — a session is made of these: the game machines and their rules
#: (a TOML game's class is named apart, see _Unpickler), the session and its screens, pytransitions; builtins and a
#: few standard types besides
_MODULES = ("fsm.", "companion.rules.", "companion.games.", "companion.session.", "companion.ui.", "transitions.")
#: how a snapshot names a TOML game's class (companion.games.toml_game.class_reference): resolved to the game resumed
_TOML_CLASS = ("companion.games.toml_game", "toml_class")
_STD = {("builtins", n) for n in ("set", "frozenset", "bytearray", "complex", "range", "slice", "object", "list", "dict",
                                   "tuple", "int", "float", "str", "bytes", "bool")} | {
    ("random", "Random"), ("functools", "partial"), ("collections", "OrderedDict"), ("collections", "defaultdict"), ("collections", "deque"),
    ("copyreg", "_reconstructor"), ("datetime", "datetime"), ("datetime", "date"), ("enum", "Enum")}


@functools.lru_cache(maxsize=None)
def _code_of_source() -> str:
    h = hashlib.blake2b(digest_size=16)
    for folder in ("companion", "fsm"):
        for p in sorted((_ROOT / folder).rglob("*.py")):
            h.update(str(p.relative_to(_ROOT)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()


def code_version(session: Session) -> str:
    """This code's version: a digest of the companion's and the machines' source, and a TOML game's own file."""
    src = getattr(session.game_cls, "source_path", None)
    extra = b""
    if src:
        from companion.config.files import read_small

        try:
            extra = read_small(src)  # (never blocks on a file that became a pipe)
        except OSError:
            extra = b"?"
    return hashlib.blake2b(_code_of_source().encode() + extra, digest_size=16).hexdigest()


class LazyEntry:
    """One undo entry, ``(before, group)``, read from its stored chunk when an undo (or BACK) reaches it."""

    __slots__ = ("chunks", "digest", "i", "size", "games")

    def __init__(self, chunks: "ChunkReader", d: str, i: int, size: int, games: list[Any]) -> None:
        self.chunks, self.digest, self.i, self.size, self.games = chunks, d, i, size, games

    def entry(self) -> tuple[Any, Any]:
        tag, payload, group, gi = self.chunks.get(self.digest)[self.i]
        return ((tag, payload, self.games[gi]) if tag == "game" else (tag, payload)), group

    def __iter__(self) -> Any:
        return iter(self.entry())

    def __getitem__(self, k: int) -> Any:
        return self.entry()[k]


class ChunkReader:
    def __init__(self, journal: Journal, game: int, game_cls: type) -> None:
        self.journal, self.game, self.game_cls = journal, game, game_cls
        self.cache: dict[str, list[Any]] = {}

    def get(self, d: str) -> list[Any]:
        if d not in self.cache:
            data = snapshots.chunk(self.journal.db, self.game, d)
            if data is None or digest(data) != d:
                raise JournalDamagedError(f"an undo step of game {self.game} in {self.journal.path} cannot be read "
                                          "back; 'companion journal check' says more")
            self.cache[d] = _loads(zlib.decompress(data), self.game_cls)
        return self.cache[d]


class _Ref:
    """Where a stored undo entry is: in the pickled state instead of the entry itself."""

    __slots__ = ("digest", "i", "size")

    def __init__(self, d: str, i: int, size: int) -> None:
        self.digest, self.i, self.size = d, i, size

    def __reduce__(self) -> Any:
        return (_Ref, (self.digest, self.i, self.size))


class _Dice:
    """The session's dice context (it holds the session's callbacks): made afresh at load."""

    def __reduce__(self) -> Any:
        return (_Dice, ())


def _pickler(f: io.BytesIO) -> pickle.Pickler:
    from companion.games.toml_game import TomlGameType, class_reference  # (its spec reader: only when pickling)

    p = pickle.Pickler(f, protocol=5)
    # looked up by type in C: no call per object. A TOML game's class is named by its file (class_reference).
    p.dispatch_table = {DiceContext: lambda ctx: (_Dice, ()), TomlGameType: class_reference}
    return p


class _Unpickler(pickle.Unpickler):
    """Builds only the project's own classes and plain values; a TOML game's class only as the game being resumed
    (``game_cls``: the same file with the same digest)."""

    def __init__(self, f: io.BytesIO, game_cls: type | None) -> None:
        super().__init__(f)
        self.game_cls = game_cls

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("builtins", "getattr"):
            return _method_of  # a bound method (a machine's callback) is pickled as getattr(obj, name)
        if (module, name) == _TOML_CLASS:
            return self._toml_class
        if module.startswith(_MODULES) or (module, name) in _STD:
            found = super().find_class(module, name)
            if isinstance(found, type) or (module, name) == ("copyreg", "_reconstructor"):
                return found
        raise pickle.UnpicklingError(f"a snapshot may not hold {module}.{name}")

    def _toml_class(self, path: str, digest: str) -> type:
        cls = self.game_cls
        if cls is None or (str(getattr(cls, "source_path", "")), getattr(cls, "source_digest", "")) != (path, digest):
            raise pickle.UnpicklingError(f"the snapshot is of the game file {path} as it was, not of this game")
        return cls


def _method_of(obj: Any, name: str) -> Any:
    """getattr, for a snapshot: only a public method bound to an object the snapshot itself built."""
    found = getattr(obj, name) if isinstance(name, str) and not name.startswith("__") else None
    if not inspect.ismethod(found) or found.__self__ is not obj:
        raise pickle.UnpicklingError(f"a snapshot may not look up {name!r}")
    return found


def _loads(data: bytes, game_cls: type | None = None) -> Any:
    """Unpickle with the collector paused: a long game's state is a few hundred thousand small containers, and
    the collector's passes over the growing heap would take most of the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _Unpickler(io.BytesIO(data), game_cls).load()
    finally:
        if enabled:
            gc.enable()


class Snapshotter:
    """Remembers the undo chunks a game already stored, so a snapshot writes only what is new."""

    def __init__(self) -> None:
        self.stored: dict[int, tuple[list[Any], str]] = {}  # chunk index → (its entries, kept alive; digest)
        self.games: list[Any] = []  #: the game objects undo entries name (one, unless the set-up was redone)
        self.failed = False  #: a snapshot of this game could not be taken (said once in the log)

    def take(self, journal: Journal, game_id: int, session: Session) -> None:
        head = journal.head(game_id)
        key = snapshots.installation_key()
        if head is None or head[0] != session.n_inputs or key is None:
            return
        new: dict[str, bytes] = {}
        names: list[str] = []
        entries: list[Any] = list(session.undo_stack)
        if not self.games:  # a resumed game: the entries read back name the games of the snapshot they came from
            self.games = next((e.games for e in entries if isinstance(e, LazyEntry)), [])
        games = self.games  # only ever appended to: a stored chunk's indices into it stay right
        refs: list[_Ref] = []
        for k in range(0, len(entries), CHUNK):
            part = entries[k:k + CHUNK]
            kept = self.stored.get(k)
            if kept is not None and len(kept[0]) == len(part) and all(a is b for a, b in zip(kept[0], part)):
                d = kept[1]
            elif all(isinstance(e, LazyEntry) for e in part) and len({e.digest for e in part}) == 1 \
                    and [e.i for e in part] == list(range(part[0].size)):  # a whole chunk read back, as it was
                d = part[0].digest
            else:
                rows = []
                for e in part:
                    before, group = e
                    gi = -1
                    if before[0] == "game":
                        gi = next((i for i, g in enumerate(games) if g is before[2]), -1)
                        if gi < 0:
                            games.append(before[2])
                            gi = len(games) - 1
                    rows.append((before[0], tuple(before[1]) if before[0] == "game" else before[1], group, gi))
                f = io.BytesIO()
                _pickler(f).dump(rows)
                data = zlib.compress(f.getvalue(), 6)
                d = digest(data)
                new[d] = data
            self.stored[k] = (part, d)
            names.append(d)
            refs += [_Ref(d, i, len(part)) for i in range(len(part))]
        for k in [k for k in self.stored if k >= len(entries)]:
            del self.stored[k]
        state = _state_of(session)
        state["undo_stack"] = refs
        state["_undo_games"] = games
        f = io.BytesIO()
        _pickler(f).dump(state)
        state_blob = zlib.compress(f.getvalue(), 1)
        code = code_version(session)
        row = SnapshotRow(game_id, head[0], head[1], code, snapshots.seal(key, game_id, head[0], head[1], code, names,
                                                                          state_blob), state_blob, names)
        journal.save_snapshot(row, new)


def _state_of(session: Session) -> dict[str, Any]:
    """The session as the full replay up to this input would leave it: no live times (``_now``, the clock's)."""
    state = dict(vars(session))
    for k in ("roller_connected", "pair_hook", "_dice_ctx"):
        state.pop(k, None)
    state.update(_now=None, _memo=None, _records=[])
    if session.timekeeper is not None:
        state["timekeeper"] = session.timekeeper.as_replayed()
    return state


_SNAPSHOTTERS: dict[tuple[int, int], Snapshotter] = {}


def after_commit(journal: Journal, game_id: int, session: Session) -> None:
    """Called after each commit: every :data:`EVERY` inputs, a snapshot. Never fails the press: a snapshot that
    cannot be taken is only logged, once per game and below the level a terminal shows (resume then replays
    further; a journal that refused the write says so itself on the next press)."""
    if session.n_inputs % EVERY:
        return
    key = (id(journal), game_id)
    snap = _SNAPSHOTTERS.get(key)
    if snap is None:
        _SNAPSHOTTERS.clear()  # one game at a time: the last game's chunks are not kept alive
        snap = _SNAPSHOTTERS[key] = Snapshotter()
    try:
        snap.take(journal, game_id, session)
    except (JournalError, pickle.PicklingError, TypeError, AttributeError, RecursionError) as e:
        if not snap.failed:
            snap.failed = True
            log.info("game %d: no resume snapshot at input %d (%s: %s); a resume replays from the one before, or "
                     "from the start", game_id, session.n_inputs, type(e).__name__, e)


def restore(journal: Journal, game_id: int, fresh: Session, quiet: bool = False) -> tuple[Session, int, str] | None:
    """The session of the latest usable snapshot, the input number it was taken at and that input's chained hash
    (the tail is verified from there), or None (logged: why a full replay; ``quiet``: only at debug level, for a
    reader such as ``companion stats`` that replays every game and resumes none). ``fresh`` is the session the full
    replay would start from."""
    say = log.debug if quiet else log.warning
    try:
        found = snapshots.latest(journal.db, game_id, 1 << 62)
        have = snapshots.chunk_digests(journal.db, game_id) if found else set()
    except sqlite3.Error as e:
        say("game %d: resume snapshots unreadable (%s); replaying every input", game_id, one_line(sqlite_text(e)))
        return None
    if not found:
        return None
    version = code_version(fresh)
    key = snapshots.installation_key()
    skipped: list[tuple[int, str]] = []  # (input, why): said in one line, however many snapshots the game has
    for row in found:
        why = "this installation's key cannot be read" if key is None else \
            _unusable(journal, game_id, row, version, have, key)
        if why is None:
            try:
                session = _load(journal, game_id, row, fresh)
            except (pickle.UnpicklingError, zlib.error, ValueError, TypeError, AttributeError, EOFError,
                    ImportError, IndexError, KeyError) as e:
                why = f"it does not load ({one_line(f'{type(e).__name__}: {e}', 100)})"  # no raw bytes in the log
            else:
                if skipped:
                    _say_skipped(say, game_id, skipped, f"replaying from the one at input {row.n}")
                return session, row.n, row.hash
        skipped.append((row.n, why))
    _say_skipped(say, game_id, skipped, f"replaying all {journal.count_inputs(game_id)} inputs")
    return None


def _say_skipped(say: Callable[..., None], game_id: int, skipped: list[tuple[int, str]], then: str) -> None:
    """One log line for the snapshots a resume could not use (the latest one's reason, and how many more)."""
    (n, why), rest = skipped[0], skipped[1:]
    more = "" if not rest else ", nor is the one before it" if len(rest) == 1 else \
        f", nor are the {len(rest)} before it"
    say("game %d: the resume snapshot at input %d is not used: %s%s; %s", game_id, n, why, more, then)


def _unusable(journal: Journal, game_id: int, row: SnapshotRow, version: str, have: set[str], key: bytes) \
        -> str | None:
    if row.code != version:
        return "taken by another version of the companion (stale)"
    got = journal.db.execute("SELECT hash FROM inputs WHERE game=? AND n=?", (game_id, row.n)).fetchone()
    if got is None or str(got[0]) != row.hash:
        return "its input's hash does not match the chain"
    if not snapshots.sealed(key, row):
        return "its seal does not match (damaged, edited, or written by another installation)"
    if not set(row.chunks) <= have:
        return "an undo chunk it needs is missing"
    if not snapshots.chunks_whole(journal.db, game_id, row.chunks):
        return "an undo chunk it needs is damaged"
    return None


def _load(journal: Journal, game_id: int, row: SnapshotRow, fresh: Session) -> Session:
    enabled = gc.isenabled()
    gc.disable()  # (see _loads)
    try:
        return _build(journal, game_id, row, fresh)
    finally:
        if enabled:
            gc.enable()


def _build(journal: Journal, game_id: int, row: SnapshotRow, fresh: Session) -> Session:
    reader = ChunkReader(journal, game_id, fresh.game_cls)
    state = _loads(zlib.decompress(row.state), fresh.game_cls)
    if not isinstance(state, dict) or state.get("n_inputs") != row.n or state.get("game_cls") is not fresh.game_cls:
        raise ValueError("not this game's session at that input")
    session = Session.__new__(Session)
    session.__dict__.update(state)
    session.roller_connected = fresh.roller_connected
    session.pair_hook = None
    session._dice_ctx = DiceContext(fresh.sources, lambda: session.roller_connected(), session._rng_values)
    games = state.pop("_undo_games")
    session.__dict__.pop("_undo_games", None)
    refs: list[Any] = session.undo_stack
    session.undo_stack = [LazyEntry(reader, r.digest, r.i, r.size, games)  # type: ignore[misc]
                          for r in refs]
    _swap(session.screen, session._dice_ctx)
    for overlay in session.overlays:
        _swap(overlay, session._dice_ctx)
    return session


def _swap(obj: Any, ctx: DiceContext, depth: int = 3) -> None:
    """Point what drew on the old dice context (the screen, an overlay's widget) at the new one."""
    if depth == 0 or not hasattr(obj, "__dict__"):
        return
    for k, v in vars(obj).items():
        if isinstance(v, _Dice):
            setattr(obj, k, ctx)
        elif hasattr(v, "__dict__") and not isinstance(v, type):
            _swap(v, ctx, depth - 1)


__all__ = ["EVERY", "after_commit", "restore", "code_version"]
