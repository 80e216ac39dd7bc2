/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_watchdog.c -- the watchdog and the lost-lock notice against real
 * redis-servers: a lock kept for 10x its ttl while minority masters are
 * killed and paused, the notice before the validity ends when the majority
 * dies, refusals, the cap, expiry, and no extend after a release.
 */
#include "itest.h"
#include "fixture.h"

#include <stdio.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

struct watch {
    struct event_base *base;
    redlock_lock *lock;
    int acquired;           /* status of the acquire, or 1 while pending */
    struct lost_notice lost;    /* the lost-lock notices */
    /* sampler */
    struct event *sample;
    int64_t min_validity;   /* smallest validity seen while sampling */
    int64_t samples;
    int64_t last_ms, last_validity;
};

static void on_acquired(redlock_lock *l, int status, void *privdata)
{
    struct watch *w = privdata;
    (void)l;
    w->acquired = status;
    event_base_loopbreak(w->base);
}

static void sample_cb(evutil_socket_t fd, short what, void *arg)
{
    struct watch *w = arg;
    int64_t v = redlock_lock_validity(w->lock);
    (void)fd;
    (void)what;
    if (!w->lost.fired) {
        if (v < w->min_validity)
            w->min_validity = v;
        w->samples++;
        w->last_ms = check_now_ms();
        w->last_validity = v;
    }
}

static void watch_start(struct watch *w, struct it_fix *f, redlock_lock *l, int64_t ttl_ms)
{
    struct timeval every = {0, 10000};

    memset(w, 0, sizeof *w);
    w->base = f->base;
    w->lost.base = f->base;
    w->lock = l;
    w->acquired = 1;
    w->min_validity = INT64_MAX;
    CHECK_EQ(redlock_lock_on_lost(l, lost_notice_cb, &w->lost), 0);
    CHECK_RC(l, redlock_try_acquire_async(l, ttl_ms, on_acquired, w), 0);
    int64_t deadline = check_now_ms() + 5000;
    while (w->acquired == 1 && check_now_ms() < deadline)
        it_dispatch(f->base, deadline - check_now_ms());
    CHECK_RC(l, w->acquired, 0);
    w->sample = event_new(f->base, -1, EV_PERSIST, sample_cb, w);
    CHECK(w->sample != NULL);
    CHECK_EQ(event_add(w->sample, &every), 0);
}

static void watch_stop(struct watch *w)
{
    event_free(w->sample);
}

/* Run the loop for ms, or until a notice. */
static void run_for(struct watch *w, int64_t ms)
{
    int64_t until = check_now_ms() + ms;
    while (!w->lost.fired && check_now_ms() < until)
        it_dispatch(w->base, until - check_now_ms());
}

/* n servers, an async client, a lock on `key` with a notice (and a
 * watchdog unless every_ms is -1), acquired for ttl_ms and sampled. */
static redlock_lock *held(struct it_fix *f, struct watch *w, int n, const char *key,
                          int64_t every_ms, int64_t cap_ms, int64_t ttl_ms)
{
    it_fix_start(f, n, NULL, IT_ASYNC);
    redlock_lock *l = it_fix_lock(f, f->c, key);
    CHECK_EQ(redlock_lock_set_watchdog(l, every_ms, cap_ms), 0);
    watch_start(w, f, l, ttl_ms);
    return l;
}

static void done(struct it_fix *f, struct watch *w)
{
    watch_stop(w);
    it_fix_stop(f);
}

/* Scripts run by server i (extends are EVALSHA, or EVAL after a restart). */
static long long scripts(rlt_servers *s, int i)
{
    return it_calls(s, i, "evalsha") + it_calls(s, i, "eval");
}

/* 10 x the ttl, while a minority (2 of 5 at most at any time) is killed,
 * slowed past the node timeout and paused; master 2 is behind a proxy. */
TEST(watchdog_keeps_the_lock_10x_its_ttl_through_minority_faults)
{
    struct it_fix f = {0};
    struct watch w;
    char a2[64];
    const char *addrs[5] = {NULL};
    it_fix_start(&f, 5, NULL, IT_ASYNC | IT_NOCLIENT);
    rlp_thread *px = proxy_in_front(&f, 2, a2, sizeof a2, addrs);
    redlock_options o;
    it_opts(&o);                                            /* node timeout 100 ms */
    f.c = it_client_new(f.base, addrs, 5, &o);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 5, 3000), 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "wd-keep");
    CHECK_EQ(redlock_lock_set_watchdog(l, 0, 0), 0);        /* every ttl/3 */
    watch_start(&w, &f, l, 300);
    long long before = scripts(f.s, 4);

    run_for(&w, 500);
    rlp_thread_set_latency(px, RLP_DOWN, 40, 10);           /* slow but in time */
    run_for(&w, 400);
    rlp_thread_set_latency(px, RLP_DOWN, 150, 0);           /* slower than the timeout */
    CHECK_EQ(rlt_servers_kill(f.s, 0), 0);                  /* and one dies */
    run_for(&w, 700);
    rlp_thread_set_latency(px, RLP_DOWN, 0, 0);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);                 /* one hangs */
    run_for(&w, 700);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    run_for(&w, 700);
    check_note("3000 ms on a 300 ms lock: %lld validity samples, the smallest %lld ms, "
               "%lld scripts on master 4", (long long)w.samples, (long long)w.min_validity,
               scripts(f.s, 4) - before);
    CHECK_EQ(w.lost.fired, 0);
    CHECK_GT(w.samples, 100);
    CHECK_GT(w.min_validity, 0);            /* held all along */
    CHECK_GE(scripts(f.s, 4) - before, 20); /* about one extend per 100 ms */
    CHECK_GE(it_count_lock(f.s, "wd-keep", 7, l), 3);
    CHECK_RC(l, redlock_release_async(l, NULL, NULL), 0);
    run_for(&w, 200);
    CHECK_EQ(w.lost.fired, 0);
    done(&f, &w);
    rlp_thread_stop(px);
}

TEST(watchdog_never_extends_after_release_or_free)
{
    struct it_fix f = {0};
    struct watch w;
    redlock_lock *l = held(&f, &w, 3, "wd-release", 30, 0, 300);
    run_for(&w, 200);
    CHECK_RC(l, redlock_release_async(l, NULL, NULL), 0);
    run_for(&w, 50);        /* the release is decided */
    long long after_release[3];
    for (int i = 0; i < 3; i++)
        after_release[i] = scripts(f.s, i);
    run_for(&w, 400);       /* 13 watchdog periods */
    for (int i = 0; i < 3; i++)
        CHECK_EQ(scripts(f.s, i), after_release[i]);
    CHECK_EQ(w.lost.fired, 0);    /* a release is no loss */
    CHECK_EQ(rlt_servers_count_key(f.s, "wd-release", 10), 0);

    /* freed while held: nothing after the free either */
    redlock_lock *l2 = NULL;
    CHECK_EQ(redlock_lock_new(&l2, f.c, "wd-free", 7), 0);
    CHECK_EQ(redlock_lock_set_watchdog(l2, 30, 0), 0);
    struct watch w2;
    watch_start(&w2, &f, l2, 300);
    run_for(&w2, 100);
    watch_stop(&w2);
    redlock_lock_free(l2);
    long long after_free = scripts(f.s, 0);
    run_for(&w, 300);
    CHECK_EQ(scripts(f.s, 0), after_free);
    CHECK_EQ(w2.lost.fired, 0);
    done(&f, &w);
}

TEST(watchdog_lost_before_the_validity_ends_when_the_majority_dies)
{
    struct it_fix f = {0};
    struct watch w;
    redlock_lock *l = held(&f, &w, 3, "wd-majority", 0, 0, 1500);
    run_for(&w, 300);
    int64_t t0 = check_now_ms(), v0 = redlock_lock_validity(l);
    CHECK_GT(v0, 0);
    CHECK_EQ(rlt_servers_kill(f.s, 0), 0);
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    run_for(&w, 3000);
    CHECK_EQ(w.lost.fired, 1);
    CHECK_EQ(w.lost.reason, REDLOCK_LOST_UNREACHABLE);
    CHECK_EQ(w.lost.validity, 0);
    check_note("majority killed with %lld ms of validity left: the notice came %lld ms later, "
               "%lld ms before the validity would have ended", (long long)v0,
               (long long)(w.lost.at_ms - t0), (long long)(t0 + v0 - w.lost.at_ms));
    CHECK_LT(w.lost.at_ms, t0 + v0);           /* before the validity ends */
    run_for(&w, 200);
    CHECK_EQ(w.lost.fired, 1);                    /* once */
    done(&f, &w);
}

/* Slow but alive: the majority answers, but later than the node timeout.
 * The extends time out, and the notice still comes before the validity
 * ends. */
TEST(watchdog_lost_before_the_validity_ends_when_the_majority_is_slow)
{
    struct it_fix f = {0};
    struct watch w;
    char a0[64], a1[64];
    const char *addrs[3] = {NULL};
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    rlp_thread *p0 = proxy_in_front(&f, 0, a0, sizeof a0, addrs);
    rlp_thread *p1 = proxy_in_front(&f, 1, a1, sizeof a1, addrs);
    redlock_options o;
    it_opts(&o);                                            /* node timeout 100 ms */
    o.max_timeouts = 1000;          /* slow masters stay connected: slow, not down */
    f.c = it_client_new(f.base, addrs, 3, &o);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 3, 3000), 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "wd-slow");
    CHECK_EQ(redlock_lock_set_watchdog(l, 0, 0), 0);
    watch_start(&w, &f, l, 1500);
    run_for(&w, 300);
    int64_t t0 = check_now_ms(), v0 = redlock_lock_validity(l);
    CHECK_GT(v0, 0);
    rlp_thread_set_latency(p0, RLP_DOWN, 150, 0);
    rlp_thread_set_latency(p1, RLP_DOWN, 150, 0);
    run_for(&w, 3000);
    check_note("majority slowed past the node timeout with %lld ms of validity left: the notice "
               "came %lld ms later, %lld ms before the validity would have ended", (long long)v0,
               (long long)(w.lost.at_ms - t0), (long long)(t0 + v0 - w.lost.at_ms));
    CHECK_EQ(w.lost.fired, 1);
    CHECK_EQ(w.lost.reason, REDLOCK_LOST_UNREACHABLE);
    CHECK_EQ(w.lost.validity, 0);
    CHECK_LT(w.lost.at_ms, t0 + v0);
    done(&f, &w);
    rlp_thread_stop(p0);
    rlp_thread_stop(p1);
}

TEST(lost_notice_when_an_extend_is_refused)
{
    struct it_fix f = {0};
    struct watch w;
    redlock_lock *l = held(&f, &w, 3, "wd-refused", -1, 0, 5000);  /* a notice, no watchdog */
    /* the key was lost and another client took it (a missing key would be
     * re-grown by the extend: someone else's value is refused) */
    for (int i = 0; i < 3; i++) {
        void *r = rlt_servers_command(f.s, i, "SET wd-refused someone-else");
        CHECK(r != NULL);
        freeReplyObject(r);
    }
    w.acquired = 1;
    CHECK_RC(l, redlock_extend_async(l, 5000, on_acquired, &w), 0);
    int64_t deadline = check_now_ms() + 2000;
    while (w.acquired == 1 && check_now_ms() < deadline)
        it_dispatch(f.base, deadline - check_now_ms());
    CHECK_EQ(w.acquired, REDLOCK_ENOTOWNER);
    run_for(&w, 500);                       /* the notice follows on the loop */
    CHECK_EQ(w.lost.fired, 1);
    CHECK_EQ(w.lost.reason, REDLOCK_LOST_REFUSED);
    CHECK_EQ(redlock_lock_validity(l), 0);
    done(&f, &w);
}

TEST(lost_notice_at_the_cap_and_at_expiry)
{
    struct it_fix f = {0};
    struct watch w;
    held(&f, &w, 3, "wd-cap", 50, 600, 300);
    /* (after the masters' start: under valgrind it alone may take 200 ms;
     * the cap counts from the acquire's start, a little before this) */
    int64_t t0 = check_now_ms();
    run_for(&w, 3000);
    CHECK_EQ(w.lost.fired, 1);
    CHECK_EQ(w.lost.reason, REDLOCK_LOST_CAP);
    check_note("cap 600 ms, ttl 300 ms: the notice came after %lld ms",
               (long long)(w.lost.at_ms - t0));
    CHECK_GE(w.lost.at_ms - t0, 300);          /* extended past the first ttl */
    CHECK_LE(w.lost.at_ms - t0, 600 + 200);    /* and not past the cap (+ the acquire) */
    long long n = scripts(f.s, 0);
    run_for(&w, 300);
    CHECK_EQ(scripts(f.s, 0), n);           /* no extend after the notice */
    watch_stop(&w);

    /* no watchdog: the notice when the validity runs out */
    redlock_lock *l2 = it_fix_lock(&f, f.c, "wd-expire");
    t0 = check_now_ms();
    watch_start(&w, &f, l2, 200);
    run_for(&w, 2000);
    CHECK_EQ(w.lost.fired, 1);
    CHECK_EQ(w.lost.reason, REDLOCK_LOST_EXPIRED);
    CHECK_LE(w.lost.at_ms - t0, 200 + 100);
    CHECK_EQ(w.lost.validity, 0);
    run_for(&w, 200);
    CHECK_EQ(w.lost.fired, 1);
    done(&f, &w);
}

TEST(watchdog_needs_an_event_loop)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);           /* a blocking client */
    redlock_lock *l = it_fix_lock(&f, f.c, "wd-blocking");
    CHECK_RC(l, redlock_lock_set_watchdog(l, 0, 0), REDLOCK_EINVAL);
    CHECK(it_has(redlock_lock_errstr(l), "blocking client"));
    CHECK_RC(l, redlock_lock_set_watchdog(l, -1, 0), 0);     /* off is fine */
    CHECK_RC(l, redlock_lock_set_watchdog(l, -2, 0), REDLOCK_EINVAL);
    it_fix_stop(&f);
}

/* A watchdog (and its cap) set while the lock is held counts the cap from
 * the acquire; a call the library refuses (a bad ttl) while the watchdog's
 * extend is in flight leaves the watchdog running: the hold outlives the
 * ttl counted from the last refusal by 200 ms.  (A ttl of 1 s, not 300 ms:
 * with a node timeout of 100 ms, an extend that timed out left a 300 ms
 * hold less than the two node timeouts a retry needs, and the hold ended;
 * two masters or this process held up 100 ms by a busy machine do that.) */
#define WD_LATE_TTL_MS 1000
TEST(watchdog_set_while_held_and_refused_calls_keep_it)
{
    struct it_fix f = {0};
    struct watch w;
    redlock_lock *l = held(&f, &w, 3, "wd-late", -1, 0, WD_LATE_TTL_MS);  /* no watchdog yet */
    CHECK_EQ(redlock_lock_set_watchdog(l, 1, 60000), 0);           /* every 1 ms */
    for (int i = 0; i < 40; i++) {
        run_for(&w, 15);
        CHECK_RC(l, redlock_extend_async(l, 0, on_acquired, &w), REDLOCK_EINVAL);
    }
    run_for(&w, WD_LATE_TTL_MS + 200);
    check_note("watchdog set while held, 40 refused extends: %lld samples, smallest validity "
               "%lld ms", (long long)w.samples, (long long)w.min_validity);
    CHECK_EQ(w.lost.fired, 0);
    CHECK_GT(redlock_lock_validity(l), 0);
    CHECK_GT(w.min_validity, 0);
    done(&f, &w);
}

/* A fixed value whose hold expired only extends: it does not re-grow the
 * key (the lock is not re-acquired behind the application's back). */
TEST(extend_after_expiry_does_not_regrow)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "wd-expired");
    CHECK_EQ(redlock_lock_set_value(l, "fixed-value", 11), 0);
    CHECK_RC(l, redlock_acquire(l, 200), 0);
    CHECK_EQ(it_wait_count(f.s, "wd-expired", 10, 0, 3000), 0);     /* expired everywhere */
    CHECK_RC(l, redlock_extend(l, 5000), REDLOCK_ENOTOWNER);
    CHECK_EQ(rlt_servers_count_key(f.s, "wd-expired", 10), 0);
    it_fix_stop(&f);
}

