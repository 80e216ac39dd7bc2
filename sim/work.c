/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* work.c -- the workload.  W workers (2 to 6, seeded), each with a client
 * of its own on the driver's event_base and one handle of a kind drawn
 * from those enabled (sim_set.kinds): a mutex, fenced or not, a re-entrant
 * lock, a read or a write handle, a multi-resource lock, a semaphore
 * (P drawn once a run).  Each round: an acquire (the retry policy's, one
 * try, or with a deadline), cancelled now and then; while held, an extend
 * now and then, or the watchdog; a hold of a seeded time (one in ten
 * outlasts its validity), then the release.  8 to 24 rounds a worker.
 *
 * What each callback says goes to the checkers (check.c): exclusion for
 * each kind; each fenced token above the resource's last; a validity
 * backed by a quorum of masters' keys; and, a while after an acquire
 * failed or was cancelled, none of its keys left on a master that had no
 * fault since it began.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "redlock.h"
#include "sim/check.h"
#include "sim/sim.h"

#define MAX_WORKERS 6
#define LEFT_US 1500000         /* a failed attempt's keys gone within this */
#define LOOK_US 50000           /* a watched hold's validity read this often */

enum { ACT_ACQUIRE, ACT_CANCEL, ACT_EXTEND, ACT_RELEASE, ACT_LOOK, ACT_LEFT, ACT_JUMPED,
       ACT_DEADLINE, ACT_PEEK };

typedef struct worker {
    int idx, kind;
    redlock_client *client;
    redlock_lock *lock;
    int rounds_left;
    int64_t ttl_ms;
    int pending;                /* an acquire in flight */
    unsigned long hold;         /* the current hold's id (check.c), 0 none */
    int64_t started;            /* when its acquire was asked for */
    int64_t deadline;           /* its deadline (acquire_for), 0 none */
    uint64_t attempts_by_deadline;  /* the client's attempts when it passed
                                 * (UINT64_MAX: not yet) */
    size_t jumped;              /* the master whose clock jump it saw last */
    unsigned round;             /* so that a late event of an old round is dropped */
} worker;

/* a failed acquire's value, looked for a while later */
typedef struct leftover {
    worker *w;
    int64_t started;
    size_t vlen;
    char value[64];
} leftover;

sim_settings sim_set = { 0, 2000, 0, 0, 0, SIM_KIND_ALL, 1, 0, 0 };

static worker workers[MAX_WORKERS];
static int nworkers, violations;
static unsigned long holds;
static int nleft;               /* leftover looks still to come */
static unsigned permits;
static int64_t last_token;
static int64_t stepped_at;      /* the library's clock last stepped back */
static sim_check *chk;

static const char *const kind_names[SIM_KINDS] = { "mutex", "fenced", "reentrant", "read",
                                                   "write", "multi", "semaphore" };

const char *sim_kind_name(int kind)
{
    return kind >= 0 && kind < SIM_KINDS ? kind_names[kind] : "?";
}

/* An overlap or a validity not backed: a violation, unless the run breaks
 * an assumption on purpose and counts only the promises kept whatever the
 * clocks do (--promises-only: then it is reported, not counted). */
static void violation(void)
{
    if (sim_set.promises_only) {
        sim_trace("assumption broken: %s", sim_check_why(chk));
        return;
    }
    violations++;
    sim_trace("VIOLATION: %s", sim_check_why(chk));
}

/* ---- what the kinds keep on the masters --------------------------------- */

/* The resources a worker's hold is checked on, and how. */
static const char *resource(const worker *w, int part)
{
    switch (w->kind) {
    case SIM_K_REENTRANT:
        return "re";
    case SIM_K_READ:
    case SIM_K_WRITE:
        return "rw";
    case SIM_K_SEMAPHORE:
        return "sem";
    case SIM_K_MULTI:
        return part ? "res2" : "res";
    default:
        return "res";
    }
}

static sim_hold_kind hold_kind(const worker *w)
{
    return w->kind == SIM_K_READ ? SIM_HOLD_READ : w->kind == SIM_K_WRITE ? SIM_HOLD_WRITE
         : w->kind == SIM_K_SEMAPHORE ? SIM_HOLD_PERMIT : SIM_HOLD_MUTEX;
}

static int parts(const worker *w)
{
    return w->kind == SIM_K_MULTI ? 2 : 1;
}

/* The key that carries a hold's value itself, for the kinds whose layout
 * is that simple (docs/kinds.md): the mutex's key (each resource's, for a
 * multi-resource lock; the writer's), a semaphore's permit; 0 for the
 * others. */
static size_t value_key(const worker *w, int part, const char *v, size_t vlen, char *key,
                        size_t size)
{
    int n;

    if (w->kind == SIM_K_SEMAPHORE)
        n = snprintf(key, size, "{sem}:s:%.*s", (int)vlen, v);
    else if (w->kind == SIM_K_MUTEX || w->kind == SIM_K_FENCED || w->kind == SIM_K_MULTI ||
             w->kind == SIM_K_WRITE)
        n = snprintf(key, size, "%s", resource(w, part));
    else
        return 0;
    return n > 0 && (size_t)n < size ? (size_t)n : 0;
}

/* Whether master i keeps key with value v (semaphore permits: any value,
 * the key names it), at least until `until` (true time) when until > 0. */
static int keeps(size_t i, const worker *w, const char *key, size_t klen, const char *v,
                 size_t vlen, int64_t until)
{
    sim_buf got = { 0 };
    int64_t pttl = 0;
    int yes = sim_master_key(sim_net_master(i), key, klen, sim_net_master_ms(i), &got, &pttl) == 1 &&
              (w->kind == SIM_K_SEMAPHORE || (got.len == vlen && memcmp(got.p, v, vlen) == 0)) &&
              (until <= 0 || pttl < 0 || sim_now_us + sim_net_true_us(i, pttl) >= until);
    sim_buf_free(&got);
    return yes;
}

/* Whether master i backs w's hold (value v) until `until` in the layouts
 * of docs/kinds.md that value_key does not cover: a re-entrant hold, its
 * key "P=<v>" or "P" with v's count in "{re}:h"; a reader's, its own key
 * "{rw}:rd:<v>" and its id in the index "rw" (the key's ttl is the
 * hold's; the hash's follows the key's). */
static int backs_layout(size_t i, const worker *w, const char *v, size_t vlen, int64_t until)
{
    sim_master *m = sim_net_master(i);
    int64_t now = sim_net_master_ms(i), pttl = 0;
    sim_buf got = { 0 };
    char key[128];
    int n, yes;

    if (w->kind == SIM_K_REENTRANT) {
        yes = sim_master_key(m, "re", 2, now, &got, &pttl) == 1 &&
              ((got.len > vlen && got.p[got.len - vlen - 1] == '=' &&
                memcmp(got.p + got.len - vlen, v, vlen) == 0) ||
               sim_master_member(m, "{re}:h", 6, v, vlen, now));
    } else {
        n = snprintf(key, sizeof key, "{rw}:rd:%.*s", (int)vlen, v);
        yes = n > 0 && (size_t)n < sizeof key &&
              sim_master_key(m, key, (size_t)n, now, NULL, &pttl) == 1 &&
              sim_master_member(m, "rw", 2, v, vlen, now);
    }
    sim_buf_free(&got);
    return yes && (until <= 0 || pttl < 0 || sim_now_us + sim_net_true_us(i, pttl) >= until);
}

/* The votes that back w's hold until `until`: a vote that lost keys
 * since the attempt started counts (the restart and failover guards, not
 * this hold, answer for it); a cluster vote keeps a key when one of its
 * masters does (a migration may have moved it).  -1: the kind's layout is
 * not read. */
static long granted(const worker *w, int64_t until)
{
    size_t vlen, klen, node[SIM_MAX_MASTERS], nn;
    const char *v = redlock_lock_value(w->lock, &vlen);
    char key[128];
    long n = 0;

    for (size_t i = 0; i < sim_votes(); i++) {
        int all = 1;
        if (sim_vote_lost_keys_us(i) >= w->started) {
            n++;
            continue;
        }
        nn = sim_vote_masters(i, node, SIM_MAX_MASTERS);
        for (int p = 0; p < parts(w) && all; p++) {
            int any = 0;
            klen = 0;
            if (w->kind != SIM_K_REENTRANT && w->kind != SIM_K_READ &&
                !(klen = value_key(w, p, v, vlen, key, sizeof key)))
                return -1;
            for (size_t k = 0; k < nn && !any; k++)
                any = klen ? keeps(node[k], w, key, klen, v, vlen, until)
                           : backs_layout(node[k], w, v, vlen, until);
            all = any;
        }
        n += all;
    }
    return n;
}

/* ---- the checkers' view of a hold --------------------------------------- */

static void hold_until(worker *w, int64_t until)
{
    long n;

    for (int p = 0; p < parts(w); p++)
        if (sim_check_hold(chk, resource(w, p), hold_kind(w), permits, w->hold, sim_now_us,
                           sim_set.hold_to_release ? INT64_MAX : until) != 0)
            violation();
    if (!sim_set.hold_to_release && (n = granted(w, until)) >= 0 &&
        sim_check_backed(chk, resource(w, 0), w->hold, sim_now_us, until, (size_t)n,
                         (size_t)redlock_lock_quorum(w->lock)) != 0)
        violation();
}

static void hold_end(worker *w)
{
    for (int p = 0; p < parts(w) && w->hold; p++)
        sim_check_end(chk, resource(w, p), hold_kind(w), w->hold);
    w->hold = 0;
}

static void look_left(void *ctx, long long id, sim_buf *data)
{
    leftover *o = ctx;
    worker *w = o->w;
    char key[128];
    size_t klen;
    (void)id, (void)data;

    /* every master (a cluster's too) whose vote had no fault since */
    for (size_t i = 0; i < sim_net_masters(); i++) {
        if (sim_vote_fault_us(sim_node_vote(i)) >= o->started || !sim_node_is_master(i))
            continue;
        for (int p = 0; p < parts(w); p++) {
            if (!(klen = value_key(w, p, o->value, o->vlen, key, sizeof key)) ||
                !keeps(i, w, key, klen, o->value, o->vlen, 0))
                continue;
            violations++;
            sim_trace("VIOLATION: %.3f ms: w%d's failed acquire (begun at %.3f ms) left \"%s\" "
                      "on m%zu", (double)sim_now_us / 1000, w->idx, (double)o->started / 1000,
                      key, i);
        }
    }
    free(o);
    nleft--;
}

/* ---- the rounds ------------------------------------------------------------ */

static void step(void *ctx, long long action, sim_buf *data);
static void after_jump(worker *w, size_t jumped);

static void later(worker *w, int64_t us, int action)
{
    sim_at(sim_now_us + us, step, w, (long long)w->round << 8 | action, NULL);
}

static void next_round(worker *w)
{
    w->round++;
    if (--w->rounds_left > 0)
        later(w, sim_rand_range(SIM_RNG_WORK, 0, 100000), ACT_ACQUIRE);
    else
        sim_trace("w%d done", w->idx);
}

static void acquired(redlock_lock *lock, int status, void *privdata)
{
    worker *w = privdata;
    int64_t v = status == REDLOCK_OK ? redlock_lock_validity(lock) : 0, hold;

    w->pending = 0;
    sim_trace("w%d acquired: %s validity %lld ms token %lld", w->idx, redlock_strerror(status),
              (long long)v, (long long)redlock_lock_token(lock));
    /* (a pause of the process over the deadline: by the first turn after
     * it; a clock stepped back since the start: the library's time runs
     * behind by what it did not see, its deadline with it) */
    if (w->deadline && w->started < stepped_at)
        w->deadline = 0;
    if (w->deadline && sim_now_us > sim_fault_resumed(w->deadline) + 1000) {
        violations++;
        sim_trace("VIOLATION: w%d's acquire ended %.3f ms after its deadline", w->idx,
                  (double)(sim_now_us - w->deadline) / 1000);
    }
    if (w->deadline && w->attempts_by_deadline != UINT64_MAX) {
        redlock_acquire_stats st;
        if (redlock_client_acquire_stats(w->client, &st) == 0 && st.attempts > w->attempts_by_deadline) {
            violations++;
            sim_trace("VIOLATION: w%d's acquire made %llu attempts after its deadline", w->idx,
                      (unsigned long long)(st.attempts - w->attempts_by_deadline));
        }
    }
    if (status == REDLOCK_OK && v <= 0) {
        violations++;
        sim_trace("VIOLATION: w%d's acquire succeeded with no validity left", w->idx);
    }
    if (status != REDLOCK_OK || v <= 0) {
        leftover *o = calloc(1, sizeof *o);
        size_t vlen;
        const char *val = redlock_lock_value(lock, &vlen);
        if (o && vlen <= sizeof o->value) {
            o->w = w;
            o->started = w->started;
            o->vlen = vlen;
            memcpy(o->value, val, vlen);
            nleft++;
            sim_at(sim_now_us + LEFT_US, look_left, o, ACT_LEFT, NULL);
        } else {
            free(o);
        }
        next_round(w);
        return;
    }
    w->hold = ++holds;
    hold_until(w, sim_now_us + v * 1000);
    if (w->kind == SIM_K_FENCED) {
        int64_t t = redlock_lock_token(lock);
        if (t <= last_token) {
            violations++;
            sim_trace("VIOLATION: w%d's token %lld is not above the last one, %lld", w->idx,
                      (long long)t, (long long)last_token);
        }
        last_token = t > last_token ? t : last_token;
    }
    /* mostly within the validity; now and then past it (the lock expires) */
    hold = sim_rand(SIM_RNG_WORK) % 10 ? sim_rand_range(SIM_RNG_WORK, 0, v * 800)
                                       : sim_rand_range(SIM_RNG_WORK, v * 1000, v * 1000 + 500000);
    if (sim_rand(SIM_RNG_WORK) % 4 == 0 &&
        redlock_lock_set_watchdog(lock, 0, 0) == 0) {
        hold += sim_rand_range(SIM_RNG_WORK, 0, 3 * w->ttl_ms * 1000);
        later(w, LOOK_US, ACT_LOOK);
    } else if (sim_rand(SIM_RNG_WORK) % 3 == 0) {
        later(w, sim_rand_range(SIM_RNG_WORK, 0, v * 800), ACT_EXTEND);
    }
    later(w, hold, ACT_RELEASE);
}

static void extended(redlock_lock *lock, int status, void *privdata)
{
    worker *w = privdata;
    int64_t v = redlock_lock_validity(lock);

    sim_trace("w%d extended: %s validity %lld ms", w->idx, redlock_strerror(status), (long long)v);
    if (!w->hold)
        return;
    if (v > 0)
        hold_until(w, sim_now_us + v * 1000);
    else
        hold_end(w);
}

/* The library's notice that the hold ended early: the holder stops. */
static void lost(redlock_lock *lock, int reason, void *privdata)
{
    worker *w = privdata;
    (void)lock;
    sim_trace("w%d lost: reason %d", w->idx, reason);
    if (!sim_set.hold_to_release)       /* (the selftest's holder ignores it) */
        hold_end(w);
}

static void released(redlock_lock *lock, int status, void *privdata)
{
    worker *w = privdata;
    (void)lock;
    sim_trace("w%d released: %s", w->idx, redlock_strerror(status));
    next_round(w);
}

static void start_acquire(worker *w)
{
    int rc, how = (int)(sim_rand(SIM_RNG_WORK) % 3);

    sim_trace("w%d acquire (%s)", w->idx, how == 0 ? "retries" : how == 1 ? "one try" : "deadline");
    w->started = sim_now_us;
    w->pending = 1;
    redlock_lock_set_watchdog(w->lock, -1, 0);  /* (a round's own choice) */
    w->deadline = 0;
    w->attempts_by_deadline = UINT64_MAX;
    if (how == 2) {
        int64_t wait_ms = sim_rand_range(SIM_RNG_WORK, 0, 2000);
        /* (wait_ms 0 is one attempt, which ends when it ends) */
        w->deadline = wait_ms ? sim_now_us + wait_ms * 1000 : 0;
        rc = redlock_acquire_for_async(w->lock, wait_ms, w->ttl_ms, acquired, w);
    } else {
        rc = how == 0 ? redlock_acquire_async(w->lock, w->ttl_ms, acquired, w)
                      : redlock_try_acquire_async(w->lock, w->ttl_ms, acquired, w);
    }
    if (rc != REDLOCK_OK) {
        w->pending = 0;
        sim_trace("w%d acquire refused: %s", w->idx, redlock_strerror(rc));
        next_round(w);
        return;
    }
    /* no attempt may start from the deadline on (a late retry timer) */
    if (w->deadline)
        later(w, w->deadline - sim_now_us, ACT_DEADLINE);
    if (sim_rand(SIM_RNG_WORK) % 10 == 0)
        later(w, sim_rand_range(SIM_RNG_WORK, 0, 50000), ACT_CANCEL);
}

static void step(void *ctx, long long action, sim_buf *data)
{
    worker *w = ctx;
    int rc, act = (int)(action & 0xff);
    (void)data;

    if ((unsigned)(action >> 8) != w->round)
        return;         /* an event of a round that ended */
    switch (act) {
    case ACT_ACQUIRE:
        start_acquire(w);
        break;
    case ACT_CANCEL:
        if (w->pending) {
            sim_trace("w%d cancel", w->idx);
            redlock_acquire_cancel(w->lock);    /* (its callback runs inside) */
        }
        break;
    case ACT_EXTEND: {
        /* half the time a shorter ttl than the validity left: the
         * validity must come down at the start, the masters that run the
         * extend may expire the key sooner than the old end */
        int64_t ttl = sim_rand(SIM_RNG_WORK) % 2 ? w->ttl_ms : sim_rand_range(SIM_RNG_WORK, 100, w->ttl_ms);
        if (w->hold && redlock_extend_async(w->lock, ttl, extended, w) == REDLOCK_OK) {
            sim_trace("w%d extend %lld ms", w->idx, (long long)ttl);
            /* the validity read while it is in flight (some masters ran it) */
            later(w, sim_rand_range(SIM_RNG_WORK, 0, 3000), ACT_PEEK);
            later(w, sim_rand_range(SIM_RNG_WORK, 0, 500000), ACT_PEEK);
        }
        break;
    }
    case ACT_PEEK:
        if (w->hold && redlock_lock_validity(w->lock) > 0)
            hold_until(w, sim_now_us + redlock_lock_validity(w->lock) * 1000);
        break;
    case ACT_DEADLINE:
        if (w->pending) {
            redlock_acquire_stats st;
            if (redlock_client_acquire_stats(w->client, &st) == 0)
                w->attempts_by_deadline = st.attempts;
        }
        break;
    case ACT_LOOK:      /* the watchdog moved the validity */
        if (w->hold && redlock_lock_validity(w->lock) > 0) {
            hold_until(w, sim_now_us + redlock_lock_validity(w->lock) * 1000);
            later(w, LOOK_US, ACT_LOOK);
        }
        break;
    case ACT_JUMPED:
        after_jump(w, w->jumped);
        break;
    case ACT_RELEASE:
        /* the hold ends when the release starts (validity is 0 from then) */
        hold_end(w);
        sim_trace("w%d release", w->idx);
        if ((rc = redlock_release_async(w->lock, released, w)) != REDLOCK_OK) {
            sim_trace("w%d release refused: %s", w->idx, redlock_strerror(rc));
            next_round(w);
        }
        break;
    }
}

/* ---- the run --------------------------------------------------------------- */

/* Once the client has seen master `jumped`'s clock jump ahead, a hold
 * whose other masters that keep its key are fewer than its quorum has
 * ended (REDLOCK_LOST_CLOCK, docs/safety.md): a master with a fault since
 * the acquire began is given the benefit of the doubt. */
static void after_jump(worker *w, size_t jumped)
{
    size_t vlen, klen, n = 0;
    const char *v;
    char key[128];
    int q;

    if (!w->hold || redlock_lock_validity(w->lock) <= 0)
        return;
    v = redlock_lock_value(w->lock, &vlen);
    q = redlock_lock_quorum(w->lock);
    for (size_t i = 0; i < sim_net_masters(); i++) {
        int all = 1;
        if (i == jumped)
            continue;
        for (int p = 0; p < parts(w) && all; p++)
            all = (klen = value_key(w, p, v, vlen, key, sizeof key)) == 0 ||
                  sim_net_fault_us(i) >= w->started || keeps(i, w, key, klen, v, vlen, 0);
        n += all;
    }
    if (q > 0 && n < (size_t)q) {
        violations++;
        sim_trace("VIOLATION: %.3f ms: w%d keeps %lld ms of validity after m%zu's clock was "
                  "seen jumping, on %zu other masters (quorum %d)", (double)sim_now_us / 1000,
                  w->idx, (long long)redlock_lock_validity(w->lock), jumped, n, q);
    }
}

static void node_event(redlock_client *client, size_t node, int event, const char *detail,
                       void *privdata)
{
    worker *w = privdata;
    redlock_node_stats st;

    sim_trace("w%d node m%zu event %d: %s", w->idx, node, event, detail);
    /* (judged once the library has done with the news: at this instant,
     * after this callback) */
    if (event == REDLOCK_NODE_UNCOUNTED && redlock_client_node_stats(client, node, &st) == 0 &&
        (st.guard_flags & REDLOCK_GUARD_CLOCK)) {
        w->jumped = node;
        sim_at(sim_now_us, step, w, (long long)w->round << 8 | ACT_JUMPED, NULL);
    }
}

static int pick_kind(void)
{
    int enabled[SIM_KINDS], n = 0;

    for (int k = 0; k < SIM_KINDS; k++)
        if (sim_set.kinds & (1u << k))
            enabled[n++] = k;
    return n ? enabled[sim_rand(SIM_RNG_WORK) % (uint64_t)n] : SIM_K_MUTEX;
}

static int make_lock(worker *w)
{
    static const void *const multi[2] = { "res", "res2" };
    static const size_t lens[2] = { 3, 4 };

    switch (w->kind) {
    case SIM_K_REENTRANT:
        return redlock_lock_new_reentrant(&w->lock, w->client, "re", 2, NULL, 0);
    case SIM_K_READ:
        return redlock_lock_new_read(&w->lock, w->client, "rw", 2);
    case SIM_K_WRITE:
        return redlock_lock_new_write(&w->lock, w->client, "rw", 2);
    case SIM_K_MULTI:
        return redlock_lock_new_multi(&w->lock, w->client, multi, lens, 2);
    case SIM_K_SEMAPHORE:
        return redlock_lock_new_semaphore(&w->lock, w->client, "sem", 3, permits);
    default:
        if (redlock_lock_new(&w->lock, w->client, "res", 3) != 0)
            return -1;
        return w->kind == SIM_K_FENCED ? redlock_lock_set_fencing(w->lock, 1) : 0;
    }
}

int sim_work_start(struct event_base *base, const char *const *nodes, size_t n, char *why,
                   size_t whylen)
{
    char err[256] = "";

    violations = 0;
    holds = 0;
    nleft = 0;
    last_token = 0;
    stepped_at = INT64_MIN;
    sim_check_free(chk);
    if (!(chk = sim_check_new())) {
        snprintf(why, whylen, "out of memory");
        return -1;
    }
    nworkers = (int)sim_rand_range(SIM_RNG_WORK, 2, MAX_WORKERS);
    permits = (unsigned)sim_rand_range(SIM_RNG_WORK, 1, 3);
    sim_trace("run: %d workers, a semaphore's P %u", nworkers, permits);
    memset(workers, 0, sizeof workers);
    for (int i = 0; i < nworkers; i++) {
        worker *w = &workers[i];
        redlock_options opts;
        w->idx = i;
        w->kind = pick_kind();
        w->rounds_left = (int)sim_rand_range(SIM_RNG_WORK, 8, 24);
        w->ttl_ms = sim_rand_range(SIM_RNG_WORK, 1000, 8000);
        redlock_options_init(&opts);
        opts.wake = sim_set.wake;
        opts.node_cb = node_event;
        opts.node_privdata = w;
        if (sim_set.clock_guard_off)
            opts.clock_guard_ms = 0;
        if (sim_set.restart_guard_off)
            opts.restart_guard_ms = 0;
        if (redlock_client_new(&w->client, base, nodes, n, &opts, err, sizeof err) != 0 ||
            make_lock(w) != 0 || redlock_lock_on_lost(w->lock, lost, w) != 0) {
            snprintf(why, whylen, "client %d (%s): %s", i, sim_kind_name(w->kind),
                     err[0] ? err : w->client ? redlock_client_errstr(w->client) : "?");
            return -1;
        }
        sim_trace("w%d: %s, ttl %lld ms, %d rounds, quorum %d", i, sim_kind_name(w->kind),
                  (long long)w->ttl_ms, w->rounds_left, redlock_lock_quorum(w->lock));
        later(w, sim_rand_range(SIM_RNG_WORK, 0, 50000), ACT_ACQUIRE);
    }
    return nworkers;
}

/* Every hold's validity is read at once, the client's first reading since
 * (docs/safety.md: a clock seen going back makes every lock's validity 0). */
void sim_work_clock_stepped(void)
{
    stepped_at = sim_now_us;
    for (int i = 0; i < nworkers; i++) {
        worker *w = &workers[i];
        int64_t v = w->hold ? redlock_lock_validity(w->lock) : 0;
        if (v > 0) {
            violations++;
            sim_trace("VIOLATION: w%d's hold keeps %lld ms of validity after the clock was seen "
                      "stepping back", w->idx, (long long)v);
        }
    }
}

int sim_work_done(void)
{
    if (nleft)
        return 0;
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
