"""Lay out the docs for the box: ``python3 systemd/install_docs.py SRC DEST`` (install.sh calls it).

The pages a maker or player reads on the box go into DEST (install.sh then puts DEST at /opt/companion/docs):

    README.md, DEVELOPERS.md        the README and the developers' guide
    *.md                            the maker's pages (firmware_docs/*.md): wiring, install, troubleshooting, ...
    roller/                         the roller's guide and its firmware (firmware_docs/roller/)
    topics/                         the topic pages the README links (docs/*.md): buttons, dice, saved games, ...
    manuals/                        each game's manual (companion/manuals/*.md)

The maker's pages keep the places older docs, the unit's Documentation= and the installer's summary name. Every
relative link in a page is rewritten to where its target lies in DEST, so each resolves on the box; a link to a file
that is not installed (a test's evidence, a source file) becomes its plain name in the project's source. Only the
standard library: it runs with the system's python3 before anything else is installed.
"""
from __future__ import annotations

import posixpath
import re
import shutil
import sys
from pathlib import Path

#: (pages in the project, the folder in DEST they go to)
LAYOUT = [
    ("README.md", ""),
    ("DEVELOPERS.md", ""),
    ("firmware_docs/*.md", ""),
    ("firmware_docs/roller/*", "roller"),
    ("docs/*.md", "topics"),
    ("companion/manuals/*.md", "manuals"),
]
#: a fenced code block or an inline code span: never a link, left as it is
CODE = re.compile(r"^ *```.*?^ *```[^\n]*$|`[^`\n]+`", re.M | re.S)
#: an inline link or image: [text](target), the text with at most one level of brackets inside
LINK = re.compile(r"(!?)\[((?:[^\[\]]|\[[^\[\]]*\])*)\]\(([^()\s]+)\)")
EXTERNAL = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*:|#|/")


def layout(src: Path) -> dict[str, str]:
    """Each installed file's path in the project -> its path in DEST (both relative, with '/')."""
    placed: dict[str, str] = {}
    for pattern, folder in LAYOUT:
        for path in sorted(src.glob(pattern)):
            if not path.is_file():
                continue
            rel = path.relative_to(src).as_posix()
            dest = posixpath.join(folder, path.name)
            clash = next((s for s, d in placed.items() if d == dest), None)
            if clash is not None:
                raise SystemExit(f"install_docs.py: {rel} and {clash} would both be installed as {dest}; rename one")
            placed[rel] = dest
    if "README.md" not in placed:
        raise SystemExit(f"install_docs.py: {src} has no README.md: run it from a checkout of the project")
    return placed


def relink(text: str, source: str, dest: str, placed: dict[str, str]) -> str:
    """``text`` of the page ``source`` (installed as ``dest``) with every relative link pointing into DEST."""
    here, there = posixpath.dirname(source), posixpath.dirname(dest)

    def one(m: re.Match[str]) -> str:
        bang, label, target = m.groups()
        if EXTERNAL.match(target):
            return m.group(0)
        path, hash_, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(here, path))
        named = label.strip("`") in (target, path)  # a link that shows its own path: [wiring.md](wiring.md)
        if resolved in placed:
            new = posixpath.relpath(placed[resolved], there or ".")
            if named:
                label = label.replace(label.strip("`"), new + hash_ + anchor if label.strip("`") == target else new)
            return f"{bang}[{label}]({new}{hash_}{anchor})"
        name = f"`{resolved}` in the project's source"
        return name if named else f"{label} ({name})"

    out, last = [], 0
    for code in CODE.finditer(text):
        out += [LINK.sub(one, text[last:code.start()]), code.group(0)]
        last = code.end()
    out.append(LINK.sub(one, text[last:]))
    return "".join(out)


def install(src: Path, dest: Path) -> int:
    placed = layout(src)
    for rel, where in placed.items():
        target = dest / where
        target.parent.mkdir(parents=True, exist_ok=True)
        if rel.endswith(".md"):
            target.write_text(relink((src / rel).read_text(encoding="utf-8"), rel, where, placed), encoding="utf-8")
        else:
            shutil.copyfile(src / rel, target)
    return len(placed)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: install_docs.py SRC DEST", file=sys.stderr)
        return 2
    install(Path(argv[0]), Path(argv[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
