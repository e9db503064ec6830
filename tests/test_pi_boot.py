"""`make pi-boot`'s pieces that run in seconds: the script's arguments, the initrd step on a made-up module tree,
shellcheck, the test hooks (off by default), the host's web player. The boots themselves run only in `make pi-boot`.
"""
from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

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
])
def test_player_answers_within_the_prompt(prompt: dict[str, object], check: object) -> None:
    assert check(pi_boot_web.choose(prompt, random.Random(3)))  # type: ignore[operator]


def test_player_says_web_down_when_nothing_listens() -> None:
    with pytest.raises(pi_boot_web.WebDown):
        pi_boot_web.Phone("http://127.0.0.1:9").snapshot(timeout=2)
