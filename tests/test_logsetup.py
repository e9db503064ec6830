"""Logging: <N> priorities and no timestamps under journald, a readable format elsewhere, one clear crash line."""
from __future__ import annotations

import io
import logging
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.errors import ConfigError
from companion.loop.logsetup import crash_line, is_journal_stream, log_crash, parse_level, setup_logging


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    chatty = logging.getLogger("transitions").level
    yield
    for h in list(root.handlers):
        if h not in handlers:
            root.removeHandler(h)
    root.setLevel(level)
    logging.getLogger("transitions").setLevel(chatty)


def emit_all(name: str = "companion.test") -> None:
    lg = logging.getLogger(name)
    lg.debug("dbg")
    lg.info("inf")
    lg.warning("wrn")
    lg.error("err")
    lg.critical("crt")


def test_journal_lines_carry_syslog_priorities_and_no_timestamp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOURNAL_STREAM", "8:12345")
    out = io.StringIO()
    setup_logging("debug", stream=out)
    emit_all()
    assert out.getvalue().splitlines() == [
        "<7>companion.test: dbg",
        "<6>companion.test: inf",
        "<4>companion.test: wrn",
        "<3>companion.test: err",
        "<2>companion.test: crt",
    ]


def test_plain_format_is_readable_with_a_timestamp(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    out = io.StringIO()
    setup_logging("info", stream=out)
    logging.getLogger("companion.loop.app").warning("roller offline")
    line = out.getvalue().rstrip("\n")
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d WARNING companion\.loop\.app: roller offline", line), line
    assert not line.startswith("<")


@pytest.mark.parametrize("level, shown", [
    ("debug", ["dbg", "inf", "wrn", "err", "crt"]),
    ("INFO", ["inf", "wrn", "err", "crt"]),
    ("warning", ["wrn", "err", "crt"]),
    (" error ", ["err", "crt"]),
])
def test_level_filters(level: str, shown: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOURNAL_STREAM", "1:2")
    out = io.StringIO()
    setup_logging(level, stream=out)
    emit_all()
    assert [line.split(": ", 1)[1] for line in out.getvalue().splitlines()] == shown


def test_bad_level_is_one_config_line() -> None:
    with pytest.raises(ConfigError) as e:
        parse_level("loud")
    msg = str(e.value)
    assert "\n" not in msg
    assert "[log] level" in msg and "'loud'" in msg and "debug, info, warning, error" in msg


def test_calling_again_replaces_the_handler(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("JOURNAL_STREAM", raising=False)
    first, second = io.StringIO(), io.StringIO()
    setup_logging("info", stream=first)
    setup_logging("info", stream=second)
    logging.getLogger("companion.x").info("once")
    assert first.getvalue() == ""
    assert second.getvalue().count("once") == 1


def test_transitions_chatter_only_at_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOURNAL_STREAM", "1:2")
    out = io.StringIO()
    setup_logging("info", stream=out)
    logging.getLogger("transitions.core").info("Finished processing state x enter callbacks.")
    assert out.getvalue() == ""
    setup_logging("debug", stream=out)
    logging.getLogger("transitions.core").info("Finished processing state x enter callbacks.")
    assert "<6>transitions.core: Finished" in out.getvalue()


def test_journal_stream_must_be_the_stream_we_write_to(tmp_path: Path) -> None:
    with open(tmp_path / "log", "w") as f:
        st = os.fstat(f.fileno())
        assert is_journal_stream(f, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        assert not is_journal_stream(f, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino + 1}"})
        assert not is_journal_stream(f, {"JOURNAL_STREAM": "garbage"})
        assert not is_journal_stream(f, {})
    assert is_journal_stream(io.StringIO(), {"JOURNAL_STREAM": "1:2"})


def fail_deep() -> None:
    raise ZeroDivisionError("division by zero\nsecond line")


def test_crash_ends_with_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JOURNAL_STREAM", "1:2")
    out = io.StringIO()
    setup_logging("warning", stream=out)
    try:
        fail_deep()
    except ZeroDivisionError as e:
        log_crash(e)
    lines = out.getvalue().splitlines()
    assert all(re.match(r"<[0-7]>", line) for line in lines), lines  # tracebacks too: no line at the default prio
    assert any("Traceback (most recent call last)" in line for line in lines)
    assert lines[-1] == ("<2>companion: companion stopped by an unexpected error at test_logsetup.py:"
                         f"{fail_deep.__code__.co_firstlineno + 1} in fail_deep: "
                         "ZeroDivisionError: division by zero second line")


def test_crash_line_without_traceback_or_message() -> None:
    assert crash_line(RuntimeError()) == "companion stopped by an unexpected error: RuntimeError"


def test_crash_in_a_real_process_under_journald_env(tmp_path: Path) -> None:
    """What journald would receive: the whole run, then the crash as the last line, and a non-zero exit."""
    script = (
        "import sys\n"
        "from companion.loop.logsetup import setup_logging, log_crash\n"
        "setup_logging('info')\n"
        "import logging; logging.getLogger('companion.loop.app').info('started')\n"
        "try:\n"
        "    {}['missing']\n"
        "except Exception as e:\n"
        "    log_crash(e); sys.exit(1)\n"
    )
    env = {**os.environ, "JOURNAL_STREAM": "0:0"}
    with open(tmp_path / "stderr", "w+") as err:
        st = os.fstat(err.fileno())
        env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
        proc = subprocess.run([sys.executable, "-c", script], stderr=err, env=env, timeout=60)
        err.seek(0)
        lines = err.read().splitlines()
    assert proc.returncode == 1
    assert lines[0] == "<6>companion.loop.app: started"
    assert lines[-1].startswith("<2>companion: companion stopped by an unexpected error at <string>:6 in <module>: ")
    assert lines[-1].endswith("KeyError: 'missing'")
