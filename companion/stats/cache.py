"""The summaries kept between requests: ``stats-cache.sqlite`` beside the journal, one row per game.

A row is used only while its key still holds: the game's input count and last chained hash (a new input, a salvage
or a fork changes them), its status, and the code version (a digest of the companion's and the machines' source,
as for the resume snapshots: an upgrade recomputes). So an ended game is replayed once, and 500 saved games come
back as 500 small rows.

The file is disposable: one that cannot be opened or read is set aside (``.bad``) with one line in the log and made
afresh; one that cannot be written (a read-only folder) leaves the summaries in memory for this process.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FILE = "stats-cache.sqlite"
VERSION = 2
QUERY = {True: "SELECT key, doc, charts FROM summaries WHERE game=?",
         False: "SELECT key, doc, '' FROM summaries WHERE game=?"}


class SummaryCache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.db: sqlite3.Connection | None = None
        self.memory: dict[int, tuple[str, str, str]] = {}
        self._lock = threading.Lock()
        if path is not None:
            self._open(path)

    @classmethod
    def beside(cls, journal: Path) -> "SummaryCache":
        return cls(None if str(journal) == ":memory:" else Path(journal).parent / FILE)

    def _open(self, path: Path, again: bool = True) -> None:
        try:
            db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA busy_timeout=2000")
            db.execute("PRAGMA synchronous=OFF")  # disposable: a row lost to a power cut is only computed again
            if db.execute("PRAGMA user_version").fetchone()[0] != VERSION:
                db.execute("DROP TABLE IF EXISTS summaries")
                db.execute(f"PRAGMA user_version={VERSION}")
            db.execute("CREATE TABLE IF NOT EXISTS summaries (game INTEGER PRIMARY KEY, key TEXT NOT NULL, "
                       "doc TEXT NOT NULL, charts TEXT NOT NULL)")
            db.execute("SELECT count(*) FROM summaries").fetchone()
            self.db = db
        except sqlite3.Error as e:
            if not again or not path.exists():
                log.warning("the statistics cache %s cannot be used (%s); summaries are kept in memory", path, e)
                return
            bad = path.with_name(path.name + ".bad")
            try:
                os.replace(path, bad)
            except OSError:
                log.warning("the statistics cache %s cannot be used (%s); summaries are kept in memory", path, e)
                return
            log.warning("the statistics cache %s was damaged (%s); set aside as %s and made afresh", path, e,
                        bad.name)
            self._open(path, again=False)

    def get(self, game: int, key: str, charts: bool = False, stale: bool = False) -> dict[str, Any] | None:
        """The game's summary if its row's key is ``key``; its charts only when asked for (the history's list
        does without them, and reads 500 rows the faster). With ``stale``, also a row whose key differs only in
        its last part (the code version: the game is the same, the companion was upgraded), marked
        ``"stale": True``."""
        with self._lock:
            row: Any = self.memory.get(game)
            if row is None and self.db is not None:
                try:
                    row = self.db.execute(QUERY[charts], (game,)).fetchone()
                except sqlite3.Error as e:
                    log.warning("the statistics cache cannot be read (%s); the game is summarised again", e)
                    row = None
        if row is None:
            return None
        old = row[0] != key
        if old and not (stale and row[0].rpartition(":")[0] == key.rpartition(":")[0]):
            return None
        try:
            doc = json.loads(row[1])
            if charts:
                doc["charts"] = json.loads(row[2])
        except ValueError:
            return None
        if not isinstance(doc, dict):
            return None
        if old:
            doc["stale"] = True
        return doc

    def put(self, game: int, key: str, doc: dict[str, Any]) -> None:
        text = json.dumps({k: v for k, v in doc.items() if k != "charts"}, separators=(",", ":"), sort_keys=True)
        charts = json.dumps(doc.get("charts", []), separators=(",", ":"))
        with self._lock:
            if self.db is not None:
                try:
                    self.db.execute("INSERT OR REPLACE INTO summaries (game, key, doc, charts) VALUES (?,?,?,?)",
                                    (game, key, text, charts))
                    return
                except sqlite3.Error as e:
                    log.warning("the statistics cache cannot be written (%s); summaries are kept in memory", e)
                    self.db = None
            self.memory[game] = (key, text, charts)

    def close(self) -> None:
        with self._lock:
            if self.db is not None:
                self.db.close()
                self.db = None


__all__ = ["FILE", "SummaryCache"]
