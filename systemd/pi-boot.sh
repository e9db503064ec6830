#!/usr/bin/env bash
# make pi-boot: boot the pi-check image as a whole arm64 machine under qemu-system-aarch64 (TCG): Debian's arm64
# kernel, systemd as PID 1, the companion installed by systemd/install.sh and its unit's sandbox in force; drive it
# from the host through the web view (a forwarded port) as two phones do on a box without its panel (the owner code
# the installer wrote, a PIN from the host phone, a seat granted by it) and print figures: READY, `companion check`
# and a Settings change as the service user, the change after a reboot, the watchdog restarting a hung loop, power
# cuts during play, every acknowledged answer in the resumed game.
#
#   sudo systemd/pi-boot.sh [--cuts N] [--port P] [--seed S] [--smp N] [--boot-only] [--dry-run]
#
#   --cuts N    power cuts during scripted play (default 20)
#   --port P    the web view's port, forwarded from 127.0.0.1 on the host (default 18080)
#   --seed S    seed of the cut moments and the answers (default: random, printed)
#   --smp N     virtual CPUs (default 2)
#   --boot-only boot the kernel, initrd and disk image built last time (skip the install and the image)
#   --dry-run   check the tools and print the plan (the qemu command); build and boot nothing
#
# Needs root (pi-check's chroot, the image's owners), the network once (Debian's archive for the kernel) and
# qemu-system-arm, cpio, e2fsprogs (it apt-gets the ones missing, saying so). What it cannot show:
# the real OLED, buttons, LEDs and pins (the guest has no I2C or GPIO: the service runs hardware = "headless"), the
# Pi's speed (TCG is ~16x slower than the host), an SD card that loses writes it acknowledged.
set -Eeuo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${PI_CHECK_DIR:-/var/tmp/companion-pi-check}
CHROOT=$CACHE/bookworm-arm64
WORK=$CACHE/pi-boot
KDIR=$CHROOT/var/cache/pi-boot/kernel  # the kernel package unpacked inside the chroot, where its depmod runs
#: what the initrd loads to reach the root file system and the network, with their dependencies
INITRD_MODULES=(virtio_mmio virtio_pci virtio_blk virtio_net crc32c_generic ext4)
HOST_PACKAGES=(qemu-system-arm:qemu-system-aarch64 cpio:cpio e2fsprogs:mkfs.ext4)
CUTS=20
PORT=18080
SEED=""
SMP=2
DRY=0
BOOT_ONLY=0

die() { echo "pi-boot: $*" >&2; exit 1; }
say() { echo "pi-boot: $*"; }

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --cuts|--port|--seed|--smp)
                [ $# -ge 2 ] || die "$1 needs a number"
                [[ "$2" =~ ^[0-9]+$ ]] || die "$1 needs a whole number, not '$2'"
                case "$1" in
                    --cuts) CUTS=$2 ;; --port) PORT=$2 ;; --seed) SEED=$2 ;; --smp) SMP=$2 ;;
                esac
                shift ;;
            --dry-run) DRY=1 ;;
            --boot-only) BOOT_ONLY=1 ;;
            -h|--help) sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
            *) die "unknown option '$1' (see --help)" ;;
        esac
        shift
    done
    if [ "$PORT" -lt 1024 ] || [ "$PORT" -gt 65535 ]; then die "--port $PORT: use a port from 1024 to 65535"; fi
    if [ "$SMP" -lt 1 ] || [ "$SMP" -gt 8 ]; then die "--smp $SMP: use 1 to 8"; fi
    if [ "$CUTS" -lt 1 ]; then die "--cuts $CUTS: at least 1"; fi
    if [ -z "$SEED" ]; then SEED=$((RANDOM * 32768 + RANDOM)); fi
}

host_tools() {  # the host's tools; apt-get the Debian packages that are missing, saying which and why
    local missing=() pair
    for pair in "${HOST_PACKAGES[@]}"; do
        command -v "${pair#*:}" >/dev/null || missing+=("${pair%%:*}")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "$DRY" = 0 ] || die "missing: ${missing[*]} (sudo apt-get install ${missing[*]})"
    say "installing the host's missing tools: ${missing[*]} (apt-get)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null \
        || die "apt-get install ${missing[*]} failed; run 'sudo apt-get update' and try again"
}

qemu_command() {  # qemu_command MODE SERIAL_LOG: the machine, one boot, as one shell-quoted line
    # shellcheck disable=SC2054  # the commas are qemu's own; romfile= : no PXE ROM (ipxe-qemu) needed
    local cmd=(qemu-system-aarch64 -M virt -cpu cortex-a53 -m 1024 -smp "$SMP" -accel tcg -display none -monitor none
        -no-reboot -kernel "$WORK/vmlinuz" -initrd "$WORK/initrd.gz"
        -append "console=ttyAMA0 root=/dev/vda rw panic=5 piboot.mode=$1 piboot.port=$PORT"
        -drive "file=$WORK/disk.img,format=raw,if=virtio"
        -netdev "user,id=n0,hostfwd=tcp:127.0.0.1:$PORT-:$PORT" -device virtio-net-pci,netdev=n0,romfile=
        -serial "file:$2")
    printf '%q ' "${cmd[@]}"
}

# ------------------------------------------------------------------ the kernel, from Debian's archive
kernel() {
    local debs=$CHROOT/var/cache/pi-boot name
    mkdir -p "$debs"
    cp /etc/resolv.conf "$CHROOT/etc/resolv.conf"
    chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin apt-get update -qq \
        || die "apt-get update failed in the chroot (network?)"
    name=$(chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin apt-cache depends linux-image-arm64 \
        | sed -n 's/^ *Depends: \(linux-image-[0-9].*-arm64\)$/\1/p' | head -n 1)
    [ -n "$name" ] || die "no linux-image-*-arm64 found behind linux-image-arm64 in Debian's archive"
    local pkg
    for pkg in "$name" busybox-static; do  # the kernel, and an arm64 busybox for the initrd
        if [ -z "$(find "$debs" -name "${pkg}_*.deb")" ]; then
            say "downloading $pkg (arm64, from Debian's archive)"
            chroot "$CHROOT" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
                bash -c "cd /var/cache/pi-boot && apt-get download -qq $pkg" || die "apt-get download $pkg failed"
        fi
    done
    rm -rf "$WORK/busybox"
    dpkg-deb -x "$(find "$debs" -name "busybox-static_*.deb" | head -n 1)" "$WORK/busybox"
    BUSYBOX=$WORK/busybox/bin/busybox
    rm -rf "$KDIR"
    dpkg-deb -x "$(find "$debs" -name "${name}_*.deb" | head -n 1)" "$KDIR"
    KVER=$(find "$KDIR/lib/modules" -mindepth 1 -maxdepth 1 -printf '%f\n' | head -n 1)
    cp "$KDIR/boot/vmlinuz-$KVER" "$WORK/vmlinuz"
    # the package leaves modules.dep to depmod at install time: the chroot's own (kmod) makes it
    chroot "$CHROOT" /sbin/depmod -b /var/cache/pi-boot/kernel "$KVER" || die "depmod failed for $KVER"
    say "kernel $KVER"
}

# ------------------------------------------------------------------ the initrd: busybox and the modules for /dev/vda
# module_closure MODDIR NAME...: the modules' files (relative to MODDIR), dependencies first, each once
module_closure() {
    local dir=$1; shift
    awk -v want="$*" '
        function base(p) { sub(/.*\//, "", p); sub(/\.ko(\.[a-z]+)?$/, "", p); gsub(/-/, "_", p); return p }
        { sub(/:$/, "", $1); file[base($1)] = $1; n = split($0, parts, " "); d = ""
          for (i = 2; i <= n; i++) d = d " " parts[i]; deps[base($1)] = d }
        function visit(m,   list, k, i) {
            if (!(m in file) || (m in seen)) return
            seen[m] = 1; k = split(deps[m], list, " ")
            for (i = k; i >= 1; i--) visit(base(list[i]))
            print file[m]
        }
        END { k = split(want, w, " "); for (i = 1; i <= k; i++) visit(w[i]) }' "$dir/modules.dep"
}

# make_initrd MODDIR OUT: a gzip'd cpio with /init, busybox ($BUSYBOX: the guest's, arm64) and the modules
make_initrd() {
    local moddir=$1 out=$2 tmp f
    tmp=$(mktemp -d)
    mkdir -p "$tmp"/{bin,dev,proc,sys,newroot,modules}
    cp "${BUSYBOX:-$(command -v busybox)}" "$tmp/bin/busybox"
    : >"$tmp/modules/order"
    while read -r f; do
        case "$f" in
            *.ko.xz) xz -dc "$moddir/$f" >"$tmp/modules/$(basename "${f%.xz}")" ;;
            *.ko.zst) zstd -qdc "$moddir/$f" >"$tmp/modules/$(basename "${f%.zst}")" ;;
            *) cp "$moddir/$f" "$tmp/modules/" ;;
        esac
        basename "${f%.*z*}" | sed 's/\.ko$//; s/$/.ko/' >>"$tmp/modules/order"
    done < <(module_closure "$moddir" "${INITRD_MODULES[@]}")
    cat >"$tmp/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sysfs /sys; mount -t devtmpfs devtmpfs /dev
while read -r m; do insmod "/modules/$m" 2>/dev/null; done </modules/order
i=0; while [ ! -b /dev/vda ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
mount -t ext4 -o rw /dev/vda /newroot || { echo "pi-boot initrd: cannot mount /dev/vda"; exec sh; }
umount /proc /sys; mount --move /dev /newroot/dev 2>/dev/null || umount /dev
exec switch_root /newroot /sbin/init
EOF
    chmod 0755 "$tmp/init"
    (cd "$tmp" && find . | cpio -o -H newc --quiet) | gzip -9 >"$out"
    rm -rf "$tmp"
}

# ------------------------------------------------------------------ the disk image: the chroot as installed, plus
# what a booted machine needs (fstab, the network, the kernel's modules), the test hook's drop-in and the agent
stage_image() {
    local stage=$WORK/stage
    rm -rf --one-file-system "$stage"
    cp -a "$CHROOT" "$stage"
    rm -rf "$stage/var/cache/pi-boot" "$stage/usr/src/companion/.venv"
    [ -x "$stage/sbin/init" ] || die "the chroot has no /sbin/init (systemd-sysv): rerun make pi-check --fresh"
    mkdir -p "$stage/lib/modules"
    cp -a "$KDIR/lib/modules/$KVER" "$stage/lib/modules/"
    printf '/dev/vda / ext4 defaults 0 1\n' >"$stage/etc/fstab"
    echo companion-pi >"$stage/etc/hostname"
    : >"$stage/etc/machine-id"
    mkdir -p "$stage/etc/systemd/network" "$stage/etc/systemd/system/multi-user.target.wants" \
        "$stage/etc/systemd/system/companion.service.d"
    printf '[Match]\nName=en* eth*\n\n[Network]\nAddress=10.0.2.15/24\nGateway=10.0.2.2\n' \
        >"$stage/etc/systemd/network/10-qemu.network"
    ln -sf /lib/systemd/system/systemd-networkd.service "$stage/etc/systemd/system/multi-user.target.wants/"
    # the service as installed; only the test hook is added (off on a real table: see companion/loop/testhooks.py)
    printf '[Service]\nEnvironment=COMPANION_TEST_HOOKS=/var/lib/companion/test-hooks\n' \
        >"$stage/etc/systemd/system/companion.service.d/pi-boot-test-hooks.conf"
    # the guest has no OLED, I2C or GPIO: the headless mode, on the forwarded port; the installer's comments stay
    sed -i 's/^hardware = "pi"/hardware = "headless"/' "$stage/etc/companion/config.toml"
    if grep -q '^\[web\]' "$stage/etc/companion/config.toml"; then  # the installer's [web] (the owner code)
        sed -i "/^\[web\]/a # make pi-boot: the port forwarded from the host\nport = $PORT" \
            "$stage/etc/companion/config.toml"
    else
        printf '\n[web]\n# make pi-boot: the port forwarded from the host\nport = %s\n' "$PORT" \
            >>"$stage/etc/companion/config.toml"
    fi
    # the phones pair with the owner code the installer wrote there, as the owner's phone does
    cp "$stage/etc/companion/config.toml" "$WORK/guest-config.toml"
    install -m 0755 "$SRC/systemd/pi-boot-agent.sh" "$stage/usr/local/sbin/pi-boot-agent"
    cat >"$stage/etc/systemd/system/pi-boot-agent.service" <<'EOF'
[Unit]
Description=make pi-boot agent (reports on the console)
After=companion.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/pi-boot-agent

[Install]
WantedBy=multi-user.target
EOF
    ln -sf /etc/systemd/system/pi-boot-agent.service "$stage/etc/systemd/system/multi-user.target.wants/"
    # no login prompt fighting the agent for the console
    ln -sf /dev/null "$stage/etc/systemd/system/serial-getty@ttyAMA0.service"
    local mb; mb=$(du -sm "$stage" | cut -f1)
    rm -f "$WORK/disk-built.img"
    mkfs.ext4 -q -F -L companion -d "$stage" "$WORK/disk-built.img" "$((mb + 768))M" || die "mkfs.ext4 -d failed"
    rm -rf --one-file-system "$stage"
    say "image $WORK/disk-built.img ($((mb + 768)) MB)"
}

main() {
    parse_args "$@"
    host_tools
    if [ "$DRY" = 1 ]; then
        say "plan: pi-check's chroot ($CHROOT), Debian's arm64 kernel, an initrd with ${INITRD_MODULES[*]}"
        say "boot: $(qemu_command MODE "$WORK/serial-MODE.log")"
        say "then: $CUTS power cuts, seed $SEED; port $PORT"
        return 0
    fi
    [ "$(id -u)" = 0 ] || die "needs root (the chroot, the image's owners): sudo make pi-boot"
    mkdir -p "$WORK"
    if [ "$BOOT_ONLY" = 1 ]; then
        for f in vmlinuz initrd.gz disk-built.img guest-config.toml; do
            [ -f "$WORK/$f" ] || die "--boot-only: no $WORK/$f from an earlier run; run without --boot-only"
        done
        say "booting the image built $(date -r "$WORK/disk-built.img" '+%Y-%m-%d %H:%M') (--boot-only)"
    else
        say "installing the companion into pi-check's arm64 chroot (systemd/pi-check.sh --no-tests)"
        bash "$SRC/systemd/pi-check.sh" --no-tests
        kernel
        make_initrd "$KDIR/lib/modules/$KVER" "$WORK/initrd.gz"
        say "initrd $(du -k "$WORK/initrd.gz" | cut -f1) KB: $(module_closure "$KDIR/lib/modules/$KVER" \
            "${INITRD_MODULES[@]}" | wc -l) modules"
        stage_image
    fi
    # every run starts from the image as installed (a copy: the boots write to it)
    cp --sparse=always "$WORK/disk-built.img" "$WORK/disk.img"
    local cmd; cmd=$(qemu_command MODE "$WORK/serial-MODE.log")
    python3 "$SRC/systemd/pi_boot.py" --work "$WORK" --port "$PORT" --cuts "$CUTS" --seed "$SEED" --qemu "$cmd" \
        --guest-config "$WORK/guest-config.toml"
}

if [ "${PI_BOOT_SOURCE_ONLY:-0}" != 1 ]; then main "$@"; fi
