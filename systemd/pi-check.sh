#!/usr/bin/env bash
# make pi-check: install the companion the way systemd/install.sh does, in an arm64 Debian bookworm chroot run
# through qemu-user-static, and run the test suite there: the Pi's architecture and Python, on any Linux machine.
#
#   sudo systemd/pi-check.sh [--fresh] [--no-tests] [-- PYTEST ARGS]
#
#   --fresh     rebuild the chroot (otherwise it is kept in $PI_CHECK_DIR and reused: the first build takes minutes)
#   --no-tests  stop after installing (make pi-boot boots this chroot as a whole machine: systemd/pi-boot.sh)
#
# Needs root, debootstrap and qemu-user-static (sudo apt install debootstrap qemu-user-static binfmt-support) and
# the network (Debian mirror $DEBIAN_MIRROR and PyPI).
set -Eeuo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${PI_CHECK_DIR:-/var/tmp/companion-pi-check}
CHROOT=$CACHE/bookworm-arm64
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# systemd-sysv (/sbin/init), kmod and dbus: what make pi-boot needs to boot the same chroot with systemd as PID 1
PACKAGES=python3,python3-venv,python3-pip,ca-certificates,systemd,systemd-sysv,kmod,dbus,i2c-tools,procps
FRESH=0
TESTS=1
PYTEST_ARGS=()

die() { echo "pi-check: $*" >&2; exit 1; }
say() { echo "pi-check: $*"; }

while [ $# -gt 0 ]; do
    case "$1" in
        --fresh) FRESH=1 ;;
        --no-tests) TESTS=0 ;;
        --) shift; PYTEST_ARGS=("$@"); break ;;
        -h|--help) sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option '$1' (see --help)" ;;
    esac
    shift
done

[ "$(id -u)" = 0 ] || die "needs root for debootstrap and chroot: sudo make pi-check"
command -v debootstrap >/dev/null || die "no debootstrap: sudo apt install debootstrap"

# arm64 binaries run through qemu via binfmt_misc (no emulation is needed on an arm64 host)
binfmt() {
    [ "$(uname -m)" = aarch64 ] && return 0
    command -v qemu-aarch64-static >/dev/null || die "no qemu-aarch64-static: sudo apt install qemu-user-static"
    if [ ! -e /proc/sys/fs/binfmt_misc/status ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null \
            || die "binfmt_misc is not available (in a container: run it privileged)"
    fi
    if ! grep -qs '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64; then
        command -v update-binfmts >/dev/null || die "no update-binfmts: sudo apt install binfmt-support"
        update-binfmts --enable qemu-aarch64 || die "cannot register qemu-aarch64 with binfmt_misc"
    fi
    grep -qs '^flags: .*F' /proc/sys/fs/binfmt_misc/qemu-aarch64 \
        || cp "$(command -v qemu-aarch64-static)" "$CHROOT/usr/bin/" 2>/dev/null || true
}

MOUNTED=()
cleanup() {
    local i
    for ((i = ${#MOUNTED[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTED[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT

bind() {  # bind HOSTPATH: mount it at the same place in the chroot
    mkdir -p "$CHROOT$1"
    mount --bind "$1" "$CHROOT$1"
    MOUNTED+=("$CHROOT$1")
}

CHROOT_ENV=(HOME=/root LANG=C.UTF-8 PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)  # Debian's own
in_chroot() { chroot "$CHROOT" /usr/bin/env -i "${CHROOT_ENV[@]}" "$@"; }

# pip in the chroot trusts what the host trusts and uses its proxy (for networks with a TLS-inspecting proxy)
host_network() {
    local ca=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt} v
    if [ -f "$ca" ]; then
        cp "$ca" "$CHROOT/etc/ssl/certs/pi-check-host-ca.crt"
        CHROOT_ENV+=(PIP_CERT=/etc/ssl/certs/pi-check-host-ca.crt)
    fi
    for v in http_proxy https_proxy no_proxy HTTP_PROXY HTTPS_PROXY NO_PROXY; do
        if [ -n "${!v:-}" ]; then CHROOT_ENV+=("$v=${!v}"); fi
    done
}

# never delete through a bind mount left over from an interrupted run: that would empty the host's /dev
remove_chroot() {
    if grep -qs " $CHROOT/" /proc/self/mounts; then
        die "something is still mounted under $CHROOT (see: grep $CHROOT /proc/mounts); unmount it first"
    fi
    rm -rf --one-file-system "$CHROOT"
}

build_chroot() {
    if [ "$FRESH" = 1 ]; then
        say "removing the old chroot"
        remove_chroot
    fi
    if [ -f "$CHROOT/.pi-check-complete" ]; then
        say "reusing $CHROOT (--fresh rebuilds it)"
        return
    fi
    remove_chroot
    mkdir -p "$CHROOT"
    say "debootstrap arm64 bookworm into $CHROOT (takes several minutes under emulation)"
    binfmt
    debootstrap --arch=arm64 --variant=minbase --include="$PACKAGES" bookworm "$CHROOT" "$MIRROR" \
        || die "debootstrap failed; see $CHROOT/debootstrap/debootstrap.log"
    touch "$CHROOT/.pi-check-complete"
}

# a chroot kept from before PACKAGES grew (systemd-sysv, kmod, dbus) gets what it lacks
ensure_packages() {
    local missing=() p
    for p in ${PACKAGES//,/ }; do
        # shellcheck disable=SC2016  # dpkg-query's own format, not a shell expansion
        in_chroot dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing into the kept chroot: ${missing[*]}"
    in_chroot apt-get update -qq || die "apt-get update failed in the chroot"
    in_chroot env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" \
        >/dev/null || die "apt-get install ${missing[*]} failed in the chroot"
}

copy_project() {
    local dest=$CHROOT/usr/src/companion
    rm -rf "$dest"
    mkdir -p "$dest"
    if command -v git >/dev/null && git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
        # tracked and new files, as they are in the working tree now
        (cd "$SRC" && git ls-files -z --cached --others --exclude-standard \
            | while IFS= read -r -d '' f; do if [ -f "$f" ]; then printf '%s\0' "$f"; fi; done \
            | tar --null -T - -cf -) | tar -C "$dest" -xf -
    else
        tar -C "$SRC" --exclude=.venv --exclude=.git --exclude='*.egg-info' --exclude=__pycache__ -cf - . \
            | tar -C "$dest" -xf -
    fi
}

main() {
    build_chroot
    binfmt
    for m in /proc /sys /dev /dev/pts; do bind "$m"; done
    cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
    host_network
    ensure_packages
    # what Raspberry Pi OS has and a Debian chroot lacks: the firmware config the installer edits
    mkdir -p "$CHROOT/boot/firmware"
    [ -f "$CHROOT/boot/firmware/config.txt" ] || printf '[all]\n' >"$CHROOT/boot/firmware/config.txt"
    copy_project
    say "chroot: $(in_chroot uname -m), $(in_chroot python3 --version)"

    say "running systemd/install.sh --yes inside the chroot"
    in_chroot bash /usr/src/companion/systemd/install.sh --yes
    in_chroot /opt/companion/venv/bin/companion games >/dev/null || die "the installed companion does not run"
    # the docs' commands as written: `companion` on the PATH (/usr/local/bin/companion)
    in_chroot companion --help >/dev/null || die "'companion' on the PATH does not run (/usr/local/bin/companion)"
    local checked=0
    in_chroot companion check || checked=$?
    [ "$checked" -le 1 ] || die "'companion check' did not run (exit $checked)"  # 1: no OLED in a chroot
    say "'companion --help' and 'companion check' run from the PATH"
    [ "$TESTS" = 1 ] || return 0

    say "installing the test tools (pyproject's [test] extra) into the venv"
    local tools
    mapfile -t tools < <(in_chroot python3 -c 'import tomllib
with open("/usr/src/companion/pyproject.toml", "rb") as f:
    print("\n".join(tomllib.load(f)["project"]["optional-dependencies"]["test"]))')
    [ ${#tools[@]} -gt 0 ] || die "no [project.optional-dependencies] test in pyproject.toml"
    in_chroot /opt/companion/venv/bin/python -m pip install --quiet --disable-pip-version-check "${tools[@]}"

    say "running the test suite on $(in_chroot uname -m)"
    local status=0
    in_chroot bash -c 'cd /usr/src/companion && exec /opt/companion/venv/bin/python -m pytest -q -p no:cacheprovider "$@"' \
        pytest "${PYTEST_ARGS[@]}" || status=$?
    if [ "$status" = 0 ]; then say "PASSED on arm64 bookworm"; else say "FAILED on arm64 bookworm (pytest exit $status)"; fi
    return "$status"
}

main
