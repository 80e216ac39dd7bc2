/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* cluster_world.c -- runs whose votes include Redis Clusters (--cluster;
 * docs/simulator.md): three votes, each a cluster of 1 to 3 shards (a
 * master, in half of them with a replica) or, one in three, a plain
 * master; at least one cluster.  The slot ranges are cut at seeded places.
 * Faults of the clusters, at seeded times in the first 5 s: slot
 * migrations of the workload's keys' slots (ASK, then the keys moved,
 * then MOVED), a shard master down for 0.2 to 3 s (refusing dials; it
 * answers restarted after), and when that shard has a replica and the
 * master is still down after the node timeout, a failover (the replica,
 * as late as its last sync, serves the slots; the old master comes back
 * as its replica).  Replicas copy their master every 20 to 300 ms.
 *
 * The checkers' view of the votes (work.c): a vote's masters now, when
 * it last lost keys (a restart without them, a failover), when a fault
 * last touched it.  Without --cluster a vote is its one master.
 */
#include <stdio.h>
#include <string.h>
#include "sim/sim.h"

#define VOTES 3
#define SHARDS 3

typedef struct vote {
    sim_cluster *cl;            /* NULL: a plain master */
    size_t first, count;        /* its nodes: first .. first + count */
    int64_t failover_us;        /* the last failover (INT64_MIN: none) */
} vote;

static int active;
static vote votes[VOTES];
static size_t nvotes, nnodes;
static char addrs[VOTES][160];
static int durable_run;

/* the workload's keys' slots (work.c: res, res2, re, rw, sem) */
static const char *const keys[] = { "res", "res2", "re", "rw", "sem" };

static size_t node_vote(size_t i)
{
    for (size_t v = 0; v < nvotes; v++)
        if (i >= votes[v].first && i < votes[v].first + votes[v].count)
            return v;
    return 0;
}

static sim_master *new_master(uint64_t seed, size_t i, int durable)
{
    char name[8];
    sim_master_config mc = { .name = name,
                             .appendonly = durable ? "yes" : "no",
                             .appendfsync = durable ? "always" : "everysec",
                             .maxmemory_policy = "noeviction",
                             .save = durable ? "3600 1" : "",
                             .run_id_seed = seed * 131 + (uint64_t)i,
                             .port = 6379 };
    snprintf(name, sizeof name, "m%zu", i);
    return sim_master_new(&mc);
}

size_t sim_cw_make(uint64_t seed, int durable, sim_master **masters, const char **out,
                   size_t *nv)
{
    int clusters = 0;

    active = 1;
    durable_run = durable;
    nvotes = VOTES;
    nnodes = 0;
    for (size_t v = 0; v < VOTES; v++) {
        vote *vt = &votes[v];
        int shards = (int)sim_rand_range(SIM_RNG_CLUSTER, 1, SHARDS);
        unsigned cut[SHARDS + 1];
        memset(vt, 0, sizeof *vt);
        vt->failover_us = INT64_MIN;
        vt->first = nnodes;
        if (sim_rand(SIM_RNG_CLUSTER) % 3 == 0 && (clusters || v + 1 < VOTES)) {
            masters[nnodes] = new_master(seed, nnodes, durable);
            snprintf(addrs[v], sizeof addrs[v], "m%zu:6379", nnodes);
            nnodes++;
            vt->count = 1;
            out[v] = addrs[v];
            continue;
        }
        clusters++;
        vt->cl = sim_cluster_new();
        cut[0] = 0;
        cut[shards] = 16384;
        for (int s = 1; s < shards; s++)
            cut[s] = (unsigned)sim_rand_range(SIM_RNG_CLUSTER, cut[s - 1] + 1,
                                              16384 - (shards - s) * 1000);
        for (int s = 0; s < shards; s++) {
            int x, replica = (int)(sim_rand(SIM_RNG_CLUSTER) % 2);
            char host[8];
            masters[nnodes] = new_master(seed, nnodes, durable);
            snprintf(host, sizeof host, "m%zu", nnodes);
            x = sim_cluster_add(vt->cl, masters[nnodes], host, 6379, -1);
            sim_cluster_serve(vt->cl, x, cut[s], cut[s + 1] - 1);
            nnodes++;
            if (replica) {
                masters[nnodes] = new_master(seed, nnodes, durable);
                snprintf(host, sizeof host, "m%zu", nnodes);
                sim_cluster_add(vt->cl, masters[nnodes], host, 6379, x);
                nnodes++;
            }
        }
        vt->count = nnodes - vt->first;
        /* its first master the seed */
        snprintf(addrs[v], sizeof addrs[v], "redis-cluster://m%zu:6379", vt->first);
        out[v] = addrs[v];
    }
    *nv = nvotes;
    return nnodes;
}

void sim_cw_free(void)
{
    for (size_t v = 0; v < nvotes; v++) {
        sim_cluster_free(votes[v].cl);
        votes[v].cl = NULL;
    }
    active = 0;
    nvotes = nnodes = 0;
}

/* ---- the faults ------------------------------------------------------------ */

enum { CW_MIGRATE, CW_MOVE_KEYS, CW_MIGRATED, CW_DOWN, CW_FAILOVER, CW_SYNC };

/* an event's id: what, the vote, a node or slot */
static long long ev(int what, size_t v, long long arg)
{
    return arg << 8 | (long long)v << 4 | what;
}

static void cw_event(void *ctx, long long id, sim_buf *data);

static void migrate(size_t v)
{
    vote *vt = &votes[v];
    unsigned slot;
    int owner, to, masters[SHARDS], n = 0;
    const char *k = keys[sim_rand(SIM_RNG_CLUSTER) % (sizeof keys / sizeof *keys)];

    slot = sim_keyslot(k, strlen(k));
    owner = sim_cluster_owner(vt->cl, slot);
    for (int x = 0; x < (int)vt->count; x++)
        if (x != owner && sim_cluster_is_master(vt->cl, x) &&
            !sim_net_is_down(vt->first + (size_t)x) && n < SHARDS)
            masters[n++] = x;
    if (!n || sim_net_is_down(vt->first + (size_t)owner))
        return;
    to = masters[sim_rand(SIM_RNG_CLUSTER) % (uint64_t)n];
    if (sim_cluster_migrate_begin(vt->cl, slot, to) != 0)
        return;
    sim_trace("v%zu: slot %u (%s) migrates from m%zu to m%zu", v, slot, k,
              vt->first + (size_t)owner, vt->first + (size_t)to);
    sim_at(sim_now_us + sim_rand_range(SIM_RNG_CLUSTER, 20000, 800000), cw_event, NULL,
           ev(CW_MOVE_KEYS, v, slot), NULL);
}

static void cw_event(void *ctx, long long id, sim_buf *data)
{
    size_t v = (size_t)(id >> 4 & 15);
    long long arg = id >> 8;
    vote *vt = &votes[v];
    (void)ctx, (void)data;

    switch ((int)(id & 15)) {
    case CW_MIGRATE:
        migrate(v);
        break;
    case CW_MOVE_KEYS: {
        /* each master's own time: the expiries move between two clocks */
        unsigned slot = (unsigned)arg;
        size_t from = vt->first + (size_t)sim_cluster_owner(vt->cl, slot);
        size_t to = vt->first + (size_t)sim_cluster_importing(vt->cl, slot);
        size_t moved = sim_cluster_migrate_keys(vt->cl, slot, sim_net_master_ms(from),
                                                sim_net_master_ms(to));
        sim_trace("v%zu: slot %u: %zu keys moved from m%zu to m%zu", v, slot, moved, from, to);
        sim_at(sim_now_us + sim_rand_range(SIM_RNG_CLUSTER, 20000, 800000), cw_event, NULL,
               ev(CW_MIGRATED, v, slot), NULL);
        break;
    }
    case CW_MIGRATED:
        sim_cluster_migrate_end(vt->cl, (unsigned)arg);
        sim_trace("v%zu: slot %u migrated: m%zu owns it", v, (unsigned)arg,
                  vt->first + (size_t)sim_cluster_owner(vt->cl, (unsigned)arg));
        break;
    case CW_DOWN: {
        /* a shard master of the vote, down */
        int ms[2 * SHARDS], n = 0, x, replica = -1;
        int64_t us = sim_rand_range(SIM_RNG_CLUSTER, 200000, 3000000);
        int64_t timeout = sim_rand_range(SIM_RNG_CLUSTER, 300000, 1500000);
        for (int y = 0; y < (int)vt->count; y++)
            if (sim_cluster_is_master(vt->cl, y))
                ms[n++] = y;
        x = ms[sim_rand(SIM_RNG_CLUSTER) % (uint64_t)n];
        sim_net_down(vt->first + (size_t)x, us, durable_run);
        for (int y = 0; y < (int)vt->count; y++)
            if (sim_cluster_master_of(vt->cl, y) == x)
                replica = y;
        if (replica >= 0 && timeout < us)
            sim_at(sim_now_us + timeout, cw_event, NULL, ev(CW_FAILOVER, v, replica), NULL);
        break;
    }
    case CW_FAILOVER: {
        int old = sim_cluster_promote(vt->cl, (int)arg);
        if (old < 0)
            break;
        vt->failover_us = sim_now_us;
        sim_trace("v%zu: failover: m%zu takes over from m%zu", v, vt->first + (size_t)arg,
                  vt->first + (size_t)old);
        break;
    }
    case CW_SYNC: {
        int x = (int)arg, m = sim_cluster_master_of(vt->cl, x);
        size_t rx = vt->first + (size_t)x, mx = vt->first + (size_t)m;
        if (m >= 0 && !sim_net_is_down(mx) && !sim_net_is_down(rx))
            sim_cluster_sync(vt->cl, x, sim_net_master_ms(mx), sim_net_master_ms(rx));
        if (sim_now_us - SIM_START_US < 20000000)
            sim_at(sim_now_us + sim_rand_range(SIM_RNG_CLUSTER, 20000, 300000), cw_event, NULL,
                   ev(CW_SYNC, v, x), NULL);
        break;
    }
    }
}

static int64_t when(void)
{
    return SIM_START_US + sim_rand_range(SIM_RNG_CLUSTER, 0, 5000000);
}

void sim_cw_faults(void)
{
    for (size_t v = 0; v < nvotes; v++) {
        vote *vt = &votes[v];
        int shards = 0;
        if (!vt->cl)
            continue;
        for (int x = 0; x < (int)vt->count; x++) {
            if (sim_cluster_is_master(vt->cl, x))
                shards++;
            else
                sim_at(SIM_START_US + sim_rand_range(SIM_RNG_CLUSTER, 20000, 300000), cw_event,
                       NULL, ev(CW_SYNC, v, x), NULL);
        }
        for (int i = shards > 1 ? (int)sim_rand_range(SIM_RNG_CLUSTER, 0, 2) : 0; i > 0; i--)
            sim_at(when(), cw_event, NULL, ev(CW_MIGRATE, v, 0), NULL);
        if (sim_rand(SIM_RNG_CLUSTER) % 2)
            sim_at(when(), cw_event, NULL, ev(CW_DOWN, v, 0), NULL);
    }
}

/* ---- the checkers' view ------------------------------------------------------ */

size_t sim_votes(void)
{
    return active ? nvotes : sim_net_masters();
}

size_t sim_vote_masters(size_t v, size_t *out, size_t max)
{
    size_t n = 0;

    if (!active || !votes[v].cl) {
        out[0] = active ? votes[v].first : v;
        return 1;
    }
    for (size_t i = 0; i < votes[v].count && n < max; i++)
        if (sim_cluster_is_master(votes[v].cl, (int)i))
            out[n++] = votes[v].first + i;
    return n;
}

/* The latest of vote v's nodes' times `of` and its failover. */
static int64_t latest(size_t v, int64_t (*of)(size_t))
{
    int64_t t;

    if (!active)
        return of(v);
    t = votes[v].failover_us;
    for (size_t i = votes[v].first; i < votes[v].first + votes[v].count; i++)
        if (of(i) > t)
            t = of(i);
    return t;
}

int64_t sim_vote_lost_keys_us(size_t v)
{
    return latest(v, sim_net_lost_keys_us);
}

int64_t sim_vote_fault_us(size_t v)
{
    return latest(v, sim_net_fault_us);
}

int sim_node_is_master(size_t i)
{
    size_t v;

    if (!active)
        return 1;
    v = node_vote(i);
    return !votes[v].cl || sim_cluster_is_master(votes[v].cl, (int)(i - votes[v].first));
}

size_t sim_node_vote(size_t i)
{
    return active ? node_vote(i) : i;
}
