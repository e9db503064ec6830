"""Each game's manual on the phone: ``GET /manual/<game-id>`` renders ``companion/manuals/<game-id>.md``.

The manuals are the same files the README links (shipped in the package). They are read straight from the package
by the game id the snapshot carries, so the web view needs no game object: a game id with no manual of its own is a
TOML game and gets ``toml.md``. Rendered with markdown-it-py (CommonMark plus tables) with raw HTML **off**: any HTML
in a file is shown as text, and markdown-it's own check drops ``javascript:`` and the like from links. Headings get
GitHub's anchor ids, and a link to a sibling manual (``clock.md#pause``) becomes ``/manual/clock#pause``, so the same
links work on GitHub and on the phone.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

TOML_MANUAL = "toml"  #: the manual of every game described in a TOML file
SHARED = {"clock", TOML_MANUAL}  #: manuals that are no one game's: a TOML game with such an id still gets toml.md
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,63}")  #: a game id, or a manual's file name without ``.md``
SIBLING = re.compile(r"([a-z0-9][a-z0-9-]*)\.md(#[\w-]+)?")


def manual_names() -> set[str]:
    folder = resources.files("companion") / "manuals"
    return {p.name[:-3] for p in folder.iterdir() if p.name.endswith(".md")}


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _markdown() -> "MarkdownIt":
    from markdown_it import MarkdownIt  # loaded on the first manual asked for, not at the web view's start

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False}).enable("table")

    def anchors_and_links(state: Any) -> None:
        tokens = state.tokens
        for i, tok in enumerate(tokens):
            if tok.type == "heading_open" and i + 1 < len(tokens):
                tok.attrSet("id", slug(tokens[i + 1].content))
            for child in tok.children or ():
                if child.type == "link_open":
                    m = SIBLING.fullmatch(str(child.attrGet("href") or ""))
                    if m:
                        child.attrSet("href", f"/manual/{m[1]}{m[2] or ''}")

    md.core.ruler.push("manual_anchors_and_links", anchors_and_links)
    md.core.ruler.push("manual_table_labels", table_labels)
    return md


def table_labels(state: Any) -> None:
    """Each table cell gets its column's name (``data-label``): on a phone the stylesheet shows a table's rows as
    cards, each cell under its name, instead of columns squeezed until words break letter by letter."""
    names: list[str] = []
    column = 0
    tokens = state.tokens
    for i, tok in enumerate(tokens):
        if tok.type == "thead_open":
            names = []
        elif tok.type == "tr_open":
            column = 0
        elif tok.type in ("th_open", "td_open") and i + 1 < len(tokens):
            if tok.type == "th_open":
                names.append("".join(c.content for c in tokens[i + 1].children or () if c.type in
                                     ("text", "code_inline")).strip())
            elif column < len(names) and names[column]:
                tok.attrSet("data-label", names[column])
            column += 1


@lru_cache(maxsize=16)
def _rendered(name: str) -> tuple[str, str]:
    """(the manual's first heading as plain text, its body as HTML) — the files do not change while it runs."""
    text = (resources.files("companion") / "manuals" / f"{name}.md").read_text(encoding="utf-8")
    first, _, rest = text.partition("\n")
    heading = re.sub(r"\s*\(`[^`]*`\)\s*$", "", first.removeprefix("# ")).replace("`", "")
    return heading, render(rest)


def render(text: str) -> str:
    """Markdown to HTML, raw HTML off (shown as text), headings with anchors, sibling manuals linked."""
    return _markdown().render(text)


def current_game(public: str) -> tuple[str | None, str | None]:
    """The running game's id and name from a snapshot's public JSON (None, None on the home menu)."""
    try:
        game = (json.loads(public) or {}).get("game") or {}
        return game.get("id"), game.get("name")
    except (ValueError, AttributeError):
        return None, None


def manual_page(name: str, game_id: str | None = None, game_name: str | None = None) -> str | None:
    """The whole page for ``/manual/<name>`` (``name`` may end in ``.md``), or None when there is no such manual.
    ``game_id``/``game_name``: the game the table is playing (its own name heads the page)."""
    name = name.removesuffix(".md")
    if not NAME.fullmatch(name):
        return None
    names = manual_names()
    toml_game = name == game_id and (name not in names or name in SHARED)
    file = TOML_MANUAL if toml_game else name if name in names else None
    if file is None:
        return None
    heading, body = _rendered(file)
    is_game = file not in SHARED or toml_game
    title = (game_name if name == game_id and game_name else heading)
    h1 = f"How this table plays {title}" if is_game else title
    return PAGE.format(title=escape(h1, quote=False), body=body)


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} — Sovereign Companion</title>
<link rel="stylesheet" href="/static/app.css">
</head>
<body>
<header><h1>{title}</h1><a class="manual-back" href="/">Back to the table</a></header>
<main><article class="manual">
{body}</article></main>
</body>
</html>
"""

__all__ = ["manual_page", "current_game", "manual_names", "render", "slug"]
