/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_loopthread.c -- a blocking client whose loop runs on its own thread
 * (the option loop_thread): the watchdog keeps a lock while the program
 * calls nothing, the lost-lock notice comes on the loop thread, and calls
 * from several threads at once are serialised.  Named threads_* so that
 * `make tsan` runs them under ThreadSanitizer.
 */
#include "itest.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <event2/event.h>

static redlock_client *threaded_client_opts(rlt_servers *s, int n, redlock_options o)
{
    o.loop_thread = 1;
    redlock_client *c = it_client_addrs(rlt_servers_addrs(s), (size_t)n, &o, (size_t)n);
    CHECK_EQ(redlock_client_connected(c), (size_t)n);
    return c;
}

static redlock_client *threaded_client(rlt_servers *s, int n)
{
    redlock_options o;
    it_opts(&o);
    return threaded_client_opts(s, n, o);
}

struct lost {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int count, reason;
    int64_t validity;       /* redlock_lock_validity, asked from the callback */
    pthread_t thread;
};

#define LOST_INIT { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, -1, 0 }

static int lost_count(struct lost *x)
{
    pthread_mutex_lock(&x->mu);
    int n = x->count;
    pthread_mutex_unlock(&x->mu);
    return n;
}

/* A lock on a new threaded client of 3 servers, with a watchdog and a
 * notice, acquired for ttl_ms. */
static redlock_lock *watched(rlt_servers *s, redlock_client **c, const char *res,
                             struct lost *x, int64_t ttl_ms);

static void on_lost(redlock_lock *l, int reason, void *privdata)
{
    struct lost *x = privdata;
    int64_t v = redlock_lock_validity(l);   /* a callback may call the library */
    pthread_mutex_lock(&x->mu);
    x->thread = pthread_self();
    x->reason = reason;
    x->validity = v;
    x->count++;
    pthread_cond_broadcast(&x->cv);
    pthread_mutex_unlock(&x->mu);
}

static redlock_lock *watched(rlt_servers *s, redlock_client **c, const char *res,
                             struct lost *x, int64_t ttl_ms)
{
    redlock_lock *l = NULL;
    *c = threaded_client(s, 3);
    CHECK_EQ(redlock_lock_new(&l, *c, res, strlen(res)), 0);
    CHECK_RC(l, redlock_lock_set_watchdog(l, 0, 0), 0);
    CHECK_RC(l, redlock_lock_on_lost(l, on_lost, x), 0);
    CHECK_RC(l, redlock_acquire(l, ttl_ms), 0);
    return l;
}

/* The program sleeps for 10 x the ttl, calling nothing: the loop thread's
 * watchdog keeps the lock. */
TEST(threads_loop_thread_watchdog_keeps_a_blocking_lock)
{
    rlt_servers *s = it_start(3, NULL);
    redlock_client *c;
    struct lost x = LOST_INIT;
    redlock_lock *l = watched(s, &c, "lt-keep", &x, 300);
    for (int i = 0; i < 10; i++) {
        it_sleep_ms(300);
        CHECK_GT(redlock_lock_validity(l), 0);      /* asked from this thread */
    }
    CHECK_EQ(lost_count(&x), 0);
    CHECK_GT(it_pttl(s, 0, "lt-keep", 7), 0);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_count_key(s, "lt-keep", 7), 0);
    redlock_lock_free(l);
    redlock_client_free(c);

    /* without the loop thread a blocking client cannot have a watchdog */
    redlock_options o;
    it_opts(&o);
    c = it_client(s, &o);
    CHECK_EQ(redlock_lock_new(&l, c, "lt-keep", 7), 0);
    CHECK_RC(l, redlock_lock_set_watchdog(l, 0, 0), REDLOCK_EINVAL);
    CHECK(it_has(redlock_lock_errstr(l), "loop_thread"));
    redlock_lock_free(l);
    redlock_client_free(c);
    rlt_servers_free(s);
}

/* The majority dies while the program sleeps: the notice comes, on the
 * loop thread, before the validity would have ended. */
TEST(threads_loop_thread_lost_notice_while_the_program_sleeps)
{
    rlt_servers *s = it_start(3, NULL);
    redlock_client *c;
    struct lost x = LOST_INIT;
    redlock_lock *l = watched(s, &c, "lt-lost", &x, 1500);
    int64_t t0 = check_now_ms(), v0 = redlock_lock_validity(l);
    CHECK_EQ(rlt_servers_kill(s, 0), 0);
    CHECK_EQ(rlt_servers_kill(s, 1), 0);
    /* wait for the notice (on the loop thread), at most 1 s past the validity */
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += (time_t)((v0 + 1000) / 1000) + 1;
    pthread_mutex_lock(&x.mu);
    while (x.count == 0 && pthread_cond_timedwait(&x.cv, &x.mu, &until) == 0)
        ;
    pthread_mutex_unlock(&x.mu);
    int64_t t1 = check_now_ms();
    check_note("the notice came %lld ms after the majority died, %lld ms before the validity "
               "would have ended", (long long)(t1 - t0), (long long)(t0 + v0 - t1));
    CHECK_EQ(lost_count(&x), 1);
    CHECK_EQ(x.reason, REDLOCK_LOST_UNREACHABLE);
    CHECK_EQ(x.validity, 0);                    /* already 0 inside the notice */
    CHECK(!pthread_equal(x.thread, pthread_self()));
    CHECK_LT(t1, t0 + v0);
    CHECK_EQ(redlock_lock_validity(l), 0);
    redlock_lock_free(l);
    redlock_client_free(c);
    rlt_servers_free(s);
}

struct worker {
    redlock_client *c;
    int id;
    atomic_int *inside;     /* holders of the shared resource right now */
    int overlaps, acquired;
};

static void *work(void *arg)
{
    struct worker *w = arg;
    redlock_lock *shared = NULL, *own = NULL;
    char name[32];
    snprintf(name, sizeof name, "lt-own-%d", w->id);
    if (redlock_lock_new(&shared, w->c, "lt-shared", 9) != 0 ||
        redlock_lock_new(&own, w->c, name, strlen(name)) != 0)
        return NULL;
    for (int i = 0; i < 40; i++) {
        if (redlock_acquire(own, 10000) == 0)
            redlock_release(own);
        if (redlock_try_acquire(shared, 10000) == 0) {
            if (atomic_fetch_add(w->inside, 1) != 0)
                w->overlaps++;
            w->acquired++;
            (void)redlock_lock_validity(shared);
            atomic_fetch_sub(w->inside, 1);
            redlock_release(shared);
        }
    }
    redlock_lock_free(shared);
    redlock_lock_free(own);
    return NULL;
}

/* Four threads call one client at once: the calls are serialised with the
 * loop, a shared resource is held by one of them at a time. */
TEST(threads_loop_thread_calls_from_many_threads)
{
    rlt_servers *s = it_start(3, NULL);
    redlock_client *c = threaded_client(s, 3);
    atomic_int inside = 0;
    struct worker w[4];
    pthread_t th[4];
    int total = 0, overlaps = 0;
    for (int i = 0; i < 4; i++) {
        w[i] = (struct worker){ c, i, &inside, 0, 0 };
        CHECK_EQ(pthread_create(&th[i], NULL, work, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        total += w[i].acquired;
        overlaps += w[i].overlaps;
    }
    check_note("4 threads, one client: %d acquisitions of the shared resource", total);
    CHECK_GT(total, 0);
    CHECK_EQ(overlaps, 0);
    /* A call returns at its quorum: a lost attempt's undo, or a release's
     * delete on the last master, may still be on its way (on the loop
     * thread, within the node timeout); the key goes from every master. */
    int64_t until = check_now_ms() + 3000;
    while (rlt_servers_count_key(s, "lt-shared", 9) != 0 && check_now_ms() < until) {
        struct timespec pause = { 0, 5 * 1000000L };
        nanosleep(&pause, NULL);
    }
    CHECK_EQ(rlt_servers_count_key(s, "lt-shared", 9), 0);
    redlock_client_free(c);

    /* the option is for clients without an event base */
    redlock_options o;
    char err[256];
    struct event_base *base = event_base_new();
    it_opts(&o);
    o.loop_thread = 1;
    CHECK_EQ(redlock_client_new(&c, base, rlt_servers_addrs(s), 3, &o, err, sizeof err),
             REDLOCK_EINVAL);
    CHECK(it_has(err, "loop_thread"));
    o.loop_thread = 2;
    CHECK_EQ(redlock_client_new(&c, NULL, rlt_servers_addrs(s), 3, &o, err, sizeof err),
             REDLOCK_EINVAL);
    event_base_free(base);
    rlt_servers_free(s);
}

/* ---- a callback of one client calls another ---------------------------- */

struct cross {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int in_b, b_done, released;     /* B's callback: entered, left; let it go */
    redlock_client *a, *b;
    redlock_lock *lb2;
    int status, b_done_seen, try_rc;
    int loop_rc, loop_done;         /* a_loop_calls_b's */
    size_t a_connected;
    pthread_t thread;
};

/* On B's loop thread, holding B's mutex: stays until let go, at most 1.5 s. */
static void b_holds_its_loop(redlock_lock *l, int status, void *privdata)
{
    struct cross *x = privdata;
    struct timespec until;
    (void)l;
    (void)status;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 500000000;
    until.tv_sec += 1 + until.tv_nsec / 1000000000;
    until.tv_nsec %= 1000000000;
    pthread_mutex_lock(&x->mu);
    x->in_b = 1;
    pthread_cond_broadcast(&x->cv);
    while (!x->released && pthread_cond_timedwait(&x->cv, &x->mu, &until) == 0)
        ;
    x->b_done = 1;
    pthread_mutex_unlock(&x->mu);
}

/* A's acquire, cancelled inside redlock_lock_free on the program's thread:
 * inside A's gate, it calls B. */
static void a_calls_b(redlock_lock *l, int status, void *privdata)
{
    struct cross *x = privdata;
    (void)l;
    x->status = status;
    x->thread = pthread_self();
    (void)redlock_client_connected(x->b);   /* waits for B's loop to leave its callback */
    pthread_mutex_lock(&x->mu);
    x->b_done_seen = x->b_done;
    x->released = 1;
    pthread_cond_broadcast(&x->cv);
    pthread_mutex_unlock(&x->mu);
    CHECK_MSG(x->b_done_seen, "a call on B from A's callback ran beside B's loop thread "
              "(B's callback had not returned)");
    x->try_rc = redlock_try_acquire(x->lb2, 10000);     /* a blocking call on B */
    x->a_connected = redlock_client_connected(x->a);   /* A again: its gate is ours already */
}

/* On A's loop thread: a blocking call on B. */
static void a_loop_calls_b(redlock_lock *l, int status, void *privdata)
{
    struct cross *x = privdata;
    (void)l;
    int rc = status == 0 ? redlock_release(x->lb2) : status;
    pthread_mutex_lock(&x->mu);
    x->loop_rc = rc;
    x->loop_done = 1;
    pthread_cond_broadcast(&x->cv);
    pthread_mutex_unlock(&x->mu);
}

/* Two loop-thread clients: a callback of A that runs inside a call on A
 * (ECANCELED, inside redlock_lock_free) calls B.  The call takes B's
 * mutex: it waits while B's loop thread is inside a callback of B.  A
 * blocking call on B works from there, and a call on A does not wait for
 * A's mutex, which this thread holds.  A callback on A's loop thread makes
 * a blocking call on B too. */
TEST(threads_loop_thread_callback_of_one_client_calls_another)
{
    rlt_servers *s = it_start(3, NULL);
    redlock_options o;
    it_opts(&o);
    o.retry_count = 1000;       /* A's acquire waits (pending) for seconds */
    o.retry_delay_ms = 10000;
    struct cross x = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER };
    x.a = threaded_client_opts(s, 3, o);
    x.b = threaded_client(s, 3);
    x.try_rc = -1;
    redlock_lock *hold = IT_LOCK(x.b, "lt-cross"), *la = IT_LOCK(x.a, "lt-cross");
    redlock_lock *lb = IT_LOCK(x.b, "lt-cross-b");
    x.lb2 = IT_LOCK(x.b, "lt-cross-b2");
    CHECK_RC(hold, redlock_acquire(hold, 30000), 0);
    CHECK_RC(la, redlock_acquire_async(la, 10000, a_calls_b, &x), 0);
    CHECK_RC(lb, redlock_acquire_async(lb, 10000, b_holds_its_loop, &x), 0);
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&x.mu);
    while (!x.in_b && pthread_cond_timedwait(&x.cv, &x.mu, &until) == 0)
        ;
    int in_b = x.in_b;
    pthread_mutex_unlock(&x.mu);
    CHECK(in_b);
    redlock_lock_free(la);      /* a_calls_b runs here, on this thread */
    CHECK_EQ(x.status, REDLOCK_ECANCELED);
    CHECK(pthread_equal(x.thread, pthread_self()));
    CHECK(x.b_done_seen);
    CHECK_RC(x.lb2, x.try_rc, 0);
    CHECK_EQ(x.a_connected, (size_t)3);
    CHECK_EQ(it_count_lock(s, "lt-cross-b2", 11, x.lb2), 3);
    redlock_lock *la2 = IT_LOCK(x.a, "lt-cross-a2");
    CHECK_RC(la2, redlock_acquire_async(la2, 10000, a_loop_calls_b, &x), 0);
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_sec += 10;
    pthread_mutex_lock(&x.mu);
    while (!x.loop_done && pthread_cond_timedwait(&x.cv, &x.mu, &until) == 0)
        ;
    int loop_done = x.loop_done, loop_rc = x.loop_rc;
    pthread_mutex_unlock(&x.mu);
    CHECK(loop_done);
    CHECK_RC(x.lb2, loop_rc, 0);
    CHECK_EQ(rlt_servers_count_key(s, "lt-cross-b2", 11), 0);
    CHECK_RC(la2, redlock_release(la2), 0);
    redlock_lock_free(la2);
    CHECK_RC(lb, redlock_release(lb), 0);
    CHECK_RC(hold, redlock_release(hold), 0);
    redlock_lock_free(x.lb2);
    redlock_lock_free(lb);
    redlock_lock_free(hold);
    redlock_client_free(x.a);
    redlock_client_free(x.b);
    rlt_servers_free(s);
}

/* ---- a wall-clock step ---------------------------------------------------- */

/* The test binary is linked with --wrap=clock_gettime: the library's reads
 * of the wall clock come here and run wall_shift_s ahead of the kernel's
 * wall clock (0 but in the test below). */
static atomic_llong wall_shift_s;

int __real_clock_gettime(clockid_t id, struct timespec *ts);
int __wrap_clock_gettime(clockid_t id, struct timespec *ts);

int __wrap_clock_gettime(clockid_t id, struct timespec *ts)
{
    int rc = __real_clock_gettime(id, ts);
    if (rc == 0 && id == CLOCK_REALTIME)
        ts->tv_sec += (time_t)atomic_load_explicit(&wall_shift_s, memory_order_relaxed);
    return rc;
}

/* A blocking call on a loop-thread client (redlock_client_wait_connected
 * waits in slices inside the gate) while the wall clock steps back 20 s:
 * the wall time the library read is then 20 s ahead of the one the kernel
 * would wait by.  The call still returns after its own 300 ms. */
TEST(threads_loop_thread_wait_ignores_a_wall_clock_step)
{
    rlt_servers *s = it_start(1, NULL);
    redlock_options o;
    it_opts(&o);
    o.loop_thread = 1;
    CHECK_EQ(rlt_servers_kill(s, 0), 0);    /* its master never answers */
    redlock_client *c = it_client_addrs(rlt_servers_addrs(s), 1, &o, 0);
    atomic_store(&wall_shift_s, 20);
    int64_t t0 = check_now_ms();
    int rc = redlock_client_wait_connected(c, 1, 300);
    int64_t took = check_now_ms() - t0;
    atomic_store(&wall_shift_s, 0);
    check_note("wait_connected(300 ms) took %lld ms across a 20 s step back", (long long)took);
    CHECK_EQ(rc, REDLOCK_ETIMEDOUT);
    CHECK_GE(took, 300);
    CHECK_LT(took, 10000);
    redlock_client_free(c);
    rlt_servers_free(s);
}
