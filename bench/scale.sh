#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/scale.sh -- does the hot-lock rate hold as clients are added?
#
#   sh bench/scale.sh [-r ROUNDS] [-d SECONDS] [-c "16 128 512"] [-b BENCH] [-- BENCH-ARGS]
#
# Runs redlock-bench's contend workload with --baseline (the raw hand-off
# chain, then the library) for every client count in turn, ROUNDS times,
# interleaved: round 1 runs every count, then round 2, and so on, so that a
# machine that speeds up or slows down during the run weighs on every
# count alike.  Reports per count the median acquisitions/s of the library
# and of the chain, and the rate as a share of the first count's: the
# median over rounds of the count's rate divided by the first count's in
# the same round (with the smallest and largest of those), for both.  The
# chain's share says what the machine itself loses with more clients
# (sockets, scheduling); the library's, next to it, what the library adds.
#
# Also per count, over the library's seconds of every round pooled (the
# per-second series of redlock-bench --hist, printed after each round's
# rates): their median and their 90th percentile, and that percentile as
# a share of the first count's.  Other load on a shared machine only ever
# takes rate away, for seconds at a time, and hits the rounds of one
# count more than another's by chance; the seconds' upper percentile is
# the rate the hand-offs sustain undisturbed, the median what the
# disturbed seconds cost.
#
# BENCH-ARGS replace the defaults below (the masters: --spawn N or
# addresses; anything else redlock-bench takes, except --clients,
# --duration, --baseline and --workload, which this script sets).
# Exit status: 0, 2 on bad usage, 1 when a run failed.
set -eu

rounds=6
duration=8
counts="16 128 512"
bench=bench/redlock-bench
defaults="--spawn 5 --threads 2 --hold 1 --retry-delay 10 --retry-jitter 5 --retry-count 100000 --warmup 1"

# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

usage() {
    echo "usage: sh bench/scale.sh [-r ROUNDS] [-d SECONDS] [-c \"16 128 512\"] [-b BENCH] [-- BENCH-ARGS]" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    -r | -d) round_opts "$@"; shift 2 ;;
    -c) [ $# -ge 2 ] || usage
        for k in $2; do posint "$k" || usage; done
        [ -n "$2" ] || usage
        counts=$2; shift 2 ;;
    -b) [ $# -ge 2 ] || usage; bench=$2; shift 2 ;;
    --) shift; defaults="$*"; break ;;
    *) usage ;;
    esac
done
[ -x "$bench" ] || { echo "bench/scale.sh: $bench: not an executable (make bench)" >&2; exit 2; }

out=$(mktemp)
rates=$(mktemp)
hist=$(mktemp)
secs=$(mktemp)
trap 'rm -f "$out" "$rates" "$hist" "$secs"' EXIT

r=1
while [ "$r" -le "$rounds" ]; do
    for k in $counts; do
        # shellcheck disable=SC2086
        if ! "$bench" --no-progress --workload contend --clients "$k" --duration "$duration" \
            --baseline --hist "$hist" $defaults >"$out" 2>&1; then
            echo "bench/scale.sh: round $r, $k clients: redlock-bench failed:" >&2
            tail -5 "$out" >&2
            exit 1
        fi
        # "  acquisitions/s    730.6 vs the raw hand-off chain's 724.5 = ..."
        line=$(grep "vs the raw hand-off chain's" "$out" | grep "acquisitions/s" | tail -1)
        lib=$(echo "$line" | awk '{print $2}')
        chain=$(echo "$line" | sed "s/.*chain's \([0-9.]*\).*/\1/")
        case "$lib$chain" in '' | *[!0-9.]*)
            echo "bench/scale.sh: round $r, $k clients: no comparison line in the report" >&2
            exit 1 ;;
        esac
        # the library's seconds: the "series" block's acquired_per_s column
        per=$(sed -n '/^# series/,$p' "$hist" | awk 'NF && $1 !~ /^#/ {printf " %s", $5}')
        echo "round $r: $k clients: library $lib/s, chain $chain/s; library per second:$per"
        echo "$r $k $lib $chain" >>"$rates"
        for v in $per; do echo "$k $v" >>"$secs"; done
    done
    r=$((r + 1))
done

first=${counts%% *}
awk -v first="$first" -v counts="$counts" "$rlb_awk_stats"'
function span(a, n) {
    range(a, n)
    return sprintf("%.1f-%.1f %%", 100 * lo, 100 * hi)
}
{ lib[$1, $2] = $3; chain[$1, $2] = $4; if ($1 > rounds) rounds = $1 }
END {
    nk = split(counts, ks, " ")
    printf "medians of %d rounds; share: the count'"'"'s rate over %d clients'"'"' in the same round\n", rounds, first
    for (i = 1; i <= nk; i++) {
        k = ks[i]
        for (r = 1; r <= rounds; r++) {
            l[r] = lib[r, k]; c[r] = chain[r, k]
            ls[r] = lib[r, k] / lib[r, first]; cs[r] = chain[r, k] / chain[r, first]
        }
        lm = median(l, rounds); cm = median(c, rounds)
        lsm = median(ls, rounds); csm = median(cs, rounds)
        lsp = span(ls, rounds); csp = span(cs, rounds)
        printf "%4d clients: library %.1f/s, share %.1f %% (%s); chain %.1f/s, share %.1f %% (%s); library/chain %.1f %%\n",
            k, lm, 100 * lsm, lsp, cm, 100 * csm, csp, 100 * lm / cm
    }
}' "$rates"
awk -v first="$first" -v counts="$counts" "$rlb_awk_stats"'
{ n[$1]++; v[$1, n[$1]] = $2 }
END {
    nk = split(counts, ks, " ")
    printf "the library per second, every round pooled: median, 90th percentile (nearest rank) and its share of %d clients'"'"'\n", first
    for (i = 1; i <= nk; i++) {
        k = ks[i]
        if (!n[k]) { printf "%4d clients: no whole second measured (-d below 1)\n", k; continue }
        for (j = 1; j <= n[k]; j++) a[j] = v[k, j]
        med[k] = median(a, n[k])
        r = int(0.9 * n[k] + 0.999999); if (r < 1) r = 1
        p90[k] = a[r]
        printf "%4d clients: %d s, median %.1f/s, 90th percentile %.1f/s, share %.1f %%\n",
            k, n[k], med[k], p90[k], (p90[first] > 0 ? 100 * p90[k] / p90[first] : 0)
    }
}' "$secs"
