#!/bin/sh
# Fresh Debian machine to first result: install what is missing (as root;
# otherwise print the apt-get line and stop), build, and run the default
# configuration, which prints its summary and writes default.h5.
set -e
cd "$(dirname "$0")/.."
PKGS="build-essential pkg-config libyaml-dev libhdf5-dev check hdf5-tools python3-h5py python3-pandas"

missing=""
for p in $PKGS; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        missing="$missing $p"
done
if [ -n "$missing" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "installing:$missing"
        apt-get update
        DEBIAN_FRONTEND=noninteractive apt-get install -y $missing
    else
        echo "missing Debian packages:$missing"
        echo "run as root:  apt-get update && apt-get install -y$missing"
        exit 1
    fi
fi

make -j"$(nproc 2>/dev/null || echo 2)"
./build/uvmsim run configs/default.yaml -o default.h5
