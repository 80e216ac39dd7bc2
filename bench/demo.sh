#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/demo.sh -- a short look at redlock-bench: starts 5 local redis-servers
# (loopback, temporary directories, removed at the end), runs ~5 s of
# uncontended lock/unlock cycles at 128 in flight with the live progress line
# (when stdout is a terminal), then prints the summary.
#
#   bench/demo.sh [extra redlock-bench options]     e.g. bench/demo.sh --baseline
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin="$here/redlock-bench"
if [ ! -x "$bin" ]; then
    make -C "$here/.." bench >/dev/null
fi
# The run is bounded: 1 s warm-up + 5 s measured; `timeout` guards anything
# unexpected (servers die with the benchmark: PR_SET_PDEATHSIG).
exec timeout -k 5 60 "$bin" --spawn 5 --workload cycle --concurrency 128 \
    --warmup 1 --duration 5 --rss-check "$@"
