"""firmware_docs quote the companion exactly: every fault message of hw/faults.py, word for word, in
troubleshooting.md; and the wiring table agrees with the config's default pins."""
from __future__ import annotations

import inspect
import re
import string
from pathlib import Path

import pytest

from companion.cli.check import check_display, check_roller
from companion.config.load import ButtonsConfig, Config
from hw import faults

DOCS = Path(__file__).resolve().parent.parent / "firmware_docs"
TROUBLE = (DOCS / "troubleshooting.md").read_text()
WIRING = (DOCS / "wiring.md").read_text()

FAULTS = {name: value for name, value in vars(faults).items() if name.isupper() and isinstance(value, str)}
MARKER = re.compile(r"<!-- fault: (\w+) -->")

#: BCM GPIO → physical header pin (the same on every 40-pin Pi)
HEADER = {2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18, 10: 19, 9: 21, 25: 22,
          11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32, 13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40}
GROUND_PINS = {6, 9, 14, 20, 25, 30, 34, 39}


def template_regex(template: str) -> re.Pattern[str]:
    """The message with each {field} standing for any text: the literal words must match exactly."""
    parts: list[str] = []
    seen: set[str] = set()
    for literal, field, _spec, _conv in string.Formatter().parse(template):
        parts.append(re.escape(literal))
        if field is not None:
            parts.append(f"(?P={field})" if field in seen else f"(?P<{field}>.+?)")  # a field used twice is one value
            seen.add(field)
    return re.compile("".join(parts))


def quoted(name: str) -> str:
    """The single line in the first code block after the fault's marker."""
    at = TROUBLE.index(f"<!-- fault: {name} -->")
    m = re.compile(r"^```\n(.*?)\n```$", re.M | re.S).search(TROUBLE, at)
    assert m, f"no code block after the {name} marker"
    assert "\n" not in m[1], f"the {name} message must be quoted on one line"
    nxt = MARKER.search(TROUBLE, at + 1)
    assert nxt is None or m.start() < nxt.start(), f"the code block after {name} belongs to the next fault"
    return m[1]


def test_there_are_faults_to_check() -> None:
    assert {"OLED_NOT_FOUND", "I2C_PERMISSION", "ROLLER_NOT_SEEN", "WRONG_DRIVER"} <= set(FAULTS)


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_each_fault_is_quoted_exactly(name: str) -> None:
    assert TROUBLE.count(f"<!-- fault: {name} -->") == 1, f"troubleshooting.md needs one <!-- fault: {name} -->"
    line = quoted(name)
    m = template_regex(FAULTS[name]).fullmatch(line)
    assert m, f"troubleshooting.md quotes {name} as\n  {line}\nbut the companion prints\n  {FAULTS[name]}"
    assert FAULTS[name].format(**m.groupdict()) == line


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_messages_are_one_plain_line(name: str) -> None:
    assert "\n" not in FAULTS[name]
    assert FAULTS[name] == FAULTS[name].strip()


def test_no_marker_for_a_fault_that_does_not_exist() -> None:
    assert set(MARKER.findall(TROUBLE)) <= set(FAULTS)


def test_example_values_are_the_defaults() -> None:
    """The examples are what a maker with the default config sees."""
    from hw.roller.ports import describe

    oled = template_regex(faults.OLED_NOT_FOUND).fullmatch(quoted("OLED_NOT_FOUND"))
    assert oled and oled["address"] == "0x3C" and oled["port"] == "1"
    for name in ("I2C_PERMISSION", "I2C_BUS_MISSING"):
        m = template_regex(FAULTS[name]).fullmatch(quoted(name))
        assert m and m["port"] == "1"
    seen = template_regex(faults.ROLLER_NOT_SEEN).fullmatch(quoted("ROLLER_NOT_SEEN"))
    assert seen and seen["where"] == describe("auto")
    perm = template_regex(faults.ROLLER_PERMISSION).fullmatch(quoted("ROLLER_PERMISSION"))
    assert perm and perm["port"] == "/dev/companion-roller"
    silent = template_regex(faults.ROLLER_SILENT).fullmatch(quoted("ROLLER_SILENT"))
    wait = inspect.signature(check_roller).parameters["wait"].default
    assert silent and silent["port"] == "/dev/companion-roller" and silent["wait"] == f"{wait:.0f}"
    busy = template_regex(faults.GPIO_BUSY).fullmatch(quoted("GPIO_BUSY"))
    assert busy and busy["where"] == f"[buttons] back = {ButtonsConfig().back}"
    perm_chip = template_regex(faults.GPIO_PERMISSION).fullmatch(quoted("GPIO_PERMISSION"))
    assert perm_chip and perm_chip["chip"] == "gpiochip0"


def test_wrong_driver_is_explained_as_the_end_of_checks_display_line() -> None:
    """The WRONG_DRIVER text is not printed on its own: it ends `companion check`'s display line, as the doc says."""
    from hw.fake_i2c import FakeI2CBus

    line = check_display(Config(), bus=FakeI2CBus()).line()
    section = TROUBLE.split("<!-- fault: WRONG_DRIVER -->", 1)[1].split("\n## ", 2)[1]
    blocks = re.findall(r"^```\n(.*?)\n```$", section, re.M | re.S)
    assert len(blocks) == 2 and blocks[0] == faults.WRONG_DRIVER
    assert blocks[1] == line, "the wrong-driver section quotes companion check's display line"
    assert line.endswith(faults.WRONG_DRIVER)


def test_first_boot_quotes_checks_roller_line() -> None:
    """first-boot.md says what `companion check` prints before the roller is plugged in."""
    from companion.cli.check import Result

    first_boot = (DOCS / "first-boot.md").read_text()
    m = re.search(r"`(FAIL  roller   [^`(]*)\(…\)`", first_boot)
    assert m, "first-boot.md quotes the roller's FAIL line"
    line = Result("roller", False, faults.ROLLER_NOT_SEEN.format(where="(x)")).line()
    assert line.startswith(m[1]) and "exits with status 1" in first_boot


@pytest.mark.parametrize("heading", ["OLED not found at 0x3C", "Permission denied on /dev/i2c-1", "Roller not seen",
                                     "Wrong display driver"])
def test_the_issues_four_faults_have_a_section(heading: str) -> None:
    assert f"\n## {heading}\n" in TROUBLE


def test_a_changed_message_is_caught() -> None:
    """The check is not vacuous: one changed word breaks the match."""
    changed = faults.OLED_NOT_FOUND.replace("wiring", "cabling")
    assert not template_regex(changed).fullmatch(quoted("OLED_NOT_FOUND"))


# ------------------------------------------------------------------ wiring.md

def wiring_rows() -> list[list[str]]:
    table = WIRING.split("## The table", 1)[1].split("\n## ", 1)[0]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in table.splitlines()
            if line.startswith("|")]
    return rows[2:]  # header and rule


def row_for(part: str) -> list[str]:
    found = [r for r in wiring_rows() if r[0] == part]
    assert len(found) == 1, f"wiring.md needs one row for {part!r}"
    return found[0]


def gpio_and_pin(row: list[str]) -> tuple[int, int]:
    g = re.fullmatch(r"GPIO (\d+)", row[2])
    assert g, row
    return int(g[1]), int(row[3])


def expected_rows() -> dict[str, int]:
    from companion.config.load import ButtonsConfig, EncoderConfig, LedsConfig

    b, e, leds = ButtonsConfig(), EncoderConfig(), LedsConfig()
    rows = {"Button UP": b.up, "Button DOWN": b.down, "Button OK": b.ok, "Button BACK": b.back,
            "Encoder (instead of UP/DOWN/OK)": e.a, "Encoder": None, "LED status": leds.status}
    rows.update({f"LED player {i}": pin for i, pin in enumerate(leds.players, 1)})
    return {k: v for k, v in rows.items() if v is not None}


def test_wiring_table_uses_the_config_defaults() -> None:
    from companion.config.load import EncoderConfig

    for part, gpio in expected_rows().items():
        assert gpio_and_pin(row_for(part))[0] == gpio, f"{part}: wiring.md and companion/config/load.py disagree"
    encoder = [r for r in wiring_rows() if r[0].startswith("Encoder")]
    assert {r[1]: gpio_and_pin(r)[0] for r in encoder} == {"A (CLK)": EncoderConfig().a, "B (DT)": EncoderConfig().b,
                                                           "push (SW)": EncoderConfig().push}


def test_wiring_table_header_pins_match_the_gpio() -> None:
    for row in wiring_rows():
        if row[2].startswith("GPIO"):
            gpio, pin = gpio_and_pin(row)
            assert HEADER[gpio] == pin, f"{row[0]}: GPIO {gpio} is header pin {HEADER[gpio]}, not {pin}"


def test_grounds_named_in_the_table_are_ground_pins() -> None:
    for row in wiring_rows():
        for pin in re.findall(r"GND \(pin (\d+)", row[4]):
            assert int(pin) in GROUND_PINS, f"{row[0]}: pin {pin} is not a ground pin"


def test_no_pin_is_used_twice() -> None:
    gpios = [gpio_and_pin(r)[0] for r in wiring_rows() if r[2].startswith("GPIO")]
    assert len(gpios) == len(set(gpios))


def test_header_map_agrees_with_the_table() -> None:
    header = WIRING.split("## Header map", 1)[1]
    for row in wiring_rows():
        if row[2].startswith("GPIO"):
            gpio, pin = gpio_and_pin(row)
            assert re.search(rf"GPIO {gpio}\s+\({pin}\)|\({pin}\) GPIO {gpio}\b", header), f"GPIO {gpio} pin {pin}"


def test_links_between_the_docs_resolve() -> None:
    docs = sorted(DOCS.rglob("*.md"))
    assert DOCS / "roller" / "README.md" in docs
    for doc in docs:
        for target, anchor in re.findall(r"\]\(([\w./-]+\.md)(?:#([\w-]+))?\)", doc.read_text()):
            path = (doc.parent / target).resolve()
            assert path.exists(), f"{doc.name} links to missing {target}"
            if anchor:
                headings = [re.sub(r"[^\w\- ]", "", h).strip().lower().replace(" ", "-")
                            for h in re.findall(r"^#+ (.+)$", path.read_text(), re.M)]
                assert anchor in headings, f"{doc.name} links to missing #{anchor} in {target}"
