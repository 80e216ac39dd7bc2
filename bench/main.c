/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* main.c -- redlock-bench: throughput, latency, fairness and footprint of
 * libredlock against N Redis masters, with an optional raw-command baseline.
 * Run `redlock-bench --help` for the options; docs/performance.md has
 * figures and the exact commands that produced them. */
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "bench.h"
#include "redlock.h"
#include "servers.h"

/* ---- helpers used by the workloads ------------------------------------------ */

int64_t rlb_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

uint64_t rlb_rand(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

void rlb_set_error(bench_shared *sh, const char *fmt, ...)
{
    pthread_mutex_lock(&sh->err_mu);
    if (!atomic_load(&sh->error)) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(sh->errmsg, sizeof(sh->errmsg), fmt, ap);
        va_end(ap);
        atomic_store(&sh->error, 1);
    }
    pthread_mutex_unlock(&sh->err_mu);
}

static void request_stop(bench_shared *sh)
{
    int64_t zero = 0;
    atomic_compare_exchange_strong(&sh->stop_at_ns, &zero, rlb_now_ns());
    atomic_store(&sh->stop, 1);
}

int64_t rlb_stop_at(bench_shared *sh)
{
    int64_t v = atomic_load(&sh->stop_at_ns);
    return v ? v : rlb_now_ns();
}

int rlb_may_start(bench_thread *t, int consume, int *meas)
{
    bench_shared *sh = t->sh;
    if (atomic_load_explicit(&sh->stop, memory_order_relaxed))
        return 0;
    *meas = atomic_load_explicit(&sh->measuring, memory_order_relaxed);
    if (consume && sh->cfg->ops && *meas) {
        uint64_t n = atomic_fetch_add_explicit(&sh->started, 1, memory_order_relaxed);
        if (n >= sh->cfg->ops) {
            request_stop(sh);
            return 0;
        }
    }
    return 1;
}

void rlb_record(bench_thread *t, int meas, int op, int64_t ns, int primary)
{
    if (ns < 0)
        ns = 0;
    if (meas)
        hist_record(t->st.lat[op], (uint64_t)ns);
    if (primary && t->prog) {
        pthread_mutex_lock(&t->prog_mu);
        hist_record(t->prog, (uint64_t)ns);
        pthread_mutex_unlock(&t->prog_mu);
    }
}

void rlb_count_op(bench_thread *t, int meas)
{
    atomic_fetch_add_explicit(&t->live_ops, 1, memory_order_relaxed);
    if (meas)
        t->st.ops++;
}

int rlb_code_index(int code)
{
    return (code <= 0 && code >= -10) ? -code : RLB_NCODES - 1;
}

void rlb_count_fail(bench_thread *t, int meas, int op, int code)
{
    atomic_fetch_add_explicit(&t->live_fail, 1, memory_order_relaxed);
    if (meas)
        t->st.fail[op][rlb_code_index(code)]++;
}

void rlb_count_raw_fail(bench_thread *t, int meas, int which)
{
    atomic_fetch_add_explicit(&t->live_fail, 1, memory_order_relaxed);
    if (meas)
        t->st.raw_fail[which]++;
}

int rlb_key(const bench_cfg *cfg, char *buf, size_t len, long k)
{
    int n = snprintf(buf, len, "%s:%ld", cfg->prefix, k);
    return n < (int)len ? n : (int)len - 1;
}

/* ---- formatting ---------------------------------------------------------------- */

static const char *fmt_count(char *buf, size_t len, uint64_t v)
{
    char tmp[32];
    int n = snprintf(tmp, sizeof(tmp), "%llu", (unsigned long long)v);
    size_t o = 0;
    for (int i = 0; i < n && o + 2 < len; i++) {
        if (i > 0 && (n - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = '\0';
    return buf;
}

static const char *fmt_lat(char *buf, size_t len, double ns)
{
    static const char *unit[] = {"ns", "us", "ms", "s"};
    int u = 0;
    while (ns >= 1000.0 && u < 3) {
        ns /= 1000.0;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%.0f %s", ns, unit[u]);
    else
        snprintf(buf, len, "%.*f %s", ns < 10 ? 2 : ns < 100 ? 1 : 0, ns, unit[u]);
    return buf;
}

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

typedef struct phase_result {
    bench_stats tot;
    uint64_t *per_client;   /* successful acquisitions per client */
    int nclients;
    double elapsed_s;       /* measured */
    double cpu_s;           /* user + sys while measuring */
    long rss_warm_kb, rss_end_kb, rss_max_kb, rss_min_kb;
    long maxrss_kb;
    int failed;
    int interrupted;
    char err[300];
} phase_result;

static volatile sig_atomic_t g_interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    g_interrupted = 1;
}

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
                       label, t_s, fmt_count(a, sizeof(a), (uint64_t)llround(rate)),
                       fmt_lat(b, sizeof(b), (double)hist_quantile(scratch, 0.5)),
                       fmt_lat(c, sizeof(c), (double)hist_quantile(scratch, 0.99)),
                       fmt_count(d, sizeof(d), fail));
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

static int run_phase(const bench_cfg *cfg, const bench_impl *impl, const char *label,
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
        request_stop(&sh);
    } else {
        int64_t warm_end = t0 + (int64_t)(cfg->warmup * 1e9);
        while (rlb_now_ns() < warm_end && !atomic_load(&sh.error) && !g_interrupted) {
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
        if (atomic_load(&sh.error) || g_interrupted)
            request_stop(&sh);
        else if (!cfg->ops && now - t_meas >= (int64_t)(cfg->duration * 1e9))
            request_stop(&sh);
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
    res->interrupted = g_interrupted;
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

static void phase_free(phase_result *r)
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
    int rc = run_phase(cfg, &lib_impl, label, &res);
    *rate = res.elapsed_s > 0 ? (double)res.tot.cycles / res.elapsed_s : 0;
    if (rc != 0)
        snprintf(err, errlen, "%s", res.err);
    else if (res.interrupted || g_interrupted)
        rc = 130;
    phase_free(&res);
    return rc;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static double jain_index(const uint64_t *x, int n)
{
    double s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        s += (double)x[i];
        s2 += (double)x[i] * (double)x[i];
    }
    return s2 > 0 ? (s * s) / ((double)n * s2) : 0.0;
}

/* ---- reporting -------------------------------------------------------------------- */

static const char *const op_names[] = {"acquire", "release", "extend"};
static const char *const raw_fail_names[] = {"SET not OK", "release script did not delete",
                                             "error reply"};

static const char *code_name(int idx)
{
    return idx == RLB_NCODES - 1 ? "unknown error code" : redlock_strerror(-idx);
}

static double rate(uint64_t n, double s)
{
    return s > 0 ? (double)n / s : 0.0;
}

static void print_lat(const char *name, const hist *h)
{
    char a[5][24], mx[24], mean[24];
    if (h->count == 0) {
        printf("  %-17s (no samples)\n", name);
        return;
    }
    printf("  %-17s p50 %s  p90 %s  p99 %s  p99.9 %s  max %s  (mean %s, n=%llu)\n", name,
           fmt_lat(a[0], 24, (double)hist_quantile(h, 0.5)),
           fmt_lat(a[1], 24, (double)hist_quantile(h, 0.9)),
           fmt_lat(a[2], 24, (double)hist_quantile(h, 0.99)),
           fmt_lat(a[3], 24, (double)hist_quantile(h, 0.999)),
           fmt_lat(mx, 24, (double)h->max), fmt_lat(mean, 24, hist_mean(h)),
           (unsigned long long)h->count);
}

static uint64_t cycles_of(const bench_cfg *cfg, const phase_result *r)
{
    (void)cfg;
    return r->tot.cycles;
}

static void print_failures(const phase_result *r)
{
    int any = 0;
    for (int op = 0; op < OP_N; op++)
        for (int c = 0; c < RLB_NCODES; c++)
            if (r->tot.fail[op][c]) {
                char a[32];
                printf("  failure: %-8s %-40s %s\n", op_names[op], code_name(c),
                       fmt_count(a, sizeof(a), r->tot.fail[op][c]));
                any = 1;
            }
    for (int c = 0; c < RAWF_N; c++)
        if (r->tot.raw_fail[c]) {
            char a[32];
            printf("  failure: raw      %-40s %s\n", raw_fail_names[c],
                   fmt_count(a, sizeof(a), r->tot.raw_fail[c]));
            any = 1;
        }
    if (!any)
        printf("  failures          none\n");
}

static void print_phase(const bench_cfg *cfg, const char *title, const phase_result *r)
{
    char a[32], b[32];
    uint64_t cyc = cycles_of(cfg, r);
    printf("%s: %s%s%s%s, %zu masters (quorum %zu), %d client%s, %d in flight, ttl %lld ms, "
           "%.2f s measured%s\n",
           title, rlb_workload_name(cfg->workload),
           cfg->workload != WL_RAW ? "" : cfg->raw_chained ? " (chained)" : " (barrier)",
           cfg->kind && cfg->workload != WL_RAW ? ", kind " : "",
           cfg->kind && cfg->workload != WL_RAW ? rlb_kind_name(cfg->kind) : "",
           cfg->nnodes, cfg->quorum, cfg->clients,
           cfg->clients == 1 ? "" : "s", cfg->concurrency, (long long)cfg->ttl_ms,
           r->elapsed_s, r->interrupted ? " (interrupted)" : "");
    printf("  cycles            %s  (%.1f /s)\n", fmt_count(a, sizeof(a), cyc),
           rate(cyc, r->elapsed_s));
    if (cfg->workload == WL_TRY || cfg->workload == WL_CONTEND)
        printf("  attempts          %s  (%.1f /s), acquired %s (%.1f /s, %.1f%%)\n",
               fmt_count(a, sizeof(a), r->tot.tries), rate(r->tot.tries, r->elapsed_s),
               fmt_count(b, sizeof(b), r->tot.acq_ok), rate(r->tot.acq_ok, r->elapsed_s),
               r->tot.tries ? 100.0 * (double)r->tot.acq_ok / (double)r->tot.tries : 0.0);
    if (cfg->workload == WL_EXTEND)
        printf("  extends           %s  (%.1f /s)\n", fmt_count(a, sizeof(a), r->tot.extends_ok),
               rate(r->tot.extends_ok, r->elapsed_s));
    if (cfg->workload == WL_RAW) {
        print_lat("quorum of SETs", r->tot.lat[OP_ACQ]);
        print_lat(cfg->raw_chained ? "whole cycle" : "all N releases", r->tot.lat[OP_REL]);
    } else {
        print_lat("acquire latency", r->tot.lat[OP_ACQ]);
        print_lat("release latency", r->tot.lat[OP_REL]);
        if (cfg->workload == WL_EXTEND)
            print_lat("extend latency", r->tot.lat[OP_EXT]);
    }
    if (cfg->workload == WL_CONTEND) {
        printf("  fairness          %.4f (Jain's index over %d clients' acquisitions:",
               jain_index(r->per_client, r->nclients), r->nclients);
        for (int i = 0; i < r->nclients && i < 16; i++)
            printf(" %llu", (unsigned long long)r->per_client[i]);
        printf("%s)\n", r->nclients > 16 ? " ..." : "");
        print_lat("handoff latency", r->tot.handoff);
        print_lat("  to another client", r->tot.handoff_x);
    }
    print_failures(r);
    double per1k = cyc ? r->cpu_s * 1000.0 / (double)cyc * 1000.0 : 0.0;
    printf("  cpu (this process) %.3f s user+sys, %.2f ms per 1,000 cycles", r->cpu_s, per1k);
    if (cfg->workload == WL_EXTEND || cfg->workload == WL_TRY || cfg->workload == WL_CONTEND)
        printf(", %.2f ms per 1,000 %s", r->tot.ops ? r->cpu_s * 1e6 / (double)r->tot.ops : 0.0,
               cfg->workload == WL_EXTEND ? "extends" : "attempts");
    printf("\n");
    printf("  peak rss          %s KiB\n", fmt_count(a, sizeof(a), (uint64_t)r->maxrss_kb));
    if (cfg->rss_check)
        printf("  rss check         after warm-up %ld KiB, at end %ld KiB (%+ld KiB), "
               "min %ld, max %ld during the run\n",
               r->rss_warm_kb, r->rss_end_kb, r->rss_end_kb - r->rss_warm_kb, r->rss_min_kb,
               r->rss_max_kb);
}

static void json_str(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

static void json_lat(const char *name, const hist *h)
{
    printf("\"%s\":{\"count\":%llu,\"p50_us\":%.3f,\"p90_us\":%.3f,\"p99_us\":%.3f,"
           "\"p999_us\":%.3f,\"max_us\":%.3f,\"mean_us\":%.3f}",
           name, (unsigned long long)h->count, hist_quantile(h, 0.5) / 1e3,
           hist_quantile(h, 0.9) / 1e3, hist_quantile(h, 0.99) / 1e3,
           hist_quantile(h, 0.999) / 1e3, (double)h->max / 1e3, hist_mean(h) / 1e3);
}

static void json_phase(const bench_cfg *cfg, const phase_result *r)
{
    uint64_t cyc = cycles_of(cfg, r);
    if (cfg->kind && cfg->workload != WL_RAW)
        printf("{\"kind\":\"%s\",", rlb_kind_name(cfg->kind));
    else
        putchar('{');
    printf("\"workload\":\"%s\",\"raw_mode\":%s,\"elapsed_s\":%.3f,\"interrupted\":%s,\"cycles\":%llu,"
           "\"cycles_per_s\":%.1f,\"ops\":%llu,\"ops_per_s\":%.1f,\"attempts\":%llu,"
           "\"acquired\":%llu,\"acquired_per_s\":%.1f,\"extends\":%llu,",
           rlb_workload_name(cfg->workload),
           cfg->workload != WL_RAW ? "null" : cfg->raw_chained ? "\"chained\"" : "\"barrier\"",
           r->elapsed_s, r->interrupted ? "true" : "false",
           (unsigned long long)cyc, rate(cyc, r->elapsed_s), (unsigned long long)r->tot.ops,
           rate(r->tot.ops, r->elapsed_s), (unsigned long long)r->tot.tries,
           (unsigned long long)r->tot.acq_ok, rate(r->tot.acq_ok, r->elapsed_s),
           (unsigned long long)r->tot.extends_ok);
    json_lat("acquire", r->tot.lat[OP_ACQ]);
    putchar(',');
    json_lat("release", r->tot.lat[OP_REL]);
    putchar(',');
    json_lat("extend", r->tot.lat[OP_EXT]);
    printf(",\"failures\":{");
    int first = 1;
    for (int op = 0; op < OP_N; op++) {
        printf("%s\"%s\":{", op ? "," : "", op_names[op]);
        first = 1;
        for (int c = 0; c < RLB_NCODES; c++)
            if (r->tot.fail[op][c]) {
                if (!first)
                    putchar(',');
                json_str(code_name(c));
                printf(":%llu", (unsigned long long)r->tot.fail[op][c]);
                first = 0;
            }
        putchar('}');
    }
    printf(",\"raw\":{");
    first = 1;
    for (int c = 0; c < RAWF_N; c++)
        if (r->tot.raw_fail[c]) {
            if (!first)
                putchar(',');
            json_str(raw_fail_names[c]);
            printf(":%llu", (unsigned long long)r->tot.raw_fail[c]);
            first = 0;
        }
    printf("}}");
    printf(",\"cpu_s\":%.4f,\"cpu_ms_per_1000_cycles\":%.3f,\"cpu_ms_per_1000_ops\":%.3f,"
           "\"peak_rss_kb\":%ld",
           r->cpu_s, cyc ? r->cpu_s * 1e6 / (double)cyc : 0.0,
           r->tot.ops ? r->cpu_s * 1e6 / (double)r->tot.ops : 0.0, r->maxrss_kb);
    if (cfg->rss_check)
        printf(",\"rss_kb\":{\"after_warmup\":%ld,\"end\":%ld,\"min\":%ld,\"max\":%ld}",
               r->rss_warm_kb, r->rss_end_kb, r->rss_min_kb, r->rss_max_kb);
    if (cfg->workload == WL_CONTEND) {
        printf(",\"contention\":{\"keys\":%ld,\"acquisitions_per_s\":%.1f,\"fairness_jain\":%.4f,"
               "\"per_client\":[",
               cfg->keys, rate(r->tot.acq_ok, r->elapsed_s),
               jain_index(r->per_client, r->nclients));
        for (int i = 0; i < r->nclients; i++)
            printf("%s%llu", i ? "," : "", (unsigned long long)r->per_client[i]);
        printf("],");
        json_lat("handoff", r->tot.handoff);
        putchar(',');
        json_lat("handoff_other_client", r->tot.handoff_x);
        putchar('}');
    }
    putchar('}');
}

/* ---- the runs ---------------------------------------------------------------------- */

/* Per round: library cycles/s, baseline cycles/s, their ratio, acquire p50
 * (ns), raw fan-out p50 (ns), their ratio (ratios -1: none). */
enum { NCOLS = 6 };

typedef struct bench_run {
    bench_cfg *cfg;              /* the library's runs */
    bench_cfg raw;               /* the baseline's */
    int repeat;
    phase_result base_res, lib_res;   /* the last round's */
    int have_base, have_lib;
    double (*rounds)[NCOLS];
    int nrounds;
} bench_run;

/* One round: the baseline (with --baseline or --workload raw), then the
 * library's workload.  Returns the exit status so far (0: go on). */
static int run_round(bench_run *r, int round, const char *run_id)
{
    bench_cfg *cfg = r->cfg;
    int last = round == r->repeat - 1;
    phase_free(&r->base_res);
    phase_free(&r->lib_res);
    r->have_base = r->have_lib = 0;
    if (cfg->baseline || cfg->workload == WL_RAW) {
        snprintf(r->raw.prefix, sizeof(r->raw.prefix), "rlbench:%s:%d:raw", run_id, round);
        if (run_phase(&r->raw, &raw_impl, "baseline", &r->base_res) != 0) {
            fprintf(stderr, "redlock-bench: baseline failed: %s\n", r->base_res.err);
            return 1;
        }
        r->have_base = 1;
        if (!cfg->json && last) {
            print_phase(&r->raw, "baseline (raw commands, no quorum logic)", &r->base_res);
            fflush(stdout);
        }
    }
    if (cfg->workload != WL_RAW && !g_interrupted) {
        snprintf(cfg->prefix, sizeof(cfg->prefix), "rlbench:%s:%d", run_id, round);
        if (run_phase(cfg, &lib_impl, rlb_workload_name(cfg->workload), &r->lib_res) != 0) {
            fprintf(stderr, "redlock-bench: run failed: %s\n", r->lib_res.err);
            return 1;
        }
        r->have_lib = 1;
        if (!cfg->json && last)
            print_phase(cfg, "redlock", &r->lib_res);
    }
    double *rd = r->rounds[r->nrounds++];
    rd[0] = r->have_lib ? rate(r->lib_res.tot.cycles, r->lib_res.elapsed_s) : 0;
    rd[1] = r->have_base ? rate(r->base_res.tot.cycles, r->base_res.elapsed_s) : 0;
    rd[3] = r->have_lib ? (double)hist_quantile(r->lib_res.tot.lat[OP_ACQ], 0.5) : 0;
    rd[4] = r->have_base ? (double)hist_quantile(r->base_res.tot.lat[OP_ACQ], 0.5) : 0;
    rd[2] = rd[1] > 0 && r->have_lib ? rd[0] / rd[1] : -1;
    rd[5] = rd[4] > 0 && rd[3] > 0 ? rd[3] / rd[4] : -1;
    if (r->repeat > 1 && !cfg->json) {
        char a[24], b[24];
        printf("round %d/%d: ", round + 1, r->repeat);
        if (r->have_lib)
            printf("redlock %.1f cycles/s, acquire p50 %s", rd[0], fmt_lat(a, sizeof(a), rd[3]));
        if (r->have_base)
            printf("%sbaseline %.1f cycles/s, raw fan-out p50 %s", r->have_lib ? "; " : "",
                   rd[1], fmt_lat(b, sizeof(b), rd[4]));
        if (rd[2] >= 0)
            printf("; %.1f%% of baseline, p50 %.2fx", 100.0 * rd[2], rd[5]);
        printf("\n");
        fflush(stdout);
    }
    return 0;
}

/* The text summary after the runs: the comparison and the medians. */
static void print_summary(const bench_run *r, const double *med)
{
    const double *lr = r->nrounds > 0 ? r->rounds[r->nrounds - 1] : NULL;
    if (r->have_base && r->have_lib) {
        char a[24], b[24];
        printf("comparison%s:\n", r->nrounds > 1 ? " (last round)" : "");
        printf("  lock cycles/s     %.1f vs baseline %.1f = %.1f%% of the raw ceiling\n", lr[0],
               lr[1], 100.0 * lr[2]);
        printf("  acquire p50       %s vs raw fan-out (quorum of SETs) p50 %s = %.2fx%s\n",
               fmt_lat(a, sizeof(a), lr[3]), fmt_lat(b, sizeof(b), lr[4]), lr[5],
               r->cfg->concurrency == 1 ? "" : "  (single-op figure: use --concurrency 1)");
    }
    if (r->nrounds > 1) {
        char a[24], b[24];
        printf("median of %d rounds:", r->nrounds);
        if (r->have_lib)
            printf(" redlock %.1f cycles/s, acquire p50 %s", med[0], fmt_lat(a, sizeof(a), med[3]));
        if (r->have_base)
            printf("%s baseline %.1f cycles/s, raw fan-out p50 %s", r->have_lib ? ";" : "",
                   med[1], fmt_lat(b, sizeof(b), med[4]));
        if (r->have_base && r->have_lib)
            printf("; ratio %.1f%%, p50 %.2fx", 100.0 * med[2], med[5]);
        printf("\n");
    }
}

/* --json: the whole result as one object on stdout. */
static void print_json(const bench_run *r, const double *med)
{
    const bench_cfg *cfg = r->cfg;
    double ratio = r->nrounds > 0 ? r->rounds[r->nrounds - 1][2] : -1;
    double p50_ratio = r->nrounds > 0 ? r->rounds[r->nrounds - 1][5] : -1;
    printf("{\"version\":\"%s\",\"nodes\":%zu,\"quorum\":%zu,\"clients\":%d,"
           "\"concurrency\":%d,\"ttl_ms\":%lld,\"keys\":%ld,\"warmup_s\":%.3f,",
           redlock_version(), cfg->nnodes, cfg->quorum, cfg->clients, cfg->concurrency,
           (long long)cfg->ttl_ms, cfg->keys, cfg->warmup);
    printf("\"result\":");
    if (r->have_lib)
        json_phase(cfg, &r->lib_res);
    else
        printf("null");
    printf(",\"baseline\":");
    if (r->have_base)
        json_phase(&r->raw, &r->base_res);
    else
        printf("null");
    if (ratio >= 0)
        printf(",\"ratio_of_baseline\":%.4f", ratio);
    if (p50_ratio >= 0)
        printf(",\"acquire_p50_over_raw_fanout_p50\":%.4f", p50_ratio);
    static const char *const rk[NCOLS] = {"cycles_per_s", "baseline_cycles_per_s",
                                          "ratio_of_baseline", "acquire_p50_us",
                                          "raw_fanout_p50_us", "acquire_p50_over_raw_fanout_p50"};
    printf(",\"rounds\":[");
    for (int i = 0; i < r->nrounds; i++) {
        printf("%s{", i ? "," : "");
        for (int k = 0; k < NCOLS; k++)
            printf("%s\"%s\":%.4f", k ? "," : "", rk[k],
                   (k == 3 || k == 4) ? r->rounds[i][k] / 1e3 : r->rounds[i][k]);
        printf("}");
    }
    printf("],\"median\":{");
    for (int k = 0; k < NCOLS; k++)
        printf("%s\"%s\":%.4f", k ? "," : "", rk[k], (k == 3 || k == 4) ? med[k] / 1e3 : med[k]);
    printf("}}\n");
}

/* --repeat rounds of the workload (and baseline), then the report.
 * Returns the exit status. */
static int run_bench(bench_cfg *cfg, int repeat)
{
    bench_run r;
    memset(&r, 0, sizeof(r));
    r.cfg = cfg;
    r.repeat = repeat;
    r.raw = *cfg;
    r.raw.workload = WL_RAW;
    if (r.raw.keys < r.raw.concurrency)
        r.raw.keys = r.raw.concurrency;
    r.rounds = calloc((size_t)repeat, sizeof(*r.rounds));
    if (!r.rounds) {
        fprintf(stderr, "redlock-bench: out of memory\n");
        return 1;
    }
    char run_id[40];
    snprintf(run_id, sizeof(run_id), "%lx.%llx", (unsigned long)getpid(),
             (unsigned long long)(rlb_now_ns() / 1000));
    int rc = 0;
    for (int round = 0; round < repeat && rc == 0 && !g_interrupted; round++)
        rc = run_round(&r, round, run_id);
    double med[NCOLS];
    for (int k = 0; k < NCOLS; k++) {
        double col[RLB_MAX_REPEAT];
        for (int i = 0; i < r.nrounds; i++)
            col[i] = r.rounds[i][k];
        med[k] = median(col, r.nrounds);
    }
    if (!cfg->json)
        print_summary(&r, med);
    else if (r.have_base || r.have_lib)
        print_json(&r, med);
    free(r.rounds);
    if ((r.have_lib && r.lib_res.interrupted) || (r.have_base && r.base_res.interrupted))
        rc = rc ? rc : 130;
    phase_free(&r.base_res);
    phase_free(&r.lib_res);
    return rc;
}

/* --spawn N: start the servers and point cfg at them; NULL after an error. */
static rlt_servers *spawn_servers(bench_cfg *cfg, int n)
{
    char err[256] = "";
    rlt_servers *srv = rlt_servers_start(n, NULL, err, sizeof(err));
    if (!srv) {
        fprintf(stderr, "redlock-bench: cannot start %d redis-servers: %s\n", n, err);
        return NULL;
    }
    cfg->nodes = rlt_servers_addrs(srv);
    cfg->nnodes = (size_t)n;
    if (!cfg->json) {
        printf("spawned %d redis-servers:", n);
        for (int i = 0; i < n; i++)
            printf(" %s", cfg->nodes[i]);
        printf("\n");
        fflush(stdout);
    }
    return srv;
}

int main(int argc, char **argv)
{
    bench_opts o;
    int rc = rlb_options(argc, argv, &o);
    if (rc >= 0)
        return rc;

    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);

    rlt_servers *srv = NULL;
    if (o.spawn) {
        if (!(srv = spawn_servers(&o.cfg, o.spawn)))
            return 1;
    } else {
        o.cfg.nodes = o.addrs;
        o.cfg.nnodes = o.naddrs;
    }
    o.cfg.quorum = o.cfg.nnodes / 2 + 1;
    rc = o.kinds ? rlb_run_kinds(&o) : run_bench(&o.cfg, o.repeat);
    rlt_servers_free(srv);
    return rc;
}
