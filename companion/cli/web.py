"""`companion owner-code`: the code that pairs a phone as the host, with the web view's address and its QR code."""
from __future__ import annotations

import argparse
import sys


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("owner-code", help="print the owner code (it pairs a phone as the host at once) and a QR "
                                          "code of the web view's address with it")
    p.add_argument("--no-qr", action="store_true", help="print the code and the address only")
    p.set_defaults(func=cmd_owner_code)


def cmd_owner_code(args: argparse.Namespace) -> int:
    """The config's ``[web] owner_code``, else the one the companion keeps in its state folder (for whoever may read
    that file: on an installed box, sudo)."""
    from companion.config.load import load_config
    from companion.errors import CompanionError
    from companion.web import url_for
    from companion.web.owner import FILE_NAME, read_file, shown

    cfg = load_config(getattr(args, "config", None))
    if cfg.web.owner_code_problem:
        print(f"companion: {cfg.web.owner_code_problem}", file=sys.stderr)
    if cfg.web.owner_code is not None:
        code, where = cfg.web.owner_code, f"[web] owner_code in {cfg.source}"
    else:
        path = cfg.journal_path().parent / FILE_NAME
        found = read_file(path)
        if found is None:
            raise CompanionError(f"no owner code yet: the companion makes one at its first start and keeps it in "
                                 f"{path} (or set [web] owner_code = \"ABCD-EFGH\" in the config)")
        code, where = found, str(path)
    host = cfg.web.bind if cfg.web.bind != "auto" else "0.0.0.0"  # a phone needs the LAN address, not loopback
    url = url_for(host, cfg.web.port) + "#owner=" + shown(code)
    print(f"Owner code: {shown(code)}  (kept in {where})")
    print(f"On the owner's phone: open {url}")
    print("  (or open the address and type the code under Pair: that phone is then the host)")
    if not args.no_qr:
        import segno

        segno.make(url, error="l").terminal(out=sys.stdout, compact=True)
    return 0
