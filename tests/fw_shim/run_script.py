"""One script against the firmware in CPython: ``python run_script.py FIRMWARE [--ticks-start N] [--seed N] [--still]``.

The CPython twin of mpy/run_script.mjs, with the same stand-ins' behaviour (MicroPython's ``time`` from
:mod:`utime`, ``os.urandom`` from :mod:`fw_rng`, ``machine`` and ``micropython`` from this folder): the firmware
imported as ``main``, then the script on stdin run (``--still``: the ticks move only by ``time.advance``). Its
print()s come out on stdout; an exception's traceback on stderr, with exit 1.
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import fw_rng  # type: ignore[import-not-found]  # noqa: E402
import utime  # type: ignore[import-not-found]  # noqa: E402
from utime import NEAR_WRAP  # type: ignore[import-not-found]  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("firmware")
    p.add_argument("--ticks-start", type=int, default=NEAR_WRAP)
    p.add_argument("--seed", type=int, default=35)
    p.add_argument("--still", action="store_true")
    args = p.parse_args()
    script = sys.stdin.read()
    utime.set_start(args.ticks_start, real=not args.still)
    sys.modules["time"] = utime
    fw_rng.seed(args.seed)
    os.urandom = fw_rng.urandom
    spec = importlib.util.spec_from_file_location("main", args.firmware)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {args.firmware}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["main"] = module
    spec.loader.exec_module(module)
    exec(compile(script, "<script>", "exec"), {"__name__": "__script__"})


if __name__ == "__main__":
    main()
