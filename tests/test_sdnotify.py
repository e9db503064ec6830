"""sd_notify against a fake NOTIFY_SOCKET: what systemd would receive, and silence outside systemd."""
from __future__ import annotations

import logging
import os
import shutil
import socket
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.loop.sdnotify import Notifier


class FakeSystemd:
    """A bound unix datagram socket standing in for /run/systemd/notify."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(address)
        self.sock.settimeout(2)

    @property
    def env_value(self) -> str:
        return "@" + self.address[1:] if self.address.startswith("\0") else self.address

    def receive(self) -> dict[str, str]:
        data = self.sock.recv(4096).decode("utf-8")
        return dict(line.split("=", 1) for line in data.split("\n"))

    def nothing_pending(self) -> bool:
        self.sock.setblocking(False)
        try:
            self.sock.recv(4096)
        except BlockingIOError:
            return True
        finally:
            self.sock.settimeout(2)
        return False


@pytest.fixture
def path_socket() -> Iterator[FakeSystemd]:
    # a short directory: unix socket paths are limited to 107 bytes
    d = tempfile.mkdtemp(prefix="sdn", dir="/tmp")
    fake = FakeSystemd(os.path.join(d, "notify"))
    yield fake
    fake.sock.close()
    shutil.rmtree(d)


@pytest.fixture
def abstract_socket() -> Iterator[FakeSystemd]:
    fake = FakeSystemd("\0companion-test-" + uuid.uuid4().hex)
    yield fake
    fake.sock.close()


def test_ready_status_ping_stopping_reach_the_socket(path_socket: FakeSystemd) -> None:
    env = {"NOTIFY_SOCKET": path_socket.env_value, "WATCHDOG_USEC": "20000000", "WATCHDOG_PID": str(os.getpid())}
    with Notifier.from_env(env) as n:
        assert n.enabled
        n.ready("playing\nCatan")
        assert path_socket.receive() == {"READY": "1", "STATUS": "playing Catan"}
        n.status("round 3, Anna to play")
        assert path_socket.receive() == {"STATUS": "round 3, Anna to play"}
        n.ping()
        assert path_socket.receive() == {"WATCHDOG": "1"}
        n.stopping()
        assert path_socket.receive() == {"STOPPING": "1"}
    assert path_socket.nothing_pending()


def test_abstract_namespace_socket(abstract_socket: FakeSystemd) -> None:
    n = Notifier.from_env({"NOTIFY_SOCKET": abstract_socket.env_value})
    n.ready()
    assert abstract_socket.receive() == {"READY": "1"}
    n.close()


def test_from_env_reads_the_real_environment(path_socket: FakeSystemd, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", path_socket.env_value)
    monkeypatch.setenv("WATCHDOG_USEC", "3000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    n = Notifier.from_env()
    assert n.watchdog_interval() == pytest.approx(1.5)
    n.ping()
    assert path_socket.receive() == {"WATCHDOG": "1"}
    n.close()


def test_watchdog_interval_is_half_of_watchdog_usec(path_socket: FakeSystemd) -> None:
    base = {"NOTIFY_SOCKET": path_socket.env_value}
    assert Notifier.from_env({**base, "WATCHDOG_USEC": "20000000"}).watchdog_interval() == pytest.approx(10.0)
    assert Notifier.from_env({**base, "WATCHDOG_USEC": "20000000",
                              "WATCHDOG_PID": str(os.getpid())}).watchdog_interval() == pytest.approx(10.0)


@pytest.mark.parametrize("extra", [
    {},                                                          # no WatchdogSec
    {"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "1"},          # meant for another process
    {"WATCHDOG_USEC": "0"},
    {"WATCHDOG_USEC": "soon"},
    {"WATCHDOG_USEC": "20000000", "WATCHDOG_PID": "me"},
])
def test_no_watchdog_means_no_interval_and_no_ping(path_socket: FakeSystemd, extra: dict[str, str]) -> None:
    n = Notifier.from_env({"NOTIFY_SOCKET": path_socket.env_value, **extra})
    assert n.watchdog_interval() is None
    n.ping()
    assert path_socket.nothing_pending()
    n.ready()  # the socket itself still works
    assert path_socket.receive() == {"READY": "1"}
    n.close()


def test_watchdog_without_notify_socket_is_ignored() -> None:
    n = Notifier.from_env({"WATCHDOG_USEC": "20000000"})
    assert not n.enabled
    assert n.watchdog_interval() is None


@pytest.mark.parametrize("env", [{}, {"NOTIFY_SOCKET": ""}, {"NOTIFY_SOCKET": "vsock:2:1234"}])
def test_everything_is_a_no_op_outside_systemd(env: dict[str, str]) -> None:
    n = Notifier.from_env(env)
    assert not n.enabled
    assert n.watchdog_interval() is None
    n.ready("x")
    n.status("y")
    n.ping()
    n.stopping()
    n.close()


def test_a_vanished_socket_warns_once_and_never_raises(caplog: pytest.LogCaptureFixture) -> None:
    d = Path(tempfile.mkdtemp(prefix="sdn", dir="/tmp"))
    try:
        n = Notifier.from_env({"NOTIFY_SOCKET": str(d / "gone"), "WATCHDOG_USEC": "1000000"})
        with caplog.at_level(logging.WARNING, logger="companion.loop.sdnotify"):
            n.ready()
            n.ping()
            n.ping()
        warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
        assert len(warnings) == 1
        assert "cannot notify systemd" in warnings[0].getMessage()
    finally:
        shutil.rmtree(d)


def test_reconnects_after_the_socket_comes_back() -> None:
    d = tempfile.mkdtemp(prefix="sdn", dir="/tmp")
    try:
        address = os.path.join(d, "notify")
        n = Notifier.from_env({"NOTIFY_SOCKET": address})
        n.status("nobody listening yet")
        fake = FakeSystemd(address)
        n.ready()
        assert fake.receive() == {"READY": "1"}
        fake.sock.close()
        n.close()
    finally:
        shutil.rmtree(d)
