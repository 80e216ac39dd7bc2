/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_fencing.c -- fencing tokens and the re-growing extend against real
 * redis-servers: tokens that only grow across clients, counters raised when
 * the masters disagree (so a later quorum still sees the token), and keys
 * given back to a master that lost them.
 */
#include "itest.h"

#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>

static long long counter_on(rlt_servers *s, int i, const char *fence_key)
{
    redisReply *r = rlt_servers_command(s, i, "GET %s", fence_key);
    long long v = -1;
    CHECK(r != NULL);
    if (r->type == REDIS_REPLY_STRING)
        v = atoll(r->str);
    else if (r->type == REDIS_REPLY_NIL)
        v = 0;
    freeReplyObject(r);
    return v;
}

static long long scripts_on(rlt_servers *s, int i)
{
    return it_calls(s, i, "evalsha") + it_calls(s, i, "eval");
}

/* One acquire and release of l: its token. */
static int64_t fenced_cycle(redlock_lock *l)
{
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    int64_t t = redlock_lock_token(l);
    CHECK_RC(l, redlock_release(l), 0);
    return t;
}

/* f started on n masters, and a lock of f->c on res with fencing on. */
static redlock_lock *fenced_lock(struct it_fix *f, int n, const char *res)
{
    it_fix_start(f, n, NULL, 0);
    redlock_lock *l = it_fix_lock(f, f->c, res);
    CHECK_EQ(redlock_lock_set_fencing(l, 1), 0);
    return l;
}

TEST(fencing_tokens_grow_across_clients)
{
    struct it_fix f = {0};
    redlock_lock *a, *b;
    it_fix_two(&f, 3, 0, NULL, "fence-grow", &a, &b);
    redlock_lock *plain = it_fix_lock(&f, f.c, "fence-plain");
    CHECK_EQ(redlock_lock_set_fencing(a, 1), 0);
    CHECK_EQ(redlock_lock_set_fencing(b, 1), 0);
    CHECK_EQ(redlock_lock_token(a), 0);
    int64_t last = 0;
    for (int i = 0; i < 200; i++) {
        redlock_lock *l = i % 3 ? a : b;
        CHECK_RC(l, redlock_acquire(l, 10000), 0);
        int64_t t = redlock_lock_token(l);
        CHECK_MSG(t > last, "acquisition %d: token %lld after %lld", i, (long long)t,
                  (long long)last);
        last = t;
        CHECK_RC(l, redlock_release(l), 0);
        CHECK_EQ(redlock_lock_token(l), t);     /* kept after the release */
    }
    check_note("200 acquisitions by 2 clients: tokens up to %lld", (long long)last);
    /* while a holds it, b is refused and gets no token */
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    CHECK_EQ(redlock_lock_token(b), 0);
    CHECK_RC(a, redlock_release(a), 0);
    /* a lock without fencing has no token, and no counter */
    CHECK_RC(plain, redlock_acquire(plain, 10000), 0);
    CHECK_EQ(redlock_lock_token(plain), 0);
    CHECK_EQ(counter_on(f.s, 0, "{fence-plain}:fence"), 0);
    CHECK_RC(plain, redlock_release(plain), 0);
    it_fix_stop(&f);
}

/* The masters that answer disagree (one saw acquisitions the others did
 * not): the token is the largest counter, and the others of the quorum are
 * raised to it before the acquire succeeds, so that a later quorum without
 * the master that was ahead still reads at least the token. */
TEST(fencing_raises_counters_that_disagree)
{
    static const char fk[] = "{fence-raise}:fence";
    struct it_fix f = {0};
    redlock_lock *l = fenced_lock(&f, 5, "fence-raise");

    /* the first acquisition: no counter yet, the token starts from the
     * wall clock (microseconds) and the counters are raised to it (they
     * stay after the release: no ttl) */
    int64_t t1 = fenced_cycle(l);
    CHECK_GE(t1, (int64_t)1 << 40);
    CHECK_EQ(it_wait_count(f.s, fk, sizeof fk - 1, 5, 2000), 5);
    int at_t1 = 0;
    for (int i = 0; i < 5; i++)
        at_t1 += counter_on(f.s, i, fk) == t1;
    CHECK_GE(at_t1, 3);

    /* masters 3 and 4 hang (they keep their memory); master 0 is ahead */
    CHECK_EQ(rlt_servers_pause(f.s, 3), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 4), 0);
    it_set_int(f.s, 0, fk, t1 + 1000);
    long long scripts_before = scripts_on(f.s, 1);
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_EQ(redlock_lock_token(l), t1 + 1001);
    /* the acquire (SET and INCR, no script), then the raise (a script) */
    CHECK_EQ(scripts_on(f.s, 1) - scripts_before, 1);
    CHECK_EQ(counter_on(f.s, 1, fk), t1 + 1001);
    CHECK_EQ(counter_on(f.s, 2, fk), t1 + 1001);
    CHECK_RC(l, redlock_release(l), 0);

    /* now a quorum without the master that was ahead: {2, 3, 4}; only
     * master 2's raised counter carries the token over */
    CHECK_EQ(rlt_servers_resume(f.s, 3), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 4), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 0), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    int64_t t3 = fenced_cycle(l);
    CHECK_GT(t3, t1 + 1001);
    CHECK_LT(t3, t1 + 1010);
    CHECK_EQ(rlt_servers_resume(f.s, 0), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);

    /* they agree now: no raise (no script), one INCR */
    CHECK_EQ(redlock_client_wait_connected(f.c, 5, 5000), 0);
    scripts_before = scripts_on(f.s, 2);
    long long incrs_before = it_calls(f.s, 2, "incr");
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_GT(redlock_lock_token(l), t3);
    CHECK_EQ(scripts_on(f.s, 2) - scripts_before, 0);
    CHECK_EQ(it_calls(f.s, 2, "incr") - incrs_before, 1);
    CHECK_RC(l, redlock_release(l), 0);
    it_fix_stop(&f);
}

/* A master restarted without persistence comes back without its counter:
 * the token still grows (the wall clock's floor, then the raise). */
TEST(fencing_survives_a_majority_that_lost_its_counters)
{
    static const char fk[] = "{fence-lost}:fence";
    struct it_fix f = {0};
    redlock_lock *l = fenced_lock(&f, 3, "fence-lost");
    int64_t t1 = fenced_cycle(l), t2 = t1;
    /* acquisitions the restarted masters will not remember */
    for (int i = 0; i < 50; i++)
        t2 = fenced_cycle(l);
    CHECK_EQ(t2, t1 + 50);
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 1), 0);
    CHECK_EQ(counter_on(f.s, 0, fk), 0);
    CHECK_EQ(counter_on(f.s, 1, fk), 0);
    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);      /* the one that remembers */
    CHECK_EQ(redlock_client_wait_connected(f.c, 2, 5000), 0);
    CHECK_GT(fenced_cycle(l), t2);
    it_fix_stop(&f);
}

/* A master restarted without persistence lost the key: the next extend
 * gives it back, while a master holding someone else's value refuses. */
TEST(extend_regrows_the_key_where_it_is_gone)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    static const char key[] = "regrow";
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    CHECK_RC(l, redlock_acquire(l, 30000), 0);
    CHECK_EQ(it_wait_lock_count(f.s, key, 6, l, 3, 2000), 3);
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);
    CHECK_EQ(it_count_lock(f.s, key, 6, l), 2);
    it_set(f.s, 1, key, "someone-else");
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 5000), 0);  /* back to master 0 */

    CHECK_RC(l, redlock_extend(l, 30000), 0);
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(l, 0, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_OK);                  /* re-grown */
    CHECK_EQ(redlock_lock_node_result(l, 1, &r), 0);
    /* not ours: refused (or not heard yet: decided at the quorum) */
    CHECK(r.vote == REDLOCK_VOTE_REFUSED || r.vote == REDLOCK_VOTE_NONE);
    CHECK_EQ(it_count_lock(f.s, key, 6, l), 2);         /* masters 0 and 2 */
    CHECK_GT(it_pttl(f.s, 0, key, 6), 20000);
    CHECK_EQ(it_count_value(f.s, key, 6, "someone-else", 12), 1);

    /* a handed-over value (validity unknown) only extends, never re-grows */
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);
    char value[64];
    CHECK(v != NULL && vlen < sizeof value);
    memcpy(value, v, vlen);
    redlock_lock *h = it_fix_lock(&f, f.c, key);
    CHECK_EQ(redlock_lock_set_value(h, value, vlen), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 5000), 0);
    CHECK_RC(h, redlock_extend(h, 30000), REDLOCK_ENOTOWNER);   /* 1 of 3 */
    CHECK_EQ(rlt_servers_exists(f.s, 0, key, 6), 0);
    it_fix_stop(&f);
}

/* examples/fencing.c: the paused holder's late write is refused by the
 * storage, which compares tokens. */
TEST(fencing_example_rejects_the_paused_holder)
{
    static const char *const says[] = {
        "B writes: accepted", ": refused", "storage holds \"written by B\"", NULL };
    rlt_servers *s = it_start(3, NULL);
    it_example_says("examples/fencing", s, says);
    rlt_servers_free(s);
}
