#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/regress.sh -- what the current code costs against an earlier commit's
# (make bench-regress [REF=commit] [ROUNDS=5]).
#
#   sh bench/regress.sh [-r ROUNDS] [-d SECONDS] [-n MASTERS] [-o OLD-BENCH]
#                       [-b NEW-BENCH] [REF]
#
# Builds REF's redlock-bench (git archive into tmp/bench-regress/<commit>,
# its own Makefile; kept for the next time) unless -o names one, starts
# MASTERS local redis-servers of its own, and runs three workloads with both
# benches in interleaved rounds (old then new, new then old, ...):
#   plain   lock/unlock cycles on distinct keys, 128 in flight
#   fenced  the same with fencing tokens (only the new bench when the old
#           one has no --fencing)
#   hot     one key, 16 clients (contend: acquire with retries, hold 1 ms)
# The masters are measured from outside, so the old bench needs no feature
# for it: INFO cpu (main thread) and INFO commandstats on every master
# before and after each run (the last reading once they are idle), divided
# by the cycles the run reports; the client's CPU per cycle and cycles/s
# are the bench's own (its JSON).  Prints per workload each new/old ratio's
# median over the rounds and its smallest and largest, both builds' medians,
# and the commands per cycle of each (scripts' own calls included, INFO
# left out); and the new build's fenced/plain ratio of the masters' CPU.
# Exit status: 0, 2 on bad usage, 1 when a build or a run failed.
set -eu

rounds=5
duration=4
masters=5
ref=a6ce73d
old=
new=bench/redlock-bench

# shellcheck source=bench/common.sh
. "$(dirname "$0")/common.sh"

usage() {
    echo "usage: sh bench/regress.sh [-r ROUNDS] [-d SECONDS] [-n MASTERS] [-o OLD-BENCH] [-b NEW-BENCH] [REF]" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    -r | -d) round_opts "$@"; shift 2 ;;
    -n) [ $# -ge 2 ] && posint "$2" || usage; masters=$2; shift 2 ;;
    -o) [ $# -ge 2 ] || usage; old=$2; shift 2 ;;
    -b) [ $# -ge 2 ] || usage; new=$2; shift 2 ;;
    -*) usage ;;
    *) [ $# -eq 1 ] || usage; ref=$1; shift ;;
    esac
done
[ -x "$new" ] || { echo "bench/regress.sh: $new: not an executable (make bench)" >&2; exit 2; }
command -v redis-server >/dev/null && command -v redis-cli >/dev/null ||
    { echo "bench/regress.sh: needs redis-server and redis-cli" >&2; exit 2; }

# ---- the old bench ------------------------------------------------------------

if [ -z "$old" ]; then
    sha=$(git rev-parse --verify --quiet "$ref^{commit}") ||
        { echo "bench/regress.sh: $ref: not a commit" >&2; exit 2; }
    dir=tmp/bench-regress/$sha
    old=$dir/bench/redlock-bench
    if [ ! -x "$old" ]; then
        echo "building $ref's bench in $dir ..."
        rm -rf "$dir"
        mkdir -p "$dir"
        git archive "$sha" | tar -x -C "$dir"
        if ! (cd "$dir" && make -s bench/redlock-bench) >"$dir.log" 2>&1; then
            echo "bench/regress.sh: building $ref's bench failed ($dir.log):" >&2
            tail -20 "$dir.log" >&2
            exit 1
        fi
    fi
    old_name="$ref ($(git rev-parse --short "$sha"))"
else
    [ -x "$old" ] || { echo "bench/regress.sh: $old: not an executable" >&2; exit 2; }
    old_name=$old
fi
new_name="the working tree (HEAD $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(
    git diff --quiet HEAD 2>/dev/null || echo ', modified'))"
[ "$new" = bench/redlock-bench ] || new_name=$new

# What a bench accepts: its --help.
accepts() {
    "$1" --help 2>/dev/null | grep -q -- "--$2\\b"
}
old_fencing=0
accepts "$old" fencing && old_fencing=1
accepts "$new" fencing || { echo "bench/regress.sh: $new has no --fencing" >&2; exit 2; }

# ---- the masters ----------------------------------------------------------------

work=$(mktemp -d)
pids=
ports=
cleanup() {
    for p in $pids; do kill "$p" 2>/dev/null || true; done
    for p in $pids; do wait "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Start a redis-server on a free port (a few tries); its port into $port.
start_master() {
    tries=0
    while [ $tries -lt 20 ]; do
        tries=$((tries + 1))
        port=$(( $(od -An -N2 -tu2 /dev/urandom | tr -d ' ') % 30000 + 20000 ))
        mkdir -p "$work/$port"
        redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
            --dir "$work/$port" --daemonize no --protected-mode no \
            --logfile "$work/$port/log" &
        pid=$!
        waited=0
        while [ $waited -lt 50 ] && kill -0 "$pid" 2>/dev/null; do
            if [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ]; then
                pids="$pids $pid"
                return 0
            fi
            sleep 0.1
            waited=$((waited + 1))
        done
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    echo "bench/regress.sh: cannot start a redis-server" >&2
    exit 1
}

i=0
while [ $i -lt "$masters" ]; do
    start_master
    ports="$ports $port"
    i=$((i + 1))
done
addrs=
for p in $ports; do addrs="$addrs 127.0.0.1:$p"; done

# One reading of all masters: "cpu SECONDS" (main threads', else the
# processes', user + sys, summed) and "cmd NAME CALLS USEC" lines (summed).
reading() {
    for p in $ports; do
        redis-cli -p "$p" info commandstats
        redis-cli -p "$p" info cpu
    done | tr -d '\r' | awk -F'[:,=]' '
        /^used_cpu_(sys|user)_main_thread:/ { main += $2; nmain++; next }
        /^used_cpu_(sys|user):/ { proc += $2; next }
        /^cmdstat_/ { n = substr($1, 9); c[n] += $3; u[n] += $5 }
        END {
            printf "cpu %.6f\n", nmain == 2 * '"$masters"' ? main : proc
            for (n in c) print "cmd", n, c[n], u[n]
        }'
}

# The commands counted in a reading, INFO left out.
calls_of() {
    awk '$1 == "cmd" && $2 != "info" { n += $3 } END { print n + 0 }' "$1"
}

# The reading once the masters are idle: a master slower than the quorum
# still works on a run's requests after its bench exited.
settled_reading() {
    reading >"$1"
    tries=0
    while [ $tries -lt 100 ]; do
        tries=$((tries + 1))
        sleep 0.05
        reading >"$1.next"
        if [ "$(calls_of "$1")" = "$(calls_of "$1.next")" ]; then
            mv "$1.next" "$1"
            return 0
        fi
        mv "$1.next" "$1"
    done
}

# ---- the runs ---------------------------------------------------------------------

plain="--workload cycle --concurrency 128"
fenced="$plain --fencing"
hot="--workload contend --clients 16 --hold 1 --retry-delay 10 --retry-jitter 5 --retry-count 100000"
runs=$work/runs        # build workload round cycles cycles_per_s client_cpu_s masters_cpu_s
cmds=$work/cmds        # build workload calls usec name (summed over rounds below)
: >"$runs"
: >"$cmds"

# run BUILD(old|new) WORKLOAD ROUND: one run, measured from outside.
run() {
    case $1 in old) bin=$old ;; *) bin=$new ;; esac
    case $2 in plain) args=$plain ;; fenced) args=$fenced ;; *) args=$hot ;; esac
    settled_reading "$work/before"
    # shellcheck disable=SC2086
    if ! timeout -k 5 "$(awk -v d="$duration" 'BEGIN { print int(3 * d + 60) }')" \
        "$bin" --no-progress --json --warmup 0 --duration "$duration" $args $addrs \
        >"$work/out" 2>"$work/err"; then
        echo "bench/regress.sh: round $3, $2, $1 build: redlock-bench failed:" >&2
        tail -5 "$work/err" "$work/out" >&2
        exit 1
    fi
    settled_reading "$work/after"
    # the result's figures (the first of each name: the result comes first)
    cycles=$(grep -o '"cycles":[0-9]*' "$work/out" | head -1 | cut -d: -f2)
    rate=$(grep -o '"cycles_per_s":[0-9.]*' "$work/out" | head -1 | cut -d: -f2)
    ccpu=$(grep -o '"cpu_s":[0-9.]*' "$work/out" | head -1 | cut -d: -f2)
    case "$cycles" in '' | 0) echo "bench/regress.sh: round $3, $2, $1 build: no cycles" >&2; exit 1 ;; esac
    mcpu=$(awk '$1 == "cpu" { print $2 }' "$work/before" "$work/after" |
        awk 'NR == 1 { a = $1 } NR == 2 { printf "%.6f", $1 - a }')
    echo "$1 $2 $3 $cycles $rate $ccpu $mcpu" >>"$runs"
    awk -v b="$1" -v w="$2" '
        FNR == NR { if ($1 == "cmd") { c[$2] = $3; u[$2] = $4 }; next }
        $1 == "cmd" && $2 != "info" && $3 > c[$2] { print b, w, $3 - c[$2], $4 - u[$2], $2 }
    ' "$work/before" "$work/after" >>"$cmds"
    awk -v b="$1" -v w="$2" -v r="$3" -v c="$cycles" -v s="$rate" -v cc="$ccpu" -v mc="$mcpu" 'BEGIN {
        printf "round %d: %-6s %s  %9.1f cycles/s  masters %6.2f us, client %5.2f us per cycle\n",
            r, w, b, s, mc * 1e6 / c, cc * 1e6 / c }'
}

echo "old: $old_name"
echo "new: $new_name"
echo "$masters masters on loopback (ports$ports), $rounds rounds of $duration s a run"
# a short run first, not counted: the servers' memory and the caches warm
run new plain 0 >/dev/null
: >"$runs"
: >"$cmds"

r=1
while [ "$r" -le "$rounds" ]; do
    # the order alternates: old first in odd rounds, new first in even ones
    if [ $((r % 2)) -eq 1 ]; then first=old second=new; else first=new second=old; fi
    for w in plain fenced hot; do
        for b in $first $second; do
            [ "$w$b" = fencedold ] && [ $old_fencing = 0 ] && continue
            run "$b" "$w" "$r"
        done
    done
    r=$((r + 1))
done

# ---- the summary ------------------------------------------------------------------

echo
echo "new/old: the median over the rounds of each round's ratio (smallest-largest); each build's median"
awk -v rounds="$rounds" -v oldf="$old_fencing" "$rlb_awk_stats"'
function show(label, w, k, unit, fmt,    r, n, o, nw) {
    for (r = 1; r <= rounds; r++) {
        x[r] = v["new", w, r, k] / v["old", w, r, k]
        o[r] = v["old", w, r, k]; nw[r] = v["new", w, r, k]
    }
    m = median(x, rounds); range(x, rounds)
    printf "  %-24s %5.3f (%.3f-%.3f)   old " fmt "%s, new " fmt "%s\n", label, m, lo, hi,
        median(o, rounds), unit, median(nw, rounds), unit
}
function own(label, w, k, unit, fmt,    r, nw) {
    for (r = 1; r <= rounds; r++) nw[r] = v["new", w, r, k]
    printf "  %-24s new " fmt "%s\n", label, median(nw, rounds), unit
}
function ratio(label, a, b, k,    r) {
    for (r = 1; r <= rounds; r++) x[r] = v["new", a, r, k] / v["new", b, r, k]
    m = median(x, rounds); range(x, rounds)
    printf "  %-24s %5.3f (%.3f-%.3f)\n", label, m, lo, hi
}
FILENAME == ARGV[1] {
    # per cycle: cycles/s, the client'"'"'s and the masters'"'"' CPU in us
    v[$1, $2, $3, "rate"] = $5
    v[$1, $2, $3, "client"] = $6 * 1e6 / $4
    v[$1, $2, $3, "masters"] = $7 * 1e6 / $4
    cyc[$1, $2] += $4
    next
}
{ calls[$1, $2, $5] += $3; usec[$1, $2, $5] += $4; names[$1, $2] = names[$1, $2] " " $5 }
function commands(b, w,    s, k, n, i, j, t, line) {
    # the names, busiest first
    n = split(names[b, w], s, " ")
    k = 0
    for (i = 1; i <= n; i++) if (!(s[i] in seen)) { seen[s[i]] = 1; l[++k] = s[i] }
    for (i in seen) delete seen[i]
    for (i = 2; i <= k; i++)
        for (j = i; j > 1 && calls[b, w, l[j - 1]] < calls[b, w, l[j]]; j--) { t = l[j]; l[j] = l[j - 1]; l[j - 1] = t }
    line = ""
    for (i = 1; i <= k; i++)
        line = line sprintf("%s%s %.2f (%.2f us)", i > 1 ? ", " : "", l[i],
            calls[b, w, l[i]] / cyc[b, w], usec[b, w, l[i]] / calls[b, w, l[i]])
    return line
}
END {
    split("plain fenced hot", ws, " ")
    title["plain"] = "plain cycle, 128 in flight"
    title["fenced"] = "fenced cycle (--fencing), 128 in flight"
    title["hot"] = "hot key, 16 clients (contend, hold 1 ms)"
    for (i = 1; i <= 3; i++) {
        w = ws[i]
        print title[w]
        if (w == "fenced" && !oldf) {
            print "  (the old bench has no --fencing: the new build alone)"
            own("masters'"'"' CPU per cycle", w, "masters", " us", "%.2f")
            own("client CPU per cycle", w, "client", " us", "%.2f")
            own("cycles/s", w, "rate", "", "%.1f")
        } else {
            show("masters'"'"' CPU per cycle", w, "masters", " us", "%.2f")
            show("client CPU per cycle", w, "client", " us", "%.2f")
            show("cycles/s", w, "rate", "", "%.1f")
            printf "  commands per cycle, old: %s\n", commands("old", w)
        }
        printf "  commands per cycle, new: %s\n", commands("new", w)
    }
    print "new build, fenced/plain (the same round'"'"'s runs)"
    ratio("masters'"'"' CPU per cycle", "fenced", "plain", "masters")
    ratio("client CPU per cycle", "fenced", "plain", "client")
    if (oldf) {
        print "old build, fenced/plain"
        for (r = 1; r <= rounds; r++) x[r] = v["old", "fenced", r, "masters"] / v["old", "plain", r, "masters"]
        m = median(x, rounds); range(x, rounds)
        printf "  %-24s %5.3f (%.3f-%.3f)\n", "masters'"'"' CPU per cycle", m, lo, hi
    }
}' "$runs" "$cmds"
