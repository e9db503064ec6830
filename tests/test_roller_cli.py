"""The dice commands as a user runs them: `roller listen`, `roller-sim`, `dice fairness`, `dice stats`."""
from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Iterator

import pytest

from companion.events import RollerState
from companion.journal.store import Journal, RollRecord
from conftest import ROOT, run_companion
from hw.roller.reader import COUNTER_KEYS, RollerReader
from hw.roller.virtual import VirtualRoller
from test_roller_reader import FAST_BACKOFF, Sink


def popen(*args: str, stdin: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "companion.cli", *args], cwd=ROOT, text=True, stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def wait_until(pred: object, timeout: float = 8.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.03)


@pytest.fixture
def roller(tmp_path: Path) -> Iterator[VirtualRoller]:
    v = VirtualRoller(link=str(tmp_path / "roller"), seed=3).start()
    yield v
    v.stop()


# --- roller listen -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_listen_json_prints_each_roll_once_then_the_summary(roller: VirtualRoller, sig: signal.Signals) -> None:
    proc = popen("roller", "listen", roller.path, "--json")
    try:
        wait_until(lambda: roller.stats().host_frames >= 1)  # it opened the port and asked HELLO?
        roller.roll("d12")
        roller.duplicate_next()
        roller.roll("d6", 2)
        roller.corrupt_next()
        roller.roll("d6")
        # (each roll is put on the queue before its ACK, and the corrupted roll's resend, the last ACKed, came after
        # the duplicate on the wire: the rolls and the counts the summary shows are in once all three are ACKed)
        wait_until(lambda: len(roller.stats().acked) == 3)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    lines = out.splitlines()
    made = roller.stats().rolls
    expected = [f'{{"seq": {r.seq}, "die": "{r.die}", "values": [{", ".join(map(str, r.values))}]}}' for r in made]
    assert lines[:-1] == expected
    summary = json.loads(lines[-1])["summary"]
    assert set(summary) == set(COUNTER_KEYS)
    assert (summary["accepted"], summary["duplicates"], summary["bad_crc"]) == (3, 1, 1)
    assert "roller connected" in err  # status goes to stderr in --json mode


def test_listen_plain(roller: VirtualRoller) -> None:
    proc = popen("roller", "listen", roller.path)
    try:
        wait_until(lambda: roller.stats().host_frames >= 1)
        roller.roll("d6", 3)
        wait_until(lambda: len(roller.stats().acked) == 1)  # (the roll was put on the queue before its ACK)
        proc.send_signal(signal.SIGTERM)
        out, _err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    r = roller.stats().rolls[0]
    assert proc.returncode == 0
    assert f"#0 d6: {' '.join(map(str, r.values))}" in out.splitlines()
    assert out.splitlines()[-1].startswith("summary: accepted 1, duplicates 0, framing 0")
    assert "roller connected: virtual-roller 1.0 on" in out


def test_listen_survives_a_missing_port_and_still_exits_cleanly(tmp_path: Path) -> None:
    proc = popen("roller", "listen", str(tmp_path / "nothing"), "--json")
    assert proc.stderr is not None
    first = proc.stderr.readline()  # the status line: it listens (after a fixed sleep the signal could come before
    proc.send_signal(signal.SIGTERM)  # its handler on a slow machine, as under the Pi check's emulation: -15)
    out, err = proc.communicate(timeout=10)
    assert proc.returncode == 0
    assert json.loads(out.strip())["summary"]["accepted"] == 0
    assert "no dice roller found" in first + err


# --- roller-sim --------------------------------------------------------------------------------------------------


def test_roller_sim_rolls_and_injects_faults(tmp_path: Path) -> None:
    link = tmp_path / "sim"
    proc = popen("roller-sim", "--link", str(link), "--seed", "5", stdin=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    sink = Sink()
    reader = RollerReader(str(link), sink.put, offline_after=2.0, **FAST_BACKOFF)  # (the replug found sooner)

    def send(line: str) -> None:
        assert proc.stdin is not None
        proc.stdin.write(line + "\n")
        proc.stdin.flush()

    try:
        assert proc.stdout.readline().strip() == str(link)
        assert link.is_symlink()
        reader.start()
        sink.wait_state(RollerState.CONNECTED)
        send("roll d6 2")
        printed = proc.stdout.readline().strip()
        got = sink.wait_rolls(1)
        assert printed == f"#0 d6: {got[0].values[0]} {got[0].values[1]}"
        send("badcrc")
        send("2")  # the d12 key
        sink.wait_rolls(2)
        assert sink.rolls()[1].die == "d12" and reader.counters["bad_crc"] == 1
        send("dup")
        send("d6")
        sink.wait_rolls(3)
        sink.wait(lambda: reader.counters["duplicates"] == 1)
        send("garbage 200")
        n = len(sink.states())
        send("unplug")
        sink.wait_state(RollerState.OFFLINE, after=n)
        send("replug")
        sink.wait_state(RollerState.CONNECTED, after=n + 1)
        send("nonsense")
        send("roll d12 4")
        got = sink.wait_rolls(4)
        assert len(got[3].values) == 4 and len(got) == 4
        proc.stdin.close()  # stdin ends: the roller stays until a signal
        time.sleep(0.3)
        assert proc.poll() is None
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
    finally:
        reader.stop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.stdout.close()
        proc.stderr.close()
        if not proc.stdin.closed:
            proc.stdin.close()
    assert proc.returncode == 0
    assert "roller-sim: unknown command 'nonsense'" in err
    assert not link.exists()


def test_roller_sim_keys_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal single keys act at once: 6 rolls a d6, 2 a d12, q quits."""
    master, slave = os.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "companion.cli", "roller-sim", "--link", str(tmp_path / "k")],
                            cwd=ROOT, text=True, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(slave)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == str(tmp_path / "k")
        os.write(master, b"6")
        assert proc.stdout.readline().startswith("#0 d6: ")
        os.write(master, b"2")
        assert proc.stdout.readline().startswith("#1 d12: ")
        os.write(master, b"q")
        out, _err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
        os.close(master)
    assert proc.returncode == 0


def test_roller_sim_script_file(tmp_path: Path) -> None:
    script = tmp_path / "rolls.txt"
    script.write_text("# three rolls then stop\nroll d6\nwait 0.1\nroll d12 2\nquit\n")
    r = run_companion("roller-sim", "--link", str(tmp_path / "s"), "--script", str(script), "--seed", "1",
                      timeout=20, input="")
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == str(tmp_path / "s")
    assert lines[1].startswith("#0 d6: ") and lines[2].startswith("#1 d12: ")


def test_roller_sim_bad_script_line(tmp_path: Path) -> None:
    script = tmp_path / "bad.txt"
    script.write_text("roll d6\nroll d20\n")
    r = run_companion("roller-sim", "--script", str(script), timeout=20)
    assert r.returncode == 2
    assert r.stderr.strip() == f"companion: {script} line 2: roll needs a die: roll d6|d12 [count]"


# --- dice fairness / stats ---------------------------------------------------------------------------------------


def test_dice_fairness_json(tmp_path: Path) -> None:
    rng = random.Random(4)
    fair = tmp_path / "fair.txt"
    fair.write_text("\n".join(str(rng.randint(1, 6)) for _ in range(300)) + "\n")
    r = run_companion("dice", "fairness", "--die", "d6", str(fair), "--json")
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert {"n", "chi2", "p_value", "bayes_factor", "flagged"} <= set(out)
    assert out["n"] == 300 and out["flagged"] is False and sum(out["counts"].values()) == 300

    loaded = tmp_path / "loaded.txt"
    loaded.write_text("\n".join(str(rng.choices(range(1, 7), [5, 3, 3, 3, 3, 3])[0]) for _ in range(800)))
    out = json.loads(run_companion("dice", "fairness", "--die", "d6", str(loaded), "--json").stdout)
    assert out["flagged"] is True and out["bayes_factor"] >= 20 and out["p_value"] < 0.01


def test_dice_fairness_plain_and_stdin() -> None:
    r = run_companion("dice", "fairness", "--die", "d12", "-", input="12\n# comment\n\n1\n12\n")
    assert r.returncode == 0
    assert r.stdout.splitlines()[0] == "d12 from -: 3 rolls"
    assert "too few rolls" in r.stdout


@pytest.mark.parametrize("content,message", [
    ("1\n2\n7\n", "line 3: '7' is not a d6 face (1..6)"),
    ("1\nsix\n", "line 2: 'six' is not a d6 face (1..6)"),
])
def test_dice_fairness_bad_lines(tmp_path: Path, content: str, message: str) -> None:
    f = tmp_path / "rolls.txt"
    f.write_text(content)
    r = run_companion("dice", "fairness", "--die", "d6", str(f))
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip() == f"companion: {f} {message}"


def test_dice_fairness_missing_file(tmp_path: Path) -> None:
    r = run_companion("dice", "fairness", "--die", "d6", str(tmp_path / "none.txt"))
    assert r.returncode == 2 and "cannot read" in r.stderr and len(r.stderr.splitlines()) == 1


def test_dice_stats_from_the_journal(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    j = Journal(path)
    rng = random.Random(2)
    j.record_rolls([RollRecord("pico", "roller", "d6", rng.randint(1, 6)) for _ in range(120)])
    j.record_rolls([RollRecord("pico", "roller", "d12", 12) for _ in range(40)])  # a stuck d12
    j.record_rolls([RollRecord("typed", "typed", "d6", v) for v in (1, 2, 3)])
    j.record_rolls([RollRecord("rng", "rng", "d6", 4) for _ in range(50)])  # not physical: not counted
    j.close()
    r = run_companion("dice", "stats", "--json", "--journal", str(path))
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    rows = {(d["roller"], d["die"]): d for d in out["dice"]}
    assert set(rows) == {("pico", "d6"), ("pico", "d12"), ("typed", "d6")}
    assert rows["pico", "d6"]["n"] == 120 and rows["pico", "d6"]["flagged"] is False
    assert rows["pico", "d12"]["counts"]["12"] == 40 and rows["pico", "d12"]["flagged"] is True
    assert rows["typed", "d6"]["n"] == 3
    plain = run_companion("dice", "stats", "--journal", str(path)).stdout
    assert "pico d12: 40 rolls" in plain and "FLAGGED" in plain


def test_dice_stats_without_a_journal(tmp_path: Path) -> None:
    r = run_companion("dice", "stats")
    assert r.returncode == 0 and r.stdout.startswith("no physical rolls recorded yet in ")
    r = run_companion("dice", "stats", "--journal", str(tmp_path / "missing.sqlite"))
    assert r.returncode == 2 and "no journal at" in r.stderr
    assert not (tmp_path / "missing.sqlite").exists()


def test_help_lists_the_commands() -> None:
    r = run_companion("--help", fresh=True)  # the help of a clean start
    for cmd in ("roller", "roller-sim", "dice"):
        assert cmd in r.stdout
    assert os.path.basename(sys.executable)
