"""The command line's shape: --config before or after the subcommand; one-line errors."""
from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import build_parser
from conftest import EXAMPLES, run_companion


@pytest.mark.parametrize("argv", [
    ["--config", "c.toml", "play", "g", "--script", "s"],
    ["play", "g", "--script", "s", "--config", "c.toml"],
    ["run", "--config", "c.toml"],
    ["--config", "c.toml", "run"],
])
def test_config_is_accepted_before_or_after_the_subcommand(argv: list[str]) -> None:
    assert build_parser().parse_args(argv).config == "c.toml"


def test_no_config_means_none() -> None:
    assert build_parser().parse_args(["games"]).config is None


def test_play_with_config_after_its_arguments(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[players]\nnames = ["Zoe", "Yan"]\n')
    script = tmp_path / "s.txt"
    script.write_text("ok\n")
    out = tmp_path / "state.json"
    r = run_companion("play", str(EXAMPLES / "vp-tracker.toml"), "--script", str(script), "--state-json", str(out),
                      "--config", str(cfg))
    assert r.returncode == 0, r.stderr
    assert '"Zoe"' in out.read_text()


def test_output_into_a_closed_pipe_is_quiet() -> None:
    import subprocess
    import sys

    from conftest import ROOT

    p = subprocess.Popen([sys.executable, "-m", "companion.cli", "odds", "sovereign", "--attack", "Catapult",
                          "--defend", "Musketman", "--json"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()  # like `| head` that already left
    err = p.stderr.read().decode()
    p.stderr.close()
    p.wait(timeout=30)
    assert "Traceback" not in err and p.returncode in (0, 141)


@pytest.mark.parametrize("argv", [["games", "--ids"], ["dice", "--help"], ["--help"], []],
                         ids=["games-ids", "dice-help", "help", "no-command"])
def test_short_output_into_a_closed_pipe_is_quiet_too(argv: list[str]) -> None:
    """A few bytes stay in stdout's buffer until the interpreter's own flush at exit, which used to report
    "Exception ignored ... BrokenPipeError" and exit 120 (seen on the Pi's arm64; here on every architecture)."""
    import os
    import subprocess
    import sys

    from conftest import ROOT

    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # buffered, as under systemd or a shell
    p = subprocess.Popen([sys.executable, "-m", "companion.cli", *argv], cwd=ROOT, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, env=env)
    assert p.stdout is not None and p.stderr is not None
    p.stdout.close()
    err = p.stderr.read().decode()
    p.stderr.close()
    p.wait(timeout=30)
    assert err == "" and p.returncode in (0, 2, 141), (p.returncode, err)  # 2: no command (the usage is shown)
