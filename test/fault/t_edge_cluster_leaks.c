/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_edge_cluster_leaks.c -- nothing left behind on a cluster vote after a
 * failed operation: an undo follows the ASK its write followed
 * during a slot migration; a multi-resource part that cannot be sent is
 * answered, and the parts that went are rolled back; an acquire decided
 * before anything left sends nothing to a slot's master either; an ASK
 * leaves the client's slot map alone.  Each scenario ends with every
 * master's keyspace as it was before it (it_wait_keyspace).
 *
 * The votes: a cluster of two masters (vote 0, its seed node 0), then two
 * plain masters (votes 1 and 2), on an asynchronous client; the cluster
 * alone for the ASK's map.
 */
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

#include "clusters.h"
#include "itest.h"

struct lk {
    rlt_clusters *c;
    rlt_servers *s;
    struct event_base *base;
    redlock_client *cli;
    char before[4096];
};

/* The cluster, and the plain masters when `plain` (else the cluster is
 * the client's one vote: every operation waits for its answer). */
static void lk_client(struct lk *k, int plain)
{
    const char *addrs[3];
    size_t n = plain ? 3 : 1;
    redlock_options o;

    addrs[0] = rlt_clusters_address(k->c, 0);
    if (plain) {
        addrs[1] = rlt_servers_addr(k->s, 0);
        addrs[2] = rlt_servers_addr(k->s, 1);
    }
    it_opts_retry(&o, 0, 10, 5);        /* one attempt: each outcome seen */
    o.key_prefix = "lock:";
    o.cluster_refresh_ms = 0;           /* the map changes only when a reply says so */
    k->cli = it_client_new(k->base, addrs, n, &o);
    CHECK_EQ(it_async_wait_connected(k->base, k->cli, n, 5000), 0);
}

static void lk_start(struct lk *k, int plain)
{
    k->c = it_clusters(1, 2, 0);
    k->s = plain ? it_start(2, NULL) : NULL;
    k->base = it_base();
    lk_client(k, plain);
}

static void lk_stop(struct lk *k)
{
    redlock_client_free(k->cli);
    event_base_free(k->base);
    rlt_servers_free(k->s);
    rlt_clusters_stop(k->c);
}

/* A resource ("r" and a number) whose key ("lock:" name) is served by
 * node `node` of the cluster; with `last`, one that sorts after every "r"
 * name ("s" and a number: a multi-resource lock's keys go in bytewise
 * order, its parts in the order of their first key). */
static void name_on(struct lk *k, int node, int last, char *name, size_t size)
{
    for (int i = 0; i < 1000; i++) {
        char key[48];
        snprintf(name, size, "%c%d", last ? 's' : 'r', i);
        snprintf(key, sizeof key, "lock:%s", name);
        if (rlt_clusters_master_of_slot(k->c, 0, rlt_clusters_slot_of(key, strlen(key))) == node)
            return;
    }
    CHECK_MSG(0, "no name on node %d", node);
}

/* One acquire of l, waited for; its status. */
static int acquire(struct lk *k, redlock_lock *l)
{
    struct it_op op = { k->base };
    CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    return op.status;
}

static void release(struct lk *k, redlock_lock *l)
{
    struct it_op op = { k->base };
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);
}

/* Both plain masters hold the resource's key for someone else: an
 * acquire of it is refused there, lost, and rolled back. */
static void held_elsewhere(struct lk *k, const char *name)
{
    char key[48];
    snprintf(key, sizeof key, "lock:%s", name);
    it_set(k->s, 0, key, "foreign");
    it_set(k->s, 1, key, "foreign");
}

/* A lock to take (and give back) once, which opens the client's
 * connection to the slot's master (opened on its first request). */
static void warm(struct lk *k, const char *name)
{
    redlock_lock *l = it_lock(k->cli, name, strlen(name));
    CHECK_RC(l, acquire(k, l), 0);
    release(k, l);
    redlock_lock_free(l);
}

/* The slot migrates from node `from` to the other: the key is
 * absent on `from`, which says ASK, and the importing node takes the SET.
 * The plain masters refuse, the acquire is lost, and its undo must reach
 * the importing node (ASKING first): `from` answers it ASK too. */
TEST(cluster_leaks_undo_follows_ask_to_the_importing_master)
{
    struct lk k = { 0 };
    char name[16], key[48];
    redlock_lock *l;
    int64_t end;

    lk_start(&k, 1);
    name_on(&k, 0, 0, name, sizeof name);
    snprintf(key, sizeof key, "lock:%s", name);
    int slot = rlt_clusters_slot_of(key, strlen(key)), to = 1;
    warm(&k, name);
    held_elsewhere(&k, name);
    CHECK_EQ(rlt_clusters_migrate_begin(k.c, 0, slot, to), 0);
    it_keyspace(k.s, k.c, k.before, sizeof k.before);
    long long asked = it_cluster_errors(k.c, 0, 0, "ASK");
    long long sets = it_cluster_calls(k.c, 0, to, "set");
    l = it_lock(k.cli, name, strlen(name));
    CHECK_RC(l, acquire(&k, l), REDLOCK_ENOQUORUM);
    /* the SET on the importing node (it may land after the decision) */
    end = check_now_ms() + 2000;
    while (it_cluster_calls(k.c, 0, to, "set") == sets && check_now_ms() < end)
        it_run(k.base, 5);
    CHECK_EQ(it_cluster_calls(k.c, 0, to, "set"), sets + 1);
    it_wait_keyspace(k.base, k.s, k.c, k.before, 1000);
    /* the write and its undo were both asked on */
    CHECK_GE(it_cluster_errors(k.c, 0, 0, "ASK"), asked + 2);
    CHECK_EQ(rlt_clusters_migrate_end(k.c, 0, slot), 0);
    it_wait_keyspace(k.base, k.s, k.c, k.before, 1000);
    redlock_lock_free(l);
    lk_stop(&k);
}

/* A multi-resource lock over both masters of the cluster: names[0] on
 * node 1 (the first part: its keys go first), names[1] on node 0; the
 * client's connection to node 1 opened. */
static redlock_lock *across(struct lk *k, char names[2][16])
{
    const void *res[2] = { names[0], names[1] };
    size_t lens[2];
    redlock_lock *m;

    name_on(k, 1, 0, names[0], 16);
    name_on(k, 0, 1, names[1], 16);
    lens[0] = strlen(names[0]);
    lens[1] = strlen(names[1]);
    warm(k, names[0]);
    CHECK_EQ(redlock_lock_new_multi(&m, k->cli, res, lens, 2), 0);
    return m;
}

static uint64_t unreachable(struct lk *k, size_t node)
{
    redlock_node_stats st;
    CHECK_EQ(redlock_client_node_stats(k->cli, node, &st), 0);
    return st.unreachable;
}

/* A multi-resource lock whose first part's master (node 1) is
 * down and known down: that part cannot be sent, the second one is.  The
 * cluster's vote is answered (unreachable), the second part is rolled
 * back, and the request and its operation are freed (valgrind). */
TEST(cluster_leaks_multi_resource_part_on_a_down_master)
{
    struct lk k = { 0 };
    char names[2][16];
    redlock_lock *m, *probe;
    uint64_t u0;
    int64_t end;

    lk_start(&k, 1);
    m = across(&k, names);
    CHECK_EQ(rlt_clusters_kill(k.c, 0, 1), 0);
    /* until the client knows node 1 is down: a request for it is then
     * not sent, its vote counted inside the call (the first ones after the
     * kill may still be queued, for a reconnection that fails) */
    probe = it_lock(k.cli, names[0], strlen(names[0]));
    end = check_now_ms() + 3000;
    for (;;) {
        struct it_op op = { k.base };
        u0 = unreachable(&k, 0);
        CHECK_RC(probe, redlock_acquire_async(probe, 10000, it_op_cb, &op), 0);
        int unsent = unreachable(&k, 0) == u0 + 1;
        it_op_wait(&op, 5000);
        CHECK_RC(probe, op.status, 0);      /* (the plain masters) */
        release(&k, probe);
        if (unsent || check_now_ms() > end)
            break;
        it_run(k.base, 10);
    }
    held_elsewhere(&k, names[1]);
    it_keyspace(k.s, k.c, k.before, sizeof k.before);
    u0 = unreachable(&k, 0);
    long long scripts = it_cluster_calls(k.c, 0, 0, "evalsha");
    CHECK_RC(m, acquire(&k, m), REDLOCK_ENOQUORUM);
    /* the second part ran (it may land after the decision) ... */
    end = check_now_ms() + 2000;
    while (it_cluster_calls(k.c, 0, 0, "evalsha") == scripts && check_now_ms() < end)
        it_run(k.base, 5);
    CHECK_GT(it_cluster_calls(k.c, 0, 0, "evalsha"), scripts);
    /* ... and is rolled back */
    it_wait_keyspace(k.base, k.s, k.c, k.before, 1000);
    /* the cluster's vote comes, once the part that went answered */
    end = check_now_ms() + 1000;
    while (unreachable(&k, 0) == u0 && check_now_ms() < end)
        it_run(k.base, 5);
    CHECK_MSG(unreachable(&k, 0) == u0 + 1, "the cluster's vote never came");
    redlock_lock_free(m);
    redlock_lock_free(probe);
    lk_stop(&k);
}

static void inspected(redlock_client *c, redlock_inspection *insp, int status, void *privdata)
{
    (void)c;
    (void)status;
    redlock_inspection_free(insp);
    *(int *)privdata = 1;
}

/* What the client sent before for the resource's slot has run on its
 * master: an inspection goes behind it on the same connection. */
static void barrier(struct lk *k, const char *name)
{
    int done = 0;
    int64_t end = check_now_ms() + 2000;
    CHECK_EQ(redlock_inspect_async(k->cli, name, strlen(name), inspected, &done), 0);
    while (!done && check_now_ms() < end)
        it_run(k->base, 5);
    CHECK(done);
}

/* Both plain masters down: every acquire is decided inside its
 * start (two votes down of three), while the cluster's request waits on
 * its slot's master's connection (node 1, not the vote's own seed): it is
 * dropped there, never sent, for a single and a multi-resource lock. */
TEST(cluster_leaks_acquire_decided_before_sending_sends_nothing)
{
    struct lk k = { 0 };
    char names[2][16];
    redlock_lock *l, *m;
    int64_t end;

    lk_start(&k, 1);
    m = across(&k, names);
    CHECK_EQ(rlt_servers_kill(k.s, 0), 0);
    CHECK_EQ(rlt_servers_kill(k.s, 1), 0);
    end = check_now_ms() + 3000;
    while (redlock_client_connected(k.cli) > 1 && check_now_ms() < end)
        it_run(k.base, 5);
    CHECK_EQ(redlock_client_connected(k.cli), 1);
    it_keyspace(k.s, k.c, k.before, sizeof k.before);
    l = it_lock(k.cli, names[0], strlen(names[0]));
    for (int i = 0; i < 3; i++) {
        CHECK_RC(l, acquire(&k, l), REDLOCK_ECONNECT);
        CHECK_RC(m, acquire(&k, m), REDLOCK_ECONNECT);
    }
    barrier(&k, names[0]);
    barrier(&k, names[1]);
    it_wait_keyspace(k.base, k.s, k.c, k.before, 500);
    redlock_lock_free(l);
    redlock_lock_free(m);
    lk_stop(&k);
}

/* Two resources whose keys share a slot (served by node `node`, or any
 * when -1); the slot. */
static int same_slot(struct lk *k, int node, char names[2][16])
{
    static int first[RLT_CLUSTER_SLOTS];

    memset(first, 0xff, sizeof first);
    for (int i = 0; i < 50000; i++) {
        char key[32];
        snprintf(key, sizeof key, "lock:r%d", i);
        int slot = rlt_clusters_slot_of(key, strlen(key));
        if (first[slot] >= 0 &&
            (node < 0 || rlt_clusters_master_of_slot(k->c, 0, slot) == node)) {
            snprintf(names[0], 16, "r%d", first[slot]);
            snprintf(names[1], 16, "r%d", i);
            return slot;
        }
        first[slot] = i;
    }
    CHECK_MSG(0, "no two names in one slot");
    return -1;
}

/* A write that waits behind another request of its slot (one an ASK sent
 * on to the importing node, stopped meanwhile), in an acquire lost before
 * it leaves.  Refused on the plain masters: its undo waits behind it, and
 * follows it (ASK) to the importing node; the slot's owner is node 0, so
 * the write's gen names node 0 and no connection yet, and is still owed an
 * undo.  The plain masters down (`down`): decided inside its start, the
 * write never leaves; the slot's owner is node 1 (not the vote's own
 * seed, whose connection fan-out's drop reaches anyway). */
static void waiting_write(int down)
{
    struct lk k = { 0 };
    char names[2][16];
    redlock_lock *l;
    int done = 0, from = down, to = 1 - from;
    int64_t end;

    lk_start(&k, 1);
    int slot = same_slot(&k, from, names);
    warm(&k, names[1]);
    held_elsewhere(&k, names[1]);
    for (int i = 0; down && i < 2; i++)
        CHECK_EQ(rlt_servers_kill(k.s, i), 0);
    end = check_now_ms() + 3000;
    while (down && redlock_client_connected(k.cli) > 1 && check_now_ms() < end)
        it_run(k.base, 5);
    l = it_lock(k.cli, names[1], strlen(names[1]));
    CHECK_EQ(rlt_clusters_migrate_begin(k.c, 0, slot, to), 0);
    barrier(&k, names[1]);          /* (the client's connection to `to`) */
    it_keyspace(k.s, k.c, k.before, sizeof k.before);
    long long asked = it_cluster_errors(k.c, 0, from, "ASK");
    long long sets = it_cluster_calls(k.c, 0, to, "set");
    CHECK_EQ(rlt_clusters_pause(k.c, 0, to), 0);
    /* ahead: an inspection, asked on to the stopped node */
    CHECK_EQ(redlock_inspect_async(k.cli, names[0], strlen(names[0]), inspected, &done), 0);
    end = check_now_ms() + 2000;
    while (it_cluster_errors(k.c, 0, from, "ASK") == asked && check_now_ms() < end)
        it_run(k.base, 2);
    CHECK_EQ(it_cluster_errors(k.c, 0, from, "ASK"), asked + 1);
    CHECK_RC(l, acquire(&k, l), down ? REDLOCK_ECONNECT : REDLOCK_ENOQUORUM);
    CHECK_EQ(rlt_clusters_resume(k.c, 0, to), 0);
    if (down) {
        /* the inspection answered: the write's turn came, and went */
        end = check_now_ms() + 2000;
        while (!done && check_now_ms() < end)
            it_run(k.base, 5);
        barrier(&k, names[1]);      /* (asked on too, behind where the write went) */
        CHECK_MSG(it_cluster_errors(k.c, 0, from, "ASK") == asked + 2 &&
                  it_cluster_calls(k.c, 0, to, "set") == sets, "the dropped write was sent");
    } else {
        end = check_now_ms() + 2000;
        while (it_cluster_calls(k.c, 0, to, "set") == sets && check_now_ms() < end)
            it_run(k.base, 5);
        CHECK_EQ(it_cluster_calls(k.c, 0, to, "set"), sets + 1);   /* it went, late */
    }
    it_wait_keyspace(k.base, k.s, k.c, k.before, 1000);
    CHECK(done);
    CHECK_EQ(rlt_clusters_migrate_end(k.c, 0, slot), 0);
    redlock_lock_free(l);
    lk_stop(&k);
}

TEST(cluster_leaks_write_waiting_behind_its_slot_is_undone)
{
    waiting_write(0);
}

TEST(cluster_leaks_write_waiting_behind_its_slot_decided_before_is_dropped)
{
    waiting_write(1);
}

/* An ASK sends one request on, and
 * leaves the client's map alone: a key of the same slot still on the old
 * owner is asked there next, straight (the importing node, asked without
 * ASKING, would answer MOVED). */
TEST(cluster_leaks_ask_leaves_the_slot_map_alone)
{
    struct lk k = { 0 };
    redlock_lock *stays, *moves;
    char names[2][16];
    int slot = same_slot(&k, -1, names);

    lk_start(&k, 0);
    int from = rlt_clusters_master_of_slot(k.c, 0, slot), to = 1 - from;
    it_keyspace(k.s, k.c, k.before, sizeof k.before);
    stays = IT_LOCK(k.cli, names[0]);
    moves = IT_LOCK(k.cli, names[1]);
    CHECK_RC(stays, acquire(&k, stays), 0);
    CHECK_EQ(rlt_clusters_migrate_begin(k.c, 0, slot, to), 0);
    long long asked = it_cluster_errors(k.c, 0, from, "ASK");
    long long moved = it_cluster_errors(k.c, 0, to, "MOVED");
    CHECK_RC(moves, acquire(&k, moves), 0);
    CHECK_EQ(it_cluster_errors(k.c, 0, from, "ASK"), asked + 1);
    struct it_op op = { k.base };
    CHECK_RC(stays, redlock_extend_async(stays, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(stays, op.status, 0);
    CHECK_MSG(it_cluster_errors(k.c, 0, to, "MOVED") == moved,
              "the extend went to the importing node: the ASK changed the map");
    release(&k, stays);
    release(&k, moves);
    CHECK_EQ(rlt_clusters_migrate_end(k.c, 0, slot), 0);
    it_wait_keyspace(k.base, k.s, k.c, k.before, 1000);
    redlock_lock_free(stays);
    redlock_lock_free(moves);
    lk_stop(&k);
}

/* A client freed while a multi-resource acquire split over both masters
 * of a cluster vote is on its way (freed at once, or after the loop ran
 * 0 to 4 ms: some parts answered, others not): the acquire completes
 * once, cancelled, and nothing is sent to the closed nodes (found by the
 * simulator, `--cluster` seed 3: a roll-back onto a closed node
 * dereferenced NULL, and a request waiting behind another was sent after
 * it was freed; ASan and valgrind see either). */
TEST(cluster_leaks_client_freed_during_a_split_acquire)
{
    struct lk k = { 0 };
    lk_start(&k, 1);
    it_keyspace(k.s, k.c, k.before, sizeof k.before);
    for (int ms = -1; ms <= 4; ms++) {
        char names[2][16];
        redlock_lock *m;
        if (!k.cli)
            lk_client(&k, 1);
        m = across(&k, names);
        struct it_op op = { k.base };
        CHECK_RC(m, redlock_acquire_async(m, 1000, it_op_cb, &op), 0);
        if (ms >= 0)
            it_run(k.base, ms);
        if (op.done == 0) {
            redlock_client_free(k.cli);
            k.cli = NULL;
            CHECK_EQ(op.done, 1);
            CHECK_EQ(op.status, REDLOCK_ECANCELED);
        }
        redlock_lock_free(m);
        if (k.cli) {        /* (it was done: let it go, release on its own) */
            redlock_client_free(k.cli);
            k.cli = NULL;
        }
        /* what the round wrote expires with its ttl (1 s) */
        it_wait_keyspace(k.base, k.s, k.c, k.before, 3000);
    }
    lk_stop(&k);
}
