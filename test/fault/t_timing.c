/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_timing.c -- timers and the clock, as an adversary schedules them
 * (found by review after the issue-8 fixes; each failed before its fix):
 *
 *   timing_start_then_busy_loop_*        a callback starts operations, then holds
 *                                        the loop 120 ms (node timeout 50): the
 *                                        requests leave late; the masters are
 *                                        not dropped as hung and the acquire wins
 *   timing_success_never_reads_zero      a clock that moves 1 us per read: a
 *                                        success reads >= 1 ms in its callback
 *   timing_step_back_keeps_the_deadline  after a 5 s step back, acquire_timeout_ms
 *                                        still ends the acquire in time
 *   timing_coarse_injected_clock_...     an injected clock with 10 ms ticks: a
 *                                        node timeout never fires early
 */
#include "itest.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <event2/event.h>

static int downs;
static char down_detail[256];
static void ncb(redlock_client *c, size_t node, int ev, const char *d, void *pd)
{
    (void)c; (void)node; (void)pd;
    if (ev == REDLOCK_NODE_DOWN) { downs++; snprintf(down_detail, sizeof down_detail, "%s", d); }
}

#define NL 3
struct sb { redlock_lock *l[NL]; struct it_op w[NL]; int rc[NL]; int nl; int busy_ms; int ran; };
static void start_then_busy_cb(evutil_socket_t fd, short what, void *arg)
{
    struct sb *b = arg; (void)fd; (void)what;
    for (int i = 0; i < b->nl; i++)
        b->rc[i] = redlock_try_acquire_async(b->l[i], 10000, it_op_cb, &b->w[i]);
    int64_t until = check_now_ms() + b->busy_ms;   /* the app's own work */
    while (check_now_ms() < until) usleep(1000);
    b->ran = 1;
}

static void run_start_then_busy(int max_timeouts, int nl)
{
    struct it_fix f = {0};
    redlock_options o; it_opts(&o);
    o.node_timeout_ms = 50; o.max_timeouts = max_timeouts; o.node_cb = ncb;
    it_fix_start(&f, 3, &o, IT_ASYNC);
    struct sb b; memset(&b, 0, sizeof b); b.nl = nl; b.busy_ms = 120;
    char key[32];
    for (int i = 0; i < nl; i++) {
        snprintf(key, sizeof key, "timing:busy:%d", i);
        b.l[i] = it_fix_lock(&f, f.c, key); b.w[i].base = f.base;
    }
    downs = 0;
    struct event *ev = evtimer_new(f.base, start_then_busy_cb, &b);
    struct timeval tv = {0, 0}; evtimer_add(ev, &tv);
    int64_t dl = check_now_ms() + 3000;
    while (check_now_ms() < dl) {
        int all = b.ran; for (int i = 0; i < nl; i++) all = all && b.w[i].done;
        if (all) break;
        it_dispatch(f.base, 20);
    }
    it_dispatch(f.base, 50);
    for (int i = 0; i < nl; i++)
        check_note("max_timeouts=%d lock %d: rc %d status %d (%s) validity %lld", max_timeouts, i,
                   b.rc[i], b.w[i].status, it_errstr(b.l[i]), (long long)b.w[i].validity);
    size_t timeouts = 0;
    for (size_t i = 0; i < 3; i++) { redlock_node_stats st; redlock_client_node_stats(f.c, i, &st); timeouts += st.timeouts; }
    check_note("node DOWN events: %d (last: %s); connected %zu/3; timeout votes %zu",
               downs, down_detail, redlock_client_connected(f.c), timeouts);
    CHECK_MSG(downs == 0, "healthy masters dropped as hung: %s", down_detail);
    CHECK_EQ(b.w[0].status, 0);
    event_free(ev);
    it_fix_stop(&f);
}

TEST(timing_start_then_busy_loop_one_lock) { run_start_then_busy(1, 1); }
TEST(timing_start_then_busy_loop_three_locks) { run_start_then_busy(3, 3); }

/* ---- success reads 0 ---------------------------------------------------- */
struct sclock { int armed; int64_t base, add, reads; };
static int64_t sclock_fn(void *pd)
{
    struct sclock *k = pd;
    if (!k->armed) return k->base;
    return k->base + k->add + ++k->reads;
}

TEST(timing_success_never_reads_zero)
{
    struct it_fix f = {.key = "timing:zero"};
    struct sclock k = {0, 1000000000, 0, 0};
    redlock_options o; it_opts(&o);
    o.clock = sclock_fn; o.clock_privdata = &k;
    it_fix_start(&f, 3, &o, IT_ASYNC);
    redlock_lock *l = f.lock;
    int zero_successes = 0;
    for (int64_t x = 95985; x <= 96010; x++) {
        k.armed = 0; k.base += 10000000; k.reads = 0;
        struct it_op w = {f.base};
        CHECK_RC(l, redlock_try_acquire_async(l, 100, it_op_cb, &w), 0);
        k.add = x; k.reads = 0; k.armed = 1;
        int64_t dl = check_now_ms() + 2000;
        it_op_wait(&w, 2000);
        if (w.status == 0 && w.validity == 0) {
            zero_successes++;
            check_note("x=%lld: status 0, validity in callback %lld ms", (long long)x,
                       (long long)w.validity);
        }
        k.armed = 0;
        struct it_op r = {f.base};
        CHECK_RC(l, redlock_release_async(l, it_op_cb, &r), 0);
        it_run_until(f.base, &r.done, dl + 2000 - check_now_ms());
    }
    CHECK_MSG(zero_successes == 0, "%d successes read 0 ms of validity", zero_successes);
    it_fix_stop(&f);
}

/* ---- clock step back: clamped time freezes the deadline ------------------ */
struct oclock { int64_t offset; };
static int64_t oclock_fn(void *pd) { return check_now_us() + ((struct oclock *)pd)->offset; }

TEST(timing_step_back_keeps_the_deadline)
{
    struct it_fix f = {.key = "timing:back"};
    struct oclock k = {0};
    redlock_options o; it_opts(&o);
    o.clock = oclock_fn; o.clock_privdata = &k;
    o.retry_count = 30; o.retry_delay_ms = 10; o.retry_jitter_ms = 0; o.acquire_timeout_ms = 60;
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *l = f.lock;
    k.offset = -5000000;   /* NTP-like step back of 5 s, before the acquire */
    int64_t t0 = check_now_ms();
    int rc = redlock_acquire(l, 1000);
    int64_t el = check_now_ms() - t0;
    check_note("after a 5 s step back: rc %d (%s) after %lld ms (acquire_timeout_ms 60)", rc,
               it_errstr(l), (long long)el);
    CHECK_MSG(el < 60 + 100, "acquire ran %lld ms past a 60 ms deadline", (long long)el);
    it_fix_stop(&f);
}

/* ---- a coarse (10 ms tick) but monotone clock: timers fire early ---------- */
static int64_t coarse_fn(void *pd) { (void)pd; return check_now_us() / 10000 * 10000; }
struct cb2 { redlock_lock *a, *b; struct it_op wa, wb; int64_t tb_us, done_b_us; };
static void op_cb_t(redlock_lock *l, int status, void *pd)
{
    struct cb2 *x = pd; (void)l;
    x->wb.done++; x->wb.status = status; x->done_b_us = check_now_us();
}
static void coarse_cb(evutil_socket_t fd, short what, void *arg)
{
    struct cb2 *x = arg; (void)fd; (void)what;
    while (check_now_us() % 10000 > 300) ;           /* just after a tick */
    redlock_try_acquire_async(x->a, 10000, it_op_cb, &x->wa);
    int64_t until = check_now_us() + 8000;           /* 8 ms of app work */
    while (check_now_us() < until) ;
    x->tb_us = check_now_us();
    redlock_try_acquire_async(x->b, 10000, op_cb_t, x);
}
TEST(timing_coarse_injected_clock_timer_not_early)
{
    struct it_fix f = {0};
    redlock_options o; it_opts(&o);
    o.clock = coarse_fn; o.node_timeout_ms = 50; o.max_timeouts = 0;
    it_fix_start(&f, 3, &o, IT_ASYNC);
    struct cb2 x; memset(&x, 0, sizeof x);
    x.a = it_fix_lock(&f, f.c, "timing:coarse:a"); x.b = it_fix_lock(&f, f.c, "timing:coarse:b");
    x.wa.base = x.wb.base = f.base;
    rlt_servers_pause(f.s, 1); rlt_servers_pause(f.s, 2);
    struct event *ev = evtimer_new(f.base, coarse_cb, &x);
    struct timeval tv = {0, 0}; evtimer_add(ev, &tv);
    int64_t dl = check_now_ms() + 2000;
    while (!x.wb.done && check_now_ms() < dl) it_dispatch(f.base, 10);
    double waited = (x.done_b_us - x.tb_us) / 1000.0;
    check_note("B status %d, node timeout 50 ms, waited %.2f ms after its start", x.wb.status, waited);
    CHECK_MSG(waited >= 49.0, "timer fired %.2f ms early", 50.0 - waited);
    rlt_servers_resume(f.s, 1); rlt_servers_resume(f.s, 2);
    event_free(ev); it_fix_stop(&f);
}
