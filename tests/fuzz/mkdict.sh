#!/bin/sh
# Writes the libFuzzer dictionaries (one per target) into DIR: the config
# keys, their path segments and enum choices (from `uvmsim config doc`),
# units, and each format's keywords.
# usage: sh tests/fuzz/mkdict.sh UVMSIM DIR
U=$1 D=$2
mkdir -p "$D"
q() { printf '"%s"\n' "$1"; }     # entries need no escaping below
{
    "$U" config doc | sed -n 's/^| `\([^`]*\)` | .*/\1/p' | while read -r k; do
        q "$k"
        echo "$k" | tr '.' '\n' | while read -r seg; do q "$seg"; done
    done
    "$U" config doc | awk -F'|' '$3 ~ /enum/ { print $6 }' | tr ',' '\n' | sed 's/^ *//; s/ *$//' |
        grep -v '^$' | while read -r c; do q "$c"; done
    for u in ps ns us ms s Hz kHz MHz GHz B KB MB GB TB KiB MiB GiB TiB /s GB/s %; do q "$u"; done
    for t in "base: " "base.yaml" "main.yaml" ": " "- " "{" "}" "[" "]" "'" "&a " "*a" "!!str " \
             "---" "..." "#" "|" ">" "true" "false" "0x" "1e" "=" "#---base---" "~" "null"; do q "$t"; done
    printf '"\\xc2\\xb5s"\n"\\xc2\\x85"\n"\\xe2\\x80\\xa8"\n"\\xef\\xbb\\xbf"\n"\\x1b["\n"\\\\u2028"\n"\\\\x85"\n'
} | sort -u >"$D/config.dict"
cp "$D/config.dict" "$D/sets.dict"
{
    for t in "MEMTRACE: " " - LAUNCH - " "Kernel pc 0x" "Kernel name " "grid launch id " \
             "grid size " "block size " "nregs " "shmem " "cuda stream id " "CTX 0x" \
             "grid_launch_id " " - CTA " " - warp " " - PC " " - " "LDG.E" "STG.E.64" "ATOMG.E.ADD" \
             "RED.E" "LD" "ST" "LDS" "STL" "ATOMS" "LDSM" ".128" ".64" ".16" ".U8" ".S16" \
             "0x7f0000000000" "0x0000000000000000" "0xffffffffffffffff" "4294967295"; do q "$t"; done
} >"$D/nvbit.dict"
{
    q "UVMTRACE"
    printf '"\\x01\\x00\\x00\\x00"\n"\\x00\\x00\\x20\\x00\\x00\\x00\\x00\\x00"\n"\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff"\n'
    printf '"\\x01\\x04\\x01\\x00\\x00\\x00"\n"\\x40\\x00\\x00\\x00\\x00\\x00\\x00\\x00"\n'
} >"$D/bintrace.dict"
for t in "0x" " W" " R" " w" " r" "#" "18446744073709551615"; do q "$t"; done >"$D/pagetrace.dict"
for t in " R" " W" "READ" "WRITE" "0x" "," "#" "1e12" "4096" "0xffffffffffffff80" "nan"; do q "$t"; done >"$D/dramtrace.dict"
for t in "%%MatrixMarket" "matrix" "coordinate" "array" "pattern" "real" "integer" "complex" \
         "general" "symmetric" "%" "4294967295" "2305843009213693952" "1e308"; do q "$t"; done >"$D/mtx.dict"
for t in "-kernel name = " "-kernel id = " "-grid dim = (" "-block dim = (" "-shmem = " "-nregs = " \
         "-binary version = " "-cuda stream id = " "-shmem base_addr = 0x" "-local mem base_addr = 0x" \
         "-nvbit version = " "-accelsim tracer version = " "-enable lineinfo = " "#traces format = " \
         "#BEGIN_TB" "#END_TB" "thread block = " "warp = " "insts = " "MemcpyHtoD," "MemcpyDtoH," "kernel-1.traceg" \
         "#---list---" "#---allocs---" "ffffffff" "0000ffff" "LDG.E" "STG.E.64" "ATOMG.E.ADD" "RED.E.ADD" \
         "LD.E" "ST.E" "LDS" "STS" "LDL" "BAR.SYNC" "EXIT" "LDG.E.128.STRONG.GPU" ".U8" ".U16" " R1 " \
         " 0 " " 1 " " 2 " " -4 " "0x7f0000000000" "2147483647" "-2147483648" "9223372036854775807"; do
    q "$t"; done >"$D/accelsim.dict"
{ for t in "#" "%" "4294967294" "4294967295" "18446744073709551616"; do q "$t"; done
  printf '"\\x09"\n'; } >"$D/edgelist.dict"
{ for t in "step" "run" "until" "continue" "fault" "batch" "evict" "shootdown" "kernel" "time" \
           "break" "delete" "show" "sm" "warp" "tlb" "l1" "l2" "set" "gmmu" "faultbuf" "driver" \
           "link" "dram" "page" "stats" "where" "restart" "help" "quit" "0x100000000" "20us" "1e18ps" \
           "18446744073709551615" "4294967296" "9223372036854775808" "*" "driver.*" " "; do q "$t"; done
  printf '"\\x00"\n"\\x1b["\n"\\x0d\\x0a"\n'; } >"$D/step.dict"
for t in "--trace" "--trace-window" "--trace-what" "--trace-max" "-o" "out.json" "out.h5" "./out.h5" \
         ":" "10us:50us" "us" "ps" "MiB" "0" "all" "warps" "faults" "batches" "dma" "evictions" \
         "shootdowns" "counters" "kernels" "walks" "dram" "," "/" "../" "1e18" "18446744073709551616"; do q "$t"; done >"$D/traceopts.dict"
# report: HDF5's signatures (superblock, object headers, B-trees, heaps)
# and the names the report reads.
{ printf '"\\x89HDF\\x0d\\x0a\\x1a\\x0a"\n'
  for t in TREE HEAP SNOD OHDR OCHK GCOL BTHD BTIN BTLF FRHP FHDB FHIB FSHD FSSE stats config \
           timeseries batches kernels points runs axes missing host histogram counter bin_width \
           count max sum kind unit description yaml status seed events sim_time_ps time_ps start_ps \
           end_ps faults handling_ps gpu.clock sim.epoch name text value driver.eviction; do q "$t"; done
  printf '"\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff"\n"\\x00\\x00\\x00\\x00\\x00\\x00\\xf0\\x7f"\n'; } >"$D/report.dict"
{ cat "$D/config.dict"
  for t in "set:" "axes:" "zip:" "seeds:" "exclude:" "name:" "{seed}" "{" "}" "sim.seed" \
           "- " "[" "]" "100000" "99999"; do q "$t"; done; } | sort -u >"$D/sweepfile.dict"
{ for t in "uvmsim-sweep-plan" "uvmsim-sweep-plan\\x091" "sweep\\x09" "base\\x09" "set\\x09" "axis\\x09" "point\\x09" \
           "\\x09" "#---point---" "0000000000000000" "ffffffffffffffff" "../" "/" ".." "HDF" \
           "driver.eviction" "gpu.memory.fraction" "sim.seed" "75%" "lru"; do q "$t"; done
  printf '"\\x89HDF\\x0d\\x0a\\x1a\\x0a"\n"\\x00\\x00\\x00\\x00"\n"\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff"\n'; } >"$D/sweepdir.dict"
