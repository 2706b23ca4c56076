#!/bin/sh
# The SC19 runtime layer (runtime.policy, docs/decisions.md "SC19 runtime")
# on whole runs:
# - um drops exactly the generator's host steps that policy none runs
#   (Rodinia backprop, whose program copies around its kernels);
# - every policy completes on a small Rodinia cfd (a workload that
#   declares its kernels' objects) and writes /runtime rows;
# - rdm completes on tiny Rodinia backprop, bfs, hotspot, kmeans and srad
#   (their kernel_uses) and writes /runtime rows;
# - host pins every object before its first use: no page fault at all;
# - after the last kernel the host reads the objects the kernels wrote (the
#   set baseline_hoisted copies out): their pages come back over the link;
#   runtime.read_results false ends the run at the last kernel;
# - um_pf prefetches every used object before its first kernel: the
#   prefetched bytes are the used objects' sizes in 4 KiB pages, and
#   nothing faults (8 MiB of GPU memory hold the 1.3 MB footprint);
# - GLM's priorities are constant, so once the GPU holds the highest-GL
#   objects nothing is replaced (SC19 Sec. 3.3): at 50 % memory its
#   evictions at 4 outer iterations equal those at 2, where LRU's double;
# - oversubscribed rdm pins or splits, with either analysis option;
# - user errors: a policy that needs the program on a workload without
#   one, and static placement with a policy, exit 2 and write nothing;
# - runtime.analysis profile / touched run a program that declares no uses.
. "$(dirname "$0")/../e2e_lib.sh"

stat0() { h5dump -d "/stats/$2" "$1" 2>/dev/null | sed -n 's/^ *(0): *//p' | head -n 1; }
# One line per row of table $2, fields separated by '|'.
rows() {
    h5dump -y -d "/$2" "$1" 2>/dev/null | awk '/DATA \{/{d=1;next}
        d && /^ *\{ *$/{r="";inrow=1;next}
        inrow && /^ *\},? *$/{print r; inrow=0; next}
        inrow{gsub(/^ +|,$/,""); gsub(/"/,""); r = r (r==""?"":"|") $0}'
}

BP="configs/default.yaml -s workload.kind=backprop -s workload.backprop.in=16384 -s sim.epoch=20us"

run() {
    out=$1
    shift
    # shellcheck disable=SC2086
    "$UVMSIM" run $BP "$@" --quiet -o "$TMP/$out.h5" 2>"$TMP/$out.err"
}

# ---- um against the generator's own program ----
if run none && run um -s runtime.policy=um; then
    ran=$(stat0 "$TMP/none.h5" driver/host_steps)
    dropped=$(stat0 "$TMP/um.h5" runtime/steps_dropped)
    check "um drops the $ran host steps none runs ($dropped)" [ "$ran" -gt 0 ] && [ "$dropped" = "$ran" ]
    reads=$(rows "$TMP/um.h5" runtime | awk -F'|' '$4 == "host_read"' | wc -l)
    check "um runs no host step but the host's read of its results ($reads)" \
        [ "$reads" -gt 0 ] && [ "$(stat0 "$TMP/um.h5" driver/host_steps)" = "$reads" ]
else
    not_ok "none / um runs: $(cat "$TMP/none.err" "$TMP/um.err")"
fi

# ---- every policy on cfd ----
CF="configs/default.yaml -s workload.kind=cfd -s workload.cfd.elements=8192 -s sim.epoch=20us"
runc() {
    out=$1
    shift
    # shellcheck disable=SC2086
    "$UVMSIM" run $CF "$@" --quiet -o "$TMP/$out.h5" 2>"$TMP/$out.err"
}
for p in um um_pf baseline baseline_hoisted host lru rlm glm rdm; do
    if runc "$p" -s runtime.policy=$p -s gpu.memory.capacity=8MiB; then
        n=$(rows "$TMP/$p.h5" runtime | wc -l)
        check "$p: completes with /runtime rows ($n)" [ "$n" -gt 0 ]
    else
        not_ok "$p: run failed: $(cat "$TMP/$p.err")"
    fi
done

# ---- rdm on the other programs SC19 ran (each well under a second) ----
for w in "backprop -s workload.backprop.in=1024" \
         "bfs -s workload.bfs.nodes=4096" \
         "hotspot -s workload.hotspot.rows=64 -s workload.hotspot.cols=64" \
         "kmeans -s workload.kmeans.points=2048 -s workload.kmeans.iterations=2" \
         "srad -s workload.srad.rows=64 -s workload.srad.cols=64" \
         "minivite -s workload.minivite.vertices=512"; do
    name=${w%% *}
    # shellcheck disable=SC2086
    if "$UVMSIM" run configs/default.yaml -s workload.kind=$w -s runtime.policy=rdm --quiet \
           -o "$TMP/rdm_$name.h5" 2>"$TMP/rdm_$name.err"; then
        n=$(rows "$TMP/rdm_$name.h5" runtime | wc -l)
        check "rdm on $name: completes with /runtime rows ($n)" [ "$n" -gt 0 ]
    else
        not_ok "rdm on $name: run failed: $(cat "$TMP/rdm_$name.err")"
    fi
done

if [ -f "$TMP/baseline.h5" ] && [ -f "$TMP/baseline_hoisted.h5" ]; then
    # One target data region: each object copied in (or allocated) once,
    # each copied out once and only after the last kernel (its seq); the
    # per-region Baseline re-copies at every launch of cfd's loops.
    twice=$(rows "$TMP/baseline_hoisted.h5" runtime | awk -F'|' '$4 != "copy_d2h" && seen[$3]++' | wc -l)
    check "baseline_hoisted: no object copied in twice ($twice)" [ "$twice" = 0 ]
    last=$(rows "$TMP/baseline_hoisted.h5" kernels | awk -F'|' '$1 > m { m = $1 } END { print m }')
    early=$(rows "$TMP/baseline_hoisted.h5" runtime | awk -F'|' -v l="$last" '$4 == "copy_d2h" && ($1 != l || seen[$3]++)' | wc -l)
    outs=$(rows "$TMP/baseline_hoisted.h5" runtime | awk -F'|' '$4 == "copy_d2h"' | wc -l)
    check "baseline_hoisted: $outs copies out, each once after the last kernel" [ "$outs" -gt 0 ] && [ "$early" = 0 ]
    hb=$(stat0 "$TMP/baseline.h5" link/h2d/bytes); hh=$(stat0 "$TMP/baseline_hoisted.h5" link/h2d/bytes)
    check "baseline_hoisted moves less H2D than per-region baseline ($hh < $hb)" [ "$hh" -lt "$hb" ]
fi

if [ -f "$TMP/um.h5" ] && [ -f "$TMP/baseline_hoisted.h5" ]; then
    # runtime.read_results: after the last kernel the host reads the
    # objects the kernels wrote -- the set the hoisted Baseline copies out --
    # and the 1.3 MB footprint fits in 8 MiB, so each read moves every page
    # of its object (4 KiB pages) back over the link; without the read the
    # run ends at its last kernel, earlier, and nothing comes back.
    last=$(rows "$TMP/um.h5" kernels | awk -F'|' '$1 > m { m = $1 } END { print m }')
    early=$(rows "$TMP/um.h5" runtime | awk -F'|' -v l="$last" '$4 == "host_read" && $1 != l' | wc -l)
    read=$(rows "$TMP/um.h5" runtime | awk -F'|' '$4 == "host_read" { print $3 }' | sort | tr '\n' ' ')
    out=$(rows "$TMP/baseline_hoisted.h5" runtime | awk -F'|' '$4 == "copy_d2h" { print $3 }' | sort | tr '\n' ' ')
    check "um: the host reads the objects baseline_hoisted copies out ($read), after the last kernel" \
        [ -n "$read" ] && [ "$read" = "$out" ] && [ "$early" = 0 ]
    want=$(rows "$TMP/um.h5" runtime | awk -F'|' '$4 == "host_read" { s += int(($5 + 4095) / 4096) * 4096 } END { print s + 0 }')
    got=$(stat0 "$TMP/um.h5" driver/step_d2h_bytes)
    check "um: the read moves the written objects' pages back ($got = $want)" [ "$got" = "$want" ]
    if runc um_noread -s runtime.policy=um -s gpu.memory.capacity=8MiB -s runtime.read_results=false; then
        c1=$(stat0 "$TMP/um.h5" gpu/cycles); c0=$(stat0 "$TMP/um_noread.h5" gpu/cycles)
        check "um, read_results false: nothing back, ends earlier ($c0 < $c1 cycles)" \
            [ "$(stat0 "$TMP/um_noread.h5" driver/step_d2h_bytes)" = 0 ] && [ "$c0" -lt "$c1" ]
    else
        not_ok "um, read_results false: $(cat "$TMP/um_noread.err")"
    fi
fi

if [ -f "$TMP/host.h5" ]; then
    f=$(stat0 "$TMP/host.h5" driver/faults)
    r=$(stat0 "$TMP/host.h5" driver/accessed_by_mapped)
    check "host: no page faults ($f), pages mapped remotely ($r)" [ "$f" = 0 ] && [ "$r" -gt 0 ]
fi

if [ -f "$TMP/um_pf.h5" ]; then
    # Distinct objects of the prefetch rows, each its size in 4 KiB pages.
    want=$(rows "$TMP/um_pf.h5" runtime | awk -F'|' '$4 == "prefetch" && !seen[$3]++ {
        s += int(($5 + 4095) / 4096) * 4096 } END { print s + 0 }')
    got=$(stat0 "$TMP/um_pf.h5" driver/step_h2d_bytes)
    check "um_pf: prefetched bytes = used objects' pages ($got = $want)" [ "$want" -gt 0 ] && [ "$got" = "$want" ]
    check "um_pf: no page faults" [ "$(stat0 "$TMP/um_pf.h5" driver/faults)" = 0 ]
fi

evictions() { rows "$1" runtime | awk -F'|' '$4 == "evict"' | wc -l; }
for p in glm lru; do
    for it in 2 4; do
        runc "${p}_$it" -s runtime.policy=$p -s gpu.memory.fraction=50% -s workload.cfd.iterations=$it ||
            not_ok "$p, $it iterations: $(cat "$TMP/${p}_$it.err")"
    done
done
g2=$(evictions "$TMP/glm_2.h5"); g4=$(evictions "$TMP/glm_4.h5")
l2=$(evictions "$TMP/lru_2.h5"); l4=$(evictions "$TMP/lru_4.h5")
check "glm at 50 %: replacements only while warming up ($g2 at 2 iterations = $g4 at 4)" \
    [ "$g2" -gt 0 ] && [ "$g2" = "$g4" ]
check "lru at 50 %: replacements every iteration ($l2 at 2, $l4 at 4)" [ "$l4" -gt "$l2" ]

for opt in "" "-s runtime.cfg.trip=exact" "-s runtime.cfg.exit=inf"; do
    # shellcheck disable=SC2086
    if runc rdm_half -s runtime.policy=rdm -s gpu.memory.fraction=50% $opt; then
        pin=$(stat0 "$TMP/rdm_half.h5" runtime/pinned_bytes)
        part=$(stat0 "$TMP/rdm_half.h5" runtime/partial_gpu_bytes)
        check "rdm at 50 % $opt: something pinned ($pin) or mapped in part ($part)" [ $((pin + part)) -gt 0 ]
    else
        not_ok "rdm at 50 % $opt: run failed: $(cat "$TMP/rdm_half.err")"
    fi
done

# ---- user errors ----
"$UVMSIM" run configs/default.yaml -s workload.kind=pattern -s runtime.policy=rdm --quiet \
    -o "$TMP/e1.h5" 2>"$TMP/e1.err"
rc=$?
check "rdm without a program description: exit 2" [ $rc -eq 2 ]
check "... names runtime.policy" grep -q "runtime.policy" "$TMP/e1.err"
check "... writes nothing" [ ! -e "$TMP/e1.h5" ]
# shellcheck disable=SC2086
"$UVMSIM" run $BP -s runtime.policy=um -s driver.placement=local --quiet -o "$TMP/e2.h5" 2>"$TMP/e2.err"
rc=$?
check "a policy with static placement: exit 2" [ $rc -eq 2 ]
check "... names both keys" grep -q "driver.placement" "$TMP/e2.err"
check "... writes nothing" [ ! -e "$TMP/e2.h5" ]

# ---- runtime.analysis profile: uses counted in a functional run ----
# Polybench atax describes its program but declares no uses: the
# static analysis refuses it (naming runtime.analysis), the profile runs.
ST="configs/default.yaml -s workload.kind=atax -s workload.atax.nx=512 -s workload.atax.ny=512 -s runtime.policy=rdm --quiet"
# shellcheck disable=SC2086
"$UVMSIM" run $ST -o "$TMP/p0.h5" 2>"$TMP/p0.err"
rc=$?
check "rdm on a program without declared uses: exit 2" [ $rc -eq 2 ]
check "... points at runtime.analysis profile" grep -q "runtime.analysis profile" "$TMP/p0.err"
for a in profile touched; do
    # shellcheck disable=SC2086
    "$UVMSIM" run $ST -s runtime.analysis=$a -o "$TMP/p_$a.h5" 2>"$TMP/p_$a.err"
    rc=$?
    check "rdm with runtime.analysis=$a: exit 0" [ $rc -eq 0 ]
    n=$(rows "$TMP/p_$a.h5" runtime | grep -c .)
    check "... /runtime has rows ($n)" [ "$n" -gt 0 ]
done

[ "$FAILS" -eq 0 ]
