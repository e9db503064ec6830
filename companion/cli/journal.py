"""`companion journal check [PATH]` and `companion journal salvage PATH -o NEW`: damaged journals."""
from __future__ import annotations

import argparse
from pathlib import Path


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("journal", help="check a journal, or salvage a damaged one")
    jsub = p.add_subparsers(dest="journal_command", metavar="ACTION", required=True)
    c = jsub.add_parser("check", help="say what is readable and verified in a journal (it is only read)")
    c.add_argument("path", nargs="?", help="journal file (default from config)")
    c.set_defaults(func=cmd_check)
    s = jsub.add_parser("salvage", help="copy every game's readable, verified inputs into a new journal")
    s.add_argument("path", help="the damaged journal (only read)")
    s.add_argument("-o", "--output", required=True, metavar="NEW", help="the new journal to write")
    s.set_defaults(func=cmd_salvage)


def cmd_check(args: argparse.Namespace) -> int:
    """Exit 0 when everything verifies, 1 when something is damaged, 3 when saved inputs are lost (the lines say
    which and how many), 2 when the file cannot be checked (no file, not a journal, a full disk)."""
    from companion.cli import journal_arg
    from companion.config.load import load_config
    from companion.journal.salvage import check

    path = journal_arg(args.path, "the journal path") or load_config(args.config).journal_path()
    report = check(path)
    for line in report.lines():
        print(line)
    return report.status


def cmd_salvage(args: argparse.Namespace) -> int:
    from companion.cli import journal_arg
    from companion.journal.salvage import salvage

    refused: list[str] = []
    path, output = (journal_arg(a, w) or Path(a) for a, w in ((args.path, "the journal path"), (args.output, "-o")))
    report, copied = salvage(path, output, refused)
    for line in report.lines() + refused:
        print(line)
    for old, new, n in copied:
        print(f"game {old} -> game {new} in {output}: {n} inputs")
    print(f"{len(copied)} of {len(report.games)} games copied into {output}")
    return 0
