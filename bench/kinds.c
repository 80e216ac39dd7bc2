/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* kinds.c -- redlock-bench --kinds: each lock kind against the plain mutex,
 * measured in the same run.  The cycle: the uncontended cycle rate
 * (try_acquire + release on distinct keys).  contend: the acquisitions/s,
 * the hand-off, the waits, Jain's index, the masters' CPU per cycle and the
 * holders' invariant (holders.c) of --clients clients on one key.  Rounds
 * interleave the kinds (mutex, then each kind, --repeat times) so that a
 * host getting slower or faster during the run moves them all alike; the
 * ratio is of the medians. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "redlock.h"
#include "report.h"

/* the target of the lock-kinds issue: each kind at least this share of
 * the mutex's rate */
#define TARGET_RATIO 0.80

static void report(const bench_cfg *cfg, const int *kinds, int n, rlb_kind_figs (*figs)[RLB_NKINDS],
                   int rounds)
{
    double med[RLB_NKINDS];
    double rate[RLB_MAX_REPEAT][RLB_NKINDS];
    for (int i = 0; i < n; i++) {
        double col[RLB_MAX_REPEAT];
        for (int r = 0; r < rounds; r++)
            col[r] = rate[r][i] = figs[r][i].cycles_per_s;
        med[i] = rlb_median(col, rounds);
    }
    if (cfg->json) {
        printf("{\"version\":\"%s\",\"nodes\":%zu,\"quorum\":%zu,\"clients\":%d,"
               "\"concurrency\":%d,\"ttl_ms\":%lld,\"duration_s\":%.3f,\"rounds\":%d,"
               "\"target_ratio\":%.2f,\"kinds\":[",
               redlock_version(), cfg->nnodes, cfg->quorum, cfg->clients, cfg->concurrency,
               (long long)cfg->ttl_ms, cfg->duration, rounds, TARGET_RATIO);
        for (int i = 0; i < n; i++) {
            double ratio = med[0] > 0 ? med[i] / med[0] : 0;
            printf("%s{\"kind\":\"%s\",\"median_cycles_per_s\":%.1f,\"ratio_to_mutex\":%.4f,",
                   i ? "," : "", rlb_kind_name(kinds[i]), med[i], ratio);
            /* a mutex cycle locks one resource, a multi cycle --resources */
            if (kinds[i] == REDLOCK_KIND_MULTI)
                printf("\"resources\":%d,\"median_resources_per_s\":%.1f,"
                       "\"resources_ratio_to_mutex\":%.4f,",
                       cfg->resources, med[i] * cfg->resources, ratio * cfg->resources);
            printf("\"meets_target\":%s,\"rounds\":[", ratio >= TARGET_RATIO ? "true" : "false");
            for (int r = 0; r < rounds; r++)
                printf("%s%.1f", r ? "," : "", rate[r][i]);
            printf("]}");
        }
        printf("]}\n");
        return;
    }
    printf("lock kinds, median of %d interleaved round%s (cycles/s; ratio to the mutex, target "
           ">= %.0f%%):\n", rounds, rounds == 1 ? "" : "s", 100 * TARGET_RATIO);
    for (int i = 0; i < n; i++) {
        double ratio = med[0] > 0 ? med[i] / med[0] : 0;
        printf("  %-10s %12.1f cycles/s  %6.1f%%%s\n", rlb_kind_name(kinds[i]), med[i],
               100 * ratio, i == 0 ? "" : ratio >= TARGET_RATIO ? "  ok" : "  BELOW TARGET");
        if (kinds[i] == REDLOCK_KIND_MULTI)
            printf("  %-10s %12.1f resources/s %6.1f%%  resources locked (%d per multi cycle, "
                   "1 per mutex cycle)\n", "", med[i] * cfg->resources,
                   100 * ratio * cfg->resources, cfg->resources);
    }
}

/* ---- contend --------------------------------------------------------------------- */

enum { F_ACQ, F_HANDOFF, F_WAIT50, F_WAIT99, F_JAIN, F_MCPU, F_HELD,
       F_RD50, F_RD99, F_RDMAX, F_WR50, F_WR99, F_WRMAX, F_RDHELD, F_WRHELD, F_N };

/* Figure f of a round's kind. */
static double fig(const rlb_kind_figs *k, int f)
{
    switch (f) {
    case F_ACQ: return k->acq_per_s;
    case F_HANDOFF: return k->handoff_p50_ns;
    case F_WAIT50: return k->wait_p50_ns;
    case F_WAIT99: return k->wait_p99_ns;
    case F_JAIN: return k->jain;
    case F_MCPU: return k->masters_cpu_us;
    case F_HELD: return k->held_share;
    case F_RDHELD: return k->side_held[0];
    case F_WRHELD: return k->side_held[1];
    default: return f < F_WR50 ? k->side_wait[0][f - F_RD50] : k->side_wait[1][f - F_WR50];
    }
}

static double ratio(double x, double base)
{
    return base > 0 ? x / base : 0;
}

static const char *limit_text(const bench_cfg *cfg, int kind, char *buf, size_t len)
{
    if (kind == RLB_KIND_RW)
        snprintf(buf, len, "1 writer or readers");
    else
        snprintf(buf, len, "%d", kind == RLB_KIND_SEMAPHORE ? cfg->permits : 1);
    return buf;
}

static void report_contend(const bench_cfg *cfg, const int *kinds, int n,
                           rlb_kind_figs (*figs)[RLB_NKINDS], int rounds)
{
    double med[RLB_NKINDS][F_N];
    int maxh[RLB_NKINDS] = {0};
    uint64_t viol[RLB_NKINDS] = {0};
    for (int i = 0; i < n; i++) {
        for (int f = 0; f < F_N; f++) {
            double col[RLB_MAX_REPEAT];
            for (int r = 0; r < rounds; r++)
                col[r] = fig(&figs[r][i], f);
            med[i][f] = rlb_median(col, rounds);
        }
        for (int r = 0; r < rounds; r++) {
            maxh[i] = figs[r][i].max_holders > maxh[i] ? figs[r][i].max_holders : maxh[i];
            viol[i] += figs[r][i].violations;
        }
    }
    char lim[32];
    if (cfg->json) {
        printf("{\"version\":\"%s\",\"workload\":\"contend\",\"nodes\":%zu,\"quorum\":%zu,"
               "\"clients\":%d,\"writers\":%d,\"permits\":%d,\"resources\":%d,\"hold_ms\":%lld,"
               "\"duration_s\":%.3f,\"rounds\":%d,\"kinds\":[",
               redlock_version(), cfg->nnodes, cfg->quorum, cfg->clients, cfg->writers,
               cfg->permits, cfg->resources, (long long)cfg->hold_ms, cfg->duration, rounds);
        for (int i = 0; i < n; i++) {
            const double *m = med[i], *b = med[0];
            printf("%s{\"kind\":\"%s\",\"acquisitions_per_s\":%.1f,\"handoff_p50_us\":%.3f,"
                   "\"wait_p50_us\":%.3f,\"wait_p99_us\":%.3f,\"fairness_jain\":%.4f,"
                   "\"masters_cpu_us_per_cycle\":%.3f,\"held_share\":%.4f,"
                   "\"max_holders\":%d,\"limit\":\"%s\",\"violations\":%llu,"
                   "\"invariant_kept\":%s,\"ratio_to_mutex\":{\"acquisitions_per_s\":%.4f,"
                   "\"handoff_p50\":%.4f,\"wait_p99\":%.4f,\"masters_cpu_per_cycle\":%.4f},"
                   "\"rounds\":[",
                   i ? "," : "", rlb_kind_name(kinds[i]), m[F_ACQ], m[F_HANDOFF] / 1e3,
                   m[F_WAIT50] / 1e3, m[F_WAIT99] / 1e3, m[F_JAIN], m[F_MCPU], m[F_HELD],
                   maxh[i], limit_text(cfg, kinds[i], lim, sizeof lim),
                   (unsigned long long)viol[i], viol[i] ? "false" : "true",
                   ratio(m[F_ACQ], b[F_ACQ]), ratio(m[F_HANDOFF], b[F_HANDOFF]),
                   ratio(m[F_WAIT99], b[F_WAIT99]), ratio(m[F_MCPU], b[F_MCPU]));
            for (int r = 0; r < rounds; r++)
                printf("%s%.1f", r ? "," : "", figs[r][i].acq_per_s);
            printf("]");
            if (kinds[i] == RLB_KIND_RW)
                for (int k = 0; k < 2; k++)
                    printf(",\"%s\":{\"wait_p50_us\":%.3f,\"wait_p99_us\":%.3f,"
                           "\"wait_max_us\":%.3f,\"held_share\":%.4f}", k ? "writers" : "readers",
                           m[F_RD50 + 3 * k] / 1e3, m[F_RD99 + 3 * k] / 1e3,
                           m[F_RDMAX + 3 * k] / 1e3, m[F_RDHELD + k]);
            printf("}");
        }
        printf("]}\n");
        return;
    }
    printf("lock kinds under contention, median of %d interleaved round%s (%d clients on one "
           "key, hold %lld ms; ratios to the mutex):\n", rounds, rounds == 1 ? "" : "s",
           cfg->clients, (long long)cfg->hold_ms);
    printf("  %-10s %9s %7s %10s %6s %10s %10s %7s %12s %6s %6s  %s\n", "kind", "acq/s", "ratio",
           "hand-off", "ratio", "wait p50", "wait p99", "Jain", "masters/cyc", "ratio", "held",
           "holders (allowed)");
    for (int i = 0; i < n; i++) {
        const double *m = med[i], *b = med[0];
        char h[24], w5[24], w9[24], mc[24];
        snprintf(mc, sizeof mc, m[F_MCPU] >= 0 ? "%.0f us" : "n/a", m[F_MCPU]);
        printf("  %-10s %9.1f %6.1f%% %10s %5.2fx %10s %10s %7.4f %12s %5.2fx %5.1f%%  %d (%s)%s\n",
               rlb_kind_name(kinds[i]), m[F_ACQ], 100 * ratio(m[F_ACQ], b[F_ACQ]),
               rlb_fmt_lat(h, sizeof h, m[F_HANDOFF]), ratio(m[F_HANDOFF], b[F_HANDOFF]),
               rlb_fmt_lat(w5, sizeof w5, m[F_WAIT50]), rlb_fmt_lat(w9, sizeof w9, m[F_WAIT99]),
               m[F_JAIN], mc, ratio(m[F_MCPU], b[F_MCPU]), 100 * m[F_HELD], maxh[i],
               limit_text(cfg, kinds[i], lim, sizeof lim),
               viol[i] ? "  INVARIANT BROKEN" : "");
        for (int k = 0; k < 2 && kinds[i] == RLB_KIND_RW; k++) {
            char p50[24], p99[24], mx[24];
            printf("  %-10s %s (%d): wait p50 %s, p99 %s, max %s; held %.1f%% of the time\n", "",
                   k ? "writers" : "readers", k ? cfg->writers : cfg->clients - cfg->writers,
                   rlb_fmt_lat(p50, sizeof p50, m[F_RD50 + 3 * k]),
                   rlb_fmt_lat(p99, sizeof p99, m[F_RD99 + 3 * k]),
                   rlb_fmt_lat(mx, sizeof mx, m[F_RDMAX + 3 * k]), 100 * m[F_RDHELD + k]);
        }
    }
}

int rlb_run_kinds(bench_opts *o)
{
    bench_cfg *cfg = &o->cfg;
    int kinds[RLB_NKINDS];
    int n = rlb_parse_kinds(o->kinds, cfg->workload, kinds);
    if (n < 0)
        return 2;
    rlb_kind_figs (*figs)[RLB_NKINDS] = calloc((size_t)o->repeat, sizeof(*figs));
    if (!figs) {
        fprintf(stderr, "redlock-bench: out of memory\n");
        return 1;
    }
    int contend = cfg->workload == WL_CONTEND;
    char run_id[40], err[300];
    rlb_run_id(run_id, sizeof(run_id));
    int rc = 0, done = 0, broken = 0;
    for (int r = 0; r < o->repeat && rc == 0; r++) {
        for (int i = 0; i < n && rc == 0; i++) {
            rlb_kind_figs *f = &figs[r][i];
            cfg->kind = kinds[i];
            snprintf(cfg->prefix, sizeof(cfg->prefix), "rlbench:%s:%d:%s", run_id, r,
                     rlb_kind_name(kinds[i]));
            rc = rlb_run_lib_phase(cfg, rlb_kind_name(kinds[i]), f, err, sizeof(err));
            if (rc == 0 && (contend ? f->acq_per_s : f->cycles_per_s) <= 0) {
                snprintf(err, sizeof(err), "no %s lock %s completed", rlb_kind_name(kinds[i]),
                         contend ? "acquisition" : "cycle");
                rc = -1;
            }
            broken |= f->violations > 0;
            if (rc < 0)
                fprintf(stderr, "redlock-bench: %s: %s\n", rlb_kind_name(kinds[i]), err);
            else if (rc == 0 && !cfg->json && contend)
                printf("round %d/%d: %-10s %.1f acquisitions/s, %llu invariant violations\n",
                       r + 1, o->repeat, rlb_kind_name(kinds[i]), f->acq_per_s,
                       (unsigned long long)f->violations);
            else if (rc == 0 && !cfg->json)
                printf("round %d/%d: %-10s %.1f cycles/s\n", r + 1, o->repeat,
                       rlb_kind_name(kinds[i]), f->cycles_per_s);
            fflush(stdout);
        }
        done += rc == 0;
    }
    if (done > 0 && contend)
        report_contend(cfg, kinds, n, figs, done);
    else if (done > 0)
        report(cfg, kinds, n, figs, done);
    free(figs);
    return rc < 0 ? 1 : rc ? rc : broken ? 3 : 0;
}
