#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/soak/failover-cluster.sh -- mutual exclusion while the votes are
# Redis Clusters and their shards fail over (docs/failover.md, "Cluster
# votes").  rl-cluster starts --votes clusters of --shards masters with one
# replica each on loopback (in a mktemp -d directory, removed on exit);
# --workers rl-worker processes (even ids blocking, odd ones async) contend
# for --resources locks whose keys fall on every shard, with the cluster
# addresses as their nodes and the restart guard on (automatic: the largest
# ttl); rl-cluster runs its seeded schedule of faults inside the clusters
# (CLUSTER FAILOVER plain, FORCE and TAKEOVER, kill -9 of a shard's master
# and its promotion, masters and replicas restarted, lose-keys: held keys
# lost on a quorum of votes by replicas that take over without them, migrate:
# a held lock's slot moved to another master, ASK then MOVED); then
# rl-check reads the logs.  Exit status: 0 no overlap, 1 overlap (or no
# acquisition at all), 2 set-up error.
#
#   sh test/soak/failover-cluster.sh [options]
#
# Options:
#   --votes N (3)  --shards N (3)  --workers K (6)  --resources R (6: keys
#   on every shard of 3)  --ttl MS (1000)  --hold-min MS (1)  --hold-max MS
#   (200)  --idle-max MS (20)  --extend-pct P (40)  --node-timeout MS (100:
#   the workers')  --cluster-node-timeout MS (1000: the clusters')
#   --rounds N (1: every kind once)  --seconds S (0; else rounds until S
#   seconds have passed)  --kinds "K ..." (rl-cluster's kinds, all by
#   default: failover failover-force failover-takeover kill-master
#   restart-master restart-replica lose-keys migrate)  --gap-min MS (300)
#   --gap-max MS (1000): before each fault  --cut-max MS (2000): how long
#   lose-keys waits for a lock held on the cut masters alone (migrate for a
#   held lock)  --seed N (default: from
#   the clock, printed)  --lead MS (1000)  --tail MS (1500)  --keep (keep
#   the directory: logs, nodes' logs)
#   --restart-guard MS (the workers' restart_guard_ms; default automatic;
#   0 turns the guard off: a run that must find overlaps)
set -u

here=$(cd "$(dirname "$0")" && pwd)
WORKER=${RL_WORKER:-$here/rl-worker}
CHECK=${RL_CHECK:-$here/rl-check}
CLUSTER=$here/rl-cluster
UTIL=$here/rl-util

VOTES=3 SHARDS=3 K=6 R=6 TTL=1000 HOLD_MIN=1 HOLD_MAX=200 IDLE_MAX=20 EXTEND_PCT=40
NODE_TIMEOUT=100 CL_NODE_TIMEOUT=1000 ROUNDS=1 SECONDS_=0 KINDS="" GAP_MIN=300 GAP_MAX=1000
CUT_MAX=2000 SEED="" LEAD=1000 TAIL=1500 KEEP=0 GUARD=""

die() { echo "failover-cluster: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
    --votes) VOTES=$2; shift ;;
    --shards) SHARDS=$2; shift ;;
    --workers) K=$2; shift ;;
    --resources) R=$2; shift ;;
    --ttl) TTL=$2; shift ;;
    --hold-min) HOLD_MIN=$2; shift ;;
    --hold-max) HOLD_MAX=$2; shift ;;
    --idle-max) IDLE_MAX=$2; shift ;;
    --extend-pct) EXTEND_PCT=$2; shift ;;
    --node-timeout) NODE_TIMEOUT=$2; shift ;;
    --cluster-node-timeout) CL_NODE_TIMEOUT=$2; shift ;;
    --rounds) ROUNDS=$2; shift ;;
    --seconds) SECONDS_=$2; shift ;;
    --kinds) KINDS=$2; shift ;;
    --gap-min) GAP_MIN=$2; shift ;;
    --gap-max) GAP_MAX=$2; shift ;;
    --cut-max) CUT_MAX=$2; shift ;;
    --seed) SEED=$2; shift ;;
    --lead) LEAD=$2; shift ;;
    --tail) TAIL=$2; shift ;;
    --keep) KEEP=1 ;;
    --restart-guard) GUARD=$2; shift ;;
    -h | --help) sed -n '2,/^set -u$/p' "$0" | sed '$d'; exit 0 ;;
    *) die "unknown option $1" ;;
    esac
    shift
done
[ "$VOTES" -ge 3 ] || die "--votes must be at least 3"
[ "$K" -ge 2 ] || die "--workers must be at least 2"
for p in "$WORKER" "$CHECK" "$CLUSTER" "$UTIL"; do
    [ -x "$p" ] || die "build the programs first: make failover ($p)"
done
command -v redis-server >/dev/null 2>&1 || [ -n "${REDIS_SERVER:-}" ] ||
    die "redis-server not found (set REDIS_SERVER)"
[ -n "$SEED" ] || SEED=$(( $("$UTIL" now) % 1000000000 + 1 ))

dir=$(mktemp -d "${TMPDIR:-/tmp}/rl-failover-cluster.XXXXXX") || die "mktemp failed"
worker_pids="" cluster_pid=""

# shellcheck disable=SC2317 # run by the EXIT trap
cleanup() {
    for p in $worker_pids $cluster_pid; do
        kill -CONT "$p" 2>/dev/null
        kill -9 "$p" 2>/dev/null
    done
    for p in $worker_pids $cluster_pid; do
        wait "$p" 2>/dev/null
    done
    if [ "$KEEP" = 1 ]; then
        echo "failover-cluster: logs kept in $dir"
    else
        rm -rf "$dir"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now() { "$UTIL" now; }
T0=$(now)
ms_sleep() { sleep "$(awk "BEGIN { print $1 / 1000 }")"; }
say() { printf '[%7.3f s] %s\n' "$(awk "BEGIN { print ($(now) - $T0) / 1e6 }")" "$*"; }

# until_file FILE SECONDS WHAT: wait for FILE while rl-cluster runs
until_file() {
    deadline=$(( $(now) + $2 * 1000000 ))
    while [ ! -e "$1" ]; do
        kill -0 "$cluster_pid" 2>/dev/null || die "rl-cluster exited before $3"
        [ "$(now)" -lt "$deadline" ] || die "no $3 within $2 s"
        ms_sleep 20
    done
}

# until_acquired SECONDS: wait until some worker logged an acquisition
until_acquired() {
    deadline=$(( $(now) + $1 * 1000000 ))
    while ! cat "$dir"/worker-*.log 2>/dev/null | grep -q '^A '; do
        [ "$(now)" -lt "$deadline" ] || die "no acquisition within $1 s"
        ms_sleep 20
    done
}

# ---- the clusters -----------------------------------------------------------
say "seed $SEED (replay: add --seed $SEED)"
faults=$dir/faults.log
: > "$faults"
mkfifo "$dir/cluster.ctl" || die "mkfifo failed"
set -- --votes "$VOTES" --shards "$SHARDS" --replicas 1 --node-timeout "$CL_NODE_TIMEOUT" \
    --seed "$SEED" --rounds "$ROUNDS" --seconds "$SECONDS_" --gap-min "$GAP_MIN" \
    --gap-max "$GAP_MAX" --cut-max "$CUT_MAX" --resources "$R" \
    --addresses "$dir/addresses" --faults "$faults" --done "$dir/done"
[ -n "$KINDS" ] && set -- "$@" --kinds "$KINDS"
# the nodes' dirs under $dir (kept with --keep)
TMPDIR=$dir "$CLUSTER" "$@" < "$dir/cluster.ctl" &
cluster_pid=$!
exec 3> "$dir/cluster.ctl"
until_file "$dir/addresses" 120 "the clusters' addresses"
addrs=$(cat "$dir/addresses")

# ---- workers -------------------------------------------------------------------
guard=""
[ -n "$GUARD" ] && guard="--restart-guard $GUARD"
j=0
while [ $j -lt "$K" ]; do
    role=""
    [ $((j % 2)) = 1 ] && role=--async
    # shellcheck disable=SC2086 # $role and $guard: none or an option
    "$WORKER" --id $j --masters "$addrs" --log "$dir/worker-$j.log" --resources "$R" \
        --ttl "$TTL" --hold-min "$HOLD_MIN" --hold-max "$HOLD_MAX" --idle-max "$IDLE_MAX" \
        --node-timeout "$NODE_TIMEOUT" --extend-pct "$EXTEND_PCT" --seconds 100000 \
        --seed "$SEED" $role $guard &
    worker_pids="$worker_pids $!"
    j=$((j + 1))
done
say "started $K workers (odd ids async) on $R resources, ttl $TTL ms, hold $HOLD_MIN..$HOLD_MAX ms, extend $EXTEND_PCT %, restart guard ${GUARD:-automatic}"
until_acquired 30
ms_sleep "$LEAD"

# ---- the faults ------------------------------------------------------------------
echo go >&3
# a round of every kind takes about 20 s; a kill waits for a promotion
budget=$(( SECONDS_ > 0 ? SECONDS_ + 120 : ROUNDS * 120 ))
until_file "$dir/done" "$budget" "end of the fault schedule"
ms_sleep "$TAIL"

# ---- stop the workers, then the clusters, check ------------------------------------
for p in $worker_pids; do kill -TERM "$p" 2>/dev/null; done
deadline=$(( $(now) + 10000000 ))
for p in $worker_pids; do
    while kill -0 "$p" 2>/dev/null && [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" != Z ]; do
        if [ "$(now)" -gt "$deadline" ]; then
            say "worker $p did not stop; killing it"
            kill -9 "$p" 2>/dev/null
            break
        fi
        ms_sleep 10
    done
    wait "$p" 2>/dev/null
done
worker_pids=""
echo quit >&3
exec 3>&-
wait "$cluster_pid"
cluster_pid=""
say "workers stopped; checking (seed $SEED)"
set -- "$dir"/worker-*.log
"$CHECK" --nodes "$VOTES" --faults "$faults" "$@"
status=$?
if [ $status -eq 0 ] && ! grep -q '^A ' "$@"; then
    echo "failover-cluster: no acquisition at all" >&2
    status=1
fi
exit $status
