/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* acks.c -- redlock-bench --compare-replica-acks N: what the option
 * replica_acks costs.  The mutex's cycle (try_acquire + release on
 * distinct keys) with replica_acks 0 and N, in interleaved rounds of one
 * run (--repeat of each), so that a host getting slower or faster moves
 * both alike: the median cycles/s and masters' CPU per cycle of each, and
 * their ratios.  Meant for cluster votes with replicas (--spawn N --shards
 * S --replicas R): plain masters get no WAIT. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "redlock.h"
#include "report.h"

/* The median of figure `cpu` (masters' CPU) or of the rate of side s. */
static double median_of(const rlb_kind_figs (*f)[2], int rounds, int s, int cpu)
{
    double v[RLB_MAX_REPEAT];
    for (int r = 0; r < rounds; r++)
        v[r] = cpu ? f[r][s].masters_cpu_us : f[r][s].cycles_per_s;
    return rlb_median(v, rounds);
}

static void report(const bench_cfg *cfg, int acks, const rlb_kind_figs (*f)[2], int rounds)
{
    double rate[2], cpu[2];
    for (int s = 0; s < 2; s++) {
        rate[s] = median_of(f, rounds, s, 0);
        cpu[s] = median_of(f, rounds, s, 1);
    }
    if (cfg->json) {
        printf("{\"version\":\"%s\",\"nodes\":%zu,\"concurrency\":%d,\"clients\":%d,"
               "\"rounds\":%d,\"replica_acks\":%d,\"cycles_per_s\":[%.1f,%.1f],"
               "\"masters_cpu_us_per_cycle\":[%.3f,%.3f],\"rate_ratio\":%.4f,"
               "\"cpu_ratio\":%.4f}\n",
               redlock_version(), cfg->nnodes, cfg->concurrency, cfg->clients, rounds, acks,
               rate[0], rate[1], cpu[0], cpu[1], rate[0] > 0 ? rate[1] / rate[0] : 0,
               cpu[0] > 0 ? cpu[1] / cpu[0] : 0);
        return;
    }
    printf("replica_acks, median of %d interleaved round%s:\n", rounds, rounds == 1 ? "" : "s");
    for (int s = 0; s < 2; s++)
        printf("  replica_acks %-3d %12.1f cycles/s  %8.1f us masters' CPU per cycle\n",
               s ? acks : 0, rate[s], cpu[s]);
    printf("  ratio            %11.3fx rate      %7.3fx masters' CPU\n",
           rate[0] > 0 ? rate[1] / rate[0] : 0, cpu[0] > 0 ? cpu[1] / cpu[0] : 0);
}

int rlb_run_acks(bench_opts *o)
{
    bench_cfg *cfg = &o->cfg;
    rlb_kind_figs (*f)[2] = calloc((size_t)o->repeat, sizeof(*f));
    char run_id[40], err[300];
    int rc = 0, done = 0;

    if (!f) {
        fprintf(stderr, "redlock-bench: out of memory\n");
        return 1;
    }
    rlb_run_id(run_id, sizeof(run_id));
    for (int r = 0; r < o->repeat && rc == 0; r++) {
        for (int s = 0; s < 2 && rc == 0; s++) {
            cfg->replica_acks = s ? o->compare_acks : 0;
            snprintf(cfg->prefix, sizeof(cfg->prefix), "rlbench:%s:%d:%d", run_id, r, s);
            rc = rlb_run_lib_phase(cfg, s ? "replica_acks" : "plain", &f[r][s], err, sizeof(err));
            if (rc == 0 && f[r][s].cycles_per_s <= 0) {
                snprintf(err, sizeof(err), "no cycle completed");
                rc = -1;
            }
            if (rc < 0)
                fprintf(stderr, "redlock-bench: replica_acks %d: %s\n", cfg->replica_acks, err);
            else if (!cfg->json)
                printf("round %d/%d: replica_acks %-3d %.1f cycles/s\n", r + 1, o->repeat,
                       cfg->replica_acks, f[r][s].cycles_per_s);
            fflush(stdout);
        }
        done += rc == 0;
    }
    if (done > 0)
        report(cfg, o->compare_acks, f, done);
    free(f);
    return rc < 0 ? 1 : rc;
}
