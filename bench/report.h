/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* report.h -- a measured phase's results (phase.c) and their reports
 * (report.c, export.c). */
#ifndef RLB_REPORT_H
#define RLB_REPORT_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "bench.h"
#include "mstats.h"

/* One second of the measurement (--json's "series", --hist's last block). */
typedef struct rlb_second {
    double t;               /* seconds since the measurement began, at the end of this second */
    uint64_t ops, fail, acquired;
    uint64_t acq_p50, acq_p99, acq_max;  /* ns, acquisitions completed in this second */
} rlb_second;

typedef struct phase_result {
    bench_stats tot;
    uint64_t *per_client;   /* successful acquisitions per client */
    int nclients;
    double elapsed_s;       /* measured, until the last operation started in it ended */
    double window_acq_per_s; /* acquisitions that completed within the measured
                              * seconds, per second (contend: waiters still in
                              * line at the end do not stretch it) */
    double window_s;        /* the measured seconds (to the stop) */
    rlb_hold_figs holds;    /* contend: the holders seen (holders.c) */
    int have_holds;
    double cpu_s;           /* user + sys while measuring */
    rlb_mstats masters;     /* what the masters spent meanwhile */
    long rss_warm_kb, rss_end_kb, rss_max_kb, rss_min_kb;
    long maxrss_kb;
    rlb_second *series;
    int nseries, series_cap;
    int failed;
    int interrupted;
    char err[300];
} phase_result;

extern volatile sig_atomic_t rlb_interrupted;

int rlb_run_phase(const bench_cfg *cfg, const bench_impl *impl, const char *label,
                  phase_result *res);
void rlb_phase_free(phase_result *r);

const char *rlb_fmt_count(char *buf, size_t len, uint64_t v);
const char *rlb_fmt_lat(char *buf, size_t len, double ns);
double rlb_rate(uint64_t n, double s);
double rlb_median(double *v, int n);
void rlb_print_phase(const bench_cfg *cfg, const char *title, const phase_result *r);
void rlb_json_phase(const bench_cfg *cfg, const phase_result *r);
void rlb_json_lat(const char *name, const hist *h);
/* Jain's fairness index of n counts (1: all equal). */
double rlb_jain(const uint64_t *x, int n);
/* What a cycle costs: the masters' CPU per cycle (us; -1 when not
 * available), this process's, their sum (-1 likewise), at what rate. */
typedef struct rlb_cost {
    double cycles_per_s, server_us, client_us, total_us;
} rlb_cost;
void rlb_phase_cost(const phase_result *r, rlb_cost *c);
/* A phase's figures for --kinds. */
void rlb_phase_figs(const bench_cfg *cfg, const phase_result *r, rlb_kind_figs *f);

/* export.c: --hist FILE (gnuplot blocks); 0, or -1 after a message on stderr. */
int rlb_write_hist(const char *path, const bench_cfg *cfg, const phase_result *r);
/* the "series" member of the JSON (leading comma included) */
void rlb_json_series(const phase_result *r);

#endif
