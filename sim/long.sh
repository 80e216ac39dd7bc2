#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# sim/long.sh SIM MINUTES BLOCK FIRST JOBS [ARGS...] -- make sim-long: blocks
# of BLOCK seeds from FIRST on, each in JOBS processes, until MINUTES have
# passed or a block has a violation or a failed run.  Each block's report,
# then "N seeds from F, V violations, M min: R seeds a minute".
set -u
sim=$1 minutes=$2 block=$3 first=$4 jobs=$5
shift 5
start=$(date +%s)
seed=$first rc=0
while :; do
    out=$("$sim" --seeds "$block" --first "$seed" --jobs "$jobs" "$@" 2>&1)
    rc=$?
    echo "$out" | grep -v '^seeds .*: traces' | grep -v ' seeds, 0 violations$' | tail -n 20
    echo "$out" | grep '^seeds .*: traces' | tr '\n' ' '
    echo "$out" | tail -n 1
    seed=$((seed + block))
    [ $rc -eq 0 ] || break
    [ $(($(date +%s) - start)) -lt $((minutes * 60)) ] || break
done
took=$(($(date +%s) - start))
[ $took -gt 0 ] || took=1
n=$((seed - first))
echo "$n seeds from $first, $([ $rc -eq 0 ] && echo 0 || echo 'some') violations or failures," \
     "$((took / 60)) min: $((n * 60 / took)) seeds a minute"
exit $rc
