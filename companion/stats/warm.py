"""``python -m companion.stats.warm JOURNAL [--config PATH]``: summarise every saved game not in the statistics
cache yet, then exit. The web view's history starts it (:meth:`.provider.History.warm`) when a phone finds games
not summarised: it runs niced in its own process, so replaying a hundred games never takes the interpreter from
the loop that answers the buttons. One at a time: a second one finding the cache being filled does no harm (a row
is written whole), and it reads the journal through its own read-only connection."""
from __future__ import annotations

import argparse
import logging
import os
import sys
from pathlib import Path

log = logging.getLogger(__name__)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m companion.stats.warm", description=__doc__.splitlines()[0])
    ap.add_argument("journal", type=Path)
    ap.add_argument("--config", type=Path)
    args = ap.parse_args(argv)
    try:
        os.nice(10)
    except OSError:
        pass
    from companion.config.load import load_config
    from companion.errors import CompanionError
    from companion.stats.provider import History

    try:
        hist = History(load_config(str(args.config) if args.config else None), args.journal)
        try:
            docs, _ = hist.summaries(compute=True)
        finally:
            hist.close()
    except CompanionError as e:
        print(f"companion: {e}", file=sys.stderr)
        return 2
    log.info("history: %d games summarised", len(docs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
