"""``companion export --bgg FILE``: the plays as BoardGameGeek's plays XML — what its XML API 2 returns for
``/xmlapi2/plays`` — for the tools and libraries that read that format (BGG itself has no file import).

Written with the standard library's ElementTree (every value escaped by it). docs/stats-export.md gives each
attribute, what the companion puts there, what the format has no room for, and the sources. :data:`SCHEMA` lists
the attributes with the text each must match; the tests check every export against it.
"""
from __future__ import annotations

import re
import time
from typing import Sequence
from xml.etree import ElementTree as ET

from companion.stats.plays import Play

TERMS = "https://boardgamegeek.com/xmlapi/termsofuse"
INT = r"\d+"
FLAG = r"[01]"
ANY = r".*"
#: element → attribute → the pattern its text must match (every attribute is required, as in BGG's schema)
SCHEMA: dict[str, dict[str, str]] = {
    "plays": {"username": ANY, "userid": INT, "total": INT, "page": r"[1-9]\d*", "termsofuse": r"https?://\S+"},
    "play": {"id": INT, "date": r"\d{4}-\d\d-\d\d", "quantity": r"[1-9]\d*", "length": INT, "incomplete": FLAG,
             "nowinstats": FLAG, "location": ANY},
    "item": {"name": r".+", "objecttype": "thing", "objectid": INT},
    "subtype": {"value": "boardgame"},
    "player": {"username": ANY, "userid": INT, "name": r".+", "startposition": r"\d*", "color": ANY,
               "score": r"(-?\d+(\.\d+)?)?", "new": FLAG, "rating": INT, "win": FLAG},
}


def _score(v: int | float | None) -> str:
    if v is None:
        return ""
    return str(int(v)) if float(v).is_integer() else str(v)


def plays_xml(plays: Sequence[Play], location: str, username: str = "") -> bytes:
    """The XML document (UTF-8 bytes) of ``plays``, newest first as BGG lists them."""
    root = ET.Element("plays", username=username, userid="0", total=str(len(plays)), page="1", termsofuse=TERMS)
    for p in sorted(plays, key=lambda x: (x.start, x.id), reverse=True):
        play = ET.SubElement(root, "play", id=str(p.id), date=time.strftime("%Y-%m-%d", time.localtime(p.start)),
                             quantity="1", length=str(round(p.duration_s / 60)),
                             incomplete="0" if p.finished else "1", nowinstats="0" if p.finished else "1",
                             location=location)
        item = ET.SubElement(play, "item", name=p.title, objecttype="thing", objectid="0")
        ET.SubElement(ET.SubElement(item, "subtypes"), "subtype", value="boardgame")
        if p.comments:
            ET.SubElement(play, "comments").text = p.comments
        players = ET.SubElement(play, "players")
        for s in p.seats:
            ET.SubElement(players, "player", username="", userid="0", name=s.name, startposition=str(s.seat),
                          color="", score=_score(s.score), new="1" if s.new else "0", rating="0",
                          win="1" if s.winner else "0")
    ET.indent(root)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


def problems(xml: bytes) -> list[str]:
    """Every attribute missing or not of its form, as lines (empty when the file is as the format needs)."""
    out = []
    root = ET.fromstring(xml)
    for el in root.iter():
        want = SCHEMA.get(el.tag)
        if want is None:
            continue
        for attr, pattern in want.items():
            if attr not in el.attrib:
                out.append(f"<{el.tag}> lacks {attr}")
            elif not re.fullmatch(pattern, el.attrib[attr]):
                out.append(f"<{el.tag} {attr}={el.attrib[attr]!r}> is not of the form {pattern}")
    return out


__all__ = ["SCHEMA", "plays_xml", "problems"]
