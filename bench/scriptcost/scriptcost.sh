#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/scriptcost/scriptcost.sh [CYCLES] [ROUNDS] -- `make bench-scriptcost`:
# starts a redis-server of its own on a free port in a temporary directory,
# runs bench/scriptcost/scriptcost against it, stops it.
set -eu
dir=$(mktemp -d "${TMPDIR:-/tmp}/scriptcost.XXXXXX")
pid=""
trap 'if [ -n "$pid" ]; then kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi; rm -rf "$dir"' EXIT
# Ours is up when the server on the port says it is our process.  A port
# another program holds (a listener, or a client socket's own port: the
# test suite beside it has thousands) makes redis-server exit: the next
# port is tried.
ours() { timeout 2 redis-cli -p "$port" info server 2>/dev/null | tr -d "\r" | grep -qx "process_id:$pid"; }
port=$(( 20000 + $$ % 20000 ))
tries=0
while :; do
    redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$dir" \
        --logfile "$dir/log" --daemonize no >/dev/null &
    pid=$!
    i=0
    until ours; do
        kill -0 "$pid" 2>/dev/null || break
        i=$((i + 1))
        [ "$i" -lt 200 ] || { echo "scriptcost.sh: redis-server did not start" >&2; exit 1; }
        sleep 0.05
    done
    kill -0 "$pid" 2>/dev/null && break
    wait "$pid" || :
    pid=""
    tries=$((tries + 1))
    [ "$tries" -lt 20 ] || { echo "scriptcost.sh: no port for redis-server ($port last)" >&2; exit 1; }
    port=$((port + 1))
done
"$(dirname "$0")/scriptcost" "$port" "$@"
