"""The two interpreters the roller firmware runs in for the tests, behind one small interface.

:class:`CPythonEngine` imports the firmware here, with this folder's stand-ins for ``machine``, ``micropython`` and
MicroPython's ``time`` (:mod:`utime`), and runs its ``main()`` in the main thread as the Pico would.
:class:`NodeEngine` runs it in MicroPython's own interpreter (the WebAssembly port, under Node.js: mpy/runner.mjs),
stepped every LOOP_MS. Either way the test drives pins, reads the LED and moves the clock the same way, and the
bytes the host sent arrive through :meth:`feed`.
"""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Callable

from link import UsbLink  # type: ignore[import-not-found]  # run.py puts this folder first on sys.path

HERE = Path(__file__).resolve().parent
MPY = HERE / "mpy"
Halted = Callable[[str], None]
#: seconds a tap waits for the firmware to step on past its MS (frozen or halted firmware: the tap says so)
TAP_TIMEOUT = 10.0


class CPythonEngine:
    def __init__(self, firmware: str, link: UsbLink, opts: dict[str, Any], halted: Halted) -> None:
        import fw_board  # type: ignore[import-not-found]
        import fw_rng  # type: ignore[import-not-found]
        import micropython  # type: ignore[import-not-found]
        import utime  # type: ignore[import-not-found]

        self.board, self.mp, self.clock, self.link, self._halted = fw_board, micropython, utime, link, halted
        utime.set_start(opts["ticks_start"])
        sys.modules["time"] = utime  # the firmware's `import time` is MicroPython's
        fw_rng.seed(opts["seed"])
        os.urandom = fw_rng.urandom
        self.rx_r, self.rx_w = os.pipe()
        spec = importlib.util.spec_from_file_location("main", firmware)
        if spec is None or spec.loader is None:
            raise SystemExit(f"cannot load {firmware}")
        self.mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(self.mod)
        for name, value in opts["sets"]:
            setattr(self.mod, name, value)
        for pin, level in opts["pins"]:
            self.pin(pin, level)
        self.booted = threading.Event()  # set once the firmware's boot() has read the button and said HELLO
        boot = getattr(self.mod, "boot")

        def booted() -> Any:
            try:
                return boot()
            finally:
                self.booted.set()

        setattr(self.mod, "boot", booted)  # (main() looks boot up when it runs)
        self._tap: Any = None  # the fw_tap.Tap under way, moved on after each of the firmware's steps
        self._tapped = threading.Event()
        step = getattr(self.mod, "step")

        def stepped(roller: Any, *rest: Any) -> None:
            step(roller, *rest)
            if self._tap is not None and self._tap.step(roller.last_tick):
                self._tap = None
                self._tapped.set()

        setattr(self.mod, "step", stepped)  # (and step at each pass of its loop)

    def run(self) -> None:
        """In the main thread: the firmware's stdin is a pipe the relay fills, its stdout the link."""
        engine = self

        class Stdio:
            buffer: Any = None

            def fileno(self) -> int:
                return engine.rx_r

            def read(self, n: int = 1) -> bytes:
                b = os.read(engine.rx_r, n)
                if b == b"\x03" and engine.mp.kbd_intr_char == 3:
                    raise KeyboardInterrupt  # rp2's USB CDC driver does this with Ctrl-C unless kbd_intr(-1)
                return b

            def write(self, data: bytes) -> int:
                return int(engine.link.write(data))

            def flush(self) -> None:
                pass

        stdio = Stdio()
        stdio.buffer = stdio
        sys.stdin = sys.stdout = stdio  # type: ignore[assignment]
        try:
            self.mod.main()
            why = "safe mode"
        except BaseException as e:  # noqa: BLE001 - a firmware that stops is what the test wants to see
            why = f"{type(e).__name__}: {e}"
        self._halted(why)
        while True:  # a board sitting at its REPL
            time.sleep(3600)

    def feed(self, data: bytes) -> None:
        os.write(self.rx_w, data)

    def pin(self, pin: object, level: int) -> None:
        with self.board.lock:
            self.board.inputs[pin] = level

    def leds(self, pin: object) -> int:
        with self.board.lock:
            return int(self.board.rising_edges.get(pin, 0))

    def tap(self, pin: object, ms: int, debounce_ms: int, fast: bool = False) -> bool:
        """Press and release ``pin`` as the firmware's own steps see it (fw_tap); False if it stopped stepping."""
        import fw_tap  # type: ignore[import-not-found]

        self._tapped.clear()
        self._tap = fw_tap.Tap(pin, ms, debounce_ms, fast)
        if self._tapped.wait(TAP_TIMEOUT + ms / 1000):
            return True
        self._tap = None
        return False

    def freeze(self, on: bool) -> None:
        self.clock.freeze(on)

    def advance(self, ms: int) -> None:
        self.clock.advance(ms)


class NodeEngine:
    def __init__(self, firmware: str, link: UsbLink, opts: dict[str, Any], halted: Halted) -> None:
        cmd = ["node", str(MPY / "runner.mjs"), firmware, "--ticks-start", str(opts["ticks_start"]),
               "--seed", str(opts["seed"])]
        for name, value in opts["sets"]:
            cmd += ["--set", f"{name}={json.dumps(value)}"]
        for pin, level in opts["pins"]:
            cmd += ["--pin", f"{json.dumps(pin)}={level}"]
        self.link, self._halted = link, halted
        self._replies: list[str] = []
        self._cv = threading.Condition()
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        threading.Thread(target=self._pump, daemon=True).start()
        self._wait_reply("ready")  # runner.mjs says it once boot() has run
        self.booted = threading.Event()
        self.booted.set()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            word, _, rest = line.strip().partition(" ")
            if word == "tx":
                self.link.write(bytes.fromhex(rest))
            elif word == "halted":
                self._halted(rest)
            else:
                with self._cv:
                    self._replies.append(line.strip())
                    self._cv.notify_all()
        self._halted("node exited")

    def _wait_reply(self, prefix: str | tuple[str, ...], timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        with self._cv:
            while True:
                for i, r in enumerate(self._replies):
                    if r.startswith(prefix):
                        return self._replies.pop(i)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"runner.mjs did not answer {prefix!r}")
                self._cv.wait(left)

    def _send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _call(self, line: str) -> str:
        self._send(line)
        return self._wait_reply("leds" if line.startswith("leds") else "ok " + line.split()[0])

    def run(self) -> None:
        self.proc.wait()
        while True:
            time.sleep(3600)

    def feed(self, data: bytes) -> None:
        self._send("rx " + data.hex())

    def pin(self, pin: object, level: int) -> None:
        self._call(f"pin {json.dumps(pin)} {level}")

    def leds(self, pin: object) -> int:
        return int(self._call(f"leds {json.dumps(pin)}").split()[1])

    def tap(self, pin: object, ms: int, debounce_ms: int, fast: bool = False) -> bool:
        self._send(f"tap {json.dumps(pin)} {ms} {debounce_ms} {int(fast)}")  # runner.mjs moves it on after each step
        try:
            return self._wait_reply(("ok tap", "error tap"), TAP_TIMEOUT + ms / 1000) == "ok tap"
        except TimeoutError:
            self._call("untap")  # (an `ok tap` it sent meanwhile came before `ok untap`: dropped)
            with self._cv:
                self._replies = [r for r in self._replies if r != "ok tap"]
            return False

    def freeze(self, on: bool) -> None:
        self._call("freeze" if on else "thaw")

    def advance(self, ms: int) -> None:
        self._call(f"advance {ms}")


ENGINES = {"cpython": CPythonEngine, "micropython": NodeEngine}
