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
#include "report.h"

static void on_sigint(int sig)
{
    (void)sig;
    rlb_interrupted = 1;
}

/* ---- the runs ---------------------------------------------------------------------- */

/* Per round: library cycles/s, baseline cycles/s, their ratio, acquire p50
 * (ns), raw fan-out p50 (ns), their ratio (ratios -1: none).  contend:
 * acquisitions/s in the measured window, and the hand-off p50, against
 * the raw hand-off chain's (handoff.c).  Then the library's cost per
 * cycle (us of CPU): the masters', this process's, both (-1: none). */
enum { NCOLS = 9, COL_COST = 6 };

/* The columns' words: [0] the cycle workloads', [1] contend's. */
static const struct {
    const char *rate, *lat, *base_lat, *json[NCOLS];
} words[2] = {
    {"cycles/s", "acquire p50", "raw fan-out p50",
     {"cycles_per_s", "baseline_cycles_per_s", "ratio_of_baseline", "acquire_p50_us",
      "raw_fanout_p50_us", "acquire_p50_over_raw_fanout_p50", "server_cpu_us_per_cycle",
      "client_cpu_us_per_cycle", "cpu_us_per_cycle"}},
    {"acquisitions/s", "hand-off p50", "raw chain's hand-off p50",
     {"acquisitions_per_s", "baseline_acquisitions_per_s", "ratio_of_baseline",
      "handoff_p50_us", "baseline_handoff_p50_us", "handoff_p50_over_baseline",
      "server_cpu_us_per_cycle", "client_cpu_us_per_cycle", "cpu_us_per_cycle"}},
};

static int contend(const bench_cfg *cfg)
{
    return cfg->workload == WL_CONTEND;
}

/* A phase's rate and p50 for the columns. */
static double col_rate(const bench_cfg *cfg, const phase_result *res)
{
    return contend(cfg) ? res->window_acq_per_s : rlb_rate(res->tot.cycles, res->elapsed_s);
}

static double col_p50(const bench_cfg *cfg, const phase_result *res)
{
    return (double)hist_quantile(contend(cfg) ? res->tot.handoff : res->tot.lat[OP_ACQ], 0.5);
}

typedef struct bench_run {
    bench_cfg *cfg;              /* the library's runs */
    bench_cfg raw;               /* the baseline's */
    int repeat;
    phase_result base_res, lib_res;   /* the last round's */
    int have_base, have_lib;
    uint64_t violations;         /* contend: the holders' invariant broken (holders.c) */
    double (*rounds)[NCOLS];
    int nrounds;
} bench_run;

/* A round's (or the medians') columns: "redlock <rate>, <p50>; baseline
 * <rate>, <p50>", of the phases run; `lead` before the first. */
static void print_figures(const bench_run *r, const double *row, const char *lead)
{
    char a[24], b[24];
    int w = contend(r->cfg);
    if (r->have_lib)
        printf("%sredlock %.1f %s, %s %s", lead, row[0], words[w].rate, words[w].lat,
               rlb_fmt_lat(a, sizeof(a), row[3]));
    if (r->have_lib && row[COL_COST] >= 0)
        printf(", %.2f + %.2f = %.2f us CPU per cycle (masters + client)", row[COL_COST],
               row[COL_COST + 1], row[COL_COST + 2]);
    if (r->have_base)
        printf("%sbaseline %.1f %s, %s %s", r->have_lib ? "; " : lead, row[1], words[w].rate,
               words[w].base_lat, rlb_fmt_lat(b, sizeof(b), row[4]));
}

/* The round's baseline phase (the raw commands, or contend's hand-off
 * chain), its report after the last round.  0, or 1 after a message. */
static int run_baseline(bench_run *r, int round, const char *run_id, int last)
{
    bench_cfg *cfg = r->cfg;
    int chain = cfg->workload == WL_CONTEND;
    snprintf(r->raw.prefix, sizeof(r->raw.prefix), "rlbench:%s:%d:raw", run_id, round);
    if (rlb_run_phase(&r->raw, chain ? &handoff_impl : &raw_impl, "baseline", &r->base_res) != 0) {
        fprintf(stderr, "redlock-bench: baseline failed: %s\n", r->base_res.err);
        return 1;
    }
    r->have_base = 1;
    if (!cfg->json && last) {
        rlb_print_phase(&r->raw, chain ? "baseline (raw hand-off chain: an oracle picks the next holder)"
                                       : "baseline (raw commands, no quorum logic)",
                        &r->base_res);
        fflush(stdout);
    }
    return 0;
}

/* The round's library phase, its report after the last round.  0, or 1
 * after a message. */
static int run_library(bench_run *r, int round, const char *run_id, int last)
{
    bench_cfg *cfg = r->cfg;
    snprintf(cfg->prefix, sizeof(cfg->prefix), "rlbench:%s:%d", run_id, round);
    if (rlb_run_phase(cfg, &lib_impl, rlb_workload_name(cfg->workload), &r->lib_res) != 0) {
        fprintf(stderr, "redlock-bench: run failed: %s\n", r->lib_res.err);
        return 1;
    }
    r->have_lib = 1;
    r->violations += r->lib_res.holds.violations;
    if (!cfg->json && last)
        rlb_print_phase(cfg, "redlock", &r->lib_res);
    return 0;
}

/* The round's columns (NCOLS) from the phases it ran. */
static void fill_row(const bench_run *r, double *rd)
{
    const bench_cfg *cfg = r->cfg;
    rd[0] = r->have_lib ? col_rate(cfg, &r->lib_res) : 0;
    rd[1] = r->have_base ? col_rate(cfg, &r->base_res) : 0;
    rd[3] = r->have_lib ? col_p50(cfg, &r->lib_res) : 0;
    rd[4] = r->have_base ? col_p50(cfg, &r->base_res) : 0;
    rd[2] = rd[1] > 0 && r->have_lib ? rd[0] / rd[1] : -1;
    rd[5] = rd[4] > 0 && rd[3] > 0 ? rd[3] / rd[4] : -1;
    rlb_cost c = {.server_us = -1, .client_us = -1, .total_us = -1};
    if (r->have_lib)
        rlb_phase_cost(&r->lib_res, &c);
    rd[COL_COST] = c.server_us;
    rd[COL_COST + 1] = c.client_us;
    rd[COL_COST + 2] = c.total_us;
}

/* One round: the baseline (with --baseline or --workload raw), then the
 * library's workload.  Returns the exit status so far (0: go on). */
static int run_round(bench_run *r, int round, const char *run_id)
{
    bench_cfg *cfg = r->cfg;
    int last = round == r->repeat - 1;
    rlb_phase_free(&r->base_res);
    rlb_phase_free(&r->lib_res);
    r->have_base = r->have_lib = 0;
    if ((cfg->baseline || cfg->workload == WL_RAW) && run_baseline(r, round, run_id, last) != 0)
        return 1;
    if (cfg->workload != WL_RAW && !rlb_interrupted && run_library(r, round, run_id, last) != 0)
        return 1;
    double *rd = r->rounds[r->nrounds++];
    fill_row(r, rd);
    if (r->repeat > 1 && !cfg->json) {
        printf("round %d/%d: ", round + 1, r->repeat);
        print_figures(r, rd, "");
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
    int w = contend(r->cfg);
    if (r->have_base && r->have_lib && w) {
        char a[24], b[24];
        printf("comparison%s:\n", r->nrounds > 1 ? " (last round)" : "");
        printf("  acquisitions/s    %.1f vs the raw hand-off chain's %.1f = %.1f%% of it\n",
               lr[0], lr[1], 100.0 * lr[2]);
        printf("  hand-off p50      %s vs the raw chain's %s = %.2fx\n",
               rlb_fmt_lat(a, sizeof(a), lr[3]), rlb_fmt_lat(b, sizeof(b), lr[4]), lr[5]);
    } else if (r->have_base && r->have_lib) {
        char a[24], b[24];
        printf("comparison%s:\n", r->nrounds > 1 ? " (last round)" : "");
        printf("  lock cycles/s     %.1f vs baseline %.1f = %.1f%% of the raw ceiling\n", lr[0],
               lr[1], 100.0 * lr[2]);
        printf("  acquire p50       %s vs raw fan-out (quorum of SETs) p50 %s = %.2fx%s\n",
               rlb_fmt_lat(a, sizeof(a), lr[3]), rlb_fmt_lat(b, sizeof(b), lr[4]), lr[5],
               r->cfg->concurrency == 1 ? "" : "  (single-op figure: use --concurrency 1)");
    }
    if (r->nrounds > 1) {
        printf("median of %d rounds:", r->nrounds);
        print_figures(r, med, " ");
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
    printf("{\"version\":\"%s\",\"nodes\":%zu,\"quorum\":%zu,\"clients\":%d,\"threads\":%d,"
           "\"concurrency\":%d,\"ttl_ms\":%lld,\"keys\":%ld,\"warmup_s\":%.3f,",
           redlock_version(), cfg->nnodes, cfg->quorum, cfg->clients, cfg->threads, cfg->concurrency,
           (long long)cfg->ttl_ms, cfg->keys, cfg->warmup);
    printf("\"result\":");
    if (r->have_lib)
        rlb_json_phase(cfg, &r->lib_res);
    else
        printf("null");
    printf(",\"baseline\":");
    if (r->have_base)
        rlb_json_phase(&r->raw, &r->base_res);
    else
        printf("null");
    const char *const *rk = words[contend(cfg)].json;
    if (ratio >= 0)
        printf(",\"%s\":%.4f", rk[2], ratio);
    if (p50_ratio >= 0)
        printf(",\"%s\":%.4f", rk[5], p50_ratio);
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

/* The baseline's configuration for the library's cfg. */
static bench_cfg baseline_cfg(const bench_cfg *cfg)
{
    bench_cfg raw = *cfg;
    if (cfg->workload != WL_CONTEND) {
        /* the baseline: one connection set per thread, closed loop */
        raw.workload = WL_RAW;
        raw.clients = cfg->threads;
        raw.rate = 0;
        if (raw.keys < raw.concurrency)
            raw.keys = raw.concurrency;
    }   /* (contend: the hand-off chain of the same clients, handoff.c) */
    return raw;
}

/* Each column's median over the rounds run. */
static void medians(const bench_run *r, double *med)
{
    for (int k = 0; k < NCOLS; k++) {
        double col[RLB_MAX_REPEAT];
        for (int i = 0; i < r->nrounds; i++)
            col[i] = r->rounds[i][k];
        med[k] = rlb_median(col, r->nrounds);
    }
}

/* --repeat rounds of the workload (and baseline), then the report.
 * Returns the exit status. */
static int run_bench(bench_cfg *cfg, int repeat)
{
    bench_run r;
    memset(&r, 0, sizeof(r));
    r.cfg = cfg;
    r.repeat = repeat;
    r.raw = baseline_cfg(cfg);
    r.rounds = calloc((size_t)repeat, sizeof(*r.rounds));
    if (!r.rounds) {
        fprintf(stderr, "redlock-bench: out of memory\n");
        return 1;
    }
    char run_id[40];
    rlb_run_id(run_id, sizeof(run_id));
    int rc = 0;
    for (int round = 0; round < repeat && rc == 0 && !rlb_interrupted; round++)
        rc = run_round(&r, round, run_id);
    double med[NCOLS];
    medians(&r, med);
    if (!cfg->json)
        print_summary(&r, med);
    else if (r.have_base || r.have_lib)
        print_json(&r, med);
    free(r.rounds);
    /* the histograms of the last round: the library's, else the baseline's */
    if (cfg->hist_path && (r.have_lib || r.have_base) &&
        rlb_write_hist(cfg->hist_path, r.have_lib ? cfg : &r.raw,
                       r.have_lib ? &r.lib_res : &r.base_res) != 0)
        rc = rc ? rc : 1;
    if ((r.have_lib && r.lib_res.interrupted) || (r.have_base && r.base_res.interrupted))
        rc = rc ? rc : 130;
    if (r.violations) {
        fprintf(stderr, "redlock-bench: the %s lock's invariant was broken by %llu "
                "acquisitions\n", rlb_kind_name(cfg->kind), (unsigned long long)r.violations);
        rc = rc ? rc : 3;
    }
    rlb_phase_free(&r.base_res);
    rlb_phase_free(&r.lib_res);
    return rc;
}

/* Each client has up to 2 connections per master (512 clients x 5 masters:
 * 5,120 sockets): allow what the hard limit allows. */
static void raise_nofile(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

int main(int argc, char **argv)
{
    bench_opts o;
    int rc = rlb_options(argc, argv, &o);
    if (rc < 0)
        rc = rlb_settle_options(&o);
    if (rc >= 0)
        return rc;

    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_sigint;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
    raise_nofile();

    rlb_spawned *spawned = NULL;
    if (o.spawn) {
        if (!(spawned = rlb_spawn(&o)))
            return 1;
    } else {
        o.cfg.nodes = o.addrs;
        o.cfg.nnodes = o.naddrs;
    }
    o.cfg.quorum = o.cfg.nnodes / 2 + 1;
    rc = o.kinds ? rlb_run_kinds(&o) : o.compare_acks ? rlb_run_acks(&o)
                                                      : run_bench(&o.cfg, o.repeat);
    if ((o.cfg.metrics || o.cfg.metrics_path) && rlb_write_metrics(&o.cfg) != 0)
        rc = rc ? rc : 1;
    rlb_spawn_stop(spawned);
    return rc;
}
