/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* report.c -- a phase's results as text and as JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "redlock.h"
#include "report.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

double rlb_median(double *v, int n)
{
    if (n <= 0)
        return 0;
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double rlb_jain(const uint64_t *x, int n)
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

static const char *raw_fail_name(int idx)
{
    return raw_fail_names[idx];
}

static const char *code_name(int idx)
{
    return idx == RLB_NCODES - 1 ? "unknown error code" : redlock_strerror(-idx);
}

double rlb_rate(uint64_t n, double s)
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
           rlb_fmt_lat(a[0], 24, (double)hist_quantile(h, 0.5)),
           rlb_fmt_lat(a[1], 24, (double)hist_quantile(h, 0.9)),
           rlb_fmt_lat(a[2], 24, (double)hist_quantile(h, 0.99)),
           rlb_fmt_lat(a[3], 24, (double)hist_quantile(h, 0.999)),
           rlb_fmt_lat(mx, 24, (double)h->max), rlb_fmt_lat(mean, 24, hist_mean(h)),
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
                       rlb_fmt_count(a, sizeof(a), r->tot.fail[op][c]));
                any = 1;
            }
    for (int c = 0; c < RAWF_N; c++)
        if (r->tot.raw_fail[c]) {
            char a[32];
            printf("  failure: raw      %-40s %s\n", raw_fail_names[c],
                   rlb_fmt_count(a, sizeof(a), r->tot.raw_fail[c]));
            any = 1;
        }
    if (!any)
        printf("  failures          none\n");
}

/* --rate: the schedule kept or not. */
static void print_open_loop(const bench_cfg *cfg, const phase_result *r)
{
    if (cfg->rate <= 0)
        return;
    char a[32], b[32], c[32], d[32];
    printf("  open loop         %.1f starts/s due, %s started (%.1f /s), %s late (> 1 ms), "
           "%s missed, max lag %s\n",
           cfg->rate, rlb_fmt_count(a, sizeof(a), r->tot.sched_started),
           rlb_rate(r->tot.sched_started, r->elapsed_s),
           rlb_fmt_count(b, sizeof(b), r->tot.sched_late),
           rlb_fmt_count(c, sizeof(c), r->tot.sched_missed),
           rlb_fmt_lat(d, sizeof(d), (double)r->tot.sched_max_lag_ns));
}

/* The library's counters (all the clients' lives, warm-up included). */
static void print_acquire_stats(const phase_result *r)
{
    const bench_stats *s = &r->tot;
    if (!s->have_lib_stats)
        return;
    char a[32], b[32], c[32];
    printf("  split votes       %s of %s attempts (%.2f%%), %.2f attempts per acquisition, "
           "%s early retries woken by a release\n",
           rlb_fmt_count(a, sizeof(a), s->lib_split_votes),
           rlb_fmt_count(b, sizeof(b), s->lib_attempts),
           s->lib_attempts ? 100.0 * (double)s->lib_split_votes / (double)s->lib_attempts : 0.0,
           s->lib_won ? (double)s->lib_attempts / (double)s->lib_won : 0.0,
           rlb_fmt_count(c, sizeof(c), s->lib_wakeups));
}

/* x per unit (a cycle, an op), 0 without units */
static double per(double x, uint64_t units)
{
    return units ? x / (double)units : 0.0;
}

/* One CPU line: cpu_s, per 1,000 cycles (= us per cycle) and, where the
 * workload counts attempts or extends, per 1,000 of those. */
static void print_cpu(const bench_cfg *cfg, const phase_result *r, const char *label, double cpu_s,
                      const char *who)
{
    printf("  %-18s %.3f s user+sys%s, %.2f ms per 1,000 cycles", label, cpu_s, who,
           per(cpu_s * 1e6, cycles_of(cfg, r)));
    if (cfg->workload == WL_EXTEND || cfg->workload == WL_TRY || cfg->workload == WL_CONTEND)
        printf(", %.2f ms per 1,000 %s", per(cpu_s * 1e6, r->tot.ops),
               cfg->workload == WL_EXTEND ? "extends" : "attempts");
    printf("\n");
}

/* The masters' CPU and commands over the window, next to this process's. */
static void print_masters(const bench_cfg *cfg, const phase_result *r)
{
    const rlb_mstats *m = &r->masters;
    if (!m->available) {
        printf("  %-18s not available (%s)\n", "cpu (masters)", m->why);
        return;
    }
    char who[128], of[64] = "";
    if (m->cluster_votes)
        snprintf(of, sizeof(of), " (every master of %zu Redis Cluster%s)", m->cluster_votes,
                 m->cluster_votes == 1 ? "" : "s");
    snprintf(who, sizeof(who), " of %zu %s%s%s", m->nodes,
             m->main_thread ? "main thread" : "process",
             m->nodes == 1 ? "" : m->main_thread ? "s" : "es", of);
    print_cpu(cfg, r, "cpu (masters)", m->cpu_s, who);
    uint64_t cyc = cycles_of(cfg, r);
    printf("  %-18s %.2f per cycle, scripts' own calls included:", "commands (masters)",
           per((double)m->calls, cyc));
    for (int i = 0; i < m->ncmd; i++)
        printf("%s %s %.2f (%.2f us each)", i ? "," : "", m->cmd[i].name,
               per((double)m->cmd[i].calls, cyc), per((double)m->cmd[i].usec, m->cmd[i].calls));
    printf("\n");
}

void rlb_phase_cost(const phase_result *r, rlb_cost *c)
{
    const rlb_mstats *m = &r->masters;
    uint64_t cyc = r->tot.cycles;
    c->cycles_per_s = rlb_rate(cyc, r->elapsed_s);
    c->client_us = per(r->cpu_s * 1e6, cyc);
    c->server_us = m->available && cyc ? per(m->cpu_s * 1e6, cyc) : -1;
    c->total_us = c->server_us >= 0 ? c->server_us + c->client_us : -1;
}

/* What a cycle costs in CPU, the masters' and this process's, at what rate. */
static void print_cost(const phase_result *r)
{
    rlb_cost c;
    char a[32];
    rlb_phase_cost(r, &c);
    printf("  %-18s ", "cost per cycle");
    if (c.server_us >= 0)
        printf("%.2f us masters + %.2f us client = %.2f us CPU", c.server_us, c.client_us,
               c.total_us);
    else
        printf("%.2f us client (the masters' CPU not available)", c.client_us);
    printf(", at %s cycles/s\n", rlb_fmt_count(a, sizeof(a), (uint64_t)(c.cycles_per_s + 0.5)));
}

/* The cycles and, by workload, the attempts or the extends. */
static void print_counts(const bench_cfg *cfg, const phase_result *r)
{
    char a[32], b[32];
    uint64_t cyc = cycles_of(cfg, r);
    printf("  cycles            %s  (%.1f /s)\n", rlb_fmt_count(a, sizeof(a), cyc),
           rlb_rate(cyc, r->elapsed_s));
    if (cfg->workload == WL_TRY || cfg->workload == WL_CONTEND)
        printf("  attempts          %s  (%.1f /s), acquired %s (%.1f /s, %.1f%%)\n",
               rlb_fmt_count(a, sizeof(a), r->tot.tries), rlb_rate(r->tot.tries, r->elapsed_s),
               rlb_fmt_count(b, sizeof(b), r->tot.acq_ok), rlb_rate(r->tot.acq_ok, r->elapsed_s),
               r->tot.tries ? 100.0 * (double)r->tot.acq_ok / (double)r->tot.tries : 0.0);
    if (cfg->workload == WL_EXTEND)
        printf("  extends           %s  (%.1f /s)\n", rlb_fmt_count(a, sizeof(a), r->tot.extends_ok),
               rlb_rate(r->tot.extends_ok, r->elapsed_s));
}

/* The operations' latencies (raw: the quorum of SETs and the releases). */
static void print_latencies(const bench_cfg *cfg, const phase_result *r)
{
    if (cfg->workload == WL_RAW) {
        print_lat("quorum of SETs", r->tot.lat[OP_ACQ]);
        print_lat(cfg->raw_chained ? "whole cycle" : "all N releases", r->tot.lat[OP_REL]);
        return;
    }
    print_lat("acquire latency", r->tot.lat[OP_ACQ]);
    print_lat("release latency", r->tot.lat[OP_REL]);
    if (cfg->workload == WL_EXTEND)
        print_lat("extend latency", r->tot.lat[OP_EXT]);
}

static double share(int64_t ns, const phase_result *r, long keys)
{
    return r->window_s > 0 && keys > 0 ? (double)ns / 1e9 / r->window_s / (double)keys : 0;
}

/* contend: the holders seen, the invariant, and per side (rw) the waits
 * and the share of the time each held the key. */
static void print_holders(const bench_cfg *cfg, const phase_result *r)
{
    const rlb_hold_figs *h = &r->holds;
    if (!r->have_holds)
        return;
    printf("  holders           at most %d at once (the kind allows %d%s), the key held "
           "%.1f%% of the time; ", h->max_total, h->limit,
           cfg->kind == RLB_KIND_RW || cfg->kind == REDLOCK_KIND_READ ? " writer, any readers "
                                                                         "without one" : "",
           100 * share(h->any_ns, r, cfg->keys));
    if (h->violations)
        printf("invariant BROKEN by %llu acquisitions\n", (unsigned long long)h->violations);
    else
        printf("invariant kept\n");
    if (cfg->kind != RLB_KIND_RW)
        return;
    static const char *const side[2] = {"readers", "writers"};
    for (int k = 0; k < 2; k++) {
        char name[40];
        snprintf(name, sizeof name, "%s' wait", side[k]);
        print_lat(name, r->tot.wait_side[k]);
        printf("  %-17s held %.1f%% of the time, up to %d at once (%d client%s)\n", side[k],
               100 * share(h->held_ns[k], r, cfg->keys), h->max_side[k],
               k ? cfg->writers : cfg->clients - cfg->writers,
               (k ? cfg->writers : cfg->clients - cfg->writers) == 1 ? "" : "s");
    }
}

/* contend: the window's rate, the fairness and the hand-off latencies. */
static void print_contention(const phase_result *r)
{
    printf("  in the window     %.1f acquisitions/s (completed within the measured seconds)\n",
           r->window_acq_per_s);
    printf("  fairness          %.4f (Jain's index over %d clients' acquisitions:",
           rlb_jain(r->per_client, r->nclients), r->nclients);
    for (int i = 0; i < r->nclients && i < 16; i++)
        printf(" %llu", (unsigned long long)r->per_client[i]);
    printf("%s)\n", r->nclients > 16 ? " ..." : "");
    print_lat("handoff latency", r->tot.handoff);
    print_lat("  to another client", r->tot.handoff_x);
}

/* "3 masters", "3 cluster votes" or "3 votes, 1 a cluster" into buf. */
static const char *votes_said(const bench_cfg *cfg, char *buf, size_t len)
{
    size_t nc = 0;
    for (size_t i = 0; i < cfg->nnodes; i++)
        nc += strncmp(cfg->nodes[i], "redis-cluster://", 16) == 0 ||
              strncmp(cfg->nodes[i], "rediss-cluster://", 17) == 0;
    if (nc == 0)
        snprintf(buf, len, "%zu masters", cfg->nnodes);
    else if (nc == cfg->nnodes)
        snprintf(buf, len, "%zu cluster vote%s", nc, nc == 1 ? "" : "s");
    else
        snprintf(buf, len, "%zu votes, %zu a cluster", cfg->nnodes, nc);
    return buf;
}

void rlb_print_phase(const bench_cfg *cfg, const char *title, const phase_result *r)
{
    char a[32], v[64];
    char thr[40] = "";
    if (cfg->threads != cfg->clients)
        snprintf(thr, sizeof(thr), " on %d thread%s", cfg->threads, cfg->threads == 1 ? "" : "s");
    printf("%s: %s%s%s%s, %s (quorum %zu), %d client%s%s, %d in flight, ttl %lld ms, "
           "%.2f s measured%s\n",
           title, rlb_workload_name(cfg->workload),
           cfg->workload != WL_RAW ? "" : cfg->raw_chained ? " (chained)" : " (barrier)",
           cfg->kind && cfg->workload != WL_RAW ? ", kind " : "",
           cfg->kind && cfg->workload != WL_RAW ? rlb_kind_name(cfg->kind) : "",
           votes_said(cfg, v, sizeof(v)), cfg->quorum, cfg->clients,
           cfg->clients == 1 ? "" : "s", thr, cfg->concurrency, (long long)cfg->ttl_ms,
           r->elapsed_s, r->interrupted ? " (interrupted)" : "");
    print_counts(cfg, r);
    print_latencies(cfg, r);
    if (cfg->workload == WL_CONTEND) {
        print_contention(r);
        print_holders(cfg, r);
    }
    print_open_loop(cfg, r);
    print_acquire_stats(r);
    print_failures(r);
    print_cpu(cfg, r, "cpu (this process)", r->cpu_s, "");
    print_masters(cfg, r);
    if (cfg->workload != WL_RAW)
        print_cost(r);
    printf("  peak rss          %s KiB\n", rlb_fmt_count(a, sizeof(a), (uint64_t)r->maxrss_kb));
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

void rlb_json_lat(const char *name, const hist *h)
{
    printf("\"%s\":{\"count\":%llu,\"p50_us\":%.3f,\"p90_us\":%.3f,\"p99_us\":%.3f,"
           "\"p999_us\":%.3f,\"max_us\":%.3f,\"mean_us\":%.3f}",
           name, (unsigned long long)h->count, hist_quantile(h, 0.5) / 1e3,
           hist_quantile(h, 0.9) / 1e3, hist_quantile(h, 0.99) / 1e3,
           hist_quantile(h, 0.999) / 1e3, (double)h->max / 1e3, hist_mean(h) / 1e3);
}

/* {"name":count,...} of the n counts that are not 0, by name(index). */
static void json_counts(const uint64_t *count, int n, const char *(*name)(int))
{
    int first = 1;
    putchar('{');
    for (int c = 0; c < n; c++)
        if (count[c]) {
            if (!first)
                putchar(',');
            json_str(name(c));
            printf(":%llu", (unsigned long long)count[c]);
            first = 0;
        }
    putchar('}');
}

static void json_extra(const bench_cfg *cfg, const phase_result *r)
{
    const bench_stats *s = &r->tot;
    if (cfg->rate > 0)
        printf(",\"open_loop\":{\"rate\":%.3f,\"started\":%llu,\"started_per_s\":%.1f,"
               "\"late\":%llu,\"missed\":%llu,\"max_lag_us\":%.3f}",
               cfg->rate, (unsigned long long)s->sched_started,
               rlb_rate(s->sched_started, r->elapsed_s), (unsigned long long)s->sched_late,
               (unsigned long long)s->sched_missed, (double)s->sched_max_lag_ns / 1e3);
    if (s->have_lib_stats)
        printf(",\"acquire_stats\":{\"attempts\":%llu,\"won\":%llu,\"split_votes\":%llu,"
               "\"wakeups\":%llu,\"split_vote_rate\":%.6f,\"attempts_per_acquisition\":%.4f}",
               (unsigned long long)s->lib_attempts, (unsigned long long)s->lib_won,
               (unsigned long long)s->lib_split_votes, (unsigned long long)s->lib_wakeups,
               s->lib_attempts ? (double)s->lib_split_votes / (double)s->lib_attempts : 0.0,
               s->lib_won ? (double)s->lib_attempts / (double)s->lib_won : 0.0);
}

/* "masters": the window's CPU and commands over all masters, per cycle and
 * per op; or why there are none. */
static void json_masters(const rlb_mstats *m, uint64_t cyc, uint64_t ops)
{
    if (!m->available) {
        printf("{\"available\":false,\"why\":");
        json_str(m->why);
        putchar('}');
        return;
    }
    printf("{\"available\":true,\"nodes\":%zu,\"votes\":%zu,\"cluster_votes\":%zu,\"cpu_s\":%.6f,\"cpu_source\":\"%s\","
           "\"cpu_us_per_cycle\":%.3f,\"cpu_us_per_op\":%.3f,\"commands\":%llu,"
           "\"commands_per_cycle\":%.4f,\"commands_per_op\":%.4f,\"per_command\":{",
           m->nodes, m->votes, m->cluster_votes, m->cpu_s, m->main_thread ? "main_thread" : "process",
           per(m->cpu_s * 1e6, cyc), per(m->cpu_s * 1e6, ops), (unsigned long long)m->calls,
           per((double)m->calls, cyc), per((double)m->calls, ops));
    for (int i = 0; i < m->ncmd; i++) {
        const rlb_cmdstat *c = &m->cmd[i];
        printf("%s", i ? "," : "");
        json_str(c->name);
        printf(":{\"calls\":%llu,\"per_cycle\":%.4f,\"per_op\":%.4f,\"usec\":%llu,"
               "\"usec_per_call\":%.3f}",
               (unsigned long long)c->calls, per((double)c->calls, cyc),
               per((double)c->calls, ops), (unsigned long long)c->usec,
               per((double)c->usec, c->calls));
    }
    printf("}}");
}

/* "cost": a cycle's CPU, the masters' (null when not available), this
 * process's and both, at the cycles' rate. */
static void json_cost(const phase_result *r)
{
    rlb_cost c;
    rlb_phase_cost(r, &c);
    printf(",\"cost\":{\"cycles_per_s\":%.1f,\"client_cpu_us_per_cycle\":%.3f,", c.cycles_per_s,
           c.client_us);
    if (c.server_us >= 0)
        printf("\"server_cpu_us_per_cycle\":%.3f,\"cpu_us_per_cycle\":%.3f}", c.server_us,
               c.total_us);
    else
        printf("\"server_cpu_us_per_cycle\":null,\"cpu_us_per_cycle\":null}");
}

/* "failures": per operation, the count of each error; then the raw ones. */
static void json_failures(const phase_result *r)
{
    printf(",\"failures\":{");
    for (int op = 0; op < OP_N; op++) {
        printf("%s\"%s\":", op ? "," : "", op_names[op]);
        json_counts(r->tot.fail[op], RLB_NCODES, code_name);
    }
    printf(",\"raw\":");
    json_counts(r->tot.raw_fail, RAWF_N, raw_fail_name);
    putchar('}');
}

/* contend: the keys, the rates, the fairness and the hand-off latencies. */
static void json_contention(const bench_cfg *cfg, const phase_result *r)
{
    printf(",\"contention\":{\"keys\":%ld,\"acquisitions_per_s\":%.1f,"
           "\"window_acquisitions_per_s\":%.1f,\"fairness_jain\":%.4f,\"per_client\":[",
           cfg->keys, rlb_rate(r->tot.acq_ok, r->elapsed_s), r->window_acq_per_s,
           rlb_jain(r->per_client, r->nclients));
    for (int i = 0; i < r->nclients; i++)
        printf("%s%llu", i ? "," : "", (unsigned long long)r->per_client[i]);
    printf("],");
    rlb_json_lat("handoff", r->tot.handoff);
    putchar(',');
    rlb_json_lat("handoff_other_client", r->tot.handoff_x);
    if (r->have_holds) {
        const rlb_hold_figs *h = &r->holds;
        printf(",\"holders\":{\"limit\":%d,\"max\":%d,\"violations\":%llu,"
               "\"invariant_kept\":%s,\"held_share\":%.4f}",
               h->limit, h->max_total, (unsigned long long)h->violations,
               h->violations ? "false" : "true", share(h->any_ns, r, cfg->keys));
    }
    if (r->have_holds && cfg->kind == RLB_KIND_RW) {
        static const char *const side[2] = {"readers", "writers"};
        for (int k = 0; k < 2; k++) {
            printf(",\"%s\":{\"clients\":%d,\"max_at_once\":%d,\"held_share\":%.4f,", side[k],
                   k ? cfg->writers : cfg->clients - cfg->writers, r->holds.max_side[k],
                   share(r->holds.held_ns[k], r, cfg->keys));
            rlb_json_lat("wait", r->tot.wait_side[k]);
            putchar('}');
        }
    }
    putchar('}');
}

void rlb_phase_figs(const bench_cfg *cfg, const phase_result *r, rlb_kind_figs *f)
{
    const rlb_mstats *m = &r->masters;
    f->cycles_per_s = rlb_rate(r->tot.cycles, r->elapsed_s);
    f->acq_per_s = r->window_acq_per_s;
    f->handoff_p50_ns = r->tot.handoff ? (double)hist_quantile(r->tot.handoff, 0.5) : 0;
    f->wait_p50_ns = r->tot.lat[OP_ACQ] ? (double)hist_quantile(r->tot.lat[OP_ACQ], 0.5) : 0;
    f->wait_p99_ns = r->tot.lat[OP_ACQ] ? (double)hist_quantile(r->tot.lat[OP_ACQ], 0.99) : 0;
    f->jain = r->per_client ? rlb_jain(r->per_client, r->nclients) : 0;
    f->masters_cpu_us = m->available ? per(m->cpu_s * 1e6, r->tot.cycles) : -1;
    f->held_share = r->have_holds ? share(r->holds.any_ns, r, cfg->keys) : 0;
    f->max_holders = r->holds.max_total;
    f->violations = r->holds.violations;
    for (int k = 0; k < 2; k++) {
        const hist *h = r->tot.wait_side[k];
        f->side_wait[k][0] = h ? (double)hist_quantile(h, 0.5) : 0;
        f->side_wait[k][1] = h ? (double)hist_quantile(h, 0.99) : 0;
        f->side_wait[k][2] = h ? (double)h->max : 0;
        f->side_held[k] = r->have_holds ? share(r->holds.held_ns[k], r, cfg->keys) : 0;
    }
}

void rlb_json_phase(const bench_cfg *cfg, const phase_result *r)
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
           (unsigned long long)cyc, rlb_rate(cyc, r->elapsed_s), (unsigned long long)r->tot.ops,
           rlb_rate(r->tot.ops, r->elapsed_s), (unsigned long long)r->tot.tries,
           (unsigned long long)r->tot.acq_ok, rlb_rate(r->tot.acq_ok, r->elapsed_s),
           (unsigned long long)r->tot.extends_ok);
    rlb_json_lat("acquire", r->tot.lat[OP_ACQ]);
    putchar(',');
    rlb_json_lat("release", r->tot.lat[OP_REL]);
    putchar(',');
    rlb_json_lat("extend", r->tot.lat[OP_EXT]);
    json_failures(r);
    printf(",\"cpu_s\":%.4f,\"cpu_ms_per_1000_cycles\":%.3f,\"cpu_ms_per_1000_ops\":%.3f,"
           "\"peak_rss_kb\":%ld",
           r->cpu_s, cyc ? r->cpu_s * 1e6 / (double)cyc : 0.0,
           r->tot.ops ? r->cpu_s * 1e6 / (double)r->tot.ops : 0.0, r->maxrss_kb);
    printf(",\"client_cpu_us_per_cycle\":%.3f,\"masters\":", per(r->cpu_s * 1e6, cyc));
    json_masters(&r->masters, cyc, r->tot.ops);
    json_cost(r);
    if (cfg->rss_check)
        printf(",\"rss_kb\":{\"after_warmup\":%ld,\"end\":%ld,\"min\":%ld,\"max\":%ld}",
               r->rss_warm_kb, r->rss_end_kb, r->rss_min_kb, r->rss_max_kb);
    if (cfg->workload == WL_CONTEND)
        json_contention(cfg, r);
    json_extra(cfg, r);
    rlb_json_series(r);
    putchar('}');
}

