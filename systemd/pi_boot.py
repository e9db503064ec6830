"""The boots of `make pi-boot` (systemd/pi-boot.sh builds the kernel, initrd and disk, then runs this with the host's
python3; standard library only).

1. ``settings``: READY and boot-to-first-frame; `companion check` and a Settings change as the service user (the
   agent in the machine presses the keys through the test hook); a game is started and played over the web view;
   the loop is made to hang (the test hook) and the watchdog must restart it; the game resumes where it was.
2. ``reboot``: the saved setting is still there.
3. ``play`` × N: scripted play over the web view, the machine killed (SIGKILL to qemu: the plug pulled) at a random
   moment; on the next boot every answer the companion acknowledged before the cut is in the resumed game.
4. ``final``: `companion journal check` on the journal, and the whole input list compared with every acknowledgement.

Every figure is printed as ``pi-boot: NAME: VALUE``; the exit status is 0 only when every check held.
"""
from __future__ import annotations

import argparse
import base64
import json
import random
import shlex
import statistics
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pi_boot_web import Ack, Phone, WebDown, play_one, resumed_seq  # noqa: E402

BOOT_TIMEOUT_S = 900.0  #: a boot to READY under TCG is about a minute; a loaded host takes longer
STEP_TIMEOUT_S = 600.0


def out(name: str, value: Any) -> None:
    print(f"pi-boot: {name}: {value}", flush=True)


def fields(line: str) -> dict[str, str]:
    """``PIBOOT word k=v k=v``'s pairs."""
    return dict(w.split("=", 1) for w in line.split() if "=" in w)


class Machine:
    """One boot of the emulated Pi: qemu's serial console goes to a file, read for the agent's PIBOOT lines."""

    def __init__(self, template: str, work: Path, mode: str, n: int) -> None:
        self.log = work / f"serial-{n:02d}-{mode}.log"
        self.log.unlink(missing_ok=True)
        cmd = template.replace("serial-MODE.log", self.log.name).replace("piboot.mode=MODE", f"piboot.mode={mode}")
        self.t0 = time.monotonic()
        self.proc = subprocess.Popen(shlex.split(cmd), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=open(work / f"qemu-{n:02d}.err", "w"))
        self.seen = 0

    def lines(self) -> list[str]:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return []
        return [ln.strip("\r") for ln in text.splitlines() if ln.startswith("PIBOOT ")]

    def wait_for(self, word: str, timeout: float = STEP_TIMEOUT_S) -> str:
        """The next agent line starting ``PIBOOT word`` (lines before it are echoed when they carry output)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            lines = self.lines()
            while self.seen < len(lines):
                line = lines[self.seen]
                self.seen += 1
                if "|" in line.split()[1] or line.startswith("PIBOOT error"):
                    print("  " + line[7:], flush=True)
                if line[7:].startswith(word):
                    return line
            if self.proc.poll() is not None:
                raise RuntimeError(f"the machine stopped before 'PIBOOT {word}' (see {self.log})")
            time.sleep(0.3)
        raise RuntimeError(f"no 'PIBOOT {word}' within {timeout:.0f} s (see {self.log})")

    def peek(self, word: str) -> bool:
        return any(ln[7:].startswith(word) for ln in self.lines()[self.seen:])

    def cut(self) -> None:
        """The plug pulled: SIGKILL, nothing flushed by the guest."""
        self.proc.kill()
        self.proc.wait(timeout=30)

    def wait_off(self, timeout: float = 300.0) -> None:
        try:
            self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.cut()
            raise RuntimeError(f"the machine did not power off within {timeout:.0f} s") from None


class Run:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.work = Path(args.work)
        self.rng = random.Random(args.seed)
        self.base = f"http://127.0.0.1:{args.port}"
        self.acks: list[Ack] = []  #: the game in progress's acknowledged answers
        self.acked = 0  #: all games'
        self.over = False  #: the game was seen over: the next boot starts a new one
        self.games = 1
        self.boots = 0
        self.failures: list[str] = []
        self.first_frame: list[float] = []
        self.machine: Machine | None = None

    def check(self, name: str, ok: bool, detail: str) -> None:
        out(name, ("ok " if ok else "FAILED ") + detail)
        if not ok:
            self.failures.append(name)

    def boot(self, mode: str) -> tuple[Machine, Phone, dict[str, str]]:
        self.boots += 1
        m = self.machine = Machine(self.args.qemu, self.work, mode, self.boots)
        ready = fields(m.wait_for("ready", BOOT_TIMEOUT_S))
        host_s = time.monotonic() - m.t0
        self.first_frame.append(float(ready["first_frame_s"]))
        ready["host_s"] = f"{host_s:.1f}"
        pin = fields(m.wait_for("pin="))["pin"]
        phone = Phone(self.base)
        phone.pair(pin)
        return m, phone, ready

    def resumed(self, phone: Phone, what: str) -> None:
        """Every acknowledged answer is in the game shown now: its prompt number is past the last one."""
        snap = phone.snapshot()
        seq = resumed_seq(snap)
        need = self.acks[-1].seq + 1 if self.acks else 0
        ok = snap.get("screen") == "game" and seq is not None and seq >= need
        self.check(what, ok, f"prompt {seq} showing, {len(self.acks)} answers acknowledged so far "
                             f"(the last at prompt {need - 1}); journal entries "
                             f"{(snap.get('state') or {}).get('journal_entries')}")

    def play_until(self, phone: Phone, stop: "Any") -> int:
        n = 0
        while not stop():
            try:
                ack = play_one(phone, self.rng)
            except WebDown:
                break
            if ack is not None:
                self.acks.append(ack)
                self.acked += 1
                n += 1
            elif phone.over:
                self.over = True
                break
            else:
                time.sleep(0.5)  # nothing to answer yet: do not flood the slow machine
        return n

    # ------------------------------------------------------------------ the boots
    def settings_and_watchdog(self) -> str:
        m, phone, ready = self.boot("settings")
        out("boot to READY (first frame drawn)", f"{ready['first_frame_s']} s of guest uptime, {ready['host_s']} s "
            f"on the host's clock; the service's own start {ready['start_to_ready_s']} s")
        self.check("service runs as", ready.get("user") == "companion", f"user {ready.get('user')}")
        check = fields(m.wait_for("check rc="))
        failed = [ln.split()[2] for ln in m.lines() if ln.startswith("PIBOOT check| FAIL")]
        # the emulated machine has no USB: the roller's line fails there and nowhere else (exit 1, as on a Pi without one)
        self.check("companion check as the service user", check["rc"] == "0" or (check["rc"] == "1" and
                   failed == ["roller"]), f"exit {check['rc']}; failing lines: {', '.join(failed) or 'none'} "
                   "(no USB roller in the emulated machine)")
        s = fields(m.wait_for("settings "))
        changed = s["contrast_after"] != s["contrast_before"] and s["contrast_after"] != ""
        self.check("Settings change saved by the service", changed and s["comments_kept"] == "yes",
                   f"contrast {s['contrast_before']} -> {s['contrast_after']}, installer's comments kept: "
                   f"{s['comments_kept']}, file owner {s['owner']} mode {s['mode']}")
        m.wait_for("game ")  # the agent started a game from the home menu; the phone paired at boot plays it
        before = self.play_until(phone, lambda: m.peek("hang-start"))
        hang = m.wait_for("hang-start")
        wd = fields(m.wait_for("watchdog "))
        self.check("watchdog restarts the hung loop", wd["restarted"] == "yes",
                   f"{before} answers played, then the hook hung the loop; systemd restarted it "
                   f"{wd['hang_to_active_s']} s later (Restart count {wd['nrestarts']}, "
                   f"'Watchdog timeout' logged {wd['watchdog_timeouts_logged']}x); {hang.split(' ', 2)[2]}")
        pin = fields(m.wait_for("pin="))["pin"]
        m.wait_for("resumed ")
        phone = Phone(self.base)
        phone.pair(pin)
        self.resumed(phone, "the game resumes after the watchdog's restart")
        end = time.monotonic() + 8
        after = self.play_until(phone, lambda: time.monotonic() > end)
        out("answers after the restart", after)
        m.wait_for("poweroff")
        m.wait_off()
        return s["contrast_after"]

    def after_reboot(self, contrast: str) -> None:
        m, _phone, _ready = self.boot("reboot")
        r = fields(m.wait_for("settings-after-reboot"))
        self.check("the Settings change survives a reboot", r["contrast"] == contrast,
                   f"contrast {r['contrast']} after the reboot (saved {contrast}), owner {r['owner']}")
        m.wait_for("poweroff")
        m.wait_off()

    def power_cuts(self) -> None:
        played: list[int] = []
        moments: list[float] = []
        for i in range(1, self.args.cuts + 1):
            m, phone, ready = self.boot("play")
            if m.wait_for("state ").startswith("PIBOOT state home"):
                self.check(f"cut {i}: the finished game stays finished", self.over,
                           f"boot {ready['first_frame_s']} s to READY; home menu after a game seen over")
                m.wait_for("newgame ")
                self.acks, self.over, self.games = [], False, self.games + 1
            else:
                self.resumed(phone, f"cut {i}: boot {ready['first_frame_s']} s to READY; resumed")
            at = self.rng.uniform(0.5, 20.0)
            timer = threading.Timer(at, m.cut)
            start = time.monotonic()
            timer.start()
            n = self.play_until(phone, lambda: m.proc.poll() is not None)
            timer.join()
            played.append(n)
            moments.append(time.monotonic() - start)
            out(f"cut {i}", f"plug pulled {at:.1f} s into play, after {n} acknowledged answers "
                f"({self.acked} in all, game {self.games})")
        out("power cuts", f"{len(played)}; acknowledged answers between cuts: min {min(played)}, "
            f"median {statistics.median(played)}, max {max(played)}; {self.acked} in all over {self.games} game(s)")

    def final(self) -> None:
        m, phone, ready = self.boot("final")
        if not self.over:  # a game seen over before the last cut stays over: the export below is that game
            self.resumed(phone, "after the last cut: resumed")
        j = fields(m.wait_for("journal-check "))
        self.check("journal check (read-only verify of every input)", j["rc"] == "0" and j["damaged_aside"] == "0",
                   f"exit {j['rc']}, damaged journals set aside: {j['damaged_aside']}")
        m.wait_for("export-end")
        text = "".join(ln.split("|", 1)[1] for ln in m.lines() if ln.startswith("PIBOOT export|"))
        export = json.loads(zlib.decompress(base64.b64decode(text)))
        answers = [a["answer"] for a in export["actions"] if not a.get("auto") and "answer" in a]
        lost = [a for a in self.acks if not _same(answers[a.seq] if a.seq < len(answers) else None, a.value)]
        self.check("every acknowledged answer is in the journal, in order", not lost,
                   f"game {self.games}: {len(self.acks)} acknowledged, {len(answers)} answers in the exported game, "
                   f"{len(lost)} missing or different" + (f" (first: {lost[0]})" if lost else ""))
        m.wait_for("poweroff")
        m.wait_off()


def _same(saved: Any, sent: Any) -> bool:
    if isinstance(sent, dict):  # a roll: the companion rolled it ("rng") or took the typed values
        return isinstance(saved, dict) and saved.get("source") == sent.get("source") and \
            (sent.get("source") == "rng" or saved.get("values") == sent.get("values"))
    if isinstance(sent, list) and isinstance(saved, list):
        return sorted(map(str, sent)) == sorted(map(str, saved))
    return bool(saved == sent)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="pi_boot.py")
    ap.add_argument("--work", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--cuts", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--qemu", required=True, help="the qemu command; MODE stands for the boot's task")
    args = ap.parse_args(argv)
    run = Run(args)
    t0 = time.monotonic()
    out("seed", args.seed)
    try:
        contrast = run.settings_and_watchdog()
        run.after_reboot(contrast)
        run.power_cuts()
        run.final()
    except (RuntimeError, WebDown, KeyError, ValueError) as e:
        run.failures.append(str(e))
        out("stopped", e)
    finally:  # never leave a machine running
        if run.machine is not None and run.machine.proc.poll() is None:
            run.machine.cut()
    if run.first_frame:
        out("boot to first frame (guest uptime at READY)", f"{len(run.first_frame)} boots: min "
            f"{min(run.first_frame):.1f} s, median {statistics.median(run.first_frame):.1f} s, "
            f"max {max(run.first_frame):.1f} s")
    out("boots", f"{run.boots} in {time.monotonic() - t0:.0f} s")
    out("result", "PASSED" if not run.failures else "FAILED: " + "; ".join(run.failures))
    return 0 if not run.failures else 1


if __name__ == "__main__":
    sys.exit(main())
