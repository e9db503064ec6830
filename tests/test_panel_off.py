"""A box whose panel is missing at start or fails during a game goes on through the phones (issue 31 item 3): one
log line, a notice on every phone, the host phone answers what the device's OK would, and the panel is taken back
when it answers again. The real loop and web server over luma's real driver on the fake I2C bus, and a real
`companion run` process in "pi" mode with no display (its pins mocked)."""
from __future__ import annotations

import errno
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

import companion.games
from companion.errors import HardwareError
from companion.loop.panel import NOTICE
from companion.loop.pieces import DrawRetry
from companion.loop.runtime import PiOutput
from conftest import ROOT
from hw import faults
from hw.display import OledDisplay, PluggableDisplay
from hw.fake_i2c import FakeI2CBus
from webtable import OWNER, LiveTable

sys.path.insert(0, str(ROOT / "systemd"))
import pi_boot_web  # noqa: E402


PHONES = "play from the phones (the owner code pairs the host phone: 'companion owner-code' prints it)"


class FakeLeds:
    def __init__(self) -> None:
        self.shown: list[Any] = []

    def show(self, active: int | None, waiting: bool, alerts: tuple[int, ...] = ()) -> None:
        self.shown.append(active)

    def set_status(self, state: Any) -> None: ...

    def close(self) -> None: ...


def wait_for(cond: Callable[[], bool], what: str, timeout: float = 6.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setitem(companion.games.BUILTIN, "webdemo", "webtable:WebDemo")
    with LiveTable(tmp_path) as t:
        yield t


def on_the_panel(t: LiveTable, opener: Callable[[], OledDisplay]) -> FakeLeds:
    """The table's output becomes the Pi's: the OLED (opened by ``opener``, as `companion run` does) and the LEDs."""
    leds = FakeLeds()
    t.settle(lambda: setattr(t.app, "output", PiOutput(PluggableDisplay(opener), leds)))
    t.settle(t.app.draw)
    return leds


def test_a_panel_failing_mid_game_hands_the_table_to_the_phones_and_is_taken_back(
        table: LiveTable, caplog: pytest.LogCaptureFixture) -> None:
    t = table
    bus = FakeI2CBus("ssd1306")
    leds = on_the_panel(t, lambda: OledDisplay("ssd1306", bus=bus))
    assert bus.image().tobytes() == t.app.frame().tobytes() and t.app.panel and NOTICE not in t.app.notices
    phone = t.client()
    assert phone.pair(OWNER, owner=True) == 200  # the host phone
    bus.fail = OSError(errno.EREMOTEIO, "Remote I/O error")  # the panel unplugged mid-game
    with caplog.at_level(logging.ERROR, logger="companion.loop.panel"):
        t.press("down")
        t.settle()
    said = [r.getMessage() for r in caplog.records if r.name == "companion.loop.panel"]
    assert said == [f"display: {faults.OLED_NOT_FOUND.format(address='0x3C', port=1)}: going on without the panel "
                    f"(tried again every 10 s); {PHONES}"]
    assert not t.app.panel and t.app.notices.count(NOTICE) == 1
    t.skip(DrawRetry.LONGEST)  # the retry's wait passes on the table's clock: its frame brings the phones the notice
    wait_for(lambda: NOTICE in phone.json("GET", "/api/state")[1]["snapshot"]["notices"], "the phones' notice")
    status, state = phone.json("GET", "/api/state")
    assert state["me"]["panel"] is False
    assert leds.shown  # the LEDs went on following the game
    # a seat request waits for the host phone, not for a panel nobody sees, and the phone is told so
    other = t.client()
    assert other.pair(t.hub.pairing.new_pin()) == 200
    status, data = other.json("POST", "/api/claim", {"seat": 2})
    assert status == 202 and data["message"].startswith("Ask the host phone to confirm")
    t.settle()
    assert t.app.pair_screen is None
    # the panel answers again: taken back without a press, the notice gone from every phone
    bus.power_cycle()
    bus.fail = None
    t.skip(DrawRetry.LONGEST)  # within the retry's longest wait
    wait_for(lambda: t.app.panel, "the panel taken back")
    t.settle()
    assert NOTICE not in t.app.notices and bus.image().tobytes() == t.app.frame().tobytes()
    wait_for(lambda: NOTICE not in phone.json("GET", "/api/state")[1]["snapshot"]["notices"], "the notice gone")
    assert phone.json("GET", "/api/state")[1]["me"]["panel"] is True


def test_a_display_missing_at_start_is_opened_when_it_comes(table: LiveTable,
                                                            caplog: pytest.LogCaptureFixture) -> None:
    t = table
    bus = FakeI2CBus("ssd1306")
    plugged: list[bool] = []

    def opener() -> OledDisplay:  # as `companion run` opens it: /dev/i2c-1 is not there until the panel is
        if not plugged:
            raise HardwareError(faults.I2C_BUS_MISSING.format(port=1))
        return OledDisplay("ssd1306", bus=bus)

    with caplog.at_level(logging.ERROR, logger="companion.loop.panel"):
        on_the_panel(t, opener)
    assert not t.app.panel and NOTICE in t.app.notices
    assert [r.getMessage() for r in caplog.records if r.name == "companion.loop.panel"] == [
        f"display: {faults.I2C_BUS_MISSING.format(port=1)}: going on without the panel (tried again every 10 s); "
        f"{PHONES}"]
    # the game is played from the phones meanwhile (a grant's "Read the request first" second on the table's clock)
    host = pi_boot_web.Table(f"http://127.0.0.1:{t.port}", OWNER, sleep=t.skip)
    rng = __import__("random").Random(1)
    acks = [a for a in (host.play_one(rng) for _ in range(12)) if a is not None]
    assert acks and t.app.stats.inputs >= len(acks)
    plugged.append(True)  # the retry timer would open it within 10 s; a press on the panel draws at once
    t.press("down")
    wait_for(lambda: t.app.panel, "the panel opened")
    t.settle()
    assert NOTICE not in t.app.notices and bus.image().tobytes() == t.app.frame().tobytes()


# ------------------------------------------------------------------ `companion run`, hardware = "pi", no display
LAUNCH = """\
import sys
from gpiozero import Device
from gpiozero.pins.mock import MockFactory
import hw.gpio
hw.gpio._default = Device.pin_factory = MockFactory()  # the Pi's pins, mocked: this box lacks only its display
from companion.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.skipif(Path("/dev/i2c-7").exists(), reason="this machine has an I2C bus 7")
def test_companion_run_without_its_display_serves_the_phones_and_never_exits(tmp_path: Path) -> None:
    port = _free_port()
    conf = tmp_path / "config.toml"
    conf.write_text(f'hardware = "pi"\n[display]\nport = 7\n[journal]\npath = "{tmp_path}/journal.sqlite"\n'
                    f'[web]\nbind = "127.0.0.1"\nport = {port}\nowner_code = "{OWNER}"\n[roller]\nport = "none"\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("NOTIFY_SOCKET", None)
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, "--config", str(conf), "run"], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        phones = pi_boot_web.Table(f"http://127.0.0.1:{port}", OWNER)
        end = time.monotonic() + 30
        while True:
            assert proc.poll() is None, proc.communicate()
            try:
                state = phones.host.state(timeout=2)
                break
            except pi_boot_web.WebDown:
                assert time.monotonic() < end, "the web view never answered"
                time.sleep(0.2)
        wait_for(lambda: NOTICE in phones.host.snapshot().get("notices", ()), "the phones' notice", timeout=10)
        assert phones.host.state()["me"]["panel"] is False
        phones.new_game()  # the host phone presses the companion's buttons: New game, the first game
        rng = __import__("random").Random(2)
        acks: list[pi_boot_web.Ack] = []
        while len(acks) < 3 and time.monotonic() < end + 30:
            ack = phones.play_one(rng)
            if ack is None:
                time.sleep(0.1)
            else:
                acks.append(ack)
        assert len(acks) == 3 and proc.poll() is None  # played, and it never stopped for the missing display
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            _out, err = proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            _out, err = proc.communicate()
    assert proc.returncode == 0, err[-2000:]
    said = [line for line in err.splitlines() if "going on without the panel" in line]
    assert len(said) == 1 and faults.I2C_BUS_MISSING.format(port=7) in said[0], err[-2000:]
    assert "Traceback" not in err


@pytest.mark.parametrize("answers, terminal, pi, mode", [
    (True, False, True, "pi"),  # the display answers
    (False, True, True, "sim"),  # someone at a terminal: the simulator, as before
    (False, False, True, "pi"),  # the service on a Pi whose display is missing: on without its panel
    (False, False, False, "headless"),  # the service on any other box: the phones are the panel
])
def test_auto_hardware_never_picks_a_simulator_without_a_terminal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                                  answers: bool, terminal: bool, pi: bool,
                                                                  mode: str) -> None:
    import hw.detect
    from companion.config.load import parse_config
    from companion.loop.runtime import choose_mode

    monkeypatch.setattr(hw.detect, "detect_pi", lambda port, address: answers)
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 4 Model B Rev 1.5\0" if pi else b"QEMU Virtual Machine\0")
    real = hw.detect.is_raspberry_pi  # reading the device tree's model, here a file of the test's
    monkeypatch.setattr(hw.detect, "is_raspberry_pi", lambda: real(str(model)))
    monkeypatch.setattr(sys.stdin, "isatty", lambda: terminal, raising=False)
    monkeypatch.setattr(sys.stdout, "isatty", lambda: terminal, raising=False)
    assert choose_mode(parse_config({}), None) == mode


def test_a_contrast_set_while_the_display_is_missing_is_sent_when_it_opens() -> None:
    from PIL import Image

    bus = FakeI2CBus("ssd1306")
    there: list[bool] = []

    def opener() -> OledDisplay:
        if not there:
            raise HardwareError(faults.I2C_BUS_MISSING.format(port=1))
        return OledDisplay("ssd1306", bus=bus, contrast=0xCF, rotate=1)

    display = PluggableDisplay(opener, rotate=1)
    assert display.size == (64, 128) and display.bytes_sent == 0
    display.set_contrast(40)  # the idle screen dims while nobody sees it: kept for later, no error
    with pytest.raises(HardwareError, match="/dev/i2c-1 does not exist"):
        display.show(Image.new("1", display.size))
    there.append(True)
    display.show(Image.new("1", display.size))
    assert bus.contrast == 40 and bus.display_on and display.bytes_sent > 0
    display.close()


def test_every_phone_shows_the_screen_is_off_in_one_line(table: LiveTable, browsers: Any) -> None:
    """The page (a phone at 390x844 in Chromium) shows the notice above everything, in one line of text, and tells an
    unpaired phone to get its PIN from the host's phone only (the companion's own screen is off)."""
    from selenium.webdriver.common.by import By
    from test_web_browser import open_view, text, wait

    t = table
    bus = FakeI2CBus("ssd1306")
    bus.fail = OSError(errno.ENXIO, "No such device or address")  # the panel dead from the start
    on_the_panel(t, lambda: OledDisplay("ssd1306", bus=bus))
    assert not t.app.panel
    browser = browsers.get((390, 844))
    open_view(browser, t)
    wait(browser, "the notice", lambda b: text(b, "notices") == NOTICE)
    notices = browser.find_elements(By.CSS_SELECTOR, "#notices li")
    assert [n.text for n in notices] == [NOTICE]
    wait(browser, "the pairing box", lambda b: b.find_elements(By.ID, "pair-btn"))
    box = browser.find_element(By.ID, "pair-btn").find_element(By.XPATH, "../..").text
    assert "enter the PIN that Pair a phone shows on the host's phone." in box and "the companion or" not in box


def test_a_failed_draw_between_retries_does_not_push_the_retry_back() -> None:
    """Presses and phones draw while the panel is off: their failures keep the retry's deadline (the panel is taken
    back within the retry's longest wait of answering again, however busy the table is)."""
    r = DrawRetry()
    r.failed(0.0)
    for now in (0.1, 0.5, 0.9):  # three draws for presses before the retry
        r.failed(now)
    assert r.at == 1.0 and not r.due(0.99) and r.due(1.0)
    r.failed(1.0)  # the retry itself failed: the next waits twice as long
    assert r.at == 3.0
    r.worked()
    assert r.at is None
