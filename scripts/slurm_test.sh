#!/bin/sh
# `make test-slurm`: the sweep runner against a real Slurm.  As root it
# installs slurm-wlm and munge when missing, starts a private single-node
# cluster (munged, slurmctld, slurmd; configuration, state, sockets and
# logs in one temporary directory, non-default ports), submits the smoke
# sweep with `uvmsim sweep slurm`, waits for the array and the merge job,
# and checks the merged file against a local run of the same sweep.  The
# daemons it started are stopped on every exit path.  How the cluster is
# set up: /work/shared/specs/slurm-single-node.md (Debian 12, no systemd).
#
#   sh scripts/slurm_test.sh [BUILD]      (SLURM_TEST_PORT: slurmctld port,
#                                          slurmd uses the next one)
set -u
BUILD=${1:-build}
UVMSIM=$(cd "$BUILD" 2>/dev/null && pwd)/uvmsim
SWEEP=configs/sweeps/smoke.yaml
PORT=${SLURM_TEST_PORT:-16817}
WAIT_S=${SLURM_TEST_WAIT:-600}
FAILS=0
T=""
cd "$(dirname "$0")/.." || exit 1

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1"; FAILS=$((FAILS + 1)); }
check() { name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
die() { echo "not ok - $1"; exit 1; }

[ -x "$UVMSIM" ] || die "no $UVMSIM (run make first)"
[ "$(id -u)" -eq 0 ] || die "must run as root: installs slurm-wlm and munge and starts their daemons"

# ---- packages ----
need=""
for p in slurm-wlm munge hdf5-tools; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
        need="$need $p"
done
if [ -n "$need" ]; then
    echo "# installing:$need"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086
    apt-get install -y --no-install-recommends $need >/dev/null 2>&1 ||
        { apt-get update >/dev/null && apt-get install -y --no-install-recommends $need >/dev/null; } ||
        die "apt-get install$need failed"
fi
for b in munged slurmctld slurmd sbatch squeue scontrol sinfo h5diff runuser; do
    command -v "$b" >/dev/null 2>&1 || PATH="$PATH:/usr/sbin:/sbin"
    command -v "$b" >/dev/null 2>&1 || die "$b not found after installing"
done

# ---- the daemons, stopped on every exit ----
T=$(mktemp -d /tmp/uvmsim-slurm.XXXXXX) || die "mktemp"
chmod 755 "$T"
export SLURM_CONF="$T/slurm.conf"

stop_pid_file() {
    [ -s "$1" ] || return 0
    pid=$(cat "$1")
    kill "$pid" 2>/dev/null || return 0
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kill -9 "$pid" 2>/dev/null
    return 0
}

cleanup() {
    rc=$?
    trap - EXIT INT TERM HUP
    if [ -n "$T" ] && [ -d "$T" ]; then
        if [ -s "$T/slurmctld.pid" ]; then
            jobs=$(squeue -h -o %i 2>/dev/null | tr '\n' ' ')
            [ -n "$jobs" ] && scancel $jobs 2>/dev/null
        fi
        stop_pid_file "$T/slurmd.pid"
        stop_pid_file "$T/slurmctld.pid"
        stop_pid_file "$T/munge/munged.pid"
        if [ "$rc" -ne 0 ] || [ "$FAILS" -ne 0 ]; then
            for l in "$T/slurmctld.log" "$T/slurmd.log" "$T/munge/munged.log"; do
                [ -f "$l" ] && { echo "# --- last lines of $l"; tail -n 15 "$l" | sed 's/^/# /'; }
            done
        fi
        rm -rf "$T"
    fi
    [ "$FAILS" -ne 0 ] && rc=1
    echo "test-slurm: $([ "$rc" -eq 0 ] && echo passed || echo FAILED)"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# munged as the munge user, with a fresh key and its own socket (a munged
# of the machine, if any, is left alone).
mkdir -m 755 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 400 "$T/munge/munge.key"
chown -R munge:munge "$T/munge"
runuser -u munge -- munged --key-file="$T/munge/munge.key" \
    --socket="$T/munge/munge.sock" --pid-file="$T/munge/munged.pid" \
    --log-file="$T/munge/munged.log" --seed-file="$T/munge/munged.seed" ||
    die "munged did not start"

H=$(hostname -s)
mkdir -p "$T/state" "$T/spool"
cat >"$SLURM_CONF" <<EOF
# Written by scripts/slurm_test.sh: one node, no cgroups, no accounting.
ClusterName=uvmsimtest
SlurmctldHost=$H
SlurmUser=root
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SchedulerParameters=sched_interval=1
NodeName=$H CPUs=$(nproc) RealMemory=1024 State=UNKNOWN
PartitionName=uvmsimtest Nodes=$H Default=YES MaxTime=INFINITE State=UP
EOF
slurmctld -f "$SLURM_CONF" -c || die "slurmctld did not start"
slurmd -f "$SLURM_CONF" || die "slurmd did not start"
i=0
until sinfo -h -o %T 2>/dev/null | grep -q idle; do
    i=$((i + 1))
    [ $i -gt 600 ] && die "the node did not come up idle in 60 s"
    sleep 0.1
done
ok "single-node Slurm up (munged, slurmctld, slurmd)"

# Waits until none of the job ids in $1 (comma-separated) is queued.
wait_jobs() {
    i=0
    while [ -n "$(squeue -h -o %i -j "$1" 2>/dev/null)" ]; do
        i=$((i + 1))
        [ $i -gt $((WAIT_S * 2)) ] && return 1
        sleep 0.5
    done
    return 0
}
job_of() { sed -n "s/^$1 //p" "$2/slurm/jobs"; }
job_state() { scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }

# ---- the reference: the same sweep run locally ----
"$UVMSIM" sweep run "$SWEEP" -o "$T/local" -j 2 >"$T/local.out" 2>&1
check "local run of the smoke sweep" [ $? -eq 0 ]

# ---- submitted to Slurm ----
"$UVMSIM" sweep slurm "$SWEEP" -o "$T/slurm" --partition uvmsimtest \
    --time 10 --mem 100M --max-parallel 2 >"$T/submit.out" 2>&1
check "sweep slurm submits" [ $? -eq 0 ]
cat "$T/submit.out" | sed 's/^/# /'
A=$(job_of array "$T/slurm")
M=$(job_of merge "$T/slurm")
check "an array job and a merge job" [ -n "$A" ] && [ -n "$M" ]
# The smoke sweep has 2 x 2 x 2 = 8 points: tasks 0-7, two at a time.
check "array over the 8 points, %2" grep -q '^#SBATCH --array=0-7%2$' "$T/slurm/slurm/array.sh"
check "partition, time and memory passed" \
    grep -q '^#SBATCH --partition=uvmsimtest$' "$T/slurm/slurm/array.sh"
check "the merge job depends on the array (afterok)" \
    sh -c "scontrol show job $M | grep -q 'Dependency=afterok:${A}_\*\|JobState=COMPLETED'"
wait_jobs "$A,$M"
check "array and merge jobs left the queue" [ $? -eq 0 ]
check "merge job completed" [ "$(job_state "$M")" = COMPLETED ]
n=$(ls "$T/slurm/logs" | grep -c '^slurm-.*_[0-9]*\.out$')
check "8 array tasks ran" [ "$n" -eq 8 ]
check "merged file written by the merge job" [ -s "$T/slurm/sweep.h5" ]
h5diff --exclude-path /host "$T/local/sweep.h5" "$T/slurm/sweep.h5" >"$T/diff" 2>&1
check "merged file equals the local run's (excluding /host)" [ $? -eq 0 ]

# ---- resubmitting: nothing to run, only the merge ----
"$UVMSIM" sweep slurm "$SWEEP" -o "$T/slurm" --partition uvmsimtest >"$T/again.out" 2>&1
check "resubmission exits 0" [ $? -eq 0 ]
check "points already done are not submitted again" grep -q ", 8 already done, 0 to run" "$T/again.out"
check "no array job the second time" [ -z "$(job_of array "$T/slurm")" ]
M2=$(job_of merge "$T/slurm")
wait_jobs "$M2"
check "second merge job completed" [ "$(job_state "$M2")" = COMPLETED ]

# ---- a failing point: the merge job never runs ----
# 10 ns: above the shortest access (the floor), below a translation: every point fails (tests/e2e/cli.sh).
"$UVMSIM" sweep slurm "$SWEEP" -o "$T/fail" -s sim.watchdog=10ns >"$T/fail.out" 2>&1
check "failing sweep submitted" [ $? -eq 0 ]
A=$(job_of array "$T/fail")
M=$(job_of merge "$T/fail")
wait_jobs "$A,$M"
check "failing sweep's jobs left the queue" [ $? -eq 0 ]
s=$(job_state "$M")
check "merge job cancelled after failed tasks (state ${s:-gone})" [ "$s" != COMPLETED ]
check "no merged file when points failed" [ ! -e "$T/fail/sweep.h5" ]
n=$(ls "$T/fail/logs" | grep -c '\.failed$')
check "each failed point recorded ($n of 8)" [ "$n" -eq 8 ]

[ "$FAILS" -eq 0 ]
