"""The host's side of `make pi-boot`: two phones on the web view, scripted. Python's standard library only (the host
runs it with its own python3, outside any venv).

They follow a headless box's real claim flow (docs/web-view.md; the contract is design 31): the first phone pairs
with the box's owner code (the installer wrote it into the guest's config) and is the host at once; it asks for a
PIN (``POST /api/pin``), the second phone pairs with it, asks for seat 2 (``POST /api/claim`` → 202) and the host
grants it (``POST /api/grant``). The host starts games with the companion's buttons (``POST /api/key``). Then each
phone answers what the prompt showing asks that it may answer: a seat phone its seat's questions, a secret ballot
only its voter's phone (paired and seated the same way when the first ballot is theirs), the host the rest. An
answer counts as
*acknowledged* only when the companion said ``{"ok": true}``: the loop says that once the input was journaled
(committed and fsync'd) and applied.
"""
from __future__ import annotations

import http.cookiejar
import json
import random
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

TIMEOUT_S = 30.0  #: a request under emulation (the companion answers within its own 5 s, plus the slow network)
GRACE_S = 1.0  #: a grant this soon after the claim is "Read the request first" (the contract's GRACE_S)
GRANT_TRIES = 5
GUEST_SEAT = 2  #: the second phone's seat
NEW_GAME_S = 300.0  #: a new game under emulation loads its board for a while


class WebDown(Exception):
    """The web view did not answer (the machine is booting, or was just cut)."""


class Refused(Exception):
    """A step of the claim flow the companion refused: its HTTP status and one line."""

    def __init__(self, what: str, status: int, data: Any) -> None:
        why = data.get("error") or data.get("message") if isinstance(data, dict) else data
        super().__init__(f"{what}: HTTP {status} {why}")
        self.status = status


@dataclass(frozen=True)
class Ack:
    seq: int  #: the prompt's number the answer named
    value: Any
    phone: str = "host"  #: which phone's answer it was


class Phone:
    def __init__(self, base: str, name: str = "phone") -> None:
        self.base = base.rstrip("/")
        self.name = name
        self.csrf = ""
        self.code = ""  #: the four characters the companion knows this phone by
        self.rereads = 0  #: grants answered "Read the request first" (asked again a second later)
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def call(self, path: str, body: dict[str, Any] | None = None, timeout: float = TIMEOUT_S) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method="GET" if body is None else "POST")
        if body is not None:
            req.add_header("Content-Type", "application/json")
            req.add_header("X-CSRF-Token", self.csrf)
        try:
            with self.opener.open(req, timeout=timeout) as resp:
                return resp.status, json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"null")
            except ValueError:
                return e.code, None
        except (OSError, ValueError) as e:  # refused, reset, timed out, a half-sent body at the cut
            raise WebDown(str(e)) from None

    def state(self, timeout: float = TIMEOUT_S) -> dict[str, Any]:
        status, data = self.call("/api/state", timeout=timeout)
        if status == 401:  # view = "paired" and this phone is not
            return {"snapshot": {}, "me": {"paired": False}}
        if status != 200 or not isinstance(data, dict):
            raise WebDown(f"/api/state: HTTP {status}")
        return data

    def snapshot(self, timeout: float = TIMEOUT_S) -> dict[str, Any]:
        return dict(self.state(timeout)["snapshot"] or {})

    def _paired(self, what: str, body: dict[str, Any]) -> dict[str, Any]:
        status, data = self.call("/api/pair", body)
        if status != 200 or not isinstance(data, dict):
            raise Refused(what, status, data)
        self.csrf, self.code = data["csrf"], data["code"]
        return data

    def pair_owner(self, code: str) -> None:
        """Pair with the owner code: this phone is the host at once, no OK needed."""
        if not self._paired("pairing with the owner code", {"owner": code}).get("host"):
            raise Refused("pairing with the owner code", 200, "paired, but not as the host")

    def pair(self, pin: str) -> None:
        self._paired("pairing with the host's PIN", {"pin": pin})

    def new_pin(self) -> str:
        """(The host.) A fresh PIN for another phone."""
        status, data = self.call("/api/pin", {})
        if status != 200 or not isinstance(data, dict) or "pin" not in data:
            raise Refused("asking the host phone for a PIN", status, data)
        return str(data["pin"])

    def claim(self, seat: int) -> int:
        """Ask the table for ``seat``: 202 (the host or the device confirms), or 200 when this phone holds it."""
        status, data = self.call("/api/claim", {"seat": seat})
        if status not in (200, 202):
            raise Refused(f"asking for seat {seat}", status, data)
        return status

    def grant(self, code: str, seat: int, sleep: Callable[[float], None] = time.sleep) -> str:
        """(The host.) Give phone ``code`` the seat it asked for; a yes in the request's first second is "Read the
        request first" (409): the host reads it and answers again, as a person would."""
        for _ in range(GRANT_TRIES):
            status, data = self.call("/api/grant", {"code": code, "yes": True, "asked": seat})
            if status == 409 and isinstance(data, dict) and data.get("error") == "Read the request first":
                self.rereads += 1
                sleep(GRACE_S)
                continue
            if status != 200 or not isinstance(data, dict) or not data.get("ok"):
                raise Refused(f"granting seat {seat} to phone {code}", status, data)
            return str(data.get("message", ""))
        raise Refused(f"granting seat {seat} to phone {code}", 409, "Read the request first, every time")

    def press(self, key: str) -> str:
        """(The host.) One press of the companion's buttons. A 504 (the loop took longer than the web view waits,
        as starting a game does under emulation) is a press on the way, not a refusal: it is handled in turn."""
        status, data = self.call("/api/key", {"key": key})
        if status == 504:
            return "sent; the companion had not answered yet"
        if status != 200 or not isinstance(data, dict) or not data.get("ok"):
            raise Refused(f"pressing {key}", status, data)
        return str(data.get("message", ""))

    def answer(self, seq: int, value: Any) -> tuple[bool, str]:
        status, data = self.call("/api/answer", {"seq": seq, "value": value})
        if isinstance(data, dict) and "ok" in data:
            return bool(data["ok"]), str(data.get("message", ""))
        if isinstance(data, dict) and "error" in data:
            return False, str(data["error"])
        return False, f"HTTP {status} {data}"


def choose(prompt: dict[str, Any], rng: random.Random) -> Any:
    """A valid-looking answer to ``prompt`` (as /api/state shows it), or None when a phone cannot answer it."""
    kind = prompt.get("kind")
    back = prompt.get("back")  # the way out when nothing else can be chosen (the page's Back button sends it)
    if kind == "choice":
        keys = [o["key"] for o in prompt["options"] if o.get("enabled", True) and not o.get("in_menu")]
        return rng.choice(keys) if keys else back
    if kind == "number":
        lo, hi = int(prompt["lo"]), int(prompt["hi"])
        step = max(1, int(prompt.get("step") or 1))
        return rng.choice(range(lo, hi + 1, step)) if hi >= lo else back
    if kind == "confirm":
        return rng.random() < 0.7
    if kind == "multi":
        keys = [o["key"] for o in prompt["options"] if o.get("enabled", True)]
        lo = int(prompt.get("min_count") or 0)
        hi = min(len(keys), int(prompt.get("max_count") or len(keys)))
        return rng.sample(keys, rng.randint(lo, hi)) if hi >= lo else None
    if kind == "dice":
        if "rng" in prompt.get("sources", []):
            return {"source": "rng"}
        sides = int(prompt["sides"])
        return {"source": "typed", "values": [rng.randint(1, sides) for _ in range(int(prompt["count"]))]}
    if kind == "info":
        return True
    return None  # random (the companion draws it), secret_vote (the voter's own phone, see Table), nothing showing


class Table:
    """The scripted phones: the host (paired with the owner code) and a phone per seat that needs one — seat 2's
    from the start, and each voter's once a secret ballot is theirs (a ballot goes to the voter's own phone only) —
    each paired with a PIN the host asked for and seated by the host. Their cookies last across boots, as a real
    phone's do; a phone the box no longer knows (a new game ends the phones of the last one) pairs again."""

    def __init__(self, base: str, owner_code: str, sleep: Callable[[float], None] = time.sleep) -> None:
        self.base = base
        self.host = Phone(base, "host")
        self.seats: dict[int, Phone] = {}  #: the seat phones, by the seat each is meant to hold
        self.owner_code = owner_code
        self.sleep = sleep
        self.over = False  #: the last state read showed the game over
        self.home = False  #: ... or the home menu
        self.flow: list[tuple[str, int]] = []  #: the claim flow's steps and their HTTP statuses, in order
        self.refused: Counter[str] = Counter()  #: answers the companion refused, by its line

    def ready(self) -> dict[str, Any]:
        """The host phone paired and the host (with the owner code, again if the box forgot it); its state."""
        state = self.host.state()
        if not state["me"].get("host"):
            self.host.pair_owner(self.owner_code)
            self.flow.append(("pair owner code", 200))
            state = self.host.state()
        return state

    def seated(self, seat: int) -> tuple[Phone, dict[str, Any]]:
        """The phone for ``seat``, paired (a PIN the host asks for) and holding that seat (it asks, 202; the host
        grants); its ``me``. A request still open from before a cut is granted, not asked again."""
        phone = self.seats.setdefault(seat, Phone(self.base, f"seat {seat} phone"))
        me = phone.state()["me"]
        if not me.get("paired"):
            pin = self.host.new_pin()
            self.flow.append(("host asks a PIN", 200))
            phone.pair(pin)
            self.flow.append(("pair PIN", 200))
            me = phone.state()["me"]
        if me.get("seat") == seat:
            return phone, me
        if me.get("pending") != seat:
            status = phone.claim(seat)
            self.flow.append((f"claim seat {seat}", status))
            if status == 200:  # it held that seat already
                return phone, phone.state()["me"]
        self.host.grant(phone.code, seat, self.sleep)
        self.flow.append((f"grant seat {seat}", 200))
        return phone, phone.state()["me"]

    def new_game(self, timeout: float = NEW_GAME_S) -> None:
        """From the home menu: New game, the first game (the host presses the companion's buttons); back once the
        game shows."""
        self.ready()
        for key in ("ok", "ok"):
            try:
                self.host.press(key)
            except WebDown:  # dropped on the way or not: pressing again could answer the game's first question
                pass
        end = time.monotonic() + timeout
        while self._showing() != "game":
            if time.monotonic() > end:
                raise Refused("starting a new game", 200, f"still not showing after {timeout:.0f} s")
            self.sleep(1.0)
        self.flow.append(("new game", 200))

    def _showing(self) -> str | None:
        try:
            return self.host.snapshot().get("screen")
        except WebDown:  # the loop busy setting the game up: the web view's thread waits
            return None

    def play_one(self, rng: random.Random) -> Ack | None:
        """Answer what shows now; the acknowledged answer, or None (refused, or nothing a phone may answer)."""
        snap = self.ready()["snapshot"] or {}
        self.over, self.home = bool(snap.get("over")), snap.get("screen") == "home"
        prompt = snap.get("prompt") or {}
        seq, player = prompt.get("seq"), prompt.get("player")
        if seq is None or self.over or self.home:
            return None
        if prompt.get("kind") == "secret_vote" and isinstance(player, int):  # the voter's own phone only
            phone, me = self.seated(player)
            ballot = me.get("ballot")
            return self._answer(phone, seq, choose({**ballot, "kind": "choice"}, rng) if ballot else None)
        players = len((snap.get("state") or {}).get("players") or ())
        if players and GUEST_SEAT not in self.seats:  # the game has players: the second phone takes its seat
            self.seated(min(GUEST_SEAT, players))
        if isinstance(player, int) and player in self.seats:  # its seat's question: that phone answers
            phone, _me = self.seated(player)
            return self._answer(phone, seq, choose(prompt, rng))
        return self._answer(self.host, seq, choose(prompt, rng))  # the whole table's, or a seat with no phone

    def _answer(self, phone: Phone, seq: int, value: Any) -> Ack | None:
        if value is None:
            return None
        ok, message = phone.answer(seq, value)
        if not ok:
            self.refused[message] += 1
            return None
        return Ack(seq, value, phone.name)


def resumed_seq(snap: dict[str, Any]) -> int | None:
    """The number of the prompt showing after a boot: every acknowledged answer before it was applied."""
    prompt = snap.get("prompt") or {}
    return prompt.get("seq")


__all__ = ["Ack", "Phone", "Table", "Refused", "WebDown", "choose", "resumed_seq"]
