/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_bench_clusters.c -- redlock-bench on cluster votes (docs/performance.md,
 * "Cluster votes"): --spawn N --shards S starts N Redis Clusters of S
 * masters, the masters' CPU is summed over every master of every cluster
 * (bench/mconn.c reads them from CLUSTER SLOTS, for clusters given by hand
 * too), and the report's cost per cycle is the masters' CPU plus the
 * bench's; the options' refusals; bench/clusters.sh. */
#include "itest.h"

#include <stdio.h>
#include <string.h>

#include "clusters.h"

static int bench(const char *args, char *out, size_t size)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "bench/redlock-bench --no-progress %s", args);
    return it_shell(cmd, out, size);
}

/* The JSON's cost: positive parts that add up, the masters' as "masters"
 * says per cycle. */
static void check_cost(const char *out)
{
    const char *c = strstr(out, "\"cost\":{");
    CHECK_MSG(c != NULL, "no cost in the JSON");
    double s = it_json_num(c, "server_cpu_us_per_cycle"), k = it_json_num(c, "client_cpu_us_per_cycle");
    double t = it_json_num(c, "cpu_us_per_cycle");
    CHECK_MSG(s > 0 && k > 0 && t > s + k - 0.01 && t < s + k + 0.01, "cost %f + %f = %f", s, k, t);
    double m = it_json_num(strstr(out, "\"masters\":{"), "cpu_us_per_cycle");
    CHECK_MSG(m > s - 0.01 && m < s + 0.01, "masters %f us per cycle, cost says %f", m, s);
    CHECK(it_json_num(c, "cycles_per_s") > 0);
}

/* 3 votes of 2 shards: locks go through, the masters' figures are the six
 * masters', a plain cycle's commands per vote, and the cost line. */
TEST(bench_clusters_spawned_shards)
{
    static char out[65536];
    CHECK_EQ(bench("--spawn 3 --shards 2 --warmup 0.2 --duration 0.5 --cluster-refresh 100 --json", out, sizeof out), 0);
    CHECK(it_json_num(out, "cycles") > 100);
    const char *m = strstr(out, "\"masters\":{");
    CHECK_MSG(m != NULL && it_has(m, "\"available\":true,\"nodes\":6,\"votes\":3,"
                                     "\"cluster_votes\":3,"), "masters: %.200s", m ? m : out);
    CHECK(it_json_num(m, "cpu_s") > 0);
    /* a plain cycle on every vote: SET, EVALSHA and the script's GET and
     * DEL, plus the client's CLUSTER SLOTS (every 100 ms here) */
    double per_vote = it_json_num(m, "commands_per_cycle") / 3;
    CHECK_MSG(per_vote >= 1.5 && per_vote <= 6, "%f commands per cycle per vote", per_vote);
    const char *cs = strstr(m, "\"cluster|slots\":{");
    CHECK_MSG(cs != NULL && it_json_num(cs, "calls") >= 3, "%.300s", m);
    check_cost(out);
    /* the text report */
    CHECK_EQ(bench("--spawn 3 --shards 2 --warmup 0.1 --duration 0.2", out, sizeof out), 0);
    CHECK(it_has(out, "spawned 3 Redis Clusters of 2 masters (one a vote): redis-cluster://"));
    CHECK(it_has(out, ", 3 cluster votes (quorum 2), "));
    CHECK(it_has(out, " s user+sys of 6 main threads (every master of 3 Redis Clusters), "));
    CHECK(it_has(out, "\n  cost per cycle     ") && it_has(out, " us masters + "));
    CHECK(it_has(out, " us CPU, at "));
}

/* Clusters given by hand, next to a plain master: every master of each is
 * read (2 + 2 + 1), and one shard is a cluster too. */
TEST(bench_clusters_given_by_hand)
{
    static char out[65536];
    char err[512] = "", args[1024];
    rlt_clusters *c = rlt_clusters_start(2, 2, 0, NULL, err, sizeof err);
    CHECK_MSG(c != NULL, "clusters: %s", err);
    rlt_servers *s = rlt_servers_start(1, NULL, err, sizeof err);
    CHECK_MSG(s != NULL, "server: %s", err);
    snprintf(args, sizeof args, "--warmup 0.2 --duration 0.5 --json %s %s %s",
             rlt_clusters_address(c, 0), rlt_clusters_address(c, 1), rlt_servers_addr(s, 0));
    CHECK_EQ(bench(args, out, sizeof out), 0);
    const char *m = strstr(out, "\"masters\":{");
    CHECK_MSG(m != NULL && it_has(m, "\"available\":true,\"nodes\":5,\"votes\":3,"
                                     "\"cluster_votes\":2,"), "masters: %.200s", m ? m : out);
    check_cost(out);
    rlt_servers_free(s);
    rlt_clusters_stop(c);
    /* a cluster of one master */
    CHECK_EQ(bench("--spawn 1 --shards 1 --warmup 0.2 --duration 0.3 --json", out, sizeof out), 0);
    CHECK(it_has(out, "\"nodes\":1,\"votes\":1,\"cluster_votes\":1,"));
    check_cost(out);
}

/* The bench refuses args (exit status 2), saying `says`. */
static void check_refused(const char *args, const char *says)
{
    static char out[8192];
    CHECK_MSG(bench(args, out, sizeof out) == 2, "%s: not refused", args);
    CHECK_MSG(it_has(out, says), "%s: no \"%s\" in: %s", args, says, out);
}

TEST(bench_clusters_refusals)
{
    check_refused("--shards 2 127.0.0.1:1", "--shards is for --spawn N");
    check_refused("--spawn 3 --shards 0", "bad value for --shards: '0' (1 .. 64)");
    check_refused("--spawn 3 --shards 65", "bad value for --shards");
    check_refused("--spawn 64 --shards 5", "320 masters, at most 256 in all");
    check_refused("--spawn 3 --shards 2 --baseline", "the raw baselines speak to plain masters");
    check_refused("--workload raw redis-cluster://127.0.0.1:1", "no --baseline or --workload raw "
                                                                "with cluster votes");
}

/* bench/clusters.sh: a round of plain masters and of clusters of one
 * master, the ratios to the plain round and the projection; bad usage. */
TEST(bench_clusters_script_rounds_and_projection)
{
    static char out[16384];
    CHECK_EQ(it_shell("sh bench/clusters.sh -r 1 -d 0.3 -s 1 -- --warmup 0.2", out, sizeof out),
             0);
    const char *p = strstr(out, "round 1: plain "), *c = strstr(out, "round 1: 1 shard ");
    CHECK_MSG(p != NULL && c != NULL && p < c, "%s", out);
    CHECK(it_has(c, " cycles/s, CPU per cycle: masters "));
    const char *m = strstr(out, "\nmedians of 1 rounds, 3 votes;");
    CHECK_MSG(m != NULL, "%s", out);
    CHECK(it_has(m, "\nplain ") && it_has(m, "1.00 (1.00-1.00)"));
    const char *s = strstr(m, "\n1 shard ");
    CHECK(s != NULL);
    /* the cluster's ratios: positive numbers */
    double ratio = -1;
    CHECK_EQ(sscanf(s, "\n1 shard %*f %*f %*f %*f %lf", &ratio), 1);
    CHECK_MSG(ratio > 0 && ratio < 100, "masters/plain %f", ratio);
    const char *j = strstr(m, "\none core per master");
    CHECK(j != NULL && it_has(j, "\n1 shard  c_v = ") && it_has(j, " locks/s a vote; client 1e6 / "));
    CHECK_EQ(it_shell("sh bench/clusters.sh -s 0 2>&1", out, sizeof out), 2);
    CHECK(it_has(out, "usage: sh bench/clusters.sh"));
}
