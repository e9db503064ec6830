"""``companion export --bgg FILE``: the plays as BoardGameGeek's plays XML — what its XML API 2 returns for
``/xmlapi2/plays`` — for the tools and libraries that read that format (BGG itself has no file import).

Written with the standard library's ElementTree (every value escaped by it). docs/stats-export.md gives each
attribute, what the companion puts there, what the format has no room for, and the sources;
tests/test_stats_export.py checks each export against a schema of its own (every attribute, the text it must
match).
"""
from __future__ import annotations

import time
from typing import Sequence
from xml.etree import ElementTree as ET

from companion.stats.plays import Play, score_text

TERMS = "https://boardgamegeek.com/xmlapi/termsofuse"


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
                          color="", score=score_text(s.score), new="1" if s.new else "0", rating="0",
                          win="1" if s.winner else "0")
    ET.indent(root)
    return b'<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(root, encoding="utf-8") + b"\n"


__all__ = ["plays_xml"]
