/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* work.c -- the workload.  W clients (2 to 4, seeded) on the driver's
 * event_base, each with one handle on one resource: acquire (the retry
 * policy's), hold a seeded time (one hold in ten outlasts its validity),
 * release; 2 to 10 rounds each.  Each acquire is told to the checkers
 * (check.c): exclusion, a hold running from its acquire callback to the
 * start of its release or to the end of the validity the library
 * reported, whichever comes first; and that validity backed by a quorum
 * of masters' keys.
 */
#include <stdio.h>
#include <string.h>
#include "redlock.h"
#include "sim/check.h"
#include "sim/sim.h"

#define MAX_WORKERS 4
#define TTL_MS 1000

typedef struct worker {
    int idx;
    redlock_client *client;
    redlock_lock *lock;
    int rounds_left;
    unsigned long hold;         /* the current hold's id (check.c), 0 none */
    int64_t started;            /* when its acquire was asked for */
} worker;

sim_settings sim_set = { 0, 2000, 0, 0 };

static worker workers[MAX_WORKERS];
static int nworkers, violations;
static unsigned long holds;
static sim_check *chk;

/* The masters that keep w's key, with its value, at least until `until`
 * (true time, on their own clocks); a master that lost its keys since the
 * attempt started (a restart without them) counts: the restart guard, not
 * this hold, answers for it. */
static size_t granted(const worker *w, int64_t since, int64_t until)
{
    size_t vlen, n = 0;
    const char *v = redlock_lock_value(w->lock, &vlen);
    sim_buf got = { 0 };

    for (size_t i = 0; i < sim_net_masters(); i++) {
        int64_t pttl = 0;
        got.len = 0;
        if (sim_net_lost_keys_us(i) >= since)
            n++;
        else if (sim_master_key(sim_net_master(i), "res", 3, sim_net_master_ms(i), &got, &pttl) == 1 &&
                 got.len == vlen && memcmp(got.p, v, vlen) == 0 &&
                 (pttl < 0 || sim_now_us + sim_net_true_us(i, pttl) >= until))
            n++;
    }
    sim_buf_free(&got);
    return n;
}

static void violation(void)
{
    violations++;
    sim_trace("VIOLATION: %s", sim_check_why(chk));
}

static void step(void *ctx, long long action, sim_buf *data);
enum { ACT_ACQUIRE, ACT_RELEASE };

static void next_round(worker *w)
{
    if (--w->rounds_left > 0)
        sim_at(sim_now_us + sim_rand_range(SIM_RNG_WORK, 0, 100000), step, w, ACT_ACQUIRE, NULL);
    else
        sim_trace("w%d done", w->idx);
}

static void acquired(redlock_lock *lock, int status, void *privdata)
{
    worker *w = privdata;
    int64_t v = status == REDLOCK_OK ? redlock_lock_validity(lock) : 0, hold;

    sim_trace("w%d acquired: %s validity %lld ms", w->idx, redlock_strerror(status), (long long)v);
    if (status != REDLOCK_OK || v <= 0) {
        next_round(w);
        return;
    }
    int64_t until = sim_set.hold_to_release ? INT64_MAX : sim_now_us + v * 1000;
    w->hold = ++holds;
    if (sim_check_hold(chk, "res", SIM_HOLD_MUTEX, 0, w->hold, sim_now_us, until) != 0)
        violation();
    if (!sim_set.hold_to_release &&
        sim_check_backed(chk, "res", w->hold, sim_now_us, until,
                         granted(w, w->started, until), sim_net_masters() / 2 + 1) != 0)
        violation();
    /* mostly within the validity; now and then past it (the lock expires) */
    hold = sim_rand(SIM_RNG_WORK) % 10 ? sim_rand_range(SIM_RNG_WORK, 0, v * 800)
                                       : sim_rand_range(SIM_RNG_WORK, v * 1000, v * 1000 + 500000);
    sim_at(sim_now_us + hold, step, w, ACT_RELEASE, NULL);
}

/* The library's notice that the hold ended early: the holder stops. */
static void lost(redlock_lock *lock, int reason, void *privdata)
{
    worker *w = privdata;
    (void)lock;
    sim_trace("w%d lost: reason %d", w->idx, reason);
    if (!sim_set.hold_to_release)       /* (the selftest's holder ignores it) */
        sim_check_end(chk, "res", SIM_HOLD_MUTEX, w->hold);
}

static void released(redlock_lock *lock, int status, void *privdata)
{
    worker *w = privdata;
    (void)lock;
    sim_trace("w%d released: %s", w->idx, redlock_strerror(status));
    next_round(w);
}

static void node_event(redlock_client *client, size_t node, int event, const char *detail,
                       void *privdata)
{
    worker *w = privdata;
    (void)client;
    sim_trace("w%d node m%zu event %d: %s", w->idx, node, event, detail);
}

static void step(void *ctx, long long action, sim_buf *data)
{
    worker *w = ctx;
    int rc;
    (void)data;

    if (action == ACT_ACQUIRE) {
        sim_trace("w%d acquire", w->idx);
        w->started = sim_now_us;
        if ((rc = redlock_acquire_async(w->lock, TTL_MS, acquired, w)) != REDLOCK_OK) {
            sim_trace("w%d acquire refused: %s", w->idx, redlock_strerror(rc));
            next_round(w);
        }
        return;
    }
    /* the hold ends when the release starts (validity is 0 from then) */
    sim_check_end(chk, "res", SIM_HOLD_MUTEX, w->hold);
    w->hold = 0;
    sim_trace("w%d release", w->idx);
    if ((rc = redlock_release_async(w->lock, released, w)) != REDLOCK_OK) {
        sim_trace("w%d release refused: %s", w->idx, redlock_strerror(rc));
        next_round(w);
    }
}

int sim_work_start(struct event_base *base, const char *const *nodes, size_t n, char *why,
                   size_t whylen)
{
    char err[256] = "";

    violations = 0;
    holds = 0;
    sim_check_free(chk);
    if (!(chk = sim_check_new())) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    nworkers = (int)sim_rand_range(SIM_RNG_WORK, 2, MAX_WORKERS);
    memset(workers, 0, sizeof workers);
    for (int i = 0; i < nworkers; i++) {
        worker *w = &workers[i];
        redlock_options opts;
        w->idx = i;
        w->rounds_left = (int)sim_rand_range(SIM_RNG_WORK, 2, 10);
        redlock_options_init(&opts);
        opts.wake = 0;      /* the stub master runs no waiters' scripts */
        opts.node_cb = node_event;
        opts.node_privdata = w;
        if (sim_set.clock_guard_off)
            opts.clock_guard_ms = 0;
        if (sim_set.restart_guard_off)
            opts.restart_guard_ms = 0;
        if (redlock_client_new(&w->client, base, nodes, n, &opts, err, sizeof err) != 0 ||
            redlock_lock_new(&w->lock, w->client, "res", 3) != 0 ||
            redlock_lock_on_lost(w->lock, lost, w) != 0) {
            snprintf(why, whylen, "client %d: %s", i, err);
            return -1;
        }
        sim_at(sim_now_us + sim_rand_range(SIM_RNG_WORK, 0, 50000), step, w, ACT_ACQUIRE, NULL);
    }
    return nworkers;
}

int sim_work_done(void)
{
    for (int i = 0; i < nworkers; i++)
        if (workers[i].rounds_left > 0)
            return 0;
    return 1;
}

int sim_work_stop(void)
{
    for (int i = 0; i < nworkers; i++) {
        redlock_lock_free(workers[i].lock);
        redlock_client_free(workers[i].client);
    }
    nworkers = 0;
    sim_check_free(chk);
    chk = NULL;
    return violations;
}
