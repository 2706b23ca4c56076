#!/bin/sh
# Record an application's memory trace with NVBit's mem_trace tool and
# convert it to uvmsim's binary format (docs/trace-format.md).
#
# usage: scripts/nvbit_trace.sh OUT.bin APP [ARGS...]
#   MEM_TRACE_SO   path of NVBit's tools/mem_trace/mem_trace.so (required)
#   UVMSIM         uvmsim binary (default: build/uvmsim)
# The text trace goes to OUT.bin.txt and is kept for inspection.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: MEM_TRACE_SO=.../mem_trace.so $0 OUT.bin APP [ARGS...]" >&2
    exit 2
fi
: "${MEM_TRACE_SO:?set MEM_TRACE_SO to NVBit's mem_trace.so}"
UVMSIM=${UVMSIM:-build/uvmsim}
out=$1
shift
LD_PRELOAD="$MEM_TRACE_SO" "$@" >"$out.txt"
"$UVMSIM" trace convert "$out.txt" "$out"
echo "wrote $out (replay: -s workload.kind=trace -s workload.trace.file=$out)"
