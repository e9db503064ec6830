"""`make pi-boot`'s pieces that run in seconds: the script's arguments, the initrd step on a made-up module tree,
shellcheck, the test hooks (off by default), the host's web player. The boots themselves run only in `make pi-boot`.
"""
from __future__ import annotations

import itertools
import os
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import pytest

from companion.events import Key, KeyEvent, TickEvent
from companion.loop.testhooks import ENV, HANG, HookWatcher, hooks_folder, read_keys

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "systemd" / "pi-boot.sh"
AGENT = ROOT / "systemd" / "pi-boot-agent.sh"
sys.path.insert(0, str(ROOT / "systemd"))
import pi_boot_web  # noqa: E402


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize("args, says", [
    (["--cuts", "x"], "--cuts needs a whole number, not 'x'"),
    (["--cuts"], "--cuts needs a number"),
    (["--cuts", "0"], "--cuts 0: at least 1"),
    (["--port", "80"], "--port 80: use a port from 1024 to 65535"),
    (["--smp", "0"], "--smp 0: use 1 to 8"),
    (["--frobnicate"], "unknown option '--frobnicate'"),
])
def test_bad_arguments_are_one_line(args: list[str], says: str) -> None:
    proc = run(*args)
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"pi-boot: {says}" or proc.stderr.strip().startswith(f"pi-boot: {says}")
    assert proc.stderr.count("\n") == 1


def test_help_names_every_option() -> None:
    proc = run("--help")
    assert proc.returncode == 0
    for opt in ("--cuts", "--port", "--seed", "--smp", "--dry-run", "cannot show"):
        assert opt in proc.stdout


@pytest.mark.skipif(shutil.which("qemu-system-aarch64") is None or shutil.which("busybox") is None,
                    reason="qemu-system-aarch64 or busybox not installed")
def test_dry_run_prints_the_machine() -> None:
    proc = run("--dry-run", "--port", "18123", "--cuts", "21", "--seed", "5")
    assert proc.returncode == 0, proc.stderr
    assert "qemu-system-aarch64 -M virt -cpu cortex-a53" in proc.stdout and "-accel tcg" in proc.stdout
    assert "hostfwd=tcp:127.0.0.1:18123-:18123" in proc.stdout
    assert "21 power cuts, seed 5" in proc.stdout


def _sourced(cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", f'source "{SCRIPT}"; {cmd}'], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PI_BOOT_SOURCE_ONLY": "1"})


def _fake_modules(tmp_path: Path) -> Path:
    d = tmp_path / "modules"
    kernel = d / "kernel"
    for rel in ("fs/ext4/ext4.ko", "fs/jbd2/jbd2.ko", "fs/mbcache.ko", "lib/crc16.ko", "crypto/crc32c_generic.ko",
                "drivers/block/virtio_blk.ko", "drivers/net/virtio_net.ko", "drivers/net/net_failover.ko",
                "net/core/failover.ko", "drivers/unused.ko"):
        (kernel / rel).parent.mkdir(parents=True, exist_ok=True)
        (kernel / rel).write_bytes(b"\x7fELF fake " + rel.encode())
    (d / "modules.dep").write_text(
        "kernel/fs/ext4/ext4.ko: kernel/lib/crc16.ko kernel/fs/mbcache.ko kernel/fs/jbd2/jbd2.ko\n"
        "kernel/fs/jbd2/jbd2.ko:\nkernel/fs/mbcache.ko:\nkernel/lib/crc16.ko:\nkernel/crypto/crc32c_generic.ko:\n"
        "kernel/drivers/block/virtio_blk.ko:\n"
        "kernel/drivers/net/virtio_net.ko: kernel/drivers/net/net_failover.ko kernel/net/core/failover.ko\n"
        "kernel/drivers/net/net_failover.ko: kernel/net/core/failover.ko\nkernel/net/core/failover.ko:\n"
        "kernel/drivers/unused.ko:\n")
    return d


def test_module_closure_puts_dependencies_first(tmp_path: Path) -> None:
    proc = _sourced(f'module_closure "{_fake_modules(tmp_path)}" "${{INITRD_MODULES[@]}}"')
    assert proc.returncode == 0, proc.stderr
    order = [Path(p).stem for p in proc.stdout.split()]
    assert "unused" not in order and len(order) == len(set(order))
    for mod, deps in {"ext4": ("crc16", "mbcache", "jbd2"), "virtio_net": ("net_failover", "failover"),
                      "net_failover": ("failover",)}.items():
        assert all(order.index(d) < order.index(mod) for d in deps), order
    assert {"virtio_blk", "crc32c_generic"} <= set(order)  # the modules the kernel has; virtio_pci is built in


@pytest.mark.skipif(not all(shutil.which(t) for t in ("busybox", "cpio", "gzip")), reason="busybox or cpio missing")
def test_initrd_holds_init_busybox_and_the_modules_in_order(tmp_path: Path) -> None:
    out = tmp_path / "initrd.gz"
    proc = _sourced(f'make_initrd "{_fake_modules(tmp_path)}" "{out}"')
    assert proc.returncode == 0, proc.stderr
    listing = subprocess.run(f'gzip -dc "{out}" | cpio -t --quiet', shell=True, capture_output=True, text=True,
                             timeout=30).stdout.split()
    assert {"init", "bin/busybox", "modules/order", "modules/ext4.ko", "modules/virtio_blk.ko"} <= set(listing)
    unpacked = tmp_path / "x"
    unpacked.mkdir()
    subprocess.run(f'gzip -dc "{out}" | cpio -id --quiet', shell=True, cwd=unpacked, check=True, timeout=30)
    order = (unpacked / "modules/order").read_text().split()
    assert order.index("jbd2.ko") < order.index("ext4.ko")
    init = (unpacked / "init").read_text()
    assert "switch_root /newroot /sbin/init" in init and os.access(unpacked / "init", os.X_OK)


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
@pytest.mark.parametrize("script, shell", [(SCRIPT, "bash"), (AGENT, "sh")])
def test_shellcheck_clean(script: Path, shell: str) -> None:
    proc = subprocess.run(["shellcheck", "-s", shell, str(script)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout


# ------------------------------------------------------------------ the test hooks
def test_hooks_are_off_by_default() -> None:
    assert hooks_folder({}) is None and hooks_folder({ENV: " "}) is None
    unit = (ROOT / "systemd" / "companion.service").read_text()
    assert ENV not in unit  # only pi-boot's drop-in in the emulated machine sets it


def test_hooks_press_keys_and_hang_once(tmp_path: Path) -> None:
    got: list[object] = []
    hooks = HookWatcher(tmp_path, got.append)
    (tmp_path / "keys").write_text("down\n# a comment\nOK\nwiggle\nback\n")
    hooks.poll()
    assert got == [KeyEvent(Key.DOWN), KeyEvent(Key.OK), KeyEvent(Key.BACK)]
    assert not (tmp_path / "keys").exists()  # read once
    (tmp_path / "hang").touch()
    hooks.poll()
    hooks.poll()
    assert got[-1] == TickEvent(HANG) and got.count(TickEvent(HANG)) == 1
    assert read_keys("hold\n") == [KeyEvent(Key.HOLD)]


def test_an_ordinary_tick_never_hangs() -> None:
    assert TickEvent().reason != HANG


# ------------------------------------------------------------------ the host's player
@pytest.mark.parametrize("prompt, check", [
    ({"kind": "choice", "options": [{"key": "a", "enabled": False}, {"key": "b", "enabled": True}]},
     lambda v: v == "b"),
    ({"kind": "number", "lo": 2, "hi": 8, "step": 2}, lambda v: v in (2, 4, 6, 8)),
    ({"kind": "confirm"}, lambda v: isinstance(v, bool)),
    ({"kind": "multi", "options": [{"key": "x"}, {"key": "y"}], "min_count": 1, "max_count": 1},
     lambda v: v in (["x"], ["y"])),
    ({"kind": "dice", "sources": ["typed"], "sides": 6, "count": 2},
     lambda v: v["source"] == "typed" and len(v["values"]) == 2 and all(1 <= x <= 6 for x in v["values"])),
    ({"kind": "dice", "sources": ["typed", "rng"], "sides": 6, "count": 2}, lambda v: v == {"source": "rng"}),
    ({"kind": "random"}, lambda v: v is None),
    ({"kind": "choice", "back": "back", "options": [{"key": "move", "enabled": False}]}, lambda v: v == "back"),
    ({"kind": "choice", "back": "back", "options": [{"key": "go", "enabled": True}]}, lambda v: v == "go"),
    ({"kind": "number", "lo": 3, "hi": 2, "back": "none"}, lambda v: v == "none"),
])
def test_player_answers_within_the_prompt(prompt: dict[str, object], check: object) -> None:
    assert check(pi_boot_web.choose(prompt, random.Random(3)))  # type: ignore[operator]


def test_player_says_web_down_when_nothing_listens() -> None:
    with pytest.raises(pi_boot_web.WebDown):
        pi_boot_web.Phone("http://127.0.0.1:9").snapshot(timeout=2)


# ------------------------------------------------------------------ the harness's reading of the machine
import pi_boot  # noqa: E402
import pi_boot_console  # noqa: E402
from companion.cli.check import Result  # noqa: E402

SERIAL = (  # what the guest's console gives: systemd's status lines, escape codes, carriage returns, the agent's lines
    "[  OK  ] Started companion.service - Sovereign Companion.\r\n"
    "PIBOOT ready uptime_s=80.1 first_frame_s=79.0 start_to_ready_s=12.0 user=companion nrestarts=0\r\n"
    "\x1b[KPIBOOT hang-start nrestarts=0 game 5 5\r\n"
    "\r\x1b[K[\x1b[0;1;31m*\x1b[0m] A start job is running for companion.service (12s / 1min 30s)"
    "\r\x1b[KPIBOOT watchdog restarted=yes nrestarts=1 hang_to_active_s=40.2 watchdog_timeouts_logged=1\r\n"
    "\x1b[0;32mPIBOOT\x1b[0m resumed game 9 9\r\n"
    "PIBOOT check| FAIL  roller   no dice roller found (looked for /dev/companion-roller)\n")


def test_the_agents_lines_are_read_behind_the_consoles_escape_codes(tmp_path: Path) -> None:
    machine = object.__new__(pi_boot_console.Machine)  # its log only: no qemu
    machine.log = tmp_path / "serial.log"
    machine.log.write_text(SERIAL)
    lines = machine.lines()
    assert [line.split()[1] for line in lines] == ["ready", "hang-start", "watchdog", "resumed", "check|"]
    assert pi_boot_console.fields(lines[2]) == {"restarted": "yes", "nrestarts": "1", "hang_to_active_s": "40.2",
                                        "watchdog_timeouts_logged": "1"}
    assert all("\x1b" not in line and "\r" not in line for line in lines)


def _check_lines(*results: Result) -> list[str]:
    return ["PIBOOT check| " + r.line() for r in results]  # as the agent prefixes `companion check`'s lines


def test_checks_roller_line_is_read_by_its_part_not_its_verdict() -> None:
    roller = Result("roller", False, "no dice roller found (looked for /dev/companion-roller)")
    lines = _check_lines(Result("display", True, 'none (hardware = "headless")'), Result("gpio", True, "not used"),
                         roller)
    assert pi_boot_console.check_failures(lines) == ["roller"]
    assert pi_boot_console.check_holds("1", ["roller"])  # no USB in the emulated machine: expected
    failing = _check_lines(Result("display", False, "no OLED answered"), roller)
    assert pi_boot_console.check_failures(failing) == ["display", "roller"]
    assert not pi_boot_console.check_holds("1", pi_boot_console.check_failures(failing))
    warned = _check_lines(Result("display", True, "/dev/i2c-1 does not exist", warn=True), roller)
    assert pi_boot_console.check_failures(warned) == ["roller"]  # a missing display is a warning, not a failure


def test_the_owner_code_is_read_from_the_guests_config(tmp_path: Path) -> None:
    conf = tmp_path / "config.toml"
    conf.write_text('# the installer\'s\nhardware = "headless"\n\n[web]\n# the owner\'s phone\n'
                    'owner_code = "ABCD-EFGH"\nport = 18080\n')
    assert pi_boot.owner_code(conf) == "ABCD-EFGH"
    conf.write_text('hardware = "headless"\n')
    with pytest.raises(RuntimeError, match="has no \\[web\\] owner_code: systemd/install.sh writes one"):
        pi_boot.owner_code(conf)


# ------------------------------------------------------------------ the whole run on a fake machine and fake phones
class FakeProc:
    def __init__(self) -> None:
        self.dead = False

    def poll(self) -> int | None:
        return -9 if self.dead else None


class FakeMachine:
    """One boot: the agent's lines for its mode, given out as the harness waits for them."""

    def __init__(self, table: "FakeTable", mode: str) -> None:
        self.table, self.mode, self.t0, self.proc = table, mode, 0.0, FakeProc()
        self.seen = 0
        self.start = len(table.acked)
        ready = "PIBOOT ready uptime_s=60 first_frame_s=59.5 start_to_ready_s=9.0 user=companion nrestarts=0"
        self.script = {
            "settings": [ready, *_check_lines(Result("display", True, "none"), Result("gpio", True, "not used"),
                                              Result("roller", False, "no dice roller found")),
                         "PIBOOT check rc=1 as=companion",
                         "PIBOOT settings contrast_before=207 contrast_after=223 comments_kept=yes owner=companion "
                         "mode=644", "PIBOOT home home None None", "PIBOOT hang-start nrestarts=0 game 5 5",
                         "PIBOOT watchdog restarted=yes nrestarts=1 hang_to_active_s=30.0 watchdog_timeouts_logged=1",
                         "PIBOOT resumed game 5 5", "PIBOOT poweroff"],
            "reboot": [ready, "PIBOOT settings-after-reboot contrast=223 owner=companion", "PIBOOT poweroff"],
            "play": [ready, "PIBOOT state game 5 5"],
            "final": [ready, "RESUMED", "PIBOOT journal-check rc=0 damaged_aside=0", "EXPORT", "PIBOOT export-end",
                      "PIBOOT poweroff"],
        }[mode]

    def lines(self) -> list[str]:
        import base64
        import json
        import zlib

        out = []
        for line in self.script:
            if line == "RESUMED":  # the agent reads the game inside the machine before it stops the service
                n = len(self.table.acked)
                line = f"PIBOOT resumed {'game' if self.table.playing else 'home'} {n} {n}"
            if line == "EXPORT":
                actions = [{"answer": a.value} for a in self.table.acked]
                line = "PIBOOT export|" + base64.b64encode(zlib.compress(json.dumps(
                    {"actions": actions, "inputs": []}).encode())).decode()
            out.append(line)
        return out

    def wait_for(self, word: str, timeout: float = 0) -> str:
        lines = self.lines()
        while self.seen < len(lines):
            line = lines[self.seen]
            self.seen += 1
            if line[7:].startswith(word):
                return line
        raise RuntimeError(f"no 'PIBOOT {word}'")

    def peek(self, word: str) -> bool:  # the agent hangs the loop after a few answers, or a while without any
        self.peeks = getattr(self, "peeks", 0) + 1
        return word == "hang-start" and (len(self.table.acked) >= 3 or self.peeks > 5)

    def cut(self) -> None:
        if not self.proc.dead:
            self.table.cuts.append(len(self.table.acked) - self.start)
        self.proc.dead = True

    def wait_off(self) -> None:
        self.proc.dead = True


class FakeTable:
    """The two phones on a fake box: an answer acknowledged at each call, at the next prompt, but in the boots
    ``stalled`` (where nothing is ever acknowledged)."""

    def __init__(self, stalled: Callable[[int], bool]) -> None:
        from collections import Counter

        self.stalled = stalled
        self.boot = 0
        self.final = 0  #: the last boot's number, once known: its web view is down (the service stopped)
        self.playing = False
        self.acked: list[pi_boot_web.Ack] = []
        self.cuts: list[int] = []  #: answers acknowledged in the boot at each cut
        self.over = self.home = False
        self.flow: list[tuple[str, int]] = []
        self.refused: Counter[str] = Counter()
        self.host = self

    def ready(self) -> None:
        self._web()

    def _web(self) -> None:
        if self.final and self.boot == self.final:  # the agent stopped the service for its checks
            import urllib.error

            raise urllib.error.URLError(ConnectionRefusedError(111, "Connection refused"))

    def snapshot(self) -> dict[str, object]:
        self._web()
        return {"screen": "game" if self.playing else "home", "prompt": {"seq": len(self.acked)}, "state": {}}

    def new_game(self) -> None:
        self.playing = True
        self.flow.append(("new game", 200))

    def play_one(self, rng: random.Random) -> pi_boot_web.Ack | None:
        if self.stalled(self.boot):
            return None
        time.sleep(0.002)  # a request's time
        ack = pi_boot_web.Ack(len(self.acked), rng.choice(["a", "b"]))
        self.acked.append(ack)
        return ack


def _fake_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, table: FakeTable, cuts: int,
              capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    monkeypatch.setattr(pi_boot, "FIRST_ANSWER_S", 0.2)
    monkeypatch.setattr(pi_boot, "CUT_AFTER_S", (0.01, 0.03))
    monkeypatch.setattr(pi_boot, "AFTER_RESTART_S", 0.05)

    def machine(mode: str, n: int) -> FakeMachine:
        table.boot = n
        table.final = n if mode == "final" else 0
        return FakeMachine(table, mode)
    rc = pi_boot.main(["--work", str(tmp_path), "--port", "9", "--cuts", str(cuts), "--seed", "1", "--qemu", "-",
                       "--guest-config", "-"], machine=machine, table=table,
                      pause=lambda s: None)
    return rc, capsys.readouterr().out


def test_a_run_with_no_answer_acknowledged_fails(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    rc, out = _fake_run(monkeypatch, tmp_path, FakeTable(stalled=lambda boot: True), 2, capsys)
    assert rc == 1, out
    assert "pi-boot: answers acknowledged: FAILED 0 in all" in out
    assert "pi-boot: power cuts during play: FAILED 0 of 2" in out
    assert "pi-boot: the game resumes after the watchdog's restart: FAILED" in out  # it held on nothing
    assert "pi-boot: result: FAILED" in out


def test_a_cut_before_play_is_not_counted(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    table = FakeTable(stalled=lambda boot: boot == 3)  # the first play boot (after settings, reboot) stalls
    rc, out = _fake_run(monkeypatch, tmp_path, table, 2, capsys)
    assert "pi-boot: cut 1: not counted: no answer was acknowledged" in out, out
    assert out.count("plug pulled") == 2 and "pi-boot: power cuts during play: ok 2 of 2 in 3 boots" in out
    assert table.cuts[0] == 0 and all(n > 0 for n in table.cuts[1:])  # the counted ones fell after answers
    assert "every acknowledged answer is in the journal, in order: ok" in out
    assert rc == 0 and "pi-boot: result: PASSED" in out


# ------------------------------------------------------------------ the scripted phones on a real box without its panel
def test_the_phones_follow_the_claim_flow_and_answer_every_prompt_secret_ballots_included(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real loop and web server with no panel (webtable.LiveTable), a game asking every kind of prompt (two
    secret ballots, seats 1 and 2): the host pairs with the owner code, the seat phone with the host's PIN, asks
    for its seat (202) and the host grants it — after "Read the request first" — and the game is played to its end
    by the two phones alone."""
    import companion.games
    from webtable import OWNER, LiveTable

    monkeypatch.setitem(companion.games.BUILTIN, "webdemo", "webtable:WebDemo")
    with LiveTable(tmp_path, panel=False) as t:  # the host's wait for the box's grace: on the table's clock
        table = pi_boot_web.Table(f"http://127.0.0.1:{t.port}", OWNER.lower().replace("-", " "), sleep=t.skip)
        acks = []
        rng = random.Random(7)
        for _ in range(200):
            ack = table.play_one(rng)
            if ack is not None:
                acks.append(ack)
            elif table.over:
                break
            else:
                time.sleep(0.05)
        assert table.over, (acks, table.refused)
        public = t.public()
        assert len(acks) >= 7, acks  # a number, a choice, dice, a multi-select, two ballots, a confirm
        steps = [s for s, _ in table.flow]
        assert table.flow[:3] == [("pair owner code", 200), ("host asks a PIN", 200), ("pair PIN", 200)]
        assert ("claim seat 2", 202) in table.flow and ("grant seat 2", 200) in table.flow
        assert steps.count("claim seat 1") == 1  # seat 1's ballot: its own phone, paired and seated then
        assert {a.phone for a in acks} == {"host", "seat 1 phone", "seat 2 phone"}
        assert public["over"] and not table.refused, table.refused
        assert table.host.rereads >= 1  # a grant at once is "Read the request first": the host asked again


def test_a_press_the_loop_answers_late_is_not_a_refusal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting a game under emulation takes longer than the web view waits for the loop (504): the press is on its
    way, and the host waits for the game to show instead of giving up."""
    table = pi_boot_web.Table("http://127.0.0.1:9", "ABCD-EFGH", sleep=lambda s: None)
    pressed: list[str] = []
    shows = iter(["home", "home", "game"])
    monkeypatch.setattr(table, "ready", lambda: {})
    monkeypatch.setattr(table.host, "call", lambda path, body=None, timeout=0: (pressed.append(body["key"]) or
                                                                              (504, {"error": "late"})))
    monkeypatch.setattr(table.host, "snapshot", lambda timeout=0: {"screen": next(shows)})
    table.new_game()
    assert pressed == ["ok", "ok"] and table.flow[-1] == ("new game", 200)
    with pytest.raises(pi_boot_web.Refused, match="still not showing"):
        shows = itertools.repeat("home")
        table.new_game(timeout=0.05)


def test_a_web_view_that_drops_a_request_now_and_then_is_asked_again(monkeypatch: pytest.MonkeyPatch,
                                                                     tmp_path: Path) -> None:
    """Under emulation the web view's thread may wait on the busy loop and drop a request: the step is tried again
    while the machine runs, and fails only once the web view stayed down."""
    run = pi_boot.Run(pi_boot.parse(["--work", str(tmp_path), "--port", "9", "--qemu", "-", "--guest-config", "-"]),
                      pause=lambda s: None)
    calls: list[int] = []

    def flaky() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise pi_boot_web.WebDown("Remote end closed connection without response")
        return "answered"

    assert run.patiently(flaky) == "answered" and len(calls) == 3
    monkeypatch.setattr(pi_boot, "WEB_DOWN_S", 0.0)
    with pytest.raises(pi_boot_web.WebDown):
        run.patiently(lambda: (_ for _ in ()).throw(pi_boot_web.WebDown("refused")))
    calls.clear()
    with pytest.raises(pi_boot_web.WebDown):  # the machine was cut: no waiting
        run.patiently(flaky, stop=lambda: True)
    assert len(calls) == 1


@pytest.mark.parametrize("name", ["pi-boot.sh", "pi-check.sh", "install.sh"])
def test_a_script_runs_as_its_usage_line_says(name: str) -> None:
    """`sudo systemd/pi-boot.sh ...` in its header: the file is executable (as git keeps it) and --help answers."""
    script = ROOT / "systemd" / name
    assert f"systemd/{name}" in script.read_text(encoding="utf-8").split("set -")[0]  # the header names it so
    assert os.access(script, os.X_OK), f"chmod +x systemd/{name}"
    r = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=30, cwd="/")
    assert r.returncode == 0 and f"systemd/{name}" in r.stdout, r.stdout + r.stderr
    if (ROOT / ".git").exists() and shutil.which("git"):
        mode = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-s", f"systemd/{name}"], capture_output=True,
                              text=True).stdout.split()[:1]
        assert mode in ([], ["100755"]), f"git update-index --chmod=+x systemd/{name}"


def test_a_ballot_of_a_vote_still_open_at_the_last_cut_is_kept_though_exported_secret() -> None:
    """The trial run on final main failed here: the plug pulled during SOVERANA's vote of confidence, the export (of
    an active game) shows those ballots as (secret), and the harness took them for lost."""
    import pi_boot

    from pi_boot_web import Ack

    answers = [{"answer": "2", "auto": False, "player": None},
               {"answer": True, "auto": False, "player": None},
               {"answer": "(secret)", "auto": False, "player": 1, "secret": True},
               {"answer": "(secret)", "auto": False, "player": 2, "secret": True}]
    acks = [Ack(0, "2"), Ack(1, True), Ack(2, "yes", "seat 1 phone"), Ack(3, "no", "seat 2 phone")]
    assert pi_boot.unmatched(acks, answers) == []
    assert pi_boot.unmatched([*acks, Ack(4, "yes", "seat 3 phone")], answers) == [Ack(4, "yes", "seat 3 phone")]
    assert pi_boot.unmatched([Ack(0, "3")], answers) == [Ack(0, "3")]  # a different answer is still caught
    assert pi_boot.unmatched([Ack(0, "(secret)")], answers) == [Ack(0, "(secret)")]  # not a secret at its place


def test_the_last_boot_is_read_from_the_agent_not_the_phones(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """make pi-boot on final main stopped at the last boot: the agent stops the service for journal check and the
    export at once, and on a quick boot the phones were still pairing again ('Connection refused'). The resumed game
    is now the agent's own reading, before the stop."""
    rc, out = _fake_run(monkeypatch, tmp_path, FakeTable(stalled=lambda boot: False), 2, capsys)
    assert "pi-boot: after the last cut: resumed: ok prompt" in out, out
    assert "stopped" not in out and rc == 0 and "pi-boot: result: PASSED" in out
    assert pi_boot.agent_state("PIBOOT resumed game 463 463") == {
        "screen": "game", "state": {"journal_entries": "463"}, "prompt": {"seq": 463}}
    assert pi_boot.agent_state("PIBOOT resumed home 12 None")["prompt"]["seq"] is None
