/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* main.c -- the driver (docs/simulator.md): one run per seed.  A run makes
 * N simulated masters and W clients on one event_base (async API, no loop
 * thread); each client's worker acquires and releases one resource a
 * seeded number of times.  The driver lets libevent run what is ready
 * (EVLOOP_NONBLOCK) until nothing moves, then jumps virtual time to the
 * earliest of libevent's timers and the simulator's queue.  The checker:
 * exclusion (at most one worker holds the mutex at any virtual instant; a
 * hold runs from its acquire callback to its release, or to the end of the
 * validity the library reported).
 *
 *   redlock-sim --seed S [--trace]     one run: "trace S <hash>"
 *   redlock-sim --seeds K [--first S]  K runs: "K seeds, V violations"
 *                                      (--hashes: each run's "trace S <hash>")
 *   redlock-sim --selftest [--seed S]  S twice (same hash), S+1 (another);
 *                                      the checker finds the overlaps of holds
 *                                      counted to their release
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include "redlock.h"
#include "sim/sim.h"

#define NMASTERS 5
#define MAX_WORKERS 4
#define TTL_MS 1000
#define RUN_LIMIT_US ((int64_t)3600 * 1000000)    /* an hour of virtual time */

typedef struct worker {
    int idx;
    redlock_client *client;
    redlock_lock *lock;
    int rounds_left;
    int holding;
    int64_t held_until;
} worker;

typedef struct run {
    uint64_t hash;
    int violations;
    int failed;                 /* the run could not go on: a bug of its own */
    char why[300];
} run;

static worker workers[MAX_WORKERS];
static int nworkers, violations;
/* the checker's own test: a hold lasts until its release, whatever the
 * validity said (a checker that finds nothing then is blind) */
static int hold_to_release;
/* the masters' clocks run within this many ppm of the client's: 2000
 * (0.2 %) is within the default drift_factor (1 %); more explores past it */
static int drift_ppm = 2000;
static int clock_guard_off;         /* the clients' clock guard off */
static int restart_guard_off;       /* the clients' restart guard off */
static struct event_base *base;

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
    int64_t v = status == REDLOCK_OK ? redlock_lock_validity(lock) : 0;

    sim_trace("w%d acquired: %s validity %lld ms", w->idx, redlock_strerror(status), (long long)v);
    if (status != REDLOCK_OK || v <= 0) {
        next_round(w);
        return;
    }
    for (int i = 0; i < nworkers; i++)
        if (workers[i].holding && workers[i].held_until > sim_now_us) {
            violations++;
            sim_trace("VIOLATION: w%d acquired while w%d holds for %lld us more", w->idx, i,
                      (long long)(workers[i].held_until - sim_now_us));
        }
    w->holding = 1;
    w->held_until = hold_to_release ? INT64_MAX : sim_now_us + v * 1000;
    /* mostly within the validity; now and then past it (the lock expires) */
    int64_t hold = sim_rand(SIM_RNG_WORK) % 10 ? sim_rand_range(SIM_RNG_WORK, 0, v * 800)
                                                : sim_rand_range(SIM_RNG_WORK, v * 1000, v * 1000 + 500000);
    sim_at(sim_now_us + hold, step, w, ACT_RELEASE, NULL);
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
        if ((rc = redlock_acquire_async(w->lock, TTL_MS, acquired, w)) != REDLOCK_OK) {
            sim_trace("w%d acquire refused: %s", w->idx, redlock_strerror(rc));
            next_round(w);
        }
        return;
    }
    /* the hold ends when the release starts (validity is 0 from then) */
    w->holding = 0;
    sim_trace("w%d release", w->idx);
    if ((rc = redlock_release_async(w->lock, released, w)) != REDLOCK_OK) {
        sim_trace("w%d release refused: %s", w->idx, redlock_strerror(rc));
        next_round(w);
    }
}

enum { FAULT_RESET, FAULT_STALL, FAULT_RESTART };

static void fault(void *ctx, long long kind, sim_buf *data)
{
    (void)ctx, (void)data;
    if (kind == FAULT_RESET)
        sim_net_reset(sim_rand(SIM_RNG_FAULT));
    else if (kind == FAULT_STALL)
        sim_net_stall(sim_rand(SIM_RNG_FAULT), sim_rand_range(SIM_RNG_FAULT, 50000, 2000000));
    else    /* a master that keeps its keys (appendonly) keeps them across it */
        sim_net_restart((size_t)sim_rand_range(SIM_RNG_FAULT, 0, NMASTERS - 1),
                        (int)(intptr_t)ctx);
}

/* ---- the loop ------------------------------------------------------------------ */

static int earliest(const struct event_base *b, const struct event *ev, void *arg)
{
    int64_t *t = arg;
    struct timeval tv;
    (void)b;
    if (event_pending((struct event *)ev, EV_TIMEOUT, &tv)) {
        /* event_pending gives it on the wall clock (world.c's epoch) */
        int64_t us = (int64_t)tv.tv_sec * 1000000 + tv.tv_usec - SIM_EPOCH_US;
        if (us < *t)
            *t = us;
    }
    return 0;
}

static int64_t next_timer(void)
{
    int64_t t = INT64_MAX;
    event_base_foreach_event(base, earliest, &t);
    return t;
}

/* Run what is ready now until nothing moves: callbacks, the bytes the
 * library wrote (into the queue), timers due now. */
static void settle(void)
{
    for (int i = 0; i < 64; i++) {
        event_base_loop(base, EVLOOP_NONBLOCK);
        if (!sim_net_pump() && !event_base_get_num_events(base, EVENT_BASE_COUNT_ACTIVE) &&
            next_timer() > sim_now_us)
            return;
    }
    sim_trace("settle: still moving after 64 turns");
}

static int workers_done(void)
{
    for (int i = 0; i < nworkers; i++)
        if (workers[i].rounds_left > 0)
            return 0;
    return 1;
}

static void run_one(uint64_t seed, int verbose, run *r)
{
    static const char *const nodes[NMASTERS] = { "m0:6379", "m1:6379", "m2:6379", "m3:6379",
                                                 "m4:6379" };
    sim_master *masters[NMASTERS];
    struct event_config *cfg;
    char err[256];

    memset(r, 0, sizeof *r);
    sim_world_reset(seed);
    sim_trace_reset(verbose);
    violations = 0;
    /* durable masters (appendonly, fsync always) keep their keys across a
     * restart and count at once after it; the others lose them and the
     * restart guard keeps them out for a ttl */
    int durable = (int)(sim_rand(SIM_RNG_FAULT) % 2);
    for (int i = 0; i < NMASTERS; i++) {
        char name[8];
        sim_master_config mc = { name, NULL, durable ? "yes" : "no", "noeviction",
                                 seed * 131 + (uint64_t)i };
        snprintf(name, sizeof name, "m%d", i);
        masters[i] = sim_master_new(&mc);
    }
    /* poll, not epoll: readiness in the order of the descriptors */
    cfg = event_config_new();
    event_config_avoid_method(cfg, "epoll");
    base = event_base_new_with_config(cfg);
    event_config_free(cfg);
    sim_net_init(base, masters, NMASTERS, drift_ppm);

    nworkers = (int)sim_rand_range(SIM_RNG_WORK, 2, MAX_WORKERS);
    for (int i = 0; i < nworkers; i++) {
        worker *w = &workers[i];
        redlock_options opts;
        memset(w, 0, sizeof *w);
        w->idx = i;
        w->rounds_left = (int)sim_rand_range(SIM_RNG_WORK, 2, 10);
        redlock_options_init(&opts);
        opts.wake = 0;      /* the stub master runs no waiters' scripts */
        opts.node_cb = node_event;
        opts.node_privdata = w;
        if (clock_guard_off)
            opts.clock_guard_ms = 0;
        if (restart_guard_off)
            opts.restart_guard_ms = 0;
        if (redlock_client_new(&w->client, base, nodes, NMASTERS, &opts, err, sizeof err) != 0 ||
            redlock_lock_new(&w->lock, w->client, "res", 3) != 0) {
            snprintf(r->why, sizeof r->why, "client %d: %s", i, err);
            r->failed = 1;
            break;
        }
        sim_at(sim_now_us + sim_rand_range(SIM_RNG_WORK, 0, 50000), step, w, ACT_ACQUIRE, NULL);
    }
    /* faults in the first seconds: connections reset, connections stalled
     * (past node_timeout_ms, often), a master restarted */
    for (int i = (int)sim_rand_range(SIM_RNG_FAULT, 0, 3); i > 0; i--)
        sim_at(SIM_START_US + sim_rand_range(SIM_RNG_FAULT, 0, 5000000), fault, NULL, FAULT_RESET,
               NULL);
    for (int i = (int)sim_rand_range(SIM_RNG_FAULT, 0, 2); i > 0; i--)
        sim_at(SIM_START_US + sim_rand_range(SIM_RNG_FAULT, 0, 5000000), fault, NULL, FAULT_STALL,
               NULL);
    if (sim_rand(SIM_RNG_FAULT) % 2)
        sim_at(SIM_START_US + sim_rand_range(SIM_RNG_FAULT, 0, 5000000), fault,
               (void *)(intptr_t)durable, FAULT_RESTART, NULL);
    sim_trace("run seed %" PRIu64 ": %d workers", seed, nworkers);

    while (!r->failed) {
        int64_t t;
        settle();
        if (sim_net_failure()) {
            snprintf(r->why, sizeof r->why, "%s", sim_net_failure());
            r->failed = 1;
            break;
        }
        if (workers_done())
            break;
        t = sim_next_at();
        int64_t tt = next_timer();
        if (tt < t)
            t = tt;
        if (t == INT64_MAX || t - SIM_START_US > RUN_LIMIT_US) {
            snprintf(r->why, sizeof r->why, "stuck: nothing left to happen, workers not done");
            r->failed = 1;
            break;
        }
        if (t > sim_now_us)
            sim_now_us = t;
        sim_run_due();
    }
    for (int i = 0; i < nworkers; i++) {
        redlock_lock_free(workers[i].lock);
        redlock_client_free(workers[i].client);
    }
    sim_trace("end: %d violations", violations);
    sim_net_close_all();
    sim_queue_clear();
    event_base_free(base);
    for (int i = 0; i < NMASTERS; i++)
        sim_master_free(masters[i]);
    r->violations = violations;
    r->hash = sim_trace_hash();
}

static int report_failed(uint64_t seed, const run *r)
{
    if (r->failed)
        fprintf(stderr, "seed %" PRIu64 ": run failed: %s\n", seed, r->why);
    return r->failed;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1, first = 1, nseeds = 0;
    int verbose = 0, selftest = 0, hashes = 0;
    char opts[128] = "";     /* the options a replay needs */
    run r;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            nseeds = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--first") && i + 1 < argc)
            first = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--drift-ppm") && i + 1 < argc) {
            drift_ppm = atoi(argv[++i]);
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --drift-ppm %d", drift_ppm);
        } else if (!strcmp(argv[i], "--restart-guard-off")) {
            restart_guard_off = 1;
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --restart-guard-off");
        } else if (!strcmp(argv[i], "--clock-guard-off")) {
            clock_guard_off = 1;
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --clock-guard-off");
        }
        else if (!strcmp(argv[i], "--trace"))
            verbose = 1;
        else if (!strcmp(argv[i], "--hashes"))
            hashes = 1;
        else if (!strcmp(argv[i], "--selftest"))
            selftest = 1;
        else {
            fprintf(stderr, "usage: %s [--seed S [--trace]] [--seeds K [--first S] [--hashes]] [--selftest] "
                    "[--drift-ppm P] [--clock-guard-off] [--restart-guard-off]\n", argv[0]);
            return 2;
        }
    }
    if (selftest) {
        run a, b, c;
        run_one(seed, 0, &a);
        run_one(seed, 0, &b);
        run_one(seed + 1, 0, &c);
        printf("seed %" PRIu64 ": %016" PRIx64 " then %016" PRIx64 "; seed %" PRIu64 ": %016" PRIx64
               "\n", seed, a.hash, b.hash, seed + 1, c.hash);
        if (report_failed(seed, &a) | report_failed(seed, &b) | report_failed(seed + 1, &c))
            return 1;
        if (a.hash != b.hash || a.hash == c.hash) {
            printf("selftest FAILED: %s\n", a.hash != b.hash ? "one seed, two traces"
                                                               : "two seeds, one trace");
            return 1;
        }
        hold_to_release = 1;
        for (uint64_t s = seed; s < seed + 50 && !a.violations; s++) {
            run_one(s, 0, &a);
            if (a.violations)
                printf("checker: holds counted to their release overlap in seed %" PRIu64 "\n", s);
        }
        hold_to_release = 0;
        if (!a.violations) {
            printf("selftest FAILED: the checker saw no overlap in 50 seeds counting holds to "
                   "their release\n");
            return 1;
        }
        printf("selftest passed\n");
        return 0;
    }
    if (nseeds) {
        uint64_t nviol = 0, nfailed = 0, all = 0xcbf29ce484222325ULL;
        for (uint64_t s = first; s < first + nseeds; s++) {
            run_one(s, 0, &r);
            all = (all ^ r.hash) * 0x100000001b3ULL;     /* the runs' hashes, in order */
            if (hashes)
                printf("trace %" PRIu64 " %016" PRIx64 "\n", s, r.hash);
            nfailed += (uint64_t)report_failed(s, &r);
            if (r.violations)
                printf("seed %" PRIu64 ": %d violations (replay: make sim-replay SEED=%" PRIu64
                       "%s%s%s)\n", s, r.violations, s, *opts ? " SIM_ARGS=\"" : "", opts + !!*opts,
                       *opts ? "\"" : "");
            nviol += (uint64_t)r.violations;
        }
        if (nfailed)
            printf("%" PRIu64 " runs failed\n", nfailed);
        printf("seeds %" PRIu64 "..%" PRIu64 "%s: traces %016" PRIx64 "\n", first,
               first + nseeds - 1, opts, all);
        printf("%" PRIu64 " seeds, %" PRIu64 " violations\n", nseeds, nviol);
        return nviol || nfailed ? 1 : 0;
    }
    run_one(seed, verbose, &r);
    printf("trace %" PRIu64 " %016" PRIx64 "\n", seed, r.hash);
    if (r.violations)
        printf("%d violations\n", r.violations);
    return report_failed(seed, &r) || r.violations ? 1 : 0;
}
