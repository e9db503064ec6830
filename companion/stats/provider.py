"""The history over one journal, for ``companion stats``, the exports and the web view.

:class:`History` reads the journal through its own read-only connection (:class:`.reader.ReadOnlyJournal`), keeps
the summaries in the cache beside it and the names file beside it too. The web server gets three callables the
loop hands it (:func:`web_callables`), each taking and giving JSON text, run on the server's executor threads —
never on the loop's:

* ``history(query)`` — the whole document (``game`` and ``player`` filters), computing at most
  :data:`BUDGET_S` seconds of summaries per request; ``pending`` says how many games are still to be read (ask
  again);
* ``story(game_id)`` — one game's summary with its charts (an active game: its players and start only);
* ``names(body)`` — ``{"rename": {"from": "Anna", "to": "Ana"}}`` or ``{"merge": {"from": "Anna", "into":
  "Ana"}}``: kept in ``player-names.json``; the answer is ``{"ok": true, "names": {...}}`` or ``{"error": "one
  line"}``.
"""
from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any, Callable

from companion.config.load import Config
from companion.errors import CompanionError
from companion.stats import history as H
from companion.stats.cache import SummaryCache
from companion.stats.names import Names, NamesError

log = logging.getLogger(__name__)

BUDGET_S = 3.0  #: seconds of replaying a phone's request may spend before answering with what it has


class History:
    def __init__(self, cfg: Config, path: Path | None = None) -> None:
        self.cfg = cfg
        self.path = Path(path) if path is not None else cfg.journal_path()
        self.cache = SummaryCache.beside(self.path)
        self._journal: Any = None
        self._lock = threading.Lock()

    def journal(self) -> Any:
        if self._journal is None:
            from companion.stats.reader import ReadOnlyJournal

            self._journal = ReadOnlyJournal(self.path)
        return self._journal

    def names(self) -> Names:
        return Names.beside(self.path)  # read afresh: a rename from a phone shows at once

    def summaries(self, budget_s: float | None = None) -> tuple[list[dict[str, Any]], int]:
        with self._lock:
            return H.collect(self.journal(), self.cfg, self.cache, budget_s)

    def dice(self) -> dict[str, Any]:
        from companion.stats.dice import dice_doc

        with self._lock:
            return dice_doc(self.journal().physical_rolls())

    def document(self, *, game: str | None = None, player: str | None = None, full: bool = False,
                 budget_s: float | None = None) -> dict[str, Any]:
        docs, pending = self.summaries(budget_s)
        out = H.document(docs, self.names(), game=game, player=player, full=full,
                         dice=self.dice if full else None)
        if full:
            out["pending"] = pending
        return out

    def story(self, game_id: int) -> dict[str, Any] | None:
        """One game's summary as shown now (renames applied), or None if there is no such game."""
        from companion.stats import story as S

        with self._lock:
            journal = self.journal()
            try:
                rec = journal.game(game_id)
            except CompanionError:
                return None
            d = H.cached(journal, self.cfg, self.cache, rec, {}, charts=True)
        if d is None:
            return None
        d = H.shown([d], self.names())[0]
        entry = H.game_entry(d)
        if d["status"] == "active":
            return {**entry, "charts": [], "table": entry["players"]}
        names = [p["name"] for p in d["players"]]
        return {**entry, "charts": S.renamed(d["charts"], names), "table": entry["players"],
                "battles": [b for b in H.battles([d])]}

    def close(self) -> None:
        with self._lock:
            if self._journal is not None:
                self._journal.close()
                self._journal = None
            self.cache.close()


def _error(text: str) -> str:
    return json.dumps({"error": text})


def web_callables(cfg: Config) -> tuple[Callable[[dict[str, Any]], str], Callable[[int], str],
                                        Callable[[dict[str, Any]], str]]:
    """(history, story, names) for the web server, over the configured journal (see the module's docstring)."""
    hist = History(cfg)

    def history(query: dict[str, Any]) -> str:
        try:
            doc = hist.document(game=_text(query.get("game")), player=_text(query.get("player")), full=True,
                                budget_s=BUDGET_S)
        except CompanionError as e:
            return _error(str(e))
        return json.dumps(doc, separators=(",", ":"))

    def story(game_id: int) -> str:
        try:
            doc = hist.story(int(game_id))
        except CompanionError as e:
            return _error(str(e))
        return json.dumps(doc, separators=(",", ":")) if doc is not None else _error(f"no saved game {game_id}")

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
    return str(v).strip() or None if v is not None else None


__all__ = ["BUDGET_S", "History", "web_callables"]
