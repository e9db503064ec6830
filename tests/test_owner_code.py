"""The owner code, the trust root of a box with no screen (issue 31): ``[web] owner_code`` in the config (a bad value
set aside with one line, never a stop), else ``<state dir>/owner-code`` made at the first start (0600; the log says
where, never the code), and ``companion owner-code`` to print it with its QR code."""
from __future__ import annotations

import logging
import os
import stat
from pathlib import Path

import pytest

from companion.config.load import parse_config
from companion.errors import CompanionError
from companion.web import owner_code
from companion.web.owner import CODE_ALPHABET, OwnerCode, load_owner_code, new_code, normalize, read_file, shown


def test_a_code_is_eight_unmistakable_characters_typed_any_way() -> None:
    assert not set("0O1I") & set(CODE_ALPHABET)
    assert normalize("abcd efgh") == normalize("ABCD-EFGH") == normalize(" abCD-efGH ") == "ABCDEFGH"
    for bad in ("ABCD-EFG", "ABCD-EFGHJ", "ABCD-EFG0", "ABCD-EFGI", "", None, 12345678, "Ä" * 8, "x" * 5000):
        assert normalize(bad) is None, bad
    code = new_code()
    assert normalize(shown(code)) == code and shown(code)[4] == "-"


def test_the_config_keeps_a_good_code_and_sets_a_bad_one_aside_in_one_line() -> None:
    cfg = parse_config({"web": {"owner_code": "kq7x m3pa"}})
    assert cfg.web.owner_code == "KQ7XM3PA" and cfg.web.owner_code_problem == ""
    for bad in ("KQ7X-M3P0", 12345678, ["KQ7X-M3PA"], "password1"):
        cfg = parse_config({"web": {"owner_code": bad}})  # never a ConfigError: the box must start
        assert cfg.web.owner_code is None
        line = cfg.web.owner_code_problem
        assert line.startswith("[web] owner_code ") and "\n" not in line and "companion owner-code" in line
        assert "M3P" not in line and "password1" not in line and "8 char" not in line  # nothing of it: it may be
        # the real code mistyped, and every phone reads this line


def test_the_first_start_makes_a_code_in_the_state_folder_and_logs_where_not_what(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO):
        first = load_owner_code(None, None, tmp_path)
    path = tmp_path / "owner-code"
    assert first.file == path and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert read_file(path) == first.current()
    text = " ".join(r.getMessage() for r in caplog.records)
    assert str(path) in text and first.current() not in text and shown(first.current()) not in text
    again = load_owner_code(None, None, tmp_path)  # a restart: the same code
    assert again.current() == first.current()
    configured = load_owner_code("KQ7XM3PA", tmp_path / "config.toml", tmp_path)
    assert configured.current() == "KQ7XM3PA" and configured.config == tmp_path / "config.toml"


@pytest.mark.parametrize("damage", ["garbage", "binary", "fifo", "directory", "huge"])
def test_a_damaged_owner_code_file_is_set_aside_and_a_new_code_made(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str) -> None:
    path = tmp_path / "owner-code"
    if damage == "garbage":
        path.write_text("not a code at all\n")
    elif damage == "binary":
        path.write_bytes(b"\xff\xfe\x00ABCD")
    elif damage == "fifo":
        os.mkfifo(path)  # opening it to read would block the start for ever
    elif damage == "directory":
        path.mkdir()
    else:
        path.write_text("ABCD-EFGH" * 1000)
    with caplog.at_level(logging.INFO):
        code = load_owner_code(None, None, tmp_path)
    assert normalize(code.current()) == code.current() and read_file(path) == code.current()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and "set aside as" in errors[0] and "\n" not in errors[0]
    assert any(p.name.startswith("owner-code.damaged-") for p in tmp_path.iterdir())


def test_a_state_folder_that_cannot_be_written_gives_a_code_until_the_restart(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    if os.geteuid() == 0:
        pytest.skip("root writes anywhere")
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with caplog.at_level(logging.INFO):
            code = load_owner_code(None, None, folder)
    finally:
        folder.chmod(0o700)
    assert code.file is None and code.where == "memory only, until the restart"
    assert any("cannot write the owner code" in r.getMessage() for r in caplog.records)


def test_a_new_code_is_written_where_the_old_one_was_and_the_old_one_stops(tmp_path: Path) -> None:
    code = load_owner_code(None, None, tmp_path)
    old = code.current()
    new = code.renew()
    assert new != old and code.matches(shown(new)) and not code.matches(old)
    assert read_file(tmp_path / "owner-code") == new
    saved: list[tuple[Path, str]] = []
    configured = OwnerCode("KQ7XM3PA", config=tmp_path / "c.toml", save=lambda p, c: saved.append((p, c)))
    configured.renew()
    assert saved == [(tmp_path / "c.toml", shown(configured.current()))]


def test_renewing_into_the_config_keeps_its_comments(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('# my box\n[web]\nowner_code = "KQ7X-M3PA"  # on the sticker\nport = 8080\n')
    cfg = parse_config({"web": {"owner_code": "KQ7X-M3PA"}}, source=path)
    code = owner_code(cfg, tmp_path)
    new = code.renew()
    text = path.read_text()
    assert "# my box" in text and f'owner_code = "{shown(new)}"' in text and "port = 8080" in text


def test_a_bad_config_code_is_said_once_and_the_files_code_pairs(tmp_path: Path,
                                                                  caplog: pytest.LogCaptureFixture) -> None:
    cfg = parse_config({"web": {"owner_code": "KQ7X"}})
    with caplog.at_level(logging.INFO):
        code = owner_code(cfg, tmp_path)
    assert code.file == tmp_path / "owner-code"
    assert sum("[web] owner_code in the config is not an owner code" in r.getMessage() for r in caplog.records) == 1


def test_companion_owner_code_prints_it_with_the_address_and_a_qr_code(tmp_path: Path, companion) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f'[journal]\npath = "{tmp_path}/state/journal.sqlite"\n[web]\nbind = "127.0.0.1"\n'
                      "port = 8123\n")
    r = companion("--config", str(config), "owner-code")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "no owner code yet" in r.stderr
    code = load_owner_code(None, None, tmp_path / "state").current()
    r = companion("--config", str(config), "owner-code")
    assert r.returncode == 0, r.stderr
    assert f"Owner code: {shown(code)}" in r.stdout and f"http://127.0.0.1:8123/#owner={shown(code)}" in r.stdout
    assert "█" in r.stdout or "▀" in r.stdout  # the QR code, in the terminal
    r = companion("--config", str(config), "owner-code", "--no-qr")
    assert "█" not in r.stdout and "▀" not in r.stdout
    config.write_text(config.read_text().replace("[web]\n", '[web]\nowner_code = "KQ7X-M3PA"\n'))
    r = companion("--config", str(config), "owner-code", "--no-qr")
    assert "Owner code: KQ7X-M3PA" in r.stdout and "[web] owner_code in" in r.stdout


def test_reading_the_file_never_raises_anything_but_one_line(tmp_path: Path) -> None:
    path = tmp_path / "owner-code"
    assert read_file(path) is None
    path.write_text("nope")
    with pytest.raises(CompanionError) as e:
        read_file(path)
    assert "holds no owner code" in str(e.value)


def test_what_was_set_aside_is_one_line_for_the_phones(tmp_path: Path) -> None:
    from companion.web.bans import Bans

    (tmp_path / "owner-code").write_text("garbage")
    (tmp_path / "web-bans.json").write_text("{not json")
    owner, bans = load_owner_code(None, None, tmp_path), Bans(tmp_path / "web-bans.json")
    assert owner.set_aside == ["owner-code could not be read: set aside; a new owner code was made ('companion "
                               "owner-code' on the box prints it)"]
    assert bans.set_aside == ["web-bans.json could not be read: set aside; no address is banned now"]
    assert load_owner_code(None, None, tmp_path).set_aside == [] and Bans(tmp_path / "web-bans.json").set_aside == []
