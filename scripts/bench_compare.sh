#!/bin/sh
# Host speed of this tree against another revision, side by side on the
# same machine (issue 13): builds REV in a temporary git worktree, then runs
# the bench set (whatever scripts/bench.sh of this tree runs) alternately
# with REV's binary and with this tree's, A B A B ..., PAIRS pairs, so that
# load from other jobs falls on both sides alike.  Each case of the set is
# one `uvmsim` run; per case it prints the ratio
#     (warp instructions / CPU s of this tree) / (the same of REV)
# (> 1: this tree is faster; CPU s = user + system of the run, so other jobs
# on the machine do not count) as min / median / max over the pairs, and
# each side's median CPU seconds and peak RSS.  Runs that print no warp
# instruction count are compared by CPU time alone.  A case REV cannot run
# (a key or workload it does not know) is reported as such.
#
# Usage: scripts/bench_compare.sh [-n PAIRS] REV [CASE...]
#        scripts/bench_compare.sh [-n PAIRS] --models [CASE...]
# (default 3 pairs, every case of scripts/bench.sh --cases).  Each binary
# runs in its own tree (its configs/), the bench script is this tree's.
# With --models (issue 41) nothing is built but this tree: its binary runs
# each case with -s sim.model=cycle and with -s sim.model=fast, A B A B,
# and the ratio is fast over cycle.  Reported, never asserted.
set -u
PAIRS=${BENCH_PAIRS:-3}
while [ $# -gt 0 ]; do
    case $1 in
    -n) PAIRS=${2:?-n needs a number}; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
    esac
done
REV=${1:?usage: scripts/bench_compare.sh [-n PAIRS] REV|--models [CASE...]}
shift
MODELS=false
[ "$REV" = --models ] && MODELS=true
ROOT=$(git rev-parse --show-toplevel) || exit 2
if [ -z "${BENCH_SCRIPT:-}" ] && [ $# -gt 0 ]; then
    known=$(sh "$ROOT/scripts/bench.sh" --cases)
    for c in "$@"; do
        echo "$known" | grep -qx -- "$c" ||
            { echo "bench_compare: no case '$c' (scripts/bench.sh --cases)" >&2; exit 2; }
    done
fi
case $PAIRS in ''|*[!0-9]*|0) echo "bench_compare: -n wants a positive number" >&2; exit 2 ;; esac
$MODELS || git -C "$ROOT" rev-parse --verify -q "$REV^{commit}" >/dev/null ||
    { echo "bench_compare: '$REV' is not a revision" >&2; exit 2; }
TMP=$(mktemp -d)
cleanup() {
    git -C "$ROOT" worktree remove --force "$TMP/rev" >/dev/null 2>&1
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if ! $MODELS; then
    echo "building $REV in a temporary worktree ..."
    git -C "$ROOT" worktree add --detach -q "$TMP/rev" "$REV" || exit 1
    make -C "$TMP/rev" -j2 >"$TMP/build_rev.log" 2>&1 ||
        { tail -20 "$TMP/build_rev.log"; echo "bench_compare: building $REV failed" >&2; exit 1; }
fi
echo "building this tree ..."
make -C "$ROOT" -j2 >"$TMP/build_cur.log" 2>&1 ||
    { tail -20 "$TMP/build_cur.log"; echo "bench_compare: building this tree failed" >&2; exit 1; }

# A stand-in for the binary that the bench script runs: it runs the real
# one under /usr/bin/time and logs, per run, exit status, CPU seconds, peak
# RSS, warp instructions and the arguments.  A failed run is logged and
# reported as success, so that the bench script goes on to its next case.
wrapper() {  # NAME REAL_BINARY [EXTRA_ARGS]
    cat >"$TMP/$1.sh" <<EOF
#!/bin/sh
out=\$(mktemp -d)
/usr/bin/time -f '%U %S %M' -o "\$out/time" "$2" "\$@" ${3:-} >"\$out/stdout" 2>"\$out/stderr"
rc=\$?
cat "\$out/stdout"; cat "\$out/stderr" >&2
insts=\$(sed -n 's/^ *gpu .* kernels, \([0-9]*\) warp instructions.*/\1/p' "\$out/stdout")
printf '%s|%s|%s|%s\n' "\$rc" "\$(tail -1 "\$out/time")" "\${insts:--}" "\$*" >>"$TMP/$1.log"
rm -rf "\$out"
exit 0
EOF
    chmod +x "$TMP/$1.sh"
}
if $MODELS; then
    wrapper rev "$ROOT/build/uvmsim" "-s sim.model=cycle"
    wrapper cur "$ROOT/build/uvmsim" "-s sim.model=fast"
    REV="sim.model cycle"
else
    wrapper rev "$TMP/rev/build/uvmsim"
    wrapper cur "$ROOT/build/uvmsim"
fi
BENCH=${BENCH_SCRIPT:-$ROOT/scripts/bench.sh}   # another set: for trying the script

i=1
while [ "$i" -le "$PAIRS" ]; do
    for side in rev cur; do
        dir=$ROOT; [ $side = rev ] && ! $MODELS && dir=$TMP/rev
        echo "pair $i/$PAIRS: $side" >&2
        echo "== pair $i $side" >>"$TMP/$side.log"
        (cd "$dir" && sh "$BENCH" "$TMP/$side.sh" "$@") >"$TMP/bench_$side.$i.out" 2>&1 ||
            echo "  (the bench script exited non-zero; see its output)" >&2
    done
    i=$((i + 1))
done

# One row per case: for each pair the two runs that are the k-th run of
# their bench pass.
awk -F'|' -v rev="$REV" '
function label(args,   n, a, i, s, out) {
    n = split(args, a, " "); out = ""
    for (i = 1; i <= n; i++) {
        if (a[i] == "-o" || a[i] == "--output") { i++; continue }
        if (a[i] == "-s" || a[i] == "run" || a[i] == "--quiet" || a[i] == "-q") continue
        s = a[i]; sub(/^configs\//, "", s); sub(/\.yaml$/, "", s)
        out = out (out == "" ? "" : " ") s
    }
    return out
}
function sort(v, n,   i, j, t) {
    for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] > v[j]; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
}
function med(v, n) { return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2 }
FNR == 1 { side = (FILENAME ~ /rev\.log$/) ? "rev" : "cur" }
/^== pair / { split($0, hd, " "); pair = hd[3]; k = 0; next }
{
    k++; if (k > ncase) ncase = k
    split($2, t, " ")
    rc[side, pair, k] = $1; cpu[side, pair, k] = t[1] + t[2]; rss[side, pair, k] = t[3]
    ins[side, pair, k] = $3; name[k] = label($4); if (pair > npair) npair = pair
}
END {
    if (rev == "sim.model cycle")
        printf "sim.model fast vs cycle, same binary, %d pair(s); ratio = (warp insts / CPU s, fast) / (same, cycle)\n", npair
    else
        printf "this tree vs %s, %d pair(s); ratio = (warp insts / CPU s here) / (same at %s)\n", rev, npair, rev
    printf "%-58s %6s %6s %6s  %9s %9s  %8s %8s\n", "case", "min", "median", "max",
           "CPU s rev", "CPU s now", "RSS rev", "RSS now"
    for (k = 1; k <= ncase; k++) {
        n = 0; na = 0; nb = 0; bad = ""
        for (p = 1; p <= npair; p++) {
            ea = rc["rev", p, k]; eb = rc["cur", p, k]
            if (ea != 0 || eb != 0) {
                # one line: mawk takes no newline inside a conditional expression
                if (ea != 0 && eb != 0) bad = "neither side runs it (exit " ea ", " eb ")"
                else if (ea != 0) bad = "REV cannot run it (exit " ea ")"
                else bad = "this tree cannot run it (exit " eb ")"
                continue
            }
            ca = cpu["rev", p, k]; cb = cpu["cur", p, k]
            if (ca <= 0 || cb <= 0) continue
            ia = ins["rev", p, k]; ib = ins["cur", p, k]
            r[++n] = (ia != "-" && ib != "-" && ia > 0) ? (ib / cb) / (ia / ca) : ca / cb
            A[++na] = ca; B[++nb] = cb
            ra[na] = rss["rev", p, k] / 1024; rb[nb] = rss["cur", p, k] / 1024
        }
        nm = name[k]; if (length(nm) > 58) nm = substr(nm, 1, 55) "..."
        if (!n) { printf "%-58s %s\n", nm, bad == "" ? "no timing" : bad; continue }
        sort(r, n); sort(A, na); sort(B, nb); sort(ra, na); sort(rb, nb)
        printf "%-58s %6.2f %6.2f %6.2f  %9.2f %9.2f  %5.0f MiB %4.0f MiB\n", nm, r[1], med(r, n), r[n],
               med(A, na), med(B, nb), med(ra, na), med(rb, nb)
    }
}' "$TMP/rev.log" "$TMP/cur.log"
