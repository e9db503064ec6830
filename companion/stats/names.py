"""Players across games: the same name on two evenings is the same player, and a rename or a merge made on a phone
is kept in ``player-names.json`` beside the journal — never in the journal, whose games keep the names they were
played with.

A name is matched without regard to case or surrounding spaces. Each player has an id (the first name it was known
by, folded) that a rename does not change: the exports' UUIDs are made from it, so BG Stats updates that player
instead of adding another. The file::

    {"version": 1, "ids": {"anna": "ana", "ana": "ana"}, "shown": {"ana": "Ana B."}}

``ids`` maps every name seen in a rename or merge to its player's id, ``shown`` an id to the name it is shown by.
A file that cannot be read is set aside (renamed ``.bad``) with one line in the log, and every name stands for
itself again: the history still opens.
"""
from __future__ import annotations

import json
import logging
import os
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

FILE = "player-names.json"
MAX_NAME = 40


class NamesError(ValueError):
    """A rename or merge that cannot be made; the message is one plain line."""


def fold(name: str) -> str:
    return " ".join(str(name).split()).casefold()


def clean(name: str) -> str:
    """A name as typed, spaces tidied; refused when empty, too long or not printable."""
    text = " ".join(str(name).split())
    if not text:
        raise NamesError("give a name")
    if len(text) > MAX_NAME:
        raise NamesError(f"a name has at most {MAX_NAME} characters")
    if not text.isprintable():
        raise NamesError("a name has no control characters")
    return text


class Names:
    """The renames and merges, applied to every figure: :meth:`id_of` (what stats and exports key on) and
    :meth:`shown` (what is displayed)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.ids: dict[str, str] = {}
        self.display: dict[str, str] = {}
        if path is not None:
            self._load(path)

    @classmethod
    def beside(cls, journal: Path) -> "Names":
        return cls(None if str(journal) == ":memory:" else Path(journal).parent / FILE)

    def _load(self, path: Path) -> None:
        try:
            raw = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except OSError as e:
            log.warning("player names %s cannot be read (%s); names are shown as played", path, e.strerror)
            return
        try:
            doc = json.loads(raw)
            ids, shown = doc["ids"], doc["shown"]
            if not (isinstance(ids, dict) and isinstance(shown, dict) and all(
                    isinstance(k, str) and isinstance(v, str) for d in (ids, shown) for k, v in d.items())):
                raise ValueError("not a mapping of names")
        except (ValueError, KeyError, TypeError) as e:
            bad = path.with_name(path.name + ".bad")
            try:
                os.replace(path, bad)
            except OSError:
                pass
            log.warning("player names %s are damaged (%s); set aside as %s, names are shown as played", path, e,
                        bad.name)
            return
        self.ids = {fold(k): fold(v) for k, v in ids.items()}
        self.display = {fold(k): clean(v) for k, v in shown.items() if v.strip()}

    # ------------------------------------------------------------------ reading
    def id_of(self, name: str) -> str:
        """The player's id: the folded name, or the id a rename or merge gave it (followed to its end)."""
        key = fold(name)
        seen = {key}
        while key in self.ids and self.ids[key] != key:
            key = self.ids[key]
            if key in seen:  # a loop (an edited file): stop where it closes
                break
            seen.add(key)
        return key

    def shown(self, name: str) -> str:
        """The name a player is shown by: their rename, else the name as played."""
        return self.display.get(self.id_of(name), " ".join(str(name).split()))

    def mapping(self) -> dict[str, str]:
        """Every name a rename or merge touched → the name it is shown by (the history's ``names``)."""
        return {k: self.shown(k) for k in sorted(self.ids) if self.shown(k).casefold() != k}

    # ------------------------------------------------------------------ changing
    def rename(self, old: str, new: str) -> None:
        """Show the player now called ``old`` as ``new`` from now on (games keep what they were played with)."""
        new = clean(new)
        pid = self.id_of(clean(old))
        other = self.id_of(new)
        if other != pid and other in self.display:
            raise NamesError(f"{new} is already a player's name; merge {old} into {new} instead")
        self.ids.setdefault(fold(old), pid)
        self.ids[fold(new)] = pid
        self.ids.setdefault(pid, pid)
        self.display[pid] = new
        self._save()

    def merge(self, name: str, into: str) -> None:
        """``name`` and ``into`` are one player, shown as ``into`` is."""
        src, dst = self.id_of(clean(name)), self.id_of(clean(into))
        if src == dst:
            raise NamesError(f"{name} and {into} are already the same player")
        for k, v in list(self.ids.items()):
            if v == src or k == src:
                self.ids[k] = dst
        self.ids[fold(name)] = dst
        self.ids[src] = dst
        self.ids.setdefault(dst, dst)
        self.display.pop(src, None)
        self.display[dst] = self.display.get(dst) or clean(into)
        self._save()

    def _save(self) -> None:
        if self.path is None:
            return
        doc: dict[str, Any] = {"version": 1, "ids": dict(sorted(self.ids.items())),
                               "shown": dict(sorted(self.display.items()))}
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1, ensure_ascii=False)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)
        except OSError as e:
            raise NamesError(f"cannot save the player names in {self.path}: {e.strerror}") from None


__all__ = ["FILE", "Names", "NamesError", "clean", "fold"]
