"""`companion export --bgstats FILE` and `--bgg FILE`: every field the formats need, of its type, checked by a schema
written here from the formats' evidence (docs/stats-export.md; BG Stats' own backups and the public programs that
write play files; BGG's XML API 2 plays and its XSD) — and stable identities, so a second import updates."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from stats_kit import cli, journal_of, stats

DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d")
UUID = re.compile(r"[0-9A-F]{8}-[0-9A-F]{4}-5[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}")
#: BG Stats: every field of each object, its type ("date": DATE text)
BGSTATS: dict[str, dict[str, Any]] = {
    "top": {"games": list, "players": list, "locations": list, "plays": list, "userInfo": dict, "challenges": list},
    "games": {"id": int, "uuid": "uuid", "name": str, "bggId": int, "bggName": str, "bggYear": int,
              "cooperative": bool, "highestWins": bool, "noPoints": bool, "usesTeams": bool, "isBaseGame": int,
              "isExpansion": int, "modificationDate": "date"},
    "players": {"id": int, "uuid": "uuid", "name": str, "isAnonymous": bool, "bggUsername": str,
                "modificationDate": "date"},
    "locations": {"id": int, "uuid": "uuid", "name": str, "modificationDate": "date"},
    "plays": {"uuid": "uuid", "gameRefId": int, "locationRefId": int, "playDate": "date", "entryDate": "date",
              "modificationDate": "date", "durationMin": int, "rounds": int, "ignored": bool, "manualWinner": bool,
              "usesTeams": bool, "rating": int, "scoringSetting": int, "bggId": int, "nemestatsId": int,
              "importPlayId": int, "playImages": str, "expansionPlays": list, "board": str, "comments": str,
              "playerScores": list},
    "playerScores": {"playerRefId": int, "score": str, "winner": bool, "startPlayer": bool, "rank": int,
                     "seatOrder": int, "newPlayer": bool},
    "userInfo": {"meRefId": int},
}
#: BGG plays XML: element → attribute → the text it must match (all required, as in BGG's plays XSD)
BGG = {
    "plays": {"username": r".*", "userid": r"\d+", "total": r"\d+", "page": r"[1-9]\d*", "termsofuse": r"https?://\S+"},
    "play": {"id": r"\d+", "date": r"\d{4}-\d\d-\d\d", "quantity": r"[1-9]\d*", "length": r"\d+",
             "incomplete": "[01]", "nowinstats": "[01]", "location": r".*"},
    "item": {"name": r".+", "objecttype": "thing", "objectid": r"\d+"},
    "subtype": {"value": "boardgame"},
    "player": {"username": r".*", "userid": r"\d+", "name": r".+", "startposition": r"\d*", "color": r".*",
               "score": r"(-?\d+(\.\d+)?)?", "new": "[01]", "rating": r"\d+", "win": "[01]"},
}


def typed(value: Any, want: Any) -> bool:
    if want == "date":
        return isinstance(value, str) and DATE.fullmatch(value) is not None
    if want == "uuid":
        return isinstance(value, str) and UUID.fullmatch(value) is not None
    if want is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, want)


def bgstats_problems(doc: dict[str, Any]) -> list[str]:
    out = []

    def check(obj: Any, kind: str, where: str) -> None:
        if not isinstance(obj, dict):
            out.append(f"{where} is not an object")
            return
        for field, want in BGSTATS[kind].items():
            if field not in obj:
                out.append(f"{where} lacks {field}")
            elif not typed(obj[field], want):
                out.append(f"{where}.{field} = {obj[field]!r} is not {want}")

    check(doc, "top", "file")
    for kind in ("games", "players", "locations", "plays"):
        for i, obj in enumerate(doc.get(kind, [])):
            check(obj, kind, f"{kind}[{i}]")
            for j, s in enumerate(obj.get("playerScores", []) if kind == "plays" else []):
                check(s, "playerScores", f"plays[{i}].playerScores[{j}]")
    check(doc.get("userInfo"), "userInfo", "userInfo")
    ids = {k: {o.get("id") for o in doc.get(k, [])} for k in ("games", "players", "locations")}
    for i, p in enumerate(doc.get("plays", [])):
        if p.get("gameRefId") not in ids["games"] or p.get("locationRefId") not in ids["locations"]:
            out.append(f"plays[{i}] refers to no game or location")
        if any(s.get("playerRefId") not in ids["players"] for s in p.get("playerScores", [])):
            out.append(f"plays[{i}] refers to no player")
        if p.get("playImages") != "[]":
            out.append(f"plays[{i}].playImages must be the text []")
    for kind in ("games", "players", "locations", "plays"):
        uuids = [o.get("uuid") for o in doc.get(kind, [])]
        if len(set(uuids)) != len(uuids):
            out.append(f"{kind}: a uuid twice")
    return out


def bgg_problems(xml: bytes) -> list[str]:
    out = []
    for el in ET.fromstring(xml).iter():
        for attr, pattern in BGG.get(el.tag, {}).items():
            if attr not in el.attrib:
                out.append(f"<{el.tag}> lacks {attr}")
            elif not re.fullmatch(pattern, el.attrib[attr]):
                out.append(f"<{el.tag} {attr}={el.attrib[attr]!r}>")
    return out


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return journal_of(tmp_path_factory.mktemp("export"), games=14, distinct=10, seed=5)


def export(journal: Path, out: Path, *extra: str) -> tuple[dict[str, Any], bytes]:
    status, _ = cli("export", "--journal", str(journal), "--bgstats", str(out / "plays.bgsplay"), "--bgg",
                    str(out / "plays.xml"), "--location", "Club table", *extra)
    assert status == 0
    return json.loads((out / "plays.bgsplay").read_text()), (out / "plays.xml").read_bytes()


def test_the_bgsplay_file_has_every_field_of_its_type(journal: Path, tmp_path: Path) -> None:
    doc, _ = export(journal, tmp_path)
    assert bgstats_problems(doc) == []
    history = stats(journal)
    played = [g for g in history["games"] if g["status"] in ("ended", "abandoned") and not g["hidden"]]
    assert len(doc["plays"]) == len(played) >= 8
    names = {g["name"] for g in doc["games"]}
    assert {"Sovereign", "SOVERANA", "Sovereign Chess"} <= names
    assert next(g for g in doc["games"] if g["name"] == "SOVERANA")["cooperative"] is True
    assert next(g for g in doc["games"] if g["name"] == "Sovereign Chess")["noPoints"] is True
    assert doc["locations"][0]["name"] == "Club table"
    status = {g["id"]: g["status"] for g in played}
    for p in doc["plays"]:
        gid = int(re.search(r"\(companion game (\d+)\)$", p["comments"]).group(1))
        assert p["ignored"] == (status[gid] == "abandoned")
        assert sum(s["startPlayer"] for s in p["playerScores"]) <= 1
        assert [s["seatOrder"] for s in p["playerScores"]] == list(range(1, len(p["playerScores"]) + 1))


def test_the_schema_check_fails_on_a_missing_or_mistyped_field(journal: Path, tmp_path: Path) -> None:
    doc, xml = export(journal, tmp_path)
    for kind, field, bad in (("plays", "durationMin", "90"), ("plays", "ignored", 0), ("games", "noPoints", None),
                             ("players", "uuid", "not-a-uuid"), ("plays", "playDate", "2026-11-27T19:00:00")):
        broken = json.loads(json.dumps(doc))
        broken[kind][0][field] = bad
        assert bgstats_problems(broken), (kind, field)
        del broken[kind][0][field]
        assert any("lacks" in x for x in bgstats_problems(broken)), (kind, field)
    broken = json.loads(json.dumps(doc))
    broken["plays"][0]["playerScores"][0]["score"] = 3
    assert bgstats_problems(broken)
    root = ET.fromstring(xml)
    root.find("play").attrib.pop("length")
    assert bgg_problems(ET.tostring(root)) == ["<play> lacks length"]


def test_a_second_export_keeps_every_identity_and_a_rename_keeps_the_player(journal: Path, tmp_path: Path) -> None:
    j = tmp_path / "j" / journal.name
    j.parent.mkdir()
    for p in journal.parent.iterdir():
        if p.is_file():
            shutil.copy(p, j.parent / p.name)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, _ = export(j, tmp_path / "a")
    again, _ = export(j, tmp_path / "b")
    assert [p["uuid"] for p in again["plays"]] == [p["uuid"] for p in first["plays"]]
    assert {p["uuid"] for p in again["players"]} == {p["uuid"] for p in first["players"]}
    who = first["players"][0]
    assert cli("stats", "--journal", str(j), "--rename", who["name"], "Zed the Great")[0] == 0
    (tmp_path / "c").mkdir()
    renamed, xml = export(j, tmp_path / "c")
    zed = next(p for p in renamed["players"] if p["name"] == "Zed the Great")
    assert zed["uuid"] == who["uuid"] and who["name"] not in {p["name"] for p in renamed["players"]}
    assert b'name="Zed the Great"' in xml
    assert [p["uuid"] for p in renamed["plays"]] == [p["uuid"] for p in first["plays"]]


def test_soverana_is_one_result_for_the_table(journal: Path, tmp_path: Path) -> None:
    doc, _ = export(journal, tmp_path)
    coop = next(g["id"] for g in doc["games"] if g["name"] == "SOVERANA")
    plays = [p for p in doc["plays"] if p["gameRefId"] == coop and not p["ignored"]]
    assert plays
    for p in plays:
        wins = {s["winner"] for s in p["playerScores"]}
        assert len(wins) == 1  # the city is saved or lost together
        assert sorted(s["rank"] for s in p["playerScores"])[0] == 1


def test_the_bgg_file_has_every_attribute_of_its_form(journal: Path, tmp_path: Path) -> None:
    doc, xml = export(journal, tmp_path, "--bgg-user", "clubtable")
    assert bgg_problems(xml) == []
    root = ET.fromstring(xml)
    plays = root.findall("play")
    assert root.get("username") == "clubtable" and int(root.get("total")) == len(plays) == len(doc["plays"])
    ignored = sum(p["ignored"] for p in doc["plays"])
    assert sum(p.get("incomplete") == "1" for p in plays) == ignored
    for play in plays:
        assert play.find("item/subtypes/subtype") is not None and play.find("players/player") is not None


def test_me_names_the_owner_and_an_unknown_me_is_one_line(journal: Path, tmp_path: Path) -> None:
    doc, _ = export(journal, tmp_path)
    name = doc["players"][1]["name"]
    mine, _ = export(journal, tmp_path, "--me", name.lower())
    assert mine["userInfo"]["meRefId"] == doc["players"][1]["id"]
    status, _ = cli("export", "--journal", str(journal), "--bgstats", str(tmp_path / "x.bgsplay"), "--me", "Nobody")
    assert status == 2
