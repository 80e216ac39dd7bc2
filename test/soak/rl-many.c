/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-many.c -- rl-worker --clients C: many independent clients in one
 * process, for the hot-key runs of the failover suite (docs/failover.md,
 * "Many clients on one key").
 *
 * Each client is a redlock_client of its own (its own connections to every
 * master, its own locks, its own random choices) on one shared event base,
 * and writes its own log (format in rl-worker.c), so rl-check sees C
 * workers.  A client loops like an async rl-worker: acquire (the client's
 * retry policy), hold hold-min..hold-max ms (never past the validity),
 * extend --extend-pct % of the steps (half of the extends with a ttl below
 * the validity left), release, idle 0..idle-max ms.  The validity auditor
 * watches one lock per process, so it is not run here.
 *
 * Signals, as for one worker: SIGUSR1 stops the whole process (SIGSTOP) at
 * the next acquisition, while that client holds its lock (S and P lines in
 * its log); SIGUSR2 blocks the shared loop --block-file ms at the next
 * operation start, while operations are in flight (B line in the log of
 * the client whose operation started it).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <event2/event.h>

#include "rl-worker.h"

typedef struct mc {
    int64_t id;
    int log;
    uint64_t rng;
    redlock_client *c;
    redlock_lock *locks[MAX_RES];
    struct event *ev;
    /* the lock held or being acquired */
    redlock_lock *l;
    char name[64], val[72];
    int holding, next_extend, done;
    int64_t before, after, valid_until, hold_end, op_start, ext_ttl;
    int shorter;
    long long acquisitions, failures;
} mc;

static mc *M;
static size_t n_mc, n_done;
static struct event_base *EB;
static struct event *ev_block;
static int64_t t_end;
static long long inflight, blocks;
static mc *block_by;   /* whose operation start armed the loop block */
static const char *last_op = "none";   /* the operation started last */

__attribute__((format(printf, 2, 3))) static void mlog(mc *m, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlogline_fd(m->log, fmt, ap);
    va_end(ap);
}

static int64_t mrange(mc *m, int64_t lo, int64_t hi)
{
    return hi <= lo ? lo : lo + (int64_t)(rnd_next(&m->rng) % (uint64_t)(hi - lo + 1));
}

static void step_in(mc *m, int64_t us)
{
    struct timeval tv = {(time_t)(us / 1000000), (suseconds_t)(us % 1000000)};
    evtimer_add(m->ev, &tv);
}

static void on_node(redlock_client *c, size_t node, int event, const char *detail, void *pd)
{
    (void)c;
    (void)detail;
    if (event == REDLOCK_NODE_UP || event == REDLOCK_NODE_DOWN)
        mlog(pd, "N %lld %zu %s", (long long)now_us(), node,
             event == REDLOCK_NODE_UP ? "up" : "down");
}

/* an operation of m just started: count it, and block the loop soon if
 * SIGUSR2 asked for it */
static void started(mc *m, const char *op)
{
    inflight++;
    last_op = op;
    if (!g_block_req)
        return;
    g_block_req = 0;
    block_by = m;
    struct timeval tv = {0, (suseconds_t)mrange(m, 0, 500)};
    evtimer_add(ev_block, &tv);
}

static void on_block(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    if (!inflight) {
        g_block_req = 1;   /* nothing in flight: block during the next one */
        return;
    }
    int64_t t0, t1, ms;
    block_loop(&t0, &t1, &ms);
    blocks++;
    mlog(block_by, "B %lld %lld %lld %s", (long long)t0, (long long)t1, (long long)ms, last_op);
}

static void finish(mc *m)
{
    if (m->done++)
        return;
    mlog(m, "E %lld %lld %lld", (long long)now_us(), m->acquisitions, m->failures);
    if (++n_done == n_mc)
        event_base_loopbreak(EB);
}

static void on_released(redlock_lock *l, int status, void *pd)
{
    mc *m = pd;
    inflight--;
    mlog(m, "R %s %s %lld %lld %s %zu", m->name, m->val, (long long)m->op_start,
         (long long)now_us(), code_name(status), redlock_lock_nodes_ok(l));
    step_in(m, mrange(m, 0, g_opt.idle_max) * 1000);
}

static void start_release(mc *m)
{
    m->holding = 0;
    m->op_start = now_us();
    if (redlock_release_async(m->l, on_released, m) == 0) {
        started(m, "release");
        return;
    }
    inflight++;
    on_released(m->l, REDLOCK_EINVAL, m);
}

/* while holding: wait, then extend (P % of the steps) or release */
static void hold_step(mc *m)
{
    int64_t now = now_us(), until = m->hold_end;
    if (m->valid_until - 1000 < until)
        until = m->valid_until - 1000;
    if (now >= until || g_stop) {
        start_release(m);
        return;
    }
    m->next_extend = g_opt.extend_pct && mrange(m, 0, 99) < g_opt.extend_pct;
    step_in(m, m->next_extend ? mrange(m, 0, until - now) : until - now);
}

static void on_extended(redlock_lock *l, int status, void *pd)
{
    mc *m = pd;
    inflight--;
    int64_t end = now_us(), v = redlock_lock_validity(l);
    m->valid_until = end + v * 1000;
    mlog(m, "T %s %s %lld %lld %s %lld %zu %lld %d", m->name, m->val, (long long)m->op_start,
         (long long)end, code_name(status), (long long)m->valid_until, redlock_lock_nodes_ok(l),
         (long long)m->ext_ttl, m->shorter);
    hold_step(m);
}

static void start_extend(mc *m)
{
    int64_t left = redlock_lock_validity(m->l);
    m->ext_ttl = g_opt.ttl;
    if (mrange(m, 0, 1) && left > 20)
        m->ext_ttl = mrange(m, left / 4 > 10 ? left / 4 : 10, left * 3 / 4);
    m->shorter = m->ext_ttl < left;
    m->op_start = now_us();
    if (redlock_extend_async(m->l, m->ext_ttl, on_extended, m) == 0) {
        started(m, "extend");
        return;
    }
    inflight++;
    on_extended(m->l, REDLOCK_EINVAL, m);
}

/* SIGUSR1: stop the process while m holds its lock (the "GC pause") */
static void pause_here(mc *m)
{
    g_pause_req = 0;
    int64_t t0 = now_us();
    mlog(m, "S %s %s %lld", m->name, m->val, (long long)t0);
    raise(SIGSTOP);
    int64_t t1 = now_us(), left = redlock_lock_validity(m->l);
    mlog(m, "P %s %s %lld %lld %lld", m->name, m->val, (long long)t1, (long long)left,
         (long long)((t1 - t0) / 1000));
}

static void on_acquired(redlock_lock *l, int status, void *pd)
{
    mc *m = pd;
    inflight--;
    m->after = now_us();
    if (status != 0) {
        m->failures++;
        mlog(m, "F %s %lld %lld %s", m->name, (long long)m->before, (long long)m->after,
             code_name(status));
        step_in(m, mrange(m, 0, g_opt.idle_max) * 1000);
        return;
    }
    size_t vlen;
    const char *value = redlock_lock_value(l, &vlen);
    snprintf(m->val, sizeof m->val, "%.*s", (int)(vlen < 64 ? vlen : 64), value);
    m->valid_until = m->after + redlock_lock_validity(l) * 1000;
    m->acquisitions++;
    m->holding = 1;
    mlog(m, "A %s %s %lld %lld %lld %zu %lld", m->name, m->val, (long long)m->before,
         (long long)m->after, (long long)m->valid_until, redlock_lock_nodes_ok(l),
         (long long)redlock_lock_token(l));
    m->hold_end = now_us() + mrange(m, g_opt.hold_min, g_opt.hold_max) * 1000;
    if (g_pause_req) {
        pause_here(m);
        start_release(m);
        return;
    }
    hold_step(m);
}

static void on_step(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    mc *m = arg;
    if (m->holding) {
        if (m->next_extend && !g_stop) {
            m->next_extend = 0;
            start_extend(m);
        } else {
            start_release(m);
        }
        return;
    }
    if (g_stop || now_us() >= t_end || (g_opt.count && m->acquisitions >= g_opt.count)) {
        finish(m);
        return;
    }
    int64_t r = mrange(m, 0, g_opt.nres - 1);
    m->l = m->locks[r];
    snprintf(m->name, sizeof m->name, "%s%lld", g_opt.prefix, (long long)r);
    m->before = now_us();
    if (redlock_acquire_async(m->l, g_opt.ttl, on_acquired, m) == 0) {
        started(m, "acquire");
        return;
    }
    inflight++;
    on_acquired(m->l, REDLOCK_EINVAL, m);
}

/* client k: its log, its client on EB, its locks */
static int setup(mc *m, int64_t k, const char *const *nodes, size_t nnodes,
                 const redlock_options *opts)
{
    char path[4096];
    const char *pct = strstr(g_opt.logpath, "%d");
    snprintf(path, sizeof path, "%.*s%lld%s", (int)(pct - g_opt.logpath), g_opt.logpath,
             (long long)(g_opt.id + k), pct + 2);
    m->id = g_opt.id + k;
    m->rng = rnd_seed(m->id);
    m->log = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (m->log < 0) {
        fprintf(stderr, "rl-worker: %s: %s\n", path, strerror(errno));
        return -1;
    }
    redlock_options o = *opts;
    o.node_cb = on_node;
    o.node_privdata = m;
    char err[256] = "";
    if (redlock_client_new(&m->c, EB, nodes, nnodes, &o, err, sizeof err) != 0) {
        fprintf(stderr, "rl-worker: client %lld: redlock_client_new: %s\n", (long long)m->id,
                err);
        return -1;
    }
    mlog(m, "W %lld %ld %zu %lld async %lld", (long long)m->id, (long)getpid(), nnodes,
         (long long)g_opt.ttl, (long long)g_opt.max_pending);
    for (int64_t r = 0; r < g_opt.nres; r++) {
        char name[64];
        snprintf(name, sizeof name, "%s%lld", g_opt.prefix, (long long)r);
        if (redlock_lock_new(&m->locks[r], m->c, name, strlen(name)) != 0 ||
            (g_opt.fencing && redlock_lock_set_fencing(m->locks[r], 1) != 0)) {
            fprintf(stderr, "rl-worker: client %lld: cannot make the lock on %s\n",
                    (long long)m->id, name);
            return -1;
        }
    }
    m->ev = evtimer_new(EB, on_step, m);
    return m->ev ? 0 : -1;
}

int run_many(const char *const *nodes, size_t nnodes, const redlock_options *opts)
{
    struct event_config *cfg = event_config_new();
    if (cfg) {
        event_config_set_flag(cfg, EVENT_BASE_FLAG_PRECISE_TIMER);
        EB = event_base_new_with_config(cfg);
        event_config_free(cfg);
    }
    n_mc = (size_t)g_opt.clients;
    M = calloc(n_mc, sizeof *M);
    ev_block = EB ? evtimer_new(EB, on_block, NULL) : NULL;
    if (!M || !ev_block) {
        fprintf(stderr, "rl-worker: out of memory\n");
        return 1;
    }
    int rc = 0;
    for (size_t k = 0; k < n_mc; k++)
        M[k].log = -1;
    for (size_t k = 0; k < n_mc && rc == 0; k++)
        rc = setup(&M[k], (int64_t)k, nodes, nnodes, opts);
    if (rc == 0) {
        t_end = now_us() + g_opt.seconds * 1000000;
        for (size_t k = 0; k < n_mc; k++)
            step_in(&M[k], 0);
        event_base_dispatch(EB);
    }
    long long acq = 0, fails = 0;
    for (size_t k = 0; k < n_mc; k++) {
        mc *m = &M[k];
        acq += m->acquisitions;
        fails += m->failures;
        for (int64_t r = 0; r < g_opt.nres; r++)
            redlock_lock_free(m->locks[r]);
        redlock_client_free(m->c);
        if (m->ev)
            event_free(m->ev);
        if (m->log >= 0)
            close(m->log);
    }
    fprintf(stderr,
            "rl-worker %lld..%lld: %zu clients, %lld acquisitions, %lld failures, "
            "loop-blocks=%lld\n",
            (long long)g_opt.id, (long long)(g_opt.id + (int64_t)n_mc - 1), n_mc, acq, fails,
            blocks);
    event_free(ev_block);
    event_base_free(EB);
    free(M);
    return rc ? 1 : 0;
}
