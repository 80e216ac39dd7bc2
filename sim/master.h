/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* master.h -- a simulated Redis 7 master: a pure state machine (no I/O,
 * no clock of its own).  Bytes a client wrote go in with the master's own
 * time; every complete reply comes out.  The library's Lua scripts run in
 * an embedded Lua 5.1 over the simulated key space, as Redis runs them. */
#ifndef SIM_MASTER_H
#define SIM_MASTER_H

#include <stddef.h>
#include <stdint.h>

typedef struct sim_buf {
    char *p;
    size_t len, cap;
} sim_buf;

/* Appends (grows p); 0, or -1 out of memory. */
int sim_buf_put(sim_buf *b, const void *p, size_t len);
void sim_buf_free(sim_buf *b);

typedef struct sim_master_config {
    const char *name;               /* for errors and the trace */
    const char *password;           /* AUTH required when set */
    const char *appendonly;         /* CONFIG GET values; NULL: Redis's defaults */
    const char *appendfsync;
    const char *maxmemory_policy;
    const char *save;
    uint64_t run_id_seed;           /* run_ids are drawn from it, restart after restart */
    int port;                       /* INFO's tcp_port, CLIENT INFO's laddr */
} sim_master_config;

typedef struct sim_master sim_master;

sim_master *sim_master_new(const sim_master_config *cfg);
void sim_master_free(sim_master *m);

/* connections: ids chosen by the master (CLIENT ID), from 1 up */
long long sim_master_connect(sim_master *m);
void sim_master_disconnect(sim_master *m, long long conn);

/* The bytes the client wrote on conn at master time now_ms (its own
 * clock, ms, may jump): every complete reply is appended to *out, a
 * partial command stays buffered.  0, or -1 on a protocol error (the
 * caller closes the connection, as Redis does) or on a command the
 * simulator does not know (sim_master_error says which: a run must fail
 * loudly). */
int sim_master_feed(sim_master *m, long long conn, const char *p, size_t len, int64_t now_ms,
                    sim_buf *out);
/* What failed the last feed, "" when it did not */
const char *sim_master_error(const sim_master *m);

/* Messages published to a channel conn subscribes to, queued per
 * connection (Redis writes them when it can): appended to *out; their
 * count.  Those still queued when conn's next bytes come in go out
 * first, ahead of that feed's replies. */
int sim_master_take_pushes(sim_master *m, long long conn, sim_buf *out);
/* A connection CLIENT KILL closed (the harness closes its side); -1: none */
long long sim_master_take_killed(sim_master *m);

/* faults: a restart (new run_id, every connection gone, scripts
 * flushed), its data kept (AOF always) or lost.  Its uptime counts from
 * the next bytes fed; _at: from now_ms, the master's time it came back. */
void sim_master_restart(sim_master *m, int keep_data);
void sim_master_restart_at(sim_master *m, int keep_data, int64_t now_ms);

/* checkers: the live keys' count, and one key's value (a string's
 * bytes; another type: its name, "hash", "set", "zset": a checker that
 * wants its contents asks as a client, HGETALL on a connection of its
 * own) and pttl (-1: none); 1 found, 0 not */
size_t sim_master_dbsize(sim_master *m, int64_t now_ms);
int sim_master_key(sim_master *m, const char *key, size_t klen, int64_t now_ms,
                   sim_buf *value_out, int64_t *pttl_ms);
/* 1 when key is a live hash with the field `member`, or a live set with
 * that member; else 0 (a checker's look at the kinds' layouts) */
int sim_master_member(sim_master *m, const char *key, size_t klen, const char *member,
                      size_t mlen, int64_t now_ms);
/* every live key (the table's order), until fn returns non-zero: that
 * value, else 0.  fn must not change the master. */
int sim_master_each_key(sim_master *m, int64_t now_ms,
                        int (*fn)(void *ctx, const char *key, size_t klen), void *ctx);

/* ---- a Redis Cluster of simulated masters (cluster.c) ---- */

typedef struct sim_cluster sim_cluster;

/* A key's hash slot (its {hash tag}'s when it has one), 0 .. 16383. */
unsigned sim_keyslot(const char *key, size_t len);
sim_cluster *sim_cluster_new(void);
/* (the masters are the caller's; they answer as standalone ones again) */
void sim_cluster_free(sim_cluster *c);
/* m joins as node host:port, a master (master_of -1) or a replica of
 * node master_of; its node number, -1 no room */
int sim_cluster_add(sim_cluster *c, sim_master *m, const char *host, int port, int master_of);
/* master x serves slots lo..hi */
void sim_cluster_serve(sim_cluster *c, int x, unsigned lo, unsigned hi);
int sim_cluster_owner(const sim_cluster *c, unsigned slot);
int sim_cluster_importing(const sim_cluster *c, unsigned slot);   /* -1: none */
int sim_cluster_is_master(const sim_cluster *c, int x);
int sim_cluster_master_of(const sim_cluster *c, int x);
sim_master *sim_cluster_node(const sim_cluster *c, int x);
/* a slot's migration: begin (its owner answers ASK for keys it lacks, node
 * `to` takes ASKING), its keys moved (now_*: each master's time), end
 * (`to` owns it: MOVED from the old owner) */
int sim_cluster_migrate_begin(sim_cluster *c, unsigned slot, int to);
size_t sim_cluster_migrate_keys(sim_cluster *c, unsigned slot, int64_t from_now, int64_t to_now);
void sim_cluster_migrate_end(sim_cluster *c, unsigned slot);
/* replica's keys := its master's (a full sync, late by the caller's lag) */
void sim_cluster_sync(sim_cluster *c, int replica, int64_t master_now, int64_t replica_now);
/* the replica takes its master's slots (master_replid2: the old master's
 * replid); the old master becomes its replica; the old master, or -1 */
int sim_cluster_promote(sim_cluster *c, int replica);

#endif
