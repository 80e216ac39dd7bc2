/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_failover_cluster.c -- the failover suite with Redis Clusters as the
 * votes (test/soak/failover-cluster.sh, docs/failover.md "Cluster votes"):
 * 3 votes, each a cluster of 3 shards with a replica each, rl-worker
 * processes on locks whose keys fall on every shard, and faults inside the
 * clusters (rl-cluster):
 *   - one round of every kind with the workers' restart guard on: no
 *     overlap, although a lose-keys fault lost a held lock's key on a
 *     quorum of the votes, and a migrate fault sent workers -ASK and
 *     -MOVED for a lock's slot;
 *   - the lose-keys faults with the guard off: overlaps, so the check can
 *     fail on these runs.
 * The seed is FAILOVER_SEED, else drawn from the clock (printed, to replay:
 * `sh test/soak/failover-cluster.sh --seed N`).
 */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>

#include "fo_run.h"

static long long cluster_setup(void)
{
    need_failover_programs();
    need_file(FO_DIR "rl-cluster");
    need_file(FO_DIR "failover-cluster.sh");
    const char *env = getenv("FAILOVER_SEED");
    return env && *env ? atoll(env) : (long long)(check_now_ms() % 1000000000) + 1;
}

/* Each of rl-cluster's kinds was injected once (one round). */
static void every_kind_once(const char *result, long long seed)
{
    static const char *const kinds[] = {
        "fault_cluster-failover",       "fault_cluster-failover-force",
        "fault_cluster-failover-takeover", "fault_cluster-kill-master",
        "fault_cluster-restart-master", "fault_cluster-restart-replica",
        "fault_cluster-lose-keys",      "fault_cluster-migrate"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        CHECK_MSG(strstr(result, kinds[i]) != NULL && result_num(result, kinds[i]) == 1,
                  "fault kind %s not injected once (seed %lld)", kinds[i], seed);
}

TEST_LONG(failover_cluster_faults_no_overlap)
{
    long long seed = cluster_setup();
    char cmd[256], result[4096];
    snprintf(cmd, sizeof cmd, "sh " FO_DIR "failover-cluster.sh --seed %lld 2>&1", seed);
    int64_t ms;
    int rc = mixed_run(cmd, "cluster faults", seed, result, sizeof result, &ms);
    CHECK_EQ(rc, 0);
    every_kind_once(result, seed);
    check_figures(result,
                  FO_FIGS({"acquisitions", '>', 200},
                          /* every worker held a lock, on every resource: keys on every
                           * shard of the clusters */
                          {"holders", '=', 6}, {"resources", '=', 6},
                          /* locks went on while the faults ran and after them */
                          {"during", '>', 0}, {"after", '>', 0},
                          /* three failovers, a killed master's replica and the
                           * takeovers on two votes */
                          {"cluster_promotions", 'g', 6},
                          /* a lock was held on the cut masters alone, and the
                           * takeovers lost it on a quorum */
                          {"cluster_lonely_found", '=', 1}, {"cluster_keys_lost", 'g', 2},
                          /* a slot moved (ASK, MOVED) and back */
                          {"cluster_migrations", '=', 1}));
    CHECK_LT(ms, 60000);
}

/* The guard is what keeps those lost keys from a second holder: the same
 * takeovers with restart_guard_ms = 0, and holds long enough that the lock
 * whose keys were lost is still held when the replicas have taken over,
 * give two holders (seen in 4 faults of 4, or 3; 0 with the guard). */
TEST_LONG(failover_cluster_without_the_guard_overlaps)
{
    long long seed = cluster_setup();
    char cmd[512], result[4096];
    snprintf(cmd, sizeof cmd,
             "sh " FO_DIR "failover-cluster.sh --seed %lld --restart-guard 0 --kinds lose-keys "
             "--rounds 4 --workers 8 --resources 4 --ttl 2000 --hold-min 800 --hold-max 1500 "
             "--idle-max 0 --extend-pct 0 2>&1",
             seed);
    int64_t t0 = check_now_ms();
    int rc = run_capture(cmd, 0, result, sizeof result);
    int64_t ms = check_now_ms() - t0;
    check_note("cluster faults without the guard, seed %lld (replay: FAILOVER_SEED=%lld): "
               "%lld ms, %s", seed, seed, (long long)ms, result);
    CHECK_NE(result[0], '\0');
    CHECK_EQ(rc, 1);
    /* (a busy machine may miss the moment on a fault or two: the point is
     * that lost keys give overlaps) */
    check_figures(result, FO_FIGS({"overlaps", '>', 0}, {"fault_cluster-lose-keys", '=', 4},
                                  {"cluster_lonely_found", 'g', 1}));
    CHECK_LT(ms, 60000);
}
