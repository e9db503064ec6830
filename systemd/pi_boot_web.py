"""The host's side of `make pi-boot`: a phone on the web view, scripted. Python's standard library only (the host runs
it with its own python3, outside any venv).

It pairs with the PIN the headless service writes to its log, reads ``/api/state`` and answers the prompt showing
with a random valid value through ``POST /api/answer`` — the same requests the page's script makes. An answer counts
as *acknowledged* only when the companion said ``{"ok": true}``: the loop answers that after the input was journaled
(committed and fsync'd) and applied.
"""
from __future__ import annotations

import http.cookiejar
import json
import random
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

TIMEOUT_S = 30.0  #: a request under emulation (the companion answers within its own 5 s, plus the slow network)


class WebDown(Exception):
    """The web view did not answer (the machine is booting, or was just cut)."""


@dataclass(frozen=True)
class Ack:
    seq: int  #: the prompt's number the answer named
    value: Any


class Phone:
    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.csrf = ""
        self.over = False  #: the last state read showed the game over
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def _call(self, path: str, body: dict[str, Any] | None = None, timeout: float = TIMEOUT_S) -> tuple[int, Any]:
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
        status, data = self._call("/api/state", timeout=timeout)
        if status != 200 or not isinstance(data, dict):
            raise WebDown(f"/api/state: HTTP {status}")
        return data

    def snapshot(self, timeout: float = TIMEOUT_S) -> dict[str, Any]:
        return dict(self.state(timeout)["snapshot"] or {})

    def claim(self, seat: int) -> bool:
        """Hold ``seat`` (a secret ballot goes to the voter's own phone)."""
        status, _data = self._call("/api/claim", {"seat": seat})
        return status == 200

    def pair(self, pin: str) -> None:
        status, data = self._call("/api/pair", {"pin": pin})
        if status != 200:
            raise WebDown(f"pairing refused: HTTP {status} {data}")
        self.csrf = data["csrf"]

    def answer(self, seq: int, value: Any) -> tuple[bool, str]:
        status, data = self._call("/api/answer", {"seq": seq, "value": value})
        if isinstance(data, dict) and "ok" in data:
            return bool(data["ok"]), str(data.get("message", ""))
        return False, f"HTTP {status} {data}"


def choose(prompt: dict[str, Any], rng: random.Random) -> Any:
    """A valid-looking answer to ``prompt`` (as /api/state shows it), or None when a phone cannot answer it."""
    kind = prompt.get("kind")
    if kind == "choice":
        keys = [o["key"] for o in prompt["options"] if o.get("enabled", True) and not o.get("in_menu")]
        return rng.choice(keys) if keys else None
    if kind == "number":
        lo, hi = int(prompt["lo"]), int(prompt["hi"])
        step = max(1, int(prompt.get("step") or 1))
        return rng.choice(range(lo, hi + 1, step)) if hi >= lo else None
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
    return None  # random (the companion draws it), secret_vote (the voter's own phone), nothing showing


def play_one(phone: Phone, rng: random.Random) -> Ack | None:
    """Answer what shows now; the acknowledged answer, or None (refused, nothing to answer)."""
    state = phone.state()
    snap, me = state["snapshot"] or {}, state.get("me") or {}
    prompt = snap.get("prompt") or {}
    seq = prompt.get("seq")
    phone.over = bool(snap.get("over"))
    if seq is None or phone.over:
        return None
    if prompt.get("kind") == "secret_vote":  # the voter's own phone: hold that seat, then vote on its ballot
        if me.get("seat") != prompt.get("player"):
            phone.claim(int(prompt["player"]))
            state = phone.state()
            snap, me = state["snapshot"] or {}, state.get("me") or {}
            prompt = snap.get("prompt") or {}
            if prompt.get("seq") != seq:
                return None
        ballot = me.get("ballot")
        value = choose({**ballot, "kind": "choice"}, rng) if ballot else None
    else:
        value = choose(prompt, rng)
    if value is None:
        return None
    ok, _message = phone.answer(seq, value)
    return Ack(seq, value) if ok else None


def resumed_seq(snap: dict[str, Any]) -> int | None:
    """The number of the prompt showing after a boot: every acknowledged answer before it was applied."""
    prompt = snap.get("prompt") or {}
    return prompt.get("seq")


__all__ = ["Ack", "Phone", "WebDown", "choose", "play_one", "resumed_seq"]
