#!/bin/sh
# Every command of the README's "Running" block, as written, so the README
# cannot promise a file or a command that does not exist.  They run in a
# scratch directory that sees the repository's configs/, examples/,
# scripts/ and docs/ and whose build/ is BUILD: the only substitution.
# Left out: scripts/validate.sh (70 CPU s, one process at a time: over a
# minute, 5 on a loaded machine; it is link-bench and dram-replay over
# every preset, which tests/e2e/link_bench.sh and dram_replay.sh cover).  Each must exit 0, print something and write its -o /
# --trace file; what they leave behind must be in .gitignore.
. "$(dirname "$0")/../e2e_lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=$(cd "$BUILD" && pwd)
W="$TMP/w"
mkdir -p "$W"
for d in configs examples scripts docs; do ln -s "$ROOT/$d" "$W/$d"; done
ln -s "$B" "$W/build"

# The first ```sh block after "## Running".
awk '/^## Running/ { r = 1 } r && /^```sh/ { b = 1; next } b && /^```/ { exit } b' \
    "$ROOT/README.md" >"$TMP/cmds"
n=$(grep -c . "$TMP/cmds")
check "README's Running block has commands ($n)" [ "$n" -ge 10 ]

# Every file a command names exists (configs/..., examples/..., scripts/...).
for f in $(grep -oE '(configs|examples|scripts)/[A-Za-z0-9_./-]+' "$TMP/cmds" | sort -u); do
    check "README names an existing file: $f" [ -e "$ROOT/$f" ]
done

i=0
while IFS= read -r line; do
    i=$((i + 1))
    cmd=$(echo "${line%%#*}" | sed 's/[[:space:]]*$//')
    case $cmd in
    *scripts/validate.sh*) echo "# skipped (minutes): $cmd"; continue ;;
    esac
    (cd "$W" && sh -c "$cmd" </dev/null >"$TMP/out.$i" 2>"$TMP/err.$i")
    rc=$?
    check "README: $cmd: exit 0 (got $rc)" [ $rc -eq 0 ]
    [ $rc -eq 0 ] || { sed -n 1,5p "$TMP/err.$i"; continue; }
    # The file it was told to write, else what it printed.
    o=$(echo "$cmd" | sed -n 's/.* \(-o\|--trace\) \([^ ]*\).*/\2/p')
    if [ -n "$o" ]; then
        check "README: $cmd: wrote $o" [ -s "$W/$o" ]
    else
        check "README: $cmd: prints its result" [ -s "$TMP/out.$i" ]
    fi
done <"$TMP/cmds"

# The sample page trace does what its header derives by hand: LRU faults
# on every round's first touch of each page (4 x 1536), MIN keeps the hot
# set and 512 scan pages (1536 + 3 x 512).
faults() { "$UVMSIM" replay --pages "$ROOT/examples/pages.txt" --frames 1024 --policy "$1" |
    sed -n 's/^faults *//p'; }
check "examples/pages.txt: LRU faults 6144 times" [ "$(faults lru)" = 6144 ]
check "examples/pages.txt: MIN faults 3072 times" [ "$(faults ideal)" = 3072 ]

# What the block writes is what .gitignore keeps out of git status.
for f in $(cd "$W" && ls | grep -vxE 'configs|examples|scripts|docs|build'); do
    check "gitignore covers the README's $f" git -C "$ROOT" check-ignore -q --no-index "$f"
done
exit $FAILS
