"""The game registry: built-in games by id, and games described in TOML files."""
from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from fsm.base import GameMachine

#: id -> "module:Class". Each game adds its one line here.
BUILTIN: dict[str, str] = {
    "soverana": "fsm.soverana:SoveranaGame",
    "sovereign": "fsm.sovereign:SovereignGame",
    "sovereigns-chain": "fsm.sovereigns_chain:SovereignsChainGame",
    "society": "fsm.society:SocietyGame",
    "sovereign-chess": "fsm.sovereign_chess:SovereignChessGame",
    "sovereign-chess-royale": "fsm.sovereign_chess_royale:SovereignChessRoyaleGame",
}


#: the example games shipped with the companion: listed and playable by id when the games folder lacks that id
EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"


def builtin_ids() -> list[str]:
    return list(BUILTIN)


def toml_for_id(game: str, games_dir: Path | None = None) -> Path | None:
    """The TOML file ``load(game, games_dir)`` plays for an id that is not built in: the first file of the games
    folder with that ``[game] id``, else the first shipped example with it; None when there is none."""
    from companion.games.toml_game import peek_id

    if game in BUILTIN:
        return None
    folders = ([Path(games_dir).expanduser()] if games_dir is not None else []) + [EXAMPLES]
    for folder in folders:
        for p in sorted(folder.glob("*.toml")) if folder.is_dir() else []:
            if peek_id(p) == game:
                return p
    return None


def load(game: str, games_dir: Path | None = None) -> "type[GameMachine]":
    """A game class from a built-in id, a TOML path, or the id of a TOML game in ``games_dir``."""
    from companion.errors import GameFileError

    if game in BUILTIN:
        mod, _, cls = BUILTIN[game].partition(":")
        return getattr(importlib.import_module(mod), cls)  # type: ignore[no-any-return]
    path = Path(game).expanduser()
    if path.suffix == ".toml" or path.exists():
        from companion.games.toml_game import load_toml_game

        return load_toml_game(path)
    found = toml_for_id(game, games_dir)
    if found is not None:
        from companion.games.toml_game import load_toml_game

        return load_toml_game(found)
    known = ", ".join(builtin_ids()) or "none"
    raise GameFileError(f"no game {game!r}: use a built-in id ({known}) or the path of a game .toml file")


def check_options(options: "dict[str, Any] | Any", games_dir: Path | None = None, also: str | None = None) -> None:
    """Check every ``[games.<id>]`` table of the config against that game's switches, before anything starts.

    ``also`` is the game this run starts (an id or a .toml path), whose id counts as known too.
    """
    from companion.errors import ConfigError, GameFileError

    extra = load(also, games_dir) if also else None
    for gid, table in options.items():
        try:
            cls = extra if extra is not None and extra.game_id == gid else load(gid, games_dir)
        except GameFileError:
            known = ", ".join(builtin_ids())
            raise ConfigError(f"[games.{gid}]: there is no game {gid!r}; built-in games are {known}, "
                              "or the id of a .toml game in [games] folder") from None
        try:
            cls.resolve_options(table)
        except ValueError as e:
            raise ConfigError(str(e)) from None
