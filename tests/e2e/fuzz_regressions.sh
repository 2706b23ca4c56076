#!/bin/sh
# Every input kept under tests/fuzz/regressions/TARGET/ (issue 12's
# reproducers and whatever `make fuzz` found) goes through the same entry
# point as the fuzz harness, in this build (under ASan+UBSan in `make
# check-asan`): a user error or a clean parse passes; a crash, a sanitizer
# report or a broken property fails, naming the file.
. "$(dirname "$0")/../e2e_lib.sh"
R="$BUILD/tests/fuzz_replay"
if [ ! -x "$R" ]; then not_ok "fuzz regressions: $R not built"; exit 1; fi
n=0
for d in tests/fuzz/regressions/*/; do
    t=$(basename "$d")
    for f in "$d"*; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        if "$R" "$t" "$f" >"$TMP/out" 2>"$TMP/err"; then
            ok "$(sed -n 's/^ok - //p' "$TMP/out")"
        else
            not_ok "fuzz regression $t/$(basename "$f"): $(tail -n 3 "$TMP/err" | tr '\n' '|')"
        fi
    done
done
check "fuzz regressions: there are some ($n)" [ "$n" -gt 0 ]
exit $FAILS
