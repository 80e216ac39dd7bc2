#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/soak/failover.sh -- prove mutual exclusion while masters and
# clients fail.  Starts N local redis-server masters on free loopback ports
# (in a mktemp -d directory, removed on exit), runs K rl-worker processes
# contending for a few resources, injects the scenarios' faults while they
# run, then runs rl-check on the logs (rl-util: the clock, free ports,
# PING).  Exit status: 0 no overlap, 1 overlap
# (or no acquisition at all), 2 set-up error.
#
#   sh test/soak/failover.sh [options] SCENARIO...
#
# Scenarios (run in the order given, one after the other, while the workers
# keep running):
#   kill     kill -9 a minority of the masters, restart them after --down ms
#   pause    SIGSTOP one master for --down ms, then SIGCONT
#   outage   kill -9 a majority (full quorum outage), restart after --down ms
#   gcpause  a worker stops (SIGSTOP) while holding a lock, for 2 x ttl +
#            200 ms, then SIGCONT: the Kleppmann "GC pause" case
#   aof      (turns on --aof) kill -9 a minority and restart at once, then a
#            majority, restart at once: safe only thanks to appendfsync always
#   crash    a worker is kill -9'd while it holds (it stops itself right after
#            an acquire, as for gcpause, and is killed stopped); a new worker
#            takes its place (log worker-J-cN.log): the crashed holder's lock
#            or permit frees itself only by its ttl on the masters
#   short    kill pause outage gcpause   (the CI run, about 15 s)
#   all      kill pause outage gcpause aof
#   soak     repeat kill pause outage gcpause (aof with --aof) until
#            --seconds have passed
#   mixed    one round of every fault kind below, in a random order with
#            random parameters drawn from --seed (rl-schedule: the same seed
#            gives the same schedule); masters behind an rlproxy; workers of four
#            kinds (blocking, async with loop blocks, small max_pending),
#            extending while they hold (--extend-pct), half of the extends
#            with a shorter ttl
#   random   the same, round after round, until --seconds have passed (or
#            --acquisitions were made)
#   Fault kinds of mixed/random (docs/failover.md; --kinds "K1 K2 ..." keeps
#   only those): slow-minority slow-majority (rlproxy latency up, down or
#   both, around the node timeout), loop-block (an async worker's event loop
#   busy-waits longer than the node timeout while an operation is in
#   flight), setreset (rlproxy resets a connection right after forwarding a
#   SET), hostile-line hostile-error hostile-garbage (rlproxy answers an
#   endless line, a 4 MiB error, garbage), kill, pause, outage, gcpause.
#
# Every worker runs the validity auditor (rl-worker.c): any violation fails
# the check like an overlap.
#
# Options:
#   --masters N (5)  --workers K (4)  --resources R (3; 6 with --kind multi)  --ttl MS (300)
#   --hold-min MS (1)  --hold-max MS (5): how long a worker holds a lock
#   --node-timeout MS (100)  --down MS (1000)  --gap MS (700)
#   --lead MS (1000, before the first fault)  --tail MS (1000, after the last)
#   --seconds S (soak duration, 300)  --aof (all masters with --appendonly yes
#   --appendfsync always)  --keep (keep the directory with logs)
#   --seed N (schedule and workers' random choices; default: from the clock,
#   printed)  --kinds LIST  --extend-pct P (0; 40 in mixed/random)
#   --idle-max MS (3)  --acquisitions N (random: stop once N acquisitions
#   were logged)  --proxy (masters behind rlproxy in any scenario)
#   --fencing (locks with fencing tokens: the check also requires every
#   resource's tokens to grow in acquisition order)  --watchdog (the async
#   workers' locks are kept by the library's watchdog, held ttl/2..3 x ttl)
#   --kind mutex|reentrant|rw|multi|semaphore (mutex; rl-worker --kind: reentrant
#   workers take 1..3 holds and pairs of workers share an owner id, rw
#   workers read or write (--writers-pct P, 33), multi workers lock 2..3 of
#   the resources, semaphore workers take one of --permits P (2) permits; the
#   auditor checks mutex runs only; fencing where the kind has it: not
#   readers, multi nor semaphore).  Semaphore runs default to --resources 1
#   (every worker on one semaphore) and end with a scan of the masters: once
#   every worker has stopped (released), any key left there under the
#   resources' prefix (but the waiters' registry and fencing counters) is a
#   leftover (the faults file's Z line; rl-check fails
#   on it).  --emulate-permits N (TEST ONLY): the workers' semaphore is N
#   mutexes per resource (rl-worker --emulate-permits): N = P a correct one,
#   N > P one that hands out too many permits (the check must fail)
#   --audit-period MS (20)  --overreport MS (TEST ONLY: worker 0 tells its
#   auditor MS more validity than it holds; the check must fail)
#   --clients-per-worker C (0: one client per worker): every worker process
#   runs C independent clients (rl-worker --clients: async API, each client
#   its own connections, locks and log, so the check sees K x C clients;
#   mutex locks, no auditor, no --watchdog); with --resources 1 they all
#   contend for one key (docs/failover.md, "Many clients on one key")
#   --connect-timeout MS (300; with C clients per worker 300 + 50 x C): the
#   workers' handshake budget.  A worker's C clients connect to every
#   master at once, and each handshake is dropped and begun again once the
#   budget is spent: under ASan on 2 cores, 32 clients per worker needed
#   up to 0.8 s to be all connected, and with 300 ms none ever was
#
# Without persistence a master must stay down at least one ttl (--down >=
# --ttl) before it comes back empty, or a second client can get a lock that
# is still held (docs/safety.md, "the known unsafe case"); the script refuses
# such settings unless --unsafe is given (to watch the checker catch it).
set -u

here=$(cd "$(dirname "$0")" && pwd)
WORKER=${RL_WORKER:-$here/rl-worker}
CHECK=${RL_CHECK:-$here/rl-check}
SCHEDULE=$here/rl-schedule
UTIL=$here/rl-util
PROXY=${RL_PROXY:-$here/../rlproxy}
REDIS=${REDIS_SERVER:-redis-server}

HOLD_MIN=1 HOLD_MAX=""
N=5 K=4 R="" TTL=300 NODE_TIMEOUT=100 DOWN=1000 GAP=700 LEAD=1000 TAIL=1000
SOAK=300 AOF=0 KEEP=0 UNSAFE=0 scenarios=""
SEED="" KINDS="" EXTEND_PCT="" IDLE_MAX=3 ACQ_TARGET=0 USE_PROXY=0 MIX=0 FENCING="" WATCHDOG=""
AUDIT_PERIOD=20 OVERREPORT=0 KIND=mutex WRITERS_PCT=33 CPW=0 PERMITS=2 EMULATE=0
CONNECT_TIMEOUT=""

die() { echo "failover: $*" >&2; exit 2; }

while [ $# -gt 0 ]; do
    case "$1" in
    --masters) N=$2; shift ;;
    --workers) K=$2; shift ;;
    --resources) R=$2; shift ;;
    --ttl) TTL=$2; shift ;;
    --hold-min) HOLD_MIN=$2; shift ;;
    --hold-max) HOLD_MAX=$2; shift ;;
    --node-timeout) NODE_TIMEOUT=$2; shift ;;
    --down) DOWN=$2; shift ;;
    --gap) GAP=$2; shift ;;
    --lead) LEAD=$2; shift ;;
    --tail) TAIL=$2; shift ;;
    --seconds) SOAK=$2; shift ;;
    --aof) AOF=1 ;;
    --keep) KEEP=1 ;;
    --unsafe) UNSAFE=1 ;;
    --seed) SEED=$2; shift ;;
    --kinds) KINDS=$2; shift ;;
    --extend-pct) EXTEND_PCT=$2; shift ;;
    --fencing) FENCING=--fencing ;;
    --watchdog) WATCHDOG=--watchdog ;;
    --idle-max) IDLE_MAX=$2; shift ;;
    --acquisitions) ACQ_TARGET=$2; shift ;;
    --proxy) USE_PROXY=1 ;;
    --audit-period) AUDIT_PERIOD=$2; shift ;;
    --overreport) OVERREPORT=$2; shift ;;
    --kind) KIND=$2; shift ;;
    --writers-pct) WRITERS_PCT=$2; shift ;;
    --permits) PERMITS=$2; shift ;;
    --emulate-permits) EMULATE=$2; shift ;;
    --clients-per-worker) CPW=$2; shift ;;
    --connect-timeout) CONNECT_TIMEOUT=$2; shift ;;
    -h | --help) sed -n '2,/^set -u$/p' "$0" | sed '$d'; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) scenarios="$scenarios $1" ;;
    esac
    shift
done
[ -n "$scenarios" ] || scenarios=" short"
expanded=""
for s in $scenarios; do
    case "$s" in
    short) expanded="$expanded kill pause outage gcpause" ;;
    all) expanded="$expanded kill pause outage gcpause aof" ;;
    kill | pause | outage | gcpause | crash | soak) expanded="$expanded $s" ;;
    mixed | random) expanded="$expanded $s"; MIX=1; USE_PROXY=1 ;;
    aof) expanded="$expanded aof"; AOF=1 ;;
    *) die "unknown scenario $s" ;;
    esac
done
[ "$N" -ge 3 ] || die "--masters must be at least 3"
[ "$K" -ge 1 ] || die "--workers must be at least 1"
case "$KIND" in
mutex | reentrant | rw | multi | semaphore) ;;
*) die "unknown --kind $KIND" ;;
esac
# a multi lock takes 2..3 resources: more of them, or the workers mostly wait
if [ -z "$R" ]; then
    case "$KIND" in
    multi) R=6 ;;
    semaphore) R=1 ;;
    *) R=3 ;;
    esac
fi
if [ "$AOF" = 0 ] && [ "$DOWN" -lt "$TTL" ] && [ "$UNSAFE" = 0 ]; then
    die "--down $DOWN < --ttl $TTL without --aof restarts masters that forget held locks (add --unsafe to do it anyway)"
fi
[ -n "$CONNECT_TIMEOUT" ] || CONNECT_TIMEOUT=$((300 + 50 * CPW))
if [ "$CPW" -gt 0 ]; then
    [ "$KIND" = mutex ] && [ -z "$WATCHDOG" ] && [ "$OVERREPORT" = 0 ] ||
        die "--clients-per-worker: mutex locks only, without --watchdog and --overreport"
fi
[ -x "$WORKER" ] && [ -x "$CHECK" ] && [ -x "$SCHEDULE" ] && [ -x "$UTIL" ] || die "build the programs first: make failover"
# many clients hold many connections (each through the proxy: two fds);
# the soft limit of open files is often 1024
ulimit -n "$(ulimit -H -n)" 2>/dev/null || :
if [ "$USE_PROXY" = 1 ]; then
    [ -x "$PROXY" ] || die "build the proxy first: make test/rlproxy"
fi
[ -n "$SEED" ] || SEED=$(( $("$UTIL" now) % 1000000000 + 1 ))
if [ -z "$HOLD_MAX" ]; then
    if [ "$MIX" = 1 ]; then HOLD_MAX=60; else HOLD_MAX=5; fi
fi
if [ -z "$EXTEND_PCT" ]; then
    if [ "$MIX" = 1 ]; then EXTEND_PCT=40; else EXTEND_PCT=0; fi
fi
command -v "$REDIS" >/dev/null 2>&1 || die "redis-server not found (set REDIS_SERVER)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/rl-failover.XXXXXX") || die "mktemp failed"
master_pids="" worker_pids="" proxy_pid=""

cleanup() {
    for p in $worker_pids $master_pids $proxy_pid; do
        kill -CONT "$p" 2>/dev/null
        kill -9 "$p" 2>/dev/null
    done
    for p in $worker_pids $master_pids $proxy_pid; do
        wait "$p" 2>/dev/null
    done
    if [ "$KEEP" = 1 ]; then
        echo "failover: logs kept in $dir"
    else
        rm -rf "$dir"
    fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

now() { "$UTIL" now; }
T0=$(now)
ms_sleep() { sleep "$(awk "BEGIN { print $1 / 1000 }")"; }
say() { printf '[%7.3f s] %s\n' "$(awk "BEGIN { print ($(now) - $T0) / 1e6 }")" "$*"; }
get() { eval "printf '%s' \"\${$1}\""; }

# ---- masters -----------------------------------------------------------
# start_master I: (re)start master I on its port (picked on the first start)
start_master() {
    i=$1
    mdir=$dir/m$i
    mkdir -p "$mdir"
    tries=0
    while :; do
        port=$(get "port_$i")
        if [ -z "$port" ]; then
            port=$("$UTIL" free-port) || die "no free port"
        fi
        if [ "$AOF" = 1 ]; then
            persist="--appendonly yes --appendfsync always"
        else
            persist="--appendonly no"
        fi
        # shellcheck disable=SC2086
        "$REDIS" --port "$port" --bind 127.0.0.1 --save "" $persist --dir "$mdir" \
            --daemonize no --protected-mode no --logfile "$mdir/redis.log" &
        pid=$!
        deadline=$(( $(now) + 5000000 ))
        while ! "$UTIL" ping "$port" 2>/dev/null; do
            if ! kill -0 "$pid" 2>/dev/null || [ "$(now)" -gt "$deadline" ]; then
                kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
                pid=""
                break
            fi
            ms_sleep 5
        done
        if [ -n "$pid" ]; then
            eval "port_$i=$port pid_$i=$pid"
            master_pids="$master_pids $pid"
            return 0
        fi
        tries=$((tries + 1))
        # a port picked on the first start may have been taken meanwhile
        if [ -n "$(get "pid_$i")" ] || [ "$tries" -ge 5 ]; then
            die "master $i did not start on port $port (see $mdir/redis.log)"
        fi
    done
}
kill_master() {
    p=$(get "pid_$1")
    kill -9 "$p" 2>/dev/null
    wait "$p" 2>/dev/null
}

i=0
while [ $i -lt "$N" ]; do
    eval "port_$i= pid_$i="
    start_master $i
    i=$((i + 1))
done
addrs=""
i=0
while [ $i -lt "$N" ]; do
    addrs="$addrs${addrs:+,}127.0.0.1:$(get "port_$i")"
    i=$((i + 1))
done
minority=$(( (N - 1) / 2 ))
quorum=$(( N / 2 + 1 ))
persist_note="no persistence"
[ "$AOF" = 1 ] && persist_note="appendonly yes, appendfsync always"
say "started $N masters ($persist_note): $addrs"
say "seed $SEED (replay: add --seed $SEED)"
direct=$addrs

# ---- the fault proxy: one rlproxy process, one proxy per master ---------
if [ "$USE_PROXY" = 1 ]; then
    maps=""
    i=0
    while [ $i -lt "$N" ]; do
        maps="$maps --map 0:127.0.0.1:$(get "port_$i")"
        i=$((i + 1))
    done
    mkfifo "$dir/proxy.ctl" || die "mkfifo failed"
    # shellcheck disable=SC2086
    "$PROXY" $maps < "$dir/proxy.ctl" > "$dir/proxy.out" 2>&1 &
    proxy_pid=$!
    exec 3> "$dir/proxy.ctl"
    deadline=$(( $(now) + 5000000 ))
    while ! grep -q '^listening' "$dir/proxy.out" 2>/dev/null; do
        [ "$(now)" -lt "$deadline" ] || die "rlproxy did not start: $(cat "$dir/proxy.out")"
        ms_sleep 5
    done
    addrs=""
    for p in $(sed -n 's/^listening //p' "$dir/proxy.out"); do
        addrs="$addrs${addrs:+,}127.0.0.1:$p"
    done
    say "masters behind rlproxy: $addrs"
fi
# proxy CMD...: a command to the rlproxy (answers in proxy.out)
proxy() { echo "$*" >&3; }

# ---- workers -----------------------------------------------------------
faults=$dir/faults.log
: > "$faults"
echo $(( NODE_TIMEOUT * 2 )) > "$dir/block-ms"
async_ids=""
# start_worker J LOG ID: (re)start worker J (its role from J) logging to LOG
start_worker() {
    j=$1 log=$2 id=$3
    role=""
    if [ "$MIX" = 1 ]; then
        case $((j % 4)) in
        1) role="--async" ;;
        2) role="--max-pending 2" ;;
        3) role="--async --max-pending 1" ;;
        esac
    fi
    over=""
    [ $j = 0 ] && [ "$OVERREPORT" != 0 ] && over="--overreport $OVERREPORT"
    wd=""
    case "$role" in *--async*) wd=$WATCHDOG ;; esac
    kind=""
    case "$KIND" in
    reentrant) kind="--kind reentrant --owner o$((j / 2))" ;;   # pairs are one owner
    rw) kind="--kind rw --writers-pct $WRITERS_PCT" ;;
    multi) kind="--kind multi" ;;
    semaphore) kind="--kind semaphore --permits $PERMITS --emulate-permits $EMULATE" ;;
    esac
    many=""
    if [ "$CPW" -gt 0 ]; then
        # clients j*C .. j*C+C-1, one log each; every such worker is async
        id=$((j * CPW)) log=$dir/worker-%d.log many="--clients $CPW"
    fi
    # shellcheck disable=SC2086
    "$WORKER" --id $id --masters "$addrs" --audit "$direct" --log "$log" $many \
        --resources "$R" --ttl "$TTL" --hold-min "$HOLD_MIN" --hold-max "$HOLD_MAX" \
        --idle-max "$IDLE_MAX" --node-timeout "$NODE_TIMEOUT" --connect-timeout "$CONNECT_TIMEOUT" \
        --seconds 100000 \
        --extend-pct "$EXTEND_PCT" --audit-period "$AUDIT_PERIOD" --seed "$SEED" \
        --block-file "$dir/block-ms" $role $over $FENCING $wd $kind &
    eval "wpid_$j=$!"
    worker_pids="$worker_pids $!"
    case "$role" in *--async*) async_ids="$async_ids $j" ;; *) [ "$CPW" -gt 0 ] && async_ids="$async_ids $j" ;; esac
}
j=0
while [ $j -lt "$K" ]; do
    start_worker $j "$dir/worker-$j.log" $j
    j=$((j + 1))
done
[ "$CPW" -gt 0 ] && say "each worker runs $CPW clients: $((K * CPW)) clients"
say "started $K workers ($KIND locks) on $R resources, ttl $TTL ms, node timeout $NODE_TIMEOUT ms, connect timeout $CONNECT_TIMEOUT ms, hold $HOLD_MIN..$HOLD_MAX ms, extend $EXTEND_PCT %"
[ "$MIX" = 1 ] && say "workers: j%4 = 0 blocking, 1 async, 2 blocking max_pending 2, 3 async max_pending 1; async:$async_ids"

# record START END BACK KIND TEXT: the fault lasted START..END; BACK is when
# every affected server answered again (END for a pause)
record() { echo "X $1 $2 $3 $4 $5" >> "$faults"; }

# range A B: the numbers A .. B-1
range() { awk "BEGIN { for (i = $1; i < $2; i++) printf \"%d \", i }"; }

fault_kill_set() { # kind first count down_ms
    fault_kill_list "$1" "$(range "$2" $(($2 + $3)))" "$4"
}
fault_kill_list() { # kind "m1 m2 ..." down_ms
    kind=$1 set_="$2 " down=$3
    for m in $set_; do kill_master "$m"; done
    t1=$(now)
    say "$kind: kill -9 masters $set_"
    ms_sleep "$down"
    t2=$(now)
    for m in $set_; do start_master "$m"; done
    t3=$(now)
    say "$kind: restarted masters $set_ (down $(( (t2 - t1) / 1000 )) ms, restart took $(( (t3 - t2) / 1000 )) ms)"
    record "$t1" "$t2" "$t3" "$kind" "kill -9 of masters ${set_}of $N, restarted after $down ms, $persist_note"
}

scenario_kill() { fault_kill_set kill-minority 0 "$minority" "$DOWN"; }
scenario_outage() { fault_kill_set quorum-outage 0 "$quorum" "$DOWN"; }
scenario_aof() {
    fault_kill_set aof-kill-minor 0 "$minority" 0
    ms_sleep "$GAP"
    fault_kill_set aof-kill-major 0 "$quorum" 0
}
scenario_pause() {
    m=${1:-$((N - 1))}
    p=$(get "pid_$m")
    t1=$(now)
    kill -STOP "$p"
    say "pause-master: SIGSTOP master $m"
    ms_sleep "${2:-$DOWN}"
    kill -CONT "$p"
    t2=$(now)
    say "pause-master: SIGCONT master $m (stopped $(( (t2 - t1) / 1000 )) ms)"
    record "$t1" "$t2" "$t2" pause-master "SIGSTOP of master $m of $N for ${2:-$DOWN} ms"
}
scenario_gcpause() {
    w=$(get wpid_0)
    kill -USR1 "$w"
    deadline=$(( $(now) + 5000000 ))
    while [ "$(awk '{ print $3 }' "/proc/$w/stat" 2>/dev/null)" != T ]; do
        if [ "$(now)" -gt "$deadline" ]; then
            say "gcpause: worker 0 did not stop within 5 s (no lock acquired?)"
            return 0
        fi
        ms_sleep 1
    done
    t1=$(now)
    stop_ms=$((2 * TTL + 200))
    say "gcpause: worker 0 stopped while holding a lock (ttl $TTL ms); keeping it stopped $stop_ms ms"
    ms_sleep "$stop_ms"
    kill -CONT "$w"
    t2=$(now)
    say "gcpause: SIGCONT worker 0"
    record "$t1" "$t2" "$t2" client-pause "worker 0 stopped holding a lock for $stop_ms ms (> ttl $TTL ms)"
}

# stopped_holding PID S: wait (S seconds at most) for a worker asked to
# (SIGUSR1) to stop itself while holding; 1 when it did not
stopped_holding() {
    deadline=$(( $(now) + $2 * 1000000 ))
    while [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != T ]; do
        [ "$(now)" -le "$deadline" ] || return 1
        ms_sleep 1
    done
}
crashes=0
scenario_crash() {
    # a blocking worker (they stop on SIGUSR1): j % 4 = 2, else 0
    w=2
    [ "$K" -gt 2 ] || w=0
    p=$(get "wpid_$w")
    kill -USR1 "$p"
    # 10 s: a semaphore that needs every master may starve one worker a while
    if ! stopped_holding "$p" 10; then
        say "crash: worker $w did not stop within 10 s (no lock acquired?)"
        kill -CONT "$p"
        return 0
    fi
    t1=$(now)
    kill -9 "$p"
    kill -CONT "$p" 2>/dev/null
    wait "$p" 2>/dev/null
    worker_pids=$(echo " $worker_pids " | sed "s/ $p / /")
    crashes=$((crashes + 1))
    keep_async=$async_ids
    start_worker "$w" "$dir/worker-$w-c$crashes.log" $((100 * crashes + w))
    async_ids=$keep_async
    t2=$(now)
    say "crash: worker $w kill -9'd while holding; restarted as worker $((100 * crashes + w))"
    record "$t1" "$t2" "$t2" worker-crash "worker $w kill -9'd while holding (stopped right after an acquire), a new worker in its place"
}

# ---- the new fault kinds (mixed / random), one schedule line each -------
# run_sched KIND GAP DUR MASTERS P1 P2 P3  (format: rl-schedule)
run_sched() {
    kind=$1 dur=$3 ml=$(echo "$4" | tr ',' ' ') p1=$5 p2=$6 p3=$7
    case "$kind" in
    slow-minority | slow-majority)
        for m in $ml; do proxy "@$m latency $p1 $p2 $p3"; done
        t1=$(now)
        say "$kind: masters $ml +$p2 ms (jitter $p3) $p1"
        ms_sleep "$dur"
        for m in $ml; do proxy "@$m latency both 0"; done
        t2=$(now)
        record "$t1" "$t2" "$t2" "$kind" "rlproxy latency $p1 $p2 +- $p3 ms on masters $ml of $N (node timeout $NODE_TIMEOUT ms) for $dur ms"
        ;;
    loop-block)
        if [ -z "$async_ids" ]; then
            say "loop-block: no async worker (needs --workers >= 2)"
            return 0
        fi
        echo "$p1" > "$dir/block-ms"
        t1=$(now)
        say "loop-block: $p2 blocks of $p1 ms of the async workers' loops ($async_ids)"
        b=0
        while [ $b -lt "$p2" ]; do
            for w in $async_ids; do kill -USR2 "$(get "wpid_$w")" 2>/dev/null; done
            ms_sleep $((dur / p2))
            b=$((b + 1))
        done
        t2=$(now)
        record "$t1" "$t2" "$t2" loop-block "async workers ($async_ids) asked $p2 times to busy-wait $p1 ms (node timeout $NODE_TIMEOUT ms) while an operation is in flight"
        ;;
    setreset)
        for m in $ml; do proxy "@$m setreset $p1"; done
        t1=$(now)
        say "setreset: masters $ml: reset the next $p1 connections right after a SET"
        ms_sleep "$dur"
        for m in $ml; do proxy "@$m setreset 0"; done
        t2=$(now)
        record "$t1" "$t2" "$t2" setreset "rlproxy resets $p1 connections per master right after forwarding a SET, masters $ml of $N"
        ;;
    hostile-line | hostile-error | hostile-garbage)
        h=${kind#hostile-}
        for m in $ml; do proxy "@$m hostile $h"; done
        t1=$(now)
        say "$kind: master $ml answers with $h"
        ms_sleep "$dur"
        for m in $ml; do proxy "@$m hostile off"; done
        t2=$(now)
        record "$t1" "$t2" "$t2" "$kind" "rlproxy replaces replies of master $ml with: $h, for $dur ms"
        ;;
    kill) fault_kill_list kill-minority "$ml" "$dur" ;;
    outage) fault_kill_list quorum-outage "$ml" "$dur" ;;
    pause) scenario_pause "$ml" "$dur" ;;
    gcpause) scenario_gcpause ;;
    esac
}

# run_schedule ROUNDS END_US: the seeded schedule, until END_US (0: all)
run_schedule() {
    # shellcheck disable=SC2086
    "$SCHEDULE" "$SEED" "$1" "$N" "$NODE_TIMEOUT" "$TTL" $KINDS > "$dir/schedule" ||
        die "bad schedule (--kinds?)"
    while read -r kind gap dur ml p1 p2 p3; do
        if [ "$2" != 0 ] && [ "$(now)" -ge "$2" ]; then break; fi
        if [ "$ACQ_TARGET" -gt 0 ] && [ "$(cat "$dir"/worker-*.log | grep -c '^A ')" -ge "$ACQ_TARGET" ]; then
            say "random: $ACQ_TARGET acquisitions reached"
            break
        fi
        ms_sleep "$gap"
        run_sched "$kind" "$gap" "$dur" "$ml" "$p1" "$p2" "$p3"
    done < "$dir/schedule"
}

run_one() {
    case "$1" in
    kill) scenario_kill ;;
    pause) scenario_pause ;;
    outage) scenario_outage ;;
    gcpause) scenario_gcpause ;;
    aof) scenario_aof ;;
    crash) scenario_crash ;;
    esac
}

ms_sleep "$LEAD"
first=1
for s in $expanded; do
    [ $first = 1 ] || ms_sleep "$GAP"
    first=0
    if [ "$s" = mixed ]; then
        run_schedule 1 0
    elif [ "$s" = random ]; then
        rounds=$(( SOAK / 2 + 1 ))
        [ "$ACQ_TARGET" -gt 0 ] && rounds=100000
        end=$(( $(now) + SOAK * 1000000 ))
        # an acquisition target still stops after two hours at most
        [ "$ACQ_TARGET" -gt 0 ] && end=$(( $(now) + 7200 * 1000000 ))
        run_schedule "$rounds" "$end"
    elif [ "$s" = soak ]; then
        end=$(( $(now) + SOAK * 1000000 ))
        cycle="kill pause outage gcpause"
        [ "$AOF" = 1 ] && cycle="$cycle aof"
        rounds=0
        while [ "$(now)" -lt "$end" ]; do
            for f in $cycle; do
                [ "$(now)" -lt "$end" ] || break
                run_one "$f"
                ms_sleep "$GAP"
            done
            rounds=$((rounds + 1))
        done
        say "soak: $rounds rounds of: $cycle"
    else
        run_one "$s"
    fi
done
ms_sleep "$TAIL"

# ---- stop the workers, check ------------------------------------------
for p in $worker_pids; do kill -CONT "$p" 2>/dev/null; kill -TERM "$p" 2>/dev/null; done
deadline=$(( $(now) + 10000000 ))
for p in $worker_pids; do
    while kill -0 "$p" 2>/dev/null && [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" != Z ]; do
        if [ "$(now)" -gt "$deadline" ]; then
            say "worker $p did not stop; killing it"
            kill -9 "$p" 2>/dev/null
            break
        fi
        ms_sleep 10
    done
    wait "$p" 2>/dev/null
done
worker_pids=""
if [ -n "$proxy_pid" ]; then
    proxy status
    ms_sleep 200
    st=$(grep '^ok \[' "$dir/proxy.out" | tail -1)
    sr=$(echo "$st" | tr ' ' '\n' | sed -n 's/^setresets=//p' | awk '{ s += $1 } END { print s + 0 }')
    hc=$(echo "$st" | tr ' ' '\n' | sed -n 's/^hostile_conns=//p' | awk '{ s += $1 } END { print s + 0 }')
    echo "Y setresets=$sr hostile_conns=$hc" >> "$faults"
    proxy quit
    exec 3>&-
    wait "$proxy_pid" 2>/dev/null
    proxy_pid=""
fi
# semaphore: every worker released and stopped; what is left on the masters
# is a leftover (of a failed acquire, or of a release that did not clean up)
if [ "$KIND" = semaphore ] && command -v redis-cli >/dev/null 2>&1; then
    ms_sleep 50
    left=0 scanned=0
    i=0
    while [ $i -lt "$N" ]; do
        port=$(get "port_$i")
        # not counted: the waiters' registry ({K}:wq, its own ttl) and a
        # fencing counter ({K}:fence, no ttl), which outlive any holder
        for k in $(redis-cli -p "$port" --scan --pattern '*fo:res*' 2>/dev/null |
            grep -v -e ':wq' -e ':fence$'); do
            ttl=$(redis-cli -p "$port" pttl "$k")
            # a semaphore's hash (its count and holders' fields) may keep an
            # ended permit's field until the next take prunes it, within its
            # ttl: only its permits' own keys ({K}:s:<v>) count
            if [ "$(redis-cli -p "$port" type "$k")" = hash ]; then
                say "master $i: semaphore hash $k (pttl $ttl): $(redis-cli -p "$port" hkeys "$k" | tr '\n' ' ')"
                continue
            fi
            say "leftover on master $i: $k (pttl $ttl)"
            left=$((left + 1))
        done
        scanned=$((scanned + 1))
        i=$((i + 1))
    done
    echo "Z leftover_keys=$left masters=$scanned" >> "$faults"
fi
say "workers stopped; checking (seed $SEED)"
logs=$(ls "$dir"/worker-*.log)
# shellcheck disable=SC2086
"$CHECK" --nodes "$N" --faults "$faults" $logs
status=$?
if [ $status -eq 0 ] && ! grep -q '^A ' $logs; then
    echo "failover: no acquisition at all" >&2
    status=1
fi
exit $status
