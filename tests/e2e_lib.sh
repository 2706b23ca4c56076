# Shared helpers for the end-to-end scripts (sourced, not run).
BUILD=${1:-build}
UVMSIM="$BUILD/uvmsim"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
FAILS=0
ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; FAILS=$((FAILS + 1)); }
check() { name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
# A small, fast variant of the default machine for end-to-end runs.
SMALL="-s workload.stream.footprint=2MiB -s sim.epoch=5us"
