#!/bin/sh
# make test-fresh: the README's quick start on a bare Debian.  As root:
# debootstrap a minimal bookworm (--variant=minbase: no Priority: important
# packages, like a container image) into a temporary directory, copy a
# clone of this checkout's HEAD into it, and run in a chroot exactly the
# README's two commands, `sh scripts/quickstart.sh` then `make test`; pass
# when make test's last line says "0 failed".  Prints how long each phase
# took.  Every mount it made is undone and the root removed on every exit.
#
#   scripts/test_fresh.sh [-k] [MIRROR]
#
# MIRROR: default the Debian mirror this machine's apt uses
# (/etc/apt/sources.list*), else http://deb.debian.org/debian.  -k keeps
# the root (for a look inside) but still unmounts.  Committed work only: the
# clone is of HEAD.  Root and log (uvmsim-fresh.log) in $TMPDIR, else /var/tmp.
# Costs ~1.6 GB of disk while it runs and needs the mirror; 19-24
# minutes on a loaded 2-core machine (docs/setup.md).
set -u
KEEP=0
[ "${1:-}" = -k ] && { KEEP=1; shift; }
SUITE=bookworm
REPO=$(git -C "$(dirname "$0")/.." rev-parse --show-toplevel) || exit 2
LOG=${TMPDIR:-/var/tmp}/uvmsim-fresh.log

die() { echo "test-fresh: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, mount, chroot)"
command -v debootstrap >/dev/null 2>&1 ||
    die "debootstrap not installed (apt-get install -y debootstrap; scripts/debian-packages.txt)"

# The mirror apt already reaches: the first Debian archive URI (deb822
# "URIs:" or a one-line "deb URI SUITE"), not a security or other archive.
mirror() {
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] || continue
        sed -n -e 's/^URIs:[[:space:]]*//p' -e 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]*\)\{0,1\}//p' "$f" |
            awk '{ print $1 }'
    done | grep -E '^https?://.*/debian/?$' | head -n 1
}
MIRROR=${1:-$(mirror)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

ROOT=$(mktemp -d "${TMPDIR:-/var/tmp}/uvmsim-fresh.XXXXXX") || exit 2
MOUNTS=""
CHILD=""
# Long steps run in the background and are waited for: a trapped signal
# interrupts `wait` at once, where a foreground child (apt, make) would
# hold it until it finished.
waitfor() { "$@" & CHILD=$!; wait $CHILD; r=$?; CHILD=""; return $r; }
cleanup() {
    rc=$?
    trap - EXIT INT TERM HUP
    # The step that was running (debootstrap's own children on the host,
    # by pid), then whatever is left inside the root (a tmux server,
    # chromium, apt): they hold its mounts.  Only processes this script
    # started: its child's children, and those whose root is ours.
    if [ -n "$CHILD" ]; then
        for p in $(pgrep -P "$CHILD" 2>/dev/null) $CHILD; do kill "$p" 2>/dev/null; done
        sleep 1
    fi
    for p in /proc/[0-9]*; do
        [ "$(readlink "$p/root" 2>/dev/null)" = "$ROOT" ] && kill -9 "${p#/proc/}" 2>/dev/null
    done
    for m in $MOUNTS; do umount -R "$m" 2>/dev/null || umount -Rl "$m" 2>/dev/null; done
    if grep -q " $ROOT/" /proc/mounts; then
        echo "test-fresh: still mounted under $ROOT; not removing it" >&2
        grep " $ROOT/" /proc/mounts >&2
        rc=2
    elif [ $KEEP -eq 1 ]; then
        echo "test-fresh: kept $ROOT"
    else
        rm -rf --one-file-system "$ROOT"
        [ -n "${TSTART:-}" ] && phase "clean-up"
    fi
    [ -n "${TSTART:-}" ] && echo "test-fresh: total $(($(now) - TSTART)) s"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

now() { date +%s; }
T0=$(now)
TSTART=$T0
phase() { t=$(now); echo "test-fresh: $1: $((t - T0)) s"; T0=$t; }
echo "test-fresh: $SUITE from $MIRROR into $ROOT (log: $LOG)"
: >"$LOG"

waitfor debootstrap --variant=minbase "$SUITE" "$ROOT" "$MIRROR" >>"$LOG" 2>&1 ||
    { tail -n 20 "$LOG"; die "debootstrap failed (log: $LOG)"; }
phase "debootstrap --variant=minbase"

git clone -q --no-hardlinks "$REPO" "$ROOT/root/uvmsim" || die "git clone failed"
# No daemon starts inside the chroot (policy-rc.d, Debian's convention).
printf '#!/bin/sh\nexit 101\n' >"$ROOT/usr/sbin/policy-rc.d"
chmod 755 "$ROOT/usr/sbin/policy-rc.d"
cp /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null
# /proc and /dev (with /dev/pts and /dev/shm) for chromium and tmux.
mount -t proc proc "$ROOT/proc" && MOUNTS="$ROOT/proc $MOUNTS" || die "mount /proc failed"
mount -t sysfs sys "$ROOT/sys" && MOUNTS="$ROOT/sys $MOUNTS" || die "mount /sys failed"
mount --rbind /dev "$ROOT/dev" && MOUNTS="$ROOT/dev $MOUNTS" || die "bind /dev failed"
mount --make-rslave "$ROOT/dev"
phase "clone HEAD ($(git -C "$REPO" rev-parse --short HEAD)) and mounts"

# The README's two commands, in the clone, as root, with a clean environment.
inroot() {
    chroot "$ROOT" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
        PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        sh -c "cd /root/uvmsim && $1"
}
waitfor inroot "sh scripts/quickstart.sh" >>"$LOG" 2>&1 ||
    { tail -n 30 "$LOG"; die "quickstart failed (log: $LOG)"; }
phase "sh scripts/quickstart.sh"

waitfor inroot "make test" >"$ROOT/make-test.out" 2>&1
trc=$?
cat "$ROOT/make-test.out" >>"$LOG"
phase "make test"
grep '^FAIL' "$ROOT/make-test.out"
last=$(tail -n 1 "$ROOT/make-test.out")
echo "test-fresh: make test ended: $last"
case $last in
"tests: "*" passed, 0 failed") [ $trc -eq 0 ] || die "make test exited $trc" ;;
*) die "make test did not end with 0 failed (log: $LOG)" ;;
esac
echo "test-fresh: ok"
