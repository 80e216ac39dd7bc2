#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/datacenters.sh -- lock latency with masters "in other datacenters":
# 5 local redis-servers, each behind test/rlproxy with its own added delay
# (one way, each direction; so a round trip costs twice), then a
# single-client bench through the proxies.
#
#   bench/datacenters.sh [DELAYS] [extra redlock-bench options]
#   DELAYS: comma-separated one-way delays in ms, one per master
#           (default 0,2,10,20,40: two masters near, one mid, two far)
#
# Everything runs on loopback and is removed at exit.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
delays=${1:-0,2,10,20,40}
[ $# -gt 0 ] && shift
make -s -C "$top" bench test/rlproxy failover >/dev/null

dir=$(mktemp -d "${TMPDIR:-/tmp}/rl-dc.XXXXXX")
pids=""
cleanup() {
    for p in $pids; do kill -9 "$p" 2>/dev/null || true; done
    rm -rf "$dir"
}
trap cleanup EXIT INT TERM

maps="" addrs="" i=0
for d in $(echo "$delays" | tr ',' ' '); do
    port=$("$top/test/soak/rl-util" free-port)
    mkdir -p "$dir/$i"
    redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no \
        --dir "$dir/$i" --logfile "$dir/$i/log" --daemonize no >/dev/null &
    pids="$pids $!"
    n=0
    until "$top/test/soak/rl-util" ping "$port" >/dev/null 2>&1; do
        n=$((n + 1)); [ $n -lt 200 ] || { echo "redis-server did not start" >&2; exit 1; }
        sleep 0.02
    done
    listen=$("$top/test/soak/rl-util" free-port)
    maps="$maps --map $listen:$port"
    addrs="$addrs 127.0.0.1:$listen"
    echo "@$i latency both $d" >> "$dir/commands"
    i=$((i + 1))
done

mkfifo "$dir/ctl"
# shellcheck disable=SC2086
"$top/test/rlproxy" $maps < "$dir/ctl" > "$dir/proxy.out" &
pids="$pids $!"
exec 3> "$dir/ctl"
n=0
until grep -q listening "$dir/proxy.out" 2>/dev/null; do
    n=$((n + 1)); [ $n -lt 200 ] || { echo "rlproxy did not start" >&2; exit 1; }
    sleep 0.02
done
cat "$dir/commands" >&3
echo "masters behind proxies with one-way delays of $delays ms"
# shellcheck disable=SC2086
"$top/bench/redlock-bench" $addrs --concurrency 1 --duration 5 --warmup 1 \
    --node-timeout 500 --no-progress "$@"
echo quit >&3
