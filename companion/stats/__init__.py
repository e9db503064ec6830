"""The figures of the saved games: each game's summary and story (:mod:`.summary`, :mod:`.story`), kept in a cache
beside the journal (:mod:`.cache`), the history document with its standings and filters (:mod:`.history`), luck
(:mod:`.luck`), dice fairness (:mod:`.dice`), players' names across games (:mod:`.names`), the exports BG Stats and
BoardGameGeek read (:mod:`.bgstats`, :mod:`.bgg`) and the web view's provider (:mod:`.provider`).

May import the games (``companion.games``, ``fsm``), ``companion.session``, ``companion.journal``,
``companion.records`` and the rules; never ``companion.web``, ``companion.loop`` or ``hw``. Nothing here runs on a
press: the history is read when a phone or a command asks for it, on their own thread and SQLite connection.
"""
