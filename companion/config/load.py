"""The companion's one TOML config file. Every key is optional; each default is documented here and in the README.

A bad file or value raises :class:`~companion.errors.ConfigError` with one line naming the key, the bad value and
what is allowed, before anything starts.
"""
from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from companion.config.checks import DICE_SOURCES  # noqa: F401  (the names others import from here)
from companion.config.checks import owner_code_of, owner_code_problem
from companion.config.checks import (EIGHT_BIT_ADDRESS, EIGHT_BIT_ADDRESSES, PIN, _address, _bind, _bool,  # noqa: F401
                                      _choice, _float, _fmt, _hosts, _int, _key, _names, _path, _pins, _plain, _rotate, _sources,
                                      _str, _Table)
from companion.errors import ConfigError

DEFAULT_PATH = Path("/etc/companion/config.toml")
#: what ``hardware`` may say: "headless" runs with no panel, buttons or LEDs (the web view and the roller only)
HARDWARE = ("auto", "pi", "sim", "headless")
DEFAULT_NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hal")


@dataclass(frozen=True)
class DisplayConfig:
    driver: str = "ssd1306"  #: "ssd1306" (0.96") or "sh1106" (1.3")
    port: int = 1  #: I2C bus number: /dev/i2c-<port>
    address: int = 0x3C  #: I2C address of the OLED
    rotate: int = 0  #: 0 or 2: the screen as mounted, or turned upside down
    contrast: int = 0xCF  #: 0..255


@dataclass(frozen=True)
class ButtonsConfig:
    up: int | None = 5  #: BCM pin numbers; None leaves a button out
    down: int | None = 6
    ok: int | None = 13
    back: int | None = 19
    hold_time: float = 0.8  #: seconds OK is held for the game menu


@dataclass(frozen=True)
class EncoderConfig:
    enabled: bool = False  #: true when an [encoder] table is present: it replaces UP/DOWN/OK
    a: int = 17
    b: int = 18
    push: int | None = 27


@dataclass(frozen=True)
class LedsConfig:
    players: tuple[int, ...] = (12, 16, 20, 21, 23, 24)  #: one BCM pin per seat
    status: int | None = 25
    active_high: bool = True  #: true: GPIO → resistor → LED → ground; false: 3.3 V → LED → GPIO (common anode)


@dataclass(frozen=True)
class RollerConfig:
    port: str = "auto"  #: "auto", "none", or a device path such as /dev/companion-roller


@dataclass(frozen=True)
class DiceConfig:
    sources: tuple[str, ...] = DICE_SOURCES  #: in order of preference


@dataclass(frozen=True)
class PlayersConfig:
    names: tuple[str, ...] = DEFAULT_NAMES  #: name presets offered at new game, in seat order


@dataclass(frozen=True)
class JournalConfig:
    path: Path | None = None  #: None: $STATE_DIRECTORY/journal.sqlite, else ~/.local/share/companion/


@dataclass(frozen=True)
class GamesConfig:
    folder: Path = Path("~/.config/companion/games")  #: *.toml games here appear in the game menu
    options: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  #: [games.<id>] rule switches


@dataclass(frozen=True)
class ScreenConfig:
    """The screen when nobody touches it (companion/ui/idle.py); 0 turns a step off."""

    glance_seconds: int = 30  #: idle seconds before the glance view (whose turn), on a turn's first screen only
    dim_minutes: int = 5  #: idle minutes before the OLED dims
    blank_minutes: int = 20  #: idle minutes before it goes dark
    shift_minutes: int = 2  #: the frame moves a pixel this often, so static parts do not burn in


@dataclass(frozen=True)
class WebConfig:
    """The live web view and remote (companion/web/)."""

    enabled: bool = True  #: serve the web view
    bind: str = "auto"  #: "auto": 127.0.0.1 in the simulator, 0.0.0.0 (the local network) on a Pi; or an IP address
    port: int = 8080
    view: str = "open"  #: "open": anyone on the network may watch; "paired": only phones paired with the PIN
    pairing_hours: int = 12  #: a paired phone is forgotten after this many hours (and always at its game's end)
    max_connections: int = 256  #: open connections at most; when full, the address holding most gives one up
    allowed_hosts: tuple[str, ...] = ()  #: more names the page may be opened by (the LAN address, name and localhost
    #: always are), e.g. a name the router gives the box
    #: the owner code ("ABCD-EFGH", kept as "ABCDEFGH"): a phone paired with it is the host at once (companion/web/
    #: owner.py); None: the one kept in the state folder (made at the first start)
    owner_code: str | None = None
    #: why the config's owner_code was set aside (one line for the log and the phones), or ""
    owner_code_problem: str = ""

    def bind_for(self, mode: str) -> str:
        if self.bind != "auto":
            return self.bind
        return "0.0.0.0" if mode in ("pi", "headless") else "127.0.0.1"


@dataclass(frozen=True)
class Config:
    display: DisplayConfig = DisplayConfig()
    buttons: ButtonsConfig = ButtonsConfig()
    encoder: EncoderConfig = EncoderConfig()
    leds: LedsConfig = LedsConfig()
    roller: RollerConfig = RollerConfig()
    dice: DiceConfig = DiceConfig()
    players: PlayersConfig = PlayersConfig()
    journal: JournalConfig = JournalConfig()
    games: GamesConfig = GamesConfig()
    web: WebConfig = WebConfig()
    screen: ScreenConfig = ScreenConfig()
    log_level: str = "info"
    hardware: str = "auto"  #: "auto" (detect), "pi", "sim", or "headless" (no panel: the web view is the screen)
    source: Path | None = None  #: the file this came from
    #: where Settings changed on the device are saved: the --config file; without one, the user's own config file
    save_path: Path | None = None

    def journal_path(self) -> Path:
        if self.journal.path is not None:
            return self.journal.path
        return default_journal_path()

    def game_options(self, game_id: str) -> Mapping[str, Any]:
        return self.games.options.get(game_id, {})


def user_config_path() -> Path:
    """The user's own config file: $XDG_CONFIG_HOME/companion/config.toml, else ~/.config/companion/config.toml."""
    base = os.environ.get("XDG_CONFIG_HOME")
    if not base:
        try:
            base = str(Path.home() / ".config")
        except RuntimeError:  # no HOME and no passwd entry (a bare container): reading still works, saving says why
            base = "/nonexistent/.config"
    return Path(base) / "companion" / "config.toml"


def default_journal_path() -> Path:
    state = os.environ.get("STATE_DIRECTORY")
    if state:
        return Path(state.split(":")[0]) / "journal.sqlite"
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "companion" / "journal.sqlite"




def parse_config(raw: Mapping[str, Any], source: Path | None = None) -> Config:
    """Build a :class:`Config` from parsed TOML, checking every key."""
    known = ("display", "buttons", "encoder", "leds", "roller", "dice", "players", "journal", "games", "log",
             "hardware", "web", "screen")
    for k in raw:
        if k not in known:
            raise ConfigError(f"unknown section [{_key(k)}]; known sections: " + ", ".join(f"[{n}]" for n in known))
    d = DisplayConfig()
    t = _Table("display", raw.get("display", {}))
    display = DisplayConfig(
        driver=t.get("driver", d.driver, _choice("ssd1306", "sh1106")),
        port=t.get("port", d.port, _int(0, 31)),
        address=t.get("address", d.address, _address),
        rotate=t.get("rotate", d.rotate, _rotate),
        contrast=t.get("contrast", d.contrast, _int(0, 255)),
    )
    t.done()
    b = ButtonsConfig()
    t = _Table("buttons", raw.get("buttons", {}))
    buttons = ButtonsConfig(up=t.get("up", b.up, PIN), down=t.get("down", b.down, PIN), ok=t.get("ok", b.ok, PIN),
                            back=t.get("back", b.back, PIN), hold_time=t.get("hold_time", b.hold_time, _float(0.2, 5)))
    t.done()
    e = EncoderConfig()
    t = _Table("encoder", raw.get("encoder", {}))
    encoder = EncoderConfig(enabled=t.get("enabled", "encoder" in raw, _bool),
                            a=t.get("a", e.a, _int(0, 27)), b=t.get("b", e.b, _int(0, 27)),
                            push=t.get("push", e.push, PIN))
    t.done()
    lc = LedsConfig()
    t = _Table("leds", raw.get("leds", {}))
    leds = LedsConfig(players=t.get("players", lc.players, _pins), status=t.get("status", lc.status, PIN),
                      active_high=t.get("active_high", lc.active_high, _bool))
    t.done()
    t = _Table("roller", raw.get("roller", {}))
    roller = RollerConfig(port=t.get("port", "auto", _str))
    t.done()
    t = _Table("dice", raw.get("dice", {}))
    dice = DiceConfig(sources=t.get("sources", DICE_SOURCES, _sources))
    t.done()
    t = _Table("players", raw.get("players", {}))
    players = PlayersConfig(names=t.get("names", DEFAULT_NAMES, _names))
    t.done()
    t = _Table("journal", raw.get("journal", {}))
    journal = JournalConfig(path=t.get("path", None, _path))
    t.done()
    t = _Table("games", raw.get("games", {}))
    folder = t.get("folder", GamesConfig().folder, _path)
    options: dict[str, Mapping[str, Any]] = {}
    for gid, table in t.raw.items():
        if gid == "folder":
            continue
        if not isinstance(table, dict):
            raise ConfigError(f"[games] {_key(gid)} = {_fmt(table)} is not allowed; per-game switches go in a "
                              f"[games.{_key(gid)}] table")
        if not _plain(gid) or not gid.strip():
            raise ConfigError(f"[games.{_key(gid)}] is not a game id; use the id 'companion games --ids' lists")
        options[gid] = dict(table)
        t.used.add(gid)
    t.done()
    games = GamesConfig(folder=folder, options=options)
    t = _Table("log", raw.get("log", {}))
    level = t.get("level", "info", _choice("debug", "info", "warning", "error"))
    t.done()
    hardware = raw.get("hardware", "auto")
    _choice(*HARDWARE)("hardware", hardware)
    web = _web(raw.get("web", {}))
    screen = _screen(raw.get("screen", {}))
    cfg = Config(display=display, buttons=buttons, encoder=encoder, leds=leds, roller=roller, dice=dice,
                 players=players, journal=journal, games=games, web=web, log_level=level, hardware=hardware,
                 source=source, screen=screen)
    _cross_check(cfg)
    return cfg


def _web(raw: Any) -> WebConfig:
    w = WebConfig()
    t = _Table("web", raw)
    web = WebConfig(enabled=t.get("enabled", w.enabled, _bool), bind=t.get("bind", w.bind, _bind),
                    port=t.get("port", w.port, _int(1, 65535)), view=t.get("view", w.view, _choice("open", "paired")),
                    pairing_hours=t.get("pairing_hours", w.pairing_hours, _int(1, 24 * 30)),
                    max_connections=t.get("max_connections", w.max_connections, _int(16, 4096)),
                    allowed_hosts=t.get("allowed_hosts", w.allowed_hosts, _hosts))
    t.used.add("owner_code")
    t.done()
    if "owner_code" in t.raw:  # a bad code never stops the box: set aside, said once at start (companion/web)
        code = owner_code_of(t.raw["owner_code"])
        web = replace(web, owner_code=code, owner_code_problem="" if code else owner_code_problem(t.raw["owner_code"]))
    return web


def _screen(raw: Any) -> ScreenConfig:
    d = ScreenConfig()
    t = _Table("screen", raw)
    out = ScreenConfig(glance_seconds=t.get("glance_seconds", d.glance_seconds, _int(0, 3600)),
                       dim_minutes=t.get("dim_minutes", d.dim_minutes, _int(0, 1440)),
                       blank_minutes=t.get("blank_minutes", d.blank_minutes, _int(0, 1440)),
                       shift_minutes=t.get("shift_minutes", d.shift_minutes, _int(0, 1440)))
    t.done()
    return out


def _cross_check(cfg: Config) -> None:
    pins: dict[int, str] = {}
    named: list[tuple[str, int | None]] = [("[leds] status", cfg.leds.status)]
    named += [(f"[leds] players[{i}]", p) for i, p in enumerate(cfg.leds.players)]
    if cfg.encoder.enabled:
        named += [("[encoder] a", cfg.encoder.a), ("[encoder] b", cfg.encoder.b), ("[encoder] push", cfg.encoder.push),
                  ("[buttons] back", cfg.buttons.back)]
    else:
        named += [(f"[buttons] {k}", getattr(cfg.buttons, k)) for k in ("up", "down", "ok", "back")]
        if cfg.buttons.ok is None:
            raise ConfigError("[buttons] ok is needed (or an [encoder] with a push button)")
    for where, pin in named:
        if pin is None:
            continue
        if pin in pins:
            raise ConfigError(f"{where} = {pin} is already used by {pins[pin]}; give each device its own pin")
        pins[pin] = where


def load_config(path: str | Path | None = None) -> Config:
    """Read the config: ``path`` if given (it must exist); else the user's own file (:func:`user_config_path`) if
    present, else /etc/companion/config.toml if present, else defaults.

    Settings saved on the device go to ``path`` when given (the service names /etc/companion/config.toml), else to
    the user's own file — never to /etc when nobody named it (the simulator run by a user)."""
    if path is not None:
        p = Path(path)
        if not p.exists():
            raise ConfigError(f"config file {p} does not exist; check the --config path")
        return replace(_read(p), save_path=p)
    mine = user_config_path()
    for p in (mine, DEFAULT_PATH):
        if p.exists():
            return replace(_read(p), save_path=mine)
    return Config(save_path=mine)


def _read(p: Path) -> Config:
    try:
        raw = tomllib.loads(p.read_bytes().decode("utf-8-sig"))  # a leading BOM (Notepad) is no error
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: not valid TOML: {e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{p}: not UTF-8 text (byte {e.start}); save the file as UTF-8") from None
    except RecursionError:
        raise ConfigError(f"{p}: nested too deeply to be a config; check the brackets") from None
    except OSError as e:
        raise ConfigError(f"cannot read config file {p}: {e.strerror}; check the path and its permissions") \
            from None
    try:
        return parse_config(raw, source=p)
    except ConfigError as e:
        raise ConfigError(f"{p}: {e}") from None
