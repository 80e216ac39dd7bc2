#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/clusters.sh -- what a lock costs on cluster votes against plain
# masters, and as the shards per vote grow (make bench-clusters).
#
#   sh bench/clusters.sh [-r ROUNDS] [-d SECONDS] [-n VOTES] [-s "1 2 3 4"]
#                        [-b BENCH] [-- BENCH-ARGS]
#
# Runs redlock-bench on VOTES plain masters (--spawn VOTES) and on VOTES
# Redis Clusters of S masters for every S of -s (--spawn VOTES --shards S),
# each run on votes of its own, ROUNDS times, interleaved and in alternating
# order (round 1: plain, then the shards in turn; round 2 backwards; ...),
# so that a machine that speeds up or slows down weighs on every shape
# alike.  Each run's figures are its JSON's "cost": cycles/s and the CPU
# per cycle (us) of the masters (every master of every vote), of the bench
# (the client) and both.
#
# Prints per shape the medians over the rounds, and its ratios to the plain
# masters of the same round (median, smallest and largest): the CPU per
# cycle of the masters, of the client and of both, and the rate; then the
# rate with one core per master: a vote's masters spend c_v = masters / VOTES
# us per lock; split evenly over S shards, one core each, a vote grants
# S x 1e6 / c_v locks/s; a client core, 1e6 / client.  On one machine every
# process shares its cores: the rate cannot grow with the shards, the CPU
# per lock is the figure measured.
#
# BENCH-ARGS are added to every run (the workload, --concurrency,
# --clients, ...; not --spawn, --shards, --duration or --json, which this
# script sets).  Exit status: 0, 2 on bad usage, 1 when a run failed.
set -eu

rounds=5
duration=3
votes=3
shards="1 2 3 4"
bench=bench/redlock-bench
extra=

# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

usage() {
    echo "usage: sh bench/clusters.sh [-r ROUNDS] [-d SECONDS] [-n VOTES] [-s \"1 2 3 4\"] [-b BENCH] [-- BENCH-ARGS]" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    -r | -d) round_opts "$@"; shift 2 ;;
    -n) [ $# -ge 2 ] && posint "$2" || usage; votes=$2; shift 2 ;;
    -s) [ $# -ge 2 ] && [ -n "$2" ] || usage
        for s in $2; do posint "$s" || usage; done
        shards=$2; shift 2 ;;
    -b) [ $# -ge 2 ] || usage; bench=$2; shift 2 ;;
    --) shift; extra="$*"; break ;;
    *) usage ;;
    esac
done
[ -x "$bench" ] || { echo "bench/clusters.sh: $bench: not an executable (make bench)" >&2; exit 2; }

out=$(mktemp)
figs=$(mktemp)
trap 'rm -f "$out" "$figs"' EXIT

# The number after "key": in the JSON's "cost" object ($out).
cost() {
    sed -n 's/.*"cost":{\([^}]*\)}.*/\1/p' "$out" | tr ',' '\n' | sed -n "s/^\"$1\":\([0-9.]*\)$/\1/p" |
        head -n 1
}

# A shape's name: "plain", "1 shard", "2 shards", ...
label() {
    case $1 in plain) echo plain ;; 1) echo "1 shard" ;; *) echo "$1 shards" ;; esac
}

# One run: shape "plain" or a number of shards; its line and its figures.
run() {
    case $1 in plain) opts="--spawn $votes" ;; *) opts="--spawn $votes --shards $1" ;; esac
    # shellcheck disable=SC2086
    if ! "$bench" --no-progress --json --duration "$duration" $opts $extra >"$out" 2>&1; then
        echo "bench/clusters.sh: round $r, $(label "$1"): redlock-bench failed:" >&2
        tail -5 "$out" >&2
        exit 1
    fi
    rate=$(cost cycles_per_s)
    srv=$(cost server_cpu_us_per_cycle)
    cli=$(cost client_cpu_us_per_cycle)
    case "$rate:$srv:$cli" in *::* | :* | *: | *[!0-9.:]*)
        echo "bench/clusters.sh: round $r, $(label "$1"): no cost in the JSON (the masters' CPU not available?)" >&2
        exit 1 ;;
    esac
    printf "round %d: %-8s %10.1f cycles/s, CPU per cycle: masters %6.2f us + client %6.2f us = %6.2f us\n" \
        "$r" "$(label "$1")" "$rate" "$srv" "$cli" "$(echo "$srv $cli" | awk '{print $1 + $2}')"
    echo "$r $1 $rate $srv $cli" >>"$figs"
}

shapes="plain $shards"
backwards=$(echo "$shapes" | awk '{for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "")}')
r=1
while [ "$r" -le "$rounds" ]; do
    if [ $((r % 2)) -eq 1 ]; then order=$shapes; else order=$backwards; fi
    for s in $order; do run "$s"; done
    r=$((r + 1))
done

awk -v shapes="$shapes" -v votes="$votes" "$rlb_awk_stats"'
function ratio(what, k,    r, a, m) {
    for (r = 1; r <= rounds; r++) a[r] = fig[what, r, k] / fig[what, r, "plain"]
    m = median(a, rounds)
    range(a, rounds)
    return sprintf("%.2f (%.2f-%.2f)", m, lo, hi)
}
function med(what, k,    r, a) {
    for (r = 1; r <= rounds; r++) a[r] = fig[what, r, k]
    return median(a, rounds)
}
{
    fig["rate", $1, $2] = $3; fig["srv", $1, $2] = $4; fig["cli", $1, $2] = $5
    fig["tot", $1, $2] = $4 + $5
    if ($1 > rounds) rounds = $1
}
END {
    n = split(shapes, sh, " ")
    printf "\nmedians of %d rounds, %d votes; ratios: to the plain masters of the same round, median (smallest-largest)\n", rounds, votes
    printf "%-8s %11s %22s %11s %11s   %-18s %-18s %-18s %-18s\n", "shape", "cycles/s", "CPU us/cycle: masters", "client", "both",
        "masters/plain", "client/plain", "both/plain", "rate/plain"
    for (i = 1; i <= n; i++) {
        k = sh[i]
        printf "%-8s %11.1f %22.2f %11.2f %11.2f   %-18s %-18s %-18s %-18s\n", (k == "plain" ? k : k " shard" (k == 1 ? "" : "s")),
            med("rate", k), med("srv", k), med("cli", k), med("tot", k),
            ratio("srv", k), ratio("cli", k), ratio("tot", k), ratio("rate", k)
    }
    printf "\none core per master (medians): a vote spends c_v = masters / %d us per lock, S shards grant S x 1e6 / c_v locks/s; a client core 1e6 / client\n", votes
    for (i = 1; i <= n; i++) {
        k = sh[i]; s = (k == "plain" ? 1 : k)
        cv = med("srv", k) / votes; cc = med("cli", k)
        printf "%-8s c_v = %.2f / %d = %.2f us: %d x 1e6 / %.2f = %.0f locks/s a vote; client 1e6 / %.2f = %.0f locks/s a core\n",
            (k == "plain" ? k : k " shard" (k == 1 ? "" : "s")), med("srv", k), votes, cv, s, cv, s * 1e6 / cv, cc, 1e6 / cc
    }
}' "$figs"
