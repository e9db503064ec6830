"""Start-up: choose the backends once (the Pi's OLED, buttons and LEDs, or the terminal simulator), wire the
hardware threads to the one queue, run the loop, and shut down cleanly."""
from __future__ import annotations

import logging
import queue
import sys
from contextlib import ExitStack
from typing import Any, Callable, Sequence

from PIL import Image

from companion.loop.app import App, install_signal_handlers
from companion.config.load import Config
from companion.events import Event, RollerState, RollRequestEvent
from companion.journal.boot import open_for_run
from companion.loop.aside import games_folder_lines, present
from companion.loop.testhooks import HookWatcher, hooks_folder

log = logging.getLogger(__name__)

SIM_HELP = "↑↓ move  ⏎ ok  ⌫/esc back  h hold  r roll  q quit"


class PiOutput:
    """The OLED and the GPIO LEDs."""

    def __init__(self, display: Any, leds: Any) -> None:
        self.display, self.leds = display, leds

    def present(self, frame: Image.Image, active: int | None, waiting: bool, alerts: tuple[int, ...] = ()) -> None:
        self.leds.show(active, waiting, alerts)  # first: a failing display bus must not stop the LEDs
        self.display.show(frame)

    def set_roller(self, state: RollerState, detail: str) -> None:
        self.leds.set_status(state)

    def set_contrast(self, level: int) -> None:
        """Dimming when idle, and the contrast setting changed on the device."""
        send = getattr(self.display, "set_contrast", None)
        if send is not None:
            send(level)

    def close(self, farewell: Image.Image | None = None) -> None:
        self.leds.close()
        self.display.close(farewell)


class SimOutput:
    """The terminal: the exact frame, the LEDs beside it, a status line and the keys."""

    def __init__(self, terminal: Any, leds: Any) -> None:
        self.terminal, self.leds = terminal, leds
        self.status = "roller: starting"
        self.web = ""  #: the web view's address: first on the status line, where a narrow terminal keeps it
        self._frame: Image.Image | None = None

    def present(self, frame: Image.Image, active: int | None, waiting: bool, alerts: tuple[int, ...] = ()) -> None:
        self._frame = frame
        self.leds.show(active, waiting, alerts)
        status = (f"phones: {self.web}  " if self.web else "") + self.status
        self.terminal.draw(frame, self.leds.snapshot(), status, SIM_HELP)

    def set_roller(self, state: RollerState, detail: str) -> None:
        self.leds.set_status(state)
        self.status = f"roller: {state.value}" + (f" ({detail})" if detail else "")

    def close(self, farewell: Image.Image | None = None) -> None:
        if farewell is not None:
            self.terminal.draw(farewell, self.leds.snapshot(), "stopped", "")
        self.terminal.close()


def choose_mode(cfg: Config, forced: str | None) -> str:
    if forced:
        return forced
    if cfg.hardware != "auto":
        return cfg.hardware
    from hw.detect import detect_pi, is_raspberry_pi

    if detect_pi(cfg.display.port, cfg.display.address):
        return "pi"
    if sys.stdin.isatty() and sys.stdout.isatty():
        return "sim"
    # no terminal (the service): a Pi whose display does not answer goes on without its panel, any other box headless
    return "pi" if is_raspberry_pi() else "headless"


def run(cfg: Config, *, mode: str | None = None, game: str | None = None,
        say: Callable[[str], None] = lambda line: None, notices: Sequence[str] = ()) -> int:
    """`companion run` / `companion sim`: returns the exit status. ``say`` prints a line for the user (the CLI's);
    ``notices``: what was set aside before (the config's bad values), said with what start-up sets aside itself."""
    from companion.loop.logsetup import setup_logging
    from companion.loop.sdnotify import Notifier

    mode = choose_mode(cfg, mode)
    if mode == "sim":  # the terminal is the screen: the log goes to a file beside the journal
        log_path = cfg.journal_path().with_name("companion.log")
        log_path.parent.mkdir(parents=True, exist_ok=True)
        setup_logging(cfg.log_level, stream=stack_file(log_path))
    else:
        setup_logging(cfg.log_level)
    if cfg.source is not None:  # a settings save cut off last time left its temporary file
        from companion.config.write import clean_temp_files

        clean_temp_files(cfg.source)
    events: "queue.SimpleQueue[Event]" = queue.SimpleQueue()
    notifier = Notifier.from_env()
    if mode == "sim" and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        from companion.errors import HardwareError

        raise HardwareError("the simulator needs a terminal: run it in a terminal, or use "
                            "'companion play GAME --script FILE' for headless play")
    with ExitStack() as stack:
        opened = open_for_run(cfg.journal_path())
        journal = opened.journal
        stack.callback(journal.close)  # after app.shutdown() closed it this is a no-op; on a failed start it matters
        from companion.journal.snapshots import load_key

        unsaid = [*notices, *games_folder_lines(cfg)]  # (the others are logged where they are found)
        for line in unsaid:
            log.warning("set aside at start: %s", line)
        lines = [*unsaid, *opened.lines, *filter(None, [load_key()[1]])]
        web = None
        if cfg.web.enabled:
            from companion.web import start_web

            web = start_web(cfg, mode, events.put, stack)
            if web is not None:  # the history's figures: read when a phone asks, on the server's threads
                _history_for(web, cfg)
                owner = web.pairing.owner  # what the web view set aside (each said in the log where it was found)
                lines += [*filter(None, [cfg.web.owner_code_problem]), *web.pairing.set_aside,
                          *web.pairing.bans.set_aside, *(owner.set_aside if owner is not None else ())]
            say(f"Web view: open {web.address} on a phone" if web is not None else
                "Web view: off (see the log for why)")
        if mode == "pi":
            output, roller = _build_pi(cfg, events, stack)
        elif mode == "headless":
            output, roller = _build_headless(cfg, events, stack)
            _headless_pin(web)
        else:
            output, roller = _build_sim(cfg, events, stack)
        if web is not None and isinstance(output, SimOutput):
            output.web = web.address
        app = App(cfg, journal, events, output, roller=roller, notifier=notifier, game=game, web=web)
        if mode == "headless":
            app.set_panel(False)  # the phones are the panel: the host phone answers what the device's OK would
        present(app, lines, opened)
        hooks = hooks_folder()
        if hooks is not None:
            stack.callback(HookWatcher(hooks, events.put).start().stop)
        install_signal_handlers(events)
        log.info("companion running (%s mode), journal %s", mode, journal.path)
        try:
            app.run()
        finally:
            app.shutdown()
    return 0


def stack_file(path: Any) -> Any:
    return open(path, "a", encoding="utf-8", buffering=1)


def _start_reader(port: str, events: "queue.SimpleQueue[Event]", stack: ExitStack) -> Any:
    from hw.roller.reader import RollerReader

    reader = RollerReader(port, events.put)
    reader.start()
    stack.callback(reader.stop)
    return reader


def _build_pi(cfg: Config, events: "queue.SimpleQueue[Event]", stack: ExitStack) -> tuple[Any, Any]:
    from hw.display import OledDisplay, PluggableDisplay
    from hw.leds import GpioLeds

    d = cfg.display  # opened at the first frame: a missing display is said then, and the phones are the panel
    display = PluggableDisplay(lambda: OledDisplay(d.driver, port=d.port, address=d.address, rotate=d.rotate,
                                                   contrast=d.contrast), d.rotate)
    leds = GpioLeds(cfg.leds.players, cfg.leds.status, active_high=cfg.leds.active_high)
    if cfg.encoder.enabled:
        from hw.encoder import Encoder

        enc = Encoder(cfg.encoder.a, cfg.encoder.b, cfg.encoder.push, events.put, hold_time=cfg.buttons.hold_time)
        stack.callback(enc.close)
        pins = {"back": cfg.buttons.back} if cfg.buttons.back is not None else {}
    else:
        pins = {k: v for k in ("up", "down", "ok", "back") if (v := getattr(cfg.buttons, k)) is not None}
    if pins:
        from hw.buttons import Buttons

        buttons = Buttons(pins, events.put, hold_time=cfg.buttons.hold_time)
        stack.callback(buttons.close)
    roller = None
    if cfg.roller.port != "none":
        roller = _start_reader(cfg.roller.port, events, stack)
    return PiOutput(display, leds), roller


class HeadlessOutput:
    """No panel and no LEDs (``hardware = "headless"``): the frame is kept for the web view's mirror only."""

    def __init__(self) -> None:
        from hw.display import NullDisplay

        self.display = NullDisplay()

    def present(self, frame: Image.Image, active: int | None, waiting: bool, alerts: tuple[int, ...] = ()) -> None:
        self.display.show(frame)

    def set_roller(self, state: RollerState, detail: str) -> None:
        log.info("roller: %s%s", state.value, f" ({detail})" if detail else "")

    def close(self, farewell: Image.Image | None = None) -> None:
        self.display.close(farewell)


def _build_headless(cfg: Config, events: "queue.SimpleQueue[Event]", stack: ExitStack) -> tuple[Any, Any]:
    """A box with no panel (or one unplugged): the web view and the roller are its screen and its input."""
    roller = _start_reader(cfg.roller.port, events, stack) if cfg.roller.port != "none" else None
    return HeadlessOutput(), roller


def _history_for(web: Any, cfg: Config) -> None:
    """Hand the web view the saved games' figures (companion/stats/provider.py); if they cannot be set up, one line
    in the log and the table plays on without the history page."""
    try:
        from companion.stats.provider import web_callables

        web.history, web.story, web.player_names = web_callables(cfg)
    except Exception as e:  # the box stands on its own: no history is better than no game
        log.error("the history page is off: %s", e)


def _headless_pin(web: Any) -> None:
    """With no panel to show "Pair a phone": the owner's phone pairs with the owner code (never logged: where it is
    kept is), and a PIN goes to the log (journalctl -u companion: root and adm only) for whoever reads it."""
    if web is None:
        log.warning("headless with the web view off: nothing can be played; set [web] enabled = true")
        return
    from companion.web.pairing import PIN_PHONES, PIN_TTL

    owner = web.pairing.owner
    pin = web.pairing.new_pin("log")
    log.warning("headless: open %s on a phone; the owner's phone pairs with the owner code (it is then the host; "
                "'companion owner-code' prints it, kept in %s), any phone with PIN %s (it lives %d minutes and "
                "pairs %d phones; the host phone's Pair a phone gives a new one)", web.address,
                owner.where if owner is not None else "nowhere", pin, PIN_TTL // 60, PIN_PHONES)


def _build_sim(cfg: Config, events: "queue.SimpleQueue[Event]", stack: ExitStack) -> tuple[Any, Any]:
    from hw.leds import SimLeds
    from hw.roller.ports import resolve
    from hw.terminal import KeyReader, TerminalScreen

    port = resolve(cfg.roller.port) if cfg.roller.port != "none" else None
    if port is None:
        from hw.roller.virtual import VirtualRoller

        virtual = VirtualRoller().start()
        stack.callback(virtual.stop)
        port = virtual.path
    roller = _start_reader(port, events, stack)
    terminal = TerminalScreen()
    leds = SimLeds(max(len(cfg.leds.players), 6))
    keys = KeyReader(events.put, on_roll=lambda: events.put(RollRequestEvent()))
    keys.start()
    stack.callback(keys.stop)
    return SimOutput(terminal, leds), roller
