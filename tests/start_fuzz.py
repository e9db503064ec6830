"""The kit of tests/test_start_fuzz.py: a box's state folder (config, journal with a game in its -wal, head witness,
lock, pairings, snapshot key, games folder) and the damage each file can suffer, drawn from one seeded generator.

Every damage is a function ``(box, rng) -> None`` on a copy of the box; a case is one damage, sometimes two of
different families. Nothing here runs the companion: the test does, in-process and as `companion run` processes.
"""
from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
from pathlib import Path
from typing import Callable

from companion.config.load import parse_config
from companion.journal.store import Journal
from companion.session import encode_event
from companion.session.headless import new_record, open_session

EXAMPLE = Path(__file__).resolve().parent.parent / "companion" / "data" / "examples" / "race-to-ten.toml"
Damage = Callable[[Path, random.Random], None]

CONFIG = """hardware = "headless"
[journal]
path = "{box}/journal.sqlite"
[roller]
port = "none"
[web]
enabled = true
bind = "localhost"
port = {port}
[games]
folder = "{box}/games"
[players]
names = ["Ana", "Ben"]
"""


PRESSES = ["ok", "ok", "down", "ok", "ok", "ok", "down", "ok", "ok", "up", "ok", "ok"]  #: the box's game so far


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def make_box(box: Path, port: int | None = None) -> None:
    """A box as a power cut leaves it mid-game: a TOML game from its games folder, 12 presses in, its last ones in
    the -wal (copied while the journal was open), the head witness, a lock, a paired phone and the snapshot key."""
    (box / "games").mkdir(parents=True)
    shutil.copy(EXAMPLE, box / "games" / "race.toml")
    (box / "c.toml").write_text(CONFIG.format(box=box, port=port or free_port()))
    live = box / "live"
    live.mkdir()
    cfg = parse_config({"journal": {"path": str(live / "journal.sqlite")}, "players": {"names": ["Ana", "Ben"]},
                        "games": {"folder": str(box / "games")}})
    j = Journal(live / "journal.sqlite", lock=True)
    done = new_record(j, "sovereign", cfg, 3)
    j.set_status(done.id, "finished")
    rec = new_record(j, str(box / "games" / "race.toml"), cfg, 7)
    s = open_session(j, rec, cfg)
    from companion.events import Key, KeyEvent

    for key in PRESSES:
        ev = KeyEvent(Key(key))
        rolls = s.handle(ev, 1000.0 + s.n_inputs)
        j.commit(rec.id, s.n_inputs, encode_event(ev), rolls, s.summary(), t=s._t)
    for suffix in ("", "-wal", "-shm", ".head"):  # as a power cut leaves them: the -wal not folded in
        src = Path(str(live / "journal.sqlite") + suffix)
        if src.exists():
            shutil.copyfile(src, Path(str(box / "journal.sqlite") + suffix))
    j.close()
    shutil.rmtree(live)
    (box / "journal.sqlite.lock").write_text("4242\n")
    (box / "web-pairings.json").write_text(json.dumps([{
        "key": "ab" * 32, "csrf": "c" * 32, "code": "K7QX", "created": 1e9, "expires": 4e9, "seat": 1,
        "host": False, "game": rec.id}]))
    (box / "snapshot.key").write_bytes(bytes(range(32)))


# ------------------------------------------------------------------ byte-level damage, any file
def flip(path: Path, rng: random.Random, n: int, lo: int = 0, hi: int | None = None) -> None:
    data = bytearray(path.read_bytes())
    if not data:
        return
    hi = len(data) if hi is None else min(hi, len(data))
    for _ in range(n):
        i = rng.randrange(lo, max(lo + 1, hi))
        data[min(i, len(data) - 1)] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def replace_with(kind: str, path: Path, rng: random.Random) -> None:
    """The file made into something else: a pipe, a folder, a device link, garbage, nothing, too much."""
    if kind == "empty" and path.is_file() and not path.is_symlink():  # in place, as a file system after a power cut
        os.truncate(path, 0)
        return
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dir":
        path.mkdir()
        (path / "inside").write_text("x")
    elif kind == "devzero":
        path.symlink_to("/dev/zero")
    elif kind == "garbage":
        path.write_bytes(rng.randbytes(rng.choice([1, 7, 100, 4096, 30000])))
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "huge":
        with open(path, "wb") as f:
            f.truncate(3 << 20)  # sparse: costs no disk
    elif kind == "not-utf8":
        path.write_bytes(b"\xff\xfe[\xc3(" * 20)
    elif kind == "deep":
        path.write_text("[" * 5000 + "]" * 5000)
    elif kind == "dangling":
        path.symlink_to(path.parent / "nowhere" / "x")


FILE_KINDS = ("fifo", "dir", "devzero", "garbage", "empty", "huge", "not-utf8", "deep", "dangling")


def file_damage(name: str) -> list[tuple[str, Damage]]:
    return [(f"{name}:{k}", (lambda k: lambda box, rng: replace_with(k, box / name, rng))(k)) for k in FILE_KINDS]


# ------------------------------------------------------------------ the journal
def _sql(*stmts: str) -> Damage:
    def go(box: Path, rng: random.Random) -> None:
        db = sqlite3.connect(box / "journal.sqlite", isolation_level=None)
        try:
            db.execute("PRAGMA writable_schema=ON")
            for s in stmts:
                db.execute(s)
        finally:
            db.close()
    return go


def _schema_bytes(find: bytes, to: bytes) -> Damage:
    def go(box: Path, rng: random.Random) -> None:
        p = box / "journal.sqlite"
        data = p.read_bytes()
        if find in data:
            p.write_bytes(data.replace(find, to, 1))
    return go


def _wal_frames(n: int) -> Damage:
    def go(box: Path, rng: random.Random) -> None:
        w = box / "journal.sqlite-wal"
        if w.exists() and w.stat().st_size > 32:
            flip(w, rng, n, 32)
    return go


def _truncate(name: str) -> Damage:
    def go(box: Path, rng: random.Random) -> None:
        p = box / name
        if p.exists():
            size = p.stat().st_size
            os.truncate(p, rng.randrange(max(1, size)))
    return go


ROW = "(SELECT max(id) FROM games)"
JOURNAL: list[tuple[str, Damage]] = [
    ("journal:flip-bytes", lambda box, rng: flip(box / "journal.sqlite", rng, rng.randint(1, 40))),
    ("journal:flip-header", lambda box, rng: flip(box / "journal.sqlite", rng, rng.randint(1, 4), 0, 100)),
    ("journal:flip-schema-page", lambda box, rng: flip(box / "journal.sqlite", rng, rng.randint(1, 6), 100, 1024)),
    ("journal:truncate", _truncate("journal.sqlite")),
    ("journal:text", lambda box, rng: (box / "journal.sqlite").write_text("# my notes\n" * 300)),
    *file_damage("journal.sqlite"),
    ("journal:setup-list", _sql(f"UPDATE games SET setup='[]' WHERE id={ROW}")),
    ("journal:setup-null", _sql(f"UPDATE games SET setup='null' WHERE id={ROW}")),
    ("journal:setup-not-json", _sql(f"UPDATE games SET setup='{{' WHERE id={ROW}")),
    ("journal:setup-number", _sql(f"UPDATE games SET setup='5' WHERE id={ROW}")),
    ("journal:setup-deep", _sql(f"UPDATE games SET setup='{'[' * 3000}' WHERE id={ROW}")),
    ("journal:setup-blob", _sql(f"UPDATE games SET setup=x'7b7d' WHERE id={ROW}")),
    ("journal:seed-text", _sql(f"UPDATE games SET seed='abc' WHERE id={ROW}")),
    ("journal:seed-real", _sql(f"UPDATE games SET seed=1.5 WHERE id={ROW}")),
    ("journal:game-blob", _sql(f"UPDATE games SET game=x'ff00' WHERE id={ROW}")),
    ("journal:game-devzero", _sql(f"UPDATE games SET game='/dev/zero' WHERE id={ROW}")),
    ("journal:game-missing-file", _sql(f"UPDATE games SET game='/nonexistent/g.toml' WHERE id={ROW}")),
    ("journal:game-unknown-id", _sql(f"UPDATE games SET game='no-such-game' WHERE id={ROW}")),
    ("journal:title-blob", _sql(f"UPDATE games SET title=x'ff0a1b' WHERE id={ROW}")),
    ("journal:status-blob", _sql(f"UPDATE games SET status=x'61' WHERE id={ROW}")),
    ("journal:created-text", _sql(f"UPDATE games SET created='x', updated=x'00' WHERE id={ROW}")),
    ("journal:input-blob", _sql("UPDATE inputs SET event=CAST(event AS BLOB) WHERE n=3")),
    ("journal:input-first-blob", _sql("UPDATE inputs SET event=CAST(event AS BLOB) WHERE n=1")),
    ("journal:input-garbage", _sql("UPDATE inputs SET event=CAST(x'00ff20676172' AS TEXT) WHERE n=5")),
    ("journal:input-t-text", _sql("UPDATE inputs SET t='soon' WHERE n=2")),
    ("journal:input-hash", _sql("UPDATE inputs SET hash='0' WHERE n=4")),
    ("journal:input-gone", _sql("DELETE FROM inputs WHERE n=6")),
    ("journal:input-far", _sql(f"INSERT INTO inputs (game, n, t, event, hash) VALUES ({ROW}, 99999, 1, 'key ok', '')")),
    ("journal:rolls-text", _sql("UPDATE rolls SET value='six', die=x'00'")),
    ("journal:snapshot-junk", _sql(f"INSERT INTO snapshots VALUES ({ROW}, 3, 'h', 'c', 'd', x'00ff', '[[1]]')")),
    ("journal:drop-rolls", _sql("DROP TABLE rolls")),
    ("journal:app-id", _sql("PRAGMA application_id=123")),
    ("journal:newer", _sql("PRAGMA user_version=99")),
    ("journal:schema-not-utf8", _schema_bytes(b"DEFAULT 'active'", b"DEFAULT 'activ\xff'")),
    ("journal:schema-name-not-utf8", _schema_bytes(b"title    TEXT", b"titl\xff    TEXT")),
    ("journal:schema-garbled", _schema_bytes(b"CREATE TABLE inputs", b"CREATE TABLE inpu\x00s")),
    ("wal:flip-frames", _wal_frames(1)),
    ("wal:flip-many", _wal_frames(12)),
    ("wal:flip-header", lambda box, rng: flip(box / "journal.sqlite-wal", rng, 1, 0, 32)),
    ("wal:truncate", _truncate("journal.sqlite-wal")),
    *file_damage("journal.sqlite-wal"),
    ("shm:flip", lambda box, rng: flip(box / "journal.sqlite-shm", rng, rng.randint(1, 30))),
    *file_damage("journal.sqlite-shm"),
    ("head:flip", lambda box, rng: flip(box / "journal.sqlite.head", rng, rng.randint(1, 30))),
    ("head:gone", lambda box, rng: (box / "journal.sqlite.head").unlink()),
    *file_damage("journal.sqlite.head"),
    *file_damage("journal.sqlite.lock"),
    ("hot-journal:garbage", lambda box, rng: (box / "journal.sqlite-journal").write_bytes(rng.randbytes(2000))),
    *file_damage("journal.sqlite-journal"),
]


# ------------------------------------------------------------------ the config
BAD_VALUES = [
    ("display", "driver", '"oled"'), ("display", "port", '"0x3c "'), ("display", "address", "0x78"),
    ("display", "rotate", "1"), ("display", "contrast", "-1"), ("buttons", "ok", "99"), ("buttons", "up", "12"),
    ("buttons", "hold_time", "true"), ("encoder", "a", '"x"'), ("leds", "players", "[99]"), ("leds", "status", "13"),
    ("roller", "port", '""'), ("dice", "sources", '["luck"]'), ("players", "names", "[]"),
    ("players", "names", f'["{"N" * 5000}"]'), ("journal", "path", '"/"'), ("journal", "path", '""'),
    ("journal", "path", '"."'), ("journal", "path", '"{box}"'), ("journal", "path", '"{box}/games/"'),
    ("journal", "path", "5"), ("games", "folder", "[1]"), ("games", "x", "3"), ("web", "port", '"8080 "'),
    ("web", "port", "0"), ("web", "port", "70000"), ("web", "bind", '"somewhere"'), ("web", "view", '"all"'),
    ("web", "enabled", '"yes"'), ("web", "pairing_hours", "0"), ("web", "allowed_hosts", '"x"'),
    ("screen", "dim_minutes", "-5"), ("log", "level", '"loud"'), ("display", "nonsense", "1"),
]
EXTRA_TABLES = ['[games.race-to-ten]\nrounds = "many"\n', '[games.sovereign]\nexplode = 1\n', '[games.nope]\nx = 1\n',
                '[games."bad\\nid"]\nx = 1\n', "[surprise]\nx = 1\n", 'hardware = "toaster"\n', "display = 3\n"]


def _config_value(box: Path, rng: random.Random) -> None:
    """One bad value written into the config (a later duplicate table would be bad TOML: the value goes in its
    own table, or the table already there)."""
    p = box / "c.toml"
    text = p.read_text()
    table, key, value = rng.choice(BAD_VALUES)
    value = value.replace("{box}", str(box))
    head = f"[{table}]\n"
    lines = text.splitlines(keepends=True)
    if head in lines:
        i = lines.index(head)
        lines = [ln for j, ln in enumerate(lines) if not (j > i and ln.startswith(f"{key} ="))]
        lines.insert(lines.index(head) + 1, f"{key} = {value}\n")
        p.write_text("".join(lines))
    else:
        p.write_text(text + f"\n{head}{key} = {value}\n")


CONFIG_DAMAGE: list[tuple[str, Damage]] = [
    ("config:bad-value", _config_value),
    ("config:two-bad-values", lambda box, rng: (_config_value(box, rng), _config_value(box, rng)) and None),
    ("config:extra-table", lambda box, rng: (box / "c.toml").write_text((box / "c.toml").read_text() + "\n"
                                                                        + rng.choice(EXTRA_TABLES))),
    ("config:bad-toml", lambda box, rng: (box / "c.toml").write_text((box / "c.toml").read_text() + "\n[web\n")),
    ("config:flip", lambda box, rng: flip(box / "c.toml", rng, rng.randint(1, 8))),
    ("config:gone", lambda box, rng: (box / "c.toml").unlink()),
    ("config:pin-clash", lambda box, rng: (box / "c.toml").write_text((box / "c.toml").read_text()
                                                                      + "\n[buttons]\nok = 12\n")),
    *file_damage("c.toml"),
]

# ------------------------------------------------------------------ the pairings, the key, the games folder
PAIRING_ROWS = ['{"a": 1}', "[1, 2]", '[{"key": 5}]', '[{"key": "k", "csrf": "c", "code": "C", "created": "x", '
                '"expires": 4e9}]', '[{"key": "k", "csrf": "c", "code": "C", "created": 1, "expires": 4e9, '
                '"seat": "one", "host": false, "game": null}]', "null", '"phones"', "[[[[]]]]"]
PAIRINGS: list[tuple[str, Damage]] = [
    ("pairings:wrong-shape", lambda box, rng: (box / "web-pairings.json").write_text(rng.choice(PAIRING_ROWS))),
    ("pairings:flip", lambda box, rng: flip(box / "web-pairings.json", rng, rng.randint(1, 10))),
    *file_damage("web-pairings.json"),
    ("bans:wrong-shape", lambda box, rng: (box / "web-bans.json").write_text(rng.choice(PAIRING_ROWS))),
    *file_damage("web-bans.json"),
    ("stats-cache:garbage", lambda box, rng: (box / "stats-cache.sqlite").write_bytes(b"SQLite format 3\x00" +
                                                                                      rng.randbytes(3000))),
    *file_damage("stats-cache.sqlite"),
    *file_damage("stats-cache.sqlite-journal"),
    ("owner-code:wrong", lambda box, rng: (box / "owner-code").write_text(rng.choice(["0OIL-0OIL\n", "ABC", "x" * 300]))),
    *file_damage("owner-code"),
]
KEYS: list[tuple[str, Damage]] = [
    ("key:short", lambda box, rng: (box / "snapshot.key").write_bytes(b"k" * rng.randint(1, 31))),
    ("key:long", lambda box, rng: (box / "snapshot.key").write_bytes(b"k" * rng.randint(33, 4000))),
    ("key:flip", lambda box, rng: flip(box / "snapshot.key", rng, 3)),
    *file_damage("snapshot.key"),
]


def _game_file(text: str) -> Damage:
    return lambda box, rng: (box / "games" / "race.toml").write_text(text)


GAMES: list[tuple[str, Damage]] = [
    ("games:name-5000", _game_file(EXAMPLE.read_text().replace('name = "Race to ten"', f'name = "{"R" * 5000}"'))),
    ("games:bad-toml", _game_file("[game\nid = 1\n")),
    ("games:other-id", _game_file(EXAMPLE.read_text().replace('id = "race-to-ten"', 'id = "other"'))),
    ("games:folder-is-a-file", lambda box, rng: (shutil.rmtree(box / "games"), (box / "games").write_text("x"))
     and None),
    ("games:extra-fifo", lambda box, rng: os.mkfifo(box / "games" / "pipe.toml")),
    ("games:extra-devzero", lambda box, rng: (box / "games" / "zero.toml").symlink_to("/dev/zero")),
    ("games:extra-dir", lambda box, rng: (box / "games" / "dir.toml").mkdir()),
    *[(f"games:race.toml-{k}", (lambda k: lambda box, rng: replace_with(k, box / "games" / "race.toml", rng))(k))
      for k in FILE_KINDS],
]

FAMILIES: dict[str, list[tuple[str, Damage]]] = {"journal": JOURNAL, "config": CONFIG_DAMAGE, "pairings": PAIRINGS,
                                                 "key": KEYS, "games": GAMES}
#: how many cases of each family in a thousand (the journal has the most ways to break)
WEIGHTS = {"journal": 480, "config": 220, "pairings": 120, "key": 100, "games": 80}


def cases(n: int, seed: int = 31) -> list[tuple[int, list[str]]]:
    """``n`` cases, each (its own seed, the names of its damages): one damage of a family in the WEIGHTS' shares,
    and a quarter of them a second damage of another family."""
    rng = random.Random(seed)
    families = [f for f, w in WEIGHTS.items() for _ in range(w)]
    out = []
    for i in range(n):
        fam = families[i * len(families) // n]
        names = [rng.choice(FAMILIES[fam])[0]]
        if rng.random() < 0.25:
            other = rng.choice([f for f in FAMILIES if f != fam])
            names.append(rng.choice(FAMILIES[other])[0])
        out.append((rng.randrange(1 << 30), names))
    return out


def family(name: str) -> str:
    return next(f for f, damages in FAMILIES.items() if any(n == name for n, _fn in damages))


def damage(box: Path, names: list[str], seed: int) -> None:
    table = {name: fn for fam in FAMILIES.values() for name, fn in fam}
    rng = random.Random(seed)
    for name in names:
        table[name](box, rng)


def set_aside_files(box: Path) -> list[str]:
    """What start-up moved or copied aside, with the date and time taken out (to compare two starts)."""
    import re

    return sorted(re.sub(r"-\d{8}-\d{6}(-\d+)?", "-STAMP", p.name) for p in box.iterdir()
                  if re.search(r"\.(unusable|damaged|wal-damaged)-\d{8}", p.name))
