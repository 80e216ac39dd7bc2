#!/bin/sh
# test/failover/failover.sh -- prove mutual exclusion while masters and
# clients fail.  Starts N local redis-server masters on free loopback ports
# (in a mktemp -d directory, removed on exit), runs K rl-worker processes
# contending for a few resources, injects the scenarios' faults while they
# run, then runs rl-check on the logs.  Exit status: 0 no overlap, 1 overlap
# (or no acquisition at all), 2 set-up error.
#
#   sh test/failover/failover.sh [options] SCENARIO...
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
#   short    kill pause outage gcpause   (the CI run, about 15 s)
#   all      kill pause outage gcpause aof
#   soak     repeat kill pause outage gcpause (aof with --aof) until
#            --seconds have passed
#
# Options:
#   --masters N (5)  --workers K (4)  --resources R (3)  --ttl MS (300)
#   --hold-min MS (1)  --hold-max MS (5): how long a worker holds a lock
#   --node-timeout MS (100)  --down MS (1000)  --gap MS (700)
#   --lead MS (1000, before the first fault)  --tail MS (1000, after the last)
#   --seconds S (soak duration, 300)  --aof (all masters with --appendonly yes
#   --appendfsync always)  --keep (keep the directory with logs)
#
# Without persistence a master must stay down at least one ttl (--down >=
# --ttl) before it comes back empty, or a second client can get a lock that
# is still held (docs/safety.md, "the known unsafe case"); the script refuses
# such settings unless --unsafe is given (to watch the checker catch it).
set -u

here=$(cd "$(dirname "$0")" && pwd)
WORKER=${RL_WORKER:-$here/rl-worker}
CHECK=${RL_CHECK:-$here/rl-check}
REDIS=${REDIS_SERVER:-redis-server}

HOLD_MIN=1 HOLD_MAX=5
N=5 K=4 R=3 TTL=300 NODE_TIMEOUT=100 DOWN=1000 GAP=700 LEAD=1000 TAIL=1000
SOAK=300 AOF=0 KEEP=0 UNSAFE=0 scenarios=""

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
    -h | --help) sed -n '2,40p' "$0"; exit 0 ;;
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
    kill | pause | outage | gcpause | soak) expanded="$expanded $s" ;;
    aof) expanded="$expanded aof"; AOF=1 ;;
    *) die "unknown scenario $s" ;;
    esac
done
[ "$N" -ge 3 ] || die "--masters must be at least 3"
[ "$K" -ge 1 ] || die "--workers must be at least 1"
if [ "$AOF" = 0 ] && [ "$DOWN" -lt "$TTL" ] && [ "$UNSAFE" = 0 ]; then
    die "--down $DOWN < --ttl $TTL without --aof restarts masters that forget held locks (add --unsafe to do it anyway)"
fi
[ -x "$WORKER" ] && [ -x "$CHECK" ] || die "build the programs first: make failover"
command -v "$REDIS" >/dev/null 2>&1 || die "redis-server not found (set REDIS_SERVER)"

dir=$(mktemp -d "${TMPDIR:-/tmp}/rl-failover.XXXXXX") || die "mktemp failed"
master_pids="" worker_pids=""

cleanup() {
    for p in $worker_pids $master_pids; do
        kill -9 "$p" 2>/dev/null
    done
    for p in $worker_pids $master_pids; do
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

now() { "$CHECK" --now; }
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
            port=$("$CHECK" --free-port) || die "no free port"
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
        while ! "$CHECK" --ping "$port" 2>/dev/null; do
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

# ---- workers -----------------------------------------------------------
faults=$dir/faults.log
: > "$faults"
j=0
while [ $j -lt "$K" ]; do
    "$WORKER" --id $j --masters "$addrs" --log "$dir/worker-$j.log" --resources "$R" \
        --ttl "$TTL" --hold-min "$HOLD_MIN" --hold-max "$HOLD_MAX" --node-timeout "$NODE_TIMEOUT" --seconds 100000 &
    eval "wpid_$j=$!"
    worker_pids="$worker_pids $!"
    j=$((j + 1))
done
say "started $K workers on $R resources, ttl $TTL ms, node timeout $NODE_TIMEOUT ms"

# record START END BACK KIND TEXT: the fault lasted START..END; BACK is when
# every affected server answered again (END for a pause)
record() { echo "X $1 $2 $3 $4 $5" >> "$faults"; }

# range A B: the numbers A .. B-1
range() { awk "BEGIN { for (i = $1; i < $2; i++) printf \"%d \", i }"; }

fault_kill_set() { # kind first count down_ms
    kind=$1 first=$2 count=$3 down=$4
    set_=$(range "$first" $((first + count)))
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
    m=$((N - 1))
    p=$(get "pid_$m")
    t1=$(now)
    kill -STOP "$p"
    say "pause-master: SIGSTOP master $m"
    ms_sleep "$DOWN"
    kill -CONT "$p"
    t2=$(now)
    say "pause-master: SIGCONT master $m (stopped $(( (t2 - t1) / 1000 )) ms)"
    record "$t1" "$t2" "$t2" pause-master "SIGSTOP of master $m of $N for $DOWN ms"
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

run_one() {
    case "$1" in
    kill) scenario_kill ;;
    pause) scenario_pause ;;
    outage) scenario_outage ;;
    gcpause) scenario_gcpause ;;
    aof) scenario_aof ;;
    esac
}

ms_sleep "$LEAD"
first=1
for s in $expanded; do
    [ $first = 1 ] || ms_sleep "$GAP"
    first=0
    if [ "$s" = soak ]; then
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
say "workers stopped; checking"
logs=""
j=0
while [ $j -lt "$K" ]; do logs="$logs $dir/worker-$j.log"; j=$((j + 1)); done
# shellcheck disable=SC2086
"$CHECK" --nodes "$N" --faults "$faults" $logs
status=$?
if [ $status -eq 0 ] && ! grep -q '^A ' $logs; then
    echo "failover: no acquisition at all" >&2
    status=1
fi
exit $status
