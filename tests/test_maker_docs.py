"""What firmware_docs/ (hardware.md and install.md there hold what the README's hardware and install sections
used to) and the README's install and config sections tell a maker, held to the code: the
commands they give exist and their flags parse, the defaults they quote are the code's, the messages they quote are
the code's, and the docs agree with each other (the roller's resistor, the roller's parts)."""
from __future__ import annotations

import argparse
import re
import shlex
import tomllib
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.config.load import (EIGHT_BIT_ADDRESS, ButtonsConfig, Config, DisplayConfig, EncoderConfig, LedsConfig,
                              parse_config)
from companion.errors import ConfigError

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "firmware_docs"
README = (ROOT / "README.md").read_text()
WIRING = (DOCS / "wiring.md").read_text()
ROLLER = (DOCS / "roller" / "README.md").read_text()
HARDWARE = (DOCS / "hardware.md").read_text()
INSTALL = (DOCS / "install.md").read_text()
PARTS = (DOCS / "parts.md").read_text()
MAKER_DOCS = sorted(DOCS.rglob("*.md"))


def readme_section(title: str) -> str:
    return README.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def snippets(text: str, blocks: bool = True) -> list[str]:
    """Every inline code span and (with ``blocks``) every line of every fenced code block."""
    fenced = re.findall(r"^ *```[a-z]*\n(.*?)^ *```$", text, re.M | re.S)
    prose = re.sub(r"^ *```[a-z]*\n.*?^ *```$", "", text, flags=re.M | re.S)
    spans = re.findall(r"`([^`\n]+)`", prose)
    return spans + [line.strip() for b in fenced for line in b.splitlines()] if blocks else spans


def companion_commands(text: str) -> list[list[str]]:
    """The `companion ...` commands in the text, as argv after the program name (`sudo` and `&&` chains allowed)."""
    out = []
    for snippet in snippets(text):
        for part in re.split(r"&&|;|\|", snippet.split(" #", 1)[0]):
            if not re.match(r"(sudo )?companion( |$)", part.strip()):
                continue
            words = shlex.split(part.strip().removeprefix("sudo "))
            if words[1:2] == ["stopped"]:  # "companion stopped by ..." is a log line, not a command
                continue
            out.append(words[1:])
    return out


DOC_COMMANDS = sorted({(doc.relative_to(ROOT).as_posix(), " ".join(argv)) for doc in MAKER_DOCS
                       for argv in companion_commands(doc.read_text())}
                      | {("README.md", " ".join(argv)) for section in ("Install on a Raspberry Pi", "Configuration")
                         for argv in companion_commands(readme_section(section))})


def test_the_docs_give_commands() -> None:
    given = {cmd for _doc, cmd in DOC_COMMANDS}
    assert {"check", "roller listen auto --json"} <= given, given


def subcommand(words: list[str]) -> bool:
    """``words`` name a (sub)command: a mention such as `companion roller listen` in prose."""
    parser = build_parser()
    for word in words:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or word not in subs[0].choices:
            return False
        parser = subs[0].choices[word]
    return True


@pytest.mark.parametrize("doc, command", DOC_COMMANDS)
def test_each_documented_command_parses(doc: str, command: str) -> None:
    argv = shlex.split(command)
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as e:  # argparse's way of saying "no such command or flag" (0 for --help)
        if e.code == 0 and "--help" in argv:
            return
        assert not any(w.startswith("-") for w in argv) and subcommand(argv), (
            f"{doc}: `companion {command}` does not parse (exit {e.code})")
        return
    assert command == "" or getattr(args, "func", None) is not None, f"{doc}: `companion {command}` runs nothing"


def test_an_unknown_command_would_be_caught() -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["roller", "listen", "auto", "--jsn"])


def installer_usage() -> str:
    import subprocess

    return subprocess.run(["bash", str(ROOT / "systemd/install.sh"), "--help"], capture_output=True, text=True,
                          timeout=30, check=True).stdout


def test_installer_flags_in_the_docs_exist() -> None:
    usage = installer_usage()
    texts = [d.read_text() for d in MAKER_DOCS] + [readme_section("Install on a Raspberry Pi")]
    flags = {f for t in texts for s in snippets(t) if "install.sh" in s for f in re.findall(r"(?<=\s)--[a-z]+", s)}
    assert flags >= {"--uninstall"}, flags
    for flag in flags:
        assert f"install.sh {flag}" in usage, f"the docs give install.sh {flag}, its --help does not know it"


# ------------------------------------------------------------------ the README's config block is the defaults

def readme_config_block() -> str:
    section = readme_section("Configuration")
    m = re.search(r"```toml\n(.*?)```", section, re.S)
    assert m, "the Configuration section has no toml block"
    return m[1]


def test_readme_config_block_is_the_defaults() -> None:
    cfg = parse_config(tomllib.loads(readme_config_block()))
    default = Config()
    for name in ("display", "buttons", "encoder", "leds", "roller", "dice", "players", "journal", "log_level",
                 "hardware", "screen"):
        assert getattr(cfg, name) == getattr(default, name), f"the README's [{name}] is not the default"
    assert cfg.games.folder.name == default.games.folder.name


def test_copying_the_readme_block_keeps_the_buttons() -> None:
    cfg = parse_config(tomllib.loads(readme_config_block()))
    assert not cfg.encoder.enabled
    assert (cfg.buttons.up, cfg.buttons.down, cfg.buttons.ok) == (5, 6, 13)


def test_the_commented_encoder_table_is_the_encoder_defaults() -> None:
    block = readme_config_block()
    lines = re.findall(r"^# (\[encoder\]|\w+ = \d+)", block, re.M)
    assert lines[0] == "[encoder]", lines
    cfg = parse_config(tomllib.loads("\n".join(lines)))
    assert cfg.encoder == EncoderConfig(enabled=True)


def test_hardware_doc_does_not_promise_portrait_rotation() -> None:
    assert "Portrait mounting (`rotate` 1 or 3) is refused" in HARDWARE
    assert "portrait 64×128 panel" not in HARDWARE
    for rotate in (1, 3):
        with pytest.raises(ConfigError, match="0 \\(as mounted\\) or 2"):
            parse_config({"display": {"rotate": rotate}})


# ------------------------------------------------------------------ quoted defaults and messages

def test_quoted_defaults_are_the_codes() -> None:
    assert DisplayConfig().address == 0x3C and "address **0x3C**" in WIRING
    assert ButtonsConfig().hold_time == 0.8 and "OK held for 0.8 s\n(`[buttons] hold_time`)" in WIRING
    assert LedsConfig().active_high is True and "the default, `active_high = true` in the `[leds]` table" in WIRING
    assert "active_high = true " in readme_config_block()


@pytest.mark.parametrize("value, eight, seven", [(120, "0x78", "0x3C"), (122, "0x7A", "0x3D"),
                                                  ("0x78", "0x78", "0x3C")])
def test_eight_bit_address_is_refused_with_the_seven_bit_one(value: object, eight: str, seven: str) -> None:
    with pytest.raises(ConfigError) as e:
        parse_config({"display": {"address": value}})
    shown = f'"{value}"' if isinstance(value, str) else str(value)
    assert str(e.value) == EIGHT_BIT_ADDRESS.format(where="[display] address", value=shown, eight=eight, seven=seven)
    assert f"set [display] address = {seven}" in str(e.value)


def test_wiring_quotes_the_eight_bit_address_message() -> None:
    expected = EIGHT_BIT_ADDRESS.format(where="[display] address", value="120", eight="0x78", seven="0x3C")
    assert f"\n  {expected}\n" in WIRING


def test_config_keys_quoted_in_the_docs_are_valid() -> None:
    """Every `key = value` a doc tells a maker to write in a `[section]` table (in words, or as a ```toml block) is
    accepted by the config. (Never `[section] key = value` on one line: that is not TOML as typed, issue #26.)"""
    quoted = set()
    for doc in MAKER_DOCS:
        text = doc.read_text()
        quoted |= {f"[{sec}] {kv}" for kv, sec in re.findall(r"`(\w+ = [^`]+)` in (?:the|its) `\[(\w+)\]` table", text)}
        for block in re.findall(r"```toml\n(.*?)```", text, re.S):
            raw = tomllib.loads("\n".join(line.strip() for line in block.splitlines()))
            quoted |= {f"[{sec}] {k} = {v!r}" for sec, table in raw.items() if isinstance(table, dict)
                       for k, v in table.items()}
    assert "[leds] active_high = false" in quoted and "[display] address = 61" in quoted, quoted
    for snippet in quoted:
        section, assignment = snippet[1:].split("] ", 1)
        key, value = assignment.split(" = ", 1)
        value = value if not value.startswith("'") else '"' + value.strip("'") + '"'
        parse_config(tomllib.loads(f"[{section}]\n{key} = {value}\n"))


# ------------------------------------------------------------------ the docs agree with each other

def resistor_ranges() -> list[tuple[float, float]]:
    def ohms(v: str) -> float:
        return float(v.replace("k", "")) * (1000 if "k" in v else 1)

    found = re.findall(r"\*\*(\d+(?:\.\d+)?k?) Ω – (\d+(?:\.\d+)?) (k?)Ω\*\*", WIRING)
    return [(ohms(lo), ohms(hi + k)) for lo, hi, k in found]


def test_roller_resistor_suits_every_colour_of_the_wiring_table() -> None:
    ranges = resistor_ranges()
    assert len(ranges) == 2, ranges
    assert "**330 Ω suits any colour**" in ROLLER
    assert all(lo <= 330 <= hi for lo, hi in ranges), ranges


def test_parts_list_has_the_whole_roller() -> None:
    roller_parts = PARTS.split("## The dice roller", 1)[1].split("\n## ", 1)[0].lower()
    for part in ("pico", "button", "led", "resistor", "switch", "wire", "box", "usb cable"):
        assert part in roller_parts, f"parts.md's roller list lacks the {part}"


def test_roller_guide_names_every_board() -> None:
    for text in ("RPI_PICO**", "RPI_PICO_W**", "RPI_PICO2**", "`RPI-RP2`", "`RP2350`", "2e8a:000f", "2e8a:0003"):
        assert text in ROLLER
    assert "pip install mpremote\n" not in ROLLER.replace("~/mpremote/bin/pip install mpremote\n", "")


def test_roller_guide_stops_the_service_before_flashing() -> None:
    flashing = ROLLER.split("## Flashing", 1)[1]
    stop = flashing.index("sudo systemctl stop companion")
    assert stop < flashing.index("mpremote connect auto fs cp") and stop < flashing.index("BOOTSEL")


def test_the_roller_guide_is_linked_from_the_build_docs() -> None:
    for name in ("first-boot.md", "parts.md", "wiring.md", "troubleshooting.md"):
        assert "](roller/README.md)" in (DOCS / name).read_text(), f"{name} does not link the roller's guide"


def test_roller_firmware_path_in_the_guide_is_where_the_installer_puts_it() -> None:
    install = (ROOT / "systemd/install.sh").read_text()
    assert "readonly DOCS=$PREFIX/docs" in install and "readonly PREFIX=/opt/companion" in install
    assert 'put_file "$stage/$f" "$DOCS/$f"' in install  # as systemd/install_docs.py lays them out:
    assert '("firmware_docs/roller/*", "roller")' in (ROOT / "systemd/install_docs.py").read_text()
    assert "fs cp /opt/companion/docs/roller/main.py :main.py" in ROLLER


# ------------------------------------------------------------------ what the firmware and the tools decide

#: the Pico's GPIO → physical pin (pins 1–20 down the left edge, 21–40 up the right; grounds left out)
PICO_PIN = {**{gp: pin for gp, pin in zip(range(16), (1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20))},
            16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}


def firmware_constants() -> dict[str, object]:
    """The top-level constants of firmware_docs/roller/main.py, read without running it (it needs `machine`)."""
    import ast

    tree = ast.parse((DOCS / "roller" / "main.py").read_text())
    return {t.id: ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
            for t in node.targets if isinstance(t, ast.Name) and isinstance(node.value, ast.Constant)}


def test_roller_guide_pins_and_timings_are_the_firmwares() -> None:
    fw = firmware_constants()
    source = (DOCS / "roller" / "main.py").read_text()
    fitted = re.search(r"^SWITCH_PIN = None  # (\d+) if a d6/d12 switch is fitted", source, re.M)
    assert fitted, "main.py says which pin a switch goes on"
    switch = int(fitted[1])
    wiring = ROLLER.split("## Wiring", 1)[1].split("\n## ", 1)[0]
    for what, gp in (("button, one leg", fw["BUTTON_PIN"]), ("LED anode (long leg)", fw["LED_PIN"]),
                     ("switch, one side (optional)", switch)):
        assert f"| {what} | GP{gp} (pin {PICO_PIN[gp]})" in wiring, f"the roller's guide wires the {what} elsewhere"
        assert f"GP{gp} ({PICO_PIN[gp]}) ----[" in wiring, f"the roller's sketch draws the {what} elsewhere"
    assert f"set `SWITCH_PIN = {switch}` at the top of `main.py`" in wiring
    assert fw["SWITCH_PIN"] is None and "without it a long press toggles" in ROLLER
    using = ROLLER.split("## Using it", 1)[1].split("\n## ", 1)[0]
    assert f"hold for {fw['LONG_PRESS_MS'] / 1000:g} s (no switch fitted)" in using
    assert f"refused: {fw['MAX_PENDING']} rolls are waiting" in using
    assert "self.led.blink(2 if self.die == \"d12\" else 1, 200, 200)" in source and "two mean d12" in using
    assert "self.led.blink(3, 40, 60)" in source and "three fast blinks" in using
    assert f"[protocol version {fw['PROTOCOL']}](../roller-protocol.md)" in ROLLER


def test_a_changed_firmware_pin_would_be_caught() -> None:
    """The check above is not vacuous: the guide names exactly one button pin."""
    wiring = ROLLER.split("## Wiring", 1)[1]
    assert "| button, one leg | GP15 (pin 20)" not in wiring and "| button, one leg | GP14 (pin 19)" in wiring


def test_first_boot_quotes_checks_line_for_no_roller() -> None:
    """first-boot.md: with `[roller] port = "none"` the roller's line says ok and off."""
    from companion.cli.check import check_roller

    first_boot = (DOCS / "first-boot.md").read_text()
    assert '`port = "none"` in its `[roller]` table' in " ".join(first_boot.split()) and 'the line then says `ok` and "off"' in first_boot
    result = check_roller(parse_config({"roller": {"port": "none"}}))
    assert result.ok and result.line().startswith("ok    roller   off ")


def test_first_boot_quotes_the_sandbox_score() -> None:
    """first-boot.md and install.md give the score `systemd-analyze security` gives the installed unit."""
    import subprocess

    from test_systemd_unit import UNIT, systemd_analyze

    exe = systemd_analyze()
    out = subprocess.run([exe, "security", "--offline=true", "--no-pager", str(UNIT)], capture_output=True, text=True,
                         timeout=60).stdout
    m = re.search(r"Overall exposure level for companion\.service: (\d+\.\d) (\w+)", out)
    assert m, out
    first_boot = (DOCS / "first-boot.md").read_text()
    assert f'shows the sandbox score (about {m[1]}, "{m[2]}"' in first_boot, (m[1], m[2])
    assert f'`systemd-analyze security --offline=true systemd/companion.service`: {m[1]} ("{m[2]}")' in INSTALL


def test_safe_at_boot_names_the_default_led_pins_and_they_are_pulled_down() -> None:
    """wiring.md: every default LED pin is one of GPIO 9–27, which the chip pulls down until the companion starts."""
    leds = LedsConfig()
    pins = sorted([*leds.players, *([leds.status] if leds.status is not None else [])])
    assert all(9 <= p <= 27 for p in pins), pins
    boot = WIRING.split("### Pins, HATs and boot", 1)[1].split("\n## ", 1)[0]
    assert "GPIO 0–8\n  pulled up, GPIO 9–27 pulled down" in boot
    named = re.search(r"All the LED pins \(([^)]*)\) are pulled down", boot)
    assert named, "wiring.md lists the LED pins that are pulled down at boot"
    listed: list[int] = []
    for part in re.split(r",\s+", named[1]):
        lo, _, hi = part.partition("–")
        listed += range(int(lo), int(hi or lo) + 1)
    assert listed == pins


def test_root_only_tools_are_given_with_sudo() -> None:
    """A maker's shell on Raspberry Pi OS: `i2cdetect` is in /usr/sbin (not on a user's PATH) and `dmesg` is
    restricted to root, so every command the docs and the fault messages give for them starts with sudo."""
    from hw import faults

    texts = {doc.name: doc.read_text() for doc in MAKER_DOCS}
    texts["hw/faults.py"] = " ".join(f"`{v}`" for v in vars(faults).values() if isinstance(v, str))
    for name, text in texts.items():
        for snippet in snippets(text) + re.findall(r"'([^'\n]+)'", text):
            for part in re.split(r"&&|;|\|", snippet):
                words = part.split()
                if words and words[0] in ("i2cdetect", "dmesg") and len(words) > 1 or words[:1] == ["dmesg"]:
                    raise AssertionError(f"{name}: `{snippet}` needs sudo in front")


def test_check_is_run_with_the_service_stopped() -> None:
    """The service holds the display, the pins and the roller: every place a maker is told to run `companion check`
    on the installed Pi stops it first (else the check reports GPIO busy) and starts it again after."""
    block = re.search(r"```sh\n(.*?)```", readme_section("Install on a Raspberry Pi"), re.S)
    assert block
    cmds = [line.split("#", 1)[0].strip() for line in block[1].splitlines()]
    at = cmds.index("companion check")
    assert cmds[at - 1] == "sudo systemctl stop companion" and cmds[at + 1] == "sudo systemctl start companion"
    first_boot = (DOCS / "first-boot.md").read_text()
    items = [i for i in re.split(r"\n- \[ \] ", first_boot) if "`companion check`" in i]
    assert len(items) == 2
    for item in items:
        assert "`sudo systemctl stop companion` then `companion check`" in item
        assert "`sudo systemctl start companion`" in item


@pytest.mark.parametrize("game, status", [(None, "home menu"), ("race-to-ten.toml", "playing")])
def test_first_boot_quotes_the_services_status_line(tmp_path: Path, game: str | None, status: str) -> None:
    """`systemctl status companion` shows the STATUS= the loop sends with READY=1, as first-boot.md quotes it."""
    import threading

    from companion.events import QuitEvent
    from test_app import EXAMPLES, make_app

    assert f"`{status}`" in (DOCS / "first-boot.md").read_text().split("`systemctl status companion`", 1)[1][:120]
    sent: list[str] = []

    class Notifier:
        def watchdog_interval(self) -> None:
            return None

        def ready(self, status: str = "") -> None:
            sent.append(status)

        def ping(self) -> None:
            pass

        def stopping(self, status: str = "") -> None:
            pass

    app, _out = make_app(tmp_path, game=str(EXAMPLES / game) if game else None, notifier=Notifier())
    t = threading.Thread(target=app.run)
    t.start()
    app.events.put(QuitEvent())
    t.join(10)
    assert not t.is_alive()
    app.shutdown()
    assert sent == [status]
