#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# model/check.sh NAME EXPECT MODE "DEFINES"
#
# Checks one configuration of the model with Spin in tmp/model/NAME.
#   EXPECT  safe: no property may fail; unsafe: a counterexample must be
#           found (a mutant), its trail kept in tmp/model/NAME/trail.txt
#   MODE    full: an exhaustive search (exit 1 if it did not finish;
#           breadth first for a mutant: the shortest counterexample);
#           dfs: the same, depth first for a mutant too (where breadth
#           first needs too much memory; the trail may not be the shortest);
#           bitstate: a bitstate search of 2^33 bits (coverage < 100 %);
#           swarm: bitstate searches of 2^30 bits, each in its own random
#           order of processes and transitions (seeds 1 .. SWARM_RUNS,
#           default 4, each stopped after SWARM_SECONDS, default 300); a
#           mutant stops at its first counterexample.  States are summed,
#           the depth and memory are the largest.
# Prints one line: NAME, the verdict, states, depth, seconds, memory.
set -eu
[ $# -eq 4 ] || { echo "usage: $0 NAME safe|unsafe full|dfs|bitstate|swarm DEFINES" >&2; exit 2; }
name=$1 expect=$2 mode=$3 defs=$4
here=$(cd "$(dirname "$0")" && pwd)
dir=tmp/model/$name
rm -rf "$dir" && mkdir -p "$dir"
cp "$here"/*.pml "$dir"
cd "$dir"
case $mode in
full) opts="-DCOLLAPSE -DMEMLIM=16000" run="-w26"
      # a mutant: breadth first, for the shortest counterexample
      if [ "$expect" = unsafe ]; then opts="$opts -DBFS"; defs="$defs -DBFS_SEARCH"; fi ;;
dfs) opts="-DCOLLAPSE -DMEMLIM=16000" run="-w26" ;;
bitstate) opts="-DBITSTATE" run="-w33" ;;
swarm) opts="-DBITSTATE -DT_RAND -DP_RAND" run="-w30" ;;
*) echo "$0: mode full, dfs, bitstate or swarm, not $mode" >&2; exit 2 ;;
esac
# shellcheck disable=SC2086 # the defines are words
spin -a $defs redlock.pml >spin.out 2>&1 || { cat spin.out >&2; exit 2; }
# shellcheck disable=SC2086
cc -O2 -w -DSAFETY -DVECTORSZ=2048 $opts -o pan pan.c
# The figures of pan.out into s (states), d (depth), m (memory, MB); a
# run stopped by the time limit has only its last progress line.
figures() {
    s=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.out | tail -n 1)
    [ -n "$s" ] || s=$(sed -n 's/^Depth=.*States= *\([0-9.e+]*\).*/\1/p' pan.out | tail -n 1)
    d=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' pan.out | tail -n 1)
    [ -n "$d" ] || d=$(sed -n 's/^Depth= *\([0-9]*\).*/\1/p' pan.out | tail -n 1)
    m=$(sed -n 's/^ *\([0-9.]*\).*total actual memory usage.*/\1/p' pan.out | tail -n 1)
    [ -n "$m" ] || m=$(sed -n 's/^Depth=.*Memory= *\([0-9.]*\).*/\1/p' pan.out | tail -n 1)
}
start=$(date +%s)
# -E: a run that ends with clients waiting past the horizon is no error
if [ "$mode" = swarm ]; then
    seed=1 states=0 depth=0 mem=0 errors=0
    while [ "$seed" -le "${SWARM_RUNS:-4}" ]; do
        # shellcheck disable=SC2086
        timeout "${SWARM_SECONDS:-300}" ./pan -m400000 -E $run -RS$seed >pan.out 2>&1 || true
        figures
        states=$(awk -v a="$states" -v b="${s:-0}" 'BEGIN { printf "%.0f", a + b }')
        depth=$(awk -v a="$depth" -v b="${d:-0}" 'BEGIN { print (b > a ? b : a) }')
        mem=$(awk -v a="$mem" -v b="${m:-0}" 'BEGIN { print (b > a ? b : a) }')
        cp pan.out "pan.$seed"
        if grep -q "errors: [1-9]" pan.out; then errors=1; break; fi
        seed=$((seed + 1))
    done
    runs=$seed
    [ "$errors" = 1 ] || runs=$((seed - 1))
    secs=$(( $(date +%s) - start ))
    line="$name: swarm of $runs, states $states, depth $depth, ${secs} s, ${mem} MB each"
else
    # shellcheck disable=SC2086
    ./pan -m400000 -E $run >pan.out 2>&1 || true
    secs=$(( $(date +%s) - start ))
    errors=$(sed -n 's/.*errors: \([0-9]*\).*/\1/p' pan.out | tail -n 1)
    figures
    line="$name: states $s, depth $d, ${secs} s, ${m} MB"
    if [ -z "$errors" ]; then
        echo "$name: spin did not finish"; tail -n 5 pan.out >&2; exit 1
    fi
    if grep -q "reached -DMEMLIM bound\|max search depth too small" pan.out; then
        echo "$line: INCOMPLETE (memory or depth bound)"; exit 1
    fi
fi
if [ "$expect" = safe ]; then
    if [ "$errors" != 0 ]; then
        echo "$line: a property FAILED"
        spin -t -p -g $defs redlock.pml >trail.txt 2>&1 || true
        grep "assertion violated" pan.out >&2
        exit 1
    fi
    echo "$line: every property holds"
else
    if [ "$errors" = 0 ]; then
        echo "$line: the mutant found NO counterexample"; exit 1
    fi
    # shellcheck disable=SC2086
    spin -t -p -g $defs redlock.pml >trail.txt 2>&1 || true
    what=$(sed -n "s/.*text of failed assertion: //p" trail.txt | head -n 1)
    if [ -z "$what" ]; then     # not a property: an error of the model itself
        echo "$line: the model FAILED, not a property:"; grep -m 3 "violated\|Error" pan.out trail.txt >&2; exit 1
    fi
    echo "$line: counterexample, $what (trail: $dir/trail.txt)"
fi
