"""Saving settings changed on the device back into the config file.

The user's file keeps its comments and layout (tomlkit round-trips it); only the keys changed are touched. The new
text is checked with the same parser the companion starts with, then written to a temporary file beside the config
and renamed over it, so a pulled plug leaves the old file or the new one, never half of one.
"""
from __future__ import annotations

import errno
import logging
import os
import stat
import tomllib
from dataclasses import replace
from pathlib import Path
from typing import Any, Mapping

import tomlkit
import tomlkit.exceptions

from companion.config.load import Config, parse_config
from companion.errors import ConfigError

log = logging.getLogger(__name__)

Key = tuple[str, ...]  #: a key path: ("display", "contrast"), ("games", "sovereign", "air_raids")


def updated_text(text: str, changes: Mapping[Key, Any]) -> str:
    """``text`` (a TOML document) with each key path set to its value; everything else as it was."""
    doc = tomlkit.parse(text)
    for keys, value in changes.items():
        table: Any = doc
        for k in keys[:-1]:
            if k not in table:
                table[k] = tomlkit.table(is_super_table=len(keys) > 2 and k == keys[0])
            table = table[k]
        table[keys[-1]] = list(value) if isinstance(value, tuple) else value
    return tomlkit.dumps(doc)


def clean_temp_files(path: Path) -> list[Path]:
    """Remove ``.<config name>.<pid>.tmp`` files a save cut off by a kill or a power cut left beside the config
    (the config itself is always the old or the new one). A file of a process still running is left alone."""
    removed: list[Path] = []
    try:
        found = list(path.parent.glob(f".{path.name}.*.tmp"))
    except OSError:
        return removed
    for tmp in found:
        pid = tmp.name[len(path.name) + 2:-len(".tmp")]
        if not pid.isdigit() or (int(pid) != os.getpid() and _alive(int(pid))):
            continue
        try:
            tmp.unlink()
            removed.append(tmp)
            log.info("removed %s, left by a settings save that was cut off", tmp)
        except OSError:
            pass
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # someone else's process: leave its file
    return True


def save_settings(path: Path, changes: Mapping[Key, Any], *, base: Path | None = None) -> Config:
    """Write ``changes`` into the config file at ``path`` atomically; returns the config as now read.

    A ``path`` that does not exist yet starts as a copy of ``base`` (the file the settings were read from, e.g.
    /etc/companion/config.toml when the user's own file is new), so its comments and values carry over. An existing
    file keeps its permission bits (the service's UMask=0077 must not make the config unreadable to `companion check`
    run by the Pi's user)."""
    source = path if path.exists() or base is None or not base.exists() else base
    try:
        text = source.read_text(encoding="utf-8-sig") if source.exists() else ""
    except OSError as e:
        raise ConfigError(f"cannot read {source} to save settings: {e.strerror}; check its permissions") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"cannot save settings: {path} is not UTF-8 text (byte {e.start}); fix or remove that "
                          "file first") from None
    try:
        new = updated_text(text, changes)
        data = tomllib.loads(new)
    except (tomlkit.exceptions.TOMLKitError, tomllib.TOMLDecodeError, RecursionError) as e:
        raise ConfigError(f"cannot save settings: {path} is not valid TOML ({' '.join(str(e).split())}); fix or "
                          "remove that file first") from None
    cfg = replace(parse_config(data, source=path), save_path=path)  # refuses a bad value before anything is written
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o644
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(new)
            f.flush()
            os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(tmp, path)
        dirfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dirfd)
        finally:
            os.close(dirfd)
    except OSError as e:
        try:
            tmp.unlink()
        except OSError:
            pass
        if e.errno == errno.ENOSPC:
            raise ConfigError(f"cannot save settings to {path}: the disk is full; free some space and save again "
                              "(the settings as they were are kept)") from None
        raise ConfigError(f"cannot save settings to {path}: {e.strerror}; {_write_hint(e, path)}") from None
    log.info("settings saved to %s: %s", path, ", ".join(".".join(k) for k in changes))
    return cfg


def _write_hint(e: OSError, path: Path) -> str:
    """What to check when the file or its folder cannot be written: who must own it, and how an installed box gets
    that back (chmod would not help: the service's sandbox decides what it may write)."""
    try:
        import pwd

        user = pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        user = str(os.geteuid())
    if e.errno == errno.EROFS:
        return ("the folder is read-only for the companion: on an installed box the service may write only "
                "/etc/companion (ConfigurationDirectory= in companion.service); run 'sudo systemd/install.sh' "
                "again from the checkout, or start it with --config naming a file in a writable folder")
    return (f"the companion runs as '{user}', who must own {path} and its folder {path.parent}: on an installed box "
            f"run 'sudo systemd/install.sh' again from the checkout (it hands /etc/companion to the service)")


__all__ = ["save_settings", "updated_text", "clean_temp_files"]
