#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# sim/mutants.sh SIM TABLE [NAME...] -- make sim-mutants: for each mutant of
# TABLE (all, or those named), the simulator SIM (built with the mutants)
# runs seeds from 1 until the first violation, at most the mutant's budget;
# then the same seeds without the mutant must show none (else the options
# alone break something: not a find).  Ends "K of M mutants found".
set -u
sim=$1 table=$2
shift 2
found=0 total=0
while read -r name budget args; do
    case "$name" in '' | '#'*) continue ;; esac
    if [ $# -gt 0 ] && ! echo " $* " | grep -q " $name "; then
        continue
    fi
    total=$((total + 1))
    # shellcheck disable=SC2086
    out=$("$sim" --seeds "$budget" --first-violation --mutant "$name" $args 2>&1)
    line=$(echo "$out" | grep '^first violation at seed')
    if [ -z "$line" ]; then
        echo "$name: not found in $budget seeds"
        continue
    fi
    seed=$(echo "$line" | sed 's/^first violation at seed \([0-9]*\),.*/\1/')
    # shellcheck disable=SC2086
    base=$("$sim" --seeds "$seed" $args 2>&1 | tail -n 1)
    case "$base" in
    *" seeds, 0 violations") ;;
    *)
        echo "$name: seed $seed, but without the mutant too ($base)"
        continue
        ;;
    esac
    found=$((found + 1))
    echo "$name: found at seed $seed ($seed seeds; replay: $sim --seed $seed --mutant $name $args --trace)"
done < "$table"
echo "$found of $total mutants found"
[ "$found" -eq "$total" ]
