#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/scriptcost/scriptcost.sh [CYCLES] [ROUNDS] -- `make bench-scriptcost`:
# starts a redis-server of its own on a free port in a temporary directory,
# runs bench/scriptcost/scriptcost against it, stops it.
set -eu
dir=$(mktemp -d "${TMPDIR:-/tmp}/scriptcost.XXXXXX")
trap 'redis-cli -p "$port" shutdown nosave >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
port=$(( 20000 + $$ % 20000 ))
while redis-cli -p "$port" ping >/dev/null 2>&1; do port=$((port + 1)); done
redis-server --port "$port" --save '' --appendonly no --dir "$dir" --daemonize yes \
    --pidfile "$dir/pid" --logfile "$dir/log" >/dev/null
i=0
until redis-cli -p "$port" ping >/dev/null 2>&1; do
    i=$((i + 1))
    [ "$i" -lt 100 ] || { echo "scriptcost.sh: redis-server did not start" >&2; exit 1; }
    sleep 0.05
done
"$(dirname "$0")/scriptcost" "$port" "$@"
