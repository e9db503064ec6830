"""`companion owner-code`: the code that pairs a phone as the host, with the web view's address and its QR code."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def register(sub: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    p = sub.add_parser("owner-code", help="print the owner code (it pairs a phone as the host at once) and a QR "
                                          "code of the web view's address with it")
    p.add_argument("--no-qr", action="store_true", help="print the code and the address only")
    p.add_argument("--svg", metavar="FILE", help="also write the QR code, the code and the address as an SVG to "
                                                 "print and stick on the box (readable by its owner only)")
    p.set_defaults(func=cmd_owner_code)


def cmd_owner_code(args: argparse.Namespace) -> int:
    """The config's ``[web] owner_code``, else the one the companion keeps in its state folder (for whoever may read
    that file: on an installed box, sudo)."""
    from companion.config.load import load_config
    from companion.errors import CompanionError
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
    url = owner_url(cfg, code)
    print(f"Owner code: {shown(code)}  (kept in {where})")
    print(f"On the owner's phone: open {url}")
    print("  (or open the address and type the code under Pair: that phone is then the host)")
    if not args.no_qr:
        import segno

        segno.make(url, error="l").terminal(out=sys.stdout, compact=True)
    if args.svg:
        write_svg(Path(args.svg), url, code)
        print(f"QR code written to {args.svg}")
    return 0


def owner_url(cfg: Any, code: str) -> str:
    """The web view's address that pairs the phone opening it as the owner's (``#owner=ABCD-EFGH``)."""
    from companion.web import url_for
    from companion.web.owner import shown

    host = cfg.web.bind if cfg.web.bind != "auto" else "0.0.0.0"  # a phone needs the LAN address, not loopback
    return url_for(host, cfg.web.port) + "#owner=" + shown(code)


def owner_svg(url: str, code: str) -> str:
    """A label to print: the QR code of ``url`` with the owner code and the address under it."""
    import io
    from html import escape

    import segno

    from companion.web.owner import shown

    qr = segno.make(url, error="m")
    scale, border = 6, 4
    side, _ = qr.symbol_size(scale=scale, border=border)
    width = max(side, 8 * len(url))  # the address under it, in 13-pixel monospace, fits
    buf = io.BytesIO()
    qr.save(buf, kind="svg", scale=scale, border=border, xmldecl=False, svgns=True, nl=False)
    return (f'<?xml version="1.0" encoding="utf-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="{width}" '
            f'height="{side + 52}" viewBox="0 0 {width} {side + 52}"><rect width="100%" height="100%" fill="#fff"/>'
            f'<svg x="{(width - side) // 2}" y="0">{buf.getvalue().decode()}</svg>'
            f'<text x="{width // 2}" y="{side + 16}" text-anchor="middle" font-family="monospace" font-size="20" '
            f'font-weight="bold">Owner code {shown(code)}</text>'
            f'<text x="{width // 2}" y="{side + 40}" text-anchor="middle" font-family="monospace" font-size="13">'
            f'{escape(url.split("#", 1)[0])}</text></svg>\n')


def write_svg(path: Path, url: str, code: str) -> bool:
    """:func:`owner_svg` into ``path`` (mode 0640, replaced atomically); False when it held that already."""
    import os

    from companion.errors import CompanionError

    text = owner_svg(url, code)
    try:
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            return False
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NOFOLLOW, 0o640)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            os.fchmod(f.fileno(), 0o640)
            f.write(text)
        os.replace(tmp, path)
    except (OSError, UnicodeDecodeError) as e:
        raise CompanionError(f"cannot write the owner code's QR code to {path}: {getattr(e, 'strerror', e)}") \
            from None
    return True
