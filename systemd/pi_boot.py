"""The boots of `make pi-boot` (systemd/pi-boot.sh builds the kernel, initrd and disk, then runs this with the host's
python3; standard library only).

1. ``settings``: READY and boot-to-first-frame; `companion check` and a Settings change as the service user (the
   agent in the machine presses the keys through the test hook); the two phones pair (the owner code from the
   guest's config, then a PIN from the host phone), the host starts a game with the companion's buttons, the seat
   phone is seated and both play; the loop is made to hang (the test hook) and the watchdog must restart it; the
   game resumes where it was.
2. ``reboot``: the saved setting is still there.
3. ``play`` × N: scripted play over the web view, the machine killed (SIGKILL to qemu: the plug pulled) at a random
   moment after the boot's first acknowledged answer — a cut counts only when it falls during play; on the next
   boot every answer the companion acknowledged before the cut is in the resumed game.
4. ``final``: `companion journal check` on the journal, and the whole input list compared with every acknowledgement.

Every figure is printed as ``pi-boot: NAME: VALUE``; the exit status is 0 only when every check held, and a run in
which no answer was acknowledged fails (its other checks would pass on nothing).
"""
from __future__ import annotations

import argparse
import base64
import json
import random
import statistics
import sys
import threading
import time
import tomllib
import zlib
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pi_boot_console import TAG, Machine, check_failures, check_holds, fields  # noqa: E402
from pi_boot_web import Ack, Refused, Table, WebDown, resumed_seq  # noqa: E402

BOOT_TIMEOUT_S = 900.0  #: a boot to READY under TCG is about a minute; a loaded host takes longer
FIRST_ANSWER_S = 300.0  #: a boot with no acknowledged answer this long after READY is cut, and the cut not counted
CUT_AFTER_S = (0.5, 20.0)  #: the cut comes this long after the boot's first acknowledged answer (uniform)
AFTER_RESTART_S = 8.0  #: play after the watchdog's restart
WEB_DOWN_S = 60.0  #: how long a web view that stopped answering is given before the step fails


def out(name: str, value: Any) -> None:
    print(f"pi-boot: {name}: {value}", flush=True)


def owner_code(config: Path) -> str:
    """The owner code the installer wrote into the guest's config (``[web] owner_code``)."""
    try:
        web = tomllib.loads(config.read_text()).get("web") or {}
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise RuntimeError(f"cannot read the guest's config {config}: {e}") from None
    code = web.get("owner_code")
    if not isinstance(code, str) or not code.strip():
        raise RuntimeError(f"the guest's config {config} has no [web] owner_code: systemd/install.sh writes one")
    return code


class Cut:
    """One boot's power cut. Armed by the boot's first acknowledged answer, it pulls the plug ``after`` seconds
    later; it *counts* only if an answer was acknowledged since the boot when it fell (a cut while booting, or in
    a boot where play never started, proves nothing)."""

    def __init__(self, pull: Callable[[], None], after: float, acked: Callable[[], int]) -> None:
        self.pull, self.after, self.acked = pull, after, acked
        self.timer: threading.Timer | None = None
        self.counted = False
        self.fell = threading.Event()

    def answered(self) -> None:
        """An answer was acknowledged: the first one arms the cut."""
        if self.timer is None:
            self.timer = threading.Timer(self.after, self._fall)
            self.timer.daemon = True
            self.timer.start()

    def _fall(self) -> None:
        self.counted = self.acked() > 0
        self.fell.set()
        self.pull()

    def now(self) -> None:
        """Pull the plug at once (play stalled): counts only if answers were acknowledged since the boot."""
        if self.timer is not None:
            self.timer.cancel()
        if not self.fell.is_set():
            self._fall()


class Run:
    def __init__(self, args: argparse.Namespace, *, machine: Callable[[str, int], Any] | None = None,
                 table: Table | None = None, pause: Callable[[float], None] = time.sleep) -> None:
        self.args = args
        self.work = Path(args.work)
        self.rng = random.Random(args.seed)
        self.base = f"http://127.0.0.1:{args.port}"
        self.new_machine = machine or (lambda mode, n: Machine(self.args.qemu, self.work, mode, n))
        self._table = table
        self.pause = pause  #: between requests when there is nothing to answer (the slow machine is not flooded)
        self.acks: list[Ack] = []  #: the game in progress's acknowledged answers
        self.acked = 0  #: all games'
        self.over = False  #: the game was seen over: the next boot starts a new one
        self.games = 1
        self.boots = 0
        self.failures: list[str] = []
        self.first_frame: list[float] = []
        self.machine: Any = None

    @property
    def table(self) -> Table:
        """The two phones (made at the first boot, with the owner code of the guest's config)."""
        if self._table is None:
            self._table = Table(self.base, owner_code(Path(self.args.guest_config)))
        return self._table

    def check(self, name: str, ok: bool, detail: str) -> None:
        out(name, ("ok " if ok else "FAILED ") + detail)
        if not ok:
            self.failures.append(name)

    def boot(self, mode: str, phones: bool = True) -> tuple[Any, dict[str, str]]:
        self.boots += 1
        m = self.machine = self.new_machine(mode, self.boots)
        ready = fields(m.wait_for("ready", BOOT_TIMEOUT_S))
        host_s = time.monotonic() - m.t0
        self.first_frame.append(float(ready["first_frame_s"]))
        ready["host_s"] = f"{host_s:.1f}"
        if phones:
            self.patiently(self.table.ready)  # the phones pair again where the box no longer knows them
        return m, ready

    def resumed(self, what: str, played: bool = False, snap: dict[str, Any] | None = None) -> None:
        """Every acknowledged answer is in the game shown now: its prompt number is past the last one. ``played``:
        answers must have been acknowledged (else the check holds on nothing). ``snap``: the game as the agent read
        it inside the machine (else the host phone reads it)."""
        snap = snap if snap is not None else self.patiently(self.table.host.snapshot)
        seq = resumed_seq(snap)
        need = self.acks[-1].seq + 1 if self.acks else 0
        ok = snap.get("screen") == "game" and seq is not None and seq >= need and (bool(self.acks) or not played)
        self.check(what, ok, f"prompt {seq} showing, {len(self.acks)} answers acknowledged so far "
                             f"(the last at prompt {need - 1}); journal entries "
                             f"{(snap.get('state') or {}).get('journal_entries')}")

    def new_game_if_home(self, what: str) -> bool:
        """On the home menu (a finished game is not resumed): the host starts the next game. True if it did."""
        if self.patiently(self.table.host.snapshot).get("screen") != "home":
            return False
        self.check(what, self.over or not self.acked, "home menu" + (" after a game seen over" if self.acked else ""))
        self.table.new_game()
        if self.acked:
            self.acks, self.over, self.games = [], False, self.games + 1
        return True

    def patiently(self, step: Callable[[], Any], stop: Callable[[], bool] = lambda: False) -> Any:
        """``step()``, again while the web view does not answer (under emulation its thread may wait on the busy
        loop: a request dropped now and then); WebDown once it stayed down for WEB_DOWN_S, or ``stop()`` holds."""
        end = time.monotonic() + WEB_DOWN_S
        while True:
            try:
                return step()
            except WebDown:
                if stop() or time.monotonic() > end:
                    raise
                self.pause(2.0)

    def play_until(self, stop: Callable[[], bool], on_ack: Callable[[], None] = lambda: None) -> int:
        n = 0
        table = self.table
        while not stop():
            try:
                ack = self.patiently(lambda: table.play_one(self.rng), stop)
            except WebDown:  # the machine is gone (cut), or its web view stayed down
                break
            except Refused as e:  # a step of the claim flow refused: said, and tried again
                out("refused", e)
                self.pause(1.0)
                continue
            if ack is not None:
                self.acks.append(ack)
                self.acked += 1
                n += 1
                on_ack()
            elif table.over:
                self.over = True
                break
            else:
                self.pause(0.5)  # nothing to answer yet: do not flood the slow machine
        return n

    # ------------------------------------------------------------------ the boots
    def settings_and_watchdog(self) -> str:
        m, ready = self.boot("settings")
        out("boot to READY (first frame drawn)", f"{ready['first_frame_s']} s of guest uptime, {ready['host_s']} s "
            f"on the host's clock; the service's own start {ready['start_to_ready_s']} s")
        self.check("service runs as", ready.get("user") == "companion", f"user {ready.get('user')}")
        check = fields(m.wait_for("check rc="))
        failed = check_failures(m.lines())
        self.check("companion check as the service user", check_holds(check["rc"], failed),
                   f"exit {check['rc']}; failing lines: {', '.join(failed) or 'none'} "
                   "(the emulated machine has no USB: no roller is expected)")
        s = fields(m.wait_for("settings "))
        changed = s["contrast_after"] != s["contrast_before"] and s["contrast_after"] != ""
        self.check("Settings change saved by the service", changed and s["comments_kept"] == "yes",
                   f"contrast {s['contrast_before']} -> {s['contrast_after']}, installer's comments kept: "
                   f"{s['comments_kept']}, file owner {s['owner']} mode {s['mode']}")
        m.wait_for("home ")  # the agent is back on the home menu: the host phone starts a game
        self.new_game_if_home("a new box starts on the home menu")
        before = self.play_until(lambda: m.peek("hang-start"))
        hang = m.wait_for("hang-start")
        wd = fields(m.wait_for("watchdog "))
        self.check("watchdog restarts the hung loop", wd["restarted"] == "yes",
                   f"{before} answers played, then the hook hung the loop; systemd restarted it "
                   f"{wd['hang_to_active_s']} s later (Restart count {wd['nrestarts']}, "
                   f"'Watchdog timeout' logged {wd['watchdog_timeouts_logged']}x); {hang.split(' ', 2)[2]}")
        m.wait_for("resumed ")
        self.patiently(self.table.ready)
        self.resumed("the game resumes after the watchdog's restart", played=True)
        end = time.monotonic() + AFTER_RESTART_S
        after = self.play_until(lambda: time.monotonic() > end)
        out("answers after the restart", after)
        m.wait_for("poweroff")
        m.wait_off()
        return s["contrast_after"]

    def after_reboot(self, contrast: str) -> None:
        m, _ready = self.boot("reboot")
        r = fields(m.wait_for("settings-after-reboot"))
        self.check("the Settings change survives a reboot", r["contrast"] == contrast,
                   f"contrast {r['contrast']} after the reboot (saved {contrast}), owner {r['owner']}")
        m.wait_for("poweroff")
        m.wait_off()

    def power_cuts(self) -> None:
        played: list[int] = []
        boots = 0
        while len(played) < self.args.cuts and boots < 2 * self.args.cuts + 2:
            boots += 1
            i = len(played) + 1
            m, ready = self.boot("play")
            m.wait_for("state ")
            if not self.new_game_if_home(f"cut {i}: the finished game stays finished"):
                self.resumed(f"cut {i}: boot {ready['first_frame_s']} s to READY; resumed")
            since = self.acked
            cut = Cut(m.cut, self.rng.uniform(*CUT_AFTER_S), lambda: self.acked - since)
            stall = time.monotonic() + FIRST_ANSWER_S
            start = time.monotonic()
            n = self.play_until(lambda: m.proc.poll() is not None or (self.acked == since and
                                                                        time.monotonic() > stall), cut.answered)
            if not cut.fell.wait(timeout=0 if n == 0 else CUT_AFTER_S[1] + 30):
                cut.now()  # play stalled (or the game ended) before the cut fell: pull the plug now
            m.cut()
            if not cut.counted:
                out(f"cut {i}", f"not counted: no answer was acknowledged in {time.monotonic() - start:.0f} s of "
                    f"boot {self.boots} (refusals so far: {dict(self.table.refused.most_common(3))}); the next boot "
                    "tries again")
                continue
            played.append(n)
            out(f"cut {i}", f"plug pulled {cut.after:.1f} s after the boot's first acknowledged answer, after {n} "
                f"acknowledged answers ({self.acked} in all, game {self.games})")
        self.check("power cuts during play", len(played) == self.args.cuts,
                   f"{len(played)} of {self.args.cuts} in {boots} boots; acknowledged answers between cuts: "
                   + (f"min {min(played)}, median {statistics.median(played)}, max {max(played)}" if played else
                      "none") + f"; {self.acked} in all over {self.games} game(s)")

    def final(self) -> None:
        m, ready = self.boot("final", phones=False)  # the agent stops the service for its checks at once
        shown = agent_state(m.wait_for("resumed "))
        if not self.over:  # a game seen over before the last cut stays over: the export below is that game
            self.resumed("after the last cut: resumed", snap=shown)
        j = fields(m.wait_for("journal-check "))
        self.check("journal check (read-only verify of every input)", j["rc"] == "0" and j["damaged_aside"] == "0",
                   f"exit {j['rc']}, damaged journals set aside: {j['damaged_aside']}")
        m.wait_for("export-end")
        text = "".join(ln.split("|", 1)[1] for ln in m.lines() if ln.startswith(TAG + "export|"))
        export = json.loads(zlib.decompress(base64.b64decode(text)))
        answers = [a for a in export["actions"] if not a.get("auto") and "answer" in a]
        lost = unmatched(self.acks, answers)
        self.check("every acknowledged answer is in the journal, in order", bool(self.acks) and not lost,
                   f"game {self.games}: {len(self.acks)} acknowledged, {len(answers)} answers in the exported game, "
                   f"{len(lost)} missing or different" + (f" (first: {lost[0]})" if lost else ""))
        m.wait_for("poweroff")
        m.wait_off()

    def summary(self) -> None:
        self.check("answers acknowledged", self.acked > 0,
                   f"{self.acked} in all over {self.games} game(s)" + ("" if self.acked else
                   " — nothing was played, so no other check means anything"))
        flow = ", ".join(f"{what} {status}" for what, status in self.table.flow[:8]) if self._table else "none"
        out("claim flow (first steps)", flow)
        if self._table is not None and self._table.refused:
            out("answers refused", "; ".join(f"{n}x {line}" for line, n in self._table.refused.most_common(5)))


def agent_state(line: str) -> dict[str, Any]:
    """The agent's ``resumed SCREEN ENTRIES SEQ`` line as the snapshot's fields the checks read."""
    words = (line.split("resumed ", 1)[1].split() + ["None"] * 3)[:3]
    seq = int(words[2]) if words[2].isdigit() else None
    return {"screen": words[0], "state": {"journal_entries": words[1]}, "prompt": {"seq": seq}}


def unmatched(acks: list[Any], answers: list[dict[str, Any]]) -> list[Any]:
    """The acknowledged answers the exported game does not hold at their place. A ballot of a vote still open when
    the plug was pulled is exported as ``(secret)`` (nobody may read it before the vote is counted): it is there at
    its place, and its value is the journal's to keep (journal check verified every input)."""
    def kept(ack: Any) -> bool:
        saved = answers[ack.seq] if ack.seq < len(answers) else None
        return saved is not None and (bool(saved.get("secret")) and saved["answer"] == "(secret)" or
                                      _same(saved["answer"], ack.value))
    return [a for a in acks if not kept(a)]


def _same(saved: Any, sent: Any) -> bool:
    if isinstance(sent, dict):  # a roll: the companion rolled it ("rng") or took the typed values
        return isinstance(saved, dict) and saved.get("source") == sent.get("source") and \
            (sent.get("source") == "rng" or saved.get("values") == sent.get("values"))
    if isinstance(sent, list) and isinstance(saved, list):
        return sorted(map(str, sent)) == sorted(map(str, saved))
    return bool(saved == sent)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="pi_boot.py")
    ap.add_argument("--work", required=True)
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--cuts", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--qemu", required=True, help="the qemu command; MODE stands for the boot's task")
    ap.add_argument("--guest-config", required=True, help="a copy of the guest's /etc/companion/config.toml")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None, **fakes: Any) -> int:
    run = Run(parse(argv), **fakes)
    t0 = time.monotonic()
    out("seed", run.args.seed)
    try:
        contrast = run.settings_and_watchdog()
        run.after_reboot(contrast)
        run.power_cuts()
        run.final()
    except (RuntimeError, WebDown, Refused, KeyError, ValueError) as e:
        run.failures.append(str(e))
        out("stopped", e)
    finally:  # never leave a machine running
        if run.machine is not None and run.machine.proc.poll() is None:
            run.machine.cut()
    run.summary()
    if run.first_frame:
        out("boot to first frame (guest uptime at READY)", f"{len(run.first_frame)} boots: min "
            f"{min(run.first_frame):.1f} s, median {statistics.median(run.first_frame):.1f} s, "
            f"max {max(run.first_frame):.1f} s")
    out("boots", f"{run.boots} in {time.monotonic() - t0:.0f} s")
    out("result", "PASSED" if not run.failures else "FAILED: " + "; ".join(run.failures))
    return 0 if not run.failures else 1


if __name__ == "__main__":
    sys.exit(main())
