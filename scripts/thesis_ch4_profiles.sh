#!/bin/sh
# The first pass of the thesis' Ch. IV oracle and annotated placements
# (Figs. 4.9, 4.11): one `uvmsim profile` per workload of the sweeps, on
# configs/thesis-ch4.yaml at the sweeps' sizes, into profiles/ (run from
# the repository root; the sweeps name profiles/thesis-ch4-KIND.prof).
#   sh scripts/thesis_ch4_profiles.sh [UVMSIM] [-s KEY=VALUE]...
set -e
UVMSIM=${1:-build/uvmsim}
[ $# -gt 0 ] && shift
mkdir -p profiles
for k in backprop bfs hotspot kmeans nw pathfinder srad lud sgemm spmv stencil mriq histo btree; do
    nice -n 10 "$UVMSIM" profile configs/thesis-ch4.yaml -s workload.kind=$k "$@" \
        -o profiles/thesis-ch4-$k.prof --quiet
    echo "profiles/thesis-ch4-$k.prof"
done
