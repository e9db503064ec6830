"""systemd/install.sh under --root: every file it lays, idempotence, asking before config.txt, and --uninstall.

The venv step runs a stub Python (``PYTHON=...``, a shell script) that records what it was asked to do and lays the
files a real venv would have, so these tests need no network; `make pi-check` runs the real thing on arm64.
"""
from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from typing import Callable
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
INSTALL = ROOT / "systemd" / "install.sh"
REQUIREMENTS = ROOT / "systemd" / "requirements-pi.txt"
HAS_SYSTEMCTL = shutil.which("systemctl") is not None

#: a trimmed Raspberry Pi OS bookworm /boot/firmware/config.txt
BOOKWORM_CONFIG_TXT = """\
# For more options and information see
# http://rptl.io/configtxt

# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

[cm4]
otg_mode=1

[all]
"""

STUB = textwrap.dedent("""\
    #!/bin/sh
    # Stand-in for python3 and for the venv's python (a shell script, started at once): logs argv, lays what a venv
    # and pip would, and hands a one-liner or a script (install_docs.py) to the tests' own Python.
    echo "$0 $*" >>"$STUB_LOG"
    case "$1" in
        -c|*.py) exec '{python}' "$@" ;;
    esac
    if [ "$1 $2" = "-m venv" ]; then
        for venv; do :; done
        mkdir -p "$venv/bin"
        printf 'home = /usr/bin\\ninclude-system-site-packages = true\\n' >"$venv/pyvenv.cfg"
        cp "$0" "$venv/bin/python" && chmod 755 "$venv/bin/python"
        exit 0
    fi
    if [ "$1 $2" = "-m ensurepip" ]; then
        exit 0
    fi
    if [ "$1 $2" = "-m pip" ]; then
        case " $* " in
            *" --no-deps "*)
                companion=$(dirname "$0")/companion
                if [ -n "$STUB_REAL_COMPANION" ]; then  # the real command of the tests' environment
                    printf '#!/bin/sh\\nexec %s -m companion.cli "$@"\\n' '{python}' >"$companion"
                else
                    printf '#!/bin/sh\\nexit 0\\n' >"$companion"
                fi
                chmod 755 "$companion" ;;
        esac
        exit 0
    fi
    echo "stub python: unexpected $*" >&2
    exit 1
""")


@pytest.fixture
def target(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "boot" / "firmware").mkdir(parents=True)
    (root / "boot" / "firmware" / "config.txt").write_text(BOOKWORM_CONFIG_TXT)
    return root


@pytest.fixture
def stub(tmp_path: Path) -> Path:
    path = tmp_path / "python3"
    path.write_text(STUB.format(python=sys.executable))
    path.chmod(0o755)
    return path


def run(root: Path, stub: Path, *args: str, stdin: str = "", real_companion: bool = False,
        pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": str(stub), "STUB_LOG": str(stub.parent / "stub.log")}
    if pythonpath is not None:  # what every python the installer starts imports first
        env["PYTHONPATH"] = str(pythonpath)
    if real_companion:
        env["STUB_REAL_COMPANION"] = "1"
    return subprocess.run(["bash", str(INSTALL), "--root", str(root), *args], input=stdin, env=env,
                          capture_output=True, text=True, timeout=300)  # 300: the Pi's own emulation (pi-check)


def ok(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stderr == "", proc.stderr
    return proc.stdout


def tree(root: Path) -> dict[str, tuple[int, str]]:
    """Every path under root with its mode and content (or link target)."""
    out: dict[str, tuple[int, str]] = {}
    for p in sorted(root.rglob("*")):
        st = p.lstat()
        if p.is_symlink():
            body = "-> " + os.readlink(p)
        elif p.is_file():
            body = p.read_text(errors="replace")
        else:
            body = "<dir>"
        out[str(p.relative_to(root))] = (stat.S_IMODE(st.st_mode), body)
    return out


def mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


@dataclass(frozen=True)
class Fresh:
    """One ``install.sh --root ROOT --yes`` on a fresh bookworm tree: what it laid, printed and asked the stub."""
    root: Path  # read only: a test that runs the installer again or changes a file works on a copy (``installed``)
    stub: Path
    out: str
    calls: list[str]


def once(shared_dir: Path, name: str, lay: Callable[[Path], None]) -> Fresh:
    """``install.sh --yes`` under ``shared_dir/name/root`` (``lay`` puts what is there before), made once per run:
    the first worker to need it makes it under a lock, the others read it."""
    where = shared_dir / name
    with open(shared_dir / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (where / "out.txt").exists():
            shutil.rmtree(where, ignore_errors=True)  # a worker that died halfway
            where.mkdir()
            lay(where / "root")
            stub = where / "python3"
            stub.write_text(STUB.format(python=sys.executable))
            stub.chmod(0o755)
            out = ok(run(where / "root", stub, "--yes"))
            (where / "out.txt").write_text(out)  # last: its presence says the install is whole
    return Fresh(where / "root", where / "python3", (where / "out.txt").read_text(),
                 (where / "stub.log").read_text().splitlines())


@pytest.fixture(scope="session")
def fresh(shared_dir: Path) -> Fresh:
    """The install on a fresh bookworm tree: the tests that start from it look at the same install each would have
    made for itself."""
    def bookworm(root: Path) -> None:
        (root / "boot/firmware").mkdir(parents=True)
        (root / "boot/firmware/config.txt").write_text(BOOKWORM_CONFIG_TXT)

    return once(shared_dir, "fresh-install", bookworm)


@pytest.fixture(scope="session")
def again(shared_dir: Path, fresh: Fresh) -> Fresh:
    """The installer run a second time over a copy of the fresh install, with nothing changed in between."""
    return once(shared_dir, "second-install", lambda root: shutil.copytree(fresh.root, root, symlinks=True))


@pytest.fixture
def installed(fresh: Fresh, tmp_path: Path) -> Path:
    """This test's copy of the fresh install (modes and links kept), where ``target`` would be."""
    root = tmp_path / "root"
    shutil.copytree(fresh.root, root, symlinks=True)
    return root


def test_fresh_install_lays_every_file(fresh: Fresh) -> None:
    target, out = fresh.root, fresh.out
    unit = target / "etc/systemd/system/companion.service"
    assert unit.read_text() == (ROOT / "systemd/companion.service").read_text()
    assert mode(unit) == 0o644
    rule = target / "etc/udev/rules.d/99-companion-roller.rules"
    assert rule.read_text() == (ROOT / "systemd/99-companion-roller.rules").read_text()
    assert (target / "etc/modules-load.d/companion-i2c.conf").read_text() == "i2c-dev\n"
    assert (target / "etc/companion/config.toml").is_file()
    assert (target / "etc/companion/games").is_dir()
    assert mode(target / "var/lib/companion") == 0o750
    # the ExecStart of the unit exists in the laid-out tree
    exec_start = next(line for line in unit.read_text().splitlines() if line.startswith("ExecStart="))
    assert os.access(target / exec_start.split("=", 1)[1].split()[0].lstrip("/"), os.X_OK)
    for doc in (ROOT / "firmware_docs").glob("*.md"):  # links rewritten to work there: tests/test_installed_docs.py
        assert (target / "opt/companion/docs" / doc.name).is_file()
    for name in ("README.md", "main.py"):  # the roller's guide and the firmware to flash
        assert (target / "opt/companion/docs/roller" / name).read_bytes() == (ROOT / "firmware_docs/roller" / name
                                                                            ).read_bytes()
    if HAS_SYSTEMCTL:
        wants = target / "etc/systemd/system/multi-user.target.wants/companion.service"
        assert os.readlink(wants) == "/etc/systemd/system/companion.service"
    # what it did, and what it left to the real machine
    assert "+ installed /etc/systemd/system/companion.service" in out
    assert "+ enabled I2C at 400 kHz in /boot/firmware/config.txt" in out
    assert "~ system user companion (home /var/lib/companion, no login) in groups gpio i2c dialout" in out
    assert "~ systemctl restart companion.service (not done under --root)" in out
    assert "Done:" in out


def test_venv_and_pinned_packages(fresh: Fresh) -> None:
    calls, stub = fresh.calls, fresh.stub
    venv = fresh.root / "opt/companion/venv"
    # no pip of its own: it uses the system's (the tests' python stands for it here), so no ensurepip
    assert f"{stub} -m venv --system-site-packages --clear --without-pip {venv}" in calls
    assert not any("ensurepip" in c for c in calls)
    pip = f"{venv}/bin/python -m pip --disable-pip-version-check --no-input install --quiet --progress-bar off"
    assert f"{pip} -r {REQUIREMENTS}" in calls
    # the package from a copy of the checkout (pip builds in place: no root-owned build/ or *.egg-info left in it)
    own = [c for c in calls if c.startswith(f"{pip} --no-deps --force-reinstall ")]
    assert len(own) == 1 and own[0] != f"{pip} --no-deps --force-reinstall {ROOT}" and "companion-build." in own[0]
    # the dependencies first, then the package itself with no room for unpinned extras
    assert calls.index(f"{pip} -r {REQUIREMENTS}") < calls.index(own[0])
    import platform

    assert f"  + created venv (--system-site-packages) with {platform.python_version()}\n" in fresh.out


def test_a_python_older_than_3_11_stops_in_one_line(tmp_path: Path, target: Path) -> None:
    """What install.sh asks its python (one start: pointer size, machine, 3.11 or later, version), answered by a
    bookworm-era 64-bit python too old: the venv step stops in one line, and no venv is made."""
    old = tmp_path / "python3"
    old.write_text("#!/bin/sh\necho 64 aarch64 0 3.9.2\n")
    old.chmod(0o755)
    proc = run(target, old, "--yes")
    assert proc.returncode == 1
    assert proc.stderr == f"install.sh: {old} is older than 3.11; Raspberry Pi OS bookworm has 3.11\n"
    assert "= architecture: aarch64, 64-bit" in proc.stdout
    assert not (target / "opt/companion/venv").exists()


def test_a_system_without_a_recent_pip_gives_the_venv_its_own(tmp_path: Path, target: Path, stub: Path) -> None:
    old = tmp_path / "old" / "pip"  # the system's pip, as the venv sees it: too old to lean on
    old.mkdir(parents=True)
    (old / "__init__.py").write_text('__version__ = "22.3.1"\n')
    out = ok(run(target, stub, "--yes", pythonpath=old.parent))
    venv = target / "opt/companion/venv"
    calls = (stub.parent / "stub.log").read_text().splitlines()
    ensure = f"{venv}/bin/python -m ensurepip --default-pip"
    assert ensure in calls and calls.index(ensure) < next(i for i, c in enumerate(calls) if " -m pip " in c)
    assert "+ gave the venv its own pip (no pip 23 or later on the system)" in out
    # a re-run with the system's pip fixed leaves the venv as it is
    again = ok(run(target, stub, "--yes"))
    assert "= venv exists" in again and "its own pip" not in again


def test_config_txt_gets_i2c_at_400khz_once(again: Fresh) -> None:
    text = (again.root / "boot/firmware/config.txt").read_text()
    assert text.startswith(BOOKWORM_CONFIG_TXT)
    added = text[len(BOOKWORM_CONFIG_TXT):]
    assert added == ("\n# >>> companion: I2C for the OLED (added by systemd/install.sh)\n[all]\n"
                     "dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n# <<< companion\n")


@pytest.mark.parametrize("answer", ["n\n", "", "maybe\n"])
def test_asks_before_changing_config_txt(target: Path, stub: Path, answer: str) -> None:
    out = ok(run(target, stub, stdin=answer))
    assert "Enable I2C at 400 kHz in /boot/firmware/config.txt" in out
    assert "! I2C left as it is in /boot/firmware/config.txt" in out
    assert (target / "boot/firmware/config.txt").read_text() == BOOKWORM_CONFIG_TXT
    assert (target / "etc/systemd/system/companion.service").exists()  # the rest is installed anyway


def test_yes_typed_at_the_question(target: Path, stub: Path) -> None:
    out = ok(run(target, stub, stdin="y\n"))
    assert "+ enabled I2C at 400 kHz" in out
    assert "dtparam=i2c_arm_baudrate=400000" in (target / "boot/firmware/config.txt").read_text()


def test_leaves_i2c_alone_when_the_maker_already_enabled_it(target: Path, stub: Path) -> None:
    cfg = target / "boot/firmware/config.txt"
    cfg.write_text(BOOKWORM_CONFIG_TXT + "dtparam=i2c_arm=on,i2c_arm_baudrate=400000\n")
    before = cfg.read_text()
    out = ok(run(target, stub))
    assert "= /boot/firmware/config.txt already enables I2C at 400 kHz" in out
    assert cfg.read_text() == before


def test_older_boot_config_location(tmp_path: Path, stub: Path) -> None:
    root = tmp_path / "old"
    (root / "boot").mkdir(parents=True)
    (root / "boot" / "config.txt").write_text(BOOKWORM_CONFIG_TXT)
    out = ok(run(root, stub, "--yes"))
    assert "+ enabled I2C at 400 kHz in /boot/config.txt" in out


def test_no_config_txt_is_a_warning(tmp_path: Path, stub: Path) -> None:
    out = ok(run(tmp_path / "bare", stub, "--yes"))
    assert "! no /boot/firmware/config.txt /boot/config.txt found: enable I2C at 400 kHz yourself" in out


def test_second_run_changes_nothing(fresh: Fresh, again: Fresh) -> None:
    out = again.out
    assert tree(again.root) == tree(fresh.root)
    changes = [line for line in out.splitlines() if line.startswith("  + ")]
    assert changes == [f"  + installed the companion from {ROOT}"]  # the package is always reinstalled
    assert "= /etc/systemd/system/companion.service unchanged" in out
    assert "= /etc/companion/config.toml kept as it is" in out


def test_a_changed_unit_is_put_back(installed: Path, stub: Path) -> None:
    unit = installed / "etc/systemd/system/companion.service"
    unit.write_text("[Service]\nExecStart=/bin/false\n")
    unit.chmod(0o600)
    out = ok(run(installed, stub, "--yes"))
    assert "+ updated /etc/systemd/system/companion.service" in out
    assert unit.read_text() == (ROOT / "systemd/companion.service").read_text()
    assert mode(unit) == 0o644


def test_the_makers_config_is_kept(target: Path, stub: Path) -> None:
    conf = target / "etc/companion/config.toml"
    conf.parent.mkdir(parents=True)
    conf.write_text('[display]\ndriver = "sh1106"\n')
    out = ok(run(target, stub, "--yes"))
    code = conf.read_text().split('owner_code = "')[1][:9]  # its lines kept; the owner code added, nothing else
    assert conf.read_text() == f'[display]\ndriver = "sh1106"\n\n[web]\nowner_code = "{code}"\n'
    assert "+ made the owner code and wrote it into /etc/companion/config.toml ([web] owner_code)" in out
    ok(run(target, stub, "--yes"))
    assert conf.read_text() == f'[display]\ndriver = "sh1106"\n\n[web]\nowner_code = "{code}"\n'


def test_written_config_is_valid(fresh: Fresh) -> None:
    config = pytest.importorskip("companion.config.load", reason="the platform's config module is not there yet")
    conf = fresh.root / "etc/companion/config.toml"
    import tomllib

    cfg = config.parse_config(tomllib.loads(conf.read_text()), source=conf)
    assert str(cfg.games.folder) == "/etc/companion/games"
    assert cfg.log_level == "info"
    assert cfg.hardware == "pi"  # a missing OLED is reported as such, not as "the simulator needs a terminal"


def test_uninstall_keeps_only_the_saved_games(installed: Path, stub: Path) -> None:
    target = installed
    journal = target / "var/lib/companion/journal.sqlite"
    journal.write_bytes(b"SQLite format 3\0saved games")
    out = ok(run(target, stub, "--uninstall"))
    assert journal.read_bytes() == b"SQLite format 3\0saved games"
    assert (target / "boot/firmware/config.txt").read_text() == BOOKWORM_CONFIG_TXT
    assert not (target / "boot/firmware/config.txt.companion-backup").exists()
    left = sorted(str(p.relative_to(target)) for p in target.rglob("*") if not p.is_dir())
    assert left == ["boot/firmware/config.txt", "var/lib/companion/journal.sqlite"], left
    assert not (target / "usr/local/bin/companion").is_symlink()
    assert "- removed /usr/local/bin/companion" in out
    assert not (target / "etc/companion").exists()
    assert "- removed /etc/systemd/system/companion.service" in out
    assert "- removed the installer's I2C lines from /boot/firmware/config.txt" in out
    assert "~ userdel companion (not done under --root)" in out
    assert "Kept /var/lib/companion (saved games)" in out


def test_uninstall_keeps_the_makers_game_files(installed: Path, stub: Path) -> None:
    target = installed
    game = target / "etc/companion/games/house-rules.toml"
    game.write_text('id = "house"\n')
    out = ok(run(target, stub, "--uninstall"))
    assert game.read_text() == 'id = "house"\n'
    assert not (target / "etc/companion/config.toml").exists()
    assert "= kept /etc/companion/games: it holds your game files" in out


def test_uninstall_twice_and_reinstall(installed: Path, stub: Path) -> None:
    target, before = installed, tree(installed)
    ok(run(target, stub, "--uninstall"))
    out = ok(run(target, stub, "--uninstall"))
    assert "Done: 0 change(s)" in out
    ok(run(target, stub, "--yes"))
    assert without_owner_code(tree(target)) == without_owner_code(before)  # uninstalled, it was made anew


def without_owner_code(files: dict[str, tuple[int, str]]) -> dict[str, tuple[int, str]]:
    """The tree with its owner code (the config's line, the QR code's content) blanked out."""
    conf, svg = "etc/companion/config.toml", "etc/companion/owner-code.svg"
    mode, text = files[conf]
    return {**files, conf: (mode, re.sub(r'owner_code = "[A-Z0-9-]+"', 'owner_code = "…"', text)),
            svg: (files[svg][0], "…")}


# ------------------------------------------------------------------ `companion` on the PATH, as the docs use it

BIN = "usr/local/bin/companion"


def test_companion_is_linked_onto_the_path(fresh: Fresh, again: Fresh) -> None:
    target, out = fresh.root, fresh.out
    link = target / BIN
    assert os.readlink(link) == "../../../opt/companion/venv/bin/companion"  # /opt/companion/venv/bin/companion
    assert link.resolve() == (target / "opt/companion/venv/bin/companion").resolve()
    assert "+ linked /usr/local/bin/companion to /opt/companion/venv/bin/companion" in out
    assert "= /usr/local/bin/companion links to /opt/companion/venv/bin/companion" in again.out


def test_someone_elses_usr_local_bin_companion_is_left_alone(target: Path, stub: Path) -> None:
    mine = target / BIN
    mine.parent.mkdir(parents=True)
    mine.write_text("#!/bin/sh\necho mine\n")
    out = ok(run(target, stub, "--yes"))
    assert "! /usr/local/bin/companion is someone else's file: left alone" in out
    ok(run(target, stub, "--uninstall"))
    assert mine.read_text() == "#!/bin/sh\necho mine\n"
    mine.unlink()
    mine.symlink_to("/usr/bin/true")  # a link of someone else's too
    out = ok(run(target, stub, "--yes"))
    assert "! /usr/local/bin/companion is someone else's file: left alone" in out
    ok(run(target, stub, "--uninstall"))
    assert os.readlink(mine) == "/usr/bin/true"


def on_path(root: Path, command: str, **kw: object) -> subprocess.CompletedProcess[str]:
    """``command`` through a shell whose PATH is the installed layout's, as a maker's login shell has it."""
    env = {k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "PYTHONPATH")}
    env["PATH"] = f"{root / 'usr/local/bin'}:/usr/bin:/bin"
    return subprocess.run(["bash", "-c", command], env=env, capture_output=True, text=True, cwd=root, **kw)


def doc_commands() -> set[str]:
    from test_maker_docs import DOC_COMMANDS

    return {command for _doc, command in DOC_COMMANDS}


def test_the_docs_commands_run_as_written_on_the_installed_layout(target: Path, stub: Path) -> None:
    ok(run(target, stub, "--yes", real_companion=True))
    where = on_path(target, "command -v companion", timeout=30)
    assert where.stdout.strip() == str(target / BIN)
    assert {"--help", "check", "roller listen auto --json"} <= doc_commands()
    assert on_path(target, "companion --help", timeout=60).returncode == 0
    check = on_path(target, "companion check", timeout=60)
    assert check.returncode in (0, 1), check.stderr  # 1: a part failed (no Pi here), never a usage error (2)
    assert [line.split()[1] for line in check.stdout.splitlines()] == ["display", "gpio", "roller"], check.stdout
    listen = subprocess.Popen(["bash", "-c", "exec companion roller listen auto --json"], cwd=target,
                              env={**os.environ, "PATH": f"{target / 'usr/local/bin'}:/usr/bin:/bin"},
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert listen.stderr is not None
        first = listen.stderr.readline()  # its status line: it is listening (a fixed sleep lost the race under
        assert first.startswith("roller "), first  # qemu: the signal came before its handler, status -15)
        listen.send_signal(signal.SIGTERM)  # what Ctrl-C / stopping it does: a summary line, exit 0
        out, err = listen.communicate(timeout=30)
    finally:
        listen.kill()
    assert listen.returncode == 0, err
    assert json.loads(out.splitlines()[-1])["summary"]["accepted"] == 0


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_installs_from_the_archive_the_docs_make(tmp_path: Path, target: Path, stub: Path) -> None:
    """first-boot.md's way onto the Pi without a git host: git archive, copy, tar xzf, install."""
    first_boot = (ROOT / "firmware_docs/first-boot.md").read_text()
    make = "git archive --format=tar.gz --prefix=companion/ -o companion.tar.gz HEAD"
    unpack = "tar xzf companion.tar.gz && cd companion"
    assert make in first_boot and unpack in first_boot and make in (ROOT / "README.md").read_text()
    git_dir = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--absolute-git-dir"], capture_output=True,
                             text=True, timeout=30, check=True).stdout.strip()
    pi = tmp_path / "home"
    pi.mkdir()
    made = subprocess.run(["bash", "-c", make], cwd=pi, env={**os.environ, "GIT_DIR": git_dir}, capture_output=True,
                          text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    env = {**os.environ, "PYTHON": str(stub), "STUB_LOG": str(stub.parent / "stub.log")}
    proc = subprocess.run(["bash", "-c", f"{unpack} && systemd/install.sh --root {target} --yes"], cwd=pi, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"+ installed the companion from {pi / 'companion'}" in proc.stdout


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_installs_from_a_copy_without_git_packed_as_the_docs_say(tmp_path: Path, target: Path, stub: Path) -> None:
    """A copy of the project with no .git folder: first-boot.md and the README pack it with tar instead."""
    pack = "tar czf companion.tar.gz companion"
    assert pack in (ROOT / "firmware_docs/first-boot.md").read_text() and pack in (ROOT / "README.md").read_text()
    maker = tmp_path / "maker"
    maker.mkdir()
    subprocess.run(f"git -C {ROOT} archive --prefix=companion/ HEAD | tar x -C {maker}", shell=True, check=True,
                   timeout=120)
    assert not (maker / "companion/.git").exists()
    made = subprocess.run(["bash", "-c", pack], cwd=maker, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    pi = tmp_path / "home"
    pi.mkdir()
    shutil.copy(maker / "companion.tar.gz", pi)
    env = {**os.environ, "PYTHON": str(stub), "STUB_LOG": str(stub.parent / "stub.log")}
    proc = subprocess.run(["bash", "-c", f"tar xzf companion.tar.gz && cd companion && systemd/install.sh --root "
                                         f"{target} --yes"], cwd=pi, env=env, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"+ installed the companion from {pi / 'companion'}" in proc.stdout


def test_bad_option_is_one_line(target: Path, stub: Path) -> None:
    proc = run(target, stub, "--frobnicate")
    assert proc.returncode == 1
    assert proc.stderr == "install.sh: unknown option '--frobnicate' (see --help)\n"


def test_help(target: Path, stub: Path) -> None:
    proc = run(target, stub, "--help")
    assert proc.returncode == 0
    assert "--uninstall" in proc.stdout and "--root DIR" in proc.stdout and "--yes" in proc.stdout


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed (apt install shellcheck)")
@pytest.mark.parametrize("script", ["install.sh", "pi-check.sh"])
def test_shellcheck_clean(script: str) -> None:
    proc = subprocess.run(["shellcheck", str(ROOT / "systemd" / script)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout


# ------------------------------------------------------------------ the pinned versions

def pins() -> dict[str, str]:
    out: dict[str, str] = {}
    for line in REQUIREMENTS.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            req = Requirement(line)
            specs = list(req.specifier)
            assert len(specs) == 1 and specs[0].operator == "==", f"{line!r} is not pinned with =="
            out[canonicalize_name(req.name)] = specs[0].version
    return out


def runtime_closure() -> dict[str, Requirement]:
    """Every runtime requirement of the installed package, direct and indirect (markers for this platform)."""
    seen: dict[str, Requirement] = {}
    todo = ["sovereign-companion"]
    while todo:
        for raw in metadata.requires(todo.pop()) or []:
            req = Requirement(raw)
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            name = canonicalize_name(req.name)
            if name not in seen:
                seen[name] = req
                todo.append(req.name)
    return seen


#: provided by the venv itself (python3 -m venv), not pinned
FROM_THE_VENV = {"setuptools", "pip"}


def test_every_runtime_dependency_is_pinned() -> None:
    closure = {n: r for n, r in runtime_closure().items() if n not in FROM_THE_VENV}
    pinned = pins()
    assert sorted(closure) == sorted(pinned), "systemd/requirements-pi.txt must pin exactly the runtime closure"
    for name, req in closure.items():
        assert req.specifier.contains(pinned[name], prereleases=True), f"{name}=={pinned[name]} breaks {req}"


def test_pins_are_what_the_tests_run_on() -> None:
    for name, version in pins().items():
        assert metadata.version(name) == version, (
            f"tests run on {name} {metadata.version(name)} but the Pi gets {version}: update systemd/requirements-pi.txt")


# ------------------------------------------------------------------ the real thing, under --root

NO_INDEX = ("No matching distribution", "Could not find a version", "NewConnectionError", "Temporary failure in name",
            "Network is unreachable", "Max retries exceeded")


def wheelhouse(config: pytest.Config, env: dict[str, str]) -> Path | None:
    """The wheels of the pins and of the package's build backend, fetched from the index by the installer's pip once
    and kept in pytest's cache (.pytest_cache, which the installer's build copy leaves out), keyed by the pins, the
    build requirements and the interpreter; None without pytest's cache (``-p no:cacheprovider``, as `make pi-check`
    runs it: pip reads the index there). From them the real pip installs with ``--no-index`` instead of reading the
    index's page of every pin again on every run: about 7 s of CPU, most of it pip weighing the thousands of files
    listed for aiohttp, Pillow, multidict, yarl and setuptools. The test is about the installer making a real venv
    from the pins, not about the index (a pin the index lacks skips it, as before)."""
    cache = getattr(config, "cache", None)
    if cache is None:
        return None
    import hashlib
    import sysconfig
    import tomllib

    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    key = hashlib.sha256("\n".join([REQUIREMENTS.read_text(), *build, env["PYTHON"], sys.implementation.cache_tag,
                                     sysconfig.get_platform()]).encode()).hexdigest()[:16]
    base = cache.mkdir("installer-wheelhouse")
    where = base / key
    with open(base / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another run of this checkout's tests may be fetching them
        if not (where / "complete").exists():
            for old in base.iterdir():  # other pins' wheels, or a download cut short
                if old.is_dir():
                    shutil.rmtree(old)
            proc = subprocess.run([env["PYTHON"], "-m", "pip", "download", "--disable-pip-version-check", "--no-input",
                                   "--quiet", "--progress-bar", "off", "-d", str(where), "-r", str(REQUIREMENTS),
                                   *build], env=env, capture_output=True, text=True, timeout=600)
            if proc.returncode != 0 and any(s in proc.stdout + proc.stderr for s in NO_INDEX):
                shutil.rmtree(where, ignore_errors=True)
                pytest.skip("no package index reachable for pip")
            assert proc.returncode == 0, proc.stdout + proc.stderr
            (where / "complete").write_text("")  # last: its presence says every wheel is there
    return where


@pytest.mark.slow
@pytest.mark.timeout(900)  # a real venv and pip: minutes under the Pi check's emulation
def test_real_venv_under_root(tmp_path: Path, pytestconfig: pytest.Config) -> None:
    """The real python -m venv and pip: the pins resolve, the package installs, and the command runs."""
    root = tmp_path / "root"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHON", "VIRTUAL_ENV", "PYTHONPATH")}
    env["PYTHON"] = getattr(sys, "_base_executable", sys.executable)
    wheels = wheelhouse(pytestconfig, env)
    if wheels is not None:  # what pip reads from the environment: the installer's own command line is unchanged
        env.update(PIP_NO_INDEX="1", PIP_FIND_LINKS=str(wheels))
    proc = subprocess.run(["bash", str(INSTALL), "--root", str(root), "--yes"], env=env, capture_output=True,
                          text=True, timeout=600)
    if wheels is None and proc.returncode != 0 and any(s in proc.stdout + proc.stderr for s in NO_INDEX):
        pytest.skip("no package index reachable for pip")
    assert proc.returncode == 0, proc.stdout + proc.stderr + (f"\n(pip installed from {wheels}: delete it to fetch "
                                                              "the wheels again)" if wheels else "")
    venv = root / "opt/companion/venv"
    assert "include-system-site-packages = true" in (venv / "pyvenv.cfg").read_text()
    base_pip = subprocess.run([env["PYTHON"], "-c", "import pip; print(pip.__version__)"], capture_output=True,
                              text=True, timeout=60).stdout.split(".")[0]
    if base_pip.isdigit() and int(base_pip) >= 23:  # the system's pip served: no copy of its own (ensurepip's seconds)
        assert not list(venv.glob("lib/python3*/site-packages/pip")), "the venv got a pip of its own"
    # what the venv's python finds, first on its path first (pip list's answer, without starting pip)
    listed = subprocess.run([str(venv / "bin/python"), "-c", "from importlib.metadata import distributions\n"
                             "for d in distributions(): print(d.metadata['Name'] + '==' + d.version)"],
                            capture_output=True, text=True, timeout=120, check=True).stdout.splitlines()
    installed: dict[str, str] = {}
    for name, _, version in (line.partition("==") for line in listed):
        installed.setdefault(canonicalize_name(name), version)
    for name, version in pins().items():
        assert installed.get(name) == version, f"{name}: {installed.get(name)} installed, {version} pinned"
    games = subprocess.run([str(venv / "bin/companion"), "games", "--ids"], capture_output=True, text=True,
                           timeout=120, cwd=tmp_path)
    assert games.returncode == 0, games.stderr
    from companion.games import EXAMPLES, builtin_ids

    examples = sorted(p.stem for p in EXAMPLES.glob("*.toml"))  # the shipped examples play by id too
    assert examples and games.stdout.split() == builtin_ids() + examples


# ------------------------------------------------------------------ the owner code (issue 31): made once, kept, printed

def owner_code_in(conf: Path) -> str:
    import tomllib

    return str(tomllib.loads(conf.read_text())["web"]["owner_code"])


def test_the_owner_code_is_made_kept_and_printed_with_its_qr_code(fresh: Fresh, again: Fresh) -> None:
    from companion.web.owner import normalize

    target, out = fresh.root, fresh.out
    conf = target / "etc/companion/config.toml"
    code = owner_code_in(conf)
    assert normalize(code) is not None and len(code) == 9 and code[4] == "-"
    text = conf.read_text()
    assert text.startswith("# Sovereign Companion config, written by systemd/install.sh")  # the comments kept
    assert "# The owner code pairs the owner's phone as the host at once" in text
    assert "+ made the owner code and wrote it into /etc/companion/config.toml ([web] owner_code)" in out
    # the summary: the code, where its QR code is, the address to type it at
    summary = out[out.index("Done:"):]
    assert f"  owner code:  {code}  (pairs the owner's phone as the host" in summary
    assert "scan the QR code in /etc/companion/owner-code.svg" in summary and "sudo companion owner-code" in summary
    svg = target / "etc/companion/owner-code.svg"
    assert mode(svg) == 0o640  # root and the service's group only (chown root:companion on the Pi)
    label = svg.read_text()
    assert label.startswith('<?xml version="1.0" encoding="utf-8"?>\n<svg ') and f"Owner code {code}" in label
    assert "~ chown root:companion /etc/companion/owner-code.svg (not done under --root)" in out
    # a re-run keeps the code and the label
    conf, svg = again.root / "etc/companion/config.toml", again.root / "etc/companion/owner-code.svg"
    assert owner_code_in(conf) == code and svg.read_text() == label
    assert "= /etc/companion/config.toml has the owner code" in again.out
    assert "= /etc/companion/owner-code.svg is up to date" in again.out
    assert f"  owner code:  {code}" in again.out


def test_the_qr_code_pairs_the_phone_that_scans_it(target: Path, stub: Path) -> None:
    """The label's QR code holds the web view's address with #owner=CODE (the page pairs that phone as the owner's):
    read back from the matrix segno drew, at the address the config's [web] port gives."""
    import segno

    conf = target / "etc/companion/config.toml"
    conf.parent.mkdir(parents=True)
    conf.write_text('# mine\n[web]\nport = 8099\n# keep this\n')
    out = ok(run(target, stub, "--yes"))
    code = owner_code_in(conf)
    assert conf.read_text().startswith('# mine\n[web]\nport = 8099\n# keep this\n')
    from companion.web import lan_address

    address = f"http://{lan_address()}:8099/"
    assert f"{address} and type the code" in out
    label = (target / "etc/companion/owner-code.svg").read_text()
    expected = segno.make(f"{address}#owner={code}", error="m")
    import io

    drawn = io.BytesIO()
    expected.save(drawn, kind="svg", scale=6, border=4, xmldecl=False, svgns=True, nl=False)
    assert drawn.getvalue().decode() in label  # the very symbol of that text


def test_the_code_the_box_made_itself_is_adopted(target: Path, stub: Path) -> None:
    """A box that ran before its config had a code made one in its state folder: the installer writes that one
    into the config (the owner's phone and any printed label stay good)."""
    state = target / "var/lib/companion"
    state.mkdir(parents=True)
    (state / "owner-code").write_text("M3PA-KQ7X\n")
    out = ok(run(target, stub, "--yes"))
    assert owner_code_in(target / "etc/companion/config.toml") == "M3PA-KQ7X"
    assert "+ wrote the owner code the box made (/var/lib/companion/owner-code) into /etc/companion/config.toml" in out


def test_a_bad_owner_code_in_the_config_is_left_and_said(target: Path, stub: Path) -> None:
    conf = target / "etc/companion/config.toml"
    conf.parent.mkdir(parents=True)
    conf.write_text('[web]\nowner_code = "oops"\n')
    proc = run(target, stub, "--yes")
    assert proc.returncode == 0
    assert conf.read_text() == '[web]\nowner_code = "oops"\n'
    assert proc.stderr.startswith("[web] owner_code in ") and "is not an owner code" in proc.stderr
    assert "! no owner code in /etc/companion/config.toml (the line above says why)" in proc.stdout
    assert not (target / "etc/companion/owner-code.svg").exists()


def test_companion_owner_code_writes_the_same_label_again(installed: Path, tmp_path: Path) -> None:
    """A label lost or faded: `sudo companion owner-code --svg FILE` writes it again, the installer's very file."""
    from conftest import run_companion

    target = installed  # (the command may write to the config: a copy)
    conf = target / "etc/companion/config.toml"
    again = tmp_path / "label.svg"
    proc = run_companion("--config", str(conf), "owner-code", "--no-qr", "--svg", str(again), fresh=True)
    assert proc.returncode == 0, proc.stderr
    assert f"Owner code: {owner_code_in(conf)}" in proc.stdout and f"QR code written to {again}" in proc.stdout
    assert again.read_text() == (target / "etc/companion/owner-code.svg").read_text() and mode(again) == 0o640
