/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* opts_check.c -- redlock-bench's options checked against each other, and
 * the defaults that depend on other options (opts.c parses them). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "redlock.h"

/* Is kind k measured (--kind, or in --kinds)?  -1 after a bad --kinds
 * list (reported). */
static int has_kind(const bench_opts *o, int k)
{
    if (!o->kinds)
        return o->cfg.kind == k;
    int ks[RLB_NKINDS], n = rlb_parse_kinds(o->kinds, o->cfg.workload, ks);
    for (int i = 0; i < n; i++)
        if (ks[i] == k)
            return 1;
    return n < 0 ? -1 : 0;
}

/* rw, the semaphore and --fake-overlap: where they apply.  0, or -1 after
 * a message. */
static int check_new_kinds(const bench_opts *o)
{
    const bench_cfg *cfg = &o->cfg;
    int rw = has_kind(o, RLB_KIND_RW), sem = has_kind(o, RLB_KIND_SEMAPHORE);
    if (rw < 0 || sem < 0)
        return -1;
    if (rw && cfg->workload != WL_CONTEND) {
        fprintf(stderr, "redlock-bench: --kind rw is for the contend workload (the cycle "
                        "measures read and write on their own)\n");
        return -1;
    }
    if (o->writers_given && !rw) {
        fprintf(stderr, "redlock-bench: --writers is for the rw kind (--kind rw, or rw in "
                        "--kinds)\n");
        return -1;
    }
    if (o->permits_given && !sem) {
        fprintf(stderr, "redlock-bench: --permits is for the semaphore (--kind semaphore, or "
                        "semaphore in --kinds)\n");
        return -1;
    }
    if (sem && !RLB_HAVE_SEMAPHORE) {
        fprintf(stderr, "redlock-bench: this build's library has no semaphore\n");
        return -1;
    }
    if (rw && cfg->fencing) {
        fprintf(stderr, "redlock-bench: no fencing on read locks (the rw kind has readers)\n");
        return -1;
    }
    if (cfg->fake_overlap && cfg->workload != WL_CONTEND) {
        fprintf(stderr, "redlock-bench: --fake-overlap tests contend's holders' check\n");
        return -1;
    }
    return 0;
}

/* --rate and the TLS options: where they apply.  0, or -1 after a message. */
static int check_rate_tls(const bench_opts *o)
{
    const bench_cfg *cfg = &o->cfg;
    if (cfg->rate > 0 && (cfg->workload == WL_EXTEND || cfg->workload == WL_RAW ||
                          cfg->baseline || o->kinds)) {
        fprintf(stderr, "redlock-bench: --rate is for the cycle, try and contend workloads "
                        "(no --baseline, no --kinds)\n");
        return -1;
    }
    int tls = 0;
    for (size_t i = 0; i < o->naddrs; i++)
        tls |= strncmp(o->addrs[i], "rediss://", 9) == 0 ||
               strncmp(o->addrs[i], "rediss-cluster://", 17) == 0;
    if (tls && (cfg->baseline || cfg->workload == WL_RAW)) {
        fprintf(stderr, "redlock-bench: the raw baseline speaks plain TCP only: no rediss:// "
                        "masters with --baseline or --workload raw\n");
        return -1;
    }
    if (!tls && (cfg->tls_ca || cfg->tls_cert || cfg->tls_key || cfg->tls_server_name)) {
        fprintf(stderr, "redlock-bench: the --tls- options are for rediss:// masters\n");
        return -1;
    }
    if (!cfg->tls_cert != !cfg->tls_key) {
        fprintf(stderr, "redlock-bench: --tls-cert and --tls-key go together\n");
        return -1;
    }
    return 0;
}

/* Is the vote at addr a Redis Cluster (redis-cluster://, rediss-cluster://)? */
static int is_cluster(const char *addr)
{
    return strncmp(addr, "redis-cluster://", 16) == 0 || strncmp(addr, "rediss-cluster://", 17) == 0;
}

/* --shards and cluster votes: where they apply.  0, or -1 after a message. */
static int check_clusters(const bench_opts *o)
{
    const bench_cfg *cfg = &o->cfg;
    int clusters = o->shards > 0;
    for (size_t i = 0; i < o->naddrs; i++)
        clusters |= is_cluster(o->addrs[i]);
    if (o->shards && !o->spawn) {
        fprintf(stderr, "redlock-bench: --shards is for --spawn N (clusters of your own are "
                        "given by their redis-cluster:// addresses)\n");
        return -1;
    }
    if (o->shards && o->spawn * o->shards > RLB_MAX_SPAWNED) {
        fprintf(stderr, "redlock-bench: --spawn %d --shards %d: %d masters, at most %d in all\n",
                o->spawn, o->shards, o->spawn * o->shards, RLB_MAX_SPAWNED);
        return -1;
    }
    if (clusters && (cfg->baseline || cfg->workload == WL_RAW)) {
        /* raw.c and handoff.c send every key to the one master of a vote */
        fprintf(stderr, "redlock-bench: the raw baselines speak to plain masters only: no "
                        "--baseline or --workload raw with cluster votes\n");
        return -1;
    }
    return 0;
}

/* --kind, --kinds, --fencing and --resources: where they apply.  0, or -1
 * after a message. */
static int check_kinds(const bench_opts *o)
{
    const bench_cfg *cfg = &o->cfg;
    if (cfg->kind != REDLOCK_KIND_MUTEX && cfg->workload == WL_RAW) {
        fprintf(stderr, "redlock-bench: --kind measures the library's workloads, not raw\n");
        return -1;
    }
    if (cfg->fencing && (o->kinds || cfg->kind == REDLOCK_KIND_READ ||
                         cfg->kind == REDLOCK_KIND_MULTI)) {
        fprintf(stderr, "redlock-bench: no fencing on read and multi locks (nor with --kinds)\n");
        return -1;
    }
    int multi = has_kind(o, REDLOCK_KIND_MULTI);
    if (multi < 0)
        return -1;
    if (o->resources_given && !multi) {
        fprintf(stderr, "redlock-bench: --resources is for multi locks (--kind multi, or multi "
                        "in --kinds)\n");
        return -1;
    }
    if (o->kinds && ((cfg->workload != WL_CYCLE && cfg->workload != WL_CONTEND) ||
                     cfg->baseline)) {
        fprintf(stderr, "redlock-bench: --kinds compares the cycle or the contend workload "
                        "(no --baseline)\n");
        return -1;
    }
    return 0;
}

/* --clients and --threads (defaults by workload).  0, or -1 after a message. */
static int settle_clients(bench_cfg *cfg)
{
    if (cfg->clients < 0)
        cfg->clients = cfg->workload == WL_CONTEND ? 4 : 1;
    if (cfg->threads < 0)
        cfg->threads = cfg->clients < 64 ? cfg->clients : 64;
    if (cfg->threads > cfg->clients) {
        fprintf(stderr, "redlock-bench: --threads (%d) must be at most --clients (%d)\n",
                cfg->threads, cfg->clients);
        return -1;
    }
    return 0;
}

/* --concurrency and --keys (defaults by workload).  0, or -1 after a message. */
static int settle_load(bench_cfg *cfg)
{
    if (cfg->concurrency < 0)
        cfg->concurrency = cfg->workload == WL_CONTEND ? cfg->clients : 128;
    if (cfg->writers < 0)
        cfg->writers = cfg->clients / 4 > 0 ? cfg->clients / 4 : 1;
    if (cfg->writers > cfg->clients) {
        fprintf(stderr, "redlock-bench: --writers (%d) must be at most --clients (%d)\n",
                cfg->writers, cfg->clients);
        return -1;
    }
    if (cfg->concurrency < cfg->clients) {
        fprintf(stderr, "redlock-bench: --concurrency (%d) must be at least --clients (%d)\n",
                cfg->concurrency, cfg->clients);
        return -1;
    }
    switch (cfg->workload) {
    case WL_CONTEND:
        if (cfg->keys < 0)
            cfg->keys = 1;
        if (cfg->baseline && (cfg->keys != 1 || cfg->concurrency != cfg->clients ||
                              cfg->kind != REDLOCK_KIND_MUTEX || cfg->fencing)) {
            fprintf(stderr, "redlock-bench: the contend baseline (the raw hand-off chain) is "
                            "the mutex's on one key, one lock per client (--keys 1, "
                            "--concurrency = --clients, no --kind, no --fencing)\n");
            return -1;
        }
        break;
    case WL_TRY:
        if (cfg->keys < 0)
            cfg->keys = 10L * cfg->concurrency;
        break;
    default:
        /* distinct keys: at least one per operation in flight */
        if (cfg->keys < cfg->concurrency)
            cfg->keys = cfg->concurrency;
        break;
    }
    return 0;
}

/* The retry jitter, the baseline's release mode and the live line. */
static void settle_rest(bench_opts *o)
{
    bench_cfg *cfg = &o->cfg;
    /* The library wants retry_jitter <= retry_delay: with only a delay
     * given, use half of it as the jitter. */
    if (cfg->retry_delay_ms >= 0 && cfg->retry_jitter_ms < 0)
        cfg->retry_jitter_ms = cfg->retry_delay_ms / 2;
    cfg->raw_chained = o->raw_mode >= 0 ? o->raw_mode == RLB_RAW_CHAINED : cfg->concurrency > 1;
    if (cfg->progress < 0)
        cfg->progress = isatty(STDOUT_FILENO);
    cfg->progress_fd = cfg->json ? STDERR_FILENO : STDOUT_FILENO;
    if (cfg->progress && cfg->json && !isatty(STDERR_FILENO))
        cfg->progress = 0;
}

/* Defaults that depend on other options, and the checks across options.
 * Returns -1 to go on, else the exit status. */
int rlb_settle_options(bench_opts *o)
{
    if (check_kinds(o) != 0 || check_new_kinds(o) != 0 || check_clusters(o) != 0 ||
        settle_clients(&o->cfg) != 0 || check_rate_tls(o) != 0 || settle_load(&o->cfg) != 0)
        return 2;
    settle_rest(o);
    return -1;
}
