/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_threads.c -- integration: separate clients in separate threads, all
 * contending for one resource: never two holders at once. */
#include "itest.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>

#define NTHREADS 4
#define ROUNDS 15

struct worker {
    rlt_servers *s;
    int id;
    int acquired;
    int bad_rc;        /* a failed acquire / release, or an overlap */
    int last_rc;
    char err[160];
};

static atomic_int holders;
static atomic_int max_holders;

/* A blocking client on the three masters for a worker thread, connected to
 * all of them, retrying `retries` times delay +- jitter ms apart; NULL with
 * why in msg (a thread cannot fail the test itself), *rc the code. */
static redlock_client *thread_client(const char *const *addrs, int retries, int delay,
                                     int jitter, int *rc, char *msg, size_t size)
{
    redlock_options o;
    it_opts_retry(&o, retries, delay, jitter);
    redlock_client *c = NULL;
    char err[256] = "";
    *rc = redlock_client_new(&c, NULL, addrs, 3, &o, err, sizeof err);
    if (*rc != 0) {
        snprintf(msg, size, "client_new: %s", err);
        return NULL;
    }
    if (redlock_client_wait_connected(c, 3, 5000) != 0) {
        *rc = REDLOCK_ETIMEDOUT;
        snprintf(msg, size, "never connected");
        redlock_client_free(c);
        return NULL;
    }
    return c;
}

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    redlock_client *c = thread_client(rlt_servers_addrs(w->s), 1000, 3, 2, &w->last_rc, w->err,
                                      sizeof w->err);
    if (c == NULL) {
        w->bad_rc++;
        return NULL;
    }
    redlock_lock *shared = NULL, *own = NULL;
    char mine[32];
    snprintf(mine, sizeof mine, "thread:%d", w->id);
    if (redlock_lock_new(&shared, c, "threads:shared", 14) != 0 ||
        redlock_lock_new(&own, c, mine, strlen(mine)) != 0) {
        w->bad_rc++;
        goto out;
    }
    for (int r = 0; r < ROUNDS; r++) {
        int rc = redlock_acquire(shared, 10000);
        if (rc != 0) {
            w->last_rc = rc;
            snprintf(w->err, sizeof w->err, "acquire: %s", redlock_lock_errstr(shared));
            w->bad_rc++;
            continue;
        }
        int now = atomic_fetch_add(&holders, 1) + 1;
        int prev = atomic_load(&max_holders);
        while (now > prev && !atomic_compare_exchange_weak(&max_holders, &prev, now))
            ;
        w->acquired++;
        /* inside: use another lock of our own meanwhile */
        if (redlock_try_acquire(own, 5000) != 0 || redlock_release(own) != 0)
            w->bad_rc++;
        sched_yield();
        atomic_fetch_sub(&holders, 1);
        rc = redlock_release(shared);
        if (rc != 0) {
            w->last_rc = rc;
            snprintf(w->err, sizeof w->err, "release: %s", redlock_lock_errstr(shared));
            w->bad_rc++;
        }
    }
out:
    redlock_lock_free(shared);
    redlock_lock_free(own);
    redlock_client_free(c);
    return NULL;
}

TEST(threads_one_client_per_thread_mutual_exclusion)
{
    /* servers are started from this (the main) thread, which outlives the workers */
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    pthread_t th[NTHREADS];
    struct worker w[NTHREADS];
    memset(w, 0, sizeof w);
    atomic_store(&holders, 0);
    atomic_store(&max_holders, 0);
    for (int i = 0; i < NTHREADS; i++) {
        w[i].s = f.s;
        w[i].id = i;
        CHECK_EQ(pthread_create(&th[i], NULL, worker_main, &w[i]), 0);
    }
    for (int i = 0; i < NTHREADS; i++)
        CHECK_EQ(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < NTHREADS; i++) {
        CHECK_MSG(w[i].bad_rc == 0, "thread %d: %d failures, last rc %d: %s", i, w[i].bad_rc,
                  w[i].last_rc, w[i].err);
        CHECK_EQ(w[i].acquired, ROUNDS);
    }
    CHECK_EQ(atomic_load(&max_holders), 1);
    CHECK_EQ(rlt_servers_count_key(f.s, "threads:shared", 14), 0);
    it_fix_stop(&f);
}

/* ---- validity intervals: several resources, holds that expire -------------
 *
 * Each thread has its own blocking client (its own event loop) and contends
 * for IV_NRES resources on the three shared masters.  Every hold is recorded
 * as an interval [acquired_at, end] on CLOCK_BOOTTIME (the library's clock):
 * acquired_at is read right after the acquire returns, end is acquired_at +
 * the validity reported just after that, or the moment the release started
 * if that came first; one hold in twelve is never released and runs out on
 * the masters instead.  After the join, no two holds of one resource may
 * overlap (checked pairwise).  `make tsan` runs this under ThreadSanitizer.
 */

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <event2/event.h>

#define IV_NRES 2
#define IV_MAX_HOLDS 20000

struct iv_hold {
    int res;
    int thread;
    int64_t start_us, end_us;
    int released;
};

struct iv_shared {
    const char *const *addrs;
    int64_t run_until_ms;        /* check_now_ms() time to stop at */
    int64_t hard_until_ms;       /* stop even without an acquisition */
    atomic_int started;
};

struct iv_worker {
    struct iv_shared *sh;
    int id;
    int nholds;
    int attempts, failures, lost_releases;
    int bad_rc;                  /* an unexpected return code, or 0 */
    char bad_msg[300];
    struct iv_hold holds[IV_MAX_HOLDS];
};

static int64_t iv_boottime_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void iv_work_ms(long ms)
{
    /* the protected "work": a short real pause while holding the lock */
    struct timespec ts = {0, ms * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

static const char *iv_res_name(int r)
{
    static const char *const names[IV_NRES] = {"threads-iv-0", "threads-iv-1"};
    return names[r];
}

/* Thread w's client and its locks on the IV_NRES resources; 0, or an error
 * recorded in w. */
static redlock_client *iv_setup(struct iv_worker *w, redlock_lock **locks)
{
    redlock_client *c = thread_client(w->sh->addrs, 100, 6, 5, &w->bad_rc, w->bad_msg,
                                      sizeof w->bad_msg);
    if (c == NULL)
        return NULL;
    for (int r = 0; r < IV_NRES; r++) {
        locks[r] = NULL;
        int rc = redlock_lock_new(&locks[r], c, iv_res_name(r), strlen(iv_res_name(r)));
        if (rc != 0) {
            w->bad_rc = rc;
            snprintf(w->bad_msg, sizeof w->bad_msg, "lock_new: %d", rc);
            for (int k = 0; k < r; k++)
                redlock_lock_free(locks[k]);
            redlock_client_free(c);
            return NULL;
        }
    }
    return c;
}

/* A failed acquire of l: 0 when it is one that contention explains (its
 * timeouts, and EBUSY on a handle left to expire that still has validity),
 * after waiting out what it still holds; -1 with the error recorded. */
static int iv_failed_acquire(struct iv_worker *w, redlock_lock *l, int rc, int left_to_expire)
{
    w->failures++;
    if (rc != REDLOCK_ENOQUORUM && rc != REDLOCK_ETIMEDOUT &&
        !(rc == REDLOCK_EBUSY && left_to_expire)) {
        w->bad_rc = rc;
        snprintf(w->bad_msg, sizeof w->bad_msg, "acquire: %d %s", rc, redlock_lock_errstr(l));
        return -1;
    }
    if (rc == REDLOCK_EBUSY)
        iv_work_ms((int)redlock_lock_validity(l) + 1);
    return 0;
}

/* Record a hold of resource r that l just acquired: first the time, then
 * what is left of the validity. */
static struct iv_hold *iv_record(struct iv_worker *w, int r, const redlock_lock *l)
{
    struct iv_hold *h = &w->holds[w->nholds++];
    h->res = r;
    h->thread = w->id;
    h->start_us = iv_boottime_us();
    h->end_us = h->start_us + redlock_lock_validity(l) * 1000;
    h->released = 0;
    return h;
}

/* Release hold h of l, ending it when the release starts; 0, or -1 with
 * the error recorded. */
static int iv_release(struct iv_worker *w, struct iv_hold *h, redlock_lock *l)
{
    int64_t rel = iv_boottime_us();
    if (rel < h->end_us)
        h->end_us = rel;
    h->released = 1;
    int rc = redlock_release(l);
    if (rc == REDLOCK_ENOTOWNER || rc == REDLOCK_ETIMEDOUT) {
        /* expired before the release, or masters too slow to confirm
         * it under load: allowed (the validity was what counted) */
        w->lost_releases++;
    } else if (rc != 0) {
        w->bad_rc = rc;
        snprintf(w->bad_msg, sizeof w->bad_msg, "release: %d %s", rc, redlock_lock_errstr(l));
        return -1;
    }
    return 0;
}

static int iv_time_is_up(const struct iv_worker *w)
{
    int64_t now = check_now_ms();
    return now >= w->sh->hard_until_ms || (now >= w->sh->run_until_ms && w->nholds > 0);
}

static void *iv_contend(void *arg)
{
    struct iv_worker *w = arg;
    redlock_lock *locks[IV_NRES];
    redlock_client *c = iv_setup(w, locks);
    if (c == NULL)
        return NULL;
    atomic_fetch_add(&w->sh->started, 1);
    unsigned seed = (unsigned)(w->id * 7919 + 17);
    int left_to_expire[IV_NRES] = { 0 };
    while (w->nholds < IV_MAX_HOLDS && !iv_time_is_up(w)) {
        int r = (int)(rand_r(&seed) % IV_NRES);
        redlock_lock *l = locks[r];
        w->attempts++;
        int rc = redlock_acquire(l, 200);
        if (rc != 0) {
            if (iv_failed_acquire(w, l, rc, left_to_expire[r]) != 0)
                break;
            continue;
        }
        left_to_expire[r] = 0;
        struct iv_hold *h = iv_record(w, r, l);
        iv_work_ms(rand_r(&seed) % 3);
        if (rand_r(&seed) % 12 == 0) {
            left_to_expire[r] = 1;
            continue;           /* let this one expire on the masters */
        }
        if (iv_release(w, h, l) != 0)
            break;
    }
    for (int r = 0; r < IV_NRES; r++)
        redlock_lock_free(locks[r]);
    redlock_client_free(c);
    return NULL;
}

/* Every thread ran without an unexpected error, acquired at least once,
 * and each of its holds had validity; the totals go to the log. */
static void iv_check_workers(const struct iv_worker *w)
{
    int total = 0, attempts = 0, failures = 0, expired = 0, lost = 0;
    int per_res[IV_NRES] = {0};
    for (int t = 0; t < NTHREADS; t++) {
        CHECK_MSG(w[t].bad_rc == 0, "thread %d: %s", t, w[t].bad_msg);
        CHECK_MSG(w[t].nholds > 0, "thread %d never acquired (%d attempts)", t, w[t].attempts);
        total += w[t].nholds;
        attempts += w[t].attempts;
        failures += w[t].failures;
        lost += w[t].lost_releases;
        for (int i = 0; i < w[t].nholds; i++) {
            per_res[w[t].holds[i].res]++;
            expired += !w[t].holds[i].released;
            CHECK_MSG(w[t].holds[i].end_us > w[t].holds[i].start_us,
                      "thread %d hold %d has no validity", t, i);
        }
    }
    check_note("%d threads: %d acquisitions (%d + %d per resource), %d attempts, %d failed, "
               "%d left to expire, %d releases found them expired",
               NTHREADS, total, per_res[0], per_res[1], attempts, failures, expired, lost);
    CHECK_GE(total, NTHREADS);
}

/* Hold a never overlaps the holds of one resource after it (thread t's
 * hold i, later ones of t and all of the threads after t). */
static void iv_check_hold(const struct iv_worker *w, int t, int i)
{
    const struct iv_hold *a = &w[t].holds[i];
    for (int u = t; u < NTHREADS; u++) {
        for (int j = u == t ? i + 1 : 0; j < w[u].nholds; j++) {
            const struct iv_hold *b = &w[u].holds[j];
            if (a->res != b->res)
                continue;
            CHECK_MSG(a->end_us <= b->start_us || b->end_us <= a->start_us,
                      "%s held twice: thread %d [%lld, %lld] and thread %d "
                      "[%lld, %lld] (us)",
                      iv_res_name(a->res), a->thread, (long long)a->start_us,
                      (long long)a->end_us, b->thread, (long long)b->start_us,
                      (long long)b->end_us);
        }
    }
}

TEST(threads_validity_intervals_never_overlap)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    struct iv_shared sh;
    sh.addrs = rlt_servers_addrs(f.s);
    sh.run_until_ms = check_now_ms() + 2000;
    sh.hard_until_ms = check_now_ms() + 15000;
    atomic_init(&sh.started, 0);
    struct iv_worker *w = calloc(NTHREADS, sizeof *w);
    CHECK(w != NULL);
    pthread_t tid[NTHREADS];
    for (int t = 0; t < NTHREADS; t++) {
        w[t].sh = &sh;
        w[t].id = t;
        CHECK_EQ(pthread_create(&tid[t], NULL, iv_contend, &w[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++)
        CHECK_EQ(pthread_join(tid[t], NULL), 0);
    CHECK_EQ(atomic_load(&sh.started), NTHREADS);
    iv_check_workers(w);
    /* pairwise: two holds of one resource never overlap */
    for (int t = 0; t < NTHREADS; t++)
        for (int i = 0; i < w[t].nholds; i++)
            iv_check_hold(w, t, i);
    /* what was left to expire is gone from every master within the ttl */
    for (int r = 0; r < IV_NRES; r++)
        CHECK_EQ(it_wait_count(f.s, iv_res_name(r), strlen(iv_res_name(r)), 0, 2000), 0);
    free(w);
    it_fix_stop(&f);
}

/* ---- one event base per thread, asynchronous API, chained callbacks ------ */

#define AB_ROUNDS 50

struct ab_worker {
    const char *const *addrs;
    struct event_base *base;
    redlock_lock *lock;
    int rounds, acquired, released;
    int bad;
    char msg[300];
};

static void ab_released(redlock_lock *l, int status, void *privdata);

static void ab_fail(struct ab_worker *w, int rc, const char *what, redlock_lock *l)
{
    w->bad = rc;
    snprintf(w->msg, sizeof w->msg, "%s: %d %s", what, rc, l ? redlock_lock_errstr(l) : "");
    event_base_loopbreak(w->base);
}

static void ab_acquired(redlock_lock *l, int status, void *privdata)
{
    struct ab_worker *w = privdata;
    if (status != 0) {
        ab_fail(w, status, "acquire", l);
        return;
    }
    w->acquired++;
    /* the next operation starts from inside the callback */
    int rc = redlock_release_async(l, ab_released, w);
    if (rc != 0)
        ab_fail(w, rc, "release_async", l);
}

static void ab_released(redlock_lock *l, int status, void *privdata)
{
    struct ab_worker *w = privdata;
    if (status != 0) {
        ab_fail(w, status, "release", l);
        return;
    }
    w->released++;
    if (++w->rounds == AB_ROUNDS) {
        event_base_loopbreak(w->base);
        return;
    }
    int rc = redlock_acquire_async(l, 1000, ab_acquired, w);
    if (rc != 0)
        ab_fail(w, rc, "acquire_async", l);
}

static void *ab_thread(void *arg)
{
    struct ab_worker *w = arg;
    w->base = event_base_new();
    if (w->base == NULL) {
        w->bad = -100;
        return NULL;
    }
    redlock_options o;
    it_opts_retry(&o, 200, 5, 4);  /* one shared resource: wait for the others */
    redlock_client *c = NULL;
    char err[256] = "";
    int rc = redlock_client_new(&c, w->base, w->addrs, 3, &o, err, sizeof err);
    if (rc == 0)
        rc = redlock_lock_new(&w->lock, c, "threads-async", 13);
    if (rc == 0)
        rc = redlock_acquire_async(w->lock, 1000, ab_acquired, w);
    if (rc != 0) {
        w->bad = rc;
        snprintf(w->msg, sizeof w->msg, "start: %d %s", rc, err);
    } else {
        event_base_dispatch(w->base);
    }
    /* the client first: a pending operation hears ECANCELED */
    redlock_client_free(c);
    redlock_lock_free(w->lock);
    event_base_free(w->base);
    return NULL;
}

TEST(threads_async_own_event_bases)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    struct ab_worker w[NTHREADS];
    pthread_t tid[NTHREADS];
    memset(w, 0, sizeof w);
    for (int t = 0; t < NTHREADS; t++) {
        w[t].addrs = rlt_servers_addrs(f.s);
        CHECK_EQ(pthread_create(&tid[t], NULL, ab_thread, &w[t]), 0);
    }
    for (int t = 0; t < NTHREADS; t++)
        CHECK_EQ(pthread_join(tid[t], NULL), 0);
    for (int t = 0; t < NTHREADS; t++) {
        CHECK_MSG(w[t].bad == 0, "thread %d: %s", t, w[t].msg);
        CHECK_EQ(w[t].acquired, AB_ROUNDS);
        CHECK_EQ(w[t].released, AB_ROUNDS);
    }
    /* the last roll-backs leave as the clients close: the servers may read
     * them a moment after the join */
    CHECK_EQ(it_wait_count(f.s, "threads-async", 13, 0, 2000), 0);
    it_fix_stop(&f);
}
