/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_release.c -- a release is decided at the quorum (issue 12), against
 * real redis-servers, master 2 of 3 behind a proxy that holds its requests
 * 300 ms:
 *   - the callback runs before the slow master even got the delete, and
 *     its late reply then updates the node results;
 *   - a release refused by a quorum is decided at once (ENOTOWNER);
 *   - the late replies never overwrite the results of a newer operation.
 */
#include "itest.h"
#include "fixture.h"
#include "proxy.h"

#include <stdio.h>
#include <string.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

#define SLOW_MS 300

struct slow {
    struct it_fix f;
    rlp_thread *px;
    redlock_lock *l;
};

/* Three masters, the third behind a proxy; a client (node timeout 2 s,
 * longer than the slow master's delay) and a lock on key, held. */
static void slow_start(struct slow *t, const char *key)
{
    char a2[64];
    const char *addrs[3] = {NULL};
    memset(t, 0, sizeof *t);
    it_fix_start(&t->f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    t->px = proxy_in_front(&t->f, 2, a2, sizeof a2, addrs);
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 2000;
    t->f.c = it_client_new(t->f.base, addrs, 3, &o);
    CHECK_EQ(it_async_wait_connected(t->f.base, t->f.c, 3, 3000), 0);
    t->l = it_fix_lock(&t->f, t->f.c, key);
    struct it_op op = {.base = t->f.base};
    CHECK_RC(t->l, redlock_acquire_async(t->l, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 3000);
    CHECK_RC(t->l, op.status, 0);
    /* the acquire's reply from master 2 too, before it is slowed (the
     * acquire was decided at the quorum: that reply, and the key there,
     * may come after the callback) */
    redlock_node_stats st;
    int64_t until = check_now_ms() + 3000;
    do {
        it_dispatch(t->f.base, 10);
        CHECK_EQ(redlock_client_node_stats(t->f.c, 2, &st), 0);
    } while (st.oks + st.refused + st.timeouts + st.errors + st.unreachable < st.requests &&
             check_now_ms() < until);
    CHECK_EQ(st.oks, st.requests);
    CHECK_EQ(it_count_lock(t->f.s, key, strlen(key), t->l), 3);
    rlp_thread_set_latency(t->px, RLP_UP, SLOW_MS, 0);
}

static void slow_stop(struct slow *t)
{
    it_fix_stop(&t->f);
    rlp_thread_stop(t->px);
}

static int vote_of(const redlock_lock *l, size_t node)
{
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(l, node, &r), 0);
    return r.vote;
}

/* Run the loop until node 2 answered `want` votes in all (its stats), at
 * most timeout_ms; the count then. */
static uint64_t wait_answers(struct slow *t, uint64_t want, int64_t timeout_ms)
{
    int64_t until = check_now_ms() + timeout_ms;
    redlock_node_stats st;
    for (;;) {
        CHECK_EQ(redlock_client_node_stats(t->f.c, 2, &st), 0);
        uint64_t n = st.oks + st.refused + st.timeouts + st.errors + st.unreachable;
        if (n >= want || check_now_ms() >= until)
            return n;
        it_dispatch(t->f.base, 10);
    }
}

static uint64_t answers(struct slow *t)
{
    return wait_answers(t, 0, 0);
}

/* slow_start on key, the key deleted behind the lock's back on masters
 * 0 .. drop-1, then the lock released: master 2's answers before the
 * release in *before, the callback's outcome in *op. */
static void release_now(struct slow *t, const char *key, int drop, struct it_op *op,
                        uint64_t *before)
{
    slow_start(t, key);
    for (int i = 0; i < drop; i++) {
        redisReply *r = rlt_servers_command(t->f.s, i, "DEL %s", key);
        CHECK(r != NULL);
        freeReplyObject(r);
    }
    *before = answers(t);
    memset(op, 0, sizeof *op);
    op->base = t->f.base;
    CHECK_RC(t->l, redlock_release_async(t->l, it_op_cb, op), 0);
    it_op_wait(op, 3000);
}

TEST(release_decided_at_the_quorum_before_the_slow_master_deletes)
{
    struct slow t;
    uint64_t before;
    struct it_op op;
    release_now(&t, "rel-quorum", 0, &op, &before);
    CHECK_RC(t.l, op.status, 0);
    CHECK_EQ(op.nodes_ok, 2);
    /* the slow master has not even received the delete yet */
    CHECK_EQ(it_count_lock(t.f.s, "rel-quorum", 10, t.l), 1);
    CHECK_EQ(vote_of(t.l, 2), REDLOCK_VOTE_NONE);
    CHECK_EQ(redlock_lock_validity(t.l), 0);
    /* its reply comes later and is recorded */
    CHECK_EQ(wait_answers(&t, before + 1, 3000), before + 1);
    CHECK_EQ(vote_of(t.l, 2), REDLOCK_VOTE_OK);
    CHECK_EQ(redlock_lock_nodes_ok(t.l), 3);
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(t.l, 2, &r), 0);
    CHECK_GE(r.rtt_us, SLOW_MS * 1000);
    CHECK_EQ(it_count_lock(t.f.s, "rel-quorum", 10, t.l), 0);
    slow_stop(&t);
}

TEST(release_refused_by_a_quorum_decided_at_once)
{
    struct slow t;
    uint64_t before;
    struct it_op op;
    release_now(&t, "rel-refused", 2, &op, &before);
    CHECK_EQ(op.status, REDLOCK_ENOTOWNER);
    CHECK_EQ(op.nodes_ok, 0);
    CHECK_EQ(vote_of(t.l, 0), REDLOCK_VOTE_REFUSED);
    CHECK_EQ(vote_of(t.l, 2), REDLOCK_VOTE_NONE);
    CHECK_EQ(it_count_lock(t.f.s, "rel-refused", 11, t.l), 1);
    /* the slow master still holding our value deletes it, late */
    CHECK_EQ(wait_answers(&t, before + 1, 3000), before + 1);
    CHECK_EQ(vote_of(t.l, 2), REDLOCK_VOTE_OK);
    CHECK_EQ(redlock_lock_nodes_ok(t.l), 1);
    CHECK_EQ(it_count_lock(t.f.s, "rel-refused", 11, t.l), 0);
    slow_stop(&t);
}

TEST(release_late_replies_never_overwrite_a_newer_operation)
{
    struct slow t;
    uint64_t before;
    struct it_op op;
    release_now(&t, "rel-newer", 0, &op, &before);
    /* acquired again before the slow master answered the release */
    CHECK(op.status == 0 && vote_of(t.l, 2) == REDLOCK_VOTE_NONE);
    op.done = 0;
    CHECK_RC(t.l, redlock_acquire_async(t.l, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 3000);
    CHECK_RC(t.l, op.status, 0);
    CHECK_EQ(op.nodes_ok, 2);
    CHECK_EQ(answers(&t), before);
    /* both late replies (the release's, then the acquire's) come in */
    CHECK_EQ(wait_answers(&t, before + 2, 3000), before + 2);
    CHECK_EQ(redlock_lock_nodes_ok(t.l), 2);        /* the acquire's */
    CHECK_EQ(vote_of(t.l, 2), REDLOCK_VOTE_NONE);
    CHECK_EQ(it_count_lock(t.f.s, "rel-newer", 9, t.l), 3);
    slow_stop(&t);
}

/* The lock freed, then the client, while its release's late replies are
 * still due: they find no lock to update, and nothing leaks (valgrind). */
TEST(release_lock_freed_before_the_late_replies)
{
    struct slow t;
    struct it_op op;
    uint64_t before;
    redlock_lock *second;
    release_now(&t, "rel-freed", 0, &op, &before);
    second = it_fix_lock(&t.f, t.f.c, "rel-freed-2");
    CHECK_RC(t.l, op.status, 0);
    CHECK_RC(second, redlock_acquire_async(second, 10000, it_op_cb, &op), 0);
    op.done = 0;
    it_op_wait(&op, 3000);
    op.done = 0;
    CHECK_RC(second, redlock_release_async(second, it_op_cb, &op), 0);
    it_op_wait(&op, 3000);
    CHECK_EQ(vote_of(second, 2), REDLOCK_VOTE_NONE);
    /* t.l goes before its slow reply; the client, with second's reply due */
    redlock_lock_free(t.l);
    t.f.locks[0] = NULL;
    CHECK_GE(wait_answers(&t, before + 2, 3000), before + 2);
    redlock_client_free(t.f.c);
    t.f.c = NULL;
    slow_stop(&t);
}
