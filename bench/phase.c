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
    bench_thread *t;
    const bench_impl *impl;
} thread_arg;

static void *thread_main(void *arg)
{
    thread_arg *ta = arg;
    bench_thread *t = ta->t;
    bench_shared *sh = t->sh;
    char err[256] = "";
    /* Precise timers: libevent's default on Linux is CLOCK_MONOTONIC_COARSE,
     * whose tick (4 ms here) would stretch --hold, retry delays and node
     * timeouts to the next tick. */
    struct event_config *ec = event_config_new();
    if (ec) {
        event_config_set_flag(ec, EVENT_BASE_FLAG_PRECISE_TIMER);
        t->base = event_base_new_with_config(ec);
        event_config_free(ec);
    }
    int rc = t->base ? ta->impl->setup(t, err, sizeof(err)) : -1;
    if (rc != 0)
        rlb_set_error(sh, "client %d: %s", t->id, t->base ? err : "event_base_new failed");
    pthread_barrier_wait(&sh->b_ready);
    if (!atomic_load(&sh->error))
        ta->impl->run(t);
    t->finish_ns = rlb_now_ns();
    atomic_fetch_add(&sh->threads_done, 1);
    pthread_barrier_wait(&sh->b_done);
    pthread_barrier_wait(&sh->b_teardown);
    ta->impl->teardown(t);
    if (t->base)
        event_base_free(t->base);
    return NULL;
}

static void progress_line(const bench_cfg *cfg, const char *label, double t_s,
                          bench_thread *th, int n, uint64_t *last_ops, int64_t *last_ns,
                          hist *scratch)
{
    uint64_t ops = 0, fail = 0;
    hist_reset(scratch);
    for (int i = 0; i < n; i++) {
        ops += atomic_load(&th[i].live_ops);
        fail += atomic_load(&th[i].live_fail);
        pthread_mutex_lock(&th[i].prog_mu);
        hist_merge(scratch, th[i].prog);
        hist_reset(th[i].prog);
        pthread_mutex_unlock(&th[i].prog_mu);
    }
    int64_t now = rlb_now_ns();
    double dt = (double)(now - *last_ns) / 1e9;
    double rate = dt > 0 ? (double)(ops - *last_ops) / dt : 0;
    *last_ops = ops;
    *last_ns = now;
    char a[32], b[32], c[32], d[32];
    char line[256];
    int len = snprintf(line, sizeof(line), "\r%-8s %5.0fs  %s ops/s  p50 %s  p99 %s  failures %s",
                       label, t_s, rlb_fmt_count(a, sizeof(a), (uint64_t)llround(rate)),
                       rlb_fmt_lat(b, sizeof(b), (double)hist_quantile(scratch, 0.5)),
                       rlb_fmt_lat(c, sizeof(c), (double)hist_quantile(scratch, 0.99)),
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

int rlb_run_phase(const bench_cfg *cfg, const bench_impl *impl, const char *label,
                     phase_result *res)
{
    memset(res, 0, sizeof(*res));
    int n = cfg->clients;
    bench_shared sh;
    memset(&sh, 0, sizeof(sh));
    sh.cfg = cfg;
    pthread_mutex_init(&sh.err_mu, NULL);
    pthread_barrier_init(&sh.b_ready, NULL, (unsigned)n + 1);
    pthread_barrier_init(&sh.b_done, NULL, (unsigned)n + 1);
    pthread_barrier_init(&sh.b_teardown, NULL, (unsigned)n + 1);
    if (cfg->workload == WL_CONTEND) {
        sh.last_release = calloc((size_t)cfg->keys, sizeof(*sh.last_release));
        sh.last_releaser = calloc((size_t)cfg->keys, sizeof(*sh.last_releaser));
        if (!sh.last_release || !sh.last_releaser) {
            snprintf(res->err, sizeof(res->err), "out of memory");
            return -1;
        }
    }
    bench_thread *th = calloc((size_t)n, sizeof(*th));
    thread_arg *ta = calloc((size_t)n, sizeof(*ta));
    hist *scratch = hist_new();
    res->per_client = calloc((size_t)n, sizeof(uint64_t));
    res->nclients = n;
    if (!th || !ta || !scratch || !res->per_client) {
        snprintf(res->err, sizeof(res->err), "out of memory");
        return -1;
    }
    for (int op = 0; op < OP_N; op++)
        res->tot.lat[op] = hist_new();
    res->tot.handoff = hist_new();
    res->tot.handoff_x = hist_new();
    int base = 0;
    for (int i = 0; i < n; i++) {
        bench_thread *t = &th[i];
        t->sh = &sh;
        t->id = i;
        t->nslots = cfg->concurrency / n + (i < cfg->concurrency % n);
        t->slot_base = base;
        base += t->nslots;
        t->rng = cfg->seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(i + 1));
        if (!t->rng)
            t->rng = 1;
        pthread_mutex_init(&t->prog_mu, NULL);
        for (int op = 0; op < OP_N; op++)
            t->st.lat[op] = hist_new();
        t->st.handoff = hist_new();
        t->st.handoff_x = hist_new();
        if (cfg->progress)
            t->prog = hist_new();
        ta[i].t = t;
        ta[i].impl = impl;
    }
    /* Workers do not take SIGINT: the main thread does. */
    sigset_t all, old;
    sigemptyset(&all);
    sigaddset(&all, SIGINT);
    sigaddset(&all, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    int started = 0;
    for (int i = 0; i < n; i++) {
        if (pthread_create(&th[i].tid, NULL, thread_main, &ta[i]) != 0)
            break;
        started++;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (started < n) {
        /* cannot meet the barriers: abandon (rare; report and exit) */
        fprintf(stderr, "redlock-bench: pthread_create failed\n");
        exit(2);
    }

    pthread_barrier_wait(&sh.b_ready);
    int64_t t0 = rlb_now_ns(), last_ns = t0, next_line = t0 + 1000000000LL;
    uint64_t last_ops = 0;
    if (atomic_load(&sh.error)) {
        rlb_request_stop(&sh);
    } else {
        int64_t warm_end = t0 + (int64_t)(cfg->warmup * 1e9);
        while (rlb_now_ns() < warm_end && !atomic_load(&sh.error) && !rlb_interrupted) {
            sleep_ms(20);
            int64_t now = rlb_now_ns();
            if (cfg->progress && now >= next_line) {
                progress_line(cfg, "warmup", (double)(now - t0) / 1e9, th, n, &last_ops,
                              &last_ns, scratch);
                next_line += 1000000000LL;
            }
        }
    }
    double cpu0 = rusage_cpu_s(NULL);
    res->rss_warm_kb = res->rss_max_kb = res->rss_min_kb = statm_rss_kb();
    int64_t t_meas = rlb_now_ns();
    atomic_store(&sh.measuring, 1);
    next_line = t_meas + 1000000000LL;
    int64_t next_rss = t_meas + 1000000000LL;
    while (!atomic_load(&sh.stop)) {
        sleep_ms(20);
        int64_t now = rlb_now_ns();
        if (atomic_load(&sh.error) || rlb_interrupted)
            rlb_request_stop(&sh);
        else if (!cfg->ops && now - t_meas >= (int64_t)(cfg->duration * 1e9))
            rlb_request_stop(&sh);
        if (cfg->progress && now >= next_line) {
            progress_line(cfg, label, (double)(now - t_meas) / 1e9, th, n, &last_ops, &last_ns,
                          scratch);
            next_line += 1000000000LL;
        }
        if (cfg->rss_check && now >= next_rss) {
            long r = statm_rss_kb();
            if (r > res->rss_max_kb)
                res->rss_max_kb = r;
            if (r < res->rss_min_kb)
                res->rss_min_kb = r;
            next_rss += 1000000000LL;
        }
    }
    pthread_barrier_wait(&sh.b_done);
    int64_t t_end = t_meas;
    for (int i = 0; i < n; i++)
        if (th[i].finish_ns > t_end)
            t_end = th[i].finish_ns;
    res->cpu_s = rusage_cpu_s(&res->maxrss_kb) - cpu0;
    res->rss_end_kb = statm_rss_kb();
    if (res->rss_end_kb > res->rss_max_kb)
        res->rss_max_kb = res->rss_end_kb;
    res->elapsed_s = (double)(t_end - t_meas) / 1e9;
    if (cfg->progress)
        progress_clear(cfg);
    pthread_barrier_wait(&sh.b_teardown);
    for (int i = 0; i < n; i++)
        pthread_join(th[i].tid, NULL);

    for (int i = 0; i < n; i++) {
        bench_stats *s = &th[i].st;
        for (int op = 0; op < OP_N; op++) {
            hist_merge(res->tot.lat[op], s->lat[op]);
            hist_free(s->lat[op]);
            for (int c = 0; c < RLB_NCODES; c++)
                res->tot.fail[op][c] += s->fail[op][c];
        }
        hist_merge(res->tot.handoff, s->handoff);
        hist_free(s->handoff);
        hist_merge(res->tot.handoff_x, s->handoff_x);
        hist_free(s->handoff_x);
        for (int c = 0; c < RAWF_N; c++)
            res->tot.raw_fail[c] += s->raw_fail[c];
        res->tot.cycles += s->cycles;
        res->tot.ops += s->ops;
        res->tot.acq_ok += s->acq_ok;
        res->tot.tries += s->tries;
        res->tot.extends_ok += s->extends_ok;
        res->per_client[i] = s->acq_ok;
        hist_free(th[i].prog);
        pthread_mutex_destroy(&th[i].prog_mu);
    }
    res->interrupted = rlb_interrupted;
    if (atomic_load(&sh.error)) {
        res->failed = 1;
        snprintf(res->err, sizeof(res->err), "%s", sh.errmsg);
    }
    pthread_barrier_destroy(&sh.b_ready);
    pthread_barrier_destroy(&sh.b_done);
    pthread_barrier_destroy(&sh.b_teardown);
    pthread_mutex_destroy(&sh.err_mu);
    free((void *)sh.last_release);
    free((void *)sh.last_releaser);
    free(th);
    free(ta);
    hist_free(scratch);
    return res->failed ? -1 : 0;
}

void rlb_phase_free(phase_result *r)
{
    for (int op = 0; op < OP_N; op++)
        hist_free(r->tot.lat[op]);
    hist_free(r->tot.handoff);
    hist_free(r->tot.handoff_x);
    free(r->per_client);
    memset(r, 0, sizeof(*r));
}

int rlb_run_lib_phase(const bench_cfg *cfg, const char *label, double *rate, char *err,
                      size_t errlen)
{
    phase_result res;
    int rc = rlb_run_phase(cfg, &lib_impl, label, &res);
    *rate = res.elapsed_s > 0 ? (double)res.tot.cycles / res.elapsed_s : 0;
    if (rc != 0)
        snprintf(err, errlen, "%s", res.err);
    else if (res.interrupted || rlb_interrupted)
        rc = 130;
    rlb_phase_free(&res);
    return rc;
}

