"""Issue 31's done-when: a headless companion (``hardware = "headless"``, a real `companion run` process) is played
from two phones in real Chromium at 390×844, start to end. Phone 1 pairs with the owner code from the QR's address
(``#owner=…``) and is the host at once; it starts a game with the companion's buttons under the mirror, answers the
whole-table questions, shows a PIN; phone 2 pairs with that PIN and asks for a seat; the host grants it from its
panel; phone 2 answers its seat's questions; the game ends with its winner. ``COMPANION_SHOTS=DIR`` keeps the
screenshots (docs/evidence/issue-31/). Skipped where no browser is installed."""
from __future__ import annotations

import contextlib
import io
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import ROOT
from test_web_browser import click, text, wait

GAME = """\
[game]
id = "tiny-race"
name = "Tiny race"
description = "Two players race to 3 VP; the table picks who starts"
min_players = 2
max_players = 2
default_players = 2
first_player = "choose"

[[counters]]
id = "vp"
name = "VP"
start = 0
min = 0
max = 3

[[phases]]
name = "Score"
each_player = true
counters = ["vp"]
hint = "Score your points"

[[end]]
counter = "vp"
reaches = 3

[winner]
counter = "vp"
order = "highest"
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Box:
    """`companion run` in headless mode on a loopback port, its state in ``tmp``."""

    def __init__(self, tmp: Path, web_extra: str = "") -> None:
        self.tmp, self.web_extra = tmp, web_extra
        (tmp / "games").mkdir(parents=True, exist_ok=True)
        (tmp / "games" / "tiny-race.toml").write_text(GAME)
        self.config = tmp / "config.toml"
        self.proc: subprocess.Popen[str] | None = None
        self.url = ""
        for _ in range(5):  # a port taken between choosing and listening: the box says so, another is tried
            if self._start(_free_port()):
                return
        raise RuntimeError("the headless companion did not start: " + (tmp / "err.txt").read_text()[-2000:])

    def _start(self, port: int) -> bool:
        self.config.write_text(f'hardware = "headless"\n[journal]\npath = "{self.tmp}/state/journal.sqlite"\n'
                               f'[web]\nbind = "127.0.0.1"\nport = {port}\n{self.web_extra}[roller]\nport = "none"\n'
                               f'[games]\nfolder = "{self.tmp}/games"\n')
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with open(self.tmp / "err.txt", "a") as err:
            self.proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "--config", str(self.config), "run"],
                                         stdout=subprocess.PIPE, stderr=err, text=True, cwd=ROOT, env=env)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if "open http" not in line:
            self.stop()
            return False
        self.url = line.split("open ", 1)[1].split()[0]
        end = time.monotonic() + 20
        while time.monotonic() < end:
            try:
                urllib.request.urlopen(self.url, timeout=2).read()
                return True
            except OSError:
                time.sleep(0.1)
        return False

    def cli(self, *args: str) -> str:
        """`companion --config CONFIG ARGS` run in this process (the box is the process under test, not this)."""
        from companion.cli import main

        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["--config", str(self.config), *args])
        assert status == 0, err.getvalue()
        return out.getvalue()

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.fixture
def phones(browsers: Any) -> tuple[Any, Any]:
    return browsers.get((390, 844)), browsers.get((390, 844), slot=1)


@pytest.fixture
def box(tmp_path: Path) -> Iterator[Box]:
    b = Box(tmp_path)
    try:
        yield b
    finally:
        b.stop()


def by(css: str) -> Any:
    from selenium.webdriver.common.by import By

    return lambda d: d.find_element(By.CSS_SELECTOR, css)


def keys(phone: Any, *names: str) -> None:
    """Tap the companion's buttons under the mirror; wait until the companion has taken each."""
    from selenium.webdriver.common.by import By

    group = phone.find_element(By.CSS_SELECTOR, ".device-keys")
    done = int(group.get_attribute("data-done"))
    for name in names:
        click(phone, name, by(f".device-keys button[data-key='{name}']"))
    wait(phone, f"{len(names)} presses taken", lambda d: int(
        d.find_element(By.CSS_SELECTOR, ".device-keys").get_attribute("data-done")) >= done + len(names))


def answer(phone: Any, label: str) -> None:
    from selenium.webdriver.common.by import By

    click(phone, label, lambda d: next(e for e in d.find_elements(By.CSS_SELECTOR, "#answer button")
                                       if e.text.split("\n")[0] == label))


def title(phone: Any) -> str:
    return text(phone, "prompt-title")


def test_a_headless_box_is_played_from_two_phones_start_to_end(phones: tuple[Any, Any], box: Box,
                                                                tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    host, ben = phones
    shots = Path(os.environ.get("COMPANION_SHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    owner = box.cli("owner-code", "--no-qr").split("Owner code: ", 1)[1].split()[0]
    assert owner not in (tmp_path / "err.txt").read_text()  # the log says where the code is, never the code
    for drv in phones:
        drv.delete_all_cookies()

    # phone 1: the owner's, from the QR code's address: paired and the host at once, no OK anywhere
    host.get(box.url + "#owner=" + owner)
    wait(host, "the host panel", lambda d: d.find_elements(By.ID, "host-title"), timeout=10)
    assert "#owner" not in host.current_url  # the code does not stay in the address bar or the history
    assert "host's" in text(host, "pair-box")
    assert text(host, "whose") == "No game running"

    # the companion's buttons: New game, down to the TOML game, OK
    ids = box.cli("games", "--ids").split()
    keys(host, "ok", *["down"] * ids.index("tiny-race"), "ok")
    wait(host, "the set-up", lambda d: title(d) == "Tiny race")
    host.save_screenshot(str(shots / "1-host-starts-a-game.png"))
    answer(host, "Start game")  # a whole-table question, answered by the host
    wait(host, "who goes first", lambda d: title(d) == "Who goes first?")
    answer(host, "Ben")  # another one

    # phone 2: a PIN from the host phone, a seat asked for, given by the host
    click(host, "Show a PIN", by("#new-pin"))
    wait(host, "the PIN", lambda d: d.find_elements(By.CSS_SELECTOR, "#host-pin .pin"))
    pin = text(host, "host-pin").split("\n")[1].replace(" ", "")
    assert pin.isdigit() and len(pin) == 6
    ben.get(box.url)
    wait(ben, "the live view", lambda d: text(d, "conn") == "Live")
    ben.find_element(By.ID, "pin").send_keys(pin)
    click(ben, "Pair", by("#pair-btn"))
    wait(ben, "paired", lambda d: d.find_elements(By.CSS_SELECTOR, "button.seat[data-seat='2']"))
    click(ben, "seat 2", by("button.seat[data-seat='2']"))
    wait(ben, "the request waiting", lambda d: "host phone" in text(d, "pending"))
    asked = time.monotonic()  # the box took the request before the page showed it waiting
    ben.save_screenshot(str(shots / "3-phone-asks-for-a-seat.png"))
    code = text(ben, "phone-code").split()[-1]
    wait(host, "the request on the host phone", lambda d: d.find_elements(By.CSS_SELECTOR,
                                                                         f"button[data-grant='{code}']"))
    host.execute_script("document.getElementById('host').scrollIntoView()")
    host.save_screenshot(str(shots / "2-host-panel-seat-request.png"))
    time.sleep(max(0.0, asked + 1.1 - time.monotonic()))  # the host read the request for over a second (a yes in
    # its first second: "Read the request first")
    click(host, "Yes", by(f"button[data-grant='{code}']"))
    wait(ben, "seat 2 held", lambda d: "holds seat 2" in text(d, "pair-box"))
    wait(host, "the phone listed with its seat", lambda d: "seat 2 (Ben)" in text(d, "phones"))
    host.save_screenshot(str(shots / "4-host-panel-phones.png"))

    # play: Ben's questions on Ben's phone, Ana's answered by the host
    wait(ben, "Ben's turn", lambda d: title(d) == "Score — Ben")
    answer(ben, "VP: 0")
    wait(ben, "the number form", lambda d: d.find_elements(By.ID, "num"))
    click(ben, "+", by("button[aria-label=more]"))
    answer(ben, "OK")
    wait(ben, "Ben's turn again", lambda d: title(d) == "Score — Ben" and "VP: 1" in text(d, "answer"))
    answer(ben, "Done: next")
    wait(host, "Ana's turn", lambda d: title(d) == "Score — Ana")
    ben.save_screenshot(str(shots / "5-not-bens-question.png"))
    assert "Ana answers this on the host's phone" in text(ben, "answer")  # not Ben's: no form, and who answers
    answer(host, "Done: next")
    wait(ben, "Ben's turn", lambda d: title(d) == "Score — Ben")
    answer(ben, "VP: 1")
    wait(ben, "the number form", lambda d: d.find_elements(By.ID, "num"))
    click(ben, "+", by("button[aria-label=more]"))
    click(ben, "+", by("button[aria-label=more]"))
    answer(ben, "OK")
    wait(host, "the end", lambda d: text(d, "whose") == "Ben wins", timeout=10)
    wait(ben, "the end on Ben's phone", lambda d: text(d, "whose") == "Ben wins")
    ben.save_screenshot(str(shots / "6-game-over.png"))

    box.stop()
    assert box.proc is not None and box.proc.returncode == 0
    from companion.journal.store import Journal

    j = Journal(tmp_path / "state" / "journal.sqlite")
    try:
        game = j.games()[0]
        events = [e for _n, _t, e in j.inputs(game.id)]
    finally:
        j.close()
    assert game.status == "finished"
    sources = [e.split()[2] for e in events if e.startswith("answer ")]
    assert sources == ["web:host", "web:host", "web:seat2", "web:seat2", "web:seat2", "web:host", "web:seat2",
                       "web:seat2"], events
    for name in ("1-host-starts-a-game", "2-host-panel-seat-request", "3-phone-asks-for-a-seat",
                 "4-host-panel-phones", "6-game-over"):
        assert (shots / f"{name}.png").stat().st_size > 5000, name


def test_a_bad_owner_code_in_the_config_is_set_aside_and_the_box_goes_on(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A config value that is not a code never stops the box: one line in the log and on every phone, and the code
    kept in the state folder pairs the owner (`companion owner-code` run in-process: the box is the real process)."""
    import json

    import companion.cli
    from webtable import Client

    box = Box(tmp_path, 'owner_code = "not-a-code"\n')
    try:
        port = int(box.url.rstrip("/").rsplit(":", 1)[1])
        watcher = Client(port)
        end = time.monotonic() + 10
        while (snap := json.loads(watcher.request("GET", "/api/state")[2])["snapshot"]) is None:
            assert time.monotonic() < end, "no first frame"
            time.sleep(0.05)
        notices = snap["notices"]
        assert len(notices) == 1 and notices[0].startswith("[web] owner_code in the config is not an owner code")
        assert "not-a-code" not in notices[0]
        capsys.readouterr()
        assert companion.cli.main(["--config", str(box.config), "owner-code", "--no-qr"]) == 0
        owner = capsys.readouterr().out.split("Owner code: ", 1)[1].split()[0]
        phone = Client(port)
        assert phone.pair(owner, owner=True) == 200 and phone.me()["host"]
    finally:
        box.stop()
    log = (tmp_path / "err.txt").read_text()
    assert log.count("[web] owner_code in the config is not an owner code") == 1 and "Traceback" not in log
