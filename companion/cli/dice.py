"""Dice commands: ``roller listen``, ``roller-sim``, ``dice stats`` and ``dice fairness``."""
from __future__ import annotations

import argparse
import json
import os
import queue
import select
import signal
import sys
import threading
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, Callable, Iterator

from companion.errors import CompanionError

if TYPE_CHECKING:
    from hw.roller.virtual import VirtualRoller

    from companion.records.fairness import FairnessResult


class DiceInputError(CompanionError, ValueError):
    """A file of rolls or a roller-sim script line is wrong; the message names the file and line."""


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("roller", help="the USB dice roller", description="Talk to a dice roller on a serial port.")
    actions = p.add_subparsers(dest="roller_action", metavar="ACTION")
    p.set_defaults(func=lambda _a: _usage(p))
    listen = actions.add_parser(
        "listen", help="read a roller alone: print and acknowledge each roll",
        description="Read a roller alone: print each accepted roll, send the ACKs; Ctrl-C prints a summary.")
    listen.add_argument("port", metavar="PORT", help='the serial port (/dev/ttyACM0, /dev/companion-roller) or "auto"')
    listen.add_argument("--json", action="store_true", help="one JSON object per roll, then a summary object")
    listen.add_argument("--name", default="roller", help="the roller's name in the events (default: roller)")
    listen.set_defaults(func=cmd_roller_listen)

    sim = sub.add_parser(
        "roller-sim", help="a virtual roller on a pty, with fault switches",
        description="A virtual roller on a pseudo-terminal. It prints the path to open (or makes --link). "
                    "Keys on a terminal: 6 roll a d6, 2 roll a d12, g garbage, c bad CRC, d duplicate ROLL, "
                    "s silence on/off, u unplug/replug, q quit. From a pipe or --script, one command per line: "
                    "roll d6|d12 [N], garbage [N], badcrc, dup, silence on|off, unplug, replug, wait SECONDS, quit.")
    sim.add_argument("--link", metavar="PATH", help="make PATH a symlink to the pty (kept across unplug/replug)")
    sim.add_argument("--script", metavar="FILE", help="run these commands first")
    sim.add_argument("--seed", type=int, help="seed the dice (default: the system RNG)")
    sim.set_defaults(func=cmd_roller_sim)

    d = sub.add_parser("dice", help="dice statistics and the fairness monitor")
    dice = d.add_subparsers(dest="dice_action", metavar="ACTION")
    d.set_defaults(func=lambda _a: _usage(d))
    stats = dice.add_parser("stats", help="counts, chi-square and Bayes factor of every physical die in the journal")
    stats.add_argument("--json", action="store_true", help="print JSON")
    stats.add_argument("--journal", metavar="PATH", help="journal file (default from config)")
    stats.set_defaults(func=cmd_dice_stats)
    fair = dice.add_parser("fairness", help="test a list of rolls (one per line) for fairness")
    fair.add_argument("--die", required=True, choices=("d6", "d12"), help="the die type")
    fair.add_argument("file", metavar="FILE", help='rolls, one per line ("-" reads stdin; # starts a comment)')
    fair.add_argument("--json", action="store_true", help="print JSON")
    fair.set_defaults(func=cmd_dice_fairness)


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help()
    return 2


@contextmanager
def _until_signalled() -> Iterator[threading.Event]:
    """An event set by SIGINT or SIGTERM while inside the block (the old handlers come back after)."""
    stop = threading.Event()

    def handler(_sig: int, _frame: FrameType | None) -> None:
        stop.set()

    old = {s: signal.signal(s, handler) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield stop
    finally:
        for s, h in old.items():
            signal.signal(s, h)


# --- roller listen --------------------------------------------------------------------------------------------


def cmd_roller_listen(args: argparse.Namespace) -> int:
    from hw.roller.reader import COUNTER_KEYS, RollerReader

    from companion.events import Event, RollerStatusEvent, RollEvent

    events: queue.Queue[Event] = queue.Queue()
    reader = RollerReader(args.port, events.put, name=args.name)
    status_out = sys.stderr if args.json else sys.stdout

    def show(ev: Event) -> None:
        if isinstance(ev, RollEvent):
            if args.json:
                print(json.dumps({"seq": ev.seq, "die": ev.die, "values": list(ev.values)}), flush=True)
            else:
                print(f"#{ev.seq} {ev.die}: {' '.join(str(v) for v in ev.values)}", flush=True)
        elif isinstance(ev, RollerStatusEvent):
            print(f"roller {ev.state.value}: {ev.detail}", file=status_out, flush=True)

    with _until_signalled() as stop:
        reader.start()
        try:
            while not stop.is_set():
                try:
                    show(events.get(timeout=0.2))
                except queue.Empty:
                    pass
        finally:
            reader.stop()
    while not events.empty():
        show(events.get_nowait())
    counts = reader.counters
    if args.json:
        print(json.dumps({"summary": {k: counts[k] for k in COUNTER_KEYS}}), flush=True)
    else:
        print("summary: " + ", ".join(f"{k} {counts[k]}" for k in COUNTER_KEYS), flush=True)
    return 0


# --- roller-sim -----------------------------------------------------------------------------------------------

KEYS = {"6": "roll d6", "2": "roll d12", "g": "garbage", "c": "badcrc", "d": "dup", "s": "silence",
        "u": "plug", "q": "quit"}


def _sim_command(line: str) -> tuple[str, list[str]]:
    """Check one command line; returns (verb, args). Raises ValueError with a plain reason."""
    words = line.split()
    if len(words) == 1 and words[0] in KEYS:
        words = KEYS[words[0]].split()
    if words[0] in ("d6", "d12"):
        words = ["roll", *words]
    verb, rest = words[0], words[1:]
    if verb == "roll":
        if not rest or rest[0] not in ("d6", "d12"):
            raise ValueError("roll needs a die: roll d6|d12 [count]")
        if len(rest) > 1 and not (rest[1].isdigit() and 1 <= int(rest[1]) <= 8):
            raise ValueError(f"roll count must be 1..8, not {rest[1]!r}")
    elif verb == "garbage":
        if rest and not (rest[0].isdigit() and 1 <= int(rest[0]) <= 4096):
            raise ValueError(f"garbage takes a byte count 1..4096, not {rest[0]!r}")
    elif verb == "silence":
        if rest and rest[0] not in ("on", "off"):
            raise ValueError("silence takes on or off")
    elif verb == "wait":
        from companion.session.headless import wait_seconds

        if len(rest) != 1 or wait_seconds(rest[0]) is None:
            raise ValueError("wait needs seconds (0..3600), written like 2 or 0.5")
    elif verb not in ("badcrc", "dup", "unplug", "replug", "plug", "quit"):
        raise ValueError(f"unknown command {verb!r}; use roll, garbage, badcrc, dup, silence, unplug, replug, "
                         "wait or quit")
    return verb, rest


class _Sim:
    def __init__(self, roller: "VirtualRoller", stop: threading.Event) -> None:
        self.roller = roller
        self.stop = stop
        self.silent = False

    def run(self, verb: str, rest: list[str]) -> None:
        r = self.roller
        if verb == "roll":
            before = len(r.stats().rolls)
            r.roll(rest[0], int(rest[1]) if len(rest) > 1 else 1)
            r.sync()
            for roll in r.stats().rolls[before:]:
                print(f"#{roll.seq} {roll.die}: {' '.join(str(v) for v in roll.values)}", flush=True)
        elif verb == "garbage":
            r.garbage(int(rest[0]) if rest else 40)
            print("sent garbage", flush=True)
        elif verb == "badcrc":
            r.corrupt_next()
            print("the next roll goes out once with a bad CRC", flush=True)
        elif verb == "dup":
            r.duplicate_next()
            print("the next roll is sent twice", flush=True)
        elif verb == "silence":
            self.silent = (rest[0] == "on") if rest else not self.silent
            r.silence(self.silent)
            print("silent" if self.silent else "talking again", flush=True)
        elif verb == "unplug" or (verb == "plug" and r.plugged):
            r.unplug()
            r.sync()
            print("unplugged", flush=True)
        elif verb in ("replug", "plug"):
            r.replug()
            r.sync()
            print(f"plugged in at {r.path}", flush=True)
        elif verb == "wait":
            self.stop.wait(float(rest[0]))
        elif verb == "quit":
            self.stop.set()


def _read_script(path: str) -> list[tuple[str, list[str]]]:
    try:
        lines = Path(path).read_text(encoding="utf-8-sig").splitlines()
    except OSError as e:
        raise DiceInputError(f"cannot read the script {path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise DiceInputError(f"the script {path} is not UTF-8 text (byte {e.start}); save it as UTF-8") from None
    out = []
    for n, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].strip()
        if text:
            try:
                out.append(_sim_command(text))
            except ValueError as e:
                raise DiceInputError(f"{path} line {n}: {e}") from None
    return out


def _stdin_lines(stop: threading.Event) -> Iterator[str]:
    """Commands from stdin: single keys on a terminal, lines from a pipe; stops at EOF or when ``stop`` is set."""
    fd = sys.stdin.fileno()
    if os.isatty(fd):  # already in cbreak mode (see _keys_mode): one key at a time
        while not stop.is_set():
            if select.select([fd], [], [], 0.2)[0]:
                ch = os.read(fd, 1).decode("ascii", "replace")
                if ch.strip():
                    yield ch
        return
    buf = b""
    while not stop.is_set():
        if not select.select([fd], [], [], 0.2)[0]:
            continue
        chunk = os.read(fd, 1024)
        if not chunk:
            if buf.strip():
                yield buf.decode("utf-8", "replace")
            return
        buf += chunk
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            yield line.decode("utf-8", "replace")


@contextmanager
def _keys_mode() -> Iterator[None]:
    """On a terminal, single keys act at once (cbreak) until the block ends; elsewhere nothing changes."""
    fd = sys.stdin.fileno()
    if not os.isatty(fd):
        yield
        return
    import termios
    import tty

    saved = termios.tcgetattr(fd)
    tty.setcbreak(fd)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def cmd_roller_sim(args: argparse.Namespace) -> int:
    from hw.roller.virtual import VirtualRoller

    script = _read_script(args.script) if args.script else []
    if args.link and Path(args.link).exists() and not Path(args.link).is_symlink():
        raise DiceInputError(f"--link {args.link} exists and is not a symlink; pick another path")
    roller = VirtualRoller(link=args.link, seed=args.seed)
    try:
        roller.start()
    except OSError as e:
        raise DiceInputError(f"cannot create the virtual roller at {args.link}: {e.strerror}") from None
    with _keys_mode(), _until_signalled() as stop:
        print(roller.path, flush=True)  # after cbreak: once the path is out, keys act at once
        sim = _Sim(roller, stop)
        try:
            for verb, rest in script:
                if stop.is_set():
                    break
                sim.run(verb, rest)
            for line in _stdin_lines(stop):
                text = line.split("#", 1)[0].strip()
                if not text:
                    continue
                try:
                    verb, rest = _sim_command(text)
                except ValueError as e:
                    print(f"roller-sim: {e}", file=sys.stderr, flush=True)
                    continue
                sim.run(verb, rest)
            stop.wait()  # stdin closed: keep rolling for the host until SIGINT/SIGTERM
        finally:
            roller.stop()
    return 0


# --- dice stats / fairness ------------------------------------------------------------------------------------


def read_rolls(path: str, die: str) -> list[int]:
    """One face per line; blank lines and ``#`` comments are skipped. Raises DiceInputError naming the line."""
    from companion.records.fairness import sides_of

    sides = sides_of(die)
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8-sig")
    except OSError as e:
        raise DiceInputError(f"cannot read {path}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise DiceInputError(f"{path} is not a text file of rolls") from None
    name = "stdin" if path == "-" else path
    values: list[int] = []
    for n, line in enumerate(text.splitlines(), 1):
        item = line.split("#", 1)[0].strip()
        if not item:
            continue
        if not item.isdigit() or not 1 <= int(item) <= sides:
            raise DiceInputError(f"{name} line {n}: {item[:20]!r} is not a {die} face (1..{sides})")
        values.append(int(item))
    return values


def _report(r: "FairnessResult", title: str, out: Callable[[str], None] = print) -> None:
    out(f"{title}: {r.n} roll{'s' if r.n != 1 else ''}")
    out("  face  " + " ".join(f"{i + 1:>5}" for i in range(r.sides)))
    out("  count " + " ".join(f"{c:>5}" for c in r.counts))
    out(f"  chi-square {r.chi2:.2f} ({r.dof} dof), p = {r.p_value:.4g}")
    peak = (f", peak {r.peak_bayes_factor:.3g}" if r.peak_log_bayes_factor > max(r.log_bayes_factor, 0.0)
            else "")
    out(f"  Bayes factor vs a fair die {r.bayes_factor:.3g}{peak} (flags at 20)")
    if r.flagged:
        out("  FLAGGED: the evidence says this die is not fair")
    elif r.n < 5 * r.sides:
        out("  too few rolls to say much yet")
    else:
        out("  no evidence of bias")


def cmd_dice_fairness(args: argparse.Namespace) -> int:
    from companion.records.fairness import assess

    values = read_rolls(args.file, args.die)
    result = assess(values, args.die)
    if args.json:
        print(json.dumps(result.to_json()))
    else:
        _report(result, f"{args.die} from {args.file}")
    return 0


def cmd_dice_stats(args: argparse.Namespace) -> int:
    from companion.config.load import load_config
    from companion.records.fairness import assess
    from companion.journal.store import Journal

    from companion.cli import journal_arg

    path = journal_arg(args.journal) or load_config(args.config).journal_path()
    results: list[tuple[str, Any]] = []
    if Path(path).exists():
        journal = Journal(path)
        try:
            rolls = journal.physical_rolls()
        finally:
            journal.close()
        for (roller, die), values in sorted(rolls.items()):
            try:
                results.append((roller, assess(values, die)))
            except ValueError as e:  # a die type or face this version does not know: report the rest
                print(f"companion: skipping {roller} {die}: {e}", file=sys.stderr)
    elif args.journal is not None:
        from companion.errors import JournalError

        raise JournalError(f"no journal at {path}; check the --journal path")
    if args.json:
        print(json.dumps({"journal": str(path),
                          "dice": [{"roller": roller, **r.to_json()} for roller, r in results]}))
        return 0
    if not results:
        print(f"no physical rolls recorded yet in {path}")
        return 0
    for roller, r in results:
        _report(r, f"{roller} {r.die}")
    return 0
