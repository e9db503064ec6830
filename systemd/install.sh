#!/usr/bin/env bash
# Install Sovereign Companion as a service on Raspberry Pi OS (bookworm or later).
#
#   sudo systemd/install.sh              install or update; asks before enabling I2C
#   sudo systemd/install.sh --yes        same, without asking
#   sudo systemd/install.sh --uninstall  remove everything except the saved games in /var/lib/companion
#   systemd/install.sh --root DIR        lay every file under DIR instead; the machine is not touched
#
# Safe to run again: unchanged files are left alone and nothing is added twice.
set -Eeuo pipefail

readonly SERVICE=companion.service
readonly APP_USER=companion
readonly APP_GROUPS=(gpio i2c dialout)
readonly PREFIX=/opt/companion
readonly VENV=$PREFIX/venv
readonly DOCS=$PREFIX/docs
readonly BIN_LINK=/usr/local/bin/companion
readonly CONF_DIR=/etc/companion
readonly CONF=$CONF_DIR/config.toml
readonly OWNER_SVG=$CONF_DIR/owner-code.svg
readonly GAMES_DIR=$CONF_DIR/games
readonly STATE_DIR=/var/lib/companion
readonly UNIT=/etc/systemd/system/$SERVICE
readonly RULE=/etc/udev/rules.d/99-companion-roller.rules
readonly MODULES=/etc/modules-load.d/companion-i2c.conf
readonly BOOT_CONFIGS=(/boot/firmware/config.txt /boot/config.txt)
readonly MARK_BEGIN="# >>> companion: I2C for the OLED (added by systemd/install.sh)"
readonly MARK_END="# <<< companion"
readonly APT_PACKAGES=(python3-venv python3-pip i2c-tools)

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PYTHON=${PYTHON:-python3}
ROOT=""
YES=0
UNINSTALL=0
REBOOT=0
CHANGED=0
OWNER_CODE=""
OWNER_URL=""

usage() {
    sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

die() { echo "install.sh: $*" >&2; exit 1; }
did() { echo "  + $*"; CHANGED=$((CHANGED + 1)); }   # changed something
same() { echo "  = $*"; }                            # already so
gone() { echo "  - $*"; CHANGED=$((CHANGED + 1)); }  # removed something
warn() { echo "  ! $*"; }
skip() { echo "  ~ $* (not done under --root)"; }    # a change to the running system, left out under --root
step() { echo "$*"; }

# the path of a target file: under --root DIR, inside DIR
at() { echo "$ROOT$1"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --yes|-y) YES=1 ;;
        --uninstall) UNINSTALL=1 ;;
        --root)
            [ $# -ge 2 ] || die "--root needs a directory"
            ROOT=$2; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        -h|--help) usage; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done

if [ -n "$ROOT" ]; then
    mkdir -p "$ROOT" || die "cannot create --root directory $ROOT"
    ROOT=$(cd "$ROOT" && pwd)
    [ "$ROOT" != / ] || ROOT=""
fi
on_system() { [ -z "$ROOT" ]; }

ask() {  # ask "question": 0 for yes; --yes answers yes; no answer (EOF) is no
    [ "$YES" = 1 ] && return 0
    local answer=""
    printf '  ? %s [y/N] ' "$1"
    read -r answer || true
    if [ ! -t 0 ]; then echo "$answer"; fi  # show the piped answer, as a terminal would
    case "$answer" in [yY]|[yY][eE][sS]) return 0 ;; *) return 1 ;; esac
}

# put_file SRC DEST MODE: install SRC as DEST unless DEST already has exactly that content and mode
put_file() {
    local src=$1 dest; dest=$(at "$2")
    if [ -f "$dest" ] && cmp -s "$src" "$dest" && [ "$(stat -c %a "$dest")" = "$3" ]; then
        same "$2 unchanged"
    else
        local verb=installed; [ -e "$dest" ] && verb=updated
        install -D -m "$3" "$src" "$dest"
        did "$verb $2"
    fi
}

remove_path() {
    local p; p=$(at "$1")
    if [ -e "$p" ] || [ -L "$p" ]; then rm -rf -- "$p"; gone "removed $1"; fi
}

boot_config() {  # the config.txt in use, or nothing
    local c
    for c in "${BOOT_CONFIGS[@]}"; do
        if [ -f "$(at "$c")" ]; then echo "$c"; return; fi
    done
}

has_systemd() { on_system && [ -d /run/systemd/system ] && command -v systemctl >/dev/null; }

# ------------------------------------------------------------------ install
preflight() {
    step "Checking"
    if on_system; then
        [ "$(id -u)" = 0 ] || die "run it as root: sudo $0"
        if [ -r /etc/os-release ]; then
            # shellcheck disable=SC1091
            . /etc/os-release
            case "${VERSION_CODENAME:-}" in
                bookworm|trixie|forky) same "system: ${PRETTY_NAME:-$VERSION_CODENAME}" ;;
                *) warn "made for Raspberry Pi OS bookworm or later; this is ${PRETTY_NAME:-unknown}" ;;
            esac
        fi
    fi
    if [ ! -f "$SRC/pyproject.toml" ] || [ ! -f "$SRC/systemd/requirements-pi.txt" ]; then
        die "run it from a checkout of the project ($SRC has no pyproject.toml)"
    fi
    command -v "$PYTHON" >/dev/null || die "no $PYTHON found: sudo apt install python3"
    arch_ok
}

# what the installer asks of $PYTHON, in one start of it (a fraction of a second each on a Pi Zero 2 W): its pointer
# size and machine (here), whether it is 3.11 or later (python_ok) and its version (the venv's line)
PY_RECENT=""
PY_VERSION=""

# 64-bit only (the pinned wheels, lgpio): a 32-bit system, or a 32-bit OS on a 64-bit Pi, stops here in one line
arch_ok() {
    local bits machine
    read -r bits machine PY_RECENT PY_VERSION < <("$PYTHON" -c 'import platform, struct, sys
print(struct.calcsize("P") * 8, platform.machine(), int(sys.version_info >= (3, 11)), platform.python_version())') \
        || die "$PYTHON does not run"
    [ "$bits" = 64 ] || die "this is a 32-bit system ($machine, ${bits}-bit Python): the companion needs a 64-bit OS; flash Raspberry Pi OS Lite (64-bit) and run this again"
    same "architecture: $machine, 64-bit"
}

apt_packages() {
    on_system || { skip "apt-get install ${APT_PACKAGES[*]} (where missing)"; return; }
    command -v dpkg-query >/dev/null || { warn "no dpkg: install ${APT_PACKAGES[*]} yourself"; return; }
    local missing=() p
    for p in "${APT_PACKAGES[@]}" python3-lgpio; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" && continue
        # python3-lgpio (the Pi's GPIO backend) exists only in Raspberry Pi OS's archive
        if [ "$p" = python3-lgpio ] && ! apt-cache show "$p" >/dev/null 2>&1; then continue; fi
        missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        same "packages ${APT_PACKAGES[*]} present"
    else
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null \
            || die "apt-get install ${missing[*]} failed; run 'sudo apt-get update' and try again"
        did "apt installed ${missing[*]}"
    fi
}

python_ok() {
    [ "$PY_RECENT" = 1 ] || die "$PYTHON is older than 3.11; Raspberry Pi OS bookworm has 3.11"
}

user_and_groups() {
    step "User"
    local g
    for g in "${APP_GROUPS[@]}"; do
        if ! on_system; then skip "group $g exists or is created (groupadd --system $g)"; continue; fi
        if getent group "$g" >/dev/null; then same "group $g exists"; else groupadd --system "$g"; did "created group $g"; fi
    done
    if ! on_system; then
        skip "system user $APP_USER (home $STATE_DIR, no login) in groups ${APP_GROUPS[*]}"
        return
    fi
    if getent passwd "$APP_USER" >/dev/null; then
        same "user $APP_USER exists"
    else
        useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home --shell /usr/sbin/nologin \
            --comment "Sovereign Companion" "$APP_USER"
        did "created system user $APP_USER"
    fi
    local have; have=" $(id -nG "$APP_USER") "
    for g in "${APP_GROUPS[@]}"; do
        if [[ "$have" != *" $g "* ]]; then usermod -a -G "$g" "$APP_USER"; did "added $APP_USER to group $g"; fi
    done
}

directories() {
    step "Directories"
    local d
    for d in "$CONF_DIR" "$GAMES_DIR" "$PREFIX"; do
        if [ -d "$(at "$d")" ]; then same "$d exists"; else install -d -m 0755 "$(at "$d")"; did "created $d"; fi
    done
    if [ -d "$(at "$STATE_DIR")" ]; then
        same "$STATE_DIR exists (saved games)"
    else
        install -d -m 0750 "$(at "$STATE_DIR")"
        did "created $STATE_DIR (saved games)"
    fi
    if on_system; then chown "$APP_USER:$APP_USER" "$STATE_DIR"; fi
}

installed_in() { (shopt -s nullglob; cd "$1" && printf '%s\n' lib/python3*/site-packages/*.dist-info); }

venv_and_package() {
    step "Python environment $VENV"
    python_ok
    local venv; venv=$(at "$VENV")
    if [ -x "$venv/bin/python" ] && grep -qs '^include-system-site-packages = true' "$venv/pyvenv.cfg"; then
        same "venv exists"
    else
        # --without-pip: the venv uses the system's pip (python3-pip) through --system-site-packages; ensurepip would
        # unpack and byte-compile a copy of its own (5 s of CPU on a desktop core; many times that on a Pi Zero 2 W)
        "$PYTHON" -m venv --system-site-packages --clear --without-pip "$venv" \
            || die "cannot create the venv: sudo apt install python3-venv"
        did "created venv (--system-site-packages) with $PY_VERSION"
    fi
    # a system without a pip of 23 or later (or one whose pip was removed since) gets the venv's own, as venv would
    if ! "$venv/bin/python" -c 'import sys, pip; sys.exit(int(pip.__version__.split(".")[0]) < 23)' 2>/dev/null; then
        "$venv/bin/python" -m ensurepip --default-pip >/dev/null \
            || die "the venv has no pip and ensurepip failed: sudo apt install python3-pip python3-venv"
        did "gave the venv its own pip (no pip 23 or later on the system)"
    fi
    local pip=("$venv/bin/python" -m pip --disable-pip-version-check --no-input)
    # what pip changed, from the venv's installed distributions (name-version.dist-info): without starting pip twice,
    # seconds on a Pi Zero 2 W
    local before after
    before=$(installed_in "$venv")
    "${pip[@]}" install --quiet --progress-bar off -r "$SRC/systemd/requirements-pi.txt" \
        || die "pip could not install the pinned dependencies (network? see the lines above)"
    after=$(installed_in "$venv")
    if [ "$before" = "$after" ]; then
        same "dependencies at the pinned versions of systemd/requirements-pi.txt"
    else
        did "dependencies installed at the pinned versions of systemd/requirements-pi.txt"
    fi
    # pip builds a local folder in place (build/, *.egg-info): build from a copy, so the checkout gets no root-owned
    # files. The copy leaves out what the package never ships (the tests, the topic pages) and every cache a developer's
    # checkout gathers (.venv, .mypy_cache, node_modules, ...): tens of megabytes that would be copied for nothing.
    local stage; stage=$(mktemp -d "${TMPDIR:-/tmp}/companion-build.XXXXXX")
    tar -C "$SRC" --exclude=./.git --exclude=./.venv --exclude=./build --exclude='*.egg-info' --exclude=__pycache__ \
        --exclude=./tests --exclude=./docs --exclude=.mypy_cache --exclude=.pytest_cache --exclude=.hypothesis \
        --exclude=node_modules --exclude=./frames -cf - . | tar -C "$stage" -xf - \
        || { rm -rf "$stage"; die "cannot copy $SRC to $stage to build it"; }
    if ! "${pip[@]}" install --quiet --progress-bar off --no-deps --force-reinstall "$stage"; then
        rm -rf "$stage"
        die "pip could not install the companion from $SRC"
    fi
    rm -rf "$stage"
    did "installed the companion from $SRC"
    "$venv/bin/companion" --help >/dev/null || die "the installed 'companion' command does not start"
    same "'$VENV/bin/companion --help' runs"
    command_link
}

# /usr/local/bin/companion -> the venv's command, so the docs' bare `companion ...` works for every user.
# The link is relative, so the tree laid under --root is whole in itself.
link_target() { echo "../../..$VENV/bin/companion"; }

command_link() {
    local link; link=$(at "$BIN_LINK")
    if [ -L "$link" ] && [ "$(readlink "$link")" = "$(link_target)" ]; then
        same "$BIN_LINK links to $VENV/bin/companion"
    elif [ -e "$link" ] || [ -L "$link" ]; then
        warn "$BIN_LINK is someone else's file: left alone; run $VENV/bin/companion instead"
    else
        install -d "$(dirname "$link")"
        ln -sfn "$(link_target)" "$link"
        did "linked $BIN_LINK to $VENV/bin/companion (the 'companion' command)"
    fi
}

# the README, the maker's pages, the roller's guide and firmware, the topic pages and the game manuals, laid out by
# systemd/install_docs.py with every link rewritten to resolve in $DOCS; a page no longer shipped is removed
docs() {
    step "Docs $DOCS"
    local stage f; stage=$(mktemp -d "${TMPDIR:-/tmp}/companion-docs.XXXXXX")
    if ! "$PYTHON" "$SRC/systemd/install_docs.py" "$SRC" "$stage"; then
        rm -rf "$stage"
        die "cannot lay out the docs from $SRC (the line above says why)"
    fi
    while IFS= read -r f; do
        put_file "$stage/$f" "$DOCS/$f" 644
    done < <(cd "$stage" && find . -type f -printf '%P\n' | LC_ALL=C sort)
    while IFS= read -r f; do
        [ -e "$stage/$f" ] || remove_path "$DOCS/$f"
    done < <(cd "$(at "$DOCS")" && find . -type f -printf '%P\n' | LC_ALL=C sort)
    find "$(at "$DOCS")" -mindepth 1 -type d -empty -delete
    rm -rf "$stage"
}

config_file() {
    step "Config"
    if [ -f "$(at "$CONF")" ]; then
        same "$CONF kept as it is"
    else
        local tmp; tmp=$(mktemp)
        cat >"$tmp" <<EOF
# Sovereign Companion config, written by systemd/install.sh (it never overwrites it).
# Every key is optional; all of them are described in $DOCS/README.md.
# Edit it as root: sudo nano $CONF  — then: sudo systemctl restart companion
# Settings changed on the device (contrast, dice, names, rules, idle times) are saved here too, comments kept.

# The service drives the Pi's OLED, buttons and LEDs; an OLED that is missing or fails is said in the log and the box
# goes on without it, played from the phones (the owner code below). "headless": no panel, the web view is the screen.
hardware = "pi"

[display]
# "ssd1306" for 0.96-inch modules, "sh1106" for most 1.3-inch ones (a picture shifted by two columns: the other one)
driver = "ssd1306"
# I2C bus (/dev/i2c-1) and the module's 7-bit address (0x3C, or 0x3D with the address jumper moved)
port = 1
address = 0x3C
# 0 as mounted, 2 upside down
rotate = 0
contrast = 207

[roller]
# "auto" finds the roller (/dev/companion-roller); "none" turns it off; or a device path
port = "auto"

[games]
# games described in TOML files: drop them here
folder = "$GAMES_DIR"

[log]
# debug, info, warning or error; read it with: journalctl -u companion
level = "info"

[web]
# The owner code pairs the owner's phone as the host at once (no OK on the box needed), so a box without its panel
# is played from the phones. Print $OWNER_SVG (its QR code) and keep it in the box. Keep it secret.
EOF
        install -D -m 0644 "$tmp" "$(at "$CONF")"
        rm -f "$tmp"
        did "wrote $CONF"
    fi
    owner_code
    # the service saves Settings into it (ConfigurationDirectory= in the unit): the folder and the file are its own
    if on_system; then
        if [ "$(stat -c %U "$CONF_DIR")" != "$APP_USER" ] || [ "$(stat -c %U "$CONF")" != "$APP_USER" ]; then
            chown "$APP_USER:$APP_USER" "$CONF_DIR" "$CONF"
            did "gave $CONF_DIR and $CONF to $APP_USER (Settings changed on the device are saved there)"
        else
            same "$CONF_DIR and $CONF belong to $APP_USER"
        fi
    else
        skip "chown $APP_USER: $CONF_DIR $CONF"
    fi
}

# the owner code (it pairs the owner's phone as the host: a box without its panel is played from the phones) into the
# config, made once and kept by every re-run, and its QR code to print, readable by root and the service only
owner_code() {
    local out status
    if ! out=$("$(at "$VENV")/bin/python" "$SRC/systemd/install_owner.py" --config "$(at "$CONF")" \
            --state "$(at "$STATE_DIR")" --svg "$(at "$OWNER_SVG")"); then
        warn "no owner code in $CONF (the line above says why): the box makes one at its first start; 'sudo companion owner-code' prints it"
        return
    fi
    read -r _ status OWNER_CODE <<<"$(sed -n 1p <<<"$out")"
    case "$status" in
        made) did "made the owner code and wrote it into $CONF ([web] owner_code)" ;;
        adopted) did "wrote the owner code the box made ($STATE_DIR/owner-code) into $CONF ([web] owner_code)" ;;
        *) same "$CONF has the owner code" ;;
    esac
    read -r _ status OWNER_URL <<<"$(sed -n 2p <<<"$out")"
    if [ "$status" = written ]; then did "wrote $OWNER_SVG (the owner code's QR code, to print)"; else same "$OWNER_SVG is up to date"; fi
    if on_system; then
        chown "root:$APP_USER" "$OWNER_SVG"
    else
        skip "chown root:$APP_USER $OWNER_SVG"
    fi
}

i2c() {
    step "I2C"
    local modules; modules=$(at "$MODULES")
    if [ -f "$modules" ] && grep -qx 'i2c-dev' "$modules"; then
        same "$MODULES loads i2c-dev"
    else
        install -d "$(dirname "$modules")"
        echo "i2c-dev" >"$modules"
        did "wrote $MODULES (loads i2c-dev at boot)"
        if on_system; then modprobe i2c-dev 2>/dev/null || true; fi
    fi
    local cfg; cfg=$(boot_config)
    if [ -z "$cfg" ]; then
        warn "no ${BOOT_CONFIGS[*]} found: enable I2C at 400 kHz yourself (dtparam=i2c_arm=on,i2c_arm_baudrate=400000)"
        return
    fi
    local file; file=$(at "$cfg")
    if grep -qxF "$MARK_BEGIN" "$file"; then
        same "$cfg enables I2C at 400 kHz"
        return
    fi
    if grep -Eq '^[[:space:]]*dtparam=([^#]*,)?i2c_arm=on' "$file" \
        && grep -Eq '^[[:space:]]*dtparam=([^#]*,)?i2c_arm_baudrate=400000' "$file"; then
        same "$cfg already enables I2C at 400 kHz (your own lines)"
        return
    fi
    if ! ask "Enable I2C at 400 kHz in $cfg (takes effect after a reboot)?"; then
        warn "I2C left as it is in $cfg; the OLED needs dtparam=i2c_arm=on (400 kHz recommended)"
        return
    fi
    cp -p "$file" "$file.companion-backup"
    {
        printf '\n%s\n[all]\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n%s\n' "$MARK_BEGIN" "$MARK_END"
    } >>"$file"
    did "enabled I2C at 400 kHz in $cfg (backup: $cfg.companion-backup)"
    REBOOT=1
}

unit_and_rule() {
    step "Service"
    put_file "$SRC/systemd/$SERVICE" "$UNIT" 644
    put_file "$SRC/systemd/99-companion-roller.rules" "$RULE" 644
    if on_system; then
        if command -v udevadm >/dev/null && [ -d /run/udev ]; then
            if udevadm control --reload-rules && udevadm trigger --subsystem-match=tty --action=change; then
                same "udev rules reloaded"
            else
                warn "udev did not reload its rules; replug the roller or reboot"
            fi
        fi
        if has_systemd; then
            systemctl daemon-reload
        fi
        if command -v systemctl >/dev/null; then
            if systemctl is-enabled --quiet "$SERVICE" 2>/dev/null; then same "$SERVICE enabled at boot"
            else systemctl enable --quiet "$SERVICE"; did "enabled $SERVICE at boot"; fi
        else
            warn "no systemctl: enable $SERVICE yourself"
        fi
    elif command -v systemctl >/dev/null; then
        if [ -L "$ROOT/etc/systemd/system/multi-user.target.wants/$SERVICE" ]; then same "$SERVICE enabled at boot"
        else systemctl --root="$ROOT" enable --quiet "$SERVICE"; did "enabled $SERVICE at boot (in $ROOT)"; fi
    else
        skip "systemctl enable $SERVICE"
    fi
}

start() {
    if ! on_system; then skip "systemctl restart $SERVICE"; return; fi
    if ! has_systemd; then warn "systemd is not running here: $SERVICE starts at the next boot"; return; fi
    if [ "$REBOOT" = 1 ]; then
        warn "not starting $SERVICE now: I2C starts working after a reboot (sudo reboot); it starts by itself then"
        return
    fi
    # a service that fails to start (no OLED yet, a config error) is a warning: the summary below still prints
    if systemctl restart "$SERVICE"; then
        did "(re)started $SERVICE"
    else
        warn "$SERVICE did not start"
    fi
    if ! systemctl is-active --quiet "$SERVICE"; then
        warn "$SERVICE is not running; see: journalctl -u companion -n 30 (and $DOCS/troubleshooting.md)"
    fi
}

install_all() {
    echo "Installing Sovereign Companion from $SRC${ROOT:+ under $ROOT}"
    preflight
    apt_packages
    user_and_groups
    directories
    venv_and_package
    docs
    config_file
    i2c
    unit_and_rule
    start
    echo
    echo "Done: $CHANGED change(s)."
    echo "  command:     companion ($BIN_LINK; try: companion --help)"
    echo "  service:     $UNIT (systemctl status companion; journalctl -u companion -f)"
    echo "  config:      $CONF"
    if [ -n "$OWNER_CODE" ]; then
        echo "  owner code:  $OWNER_CODE  (pairs the owner's phone as the host, which answers what the panel would)"
        echo "               scan the QR code in $OWNER_SVG (print it, keep it in the box) or open"
        echo "               ${OWNER_URL%%#*} and type the code; 'sudo companion owner-code' shows it again"
    fi
    echo "  saved games: $STATE_DIR"
    echo "  roller:      /dev/companion-roller when a Pico running MicroPython is plugged in"
    echo "               (build it: $DOCS/roller/README.md; firmware: $DOCS/roller/main.py)"
    echo "  docs:        $DOCS (first-boot.md is the checklist for the first power-up)"
    if [ "$REBOOT" = 1 ]; then echo "  reboot now to turn I2C on: sudo reboot"; fi
}

# ------------------------------------------------------------------ uninstall
uninstall_all() {
    echo "Removing Sovereign Companion${ROOT:+ from $ROOT} (saved games in $STATE_DIR are kept)"
    if on_system; then
        [ "$(id -u)" = 0 ] || die "run it as root: sudo $0 --uninstall"
        if command -v systemctl >/dev/null && systemctl cat "$SERVICE" >/dev/null 2>&1; then
            if has_systemd; then systemctl stop "$SERVICE" || true; fi
            systemctl disable --quiet "$SERVICE" 2>/dev/null || true
            gone "stopped and disabled $SERVICE"
        fi
    elif command -v systemctl >/dev/null && [ -L "$ROOT/etc/systemd/system/multi-user.target.wants/$SERVICE" ]; then
        systemctl --root="$ROOT" disable --quiet "$SERVICE"
        gone "disabled $SERVICE (in $ROOT)"
    else
        skip "systemctl disable --now $SERVICE"
    fi
    remove_path "$UNIT"
    remove_path "$RULE"
    remove_path "$MODULES"
    if on_system; then
        if has_systemd; then systemctl daemon-reload; fi
        if command -v udevadm >/dev/null && [ -d /run/udev ]; then udevadm control --reload-rules || true; fi
    fi
    local cfg; cfg=$(boot_config)
    if [ -n "$cfg" ] && grep -qxF "$MARK_BEGIN" "$(at "$cfg")"; then
        local file tmp
        file=$(at "$cfg")
        tmp=$(mktemp)
        # drop the block and the blank line the installer put before it
        awk -v b="$MARK_BEGIN" -v e="$MARK_END" '
            { line[NR] = $0 }
            END {
                for (i = 1; i <= NR; i++) {
                    if (line[i] == "" && i < NR && line[i + 1] == b) continue
                    if (line[i] == b) { while (i <= NR && line[i] != e) i++; continue }
                    print line[i]
                }
            }' "$file" >"$tmp"
        cat "$tmp" >"$file"
        rm -f "$tmp" "$file.companion-backup"
        gone "removed the installer's I2C lines from $cfg"
    fi
    local link; link=$(at "$BIN_LINK")
    if [ -L "$link" ] && [ "$(readlink "$link")" = "$(link_target)" ]; then remove_path "$BIN_LINK"; fi
    remove_path "$PREFIX"
    remove_path "$CONF"
    remove_path "$OWNER_SVG"
    local games; games=$(at "$GAMES_DIR")
    if [ -d "$games" ] && [ -z "$(ls -A "$games")" ]; then rmdir "$games"; gone "removed $GAMES_DIR (empty)"
    elif [ -d "$games" ]; then same "kept $GAMES_DIR: it holds your game files"; fi
    if [ -d "$(at "$CONF_DIR")" ] && rmdir "$(at "$CONF_DIR")" 2>/dev/null; then gone "removed $CONF_DIR"; fi
    if on_system; then
        if getent passwd "$APP_USER" >/dev/null; then userdel "$APP_USER"; gone "removed user $APP_USER"; fi
        if getent group "$APP_USER" >/dev/null; then groupdel "$APP_USER"; gone "removed group $APP_USER"; fi
    else
        skip "userdel $APP_USER"
    fi
    echo
    echo "Done: $CHANGED change(s). Kept $STATE_DIR (saved games); delete it yourself if you want them gone."
}

if [ "$UNINSTALL" = 1 ]; then uninstall_all; else install_all; fi
