#!/bin/sh
# Fresh Debian machine to first result: install what is missing (as root;
# otherwise print the apt-get line and stop), build, and run the default
# configuration, which prints its summary and writes default.h5.  The
# packages are scripts/debian-packages.txt's groups build, test and scripts:
# after this, `make test` has everything it calls.  --no-install-recommends
# proves the list names every package itself (make test-fresh checks it on
# a bare Debian root).
set -e
cd "$(dirname "$0")/.."
PKGS=$(sh scripts/packages.sh build test scripts)

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "installing:$missing"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $missing
    else
        echo "missing Debian packages:$missing"
        echo "run as root:  apt-get update && apt-get install -y --no-install-recommends$missing"
        exit 1
    fi
fi

make -j"$(nproc 2>/dev/null || echo 2)"
./build/uvmsim run configs/default.yaml -o default.h5
