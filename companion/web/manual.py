"""Each game's manual on the phone: ``GET /manual/<game-id>`` renders ``companion/manuals/<game-id>.md``.

The manuals are the same files the README links (shipped in the package). They are read straight from the package
by the game id the snapshot carries, so the web view needs no game object. A game described in TOML has no file: its
manual (how to play it, built from its spec) comes from the loop, which hands the server a callable
(``Hub.game_manual``: id → Markdown, or None). An id that is neither gets a phone-width 404 page. Rendered with
markdown-it-py (CommonMark plus tables) with raw HTML **off**: any HTML in a file is shown as text, and markdown-it's own check drops ``javascript:`` and the like from links. Headings get
GitHub's anchor ids, and a link to a sibling manual (``clock.md#pause``) becomes ``/manual/clock#pause``, so the same
links work on GitHub and on the phone.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from html import escape
from importlib import resources
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

TOML_MANUAL = "toml"  #: how to describe a game in TOML (the authoring page; a TOML game's own manual is built)
SHARED = {"clock", TOML_MANUAL}  #: manuals that are no one game's: a running TOML game with such an id gets its own
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
    return _split((resources.files("companion") / "manuals" / f"{name}.md").read_text(encoding="utf-8"))


def _split(text: str) -> tuple[str, str]:
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


def manual_page(name: str, game_id: str | None = None, game_name: str | None = None,
                game_manual: Callable[[str], str | None] | None = None) -> str | None:
    """The whole page for ``/manual/<name>`` (``name`` may end in ``.md``), or None when there is no such manual.
    ``game_id``/``game_name``: the game the table is playing (its own name heads the page); ``game_manual``: the
    loop's TOML games' manuals (Markdown headed ``# <name>``), asked for the running game and for ids with no file."""
    name = name.removesuffix(".md")
    if not NAME.fullmatch(name):
        return None
    names = manual_names()
    text = game_manual(name) if game_manual is not None and (name == game_id or name not in names) else None
    if text is not None:
        heading, body = _split(text)
        is_game = True
    elif name in names and not (name == game_id and name in SHARED):
        heading, body = _rendered(name)
        is_game = name not in SHARED
    else:
        return None
    title = (game_name if name == game_id and game_name else heading)
    h1 = f"How this table plays {title}" if is_game else title
    return PAGE.format(title=escape(h1, quote=False), body=body)


def not_found_page(name: str) -> str:
    """The 404 for a manual this table does not have: the same styled, phone-wide page, a way back."""
    shown = escape(name.removesuffix(".md")[:64], quote=False)
    return PAGE.format(title="No such manual", body=f"<p>This table has no manual called <code>{shown}</code>. "
                       "The page of the game being played links its manual.</p>\n"
                       '<p><a href="/">Back to the table</a></p>\n')


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

__all__ = ["manual_page", "not_found_page", "current_game", "manual_names", "render", "slug"]
