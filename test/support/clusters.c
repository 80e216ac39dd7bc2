/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* clusters.c -- real Redis Clusters for tests (see clusters.h).  The nodes
 * are one servers.h set (all votes); this file joins them into clusters,
 * reads their views and drives failovers and slot migrations. */
#include "clusters.h"
#include "servers.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

extern char **environ;

#define RLT_CLUSTER_NODE_TIMEOUT_MS 2000
#define RLT_CLUSTER_POLL_MS 50
#define RLT_CLUSTER_CLI_TIMEOUT_MS 30000
#define RLT_CLUSTER_MIGRATE_BATCH 100
#define RLT_CLUSTER_MAX_SHARDS 64

struct rlt_cluster_node {
    char id[41];
};

struct rlt_clusters {
    int votes, shards, replicas;
    int per;                /* nodes per vote: shards * (1 + replicas) */
    int settle_ms;          /* how long start and restart wait to settle */
    rlt_servers *srv;       /* every node of every vote: vote v's node n is v * per + n */
    struct rlt_cluster_node *node;
    char *password;         /* the last --requirepass, or NULL */
    char **address;         /* one per vote, NULL-terminated */
    char err[512];
};

/* ---- errors, time, indexes --------------------------------------------- */

static int rlt_cluster_fail(rlt_clusters *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Set the error of c; returns -1 for `return rlt_cluster_fail(...)`. */
static int rlt_cluster_fail(rlt_clusters *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
    return -1;
}

static int64_t rlt_cluster_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void rlt_cluster_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

static int rlt_cluster_valid(const rlt_clusters *c, int v, int n)
{
    return c != NULL && v >= 0 && v < c->votes && n >= 0 && n < c->per;
}

static int rlt_cluster_index(const rlt_clusters *c, int v, int n)
{
    return v * c->per + n;
}

static const char *rlt_cluster_id(const rlt_clusters *c, int v, int n)
{
    return c->node[rlt_cluster_index(c, v, n)].id;
}

/* Running: neither killed nor paused. */
static int rlt_cluster_live(const rlt_clusters *c, int v, int n)
{
    return rlt_servers_running(c->srv, rlt_cluster_index(c, v, n));
}

static int rlt_cluster_check_index(rlt_clusters *c, int v, int n, const char *what)
{
    if (c == NULL)
        return -1;
    if (!rlt_cluster_valid(c, v, n))
        return rlt_cluster_fail(c, "%s: no node %d in vote %d", what, n, v);
    return 0;
}

/* ---- commands and replies ---------------------------------------------- */

static redisReply *rlt_cluster_vcmd(rlt_clusters *c, int v, int n, const char *fmt, va_list ap)
{
    return rlt_servers_vcommand(c->srv, rlt_cluster_index(c, v, n), fmt, ap);
}

static redisReply *rlt_cluster_cmd(rlt_clusters *c, int v, int n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static redisReply *rlt_cluster_cmd(rlt_clusters *c, int v, int n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = rlt_cluster_vcmd(c, v, n, fmt, ap);
    va_end(ap);
    return r;
}

/* What a reply says, for error messages. */
static const char *rlt_cluster_said(const redisReply *r)
{
    if (r == NULL)
        return "no reply";
    if (r->type == REDIS_REPLY_ERROR || r->type == REDIS_REPLY_STATUS ||
        r->type == REDIS_REPLY_STRING)
        return r->str;
    return "an unexpected reply";
}

/* A command whose reply must be +OK (or another status); frees the reply. */
static int rlt_cluster_ok(rlt_clusters *c, int v, int n, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int rlt_cluster_ok(rlt_clusters *c, int v, int n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = rlt_cluster_vcmd(c, v, n, fmt, ap);
    va_end(ap);
    int ok = r != NULL && r->type == REDIS_REPLY_STATUS;
    if (!ok)
        rlt_cluster_fail(c, "vote %d node %d (port %d): %s: %s", v, n,
                         rlt_clusters_port(c, v, n), fmt, rlt_cluster_said(r));
    if (r != NULL)
        freeReplyObject(r);
    return ok ? 0 : -1;
}

/* Does a string reply (INFO, CLUSTER INFO) hold "\nfield:value\r" or start
 * with "field:value\r"? */
static int rlt_cluster_info_has(const redisReply *r, const char *field_value)
{
    if (r == NULL || r->type != REDIS_REPLY_STRING)
        return 0;
    size_t len = strlen(field_value);
    for (const char *p = r->str; (p = strstr(p, field_value)) != NULL; p += len)
        if ((p == r->str || p[-1] == '\n') && (p[len] == '\r' || p[len] == '\n'))
            return 1;
    return 0;
}

/* ---- hash slots (the Redis Cluster specification's key hash) ----------- */

/* CRC16-CCITT, XMODEM variant: polynomial 0x1021, initial value 0, no
 * reflection, no final XOR. */
static uint16_t rlt_cluster_crc16(const unsigned char *p, size_t len)
{
    uint16_t crc = 0;
    for (size_t i = 0; i < len; i++) {
        crc ^= (uint16_t)(p[i] << 8);
        for (int bit = 0; bit < 8; bit++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

int rlt_clusters_slot_of(const void *key, size_t len)
{
    const unsigned char *k = key;
    const unsigned char *open = len > 0 ? memchr(k, '{', len) : NULL;
    if (open != NULL) {
        size_t from = (size_t)(open - k) + 1;
        const unsigned char *close = memchr(k + from, '}', len - from);
        /* "{}" is no tag: the whole key is hashed */
        if (close != NULL && close > k + from)
            return rlt_cluster_crc16(k + from, (size_t)(close - (k + from))) % RLT_CLUSTER_SLOTS;
    }
    return rlt_cluster_crc16(k, len) % RLT_CLUSTER_SLOTS;
}

/* ---- what the nodes say ------------------------------------------------- */

/* owner[slot] = the port serving slot per node n's CLUSTER SLOTS (0: none);
 * -1 when the node gives no readable answer. */
static int rlt_cluster_slot_map(rlt_clusters *c, int v, int n, int *owner)
{
    redisReply *r = rlt_cluster_cmd(c, v, n, "CLUSTER SLOTS");
    int res = r != NULL && r->type == REDIS_REPLY_ARRAY ? 0 : -1;
    memset(owner, 0, RLT_CLUSTER_SLOTS * sizeof *owner);
    for (size_t k = 0; res == 0 && k < r->elements; k++) {
        const redisReply *e = r->element[k];
        if (e->type != REDIS_REPLY_ARRAY || e->elements < 3 ||
            e->element[0]->type != REDIS_REPLY_INTEGER ||
            e->element[1]->type != REDIS_REPLY_INTEGER ||
            e->element[2]->type != REDIS_REPLY_ARRAY || e->element[2]->elements < 2 ||
            e->element[2]->element[1]->type != REDIS_REPLY_INTEGER) {
            res = -1;
            break;
        }
        long long lo = e->element[0]->integer, hi = e->element[1]->integer;
        for (long long s = lo < 0 ? 0 : lo; s <= hi && s < RLT_CLUSTER_SLOTS; s++)
            owner[s] = (int)e->element[2]->element[1]->integer;
    }
    if (r != NULL)
        freeReplyObject(r);
    return res;
}

/* The first running node that answers CLUSTER SLOTS, its map in owner;
 * -1 if none does. */
static int rlt_cluster_any_map(rlt_clusters *c, int v, int *owner)
{
    for (int n = 0; n < c->per; n++)
        if (rlt_cluster_live(c, v, n) && rlt_cluster_slot_map(c, v, n, owner) == 0)
            return n;
    return rlt_cluster_fail(c, "vote %d: no running node answers CLUSTER SLOTS", v);
}

/* One line of CLUSTER NODES: "<id> <ip:port@cport[,host]> <flags> <master>
 * <ping-sent> <pong-recv> <epoch> <link-state> [slots...]". */
struct rlt_cluster_line {
    char id[41];
    int port;
    char flags[128];
    char master[41];
    char link[16];
    const char *rest;   /* the slots part, inside the reply */
};

/* Parse the line at p (up to its '\n'); 0 on success. */
static int rlt_cluster_parse_line(const char *p, struct rlt_cluster_line *l)
{
    char addr[128];
    int used = 0;
    if (sscanf(p, "%40s %127s %127s %40s %*s %*s %*s %15s%n", l->id, addr, l->flags, l->master,
               l->link, &used) != 5)
        return -1;
    const char *colon = strrchr(addr, ':');
    if (colon == NULL)
        return -1;
    l->port = atoi(colon + 1);
    l->rest = p + used;
    return 0;
}

/* The line after the one at p, or NULL at the end. */
static const char *rlt_cluster_next_line(const char *p)
{
    p = strchr(p, '\n');
    return p != NULL && p[1] != '\0' ? p + 1 : NULL;
}

static int rlt_cluster_has_flag(const struct rlt_cluster_line *l, const char *flag)
{
    size_t len = strlen(flag);
    for (const char *p = l->flags; (p = strstr(p, flag)) != NULL; p += len)
        if ((p == l->flags || p[-1] == ',') && (p[len] == '\0' || p[len] == ','))
            return 1;
    return 0;
}

static enum rlt_cluster_role rlt_cluster_line_role(const struct rlt_cluster_line *l)
{
    if (rlt_cluster_has_flag(l, "master"))
        return RLT_CLUSTER_MASTER;
    if (rlt_cluster_has_flag(l, "slave"))
        return RLT_CLUSTER_REPLICA;
    return RLT_CLUSTER_DOWN;
}

/* Node n's CLUSTER NODES as a string reply; NULL (error set) otherwise. */
static redisReply *rlt_cluster_nodes_reply(rlt_clusters *c, int v, int n)
{
    redisReply *r = rlt_cluster_cmd(c, v, n, "CLUSTER NODES");
    if (r != NULL && r->type == REDIS_REPLY_STRING)
        return r;
    rlt_cluster_fail(c, "vote %d node %d: CLUSTER NODES: %s", v, n, rlt_cluster_said(r));
    if (r != NULL)
        freeReplyObject(r);
    return NULL;
}

/* ---- is a vote settled? ------------------------------------------------- */

/* Node n says cluster_state:ok. */
static int rlt_cluster_state_ok(rlt_clusters *c, int v, int n)
{
    redisReply *r = rlt_cluster_cmd(c, v, n, "CLUSTER INFO");
    int ok = rlt_cluster_info_has(r, "cluster_state:ok");
    if (!ok)
        rlt_cluster_fail(c, "vote %d node %d (port %d): not cluster_state:ok", v, n,
                         rlt_clusters_port(c, v, n));
    if (r != NULL)
        freeReplyObject(r);
    return ok;
}

/* The reference map covers every slot, served by `shards` running masters. */
static int rlt_cluster_map_good(rlt_clusters *c, int v, int n, const int *owner)
{
    int masters[RLT_CLUSTER_MAX_SHARDS], nmasters = 0;
    for (int s = 0; s < RLT_CLUSTER_SLOTS; s++) {
        int m = rlt_clusters_node_of_port(c, v, owner[s]);
        if (m < 0 || !rlt_cluster_live(c, v, m)) {
            rlt_cluster_fail(c, "vote %d node %d: slot %d is served by %s (port %d)", v, n, s,
                             m < 0 ? "no node of the vote" : "a node not running", owner[s]);
            return 0;
        }
        int k = 0;
        while (k < nmasters && masters[k] != m)
            k++;
        if (k == nmasters && nmasters < RLT_CLUSTER_MAX_SHARDS)
            masters[nmasters++] = m;
    }
    if (nmasters != c->shards)
        rlt_cluster_fail(c, "vote %d node %d: %d masters serve slots, not %d", v, n, nmasters,
                         c->shards);
    return nmasters == c->shards;
}

/* Node n's slot map, read into buf, equals ref (the first running node's);
 * ref NULL: n is the first, and its map must be good. */
static int rlt_cluster_map_agrees(rlt_clusters *c, int v, int n, const int *ref, int *buf)
{
    if (rlt_cluster_slot_map(c, v, n, buf) != 0) {
        rlt_cluster_fail(c, "vote %d node %d: no answer to CLUSTER SLOTS", v, n);
        return 0;
    }
    if (ref == NULL)
        return rlt_cluster_map_good(c, v, n, buf);
    for (int s = 0; s < RLT_CLUSTER_SLOTS; s++)
        if (buf[s] != ref[s]) {
            rlt_cluster_fail(c, "vote %d node %d: slot %d served by port %d, another node says %d",
                             v, n, s, buf[s], ref[s]);
            return 0;
        }
    return 1;
}

/* Node n knows every node of the vote; a running one with no failure flag
 * and a connected link.  role[m] = the role n gives node m. */
static int rlt_cluster_view_good(rlt_clusters *c, int v, int n, int *role)
{
    redisReply *r = rlt_cluster_nodes_reply(c, v, n);
    if (r == NULL)
        return 0;
    int known = 0, good = 1;
    for (const char *p = r->str; good && p != NULL; p = rlt_cluster_next_line(p)) {
        struct rlt_cluster_line l;
        if (rlt_cluster_parse_line(p, &l) != 0)
            continue;
        int m = rlt_clusters_node_of_port(c, v, l.port);
        if (m < 0 || rlt_cluster_has_flag(&l, "handshake") || rlt_cluster_has_flag(&l, "noaddr")) {
            good = 0;
            rlt_cluster_fail(c, "vote %d node %d: still meeting %s (port %d, %s)", v, n, l.id,
                             l.port, l.flags);
            break;
        }
        known++;
        role[m] = rlt_cluster_line_role(&l);
        if (rlt_cluster_live(c, v, m) &&
            (rlt_cluster_has_flag(&l, "fail") || rlt_cluster_has_flag(&l, "fail?") ||
             strcmp(l.link, "connected") != 0)) {
            good = 0;
            rlt_cluster_fail(c, "vote %d node %d sees node %d as %s, %s", v, n, m, l.flags, l.link);
        }
    }
    freeReplyObject(r);
    if (good && known != c->per)
        rlt_cluster_fail(c, "vote %d node %d knows %d nodes, not %d", v, n, known, c->per);
    return good && known == c->per;
}

/* Every running node gives each running node the role that one gives
 * itself; role is per x per, row n = node n's view. */
static int rlt_cluster_roles_agree(rlt_clusters *c, int v, const int *role)
{
    static const char *const names[] = {"unknown", "master", "replica"};
    for (int n = 0; n < c->per; n++)
        for (int m = 0; rlt_cluster_live(c, v, n) && m < c->per; m++) {
            int self = role[m * c->per + m], seen = role[n * c->per + m];
            if (rlt_cluster_live(c, v, m) && seen != self) {
                rlt_cluster_fail(c, "vote %d node %d sees node %d as a %s, it says it is a %s", v,
                                 n, m, names[seen], names[self]);
                return 0;
            }
        }
    return 1;
}

/* Node n, a replica, has its link to its master up. */
static int rlt_cluster_link_up(rlt_clusters *c, int v, int n)
{
    redisReply *r = rlt_cluster_cmd(c, v, n, "INFO replication");
    int up = rlt_cluster_info_has(r, "master_link_status:up");
    if (!up)
        rlt_cluster_fail(c, "vote %d node %d (a replica): master_link_status not up", v, n);
    if (r != NULL)
        freeReplyObject(r);
    return up;
}

/* The per-node checks, filling the role matrix. */
static int rlt_cluster_nodes_settled(rlt_clusters *c, int v, int *role, int *ref, int *buf)
{
    int first = 1;
    for (int n = 0; n < c->per; n++) {
        if (!rlt_cluster_live(c, v, n))
            continue;
        if (!rlt_cluster_state_ok(c, v, n) ||
            !rlt_cluster_map_agrees(c, v, n, first ? NULL : ref, first ? ref : buf) ||
            !rlt_cluster_view_good(c, v, n, role + n * c->per))
            return 0;
        first = 0;
    }
    if (first)
        rlt_cluster_fail(c, "vote %d: no node is running", v);
    return !first;
}

/* 1 when vote v is settled (clusters.h, rlt_clusters_wait_ok); links: the
 * replicas' links must be up too.  0 with why in the error otherwise. */
static int rlt_cluster_settled(rlt_clusters *c, int v, int links)
{
    int *role = calloc((size_t)c->per * (size_t)c->per, sizeof *role);
    int *maps = malloc(2 * RLT_CLUSTER_SLOTS * sizeof *maps);
    int ok = role != NULL && maps != NULL;
    if (!ok)
        rlt_cluster_fail(c, "out of memory");
    ok = ok && rlt_cluster_nodes_settled(c, v, role, maps, maps + RLT_CLUSTER_SLOTS) &&
         rlt_cluster_roles_agree(c, v, role);
    for (int n = 0; ok && links && n < c->per; n++)
        if (rlt_cluster_live(c, v, n) && role[n * c->per + n] == RLT_CLUSTER_REPLICA)
            ok = rlt_cluster_link_up(c, v, n);
    free(role);
    free(maps);
    return ok;
}

/* Poll cond until it holds or timeout_ms passed; the error then says
 * what was still not so. */
typedef int rlt_cluster_cond(rlt_clusters *c, int v, const void *arg);

static int rlt_cluster_wait(rlt_clusters *c, int v, const void *arg, rlt_cluster_cond *cond,
                            int timeout_ms, const char *what)
{
    int64_t start = rlt_cluster_now_ms();
    for (;;) {
        if (cond(c, v, arg)) {
            c->err[0] = '\0';
            return 0;
        }
        if (rlt_cluster_now_ms() - start >= timeout_ms) {
            char why[sizeof c->err];
            snprintf(why, sizeof why, "%s", c->err);
            return rlt_cluster_fail(c, "%s: not so after %d ms: %s", what, timeout_ms, why);
        }
        rlt_cluster_sleep_ms(RLT_CLUSTER_POLL_MS);
    }
}

static int rlt_cluster_settled_links(rlt_clusters *c, int v, const void *unused)
{
    (void)unused;
    return rlt_cluster_settled(c, v, 1);
}

int rlt_clusters_wait_ok(rlt_clusters *c, int vote, int timeout_ms)
{
    if (rlt_cluster_check_index(c, vote, 0, "rlt_clusters_wait_ok") != 0)
        return -1;
    return rlt_cluster_wait(c, vote, NULL, rlt_cluster_settled_links, timeout_ms,
                            "rlt_clusters_wait_ok");
}

/* Node n serves slots in every node's map, all else agreed. */
static int rlt_cluster_promoted(rlt_clusters *c, int v, const void *node)
{
    int n = *(const int *)node;
    if (!rlt_cluster_settled(c, v, 0))
        return 0;
    if (rlt_clusters_slot_on(c, v, n) >= 0)
        return 1;
    rlt_cluster_fail(c, "vote %d node %d serves no slot", v, n);
    return 0;
}

int rlt_clusters_wait_promoted(rlt_clusters *c, int vote, int node, int timeout_ms)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_wait_promoted") != 0)
        return -1;
    return rlt_cluster_wait(c, vote, &node, rlt_cluster_promoted, timeout_ms,
                            "rlt_clusters_wait_promoted");
}

/* ---- joining a cluster: redis-cli --cluster create ---------------------- */

/* $REDIS_CLI; else redis-cli next to $REDIS_SERVER; else redis-cli on PATH. */
static char *rlt_cluster_cli_path(void)
{
    const char *env = getenv("REDIS_CLI");
    if (env != NULL && *env != '\0')
        return strdup(env);
    const char *server = getenv("REDIS_SERVER");
    const char *slash = server != NULL ? strrchr(server, '/') : NULL;
    if (slash != NULL) {
        size_t len = (size_t)(slash - server) + sizeof "/redis-cli";
        char *path = malloc(len);
        if (path != NULL)
            snprintf(path, len, "%.*s/redis-cli", (int)(slash - server), server);
        if (path != NULL && access(path, X_OK) == 0)
            return path;
        free(path);
    }
    return strdup("redis-cli");
}

/* The argv of redis-cli --cluster create for vote v; addrs holds the
 * "127.0.0.1:port" strings it points to. */
static const char **rlt_cluster_cli_argv(rlt_clusters *c, int v, const char *cli,
                                         char (*addrs)[32], char *replicas)
{
    const char **argv = calloc((size_t)c->per + 10, sizeof *argv);
    if (argv == NULL)
        return NULL;
    int k = 0;
    argv[k++] = cli;
    if (c->password != NULL) {
        argv[k++] = "-a";
        argv[k++] = c->password;
        argv[k++] = "--no-auth-warning";
    }
    argv[k++] = "--cluster";
    argv[k++] = "create";
    for (int n = 0; n < c->per; n++) {
        snprintf(addrs[n], sizeof addrs[n], "127.0.0.1:%d", rlt_clusters_port(c, v, n));
        argv[k++] = addrs[n];
    }
    snprintf(replicas, 16, "%d", c->replicas);
    argv[k++] = "--cluster-replicas";
    argv[k++] = replicas;
    argv[k++] = "--cluster-yes";
    argv[k] = NULL;
    return argv;
}

static char *rlt_cluster_cli_log(rlt_clusters *c, int v)
{
    const char *dir = rlt_clusters_dir(c, v, 0);
    size_t len = strlen(dir) + sizeof "/cluster-create.log";
    char *log = malloc(len);
    if (log != NULL)
        snprintf(log, len, "%s/cluster-create.log", dir);
    return log;
}

/* posix_spawn argv with stdin from /dev/null, stdout and stderr to log,
 * default signal handling; 0 on failure (error set). */
static pid_t rlt_cluster_spawn(rlt_clusters *c, const char **argv, const char *log)
{
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    sigset_t none, deflt;
    sigemptyset(&none);
    sigemptyset(&deflt);
    sigaddset(&deflt, SIGPIPE);
    sigaddset(&deflt, SIGCHLD);
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    posix_spawnattr_init(&attr);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &deflt);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = 0;
    int e = posix_spawnp(&pid, argv[0], &fa, &attr, (char *const *)argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
    if (e != 0) {
        rlt_cluster_fail(c, "cannot run %s: %s", argv[0], strerror(e));
        return 0;
    }
    return pid;
}

/* Start redis-cli --cluster create for vote v; its pid, 0 on failure. */
static pid_t rlt_cluster_cli_start(rlt_clusters *c, int v)
{
    char *cli = rlt_cluster_cli_path();
    char *log = rlt_cluster_cli_log(c, v);
    char (*addrs)[32] = calloc((size_t)c->per, sizeof *addrs);
    char replicas[16];
    const char **argv = NULL;
    if (cli != NULL && addrs != NULL)
        argv = rlt_cluster_cli_argv(c, v, cli, addrs, replicas);
    pid_t pid = 0;
    if (argv == NULL || log == NULL)
        rlt_cluster_fail(c, "out of memory");
    else
        pid = rlt_cluster_spawn(c, argv, log);
    free(argv);
    free(addrs);
    free(log);
    free(cli);
    return pid;
}

/* The last line of redis-cli's log that says something, its colours (ANSI
 * escapes) taken out. */
static void rlt_cluster_cli_said(rlt_clusters *c, int v, char *out, size_t outlen)
{
    snprintf(out, outlen, "no output");
    char *log = rlt_cluster_cli_log(c, v);
    FILE *f = log != NULL ? fopen(log, "r") : NULL;
    char line[512];
    while (f != NULL && fgets(line, sizeof line, f) != NULL) {
        size_t k = 0;
        for (const char *p = line; *p != '\0' && *p != '\n'; p++) {
            if (*p == '\033') {
                p += strcspn(p, "m");
                if (*p == '\0')
                    break;
            } else if (k + 1 < outlen && *p != '\r') {
                out[k++] = *p;
            }
        }
        if (k > 0)
            out[k] = '\0';
    }
    if (f != NULL)
        fclose(f);
    free(log);
}

/* Wait for vote v's redis-cli to exit successfully; kill it at the deadline. */
static int rlt_cluster_cli_wait(rlt_clusters *c, int v, pid_t pid)
{
    int64_t deadline = rlt_cluster_now_ms() + RLT_CLUSTER_CLI_TIMEOUT_MS;
    int status = 0;
    pid_t r;
    while ((r = waitpid(pid, &status, WNOHANG)) == 0 || (r < 0 && errno == EINTR)) {
        if (rlt_cluster_now_ms() >= deadline) {
            kill(pid, SIGKILL);
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
                ;
            status = -1;
            r = -1;
            break;
        }
        rlt_cluster_sleep_ms(10);
    }
    if (r == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char said[256];
    rlt_cluster_cli_said(c, v, said, sizeof said);
    if (r != pid)
        return rlt_cluster_fail(c, "vote %d: redis-cli --cluster create %s: %s", v,
                                status == -1 ? "ran too long, killed" : "was lost", said);
    return rlt_cluster_fail(c, "vote %d: redis-cli --cluster create failed (%s %d): %s", v,
                            WIFEXITED(status) ? "exit status" : "signal",
                            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), said);
}

/* ---- joining a cluster by hand (1 or 2 shards) -------------------------- */

/* Every node of vote v knows every other (no handshake left). */
static int rlt_cluster_all_met(rlt_clusters *c, int v, const void *unused)
{
    (void)unused;
    for (int n = 0; n < c->per; n++) {
        redisReply *r = rlt_cluster_nodes_reply(c, v, n);
        if (r == NULL)
            return 0;
        int known = 0;
        for (const char *p = r->str; p != NULL; p = rlt_cluster_next_line(p)) {
            struct rlt_cluster_line l;
            if (rlt_cluster_parse_line(p, &l) == 0 && !rlt_cluster_has_flag(&l, "handshake") &&
                !rlt_cluster_has_flag(&l, "noaddr"))
                known++;
        }
        freeReplyObject(r);
        if (known != c->per) {
            rlt_cluster_fail(c, "vote %d node %d knows %d nodes of %d", v, n, known, c->per);
            return 0;
        }
    }
    return 1;
}

/* The masters' slots in even ranges and distinct config epochs (as
 * redis-cli gives them; a node takes an epoch only before it meets). */
static int rlt_cluster_assign_slots(rlt_clusters *c, int v)
{
    for (int n = 0; n < c->shards; n++) {
        int lo = n * RLT_CLUSTER_SLOTS / c->shards;
        int hi = (n + 1) * RLT_CLUSTER_SLOTS / c->shards - 1;
        if (rlt_cluster_ok(c, v, n, "CLUSTER ADDSLOTSRANGE %d %d", lo, hi) != 0)
            return -1;
    }
    for (int n = 0; n < c->per; n++)
        if (rlt_cluster_ok(c, v, n, "CLUSTER SET-CONFIG-EPOCH %d", n + 1) != 0)
            return -1;
    return 0;
}

/* Slots, epochs, and every node meets every other directly: gossip
 * alone would take a second or so to introduce them all. */
static int rlt_cluster_meet_by_hand(rlt_clusters *c, int v)
{
    if (rlt_cluster_assign_slots(c, v) != 0)
        return -1;
    for (int n = 1; n < c->per; n++)
        for (int m = 0; m < n; m++)
            if (rlt_cluster_ok(c, v, n, "CLUSTER MEET 127.0.0.1 %d",
                               rlt_clusters_port(c, v, m)) != 0)
                return -1;
    return 0;
}

/* Once all met (REPLICATE needs the master known to the replica), replica
 * r (node shards + r) follows master r mod shards. */
static int rlt_cluster_replicate_by_hand(rlt_clusters *c, int v)
{
    if (rlt_cluster_wait(c, v, NULL, rlt_cluster_all_met, c->settle_ms, "CLUSTER MEET") != 0)
        return -1;
    for (int n = c->shards; n < c->per; n++) {
        int m = (n - c->shards) % c->shards;
        if (rlt_cluster_ok(c, v, n, "CLUSTER REPLICATE %s", rlt_cluster_id(c, v, m)) != 0)
            return -1;
    }
    return 0;
}

/* Join every vote, all at once: redis-cli for those it accepts (it sleeps
 * most of its time), by hand for the others; then wait until all settle. */
static int rlt_cluster_join_all(rlt_clusters *c)
{
    pid_t *cli = calloc((size_t)c->votes, sizeof *cli);
    int res = cli != NULL ? 0 : rlt_cluster_fail(c, "out of memory");
    for (int v = 0; res == 0 && v < c->votes; v++) {
        if (c->shards >= 3)
            res = (cli[v] = rlt_cluster_cli_start(c, v)) > 0 ? 0 : -1;
        else
            res = rlt_cluster_meet_by_hand(c, v);
    }
    for (int v = 0; res == 0 && c->shards < 3 && v < c->votes; v++)
        res = rlt_cluster_replicate_by_hand(c, v);
    /* every redis-cli started is waited for, whatever failed meanwhile */
    for (int v = 0; cli != NULL && v < c->votes; v++)
        if (cli[v] > 0 && rlt_cluster_cli_wait(c, v, cli[v]) != 0)
            res = -1;
    free(cli);
    for (int v = 0; res == 0 && v < c->votes; v++)
        res = rlt_cluster_wait(c, v, NULL, rlt_cluster_settled_links, c->settle_ms,
                               "cluster start");
    return res;
}

/* ---- start and stop ------------------------------------------------------ */

/* The nodes' arguments: the cluster's, --masterauth, the caller's. */
static const char **rlt_cluster_args(rlt_clusters *c, const char *const *extra, char *timeout)
{
    size_t nextra = 0;
    while (extra != NULL && extra[nextra] != NULL)
        nextra++;
    const char **args = calloc(nextra + 13, sizeof *args);
    if (args == NULL)
        return NULL;
    size_t k = 0;
    snprintf(timeout, 16, "%d", RLT_CLUSTER_NODE_TIMEOUT_MS);
    /* replicas sync at once, not after the default 5 s of waiting for more */
    const char *fixed[] = {"--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf",
                           "--cluster-node-timeout", timeout, "--repl-diskless-sync-delay", "0"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        args[k++] = fixed[i];
    if (c->password != NULL) {
        args[k++] = "--masterauth"; /* any node may become a replica */
        args[k++] = c->password;
    }
    for (size_t i = 0; i < nextra; i++)
        args[k++] = extra[i];
    return args;
}

/* The last --requirepass and --cluster-node-timeout of the caller's. */
static int rlt_cluster_read_extra(rlt_clusters *c, const char *const *extra)
{
    int timeout = RLT_CLUSTER_NODE_TIMEOUT_MS;
    for (size_t k = 0; extra != NULL && extra[k] != NULL && extra[k + 1] != NULL; k++) {
        if (strcmp(extra[k], "--requirepass") == 0) {
            free(c->password);
            c->password = extra[k + 1][0] != '\0' ? strdup(extra[k + 1]) : NULL;
            if (extra[k + 1][0] != '\0' && c->password == NULL)
                return -1;
        }
        if (strcmp(extra[k], "--cluster-node-timeout") == 0)
            timeout = atoi(extra[k + 1]);
    }
    /* starting and restarting wait out a few failure detections */
    c->settle_ms = 20000 + 5 * (timeout > 0 ? timeout : RLT_CLUSTER_NODE_TIMEOUT_MS);
    return 0;
}

static int rlt_cluster_read_ids(rlt_clusters *c)
{
    for (int i = 0; i < c->votes * c->per; i++) {
        int v = i / c->per, n = i % c->per;
        redisReply *r = rlt_cluster_cmd(c, v, n, "CLUSTER MYID");
        int ok = r != NULL && r->type == REDIS_REPLY_STRING && r->len == 40;
        if (ok)
            memcpy(c->node[i].id, r->str, 41);
        else
            rlt_cluster_fail(c, "vote %d node %d: CLUSTER MYID: %s", v, n, rlt_cluster_said(r));
        if (r != NULL)
            freeReplyObject(r);
        if (!ok)
            return -1;
    }
    return 0;
}

/* Append s to the buffer at *p (of end), percent-encoding if asked. */
static void rlt_cluster_put(char **p, const char *end, const char *s, int encode)
{
    for (; *s != '\0' && *p + 4 < end; s++) {
        unsigned char ch = (unsigned char)*s;
        if (!encode || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
            (ch >= '0' && ch <= '9') || strchr("-._~", ch) != NULL)
            *(*p)++ = (char)ch;
        else
            *p += snprintf(*p, 4, "%%%02X", ch);
    }
    **p = '\0';
}

/* redis-cluster://[:password@]127.0.0.1:P,... for every vote. */
static int rlt_cluster_addresses(rlt_clusters *c)
{
    c->address = calloc((size_t)c->votes + 1, sizeof *c->address);
    size_t size = 64 + 3 * (c->password != NULL ? strlen(c->password) : 0) + 24 * (size_t)c->shards;
    for (int v = 0; c->address != NULL && v < c->votes; v++) {
        char *p = c->address[v] = malloc(size);
        if (p == NULL)
            break;
        const char *end = p + size;
        rlt_cluster_put(&p, end, "redis-cluster://", 0);
        if (c->password != NULL) {
            rlt_cluster_put(&p, end, ":", 0);
            rlt_cluster_put(&p, end, c->password, 1);
            rlt_cluster_put(&p, end, "@", 0);
        }
        for (int n = 0; n < c->shards; n++) {
            char seed[32];
            snprintf(seed, sizeof seed, "%s127.0.0.1:%d", n > 0 ? "," : "",
                     rlt_clusters_port(c, v, n));
            rlt_cluster_put(&p, end, seed, 0);
        }
    }
    if (c->address == NULL || (c->votes > 0 && c->address[c->votes - 1] == NULL))
        return rlt_cluster_fail(c, "out of memory");
    return 0;
}

/* Start the nodes and join them; the error in c->err on failure. */
static int rlt_cluster_start_all(rlt_clusters *c, const char *const *extra_args)
{
    char timeout[16];
    if (rlt_cluster_read_extra(c, extra_args) != 0)
        return rlt_cluster_fail(c, "out of memory");
    const char **args = rlt_cluster_args(c, extra_args, timeout);
    c->node = calloc((size_t)c->votes * (size_t)c->per, sizeof *c->node);
    if (args == NULL || c->node == NULL) {
        free(args);
        return rlt_cluster_fail(c, "out of memory");
    }
    c->srv = rlt_servers_start(c->votes * c->per, args, c->err, sizeof c->err);
    free(args);
    if (c->srv == NULL)
        return -1;
    if (rlt_cluster_read_ids(c) != 0 || rlt_cluster_join_all(c) != 0)
        return -1;
    return rlt_cluster_addresses(c);
}

rlt_clusters *rlt_clusters_start(int votes, int shards, int replicas,
                                 const char *const *extra_args, char *err, size_t errlen)
{
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    if (votes <= 0 || shards <= 0 || shards > RLT_CLUSTER_MAX_SHARDS || replicas < 0 ||
        replicas > 8) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "rlt_clusters_start: bad sizes (votes %d, shards %d of 1..%d, "
                     "replicas %d of 0..8)", votes, shards, RLT_CLUSTER_MAX_SHARDS, replicas);
        return NULL;
    }
    rlt_clusters *c = calloc(1, sizeof *c);
    if (c == NULL) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "out of memory");
        return NULL;
    }
    c->votes = votes;
    c->shards = shards;
    c->replicas = replicas;
    c->per = shards * (1 + replicas);
    if (rlt_cluster_start_all(c, extra_args) != 0) {
        if (err != NULL && errlen > 0)
            snprintf(err, errlen, "%s", c->err);
        rlt_clusters_stop(c);
        return NULL;
    }
    c->err[0] = '\0';
    return c;
}

void rlt_clusters_stop(rlt_clusters *c)
{
    if (c == NULL)
        return;
    rlt_servers_free(c->srv);
    for (int v = 0; c->address != NULL && v < c->votes; v++)
        free(c->address[v]);
    free(c->address);
    free(c->node);
    free(c->password);
    free(c);
}

/* ---- accessors ----------------------------------------------------------- */

const char *rlt_clusters_error(const rlt_clusters *c)
{
    return c != NULL ? c->err : "no clusters";
}

int rlt_clusters_votes(const rlt_clusters *c)
{
    return c != NULL ? c->votes : 0;
}

int rlt_clusters_shards(const rlt_clusters *c)
{
    return c != NULL ? c->shards : 0;
}

const char *rlt_clusters_address(const rlt_clusters *c, int vote)
{
    return rlt_cluster_valid(c, vote, 0) ? c->address[vote] : NULL;
}

const char *const *rlt_clusters_addresses(const rlt_clusters *c)
{
    return c != NULL ? (const char *const *)c->address : NULL;
}

int rlt_clusters_nodes(const rlt_clusters *c, int vote)
{
    return rlt_cluster_valid(c, vote, 0) ? c->per : 0;
}

int rlt_clusters_port(const rlt_clusters *c, int vote, int node)
{
    if (!rlt_cluster_valid(c, vote, node))
        return -1;
    return rlt_servers_port(c->srv, rlt_cluster_index(c, vote, node));
}

pid_t rlt_clusters_pid(const rlt_clusters *c, int vote, int node)
{
    if (!rlt_cluster_valid(c, vote, node))
        return 0;
    return rlt_servers_pid(c->srv, rlt_cluster_index(c, vote, node));
}

const char *rlt_clusters_dir(const rlt_clusters *c, int vote, int node)
{
    if (!rlt_cluster_valid(c, vote, node))
        return NULL;
    return rlt_servers_dir(c->srv, rlt_cluster_index(c, vote, node));
}

const char *rlt_clusters_id(const rlt_clusters *c, int vote, int node)
{
    return rlt_cluster_valid(c, vote, node) ? rlt_cluster_id(c, vote, node) : NULL;
}

int rlt_clusters_node_of_port(const rlt_clusters *c, int vote, int port)
{
    for (int n = 0; rlt_cluster_valid(c, vote, n) && port > 0; n++)
        if (rlt_clusters_port(c, vote, n) == port)
            return n;
    return -1;
}

/* The node whose id starts the string; -1 if none. */
static int rlt_cluster_node_of_id(const rlt_clusters *c, int v, const char *id)
{
    for (int n = 0; n < c->per; n++)
        if (strncmp(id, rlt_cluster_id(c, v, n), 40) == 0)
            return n;
    return -1;
}

/* ---- live roles and owners ---------------------------------------------- */

/* ROLE of node n, the reply (an array) or NULL with the error set. */
static redisReply *rlt_cluster_role_reply(rlt_clusters *c, int v, int n)
{
    redisReply *r = rlt_cluster_cmd(c, v, n, "ROLE");
    if (r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements >= 1 &&
        r->element[0]->type == REDIS_REPLY_STRING)
        return r;
    rlt_cluster_fail(c, "vote %d node %d: ROLE: %s", v, n, rlt_cluster_said(r));
    if (r != NULL)
        freeReplyObject(r);
    return NULL;
}

enum rlt_cluster_role rlt_clusters_role(rlt_clusters *c, int vote, int node)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_role") != 0)
        return RLT_CLUSTER_DOWN;
    redisReply *r = rlt_cluster_role_reply(c, vote, node);
    if (r == NULL)
        return RLT_CLUSTER_DOWN;
    enum rlt_cluster_role role = RLT_CLUSTER_DOWN;
    if (strcmp(r->element[0]->str, "master") == 0)
        role = RLT_CLUSTER_MASTER;
    else if (strcmp(r->element[0]->str, "slave") == 0)
        role = RLT_CLUSTER_REPLICA;
    freeReplyObject(r);
    return role;
}

int rlt_clusters_master_of(rlt_clusters *c, int vote, int node)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_master_of") != 0)
        return -1;
    redisReply *r = rlt_cluster_role_reply(c, vote, node);
    if (r == NULL)
        return -1;
    int m = -1;
    /* a replica: ["slave", master ip, master port, state, offset] */
    if (strcmp(r->element[0]->str, "slave") == 0 && r->elements >= 3 &&
        r->element[2]->type == REDIS_REPLY_INTEGER)
        m = rlt_clusters_node_of_port(c, vote, (int)r->element[2]->integer);
    if (m < 0)
        rlt_cluster_fail(c, "vote %d node %d follows no node of the vote", vote, node);
    freeReplyObject(r);
    return m;
}

int rlt_clusters_master_of_slot(rlt_clusters *c, int vote, int slot)
{
    if (rlt_cluster_check_index(c, vote, 0, "rlt_clusters_master_of_slot") != 0)
        return -1;
    if (slot < 0 || slot >= RLT_CLUSTER_SLOTS)
        return rlt_cluster_fail(c, "rlt_clusters_master_of_slot: no slot %d", slot);
    int *owner = malloc(RLT_CLUSTER_SLOTS * sizeof *owner);
    if (owner == NULL)
        return rlt_cluster_fail(c, "out of memory");
    int m = -1;
    if (rlt_cluster_any_map(c, vote, owner) >= 0) {
        m = rlt_clusters_node_of_port(c, vote, owner[slot]);
        if (m < 0)
            rlt_cluster_fail(c, "vote %d: slot %d is served by port %d", vote, slot, owner[slot]);
    }
    free(owner);
    return m;
}

int rlt_clusters_slot_on(rlt_clusters *c, int vote, int node)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_slot_on") != 0)
        return -1;
    int *owner = malloc(RLT_CLUSTER_SLOTS * sizeof *owner);
    if (owner == NULL)
        return rlt_cluster_fail(c, "out of memory");
    int slot = -1, port = rlt_clusters_port(c, vote, node);
    if (rlt_cluster_slot_map(c, vote, node, owner) != 0)
        rlt_cluster_fail(c, "vote %d node %d: no answer to CLUSTER SLOTS", vote, node);
    else
        for (int s = 0; slot < 0 && s < RLT_CLUSTER_SLOTS; s++)
            if (owner[s] == port)
                slot = s;
    free(owner);
    return slot;
}

/* ---- commands ------------------------------------------------------------ */

void *rlt_clusters_command(rlt_clusters *c, int vote, int node, const char *fmt, ...)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_command") != 0)
        return NULL;
    va_list ap;
    va_start(ap, fmt);
    redisReply *r = rlt_cluster_vcmd(c, vote, node, fmt, ap);
    va_end(ap);
    return r;
}

void *rlt_clusters_command_argv(rlt_clusters *c, int vote, int node, int argc,
                                const char **argv, const size_t *argvlen)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_command_argv") != 0)
        return NULL;
    return rlt_servers_command_argv(c->srv, rlt_cluster_index(c, vote, node), argc, argv, argvlen);
}

/* ---- faults -------------------------------------------------------------- */

int rlt_clusters_kill(rlt_clusters *c, int vote, int node)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_kill") != 0)
        return -1;
    if (rlt_servers_kill(c->srv, rlt_cluster_index(c, vote, node)) != 0)
        return rlt_cluster_fail(c, "vote %d node %d is not running", vote, node);
    return 0;
}

int rlt_clusters_pause(rlt_clusters *c, int vote, int node)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_pause") != 0)
        return -1;
    if (rlt_servers_pause(c->srv, rlt_cluster_index(c, vote, node)) != 0)
        return rlt_cluster_fail(c, "vote %d node %d: cannot pause it", vote, node);
    return 0;
}

int rlt_clusters_resume(rlt_clusters *c, int vote, int node)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_resume") != 0)
        return -1;
    if (rlt_servers_resume(c->srv, rlt_cluster_index(c, vote, node)) != 0)
        return rlt_cluster_fail(c, "vote %d node %d: cannot resume it", vote, node);
    return 0;
}

int rlt_clusters_restart(rlt_clusters *c, int vote, int node)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_restart") != 0)
        return -1;
    if (rlt_servers_restart(c->srv, rlt_cluster_index(c, vote, node)) != 0)
        return rlt_cluster_fail(c, "vote %d node %d did not start again (its log: %s/redis.log)",
                                vote, node, rlt_clusters_dir(c, vote, node));
    return rlt_cluster_wait(c, vote, NULL, rlt_cluster_settled_links, c->settle_ms,
                            "rlt_clusters_restart");
}

int rlt_clusters_failover(rlt_clusters *c, int vote, int node, const char *how)
{
    if (rlt_cluster_check_index(c, vote, node, "rlt_clusters_failover") != 0)
        return -1;
    if (how == NULL || how[0] == '\0')
        return rlt_cluster_ok(c, vote, node, "CLUSTER FAILOVER");
    if (strcmp(how, "FORCE") != 0 && strcmp(how, "TAKEOVER") != 0)
        return rlt_cluster_fail(c, "rlt_clusters_failover: \"%s\" is not \"\", FORCE or TAKEOVER",
                                how);
    return rlt_cluster_ok(c, vote, node, "CLUSTER FAILOVER %s", how);
}

/* ---- slot migration ------------------------------------------------------ */

/* The node to which node src migrates slot, from the "[slot->-id]" of its
 * own line in CLUSTER NODES; -1 (error set) if it migrates it nowhere. */
static int rlt_cluster_migrating_to(rlt_clusters *c, int v, int src, int slot)
{
    redisReply *r = rlt_cluster_nodes_reply(c, v, src);
    if (r == NULL)
        return -1;
    char want[32];
    int len = snprintf(want, sizeof want, "[%d->-", slot);
    int to = -1;
    for (const char *p = r->str; p != NULL; p = rlt_cluster_next_line(p)) {
        struct rlt_cluster_line l;
        if (rlt_cluster_parse_line(p, &l) != 0 || !rlt_cluster_has_flag(&l, "myself"))
            continue;
        const char *eol = strchr(l.rest, '\n');
        const char *at = strstr(l.rest, want);
        if (at != NULL && (eol == NULL || at < eol))
            to = rlt_cluster_node_of_id(c, v, at + len);
    }
    freeReplyObject(r);
    if (to < 0)
        rlt_cluster_fail(c, "vote %d: node %d migrates slot %d nowhere", v, src, slot);
    return to;
}

/* The slot's owner and the node it migrates to; -1 (error set) if none. */
static int rlt_cluster_migration(rlt_clusters *c, int v, int slot, int *src, int *to)
{
    if (rlt_cluster_check_index(c, v, 0, "slot migration") != 0)
        return -1;
    if (slot < 0 || slot >= RLT_CLUSTER_SLOTS)
        return rlt_cluster_fail(c, "slot migration: no slot %d", slot);
    *src = rlt_clusters_master_of_slot(c, v, slot);
    if (*src < 0)
        return -1;
    *to = rlt_cluster_migrating_to(c, v, *src, slot);
    return *to < 0 ? -1 : 0;
}

int rlt_clusters_migrate_begin(rlt_clusters *c, int vote, int slot, int to_node)
{
    if (rlt_cluster_check_index(c, vote, to_node, "rlt_clusters_migrate_begin") != 0)
        return -1;
    int src = rlt_clusters_master_of_slot(c, vote, slot);
    if (src < 0)
        return -1;
    if (src == to_node)
        return rlt_cluster_fail(c, "vote %d: node %d already serves slot %d", vote, src, slot);
    /* importing first: once the owner migrates, it sends clients there */
    if (rlt_cluster_ok(c, vote, to_node, "CLUSTER SETSLOT %d IMPORTING %s", slot,
                       rlt_cluster_id(c, vote, src)) != 0)
        return -1;
    return rlt_cluster_ok(c, vote, src, "CLUSTER SETSLOT %d MIGRATING %s", slot,
                          rlt_cluster_id(c, vote, to_node));
}

/* The keys of slot on node src, up to a batch: an array reply or NULL. */
static redisReply *rlt_cluster_keys_in_slot(rlt_clusters *c, int v, int src, int slot)
{
    redisReply *r = rlt_cluster_cmd(c, v, src, "CLUSTER GETKEYSINSLOT %d %d", slot,
                                    RLT_CLUSTER_MIGRATE_BATCH);
    if (r != NULL && r->type == REDIS_REPLY_ARRAY)
        return r;
    rlt_cluster_fail(c, "vote %d node %d: CLUSTER GETKEYSINSLOT: %s", v, src, rlt_cluster_said(r));
    if (r != NULL)
        freeReplyObject(r);
    return NULL;
}

/* MIGRATE 127.0.0.1 port "" 0 5000 [AUTH2 default pw] KEYS k... from src. */
static int rlt_cluster_migrate_batch(rlt_clusters *c, int v, int src, int to,
                                     const redisReply *keys)
{
    size_t max = keys->elements + 12, argc = 0;
    const char **argv = calloc(max, sizeof *argv);
    size_t *len = calloc(max, sizeof *len);
    if (argv == NULL || len == NULL) {
        free(argv);
        free(len);
        return rlt_cluster_fail(c, "out of memory");
    }
    char port[16];
    snprintf(port, sizeof port, "%d", rlt_clusters_port(c, v, to));
    const char *head[] = {"MIGRATE", "127.0.0.1", port, "", "0", "5000"};
    for (size_t k = 0; k < sizeof head / sizeof head[0]; k++, argc++)
        len[argc] = strlen(argv[argc] = head[k]);
    if (c->password != NULL) {
        const char *auth[] = {"AUTH2", "default", c->password};
        for (size_t k = 0; k < 3; k++, argc++)
            len[argc] = strlen(argv[argc] = auth[k]);
    }
    len[argc] = strlen(argv[argc] = "KEYS");
    argc++;
    for (size_t k = 0; k < keys->elements; k++, argc++) {
        argv[argc] = keys->element[k]->str;
        len[argc] = keys->element[k]->len;
    }
    redisReply *r = rlt_clusters_command_argv(c, v, src, (int)argc, argv, len);
    free(argv);
    free(len);
    /* +OK, or +NOKEY when the keys expired meanwhile */
    int ok = r != NULL && r->type == REDIS_REPLY_STATUS;
    if (!ok)
        rlt_cluster_fail(c, "vote %d: MIGRATE from node %d to %d: %s", v, src, to,
                         rlt_cluster_said(r));
    if (r != NULL)
        freeReplyObject(r);
    return ok ? 0 : -1;
}

int rlt_clusters_migrate_keys(rlt_clusters *c, int vote, int slot)
{
    int src, to;
    if (rlt_cluster_migration(c, vote, slot, &src, &to) != 0)
        return -1;
    for (;;) {
        redisReply *keys = rlt_cluster_keys_in_slot(c, vote, src, slot);
        if (keys == NULL)
            return -1;
        int res = keys->elements == 0 ? 1 : rlt_cluster_migrate_batch(c, vote, src, to, keys);
        freeReplyObject(keys);
        if (res != 0)
            return res < 0 ? -1 : 0;
    }
}

struct rlt_cluster_move {
    int slot, to;
};

/* Every running node names node `to` as the slot's owner. */
static int rlt_cluster_slot_moved(rlt_clusters *c, int v, const void *move)
{
    int slot = ((const struct rlt_cluster_move *)move)->slot;
    int to = ((const struct rlt_cluster_move *)move)->to;
    int *owner = malloc(RLT_CLUSTER_SLOTS * sizeof *owner);
    int ok = owner != NULL;
    for (int n = 0; ok && n < c->per; n++) {
        if (!rlt_cluster_live(c, v, n))
            continue;
        ok = rlt_cluster_slot_map(c, v, n, owner) == 0 &&
             owner[slot] == rlt_clusters_port(c, v, to);
        if (!ok)
            rlt_cluster_fail(c, "vote %d node %d does not name node %d as slot %d's owner", v, n,
                             to, slot);
    }
    free(owner);
    return ok;
}

int rlt_clusters_migrate_end(rlt_clusters *c, int vote, int slot)
{
    int src, to;
    if (rlt_cluster_migration(c, vote, slot, &src, &to) != 0)
        return -1;
    const char *id = rlt_cluster_id(c, vote, to);
    /* the new owner first, so that it bumps its epoch and its claim wins;
     * then the old one, which stops sending clients there with -ASK */
    if (rlt_cluster_ok(c, vote, to, "CLUSTER SETSLOT %d NODE %s", slot, id) != 0 ||
        rlt_cluster_ok(c, vote, src, "CLUSTER SETSLOT %d NODE %s", slot, id) != 0)
        return -1;
    for (int n = 0; n < c->per; n++)
        if (n != to && n != src && rlt_cluster_live(c, vote, n) &&
            rlt_clusters_role(c, vote, n) == RLT_CLUSTER_MASTER &&
            rlt_cluster_ok(c, vote, n, "CLUSTER SETSLOT %d NODE %s", slot, id) != 0)
            return -1;
    struct rlt_cluster_move move = {slot, to};
    return rlt_cluster_wait(c, vote, &move, rlt_cluster_slot_moved, c->settle_ms,
                            "rlt_clusters_migrate_end");
}

int rlt_clusters_move_slot(rlt_clusters *c, int vote, int slot, int to_node)
{
    if (rlt_clusters_migrate_begin(c, vote, slot, to_node) != 0 ||
        rlt_clusters_migrate_keys(c, vote, slot) != 0)
        return -1;
    return rlt_clusters_migrate_end(c, vote, slot);
}
