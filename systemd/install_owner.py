"""The installer's owner code: ``VENV/bin/python systemd/install_owner.py --config CONF --state DIR --svg FILE``
(install.sh runs it with the installed venv's python, once the config is in place).

The owner code pairs the owner's phone as the host at once: the trust root of a box whose panel is missing or
broken (docs/web-view.md). This makes sure the installed config has one and writes its printable QR code:

* ``[web] owner_code`` in CONF already a code: kept (a re-run never changes it);
* none there: the one the box made for itself at an earlier start (``DIR/owner-code``) if there is one, else a new
  one, written into CONF with its comments and other keys kept (companion/config/write.py);
* one there that is not a code: left as the user wrote it, said in one line (the box sets it aside at start).

Then FILE (the label to print: the QR code of the web view's address with ``#owner=CODE``, the code and the
address) is written, mode 0640 (install.sh gives it to root and the service's group). It prints two lines for
install.sh: ``code made|adopted|kept CODE`` and ``qr written|same URL``; a problem is one line on stderr, exit 1.
"""
from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="install_owner.py")
    ap.add_argument("--config", required=True, type=Path)
    ap.add_argument("--state", required=True, type=Path)
    ap.add_argument("--svg", required=True, type=Path)
    args = ap.parse_args(argv)
    from companion.cli.web import owner_url, write_svg
    from companion.config.load import parse_config
    from companion.config.write import save_settings
    from companion.errors import CompanionError
    from companion.web.owner import FILE_NAME, new_code, normalize, read_file, shown

    try:
        raw = tomllib.loads(args.config.read_text(encoding="utf-8-sig"))
        web = raw.get("web") if isinstance(raw.get("web"), dict) else {}
        if "owner_code" in web:
            code = normalize(web["owner_code"])
            if code is None:
                print(f"[web] owner_code in {args.config} is not an owner code (8 letters and digits, e.g. "
                      "\"ABCD-EFGH\"): left as it is; fix it, or delete the line and run the installer again",
                      file=sys.stderr)
                return 1
            status = "kept"
        else:
            try:
                code, status = read_file(args.state / FILE_NAME), "adopted"
            except CompanionError:  # damaged: the box sets it aside itself; the config's code wins from now on
                code = None
            if code is None:
                code, status = new_code(), "made"
            save_settings(args.config, {("web", "owner_code"): shown(code)})
        url = owner_url(parse_config(raw), code)
        written = write_svg(args.svg, url, code)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, CompanionError) as e:
        print(f"no owner code written: {getattr(e, 'strerror', None) or e}", file=sys.stderr)
        return 1
    print(f"code {status} {shown(code)}")
    print(f"qr {'written' if written else 'same'} {url}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
