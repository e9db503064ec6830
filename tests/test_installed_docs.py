"""The docs on an installed box: ``install.sh --root`` lays them out (systemd/install_docs.py), and every link in every
installed page resolves there — to a file of the installed tree and, with an anchor, to a heading of that page — as
does every /opt/companion/docs path the pages, the installer's summary and the unit name. The manuals and the topic
pages are installed beside the maker's pages.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path
from typing import Iterator

import pytest
from markdown_it import MarkdownIt

from companion.web.manual import slug
from hw import faults
from conftest import ROOT
from test_installer import STUB, Fresh, fresh  # noqa: F401 (fresh: the fixture)

sys.path.insert(0, str(ROOT / "systemd"))
import install_docs  # noqa: E402

INSTALL = ROOT / "systemd" / "install.sh"
DOCS = "/opt/companion/docs"
EXTERNAL = re.compile(r"[a-z][a-z0-9+.-]*:", re.I)


@pytest.fixture(scope="module")
def box(fresh: Fresh) -> tuple[Path, str]:
    """A tree laid by the real installer under --root (the venv's python stubbed; made once per run and only read
    here), and what it printed."""
    return fresh.root, fresh.out


@lru_cache(maxsize=None)
def parsed(page: Path) -> tuple[list[str], set[str]]:
    """The link targets of a Markdown page (as a viewer sees them: not in code) and its headings' anchors."""
    tokens = MarkdownIt("commonmark").enable("table").parse(page.read_text(encoding="utf-8"))
    targets = [str(child.attrGet("href") or child.attrGet("src") or "")
               for tok in tokens for child in tok.children or () if child.type in ("link_open", "image")]
    anchors = {slug(tokens[i + 1].content) for i, tok in enumerate(tokens) if tok.type == "heading_open"}
    return targets, anchors


def check_links(docs: Path) -> tuple[int, list[str]]:
    """Follow every link between the pages under ``docs``: (how many were followed, the dead ones)."""
    followed, dead = 0, []
    for page in sorted(docs.rglob("*.md")):
        for target in parsed(page)[0]:
            if EXTERNAL.match(target):
                continue
            followed += 1
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(docs)}: {target}"
            if not dest.is_file() or docs.resolve() not in dest.parents:
                dead.append(f"{where} (no such file on the box)")
            elif anchor and (dest.suffix != ".md" or anchor not in parsed(dest)[1]):
                dead.append(f"{where} (no such heading)")
    return followed, dead


def box_paths(text: str) -> Iterator[str]:
    """Every /opt/companion/docs/... path named in ``text``."""
    for m in re.finditer(re.escape(DOCS) + r"(/[\w./-]*)?", text):
        yield m.group(0).rstrip(".")


def test_every_link_in_every_installed_page_resolves_on_the_box(box: tuple[Path, str]) -> None:
    root, _ = box
    followed, dead = check_links(root / DOCS.lstrip("/"))
    assert dead == []
    assert followed >= 90  # (96 when this was written: 42 in the README)


def test_the_manuals_and_topic_pages_are_installed_beside_the_makers_pages(box: tuple[Path, str]) -> None:
    docs = root_docs = box[0] / DOCS.lstrip("/")
    installed = {p.relative_to(root_docs).as_posix() for p in docs.rglob("*") if p.is_file()}
    expected = {"README.md", "DEVELOPERS.md", "roller/README.md", "roller/main.py",
                *(p.name for p in (ROOT / "firmware_docs").glob("*.md")),
                *(f"topics/{p.name}" for p in (ROOT / "docs").glob("*.md")),
                *(f"manuals/{p.name}" for p in (ROOT / "companion" / "manuals").glob("*.md"))}
    assert installed == expected
    for rel, where in install_docs.layout(ROOT).items():  # the text is the project's, only links changed
        source, page = (ROOT / rel).read_text(), (docs / where).read_text()
        assert len(page.splitlines()) == len(source.splitlines()), where
        assert re.findall(r"^#+ .*$", page, re.M) == re.findall(r"^#+ .*$", source, re.M), where


def test_every_box_path_the_pages_the_installer_and_the_unit_name_exists(box: tuple[Path, str]) -> None:
    root, printed = box
    unit = (ROOT / "systemd" / "companion.service").read_text()
    named = {(p, "install.sh's summary") for p in box_paths(printed)}
    named |= {(p, "companion.service") for p in box_paths(unit)}
    named |= {(p, str(page.relative_to(root))) for page in (root / DOCS.lstrip("/")).rglob("*.md")
              for p in box_paths(page.read_text())}
    assert len({p for p, _ in named}) >= 4
    assert [f"{where}: {p}" for p, where in sorted(named) if not (root / p.lstrip("/")).exists()] == []


def test_an_installed_page_is_named_as_the_box_has_it(box: tuple[Path, str]) -> None:
    """A page that sits elsewhere on the box is not named by its path in the project (`docs/dice.md` is topics/dice.md
    there): a link (rewritten on installing) or its plain name, unless the line says it means the project."""
    docs = box[0] / DOCS.lstrip("/")
    placed = install_docs.layout(ROOT)
    moved = [rel for rel, where in placed.items() if rel.endswith(".md") and rel != where]
    found = []
    for where in sorted(w for w in placed.values() if w.endswith(".md") and w != "DEVELOPERS.md"):
        # (a link's own text may show the project's path: the link itself goes to the right place)
        prose = install_docs.LINK.sub("", (docs / where).read_text(encoding="utf-8"))
        for n, line in enumerate(prose.splitlines(), 1):
            found += [f"{where}:{n}: {rel}" for rel in moved
                      if re.search(r"(?<![\w/.])" + re.escape(rel), line) and "project" not in line]
    assert found == []


def test_the_udev_rule_is_named_where_the_box_has_it(box: tuple[Path, str]) -> None:
    """The roller's udev rule, which says how to add another roller, is /etc/udev/rules.d/... on the box: every
    paragraph of an installed page (and the fault a maker meets) that names it says so."""
    docs, rule = box[0] / DOCS.lstrip("/"), "/etc/udev/rules.d/99-companion-roller.rules"
    assert (box[0] / rule.lstrip("/")).is_file()
    found = [f"{page.relative_to(docs)}: {para[:60]}" for page in sorted(docs.rglob("*.md")) if page.name != "DEVELOPERS.md"
             for para in re.split(r"\n\s*\n", page.read_text(encoding="utf-8"))
             if "99-companion-roller.rules" in para and rule not in para]
    assert found == []
    assert rule in faults.ROLLER_PERMISSION


def test_the_checker_finds_a_dead_link(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# A page\n\n[ok](b.md#a-heading) [gone](c.md) [bad](b.md#nowhere) [me](#a-page)\n"
                                   "[up](../outside.md) `[code](not-a-link.md)` [web](https://example.org/x)\n")
    (tmp_path / "b.md").write_text("## A heading\n")
    (tmp_path.parent / "outside.md").write_text("# Not on the box\n")
    assert check_links(tmp_path) == (5, ["a.md: c.md (no such file on the box)", "a.md: b.md#nowhere (no such heading)",
                                         "a.md: ../outside.md (no such file on the box)"])


def test_a_link_to_a_file_not_installed_becomes_its_plain_name() -> None:
    placed = {"README.md": "README.md", "docs/speed.md": "topics/speed.md", "firmware_docs/wiring.md": "wiring.md"}
    text = ("[README](../README.md#the-games) [evidence/run.txt](evidence/run.txt) [the code](../hw/leds.py) "
            "[../firmware_docs/wiring.md](../firmware_docs/wiring.md) `[x](../hw/leds.py)`\n")
    assert install_docs.relink(text, "docs/speed.md", "topics/speed.md", placed) == (
        "[README](../README.md#the-games) `docs/evidence/run.txt` in the project's source "
        "the code (`hw/leds.py` in the project's source) [../wiring.md](../wiring.md) `[x](../hw/leds.py)`\n")


def test_two_pages_for_one_place_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "firmware_docs").mkdir()
    (tmp_path / "README.md").write_text("# Readme\n")
    (tmp_path / "firmware_docs" / "README.md").write_text("# Another\n")
    with pytest.raises(SystemExit, match="firmware_docs/README.md and README.md would both be installed as README.md"):
        install_docs.layout(tmp_path)


def test_a_page_no_longer_shipped_is_removed(tmp_path: Path) -> None:
    stub = tmp_path / "python3"
    stub.write_text(STUB.format(python=sys.executable))
    stub.chmod(0o755)
    env = {**os.environ, "PYTHON": str(stub), "STUB_LOG": str(tmp_path / "stub.log")}
    root = tmp_path / "root"
    stale = root / DOCS.lstrip("/") / "old" / "renamed.md"  # laid by an older installer
    stale.parent.mkdir(parents=True)
    stale.write_text("# Old\n[dead](../nowhere.md)\n")
    out = subprocess.run(["bash", str(INSTALL), "--root", str(root), "--yes"], env=env, capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert f"  - removed {DOCS}/old/renamed.md" in out.stdout.splitlines()
    assert not stale.parent.exists() and check_links(root / DOCS.lstrip("/"))[1] == []


@pytest.mark.parametrize("script", sorted((ROOT / "systemd").glob("*.sh")), ids=lambda p: p.name)
def test_a_script_whose_usage_runs_it_directly_is_executable(script: Path) -> None:
    header = "".join(line for line in script.read_text().splitlines(keepends=True)[:20] if line.startswith("#"))
    if re.search(rf"^#\s+(sudo )?systemd/{re.escape(script.name)}\b", header, re.M):
        assert os.access(script, os.X_OK), f"its usage line runs it: git update-index --chmod=+x {script.name}"
