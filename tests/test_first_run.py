"""A first run as a new user has it (issue 33 item 12): `make run` installs only what the companion needs and says
each step; the editable install raises no setuptools warning box; the simulator keeps the web view's address
visible; `--help` names the config files in the order they are read."""
from __future__ import annotations

import io
import os
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent


def dry_run(target: str, venv: Path) -> list[str]:
    """The commands `make <target>` would run for a venv at ``venv`` (nothing is run: ``make -n``)."""
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    # not the variables of a `make test ARGS=...` this runs under: make passes its ARGS on to this one, through
    # MAKEFLAGS and the environment alike
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "ARGS")}
    out = subprocess.run(["make", "-n", "-C", str(ROOT), target, f"VENV={venv}", "ARGS="], capture_output=True, text=True,
                         timeout=30, check=True, env=env).stdout
    return out.splitlines()


def pip_installs(lines: list[str]) -> list[str]:
    return [ln for ln in lines if "pip install" in ln and "--upgrade pip" not in ln]


def test_make_run_installs_only_what_the_companion_needs(tmp_path: Path) -> None:
    lines = dry_run("run", tmp_path / "venv")
    installs = pip_installs(lines)
    assert installs and all("[test]" not in ln for ln in installs), installs
    assert any(ln.endswith("companion run ") or ln.endswith("companion run") for ln in lines)


def test_make_run_after_make_test_installs_nothing_more(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    (venv / ".installed-run").touch()
    assert pip_installs(dry_run("run", venv)) == []
    test_installs = pip_installs(dry_run("test", venv))  # the test tools come with `make test` only
    assert len(test_installs) == 1 and "'.[test]'" in test_installs[0]


def test_each_install_step_is_announced_in_words(tmp_path: Path) -> None:
    lines = dry_run("test", tmp_path / "venv")
    steps = [i for i, ln in enumerate(lines) if "-m venv" in ln or "pip install" in ln]
    assert len(steps) == 4  # the venv, pip, the companion, the test tools
    for i in steps:  # the line before each step says what it is doing
        assert lines[i - 1].startswith('echo "make: '), lines[i - 1]


def test_the_test_extra_holds_the_test_tools_and_the_runtime_none() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime = " ".join(project["dependencies"])
    for tool in ("pytest", "hypothesis", "mypy", "selenium"):
        assert tool not in runtime
        assert any(d.startswith(tool) for d in project["optional-dependencies"]["test"])


def test_the_editable_install_is_a_plain_path_with_no_warning_box() -> None:
    """setuptools warns "Editable installation ... folders with the same name as your package" when it has to install
    a flat layout through a meta path finder; with the project folder as the package root it writes a plain .pth."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert setuptools["package-dir"] == {"": "."}


def test_the_simulator_keeps_the_web_address_on_a_narrow_terminal() -> None:
    from companion.loop.runtime import SimOutput
    from hw.leds import SimLeds
    from hw.terminal import TerminalScreen

    term = TerminalScreen(io.StringIO(), size=(80, 24), ansi=False)
    out = SimOutput(term, SimLeds(4))
    out.web = "http://192.168.178.123:8080/"
    out.status = "roller: connected (virtual-roller 1.0 on /dev/pts/17, a long detail)"
    out.present(Image.new("1", (128, 64)), None, False)
    status = term.last_lines[-2]  # the status line, above the keys' help
    assert status.startswith("phones: http://192.168.178.123:8080/  roller")


def test_help_says_the_users_own_config_comes_first(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    for argv in (["--help"], ["run", "--help"], ["sim", "--help"], ["play", "--help"]):
        with pytest.raises(SystemExit):
            main(argv)
        text = " ".join(capsys.readouterr().out.split())
        mine, system = text.find("~/.config/companion/config.toml"), text.find("/etc/companion/config.toml")
        assert 0 <= mine < system, (argv, text)
        assert "default /etc/companion" not in text
