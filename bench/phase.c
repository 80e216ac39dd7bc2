/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* phase.c -- one measured phase of redlock-bench: the client threads, the
 * warm-up, the measurement window, the live line and the merged results. */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "bench.h"
#include "report.h"

static long statm_rss_kb(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f)
        return -1;
    long size = 0, res = 0;
    int n = fscanf(f, "%ld %ld", &size, &res);
    fclose(f);
    if (n != 2)
        return -1;
    return res * (sysconf(_SC_PAGESIZE) / 1024);
}

static double rusage_cpu_s(long *maxrss_kb)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    if (maxrss_kb)
        *maxrss_kb = ru.ru_maxrss;
    return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

/* ---- running a phase ------------------------------------------------------------- */

volatile sig_atomic_t rlb_interrupted;

typedef struct thread_arg {
    bench_thread *t;        /* the thread's clients: t[0] .. t[n-1] */
    int n;
    const bench_impl *impl;
} thread_arg;

static struct event_base *precise_base(void)
{
    /* Precise timers: libevent's default on Linux is CLOCK_MONOTONIC_COARSE,
     * whose tick (4 ms here) would stretch --hold, retry delays and node
     * timeouts to the next tick. */
    struct event_base *b = NULL;
    struct event_config *ec = event_config_new();
    if (ec) {
        event_config_set_flag(ec, EVENT_BASE_FLAG_PRECISE_TIMER);
        b = event_base_new_with_config(ec);
        event_config_free(ec);
    }
    return b;
}

static void *thread_main(void *arg)
{
    thread_arg *ta = arg;
    bench_thread *t = ta->t;
    bench_shared *sh = t->sh;
    char err[256] = "";
    struct event_base *base = precise_base();
    for (int i = 0; i < ta->n; i++) {
        t[i].base = base;
        if (!base) {
            rlb_set_error(sh, "client %d: event_base_new failed", t[i].id);
            break;
        }
        if (ta->impl->setup(&t[i], err, sizeof(err)) != 0) {
            rlb_set_error(sh, "client %d: %s", t[i].id, err);
            break;
        }
    }
    pthread_barrier_wait(&sh->b_setup);
    pthread_barrier_wait(&sh->b_ready);
    if (!atomic_load(&sh->error))
        ta->impl->run(t, ta->n);
    int64_t fin = rlb_now_ns();
    for (int i = 0; i < ta->n; i++)
        t[i].finish_ns = fin;
    atomic_fetch_add(&sh->threads_done, 1);
    pthread_barrier_wait(&sh->b_done);
    pthread_barrier_wait(&sh->b_teardown);
    for (int i = 0; i < ta->n; i++)
        ta->impl->teardown(&t[i]);
    if (base)
        event_base_free(base);
    return NULL;
}

/* Once a second: the live line and (while measuring) one entry of the
 * series, from the counters and the threads' histograms since the last. */
typedef struct sampler {
    uint64_t ops, fail, acq;
    int64_t ns;
    hist *prog, *sec;
} sampler;

static void sample(const bench_cfg *cfg, const char *label, double t_s, bench_thread *th, int n,
                   sampler *sp, phase_result *res)
{
    uint64_t ops = 0, fail = 0, acq = 0;
    hist_reset(sp->prog);
    hist_reset(sp->sec);
    for (int i = 0; i < n; i++) {
        ops += atomic_load(&th[i].live_ops);
        fail += atomic_load(&th[i].live_fail);
        acq += atomic_load(&th[i].live_acq);
        if (!th[i].leader)
            continue;
        pthread_mutex_lock(th[i].prog_mu);
        if (th[i].prog) {
            hist_merge(sp->prog, th[i].prog);
            hist_reset(th[i].prog);
        }
        hist_merge(sp->sec, th[i].sec);
        hist_reset(th[i].sec);
        pthread_mutex_unlock(th[i].prog_mu);
    }
    int64_t now = rlb_now_ns();
    double dt = (double)(now - sp->ns) / 1e9;
    double rate = dt > 0 ? (double)(ops - sp->ops) / dt : 0;
    if (res && res->nseries < res->series_cap) {
        rlb_second *e = &res->series[res->nseries++];
        e->t = t_s;
        e->ops = ops - sp->ops;
        e->fail = fail - sp->fail;
        e->acquired = acq - sp->acq;
        e->acq_p50 = hist_quantile(sp->sec, 0.5);
        e->acq_p99 = hist_quantile(sp->sec, 0.99);
        e->acq_max = sp->sec->max;
    }
    sp->ops = ops;
    sp->fail = fail;
    sp->acq = acq;
    sp->ns = now;
    if (!cfg->progress)
        return;
    char a[32], b[32], c[32], d[32];
    char line[256];
    int len = snprintf(line, sizeof(line), "\r%-8s %5.0fs  %s ops/s  p50 %s  p99 %s  failures %s",
                       label, t_s, rlb_fmt_count(a, sizeof(a), (uint64_t)llround(rate)),
                       rlb_fmt_lat(b, sizeof(b), (double)hist_quantile(sp->prog, 0.5)),
                       rlb_fmt_lat(c, sizeof(c), (double)hist_quantile(sp->prog, 0.99)),
                       rlb_fmt_count(d, sizeof(d), fail));
    if (len > (int)sizeof(line) - 8)
        len = (int)sizeof(line) - 8;
    memcpy(line + len, "\033[K", 3);
    len += 3;
    ssize_t w = write(cfg->progress_fd, line, (size_t)len);
    (void)w;
}

static void progress_clear(const bench_cfg *cfg)
{
    ssize_t w = write(cfg->progress_fd, "\r\033[K", 4);
    (void)w;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void rss_sample(phase_result *res)
{
    long r = statm_rss_kb();
    if (r > res->rss_max_kb)
        res->rss_max_kb = r;
    if (r < res->rss_min_kb)
        res->rss_min_kb = r;
}

/* The clients, their threads' shared parts (each thread's first client,
 * its leader, owns the histograms all its clients record into), and the
 * totals' histograms.  -1 when out of memory. */
static int make_clients(const bench_cfg *cfg, bench_shared *sh, bench_thread *th,
                        pthread_mutex_t *mus, phase_result *res)
{
    int n = cfg->clients, nt = cfg->threads, slot = 0, id = 0;
    for (int op = 0; op < OP_N; op++)
        if (!(res->tot.lat[op] = hist_new()))
            return -1;
    if (!(res->tot.handoff = hist_new()) || !(res->tot.handoff_x = hist_new()) ||
        !(res->tot.wait_side[0] = hist_new()) || !(res->tot.wait_side[1] = hist_new()))
        return -1;
    for (int g = 0; g < nt; g++) {
        int ng = n / nt + (g < n % nt);
        bench_thread *l = &th[id];
        pthread_mutex_init(&mus[g], NULL);
        l->leader = 1;
        l->ngroup = ng;
        for (int op = 0; op < OP_N; op++)
            if (!(l->st.lat[op] = hist_new()))
                return -1;
        if (!(l->st.handoff = hist_new()) || !(l->st.handoff_x = hist_new()) ||
            !(l->st.wait_side[0] = hist_new()) || !(l->st.wait_side[1] = hist_new()) ||
            !(l->sec = hist_new()) || (cfg->progress && !(l->prog = hist_new())))
            return -1;
        for (int k = 0; k < ng; k++, id++) {
            bench_thread *t = &th[id];
            t->sh = sh;
            t->id = id;
            t->nslots = cfg->concurrency / n + (id < cfg->concurrency % n);
            t->slot_base = slot;
            slot += t->nslots;
            t->rng = cfg->seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(id + 1));
            if (!t->rng)
                t->rng = 1;
            t->prog_mu = &mus[g];
            t->prog = l->prog;
            t->sec = l->sec;
            for (int op = 0; op < OP_N; op++)
                t->st.lat[op] = l->st.lat[op];
            t->st.handoff = l->st.handoff;
            t->st.handoff_x = l->st.handoff_x;
            t->st.wait_side[0] = l->st.wait_side[0];
            t->st.wait_side[1] = l->st.wait_side[1];
        }
    }
    return 0;
}

static void merge_client(phase_result *res, bench_thread *t)
{
    bench_stats *s = &t->st, *d = &res->tot;
    for (int op = 0; op < OP_N; op++)
        for (int c = 0; c < RLB_NCODES; c++)
            d->fail[op][c] += s->fail[op][c];
    if (t->leader) {
        for (int op = 0; op < OP_N; op++) {
            hist_merge(d->lat[op], s->lat[op]);
            hist_free(s->lat[op]);
        }
        hist_merge(d->handoff, s->handoff);
        hist_free(s->handoff);
        hist_merge(d->handoff_x, s->handoff_x);
        hist_free(s->handoff_x);
        for (int k = 0; k < 2; k++) {
            hist_merge(d->wait_side[k], s->wait_side[k]);
            hist_free(s->wait_side[k]);
        }
        hist_free(t->prog);
        hist_free(t->sec);
        pthread_mutex_destroy(t->prog_mu);
    }
    for (int c = 0; c < RAWF_N; c++)
        d->raw_fail[c] += s->raw_fail[c];
    d->cycles += s->cycles;
    d->ops += s->ops;
    d->acq_ok += s->acq_ok;
    d->tries += s->tries;
    d->extends_ok += s->extends_ok;
    d->lib_attempts += s->lib_attempts;
    d->lib_won += s->lib_won;
    d->lib_split_votes += s->lib_split_votes;
    d->lib_wakeups += s->lib_wakeups;
    d->have_lib_stats |= s->have_lib_stats;
    d->sched_started += s->sched_started;
    d->sched_late += s->sched_late;
    d->sched_missed += s->sched_missed;
    if (s->sched_max_lag_ns > d->sched_max_lag_ns)
        d->sched_max_lag_ns = s->sched_max_lag_ns;
    res->per_client[t->id] = s->acq_ok;
}

/* A phase in progress: the shared state, the clients and their threads. */
typedef struct phase_run {
    const bench_cfg *cfg;
    bench_shared sh;
    bench_thread *th;       /* the clients, n */
    thread_arg *ta;         /* the threads, nt */
    pthread_mutex_t *mus;   /* one a thread */
    sampler sp;
    int n, nt;
} phase_run;

/* The shared state, the clients and the result's buffers.  -1 (message
 * in res->err) when the contend workload's per-key table does not fit;
 * exits when out of memory otherwise. */
static int phase_init(phase_run *pr, const bench_cfg *cfg, const bench_impl *impl,
                      phase_result *res)
{
    memset(res, 0, sizeof(*res));
    memset(pr, 0, sizeof(*pr));
    int n = pr->n = cfg->clients, nt = pr->nt = cfg->threads;
    bench_shared *sh = &pr->sh;
    pr->cfg = sh->cfg = cfg;
    pthread_mutex_init(&sh->err_mu, NULL);
    pthread_barrier_init(&sh->b_setup, NULL, (unsigned)nt + 1);
    pthread_barrier_init(&sh->b_ready, NULL, (unsigned)nt + 1);
    pthread_barrier_init(&sh->b_done, NULL, (unsigned)nt + 1);
    pthread_barrier_init(&sh->b_teardown, NULL, (unsigned)nt + 1);
    if (cfg->workload == WL_CONTEND) {
        sh->last_release = calloc((size_t)cfg->keys, sizeof(*sh->last_release));
        sh->last_releaser = calloc((size_t)cfg->keys, sizeof(*sh->last_releaser));
        sh->holders = impl == &lib_impl ? rlb_holders_new(cfg->keys, rlb_kind_limit(cfg),
                                                          cfg->fake_overlap) : NULL;
        if (!sh->last_release || !sh->last_releaser || (impl == &lib_impl && !sh->holders)) {
            snprintf(res->err, sizeof(res->err), "out of memory");
            return -1;
        }
    }
    pr->th = calloc((size_t)n, sizeof(*pr->th));
    pr->ta = calloc((size_t)nt, sizeof(*pr->ta));
    pr->mus = calloc((size_t)nt, sizeof(*pr->mus));
    pr->sp = (sampler){.prog = hist_new(), .sec = hist_new()};
    res->per_client = calloc((size_t)n, sizeof(uint64_t));
    res->nclients = n;
    /* one entry a second, and room for --ops runs longer than --duration */
    res->series_cap = (int)(cfg->ops ? 3600 : cfg->duration + 2);
    res->series = calloc((size_t)res->series_cap, sizeof(*res->series));
    if (!pr->th || !pr->ta || !pr->mus || !pr->sp.prog || !pr->sp.sec || !res->per_client ||
        !res->series || make_clients(cfg, sh, pr->th, pr->mus, res) != 0) {
        fprintf(stderr, "redlock-bench: out of memory\n");
        exit(1);
    }
    for (int g = 0, id = 0; g < nt; id += pr->th[id].ngroup, g++)
        pr->ta[g] = (thread_arg){&pr->th[id], pr->th[id].ngroup, impl};
    return 0;
}

/* The client threads (exits when one cannot be started). */
static void start_threads(phase_run *pr)
{
    /* Workers do not take SIGINT: the main thread does. */
    sigset_t all, old;
    sigemptyset(&all);
    sigaddset(&all, SIGINT);
    sigaddset(&all, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int started = 0;
    for (int g = 0; g < pr->nt; g++) {
        if (pthread_create(&pr->ta[g].t->tid, NULL, thread_main, &pr->ta[g]) != 0)
            break;
        started++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (started < pr->nt) {
        /* cannot meet the barriers: abandon (rare; report and exit) */
        fprintf(stderr, "redlock-bench: pthread_create failed (%d threads; see --threads)\n",
                pr->nt);
        exit(2);
    }
}

/* The clients' acquisitions so far (the live counters). */
static uint64_t live_acquired(const phase_run *pr)
{
    uint64_t acq = 0;
    for (int i = 0; i < pr->n; i++)
        acq += atomic_load(&pr->th[i].live_acq);
    return acq;
}

/* From the clients' setup to the end of the warm-up (the live line on). */
static void warm_up(phase_run *pr, phase_result *res)
{
    const bench_cfg *cfg = pr->cfg;
    bench_shared *sh = &pr->sh;
    /* No warm-up: the threads' first operations, started as they pass
     * the barrier while this thread takes its starting readings below,
     * are measured too (they were not: their requests reached the masters
     * uncounted, a few microseconds' worth); the masters' first readings
     * come after the clients' connections and before those operations. */
    pthread_barrier_wait(&sh->b_setup);
    if (cfg->warmup <= 0) {
        rlb_mstats_begin(&res->masters, cfg->nodes, cfg->nnodes);
        atomic_store(&sh->measuring, 1);
    }
    pthread_barrier_wait(&sh->b_ready);
    int64_t t0 = rlb_now_ns(), next_line = t0 + 1000000000LL;
    pr->sp.ns = t0;
    if (atomic_load(&sh->error)) {
        rlb_request_stop(sh);
        return;
    }
    int64_t warm_end = t0 + (int64_t)(cfg->warmup * 1e9);
    while (rlb_now_ns() < warm_end && !atomic_load(&sh->error) && !rlb_interrupted) {
        sleep_ms(20);
        int64_t now = rlb_now_ns();
        if (now >= next_line) {
            sample(cfg, "warmup", (double)(now - t0) / 1e9, pr->th, pr->n, &pr->sp, NULL);
            next_line += 1000000000LL;
        }
    }
}

/* The measured seconds, from t_meas until the run stops (the duration, the
 * --ops count, an error or SIGINT); one sample a second into the series. */
static void measure_until_stop(phase_run *pr, const char *label, int64_t t_meas,
                               phase_result *res)
{
    const bench_cfg *cfg = pr->cfg;
    bench_shared *sh = &pr->sh;
    int64_t next_line = t_meas + 1000000000LL;
    while (!atomic_load(&sh->stop)) {
        sleep_ms(20);
        int64_t now = rlb_now_ns();
        /* a second that ends with the run still counts */
        if (now >= next_line) {
            sample(cfg, label, (double)(now - t_meas) / 1e9, pr->th, pr->n, &pr->sp, res);
            if (cfg->rss_check)
                rss_sample(res);
            next_line += 1000000000LL;
        }
        if (atomic_load(&sh->error) || rlb_interrupted)
            rlb_request_stop(sh);
        else if (!cfg->ops && now - t_meas >= (int64_t)(cfg->duration * 1e9))
            rlb_request_stop(sh);
    }
}

/* The measurement: the starting readings, the measured seconds, and the
 * readings once every client thread's loop has ended. */
static void measure(phase_run *pr, const char *label, phase_result *res)
{
    const bench_cfg *cfg = pr->cfg;
    if (cfg->warmup > 0)
        rlb_mstats_begin(&res->masters, cfg->nodes, cfg->nnodes);
    double cpu0 = rusage_cpu_s(NULL);
    res->rss_warm_kb = res->rss_max_kb = res->rss_min_kb = statm_rss_kb();
    int64_t t_meas = rlb_now_ns();
    uint64_t acq0 = live_acquired(pr);
    atomic_store(&pr->sh.meas_start_ns, t_meas);
    atomic_store(&pr->sh.measuring, 1);
    /* the series' first second starts with the measurement */
    sample(cfg, label, 0, pr->th, pr->n, &pr->sp, NULL);
    measure_until_stop(pr, label, t_meas, res);
    int64_t t_stop = rlb_now_ns();
    uint64_t acq1 = live_acquired(pr);
    res->window_acq_per_s = t_stop > t_meas ? (double)(acq1 - acq0) * 1e9 / (double)(t_stop - t_meas) : 0;
    res->window_s = (double)(t_stop - t_meas) / 1e9;
    if (pr->sh.holders) {
        rlb_holders_figs(pr->sh.holders, t_stop, t_meas, &res->holds);
        res->have_holds = 1;
    }
    pthread_barrier_wait(&pr->sh.b_done);
    int64_t t_end = t_meas;
    for (int i = 0; i < pr->n; i++)
        if (pr->th[i].finish_ns > t_end)
            t_end = pr->th[i].finish_ns;
    res->cpu_s = rusage_cpu_s(&res->maxrss_kb) - cpu0;
    res->rss_end_kb = statm_rss_kb();
    if (res->rss_end_kb > res->rss_max_kb)
        res->rss_max_kb = res->rss_end_kb;
    res->elapsed_s = (double)(t_end - t_meas) / 1e9;
    if (cfg->progress)
        progress_clear(cfg);
}

/* The clients' teardown, their totals merged into res, everything freed. */
static void phase_finish(phase_run *pr, phase_result *res)
{
    bench_shared *sh = &pr->sh;
    pthread_barrier_wait(&sh->b_teardown);
    for (int g = 0; g < pr->nt; g++)
        pthread_join(pr->ta[g].t->tid, NULL);
    /* after the clients' teardown: the requests of the window they still
     * held (for a master slower than the quorum) are sent or dropped now */
    rlb_mstats_end(&res->masters);
    for (int i = 0; i < pr->n; i++)
        merge_client(res, &pr->th[i]);
    res->interrupted = rlb_interrupted;
    if (atomic_load(&sh->error)) {
        res->failed = 1;
        snprintf(res->err, sizeof(res->err), "%s", sh->errmsg);
    }
    pthread_barrier_destroy(&sh->b_setup);
    pthread_barrier_destroy(&sh->b_ready);
    pthread_barrier_destroy(&sh->b_done);
    pthread_barrier_destroy(&sh->b_teardown);
    pthread_mutex_destroy(&sh->err_mu);
    free((void *)sh->last_release);
    free((void *)sh->last_releaser);
    rlb_holders_free(sh->holders);
    free(pr->th);
    free(pr->ta);
    free(pr->mus);
    hist_free(pr->sp.prog);
    hist_free(pr->sp.sec);
}

int rlb_run_phase(const bench_cfg *cfg, const bench_impl *impl, const char *label,
                  phase_result *res)
{
    phase_run pr;
    if (phase_init(&pr, cfg, impl, res) != 0)
        return -1;
    start_threads(&pr);
    warm_up(&pr, res);
    measure(&pr, label, res);
    phase_finish(&pr, res);
    return res->failed ? -1 : 0;
}

void rlb_phase_free(phase_result *r)
{
    for (int op = 0; op < OP_N; op++)
        hist_free(r->tot.lat[op]);
    hist_free(r->tot.handoff);
    hist_free(r->tot.handoff_x);
    hist_free(r->tot.wait_side[0]);
    hist_free(r->tot.wait_side[1]);
    free(r->per_client);
    free(r->series);
    rlb_mstats_free(&r->masters);
    memset(r, 0, sizeof(*r));
}

int rlb_run_lib_phase(const bench_cfg *cfg, const char *label, rlb_kind_figs *f, char *err,
                      size_t errlen)
{
    phase_result res;
    int rc = rlb_run_phase(cfg, &lib_impl, label, &res);
    rlb_phase_figs(cfg, &res, f);
    if (rc != 0)
        snprintf(err, errlen, "%s", res.err);
    else if (res.interrupted || rlb_interrupted)
        rc = 130;
    rlb_phase_free(&res);
    return rc;
}
