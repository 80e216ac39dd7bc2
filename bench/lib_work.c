/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* lib_work.c -- redlock-bench workloads driven through the library's
 * asynchronous API: one redlock_client per thread on that thread's own
 * event_base, `nslots` locks in flight at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "bench.h"
#include "redlock.h"

typedef struct lthread lthread;

typedef struct lslot {
    bench_thread *t;
    lthread *lt;
    long gidx;            /* global slot index */
    long own;             /* cycle/extend: how many keys this slot owns */
    redlock_lock *lock;
    long cur_key;
    uint64_t seq;
    int active;
    int extends_left;
    int held;             /* the lock is held (extend, contend hold) */
    int meas;             /* the current op started while measuring */
    int64_t t0;
    struct event *timer;  /* hold time, deferred restarts */
    void (*timer_fn)(struct lslot *);
} lslot;

struct lthread {
    redlock_client *cli;
    lslot *slots;
    int active;
    int tearing;
    struct event *tick;
    int64_t deadline_ns;  /* setup: connect deadline */
};

static void slot_start(lslot *s);

static const bench_cfg *cfg_of(const lslot *s)
{
    return s->t->sh->cfg;
}

static void slot_finish(lslot *s)
{
    if (!s->active)
        return;
    s->active = 0;
    if (--s->lt->active == 0)
        event_base_loopbreak(s->t->base);
}

static void on_slot_timer(evutil_socket_t fd, short what, void *arg)
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
        slot_start(s);
    else
        slot_later(s, 10, slot_start);
}

/* ---- release --------------------------------------------------------------- */

static void on_released(redlock_lock *lock, int status, void *arg)
{
    (void)lock;
    lslot *s = arg;
    if (s->lt->tearing)
        return;
    int64_t dt = rlb_now_ns() - s->t0;
    s->held = 0;
    if (status == 0) {
        rlb_record(s->t, s->meas, OP_REL, dt, 0);
        if (s->meas)
            s->t->st.cycles++;
        if (cfg_of(s)->workload == WL_CYCLE)
            rlb_count_op(s->t, s->meas);
    } else {
        rlb_count_fail(s->t, s->meas, OP_REL, status);
    }
    slot_start(s);
}

static void release_start(lslot *s)
{
    const bench_cfg *cfg = cfg_of(s);
    s->t0 = rlb_now_ns();
    if (cfg->workload == WL_CONTEND && s->t->sh->last_release) {
        atomic_store_explicit(&s->t->sh->last_releaser[s->cur_key], s->t->id,
                              memory_order_relaxed);
        atomic_store_explicit(&s->t->sh->last_release[s->cur_key], s->t0,
                              memory_order_release);
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
    lslot *s = arg;
    if (s->lt->tearing)
        return;
    int64_t dt = rlb_now_ns() - s->t0;
    rlb_count_op(s->t, s->meas);
    if (status == 0) {
        rlb_record(s->t, s->meas, OP_EXT, dt, 1);
        if (s->meas)
            s->t->st.extends_ok++;
        s->extends_left--;
        extend_next(s);
    } else {
        rlb_count_fail(s->t, s->meas, OP_EXT, status);
        release_start(s); /* probably lost; release whatever is left */
    }
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
    lslot *s = arg;
    if (s->lt->tearing)
        return;
    bench_thread *t = s->t;
    const bench_cfg *cfg = cfg_of(s);
    int64_t now = rlb_now_ns();
    int measuring = s->meas;
    int primary = cfg->workload != WL_EXTEND;
    if (measuring)
        t->st.tries++;
    if (cfg->workload == WL_TRY || cfg->workload == WL_CONTEND)
        rlb_count_op(t, s->meas);
    if (status != 0) {
        rlb_count_fail(t, s->meas, OP_ACQ, status);
        restart_after_failure(s, status);
        return;
    }
    rlb_record(t, s->meas, OP_ACQ, now - s->t0, primary);
    if (measuring)
        t->st.acq_ok++;
    s->held = 1;
    switch (cfg->workload) {
    case WL_CONTEND:
        if (t->sh->last_release) {
            int64_t rel = atomic_exchange_explicit(&t->sh->last_release[s->cur_key], 0,
                                                   memory_order_acquire);
            int who = atomic_load_explicit(&t->sh->last_releaser[s->cur_key],
                                           memory_order_relaxed);
            if (rel > 0 && measuring) {
                uint64_t d = (uint64_t)(now > rel ? now - rel : 0);
                hist_record(t->st.handoff, d);
                if (who != t->id)
                    hist_record(t->st.handoff_x, d);
            }
        }
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

static void slot_start(lslot *s)
{
    bench_thread *t = s->t;
    const bench_cfg *cfg = cfg_of(s);
    if (s->lt->tearing)
        return;
    if (!rlb_may_start(t, cfg->workload != WL_EXTEND, &s->meas)) {
        slot_finish(s);
        return;
    }
    long k = next_key(s);
    s->seq++;
    int rc = ensure_lock(s, k);
    if (rc != 0) {
        rlb_count_fail(t, s->meas, OP_ACQ, rc);
        slot_later(s, 10, slot_start);
        return;
    }
    s->t0 = rlb_now_ns();
    if (cfg->workload == WL_CONTEND)
        rc = redlock_acquire_async(s->lock, cfg->ttl_ms, on_acquired, s);
    else
        rc = redlock_try_acquire_async(s->lock, cfg->ttl_ms, on_acquired, s);
    if (rc != 0) {
        rlb_count_fail(t, s->meas, OP_ACQ, rc);
        slot_later(s, 10, slot_start);
    }
}

/* ---- thread plumbing --------------------------------------------------------- */

static void on_connect_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    bench_thread *t = arg;
    lthread *lt = t->impl;
    if (redlock_client_connected(lt->cli) >= redlock_client_nodes(lt->cli) ||
        rlb_now_ns() >= lt->deadline_ns)
        event_base_loopbreak(t->base);
}

static void on_run_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    bench_thread *t = arg;
    lthread *lt = t->impl;
    bench_shared *sh = t->sh;
    if (!atomic_load(&sh->stop))
        return;
    /* Operations still in flight get a grace period (a few node timeouts
     * plus the retry policy) before the loop is abandoned. */
    int64_t grace = 5000;
    const bench_cfg *cfg = sh->cfg;
    if (cfg->workload == WL_CONTEND) {
        int64_t rc = cfg->retry_count >= 0 ? cfg->retry_count : 10;
        int64_t rd = (cfg->retry_delay_ms >= 0 ? cfg->retry_delay_ms : 200) +
                     (cfg->retry_jitter_ms >= 0 ? cfg->retry_jitter_ms : 100);
        grace += (rc + 1) * rd + cfg->hold_ms;
    }
    if (lt->active == 0 || rlb_now_ns() > rlb_stop_at(sh) + grace * 1000000)
        event_base_loopbreak(t->base);
}

static int lib_setup(bench_thread *t, char *err, size_t errlen)
{
    const bench_cfg *cfg = t->sh->cfg;
    lthread *lt = calloc(1, sizeof(*lt));
    if (!lt) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    t->impl = lt;
    redlock_options o;
    redlock_options_init(&o);
    /* The bench measures the engine, usually on masters it has just
     * started: the restart guard would not count them for a ttl. */
    o.restart_guard_ms = 0;
    if (cfg->node_timeout_ms >= 0)
        o.node_timeout_ms = cfg->node_timeout_ms;
    if (cfg->retry_count >= 0)
        o.retry_count = cfg->retry_count;
    if (cfg->retry_delay_ms >= 0)
        o.retry_delay_ms = cfg->retry_delay_ms;
    if (cfg->retry_jitter_ms >= 0)
        o.retry_jitter_ms = cfg->retry_jitter_ms;
    char e[256] = "";
    int rc = redlock_client_new(&lt->cli, t->base, cfg->nodes, cfg->nnodes, &o, e, sizeof(e));
    if (rc != 0) {
        snprintf(err, errlen, "redlock_client_new: %s (%s)", e, redlock_strerror(rc));
        return -1;
    }
    /* Wait (up to 5 s) for every node, then require at least a quorum. */
    lt->deadline_ns = rlb_now_ns() + 5000000000LL;
    struct event *ev = event_new(t->base, -1, EV_PERSIST, on_connect_tick, t);
    struct timeval tv = {0, 2000};
    if (!ev) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    event_add(ev, &tv);
    event_base_dispatch(t->base);
    event_free(ev);
    size_t up = redlock_client_connected(lt->cli);
    if (up < redlock_client_quorum(lt->cli)) {
        snprintf(err, errlen, "only %zu of %zu masters connected after 5 s", up,
                 redlock_client_nodes(lt->cli));
        return -1;
    }
    if (up < cfg->nnodes)
        fprintf(stderr, "redlock-bench: client %d: only %zu of %zu masters up\n", t->id, up,
                cfg->nnodes);

    lt->slots = calloc((size_t)t->nslots, sizeof(lslot));
    if (!lt->slots) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (int i = 0; i < t->nslots; i++) {
        lslot *s = &lt->slots[i];
        s->t = t;
        s->lt = lt;
        s->gidx = t->slot_base + i;
        s->cur_key = -1;
        s->own = (cfg->keys - s->gidx + cfg->concurrency - 1) / cfg->concurrency;
        if (s->own < 1)
            s->own = 1;
        s->timer = evtimer_new(t->base, on_slot_timer, s);
        if (!s->timer) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
    }
    return 0;
}

static void lib_run(bench_thread *t)
{
    lthread *lt = t->impl;
    lt->tick = event_new(t->base, -1, EV_PERSIST, on_run_tick, t);
    struct timeval tv = {0, 50000};
    event_add(lt->tick, &tv);
    lt->active = t->nslots;
    for (int i = 0; i < t->nslots; i++) {
        lt->slots[i].active = 1;
        slot_start(&lt->slots[i]);
    }
    if (lt->active > 0)
        event_base_dispatch(t->base);
}

static void lib_teardown(bench_thread *t)
{
    lthread *lt = t->impl;
    if (!lt)
        return;
    lt->tearing = 1;
    if (lt->slots) {
        for (int i = 0; i < t->nslots; i++) {
            lslot *s = &lt->slots[i];
            if (s->timer)
                event_free(s->timer);
            redlock_lock_free(s->lock);
        }
    }
    if (lt->tick)
        event_free(lt->tick);
    redlock_client_free(lt->cli);
    free(lt->slots);
    free(lt);
    t->impl = NULL;
}

const bench_impl lib_impl = {lib_setup, lib_run, lib_teardown};
