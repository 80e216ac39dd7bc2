/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* spawn.c -- --spawn N [--shards S]: the bench's own votes on loopback, N
 * plain redis-servers (test/support/servers.c) or N Redis Clusters of S
 * masters each, with --replicas R each (test/support/clusters.c), removed at the
 * end.  Every node is a child of the main thread, which outlives the runs. */
#include <stdio.h>
#include <stdlib.h>

#include "bench.h"
#include "clusters.h"
#include "servers.h"

struct rlb_spawned {
    rlt_servers *servers;
    rlt_clusters *clusters;
};

/* What was started, on stdout (not with --json). */
static void say(const bench_cfg *cfg, const char *what)
{
    if (cfg->json)
        return;
    printf("spawned %s:", what);
    for (size_t i = 0; i < cfg->nnodes; i++)
        printf(" %s", cfg->nodes[i]);
    printf("\n");
    fflush(stdout);
}

static int start_servers(rlb_spawned *s, bench_cfg *cfg, int n)
{
    char err[256] = "", what[64];
    if (!(s->servers = rlt_servers_start(n, NULL, err, sizeof(err)))) {
        fprintf(stderr, "redlock-bench: cannot start %d redis-servers: %s\n", n, err);
        return -1;
    }
    cfg->nodes = rlt_servers_addrs(s->servers);
    cfg->nnodes = (size_t)n;
    snprintf(what, sizeof(what), "%d redis-servers", n);
    say(cfg, what);
    return 0;
}

static int start_clusters(rlb_spawned *s, bench_cfg *cfg, int n, int shards, int replicas)
{
    char err[512] = "", what[128];
    if (!(s->clusters = rlt_clusters_start(n, shards, replicas, NULL, err, sizeof(err)))) {
        fprintf(stderr, "redlock-bench: cannot start %d Redis Clusters of %d masters: %s\n", n,
                shards, err);
        return -1;
    }
    cfg->nodes = rlt_clusters_addresses(s->clusters);
    cfg->nnodes = (size_t)n;
    int len = snprintf(what, sizeof(what), "%d Redis Clusters of %d master%s (one a vote)", n,
                       shards, shards == 1 ? "" : "s");
    if (replicas > 0 && len > 0 && (size_t)len < sizeof(what))
        snprintf(what + len, sizeof(what) - (size_t)len, ", %d replica%s each", replicas,
                 replicas == 1 ? "" : "s");
    say(cfg, what);
    return 0;
}

rlb_spawned *rlb_spawn(bench_opts *o)
{
    rlb_spawned *s = calloc(1, sizeof(*s));
    if (!s) {
        fprintf(stderr, "redlock-bench: out of memory\n");
        return NULL;
    }
    int rc = o->shards ? start_clusters(s, &o->cfg, o->spawn, o->shards, o->replicas)
                       : start_servers(s, &o->cfg, o->spawn);
    if (rc != 0) {
        free(s);
        return NULL;
    }
    return s;
}

void rlb_spawn_stop(rlb_spawned *s)
{
    if (!s)
        return;
    rlt_servers_free(s->servers);
    rlt_clusters_stop(s->clusters);
    free(s);
}
