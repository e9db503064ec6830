"""The journal opened for reading only: the history's own SQLite connection (``mode=ro``), beside the loop's writer.

It takes no instance lock, writes no head witness, creates and migrates nothing and never checkpoints: reading the
history can neither block a press nor change the file. A journal that is not there, or is no companion journal,
is one plain error.
"""
from __future__ import annotations

import sqlite3
from pathlib import Path
from urllib.parse import quote

from companion.errors import JournalError
from companion.journal import schema
from companion.journal.guard import sqlite_error
from companion.journal.store import Journal


class ReadOnlyJournal(Journal):
    def __init__(self, path: str | Path) -> None:  # noqa: D107 - the writer's set-up, none of its writes
        self.path = Path(path)
        self._lock = None
        self._last = {}
        self.losses = {}
        self._witness = None
        self._heads = {}
        self._geneses = {}
        if not self.path.exists():
            raise JournalError(f"no journal at {self.path}; play a game first or pass --journal PATH")
        try:
            self.db = sqlite3.connect(f"file:{quote(str(self.path.resolve()))}?mode=ro", uri=True,
                                      isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA busy_timeout=2000")
            err = schema.problem(self.db, self.path)
        except sqlite3.Error as e:
            raise sqlite_error(e, self.path, "read the journal") from None
        if err is not None:
            self.db.close()
            raise err

    def head_of(self, game_id: int) -> tuple[int, str]:
        """The game's last input number and its chained hash as stored (0 and the genesis hash before any)."""
        try:
            row = self.db.execute("SELECT n, hash FROM inputs WHERE game=? ORDER BY n DESC LIMIT 1",
                                  (game_id,)).fetchone()
        except sqlite3.Error as e:
            raise sqlite_error(e, self.path, f"read game {game_id}") from None
        return (int(row[0]), str(row[1])) if row is not None else (0, self._genesis(game_id))

    def close(self, *, checkpoint: bool = False) -> None:
        self.db.close()


__all__ = ["ReadOnlyJournal"]
