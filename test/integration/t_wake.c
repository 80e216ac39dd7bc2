/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_wake.c -- waiters woken by the release's announcement (option wake,
 * wake.c): sooner than their poll, only for the resource they wait on,
 * polling when an ACL refuses the channel; the acquire counters.
 */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

#define SLOW_POLL_MS 3000       /* a poll this late would fail the timing checks */

static redlock_acquire_stats stats_of(redlock_client *c)
{
    redlock_acquire_stats a;
    memset(&a, 0, sizeof a);
    CHECK_EQ(redlock_client_acquire_stats(c, &a), 0);
    return a;
}

/* A waiting client listens on its own channel "{<res>}:wq:<id>" on every
 * master: how many such channels master i has. */
static long long channels_on(struct it_fix *f, int i, const char *res)
{
    long long n;
    redisReply *r = rlt_servers_command(f->s, i, "PUBSUB CHANNELS {%s}:wq:*", res);
    CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY);
    n = (long long)r->elements;
    freeReplyObject(r);
    return n;
}

/* ... over the masters in `mask` (bit i: master i, alive) */
static long long channels(struct it_fix *f, unsigned mask, const char *res)
{
    long long sum = 0;
    for (int i = 0; i < 5; i++)
        if (mask & (1u << i))
            sum += channels_on(f, i, res);
    return sum;
}

static void wait_channels(struct it_fix *f, unsigned mask, const char *res, long long want)
{
    int64_t until = check_now_ms() + 5000;
    while (channels(f, mask, res) != want && check_now_ms() < until)
        it_run(f->base, 5);
    CHECK_EQ(channels(f, mask, res), want);
}

/* Entries in the registry "{<res>}:wq" of master i. */
static long long registry_on(struct it_fix *f, int i, const char *res)
{
    long long n;
    redisReply *r = rlt_servers_command(f->s, i, "ZCARD {%s}:wq", res);
    CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER);
    n = r->integer;
    freeReplyObject(r);
    return n;
}

/* Entries in the registries of masters 0, 1 and 2. */
static long long registries(struct it_fix *f, const char *res)
{
    return registry_on(f, 0, res) + registry_on(f, 1, res) + registry_on(f, 2, res);
}

/* Run the loop until they hold `want` entries (at least, when `or_more`),
 * at most timeout_ms; the count then. */
static long long wait_registries(struct it_fix *f, const char *res, long long want, int or_more,
                                 int64_t timeout_ms)
{
    int64_t until = check_now_ms() + timeout_ms;
    long long n;
    while ((n = registries(f, res)) != want && !(or_more && n > want) && check_now_ms() < until)
        it_run(f->base, 5);
    return n;
}

/* Acquire or release on the fixture's base (its clients are async). */
static int run_op(struct it_fix *f, redlock_lock *l, int release)
{
    struct it_op o = {f->base};
    int rc = release ? redlock_release_async(l, it_op_cb, &o)
                     : redlock_acquire_async(l, 10000, it_op_cb, &o);
    if (rc != 0)
        return rc;
    it_op_wait(&o, 5000);
    return o.status;
}

static redlock_client *waiter(struct it_fix *f, int wake, const char *user)
{
    redlock_options o;
    it_opts(&o);
    o.retry_delay_ms = SLOW_POLL_MS;
    o.retry_jitter_ms = 0;
    o.retry_count = 5;
    o.wake = wake;
    if (user) {
        o.user = user;
        o.password = "pw";
        o.retry_delay_ms = 20;      /* polling it is */
        o.retry_count = 500;
    }
    return it_fix_client(f, &o);
}

/* On 3 masters, f->c's lock `a` on res, held, and a waiter: a client
 * polling every SLOW_POLL_MS whose lock `b` on res was refused and now
 * listens on every master. */
struct pair {
    struct it_fix *f;
    redlock_lock *a, *b;
    redlock_client *bc;
    struct it_op bo;
};

static void pair_start(struct it_fix *f, struct pair *p, const char *res)
{
    it_fix_start(f, 3, NULL, IT_ASYNC);
    p->f = f;
    p->a = it_fix_lock(f, f->c, res);
    p->bc = waiter(f, 1, NULL);
    p->b = it_fix_lock(f, p->bc, res);
    memset(&p->bo, 0, sizeof p->bo);
    p->bo.base = f->base;
    CHECK_RC(p->a, run_op(f, p->a, 0), 0);
    /* a's client listens for the waiters' notices (from its first lock) */
    for (int i = 0; i < 3; i++) {
        long long n = 0;
        for (int64_t until = check_now_ms() + 5000; n < 1 && check_now_ms() < until;) {
            redisReply *r = rlt_servers_command(f->s, i, "PUBSUB CHANNELS {}:holder:*");
            CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY);
            n = (long long)r->elements;
            freeReplyObject(r);
            if (n < 1)
                it_run(f->base, 5);
        }
        CHECK_GE(n, 1);
    }
    CHECK_RC(p->b, redlock_acquire_async(p->b, 10000, it_op_cb, &p->bo), 0);
    wait_channels(f, 7, res, 3);
}

/* a releases, b (told) wins long before its poll */
static void pair_hand_over(struct pair *p)
{
    CHECK_RC(p->a, run_op(p->f, p->a, 1), 0);
    it_op_wait(&p->bo, SLOW_POLL_MS / 2);
    CHECK_RC(p->b, p->bo.status, 0);
}

/* b was refused: it listens on every master and is in every registry;
 * quiet (wake = 0) did neither. */
static void check_waiter_registered(struct it_fix *f, redlock_client *bc,
                                    redlock_client *quiet)
{
    wait_channels(f, 7, "wk-1", 3);
    /* (its entries follow its subscriptions' replies) */
    CHECK_EQ(wait_registries(f, "wk-1", 3, 0, 5000), 3);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(registry_on(f, i, "wk-1"), 1);
    CHECK_EQ(stats_of(bc).attempts, 1);
    CHECK_EQ(stats_of(quiet).announcements, 0);
}

/* The woken waiter's counters: told by the masters that picked, one
 * wakeup, won at its second attempt; quiet heard nothing. */
static void check_woken_counts(redlock_client *bc, redlock_client *quiet, const struct it_op *qo)
{
    redlock_acquire_stats s = stats_of(bc);
    /* one per master that picked: a releaser that saw no contention lets
     * every master pick (2 otherwise) */
    CHECK(s.announcements >= 1 && s.announcements <= 3);
    CHECK_EQ(s.wakeups, 1);
    CHECK_EQ(s.attempts, 2);
    CHECK_EQ(s.won, 1);
    CHECK_EQ(qo->done, 0);               /* q still polls: it heard nothing */
    CHECK_EQ(stats_of(quiet).announcements, 0);
}

/* Run the loop until client c has every answer of master i (what c sent
 * there before was run); the test fails after 3 s. */
static void wait_all_answered(struct it_fix *f, redlock_client *c, int i)
{
    redlock_node_stats st;
    int64_t until = check_now_ms() + 3000;
    do {
        it_run(f->base, 2);
        CHECK_EQ(redlock_client_node_stats(c, (size_t)i, &st), 0);
    } while (st.oks + st.refused + st.timeouts + st.errors + st.unreachable < st.requests &&
             check_now_ms() < until);
    CHECK_EQ(st.oks + st.refused + st.timeouts + st.errors + st.unreachable, st.requests);
}

/* b won: its entries stay while it holds (nobody else releases), and its
 * release takes them away on every master it reaches.  (An extend
 * answered by every master: anything b sent before it was run.) */
static void check_entries_follow_the_hold(struct it_fix *f, redlock_client *bc, redlock_lock *b)
{
    struct it_op ext = {f->base}, rel = {f->base};
    CHECK_RC(b, redlock_extend_async(b, 10000, it_op_cb, &ext), 0);
    it_op_wait(&ext, 3000);
    CHECK_RC(b, ext.status, 0);
    for (int i = 0; i < 3; i++) {
        wait_all_answered(f, bc, i);
        CHECK_EQ(registry_on(f, i, "wk-1"), 1);
    }
    CHECK_RC(b, redlock_release_async(b, it_op_cb, &rel), 0);
    it_op_wait(&rel, 3000);
    CHECK_RC(b, rel.status, 0);
    CHECK_EQ(it_wait_nodes_ok(f->base, b, 3, 3000), 3);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(registry_on(f, i, "wk-1"), 0);
}

/* A release wakes a waiter whose next poll is seconds away: it gets the
 * lock within a fraction of that, keeps its registry entries while it
 * holds, and its release removes them.  A client with wake = 0 subscribes
 * to nothing. */
TEST(wake_a_release_wakes_the_waiter_before_its_poll)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *a = it_fix_lock(&f, f.c, "wk-1");
    redlock_client *bc = waiter(&f, 1, NULL), *quiet = waiter(&f, 0, NULL);
    redlock_lock *b = it_fix_lock(&f, bc, "wk-1"), *q = it_fix_lock(&f, quiet, "wk-1");
    struct it_op ao = {f.base}, bo = {f.base}, qo = {f.base};

    CHECK_RC(a, redlock_acquire_async(a, 10000, it_op_cb, &ao), 0);
    it_op_wait(&ao, 5000);
    CHECK_RC(a, ao.status, 0);
    CHECK_RC(q, redlock_acquire_async(q, 10000, it_op_cb, &qo), 0);
    CHECK_RC(b, redlock_acquire_async(b, 10000, it_op_cb, &bo), 0);
    check_waiter_registered(&f, bc, quiet);
    ao.done = 0;
    int64_t t0 = check_now_ms();
    CHECK_RC(a, redlock_release_async(a, it_op_cb, &ao), 0);
    it_op_wait(&bo, SLOW_POLL_MS / 2);
    check_note("waiter in %lld ms after the release (its poll: %d ms)",
               (long long)(bo.at_ms - t0), SLOW_POLL_MS);
    CHECK_RC(b, bo.status, 0);
    CHECK_LT(bo.at_ms - t0, SLOW_POLL_MS / 2);
    check_woken_counts(bc, quiet, &qo);
    check_entries_follow_the_hold(&f, bc, b);
    it_fix_stop(&f);
}

/* Two locks of one client wait on two resources: a release of one wakes
 * only the lock that waits on it. */
TEST(wake_no_waiter_woken_for_a_resource_it_does_not_wait_on)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *ax = it_fix_lock(&f, f.c, "wk-x"), *az = it_fix_lock(&f, f.c, "wk-z");
    redlock_client *bc = waiter(&f, 1, NULL);
    redlock_lock *bx = it_fix_lock(&f, bc, "wk-x"), *bz = it_fix_lock(&f, bc, "wk-z");
    redlock_lock *other = it_fix_lock(&f, f.c, "wk-y");
    struct it_op o = {f.base}, xo = {f.base}, zo = {f.base};

    CHECK_RC(ax, run_op(&f, ax, 0), 0);
    CHECK_RC(az, run_op(&f, az, 0), 0);
    CHECK_RC(bx, redlock_acquire_async(bx, 10000, it_op_cb, &xo), 0);
    CHECK_RC(bz, redlock_acquire_async(bz, 10000, it_op_cb, &zo), 0);
    wait_channels(&f, 7, "wk-x", 3);
    wait_channels(&f, 7, "wk-z", 3);
    /* releases of a third resource, announced on every master */
    for (int i = 0; i < 5; i++) {
        o.done = 0;
        CHECK_RC(other, redlock_acquire_async(other, 10000, it_op_cb, &o), 0);
        it_op_wait(&o, 5000);
        o.done = 0;
        CHECK_RC(other, redlock_release_async(other, it_op_cb, &o), 0);
        it_op_wait(&o, 5000);
    }
    /* then wk-x: its announcement follows theirs on every connection */
    int64_t t0 = check_now_ms();
    CHECK_RC(ax, run_op(&f, ax, 1), 0);
    it_op_wait(&xo, SLOW_POLL_MS / 2);
    CHECK_RC(bx, xo.status, 0);
    CHECK_LT(xo.at_ms - t0, SLOW_POLL_MS / 2);
    redlock_acquire_stats s = stats_of(bc);
    check_note("after 5 releases of wk-y and one of wk-x: %llu announcements, %llu wake-ups",
               (unsigned long long)s.announcements, (unsigned long long)s.wakeups);
    CHECK(s.announcements >= 1 && s.announcements <= 3);     /* (wk-x's pickers') */
    CHECK_EQ(s.wakeups, 1);
    CHECK_EQ(zo.done, 0);               /* wk-z's waiter was not woken */
    t0 = check_now_ms();
    CHECK_RC(az, run_op(&f, az, 1), 0);
    it_op_wait(&zo, SLOW_POLL_MS / 2);
    CHECK_RC(bz, zo.status, 0);
    CHECK_LT(zo.at_ms - t0, SLOW_POLL_MS / 2);
    CHECK_EQ(stats_of(bc).wakeups, 2);
    it_fix_stop(&f);
}

/* Run the loop until client c made at least n attempts (5 s at most);
 * its attempts then. */
static uint64_t wait_attempts(struct it_fix *f, redlock_client *c, uint64_t n)
{
    int64_t until = check_now_ms() + 5000;
    while (stats_of(c).attempts < n && check_now_ms() < until)
        it_run(f->base, 5);
    return stats_of(c).attempts;
}

/* b's client locks something else first: both clients' holder's channels
 * (subscribed at a client's first lock) are refused, once per master. */
static void check_holders_channels_refused(struct it_fix *f, redlock_client *ac,
                                           redlock_client *bc)
{
    redlock_lock *warm = it_fix_lock(f, bc, "wk-acl-warm");
    CHECK_RC(warm, run_op(f, warm, 0), 0);
    int64_t until = check_now_ms() + 5000;
    while ((stats_of(bc).subscribe_refused < 3 || stats_of(ac).subscribe_refused < 3) &&
           check_now_ms() < until)
        it_run(f->base, 5);
    CHECK_EQ(stats_of(ac).subscribe_refused, 3);
    CHECK_EQ(stats_of(bc).subscribe_refused, 3);
}

/* b waits: refused once per master, then not asked again while it polls
 * (every 20 ms), nor for another resource (b2) it comes to wait on. */
static void check_not_asked_again_while_polling(struct it_fix *f, redlock_client *bc,
                                                redlock_lock *b, struct it_op *bo,
                                                redlock_lock *b2, struct it_op *b2o)
{
    CHECK_RC(b, redlock_acquire_async(b, 10000, it_op_cb, bo), 0);
    CHECK_EQ(channels(f, 7, "wk-acl"), 0);
    CHECK_GE(wait_attempts(f, bc, 6), 6);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(it_rejected(f->s, i, "subscribe"), 2);
    CHECK_EQ(stats_of(bc).subscribe_refused, 3);    /* (once per master) */
    CHECK_RC(b2, redlock_acquire_async(b2, 10000, it_op_cb, b2o), 0);
    wait_attempts(f, bc, stats_of(bc).attempts + 3);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(it_rejected(f->s, i, "subscribe"), 2);
    CHECK_EQ(b2o->done, 0);
}

/* The subscriber connections to master 0 reconnect: asked there again,
 * once for each channel (both clients' holder's, and the two resources b
 * waits on: asked at once), then not while b polls. */
static void check_asked_again_after_a_reconnect(struct it_fix *f, redlock_client *bc)
{
    redisReply *k = rlt_servers_command(f->s, 0, "CLIENT KILL USER nochan");
    CHECK(k != NULL && k->type == REDIS_REPLY_INTEGER && k->integer >= 1);
    freeReplyObject(k);
    int64_t until = check_now_ms() + 5000;
    while (it_rejected(f->s, 0, "subscribe") < 6 && check_now_ms() < until)
        it_run(f->base, 5);
    CHECK_EQ(it_rejected(f->s, 0, "subscribe"), 6);
    uint64_t polls = stats_of(bc).attempts;
    CHECK_GE(wait_attempts(f, bc, polls + 3), polls + 3);
    CHECK_EQ(it_rejected(f->s, 0, "subscribe"), 6);
    CHECK_EQ(it_rejected(f->s, 1, "subscribe") + it_rejected(f->s, 2, "subscribe"), 4);
}

/* An ACL user without channels: SUBSCRIBE is refused (counted), once
 * per master and client (its holder's channel, at its start): not again
 * while the waiter polls, nor for another resource it comes to wait on,
 * until that master's subscriber reconnects; the waiter polls and still
 * gets the lock once it is free; the holder's release, whose PUBLISH that
 * ACL refuses, still releases. */
TEST(wake_falls_back_to_polling_when_the_acl_refuses_the_channel)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_STATUS, "ACL SETUSER nochan on >pw ~* +@all resetchannels");
    redlock_client *ac = waiter(&f, 1, "nochan");
    redlock_lock *a = it_fix_lock(&f, ac, "wk-acl");
    redlock_client *bc = waiter(&f, 1, "nochan");
    redlock_lock *b = it_fix_lock(&f, bc, "wk-acl");
    redlock_lock *a2 = it_fix_lock(&f, ac, "wk-acl2"), *b2 = it_fix_lock(&f, bc, "wk-acl2");
    struct it_op bo = {f.base}, b2o = {f.base};

    CHECK_RC(a, run_op(&f, a, 0), 0);
    CHECK_RC(a2, run_op(&f, a2, 0), 0);
    check_holders_channels_refused(&f, ac, bc);
    check_not_asked_again_while_polling(&f, bc, b, &bo, b2, &b2o);
    check_asked_again_after_a_reconnect(&f, bc);
    CHECK_EQ(bo.done, 0);
    CHECK_RC(a, run_op(&f, a, 1), 0);
    CHECK_GE(redlock_lock_nodes_ok(a), 2);      /* deleted, not an error */
    it_op_wait(&bo, 5000);
    CHECK_RC(b, bo.status, 0);
    redlock_acquire_stats s = stats_of(bc);
    check_note("polled: %llu attempts, %llu announcements", (unsigned long long)s.attempts,
               (unsigned long long)s.announcements);
    CHECK_EQ(s.announcements, 0);
    CHECK_GT(s.attempts, 1);
    it_fix_stop(&f);
}

/* Masters 0-2 hold another value and are paused; l's attempt is granted
 * by 3 and 4 (written and counted by the client), then refused by the
 * others once they resume: one split vote. */
static void check_split_vote(struct it_fix *f, redlock_lock *l)
{
    struct it_op op = {f->base};
    it_cmd_on(f->s, 0, 3, REDIS_REPLY_STATUS, "SET wk-split other PX 60000");
    for (int i = 0; i < 3; i++)
        CHECK_EQ(rlt_servers_pause(f->s, i), 0);
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &op), 0);
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    int64_t until = check_now_ms() + 5000;
    /* (only the running masters are asked: a paused one would not answer) */
    while (!(it_has_value(f->s, 3, "wk-split", 8, v, vlen) &&
             it_has_value(f->s, 4, "wk-split", 8, v, vlen)) && check_now_ms() < until)
        it_run(f->base, 5);
    /* their grants counted by the client (node stats), not just written */
    until = check_now_ms() + 5000;
    for (int done = 0; !done && check_now_ms() < until; it_run(f->base, 2)) {
        redlock_node_stats n3, n4;
        CHECK_EQ(redlock_client_node_stats(f->c, 3, &n3), 0);
        CHECK_EQ(redlock_client_node_stats(f->c, 4, &n4), 0);
        done = n3.oks >= 1 && n4.oks >= 1;
    }
    for (int i = 0; i < 3; i++)
        CHECK_EQ(rlt_servers_resume(f->s, i), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, REDLOCK_ENOQUORUM);
    redlock_acquire_stats s = stats_of(f->c);
    CHECK_EQ(s.attempts, 1);
    CHECK_EQ(s.split_votes, 1);         /* 2 granted, 3 refused */
    CHECK_EQ(s.won, 0);
}

/* All refused: not a split. */
static void check_all_refused_is_no_split(struct it_fix *f, redlock_lock *l)
{
    struct it_op op = {f->base};
    for (int i = 3; i < 5; i++) {
        /* after the lost attempt's undo there */
        int64_t until = check_now_ms() + 5000;
        while (rlt_servers_exists(f->s, i, "wk-split", 8) && check_now_ms() < until)
            it_run(f->base, 5);
        it_cmd_on(f->s, i, i + 1, REDIS_REPLY_STATUS, "SET wk-split other PX 60000");
    }
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, REDLOCK_ENOQUORUM);
    CHECK_EQ(stats_of(f->c).split_votes, 1);
}

/* A split vote: some masters granted, the others held another value.
 * (The refusing masters are paused until the grants are in: the outcome
 * is decided by the third refusal, and grants after it are not counted.) */
TEST(wake_acquire_stats_count_split_votes)
{
    struct it_fix f = {0};
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 5000;
    it_fix_start(&f, 5, &o, IT_ASYNC);
    redlock_lock *l = it_fix_lock(&f, f.c, "wk-split");
    struct it_op op = {f.base};
    check_split_vote(&f, l);
    check_all_refused_is_no_split(&f, l);
    it_cmd_on(f.s, 0, 5, 0, "DEL wk-split");
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);
    redlock_acquire_stats s = stats_of(f.c);
    CHECK_EQ(s.attempts, 3);
    CHECK_EQ(s.won, 1);
    CHECK_EQ(redlock_client_acquire_stats(NULL, &s), REDLOCK_EINVAL);
    it_fix_stop(&f);
}

/* A master dies: the others still pick the waiter.  Once nothing waits,
 * the client leaves the registries and its channels (after
 * WAKE_LINGER_MS, 1 s). */
TEST(wake_a_dead_master_leaves_the_others_to_pick_and_the_waiter_leaves_when_done)
{
    struct it_fix f = {0};
    struct pair p;
    pair_start(&f, &p, "wk-m");
    redlock_lock *a = p.a, *b = p.b;
    redlock_client *bc = p.bc;
    /* (a knows that b waits: its release picks) */
    for (int64_t until = check_now_ms() + 5000;
         stats_of(f.c).notices == 0 && check_now_ms() < until;)
        it_run(f.base, 5);
    CHECK_GE(stats_of(f.c).notices, 1);
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    int64_t t0 = check_now_ms();
    CHECK_RC(a, run_op(&f, a, 1), 0);
    it_op_wait(&p.bo, SLOW_POLL_MS / 2);
    CHECK_RC(b, p.bo.status, 0);
    check_note("master 1 killed: the waiter in %lld ms", (long long)(p.bo.at_ms - t0));
    CHECK_LT(p.bo.at_ms - t0, SLOW_POLL_MS / 2);
    CHECK_EQ(stats_of(bc).wakeups, 1);
    /* done waiting: out of the registries, then of the channels */
    CHECK_RC(b, run_op(&f, b, 1), 0);
    wait_channels(&f, 5, "wk-m", 0);
    CHECK_EQ(registry_on(&f, 0, "wk-m") + registry_on(&f, 2, "wk-m"), 0);
    it_fix_stop(&f);
}

/* Two locks of one client wait on one resource: one wins, and its release
 * leaves the client's registry entries in place for the other (they are
 * its entries too): the other is picked by that release and gets the lock
 * long before its poll. */
TEST(wake_a_release_keeps_the_entries_another_lock_of_the_client_waits_with)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *a = it_fix_lock(&f, f.c, "wk-two");
    redlock_client *cc = waiter(&f, 1, NULL);
    redlock_lock *l1 = it_fix_lock(&f, cc, "wk-two"), *l2 = it_fix_lock(&f, cc, "wk-two");
    struct it_op o1 = {f.base}, o2 = {f.base};

    CHECK_RC(a, run_op(&f, a, 0), 0);
    CHECK_RC(l1, redlock_acquire_async(l1, 10000, it_op_cb, &o1), 0);
    CHECK_RC(l2, redlock_acquire_async(l2, 10000, it_op_cb, &o2), 0);
    wait_channels(&f, 7, "wk-two", 3);
    CHECK_GE(wait_registries(&f, "wk-two", 3, 1, 5000), 3);
    /* a's release wakes both; one of them wins */
    CHECK_RC(a, run_op(&f, a, 1), 0);
    int64_t until = check_now_ms() + SLOW_POLL_MS / 2;
    while (!o1.done && !o2.done && check_now_ms() < until)
        it_run(f.base, 5);
    CHECK(o1.done + o2.done == 1);
    redlock_lock *won = o1.done ? l1 : l2, *other = o1.done ? l2 : l1;
    struct it_op *oo = o1.done ? &o2 : &o1;
    CHECK_RC(won, o1.done ? o1.status : o2.status, 0);
    /* the other is refused by it, and waits */
    until = check_now_ms() + 5000;
    while (stats_of(cc).attempts < 4 && check_now_ms() < until)
        it_run(f.base, 5);
    CHECK_EQ(oo->done, 0);
    int64_t t0 = check_now_ms();
    CHECK_RC(won, run_op(&f, won, 1), 0);
    it_op_wait(oo, SLOW_POLL_MS / 2);
    CHECK_RC(other, oo->status, 0);
    check_note("the other lock in %lld ms after the first one's release (its poll: %d ms)",
               (long long)(oo->at_ms - t0), SLOW_POLL_MS);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(registry_on(&f, i, "wk-two"), 1);      /* (the holder's, until it releases) */
    it_fix_stop(&f);
}

/* Run the loop until every message the masters published was heard:
 * announcements by the waiters, notices by the holders (each PUBLISH
 * reaches one client); the announcements. */
static long long settle(struct it_fix *f, redlock_client **c, int n)
{
    long long made = 0, got = 0, told = 0;
    int64_t until = check_now_ms() + 3000;
    for (;;) {
        made = it_calls(f->s, 0, "publish") + it_calls(f->s, 1, "publish") +
               it_calls(f->s, 2, "publish");
        got = told = 0;
        for (int i = 0; i < n; i++) {
            redlock_acquire_stats s = stats_of(c[i]);
            told += (long long)s.announcements;
            got += (long long)(s.announcements + s.notices);
        }
        if (made == got || check_now_ms() >= until)
            break;
        it_run(f->base, 5);
    }
    CHECK_EQ(made, got);
    return told;
}

/* Wait for one of the n waiters to hold the lock; its index. */
static int next_of(struct it_fix *f, redlock_lock **w, struct it_op *wo, int n)
{
    int64_t until = check_now_ms() + SLOW_POLL_MS / 2;
    for (;;) {
        for (int i = 0; i < n; i++)
            if (wo[i].done) {
                CHECK_RC(w[i], wo[i].status, 0);
                return i;
            }
        CHECK_MSG(check_now_ms() < until, "no waiter got the lock before its poll");
        it_run(f->base, 2);
    }
}

/* One release tells one waiter, however long the lock was held: a holder
 * that never waited learns of the waiters from their notices, and one
 * that was a waiter keeps its record of them (and its entries) while it
 * holds.  (That record used to go 1 s after the win: the release of a
 * longer hold then told a waiter on every master.) */
TEST(wake_one_waiter_told_per_release_however_long_the_hold)
{
    enum { NW = 4 };
    struct it_fix f = {0};
    redlock_client *c[NW + 1];
    redlock_lock *w[NW];
    struct it_op wo[NW];
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *a = it_fix_lock(&f, f.c, "wk-long");
    c[NW] = f.c;
    CHECK_RC(a, run_op(&f, a, 0), 0);
    for (int i = 0; i < NW; i++) {
        c[i] = waiter(&f, 1, NULL);
        w[i] = it_fix_lock(&f, c[i], "wk-long");
        wo[i] = (struct it_op){f.base};
        CHECK_RC(w[i], redlock_acquire_async(w[i], 10000, it_op_cb, &wo[i]), 0);
    }
    CHECK_EQ(wait_registries(&f, "wk-long", 3 * NW, 0, 5000), 3 * NW);
    /* a never waited; it holds 1.5 s */
    it_run(f.base, 1500);
    long long told0 = settle(&f, c, NW + 1);
    CHECK_EQ(told0, 0);
    CHECK_GE(stats_of(f.c).notices, 1);
    CHECK_RC(a, run_op(&f, a, 1), 0);
    int h = next_of(&f, w, wo, NW);
    long long told1 = settle(&f, c, NW + 1);
    check_note("a held 1.5 s without waiting: %lld waiter(s) told", told1 - told0);
    CHECK_EQ(told1 - told0, 1);
    /* the waiter that won holds 1.5 s too, its entries kept meanwhile */
    it_run(f.base, 1500);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(registry_on(&f, i, "wk-long"), NW);
    CHECK_GT(redlock_lock_validity(w[h]), 0);
    CHECK_RC(w[h], run_op(&f, w[h], 1), 0);
    wo[h].done = 1;     /* (not counted as the next one) */
    wo[h].status = -1;
    int g = -1;
    for (int64_t until = check_now_ms() + SLOW_POLL_MS / 2; g < 0 && check_now_ms() < until;) {
        for (int i = 0; i < NW; i++)
            if (i != h && wo[i].done)
                g = i;
        it_run(f.base, 2);
    }
    CHECK_MSG(g >= 0, "no waiter got the lock before its poll");
    CHECK_RC(w[g], wo[g].status, 0);
    long long told2 = settle(&f, c, NW + 1);
    check_note("a waiter held 1.5 s: %lld waiter(s) told", told2 - told1);
    CHECK_EQ(told2 - told1, 1);
    CHECK_RC(w[g], run_op(&f, w[g], 1), 0);
    it_fix_stop(&f);
}

/* Calls of `cmd` masters 0-2 ran (INFO commandstats), scripts' own
 * included. */
static long long calls(struct it_fix *f, const char *cmd)
{
    return it_calls(f->s, 0, cmd) + it_calls(f->s, 1, cmd) + it_calls(f->s, 2, cmd);
}

/* 20 other waiters in every registry of res, listening nowhere (no
 * release happens, so none is picked). */
static void fill_registries(struct it_fix *f)
{
    char cmd[64];
    for (int k = 0; k < 20; k++) {
        snprintf(cmd, sizeof cmd, "ZADD {wk-look}:wq 9000000000000000 other%02d", k);
        it_cmd_on(f->s, 0, 3, REDIS_REPLY_INTEGER, cmd);
    }
}

/* For 1.3 s of polls, b's client only looks (EXISTS, counted by it too):
 * no SET, no attempt.  (Only the release script runs EXISTS besides, and
 * nothing is released here.)  Its attempts then. */
static uint64_t check_polls_only_look(struct it_fix *f, redlock_client *bc,
                                      const struct it_op *bo)
{
    int64_t until = check_now_ms() + 3000;
    while (calls(f, "exists") < 1 && check_now_ms() < until)
        it_run(f->base, 10);
    long long e0 = calls(f, "exists"), s0 = calls(f, "set");
    uint64_t a0 = stats_of(bc).attempts;
    CHECK(e0 >= 1);
    it_run(f->base, 1300);
    long long looks = calls(f, "exists") - e0, sets = calls(f, "set") - s0;
    uint64_t a1 = stats_of(bc).attempts;
    check_note("1.3 s of polls: %lld looks, %lld SETs, %llu attempts", looks, sets,
               (unsigned long long)(a1 - a0));
    CHECK(looks >= 3);
    CHECK_GE(stats_of(bc).looks, (uint64_t)looks);
    CHECK_EQ(sets, 0);
    CHECK_EQ(a1, a0);
    CHECK_EQ(bo->done, 0);
    return a1;
}

/* Among many waiters (a registry of 16 entries or more), a poll looks
 * before it leaps: one EXISTS on one master while the key is there, and
 * no attempt; once the key is gone (a holder that crashed: its key goes
 * behind its back, as at its expiry, with no release and no
 * announcement), the next poll finds it, attempts and wins. */
TEST(wake_polls_among_many_waiters_look_before_they_attempt)
{
    struct it_fix f = {0};
    redlock_options o;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *a = it_fix_lock(&f, f.c, "wk-look");
    CHECK_RC(a, run_op(&f, a, 0), 0);
    fill_registries(&f);
    it_opts(&o);
    o.retry_delay_ms = 10;      /* polls: 10 ms times the 21 waiters */
    o.retry_jitter_ms = 0;
    o.retry_count = 10000;
    o.wake = 1;
    redlock_client *bc = it_fix_client(&f, &o);
    redlock_lock *b = it_fix_lock(&f, bc, "wk-look");
    struct it_op bo = {f.base};
    CHECK_RC(b, redlock_acquire_async(b, 10000, it_op_cb, &bo), 0);
    wait_channels(&f, 7, "wk-look", 3);
    CHECK_EQ(wait_registries(&f, "wk-look", 63, 0, 5000), 63);
    uint64_t a1 = check_polls_only_look(&f, bc, &bo);
    /* the holder's key goes on every master; a look finding it gone looks
     * once more before the attempt (a hand-off's gap would be over) */
    long long x0 = calls(&f, "exists");
    for (int i = 0; i < 3; i++)
        it_del(f.s, i, "wk-look");
    int64_t t0 = check_now_ms();
    it_op_wait(&bo, 3000);
    CHECK_RC(b, bo.status, 0);
    check_note("the key gone: the waiter holds it %lld ms later", (long long)(bo.at_ms - t0));
    CHECK_LT(bo.at_ms - t0, 1500);
    long long gone_looks = calls(&f, "exists") - x0;
    check_note("%lld looks from the deletes to the win", gone_looks);
    CHECK_GE(gone_looks, 2);
    redlock_acquire_stats s = stats_of(bc);
    CHECK_EQ(s.attempts, a1 + 1);
    CHECK_EQ(s.wakeups, 0);
    CHECK_RC(b, run_op(&f, b, 1), 0);
    it_fix_stop(&f);
}

/* The registry is a queue: four waiters refused one after the other are
 * told in that order, one per release (a random pick would give this
 * order once in 24). */
TEST(wake_the_release_tells_the_waiter_that_waited_longest)
{
    struct it_fix f = {0};
    enum { NW = 4 };
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *a = it_fix_lock(&f, f.c, "wk-fifo"), *w[NW];
    struct it_op wo[NW];
    CHECK_RC(a, run_op(&f, a, 0), 0);
    for (int k = 0; k < NW; k++) {
        w[k] = it_fix_lock(&f, waiter(&f, 1, NULL), "wk-fifo");
        memset(&wo[k], 0, sizeof wo[k]);
        wo[k].base = f.base;
        CHECK_RC(w[k], redlock_acquire_async(w[k], 10000, it_op_cb, &wo[k]), 0);
        /* in every registry before the next one is refused; the places
         * are the masters' milliseconds: one goes by */
        CHECK_EQ(wait_registries(&f, "wk-fifo", 3 * (k + 1), 0, 5000), 3 * (k + 1));
        it_run(f.base, 3);
    }
    redlock_lock *holder = a;
    for (int k = 0; k < NW; k++) {
        int64_t t0 = check_now_ms();
        CHECK_RC(holder, run_op(&f, holder, 1), 0);
        /* the next one in the queue holds it, long before its poll */
        int64_t until = t0 + SLOW_POLL_MS / 2;
        int got = -1;
        while (got < 0 && check_now_ms() < until) {
            it_run(f.base, 1);
            for (int j = 0; j < NW; j++)
                if (wo[j].done && wo[j].status == 0 && w[j] != holder && got < 0 &&
                    redlock_lock_validity(w[j]) > 0)
                    got = j;
        }
        check_note("release %d: waiter %d holds it %lld ms later", k, got,
                   (long long)(check_now_ms() - t0));
        CHECK_EQ(got, k);
        for (int j = k + 1; j < NW; j++)
            CHECK_EQ(wo[j].done, 0);
        holder = w[k];
    }
    CHECK_RC(holder, run_op(&f, holder, 1), 0);
    it_fix_stop(&f);
}

/* Entries whose clients are gone (nobody listens on their channel) at the
 * front of the queue: the release drops them and tells the waiter behind
 * them at once, which goes to the back of the queue. */
TEST(wake_a_pick_nobody_hears_is_dropped_and_the_next_waiter_told)
{
    struct it_fix f = {0};
    struct pair p;
    pair_start(&f, &p, "wk-ghost");
    CHECK_EQ(wait_registries(&f, "wk-ghost", 3, 0, 5000), 3);
    double before[3];
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "ZRANGE {wk-ghost}:wq 0 -1 WITHSCORES");
        CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 2);
        before[i] = strtod(r->element[1]->str, NULL);
        freeReplyObject(r);
        r = rlt_servers_command(f.s, i, "ZADD {wk-ghost}:wq 1 gone1 1 gone2 1 gone3");
        CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER && r->integer == 3);
        freeReplyObject(r);
    }
    it_run(f.base, 3);      /* (places are milliseconds: one goes by) */
    int64_t t0 = check_now_ms();
    pair_hand_over(&p);
    check_note("behind 3 gone entries: the waiter in %lld ms (its poll: %d ms)",
               (long long)(p.bo.at_ms - t0), SLOW_POLL_MS);
    CHECK_LT(p.bo.at_ms - t0, SLOW_POLL_MS / 2);
    CHECK_GE(stats_of(p.bc).announcements, 1);
    /* on the master that picked (one: the releaser knew of the waiter)
     * the gone entries are gone, the waiter's is at the back; the others
     * still hold all four */
    int picked = 0;
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "ZRANGE {wk-ghost}:wq 0 -1 WITHSCORES");
        CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY);
        CHECK(r->elements == 2 || r->elements == 8);
        if (r->elements == 2) {
            CHECK(strtod(r->element[1]->str, NULL) > before[i]);
            picked++;
        }
        freeReplyObject(r);
    }
    CHECK_EQ(picked, 1);
    CHECK_RC(p.b, run_op(&f, p.b, 1), 0);
    it_fix_stop(&f);
}

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
}

/* (it_op_cb breaks the loop: the callbacks after it would wait a turn) */
static void quiet_op_cb(redlock_lock *l, int status, void *privdata)
{
    struct it_op *op = privdata;
    (void)l;
    op->done++;
    op->status = status;
}

/* The waiter a release tells (one master picks: the releaser saw
 * contention) attempts in the loop turn that heard the message, not after
 * the loop's next poll for I/O: run turn by turn (EVLOOP_ONCE), the turn
 * whose callbacks count the announcement counts the attempt too. */
TEST(wake_the_pick_attempts_in_the_loop_turn_that_heard_it)
{
    struct it_fix f = {0};
    struct pair p;
    pair_start(&f, &p, "wk-turn");
    redlock_client *cc = waiter(&f, 1, NULL);
    redlock_lock *c = it_fix_lock(&f, cc, "wk-turn");
    struct it_op co = {f.base};
    CHECK_EQ(it_async_wait_connected(f.base, cc, 3, 5000), 0);
    /* b wins when a releases; b's client saw contention */
    pair_hand_over(&p);
    /* c waits behind b (quickly: b's record, which makes its release
     * pick on one master, goes 1 s after its win) */
    CHECK_RC(c, redlock_acquire_async(c, 10000, it_op_cb, &co), 0);
    CHECK_EQ(wait_registries(&f, "wk-turn", 6, 0, 5000), 6);    /* b's and c's */
    redlock_acquire_stats s0 = stats_of(cc);
    CHECK_EQ(s0.attempts, 1);
    CHECK_EQ(s0.announcements, 0);

    struct event *tick = event_new(f.base, -1, EV_PERSIST, tick_cb, NULL);
    struct timeval ms5 = {0, 5000};
    CHECK(tick != NULL);
    event_add(tick, &ms5);      /* every turn ends within 5 ms */
    struct it_op rel = {f.base};
    CHECK_RC(p.b, redlock_release_async(p.b, quiet_op_cb, &rel), 0);
    int64_t until = check_now_ms() + SLOW_POLL_MS / 2;
    redlock_acquire_stats s = s0;
    int turns = 0;
    while (s.announcements == 0 && check_now_ms() < until) {
        event_base_loop(f.base, EVLOOP_ONCE);
        s = stats_of(cc);
        turns++;
    }
    check_note("announced after %d loop turns; then %llu announcement(s), %llu wakeups, %llu attempts",
               turns, (unsigned long long)s.announcements, (unsigned long long)s.wakeups,
               (unsigned long long)s.attempts);
    CHECK_EQ(s.announcements, 1);       /* one master picked */
    CHECK_EQ(s.wakeups, 1);
    CHECK_EQ(s.attempts, 2);            /* in that same turn */
    event_free(tick);
    it_op_wait(&co, SLOW_POLL_MS / 2);
    CHECK_RC(c, co.status, 0);
    it_run_until(f.base, &rel.done, 3000);
    CHECK_EQ(rel.done, 1);
    CHECK_RC(p.b, rel.status, 0);
    CHECK_RC(c, run_op(&f, c, 1), 0);
    it_fix_stop(&f);
}

/* A releaser that acquires again at once waits its turn, and its one try
 * before the next poll (for a pick that does not act) looks first: with
 * the pick (c) holding, one EXISTS and no SET, so it cannot take masters from
 * a next hand-off that came before it. */
TEST(wake_the_releasers_next_try_looks_and_leaves_the_pick_alone)
{
    struct it_fix f = {0};
    struct pair p;
    pair_start(&f, &p, "wk-last");
    /* c waits behind b; b wins when a releases, and c when b releases at
     * once (b's release picks c: b saw contention; its record, which
     * makes it so, goes 1 s after its win) */
    redlock_client *cc = waiter(&f, 1, NULL);
    redlock_lock *c = it_fix_lock(&f, cc, "wk-last");
    struct it_op co = {f.base};
    CHECK_RC(c, redlock_acquire_async(c, 10000, it_op_cb, &co), 0);
    CHECK_EQ(wait_registries(&f, "wk-last", 6, 0, 5000), 6);    /* b's and c's */
    pair_hand_over(&p);
    struct it_op rel = {f.base};
    CHECK_RC(p.b, redlock_release_async(p.b, quiet_op_cb, &rel), 0);
    it_run_until(f.base, &rel.done, 3000);
    CHECK_RC(p.b, rel.status, 0);
    CHECK_EQ(it_wait_nodes_ok(f.base, p.b, 3, 3000), 3);     /* every release ran */
    it_op_wait(&co, SLOW_POLL_MS / 2);
    CHECK_RC(c, co.status, 0);
    /* b acquires again at once: it waits its turn, and its try comes
     * within milliseconds, as a look */
    long long e0 = calls(&f, "exists"), s0 = calls(&f, "set");
    redlock_acquire_stats b0 = stats_of(p.bc);
    struct it_op bo = {f.base};
    CHECK_RC(p.b, redlock_acquire_async(p.b, 10000, it_op_cb, &bo), 0);
    int64_t until = check_now_ms() + SLOW_POLL_MS / 2;
    while (calls(&f, "exists") == e0 && check_now_ms() < until)
        it_run(f.base, 5);
    it_run(f.base, 100);
    long long looks = calls(&f, "exists") - e0, sets = calls(&f, "set") - s0;
    redlock_acquire_stats b1 = stats_of(p.bc);
    check_note("b's next try: %lld looks, %lld SETs, %llu attempts", looks, sets,
               (unsigned long long)(b1.attempts - b0.attempts));
    CHECK_EQ(looks, 1);
    CHECK_EQ(sets, 0);
    CHECK_EQ(b1.attempts, b0.attempts);
    CHECK_EQ(bo.done, 0);
    /* c's release tells b, which wins */
    CHECK_RC(c, run_op(&f, c, 1), 0);
    it_op_wait(&bo, SLOW_POLL_MS / 2);
    CHECK_RC(p.b, bo.status, 0);
    CHECK_RC(p.b, run_op(&f, p.b, 1), 0);
    it_fix_stop(&f);
}

/* Whether the client of lock h (held: its value begins with its client's
 * id) listens for the waiters' notices on master i (its channel
 * "{}:holder:<id>"). */
static long long listens_on(struct it_fix *f, int i, const redlock_lock *h)
{
    size_t vlen = 0;
    const char *v = redlock_lock_value(h, &vlen);
    char chan[32];
    CHECK(v != NULL && vlen > 12);
    snprintf(chan, sizeof chan, "{}:holder:%.12s", v);
    redisReply *r = rlt_servers_command(f->s, i, "PUBSUB NUMSUB %s", chan);
    CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    long long n = r->element[1]->integer;
    freeReplyObject(r);
    return n;
}

/* One round of the next test: a new blocking client's lock on wk-b (its
 * first hold) acquires, a waiter's lock on bc is refused and enters the
 * registries, the holder releases; how long after the release the waiter
 * got the lock. */
static int64_t blocking_round_ms(struct it_fix *f, redlock_client *bc)
{
    redlock_options o;
    it_opts(&o);
    redlock_client *hc = it_client(f->s, &o);     /* blocking, no loop thread */
    redlock_lock *h = IT_LOCK(hc, "wk-b"), *w = IT_LOCK(bc, "wk-b");
    struct it_op wo = {f->base};

    CHECK_RC(h, redlock_acquire(h, 10000), 0);
    /* the holder listens (its loop idle) on a quorum at least: on every
     * master whose replies were in, which a loaded machine may not make
     * all three */
    int on = 0;
    for (int i = 0; i < 3; i++)
        on += listens_on(f, i, h) == 1;
    CHECK_GE(on, 2);
    check_note("the holder listens on %d of 3 masters", on);
    CHECK_RC(w, redlock_acquire_async(w, 10000, it_op_cb, &wo), 0);
    CHECK_EQ(wait_registries(f, "wk-b", 3, 0, 5000), 3);
    it_run(f->base, 20);        /* (the holder's program works, its loop idle) */
    CHECK_EQ(wo.done, 0);
    int64_t t0 = check_now_ms();
    CHECK_RC(h, redlock_release(h), 0);
    it_op_wait(&wo, 2 * SLOW_POLL_MS);
    CHECK_RC(w, wo.status, 0);
    CHECK_RC(w, run_op(f, w, 1), 0);
    redlock_lock_free(w);
    redlock_lock_free(h);
    redlock_client_free(hc);
    return wo.at_ms - t0;
}

/* Holders on blocking clients without a loop thread (their loop runs
 * only inside their calls): a release wakes the waiter as a listening
 * holder's does, from a client's first hold on (its listening for the
 * waiters' notices is in place when its acquire returns), however the
 * waiter's notice and the release cross (a late pick asked for during the
 * release is made before the call returns). */
TEST(wake_a_blocking_holders_release_wakes_every_waiter)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    redlock_client *bc = waiter(&f, 1, NULL);
    int64_t most = 0;
    int late = 0;

    for (int i = 0; i < 10; i++) {
        int64_t ms = blocking_round_ms(&f, bc);
        check_note("waiter %d in %lld ms after the release", i, (long long)ms);
        late += ms >= SLOW_POLL_MS / 2;
        most = ms > most ? ms : most;
    }
    check_note("%d of 10 waiters waited for their poll; the slowest %lld ms (poll %d ms)", late,
               (long long)most, SLOW_POLL_MS);
    CHECK_EQ(late, 0);
    CHECK_LT(most, 200);
    it_fix_stop(&f);
}
