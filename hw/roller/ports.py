"""Finding the roller's serial port when the config says ``port = "auto"``.

In order: the udev symlink ``/dev/companion-roller`` (systemd/99-companion-roller.rules makes it), then a
``/dev/serial/by-id/`` name that looks like the reference roller (a Pico running MicroPython, or a device whose USB
product names the companion roller). Plain ``/dev/ttyACM*`` devices are not guessed: a modem or a 3D printer there
would be opened by mistake.
"""
from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger(__name__)

AUTO = "auto"
UDEV_LINK = "companion-roller"
#: substrings (case-insensitive) of a /dev/serial/by-id name that mark a roller, best first
BY_ID_MARKS: tuple[str, ...] = ("companion_roller", "companion-roller", "micropython", "raspberry_pi_pico")


def candidates(dev: Path = Path("/dev")) -> list[str]:
    """Every plausible roller port under ``dev``, best first (existing paths only)."""
    found: list[str] = []
    link = dev / UDEV_LINK
    if link.exists():
        found.append(str(link))
    by_id = dev / "serial" / "by-id"
    try:
        names = sorted(p.name for p in by_id.iterdir())
    except OSError:
        names = []
    for mark in BY_ID_MARKS:
        for name in names:
            path = str(by_id / name)
            if mark in name.lower() and path not in found and (by_id / name).exists():
                found.append(path)
    return found


def find_roller(dev: Path = Path("/dev")) -> str | None:
    """The best roller port, or None when nothing looks like one."""
    found = candidates(dev)
    if len(found) > 1:
        log.info("several roller candidates %s; using %s", found, found[0])
    return found[0] if found else None


def resolve(port: str, dev: Path = Path("/dev")) -> str | None:
    """``port`` itself, or for ``"auto"`` the discovered port (None when none is plugged in)."""
    if port.strip().lower() == AUTO:
        return find_roller(dev)
    return port


def describe(port: str) -> str:
    """Where we looked, for the ROLLER_NOT_SEEN message."""
    if port.strip().lower() == AUTO:
        return f"looked for /dev/{UDEV_LINK} and /dev/serial/by-id/*{{{','.join(BY_ID_MARKS)}}}*"
    return f"{port} does not exist"
