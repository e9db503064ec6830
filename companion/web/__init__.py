"""The live web view and the remote: everyone at the table sees the game on a phone; paired phones answer prompts.

* :mod:`.snapshot` — the immutable value the main loop publishes after each input (no web library needed);
* :mod:`.hub` — where the main loop publishes and the server reads and submits answers;
* :mod:`.pairing` — PINs, sessions, CSRF tokens and seat claims; :mod:`.owner` the owner code (the trust root of a
  box with no screen); :mod:`.bans` wrong tries cost the guesser;
* :mod:`.server` — aiohttp on its own thread (imported only when ``[web] enabled``); :mod:`.writes` and
  :mod:`.host_routes` its writing routes (the host phone's among them);
* :mod:`.screen` — the OLED's "Pair a phone" screen with the address as a QR code;
* :mod:`.manual` — each game's manual (``companion/manuals/<game-id>.md``) as a page, by the snapshot's game id.

It reads snapshots and never a game: no game's rules (``companion.rules``) or machine (``fsm.<game>``) is imported
here (``tests/test_layering.py``); ``fsm.prompts`` (the prompt types a snapshot describes) is shared and allowed.
"""
from __future__ import annotations

import logging
import socket
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from companion.errors import CompanionError

if TYPE_CHECKING:  # the hub (snapshots, Pillow, the prompt types) only when the web view starts: `companion owner-code`
    from companion.config.load import Config  # and the pairing's users import this package and need none of it
    from companion.events import Event
    from companion.web.hub import Hub
    from companion.web.owner import OwnerCode

log = logging.getLogger(__name__)


def lan_address() -> str:
    """This machine's address on the local network (no packet is sent), or its mDNS name."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("10.254.254.254", 9))
        return str(s.getsockname()[0])
    except OSError:
        return socket.gethostname() + ".local"
    finally:
        s.close()


def url_for(host: str, port: int) -> str:
    shown = lan_address() if host in ("0.0.0.0", "::") else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def start_web(cfg: Config, mode: str, put: Callable[[Event], None], stack: ExitStack) -> Hub | None:
    """Start the web view if ``[web] enabled``; on failure log one line saying what to check and go on without it."""
    if not cfg.web.enabled:
        return None
    host = cfg.web.bind_for(mode)
    try:
        from companion.web.server import WebServer
    except ImportError as e:
        log.error("web view off: %s is not installed (pip install aiohttp, or [web] enabled = false)", e.name)
        return None
    from companion.web.bans import Bans
    from companion.web.hub import Hub
    from companion.web.pairing import Pairing

    state_dir = cfg.journal_path().parent  # the state folder, next to the journal (the service's writable dir)
    pairing = Pairing(path=state_dir / "web-pairings.json", ttl_hours=cfg.web.pairing_hours,
                      bans=Bans(state_dir / "web-bans.json"), owner=owner_code(cfg, state_dir))
    hub = Hub(put, view=cfg.web.view, pairing=pairing)
    server = WebServer(hub, host, cfg.web.port, max_connections=cfg.web.max_connections,
                       hosts=cfg.web.allowed_hosts)
    try:
        port = server.start()
    except CompanionError as e:
        log.error("web view off: %s", e)
        return None
    stack.callback(server.stop)
    hub.address = url_for(host, port)
    log.info("web view at %s", hub.address)
    return hub


def owner_code(cfg: Config, state_dir: Path) -> "OwnerCode":
    """The box's owner code (companion/web/owner.py): the config's, else the state folder's (made at first start).
    A config value that is not a code is said here, once, and set aside."""
    from companion.web.owner import load_owner_code

    if cfg.web.owner_code_problem:
        log.error("%s", cfg.web.owner_code_problem)
    return load_owner_code(cfg.web.owner_code, cfg.source, state_dir, save=_save_owner_code)


def _save_owner_code(path: Path, code: str) -> None:
    """A new owner code into the config it came from (comments kept; companion/config/write.py)."""
    from companion.config.write import save_settings

    save_settings(path, {("web", "owner_code"): code})


__all__ = ["start_web", "url_for", "lan_address", "owner_code"]
