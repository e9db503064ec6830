#!/bin/sh
# make pi-boot: the agent inside the emulated arm64 machine (systemd/pi-boot.sh copies it into the image as
# /usr/local/sbin/pi-boot-agent and starts it from pi-boot-agent.service). It never plays: the host does that through
# the web view. It reports on the serial console, one "PIBOOT key=value ..." line at a time, and does what only a
# person at the box could: press keys (the test hook), make the loop hang (the test hook), read files, power off.
# The phones (the host's scripted players) pair with the owner code the installer wrote into the config.
#
# Its task comes from the kernel command line: piboot.mode=settings | reboot | play | final
set -u
exec >/dev/console 2>&1

CONF=/etc/companion/config.toml
HOOKS=/var/lib/companion/test-hooks
PORT=$(sed -n 's/.*piboot.port=\([0-9]*\).*/\1/p' /proc/cmdline)
MODE=$(sed -n 's/.*piboot.mode=\([a-z]*\).*/\1/p' /proc/cmdline)

say() { echo "PIBOOT $*"; }
prop() { systemctl show companion -p "$1" --value; }
uptime_s() { cut -d' ' -f1 /proc/uptime; }

# READY=1 arrives once the first frame is drawn (Type=notify): the service is "active" from then on
wait_active() {
    i=0
    while [ "$(systemctl is-active companion)" != active ]; do
        i=$((i + 1))
        if [ "$i" -gt 600 ]; then say "error=companion-never-active"; systemctl status companion --no-pager; return 1; fi
        sleep 0.5
    done
}

# a command as the service user, with the service's journal (StateDirectory=companion)
as_service() { runuser -u companion -- env STATE_DIRECTORY=/var/lib/companion /usr/local/bin/companion --config "$CONF" "$@"; }

# the state as the web view shows it, read inside the machine (python3 is there; curl is not)
web_state() {
    python3 -c 'import json, sys, urllib.request
d = json.load(urllib.request.urlopen("http://127.0.0.1:" + sys.argv[1] + "/api/state", timeout=20))["snapshot"]
p = d.get("prompt") or {}
print(d.get("screen"), (d.get("state") or {}).get("journal_entries"), p.get("seq"))' "$PORT"
}

ready() {
    wait_active || return 1
    start=$(prop ExecMainStartTimestampMonotonic)
    active=$(prop ActiveEnterTimestampMonotonic)
    say "ready uptime_s=$(uptime_s) first_frame_s=$(awk -v a="$active" 'BEGIN{printf "%.1f", a / 1e6}')" \
        "start_to_ready_s=$(awk -v a="$active" -v s="$start" 'BEGIN{printf "%.1f", (a - s) / 1e6}')" \
        "user=$(ps -o user= -p "$(prop MainPID)") nrestarts=$(prop NRestarts)"
}

press() {  # press KEYS...: through the test hook, then give the slow machine time to draw
    printf '%s\n' "$@" >"$HOOKS/keys.tmp" && chown companion: "$HOOKS/keys.tmp" && mv "$HOOKS/keys.tmp" "$HOOKS/keys"
    i=0
    while [ -e "$HOOKS/keys" ] && [ "$i" -lt 60 ]; do sleep 0.5; i=$((i + 1)); done
    sleep 3
}

contrast() { sed -n 's/^contrast *= *\([0-9]*\).*/\1/p' "$CONF" | tail -n 1; }

settings() {
    install -d -o companion -g companion -m 0750 "$HOOKS"
    out=$(as_service check 2>&1); rc=$?
    echo "$out" | sed 's/^/PIBOOT check| /'
    say "check rc=$rc as=companion"
    before=$(contrast)
    # home menu: Settings (5th) > Contrast > one step up > OK: saved by the service, inside its sandbox
    press down down down down ok ok up ok
    after=$(contrast)
    if grep -q "^# Sovereign Companion config, written by systemd/install.sh" "$CONF"; then kept=yes; else kept=no; fi
    say "settings contrast_before=$before contrast_after=$after comments_kept=$kept" \
        "owner=$(stat -c %U "$CONF") mode=$(stat -c %a "$CONF")"
    journalctl -u companion -o cat --no-pager | grep -i "cannot save" | sed 's/^/PIBOOT error| /'
    # back to the home menu: the host phone starts a game with the companion's buttons and the phones play it
    press back back up up up up
    say "home $(web_state)"
}

watchdog() {
    i=0  # the host plays a few answers first, so that there is a game to resume
    while [ "$i" -lt 120 ]; do
        # shellcheck disable=SC2046  # the three words of web_state
        set -- $(web_state 2>/dev/null)
        [ "${2:-0}" -ge 5 ] 2>/dev/null && break
        sleep 1; i=$((i + 1))
    done
    n0=$(prop NRestarts)
    say "hang-start nrestarts=$n0 $(web_state)"
    touch "$HOOKS/hang.tmp" && chown companion: "$HOOKS/hang.tmp" && mv "$HOOKS/hang.tmp" "$HOOKS/hang"
    t0=$(uptime_s)
    i=0
    while [ "$(prop NRestarts)" = "$n0" ] && [ "$i" -lt 600 ]; do sleep 0.5; i=$((i + 1)); done
    wait_active
    t1=$(uptime_s)
    why=$(journalctl -u companion -o cat --no-pager | grep -c "Watchdog timeout")
    say "watchdog restarted=$([ "$(prop NRestarts)" != "$n0" ] && echo yes || echo no) nrestarts=$(prop NRestarts)" \
        "hang_to_active_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.1f", b - a}') watchdog_timeouts_logged=$why"
    say "resumed $(web_state)"
}

final() {
    # the game as the box resumed it, read here before the service stops for the checks below (the host's phones
    # would race the stop: on a quick boot the service was gone before they had paired again)
    say "resumed $(web_state)"
    systemctl stop companion
    out=$(as_service journal check 2>&1); rc=$?
    echo "$out" | sed 's/^/PIBOOT journal| /'
    say "journal-check rc=$rc damaged_aside=$(find /var/lib/companion -maxdepth 1 -name '*damaged*' | wc -l)"
    as_service export 2>/dev/null \
        | python3 -c 'import base64, json, sys, zlib
d = json.load(sys.stdin)
text = base64.b64encode(zlib.compress(json.dumps({"actions": d["actions"], "inputs": d["inputs"]}).encode())).decode()
for i in range(0, len(text), 800):
    print("PIBOOT export|" + text[i:i + 800])'
    say "export-end"
}

ready || { systemctl poweroff; exit 1; }
case "$MODE" in
    settings) settings; watchdog; sleep 20 ;;
    reboot) say "settings-after-reboot contrast=$(contrast) owner=$(stat -c %U "$CONF")" ;;
    play)  # the host plays and pulls the plug; after a game that ended before the cut its phone starts a new one
        say "state $(web_state)"
        exit 0 ;;
    final) final ;;
esac
say "poweroff"
systemctl poweroff
