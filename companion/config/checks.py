"""The checks each config value goes through: one line naming the key, the bad value and what is allowed.

Used by :mod:`companion.config.load`; pure, imports nothing of the companion but its errors.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from companion.errors import ConfigError

DICE_SOURCES = ("roller", "typed", "rng")


def _fmt(v: Any) -> str:
    """A value as it appears in a message: on one line, and short."""
    text = json.dumps(v, ensure_ascii=False, default=repr) if isinstance(v, str) else repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _plain(text: str) -> bool:
    """No control characters (newlines, tabs, NUL...): what a name or path shown on the screen may hold."""
    return all(c.isprintable() or c == " " for c in text)


class _Table:
    """Reads one TOML table, checking each key; leftover keys are errors."""

    def __init__(self, name: str, raw: Any) -> None:
        if not isinstance(raw, dict):
            raise ConfigError(f"[{name}] must be a table, not {_fmt(raw)}")
        self.name, self.raw = name, raw
        self.used: set[str] = set()

    def get(self, key: str, default: Any, check: Callable[[str, Any], Any]) -> Any:
        self.used.add(key)
        if key not in self.raw:
            return default
        return check(f"[{self.name}] {key}", self.raw[key])

    def done(self, known: tuple[str, ...] | None = None) -> None:
        extra = sorted(set(self.raw) - self.used)
        if extra:
            allowed = ", ".join(sorted(known or self.used))
            raise ConfigError(f"[{self.name}] has no key {extra[0]!r}; known keys: {allowed}")


def _int(lo: int, hi: int, *, none_ok: bool = False) -> Callable[[str, Any], Any]:
    def check(where: str, v: Any) -> Any:
        if none_ok and (v is False or v == "none"):
            return None
        if isinstance(v, str):
            try:
                if not v.isascii():  # int() reads other scripts' digits: "٦٠" would become 60
                    raise ValueError(v)
                v = int(v, 0)
            except ValueError:
                raise ConfigError(f"{where} = {_fmt(v)} is not a number; use a whole number from {lo} to {hi}")
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            extra = ' (or "none")' if none_ok else ""
            raise ConfigError(f"{where} = {_fmt(v)} is not allowed; use a whole number from {lo} to {hi}{extra}")
        return v
    return check


def _float(lo: float, hi: float) -> Callable[[str, Any], Any]:
    def check(where: str, v: Any) -> Any:
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
            raise ConfigError(f"{where} = {_fmt(v)} is not allowed; use a number of seconds from {lo} to {hi}")
        return float(v)
    return check


def _choice(*allowed: str) -> Callable[[str, Any], Any]:
    def check(where: str, v: Any) -> Any:
        if v not in allowed:
            raise ConfigError(f"{where} = {_fmt(v)} is not allowed; use one of " + ", ".join(_fmt(a) for a in allowed))
        return v
    return check


def _rotate(where: str, v: Any) -> Any:
    if type(v) is not int or v not in (0, 2):  # not 2.0, not true
        raise ConfigError(f"{where} = {_fmt(v)} is not allowed; use 0 (as mounted) or 2 (upside down) — "
                          "the screens are laid out for a landscape panel")
    return v


#: the 8-bit forms (the 7-bit address shifted left, write bit 0) some OLED boards print next to the address jumper
EIGHT_BIT_ADDRESSES = {0x78: 0x3C, 0x7A: 0x3D}
EIGHT_BIT_ADDRESS = ("{where} = {value} is the 8-bit address {eight} that some boards print; it means the 7-bit "
                     "address {seven}: set {where} = {seven}")


def _address(where: str, v: Any) -> Any:
    number = v
    if isinstance(v, str):
        try:
            number = int(v, 0)
        except ValueError:
            pass
    if isinstance(number, int) and not isinstance(number, bool) and number in EIGHT_BIT_ADDRESSES:
        raise ConfigError(EIGHT_BIT_ADDRESS.format(where=where, value=_fmt(v), eight=f"0x{number:02X}",
                                                   seven=f"0x{EIGHT_BIT_ADDRESSES[number]:02X}"))
    return _int(0x03, 0x77)(where, v)


def _str(where: str, v: Any) -> Any:
    if not isinstance(v, str) or not v.strip() or not _plain(v):
        raise ConfigError(f"{where} = {_fmt(v)} must be a non-empty string without control characters")
    return v


def _path(where: str, v: Any) -> Any:
    return Path(_str(where, v)).expanduser()


def _pins(where: str, v: Any) -> Any:
    if not isinstance(v, list) or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 27 for p in v):
        raise ConfigError(f"{where} = {_fmt(v)} is not allowed; use a list of BCM pin numbers from 0 to 27")
    if len(set(v)) != len(v):
        raise ConfigError(f"{where} = {_fmt(v)} names a pin twice")
    return tuple(v)


def _sources(where: str, v: Any) -> Any:
    if not isinstance(v, list) or not v or any(s not in DICE_SOURCES for s in v) or len(set(v)) != len(v):
        raise ConfigError(f"{where} = {_fmt(v)} is not allowed; use a list of distinct sources from "
                          + ", ".join(_fmt(s) for s in DICE_SOURCES) + ", in order of preference")
    return tuple(v)


def _names(where: str, v: Any) -> Any:
    if not isinstance(v, list) or not v or not all(isinstance(n, str) and 0 < len(n.strip()) <= 12 and _plain(n)
                                                   for n in v):
        raise ConfigError(f"{where} = {_fmt(v)} is not allowed; use a list of names of 1 to 12 characters "
                          "(no blank names, no newlines)")
    return tuple(n.strip() for n in v)


PIN = _int(0, 27, none_ok=True)


def _key(k: str) -> str:
    return k if _plain(k) and k.strip() == k and k else json.dumps(k, ensure_ascii=False)


def _bind(where: str, v: Any) -> Any:
    import ipaddress

    if v in ("auto", "localhost"):
        return "127.0.0.1" if v == "localhost" else v
    try:
        return str(ipaddress.ip_address(v if isinstance(v, str) else ""))
    except ValueError:
        raise ConfigError(f'{where} = {_fmt(v)} is not allowed; use "auto", "localhost", "0.0.0.0" (the local '
                          'network) or one IP address of this machine') from None


def _bool(where: str, v: Any) -> Any:
    if not isinstance(v, bool):
        raise ConfigError(f"{where} = {_fmt(v)} must be true or false")
    return v


#: the owner code's letters ([web] owner_code): no 0/O or 1/I, so it is read off a sticker and typed without doubt
OWNER_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
OWNER_LENGTH = 8


def owner_code_of(v: Any) -> str | None:
    """``"abcd efgh"``, ``"ABCD-EFGH"`` → ``"ABCDEFGH"``; None when ``v`` is not an owner code."""
    if not isinstance(v, str) or len(v) > 64:
        return None
    code = "".join(c for c in v if c not in " -\t").upper()
    if len(code) != OWNER_LENGTH or any(c not in OWNER_ALPHABET for c in code):
        return None
    return code


def owner_code_problem(v: Any) -> str:
    """Why ``[web] owner_code`` cannot be used, in one line that says nothing of it (it may be the real code with a
    typo, and the line goes to the log and to every phone)."""
    return (f"[web] owner_code in the config is not an owner code ({OWNER_LENGTH} letters and digits from "
            f"{OWNER_ALPHABET}, e.g. \"ABCD-EFGH\"); set aside: until it is fixed, the code 'companion owner-code' "
            "prints pairs the owner's phone")


def _hosts(where: str, v: Any) -> Any:
    if not isinstance(v, list) or not all(isinstance(h, str) and h and len(h) <= 253 and " " not in h for h in v):
        raise ConfigError(f'{where} = {_fmt(v)} is not allowed; use a list of host names, e.g. ["companion.lan"]')
    return tuple(h.lower() for h in v)
