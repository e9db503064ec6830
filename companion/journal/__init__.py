"""The journal: every input of every game in one SQLite file, hash-chained, committed before the screen changes.

Owns the file and everything about keeping it sound: ``store`` (the tables, commits, replay reads), ``guard``
(SQLite errors as one line each, the one-process lock) and ``salvage`` (`journal check` / `salvage` of a damaged
file). It may import ``companion.errors`` and ``companion.events`` only: it knows inputs, not games or screens.
"""
