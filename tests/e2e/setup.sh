#!/bin/sh
# The one package list (scripts/debian-packages.txt) names the package of
# every program and Python module the tests and scripts call, in a group
# quickstart installs; packages.sh reads it.  (Issue 36: chromium, tmux and
# matplotlib were missing, the last arriving only as a Recommends.)
. "$(dirname "$0")/../e2e_lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
QS=" $(sh "$ROOT/scripts/packages.sh") "
check "packages.sh: quickstart's groups are non-empty" [ "$QS" != "  " ]

sh "$ROOT/scripts/packages.sh" build nosuch >"$TMP/o" 2>"$TMP/e"
check "packages.sh: an unknown group exits 2" [ $? -eq 2 ]
check "packages.sh: and names it in one line" \
    sh -c "[ \$(wc -l <'$TMP/e') -eq 1 ] && grep -q 'no group \"nosuch\"' '$TMP/e'"
check "packages.sh all: every group, the CI-only ones too" \
    sh -c "sh '$ROOT/scripts/packages.sh' all | grep -qw slurm-wlm"

# The Debian package that owns a file, as dpkg knows it.
owner() { dpkg-query -S "$1" 2>/dev/null | head -n 1 | sed 's/:.*//; s/, .*//'; }
listed() {
    what=$1 file=$2
    [ -n "$file" ] || { not_ok "$what: not found on this machine"; return; }
    p=$(owner "$(readlink -f "$file")")
    [ -n "$p" ] || p=$(owner "$file")
    case $QS in
    *" $p "*) ok "$what ($p) is in quickstart's packages"; return ;;
    esac
    # Or a plain Depends of a listed one (python3-h5py -> python3-h5py-serial).
    for q in $QS; do
        if dpkg-query -W -f='${Depends}\n' "$q" 2>/dev/null | tr ',|' '\n\n' |
            sed 's/^ *//; s/[ :].*//' | grep -qx -- "$p"; then
            ok "$what ($p, a Depends of $q) comes with quickstart's packages"; return
        fi
    done
    not_ok "$what: its package '$p' is not in scripts/debian-packages.txt's build/test/scripts"
}
# Programs tests/ and scripts/ run, beyond the Essential set (coreutils,
# grep, sed, mawk, diffutils, findutils) and the build's own tools.
for c in h5dump h5diff h5ls chromium tmux pgrep git; do
    listed "program $c" "$(command -v "$c")"
done
# Python modules they import, from the interpreter they name.
for m in h5py numpy pandas matplotlib; do
    listed "python module $m" "$(/usr/bin/python3 -c "import $m; print($m.__file__)" 2>/dev/null)"
done
# The libraries the build links and the unit suites' framework.
for h in /usr/include/yaml.h /usr/include/hdf5/serial/hdf5.h /usr/include/check.h; do
    listed "header $h" "$h"
done

# quickstart, .ci/run and the Makefile read the list, not a copy of it.
for f in scripts/quickstart.sh .ci/run Makefile; do
    check "$f reads scripts/packages.sh" grep -q 'scripts/packages.sh' "$ROOT/$f"
done
exit $FAILS
