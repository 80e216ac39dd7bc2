#!/bin/sh
# Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE).
# test/support/cluster.sh -- Redis Clusters on loopback for the bench and
# the demos, one per Redlock vote (the C tests use clusters.h).
#
#   sh test/support/cluster.sh start DIR VOTES SHARDS REPLICAS BASEPORT
#   sh test/support/cluster.sh stop DIR
#
# start: VOTES clusters of SHARDS masters with REPLICAS replicas each; vote
# v's node n (masters first) listens on BASEPORT + v * SHARDS * (1 +
# REPLICAS) + n and its cluster bus on that + 10000, in DIR/vV-nN (its log
# there).  Keep BASEPORT + 10000 + the number of nodes below the kernel's
# ephemeral ports (32768 on Linux; BASEPORT 21000 is fine), or a client's
# outgoing connection may hold a bus port.  The nodes run as daemons until
# `stop DIR`.  Prints one address per vote, redis-cluster://127.0.0.1:P1,...
# naming the vote's masters, once every node says cluster_state:ok,
# redis-cli --cluster check passes and every replica's link is up.
# $NODE_TIMEOUT (2000 ms) is the clusters' node timeout; $REDIS_PASSWORD,
# when set, is every node's requirepass and masterauth (and goes into the
# addresses as it is: use one that needs no percent-encoding).
# stop: kill -9 every node started in DIR, remove DIR.
set -eu

die() {
    echo "cluster.sh: $*" >&2
    exit 2
}

usage() {
    die "usage: cluster.sh start DIR VOTES SHARDS REPLICAS BASEPORT | cluster.sh stop DIR"
}

cli() {
    if [ -n "${REDIS_PASSWORD:-}" ]; then
        redis-cli -a "$REDIS_PASSWORD" --no-auth-warning "$@"
    else
        redis-cli "$@"
    fi
}

# start_node DIR PORT: a cluster node as a daemon, its pid in DIR/redis.pid.
start_node() {
    node=$1
    mkdir -p "$node"
    set -- --port "$2" --bind 127.0.0.1 --protected-mode no \
        --cluster-enabled yes --cluster-config-file nodes.conf \
        --cluster-node-timeout "${NODE_TIMEOUT:-2000}" --repl-diskless-sync-delay 0 \
        --save "" --appendonly no --dir "$node" --daemonize yes \
        --pidfile "$node/redis.pid" --logfile "$node/redis.log"
    if [ -n "${REDIS_PASSWORD:-}" ]; then
        set -- "$@" --requirepass "$REDIS_PASSWORD" --masterauth "$REDIS_PASSWORD"
    fi
    redis-server "$@" >"$node/stdio.log" 2>&1 ||
        die "redis-server in $node: $(tail -n 1 "$node/stdio.log")"
}

# until_true TRIES CMD...: run CMD every 0.1 s until it succeeds; 1 if it never did.
until_true() {
    tries=$1
    shift
    while ! "$@" >/dev/null 2>&1; do
        tries=$((tries - 1))
        [ "$tries" -gt 0 ] || return 1
        sleep 0.1
    done
}

pong() {
    [ "$(cli -p "$1" PING 2>/dev/null)" = PONG ]
}

# all_met FIRST COUNT: every node knows COUNT nodes, none in handshake.
all_met() {
    p=$1
    while [ "$p" -lt $(($1 + $2)) ]; do
        [ "$(cli -p "$p" CLUSTER NODES | grep -vc -e handshake -e noaddr)" -eq "$2" ] || return 1
        p=$((p + 1))
    done
}

# settled FIRST COUNT: states ok, slots agreed and covered, replicas linked.
settled() {
    p=$1
    while [ "$p" -lt $(($1 + $2)) ]; do
        cli -p "$p" CLUSTER INFO | grep -q '^cluster_state:ok' || return 1
        if [ "$(cli -p "$p" ROLE | head -n 1)" = slave ]; then
            cli -p "$p" INFO replication | grep -q '^master_link_status:up' || return 1
        fi
        p=$((p + 1))
    done
    cli --cluster check "127.0.0.1:$1" >/dev/null 2>&1
}

# join_by_hand FIRST SHARDS COUNT: what redis-cli refuses (under 3 masters).
join_by_hand() {
    n=0
    while [ "$n" -lt "$2" ]; do
        cli -p $(($1 + n)) CLUSTER ADDSLOTSRANGE $((n * 16384 / $2)) $(((n + 1) * 16384 / $2 - 1)) >/dev/null
        n=$((n + 1))
    done
    n=1
    while [ "$n" -lt "$3" ]; do
        cli -p "$1" CLUSTER MEET 127.0.0.1 $(($1 + n)) >/dev/null
        n=$((n + 1))
    done
    until_true 100 all_met "$1" "$3" || die "the nodes from port $1 did not meet"
    n=$2
    while [ "$n" -lt "$3" ]; do
        master=$(cli -p $(($1 + (n - $2) % $2)) CLUSTER MYID)
        cli -p $(($1 + n)) CLUSTER REPLICATE "$master" >/dev/null
        n=$((n + 1))
    done
}

start() {
    [ $# -eq 5 ] || usage
    dir=$1 votes=$2 shards=$3 replicas=$4 base=$5
    per=$((shards * (1 + replicas)))
    [ $((base + votes * per - 1)) -le 55535 ] || die "ports up to 55535 only (bus port + 10000)"
    mkdir -p "$dir"
    : >"$dir/.rlt-cluster"
    # a start that fails or is interrupted leaves nothing running (the logs
    # stay in DIR)
    trap 'kill_nodes "$dir"' EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM HUP PIPE
    v=0
    while [ "$v" -lt "$votes" ]; do
        n=0
        while [ "$n" -lt "$per" ]; do
            start_node "$dir/v$v-n$n" $((base + v * per + n))
            n=$((n + 1))
        done
        v=$((v + 1))
    done
    v=0
    while [ "$v" -lt "$votes" ]; do
        first=$((base + v * per))
        n=0
        nodes=""
        while [ "$n" -lt "$per" ]; do
            until_true 100 pong $((first + n)) ||
                die "no PONG from port $((first + n)): $(tail -n 1 "$dir/v$v-n$n/redis.log")"
            nodes="$nodes 127.0.0.1:$((first + n))"
            n=$((n + 1))
        done
        if [ "$shards" -ge 3 ]; then
            # shellcheck disable=SC2086 # one word per node
            cli --cluster create $nodes --cluster-replicas "$replicas" --cluster-yes \
                >"$dir/v$v-create.log" 2>&1 || die "redis-cli --cluster create: see $dir/v$v-create.log"
        else
            join_by_hand "$first" "$shards" "$per"
        fi
        v=$((v + 1))
    done
    v=0
    while [ "$v" -lt "$votes" ]; do
        first=$((base + v * per))
        until_true 300 settled "$first" "$per" || die "the cluster from port $first did not settle"
        auth=""
        [ -z "${REDIS_PASSWORD:-}" ] || auth=":$REDIS_PASSWORD@"
        seeds=""
        n=0
        while [ "$n" -lt "$shards" ]; do
            seeds="$seeds${seeds:+,}127.0.0.1:$((first + n))"
            n=$((n + 1))
        done
        echo "redis-cluster://$auth$seeds"
        v=$((v + 1))
    done
    trap - EXIT
}

# kill_nodes DIR: kill -9 every node started in DIR, wait until gone.
kill_nodes() {
    for pidfile in "$1"/v*-n*/redis.pid; do
        [ -f "$pidfile" ] || continue
        pid=$(cat "$pidfile")
        kill -9 "$pid" 2>/dev/null || continue
        until_true 50 gone "$pid" || echo "cluster.sh: pid $pid outlived kill -9" >&2
    done
}

gone() {
    ! kill -0 "$1" 2>/dev/null
}

stop() {
    [ $# -eq 1 ] || usage
    [ -f "$1/.rlt-cluster" ] || die "$1 was not made by cluster.sh start"
    kill_nodes "$1"
    rm -rf "$1"
}

[ $# -ge 1 ] || usage
cmd=$1
shift
case "$cmd" in
start) start "$@" ;;
stop) stop "$@" ;;
*) usage ;;
esac
