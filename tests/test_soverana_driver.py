"""A table driver for SOVERANA: plays the machine through prompt()/answer() the way the buttons would, checking at
every step that the prompt is the kind expected, names who acts, and fits the screen.

The other test_soverana_* files import :class:`Table`; the tests here check the driver's own checks.
"""
from __future__ import annotations

import json
from typing import Any, Iterable, Mapping, Sequence

import pytest

from companion.rules import soverana as R
from fsm.base import Player, Setup
from fsm.prompts import Choice, Dice, Info, InvalidAnswer, MultiSelect, Number, Prompt, Random, SecretVote
from fsm.soverana import SoveranaGame

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay")
#: seat -> department in the default tests: seat 1 Economy ... seat 6 Urban Development
DEPT = {i + 1: d for i, d in enumerate(R.DEPARTMENTS)}
SEAT = {d: s for s, d in DEPT.items()}
def _fits(p: Prompt) -> None:
    """Measured as drawn: the title beside the acting player's name, every line whole (the screen wraps it as drawn,
    never cutting a word, and scrolls a choice's lines with its options and an Info page)."""
    from companion.ui.draw import title_room
    from fsm.screen_text import LINE_PX, fits, wrap

    tag = NAMES[p.player - 1] if p.player else ""
    assert fits(p.title, title_room(tag)), p.title
    for line in p.lines:
        assert all(fits(x, LINE_PX) and not x.endswith("…") for x in wrap(line)), line
        assert not line.endswith(("~", "…")), f"cut line {line!r} in {p.title!r}"


class Table:
    def __init__(self, **options: Any) -> None:
        # the whole games here were worked out before moves were checked against a board: they record moves
        # without the board's links (one move a round and fixers on the spot still hold)
        options.setdefault("check_moves", False)
        players = tuple(Player(n, i + 1) for i, n in enumerate(NAMES))
        self.g = SoveranaGame(Setup(players, options))
        self.seen: list[Any] = []
        self.notices: list[Info] = []

    # ----------------------------------------------------------------- primitives
    @property
    def data(self) -> dict[str, Any]:
        return self.g.data

    def prompt(self) -> Any:
        """The current prompt, checked to fit the screen (typed Any: tests read each kind's fields)."""
        p = self.g.prompt()
        _fits(p)
        return p

    def ans(self, kind: Any, value: Any, player: int | None | str = "any", title: str | None = None) -> Any:
        self.skip_notices()
        p: Any = self.prompt()
        assert isinstance(p, kind), f"expected {kind.__name__}, got {p!r} in {self.g.state}"
        if player != "any":
            assert p.player == player, f"{p.title}: expected player {player}, got {p.player}"
        if title is not None:
            assert title in p.title, p
        self.seen.append(p)
        self.g.answer(value)
        json.dumps(self.g.state_json())
        for v in self.g.views():
            from fsm.screen_text import LINE_PX, TITLE_PX, fits

            assert fits(v.title, TITLE_PX) and all(fits(line, LINE_PX) for line in v.lines), v
        return p

    def refused(self, value: Any) -> str:
        """Answer expecting a refusal; checks nothing changed."""
        before = json.dumps([self.g.state, self.g.data], sort_keys=True)
        with pytest.raises(InvalidAnswer) as e:
            self.g.answer(value)
        assert json.dumps([self.g.state, self.g.data], sort_keys=True) == before
        return str(e.value)

    def is_notice(self) -> bool:
        return bool(self.g.data["notices"])

    def skip_notices(self) -> list[Info]:
        out = []
        while self.is_notice():
            p = self.prompt()
            assert isinstance(p, Info)
            out.append(p)
            self.g.answer(True)
        self.notices += out
        return out

    # ----------------------------------------------------------------- setup
    def roll(self, *values: int) -> None:
        for v in values:
            self.ans(Dice, {"values": [v], "source": "typed"})

    def setup(self, rolls: Sequence[int] = (6, 1, 2, 3, 4, 5), depts: Mapping[int, str] | None = None,
              starts: Mapping[int, str] | None = None) -> None:
        self.roll(*rolls)
        assert self.g.state == "setup_departments"
        depts = dict(depts or DEPT)
        for s in range(1, 6):
            self.ans(Choice, depts[s], player=self.g.mayor)
        mode = self.g.options["start_positions"]
        starts = dict(starts or {})
        if mode != "none":
            for s in range(1, 7):
                p = self.prompt()
                key = starts.get(s) or (p.keys[0] if isinstance(p, Random) else p.options[0].key)
                self.ans(Random if mode == "random" else Choice, key)
        self.skip_notices()
        assert self.g.state == "missions"

    # ----------------------------------------------------------------- a round's pieces
    def intro(self) -> None:
        self.ans(Info, True, player=None, title="missions")

    def event(self, crisis: Iterable[str] = (), restore: Iterable[str] = (), pay: Mapping[str, int] | None = None,
              gain: Mapping[str, int] | None = None, extra: int = 0) -> None:
        mayor = self.g.mayor
        if crisis:
            self.ans(Choice, "crisis", player=mayor)
            self.ans(MultiSelect, list(crisis))
        if restore:
            self.ans(Choice, "restore", player=mayor)
            self.ans(MultiSelect, list(restore))
        for d, n in (pay or {}).items():
            self.ans(Choice, "pay")
            self.ans(Choice, d)
            self.ans(Number, n, player=self.g.seat_of(d))
        for d, n in (gain or {}).items():
            self.ans(Choice, "gain")
            self.ans(Choice, d)
            self.ans(Number, n)
        if extra:
            self.ans(Choice, "extra")
            self.ans(Number, extra)
        self.ans(Choice, "done", player=mayor)

    def events(self, major: Mapping[str, Any] | None = None, minor1: Mapping[str, Any] | None = None,
               minor2: Mapping[str, Any] | None = None) -> None:
        assert self.g.state == "major_event"
        self.event(**(major or {}))
        assert self.g.state == "minor_event"
        self.event(**(minor1 or {}))
        self.event(**(minor2 or {}))
        assert self.g.state == "moving"

    def move(self, seat: int, where: str) -> None:
        self.ans(Choice, "move", player=None)
        self.ans(Choice, str(seat))
        self.ans(Choice, where, player=seat)

    def fix(self, where: str, *fixers: int, taker: int | None = None) -> None:
        self.ans(Choice, "fix", player=None)
        self.ans(Choice, where)
        self.ans(MultiSelect, [str(s) for s in sorted(fixers)])
        self.on_the_spot()
        if taker is not None:
            self.ans(Choice, str(taker))

    def on_the_spot(self) -> None:
        """Each fixer not recorded on the fixed location moves there now (their move this round)."""
        while self.g.data["step"] == "fix_where":
            p = self.prompt()
            ok = [o.key for o in p.options if o.enabled]
            assert ok, f"{p.title}: {[o.hint for o in p.options]}"
            self.ans(Choice, ok[0], player=p.player)

    def moves_done(self) -> None:
        self.ans(Choice, "done", player=None)
        assert self.g.state == "distribution"

    def distribute(self, given: Mapping[str, int] | None = None) -> None:
        """Hand out the pool: ``given`` per department, or all of it to Economy."""
        pool = int(self.data["dist"]["pool"])
        given = dict(given) if given else {R.DEPARTMENTS[0]: pool}
        for d, n in given.items():
            self.ans(Choice, d, player=self.g.mayor)
            self.ans(Number, n, player=self.g.mayor)
        self.ans(Choice, "done", player=self.g.mayor)

    def end_of_round(self, missions: Mapping[int, int] | None = None,
                     floor: Mapping[str, Sequence[str]] | None = None) -> None:
        assert self.g.state == "end_of_round"
        for seat, n in (missions or {}).items():
            self.ans(Choice, str(seat), title="Missions")
            self.ans(Number, n, player=seat)
        self.ans(Choice, "none", title="Missions")
        self.ans(Info, True, title="End of round")
        for d, picks in (floor or {}).items():
            self.ans(MultiSelect, list(picks), player=self.g.seat_of(d), title="Floor")
        self.skip_notices()

    def vote(self, ballots: Sequence[str] | str = "yes", rolls: Sequence[int] = ()) -> None:
        assert self.g.state == "confidence"
        n = 6 if self.g.options["mayor_votes"] else 5
        if isinstance(ballots, str):
            ballots = [ballots] * n
        assert len(ballots) == n
        for b in ballots:
            self.ans(SecretVote, b)
        self.ans(Info, True, title="Confidence")
        self.roll(*rolls)
        self.skip_notices()
        if self.g.state == "confidence":
            self.ans(Info, True, title="New mayor")

    def finish(self) -> None:
        assert self.g.state == "finishing"
        self.ans(Info, True, title="summary")

    def round(self, major: Mapping[str, Any] | None = None, minor1: Mapping[str, Any] | None = None,
              minor2: Mapping[str, Any] | None = None, moving: Sequence[tuple[Any, ...]] = (),
              given: Mapping[str, int] | None = None, missions: Mapping[int, int] | None = None,
              floor: Mapping[str, Sequence[str]] | None = None, ballots: Sequence[str] | str = "yes",
              rolls: Sequence[int] = ()) -> None:
        """One whole round. ``moving`` items: ("move", seat, location) or ("fix", location, seat[, seat])."""
        self.intro()
        self.events(major, minor1, minor2)
        for act in moving:
            if act[0] == "move":
                self.move(act[1], act[2])
            else:
                self.fix(act[1], *act[2:])
        self.moves_done()
        self.distribute(given)
        if self.g.options["round_end_order"] == "before-vote":
            self.end_of_round(missions, floor)
            self.vote(ballots, rolls)
        else:
            self.vote(ballots, rolls)
            self.end_of_round(missions, floor)
        self.finish()

    # ----------------------------------------------------------------- reading
    def res(self, dept: str) -> int:
        return int(self.data["resources"][dept])

    def votes(self, seat: int) -> int:
        return int(self.data["votes"][str(seat)])

    def loc(self, name: str) -> str:
        return str(self.data["locations"][name])

    def json(self) -> dict[str, Any]:
        return self.g.state_json()


# ----------------------------------------------------------------- the driver's own checks
def test_setup_reaches_round_one_with_the_starting_city() -> None:
    t = Table()
    t.setup()
    assert t.g.mayor == 1
    assert t.data["dept"] == {str(s): d for s, d in DEPT.items()}
    assert t.data["resources"] == R.STARTING_RESOURCES
    assert all(v == 1 for v in t.data["votes"].values())
    assert set(t.data["locations"].values()) == {"active"}
    starts = set(t.data["positions"].values())
    assert len(starts) == 6 and not starts & set(R.SPECIAL)


def test_a_wrong_prompt_kind_is_caught_by_the_driver() -> None:
    t = Table()
    with pytest.raises(AssertionError):
        t.ans(Choice, "x")
