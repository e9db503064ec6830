"""The manual (issue 28): a README of at most about 400 lines that links each game's manual; one manual per game
shipped inside the package (companion/manuals/<game-id>.md, also read by the web view); every link in the docs
leads somewhere; what the README says of `--frames` is what `companion play` writes."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from PIL import Image

from companion.games import BUILTIN
from conftest import ROOT, run_companion

README = (ROOT / "README.md").read_text()
MANUALS = ROOT / "companion" / "manuals"
DOCS = [ROOT / "README.md", ROOT / "DEVELOPERS.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted(MANUALS.glob("*.md")), *sorted((ROOT / "firmware_docs").rglob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def headings(text: str) -> list[str]:
    text = re.sub(r"^ *```.*?^ *```$", "", text, flags=re.M | re.S)
    return re.findall(r"^#{1,6} (.+)$", text, re.M)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading (the web view's manual page gives its headings the same ids)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_readme_fits_a_few_screens() -> None:
    assert len(README.splitlines()) <= 410


@pytest.mark.parametrize("heading", ["Quick start", "The games", "The buttons", "The phone view",
                                     "Install on a Raspberry Pi", "Wiring", "Troubleshooting",
                                     "Scripted play and `--frames`", "For developers"])
def test_the_readme_has_its_sections(heading: str) -> None:
    assert heading in headings(README)


def test_the_readme_links_wiring_and_developers() -> None:
    wiring = README.split("\n## Wiring\n", 1)[1].split("\n## ", 1)[0]
    assert "](firmware_docs/wiring.md)" in wiring
    developers = README.split("\n## For developers\n", 1)[1]
    assert "](DEVELOPERS.md)" in developers
    assert "make run " in README and "make test " in README


@pytest.mark.parametrize("game", [*BUILTIN, "toml"])
def test_every_game_has_a_manual_one_link_from_the_readme(game: str) -> None:
    manual = MANUALS / f"{game}.md"
    assert manual.is_file(), f"{game} has no manual: write companion/manuals/{game}.md"
    games = README.split("\n## The games\n", 1)[1].split("\n## ", 1)[0]
    assert f"](companion/manuals/{game}.md)" in games
    text = manual.read_text()
    assert text.startswith("# ") and len(text.splitlines()) > 20


def test_no_stray_manual() -> None:
    """Each manual is a game's (or the clock's, which the games share): a renamed game cannot leave one behind."""
    assert {p.stem for p in MANUALS.glob("*.md")} == {*BUILTIN, "toml", "clock"}


def test_the_manuals_ship_in_the_package() -> None:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["companion"]
    assert "manuals/*.md" in data


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_leads_somewhere(doc: Path) -> None:
    text = doc.read_text()
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (doc.parent / path).resolve() if path else doc
        assert dest.exists(), f"{doc.relative_to(ROOT)} links {target}: no such file"
        if anchor and dest.suffix == ".md":
            assert anchor in {slug(h) for h in headings(dest.read_text())}, \
                f"{doc.relative_to(ROOT)} links {target}: no such heading"


@pytest.mark.parametrize("manual", sorted(MANUALS.glob("*.md")), ids=lambda p: p.name)
def test_a_manual_links_only_what_a_phone_can_open(manual: Path) -> None:
    """The web view serves the manuals and nothing else of the project: a manual links other manuals, its own
    headings, or the web."""
    for target in LINK.findall(manual.read_text()):
        assert re.fullmatch(r"(https?://\S+|#[\w-]+|[a-z-]+\.md(#[\w-]+)?)", target), (manual.name, target)


def test_frames_are_what_the_readme_says(tmp_path: Path) -> None:
    """README: "`0001.png`, `0002.png`, … 4× scale by default, 512×256 pixels ..., greyscale: a lit pixel white"."""
    assert "**4× scale by default, 512×256 pixels**" in README and "`0001.png`, `0002.png`" in README
    script = tmp_path / "s.txt"
    script.write_text("ok\nok\n")
    frames = tmp_path / "frames"
    done = run_companion("play", str(ROOT / "examples" / "vp-tracker.toml"), "--script", str(script), "--journal",
                         str(tmp_path / "j.sqlite"), "--frames", str(frames))
    assert done.returncode == 0, done.stderr
    pngs = sorted(frames.glob("*.png"))
    assert pngs and pngs[0].name == "0001.png"
    with Image.open(pngs[0]) as img:
        assert img.size == (512, 256) and img.mode == "L"
        shades = {shade for _n, shade in img.getcolors()}
    assert shades == {0, 255}

