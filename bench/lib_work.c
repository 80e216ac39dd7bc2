/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* lib_work.c -- the operations of redlock-bench's library workloads, driven
 * through the asynchronous API: each client (lib_client.c) has `nslots`
 * locks in flight at once; a slot's next op starts when its last ends
 * (closed loop) or when it is due (the --rate schedule). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib_work.h"

static void slot_next(lslot *s);

static const bench_cfg *cfg_of(const lslot *s)
{
    return s->t->sh->cfg;
}

void lib_on_slot_timer(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    lslot *s = arg;
    void (*fn)(lslot *) = s->timer_fn;
    s->timer_fn = NULL;
    if (fn)
        fn(s);
}

static void slot_later(lslot *s, int64_t ms, void (*fn)(lslot *))
{
    struct timeval tv = {(time_t)(ms / 1000), (suseconds_t)((ms % 1000) * 1000)};
    s->timer_fn = fn;
    evtimer_add(s->timer, &tv);
}

/* A multi lock on --resources resources: key, then key:2 .. key:N, all
 * this slot's own, so that no two slots contend, as for the mutex. */
static int new_multi(lslot *s, const char *key, size_t len)
{
    char names[RLB_MAX_RESOURCES][140];
    const void *res[RLB_MAX_RESOURCES] = {key};
    size_t lens[RLB_MAX_RESOURCES] = {len};
    int nres = cfg_of(s)->resources;
    for (int i = 1; i < nres; i++) {
        lens[i] = (size_t)snprintf(names[i], sizeof(names[i]), "%s:%d", key, i + 1);
        res[i] = names[i];
    }
    return redlock_lock_new_multi(&s->lock, s->lt->cli, res, lens, (size_t)nres);
}

/* Point the slot's lock at key k (a new redlock_lock when it changes). */
static int ensure_lock(lslot *s, long k)
{
    if (s->lock && s->cur_key == k)
        return 0;
    redlock_lock_free(s->lock);
    s->lock = NULL;
    char name[128];
    int n = rlb_key(cfg_of(s), name, sizeof(name), k), rc;
    switch (cfg_of(s)->kind) {
    case REDLOCK_KIND_REENTRANT:
        rc = redlock_lock_new_reentrant(&s->lock, s->lt->cli, name, (size_t)n, NULL, 0);
        break;
    case REDLOCK_KIND_READ:
        rc = redlock_lock_new_read(&s->lock, s->lt->cli, name, (size_t)n);
        break;
    case REDLOCK_KIND_WRITE:
        rc = redlock_lock_new_write(&s->lock, s->lt->cli, name, (size_t)n);
        break;
    case REDLOCK_KIND_MULTI:
        rc = new_multi(s, name, (size_t)n);
        break;
    case RLB_KIND_RW:
        rc = s->side ? redlock_lock_new_write(&s->lock, s->lt->cli, name, (size_t)n)
                     : redlock_lock_new_read(&s->lock, s->lt->cli, name, (size_t)n);
        break;
#if RLB_HAVE_SEMAPHORE
    case RLB_KIND_SEMAPHORE:
        rc = redlock_lock_new_semaphore(&s->lock, s->lt->cli, name, (size_t)n,
                                        (unsigned)cfg_of(s)->permits);
        break;
#endif
    default:
        rc = redlock_lock_new(&s->lock, s->lt->cli, name, (size_t)n);
        break;
    }
    if (rc == 0 && cfg_of(s)->fencing)
        rc = redlock_lock_set_fencing(s->lock, 1);
    if (rc != 0) {
        redlock_lock_free(s->lock);
        s->lock = NULL;
        return rc;
    }
    s->cur_key = k;
    return 0;
}

static long next_key(lslot *s)
{
    const bench_cfg *cfg = cfg_of(s);
    switch (cfg->workload) {
    case WL_CYCLE:
    case WL_EXTEND:
        return s->gidx + (long)cfg->concurrency * (long)(s->seq % (uint64_t)s->own);
    default:
        return cfg->keys <= 1 ? 0 : (long)(rlb_rand(&s->t->rng) % (uint64_t)cfg->keys);
    }
}

/* After a failure that may repeat instantly (nodes down), do not spin. */
static void restart_after_failure(lslot *s, int code)
{
    if (code == REDLOCK_ENOQUORUM || code == REDLOCK_ETIMEDOUT ||
        code == REDLOCK_ENOTOWNER)
        slot_next(s);
    else
        slot_later(s, 10, slot_next);
}

/* The slot an operation's callback is for; NULL while the client is being
 * torn down (the callback then does nothing). */
static lslot *live_slot(void *arg)
{
    lslot *s = arg;
    return s->lt->tearing ? NULL : s;
}

/* The slot's op ended with status after dt ns: its latency, or its
 * failure.  0 when it worked. */
static int op_done(lslot *s, int op, int status, int64_t dt, int primary)
{
    if (status != 0) {
        rlb_count_fail(s->t, s->meas, op, status);
        return -1;
    }
    rlb_record(s->t, s->meas, op, dt, primary);
    return 0;
}

/* ---- release --------------------------------------------------------------- */

static void on_released(redlock_lock *lock, int status, void *arg)
{
    (void)lock;
    lslot *s = live_slot(arg);
    if (!s)
        return;
    s->held = 0;
    if (op_done(s, OP_REL, status, rlb_now_ns() - s->t0, 0) == 0) {
        if (s->meas)
            s->t->st.cycles++;
        if (cfg_of(s)->workload == WL_CYCLE)
            rlb_count_op(s->t, s->meas);
    }
    slot_next(s);
}

static void release_start(lslot *s)
{
    const bench_cfg *cfg = cfg_of(s);
    s->t0 = rlb_now_ns();
    if (cfg->workload == WL_CONTEND && s->held) {
        rlb_hold_end(s->t, s->cur_key, s->side, s->t0);
        rlb_mark_release(s->t, s->cur_key, s->t0);
    }
    int rc = redlock_release_async(s->lock, on_released, s);
    if (rc != 0) {
        s->held = 0;
        rlb_count_fail(s->t, s->meas, OP_REL, rc);
        restart_after_failure(s, rc);
    }
}

/* ---- extend ---------------------------------------------------------------- */

static void extend_next(lslot *s);

static void on_extended(redlock_lock *lock, int status, void *arg)
{
    (void)lock;
    lslot *s = live_slot(arg);
    if (!s)
        return;
    int64_t dt = rlb_now_ns() - s->t0;
    rlb_count_op(s->t, s->meas);
    if (op_done(s, OP_EXT, status, dt, 1) != 0) {
        release_start(s); /* probably lost; release whatever is left */
        return;
    }
    if (s->meas)
        s->t->st.extends_ok++;
    s->extends_left--;
    extend_next(s);
}

static void extend_next(lslot *s)
{
    if (s->extends_left <= 0 || !rlb_may_start(s->t, 1, &s->meas)) {
        release_start(s);
        return;
    }
    s->t0 = rlb_now_ns();
    int rc = redlock_extend_async(s->lock, cfg_of(s)->ttl_ms, on_extended, s);
    if (rc != 0) {
        rlb_count_fail(s->t, s->meas, OP_EXT, rc);
        release_start(s);
    }
}

/* ---- acquire --------------------------------------------------------------- */

static void on_acquired(redlock_lock *lock, int status, void *arg)
{
    (void)lock;
    lslot *s = live_slot(arg);
    if (!s)
        return;
    bench_thread *t = s->t;
    const bench_cfg *cfg = cfg_of(s);
    int64_t now = rlb_now_ns();
    /* contend: a wait that began in the warm-up and ends in the window is
     * measured too (a waiter passed over since the start must show) */
    if (cfg->workload == WL_CONTEND && atomic_load_explicit(&t->sh->measuring,
                                                            memory_order_relaxed))
        s->meas = 1;
    int measuring = s->meas;
    int primary = cfg->workload != WL_EXTEND;
    if (measuring)
        t->st.tries++;
    if (cfg->workload == WL_TRY || cfg->workload == WL_CONTEND)
        rlb_count_op(t, s->meas);
    if (op_done(s, OP_ACQ, status, now - s->t0, primary) != 0) {
        restart_after_failure(s, status);
        return;
    }
    if (measuring)
        t->st.acq_ok++;
    s->held = 1;
    switch (cfg->workload) {
    case WL_CONTEND:
        rlb_hold_begin(t, s->cur_key, s->side, now);
        if (measuring && cfg->kind == RLB_KIND_RW)
            hist_record(t->st.wait_side[s->side], (uint64_t)(now - s->t0));
        rlb_record_handoff(t, measuring, s->cur_key, now);
        if (cfg->hold_ms > 0)
            slot_later(s, cfg->hold_ms, release_start);
        else
            release_start(s);
        break;
    case WL_EXTEND:
        s->extends_left = cfg->extends;
        extend_next(s);
        break;
    default:
        release_start(s);
        break;
    }
}

void lib_slot_start(lslot *s)
{
    bench_thread *t = s->t;
    const bench_cfg *cfg = cfg_of(s);
    if (s->lt->tearing)
        return;
    if (!rlb_may_start(t, cfg->workload != WL_EXTEND, &s->meas)) {
        lib_slot_finish(s);
        return;
    }
    long k = next_key(s);
    s->seq++;
    int rc = ensure_lock(s, k);
    if (rc != 0) {
        rlb_count_fail(t, s->meas, OP_ACQ, rc);
        slot_later(s, 10, slot_next);
        return;
    }
    s->t0 = rlb_now_ns();
    if (cfg->rate > 0) {
        /* open loop: the latency counts from when the op was due */
        uint64_t lag = (uint64_t)(s->t0 > s->sched_ns ? s->t0 - s->sched_ns : 0);
        if (s->meas) {
            t->st.sched_started++;
            t->st.sched_late += lag > 1000000;
            if (lag > t->st.sched_max_lag_ns)
                t->st.sched_max_lag_ns = lag;
        }
        s->t0 = s->sched_ns;
    }
    if (cfg->workload == WL_CONTEND)
        rc = redlock_acquire_async(s->lock, cfg->ttl_ms, on_acquired, s);
    else
        rc = redlock_try_acquire_async(s->lock, cfg->ttl_ms, on_acquired, s);
    if (rc != 0) {
        rlb_count_fail(t, s->meas, OP_ACQ, rc);
        slot_later(s, 10, slot_next);
    }
}

/* ---- a slot's end, the --rate schedule --------------------------------------- */

void lib_slot_finish(lslot *s)
{
    if (!s->active)
        return;
    s->active = 0;
    s->lt->active--;
    if (--s->lt->lead->grp_active == 0)
        event_base_loopbreak(s->t->base);
}

static int64_t due_at(const lthread *lt, uint64_t k)
{
    return lt->sched0 + (int64_t)k * lt->period;
}

/* Start every op that is due on an idle slot; then wait for the next one
 * (when a slot is idle) or for a slot to come free (slot_next). */
void lib_dispatch_due(lthread *lt)
{
    int64_t now = rlb_now_ns();
    while (lt->nidle > 0 && due_at(lt, lt->next_k) <= now && !lt->tearing) {
        lslot *s = lt->idle[--lt->nidle];
        s->sched_ns = due_at(lt, lt->next_k++);
        lib_slot_start(s);
    }
    if (lt->nidle > 0 && !lt->tearing) {
        int64_t wait = due_at(lt, lt->next_k) - now;
        struct timeval tv = {(time_t)(wait / 1000000000), (suseconds_t)(wait % 1000000000 / 1000)};
        evtimer_add(lt->sched_ev, &tv);
    }
}

void lib_on_sched(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    lib_dispatch_due(arg);
}

static void slot_next(lslot *s)
{
    if (s->t->sh->cfg->rate <= 0) {
        lib_slot_start(s);
        return;
    }
    if (s->lt->tearing)
        return;
    if (atomic_load_explicit(&s->t->sh->stop, memory_order_relaxed)) {
        lib_slot_finish(s);
        return;
    }
    s->lt->idle[s->lt->nidle++] = s;
    lib_dispatch_due(s->lt);
}

void lib_count_missed(bench_thread *t)
{
    lthread *lt = t->impl;
    int64_t stop = rlb_stop_at(t->sh), first = due_at(lt, lt->next_k);
    if (t->sh->cfg->rate > 0 && first <= stop && atomic_load(&t->sh->measuring))
        t->st.sched_missed += (uint64_t)((stop - first) / lt->period) + 1;
}
