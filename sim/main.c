/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* main.c -- the driver (docs/simulator.md): one run per seed.  A run makes
 * N simulated masters, the workload's clients on one event_base (async
 * API, no loop thread; work.c) and the faults' schedule (fault.c).  The
 * driver lets libevent run what is ready (EVLOOP_NONBLOCK) until nothing
 * moves, then jumps virtual time to the earliest of libevent's timers and
 * the simulator's queue.
 *
 *   redlock-sim --seed S [--trace]     one run: "trace S <hash>"
 *   redlock-sim --seeds K [--first S]  K runs: "K seeds, V violations"
 *                                      (--hashes: each run's "trace S <hash>";
 *                                      --jobs J: in J processes, one report)
 *   redlock-sim --selftest [--seed S]  S twice (same hash), S+1 (another);
 *                                      the checker finds the overlaps of holds
 *                                      counted to their release
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/event_struct.h>
#include "redlock.h"
#include "floor/mutant.h"
#include "sim/sim.h"

#define NMASTERS 5
#define RUN_LIMIT_US ((int64_t)3600 * 1000000)    /* an hour of virtual time */

typedef struct run {
    uint64_t hash;
    int violations;
    int failed;                 /* the run could not go on: a bug of its own */
    char why[300];
} run;

static struct event_base *base;

/* ---- the loop ------------------------------------------------------------------ */

/* An event's timeout, read from the event (libevent's event_struct.h):
 * event_pending would give the same, on the wall clock, at five times the
 * cost, and this runs for every event at every step.  The due time is on
 * libevent's monotonic clock, which is the virtual time itself. */
static int earliest(const struct event_base *b, const struct event *ev, void *arg)
{
    int64_t *t = arg;
    (void)b;
    if (ev->ev_evcallback.evcb_flags & EVLIST_TIMEOUT) {
        /* (a common timeout's queue rides in tv_usec's high bits) */
        int64_t us = (int64_t)ev->ev_timeout.tv_sec * 1000000 + (ev->ev_timeout.tv_usec & 0xfffff);
        if (us < *t)
            *t = us;
    }
    return 0;
}

/* The earliest of libevent's timers, read again only when the library
 * or libevent may have run since (sim_loop_touched): at about half the
 * steps only the masters and the streams moved. */
static int64_t timer_at;
static int timer_known;

static int64_t next_timer(void)
{
    if (!timer_known || sim_loop_touched) {
        timer_at = INT64_MAX;
        event_base_foreach_event(base, earliest, &timer_at);
        timer_known = 1;
        sim_loop_touched = 0;
    }
    return timer_at;
}

/* Run what is ready now until nothing moves: callbacks, the bytes the
 * library wrote (into the queue), timers due now.  event_base_loop with
 * EVLOOP_NONBLOCK itself runs turns until one activates nothing: no timer
 * is due when it returns (the turn's timer pass found none). */
static void settle(void)
{
    for (int i = 0; i < 64; i++) {
        /* (a timer due or an event active now: callbacks run, after the
         * loop's first poll) */
        int runs = !timer_known || timer_at <= sim_now_us ||
                   event_base_get_num_events(base, EVENT_BASE_COUNT_ACTIVE);
        if (runs)
            sim_loop_touched = 1;
        sim_poll_hold = runs;
        event_base_loop(base, EVLOOP_NONBLOCK);
        sim_poll_hold = 0;
        if (!sim_net_pump() && !event_base_get_num_events(base, EVENT_BASE_COUNT_ACTIVE))
            return;
    }
    sim_trace("settle: still moving after 64 turns");
}

static void run_one(uint64_t seed, int verbose, run *r)
{
    static const char *const nodes[NMASTERS] = { "m0:6379", "m1:6379", "m2:6379", "m3:6379",
                                                 "m4:6379" };
    sim_master *masters[SIM_MAX_MASTERS];
    const char *addrs[SIM_MAX_MASTERS];
    size_t nnodes = NMASTERS, nvotes = NMASTERS;
    struct event_config *cfg;
    int durable, nworkers, violations;
    long same_instant = 0;

    memset(r, 0, sizeof *r);
    sim_world_reset(seed);
    sim_trace_reset(verbose);
    /* durable masters (appendonly, fsync always) keep their keys across a
     * restart and count at once after it; the others lose them and the
     * restart guard keeps them out for a ttl */
    durable = (int)(sim_rand(SIM_RNG_FAULT) % 2);
    if (sim_set.cluster)
        nnodes = sim_cw_make(seed, durable, masters, addrs, &nvotes);
    for (int i = 0; i < NMASTERS && !sim_set.cluster; i++) {
        char name[8];
        sim_master_config mc = { .name = name,
                                 .appendonly = durable ? "yes" : "no",
                                 .appendfsync = durable ? "always" : "everysec",
                                 .maxmemory_policy = "noeviction",
                                 .save = durable ? "3600 1" : "",
                                 .run_id_seed = seed * 131 + (uint64_t)i,
                                 .port = 6379 };
        snprintf(name, sizeof name, "m%d", i);
        masters[i] = sim_master_new(&mc);
    }
    /* poll, not epoll: readiness in the order of the descriptors */
    cfg = event_config_new();
    event_config_avoid_method(cfg, "epoll");
    base = event_base_new_with_config(cfg);
    event_config_free(cfg);
    timer_known = 0;
    sim_net_init(base, masters, nnodes, sim_set.drift_ppm);
    if ((nworkers = sim_work_start(base, sim_set.cluster ? addrs : nodes, nvotes, r->why,
                                   sizeof r->why)) < 0)
        r->failed = 1;
    sim_faults_schedule(nnodes, durable);
    if (sim_set.cluster)
        sim_cw_faults();
    sim_trace("run seed %" PRIu64 ": %d workers", seed, nworkers);

    while (!r->failed) {
        int64_t t;
        settle();
        if (sim_net_failure()) {
            snprintf(r->why, sizeof r->why, "%s", sim_net_failure());
            r->failed = 1;
            break;
        }
        if (sim_work_done())
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
        /* Code takes time: a loop that keeps finding work due at one
         * instant (a timer shorter than libevent's cached time is stale,
         * up to 1 ms, re-armed by what it runs) moves the clock on, after
         * 100 rounds, by 10 us a round, as the real one moves while it
         * spins. */
        if (t <= sim_now_us && ++same_instant > 100) {
            if (same_instant == 101)
                sim_trace("still busy at one instant: the clock moves on");
            t = sim_now_us + 10;
        } else if (t > sim_now_us) {
            same_instant = 0;
        }
        if (t > sim_now_us)
            sim_now_us = t;
        sim_run_due();
    }
    violations = sim_work_stop();
    sim_trace("end: %d violations", violations);
    sim_net_close_all();
    sim_queue_clear();
    event_base_free(base);
    sim_cw_free();
    for (size_t i = 0; i < nnodes; i++)
        sim_master_free(masters[i]);
    r->violations = violations;
    r->hash = sim_trace_hash();
}

/* --jobs J: seed first+i runs in process i % J, which writes its result
 * into a shared array; the parent reads the results in the order of the
 * seeds, as if it had run them itself (the same lines, the same hash of
 * the hashes: a run owes nothing to the runs before it in its process). */
typedef struct result {
    uint64_t hash;
    int violations, failed, done;
} result;

static result *run_jobs(uint64_t first, uint64_t nseeds, int jobs)
{
    result *res = mmap(NULL, nseeds * sizeof *res, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
                       -1, 0);
    if (res == MAP_FAILED)
        return NULL;
    fflush(stdout);
    for (int j = 0; j < jobs; j++) {
        pid_t pid = fork();
        if (pid < 0)
            break;      /* the seeds of the jobs not started count as failed */
        if (pid == 0) {
            run r;
            for (uint64_t i = (uint64_t)j; i < nseeds; i += (uint64_t)jobs) {
                run_one(first + i, 0, &r);
                if (r.failed)
                    fprintf(stderr, "seed %" PRIu64 ": run failed: %s\n", first + i, r.why);
                res[i].hash = r.hash;
                res[i].violations = r.violations;
                res[i].failed = r.failed;
                res[i].done = 1;
            }
            fflush(NULL);
            _exit(0);
        }
    }
    while (wait(NULL) > 0)
        ;
    return res;
}

static int report_failed(uint64_t seed, const run *r)
{
    if (r->failed)
        fprintf(stderr, "seed %" PRIu64 ": run failed: %s\n", seed, r->why);
    return r->failed;
}

/* "all", or names separated by commas: sim_set.kinds (and wake: the
 * kinds' waiters' scripts are the simulated master's) */
static int parse_kinds(const char *arg)
{
    unsigned set = 0;

    if (!strcmp(arg, "all")) {
        set = SIM_KIND_ALL;
    } else {
        for (const char *p = arg; *p;) {
            size_t len = strcspn(p, ",");
            int k;
            for (k = 0; k < SIM_KINDS; k++)
                if (strlen(sim_kind_name(k)) == len && !strncmp(p, sim_kind_name(k), len))
                    break;
            if (k == SIM_KINDS)
                return -1;
            set |= 1u << k;
            p += len + (p[len] == ',');
        }
    }
    sim_set.kinds = set;
    return set ? 0 : -1;
}

int main(int argc, char **argv)
{
    uint64_t seed = 1, first = 1, nseeds = 0;
    int verbose = 0, selftest = 0, hashes = 0, until_violation = 0, jobs = 1;
    char opts[128] = "";     /* the options a replay needs */
    run r;

    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            seed = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--seeds") && i + 1 < argc)
            nseeds = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
            jobs = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--first") && i + 1 < argc)
            first = strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--drift-ppm") && i + 1 < argc) {
            sim_set.drift_ppm = atoi(argv[++i]);
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --drift-ppm %d", sim_set.drift_ppm);
        } else if (!strcmp(argv[i], "--restart-guard-off")) {
            sim_set.restart_guard_off = 1;
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --restart-guard-off");
        } else if (!strcmp(argv[i], "--clock-guard-off")) {
            sim_set.clock_guard_off = 1;
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --clock-guard-off");
        } else if (!strcmp(argv[i], "--jumps")) {
            sim_set.jumps = 1;
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --jumps");
        } else if (!strcmp(argv[i], "--mutant") && i + 1 < argc) {
#ifdef REDLOCK_MUTANTS
            if ((redlock__mutant = redlock__mutant_by_name(argv[++i])) <= 0) {
                fprintf(stderr, "--mutant: no mutant %s (floor/mutant.h)\n", argv[i]);
                return 2;
            }
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --mutant %s", argv[i]);
#else
            fprintf(stderr, "--mutant: this build has no mutants (make sim-mutants builds one)\n");
            return 2;
#endif
        } else if (!strcmp(argv[i], "--cluster")) {
            sim_set.cluster = 1;
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --cluster");
        } else if (!strcmp(argv[i], "--promises-only")) {
            sim_set.promises_only = 1;
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --promises-only");
        } else if (!strcmp(argv[i], "--first-violation")) {
            until_violation = 1;
        } else if (!strcmp(argv[i], "--kinds") && i + 1 < argc) {
            if (parse_kinds(argv[++i]) != 0) {
                fprintf(stderr, "--kinds: all, or a list of mutex,fenced,reentrant,read,write,"
                        "multi,semaphore\n");
                return 2;
            }
            snprintf(opts + strlen(opts), sizeof opts - strlen(opts), " --kinds %s", argv[i]);
        } else if (!strcmp(argv[i], "--trace"))
            verbose = 1;
        else if (!strcmp(argv[i], "--hashes"))
            hashes = 1;
        else if (!strcmp(argv[i], "--selftest"))
            selftest = 1;
        else {
            fprintf(stderr, "usage: %s [--seed S [--trace]] [--seeds K [--first S] [--hashes]] [--selftest] "
                    "[--drift-ppm P] [--clock-guard-off] [--restart-guard-off] [--jumps] [--kinds K,K]\n"
                    "       [--promises-only] [--cluster] [--mutant NAME] [--first-violation]\n"
                    "       [--jobs J]\n", argv[0]);
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
        sim_set.hold_to_release = 1;
        for (uint64_t s = seed; s < seed + 50 && !a.violations; s++) {
            run_one(s, 0, &a);
            if (a.violations)
                printf("checker: holds counted to their release overlap in seed %" PRIu64 "\n", s);
        }
        sim_set.hold_to_release = 0;
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
        /* (--first-violation stops at the first: one process) */
        result *res = jobs > 1 && !until_violation ? run_jobs(first, nseeds, jobs) : NULL;
        for (uint64_t s = first; s < first + nseeds; s++) {
            if (res) {
                result *x = &res[s - first];
                memset(&r, 0, sizeof r);
                r.hash = x->hash;
                r.violations = x->violations;
                r.failed = x->failed || !x->done;
                if (!x->done)
                    snprintf(r.why, sizeof r.why, "its process ended before it");
                else if (r.failed)
                    nfailed++;      /* (its process told why) */
            } else {
                run_one(s, 0, &r);
            }
            all = (all ^ r.hash) * 0x100000001b3ULL;     /* the runs' hashes, in order */
            if (hashes)
                printf("trace %" PRIu64 " %016" PRIx64 "\n", s, r.hash);
            if (!res || !res[s - first].failed)
                nfailed += (uint64_t)report_failed(s, &r);
            if (r.violations)
                printf("seed %" PRIu64 ": %d violations (replay: make sim-replay SEED=%" PRIu64
                       "%s%s%s)\n", s, r.violations, s, *opts ? " SIM_ARGS=\"" : "", opts + !!*opts,
                       *opts ? "\"" : "");
            nviol += (uint64_t)r.violations;
            if (until_violation && r.violations) {
                printf("first violation at seed %" PRIu64 ", after %" PRIu64 " seeds\n", s,
                       s - first + 1);
                nseeds = s - first + 1;
                break;
            }
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
