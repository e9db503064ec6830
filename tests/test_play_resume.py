"""`companion play --resume`: an ended game, another script, waits already waited, --state-json into nowhere."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from companion.errors import CompanionError, ScriptError
from companion.session.headless import play
from companion.journal.store import Journal
from conftest import EXAMPLES
from script_kit import FakeTime

VP = str(EXAMPLES / "vp-tracker.toml")
END = "ok\nok\nok\nhold\nup\nok\nup\nok\n"  # three presses of set-up, then End game from the menu


def test_resume_of_a_game_ended_from_the_menu_is_that_game(tmp_path: Path) -> None:
    script, j = tmp_path / "s.txt", tmp_path / "j.sqlite"
    script.write_text(END)
    first = play(VP, script, seed=1, journal_path=j)
    again = play(VP, script, seed=1, journal_path=j, resume=True)
    assert first["ended"] and again == first
    journal = Journal(j)
    assert len(journal.games()) == 1 and journal.count_inputs(1) == 8
    journal.close()


def test_resume_with_another_script_is_refused(tmp_path: Path) -> None:
    a, b, j = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "j.sqlite"
    a.write_text("ok\nok\nok\n")
    b.write_text("ok\ndown\nok\nok\n")
    play(VP, a, seed=1, journal_path=j)
    with pytest.raises(ScriptError, match=r"b.txt line 2 is 'down', but input 2 of game 1 .* is 'ok'"):
        play(VP, b, seed=1, journal_path=j, resume=True)
    longer = tmp_path / "c.txt"
    longer.write_text("ok\nok\nok\ndown\n")  # the same script, longer: plays on
    assert play(VP, longer, journal_path=j, resume=True)["journal_entries"] == 4


def test_waits_before_the_resume_point_are_not_waited_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script, j = tmp_path / "s.txt", tmp_path / "j.sqlite"
    script.write_text("ok\nwait 0.01\nok\n")
    play(VP, script, seed=1, journal_path=j)
    script.write_text("ok\nwait 0.01\nok\nwait 0.02\nok\n")
    slept: list[float] = []
    monkeypatch.setattr(time, "sleep", slept.append)
    play(VP, script, seed=1, journal_path=j, resume=True)
    assert slept == [0.02]


def test_state_json_into_a_missing_folder_fails_before_anything_is_journaled(tmp_path: Path) -> None:
    script, j = tmp_path / "s.txt", tmp_path / "j.sqlite"
    script.write_text("ok\n")
    with pytest.raises(CompanionError, match="does not exist") as e:
        play(VP, script, seed=1, journal_path=j, state_json=tmp_path / "nope" / "out.json")
    assert "\n" not in str(e.value)
    assert not j.exists()


def test_frames_into_a_file_fails_before_anything_is_journaled(tmp_path: Path) -> None:
    script, j = tmp_path / "s.txt", tmp_path / "j.sqlite"
    script.write_text("ok\n")
    (tmp_path / "afile").write_text("")
    with pytest.raises(CompanionError, match="--frames .*afile: cannot use it as a folder") as e:
        play(VP, script, seed=1, journal_path=j, frames=tmp_path / "afile")
    assert "\n" not in str(e.value)
    assert not j.exists()


def test_a_frame_that_cannot_be_written_is_one_line_and_the_game_is_saved(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import errno

    from PIL import Image

    script, j = tmp_path / "s.txt", tmp_path / "j.sqlite"
    script.write_text("ok\nok\nok\ndown\nok\n")
    real = Image.Image.save
    written: list[str] = []

    def save(self: Image.Image, fp: object, *a: object, **k: object) -> None:
        if len(written) == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        written.append(str(fp))
        real(self, fp, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(Image.Image, "save", save)
    with pytest.raises(CompanionError, match="cannot write the frame .*0004.png: No space left on device") as e:
        play(VP, script, seed=1, journal_path=j, frames=tmp_path / "frames")
    assert "\n" not in str(e.value)
    journal = Journal(j)
    assert journal.count_inputs(1) >= 1  # what was played before is in the journal
    journal.close()


def test_a_wait_journals_the_running_clock_every_checkpoint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A script's ``wait`` is the table waiting: a running clock's state is journaled every CHECKPOINT_S meanwhile,
    as `companion run` does, so a kill in a long wait loses only the seconds since the last one (it lost the lot)."""
    from companion.session import timekeeper

    monkeypatch.setattr(timekeeper, "CHECKPOINT_S", 0.2)
    cfg = tmp_path / "c.toml"
    cfg.write_text('[games.sovereign-chess]\nclock = "fischer 300+3"\n')
    script = tmp_path / "s.txt"
    script.write_text("ok\ndown\nok\nmove wNf1-e3\nmove reject\nwait 0.7\n")
    j = tmp_path / "j.sqlite"
    fake = FakeTime()  # the 0.7 s pass on a fake clock
    play("sovereign-chess", script, seed=1, journal_path=j, config=str(cfg), clock=fake.clock, sleep=fake.sleep)
    journal = Journal(j)
    rows = [text for _n, _t, text in journal.inputs(journal.games()[0].id)]
    journal.close()
    after = rows[rows.index("move reject") + 1:]
    used = [json.loads(r.removeprefix("clock state "))["used"] for r in after]
    assert all(r.startswith("clock state ") for r in after) and len(used) >= 3, rows
    assert used == sorted(used) and used[-1] >= 400  # ms the running clock had used at each line
