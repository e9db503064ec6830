"""systemd/99-companion-roller.rules: well-formed udev syntax, and it names the roller the way the companion looks for it.

No udevadm is needed (systemd 252's has no `verify`); the rules are parsed here with udev's own grammar:
comma-separated ``KEY[{attr}] OP "value"`` pairs, one rule per line.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "systemd" / "99-companion-roller.rules"

#: the reference roller: a Raspberry Pi Pico running MicroPython (ports/rp2: MICROPY_HW_USB_VID/PID)
PICO_MICROPYTHON = ("2e8a", "0005")

PAIR = re.compile(r'\s*(?P<key>[A-Z_]+)(?:\{(?P<attr>[^}]+)\})?\s*(?P<op>==|!=|\+=|-=|:=|=)\s*"(?P<value>[^"]*)"\s*')
MATCH_KEYS = {"ACTION", "SUBSYSTEM", "SUBSYSTEMS", "KERNEL", "KERNELS", "ATTR", "ATTRS", "ENV", "DRIVERS", "TAG"}
ASSIGN_KEYS = {"SYMLINK", "GROUP", "MODE", "OWNER", "ENV", "TAG", "RUN"}

Rule = list[tuple[str, str | None, str, str]]


def parse(text: str) -> list[Rule]:
    rules: list[Rule] = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        pos, rule = 0, []
        while pos < len(line):
            m = PAIR.match(line, pos)
            assert m, f"line {n}: cannot parse from {line[pos:]!r}"
            key, attr, op, value = m["key"], m["attr"], m["op"], m["value"]
            if op in ("==", "!="):
                assert key in MATCH_KEYS, f"line {n}: {key} cannot be matched"
            else:
                assert key in ASSIGN_KEYS, f"line {n}: {key} cannot be assigned"
            rule.append((key, attr, op, value))
            pos = m.end()
            if pos < len(line):
                assert line[pos - 1] == "," or line[pos] == ",", f"line {n}: pairs must be separated by commas"
                pos += line[pos] == ","
        rules.append(rule)
    return rules


RULE_LIST = parse(RULES.read_text())


def get(rule: Rule, key: str, attr: str | None = None) -> tuple[str, str] | None:
    for k, a, op, v in rule:
        if k == key and a == attr:
            return op, v
    return None


def tty_rule() -> Rule:
    rules = [r for r in RULE_LIST if get(r, "SUBSYSTEM") == ("==", "tty")]
    assert len(rules) == 1
    return rules[0]


def test_parses() -> None:
    assert len(RULE_LIST) == 2


def test_matches_the_pico_running_micropython() -> None:
    r = tty_rule()
    vid, pid = PICO_MICROPYTHON
    assert get(r, "ATTRS", "idVendor") == ("==", vid)
    assert get(r, "ATTRS", "idProduct") == ("==", pid)
    assert get(r, "KERNEL") == ("==", "ttyACM[0-9]*")  # the CDC-ACM ports the service's DeviceAllow admits


def test_stable_symlink_group_and_mode() -> None:
    r = tty_rule()
    from hw.roller.ports import UDEV_LINK

    assert get(r, "SYMLINK") == ("+=", UDEV_LINK) == ("+=", "companion-roller")
    assert get(r, "GROUP") == ("=", "dialout")
    assert get(r, "MODE") == ("=", "0660")


@pytest.mark.parametrize("subsystem", ["tty", "usb"])
def test_modemmanager_keeps_away(subsystem: str) -> None:
    rule = next(r for r in RULE_LIST if get(r, "SUBSYSTEM") == ("==", subsystem))
    assert get(rule, "ENV", "ID_MM_DEVICE_IGNORE") == ("=", "1")


def test_the_group_is_one_the_service_runs_with() -> None:
    unit = (ROOT / "systemd" / "companion.service").read_text()
    groups = re.search(r"^SupplementaryGroups=(.*)$", unit, re.M)
    assert groups and get(tty_rule(), "GROUP") is not None
    assert get(tty_rule(), "GROUP")[1] in groups[1].split()  # type: ignore[index]


def test_documents_how_to_add_another_roller() -> None:
    text = RULES.read_text()
    for needed in ("udevadm info --attribute-walk", "ATTRS{serial}", "companion-roller-2", "[roller] port",
                   "DeviceAllow=char-ttyUSB", "udevadm control --reload-rules"):
        assert needed in text


def test_the_parser_refuses_bad_rules() -> None:
    with pytest.raises(AssertionError):
        parse('SUBSYSTEM=="tty" SYMLINK+="x"')  # no comma
    with pytest.raises(AssertionError):
        parse('SYMLINK=="x"')  # SYMLINK is not a match key here
    with pytest.raises(AssertionError):
        parse("SUBSYSTEM==tty")  # unquoted
