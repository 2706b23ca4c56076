#!/bin/sh
# The first pass of the thesis' Ch. IV oracle and annotated placements
# (Figs. 4.9, 4.11): one `uvmsim profile` per workload of the sweeps, on
# configs/thesis-ch4-inputs.yaml (the sweeps' sizes), into profiles/ (run from
# the repository root; the sweeps name profiles/thesis-ch4-KIND.prof).
#   sh scripts/thesis_ch4_profiles.sh [UVMSIM] [-s KEY=VALUE]...
set -e
UVMSIM=${1:-build/uvmsim}
[ $# -gt 0 ] && shift
mkdir -p profiles
for k in backprop bfs btree cns comd histo hotspot kmeans lud minife mriq mummergpu nw pathfinder sgemm spmv srad_v1 stencil xsbench; do
    nice -n 10 "$UVMSIM" profile configs/thesis-ch4-inputs.yaml -s workload.kind=$k "$@" \
        -o profiles/thesis-ch4-$k.prof --quiet
    echo "profiles/thesis-ch4-$k.prof"
done
