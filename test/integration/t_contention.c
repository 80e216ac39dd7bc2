/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_contention.c -- integration: several clients on one resource, wrong
 * values, expiry, acquire deadline, the validity rule with custom clocks. */
#include "itest.h"

#include <time.h>
#include <hiredis/hiredis.h>

TEST(contention_second_client_refused)
{
    struct it_fix f = {0};
    redlock_options o;
    redlock_lock *la, *lb;
    static const char res[] = "contended";
    size_t rlen = sizeof res - 1;
    it_opts_retry(&o, 2, 20, 5);
    it_fix_two(&f, 3, 0, &o, res, &la, &lb);

    CHECK_RC(la, redlock_acquire(la, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, la, 3, 2000), 3);

    int64_t t0 = check_now_ms();
    CHECK_RC(lb, redlock_try_acquire(lb, 10000), REDLOCK_ENOQUORUM);
    CHECK_LT(check_now_ms() - t0, 100 + 400);
    CHECK_EQ(redlock_lock_nodes_ok(lb), 0);
    CHECK_EQ(redlock_lock_validity(lb), 0);
    CHECK_NE(it_errstr(lb)[0], '\0');
    CHECK_EQ(it_count_lock(f.s, res, rlen, la), 3); /* the holder's key is intact */

    /* acquire retries twice, 15..25 ms apart, then gives up */
    t0 = check_now_ms();
    CHECK_RC(lb, redlock_acquire(lb, 10000), REDLOCK_ENOQUORUM);
    int64_t elapsed = check_now_ms() - t0;
    CHECK_GE(elapsed, 2 * 15 - 2);
    CHECK_LT(elapsed, 3 * 100 + 2 * 25 + 500);
    CHECK_EQ(it_count_lock(f.s, res, rlen, la), 3);

    /* the holder's extend still works: nothing of b's got in */
    CHECK_RC(la, redlock_extend(la, 10000), REDLOCK_OK);
    CHECK_GE(redlock_lock_nodes_ok(la), 2); /* an extend is decided at quorum */
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, la, 3, 2000), 3);

    CHECK_RC(la, redlock_release(la), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);
    CHECK_RC(lb, redlock_try_acquire(lb, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, lb, 3, 2000), 3);
    CHECK_RC(la, redlock_try_acquire(la, 10000), REDLOCK_ENOQUORUM);
    CHECK_RC(lb, redlock_release(lb), REDLOCK_OK);

    it_fix_stop(&f);
}

TEST(contention_wrong_value_never_deletes)
{
    struct it_fix f = {0};
    static const char res[] = "wrong-value";
    size_t rlen = sizeof res - 1;
    redlock_lock *holder, *w2;
    it_fix_two(&f, 3, 0, NULL, res, &holder, &w2);
    CHECK_RC(holder, redlock_acquire(holder, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, holder, 3, 2000), 3);
    long long pttl_before = it_pttl(f.s, 0, res, rlen);

    /* same client and another client, a value that is not the holder's */
    redlock_lock *w1 = it_fix_lock(&f, f.c, res);
    CHECK_RC(w1, redlock_lock_set_value(w1, "not-the-value", 13), REDLOCK_OK);
    CHECK_RC(w2, redlock_lock_set_value(w2, "x", 1), REDLOCK_OK);
    CHECK_RC(w1, redlock_release(w1), REDLOCK_ENOTOWNER);
    CHECK_EQ(redlock_lock_nodes_ok(w1), 0);
    CHECK_NE(it_errstr(w1)[0], '\0');
    CHECK_RC(w2, redlock_release(w2), REDLOCK_ENOTOWNER);
    CHECK_EQ(redlock_lock_nodes_ok(w2), 0);
    CHECK_EQ(it_count_lock(f.s, res, rlen, holder), 3);

    /* A value that is a prefix of the holder's is not the holder's either. */
    size_t vlen = 0;
    const char *v = redlock_lock_value(holder, &vlen);
    CHECK(v != NULL && vlen > 1);
    CHECK_RC(w1, redlock_lock_set_value(w1, v, vlen - 1), REDLOCK_OK);
    CHECK_RC(w1, redlock_release(w1), REDLOCK_ENOTOWNER);
    CHECK_RC(w1, redlock_extend(w1, 60000), REDLOCK_ENOTOWNER);
    CHECK_EQ(redlock_lock_nodes_ok(w1), 0);
    CHECK_EQ(it_count_lock(f.s, res, rlen, holder), 3);
    /* the extend did not touch the ttl */
    CHECK_LE(it_pttl(f.s, 0, res, rlen), pttl_before);

    /* an acquire with a fixed value equal to nothing is refused */
    CHECK_RC(w2, redlock_try_acquire(w2, 10000), REDLOCK_ENOQUORUM);
    CHECK_EQ(it_count_lock(f.s, res, rlen, holder), 3);

    CHECK_RC(holder, redlock_release(holder), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(holder), 3);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);
    it_fix_stop(&f);
}

TEST(contention_expiry_frees_the_lock)
{
    struct it_fix f = {0};
    static const char res[] = "expiring";
    size_t rlen = sizeof res - 1;
    redlock_lock *la, *lb;
    it_fix_two(&f, 3, 0, NULL, res, &la, &lb);

    CHECK_RC(la, redlock_try_acquire(la, 50), REDLOCK_OK);
    CHECK_GT(redlock_lock_validity(la), 0);
    CHECK_LE(redlock_lock_validity(la), 50);
    /* the masters expire the key on their own */
    CHECK_EQ(it_wait_count(f.s, res, rlen, 0, 2000), 0);
    CHECK_EQ(redlock_lock_validity(la), 0);

    CHECK_RC(lb, redlock_try_acquire(lb, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, lb, 3, 2000), 3);
    /* the first owner lost it: it can neither extend nor release b's lock */
    CHECK_RC(la, redlock_extend(la, 10000), REDLOCK_ENOTOWNER);
    CHECK_EQ(redlock_lock_validity(la), 0);
    CHECK_RC(la, redlock_release(la), REDLOCK_ENOTOWNER);
    CHECK_EQ(it_count_lock(f.s, res, rlen, lb), 3);

    CHECK_RC(lb, redlock_release(lb), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);
    it_fix_stop(&f);
}

/* f on 3 masters; *la (of f->c) holds res for 30 s, *lb of another client
 * (made with o, returned) is to wait for it. */
static redlock_client *held_and_waiting(struct it_fix *f, const redlock_options *o, const char *res,
                             redlock_lock **la, redlock_lock **lb)
{
    redlock_client *b = it_fix_two(f, 3, 0, o, res, la, lb);
    CHECK_RC(*la, redlock_acquire(*la, 30000), REDLOCK_OK);
    return b;
}

TEST(contention_acquire_timeout_bounds_retries)
{
    struct it_fix f = {0};
    redlock_options o;
    redlock_lock *la, *lb;
    it_opts_retry(&o, 100000, 20, 10);
    o.acquire_timeout_ms = 150;
    held_and_waiting(&f, &o, "deadline", &la, &lb);

    int64_t t0 = check_now_ms();
    int rc = redlock_acquire(lb, 10000);
    int64_t elapsed = check_now_ms() - t0;
    CHECK_MSG(rc == REDLOCK_ENOQUORUM || rc == REDLOCK_ETIMEDOUT, "rc %d %s", rc, it_errstr(lb));
    CHECK_GE(elapsed, 150 - 30 - 2);        /* the last attempt starts near the deadline */
    CHECK_LT(elapsed, 150 + 100 + 30 + 400); /* and none starts after it */
    CHECK_EQ(it_count_lock(f.s, "deadline", 8, la), 3);

    CHECK_RC(la, redlock_release(la), REDLOCK_OK);
    it_fix_stop(&f);
}

/* Attempts against a lock held elsewhere are retry_delay +- jitter apart,
 * never closer: with 200 ms and no jitter, an acquire that may start
 * attempts for 251 ms makes two (at 0 and 200 ms).  A poll slowed past
 * the deadline comes at the retry delay (it used to halve the time left,
 * again and again: five attempts, the last ones milliseconds apart). */
TEST(contention_attempts_never_closer_than_the_retry_delay)
{
    struct it_fix f = {0};
    redlock_options o;
    redlock_lock *la, *lb;
    redlock_acquire_stats st;
    it_opts_retry(&o, 100, 200, 0);
    o.acquire_timeout_ms = 251;
    redlock_client *b = held_and_waiting(&f, &o, "spacing", &la, &lb);

    long long sets0 = it_calls(f.s, 0, "set");
    int64_t t0 = check_now_ms();
    int rc = redlock_acquire(lb, 10000);
    int64_t took = check_now_ms() - t0;
    CHECK_MSG(rc == REDLOCK_ENOQUORUM || rc == REDLOCK_ETIMEDOUT, "rc %d %s", rc, it_errstr(lb));
    memset(&st, 0, sizeof st);
    CHECK_EQ(redlock_client_acquire_stats(b, &st), 0);
    check_note("%llu attempts in %lld ms (%lld SETs on master 0)",
               (unsigned long long)st.attempts, (long long)took,
               it_calls(f.s, 0, "set") - sets0);
    CHECK_EQ(st.attempts, 2);
    CHECK_EQ(it_calls(f.s, 0, "set") - sets0, 2);
    CHECK_GE(took, 195);
    CHECK_RC(la, redlock_release(la), REDLOCK_OK);
    it_fix_stop(&f);
}

/* Clocks under the test's control. */
static int clock_mode;      /* 0: real, 1: frozen, 2: jumps 100 s per call */
static int64_t clock_frozen;
static int64_t clock_jump;
static long clock_calls;

static int64_t real_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t test_clock(void *privdata)
{
    CHECK(privdata == &clock_calls);
    clock_calls++;
    switch (clock_mode) {
    case 1:
        return clock_frozen;
    case 2:
        clock_jump += 100 * 1000000LL;
        return real_us() + clock_jump;
    default:
        return real_us() + clock_jump;
    }
}

TEST(contention_validity_uses_client_clock)
{
    redlock_options o;
    it_opts(&o);
    o.clock = test_clock;
    o.clock_privdata = &clock_calls;
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *lock = it_fix_lock(&f, f.c, "clocked");

    /* Frozen clock: no time elapses, so validity = ttl - drift exactly
     * (1000 - (1000 * 0.01 + 2) = 988). */
    clock_frozen = real_us();
    clock_mode = 1;
    long calls = clock_calls;
    CHECK_RC(lock, redlock_try_acquire(lock, 1000), REDLOCK_OK);
    CHECK_GT(clock_calls, calls);
    CHECK_GE(redlock_lock_validity(lock), 987);
    CHECK_LE(redlock_lock_validity(lock), 988);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);

    /* A clock that jumps 100 s per reading: every attempt took longer than
     * the ttl, so none may succeed, and the keys must be released. */
    clock_frozen = 0;
    clock_mode = 2;
    CHECK_NE(redlock_try_acquire(lock, 10000), REDLOCK_OK);
    CHECK_NE(it_errstr(lock)[0], '\0');
    CHECK_EQ(redlock_lock_validity(lock), 0);
    clock_mode = 0;
    CHECK_EQ(it_wait_count(f.s, "clocked", 7, 0, 1000), 0);

    it_fix_stop(&f);
}

/* A lost attempt gives back what it may hold: an undo to the master that
 * granted it, none to those whose SET NX refused it (nothing was written
 * there; the undo would have cost them a script run each). */
TEST(contention_a_lost_attempt_undoes_only_where_it_may_have_written)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    static const char res[] = "undo-where";
    redlock_lock *l = it_fix_lock(&f, f.c, res);
    struct it_op op = {f.base};
    long long before[3];

    for (int i = 0; i < 2; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "SET %s other PX 60000", res);
        CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
        freeReplyObject(r);
    }
    for (int i = 0; i < 3; i++)
        before[i] = it_calls(f.s, i, "eval");
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 3000);
    CHECK_RC(l, op.status, REDLOCK_ENOQUORUM);
    /* master 2 granted it (or was still to answer): its key goes */
    int64_t until = check_now_ms() + 3000;
    while (rlt_servers_exists(f.s, 2, res, sizeof res - 1) && check_now_ms() < until)
        it_run(f.base, 5);
    CHECK(!rlt_servers_exists(f.s, 2, res, sizeof res - 1));
    CHECK_EQ(it_calls(f.s, 2, "eval") - before[2], 1);
    /* the refusing masters got nothing, and keep the other value */
    for (int i = 0; i < 2; i++) {
        CHECK_EQ(it_calls(f.s, i, "eval"), before[i]);
        CHECK(rlt_servers_exists(f.s, i, res, sizeof res - 1));
    }
    it_fix_stop(&f);
}
