/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_edge_promoted.c -- a cluster's promoted replica (docs/cluster.md,
 * "Failover is a restart"; docs/safety.md, assumption 6): one that
 * restarts is no durable master of its own keys to a client that meets it
 * then (its master_replid2 is zeros again); one promoted long before the
 * client met it is kept out for a window from that meeting, and its detail
 * says so; a MOVED to a master the map did not have starts its window;
 * replica_acks: locks wait for the replicas, and a promoted one needs no
 * window. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "clusters.h"
#include "itest.h"

static const char *const durable_args[] = { "--appendonly", "yes", "--appendfsync", "always",
                                            NULL };

static rlt_clusters *start(int votes, const char *const *extra)
{
    char err[512];
    rlt_clusters *c = rlt_clusters_start(votes, 1, 1, extra, err, sizeof err);
    CHECK_MSG(c != NULL, "clusters %dx1x1: %s", votes, err);
    return c;
}

/* A client of every vote, connected to them all. */
#define client(c, o)                                                                    \
    it_client_addrs(rlt_clusters_addresses(c), (size_t)rlt_clusters_votes(c), (o),      \
                    (size_t)rlt_clusters_votes(c))

/* 1 when node of vote v holds key (by its slot's keys), 0 when not. */
static int holds(rlt_clusters *c, int v, int node, const char *key)
{
    redisReply *r = rlt_clusters_command(c, v, node, "CLUSTER GETKEYSINSLOT %d 10",
                                         rlt_clusters_slot_of(key, strlen(key)));
    int has = 0;
    CHECK(r && r->type == REDIS_REPLY_ARRAY);
    for (size_t i = 0; i < r->elements; i++)
        has |= strcmp(r->element[i]->str, key) == 0;
    freeReplyObject(r);
    return has;
}

static int vote_of(const redlock_lock *l, size_t node, const char **detail)
{
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(l, node, &r), 0);
    *detail = r.detail;
    return r.vote;
}

/* Vote 0's master `node` stops replicating: what it takes next is on it
 * alone (its replica's PSYNC refused by an ACL, its link cut). */
static void cut_replication_of(rlt_clusters *c, int node)
{
    redisReply *r = rlt_clusters_command(c, 0, node, "ACL SETUSER default -psync -sync");
    CHECK(r && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    r = rlt_clusters_command(c, 0, node, "CLIENT KILL TYPE replica");
    CHECK(r && r->type == REDIS_REPLY_INTEGER);
    freeReplyObject(r);
}

/* The master_replid2 of vote v's node, "" on error. */
static void replid2(rlt_clusters *c, int v, int node, char *out, size_t size)
{
    redisReply *r = rlt_clusters_command(c, v, node, "INFO replication");
    const char *p = r && r->str ? strstr(r->str, "master_replid2:")
                                                          : NULL;
    out[0] = '\0';
    if (p)
        snprintf(out, size, "%.40s", p + strlen("master_replid2:"));
    if (r)
        freeReplyObject(r);
}

/* Client a holds "x" on a durable vote (appendonly yes, appendfsync
 * always); its replica, which never got the key, takes over and restarts.
 * A client b that meets it only then must not count it at once: its
 * durability keeps what it acknowledged, not the keys its old master
 * granted.  (b would get "x" while a holds it.) */
TEST(promoted_replica_restarted_is_not_counted_at_once)
{
    rlt_clusters *c = start(1, durable_args);
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 2000;       /* (new connections in a lock, valgrind) */
    o.key_prefix = "lock:";
    redlock_client *ca = client(c, &o);
    redlock_lock *a = IT_LOCK(ca, "x");
    char id2[48];

    cut_replication_of(c, 0);
    CHECK_EQ(redlock_acquire(a, 30000), 0);
    CHECK_EQ(holds(c, 0, 1, "lock:x"), 0);
    CHECK_EQ(rlt_clusters_failover(c, 0, 1, "TAKEOVER"), 0);
    CHECK_EQ(rlt_clusters_wait_promoted(c, 0, 1, 20000), 0);
    CHECK_EQ(rlt_clusters_restart(c, 0, 1), 0);
    CHECK_EQ(rlt_clusters_role(c, 0, 1), RLT_CLUSTER_MASTER);
    CHECK_EQ(holds(c, 0, 1, "lock:x"), 0);
    /* what a client meeting it now can read says no promotion */
    replid2(c, 0, 1, id2, sizeof id2);
    CHECK_MSG(strspn(id2, "0") == 40, "master_replid2 %s", id2);

    o.restart_guard_ms = -1;        /* the guard, automatic: b's ttl */
    redlock_client *cb = client(c, &o);
    redlock_lock *b = IT_LOCK(cb, "x");
    int rc = redlock_try_acquire(b, 30000);
    CHECK_MSG(rc != 0, "b got x while a holds it for %lld ms more",
              (long long)redlock_lock_validity(a));
    CHECK_GT(redlock_lock_validity(a), 0);
    const char *d = NULL;
    int vt = vote_of(b, 0, &d);
    CHECK_MSG(vt == REDLOCK_VOTE_UNCOUNTED, "vote %d (%s)", vt, d);
    CHECK_MSG(strstr(d, "a cluster's master") != NULL, "%s", d);
    redlock_lock_free(a);
    redlock_lock_free(b);
    redlock_client_free(ca);
    redlock_client_free(cb);
    rlt_clusters_stop(c);
}

/* A planned CLUSTER FAILOVER (nothing lost), then a client that meets the
 * promoted master: its master_replid2 says it was promoted, not when, so
 * the window runs from this meeting, and its detail says that, not "after
 * it took over its slots" (which could be long ago). */
TEST(promoted_replica_met_later_says_since_when)
{
    rlt_clusters *c = start(1, NULL);
    redlock_options o;

    CHECK_EQ(rlt_clusters_failover(c, 0, 1, NULL), 0);
    CHECK_EQ(rlt_clusters_wait_promoted(c, 0, 1, 20000), 0);
    it_opts(&o);
    o.node_timeout_ms = 2000;       /* (new connections in a lock, valgrind) */
    o.key_prefix = "lock:";
    o.restart_guard_ms = 60000;
    redlock_client *cb = client(c, &o);
    redlock_lock *b = IT_LOCK(cb, "x");
    const char *d = NULL;

    CHECK_EQ(redlock_try_acquire(b, 10000), REDLOCK_EUNCOUNTED);
    CHECK_EQ(vote_of(b, 0, &d), REDLOCK_VOTE_UNCOUNTED);
    CHECK_MSG(strstr(d, "after this client first saw it promoted") != NULL &&
                  strstr(d, "after it took over its slots") == NULL && strstr(d, "master_replid2"),
              "%s", d);
    redlock_lock_free(b);
    redlock_client_free(cb);
    rlt_clusters_stop(c);
}

/* ACL user "locker" (password "pw") on vote 0's node, with or without
 * CLUSTER SLOTS. */
static void locker(rlt_clusters *c, int node, int slots)
{
    redisReply *r = rlt_clusters_command(c, 0, node, "ACL SETUSER locker on >pw ~* &* +@all %s",
                                         slots ? "+cluster|slots" : "-cluster|slots");
    CHECK(r && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
}

/* Node's uptime_in_seconds, -1 on error. */
static long uptime(rlt_clusters *c, int node)
{
    redisReply *r = rlt_clusters_command(c, 0, node, "INFO server");
    const char *p = r && r->str ? strstr(r->str, "uptime_in_seconds:") : NULL;
    long s = p ? atol(p + strlen("uptime_in_seconds:")) : -1;
    if (r)
        freeReplyObject(r);
    return s;
}

/* The client's map names node 0; node 1, its replica, takes over (and
 * restarts from its AOF, so that nothing it tells says it was promoted, and is up past
 * the restart guard's window).  The client cannot read the map again (an
 * ACL refuses it CLUSTER SLOTS): only the MOVED of its next request says
 * the slot moved, to a master its map did not have, and that alone must
 * keep the new master out for the window. */
TEST(promoted_replica_shown_by_a_moved_alone_is_not_counted)
{
    /* (restarted from its AOF, its master_replid2 is zeros again) */
    static const char *const aof[] = { "--appendonly", "yes", NULL };
    rlt_clusters *c = start(1, aof);
    redlock_options o;
    long up = -1;

    for (int i = 0; i < 2; i++)
        locker(c, i, 1);
    it_opts(&o);
    o.node_timeout_ms = 2000;       /* (new connections in a lock, valgrind) */
    o.key_prefix = "lock:";
    o.user = "locker";
    o.password = "pw";
    o.cluster_refresh_ms = 0;       /* the map is read again only when told */
    o.restart_guard_ms = 1000;
    redlock_client *cl = client(c, &o);
    redlock_lock *l = IT_LOCK(cl, "x");
    const char *d = NULL;

    CHECK_EQ(redlock_try_acquire(l, 10000), 0);     /* from node 0, by the map */
    CHECK_EQ(redlock_release(l), 0);
    locker(c, 0, 0);
    CHECK_EQ(rlt_clusters_failover(c, 0, 1, NULL), 0);
    CHECK_EQ(rlt_clusters_wait_promoted(c, 0, 1, 20000), 0);
    CHECK_EQ(rlt_clusters_restart(c, 0, 1), 0);
    CHECK_EQ(rlt_clusters_role(c, 0, 1), RLT_CLUSTER_MASTER);
    locker(c, 1, 0);
    /* past its restart's window (uptime is whole seconds) */
    for (int i = 0; i < 300 && (up = uptime(c, 1)) < 1; i++)
        usleep(10000);
    CHECK_GE(up, 1);

    CHECK_EQ(redlock_try_acquire(l, 10000), REDLOCK_EUNCOUNTED);
    CHECK_EQ(vote_of(l, 0, &d), REDLOCK_VOTE_UNCOUNTED);
    CHECK_MSG(strstr(d, "after it took over its slots (took slots") != NULL, "%s", d);
    redlock_lock_free(l);
    redlock_client_free(cl);
    rlt_clusters_stop(c);
}

/* Calls of WAIT node has run (INFO commandstats), -1 on error. */
static long waits(rlt_clusters *c, int node)
{
    redisReply *r = rlt_clusters_command(c, 0, node, "INFO commandstats");
    const char *p = r && r->str ? strstr(r->str, "cmdstat_wait:calls=") : NULL;
    long n = !r || !r->str ? -1 : p ? atol(p + strlen("cmdstat_wait:calls=")) : 0;
    if (r)
        freeReplyObject(r);
    return n;
}

/* replica_acks: an acquire counts once its master's replica has it (one
 * WAIT); without a replica's acknowledgement its vote is an error, and
 * the write is undone.  A client without the option sends no WAIT. */
TEST(replica_acks_lock_waits_for_the_replica)
{
    rlt_clusters *c = start(1, NULL);
    redlock_options o;
    const char *d = NULL;

    it_opts(&o);
    o.node_timeout_ms = 2000;       /* (new connections in a lock, valgrind) */
    o.key_prefix = "lock:";
    redlock_client *plain = client(c, &o);
    o.replica_acks = 1;
    o.replica_wait_ms = 200;
    redlock_client *cl = client(c, &o);
    redlock_lock *p = IT_LOCK(plain, "p"), *x = IT_LOCK(cl, "x"), *y = IT_LOCK(cl, "y");
    long w0 = waits(c, 0);

    CHECK_EQ(redlock_try_acquire(p, 10000), 0);
    CHECK_EQ(redlock_release(p), 0);
    CHECK_EQ(waits(c, 0), w0);                  /* a plain lock pays nothing */
    CHECK_EQ(redlock_try_acquire(x, 10000), 0);
    CHECK_EQ(waits(c, 0), w0 + 1);
    CHECK_EQ(holds(c, 0, 1, "lock:x"), 1);      /* on the replica before the OK */
    CHECK_EQ(redlock_extend(x, 10000), 0);
    CHECK_EQ(waits(c, 0), w0 + 2);

    cut_replication_of(c, 0);
    CHECK_EQ(redlock_try_acquire(y, 10000), REDLOCK_ESERVER);
    CHECK_EQ(vote_of(y, 0, &d), REDLOCK_VOTE_ERROR);
    CHECK_MSG(strstr(d, "REPLICAS 0 of 1 replicas acknowledged it") != NULL, "%s", d);
    CHECK_EQ(holds(c, 0, 0, "lock:y"), 0);      /* undone */
    redlock_lock_free(p);
    redlock_lock_free(x);
    redlock_lock_free(y);
    redlock_client_free(plain);
    redlock_client_free(cl);
    rlt_clusters_stop(c);
}

/* Locks written with replica_acks are on the replica that takes over, so
 * it needs no window: a client with the option counts it at once (and is
 * refused the lock it holds), one without keeps it out for the window
 * (1 s, fixed: the nodes are up for longer, past their start's). */
TEST(replica_acks_promoted_replica_needs_no_window)
{
    rlt_clusters *c = start(1, NULL);
    redlock_options o;
    const char *d = NULL;

    for (int i = 0; i < 300 && (uptime(c, 0) < 1 || uptime(c, 1) < 1); i++)
        usleep(10000);
    CHECK_GE(uptime(c, 1), 1);
    it_opts(&o);
    o.node_timeout_ms = 2000;       /* (new connections in a lock, valgrind) */
    o.key_prefix = "lock:";
    o.restart_guard_ms = 1000;
    o.replica_acks = 1;
    redlock_client *ca = client(c, &o);
    redlock_lock *a = IT_LOCK(ca, "x");
    CHECK_EQ(redlock_acquire(a, 30000), 0);
    CHECK_EQ(rlt_clusters_failover(c, 0, 1, "TAKEOVER"), 0);
    CHECK_EQ(rlt_clusters_wait_promoted(c, 0, 1, 20000), 0);
    CHECK_EQ(holds(c, 0, 1, "lock:x"), 1);

    redlock_client *cb = client(c, &o);
    redlock_lock *b = IT_LOCK(cb, "x"), *y = IT_LOCK(cb, "y");
    CHECK_EQ(redlock_try_acquire(b, 30000), REDLOCK_ENOQUORUM);
    CHECK_EQ(vote_of(b, 0, &d), REDLOCK_VOTE_REFUSED);
    CHECK_MSG(redlock_try_acquire(y, 30000) == 0, "%s", it_errstr(y));
    CHECK_EQ(redlock_extend(a, 30000), 0);      /* a's client, after the MOVED */

    o.replica_acks = 0;
    redlock_client *cc = client(c, &o);
    redlock_lock *z = IT_LOCK(cc, "z");
    CHECK_EQ(redlock_try_acquire(z, 30000), REDLOCK_EUNCOUNTED);
    CHECK_EQ(vote_of(z, 0, &d), REDLOCK_VOTE_UNCOUNTED);
    redlock_lock_free(a);
    redlock_lock_free(b);
    redlock_lock_free(y);
    redlock_lock_free(z);
    redlock_client_free(ca);
    redlock_client_free(cb);
    redlock_client_free(cc);
    rlt_clusters_stop(c);
}

/* A multi-resource lock over the two shards of a cluster: each part waits
 * for its own master's replica (one WAIT on each master); when one
 * master's replica cannot acknowledge, the vote is an error and the other
 * part is let go. */
TEST(replica_acks_multi_resource_lock_waits_on_each_shard)
{
    char err[512], names[2][16] = { "", "" }, keys[2][32];
    rlt_clusters *c = rlt_clusters_start(1, 2, 1, NULL, err, sizeof err);
    CHECK_MSG(c != NULL, "clusters 1x2x1: %s", err);
    for (int i = 0, found = 0; found < 2 && i < 1000; i++) {
        char key[32];
        snprintf(key, sizeof key, "lock:m%d", i);
        int at = rlt_clusters_master_of_slot(c, 0, rlt_clusters_slot_of(key, strlen(key)));
        if (at >= 0 && at < 2 && !names[at][0]) {
            snprintf(names[at], sizeof names[at], "m%d", i);
            snprintf(keys[at], sizeof keys[at], "%s", key);
            found++;
        }
    }
    CHECK(names[0][0] && names[1][0]);
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 2000;
    o.key_prefix = "lock:";
    o.replica_acks = 1;
    o.replica_wait_ms = 200;
    redlock_client *cl = client(c, &o);
    const void *res[2] = { names[0], names[1] };
    size_t lens[2] = { strlen(names[0]), strlen(names[1]) };
    redlock_lock *m;
    const char *d = NULL;
    long w[2] = { waits(c, 0), waits(c, 1) };

    CHECK_EQ(redlock_lock_new_multi(&m, cl, res, lens, 2), 0);
    CHECK_EQ(redlock_try_acquire(m, 10000), 0);
    for (int s = 0; s < 2; s++) {
        CHECK_EQ(waits(c, s), w[s] + 1);
        CHECK_EQ(holds(c, 0, 2 + (rlt_clusters_master_of(c, 0, 2) != s), keys[s]), 1);
    }
    CHECK_EQ(redlock_release(m), 0);

    cut_replication_of(c, 1);
    CHECK_EQ(redlock_try_acquire(m, 10000), REDLOCK_ESERVER);
    CHECK_EQ(vote_of(m, 0, &d), REDLOCK_VOTE_ERROR);
    CHECK_MSG(strstr(d, "REPLICAS 0 of 1") != NULL, "%s", d);
    CHECK_EQ(holds(c, 0, 0, keys[0]), 0);       /* let go */
    redlock_lock_free(m);
    redlock_client_free(cl);
    rlt_clusters_stop(c);
}
