#!/bin/sh
# Every workload runs to completion in the whole simulator at a small size,
# and the result records as many kernel launches as the program has.
. "$(dirname "$0")/../e2e_lib.sh"

run() {     # NAME EXPECTED_KERNELS -s ... : run and check the kernel count
    name=$1; want=$2; shift 2
    # shellcheck disable=SC2086
    "$UVMSIM" run configs/default.yaml -s sim.epoch=50us -s workload.kind="$name" "$@" \
        -o "$TMP/$name.h5" >"$TMP/$name.out" 2>&1
    rc=$?
    got=$(sed -n 's/^ *gpu *\([0-9]*\) kernels.*/\1/p' "$TMP/$name.out" | head -1)
    check "$name runs to completion (exit $rc)" [ "$rc" -eq 0 ]
    if [ -n "$want" ] && [ -n "$got" ]; then
        check "$name: $want kernel launches (got $got)" [ "$got" -eq "$want" ]
    fi
}

run stream 2 -s workload.stream.footprint=256KiB
run gemm 1 -s workload.gemm.ni=64 -s workload.gemm.nj=64 -s workload.gemm.nk=16
run 2dconv 1 -s workload.2dconv.ni=64 -s workload.2dconv.nj=64
run 3dconv 6 -s workload.3dconv.ni=8 -s workload.3dconv.nj=16 -s workload.3dconv.nk=32
run 2mm 2 -s workload.2mm.ni=32 -s workload.2mm.nj=32 -s workload.2mm.nk=8 -s workload.2mm.nl=32
run mvt 2 -s workload.mvt.n=256
run atax 2 -s workload.atax.nx=256 -s workload.atax.ny=256
run bicg 2 -s workload.bicg.nx=256 -s workload.bicg.ny=256
run gesummv 1 -s workload.gesummv.n=256
run fdtd2d 6 -s workload.fdtd2d.nx=32 -s workload.fdtd2d.ny=64 -s workload.fdtd2d.tmax=2
run vecadd 1 -s workload.vecadd.n=65536
run gups 2 -s workload.gups.footprint=64KiB -s workload.gups.threads=256
run ra 1 -s workload.ra.n=65536
run cyclic 1 -s workload.cyclic.footprint=64KiB -s workload.cyclic.sweeps=2 -s workload.cyclic.grid=4
run uvmsmart 1 -s workload.uvmsmart.bench=p2
run uvmeval 3 -s workload.uvmeval.kernel=triad -s workload.uvmeval.elems=8192 -s workload.uvmeval.iters=3
run pattern 4 -s workload.pattern.type=region-moving -s workload.pattern.pages=64
run pathfinder 2 -s workload.pathfinder.cols=1000 -s workload.pathfinder.rows=9 -s workload.pathfinder.pyramid_height=4
run hotspot 1 -s workload.hotspot.rows=64 -s workload.hotspot.cols=64
run hotspot3d 2 -s workload.hotspot3d.nx=64 -s workload.hotspot3d.ny=16 -s workload.hotspot3d.nz=4 -s workload.hotspot3d.iterations=2
run mriq 2 -s workload.mriq.numx=1024 -s workload.mriq.numk=512
run bfs "" -s workload.bfs.nodes=2000
run kmeans 3 -s workload.kmeans.points=2000 -s workload.kmeans.features=4 -s workload.kmeans.iterations=2
run backprop 2 -s workload.backprop.in=256
run sgemm 1 -s workload.sgemm.m=128 -s workload.sgemm.n=32 -s workload.sgemm.k=16
run stencil 2 -s workload.stencil.nx=64 -s workload.stencil.ny=16 -s workload.stencil.nz=4 -s workload.stencil.iterations=2
run srad 2 -s workload.srad.rows=32 -s workload.srad.cols=32 -s workload.srad.iterations=1
run nw 3 -s workload.nw.dim=32
run lud 10 -s workload.lud.dim=64
run spmv 2 -s workload.spmv.dim=2048 -s workload.spmv.iterations=2
run cutcp 2 -s workload.cutcp.nx=16 -s workload.cutcp.ny=16 -s workload.cutcp.nz=16
run btree 2 -s workload.btree.records=20000 -s workload.btree.order=32 -s workload.btree.queries=64 -s workload.btree.range_queries=32 -s workload.btree.range=100
run histo 8 -s workload.histo.img_width=128 -s workload.histo.img_height=64 -s workload.histo.histo_width=256 -s workload.histo.histo_height=256 -s workload.histo.spread=50 -s workload.histo.iterations=2
run sad 3 -s workload.sad.width=48 -s workload.sad.height=32
run srad_v1 7 -s workload.srad_v1.rows=30 -s workload.srad_v1.cols=20 -s workload.srad_v1.iterations=1
run xsbench 1 -s workload.xsbench.gridpoints=100 -s workload.xsbench.lookups=2000
run minife 1 -s workload.minife.nx=8 -s workload.minife.ny=8 -s workload.minife.nz=8
run comd 4 -s workload.comd.x=3 -s workload.comd.y=3 -s workload.comd.z=3
run cns 9 -s workload.cns.nx=32 -s workload.cns.ny=8 -s workload.cns.nz=8
run mummergpu 1 -s workload.mummergpu.ref_len=20000 -s workload.mummergpu.queries=300 -s workload.mummergpu.query_len=50
run nn 1 -s workload.nn.records=20000
run cfd 9 -s workload.cfd.elements=2000 -s workload.cfd.iterations=1
run minivite "" -s workload.minivite.vertices=500
run compute 2 -s workload.compute.kernels=2 -s workload.compute.insts=100 -s workload.compute.load_warps=1
# Graph kernels on a small R-MAT graph; launch counts depend on its depth
# (tested against independent BFS/SSSP/colouring in the unit suites).
G="-s workload.graph.scale=8 -s workload.graph.edge_factor=4 -s gpu.memory.fraction=100%"
for k in bfs_dwc bfs_ta bfs_tf bfs_ttc bfs_twc sssp_twc pagerank bc gc_dtc gc_ttc kcore; do
    # shellcheck disable=SC2086
    run "$k" "" $G
done
# A two-warp NVBit text trace, converted on the fly.
addrs() { i=0; s=""; while [ $i -lt 32 ]; do s="$s $(printf '0x%016x' $(($1 + 4 * i)))"; i=$((i + 1)); done; echo "$s"; }
{
    echo "MEMTRACE: CTX 0x1 - LAUNCH - Kernel pc 0x2 - Kernel name k - grid launch id 0 - grid size 2,1,1 - block size 32,1,1 - nregs 8 - shmem 0 - cuda stream id 0"
    echo "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 0,0,0 - warp 0 - LDG.E -$(addrs 0x7f0000000000)"
    echo "MEMTRACE: CTX 0x1 - grid_launch_id 0 - CTA 1,0,0 - warp 0 - STG.E -$(addrs 0x7f0000001000)"
} >"$TMP/t.txt"
run trace 1 -s workload.trace.file="$TMP/t.txt" -s gpu.memory.capacity=1MiB
# An Accel-Sim trace of the same shape, twice (docs/accelsim.md).
mkdir -p "$TMP/as"
printf '%s\n' "-grid dim = (1,1,1)" "-block dim = (32,1,1)" "-accelsim tracer version = 4" "#BEGIN_TB" \
    "thread block = 0,0,0" "warp = 0" "insts = 2" "0000 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000000000 4" \
    "0010 ffffffff 0 EXIT 0 0" "#END_TB" >"$TMP/as/kernel-1.traceg"
printf 'kernel-1.traceg\nkernel-1.traceg\n' >"$TMP/as/kernelslist.g"
run accelsim 2 -s workload.accelsim.file="$TMP/as/kernelslist.g" -s gpu.memory.capacity=1MiB

# Every listed workload is exercised above.
for k in $("$UVMSIM" workloads | sed -n 's/^## //p'); do
    [ -f "$TMP/$k.out" ] || not_ok "workload '$k' has no end-to-end run here"
done
exit $FAILS
