/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_wake_kinds.c -- every kind's waiters woken by the release that frees
 * what they wait for (lock.h, redlock__wake_hook): the re-entrant lock's
 * last release (an inner one wakes nobody), the multi-resource lock's
 * (its waiter moves its registration to the resource that refused it
 * next), the semaphore's (a permit freed wakes one waiter), the read/write
 * lock's (a writer's release wakes every reader waiting, the last
 * reader's the writer), and a release with nobody waiting sends the
 * commands it sent before the hook.  The waiters poll every SLOW_POLL_MS:
 * a win well before that was the release's doing.
 */
#include "itest.h"

#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

#define SLOW_POLL_MS 5000       /* the waiters' retry delay */
#define SOON_MS (SLOW_POLL_MS / 2)

static redlock_acquire_stats stats_of(redlock_client *c)
{
    redlock_acquire_stats a;
    memset(&a, 0, sizeof a);
    CHECK_EQ(redlock_client_acquire_stats(c, &a), 0);
    return a;
}

/* A client whose locks poll every SLOW_POLL_MS. */
static redlock_client *slow_waiter(struct it_fix *f)
{
    redlock_options o;
    it_opts(&o);
    o.retry_delay_ms = SLOW_POLL_MS;
    o.retry_jitter_ms = 0;
    o.retry_count = 5;
    return it_fix_client(f, &o);
}

/* Entries in the registry "{<res>}:wq" of masters 0 .. 2. */
static long long registries(struct it_fix *f, const char *res)
{
    long long n = 0;
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f->s, i, "ZCARD {%s}:wq", res);
        CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER);
        n += r->integer;
        freeReplyObject(r);
    }
    return n;
}

/* Run the loop until res's registries hold `want` entries (5 s at most). */
static void wait_registries(struct it_fix *f, const char *res, long long want)
{
    int64_t until = check_now_ms() + 5000;
    while (registries(f, res) != want && check_now_ms() < until)
        it_run(f->base, 5);
    CHECK_EQ(registries(f, res), want);
}

/* The score of the (only) entry of res's registry on master i: the pick
 * moves it to the back (a new score); nothing else changes it. */
static long long entry_score(struct it_fix *f, int i, const char *res)
{
    long long s = -1;
    redisReply *r = rlt_servers_command(f->s, i, "ZRANGE {%s}:wq 0 0 WITHSCORES", res);
    CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY);
    if (r->elements == 2)
        s = strtoll(r->element[1]->str, NULL, 10);
    freeReplyObject(r);
    return s;
}

/* Run the loop until `want` holders' channels are on every master (a
 * holder's client listens for the waiters' notices from its first lock). */
static void wait_holders_listen(struct it_fix *f, long long want)
{
    for (int i = 0; i < 3; i++) {
        long long n = 0;
        for (int64_t until = check_now_ms() + 5000;;) {
            redisReply *r = rlt_servers_command(f->s, i, "PUBSUB CHANNELS {}:holder:*");
            CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY);
            n = (long long)r->elements;
            freeReplyObject(r);
            if (n >= want || check_now_ms() >= until)
                break;
            it_run(f->base, 5);
        }
        CHECK_GE(n, want);
    }
}

/* Run the loop until client c heard `want` notices of waiters (5 s). */
static void wait_notices(struct it_fix *f, redlock_client *c, uint64_t want)
{
    int64_t until = check_now_ms() + 5000;
    while (stats_of(c).notices < want && check_now_ms() < until)
        it_run(f->base, 5);
    CHECK_GE(stats_of(c).notices, want);
}

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

static redlock_lock *reentrant(struct it_fix *f, redlock_client *c, const char *res,
                               const char *owner)
{
    redlock_lock *l = NULL;
    CHECK_EQ(redlock_lock_new_reentrant(&l, c, res, strlen(res), owner, strlen(owner)), 0);
    (void)f;
    return l;
}

static redlock_lock *multi(redlock_client *c, const char *const *res, size_t n)
{
    size_t len[8];
    redlock_lock *l = NULL;
    for (size_t i = 0; i < n; i++)
        len[i] = strlen(res[i]);
    CHECK_EQ(redlock_lock_new_multi(&l, c, (const void *const *)res, len, n), 0);
    return l;
}

/* The re-entrant lock: a waiter of another owner is told by the release
 * of the last hold, long before its poll; the inner release before it
 * tells nobody (no pick on any master: the entry keeps its score). */
TEST(wake_kinds_reentrant_last_release_wakes_inner_release_does_not)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *a = reentrant(&f, f.c, "wr-1", "alice");
    redlock_client *bc = slow_waiter(&f);
    redlock_lock *b = reentrant(&f, bc, "wr-1", "bob");
    struct it_op bo = {f.base};
    long long score[3];

    CHECK_RC(a, run_op(&f, a, 0), 0);
    wait_holders_listen(&f, 1);
    CHECK_RC(b, redlock_acquire_async(b, 20000, it_op_cb, &bo), 0);
    wait_registries(&f, "wr-1", 3);
    wait_notices(&f, f.c, 1);           /* the holder knows that b waits */
    CHECK_RC(a, run_op(&f, a, 0), 0);   /* a second hold */
    for (int i = 0; i < 3; i++)
        score[i] = entry_score(&f, i, "wr-1");
    CHECK_RC(a, run_op(&f, a, 1), 0);   /* the inner release */
    CHECK_EQ(it_wait_nodes_ok(f.base, a, 3, 3000), 3);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(entry_score(&f, i, "wr-1"), score[i]);
    CHECK_EQ(stats_of(bc).announcements, 0);
    CHECK_EQ(bo.done, 0);

    int64_t t0 = check_now_ms();
    CHECK_RC(a, run_op(&f, a, 1), 0);   /* the last one */
    it_op_wait(&bo, SOON_MS);
    check_note("the waiter in %lld ms after the last release (its poll: %d ms)",
               (long long)(bo.at_ms - t0), SLOW_POLL_MS);
    CHECK_RC(b, bo.status, 0);
    CHECK_LT(bo.at_ms - t0, SOON_MS);
    CHECK_EQ(stats_of(bc).wakeups, 1);
    CHECK_EQ(stats_of(bc).attempts, 2);
    redlock_lock_free(a);
    redlock_lock_free(b);
    it_fix_stop(&f);
}

/* A re-entrant lock held by two handles of one owner, in two clients
 * (the key names the owner only; the handles are in its hash): the
 * waiter's notice reaches both, the first release (the key stays) tells
 * nobody, the second, which frees the lock, tells the waiter. */
TEST(wake_kinds_reentrant_two_handles_the_one_that_frees_wakes)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_client *c2 = it_fix_client(&f, NULL), *bc = slow_waiter(&f);
    redlock_lock *a1 = reentrant(&f, f.c, "wr-2", "alice"), *a2 = reentrant(&f, c2, "wr-2", "alice");
    redlock_lock *b = reentrant(&f, bc, "wr-2", "bob");
    struct it_op bo = {f.base};
    long long score[3];

    CHECK_RC(a1, run_op(&f, a1, 0), 0);
    CHECK_RC(a2, run_op(&f, a2, 0), 0);
    wait_holders_listen(&f, 2);
    CHECK_RC(b, redlock_acquire_async(b, 20000, it_op_cb, &bo), 0);
    wait_registries(&f, "wr-2", 3);
    wait_notices(&f, f.c, 1);
    wait_notices(&f, c2, 1);
    for (int i = 0; i < 3; i++)
        score[i] = entry_score(&f, i, "wr-2");
    CHECK_RC(a1, run_op(&f, a1, 1), 0);
    CHECK_EQ(it_wait_nodes_ok(f.base, a1, 3, 3000), 3);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(entry_score(&f, i, "wr-2"), score[i]);
    CHECK_EQ(bo.done, 0);

    int64_t t0 = check_now_ms();
    CHECK_RC(a2, run_op(&f, a2, 1), 0);
    it_op_wait(&bo, SOON_MS);
    check_note("the waiter in %lld ms after the last handle's release (its poll: %d ms)",
               (long long)(bo.at_ms - t0), SLOW_POLL_MS);
    CHECK_RC(b, bo.status, 0);
    CHECK_LT(bo.at_ms - t0, SOON_MS);
    redlock_lock_free(a1);
    redlock_lock_free(a2);
    redlock_lock_free(b);
    it_fix_stop(&f);
}

/* The multi-resource lock's waiter: refused on mk-a (held by a plain
 * lock), it waits in mk-a's registry; mk-a's release wakes it, it is
 * refused on mk-b and moves its registration there; mk-b's release wakes
 * it and it takes both, each time long before its poll. */
TEST(wake_kinds_multi_waiter_woken_moves_its_registration)
{
    static const char *const ab[] = { "mk-a", "mk-b" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *a = it_fix_lock(&f, f.c, "mk-a"), *b = it_fix_lock(&f, f.c, "mk-b");
    redlock_client *wc = slow_waiter(&f);
    redlock_lock *w = multi(wc, ab, 2);
    struct it_op wo = {f.base};

    CHECK_RC(a, run_op(&f, a, 0), 0);
    CHECK_RC(b, run_op(&f, b, 0), 0);
    wait_holders_listen(&f, 1);
    CHECK_RC(w, redlock_acquire_async(w, 20000, it_op_cb, &wo), 0);
    wait_registries(&f, "mk-a", 3);
    CHECK_EQ(registries(&f, "mk-b"), 0);
    wait_notices(&f, f.c, 1);

    int64_t t0 = check_now_ms();
    CHECK_RC(a, run_op(&f, a, 1), 0);
    wait_registries(&f, "mk-b", 3);     /* moved: refused on mk-b now */
    wait_registries(&f, "mk-a", 0);
    check_note("registration moved %lld ms after mk-a's release (its poll: %d ms)",
               (long long)(check_now_ms() - t0), SLOW_POLL_MS);
    CHECK_LT(check_now_ms() - t0, SOON_MS);
    CHECK_EQ(wo.done, 0);
    CHECK_EQ(stats_of(wc).wakeups, 1);
    wait_notices(&f, f.c, 2);           /* mk-b's holder knows */

    t0 = check_now_ms();
    CHECK_RC(b, run_op(&f, b, 1), 0);
    it_op_wait(&wo, SOON_MS);
    check_note("the waiter holds both %lld ms after mk-b's release",
               (long long)(wo.at_ms - t0));
    CHECK_RC(w, wo.status, 0);
    CHECK_LT(wo.at_ms - t0, SOON_MS);
    CHECK_EQ(stats_of(wc).wakeups, 2);
    redlock_lock_free(w);
    it_fix_stop(&f);
}

/* A multi-resource holder's release wakes a waiter on one of its
 * resources (another multi-resource lock that shares mk-d). */
TEST(wake_kinds_multi_release_wakes_the_waiter)
{
    static const char *const cd[] = { "mk-c", "mk-d" }, *const de[] = { "mk-d", "mk-e" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *h = multi(f.c, cd, 2);
    redlock_client *wc = slow_waiter(&f);
    redlock_lock *w = multi(wc, de, 2);
    struct it_op wo = {f.base};

    CHECK_RC(h, run_op(&f, h, 0), 0);
    wait_holders_listen(&f, 1);
    CHECK_RC(w, redlock_acquire_async(w, 20000, it_op_cb, &wo), 0);
    wait_registries(&f, "mk-d", 3);
    wait_notices(&f, f.c, 1);
    int64_t t0 = check_now_ms();
    CHECK_RC(h, run_op(&f, h, 1), 0);
    it_op_wait(&wo, SOON_MS);
    check_note("the waiter in %lld ms after the release (its poll: %d ms)",
               (long long)(wo.at_ms - t0), SLOW_POLL_MS);
    CHECK_RC(w, wo.status, 0);
    CHECK_LT(wo.at_ms - t0, SOON_MS);
    CHECK_EQ(stats_of(wc).wakeups, 1);
    redlock_lock_free(h);
    redlock_lock_free(w);
    it_fix_stop(&f);
}

static redlock_lock *semaphore(redlock_client *c, const char *res, unsigned permits)
{
    redlock_lock *l = NULL;
    CHECK_EQ(redlock_lock_new_semaphore(&l, c, res, strlen(res), permits), 0);
    return l;
}

/* A semaphore of 2 permits, both held, two waiters (two clients): a
 * permit freed wakes exactly one, the one that waited longest, which
 * leaves the queue as it wins; the other permit freed wakes the other,
 * each long before its poll. */
TEST(wake_kinds_semaphore_a_freed_permit_wakes_exactly_one_waiter)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *h1 = semaphore(f.c, "ws-1", 2), *h2 = semaphore(f.c, "ws-1", 2);
    redlock_client *c1 = slow_waiter(&f), *c2 = slow_waiter(&f);
    redlock_lock *w1 = semaphore(c1, "ws-1", 2), *w2 = semaphore(c2, "ws-1", 2);
    struct it_op o1 = {f.base}, o2 = {f.base};

    CHECK_RC(h1, run_op(&f, h1, 0), 0);
    CHECK_RC(h2, run_op(&f, h2, 0), 0);
    wait_holders_listen(&f, 1);
    CHECK_RC(w1, redlock_acquire_async(w1, 20000, it_op_cb, &o1), 0);
    wait_registries(&f, "ws-1", 3);
    CHECK_RC(w2, redlock_acquire_async(w2, 20000, it_op_cb, &o2), 0);
    wait_registries(&f, "ws-1", 6);
    wait_notices(&f, f.c, 1);

    int64_t t0 = check_now_ms();
    CHECK_RC(h1, run_op(&f, h1, 1), 0);
    it_op_wait(&o1, SOON_MS);
    check_note("the first waiter in %lld ms after a permit's release (its poll: %d ms)",
               (long long)(o1.at_ms - t0), SLOW_POLL_MS);
    CHECK_RC(w1, o1.status, 0);
    CHECK_LT(o1.at_ms - t0, SOON_MS);
    CHECK_EQ(it_wait_nodes_ok(f.base, h1, 3, 3000), 3);     /* every master picked or not */
    CHECK_EQ(o2.done, 0);
    CHECK_EQ(stats_of(c1).wakeups, 1);
    CHECK_EQ(stats_of(c2).wakeups, 0);
    CHECK_EQ(stats_of(c2).announcements, 0);
    /* the winner left the queue (the other holder's release picks the
     * next waiter, whatever master it asks) */
    wait_registries(&f, "ws-1", 3);

    t0 = check_now_ms();
    CHECK_RC(h2, run_op(&f, h2, 1), 0);
    it_op_wait(&o2, SOON_MS);
    check_note("the second waiter in %lld ms after the other permit's release",
               (long long)(o2.at_ms - t0));
    CHECK_RC(w2, o2.status, 0);
    CHECK_LT(o2.at_ms - t0, SOON_MS);
    CHECK_EQ(stats_of(c2).wakeups, 1);
    redlock_lock_free(h1);
    redlock_lock_free(h2);
    redlock_lock_free(w1);
    redlock_lock_free(w2);
    it_fix_stop(&f);
}

/* ---- what a release costs with nobody waiting ------------------------------ */

#define NCMDS 64
struct cmdstats {
    char name[NCMDS][32];
    long long calls[NCMDS];
    int n;
};

/* Every command's calls summed over masters 0 .. 2 (INFO commandstats),
 * but INFO itself and the client's probes (TIME, PING). */
static void cmdstats(struct it_fix *f, struct cmdstats *cs)
{
    memset(cs, 0, sizeof *cs);
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f->s, i, "INFO commandstats");
        CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
        for (char *p = r->str; (p = strstr(p, "cmdstat_")) != NULL;) {
            char name[32];
            long long calls;
            int k;
            if (sscanf(p, "cmdstat_%31[^:]:calls=%lld", name, &calls) != 2)
                break;
            p += 8;
            if (!strcmp(name, "info") || !strcmp(name, "time") || !strcmp(name, "ping"))
                continue;
            for (k = 0; k < cs->n && strcmp(cs->name[k], name); k++)
                ;
            if (k == cs->n && cs->n < NCMDS)
                snprintf(cs->name[cs->n++], sizeof cs->name[0], "%s", name);
            if (k < NCMDS)
                cs->calls[k] += calls;
        }
        freeReplyObject(r);
    }
}

static long long calls_of(const struct cmdstats *cs, const char *name)
{
    for (int k = 0; k < cs->n; k++)
        if (!strcmp(cs->name[k], name))
            return cs->calls[k];
    return 0;
}

/* `cycles` try_acquire + release cycles of l with nobody waiting, after
 * one that warms the client up (its holder channel, its scripts): the
 * commands the masters ran per cycle must be exactly `want` (NULL-ended
 * "name", per-cycle count pairs over 3 masters), nothing else. */
static void check_plain_cycles(struct it_fix *f, redlock_lock *l, const char *kind,
                               const char *const *want, const int *per)
{
    struct cmdstats before, after;
    int cycles = 20, nwant = 0;

    /* warm-up cycles until the client's holder channel is on every master
     * (its second connections come up during its calls) */
    for (int64_t until = check_now_ms() + 5000;;) {
        int on = 0;
        CHECK_RC(l, redlock_try_acquire(l, 10000), 0);
        CHECK_RC(l, redlock_release(l), 0);
        for (int i = 0; i < 3; i++) {
            redisReply *r = rlt_servers_command(f->s, i, "PUBSUB CHANNELS {}:holder:*");
            CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY);
            on += r->elements >= 1;
            freeReplyObject(r);
        }
        if (on == 3 || check_now_ms() >= until)
            break;
    }
    cmdstats(f, &before);
    for (int i = 0; i < cycles; i++) {
        CHECK_RC(l, redlock_try_acquire(l, 10000), 0);
        CHECK_RC(l, redlock_release(l), 0);
    }
    /* (a blocking client reads its late replies in its next call) */
    CHECK_RC(l, redlock_try_acquire(l, 10000), 0);
    CHECK_RC(l, redlock_release(l), 0);
    cycles++;
    for (int64_t until = check_now_ms() + 3000;;) {
        int done = 1;
        cmdstats(f, &after);
        for (int k = 0; want[k]; k++)
            done &= calls_of(&after, want[k]) - calls_of(&before, want[k]) >= 3LL * per[k] * cycles;
        if (done || check_now_ms() >= until)
            break;
        it_sleep_ms(5);     /* (the masters' counters, not an event of ours) */
    }
    for (int k = 0; want[k]; k++, nwant++) {
        long long d = calls_of(&after, want[k]) - calls_of(&before, want[k]);
        check_note("%s: %s %.2f per cycle per master", kind, want[k], (double)d / cycles / 3);
        CHECK_EQ(d, 3LL * per[k] * cycles);
    }
    for (int k = 0; k < after.n; k++) {
        int listed = 0;
        for (int j = 0; want[j]; j++)
            listed |= !strcmp(want[j], after.name[k]);
        if (!listed && after.calls[k] != calls_of(&before, after.name[k]))
            check_fail(__FILE__, __LINE__, "%s: %s ran %lld times in %d plain cycles", kind,
                       after.name[k], after.calls[k] - calls_of(&before, after.name[k]), cycles);
    }
    (void)nwant;
}

/* Nobody waits: each kind's cycle sends what it sent before any waiter
 * was woken for it (the plain release, no registry: no ZADD, ZREM,
 * PUBLISH, EXISTS on a registry).  SET and the compare-and-delete script
 * (GET, DEL inside) for the mutex and a re-entrant lock held once; the
 * multi-resource lock's two scripts (EXISTS, 2 SET; MGET, DEL); the
 * semaphore's two scripts. */
TEST(wake_kinds_a_release_with_nobody_waiting_sends_the_plain_commands)
{
    static const char *const mut[] = { "set", "evalsha", "get", "del", NULL };
    static const int mut_per[] = { 1, 1, 1, 1 };
    static const char *const mul[] = { "evalsha", "exists", "set", "mget", "del", NULL };
    static const int mul_per[] = { 2, 1, 2, 1, 1 };
    static const char *const sem[] = { "evalsha", "type", "hget", "hexists", "hkeys", "hset",
                                       "set", "pttl", "pexpire", "del", "hdel", "hlen", NULL };
    static const int sem_per[] = { 2, 2, 1, 2, 1, 1, 1, 1, 1, 2, 1, 1 };
    static const char *const xy[] = { "mp-x", "mp-y" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *m = it_fix_lock(&f, f.c, "mp-m");
    redlock_lock *r = reentrant(&f, f.c, "mp-r", "carol");
    redlock_lock *x = multi(f.c, xy, 2), *s = semaphore(f.c, "mp-s", 2);

    check_plain_cycles(&f, m, "mutex", mut, mut_per);
    check_plain_cycles(&f, r, "reentrant", mut, mut_per);
    check_plain_cycles(&f, x, "multi", mul, mul_per);
    check_plain_cycles(&f, s, "semaphore", sem, sem_per);
    redlock_lock_free(r);
    redlock_lock_free(x);
    redlock_lock_free(s);
    it_fix_stop(&f);
}

static redlock_lock *rw(redlock_client *c, const char *res, int write)
{
    redlock_lock *l = NULL;
    if (write)
        CHECK_EQ(redlock_lock_new_write(&l, c, res, strlen(res)), 0);
    else
        CHECK_EQ(redlock_lock_new_read(&l, c, res, strlen(res)), 0);
    return l;
}

/* The read/write lock: a writer holds, two readers of two clients wait
 * (their first attempt refused: not yet recorded for a turn); the
 * writer's release tells both (role "r"), and both are in long before
 * their poll. */
TEST(wake_kinds_rw_writer_release_wakes_every_waiting_reader)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_client *rc1 = slow_waiter(&f), *rc2 = slow_waiter(&f);
    redlock_lock *w = rw(f.c, "wrw-1", 1), *r1 = rw(rc1, "wrw-1", 0), *r2 = rw(rc2, "wrw-1", 0);
    struct it_op o1 = {f.base}, o2 = {f.base};

    CHECK_RC(w, run_op(&f, w, 0), 0);
    wait_holders_listen(&f, 1);
    CHECK_RC(r1, redlock_acquire_async(r1, 20000, it_op_cb, &o1), 0);
    CHECK_RC(r2, redlock_acquire_async(r2, 20000, it_op_cb, &o2), 0);
    wait_registries(&f, "wrw-1", 6);
    wait_notices(&f, f.c, 1);           /* the writer knows that readers wait */
    CHECK_EQ(o1.done + o2.done, 0);

    int64_t t0 = check_now_ms();
    CHECK_RC(w, run_op(&f, w, 1), 0);
    it_op_wait(&o1, SOON_MS);
    it_op_wait(&o2, SOON_MS);
    check_note("the readers in %lld and %lld ms after the writer's release (their poll: %d ms)",
               (long long)(o1.at_ms - t0), (long long)(o2.at_ms - t0), SLOW_POLL_MS);
    CHECK_RC(r1, o1.status, 0);
    CHECK_RC(r2, o2.status, 0);
    CHECK_LT(o1.at_ms - t0, SOON_MS);
    CHECK_LT(o2.at_ms - t0, SOON_MS);
    CHECK_EQ(stats_of(rc1).wakeups, 1);
    CHECK_EQ(stats_of(rc2).wakeups, 1);
    CHECK_RC(r1, run_op(&f, r1, 1), 0);
    CHECK_RC(r2, run_op(&f, r2, 1), 0);
    redlock_lock_free(w);
    redlock_lock_free(r1);
    redlock_lock_free(r2);
    it_fix_stop(&f);
}

/* Two readers of two clients hold, a writer waits (its mark on the
 * masters): both readers hear of it (the notice finds every reader in
 * K); the first release (the other reader stays) tells nobody, the last
 * one tells the writer (role "w"), in long before its poll. */
TEST(wake_kinds_rw_last_reader_wakes_the_writer_an_earlier_one_does_not)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_client *c2 = it_fix_client(&f, NULL), *wc = slow_waiter(&f);
    redlock_lock *r1 = rw(f.c, "wrw-2", 0), *r2 = rw(c2, "wrw-2", 0), *w = rw(wc, "wrw-2", 1);
    struct it_op wo = {f.base};

    CHECK_RC(r1, run_op(&f, r1, 0), 0);
    CHECK_RC(r2, run_op(&f, r2, 0), 0);
    wait_holders_listen(&f, 2);
    CHECK_RC(w, redlock_acquire_async(w, 20000, it_op_cb, &wo), 0);
    wait_registries(&f, "wrw-2", 3);
    wait_notices(&f, f.c, 1);
    wait_notices(&f, c2, 1);

    CHECK_RC(r1, run_op(&f, r1, 1), 0);   /* r2 still reads */
    CHECK_EQ(it_wait_nodes_ok(f.base, r1, 3, 3000), 3);
    it_run(f.base, 100);
    CHECK_EQ(stats_of(wc).announcements, 0);
    CHECK_EQ(wo.done, 0);

    int64_t t0 = check_now_ms();
    CHECK_RC(r2, run_op(&f, r2, 1), 0);   /* the last reader */
    it_op_wait(&wo, SOON_MS);
    check_note("the writer in %lld ms after the last reader's release (its poll: %d ms)",
               (long long)(wo.at_ms - t0), SLOW_POLL_MS);
    CHECK_RC(w, wo.status, 0);
    CHECK_LT(wo.at_ms - t0, SOON_MS);
    CHECK_EQ(stats_of(wc).wakeups, 1);
    CHECK_EQ(stats_of(wc).attempts, 2);
    CHECK_RC(w, run_op(&f, w, 1), 0);
    redlock_lock_free(r1);
    redlock_lock_free(r2);
    redlock_lock_free(w);
    it_fix_stop(&f);
}

/* A client waits with a writer and a reader on the same resource (the
 * reader refused: the writer's mark waits); the last reader's release is
 * the writer's turn (role "w"): its message wakes the writer only, and
 * the reader keeps its poll (one wakeup, not two). */
TEST(wake_kinds_rw_writers_turn_wakes_no_reader_of_its_client)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_client *wc = slow_waiter(&f);
    redlock_lock *r1 = rw(f.c, "wrw-3", 0), *w = rw(wc, "wrw-3", 1), *r2 = rw(wc, "wrw-3", 0);
    struct it_op wo = {f.base}, ro = {f.base};

    CHECK_RC(r1, run_op(&f, r1, 0), 0);
    wait_holders_listen(&f, 1);
    CHECK_RC(w, redlock_acquire_async(w, 20000, it_op_cb, &wo), 0);
    wait_registries(&f, "wrw-3", 3);
    CHECK_RC(r2, redlock_acquire_async(r2, 20000, it_op_cb, &ro), 0);
    for (int64_t until = check_now_ms() + 5000;     /* r2's first attempt refused */
         stats_of(wc).attempts < 2 && check_now_ms() < until;)
        it_run(f.base, 5);
    CHECK_EQ(stats_of(wc).attempts, 2);
    wait_notices(&f, f.c, 1);
    it_run(f.base, 50);
    CHECK_EQ(wo.done + ro.done, 0);
    CHECK_EQ(stats_of(wc).wakeups, 0);

    int64_t t0 = check_now_ms();
    CHECK_RC(r1, run_op(&f, r1, 1), 0);       /* the last reader: the writer's turn */
    it_op_wait(&wo, SOON_MS);
    CHECK_RC(w, wo.status, 0);
    CHECK_LT(wo.at_ms - t0, SOON_MS);
    it_run(f.base, 200);
    check_note("the writer in %lld ms; its client's wakeups %llu, attempts %llu",
               (long long)(wo.at_ms - t0), (unsigned long long)stats_of(wc).wakeups,
               (unsigned long long)stats_of(wc).attempts);
    CHECK_EQ(stats_of(wc).wakeups, 1);        /* the writer's: the reader was not woken */
    CHECK_EQ(ro.done, 0);
    CHECK_RC(w, run_op(&f, w, 1), 0);
    redlock_lock_free(r1);
    redlock_lock_free(w);
    redlock_lock_free(r2);
    it_fix_stop(&f);
}
