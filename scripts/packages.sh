#!/bin/sh
# Print the Debian packages of the named groups of scripts/debian-packages.txt
# on one line (default: build test scripts, what `make test` and the scripts
# need).  Usage: sh scripts/packages.sh [GROUP...]; 'all' is every group.
LIST="$(dirname "$0")/debian-packages.txt"
groups=${*:-build test scripts}
awk -v groups="$groups" '
    BEGIN { n = split(groups, g, " "); for (i = 1; i <= n; i++) want[g[i]] = 1 }
    { sub(/#.*/, "") }
    NF >= 2 { seen[$2] = 1; if (want["all"] || ($2 in want)) { printf "%s%s", sep, $1; sep = " " } }
    END {
        print ""
        for (k in want) if (k != "all" && !(k in seen)) {
            print "packages.sh: no group \"" k "\" in " FILENAME > "/dev/stderr"; bad = 1 }
        exit bad ? 2 : 0
    }' "$LIST"
