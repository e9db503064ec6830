"""`companion run` from its config to the first frame, where nothing the box reads can stop it (issue #31).

Under systemd a start that fails is restarted, and fails again on the same files: a restart loop, then a dead box
that only SSH brings back. So every file read at start — the config, the rule switches, the journal and its side
files, the snapshot key, the pairings, the games folder — is read so that what cannot be used is set aside with one
line, and the box starts (fresh where it must). The lines go to the log, to every phone (the snapshot's
``notices``) and to the screen (a page over the home menu, or a toast over a resumed game). A saved game that fails
to resume leaves the box on the home menu (:mod:`companion.loop.aside`): kept when its game file or switches can be
mended, else marked damaged, so the next start does not meet it again.

Only a mistake typed on the command line (`--game` naming no game) or another companion holding the journal stops
the start, with one line and exit status 2.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Callable

from companion.config.load import Config, load_config
from companion.errors import CompanionError

log = logging.getLogger(__name__)


def start(config: str | Path | None, *, mode: str | None, game: str | None,
          say: Callable[[str], None] = lambda line: None) -> int:
    """What `companion run` / `sim` do: the config read leniently, then the loop (:func:`runtime.run`)."""
    from companion.loop.runtime import run

    cfg = load_config(config, lenient=True)
    cfg, dropped = checked_options(cfg, game)
    return run(cfg, mode=mode, game=game, say=say, notices=[*cfg.problems, *dropped])


def checked_options(cfg: Config, game: str | None) -> tuple[Config, list[str]]:
    """The config with each ``[games.<id>]`` table that does not fit its game left out (one line each). The game
    named by ``--game`` must load (a typing mistake on the command line stops the start, with one line)."""
    from dataclasses import replace

    from companion.games import check_options, load

    if game is not None:
        load(game, cfg.games.folder)
    kept, lines = {}, []
    for gid, table in cfg.games.options.items():
        try:
            check_options({gid: table}, cfg.games.folder, also=game)
        except CompanionError as e:  # (a ConfigError, or a game file that does not load)
            src = f"{cfg.source}: " if cfg.source else ""
            lines.append(f"{src}{e}: set aside, the game's own defaults are used")
            continue
        kept[gid] = table
    return replace(cfg, games=replace(cfg.games, options=kept)), lines


__all__ = ["start", "checked_options"]
