/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_async.c -- integration: clients on a caller-owned event_base. */
#include "itest.h"

#include <stdio.h>

#include <event2/event.h>
#include <stdlib.h>
#include <unistd.h>
#include <hiredis/hiredis.h>

#define NLOCKS 8

/* Set while a starting call (or a free) runs, to see where callbacks run. */
static int in_start;
static int in_free;

struct op {
    struct event_base *base;
    int *pending;          /* loopbreak when it reaches 0 */
    redlock_lock *lock;
    int acq_calls, acq_status;
    int ext_calls, ext_status;
    int rel_calls, rel_status;
    int rel_start_rc, ext_start_rc;
    int sync_calls;        /* callbacks that ran inside a starting call */
    int free_calls;        /* callbacks that ran inside a free call */
    int64_t validity;
    size_t nodes_ok;
    int chain_extend;      /* acquire -> extend -> release */
};

static void op_done(struct op *op)
{
    if (--*op->pending == 0)
        event_base_loopbreak(op->base);
}

/* A callback of op's lock ran with status: count it (in *calls, and as
 * one that ran inside a starting call or a free) and keep the status. */
static void op_called(struct op *op, redlock_lock *lock, int *calls, int *where, int status)
{
    CHECK(lock == op->lock);
    (*calls)++;
    *where = status;
    op->sync_calls += in_start;
    op->free_calls += in_free;
}

static void rel_cb(redlock_lock *lock, int status, void *privdata)
{
    struct op *op = privdata;
    op_called(op, lock, &op->rel_calls, &op->rel_status, status);
    op->nodes_ok = redlock_lock_nodes_ok(lock);
    op_done(op);
}

static void start_release(struct op *op)
{
    in_start = 1;
    op->rel_start_rc = redlock_release_async(op->lock, rel_cb, op);
    in_start = 0;
    if (op->rel_start_rc != 0)
        op_done(op);
}

static void ext_cb(redlock_lock *lock, int status, void *privdata)
{
    struct op *op = privdata;
    op_called(op, lock, &op->ext_calls, &op->ext_status, status);
    op->validity = redlock_lock_validity(lock);
    start_release(op);
}

static void acq_cb(redlock_lock *lock, int status, void *privdata)
{
    struct op *op = privdata;
    op_called(op, lock, &op->acq_calls, &op->acq_status, status);
    op->validity = redlock_lock_validity(lock);
    if (status != 0 || in_free) {
        op_done(op);
        return;
    }
    if (op->chain_extend) {
        in_start = 1;
        op->ext_start_rc = redlock_extend_async(lock, 20000, ext_cb, op);
        in_start = 0;
        if (op->ext_start_rc != 0)
            op_done(op);
        return;
    }
    start_release(op); /* unlock from inside the acquire callback */
}

static void key_of(char *buf, size_t len, int i)
{
    snprintf(buf, len, "async:%d", i);
}

/* ops[i] on base, counting down *pending, with a lock of c on "async:<i>". */
static void op_init(struct op *ops, int i, struct event_base *base, int *pending,
                    redlock_client *c)
{
    char key[32];
    key_of(key, sizeof key, i);
    ops[i].base = base;
    ops[i].pending = pending;
    ops[i].lock = IT_LOCK(c, key);
}

/* ops[0 .. NLOCKS) set up (op_init) and each acquiring for ttl ms. */
static void acquire_all(struct op *ops, int *pending, struct event_base *base,
                        redlock_client *c, int64_t ttl)
{
    memset(ops, 0, NLOCKS * sizeof *ops);
    for (int i = 0; i < NLOCKS; i++) {
        op_init(ops, i, base, pending, c);
        CHECK_RC(ops[i].lock, redlock_acquire_async(ops[i].lock, ttl, acq_cb, &ops[i]),
                 REDLOCK_OK);
    }
}

/* Free c, its callbacks counted as run inside the free. */
static void free_client_marked(redlock_client *c)
{
    in_free = 1;
    redlock_client_free(c);
    in_free = 0;
}

TEST(async_many_in_flight_release_in_callback)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    struct op ops[NLOCKS];
    int pending = NLOCKS;
    memset(ops, 0, sizeof ops);
    for (int i = 0; i < NLOCKS; i++) {
        op_init(ops, i, f.base, &pending, f.c);
        ops[i].chain_extend = i % 2;
        in_start = 1;
        int rc = (i % 4 == 3) ? redlock_try_acquire_async(ops[i].lock, 10000, acq_cb, &ops[i])
                              : redlock_acquire_async(ops[i].lock, 10000, acq_cb, &ops[i]);
        in_start = 0;
        CHECK_RC(ops[i].lock, rc, REDLOCK_OK);
        /* a second operation on a busy lock is refused, and has no callback */
        CHECK_RC(ops[i].lock, redlock_acquire_async(ops[i].lock, 10000, acq_cb, &ops[i]),
                 REDLOCK_EBUSY);
        CHECK_RC(ops[i].lock, redlock_release_async(ops[i].lock, rel_cb, &ops[i]), REDLOCK_EBUSY);
        CHECK_RC(ops[i].lock, redlock_extend_async(ops[i].lock, 1000, ext_cb, &ops[i]),
                 REDLOCK_EBUSY);
    }
    for (int i = 0; i < NLOCKS; i++)
        CHECK_EQ(ops[i].acq_calls, 0); /* nothing ran inside the starting calls */

    CHECK_EQ(it_dispatch(f.base, 5000), 0);
    CHECK_EQ(pending, 0);
    /* a little more loop: no callback runs twice */
    CHECK_GE(event_base_loop(f.base, EVLOOP_NONBLOCK), 0);
    for (int i = 0; i < NLOCKS; i++) {
        struct op *op = &ops[i];
        CHECK_EQ(op->sync_calls, 0);
        CHECK_EQ(op->free_calls, 0);
        CHECK_EQ(op->acq_calls, 1);
        CHECK_RC(op->lock, op->acq_status, REDLOCK_OK);
        CHECK_EQ(op->ext_calls, op->chain_extend);
        if (op->chain_extend) {
            CHECK_EQ(op->ext_start_rc, 0);
            CHECK_RC(op->lock, op->ext_status, REDLOCK_OK);
            CHECK_GT(op->validity, 10000); /* validity of the 20 s extend */
        }
        CHECK_GT(op->validity, 0);
        CHECK_EQ(op->rel_start_rc, 0);
        CHECK_EQ(op->rel_calls, 1);
        CHECK_RC(op->lock, op->rel_status, REDLOCK_OK);
        CHECK_GE(op->nodes_ok, 2);      /* decided at the quorum */
        /* the third delete is counted as it comes in */
        CHECK_EQ(it_wait_nodes_ok(f.base, op->lock, 3, 2000), 3);
        char key[32];
        key_of(key, sizeof key, i);
        CHECK_EQ(rlt_servers_count_key(f.s, key, strlen(key)), 0);
    }
    for (int i = 0; i < NLOCKS; i++)
        redlock_lock_free(ops[i].lock);
    it_fix_stop(&f);
}

TEST(async_free_client_cancels_pending_once)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    redlock_client *c = it_async_client(f.base, f.s, NULL);
    struct op ops[NLOCKS];
    int pending = NLOCKS;
    acquire_all(ops, &pending, f.base, c, 10000);
    free_client_marked(c);
    for (int i = 0; i < NLOCKS; i++) {
        CHECK_EQ(ops[i].acq_calls, 1);
        CHECK_EQ(ops[i].free_calls, 1);
        CHECK_RC(ops[i].lock, ops[i].acq_status, REDLOCK_ECANCELED);
    }
    CHECK_EQ(pending, 0);
    /* the base holds nothing of the client any more */
    CHECK_GE(event_base_loop(f.base, EVLOOP_NONBLOCK), 0);
    for (int i = 0; i < NLOCKS; i++) {
        CHECK_EQ(ops[i].acq_calls, 1);
        CHECK_EQ(ops[i].rel_calls, 0);
        int calls = ops[i].acq_calls;
        CHECK_RC(ops[i].lock, redlock_acquire_async(ops[i].lock, 1000, acq_cb, &ops[i]),
                 REDLOCK_ECLOSED);
        CHECK_RC(ops[i].lock, redlock_release_async(ops[i].lock, NULL, NULL), REDLOCK_ECLOSED);
        CHECK_EQ(ops[i].acq_calls, calls);
        redlock_lock_free(ops[i].lock);
    }
    it_fix_stop(&f);
}

TEST(async_free_lock_cancels_pending_once)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    int pending = 2;
    struct op a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.base = b.base = f.base;
    a.pending = b.pending = &pending;
    a.lock = IT_LOCK(f.c, "async:freed");
    b.lock = IT_LOCK(f.c, "async:kept");
    CHECK_RC(a.lock, redlock_acquire_async(a.lock, 10000, acq_cb, &a), REDLOCK_OK);
    CHECK_RC(b.lock, redlock_acquire_async(b.lock, 10000, acq_cb, &b), REDLOCK_OK);
    in_free = 1;
    redlock_lock_free(a.lock);
    in_free = 0;
    CHECK_EQ(a.acq_calls, 1);
    CHECK_EQ(a.free_calls, 1);
    CHECK_EQ(a.acq_status, REDLOCK_ECANCELED);
    CHECK_EQ(b.acq_calls, 0); /* the other lock is untouched */
    a.lock = NULL;

    CHECK_EQ(it_dispatch(f.base, 5000), 0);
    CHECK_EQ(a.acq_calls, 1);
    CHECK_EQ(b.acq_calls, 1);
    CHECK_RC(b.lock, b.acq_status, REDLOCK_OK);
    CHECK_EQ(b.rel_calls, 1);
    CHECK_RC(b.lock, b.rel_status, REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, "async:kept", 10), 0);

    redlock_lock_free(b.lock);
    it_fix_stop(&f);
}

/* Callbacks that free their own lock, or the whole client. */
struct freer {
    struct event_base *base;
    redlock_client **client;
    int calls, status, sync_calls;
    size_t nodes_ok;
    redlock_lock *other;     /* a lock with an operation pending elsewhere */
};

static void free_lock_cb(redlock_lock *lock, int status, void *privdata)
{
    struct freer *f = privdata;
    f->calls++;
    f->status = status;
    f->nodes_ok = redlock_lock_nodes_ok(lock);
    f->sync_calls += in_start;
    redlock_lock_free(lock);
    event_base_loopbreak(f->base);
}

static void free_client_cb(redlock_lock *lock, int status, void *privdata)
{
    struct freer *f = privdata;
    (void)lock;
    f->calls++;
    f->status = status;
    f->sync_calls += in_start;
    redlock_client_free(*f->client);
    *f->client = NULL;
    event_base_loopbreak(f->base);
}

static void count_cb(redlock_lock *lock, int status, void *privdata)
{
    (void)lock;
    struct freer *f = privdata;
    f->calls++;
    f->status = status;
}

/* Free the lock inside its own callback: the key stays (free does not
 * release). */
static void check_lock_freed_in_its_callback(struct it_fix *f, redlock_client **c)
{
    struct freer f1 = {f->base, c, 0, 0, 0, 0, NULL};
    redlock_lock *l1 = IT_LOCK(*c, "async:self-freed");
    in_start = 1;
    CHECK_RC(l1, redlock_acquire_async(l1, 10000, free_lock_cb, &f1), REDLOCK_OK);
    in_start = 0;
    CHECK_EQ(it_dispatch(f->base, 5000), 0);
    CHECK_EQ(f1.calls, 1);
    CHECK_EQ(f1.sync_calls, 0);
    CHECK_EQ(f1.status, REDLOCK_OK);
    CHECK_GE(f1.nodes_ok, 2);
    CHECK_GE(rlt_servers_count_key(f->s, "async:self-freed", 16), 2);
}

/* hold (rel_cb records its acquire) holds "async:held". */
static void hold_async_held(struct it_fix *f, redlock_client *c, struct op *hold, int *pending)
{
    memset(hold, 0, sizeof *hold);
    hold->base = f->base;
    hold->pending = pending;
    hold->lock = IT_LOCK(c, "async:held");
    CHECK_RC(hold->lock, redlock_acquire_async(hold->lock, 10000, rel_cb, hold), REDLOCK_OK);
    CHECK_EQ(it_dispatch(f->base, 5000), 0);
    CHECK_EQ(hold->rel_calls, 1);
    CHECK_RC(hold->lock, hold->rel_status, REDLOCK_OK);
}

TEST(async_free_inside_callbacks)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    redlock_options o;
    it_opts_retry(&o, 100000, 20, 5);  /* an acquire of a held resource stays pending */
    redlock_client *c = it_async_client(f.base, f.s, &o);
    check_lock_freed_in_its_callback(&f, &c);
    int pending = 1;
    struct op hold;
    hold_async_held(&f, c, &hold, &pending);

    /* l4 retries "async:held" for a long time; l5's callback frees the
     * client meanwhile: l4 is cancelled exactly once, inside that free. */
    struct freer f4 = {f.base, &c, 0, 0, 0, 0, NULL};
    struct freer f5 = {f.base, &c, 0, 0, 0, 0, NULL};
    redlock_lock *l4 = IT_LOCK(c, "async:held");
    redlock_lock *l5 = IT_LOCK(c, "async:frees-client");
    CHECK_RC(l4, redlock_acquire_async(l4, 10000, count_cb, &f4), REDLOCK_OK);
    CHECK_RC(l5, redlock_try_acquire_async(l5, 10000, free_client_cb, &f5), REDLOCK_OK);
    CHECK_EQ(it_dispatch(f.base, 5000), 0);
    CHECK(c == NULL);
    CHECK_EQ(f5.calls, 1);
    CHECK_EQ(f5.sync_calls, 0);
    CHECK_RC(l5, f5.status, REDLOCK_OK);
    CHECK_EQ(f4.calls, 1);
    CHECK_RC(l4, f4.status, REDLOCK_ECANCELED);
    CHECK_GE(event_base_loop(f.base, EVLOOP_NONBLOCK), 0);
    CHECK_EQ(f4.calls, 1);
    CHECK_EQ(f5.calls, 1);
    CHECK_EQ(hold.rel_calls, 1);
    /* nothing was released by the frees */
    CHECK_GE(rlt_servers_count_key(f.s, "async:held", 10), 2);
    CHECK_GE(rlt_servers_count_key(f.s, "async:frees-client", 18), 2);

    CHECK_RC(hold.lock, redlock_release_async(hold.lock, NULL, NULL), REDLOCK_ECLOSED);
    redlock_lock_free(hold.lock);
    redlock_lock_free(l4);
    redlock_lock_free(l5);
    it_fix_stop(&f);
}

/* Several clients on one base race for one resource, with retries: exactly
 * one gets it, the others give up with ENOQUORUM. */
TEST(async_clients_race_for_one_resource)
{
    enum { NCLIENTS = 4 };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    redlock_options o;
    it_opts_retry(&o, 5, 10, 8);
    redlock_client *c[NCLIENTS];
    struct op ops[NCLIENTS];
    int pending = NCLIENTS;
    memset(ops, 0, sizeof ops);
    for (int i = 0; i < NCLIENTS; i++)
        c[i] = it_async_client(f.base, f.s, &o);
    for (int i = 0; i < NCLIENTS; i++) {
        ops[i].base = f.base;
        ops[i].pending = &pending;
        ops[i].lock = IT_LOCK(c[i], "race");
        ops[i].chain_extend = 0;
    }
    /* acq_cb would release at once: use a callback that only records */
    for (int i = 0; i < NCLIENTS; i++)
        CHECK_RC(ops[i].lock, redlock_acquire_async(ops[i].lock, 30000, rel_cb, &ops[i]),
                 REDLOCK_OK);
    CHECK_EQ(it_dispatch(f.base, 10000), 0);
    int winners = 0, winner = -1;
    for (int i = 0; i < NCLIENTS; i++) {
        CHECK_EQ(ops[i].rel_calls, 1); /* rel_cb recorded the acquire */
        if (ops[i].rel_status == REDLOCK_OK) {
            winners++;
            winner = i;
        } else {
            CHECK_RC(ops[i].lock, ops[i].rel_status, REDLOCK_ENOQUORUM);
        }
    }
    CHECK_EQ(winners, 1);
    CHECK_GE(ops[winner].nodes_ok, 2);
    CHECK_GE(it_count_lock(f.s, "race", 4, ops[winner].lock), 2);
    for (int i = 0; i < NCLIENTS; i++) {
        redlock_lock_free(ops[i].lock);
        redlock_client_free(c[i]);
    }
    it_fix_stop(&f);
}

/* B waits (retrying) for a resource that A releases meanwhile: B gets it. */
TEST(async_waiter_gets_lock_after_release)
{
    redlock_options o;
    it_opts_retry(&o, 200, 5, 2);
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, IT_ASYNC);
    redlock_client *cb = it_fix_client(&f, &o);
    int pending = 1;
    struct op a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.base = b.base = f.base;
    a.pending = b.pending = &pending;
    a.lock = IT_LOCK(f.c, "handoff");
    b.lock = IT_LOCK(cb, "handoff");
    CHECK_RC(a.lock, redlock_acquire_async(a.lock, 30000, rel_cb, &a), REDLOCK_OK);
    CHECK_EQ(it_dispatch(f.base, 5000), 0);
    CHECK_EQ(a.rel_calls, 1);
    CHECK_RC(a.lock, a.rel_status, REDLOCK_OK);

    /* b starts while a holds; a's release goes out right after */
    pending = 2;
    a.rel_calls = 0;
    CHECK_RC(b.lock, redlock_acquire_async(b.lock, 30000, rel_cb, &b), REDLOCK_OK);
    CHECK_RC(a.lock, redlock_release_async(a.lock, rel_cb, &a), REDLOCK_OK);
    CHECK_EQ(it_dispatch(f.base, 5000), 0);
    CHECK_EQ(a.rel_calls, 1);
    CHECK_RC(a.lock, a.rel_status, REDLOCK_OK);
    CHECK_EQ(b.rel_calls, 1);
    CHECK_RC(b.lock, b.rel_status, REDLOCK_OK);
    CHECK_GE(it_count_lock(f.s, "handoff", 7, b.lock), 2);
    CHECK_EQ(it_count_lock(f.s, "handoff", 7, a.lock), 0);

    redlock_lock_free(a.lock);
    redlock_lock_free(b.lock);
    it_fix_stop(&f);
}

/* A reply that arrives after its lock was freed (a slow node answering
 * after the quorum decided) must be absorbed harmlessly. */
TEST(async_late_reply_after_lock_freed)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 5000; /* the paused node does not time out meanwhile */
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, IT_ASYNC);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);

    struct freer fr = {f.base, &f.c, 0, 0, 0, 0, NULL};
    redlock_lock *l = IT_LOCK(f.c, "late");
    CHECK_RC(l, redlock_try_acquire_async(l, 30000, free_lock_cb, &fr), REDLOCK_OK);
    CHECK_EQ(it_dispatch(f.base, 5000), 0);
    CHECK_EQ(fr.calls, 1);
    CHECK_EQ(fr.status, REDLOCK_OK); /* decided by nodes 0 and 1 */
    CHECK_EQ(fr.nodes_ok, 2);

    /* the paused node now answers the freed lock's SET */
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    CHECK_EQ(it_wait_count(f.s, "late", 4, 3, 2000), 3);
    /* the client goes on working, late reply and all */
    int pending = 1;
    struct op op;
    memset(&op, 0, sizeof op);
    op.base = f.base;
    op.pending = &pending;
    op.lock = IT_LOCK(f.c, "after-late");
    CHECK_RC(op.lock, redlock_acquire_async(op.lock, 10000, acq_cb, &op), REDLOCK_OK);
    CHECK_EQ(it_dispatch(f.base, 5000), 0);
    CHECK_EQ(op.acq_calls, 1);
    CHECK_RC(op.lock, op.acq_status, REDLOCK_OK);
    CHECK_EQ(op.rel_calls, 1);
    CHECK_RC(op.lock, op.rel_status, REDLOCK_OK);
    CHECK_GE(op.nodes_ok, 2);       /* decided at the quorum */
    CHECK_EQ(it_wait_nodes_ok(f.base, op.lock, 3, 2000), 3);
    CHECK_EQ(redlock_client_connected(f.c), 3);

    redlock_lock_free(op.lock);
    it_fix_stop(&f);
}

/* Freeing the client while acquires are in flight: the SETs already queued
 * still reach the masters, and so does a release behind each of them. */
TEST(async_free_client_mid_acquire_leaves_no_key)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    redlock_client *c = it_async_client(f.base, f.s, NULL);
    struct op ops[NLOCKS];
    int pending = NLOCKS;
    long long before = 0, after = 0;
    for (int i = 0; i < 3; i++)
        before += it_calls(f.s, i, "set");
    acquire_all(ops, &pending, f.base, c, 30000);
    free_client_marked(c);      /* before the loop ever ran: all still queued */
    CHECK_EQ(pending, 0);
    /* the SETs did arrive (so the test is not vacuous) ... */
    int64_t deadline = check_now_ms() + 3000;
    while ((after = it_calls(f.s, 0, "set") + it_calls(f.s, 1, "set") +
                    it_calls(f.s, 2, "set")) < before + 3 * NLOCKS &&
           check_now_ms() < deadline)
        usleep(2000);
    CHECK_EQ(after, before + 3 * NLOCKS);
    /* ... and every key was released behind its SET (ttl 30 s otherwise) */
    for (int i = 0; i < NLOCKS; i++) {
        char key[32];
        key_of(key, sizeof key, i);
        CHECK_EQ(it_wait_count(f.s, key, strlen(key), 0, 3000), 0);
        redlock_lock_free(ops[i].lock);
    }
    it_fix_stop(&f);
}

struct node_cb_state {
    redlock_client *c;
    int downs;
    int free_tried;
};

static void free_from_node_cb(redlock_client *c, size_t node, int event, const char *detail,
                              void *pd)
{
    struct node_cb_state *st = pd;
    (void)node;
    (void)detail;
    CHECK(c == st->c || st->c == NULL);
    if (event == REDLOCK_NODE_DOWN) {
        st->downs++;
        st->free_tried = 1;
        redlock_client_free(c);     /* documented: no effect from here */
    }
}

/* node_cb fires inside a starting call that reconnects a node; freeing the
 * client from it must neither crash nor take effect. */
TEST(async_node_cb_cannot_free_the_client)
{
    struct node_cb_state st = { NULL, 0, 0 };
    redlock_options o;
    it_opts(&o);
    o.node_cb = free_from_node_cb;
    o.node_privdata = &st;
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, 0);
    st.c = f.c;
    redlock_lock *l = it_fix_lock(&f, f.c, "node-cb");
    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);
    /* the first call sees the EOF and drops node 2 (node_cb: DOWN) */
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_OK);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    CHECK_GE(st.downs, 1);
    CHECK_EQ(st.free_tried, 1);
    /* the client still works */
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_OK);
    CHECK_EQ(redlock_client_nodes(f.c), 3);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    it_fix_stop(&f);
}
