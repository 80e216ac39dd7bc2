/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* clusters.h -- real Redis Clusters on loopback, one per Redlock vote, for
 * the tests and the benchmark.
 *
 * rlt_clusters_start() starts `votes` independent clusters of `shards`
 * masters and `replicas` replicas per master.  Every node is a servers.h
 * server (its own dir, log, port; SIGKILL when the starting thread dies)
 * started with
 *   --cluster-enabled yes --cluster-config-file nodes.conf
 *   --cluster-node-timeout 2000 --repl-diskless-sync-delay 0
 *   [--masterauth P when the extra arguments hold --requirepass P]
 * and then the caller's extra arguments (later ones win: pass
 * {"--cluster-node-timeout", "5000", NULL} for another node timeout).  Its
 * cluster bus is on port + 10000.  With 3 shards or more a cluster is
 * joined by `redis-cli --cluster create ... --cluster-replicas R
 * --cluster-yes` (its output in node 0's dir, cluster-create.log); with 1
 * or 2 (which redis-cli refuses) by CLUSTER ADDSLOTSRANGE, MEET and
 * REPLICATE.  Start returns when every node says cluster_state:ok, all agree
 * on the slot map and every replica's link to its master is up.
 *
 * Nodes are numbered 0 .. shards * (1 + replicas) - 1 within a vote.
 * Nodes 0 .. shards - 1 start as the masters, node i serving the i-th of
 * the even slot ranges; the others start as replicas.  Which master a
 * replica follows is redis-cli's choice (it shuffles them): ask
 * rlt_clusters_master_of().  Roles and owners are always read live from
 * the nodes, so they stay true after failovers and slot moves.
 *
 * Calls that can fail return -1 (or NULL) and leave why in
 * rlt_clusters_error(); none exits.  Not thread-safe: one thread drives a
 * set of clusters.
 */
#ifndef RLT_CLUSTERS_H
#define RLT_CLUSTERS_H

#include <stddef.h>
#include <sys/types.h>

#define RLT_CLUSTER_SLOTS 16384

typedef struct rlt_clusters rlt_clusters;

enum rlt_cluster_role {
    RLT_CLUSTER_DOWN = 0,     /* killed, paused or not answering */
    RLT_CLUSTER_MASTER = 1,
    RLT_CLUSTER_REPLICA = 2,
};

/* Start votes clusters (see above); NULL on failure with a message in err
 * (a node's log tail when it failed to start, redis-cli's last line, or
 * which condition did not come true), nothing left running. */
rlt_clusters *rlt_clusters_start(int votes, int shards, int replicas,
                                 const char *const *extra_args, char *err, size_t errlen);

/* SIGKILL every node, reap them, remove the temporary dirs.  NULL is ok. */
void rlt_clusters_stop(rlt_clusters *c);

/* Why the last failed call failed ("" if none did). */
const char *rlt_clusters_error(const rlt_clusters *c);

int rlt_clusters_votes(const rlt_clusters *c);
int rlt_clusters_shards(const rlt_clusters *c);
/* "redis-cluster://127.0.0.1:P1,127.0.0.1:P2,..." naming the vote's
 * starting masters as seeds; "redis-cluster://:PASSWORD@..." (percent-
 * encoded) when started with --requirepass. */
const char *rlt_clusters_address(const rlt_clusters *c, int vote);
const char *const *rlt_clusters_addresses(const rlt_clusters *c); /* NULL-terminated */

int rlt_clusters_nodes(const rlt_clusters *c, int vote);           /* nodes per vote */
int rlt_clusters_port(const rlt_clusters *c, int vote, int node);  /* -1: bad index */
pid_t rlt_clusters_pid(const rlt_clusters *c, int vote, int node); /* 0: not running */
const char *rlt_clusters_dir(const rlt_clusters *c, int vote, int node);
const char *rlt_clusters_id(const rlt_clusters *c, int vote, int node); /* 40 hex digits */
/* The node's index in the vote for a port; -1 if none has it. */
int rlt_clusters_node_of_port(const rlt_clusters *c, int vote, int port);

/* Live: the node's ROLE (RLT_CLUSTER_DOWN when it does not answer). */
enum rlt_cluster_role rlt_clusters_role(rlt_clusters *c, int vote, int node);
/* Live: the node a replica follows (ROLE); -1 for a master or on error. */
int rlt_clusters_master_of(rlt_clusters *c, int vote, int node);
/* Live: the node serving slot per CLUSTER SLOTS of the first running node
 * that answers; -1 on error. */
int rlt_clusters_master_of_slot(rlt_clusters *c, int vote, int slot);
/* A slot the node serves per its own CLUSTER SLOTS (the lowest); -1 if none. */
int rlt_clusters_slot_on(rlt_clusters *c, int vote, int node);

/* The key's hash slot: CRC16 (XMODEM) mod 16384 of the key, or of the
 * first {hash tag} when it is not empty.  Pure; no cluster needed. */
int rlt_clusters_slot_of(const void *key, size_t len);

/* One command on a node over a short-lived hiredis connection (AUTH done;
 * 1 s timeouts, like rlt_servers_command; hiredis's format: %s, %b, ...):
 * a redisReply * to free with freeReplyObject, or NULL.  No redirection is
 * followed: a node answers -MOVED and -ASK as it would to a client. */
void *rlt_clusters_command(rlt_clusters *c, int vote, int node, const char *fmt, ...);
void *rlt_clusters_command_argv(rlt_clusters *c, int vote, int node, int argc,
                                const char **argv, const size_t *argvlen);

/* Faults.  0 on success, -1 on error. */
int rlt_clusters_kill(rlt_clusters *c, int vote, int node);   /* SIGKILL, reap */
int rlt_clusters_pause(rlt_clusters *c, int vote, int node);  /* SIGSTOP */
int rlt_clusters_resume(rlt_clusters *c, int vote, int node); /* SIGCONT */
/* Start a node again (killing it first if running) on its port, with its
 * dir and nodes.conf, and wait until the vote is settled again as after
 * start (a former master whose replica took over rejoins as a replica). */
int rlt_clusters_restart(rlt_clusters *c, int vote, int node);
/* CLUSTER FAILOVER [how] to a replica; how: NULL or "" (a coordinated
 * handover), "FORCE" (without the master's agreement) or "TAKEOVER"
 * (without the other masters' vote either).  Returns once the node
 * accepted it: see rlt_clusters_wait_promoted. */
int rlt_clusters_failover(rlt_clusters *c, int vote, int node, const char *how);
/* Wait until the node is a master serving slots and every running node
 * agrees (states ok, one slot map served by running nodes, one view of the
 * roles); replicas' links may still be syncing. */
int rlt_clusters_wait_promoted(rlt_clusters *c, int vote, int node, int timeout_ms);
/* Wait until the vote is settled: on every running node cluster_state:ok,
 * one slot map covering every slot served by running masters, one view of
 * the roles, no flag of failure on a running node; every running replica's
 * master_link_status:up.  After a master is killed this waits for its
 * replica's automatic promotion (a few node timeouts). */
int rlt_clusters_wait_ok(rlt_clusters *c, int vote, int timeout_ms);

/* Slot migration (for MOVED and ASK).  begin: CLUSTER SETSLOT IMPORTING on
 * to_node, then MIGRATING on the owner; from then a key of the slot absent
 * on the owner gets -ASK to to_node.  keys: MIGRATE every key of the slot
 * to the importing node (AUTH2 when a password is set).  end: CLUSTER
 * SETSLOT slot NODE on the importing node, the owner and every other
 * running master, and waits until every running node names the new owner
 * in CLUSTER SLOTS: all of them answer -MOVED for it after.  move_slot:
 * all three. */
int rlt_clusters_migrate_begin(rlt_clusters *c, int vote, int slot, int to_node);
int rlt_clusters_migrate_keys(rlt_clusters *c, int vote, int slot);
int rlt_clusters_migrate_end(rlt_clusters *c, int vote, int slot);
int rlt_clusters_move_slot(rlt_clusters *c, int vote, int slot, int to_node);

#endif /* RLT_CLUSTERS_H */
