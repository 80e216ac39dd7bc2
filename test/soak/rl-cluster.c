/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-cluster -- Redis Clusters as the votes of the failover suite, and a
 * seeded schedule of faults inside them (test/soak/failover-cluster.sh,
 * docs/failover.md "Cluster votes").
 *
 *   rl-cluster --addresses FILE --faults FILE --done FILE [options] < CONTROL
 *
 * Starts --votes clusters of --shards masters with --replicas replicas
 * each (test/support/clusters.h, cluster node timeout --node-timeout), in
 * dirs under $TMPDIR, and writes their addresses to the addresses file:
 * one line, the votes' redis-cluster://... joined by ';' (rl-worker
 * --masters).  Then it reads CONTROL (stdin) one line at a time:
 *
 *   go     run the schedule; each fault is appended to the faults file as
 *          an X line (rl-check), the figures as a C line at the end; then
 *          the done file is made
 *   quit   (or end of input) kill every node and exit
 *
 * The schedule: --rounds rounds (or until --seconds have passed), each
 * with every kind of --kinds once in an order drawn from --seed, a vote
 * and a shard drawn for each, --gap-min .. --gap-max ms before each fault.
 * Every fault waits until what it did took effect (a replica promoted, a
 * node back and synced) and its cluster is settled again before the next.
 * A shard is named by the slot in the middle of its first range, so it
 * stays the same shard across failovers.  Kinds:
 *
 *   failover           CLUSTER FAILOVER on the shard master's replica (a
 *                      coordinated handover: it keeps every key)
 *   failover-force     CLUSTER FAILOVER FORCE (no handshake with the master)
 *   failover-takeover  CLUSTER FAILOVER TAKEOVER (no vote of the masters)
 *   kill-master        kill -9 of the shard's master; its replica is promoted
 *                      after the node timeout; gap-min..gap-max ms later the
 *                      killed node is started again and rejoins as a replica
 *   restart-master     kill -9 of the shard's master, started again at once
 *                      (before the node timeout): back empty, as the master
 *   restart-replica    kill -9 of a replica, started again at once
 *   lose-keys          on a quorum of the votes, the shard's master stops
 *                      replicating (ACL SETUSER default -psync -sync, CLIENT
 *                      KILL TYPE replica); once a lock (a key of the
 *                      --resources named --prefix0 ..) is held on those
 *                      masters alone (at most --cut-max ms), their replicas
 *                      take over (TAKEOVER) without it: the held key is
 *                      lost on a quorum, the case the restart guard is for
 *   migrate            a resource's slot (drawn) moves to another master of
 *                      the vote in steps: MIGRATING/IMPORTING, 200-500 ms
 *                      (-ASK for absent keys), MIGRATE of its keys, 200 ms,
 *                      SETSLOT NODE (-MOVED); gap-min..gap-max ms later it
 *                      is moved back at once
 *
 * The C line: cluster_promotions (replicas made masters), cluster_keys_lost
 * (a lock's key held on the shard's master, with ttl left, that its master
 * after the fault lacks: the replica that took over, or the restarted
 * master; counted per vote and key, every kind), cluster_lonely_found /
 * cluster_lonely_missed (lose-keys faults that found / did not find a lock
 * held on the cut masters alone in time), cluster_restarts (nodes started
 * again), cluster_migrations (migrate faults done).  Exit status: 0, 2 on
 * a set-up error (a cluster that did not settle: the message says which
 * and why).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hiredis/hiredis.h>

#include "clusters.h"
#include "rl-common.h"

const char *rl_prog = "rl-cluster";

#define MAX_VOTES 9
#define MAX_RES 64
#define WAIT_MS 30000   /* for a promotion or a settled cluster */
#define LONELY_POLL_MS 10

static struct {
    int votes, shards, replicas, node_timeout, rounds, seconds, gap_min, gap_max, nres, cut_max;
    long long seed;
    const char *kinds, *addresses, *faults, *done, *prefix;
} g_opt = {3, 3, 1, 1000, 1, 0, 300, 1000, 6, 2000, 0,
           "failover failover-force failover-takeover kill-master restart-master "
           "restart-replica lose-keys migrate",
           NULL, NULL, NULL, "fo:res"};

static rlt_clusters *g_c;
static FILE *g_faults;
static uint64_t g_rng;
static int64_t g_t0;
static int g_key_shard[MAX_RES];   /* the shard serving resource i's key */
static long long n_promoted, n_lost, n_lonely, n_lonely_missed, n_restarts, n_faults,
    n_migrations;

/* ---- output, randomness, time ------------------------------------------ */

__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("[%7.3f s] rl-cluster: ", (double)(now_us() - g_t0) / 1e6);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
}

/* A cluster call failed: say why, kill every node, exit 2. */
static void die(const char *what)
{
    fprintf(stderr, "rl-cluster: %s: %s\n", what, rlt_clusters_error(g_c));
    rlt_clusters_stop(g_c);
    exit(2);
}

/* X start end back kind text: one fault for rl-check */
__attribute__((format(printf, 5, 6))) static void record(int64_t t1, int64_t t2, int64_t t3,
                                                          const char *kind, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(g_faults, "X %lld %lld %lld %s ", (long long)t1, (long long)t2, (long long)t3, kind);
    vfprintf(g_faults, fmt, ap);
    fprintf(g_faults, "\n");
    fflush(g_faults);
    va_end(ap);
    n_faults++;
}

static uint64_t rnd(void)   /* splitmix64 */
{
    uint64_t z = (g_rng += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int rnd_below(int n) { return n > 0 ? (int)(rnd() % (uint64_t)n) : 0; }

static void sleep_ms(int64_t ms)
{
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    while (ms > 0 && nanosleep(&ts, &ts) < 0 && errno == EINTR)
        ;
}

/* ---- the shards' nodes ---------------------------------------------------- */

/* The slot that names shard s: the middle of its first range. */
static int shard_slot(int s) { return (2 * s + 1) * RLT_CLUSTER_SLOTS / (2 * g_opt.shards); }

static int shard_master(int v, int s)
{
    int m = rlt_clusters_master_of_slot(g_c, v, shard_slot(s));
    if (m < 0)
        die("the shard's master");
    return m;
}

/* A running replica of node m; -1 when none. */
static int replica_of(int v, int m)
{
    for (int n = 0; n < rlt_clusters_nodes(g_c, v); n++)
        if (rlt_clusters_role(g_c, v, n) == RLT_CLUSTER_REPLICA &&
            rlt_clusters_master_of(g_c, v, n) == m)
            return n;
    return -1;
}

static void settle(int v)
{
    if (rlt_clusters_wait_ok(g_c, v, WAIT_MS) != 0)
        die("a cluster did not settle");
}

static void promoted(int v, int n)
{
    if (rlt_clusters_wait_promoted(g_c, v, n, WAIT_MS) != 0)
        die("a replica was not promoted");
    n_promoted++;
}

static void restart(int v, int n)
{
    if (rlt_clusters_restart(g_c, v, n) != 0)
        die("a node did not come back");
    n_restarts++;
}

static const char *role_name(int v, int n)
{
    return rlt_clusters_role(g_c, v, n) == RLT_CLUSTER_MASTER ? "master" : "replica";
}

/* ---- the workers' lock keys on the nodes ------------------------------- */

static redisContext *node_conn(int v, int n, int readonly)
{
    struct timeval tv = {1, 0};
    redisContext *c = redisConnectWithTimeout("127.0.0.1", rlt_clusters_port(g_c, v, n), tv);
    if (!c || c->err) {
        fprintf(stderr, "rl-cluster: vote %d node %d: %s\n", v, n, c ? c->errstr : "no memory");
        die("a connection to a node");
    }
    redisSetTimeout(c, tv);
    if (readonly)
        freeReplyObject(redisCommand(c, "READONLY"));
    return c;
}

/* cmd: words split on spaces */
static void command_ok(int v, int n, const char *cmd)
{
    char buf[128];
    const char *argv[16];
    int argc = 0;
    snprintf(buf, sizeof buf, "%s", cmd);
    for (char *save = NULL, *t = strtok_r(buf, " ", &save); t && argc < 16;
         t = strtok_r(NULL, " ", &save))
        argv[argc++] = t;
    redisReply *r = rlt_clusters_command_argv(g_c, v, n, argc, argv, NULL);
    int ok = r && r->type != REDIS_REPLY_ERROR;
    if (!ok)
        fprintf(stderr, "rl-cluster: vote %d node %d: %s: %s\n", v, n, cmd,
                r ? r->str : "no reply");
    if (r)
        freeReplyObject(r);
    if (!ok)
        die(cmd);
}

/* The key's value on the connection ("" none). */
static void get_value(redisContext *c, const char *key, char *out, size_t cap)
{
    out[0] = '\0';
    redisReply *r = redisCommand(c, "GET %s", key);
    if (r && r->type == REDIS_REPLY_STRING)
        snprintf(out, cap, "%s", r->str);
    if (r)
        freeReplyObject(r);
}

static void key_name(int i, char *out, size_t cap)
{
    snprintf(out, cap, "%s%d", g_opt.prefix, i);
}

/* Shard s's lock keys that cm holds with a value cr lacks (cr NULL: that
 * cm holds): a bit per resource. */
static uint64_t keys_alone(redisContext *cm, redisContext *cr, int s)
{
    uint64_t alone = 0;
    for (int i = 0; i < g_opt.nres; i++) {
        char key[96], vm[80], vr[80] = "";
        if (g_key_shard[i] != s)
            continue;
        key_name(i, key, sizeof key);
        get_value(cm, key, vm, sizeof vm);
        if (cr)
            get_value(cr, key, vr, sizeof vr);
        if (vm[0] && strcmp(vm, vr))
            alone |= 1ull << i;
    }
    return alone;
}

static int bits(uint64_t x)
{
    int n = 0;
    for (; x; x &= x - 1)
        n++;
    return n;
}

/* ---- kinds: failovers, kills, restarts ------------------------------------ */

static void f_failover(int v, int s, const char *how, const char *kind)
{
    int m = shard_master(v, s), r = replica_of(v, m);
    if (r < 0)
        die("no replica to fail over to");
    int64_t t1 = now_us();
    if (rlt_clusters_failover(g_c, v, r, how) != 0)
        die("CLUSTER FAILOVER");
    promoted(v, r);
    int64_t t2 = now_us();
    settle(v);
    say("%s: vote %d shard %d: node %d took over from node %d (%lld ms)", kind + 8, v, s, r, m,
        (long long)(t2 - t1) / 1000);
    record(t1, t2, now_us(), kind, "CLUSTER FAILOVER%s%s: vote %d shard %d node %d -> node %d",
           how ? " " : "", how ? how : "", v, s, m, r);
}

static void f_kill_master(int v, int s)
{
    int m = shard_master(v, s), r = replica_of(v, m);
    if (r < 0)
        die("no replica to promote");
    int64_t t1 = now_us();
    if (rlt_clusters_kill(g_c, v, m) != 0)
        die("kill");
    promoted(v, r);
    int64_t t2 = now_us();
    say("kill-master: vote %d shard %d: node %d killed, node %d promoted after %lld ms", v, s,
        m, r, (long long)(t2 - t1) / 1000);
    sleep_ms(g_opt.gap_min + rnd_below(g_opt.gap_max - g_opt.gap_min + 1));
    restart(v, m);
    say("kill-master: vote %d: node %d back as a %s", v, m, role_name(v, m));
    record(t1, t2, now_us(), "cluster-kill-master",
           "kill -9 of vote %d shard %d's master node %d, node %d promoted; restarted as a %s",
           v, s, m, r, role_name(v, m));
}

/* restart-master (master 1): the keys it held when killed are lost when
 * it comes back as the master (no persistence); restart-replica (0) */
static void f_restart(int v, int s, int master)
{
    int m = shard_master(v, s), n = master ? m : replica_of(v, m);
    if (n < 0)
        die("no replica to restart");
    redisContext *c = node_conn(v, m, 0);
    uint64_t held = keys_alone(c, NULL, s);
    redisFree(c);
    int64_t t1 = now_us();
    restart(v, n);
    int64_t t2 = now_us();
    int lost = master && rlt_clusters_role(g_c, v, n) == RLT_CLUSTER_MASTER ? bits(held) : 0;
    n_lost += lost;
    const char *kind = master ? "cluster-restart-master" : "cluster-restart-replica";
    say("%s: vote %d shard %d: node %d back as a %s (%lld ms); %d held keys lost", kind + 8, v,
        s, n, role_name(v, n), (long long)(t2 - t1) / 1000, lost);
    record(t1, t2, t2, kind,
           "kill -9 of vote %d shard %d's %s node %d, started at once: a %s, %d held keys lost",
           v, s, master ? "master" : "replica", n, role_name(v, n), lost);
}

/* ---- lose-keys ----------------------------------------------------------------- */

/* a lose-keys fault: per vote cut, the shard's master and its replica,
 * connections to both (the replica's in READONLY), and the keys the master
 * held but not the replica when the takeovers began */
struct cut {
    int v, m, r;
    redisContext *cm, *cr;
    uint64_t lost;
};

/* Key i holds, on every cut master, one value their replicas lack. */
static int lonely_key(struct cut *cu, int nv, int i)
{
    char key[96], first[80] = "", vm[80], vr[80];
    key_name(i, key, sizeof key);
    for (int k = 0; k < nv; k++) {
        get_value(cu[k].cm, key, vm, sizeof vm);
        get_value(cu[k].cr, key, vr, sizeof vr);
        if (!vm[0] || !strcmp(vm, vr) || (k > 0 && strcmp(vm, first)))
            return 0;
        snprintf(first, sizeof first, "%s", vm);
    }
    return 1;
}

/* Wait (at most --cut-max ms) until a lock of shard s is held on the cut
 * masters alone; the key's index, or -1. */
static int wait_lonely(struct cut *cu, int nv, int s)
{
    int64_t deadline = now_us() + (int64_t)g_opt.cut_max * 1000;
    do {
        for (int i = 0; i < g_opt.nres; i++)
            if (g_key_shard[i] == s && lonely_key(cu, nv, i))
                return i;
        sleep_ms(LONELY_POLL_MS);
    } while (now_us() < deadline);
    return -1;
}

/* nv distinct votes, drawn */
static void draw_votes(int *out, int nv)
{
    int all[MAX_VOTES];
    for (int v = 0; v < g_opt.votes; v++)
        all[v] = v;
    for (int k = 0; k < nv; k++) {
        int j = k + rnd_below(g_opt.votes - k);
        int t = all[k];
        all[k] = all[j];
        all[j] = t;
        out[k] = all[k];
    }
}

static void cut_open(struct cut *cu, int v, int s)
{
    cu->v = v;
    cu->m = shard_master(v, s);
    cu->r = replica_of(v, cu->m);
    if (cu->r < 0)
        die("no replica to take over");
    cu->cm = node_conn(v, cu->m, 0);
    cu->cr = node_conn(v, cu->r, 1);
    command_ok(v, cu->m, "ACL SETUSER default -psync -sync");
    command_ok(v, cu->m, "CLIENT KILL TYPE replica");
}

/* TAKEOVER on every cut vote's replica, at once; then wait until each is
 * promoted.  When the takeovers were sent in *sent. */
static void take_over(struct cut *cu, int nv, int64_t *sent)
{
    for (int k = 0; k < nv; k++)
        if (rlt_clusters_failover(g_c, cu[k].v, cu[k].r, "TAKEOVER") != 0)
            die("CLUSTER FAILOVER TAKEOVER");
    *sent = now_us();
    for (int k = 0; k < nv; k++)
        promoted(cu[k].v, cu[k].r);
}

/* The keys lost; replication on again, the connections closed, settled. */
static int cut_close(struct cut *cu, int nv)
{
    int lost = 0;
    for (int k = 0; k < nv; k++) {
        lost += bits(cu[k].lost);
        command_ok(cu[k].v, cu[k].m, "ACL SETUSER default +psync +sync");
        redisFree(cu[k].cm);
        redisFree(cu[k].cr);
    }
    for (int k = 0; k < nv; k++)
        settle(cu[k].v);
    return lost;
}

static void f_lose_keys(int s)
{
    struct cut cu[MAX_VOTES];
    int nv = g_opt.votes / 2 + 1, vs[MAX_VOTES];
    int64_t sent;
    draw_votes(vs, nv);
    int64_t t1 = now_us();
    for (int k = 0; k < nv; k++)
        cut_open(&cu[k], vs[k], s);
    int key = wait_lonely(cu, nv, s);
    int64_t found = now_us();
    if (key >= 0)
        n_lonely++;
    else
        n_lonely_missed++;
    for (int k = 0; k < nv; k++)
        cu[k].lost = keys_alone(cu[k].cm, cu[k].cr, s);
    take_over(cu, nv, &sent);
    int64_t t2 = now_us();
    int lost = cut_close(cu, nv);
    n_lost += lost;
    say("lose-keys: shard %d, votes %d and %d%s: replication cut; a lock (%s%d) held on the cut "
        "masters alone after %lld ms; takeovers sent %lld ms later, promoted %lld ms after; "
        "%d keys lost", s, vs[0], vs[1], nv > 2 ? " ..." : "", g_opt.prefix, key,
        (long long)(found - t1) / 1000, (long long)(sent - found) / 1000,
        (long long)(t2 - sent) / 1000, lost);
    record(t1, t2, now_us(), "cluster-lose-keys",
           "replication cut on %d votes (%d, %d...) shard %d, lock %s%d held there alone "
           "%s, TAKEOVER: %d held keys lost", nv, vs[0], vs[1], s, g_opt.prefix, key,
           key >= 0 ? "found" : "not found", lost);
}

/* ---- migrate ----------------------------------------------------------------- */

/* A running master of vote v serving slots, other than m, drawn; -1 if none. */
static int other_master(int v, int m)
{
    int cand[64], n = 0;
    for (int k = 0; k < rlt_clusters_nodes(g_c, v) && n < 64; k++)
        if (k != m && rlt_clusters_role(g_c, v, k) == RLT_CLUSTER_MASTER &&
            rlt_clusters_slot_on(g_c, v, k) >= 0)
            cand[n++] = k;
    return n ? cand[rnd_below(n)] : -1;
}

/* CLUSTER COUNTKEYSINSLOT on node n; -1 on error. */
static long long keys_in_slot(int v, int n, int slot)
{
    redisReply *r = rlt_clusters_command(g_c, v, n, "CLUSTER COUNTKEYSINSLOT %d", slot);
    long long k = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    if (r)
        freeReplyObject(r);
    return k;
}

/* A resource whose key vote v holds now (polled, at most --cut-max ms),
 * so that a holder meets the migration; else one drawn. */
static int held_resource(int v)
{
    int64_t deadline = now_us() + (int64_t)g_opt.cut_max * 1000;
    int first = rnd_below(g_opt.nres);
    do {
        for (int k = 0; k < g_opt.nres; k++) {
            int i = (first + k) % g_opt.nres;
            char key[96];
            key_name(i, key, sizeof key);
            int slot = rlt_clusters_slot_of(key, strlen(key));
            if (keys_in_slot(v, rlt_clusters_master_of_slot(g_c, v, slot), slot) > 0)
                return i;
        }
        sleep_ms(LONELY_POLL_MS);
    } while (now_us() < deadline);
    return first;
}

/* migrate: resource i's slot on vote v goes to another master in steps,
 * with a window after each so that workers holding or taking the lock meet
 * -ASK (the slot MIGRATING: the holder's key still on the owner answers
 * there, a key absent there, e.g. a lock just freed, is taken on the
 * importing node), then keys that moved, then -MOVED.  Then the slot goes
 * back at once (one more -MOVED): the other kinds read which shard serves
 * each key from g_key_shard, the same on every vote (lose-keys looks for
 * one key held on a quorum of votes). */
static void f_migrate(int v)
{
    char key[96];
    int i = held_resource(v);
    key_name(i, key, sizeof key);
    int slot = rlt_clusters_slot_of(key, strlen(key));
    int m = rlt_clusters_master_of_slot(g_c, v, slot), to = other_master(v, m);
    if (m < 0 || to < 0)
        die("no master to migrate a slot to");
    long long held = keys_in_slot(v, m, slot);
    int64_t t1 = now_us();
    if (rlt_clusters_migrate_begin(g_c, v, slot, to) != 0)
        die("migrate begin");
    sleep_ms(200 + rnd_below(301));   /* the ASK window */
    long long asked = keys_in_slot(v, to, slot), left = keys_in_slot(v, m, slot);
    if (rlt_clusters_migrate_keys(g_c, v, slot) != 0)
        die("migrate keys");
    sleep_ms(200);   /* keys on the importing node, the slot still MIGRATING */
    if (rlt_clusters_migrate_end(g_c, v, slot) != 0)
        die("migrate end");
    int64_t t2 = now_us();
    sleep_ms(g_opt.gap_min + rnd_below(g_opt.gap_max - g_opt.gap_min + 1));
    if (rlt_clusters_move_slot(g_c, v, slot, m) != 0)
        die("move the slot back");
    settle(v);
    n_migrations++;
    say("migrate: vote %d slot %d (%s): node %d -> node %d in %lld ms, and back; keys: %lld "
        "held at the start, %lld taken through -ASK, %lld migrated", v, slot, key, m, to,
        (long long)(t2 - t1) / 1000, held, asked, left);
    record(t1, t2, now_us(), "cluster-migrate",
           "slot %d (%s) of vote %d: node %d -> node %d (%lld keys held, %lld taken through ASK, "
           "MIGRATE of %lld, MOVED), then moved back", slot, key, v, m, to, held, asked, left);
}

/* ---- the schedule ---------------------------------------------------------- */

static const char *const kind_names[] = {"failover", "failover-force", "failover-takeover",
                                         "kill-master", "restart-master", "restart-replica",
                                         "lose-keys", "migrate"};
#define NKINDS ((int)(sizeof kind_names / sizeof kind_names[0]))

static void run_kind(int kind)
{
    int v = rnd_below(g_opt.votes), s = rnd_below(g_opt.shards);
    switch (kind) {
    case 0: f_failover(v, s, NULL, "cluster-failover"); break;
    case 1: f_failover(v, s, "FORCE", "cluster-failover-force"); break;
    case 2: f_failover(v, s, "TAKEOVER", "cluster-failover-takeover"); break;
    case 3: f_kill_master(v, s); break;
    case 4: f_restart(v, s, 1); break;
    case 5: f_restart(v, s, 0); break;
    case 6: f_lose_keys(s); break;
    default: f_migrate(v); break;
    }
}

/* --kinds into kind indexes; their count, -1 on an unknown name */
static int parse_kinds(int *out)
{
    char buf[512];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", g_opt.kinds);
    for (char *save = NULL, *t = strtok_r(buf, " ,", &save); t; t = strtok_r(NULL, " ,", &save)) {
        int k = 0;
        while (k < NKINDS && strcmp(t, kind_names[k]))
            k++;
        if (k == NKINDS || n == 64) {
            fprintf(stderr, "rl-cluster: unknown kind %s\n", t);
            return -1;
        }
        out[n++] = k;
    }
    return n;
}

static void shuffle(int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = rnd_below(i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

static void run_schedule(const int *kinds, int nk)
{
    int64_t end = g_opt.seconds > 0 ? now_us() + (int64_t)g_opt.seconds * 1000000 : 0;
    int order[64];
    for (int round = 0; end ? now_us() < end : round < g_opt.rounds; round++) {
        memcpy(order, kinds, (size_t)nk * sizeof *order);
        shuffle(order, nk);
        for (int i = 0; i < nk && (!end || now_us() < end); i++) {
            sleep_ms(g_opt.gap_min + rnd_below(g_opt.gap_max - g_opt.gap_min + 1));
            run_kind(order[i]);
        }
    }
    fprintf(g_faults,
            "C cluster_faults=%lld cluster_promotions=%lld cluster_keys_lost=%lld "
            "cluster_lonely_found=%lld cluster_lonely_missed=%lld cluster_restarts=%lld "
            "cluster_migrations=%lld\n",
            n_faults, n_promoted, n_lost, n_lonely, n_lonely_missed, n_restarts, n_migrations);
    fflush(g_faults);
    say("schedule done: %lld faults, %lld promotions, %lld keys lost, %lld restarts", n_faults,
        n_promoted, n_lost, n_restarts);
}

/* ---- set-up ------------------------------------------------------------------ */

/* Which shard serves each resource's key; -1 when a shard serves none. */
static int map_resources(void)
{
    int per[64] = {0};
    for (int i = 0; i < g_opt.nres; i++) {
        char key[96];
        key_name(i, key, sizeof key);
        int m = rlt_clusters_master_of_slot(g_c, 0, rlt_clusters_slot_of(key, strlen(key)));
        g_key_shard[i] = -1;
        for (int s = 0; s < g_opt.shards; s++)
            if (shard_master(0, s) == m)
                g_key_shard[i] = s;
        if (g_key_shard[i] >= 0)
            per[g_key_shard[i]]++;
    }
    for (int s = 0; s < g_opt.shards; s++) {
        say("shard %d (slot %d): %d of the %d resources", s, shard_slot(s), per[s], g_opt.nres);
        if (per[s] == 0)
            return -1;
    }
    return 0;
}

static void start_clusters(void)
{
    char nt[16], err[512];
    snprintf(nt, sizeof nt, "%d", g_opt.node_timeout);
    const char *extra[] = {"--cluster-node-timeout", nt, NULL};
    g_c = rlt_clusters_start(g_opt.votes, g_opt.shards, g_opt.replicas, extra, err, sizeof err);
    if (!g_c) {
        fprintf(stderr, "rl-cluster: %s\n", err);
        exit(2);
    }
    if (map_resources() != 0) {
        fprintf(stderr, "rl-cluster: a shard serves none of the resources: more --resources\n");
        rlt_clusters_stop(g_c);
        exit(2);
    }
}

static void write_addresses(void)
{
    FILE *f = fopen(g_opt.addresses, "w");
    for (int v = 0; f && v < g_opt.votes; v++)
        fprintf(f, "%s%s", v ? ";" : "", rlt_clusters_address(g_c, v));
    if (!f || fprintf(f, "\n") < 0 || fclose(f) != 0) {
        fprintf(stderr, "rl-cluster: cannot write %s\n", g_opt.addresses);
        rlt_clusters_stop(g_c);
        exit(2);
    }
}

/* ---- the command line ------------------------------------------------------- */

static void usage(void)
{
    fprintf(stderr,
            "usage: rl-cluster --addresses FILE --faults FILE --done FILE [options] < CONTROL\n"
            "  --votes N (3)  --shards N (3)  --replicas N (1)  --node-timeout MS (1000)\n"
            "  --seed N  --rounds N (1)  --seconds S (0: --rounds)  --kinds \"K ...\" (all)\n"
            "  --gap-min MS (300)  --gap-max MS (1000)  --cut-max MS (2000)\n"
            "  --resources N (6)  --prefix STR (fo:res)   the workers' lock keys\n"
            "kinds: failover failover-force failover-takeover kill-master restart-master\n"
            "       restart-replica lose-keys migrate\n");
    exit(2);
}

static int *num_opt(const char *o)
{
    static const struct {
        const char *name;
        int *p;
    } nums[] = {{"--votes", &g_opt.votes},       {"--shards", &g_opt.shards},
                {"--replicas", &g_opt.replicas}, {"--node-timeout", &g_opt.node_timeout},
                {"--rounds", &g_opt.rounds},     {"--seconds", &g_opt.seconds},
                {"--gap-min", &g_opt.gap_min},   {"--gap-max", &g_opt.gap_max},
                {"--resources", &g_opt.nres},    {"--cut-max", &g_opt.cut_max}};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        if (!strcmp(o, nums[i].name))
            return nums[i].p;
    return NULL;
}

static const char **str_opt(const char *o)
{
    static const struct {
        const char *name;
        const char **p;
    } strs[] = {{"--kinds", &g_opt.kinds},   {"--addresses", &g_opt.addresses},
                {"--faults", &g_opt.faults}, {"--done", &g_opt.done},
                {"--prefix", &g_opt.prefix}};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (!strcmp(o, strs[i].name))
            return strs[i].p;
    return NULL;
}

static void parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        int *n = num_opt(argv[i]);
        const char **s = str_opt(argv[i]);
        if (i + 1 >= argc || (!n && !s && strcmp(argv[i], "--seed")))
            usage();
        const char *v = argv[++i];
        if (s)
            *s = v;
        else if (n)
            *n = atoi(v);
        else
            g_opt.seed = atoll(v);
    }
    if (!g_opt.addresses || !g_opt.faults || !g_opt.done || g_opt.votes < 1 ||
        g_opt.votes > MAX_VOTES || g_opt.shards < 1 || g_opt.shards > 64 || g_opt.replicas < 1 ||
        g_opt.nres < 1 || g_opt.nres > MAX_RES || g_opt.gap_max < g_opt.gap_min ||
        g_opt.gap_min < 0)
        usage();
}

/* Wait for "go" (1) or "quit" / end of input (0) on stdin. */
static int next_command(void)
{
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "go", 2))
            return 1;
        if (!strncmp(line, "quit", 4))
            return 0;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int kinds[64], nk;
    g_t0 = now_us();
    parse_args(argc, argv);
    if ((nk = parse_kinds(kinds)) <= 0)
        usage();
    g_rng = (uint64_t)(g_opt.seed ? g_opt.seed : now_us());
    if (!(g_faults = fopen(g_opt.faults, "a"))) {
        fprintf(stderr, "rl-cluster: %s: %s\n", g_opt.faults, strerror(errno));
        return 2;
    }
    start_clusters();
    write_addresses();
    say("%d clusters of %d shards x %d replicas up (node timeout %d ms)", g_opt.votes,
        g_opt.shards, g_opt.replicas, g_opt.node_timeout);
    while (next_command()) {
        run_schedule(kinds, nk);
        FILE *d = fopen(g_opt.done, "w");
        if (d)
            fclose(d);
    }
    rlt_clusters_stop(g_c);
    fclose(g_faults);
    return 0;
}
