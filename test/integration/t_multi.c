/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_multi.c -- the multi-resource lock against real redis-servers: all of
 * its keys or none on every master, extend and release of them all, one
 * lock whatever the order of its resources, no deadlock between clients
 * asking in opposite orders, the re-grow, the watchdog and the notice, the
 * acquire's forms (a mutex for one resource, the script; a key without
 * ttl), bad arguments, no fencing, and examples/multi.
 */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

/* A multi lock of client c on NUL-terminated resources. */
static redlock_lock *multi(redlock_client *c, const char *const *res, size_t n)
{
    size_t lens[8];
    redlock_lock *l = NULL;
    CHECK(n <= 8);
    for (size_t i = 0; i < n; i++)
        lens[i] = strlen(res[i]);
    CHECK_EQ(redlock_lock_new_multi(&l, c, (const void *const *)res, lens, n), 0);
    CHECK_EQ(redlock_lock_kind(l), REDLOCK_KIND_MULTI);
    return l;
}

/* On how many masters every one of the keys holds the lock's value. */
static int count_all(rlt_servers *s, const char *const *keys, size_t n, const redlock_lock *l)
{
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    int masters = 0;
    for (int i = 0; i < rlt_servers_count(s); i++) {
        size_t ok = 0;
        for (size_t k = 0; k < n; k++)
            ok += it_has_value(s, i, keys[k], strlen(keys[k]), v, vlen) == 1;
        masters += ok == n;
    }
    return masters;
}

/* How many (master, key) pairs hold the lock's value. */
static int count_any(rlt_servers *s, const char *const *keys, size_t n, const redlock_lock *l)
{
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    int pairs = 0;
    for (size_t k = 0; k < n; k++)
        pairs += it_count_value(s, keys[k], strlen(keys[k]), v, vlen);
    return pairs;
}

static int wait_count_any(rlt_servers *s, const char *const *keys, size_t n,
                          const redlock_lock *l, int want, int64_t timeout_ms)
{
    int64_t until = check_now_ms() + timeout_ms;
    int got;
    while ((got = count_any(s, keys, n, l)) != want && check_now_ms() < until)
        it_sleep_ms(5);
    return got;
}

/* Poll until every key holds the lock's value on `want` masters. */
static int wait_all(rlt_servers *s, const char *const *keys, size_t n, const redlock_lock *l,
                    int want, int64_t timeout_ms)
{
    int64_t until = check_now_ms() + timeout_ms;
    int got;
    while ((got = count_all(s, keys, n, l)) != want && check_now_ms() < until)
        it_sleep_ms(5);
    return got;
}

/* The smallest PTTL of the keys on every master (-2: one is missing). */
static long long min_pttl(rlt_servers *s, const char *const *keys, size_t n)
{
    long long m = INT64_MAX;
    for (int i = 0; i < rlt_servers_count(s); i++)
        for (size_t k = 0; k < n; k++) {
            long long t = it_pttl(s, i, keys[k], strlen(keys[k]));
            if (t < m)
                m = t;
        }
    return m;
}

/* While a plain lock holds mo-b, the multi lock takes none of its keys, on
 * any master, not even for a moment, and says which resource is held. */
static void check_refused_by_a_plain_lock(struct it_fix *f, redlock_lock *m,
                                          const char *const *res, redlock_lock *plain)
{
    CHECK_RC(plain, redlock_acquire(plain, 10000), 0);
    CHECK_EQ(it_wait_lock_count(f->s, "mo-b", 4, plain, 3, 2000), 3);
    long long sets[3];
    for (int i = 0; i < 3; i++)
        sets[i] = it_calls(f->s, i, "set");
    CHECK_RC(m, redlock_try_acquire(m, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(m), "resource 'mo-b' is held"));
    /* decided at the second refusal: the third may not have answered yet */
    CHECK_GE(it_refusals(m, 3, "resource 'mo-b' is held", 1), 2);
    CHECK_EQ(count_any(f->s, res, 3, m), 0);
    /* a refusing master wrote nothing (a script's commands count in
     * commandstats) */
    for (int i = 0; i < 3; i++)
        CHECK_EQ(it_calls(f->s, i, "set"), sets[i]);
    CHECK_EQ(rlt_servers_count_key(f->s, "mo-a", 4), 0);
    CHECK_EQ(rlt_servers_count_key(f->s, "mo-c", 4), 0);
    CHECK_EQ(it_count_lock(f->s, "mo-b", 4, plain), 3);
}

/* Master 0 lost the plain lock's key: it grants the multi lock all three,
 * the others refuse, and the lost attempt is undone there. */
static void check_lost_attempt_undone(struct it_fix *f, redlock_lock *m,
                                      const char *const *res, redlock_lock *plain)
{
    it_del(f->s, 0, "mo-b");
    long long took0 = it_calls(f->s, 0, "set"), dels[3];
    for (int i = 0; i < 3; i++)
        dels[i] = it_calls(f->s, i, "del");
    CHECK_RC(m, redlock_try_acquire(m, 10000), REDLOCK_ENOQUORUM);
    /* (decided at the second refusal: master 0's grant may come later)
     * it took all three there, and the undo (the release script) deleted
     * them; elsewhere the undo found nothing of ours to delete */
    CHECK_EQ(it_wait_calls(f->s, 0, "del", dels[0], 2000), dels[0] + 1);
    CHECK_EQ(it_calls(f->s, 0, "set"), took0 + 3);   /* the script's SETs */
    CHECK_EQ(wait_count_any(f->s, res, 3, m, 0, 2000), 0);
    CHECK_EQ(it_calls(f->s, 1, "del"), dels[1]);
    CHECK_EQ(it_calls(f->s, 2, "del"), dels[2]);
    CHECK_EQ(it_count_lock(f->s, "mo-b", 4, plain), 2);
    CHECK_RC(plain, redlock_release(plain), 0);     /* 2 of 3 still held it */
    CHECK_EQ(rlt_servers_count_key(f->s, "mo-b", 4), 0);
}

/* Free now: all three on every master, a plain lock on one is refused;
 * when master 0 lost mo-c to another, the release still deletes our keys
 * there (and only ours), but that master's vote is a refusal. */
static void check_release_spares_anothers_key(struct it_fix *f, redlock_lock *m,
                                              const char *const *res)
{
    CHECK_RC(m, redlock_try_acquire(m, 10000), 0);
    CHECK_EQ(wait_all(f->s, res, 3, m, 3, 2000), 3);
    redlock_lock *pc = it_fix_lock(f, f->c, "mo-c");
    CHECK_RC(pc, redlock_try_acquire(pc, 10000), REDLOCK_ENOQUORUM);
    it_set(f->s, 0, "mo-c", "someone-else");
    CHECK_RC(m, redlock_release(m), 0);
    redlock_node_result r;      /* (a release hears every master) */
    CHECK_EQ(redlock_lock_node_result(m, 0, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_REFUSED);
    CHECK_EQ(redlock_lock_node_result(m, 1, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_OK);
    CHECK_EQ(rlt_servers_count_key(f->s, "mo-a", 4), 0);
    CHECK_EQ(rlt_servers_count_key(f->s, "mo-b", 4), 0);
    CHECK_EQ(it_count_value(f->s, "mo-c", 4, "someone-else", 12), 1);
    CHECK_EQ(rlt_servers_count_key(f->s, "mo-c", 4), 1);
}

/* One resource of {a, b, c} is held by a plain lock: the multi lock takes
 * none of them, on any master, and says which resource is held; while the
 * multi lock holds its set, a plain lock on one of them is refused. */
TEST(multi_all_or_nothing)
{
    static const char *const res[] = { "mo-a", "mo-b", "mo-c" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *plain = it_fix_lock(&f, f.c, "mo-b");
    redlock_lock *m = multi(f.c, res, 3);
    check_refused_by_a_plain_lock(&f, m, res, plain);
    check_lost_attempt_undone(&f, m, res, plain);
    check_release_spares_anothers_key(&f, m, res);
    redlock_lock_free(m);
    it_fix_stop(&f);
}

/* Acquire sets every key on every master, extend renews every key's ttl,
 * release deletes them all. */
TEST(multi_acquire_extend_release_cover_every_key)
{
    static const char *const res[] = { "mc-1", "mc-2", "mc-3", "mc-4" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *m = multi(f.c, res, 4);

    CHECK_RC(m, redlock_acquire(m, 5000), 0);
    CHECK_GT(redlock_lock_validity(m), 4000);
    CHECK_EQ(wait_all(f.s, res, 4, m, 3, 2000), 3);  /* (decided at the quorum) */
    long long t = min_pttl(f.s, res, 4);
    CHECK_GT(t, 3000);
    CHECK_LE(t, 5000);

    CHECK_RC(m, redlock_extend(m, 60000), 0);
    CHECK_GT(redlock_lock_validity(m), 50000);
    int64_t until = check_now_ms() + 2000;      /* (decided at the quorum) */
    while ((t = min_pttl(f.s, res, 4)) <= 50000 && check_now_ms() < until)
        it_sleep_ms(5);
    CHECK_GT(t, 50000);
    CHECK_EQ(count_all(f.s, res, 4, m), 3);

    CHECK_RC(m, redlock_release(m), 0);
    CHECK_EQ(redlock_lock_validity(m), 0);
    for (size_t k = 0; k < 4; k++)
        CHECK_EQ(rlt_servers_count_key(f.s, res[k], strlen(res[k])), 0);
    redlock_lock_free(m);
    it_fix_stop(&f);
}

/* {b, a} is the same lock as {a, b}: refused while it is held, by another
 * client too, and free again after its release. */
TEST(multi_order_does_not_matter)
{
    static const char *const ab[] = { "mr-a", "mr-b" }, *const ba[] = { "mr-b", "mr-a" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_client *c2 = it_fix_client(&f, NULL);
    redlock_lock *x = multi(f.c, ab, 2), *y = multi(c2, ba, 2);

    CHECK_RC(x, redlock_acquire(x, 10000), 0);
    CHECK_EQ(wait_all(f.s, ab, 2, x, 3, 2000), 3);
    CHECK_RC(y, redlock_try_acquire(y, 10000), REDLOCK_ENOQUORUM);
    /* both held: the first in the canonical order is named */
    CHECK(it_has(redlock_lock_errstr(y), "resource 'mr-a' is held"));
    CHECK_EQ(count_all(f.s, ab, 2, x), 3);
    CHECK_RC(x, redlock_release(x), 0);
    CHECK_RC(y, redlock_try_acquire(y, 10000), 0);
    CHECK_EQ(wait_all(f.s, ab, 2, y, 3, 2000), 3);
    CHECK_RC(x, redlock_try_acquire(x, 10000), REDLOCK_ENOQUORUM);
    CHECK_RC(y, redlock_release(y), 0);
    redlock_lock_free(x);
    redlock_lock_free(y);
    it_fix_stop(&f);
}

/* ---- no deadlock ------------------------------------------------------- */

struct worker {
    struct event_base *base;
    redlock_lock *lock;
    struct worker *other;
    struct event *hold;     /* the hold's end */
    int holding;
    int busy;               /* an acquire, hold or release under way */
    int wins, fails, overlaps, errors;
    int stop;
};

static void w_start(struct worker *w);

static void w_released(redlock_lock *l, int status, void *pd)
{
    struct worker *w = pd;
    (void)l;
    w->errors += status != 0;
    w_start(w);
}

static void w_hold_end(evutil_socket_t fd, short what, void *arg)
{
    struct worker *w = arg;
    (void)fd;
    (void)what;
    w->holding = 0;
    if (redlock_release_async(w->lock, w_released, w) != 0)
        w->errors++;
}

static void w_acquired(redlock_lock *l, int status, void *pd)
{
    struct worker *w = pd;
    struct timeval hold = {0, 2000};
    (void)l;
    if (status != 0) {
        w->fails++;
        w_start(w);
        return;
    }
    w->wins++;
    /* the other holds it too? (its validity is 0 from its release's start) */
    if (w->other->holding || redlock_lock_validity(w->other->lock) > 0)
        w->overlaps++;
    w->holding = 1;
    event_add(w->hold, &hold);
}

static void w_start(struct worker *w)
{
    w->busy = !w->stop && redlock_acquire_async(w->lock, 10000, w_acquired, w) == 0;
    if (!w->stop && !w->busy)
        w->errors++;
}

/* Two clients loop acquire / hold 2 ms / release on {a, b} and {b, a}:
 * neither waits for the other for ever, both get the lock many times, and
 * never both at once. */
TEST(multi_opposite_orders_never_deadlock)
{
    static const char *const ab[] = { "md-a", "md-b" }, *const ba[] = { "md-b", "md-a" };
    struct it_fix f = {0};
    redlock_options o;
    it_opts_retry(&o, 1000, 3, 2);
    it_fix_start(&f, 3, &o, IT_ASYNC);
    redlock_client *c2 = it_async_client(f.base, f.s, &o);
    struct worker w[2];
    memset(w, 0, sizeof w);
    w[0].lock = multi(f.c, ab, 2);
    w[1].lock = multi(c2, ba, 2);
    for (int i = 0; i < 2; i++) {
        w[i].base = f.base;
        w[i].other = &w[1 - i];
        w[i].hold = evtimer_new(f.base, w_hold_end, &w[i]);
        CHECK(w[i].hold != NULL);
    }
    w_start(&w[0]);
    w_start(&w[1]);
    it_run(f.base, 1500);
    w[0].stop = w[1].stop = 1;
    /* the holds end, and their releases complete */
    int64_t until = check_now_ms() + 5000;
    while ((w[0].busy || w[1].busy) && check_now_ms() < until)
        it_run(f.base, 5);
    CHECK(!w[0].busy && !w[1].busy);
    check_note("wins %d and %d, failed acquires %d and %d", w[0].wins, w[1].wins, w[0].fails,
               w[1].fails);
    for (int i = 0; i < 2; i++) {
        CHECK_GE(w[i].wins, 20);
        CHECK_EQ(w[i].overlaps, 0);
        CHECK_EQ(w[i].errors, 0);
    }
    for (int i = 0; i < 2; i++) {
        redlock_lock_free(w[i].lock);
        event_free(w[i].hold);
    }
    redlock_client_free(c2);
    it_fix_stop(&f);
}

/* Master 1 restarted (it lost both keys), master 2 has another's value in
 * mg-a: the extend gives master 1 its keys back; master 2 refuses (once it
 * ran the extend: the scripts are loaded at connect), its key of ours
 * keeps its old ttl, the other's is untouched. */
static void check_regrow_and_refusal(struct it_fix *f, redlock_lock *m, const char *v,
                                     size_t vlen)
{
    long long scripts2 = it_calls(f->s, 2, "evalsha");
    CHECK_EQ(rlt_servers_restart(f->s, 1), 0);
    CHECK_EQ(redlock_client_wait_connected(f->c, 3, 5000), 0);
    it_set(f->s, 2, "mg-a", "someone-else");
    CHECK_RC(m, redlock_extend(m, 60000), 0);
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(m, 1, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_OK);
    CHECK_EQ(it_has_value(f->s, 1, "mg-b", 4, v, vlen), 1);
    CHECK_GT(it_pttl(f->s, 1, "mg-b", 4), 50000);
    CHECK_GT(it_pttl(f->s, 1, "mg-a", 4), 50000);
    CHECK_GT(it_wait_calls(f->s, 2, "evalsha", scripts2, 2000), scripts2);
    CHECK_LE(it_pttl(f->s, 2, "mg-b", 4), 5000);
    CHECK_EQ(it_has_value(f->s, 2, "mg-b", 4, v, vlen), 1);
    CHECK_EQ(it_pttl(f->s, 2, "mg-a", 4), -1);
}

/* Without a known hold (a handed-over value) a lost key stays lost. */
static void check_handed_over_value_does_not_regrow(struct it_fix *f,
                                                    const char *const *res,
                                                    const char *v, size_t vlen)
{
    redlock_lock *h = multi(f->c, res, 2);
    CHECK_EQ(redlock_lock_set_value(h, v, vlen), 0);
    it_del(f->s, 0, "mg-a");
    it_del(f->s, 1, "mg-a");
    CHECK_RC(h, redlock_extend(h, 60000), REDLOCK_ENOTOWNER);
    CHECK_EQ(rlt_servers_count_key(f->s, "mg-a", 4), 1);
    redlock_lock_free(h);
}

/* A key of another type where ours was is not re-grown over. */
static void check_no_regrow_over_a_hash(struct it_fix *f)
{
    static const char *const hres[] = { "mh-a", "mh-b" };
    redlock_lock *k = multi(f->c, hres, 2);
    CHECK_RC(k, redlock_acquire(k, 5000), 0);
    CHECK_EQ(wait_all(f->s, hres, 2, k, 3, 2000), 3);
    it_del(f->s, 0, "mh-a");
    it_cmd_on(f->s, 0, 1, REDIS_REPLY_INTEGER, "HSET mh-a f 1");
    long long scripts0 = it_calls(f->s, 0, "evalsha");
    CHECK_RC(k, redlock_extend(k, 60000), 0);       /* masters 1 and 2 */
    CHECK_GT(it_wait_calls(f->s, 0, "evalsha", scripts0, 2000), scripts0);
    redisReply *hr = rlt_servers_command(f->s, 0, "HGET mh-a f");
    CHECK(hr != NULL && hr->type == REDIS_REPLY_STRING && strcmp(hr->str, "1") == 0);
    freeReplyObject(hr);
    CHECK_LE(it_pttl(f->s, 0, "mh-b", 4), 5000);
    redlock_lock_free(k);
}

/* A master lost its keys in a restart: the extend gives them back.  A
 * master where one key is another's refuses and extends none of them. */
TEST(multi_extend_regrows_a_lost_key)
{
    static const char *const res[] = { "mg-a", "mg-b" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *m = multi(f.c, res, 2);
    size_t vlen;

    CHECK_RC(m, redlock_acquire(m, 5000), 0);
    const char *v = redlock_lock_value(m, &vlen);
    CHECK_EQ(wait_all(f.s, res, 2, m, 3, 2000), 3);
    check_regrow_and_refusal(&f, m, v, vlen);
    check_handed_over_value_does_not_regrow(&f, res, v, vlen);
    check_no_regrow_over_a_hash(&f);
    redlock_lock_free(m);
    it_fix_stop(&f);
}

/* ---- watchdog ---------------------------------------------------------------- */

/* The watchdog keeps a multi lock for 6 ttls; when a majority lost one of
 * its keys to another client, the refused extend brings the notice. */
TEST(multi_watchdog_keeps_it_and_notices_a_lost_key)
{
    static const char *const res[] = { "mw-a", "mw-b", "mw-c" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *m = multi(f.c, res, 3);
    struct it_op acq = {f.base};
    struct it_lost n = {f.base, 0, 0};

    CHECK_EQ(redlock_lock_set_watchdog(m, 0, 0), 0);
    CHECK_EQ(redlock_lock_on_lost(m, it_lost_cb, &n), 0);
    CHECK_RC(m, redlock_acquire_async(m, 300, it_op_cb, &acq), 0);
    it_op_wait(&acq, 2000);
    CHECK_RC(m, acq.status, 0);
    int64_t end = check_now_ms() + 1800, least = INT64_MAX;
    while (check_now_ms() < end && !n.n) {
        it_dispatch(f.base, 10);
        int64_t v = redlock_lock_validity(m);
        if (v < least)
            least = v;
    }
    CHECK_EQ(n.n, 0);
    CHECK_GT(least, 0);
    CHECK_GE(count_all(f.s, res, 3, m), 2);
    CHECK_GE(it_calls(f.s, 0, "evalsha"), 5);     /* the watchdog's extends */

    it_set(f.s, 0, "mw-c", "someone-else");
    it_set(f.s, 1, "mw-c", "someone-else");
    it_run_until(f.base, &n.n, 1000);
    CHECK_EQ(n.n, 1);
    CHECK_EQ(n.reason, REDLOCK_LOST_REFUSED);
    CHECK_EQ(redlock_lock_validity(m), 0);
    redlock_lock_free(m);
    it_fix_stop(&f);
}

/* ---- the acquire's forms ---------------------------------------------------- */

/* Each master's count of calls of the commands a lock's cycle may send. */
static const char *const cmds[] = { "set", "evalsha", "eval" };
#define NCMDS (sizeof cmds / sizeof *cmds)

static void calls_now(rlt_servers *s, long long c[][NCMDS])
{
    for (int i = 0; i < rlt_servers_count(s); i++)
        for (size_t k = 0; k < NCMDS; k++)
            c[i][k] = it_calls(s, i, cmds[k]);
}

/* What one acquire + release cycle of `l` sent each master, in calls of
 * cmds[]. */
static void cycle_calls(struct it_fix *f, redlock_lock *l, const char *key, long long d[][NCMDS])
{
    long long before[3][NCMDS], after[3][NCMDS];
    calls_now(f->s, before);
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    /* (decided at the quorum: the third may answer later) */
    CHECK_EQ(it_wait_lock_count(f->s, key, strlen(key), l, 3, 2000), 3);
    CHECK_RC(l, redlock_release(l), 0);     /* (it hears every master) */
    calls_now(f->s, after);
    for (int i = 0; i < 3; i++)
        for (size_t k = 0; k < NCMDS; k++)
            d[i][k] = after[i][k] - before[i][k];
}

/* A multi lock of one resource is a mutex on its key: a cycle sends each
 * master what the mutex's sends (one SET, one script: the release), they
 * exclude each other, extend works, and a refusal names the resource. */
TEST(multi_one_resource_is_a_mutex)
{
    static const char *const one[] = { "m1-a" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *m = multi(f.c, one, 1), *plain = it_fix_lock(&f, f.c, "m1-a");
    long long dm[3][NCMDS], dp[3][NCMDS];

    cycle_calls(&f, m, "m1-a", dm);
    cycle_calls(&f, plain, "m1-a", dp);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(dm[i][0], 1);      /* SET NX PX */
        CHECK_EQ(dm[i][1], 1);      /* the release script */
        for (size_t k = 0; k < NCMDS; k++)
            CHECK_EQ(dm[i][k], dp[i][k]);
    }

    CHECK_RC(plain, redlock_acquire(plain, 10000), 0);
    CHECK_RC(m, redlock_try_acquire(m, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(m), "resource 'm1-a' is held"));
    CHECK_RC(plain, redlock_release(plain), 0);
    CHECK_RC(m, redlock_acquire(m, 5000), 0);
    CHECK_RC(plain, redlock_try_acquire(plain, 10000), REDLOCK_ENOQUORUM);
    CHECK_RC(m, redlock_extend(m, 60000), 0);
    int64_t until = check_now_ms() + 2000;
    while (min_pttl(f.s, one, 1) <= 50000 && check_now_ms() < until)
        it_sleep_ms(5);
    CHECK_GT(min_pttl(f.s, one, 1), 50000);
    CHECK_RC(m, redlock_release(m), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "m1-a", 4), 0);
    redlock_lock_free(m);
    it_fix_stop(&f);
}

/* Two resources: one script per cycle on the acquire (no SET of its own:
 * the script's SETs count in commandstats), the release's; with one of
 * three held elsewhere on master 0 (a 100 s ttl), the lock wins on masters
 * 1 and 2, master 0 gets no key of ours and the other holder's key keeps
 * its value and its ttl. */
TEST(multi_script_takes_all_or_nothing)
{
    static const char *const two[] = { "mt-a", "mt-b" }, *const res[] = { "mt-a", "mt-b", "mt-c" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *m = multi(f.c, two, 2);
    long long d[3][NCMDS];

    cycle_calls(&f, m, "mt-a", d);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(d[i][0], 2);       /* the acquire script's two SETs */
        CHECK_EQ(d[i][1], 2);       /* two scripts: acquire and release */
        CHECK_EQ(d[i][2], 0);
    }

    redlock_lock *m3 = multi(f.c, res, 3);
    redisReply *r = rlt_servers_command(f.s, 0, "SET mt-b other PX 100000");
    CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    long long scripts0 = it_calls(f.s, 0, "evalsha") + it_calls(f.s, 0, "eval");
    CHECK_RC(m3, redlock_acquire(m3, 5000), 0);     /* masters 1 and 2 */
    CHECK_EQ(wait_all(f.s, res, 3, m3, 2, 2000), 2);
    int64_t until = check_now_ms() + 2000;      /* master 0 may answer later */
    while (it_calls(f.s, 0, "evalsha") + it_calls(f.s, 0, "eval") == scripts0 &&
           check_now_ms() < until)
        it_sleep_ms(1);
    CHECK_EQ(it_calls(f.s, 0, "evalsha") + it_calls(f.s, 0, "eval"), scripts0 + 1);
    CHECK_EQ(rlt_servers_exists(f.s, 0, "mt-a", 4), 0);
    CHECK_EQ(rlt_servers_exists(f.s, 0, "mt-c", 4), 0);
    CHECK_EQ(it_has_value(f.s, 0, "mt-b", 4, "other", 5), 1);
    CHECK_GT(it_pttl(f.s, 0, "mt-b", 4), 90000);
    CHECK_LE(it_pttl(f.s, 1, "mt-b", 4), 5000);
    CHECK_RC(m3, redlock_release(m3), 0);
    CHECK_EQ(it_has_value(f.s, 0, "mt-b", 4, "other", 5), 1);
    redlock_lock_free(m3);
    redlock_lock_free(m);
    it_fix_stop(&f);
}

static void cmd_ok(rlt_servers *s, int i, const char *cmd)
{
    redisReply *r = rlt_servers_command(s, i, cmd);
    CHECK_MSG(r != NULL && r->type != REDIS_REPLY_ERROR, "%s on server %d", cmd, i);
    freeReplyObject(r);
}

static long long calls_all(rlt_servers *s, const char *cmd)
{
    long long n = 0;
    for (int i = 0; i < rlt_servers_count(s); i++)
        n += it_calls(s, i, cmd);
    return n;
}

/* A key without ttl at a resource's key (a string or any other type) is not
 * a lock: the multi lock refuses it, names it and touches nothing (the
 * script looks before it writes): the key keeps no ttl and its data; a
 * lock of one resource (a mutex) says it is held. */
TEST(multi_key_without_ttl_is_not_a_lock)
{
    static const char *const ab[] = { "mn-a", "mn-b" }, *const as[] = { "mn-a", "mn-s" };
    static const char *const one[] = { "mn-b" };
    struct it_fix f = {0};
    /* (a refused attempt enters the registry of waiters, whose script
     * renews the registry by PEXPIRE: off here, where the count is the
     * lock keys') */
    redlock_options o;
    it_opts(&o);
    o.wake = 0;
    it_fix_start(&f, 3, &o, 0);
    for (int i = 0; i < 3; i++) {
        cmd_ok(f.s, i, "SET mn-b data");
        cmd_ok(f.s, i, "SADD mn-s x");
    }
    redlock_lock *x = multi(f.c, ab, 2), *y = multi(f.c, as, 2), *z = multi(f.c, one, 1);

    long long sets = calls_all(f.s, "set"), expires = calls_all(f.s, "pexpire");
    CHECK_RC(x, redlock_try_acquire(x, 5000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(x), "resource 'mn-b' is not a lock (a key without ttl)"));
    CHECK_RC(y, redlock_try_acquire(y, 5000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(y), "resource 'mn-s' is not a lock (a key without ttl)"));
    /* a blocking client reads the masters' late answers during its next
     * call: one that hears every master */
    redlock_lock *other = it_fix_lock(&f, f.c, "mn-other");
    CHECK_RC(other, redlock_acquire(other, 5000), 0);
    CHECK_RC(other, redlock_release(other), 0);
    CHECK_EQ(calls_all(f.s, "set"), sets + 3);      /* only the other lock's */
    CHECK_EQ(calls_all(f.s, "pexpire"), expires);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(it_pttl(f.s, i, "mn-b", 4), -1);
        CHECK_EQ(it_pttl(f.s, i, "mn-s", 4), -1);
        CHECK_EQ(it_has_value(f.s, i, "mn-b", 4, "data", 4), 1);
    }
    CHECK_EQ(rlt_servers_count_key(f.s, "mn-a", 4), 0);

    CHECK_RC(z, redlock_try_acquire(z, 5000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(z), "resource 'mn-b' is held"));
    redlock_lock_free(x);
    redlock_lock_free(y);
    redlock_lock_free(z);
    it_fix_stop(&f);
}

/* ---- arguments ----------------------------------------------------------------- */

static void check_einval(redlock_client *c, const void *const *res, const size_t *lens, size_t n,
                         const char *says)
{
    redlock_lock *l = (redlock_lock *)1;
    CHECK_EQ(redlock_lock_new_multi(&l, c, res, lens, n), REDLOCK_EINVAL);
    CHECK(l == NULL);
    CHECK_MSG(it_has(redlock_client_errstr(c), says), "\"%s\" lacks \"%s\"",
              redlock_client_errstr(c), says);
}

TEST(multi_bad_arguments_and_1024_resources)
{
    struct it_fix f = {0};
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "p:";
    it_fix_start(&f, 3, &o, 0);
    static char names[1025][8];
    const void *res[1025];
    size_t lens[1025];
    for (int i = 0; i < 1025; i++) {
        lens[i] = (size_t)snprintf(names[i], sizeof names[i], "k%d", i);
        res[i] = names[i];
    }
    redlock_lock *l;
    CHECK_EQ(redlock_lock_new_multi(NULL, f.c, res, lens, 2), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_multi(&l, NULL, res, lens, 2), REDLOCK_EINVAL);
    check_einval(f.c, res, lens, 0, "n is 0: it must be in 1 .. 1024");
    check_einval(f.c, res, lens, 1025, "n is 1025");
    check_einval(f.c, NULL, lens, 2, "resources is NULL");
    check_einval(f.c, res, NULL, 2, "lens is NULL");
    const void *with_null[2] = { "a", NULL };
    size_t ones[3] = { 1, 1, 1 }, zero[2] = { 1, 0 };
    check_einval(f.c, with_null, ones, 2, "resource 1: NULL");
    check_einval(f.c, res, zero, 2, "resource 1: empty");
    /* the same bytes in other buffers, and the same buffer twice */
    char x1[] = "x\001", x2[] = "x\001";
    const void *dup[3] = { x1, "y", x2 }, *same[2] = { "y", "y" };
    size_t dlens[3] = { 2, 1, 2 };
    check_einval(f.c, dup, dlens, 3, "resources 0 and 2 are the same ('x\\x01')");
    check_einval(f.c, same, ones, 2, "resources 0 and 1 are the same ('y')");

    /* 1024 work: every key (with the prefix) on every master, then none */
    CHECK_EQ(redlock_lock_new_multi(&l, f.c, res, lens, 1024), 0);
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "DBSIZE");
        CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER);
        CHECK_EQ(r->integer, 1024);
        freeReplyObject(r);
    }
    CHECK_EQ(it_count_lock(f.s, "p:k1023", 7, l), 3);
    CHECK_RC(l, redlock_extend(l, 10000), 0);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "p:k0", 4), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "p:k1023", 7), 0);
    redlock_lock_free(l);
    it_fix_stop(&f);
}

TEST(multi_has_no_fencing)
{
    static const char *const res[] = { "mf-a", "mf-b" };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *m = multi(f.c, res, 2);
    CHECK_EQ(redlock_lock_set_fencing(m, 1), REDLOCK_EINVAL);
    CHECK(it_has(redlock_lock_errstr(m), "no fencing"));
    CHECK_EQ(redlock_lock_set_fencing(m, 0), 0);
    CHECK_RC(m, redlock_acquire(m, 10000), 0);
    CHECK_EQ(redlock_lock_token(m), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "{mf-a}:fence", 12), 0);
    CHECK_RC(m, redlock_release(m), 0);
    redlock_lock_free(m);
    it_fix_stop(&f);
}

/* examples/multi.c: two transfers in opposite directions, each under one
 * multi lock on both accounts. */
TEST(multi_example_transfers)
{
    static const char *const says[] = {
        "resource 'account:alice' is held", "alice 80, bob 120", NULL };
    rlt_servers *s = it_start(3, NULL);
    it_example_says("examples/multi", s, says);
    rlt_servers_free(s);
}

/* Found by review: a write's script that one master answers NOSCRIPT after
 * the attempt was decided (lost, its undo already queued behind it there)
 * is not sent again as EVAL: that EVAL would arrive after the undo and take
 * the keys again for an attempt that lost, with nothing left to undo it. */
TEST(multi_noscript_after_the_decision_is_not_resent)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    const void *res[2] = { "ns-a", "ns-b" };
    size_t lens[2] = { 4, 4 };
    redlock_lock *l;
    CHECK_EQ(redlock_lock_new_multi(&l, f.c, res, lens, 2), 0);
    for (int i = 1; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "SET ns-b other PX 60000");
        CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
        freeReplyObject(r);
    }
    redisReply *r = rlt_servers_command(f.s, 0, "SCRIPT FLUSH");
    CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    long long evals = it_calls(f.s, 0, "eval");
    CHECK_EQ(rlt_servers_pause(f.s, 0), 0);
    struct it_op op = {f.base};
    CHECK_RC(l, redlock_try_acquire_async(l, 30000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, REDLOCK_ENOQUORUM);      /* masters 1 and 2 refused */
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    char val[64];
    CHECK_LT(vlen, sizeof val);
    memcpy(val, v, vlen);
    CHECK_EQ(rlt_servers_resume(f.s, 0), 0);
    /* master 0 answers NOSCRIPT, then runs the undo (an EVAL: nothing of
     * ours there yet); wait for that undo */
    int64_t until = check_now_ms() + 3000;
    while (it_calls(f.s, 0, "eval") < evals + 1 && check_now_ms() < until)
        it_run(f.base, 10);
    CHECK_EQ(it_calls(f.s, 0, "eval"), evals + 1);
    /* a resend would follow the NOSCRIPT on master 0's connection, before
     * anything this client sends there later: wait for master 0's answer
     * to a later release (it may come after the release's decision) */
    redlock_lock *probe;
    CHECK_EQ(redlock_lock_new(&probe, f.c, "ns-probe", 8), 0);
    op = (struct it_op){f.base};
    CHECK_RC(probe, redlock_acquire_async(probe, 5000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(probe, op.status, 0);
    op = (struct it_op){f.base};
    CHECK_RC(probe, redlock_release_async(probe, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(probe, op.status, 0);
    CHECK_EQ(it_wait_vote(f.base, probe, 0, REDLOCK_VOTE_OK, 5000), REDLOCK_VOTE_OK);
    redlock_lock_free(probe);
    /* the undo's EVAL and the probe's release (its script was flushed
     * there too: NOSCRIPT, then EVAL), and no resend */
    CHECK_EQ(it_calls(f.s, 0, "eval"), evals + 2);
    CHECK_EQ(it_has_value(f.s, 0, "ns-a", 4, val, vlen), 0);
    CHECK_EQ(rlt_servers_exists(f.s, 0, "ns-a", 4), 0);
    redlock_lock_free(l);
    it_fix_stop(&f);
}
