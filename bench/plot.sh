#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# bench/plot.sh FILE [OUTDIR] -- draw a redlock-bench run with gnuplot, as SVG.
#
#   FILE is what `redlock-bench --hist FILE` wrote, or what `--json` printed.
#   From a --hist file: OUTDIR/latency.svg (each operation's latency against
#   its percentile, log scales) and OUTDIR/throughput.svg (ops/s and the
#   acquire p50/p99 of each second).  From a JSON file: throughput.svg only
#   (the JSON has percentiles, not the histograms).  OUTDIR: the current
#   directory.  Also `make plot BENCH_HIST=FILE` or `make plot BENCH_JSON=FILE`.
set -eu
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 FILE [OUTDIR]   (FILE: redlock-bench --hist output, or --json output)" >&2
    exit 2
fi
in=$1
out=${2:-.}
command -v gnuplot >/dev/null 2>&1 || { echo "$0: gnuplot is not installed (Debian: gnuplot-nox)" >&2; exit 2; }
[ -r "$in" ] || { echo "$0: cannot read $in" >&2; exit 2; }
mkdir -p "$out"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rlplot.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

if [ "$(head -c 1 "$in")" = "{" ]; then
    # the library run's series (the first "series" in the object), one row a
    # second, in the --hist file's columns
    data=$tmp/series.dat
    sed -n 's/.*"result":{.*"series":\[\([^]]*\)\].*/\1/p' "$in" | tr -d '{' | tr '}' '\n' | awk '
        function v(name,    i, n, kv) {
            n = split($0, kv, ",")
            for (i = 1; i <= n; i++)
                if (index(kv[i], "\"" name "\":") == 1)
                    return substr(kv[i], length(name) + 4)
            return 0
        }
        { sub(/^,/, "") }
        NF { print v("t"), v("ops"), v("ops_per_s"), v("acquired"), v("acquired_per_s"),
                   v("failures"), v("acq_p50_us"), v("acq_p99_us"), v("acq_max_us") }' > "$data"
    series="\"$data\""
    blocks=""
else
    data=$in
    series="\"$data\" index \"series\""
    blocks=$(sed -n 's/^# \(acquire\|release\|extend\|handoff_all\|handoff_other\)$/\1/p' "$in")
fi
if [ ! -s "$data" ] || { [ "$data" != "$in" ] && [ "$(wc -l < "$data")" -eq 0 ]; }; then
    echo "$0: no per-second series in $in" >&2
    exit 1
fi

{
    echo 'set terminal svg size 800,500 dynamic enhanced font "sans,11" background "white"'
    echo "set output \"$out/throughput.svg\""
    echo 'set title "throughput and acquire latency per second"'
    echo 'set xlabel "seconds"; set ylabel "operations/s"; set y2label "acquire latency (us)"'
    echo 'set ytics nomirror; set y2tics; set logscale y2; set key outside bottom center horizontal'
    echo "plot $series using 1:3 with linespoints title 'ops/s' axes x1y1, \\"
    echo "     $series using 1:(\$7 > 0 ? \$7 : 1/0) with lines title 'acquire p50' axes x1y2, \\"
    echo "     $series using 1:(\$8 > 0 ? \$8 : 1/0) with lines title 'acquire p99' axes x1y2"
    if [ -n "$blocks" ]; then
        echo "set output \"$out/latency.svg\""
        echo 'set title "latency by percentile"; unset y2tics; unset y2label; set ytics mirror'
        echo 'set xlabel "percentile"; set ylabel "latency (us)"; set logscale xy'
        echo 'set xtics ("50%%" 2, "90%%" 10, "99%%" 100, "99.9%%" 1000, "99.99%%" 10000, "99.999%%" 100000)'
        sep="plot"
        for b in $blocks; do
            printf '%s "%s" index "%s" using 4:1 with steps title "%s"' "$sep" "$in" "$b" "$b"
            sep=", \\
    "
        done
        echo
    fi
} > "$tmp/plot.gp"
gnuplot "$tmp/plot.gp"
echo "$out/throughput.svg${blocks:+ $out/latency.svg}"
