"""Real `companion run` processes forked from one interpreter that has imported the companion already.

A fresh ``python -m companion.cli`` spends most of a short run's CPU importing (aiohttp, Pillow, the games and their
machines); a test that starts dozens of processes pays that once with :class:`Zygote`: one interpreter imports what
`companion run` imports, then forks a child per process, and the child runs ``python -m companion.cli ARGS`` as a
fresh interpreter does — runpy's ``__main__``, its own argv, environment, working folder and stdio, and the
interpreter's own exit (threads joined, atexit handlers run, the status ``SystemExit`` carries). The child is a real
process: its own pid, signal handlers, sockets, files and exit status. What the fork does not prove is the
interpreter's own start (``-m`` finding the package): a test keeps at least one fresh ``python -m companion.cli``.
"""
from __future__ import annotations

import json
import locale
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

PRELOAD = ("companion.cli", "companion.cli.core", "companion.loop.startup", "companion.loop.runtime",
           "companion.loop.app", "companion.loop.logsetup", "companion.loop.sdnotify", "companion.loop.chess_page",
           "companion.web", "companion.web.server", "companion.web.screen", "companion.session.headless",
           "companion.games", "companion.games.toml_game", "companion.ui.menus", "companion.ui.glance",
           "companion.stats.provider", "companion.stats.history", "companion.records.fairness",
           "companion.rules.sovereign_chess", "hw.display", "hw.oled_diff", "PIL.PngImagePlugin", "PIL.GifImagePlugin",
           "PIL.JpegImagePlugin", "zipfile")
"""What `companion run` imports (as ``-X importtime`` lists it; the CLI's command modules too): a module left out is
imported by each child."""

#: the zygote: imports, then one JSON line a request on fd ``r`` (start a child, or reap one), answers on fd ``w``
SERVER = """
import importlib, json, os, sys
r, w = int(sys.argv[1]), int(sys.argv[2])
for name in sys.argv[3:] + list(importlib.import_module("companion.cli").COMMAND_MODULES):
    importlib.import_module(name)
def serve():
    rf, wf = os.fdopen(r, "r"), os.fdopen(w, "w")
    wf.write("ready\\n"); wf.flush()
    for line in rf:
        req = json.loads(line)
        if "reap" in req:
            wf.write(str(os.waitstatus_to_exitcode(os.waitpid(req["reap"], 0)[1])) + "\\n"); wf.flush()
            continue
        pid = os.fork()
        if pid == 0:
            rf.close(); wf.close()
            return req
        wf.write(f"{pid}\\n"); wf.flush()
    return None
req = serve()
if req is not None:
    import runpy
    fds = [os.open(req["stdin"], os.O_RDONLY | os.O_NOCTTY), os.open(req["stdout"], os.O_WRONLY | os.O_NOCTTY),
           os.open(req["stderr"], os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOCTTY, 0o644)]
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(req["cwd"])
    os.environ.clear()
    os.environ.update(req["env"])
    import tempfile
    tempfile.tempdir = None  # as unasked as in a fresh interpreter: gettempdir() reads TMPDIR of this environment
    # the streams a fresh interpreter would make on these descriptors (a terminal's stdout is line-buffered)
    sys.stdin = sys.__stdin__ = open(0, "r", closefd=False)
    sys.stdout = sys.__stdout__ = open(1, "w", closefd=False, buffering=1 if os.isatty(1) else -1)
    sys.stderr = sys.__stderr__ = open(2, "w", closefd=False, buffering=1, errors="backslashreplace")
    sys.argv = ["-m"] + req["args"]
    runpy.run_module("companion.cli", run_name="__main__", alter_sys=True)
"""


class Zygote:
    """One interpreter with the companion imported; :meth:`start` forks `companion run` processes from it."""

    def __init__(self, cwd: Path, env: dict[str, str]) -> None:
        down_r, self._down = os.pipe()
        up, up_w = os.pipe()
        self.proc = subprocess.Popen([sys.executable, "-c", SERVER, str(down_r), str(up_w), *PRELOAD],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, cwd=cwd, env=env,
                                     pass_fds=(down_r, up_w))
        os.close(down_r)
        os.close(up_w)
        self._w, self._r = os.fdopen(self._down, "w"), os.fdopen(up, "r")
        self._lock = threading.Lock()  # one request and its answer at a time
        if self._ask({}, first=True) != "ready":
            raise RuntimeError("the zygote did not start")

    def _ask(self, req: dict[str, Any], first: bool = False) -> str:
        with self._lock:
            if not first:
                self._w.write(json.dumps(req) + "\n")
                self._w.flush()
            answer = self._r.readline().strip()
        if not answer:
            raise RuntimeError(f"the zygote stopped (status {self.proc.poll()})")
        return answer

    def start(self, args: list[str], *, stdin: str, stdout: str, stderr: Path, cwd: Path,
              env: dict[str, str]) -> "Child":
        """``python -m companion.cli ARGS`` forked: stdin and stdout opened from paths (a terminal's), stderr
        appended to a file."""
        pid = int(self._ask({"args": args, "stdin": stdin, "stdout": stdout, "stderr": str(stderr), "cwd": str(cwd),
                             "env": env}))
        return Child(self, pid)

    def run(self, args: list[str], *, input: str | None, cwd: Path, env: dict[str, str],
            timeout: float | None) -> subprocess.CompletedProcess[str]:
        """What ``subprocess.run([python, "-m", "companion.cli", *ARGS], capture_output=True, text=True, ...)``
        gives, forked: stdin the text (or /dev/null), stdout and stderr read back from their own files; past the
        timeout the child is killed and :class:`subprocess.TimeoutExpired` raised, as subprocess.run does."""
        enc = locale.getpreferredencoding(False)  # text=True's encoding, both ways
        with tempfile.TemporaryDirectory(prefix="zygote-run-") as d:
            stdin, out, err = Path(d, "stdin"), Path(d, "stdout"), Path(d, "stderr")
            if input is not None:
                stdin.write_bytes(input.encode(enc))
            out.touch()
            child = self.start(args, stdin=str(stdin) if input is not None else os.devnull, stdout=str(out),
                               stderr=err, cwd=cwd, env=env)
            try:
                status = child.wait(timeout)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
                raise subprocess.TimeoutExpired(["companion", *args], timeout or 0, out.read_bytes(),
                                                err.read_bytes() if err.exists() else b"") from None
            text = [(f.read_bytes() if f.exists() else b"").decode(enc).replace("\r\n", "\n").replace("\r", "\n")
                    for f in (out, err)]
        return subprocess.CompletedProcess(["companion", *args], status, text[0], text[1])

    def close(self) -> None:
        self._w.close()
        self._r.close()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


class Child:
    """A forked process, as much of :class:`subprocess.Popen` as a test needs (it is the zygote's child: the
    zygote reaps it and says its status)."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self.zygote, self.pid = zygote, pid
        self.returncode: int | None = None
        self._fd = os.pidfd_open(pid)

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            if not select.select([self._fd], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(f"pid {self.pid}", timeout or 0)
            self.returncode = int(self.zygote._ask({"reap": self.pid}))
            os.close(self._fd)
        return self.returncode

    def poll(self) -> int | None:
        try:
            return self.wait(0)
        except subprocess.TimeoutExpired:
            return None

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            signal.pidfd_send_signal(self._fd, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)
