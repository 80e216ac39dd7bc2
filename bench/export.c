/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* export.c -- --hist FILE: each latency histogram of the last round, bucket
 * by bucket, and the per-second series, as gnuplot data blocks (two blank
 * lines apart, so that `index "name"` picks one); the series in --json. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* One block: a row per non-empty bucket (its midpoint in us, its count,
 * the fraction of samples at or below it, and 1 / (1 - that), the x axis
 * of a percentile plot; the last row's is left out as infinite). */
static void hist_block(FILE *f, const char *name, const hist *h)
{
    fprintf(f, "# %s\n# %llu samples; value_us count percentile inv_tail\n", name,
            (unsigned long long)h->count);
    uint64_t seen = 0;
    for (unsigned i = 0; i < HIST_BUCKETS && seen < h->count; i++) {
        if (!h->b[i])
            continue;
        uint64_t v = hist_bucket_value(h, i);
        seen += h->b[i];
        double p = (double)seen / (double)h->count;
        fprintf(f, "%.3f %llu %.6f", (double)v / 1e3, (unsigned long long)h->b[i], p);
        if (seen < h->count)
            fprintf(f, " %.3f", 1.0 / (1.0 - p));
        fputc('\n', f);
    }
    fputs("\n\n", f);
}

static void series_row(FILE *f, const rlb_second *e, double prev_t)
{
    double dt = e->t - prev_t;
    fprintf(f, "%.3f %llu %.1f %llu %.1f %llu %.3f %.3f %.3f\n", e->t,
            (unsigned long long)e->ops, dt > 0 ? (double)e->ops / dt : 0.0,
            (unsigned long long)e->acquired, dt > 0 ? (double)e->acquired / dt : 0.0,
            (unsigned long long)e->fail, (double)e->acq_p50 / 1e3, (double)e->acq_p99 / 1e3,
            (double)e->acq_max / 1e3);
}

int rlb_write_hist(const char *path, const bench_cfg *cfg, const phase_result *r)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "redlock-bench: --hist %s: %s\n", path, strerror(errno));
        return -1;
    }
    fprintf(f, "# redlock-bench %s, %zu masters, %d clients, %.3f s measured\n",
            rlb_workload_name(cfg->workload), cfg->nnodes, cfg->clients, r->elapsed_s);
    fputs("# blocks (gnuplot index): the operations' latency histograms, then \"series\"\n\n\n", f);
    static const char *const names[OP_N] = {"acquire", "release", "extend"};
    for (int op = 0; op < OP_N; op++)
        if (r->tot.lat[op]->count)
            hist_block(f, names[op], r->tot.lat[op]);
    if (cfg->workload == WL_CONTEND) {
        hist_block(f, "handoff_all", r->tot.handoff);
        hist_block(f, "handoff_other", r->tot.handoff_x);
    }
    fprintf(f, "# series\n# per second: t_s ops ops_per_s acquired acquired_per_s failures "
               "acq_p50_us acq_p99_us acq_max_us\n");
    for (int i = 0; i < r->nseries; i++)
        series_row(f, &r->series[i], i ? r->series[i - 1].t : 0);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "redlock-bench: --hist %s: write failed\n", path);
        return -1;
    }
    return 0;
}

void rlb_json_series(const phase_result *r)
{
    printf(",\"series\":[");
    for (int i = 0; i < r->nseries; i++) {
        const rlb_second *e = &r->series[i];
        double dt = e->t - (i ? r->series[i - 1].t : 0);
        printf("%s{\"t\":%.3f,\"ops\":%llu,\"ops_per_s\":%.1f,\"acquired\":%llu,"
               "\"acquired_per_s\":%.1f,\"failures\":%llu,\"acq_p50_us\":%.3f,"
               "\"acq_p99_us\":%.3f,\"acq_max_us\":%.3f}",
               i ? "," : "", e->t, (unsigned long long)e->ops,
               dt > 0 ? (double)e->ops / dt : 0.0, (unsigned long long)e->acquired,
               dt > 0 ? (double)e->acquired / dt : 0.0, (unsigned long long)e->fail,
               (double)e->acq_p50 / 1e3, (double)e->acq_p99 / 1e3, (double)e->acq_max / 1e3);
    }
    putchar(']');
}
