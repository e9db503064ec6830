"""Distribution: a department the mayor gives 0 on purpose keeps its 0. OK on each suggestion after it moves on to
the departments not handed anything yet and splits the pool among them, so the mayor's 0 is not undone."""
from __future__ import annotations

from companion.rules import soverana as R
from fsm.prompts import Choice, Number
from test_soverana_phases import started, to_moving


def test_a_zero_given_on_purpose_is_kept_by_ok_on_each_suggestion() -> None:
    t = started()
    to_moving(t)
    t.moves_done()
    pool = int(t.data["dist"]["pool"])
    eco = R.DEPARTMENTS[0]
    t.ans(Choice, eco)
    t.ans(Number, 0)  # the mayor gives Economy nothing
    shares = []
    for _ in range(12):  # OK, OK, ... as long as the hub does not offer Done
        p = t.prompt()
        assert isinstance(p, Choice)
        if p.default == "done":
            break
        assert p.default != eco, "OK goes back to the department given 0"
        t.ans(Choice, p.default)
        n = t.prompt()
        assert isinstance(n, Number)
        shares.append(n.default)
        t.ans(Number, n.default)
    given = t.data["dist"]["given"]
    assert given[eco] == 0 and sum(given.values()) == pool and len(shares) == 5
    assert max(shares) - min(shares) <= 1, shares
    t.ans(Choice, eco)  # opened again on purpose: it offers what it has, 0
    assert t.prompt().default == 0
