#!/bin/sh
# The first pass of the oracle placement in the thesis' Fig. 5.9
# (configs/sweeps/thesis-ch5-fig5.9.yaml): one `uvmsim profile` per
# workload of the sweep, on configs/thesis-ch5-inputs.yaml (the sweep's sizes),
# into profiles/ (run from the repository root; the sweep names
# profiles/thesis-ch5-KIND.prof).
#   sh scripts/thesis_ch5_profiles.sh [UVMSIM] [-s KEY=VALUE]...
set -e
UVMSIM=${1:-build/uvmsim}
[ $# -gt 0 ] && shift
mkdir -p profiles
for k in backprop bfs btree cns comd kmeans minife mummergpu nw pathfinder srad_v1 xsbench; do
    nice -n 10 "$UVMSIM" profile configs/thesis-ch5-inputs.yaml -s workload.kind=$k "$@" \
        -o profiles/thesis-ch5-$k.prof --quiet
    echo "profiles/thesis-ch5-$k.prof"
done
