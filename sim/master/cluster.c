/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* cluster.c -- a simulated Redis Cluster over simulated masters (master.h):
 * its nodes, the 16384 slots each master serves, the routing Redis does
 * before it runs a command (MOVED, ASK and ASKING during a migration,
 * CROSSSLOT, TRYAGAIN, CLUSTERDOWN), CLUSTER SLOTS, the keys a migration
 * moves, and replicas that copy their master late (a full copy at each
 * sync: what a lagging replica holds is its master's keys of the last
 * sync) and take over its slots (the INFO replication fields the client's
 * failover guard reads: role, master_replid2).
 *
 * Not modelled: gossip (every node knows the map at once), MIGRATE's own
 * command stream (keys move between two feeds, atomically per slot), the
 * replication stream (WAIT counts the replicas synced since the write, not
 * acknowledgements), READONLY reads on replicas, pub/sub across nodes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/master/internal.h"

#define SLOTS 16384
#define NODES 32

typedef struct node {
    sim_master *m;
    char host[32];
    int port;
    char id[41];
    int master_of;          /* -1: a master; else the node it replicates */
    char replid2[41];       /* its master_replid2 ("000...": never promoted) */
} node;

struct sim_cluster {
    node n[NODES];
    int count;
    short owner[SLOTS];     /* the master serving each slot, -1 none */
    short importing[SLOTS]; /* the node a migrating slot goes to, -1 none */
};

static const char zeros[] = "0000000000000000000000000000000000000000";

/* CRC16 (XMODEM: polynomial 0x1021, initial 0), bit by bit: the
 * simulator's own, not the library's table. */
static unsigned crc16(const unsigned char *p, size_t len)
{
    unsigned crc = 0;
    for (size_t i = 0; i < len; i++) {
        crc ^= (unsigned)p[i] << 8;
        for (int b = 0; b < 8; b++)
            crc = (crc & 0x8000) ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
    return crc;
}

unsigned sim_keyslot(const char *key, size_t len)
{
    const char *open = memchr(key, '{', len);
    if (open) {
        const char *close = memchr(open + 1, '}', len - (size_t)(open + 1 - key));
        if (close && close > open + 1) {
            key = open + 1;
            len = (size_t)(close - key);
        }
    }
    return crc16((const unsigned char *)key, len) % SLOTS;
}

sim_cluster *sim_cluster_new(void)
{
    sim_cluster *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    for (int s = 0; s < SLOTS; s++)
        c->owner[s] = c->importing[s] = -1;
    return c;
}

void sim_cluster_free(sim_cluster *c)
{
    for (int i = 0; c && i < c->count; i++)
        c->n[i].m->cluster = NULL;
    free(c);
}

int sim_cluster_add(sim_cluster *c, sim_master *m, const char *host, int port, int master_of)
{
    node *x;
    if (c->count == NODES)
        return -1;
    x = &c->n[c->count];
    x->m = m;
    snprintf(x->host, sizeof x->host, "%s", host);
    x->port = port;
    /* a node id is its nodes.conf's: drawn once, kept across restarts */
    snprintf(x->id, sizeof x->id, "%.32s%08x", m->run_id, (unsigned)c->count);
    x->master_of = master_of;
    memcpy(x->replid2, zeros, sizeof zeros);
    m->cluster = c;
    m->cnode = c->count;
    return c->count++;
}

void sim_cluster_serve(sim_cluster *c, int x, unsigned lo, unsigned hi)
{
    for (unsigned s = lo; s <= hi && s < SLOTS; s++)
        c->owner[s] = (short)x;
}

int sim_cluster_owner(const sim_cluster *c, unsigned slot)
{
    return slot < SLOTS ? c->owner[slot] : -1;
}

int sim_cluster_importing(const sim_cluster *c, unsigned slot)
{
    return slot < SLOTS ? c->importing[slot] : -1;
}

int sim_cluster_is_master(const sim_cluster *c, int x)
{
    return x >= 0 && x < c->count && c->n[x].master_of < 0;
}

int sim_cluster_master_of(const sim_cluster *c, int x)
{
    return x >= 0 && x < c->count ? c->n[x].master_of : -1;
}

sim_master *sim_cluster_node(const sim_cluster *c, int x)
{
    return x >= 0 && x < c->count ? c->n[x].m : NULL;
}

/* ---- keys between two masters (a migration, a replica's sync) ---------- */

/* A copy of k into ks, its expiry moved from one master's clock to the
 * other's; 0 or -1. */
static int copy_key(sim_keyspace *ks, const sim_key *k, int64_t from_now, int64_t to_now)
{
    sim_key *nk = sim_ks_add(ks, k->name.p, k->name.len, k->type);
    size_t n;

    if (!nk)
        return -1;
    nk->expire_at = k->expire_at < 0 ? -1 : k->expire_at - from_now + to_now;
    if (k->type == SIM_STRING)
        return sim_str_set(&nk->s, k->s.p, k->s.len);
    n = k->type == SIM_HASH ? 2 * k->n : k->n;
    if (!n)
        return 0;
    if (k->type == SIM_ZSET) {
        const sim_zent *z = k->items;
        sim_zent *d = calloc(n, sizeof *d);
        if (!(nk->items = d))
            return -1;
        for (size_t i = 0; i < n; i++) {
            d[i].score = z[i].score;
            if (sim_str_set(&d[i].m, z[i].m.p, z[i].m.len))
                return -1;
        }
    } else {
        const sim_str *s = k->items;
        sim_str *d = calloc(n, sizeof *d);
        if (!(nk->items = d))
            return -1;
        for (size_t i = 0; i < n; i++)
            if (sim_str_set(&d[i], s[i].p, s[i].len))
                return -1;
    }
    nk->n = nk->cap = k->n;     /* (a hash's items are pairs: n counts them) */
    return 0;
}

/* Moves the live keys of slot from its owner to the node importing it (a
 * MIGRATE of each, at once); how many. */
size_t sim_cluster_migrate_keys(sim_cluster *c, unsigned slot, int64_t from_now, int64_t to_now)
{
    sim_master *from, *to;
    size_t moved = 0;

    if (slot >= SLOTS || c->owner[slot] < 0 || c->importing[slot] < 0)
        return 0;
    from = c->n[c->owner[slot]].m;
    to = c->n[c->importing[slot]].m;
    sim_ks_purge(&from->ks, from_now);
    for (size_t b = 0; b < from->ks.nbucket; b++) {
        sim_key *k = from->ks.bucket[b], *next;
        for (; k; k = next) {
            next = k->next;
            if (sim_keyslot(k->name.p, k->name.len) != slot)
                continue;
            /* (a key of the slot on both: the importing node's is newer) */
            if (!sim_ks_find(&to->ks, k->name.p, k->name.len, to_now))
                copy_key(&to->ks, k, from_now, to_now);
            sim_ks_del(&from->ks, k);
            moved++;
        }
    }
    return moved;
}

int sim_cluster_migrate_begin(sim_cluster *c, unsigned slot, int to)
{
    if (slot >= SLOTS || !sim_cluster_is_master(c, to) || c->owner[slot] < 0 ||
        c->owner[slot] == to || c->importing[slot] >= 0)
        return -1;
    c->importing[slot] = (short)to;
    return 0;
}

void sim_cluster_migrate_end(sim_cluster *c, unsigned slot)
{
    if (slot < SLOTS && c->importing[slot] >= 0) {
        c->owner[slot] = c->importing[slot];
        c->importing[slot] = -1;
    }
}

/* The replica's keys are its master's now (a full sync). */
void sim_cluster_sync(sim_cluster *c, int replica, int64_t master_now, int64_t replica_now)
{
    node *r = &c->n[replica];
    sim_master *m;

    if (r->master_of < 0)
        return;
    m = c->n[r->master_of].m;
    sim_ks_clear(&r->m->ks);
    sim_ks_purge(&m->ks, master_now);
    for (size_t b = 0; b < m->ks.nbucket; b++)
        for (sim_key *k = m->ks.bucket[b]; k; k = k->next)
            copy_key(&r->m->ks, k, master_now, replica_now);
}

/* The replica takes over its master's slots (a failover); the old master,
 * when it answers again, is a replica of it. */
int sim_cluster_promote(sim_cluster *c, int replica)
{
    node *r = &c->n[replica];
    int old = r->master_of;

    if (old < 0)
        return -1;
    for (int s = 0; s < SLOTS; s++) {
        if (c->owner[s] == old)
            c->owner[s] = (short)replica;
        if (c->importing[s] == old)
            c->importing[s] = (short)replica;
    }
    for (int i = 0; i < c->count; i++)
        if (c->n[i].master_of == old)
            c->n[i].master_of = replica;
    r->master_of = -1;
    c->n[old].master_of = replica;
    /* the history it continues: its old master's replication id */
    memcpy(r->replid2, c->n[old].m->replid, sizeof r->replid2);
    return old;
}

/* A node restarted: nothing it tells says it was ever a replica. */
void sim_cluster_restarted(sim_master *m)
{
    memcpy(m->cluster->n[m->cnode].replid2, zeros, sizeof zeros);
}

/* ---- what a node answers ------------------------------------------------- */

int sim_cluster_info_replication(const sim_master *m, char *t, size_t size)
{
    const node *x = &m->cluster->n[m->cnode];
    if (x->master_of >= 0) {
        const node *mm = &m->cluster->n[x->master_of];
        return snprintf(t, size, "# Replication\r\nrole:slave\r\nmaster_host:%s\r\nmaster_port:%d\r\n"
                        "master_link_status:up\r\nslave_read_only:1\r\nconnected_slaves:0\r\n"
                        "master_failover_state:no-failover\r\nmaster_replid:%s\r\n"
                        "master_replid2:%s\r\nmaster_repl_offset:0\r\nsecond_repl_offset:-1\r\n",
                        mm->host, mm->port, mm->m->replid, x->replid2);
    }
    int replicas = 0;
    for (int i = 0; i < m->cluster->count; i++)
        replicas += m->cluster->n[i].master_of == m->cnode;
    return snprintf(t, size, "# Replication\r\nrole:master\r\nconnected_slaves:%d\r\n"
                    "master_failover_state:no-failover\r\nmaster_replid:%s\r\nmaster_replid2:%s\r\n"
                    "master_repl_offset:0\r\nsecond_repl_offset:%s\r\n", replicas, m->replid,
                    x->replid2, strcmp(x->replid2, zeros) ? "1" : "-1");
}

static int put_node(sim_buf *out, const node *x)
{
    return sim_put_array(out, 4) || sim_put_cstr(out, x->host) || sim_put_int(out, x->port) ||
           sim_put_cstr(out, x->id) || sim_put_array(out, 0);
}

/* CLUSTER SLOTS: each run of slots one master serves, with its replicas */
static int slots(sim_master *m, sim_buf *out)
{
    const sim_cluster *c = m->cluster;
    long long runs = 0;
    int rc;

    for (int s = 0; s < SLOTS; s++)
        runs += c->owner[s] >= 0 && (s == 0 || c->owner[s - 1] != c->owner[s]);
    rc = sim_put_array(out, runs);
    for (int s = 0; s < SLOTS && rc == 0;) {
        int x = c->owner[s], e = s, nrep = 0;
        while (e + 1 < SLOTS && c->owner[e + 1] == x)
            e++;
        if (x >= 0) {
            for (int i = 0; i < c->count; i++)
                nrep += c->n[i].master_of == x;
            rc = sim_put_array(out, 3 + nrep) || sim_put_int(out, s) || sim_put_int(out, e) ||
                 put_node(out, &c->n[x]);
            for (int i = 0; i < c->count && rc == 0; i++)
                if (c->n[i].master_of == x)
                    rc = put_node(out, &c->n[i]);
        }
        s = e + 1;
    }
    return rc;
}

int sim_cluster_command(sim_master *m, int argc, sim_arg *argv, sim_buf *out)
{
    if (sim_eq(&argv[1], "slots") && argc == 2)
        return slots(m, out);
    if (sim_eq(&argv[1], "myid") && argc == 2)
        return sim_put_cstr(out, m->cluster->n[m->cnode].id);
    sim_fail(m, "CLUSTER %.*s is not simulated", (int)argv[1].len, argv[1].p);
    return -1;
}

/* Where a command's keys are: [*first, *first + *n), step 1; 0 none. */
static int keys_of(const sim_cmd *cmd, int argc, sim_arg *argv, int *first, int *n)
{
    static const char *const none[] = { "ping", "echo", "time", "info", "config", "client",
                                        "auth", "select", "hello", "wait", "cluster", "asking",
                                        "readonly", "quit", "subscribe", "unsubscribe",
                                        "publish", "pubsub", "script", "dbsize", "flushall",
                                        "keys" };
    long long nk;

    for (size_t i = 0; i < sizeof none / sizeof *none; i++)
        if (!strcmp(cmd->name, none[i]))
            return 0;
    if (!strcmp(cmd->name, "eval") || !strcmp(cmd->name, "evalsha")) {
        if (sim_arg_ll(&argv[2], &nk) != 0 || nk <= 0 || nk > argc - 3)
            return 0;   /* (the command itself says what is wrong) */
        *first = 3;
        *n = (int)nk;
        return 1;
    }
    *first = 1;
    *n = !strcmp(cmd->name, "del") || !strcmp(cmd->name, "unlink") ||
         !strcmp(cmd->name, "exists") || !strcmp(cmd->name, "mget") ? argc - 1 : 1;
    return 1;
}

static int redirect(sim_buf *out, const char *what, unsigned slot, const node *x)
{
    return sim_put_errorf(out, "%s %u %s:%d", what, slot, x->host, x->port) ? -1 : 1;
}

/* Redis's routing before a command runs (getNodeByQuery): 0 it runs here,
 * 1 answered with a redirect or an error, -1 out of memory. */
int sim_cluster_route(sim_master *m, const sim_cmd *cmd, int argc, sim_arg *argv, sim_buf *out)
{
    const sim_cluster *c = m->cluster;
    int first, n, missing = 0, owner, to;
    unsigned slot;

    if (!keys_of(cmd, argc, argv, &first, &n))
        return 0;
    slot = sim_keyslot(argv[first].p, argv[first].len);
    for (int i = first + 1; i < first + n; i++)
        if (sim_keyslot(argv[i].p, argv[i].len) != slot)
            return sim_put_error(out, "CROSSSLOT Keys in request don't hash to the same slot")
                       ? -1 : 1;
    owner = c->owner[slot];
    to = c->importing[slot];
    if (owner < 0)
        return sim_put_error(out, "CLUSTERDOWN Hash slot not served") ? -1 : 1;
    for (int i = first; i < first + n; i++)
        missing += !sim_ks_find(&m->ks, argv[i].p, argv[i].len, m->now);
    if (owner == m->cnode && to >= 0 && missing)
        return missing == n ? redirect(out, "ASK", slot, &c->n[to])
                            : (sim_put_error(out, "TRYAGAIN Multiple keys request during "
                                                  "rehashing of slot") ? -1 : 1);
    if (owner == m->cnode)
        return 0;
    if (to == m->cnode && m->cur && m->cur->asking) {
        if (n > 1 && missing)
            return sim_put_error(out, "TRYAGAIN Multiple keys request during rehashing of slot")
                       ? -1 : 1;
        return 0;
    }
    return redirect(out, "MOVED", slot, &c->n[owner]);
}
