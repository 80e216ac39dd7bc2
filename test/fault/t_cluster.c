/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_cluster.c -- votes that are Redis Clusters (cluster/), against real
 * clusters on loopback (support/clusters.h): every kind on its slot's
 * master, connections opened on demand, MOVED and ASK followed, failover
 * as a restart (two holders without the guard, none with it), and bad
 * configurations said per node. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <hiredis/hiredis.h>

#include "clusters.h"
#include "itest.h"

static redlock_client *cl_client(rlt_clusters *c, const redlock_options *o)
{
    size_t n = (size_t)rlt_clusters_votes(c);
    return it_client_addrs(rlt_clusters_addresses(c), n, o, n);
}

/* 1 when node holds key, 0 when not, -1 on error.  By its slot's keys:
 * a node importing the slot answers EXISTS with MOVED. */
static int node_has(rlt_clusters *c, int vote, int node, const char *key)
{
    redisReply *r = rlt_clusters_command(c, vote, node, "CLUSTER GETKEYSINSLOT %d 1000",
                                         rlt_clusters_slot_of(key, strlen(key)));
    int v = r && r->type == REDIS_REPLY_ARRAY ? 0 : -1;
    for (size_t i = 0; v == 0 && i < r->elements; i++)
        v = strcmp(r->element[i]->str, key) == 0;
    if (r)
        freeReplyObject(r);
    return v;
}

/* On which node of the vote the key is; -1: none, -2: more than one. */
static int where(rlt_clusters *c, int vote, const char *key)
{
    int at = -1;
    for (int i = 0; i < rlt_clusters_nodes(c, vote); i++) {
        if (rlt_clusters_role(c, vote, i) != RLT_CLUSTER_MASTER)
            continue;
        if (node_has(c, vote, i, key) == 1)
            at = at == -1 ? i : -2;
    }
    return at;
}

static int vote_of(const redlock_lock *l, size_t node, const char **detail)
{
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(l, node, &r), 0);
    if (detail)
        *detail = r.detail;
    return r.vote;
}

/* A resource on each master of vote 0: names whose slots fall on each. */
static void names_on_each(rlt_clusters *c, char names[][16], int shards)
{
    int found = 0;
    for (int i = 0; found < shards && i < 1000; i++) {
        char key[32];
        snprintf(key, sizeof key, "lock:r%d", i);
        int at = rlt_clusters_master_of_slot(c, 0, rlt_clusters_slot_of(key, strlen(key)));
        CHECK(at >= 0);
        if (names[at][0] == '\0') {
            snprintf(names[at], 16, "r%d", i);
            found++;
        }
    }
    CHECK_EQ(found, shards);
}

TEST(cluster_votes_every_kind_on_its_slots_master)
{
    rlt_clusters *c = it_clusters(3, 3, 0);
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    redlock_client *cli = cl_client(c, &o);
    char names[3][16] = { "", "", "" };
    names_on_each(c, names, 3);

    for (int s = 0; s < 3; s++) {
        char key[64];
        snprintf(key, sizeof key, "lock:%s", names[s]);
        redlock_lock *l = it_lock(cli, names[s], strlen(names[s]));
        CHECK_EQ(redlock_acquire(l, 10000), 0);
        /* every vote that said OK took it on its slot's master, alone (a
         * blocking client decides at the quorum: the last vote may wait
         * for its next call) */
        int oks = 0;
        for (int v = 0; v < 3; v++) {
            int owner = rlt_clusters_master_of_slot(c, v, rlt_clusters_slot_of(key, strlen(key)));
            if (vote_of(l, (size_t)v, NULL) != REDLOCK_VOTE_OK)
                continue;
            oks++;
            CHECK_MSG(where(c, v, key) == owner, "vote %d: %s on node %d, not on its slot's "
                      "master %d", v, key, where(c, v, key), owner);
        }
        CHECK_GE(oks, 2);
        CHECK_EQ(redlock_release(l), 0);
        for (int v = 0; v < 3; v++)
            if (vote_of(l, (size_t)v, NULL) == REDLOCK_VOTE_OK)
                CHECK_EQ(where(c, v, key), -1);
        redlock_lock_free(l);
    }

    /* the other kinds: every key of one resource in its slot, one script */
    redlock_lock *re, *rd, *wr, *sem, *fen;
    CHECK_EQ(redlock_lock_new_reentrant(&re, cli, names[1], strlen(names[1]), "me", 2), 0);
    CHECK_EQ(redlock_acquire(re, 10000), 0);
    CHECK_EQ(redlock_acquire(re, 10000), 0);
    CHECK_EQ(redlock_release(re), 0);
    CHECK_EQ(redlock_release(re), 0);
    CHECK_EQ(redlock_lock_new_read(&rd, cli, names[2], strlen(names[2])), 0);
    CHECK_EQ(redlock_lock_new_write(&wr, cli, names[2], strlen(names[2])), 0);
    CHECK_EQ(redlock_acquire(rd, 10000), 0);
    CHECK(redlock_acquire(wr, 10000) != 0);     /* a reader holds it */
    CHECK_EQ(redlock_release(rd), 0);
    CHECK_EQ(redlock_acquire(wr, 10000), 0);
    CHECK_EQ(redlock_release(wr), 0);
    CHECK_EQ(redlock_lock_new_semaphore(&sem, cli, names[0], strlen(names[0]), 2), 0);
    int src = redlock_acquire(sem, 10000);
    CHECK_MSG(src == 0, "semaphore: %d %s", src, it_errstr(sem));
    CHECK_EQ(redlock_release(sem), 0);
    CHECK_EQ(redlock_lock_new(&fen, cli, names[0], strlen(names[0])), 0);
    CHECK_EQ(redlock_lock_set_fencing(fen, 1), 0);
    CHECK_EQ(redlock_acquire(fen, 10000), 0);
    int64_t t1 = redlock_lock_token(fen);
    CHECK_EQ(redlock_release(fen), 0);
    CHECK_EQ(redlock_acquire(fen, 10000), 0);
    CHECK_GT(redlock_lock_token(fen), t1);
    CHECK_EQ(redlock_release(fen), 0);
    /* the counter, in its resource's slot: on that slot's master alone */
    int counters = 0;
    for (int v = 0; v < 3; v++) {
        char fk[48];
        snprintf(fk, sizeof fk, "{lock:%s}:fence", names[0]);
        int at = where(c, v, fk);
        CHECK(at == -1 ||
              at == rlt_clusters_master_of_slot(c, v, rlt_clusters_slot_of(fk, strlen(fk))));
        counters += at >= 0;
    }
    CHECK_GE(counters, 2);
    redlock_lock_free(re);
    redlock_lock_free(rd);
    redlock_lock_free(wr);
    redlock_lock_free(sem);
    redlock_lock_free(fen);
    redlock_client_free(cli);
    rlt_clusters_stop(c);
}

/* Our connections to a node: CLIENT LIST lines with our library's name
 * are not set, so count connections other than this CLIENT LIST's own. */
static int conns(rlt_clusters *c, int vote, int node)
{
    redisReply *r = rlt_clusters_command(c, vote, node, "CLIENT LIST TYPE normal");
    int n = -1;
    if (r && r->type == REDIS_REPLY_STRING) {
        n = 0;
        for (const char *p = r->str; (p = strstr(p, "cmd=")) != NULL; p++)
            n += strncmp(p, "cmd=client|list", 15) != 0;
    }
    if (r)
        freeReplyObject(r);
    return n;
}

TEST(cluster_vote_opens_a_shards_connection_on_first_use)
{
    rlt_clusters *c = it_clusters(1, 3, 0);
    char seed[64], names[3][16] = { "", "", "" };
    names_on_each(c, names, 3);
    /* one seed: the other masters are known from its map only */
    snprintf(seed, sizeof seed, "redis-cluster://127.0.0.1:%d", rlt_clusters_port(c, 0, 0));
    const char *addrs[1] = { seed };
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    redlock_client *cli = it_client_addrs(addrs, 1, &o, 1);
    redlock_lock *l = it_lock(cli, names[0], strlen(names[0]));
    CHECK_EQ(redlock_acquire(l, 10000), 0);     /* on node 0: the map is read */
    CHECK_EQ(redlock_release(l), 0);
    CHECK_EQ(conns(c, 0, 2), 0);
    redlock_lock_free(l);
    l = it_lock(cli, names[2], strlen(names[2]));
    CHECK_EQ(redlock_acquire(l, 10000), 0);
    CHECK_EQ(conns(c, 0, 2), 1);                /* one, pipelined */
    for (int i = 0; i < 20; i++) {
        CHECK_EQ(redlock_release(l), 0);
        CHECK_EQ(redlock_acquire(l, 10000), 0);
    }
    CHECK_EQ(conns(c, 0, 2), 1);
    CHECK_EQ(redlock_release(l), 0);
    redlock_lock_free(l);
    redlock_client_free(cli);
    rlt_clusters_stop(c);
}

/* One vote (a cluster of two masters): its answer decides every operation. */
TEST(cluster_vote_follows_moved_and_ask)
{
    rlt_clusters *c = it_clusters(1, 2, 0);
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    o.cluster_refresh_ms = 0;   /* the map changes only when a reply says so */
    redlock_client *cli = cl_client(c, &o);
    const char *key = "lock:moving";
    int slot = rlt_clusters_slot_of(key, strlen(key));
    int from = rlt_clusters_master_of_slot(c, 0, slot), to = 1 - from;
    redlock_lock *l = IT_LOCK(cli, "moving");
    char before[1024];

    it_keyspace(NULL, c, before, sizeof before);
    CHECK_EQ(redlock_acquire(l, 10000), 0);     /* the client's map has `from` */
    CHECK_EQ(where(c, 0, key), from);
    /* MOVED: the key's slot goes to the other master, with the key */
    CHECK_EQ(rlt_clusters_move_slot(c, 0, slot, to), 0);
    CHECK_EQ(where(c, 0, key), to);
    long long moved = it_cluster_errors(c, 0, from, "MOVED");
    CHECK_EQ(redlock_extend(l, 10000), 0);
    CHECK_EQ(vote_of(l, 0, NULL), REDLOCK_VOTE_OK);   /* not an error: followed */
    CHECK_EQ(it_cluster_errors(c, 0, from, "MOVED"), moved + 1);
    CHECK_EQ(redlock_release(l), 0);
    CHECK_EQ(vote_of(l, 0, NULL), REDLOCK_VOTE_OK);
    CHECK_EQ(where(c, 0, key), -1);
    CHECK_EQ(redlock_acquire(l, 10000), 0);
    CHECK_EQ(vote_of(l, 0, NULL), REDLOCK_VOTE_OK);
    CHECK_EQ(where(c, 0, key), to);
    CHECK_EQ(redlock_release(l), 0);

    /* ASK: a migration back begins; the key is absent on its owner, so
     * the owner says ASK, and the importing master takes it */
    CHECK_EQ(rlt_clusters_migrate_begin(c, 0, slot, from), 0);
    long long asked = it_cluster_errors(c, 0, to, "ASK");
    CHECK_EQ(redlock_acquire(l, 10000), 0);
    CHECK_EQ(vote_of(l, 0, NULL), REDLOCK_VOTE_OK);
    CHECK_EQ(it_cluster_errors(c, 0, to, "ASK"), asked + 1);
    CHECK_EQ(where(c, 0, key), from);
    CHECK_EQ(redlock_release(l), 0);             /* ASK again, on to `from` */
    CHECK_EQ(vote_of(l, 0, NULL), REDLOCK_VOTE_OK);
    CHECK_EQ(where(c, 0, key), -1);
    CHECK_EQ(rlt_clusters_migrate_end(c, 0, slot), 0);
    it_wait_keyspace(NULL, NULL, c, before, 1000);      /* nothing left */
    redlock_lock_free(l);
    redlock_client_free(cli);
    rlt_clusters_stop(c);
}

/* Vote v's master stops replicating to its replica: the replica's PSYNC is
 * refused from now on, and its link is cut.  What the master takes next
 * is on the master alone. */
static void cut_replication(rlt_clusters *c, int v, int master)
{
    redisReply *r = rlt_clusters_command(c, v, master, "ACL SETUSER default -psync -sync");
    CHECK(r && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    r = rlt_clusters_command(c, v, master, "CLIENT KILL TYPE replica");
    CHECK(r && r->type == REDIS_REPLY_INTEGER);
    freeReplyObject(r);
}

/* The replica of vote v's master 0 (1 shard, 1 replica: node 1). */
static void promote_without_the_key(rlt_clusters *c, int v, const char *key)
{
    CHECK_EQ(node_has(c, v, 1, key), 0);
    CHECK_EQ(rlt_clusters_failover(c, v, 1, "TAKEOVER"), 0);
    CHECK_EQ(rlt_clusters_wait_promoted(c, v, 1, 20000), 0);
    CHECK_EQ(node_has(c, v, 1, key), 0);
}

/* Client a holds "x" on three votes (clusters of one shard and a replica);
 * votes 0 and 1 fail over to replicas that never got the key.  Client b,
 * with the guard on or off, then asks for "x": 1 when it got it. */
static int second_holder_after_failover(int guard)
{
    rlt_clusters *c = it_clusters(3, 1, 1);
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    redlock_client *ca = cl_client(c, &o);
    o.restart_guard_ms = guard ? -1 : 0;
    redlock_client *cb = cl_client(c, &o);
    redlock_lock *a = IT_LOCK(ca, "x"), *b = IT_LOCK(cb, "x"), *warm = IT_LOCK(cb, "y");
    int got;

    /* b has read its maps and counts: with the guard, once the masters'
     * start is one (short) ttl behind */
    int rc = -1;
    for (int i = 0; i < 200 && rc != 0; i++)
        rc = redlock_acquire(warm, 50);
    CHECK_EQ(rc, 0);
    cut_replication(c, 0, 0);
    cut_replication(c, 1, 0);
    CHECK_EQ(redlock_acquire(a, 20000), 0);
    promote_without_the_key(c, 0, "lock:x");
    promote_without_the_key(c, 1, "lock:x");
    got = redlock_acquire(b, 5000) == 0;
    if (got) {
        CHECK_GT(redlock_lock_validity(a), 0);  /* a still believes it holds "x" */
    } else {
        /* the promoted masters are not counted (one may not have answered
         * before the decision), vote 2 refused */
        int uncounted = 0;
        for (size_t v = 0; v < 2; v++) {
            const char *d = NULL;
            int vt = vote_of(b, v, &d);
            CHECK_MSG(vt == REDLOCK_VOTE_UNCOUNTED || vt == REDLOCK_VOTE_NONE, "vote %zu: %d", v,
                      vt);
            if (vt == REDLOCK_VOTE_UNCOUNTED) {
                CHECK_MSG(strstr(d, "took over") || strstr(d, "promoted"), "vote %zu: %s", v, d);
                uncounted++;
            }
        }
        CHECK_GE(uncounted, 1);
        CHECK(vote_of(b, 2, NULL) != REDLOCK_VOTE_OK);
    }
    redlock_lock_free(a);
    redlock_lock_free(b);
    redlock_lock_free(warm);
    redlock_client_free(ca);
    redlock_client_free(cb);
    rlt_clusters_stop(c);
    return got;
}

TEST(cluster_failover_without_the_guard_gives_two_holders)
{
    CHECK_EQ(second_holder_after_failover(0), 1);
}

TEST(cluster_failover_with_the_guard_gives_none)
{
    CHECK_EQ(second_holder_after_failover(1), 0);
}

TEST(cluster_seed_not_in_cluster_mode_is_said)
{
    rlt_servers *s = it_start(3, NULL);
    char a0[64];
    snprintf(a0, sizeof a0, "redis-cluster://%s", rlt_servers_addr(s, 0));
    const char *addrs[3] = { a0, rlt_servers_addr(s, 1), rlt_servers_addr(s, 2) };
    redlock_options o;
    it_opts(&o);
    /* (vote 0 never reads a map: it is never connected) */
    redlock_client *cli = it_client_addrs(addrs, 3, &o, 2);
    redlock_lock *l = IT_LOCK(cli, "plain"), *last = IT_LOCK(cli, "last");
    const char *d = "";
    char seen[512] = "";    /* (a detail lives until the lock's next operation) */

    /* the first requests may leave with the CLUSTER SLOTS that finds out:
     * their OK never counts (no map yet); then it is said, unsent */
    for (int i = 0; i < 100 && !strstr(seen, "not a cluster node"); i++) {
        CHECK_EQ(redlock_acquire(l, 10000), 0);     /* 2 of 3 */
        int v = vote_of(l, 0, &d);
        CHECK_MSG(v != REDLOCK_VOTE_OK, "node 0 counted: %s", d);
        snprintf(seen, sizeof seen, "%s", d);
        CHECK_EQ(redlock_release(l), 0);
    }
    CHECK_MSG(strstr(seen, "not a cluster node") != NULL, "node 0: %s", seen);
    CHECK_EQ(redlock_acquire(last, 10000), 0);
    CHECK_EQ(vote_of(last, 0, &d), REDLOCK_VOTE_ERROR);
    CHECK_EQ(rlt_servers_exists(s, 0, "last", 4), 0);   /* never sent */
    CHECK_EQ(redlock_release(last), 0);
    redlock_lock_free(last);
    redlock_lock_free(l);
    redlock_client_free(cli);
    rlt_servers_free(s);
}

TEST(cluster_lost_slot_coverage_is_said)
{
    rlt_clusters *c = it_clusters(3, 2, 0);
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    const char *key = "lock:hole";
    int slot = rlt_clusters_slot_of(key, strlen(key));
    /* every master forgets the slot (each keeps its own view) */
    for (int i = 0; i < 2; i++) {
        redisReply *r = rlt_clusters_command(c, 0, i, "CLUSTER DELSLOTS %d", slot);
        CHECK_MSG(r && r->type == REDIS_REPLY_STATUS, "DELSLOTS on node %d: %s", i,
                  r ? r->str : "no reply");
        freeReplyObject(r);
    }
    redlock_client *cli = cl_client(c, &o);
    redlock_lock *l = IT_LOCK(cli, "hole");
    const char *d = "";
    char seen[512] = "";

    /* once the map is read (the first request may leave before it: the
     * cluster's CLUSTERDOWN then), the hole is said, unsent */
    for (int i = 0; i < 100 && !strstr(seen, "lost slot coverage"); i++) {
        CHECK_EQ(redlock_acquire(l, 10000), 0);     /* votes 1 and 2 */
        int v = vote_of(l, 0, &d);
        /* (a CLUSTERDOWN may come after the decision: no vote then) */
        CHECK_MSG(v == REDLOCK_VOTE_ERROR || v == REDLOCK_VOTE_NONE, "node 0 voted %d", v);
        CHECK_MSG(!d[0] || strstr(d, "lost slot coverage") || strstr(d, "CLUSTERDOWN"),
                  "node 0: %s", d);
        snprintf(seen, sizeof seen, "%s", d);
        CHECK_EQ(redlock_release(l), 0);
    }
    CHECK_MSG(strstr(seen, "lost slot coverage") != NULL, "node 0: %s", seen);
    redlock_lock_free(l);
    redlock_client_free(cli);
    rlt_clusters_stop(c);
}

/* Votes 0 and 2 name one cluster (by different seeds); vote 1's cluster is
 * gone.  A re-entrant acquire is granted twice by one server (the same
 * owner): counted twice, that would be a quorum of 2 on one server. */
TEST(cluster_two_votes_on_one_cluster_count_once)
{
    rlt_clusters *c = it_clusters(2, 2, 0);
    char same[64];
    snprintf(same, sizeof same, "redis-cluster://127.0.0.1:%d", rlt_clusters_port(c, 0, 1));
    const char *addrs[3] = { rlt_clusters_address(c, 0), rlt_clusters_address(c, 1), same };
    for (int i = 0; i < rlt_clusters_nodes(c, 1); i++)
        CHECK_EQ(rlt_clusters_kill(c, 1, i), 0);
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    redlock_client *cli = it_client_addrs(addrs, 3, &o, 2);
    redlock_lock *l;
    const char *d = NULL;

    CHECK_EQ(redlock_lock_new_reentrant(&l, cli, "twice", 5, "me", 2), 0);
    int rc = redlock_acquire(l, 10000);
    CHECK_MSG(rc != 0, "acquired: votes %d %d %d", vote_of(l, 0, NULL), vote_of(l, 1, NULL),
              vote_of(l, 2, &d));
    CHECK_EQ(vote_of(l, 0, NULL), REDLOCK_VOTE_OK);
    CHECK_EQ(vote_of(l, 2, &d), REDLOCK_VOTE_UNCOUNTED);
    CHECK_MSG(strstr(d, "shares a server with node 0") != NULL, "node 2: %s", d);
    redlock_lock_free(l);
    redlock_client_free(cli);
    rlt_clusters_stop(c);
}

/* The number of votes on which key holds a value other than none. */
static int holders_of(rlt_clusters *c, const char *key)
{
    int n = 0;
    for (int v = 0; v < rlt_clusters_votes(c); v++)
        n += where(c, v, key) >= 0;
    return n;
}

/* A multi-resource lock over three shards of each cluster: one script per
 * slot.  Vote 0 refuses one resource: its other two shards let theirs go
 * at once, while the lock holds on votes 1 and 2.  Refused on two votes,
 * the lock is lost and nothing of it stays anywhere. */
TEST(cluster_multi_resource_lock_across_shards)
{
    rlt_clusters *c = it_clusters(3, 3, 0);
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    redlock_client *cli = cl_client(c, &o);
    char names[3][16] = { "", "", "" }, keys[3][64], other[64];
    names_on_each(c, names, 3);
    const void *res[3] = { names[0], names[1], names[2] };
    size_t lens[3] = { strlen(names[0]), strlen(names[1]), strlen(names[2]) };
    redlock_lock *m, *pass = IT_LOCK(cli, "pass");
    for (int i = 0; i < 3; i++)
        snprintf(keys[i], sizeof keys[i], "lock:%s", names[i]);

    /* whole: every key on its slot's master, on every vote that said OK */
    CHECK_EQ(redlock_lock_new_multi(&m, cli, res, lens, 3), 0);
    CHECK_EQ(redlock_acquire(m, 10000), 0);
    for (int v = 0; v < 3; v++)
        if (vote_of(m, (size_t)v, NULL) == REDLOCK_VOTE_OK)
            for (int i = 0; i < 3; i++)
                CHECK_EQ(where(c, v, keys[i]), rlt_clusters_master_of_slot(
                                                   c, v, rlt_clusters_slot_of(keys[i], strlen(keys[i]))));
    CHECK_EQ(redlock_release(m), 0);
    CHECK_EQ(redlock_acquire(pass, 1000), 0);      /* (the loop runs: late deletes land) */
    CHECK_EQ(redlock_release(pass), 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(holders_of(c, keys[i]), 0);

    /* vote 0's third shard refuses */
    int owner = rlt_clusters_master_of_slot(c, 0, rlt_clusters_slot_of(keys[2], strlen(keys[2])));
    redisReply *r = rlt_clusters_command(c, 0, owner, "SET %s foreign PX 60000", keys[2]);
    CHECK(r && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    CHECK_EQ(redlock_acquire(m, 10000), 0);
    CHECK(vote_of(m, 0, NULL) != REDLOCK_VOTE_OK);
    CHECK_EQ(redlock_acquire(pass, 1000), 0);
    CHECK_EQ(redlock_release(pass), 0);
    CHECK_GT(redlock_lock_validity(m), 0);
    CHECK_EQ(where(c, 0, keys[0]), -1);    /* rolled back on vote 0 */
    CHECK_EQ(where(c, 0, keys[1]), -1);
    CHECK_EQ(where(c, 0, keys[2]), owner);
    CHECK_EQ(redlock_release(m), 0);

    /* refused on votes 0 and 1: lost, and undone everywhere */
    snprintf(other, sizeof other, "%s", keys[2]);
    owner = rlt_clusters_master_of_slot(c, 1, rlt_clusters_slot_of(other, strlen(other)));
    r = rlt_clusters_command(c, 1, owner, "SET %s foreign PX 60000", other);
    CHECK(r && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    CHECK_EQ(redlock_acquire(m, 10000), REDLOCK_ENOQUORUM);
    CHECK_EQ(redlock_acquire(pass, 1000), 0);
    CHECK_EQ(redlock_release(pass), 0);
    CHECK_EQ(holders_of(c, keys[0]), 0);
    CHECK_EQ(holders_of(c, keys[1]), 0);
    CHECK_EQ(holders_of(c, keys[2]), 2);   /* the foreign ones alone */
    redlock_lock_free(m);
    redlock_lock_free(pass);
    redlock_client_free(cli);
    rlt_clusters_stop(c);
}

/* The map is reread every cluster_refresh_ms: after a slot moved, and the
 * client's loop ran for a few periods, the next request goes straight to
 * the new master (no MOVED). */
TEST(cluster_map_is_reread_every_refresh_period)
{
    rlt_clusters *c = it_clusters(1, 2, 0);
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    o.cluster_refresh_ms = 50;
    redlock_client *cli = cl_client(c, &o), *other = cl_client(c, &o);
    const char *key = "lock:reread";
    int slot = rlt_clusters_slot_of(key, strlen(key));
    int from = rlt_clusters_master_of_slot(c, 0, slot), to = 1 - from;
    redlock_lock *l = IT_LOCK(cli, "reread"), *busy = IT_LOCK(cli, "busy");
    redlock_lock *holder = IT_LOCK(other, "busy");

    CHECK_EQ(redlock_acquire(l, 10000), 0);
    CHECK_EQ(rlt_clusters_move_slot(c, 0, slot, to), 0);
    long long moved = it_cluster_errors(c, 0, from, "MOVED");
    /* the loop runs while the client waits for a lock held elsewhere */
    CHECK_EQ(redlock_acquire(holder, 10000), 0);
    CHECK(redlock_acquire_for(busy, 400, 1000) != 0);
    CHECK_EQ(redlock_extend(l, 10000), 0);
    CHECK_EQ(vote_of(l, 0, NULL), REDLOCK_VOTE_OK);
    CHECK_EQ(it_cluster_errors(c, 0, from, "MOVED"), moved);
    CHECK_EQ(where(c, 0, key), to);
    CHECK_EQ(redlock_release(l), 0);
    CHECK_EQ(redlock_release(holder), 0);
    redlock_lock_free(l);
    redlock_lock_free(busy);
    redlock_lock_free(holder);
    redlock_client_free(other);
    redlock_client_free(cli);
    rlt_clusters_stop(c);
}

/* A cluster behind a password: the address's credentials serve every
 * master the map names, not only the seed. */
TEST(cluster_vote_with_a_password)
{
    static const char *const extra[] = { "--requirepass", "s3cr/t@x", NULL };
    char err[512];
    rlt_clusters *c = rlt_clusters_start(1, 3, 0, extra, err, sizeof err);
    CHECK_MSG(c != NULL, "clusters: %s", err);
    char names[3][16] = { "", "", "" };
    names_on_each(c, names, 3);
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    const char *addr = rlt_clusters_address(c, 0);
    CHECK(strstr(addr, "s3cr%2Ft%40x@") != NULL);
    redlock_client *cli = it_client_addrs(&addr, 1, &o, 1);
    for (int i = 0; i < 3; i++) {
        char key[64];
        redlock_lock *l = it_lock(cli, names[i], strlen(names[i]));
        snprintf(key, sizeof key, "lock:%s", names[i]);
        CHECK_EQ(redlock_acquire(l, 10000), 0);
        CHECK_EQ(where(c, 0, key), i);
        CHECK_EQ(redlock_release(l), 0);
        redlock_lock_free(l);
    }
    redlock_client_free(cli);
    rlt_clusters_stop(c);
}

/* Plain masters and clusters in one client: the same keys on both (a
 * fenced lock's key and counter), so plain-only clients exclude it too. */
TEST(cluster_votes_mixed_with_plain_masters)
{
    rlt_clusters *c = it_clusters(2, 2, 0);
    rlt_servers *s = it_start(1, NULL);
    const char *addrs[3] = { rlt_clusters_address(c, 0), rlt_servers_addr(s, 0),
                             rlt_clusters_address(c, 1) };
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    redlock_client *cli = it_client_addrs(addrs, 3, &o, 3);
    redlock_client *plain = it_client_addrs(addrs + 1, 1, &o, 1);
    redlock_lock *l, *p = IT_LOCK(plain, "mixed");
    const char *key = "lock:mixed", *fence = "{lock:mixed}:fence";

    CHECK_EQ(redlock_lock_new(&l, cli, "mixed", 5), 0);
    CHECK_EQ(redlock_lock_set_fencing(l, 1), 0);
    /* where a vote said OK, the key and the counter are the plain
     * layout's; the plain master answers first, mostly */
    int plain_ok = 0;
    for (int round = 0; round < 5; round++) {
        CHECK_EQ(redlock_acquire(l, 10000), 0);
        if (vote_of(l, 1, NULL) == REDLOCK_VOTE_OK) {
            plain_ok++;
            CHECK_EQ(rlt_servers_exists(s, 0, key, strlen(key)), 1);
            CHECK_EQ(rlt_servers_exists(s, 0, fence, strlen(fence)), 1);
        }
        for (int v = 0; v < 2; v++) {
            if (vote_of(l, v ? 2 : 0, NULL) != REDLOCK_VOTE_OK)
                continue;
            CHECK_GE(where(c, v, key), 0);
            CHECK_GE(where(c, v, fence), 0);
        }
        if (round < 4)
            CHECK_EQ(redlock_release(l), 0);
    }
    CHECK_GE(plain_ok, 1);
    /* a client of the plain master alone is refused the same resource */
    CHECK_EQ(redlock_acquire(p, 1000), REDLOCK_ENOQUORUM);
    CHECK_EQ(redlock_release(l), 0);
    CHECK_EQ(redlock_acquire(p, 1000), 0);
    CHECK_EQ(redlock_release(p), 0);
    redlock_lock_free(l);
    redlock_lock_free(p);
    redlock_client_free(plain);
    redlock_client_free(cli);
    rlt_servers_free(s);
    rlt_clusters_stop(c);
}

/* A plain vote at the address of a cluster vote's master is that server
 * twice: it never counts once the cluster's map named the master. */
TEST(cluster_plain_vote_on_a_clusters_master_counts_once)
{
    rlt_clusters *c = it_clusters(2, 2, 0);
    char seed[64], plain[64], names[2][16] = { "", "" };
    names_on_each(c, names, 2);
    snprintf(seed, sizeof seed, "redis-cluster://127.0.0.1:%d", rlt_clusters_port(c, 0, 0));
    snprintf(plain, sizeof plain, "127.0.0.1:%d", rlt_clusters_port(c, 0, 1));
    const char *addrs[3] = { seed, plain, rlt_clusters_address(c, 1) };
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "lock:";
    redlock_client *cli = it_client_addrs(addrs, 3, &o, 3);
    redlock_lock *warm = it_lock(cli, names[0], strlen(names[0])), *l;
    const char *d = NULL;
    int rc = -1;

    /* until vote 0 has read its map (its OKs count from then on) */
    for (int i = 0; i < 100 && rc != 0; i++)
        if ((rc = redlock_acquire(warm, 10000)) == 0)
            CHECK_EQ(redlock_release(warm), 0);
    CHECK_EQ(rc, 0);
    /* a re-entrant lock on node 1: granted to both votes that reach it */
    CHECK_EQ(redlock_lock_new_reentrant(&l, cli, names[1], strlen(names[1]), "me", 2), 0);
    int uncounted = 0;
    for (int round = 0; round < 3; round++) {
        CHECK_EQ(redlock_acquire(l, 10000), 0);     /* votes 0 and 2 */
        int v = vote_of(l, 1, &d);      /* (or no answer before the decision) */
        CHECK_MSG(v == REDLOCK_VOTE_UNCOUNTED || v == REDLOCK_VOTE_NONE, "node 1: %d %s", v, d);
        if (v == REDLOCK_VOTE_UNCOUNTED) {
            CHECK_MSG(strstr(d, "shares a server with node 0") != NULL, "node 1: %s", d);
            uncounted++;
        }
        if (round < 2)
            CHECK_EQ(redlock_release(l), 0);
    }
    CHECK_GE(uncounted, 1);
    CHECK_EQ(redlock_release(l), 0);
    redlock_lock_free(warm);
    redlock_lock_free(l);
    redlock_client_free(cli);
    rlt_clusters_stop(c);
}

/* A cluster vote is connected once its map is read: a client that waited
 * for its votes gets a free lock at the first try (no retry), its votes
 * counted. */
TEST(cluster_connected_means_its_map_is_read)
{
    rlt_clusters *c = it_clusters(3, 2, 0);
    redlock_options o;
    it_opts_retry(&o, 0, 10, 5);
    o.key_prefix = "lock:";
    for (int i = 0; i < 5; i++) {
        char res[16];
        redlock_client *cli = it_client_new(NULL, rlt_clusters_addresses(c), 3, &o);
        CHECK_EQ(redlock_client_wait_connected(cli, 3, 5000), 0);
        snprintf(res, sizeof res, "first%d", i);
        redlock_lock *l = IT_LOCK(cli, res);
        int rc = redlock_acquire(l, 10000);
        CHECK_MSG(rc == 0, "try %d: %s", i, it_errstr(l));
        CHECK_EQ(redlock_release(l), 0);
        redlock_lock_free(l);
        redlock_client_free(cli);
    }
    rlt_clusters_stop(c);
}

/* The command takes cluster votes: ';' between nodes keeps a cluster's
 * seeds together (3 votes, quorum 2, not 6 votes). */
TEST(cluster_votes_in_the_command)
{
    rlt_clusters *c = it_clusters(3, 2, 0);
    char cmd[1024], out[4096] = "";
    snprintf(cmd, sizeof cmd, "cmd/redlock acquire --nodes '%s;%s;%s' --restart-guard 0 --json "
             "--ttl 1000 cmdres 2>&1", rlt_clusters_address(c, 0), rlt_clusters_address(c, 1),
             rlt_clusters_address(c, 2));
    CHECK(strchr(rlt_clusters_address(c, 0), ',') != NULL);     /* two seeds */
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    CHECK_MSG(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exit %d: %s", st, out);
    CHECK_MSG(strstr(out, "\"quorum\":2") != NULL, "%s", out);
    CHECK_MSG(strstr(out, "\"nodes_ok\":2") || strstr(out, "\"nodes_ok\":3"), "%s", out);
    rlt_clusters_stop(c);
}
