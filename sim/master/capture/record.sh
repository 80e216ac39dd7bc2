#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# sim/master/capture/record.sh OUTDIR TEST_NAME...
# sim/master/capture/record.sh --keep OUTDIR    (then copy OUTDIR/*.txt to sim/master/capture/)
#
# Records the commands the library really sends: runs each named test of
# test/redlock-test with this script as REDIS_SERVER, which starts
# `redis-cli MONITOR` beside every redis-server the test starts.  Each
# server's stream lands in OUTDIR/<test>.<port>.mon (MONITOR's format; the
# commands scripts run are the lines of "[0 lua]").  MONITOR starts a few
# ms after its server: a stream may miss its first commands (replayed as
# they are, both sides see the same).  MONITOR never shows CONFIG, AUTH or
# CLIENT KILL: sim/master/capture/zz-library-extra.txt has them, written from the
# library's own strings.
#
# --keep: per test, the richest stream without the scripts' own commands,
# what only the tests send (DUMP, ROLE, SCAN...) and SCRIPT LOAD (kept
# once, in 00-handshake.txt: the difftest keeps loaded scripts from file
# to file), 120 commands at most, as OUTDIR/<test>.txt.  `make sim-diff` replays sim/master/capture/*.txt.
set -u
if [ "${SIM_CAPTURE_DIR:-}" != "" ]; then
    # as REDIS_SERVER: monitor, then become the server
    port=; prev=
    for a in "$@"; do
        [ "$prev" = --port ] && port=$a
        prev=$a
    done
    (
        i=0
        while [ $i -lt 500 ]; do
            if redis-cli -p "$port" ping >/dev/null 2>&1; then
                exec redis-cli -p "$port" monitor >"$SIM_CAPTURE_DIR/$SIM_CAPTURE_TEST.$port.mon" 2>/dev/null
            fi
            sleep 0.005
            i=$((i + 1))
        done
    ) &
    exec redis-server "$@"
fi
if [ "${1:-}" = --keep ] && [ $# -eq 2 ]; then
    cd "$2" || exit 2
    # what only the tests send (the simulated master does not know it)
    plain() {
        grep -av '\[0 lua\]' "$1" | grep -a '^[0-9]*\.[0-9]* \[' |
            grep -av '\] "\(DUMP\|ROLE\|SCAN\|ZRANGEBYSCORE\|RPUSH\|DEBUG\|CONFIG" "SET\)"'
    }
    # the handshake: one connection's commands up to its last SCRIPT LOAD
    for f in *.mon; do
        n=$(grep -ac '"SCRIPT" "LOAD"' "$f")
        [ "$n" -ge 20 ] || continue
        conn=$(grep -a -m1 '"SCRIPT" "LOAD"' "$f" | sed 's/^[^[]*\[0 \([^]]*\)\].*/\1/')
        plain "$f" | grep -aF "[0 $conn]" |
            awk '/"SCRIPT" "LOAD"/ { if (seen[$0]++) next; last = NR } { l[NR] = $0 }
                 END { for (i = 1; i <= last; i++) if (i in l) print l[i] }' >00-handshake.txt
        break
    done
    for t in $(ls *.mon | sed 's/\.[0-9]*\.mon$//' | sort -u); do
        # the stream with the most kinds of command (EVALSHA: by script),
        # then the longest
        best=; most=-1
        for f in "$t".*.mon; do
            n=$(plain "$f" | grep -av '"SCRIPT" "LOAD"' |
                awk '{ k[$4 == "\"EVALSHA\"" ? $4 $5 : $4] = 1 } END { print length(k) * 100000 + NR }')
            [ "$n" -gt "$most" ] && { most=$n; best=$f; }
        done
        # a test's poll of PUBSUB: two in a row kept
        plain "$best" | grep -av '"SCRIPT" "LOAD"' |
            awk '/"PUBSUB"/ { if (++run > 2) next } !/"PUBSUB"/ { run = 0 } { print }' |
            head -120 >"$t.txt"
        [ -s "$t.txt" ] || rm -f "$t.txt"
    done
    exit 0
fi
[ $# -ge 2 ] || { echo "usage: $0 OUTDIR TEST_NAME... | --keep OUTDIR" >&2; exit 2; }
out=$1
shift
mkdir -p "$out"
SIM_CAPTURE_DIR=$(cd "$out" && pwd)
export SIM_CAPTURE_DIR
for t in "$@"; do
    SIM_CAPTURE_TEST=$t REDIS_SERVER=$(cd "$(dirname "$0")" && pwd)/record.sh \
        CHECK_RETRY=0 test/run.sh test/redlock-test "$t" | tail -1
done
