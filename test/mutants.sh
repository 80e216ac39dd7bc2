#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/mutants.sh BINARY TABLE [MUTANT...] -- `make mutants-suite`.
#
# TABLE (docs/mutants.md) has a row per mutant: | `NAME` | what | `test`, `test` |,
# or "none survives" in the last column.  The named tests of every row
# must pass with no mutant, then each row's tests must all fail with its
# mutant on (REDLOCK_MUTANT=NAME, no second run of a test; a second round
# of them all when one passed): the mutant is killed.
# A row with no test survives (the suite misses it).  The last line is
# "K of M mutants killed"; the exit status is 1 when a row's tests pass
# without its mutant, or do not all fail with it.  MUTANT...: those rows
# only.
set -u
bin=$1 table=$2
shift 2
only=" $* "
here=$(cd "$(dirname "$0")/.." && pwd) || exit 2
run() { sh "$here/test/run.sh" "$bin" "$@"; }

rows=$(awk -F'|' '$2 ~ /^ *`[A-Z_]+` *$/ {
    name = $2; gsub(/[ `]/, "", name)
    tests = ""; s = $(NF - 1)
    while (match(s, /`[a-z0-9_]+`/)) {
        tests = tests " " substr(s, RSTART + 1, RLENGTH - 2); s = substr(s, RSTART + RLENGTH)
    }
    print name tests
}' "$table")
[ -n "$rows" ] || { echo "mutants: no rows in $table"; exit 2; }
for m in "$@"; do
    echo "$rows" | grep -q "^$m\( \|$\)" || { echo "mutants: no row for $m in $table"; exit 2; }
done

"$bin" --list > /dev/null || exit 2
bad=0
all=$(echo "$rows" | while read -r name tests; do
    case "$only" in "  ") ;; *" $name "*) ;; *) continue ;; esac
    echo "$tests"
done | tr ' ' '\n' | sort -u | tr '\n' ' ')

# without a mutant every named test passes (a failure may run again: the
# runner's recap names it flaky)
if [ -n "$(echo $all)" ]; then
    echo "mutants: without a mutant, the $(echo $all | wc -w) tests named"
    out=$(REDLOCK_MUTANT= run $all 2>&1)
    echo "$out" | tail -n 1
    echo "$out" | grep -q ' 0 failed$' || { echo "$out" | grep '^FAILED'; bad=1; }
fi

killed=0 total=0
while read -r name tests; do
    case "$only" in "  ") ;; *" $name "*) ;; *) continue ;; esac
    total=$((total + 1))
    if [ -z "$tests" ]; then
        line="mutant $name: survives (no test names it)"
    else
        # (a name runs every test it is part of: all must fail; the tests
        # time real servers, so a second round may catch what the first
        # missed: said so)
        for round in 1 2; do
            out=$(REDLOCK_MUTANT=$name CHECK_RETRY=0 run $tests 2>&1)
            last=$(echo "$out" | tail -n 1)
            echo "$last" | grep -q '^0 passed, [1-9][0-9]* failed$' && break
        done
        if echo "$last" | grep -q '^0 passed, [1-9][0-9]* failed$'; then
            killed=$((killed + 1))
            line="mutant $name: killed ($last$([ $round = 2 ] && echo ", in a second round"))"
        else
            bad=1
            line="mutant $name: NOT killed ($last)"
        fi
    fi
    echo "$line"
done <<ROWS
$rows
ROWS
echo "$killed of $total mutants killed"
exit $bad
