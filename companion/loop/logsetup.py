"""Logging for the companion: readable in a terminal, native in the systemd journal.

Under systemd, stderr is a stream into journald and ``JOURNAL_STREAM`` names it (``device:inode``). There every line
starts with a ``<N>`` syslog priority (journald strips it and files the line at that priority) and carries no
timestamp (journald adds its own). Anywhere else lines look like ``2024-05-01 20:15:02 WARNING companion.loop.app: ...``.

The level comes from config ``[log] level`` (debug, info, warning, error).
"""
from __future__ import annotations

import logging
import os
import sys
import traceback
from typing import IO

from companion.errors import ConfigError

LEVELS: dict[str, int] = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
}

#: syslog priorities (sd-daemon.h): <2> crit, <3> err, <4> warning, <6> info, <7> debug
_PRIORITY: tuple[tuple[int, int], ...] = (
    (logging.CRITICAL, 2),
    (logging.ERROR, 3),
    (logging.WARNING, 4),
    (logging.INFO, 6),
)

PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
PLAIN_DATEFMT = "%Y-%m-%d %H:%M:%S"
JOURNAL_FORMAT = "%(name)s: %(message)s"

#: libraries that log every step at INFO (pytransitions: each state change); shown only at debug
CHATTY_LIBRARIES = ("transitions",)

log = logging.getLogger("companion")


def syslog_priority(levelno: int) -> int:
    for at_least, prio in _PRIORITY:
        if levelno >= at_least:
            return prio
    return 7


class JournalFormatter(logging.Formatter):
    """Prefix every line of a record (tracebacks included) with its ``<N>`` priority; no timestamp."""

    def __init__(self) -> None:
        super().__init__(JOURNAL_FORMAT)

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).splitlines() or [""])


class _OurHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Marks the handler :func:`setup_logging` installed, so calling it again replaces it instead of doubling lines."""


def parse_level(level: str) -> int:
    """The logging level for a config value; :class:`ConfigError` naming ``[log] level`` otherwise."""
    try:
        return LEVELS[str(level).strip().lower()]
    except KeyError:
        allowed = ", ".join(LEVELS)
        raise ConfigError(f"[log] level = {level!r} is not a level; use one of {allowed}") from None


def is_journal_stream(stream: IO[str], environ: dict[str, str] | None = None) -> bool:
    """True when ``stream`` is the journald stream systemd announced in ``JOURNAL_STREAM``.

    If the stream has a file descriptor its device and inode must match (a child whose stderr was redirected
    elsewhere inherits the variable but not the stream); a stream without one (tests) trusts the variable.
    """
    env = os.environ if environ is None else environ
    announced = env.get("JOURNAL_STREAM", "")
    if not announced:
        return False
    try:
        st = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return True
    dev, _, ino = announced.partition(":")
    try:
        return (st.st_dev, st.st_ino) == (int(dev), int(ino))
    except ValueError:
        return False


def setup_logging(level: str, *, stream: IO[str] | None = None) -> logging.Handler:
    """Send every log record at ``level`` or above to ``stream`` (default stderr), journald-style under systemd.

    Safe to call again (for example after the config was re-read): the previous handler is replaced.
    """
    levelno = parse_level(level)
    out = sys.stderr if stream is None else stream
    handler = _OurHandler(out)
    if is_journal_stream(out):
        handler.setFormatter(JournalFormatter())
    else:
        handler.setFormatter(logging.Formatter(PLAIN_FORMAT, PLAIN_DATEFMT))
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _OurHandler)]:
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(levelno)
    for name in CHATTY_LIBRARIES:
        logging.getLogger(name).setLevel(logging.NOTSET if levelno <= logging.DEBUG else logging.WARNING)
    return handler


def crash_line(exc: BaseException) -> str:
    """One line naming the error and where it happened, for the end of the log."""
    where = ""
    tb = traceback.extract_tb(exc.__traceback__) if exc.__traceback__ is not None else None
    if tb:
        frame = tb[-1]
        where = f" at {os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}"
    detail = " ".join(str(exc).split())
    what = f"{type(exc).__name__}: {detail}" if detail else type(exc).__name__
    return f"companion stopped by an unexpected error{where}: {what}"


def log_crash(exc: BaseException) -> None:
    """Log the traceback, then one clear last line (critical) saying what stopped the companion.

    Under systemd the service then exits non-zero and ``Restart=`` brings it back.
    """
    log.error("traceback of the crash follows", exc_info=(type(exc), exc, exc.__traceback__))
    log.critical("%s", crash_line(exc))
    for handler in logging.getLogger().handlers:
        handler.flush()


__all__ = ["setup_logging", "log_crash", "crash_line", "parse_level", "is_journal_stream", "JournalFormatter",
           "LEVELS"]
