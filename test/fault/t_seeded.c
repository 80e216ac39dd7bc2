/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_seeded.c -- fixed scenarios for safety measures that defects seeded one
 * at a time into the library went through the rest of the suite unseen
 * (issue 25, defect 10).  Each test fails with its defect seeded:
 *
 *   seeded_clock_step_back_between_replies_is_no_win
 *       the check, as an acquire is decided, that the client's clock did
 *       not step back since the attempt started (lockop.c)
 *   seeded_wait_ends_with_the_validity_not_the_node_timeout
 *       a request's wait cut short when the lock's validity ends before
 *       the node timeout (fanout.c, op_wait_us)
 *   seeded_validity_counts_from_the_attempts_start
 *       validity = start + ttl - drift, not decision + ttl - drift, for an
 *       acquire and an extend (lockop.c, redlock__lock_settle)
 *   seeded_fencing_token_is_the_largest_not_the_first
 *       the token is the largest counter of the quorum, also when the
 *       master holding it answers last (quorum.c, redlock__fence_token)
 *   seeded_quorum_of_four_masters_is_three
 *       N/2+1 for an even N (quorum.c, redlock__tally_init)
 */
#include "itest.h"
#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

/* The drift allowance of it_opts' options: ttl x 1 % + 2 ms. */
static int64_t drift_ms(int64_t ttl_ms)
{
    return ttl_ms / 100 + 2;
}

/* ---- a client clock stepping back while an acquire's replies come in ------ */

#define STEP_LATE 1000  /* long enough that the step surely falls in between */

struct stepclock {
    int64_t offset_us;
};

static int64_t stepclock_fn(void *privdata)
{
    return check_now_us() + ((struct stepclock *)privdata)->offset_us;
}

static uint64_t oks_of(redlock_client *c, size_t node)
{
    redlock_node_stats st;
    CHECK_EQ(redlock_client_node_stats(c, node, &st), 0);
    return st.oks;
}

/* One try_acquire whose replies from masters 1 and 2 come STEP_LATE ms late;
 * once master 0's OK has been counted, step the clock back 5 s when `step`. */
static void try_with_a_step(struct event_base *base, redlock_client *c, redlock_lock *l,
                            struct stepclock *clk, int step, struct it_op *op)
{
    uint64_t oks0 = oks_of(c, 0);
    memset(op, 0, sizeof *op);
    op->base = base;
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, op), REDLOCK_OK);
    int64_t until = check_now_ms() + 2000;
    while (oks_of(c, 0) == oks0 && !op->done && check_now_ms() < until)
        it_dispatch(base, 2);
    CHECK_EQ(oks_of(c, 0), oks0 + 1);
    CHECK_EQ(op->done, 0);      /* 1 OK of the 2 needed: the others on their way */
    if (step)
        clk->offset_us -= 5000000;
    it_op_wait(op, 5000);
}

TEST(seeded_clock_step_back_between_replies_is_no_win)
{
    static const char res[] = "seeded:step";
    struct px_fix p;
    struct it_fix *f = &p.f;
    struct stepclock clk = {0};
    px_fix_start(&p, 3);
    redlock_options o;
    it_opts(&o);
    o.clock = stepclock_fn;
    o.clock_privdata = &clk;
    o.clock_probe_ms = 0;       /* no TIME samples: the step is the client's alone */
    o.node_timeout_ms = 3000;
    redlock_client *c = px_fix_client(&p, &o);
    CHECK_EQ(it_async_wait_connected(f->base, c, 3, 3000), 0);
    rlp_thread_set_latency(p.px[1], RLP_DOWN, STEP_LATE, 0);
    rlp_thread_set_latency(p.px[2], RLP_DOWN, STEP_LATE, 0);
    redlock_lock *l = it_fix_lock(f, c, res);
    struct it_op op;

    /* without a step the attempt wins, at master 1's or 2's late reply */
    try_with_a_step(f->base, c, l, &clk, 0, &op);
    CHECK_RC(l, op.status, REDLOCK_OK);
    CHECK_GT(op.validity, 0);
    CHECK_LE(op.validity, 10000 - STEP_LATE - drift_ms(10000));
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), REDLOCK_OK);
    op.done = 0;
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, REDLOCK_OK);

    /* the clock steps back between master 0's reply and the others': the
     * time measured since the start is not to be trusted, no win */
    try_with_a_step(f->base, c, l, &clk, 1, &op);
    check_note("stepped back during the replies: status %d (%s), validity %lld, %zu OK",
               op.status, it_errstr(l), (long long)op.validity, op.nodes_ok);
    CHECK_NE(op.status, REDLOCK_OK);
    CHECK_EQ(op.validity, 0);
    CHECK_EQ(redlock_lock_validity(l), 0);
    CHECK_GE(op.nodes_ok, 2);   /* a quorum said yes: only the step lost it */
    CHECK_MSG(it_has(it_errstr(l), "clock stepped"), "%s", it_errstr(l));   /* (and says so) */
    /* the attempt is undone on every master */
    int64_t until = check_now_ms() + 3000;
    while (rlt_servers_count_key(f->s, res, sizeof res - 1) != 0 && check_now_ms() < until)
        it_run(f->base, 10);
    CHECK_EQ(rlt_servers_count_key(f->s, res, sizeof res - 1), 0);

    /* the clock goes on from there: the next attempt wins */
    try_with_a_step(f->base, c, l, &clk, 0, &op);
    CHECK_RC(l, op.status, REDLOCK_OK);
    CHECK_GT(op.validity, 0);

    px_fix_stop(&p);
}

/* ---- the validity ends before the node timeout ------------------------------ */

TEST(seeded_wait_ends_with_the_validity_not_the_node_timeout)
{
    static const char res[] = "seeded:short";
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 2000;
    o.retry_count = 0;
    struct it_fix f = {.key = res};
    it_fix_start(&f, 3, &o, 0);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);

    /* ttl 100 ms: validity 97 ms at most, far less than the node timeout */
    int64_t t0 = check_now_ms();
    int rc = redlock_try_acquire(f.lock, 100);
    int64_t took = check_now_ms() - t0;
    check_note("ttl 100 ms, node timeout 2 s, 2 of 3 masters paused: %d after %lld ms (%s)", rc,
               (long long)took, it_errstr(f.lock));
    CHECK_NE(rc, REDLOCK_OK);
    CHECK_EQ(redlock_lock_validity(f.lock), 0);
    CHECK_GE(took, 90);         /* it did wait for the paused masters ... */
    CHECK_LE(took, 1000);       /* ... until the validity ended, not 2 s */
    CHECK_MSG(it_has(it_errstr(f.lock), "validity ran out"), "errstr: %s", it_errstr(f.lock));
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(f.lock, 1, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_TIMEOUT);

    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    it_fix_stop(&f);
}

/* ---- validity from the attempt's start --------------------------------------- */

/* Three masters behind proxies, a blocking client through them with a
 * node timeout of 3 s, and its lock on res. */
static redlock_lock *slow_proxied_lock(struct px_fix *p, const char *res)
{
    px_fix_start(p, 3);
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 3000;
    redlock_client *c = px_fix_blocking_client(p, &o);
    return it_fix_lock(&p->f, c, res);
}

TEST(seeded_validity_counts_from_the_attempts_start)
{
    static const int64_t ttl = 10000, late = 300;
    struct px_fix p;
    redlock_lock *l = slow_proxied_lock(&p, "seeded:start");
    /* a quorum needs master 1 or 2: the decision comes >= 300 ms after
     * the start */
    rlp_thread_set_latency(p.px[1], RLP_DOWN, (int)late, 0);
    rlp_thread_set_latency(p.px[2], RLP_DOWN, (int)late, 0);
    /* the proxies delay by at least `late`; 5 ms for timer rounding */
    int64_t most = ttl - late - drift_ms(ttl) + 5, least = ttl - late - drift_ms(ttl) - 3000;

    CHECK_RC(l, redlock_acquire(l, ttl), REDLOCK_OK);
    int64_t v = redlock_lock_validity(l);
    check_note("acquire: validity %lld ms (at most %lld)", (long long)v, (long long)most);
    CHECK_LE(v, most);
    CHECK_GE(v, least);

    /* an extend's validity counts from its own start likewise */
    CHECK_RC(l, redlock_extend(l, ttl), REDLOCK_OK);
    v = redlock_lock_validity(l);
    check_note("extend: validity %lld ms (at most %lld)", (long long)v, (long long)most);
    CHECK_LE(v, most);
    CHECK_GE(v, least);

    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    px_fix_stop(&p);
}

/* ---- the fencing token: the largest counter, not the first --------------------- */

/* The key on server i holding the decimal value v (the fencing counter,
 * wherever the library keeps it); the test fails when there is none. */
static void key_holding(rlt_servers *s, int i, long long v, char *out, size_t size)
{
    char want[32];
    snprintf(want, sizeof want, "%lld", v);
    redisReply *keys = rlt_servers_command(s, i, "KEYS *");
    CHECK(keys != NULL && keys->type == REDIS_REPLY_ARRAY);
    out[0] = '\0';
    for (size_t k = 0; k < keys->elements && !out[0]; k++) {
        redisReply *r = rlt_servers_command(s, i, "GET %s", keys->element[k]->str);
        if (r && r->type == REDIS_REPLY_STRING && strcmp(r->str, want) == 0)
            snprintf(out, size, "%s", keys->element[k]->str);
        if (r)
            freeReplyObject(r);
    }
    freeReplyObject(keys);
    CHECK_MSG(out[0] != '\0', "no key holds %s on server %d", want, i);
}

static void set_counter(rlt_servers *s, int i, const char *key, long long v)
{
    redisReply *r = rlt_servers_command(s, i, "SET %s %lld", key, v);
    CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
}

static long long counter_on(rlt_servers *s, int i, const char *key)
{
    redisReply *r = rlt_servers_command(s, i, "GET %s", key);
    CHECK(r != NULL);
    long long v = r->type == REDIS_REPLY_STRING ? atoll(r->str) : 0;
    freeReplyObject(r);
    return v;
}

TEST(seeded_fencing_token_is_the_largest_not_the_first)
{
    struct px_fix p;
    struct it_fix *f = &p.f;
    char fk[256];
    redlock_lock *l = slow_proxied_lock(&p, "seeded:fence");
    CHECK_EQ(redlock_lock_set_fencing(l, 1), 0);
    CHECK_RC(l, redlock_acquire(l, 10000), REDLOCK_OK);
    int64_t t1 = redlock_lock_token(l);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    key_holding(f->s, 0, t1, fk, sizeof fk);

    /* master 2 is ahead and answers last (500 ms late); master 1 hangs, so
     * the quorum is {0, 2} and master 0's answer comes first */
    set_counter(f->s, 0, fk, t1);
    set_counter(f->s, 2, fk, t1 + 1000);
    rlp_thread_set_latency(p.px[2], RLP_DOWN, 500, 0);
    CHECK_EQ(rlt_servers_pause(f->s, 1), 0);
    CHECK_RC(l, redlock_acquire(l, 10000), REDLOCK_OK);
    redlock_node_result r0, r2;
    CHECK_EQ(redlock_lock_node_result(l, 0, &r0), 0);
    CHECK_EQ(redlock_lock_node_result(l, 2, &r2), 0);
    CHECK_EQ(r0.vote, REDLOCK_VOTE_OK);
    CHECK_EQ(r2.vote, REDLOCK_VOTE_OK);
    CHECK_LT(r0.rtt_us, r2.rtt_us);
    check_note("token %lld (t1 + %lld); master 0 answered in %lld us, master 2 in %lld us",
               (long long)redlock_lock_token(l), (long long)(redlock_lock_token(l) - t1),
               (long long)r0.rtt_us, (long long)r2.rtt_us);
    CHECK_EQ(redlock_lock_token(l), t1 + 1001);
    /* and master 0, of the quorum, was raised to it */
    CHECK_EQ(counter_on(f->s, 0, fk), t1 + 1001);

    CHECK_EQ(rlt_servers_resume(f->s, 1), 0);   /* (a blocking release waits for it) */
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    px_fix_stop(&p);
}

/* ---- an even number of masters ------------------------------------------------ */

static void hold_elsewhere(rlt_servers *s, int i, const char *key)
{
    redisReply *r = rlt_servers_command(s, i, "SET %s someone-else PX 30000", key);
    CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
}

TEST(seeded_quorum_of_four_masters_is_three)
{
    static const char res[] = "seeded:four";
    redlock_options o;
    it_opts(&o);
    o.retry_count = 0;
    struct it_fix f = {.key = res};
    it_fix_start(&f, 4, &o, 0);

    /* another client's key on 2 of 4: 2 OK are not a quorum */
    hold_elsewhere(f.s, 0, res);
    hold_elsewhere(f.s, 1, res);
    CHECK_RC(f.lock, redlock_try_acquire(f.lock, 10000), REDLOCK_ENOQUORUM);
    check_note("2 of 4 refusing: %s", it_errstr(f.lock));
    CHECK_EQ(redlock_lock_validity(f.lock), 0);
    CHECK_MSG(it_has(it_errstr(f.lock), "quorum 3"), "errstr: %s", it_errstr(f.lock));
    CHECK_EQ(it_count_value(f.s, res, sizeof res - 1, "someone-else", 12), 2);
    CHECK_EQ(it_wait_count(f.s, res, sizeof res - 1, 2, 2000), 2);     /* ours undone */

    /* on 1 of 4: 3 OK win */
    redisReply *r = rlt_servers_command(f.s, 1, "DEL %s", res);
    CHECK(r != NULL);
    freeReplyObject(r);
    CHECK_RC(f.lock, redlock_try_acquire(f.lock, 10000), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(f.lock), 3);
    CHECK_GT(redlock_lock_validity(f.lock), 0);
    CHECK_EQ(it_count_lock(f.s, res, sizeof res - 1, f.lock), 3);
    CHECK_RC(f.lock, redlock_release(f.lock), REDLOCK_OK);
    it_fix_stop(&f);
}
