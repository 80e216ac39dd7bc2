/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* kinds.c -- redlock-bench --kinds: the uncontended cycle rate (try_acquire
 * + release on distinct keys) of each lock kind against the plain mutex's,
 * measured in the same run.  Rounds interleave the kinds (mutex, then each
 * kind, --repeat times) so that a host getting slower or faster during the
 * run moves them all alike; the ratio is of the medians. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "redlock.h"
#include "report.h"

/* the target of the lock-kinds issue: each kind at least this share of
 * the mutex's rate */
#define TARGET_RATIO 0.80

static void report(const bench_cfg *cfg, const int *kinds, int n, double (*rate)[RLB_NKINDS],
                   int rounds)
{
    double med[RLB_NKINDS];
    for (int i = 0; i < n; i++) {
        double col[RLB_MAX_REPEAT];
        for (int r = 0; r < rounds; r++)
            col[r] = rate[r][i];
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

int rlb_run_kinds(bench_opts *o)
{
    bench_cfg *cfg = &o->cfg;
    int kinds[RLB_NKINDS];
    int n = rlb_parse_kinds(o->kinds, kinds);
    if (n < 0)
        return 2;
    double (*rate)[RLB_NKINDS] = calloc((size_t)o->repeat, sizeof(*rate));
    if (!rate) {
        fprintf(stderr, "redlock-bench: out of memory\n");
        return 1;
    }
    char run_id[40], err[300];
    rlb_run_id(run_id, sizeof(run_id));
    int rc = 0, done = 0;
    for (int r = 0; r < o->repeat && rc == 0; r++) {
        for (int i = 0; i < n && rc == 0; i++) {
            cfg->kind = kinds[i];
            snprintf(cfg->prefix, sizeof(cfg->prefix), "rlbench:%s:%d:%s", run_id, r,
                     rlb_kind_name(kinds[i]));
            rc = rlb_run_lib_phase(cfg, rlb_kind_name(kinds[i]), &rate[r][i], err, sizeof(err));
            if (rc == 0 && rate[r][i] <= 0) {
                snprintf(err, sizeof(err), "no %s lock cycle completed",
                         rlb_kind_name(kinds[i]));
                rc = -1;
            }
            if (rc < 0)
                fprintf(stderr, "redlock-bench: %s: %s\n", rlb_kind_name(kinds[i]), err);
            else if (rc == 0 && !cfg->json)
                printf("round %d/%d: %-10s %.1f cycles/s\n", r + 1, o->repeat,
                       rlb_kind_name(kinds[i]), rate[r][i]);
            fflush(stdout);
        }
        done += rc == 0;
    }
    if (done > 0)
        report(cfg, kinds, n, rate, done);
    free(rate);
    return rc < 0 ? 1 : rc;
}
