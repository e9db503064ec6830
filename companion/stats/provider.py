"""The history over one journal, for ``companion stats``, the exports and the web view.

:class:`History` reads the journal through its own read-only connection (:class:`.reader.ReadOnlyJournal`), keeps
the summaries in the cache beside it and the names file beside it too.

The web server gets three callables the loop hands it (:func:`web_callables`), each taking and giving JSON text,
run on the server's executor threads — never on the loop's. They read only what is cached (and an active game's
players: its first few inputs), so a phone's request costs the box's process milliseconds, whatever the journal
holds. Games not summarised yet (new ones, or all of them after an upgrade) are summarised by another process,
started when a request finds some and niced (:mod:`.warm`): replaying them here would take the interpreter from the
loop that answers the buttons. The document says how many are ``pending``; the phone asks again.

* ``history(query)`` — the whole document (``game`` and ``player`` filters);
* ``story(game_id)`` — one game's summary with its charts (an active game: its players and start only; one not
  summarised yet: ``pending: true``, no charts);
* ``names(body)`` — ``{"rename": {"from": "Anna", "to": "Ana"}}`` or ``{"merge": {"from": "Anna", "into":
  "Ana"}}``: kept in ``player-names.json``; the answer is ``{"ok": true, "names": {...}}`` or ``{"error": "one
  line"}``.
"""
from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any, Callable

from companion.config.load import Config
from companion.errors import CompanionError
from companion.stats import history as H
from companion.stats.cache import SummaryCache
from companion.stats.names import Names, NamesError

log = logging.getLogger(__name__)


class History:
    def __init__(self, cfg: Config, path: Path | None = None) -> None:
        self.cfg = cfg
        self.path = Path(path) if path is not None else cfg.journal_path()
        self.cache = SummaryCache.beside(self.path)
        self._journal: Any = None
        self._lock = threading.Lock()
        self._warmer: subprocess.Popen[bytes] | None = None

    def journal(self) -> Any:
        if self._journal is None:
            from companion.stats.reader import ReadOnlyJournal

            self._journal = ReadOnlyJournal(self.path)
        return self._journal

    def names(self) -> Names:
        return Names.beside(self.path)  # read afresh: a rename from a phone shows at once

    def summaries(self, compute: bool = True) -> tuple[list[dict[str, Any]], int]:
        with self._lock:
            return H.collect(self.journal(), self.cfg, self.cache, compute)

    def dice(self) -> dict[str, Any]:
        from companion.stats.dice import dice_doc

        with self._lock:
            return dice_doc(self.journal().physical_rolls())

    def document(self, *, game: str | None = None, player: str | None = None, full: bool = False,
                 compute: bool = True) -> dict[str, Any]:
        docs, pending = self.summaries(compute)
        out = H.document(docs, self.names(), game=game, player=player, full=full,
                         dice=self.dice if full else None)
        if full:
            out["pending"] = pending
        return out

    def story(self, game_id: int, compute: bool = True) -> dict[str, Any] | None:
        """One game's summary as shown now (renames applied), or None if there is no such game."""
        from companion.stats import story as S

        with self._lock:
            journal = self.journal()
            try:
                rec = journal.game(game_id)
            except CompanionError:
                return None
            d = H.cached(journal, self.cfg, self.cache, rec, {}, compute=compute or rec.status == "active",
                         charts=True)
        if d is None:
            if rec.status == "damaged":
                return None
            return {"id": game_id, "title": rec.title, "pending": True, "charts": []}
        d = H.shown([d], self.names())[0]
        entry = H.game_entry(d)
        if d["status"] == "active":
            return {**entry, "charts": [], "table": entry["players"]}
        names = [p["name"] for p in d["players"]]
        return {**entry, "charts": S.renamed(d.get("charts", []), names), "table": entry["players"],
                "battles": H.battles([d])}

    def warm(self) -> None:
        """Summarise the games not cached yet in another process (one at a time), niced: see :mod:`.warm`."""
        if self._warmer is not None and self._warmer.poll() is None:
            return
        cmd = [sys.executable, "-m", "companion.stats.warm", str(self.path)]
        if self.cfg.source is not None:
            cmd += ["--config", str(self.cfg.source)]
        try:
            self._warmer = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        except OSError as e:
            log.warning("cannot start the history's summariser (%s); the history shows the games read so far",
                        e.strerror)
            return
        threading.Thread(target=self._warmer.wait, name="history-summariser", daemon=True).start()  # reaped at once

    def wait(self, timeout: float) -> bool:
        """Wait for the summariser, if one runs (tests, the bench); True when none runs now."""
        if self._warmer is None:
            return True
        try:
            self._warmer.wait(timeout)
        except subprocess.TimeoutExpired:
            return False
        return True

    def close(self) -> None:
        with self._lock:
            if self._journal is not None:
                self._journal.close()
                self._journal = None
            self.cache.close()


def _error(text: str) -> str:
    return json.dumps({"error": text})


def web_callables(cfg: Config, hist: History | None = None) -> tuple[Callable[[dict[str, Any]], str],
                                                                     Callable[[int], str],
                                                                     Callable[[dict[str, Any]], str]]:
    """(history, story, names) for the web server, over the configured journal (see the module's docstring);
    ``hist``: the :class:`History` they read (one of their own by default)."""
    hist = hist if hist is not None else History(cfg)

    def history(query: dict[str, Any]) -> str:
        try:
            doc = hist.document(game=_text(query.get("game")), player=_text(query.get("player")), full=True,
                                compute=False)
        except CompanionError as e:
            return _error(str(e))
        if doc["pending"]:
            hist.warm()
        return json.dumps(doc, separators=(",", ":"))

    def story(game_id: int) -> str:
        try:
            doc = hist.story(int(game_id), compute=False)
        except CompanionError as e:
            return _error(str(e))
        if doc is None:
            return _error(f"no saved game {game_id}")
        if doc.get("pending"):
            hist.warm()
        return json.dumps(doc, separators=(",", ":"))

    def names(body: dict[str, Any]) -> str:
        try:
            book = hist.names()
            if isinstance(body.get("rename"), dict):
                book.rename(str(body["rename"].get("from", "")), str(body["rename"].get("to", "")))
            elif isinstance(body.get("merge"), dict):
                book.merge(str(body["merge"].get("from", "")), str(body["merge"].get("into", "")))
            else:
                return _error('send {"rename": {"from": NAME, "to": NAME}} or {"merge": {"from": NAME, '
                              '"into": NAME}}')
        except NamesError as e:
            return _error(str(e))
        return json.dumps({"ok": True, "names": book.mapping()})

    return history, story, names


def _text(v: Any) -> str | None:
    return (str(v).strip() or None) if v is not None else None


__all__ = ["History", "web_callables"]
