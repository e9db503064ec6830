"""The Society turn report (`companion export ID --report`, markdown and BBCode), the same pages on the device,
and every Society screen fitting the 128x64 display."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from companion.ui.draw import font
from conftest import companion_here
from fsm.autoplay import random_answer
from fsm.base import Player, Setup
from fsm.prompts import Choice, Confirm, InvalidAnswer, MultiSelect, Number
from fsm.society import SocietyGame
from society_kit import TURNS, Driver


@pytest.fixture(scope="module")
def journal(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = Driver(seed=1)
    d.setup()
    for orders in TURNS[:4]:
        d.turn(orders)
    folder = tmp_path_factory.mktemp("society")
    script = folder / "s.txt"
    script.write_text(d.script())
    path = folder / "journal.sqlite"
    r = companion_here("play", "society", "--script", str(script), "--seed", "1", "--journal", str(path),
                       env={"XDG_DATA_HOME": str(folder / "xdg-data"), "XDG_CONFIG_HOME": str(folder / "xdg-config")})
    assert r.returncode == 0, r.stderr
    return path


def test_markdown_report(journal: Path) -> None:
    r = companion_here("export", "1", "--journal", str(journal), "--report")
    assert r.returncode == 0, r.stderr
    text = r.stdout
    assert text.startswith("## Society: turn 4 results\n")
    for part in ("### 1. Espionage", "- Cleo's spy sabotages Ana's Trade", "### 5. War",
                 "- Two-way attack: Ana wins 4x2 against 2x1; 3 survive",
                 "- C = ((3/1) - (3/1)) x (2/1) -> 0; Ana takes no city; losses 1 / 0",
                 "### Orders not carried out", "- Ana: trade Cleo x2: negated: Trade sabotaged by a spy",
                 "- Ben: attack Ana with 2 armies: destroyed in a two-way attack", "- At war with: Ben",
                 "**Ana**", "- Treasury 54 gold", "- Income: trade 0, tax 40, wonders 4\n",
                 "- Cities (4): A2, B2, B3, A3", "- Wonders: Tower of Babel; spaceship parts 0",
                 "- Tech 3 (Monarchy), Monarchy", "```\n   A B C D E F\n 1 . 2 . . . .\n 2 1+1 3+. . .\n 3 1 1 . . . .\n"):
        assert part in text, part


def test_bbcode_report_to_a_file(journal: Path, tmp_path: Path) -> None:
    out = tmp_path / "post.txt"
    r = companion_here("export", "--journal", str(journal), "--report", "--format", "bbcode", "-o", str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    assert text.startswith("[b][size=150]Society: turn 4 results[/size][/b]")
    assert "[list]\n[*]Cleo's spy sabotages Ana's Trade\n[/list]" in text
    assert "[u]Ana[/u]" in text and "[code]\n   A B C D E F\n" in text and "```" not in text


def test_report_refusals_are_one_line(journal: Path) -> None:
    r = companion_here("export", "1", "--journal", str(journal), "--report", "--format", "html")
    assert r.returncode == 2 and r.stderr.strip().count("\n") == 0 and "--format 'html'" in r.stderr
    r = companion_here("export", "1", "--journal", str(journal))
    assert r.returncode == 0 and '"game": "society"' in r.stdout


def test_device_pages_show_the_same(journal: Path) -> None:
    d = Driver(seed=1)
    d.setup()
    for orders in TURNS[:4]:
        d.turn(orders)
    views = {v.title: v.lines for v in d.game.views()}
    assert views["Map"][:4] == ("     ABCDEF", "01 -2----", "02 113---", "03 11----")
    # the key says whose each digit is
    assert views["Map"][-7:] == ("Key: - empty, * nuked", "1 Ana", "2 Ben", "3 Cleo", "Wonders:", "A2 Babel (1)",
                                 "C2 Trojan (3)")  # the wonder cities too (issue 24, finding 7)
    assert "Treasury 54 gold" in views["Ana"] and views["Ana"][0] == "Seat 1 on the map"
    assert "At war with: Ben" in views["Ana"]
    assert "SPY" not in "".join(views["Turn 4 report"]) and "1. ESPIONAGE" in views["Turn 4 report"]
    for title, lines in views.items():
        assert all(font().getlength(ln) <= 124 for ln in lines), (title, lines)


def test_wide_maps_split_into_screen_bands() -> None:
    g = SocietyGame(Setup(tuple(Player(f"P{i}", i) for i in range(1, 21))))
    g.answer("3")
    g.data["setup"]["w"] = 26
    g.answer("start")
    m = next(v for v in g.views() if v.title == "Map")
    assert m.lines[0] == "     " + "ABCDEFGHIJKLMN" and "     OPQRSTUVWXYZ" in m.lines
    assert all(c in "-0123456789ABCDEFGHJKL" for ln in m.lines if ln[:2].isdigit() for c in ln[3:])
    assert all(font().getlength(ln) <= 124 for ln in m.lines)


def test_every_screen_fits_the_display() -> None:
    from companion.ui.draw import LIST_W, WIDTH, text_width, title_room, wrap
    from companion.ui.prompt_screens import NUMBER_LINES, ROWS

    names = ("Margaret", "Bartholo", "Carol", "Dmitri", "Eve", "Fitzgera", "Gwendoly", "Hieronym")
    too_wide: set[str] = set()
    for seed in range(2):
        rng = random.Random(seed)
        g = SocietyGame(Setup(tuple(Player(names[i], i + 1) for i in range(8))))
        for _ in range(1000):
            if g.is_over:
                break
            pr = g.prompt()
            tag = names[pr.player - 1] if pr.player else ""
            if text_width(pr.title) > title_room(tag):
                too_wide.add(f"title {pr.title!r} beside {tag!r}")
            # the screen wraps a line as drawn: no word may need a cut
            rows = [x for ln in pr.lines for x in wrap(ln, LIST_W)]
            too_wide.update(f"line {ln!r}" for ln in rows if text_width(ln) > WIDTH - 2 or ln.endswith("…"))
            # every row is drawn: a Number shows 3, a Confirm 4 (a Choice scrolls its lines with its options, an
            # Info page scrolls)
            room = {Number: NUMBER_LINES, Confirm: ROWS - 1}.get(type(pr))
            if room is not None and len(rows) > room:
                too_wide.add(f"{type(pr).__name__} {pr.title!r} has {len(rows)} rows, {room} shown: {rows}")
            if isinstance(pr, (Choice, MultiSelect)):
                for o in pr.options:
                    label = o.label
                    if text_width(label) > LIST_W:
                        too_wide.add(f"option {label!r}")
            if g.state == "orders" and g.data["world"] is not None:
                # a rich world, so that every menu shows its longest labels
                for s in g.data["world"]["soc"].values():
                    s.update(gold=max(int(s["gold"]), 99999), tech=max(int(s["tech"]), 15), armies=999)
            value = random_answer(pr, rng)
            if value == "more":  # keep the game going through many turns
                value = "process"
            try:
                g.answer(value)
            except InvalidAnswer:
                pass
    assert not too_wide, "\n".join(sorted(too_wide))


def test_targets_the_rules_refuse_are_greyed_with_the_reason() -> None:
    # Ana A2, Ben B2, Cleo C2, all tech 1: Cleo is two squares from Ana (out of trade range, not adjacent)
    d = Driver(seed=1)
    d.setup()
    d.give("soc:1")
    d.give("trade")
    opts = {o.key: (o.enabled, o.hint) for o in d.session.prompt().options}
    assert opts == {"2": (True, ""), "3": (False, "Cleo is out of trade range")}
    d.press("down", "ok")  # OK on Cleo: the reason, and nothing changes
    assert d.session.toast == "Cleo is out of trade range" and d.game.data["entry"]["step"] == "target"
    d.give("back")
    d.give("attack")
    opts = {o.key: (o.enabled, o.hint) for o in d.session.prompt().options}
    assert opts == {"2": (True, ""), "3": (True, "")}  # a city built in 3c may reach Cleo: the war judges
    d.give("back")
    d.give("declare")
    d.give("2")
    kinds = {o.key: (o.enabled, o.hint) for o in d.session.prompt().options}
    assert kinds["peace"] == (False, "not at war") and kinds["declare"] == (True, "")
    d.give("declare")
    assert {o.key: o.enabled for o in d.session.prompt().options} == {"2": False, "3": True}
    d.give("back")
    d.give("trade")
    d.give("2")
    p = d.session.prompt()
    assert (p.title, p.lines[1], p.hi) == ("Trade 2 gold, +1 each", "max 1; 0: none", 1)  # cost 1+1, payout 1x1
    d.give(1)  # tech 1: one caravan a turn
    kinds = {o.key: (o.enabled, o.hint) for o in d.session.prompt().options}
    assert kinds["trade"] == (False, "1 caravan ordered, the most")


def test_moving_a_start_square_is_a_column_then_a_row() -> None:
    d = Driver(seed=1)
    d.give(3)
    d.give("start")
    d.give("move:2")
    p = d.session.prompt()
    assert [o.key for o in p.options] == list("ABCDEF") and p.lines[1] == "which column?"
    d.give("C")
    d.press("back")  # BACK from the row: the column again
    assert d.game.data["setup"]["step"] == "move"
    taken = d.game.data["setup"]["squares"][0]  # Ana's start
    d.give(taken[0])
    before = list(d.game.data["setup"]["squares"])
    row, cur = int(taken[1:]), int(d.session.prompt().default)
    d.press(*(["up"] * (row - cur) if row >= cur else ["down"] * (cur - row)), "ok")
    assert d.session.refused == f"{taken} is Ana's start; pick another square"
    assert d.game.data["setup"]["squares"] == before
    views = {v.title: v.lines for v in d.game.views()}
    assert "Map" in views and views["Map"][-3:] == ("1 Ana", "2 Ben", "3 Cleo")
