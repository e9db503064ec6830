"""A live table for the web view's tests: the real App loop on its own thread, the real aiohttp server on a loopback
port, and a small game asking every kind of prompt (including two secret ballots)."""
from __future__ import annotations

import http.client
import json
import queue
import threading
import time
from pathlib import Path
from typing import Any, Callable

from PIL import Image

from companion.loop.app import App
from companion.config.load import parse_config
from companion.events import Key, KeyEvent, QuitEvent, RollerState
from companion.journal.store import Journal
from companion.web.hub import Hub
from companion.web.server import WebServer
from fsm.base import GameMachine
from fsm.prompts import Choice, Confirm, Dice, Info, MultiSelect, Number, Option, Prompt, SecretVote, View, options


class WebDemo(GameMachine):
    """Every prompt type, in order: a number, a choice, dice, a multi-select, two secret ballots, a confirm."""

    game_id, name, description = "webdemo", "Web demo", "test game for the web view"
    min_players, max_players, default_players = 2, 2, 2
    STATES = ["count", "choose", "roll", "pick", "vote", "sure", "game_over"]
    TRANSITIONS = [{"trigger": "next", "source": s, "dest": d}
                   for s, d in zip(STATES, STATES[1:])]
    INITIAL = "count"
    FINAL = ("game_over",)

    def start(self) -> None:
        self.data.update({"n": 0, "choice": None, "rolls": [], "picked": [], "votes": {}, "active": 1, "round": 1})
        self.note("<b>Setup</b> & done")

    def prompt(self) -> Prompt:
        d = self.data
        if self.state == "count":
            return Number("How many", lo=0, hi=5, default=2, player=1, lines=("Pick 0 to 4",))
        if self.state == "choose":
            return Choice("Which road", options=(Option("north", "North"), Option("south", "South"),
                                                 Option("west", "West", enabled=False, hint="West is flooded")),
                          player=2)
        if self.state == "roll":
            return Dice("Roll", player=1, die="d6", count=2, purpose="test roll")
        if self.state == "pick":
            return MultiSelect("Pick", options=options("a", "b", "c"), min_count=1, max_count=2)
        if self.state == "vote":
            seat = len(d["votes"]) + 1
            return SecretVote("Vote", player=seat, voter_name=self.player_name(seat), lines=("Secret",),
                              options=options(("yes", "Yes"), ("no", "No")))
        if self.state == "sure":
            return Confirm("Sure?", lines=(f"{list(d['votes'].values()).count('yes')} yes",))
        return Info("Over", lines=("done",))

    def answer(self, value: Any) -> None:
        d = self.data
        if self.state == "count":
            if value == 5:
                raise self.refuse("five is too many")
            d["n"] = value
        elif self.state == "choose":
            d["choice"] = value
            d["active"] = 2
        elif self.state == "roll":
            d["rolls"] = value["values"]
        elif self.state == "pick":
            d["picked"] = value
        elif self.state == "vote":
            d["votes"][str(len(d["votes"]) + 1)] = value
            if len(d["votes"]) < 2:
                return
            self.note("The vote is in")
        elif self.state == "sure" and not value:
            return
        self.fire("next")

    def player_json(self, seat: int) -> dict[str, Any]:
        return {"n": self.data["n"] if seat == 1 else 0}

    def extra_json(self) -> dict[str, Any]:
        return {"choice": self.data["choice"], "rolls": self.data["rolls"]}

    def views(self) -> list[View]:
        return [View("Demo page", (f"n = {self.data['n']}",))]


class Ballots(GameMachine):
    """Secret ballots, one after another (seat 1, seat 2, seat 1, ...), for the side-channel probe. The state shows
    only how many ballots were cast, never how."""

    game_id, name, description = "ballots", "Ballots", "test game: secret ballots in a row"
    min_players, max_players, default_players = 2, 2, 2
    STATES = ["vote", "game_over"]
    TRANSITIONS = [{"trigger": "end", "source": "vote", "dest": "game_over"}]
    INITIAL = "vote"
    FINAL = ("game_over",)

    def start(self) -> None:
        self.data.update({"votes": [], "active": 1, "round": 1})

    def prompt(self) -> Prompt:
        if self.state == "game_over":
            return Info("Over", lines=("done",))
        seat = len(self.data["votes"]) % 2 + 1
        return SecretVote("Vote", player=seat, voter_name=self.player_name(seat), lines=("Secret",),
                          options=options(("yes", "Yes"), ("no", "No")))

    def answer(self, value: Any) -> None:
        self.data["votes"].append(value)
        if len(self.data["votes"]) >= 40:
            self.fire("end")

    def extra_json(self) -> dict[str, Any]:
        return {"cast": len(self.data["votes"])}


OWNER = "KQ7X-M3PA"  #: the live table's owner code


class FakeOutput:
    def __init__(self) -> None:
        self.frames: list[Image.Image] = []

    def present(self, frame: Image.Image, active: int | None, waiting: bool, alerts: tuple[int, ...] = ()) -> None:
        self.frames.append(frame)

    def set_roller(self, state: RollerState, detail: str) -> None: ...

    def close(self, farewell: Image.Image | None = None) -> None: ...


class SkipClock:
    """The live table's time: real time plus the seconds a test skipped (:meth:`LiveTable.skip`), for the loop's
    monotonic clock and the pairing's wall clock alike, so a product interval (a toast, the display's retry, the
    glance view, a request's grace) passes without being waited out."""

    def __init__(self) -> None:
        self.skipped = 0.0

    def monotonic(self) -> float:
        return time.monotonic() + self.skipped

    def time(self) -> float:
        return time.time() + self.skipped


class LiveTable:
    """``with LiveTable(tmp_path, names=...) as t:`` — the App loop and the web server, both running."""

    def __init__(self, tmp_path: Path, *, game: str = "webdemo", view: str = "open",
                 names: tuple[str, ...] = ("Ana", "Ben"), options: dict[str, Any] | None = None,
                 glance: int = 0, panel: bool = True) -> None:
        raw: dict[str, Any] = {"journal": {"path": str(tmp_path / "j.sqlite")}, "web": {"view": view},
                               "players": {"names": list(names)},
                               "screen": {"glance_seconds": glance}}  # 0: a slow test's first press is no wake-up
        if options:
            raw["games"] = {game: options}
        self.cfg = parse_config(raw)
        self.events: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        from companion.web.bans import Bans
        from companion.web.owner import OwnerCode, normalize
        from companion.web.pairing import Pairing

        self.owner = OwnerCode(normalize(OWNER) or "", file=tmp_path / "owner-code")
        self.clock = SkipClock()
        self.hub = Hub(self.events.put, view=view, pairing=Pairing(
            self.clock.time, path=tmp_path / "web-pairings.json", bans=Bans(tmp_path / "web-bans.json"), owner=self.owner))
        self.server = WebServer(self.hub, "127.0.0.1", 0)
        self.port = self.server.start()
        self.hub.address = f"http://127.0.0.1:{self.port}/"
        self.out = FakeOutput()
        self.app = App(self.cfg, Journal(self.cfg.journal_path()), self.events, self.out, game=game, web=self.hub,
                       clock=self.clock.monotonic)
        dispatch = self.app.dispatch

        def dispatch_or_mark(ev: Any) -> None:
            if isinstance(ev, _Marker):
                if ev.run is not None:
                    ev.run()
                ev.done.set()
            else:
                dispatch(ev)
        self.app.dispatch = dispatch_or_mark  # type: ignore[method-assign]
        if not panel:
            self.app.set_panel(False)  # headless: the phones are the panel
        self.thread = threading.Thread(target=self.app.run, name="loop", daemon=True)
        self.thread.start()
        self.wait(lambda: self.hub.latest.version > 0, "the first snapshot")

    def __enter__(self) -> "LiveTable":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        self.events.put(QuitEvent())
        self.thread.join(10)
        self.server.stop()
        self.app.journal.close()

    def press(self, *keys: str) -> None:
        for k in keys:
            self.events.put(KeyEvent(Key(k)))

    def settle(self, run: Callable[[], None] | None = None) -> None:
        """Wait until the loop has handled everything put so far (and then ``run``, on the loop's thread)."""
        done = threading.Event()
        self.events.put(_Marker(done, run))
        if not done.wait(5):
            raise TimeoutError("the loop did not catch up")

    def skip(self, seconds: float) -> None:
        """``seconds`` pass on the table's clock at once; the loop wakes (as its own timer would have woken it) and
        handles what fell due meanwhile, on its own: the test waits for what that should do."""
        self.clock.skipped += seconds
        self.settle()

    def wait(self, pred: Callable[[], bool], what: str, timeout: float = 5.0) -> None:
        end = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > end:
                raise TimeoutError(f"waited {timeout} s for {what}")
            time.sleep(0.01)

    def public(self) -> dict[str, Any]:
        return json.loads(self.hub.latest.public)  # type: ignore[no-any-return]

    def client(self) -> "Client":
        return Client(self.port)

    def phone(self, seat: int | str | None = None) -> "Client":
        """A paired phone; with ``seat`` (a number or "host") asked for on the phone and given on the device (OK)."""
        c = self.client()
        assert c.pair(self.hub.pairing.new_pin()) == 200
        if seat is not None:
            self.give(c, seat)
        return c

    def give(self, c: "Client", seat: int | str, yes: bool = True) -> None:
        """``c`` asks for ``seat``; the table answers on the device (OK: yes, BACK: no)."""
        from companion.web.screen import SeatRequestScreen

        status, data = c.json("POST", "/api/claim", {"seat": seat})
        assert status == 202 and data["code"] == c.code, (status, data)
        self.wait(lambda: isinstance(self.app.pair_screen, SeatRequestScreen), "the seat request on the device")
        self.app.pair_screen.shown -= 5  # the table took its time to read the request (an OK at once says no)
        self.press("ok" if yes else "back")
        self.settle()


class _Marker:
    """Not an event: the test's way to know the loop got this far (caught before App.dispatch), and to run something
    on the loop's thread."""

    def __init__(self, done: threading.Event, run: Callable[[], None] | None = None) -> None:
        self.done, self.run = done, run


class Client:
    """One browser: keeps its cookie and CSRF token."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookie = ""
        self.csrf = ""
        self.code = ""

    def request(self, method: str, path: str, body: Any = None, *, headers: dict[str, str] | None = None,
                raw: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        h = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookie:
            h["Cookie"] = self.cookie
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
            if self.csrf:
                h["X-CSRF-Token"] = self.csrf
        h.update(headers or {})
        conn.request(method, path, body=data, headers=h)
        r = conn.getresponse()
        payload = r.read()
        hdrs = {k.lower(): v for k, v in r.getheaders()}
        conn.close()
        if "set-cookie" in hdrs:
            c = hdrs["set-cookie"].split(";", 1)[0]
            self.cookie = "" if c.endswith("=") or c.endswith('=""') else c
        return r.status, hdrs, payload

    def json(self, method: str, path: str, body: Any = None, **kw: Any) -> tuple[int, Any]:
        status, _h, payload = self.request(method, path, body, **kw)
        return status, json.loads(payload) if payload else None

    def pair(self, pin: str, *, owner: bool = False) -> int:
        """Pair with a PIN (or, ``owner``, with the owner code ``pin``: the host at once)."""
        status, data = self.json("POST", "/api/pair", {"owner" if owner else "pin": pin})
        if status == 200:
            self.csrf, self.code = data["csrf"], data["code"]
        return status

    def me(self) -> dict[str, Any]:
        return self.json("GET", "/api/state")[1]["me"]  # type: ignore[no-any-return]

    def answer(self, seq: int, value: Any) -> tuple[int, Any]:
        return self.json("POST", "/api/answer", {"seq": seq, "value": value})
