"""A second, independent review of the web view's trust model (issue #23): what hostile phones and watchers found on
a live table over loopback, each closed here."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

import companion.games
from webtable import LiveTable


@pytest.fixture(autouse=True)
def _demo_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(companion.games.BUILTIN, "webdemo", "webtable:WebDemo")
    monkeypatch.setitem(companion.games.BUILTIN, "ballots", "webtable:Ballots")


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LiveTable]:
    with LiveTable(tmp_path) as t:
        t.press("ok")  # start the game: "How many" for Ana
        t.settle()
        yield t


def host_prompt(t: LiveTable) -> dict[str, Any]:
    return json.loads(t.hub.latest.host)["prompt"]  # type: ignore[no-any-return]


def raw_answer(c: Any, body: bytes) -> tuple[int, Any]:
    status, _h, payload = c.request("POST", "/api/answer", raw=body,
                                    headers={"Content-Type": "application/json", "X-CSRF-Token": c.csrf})
    return status, json.loads(payload)


def test_a_question_number_that_is_not_a_whole_number_is_refused_and_the_game_replays(tmp_path: Path) -> None:
    """``{"seq": 1.0}`` equalled the prompt's number, so the answer was taken and journaled as ``answer 1.0 web:seat1
    3``: on the next start the journal could not read it back, and the game was cut off there and forked."""
    with LiveTable(tmp_path) as t:
        t.press("ok")
        t.settle()
        ana = t.phone(1)
        seq = host_prompt(t)["seq"]
        n0 = len(list(t.app.journal.inputs(t.app.record.id)))
        for body in (b'{"seq": %d.0, "value": 3}' % seq, b'{"seq": %d e0, "value": 3}' % seq,
                     b'{"seq": "%d", "value": 3}' % seq, b'{"seq": true, "value": 3}'):
            status, data = raw_answer(ana, body.replace(b" e0", b"e0"))
            assert status == 400 and "whole number" in data["error"], (body, status, data)
        t.settle()
        assert len(list(t.app.journal.inputs(t.app.record.id))) == n0
        assert ana.answer(seq, 3)[0] == 200  # the same answer with a whole number is taken
        t.settle()
        state = t.public()["state"]
    with LiveTable(tmp_path) as t:  # a restart replays every input
        assert t.public()["state"] == state and t.app.record.id == 1
