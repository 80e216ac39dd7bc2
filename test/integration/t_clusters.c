/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_clusters.c -- self-tests of support/clusters.c: real Redis Clusters
 * started, checked through their own replies, moved, failed over, stopped. */
#include "check.h"
#include "clusters.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#define WAIT_MS 20000

static rlt_clusters *start(int votes, int shards, int replicas, const char *const *extra)
{
    char err[512];
    int64_t t0 = check_now_ms();
    rlt_clusters *c = rlt_clusters_start(votes, shards, replicas, extra, err, sizeof err);
    CHECK_MSG(c != NULL, "%s", err);
    check_note("%d x %d shards x %d replicas up in %lld ms", votes, shards, replicas,
               (long long)(check_now_ms() - t0));
    return c;
}

/* The owner's port of every slot per CLUSTER SLOTS of one node, read here
 * and not through the harness; returns how many masters serve slots. */
static int slots_of(rlt_clusters *c, int v, int n, int *owner)
{
    redisReply *r = rlt_clusters_command(c, v, n, "CLUSTER SLOTS");
    CHECK_MSG(r != NULL && r->type == REDIS_REPLY_ARRAY, "vote %d node %d", v, n);
    memset(owner, 0, RLT_CLUSTER_SLOTS * sizeof *owner);
    int masters[64], nmasters = 0;
    for (size_t k = 0; k < r->elements; k++) {
        redisReply *e = r->element[k];
        int port = (int)e->element[2]->element[1]->integer;
        for (long long s = e->element[0]->integer; s <= e->element[1]->integer; s++)
            owner[s] = port;
        int seen = 0;
        for (int m = 0; m < nmasters; m++)
            seen |= masters[m] == port;
        if (!seen && nmasters < 64)
            masters[nmasters++] = port;
    }
    freeReplyObject(r);
    return nmasters;
}

/* Every node of vote v: all slots covered, by `shards` masters, one map. */
static void check_slot_map(rlt_clusters *c, int v, int shards)
{
    static int first[RLT_CLUSTER_SLOTS], owner[RLT_CLUSTER_SLOTS];
    for (int n = 0; n < rlt_clusters_nodes(c, v); n++) {
        CHECK_EQ(slots_of(c, v, n, n == 0 ? first : owner), shards);
        for (int s = 0; s < RLT_CLUSTER_SLOTS; s++) {
            CHECK_MSG(first[s] != 0, "slot %d is not served", s);
            if (n > 0)
                CHECK_EQ(owner[s], first[s]);
        }
    }
}

/* Nodes 0 .. shards-1 are masters, the others replicas of a master. */
static void check_roles(rlt_clusters *c, int v, int shards)
{
    for (int n = 0; n < rlt_clusters_nodes(c, v); n++) {
        if (n < shards) {
            CHECK_EQ(rlt_clusters_role(c, v, n), RLT_CLUSTER_MASTER);
            CHECK_EQ(rlt_clusters_master_of(c, v, n), -1);
        } else {
            CHECK_EQ(rlt_clusters_role(c, v, n), RLT_CLUSTER_REPLICA);
            int m = rlt_clusters_master_of(c, v, n);
            CHECK_MSG(m >= 0 && m < shards, "node %d follows %d: %s", n, m, rlt_clusters_error(c));
        }
    }
}

/* Stop, and see every process gone and every directory removed. */
static void stop_and_check(rlt_clusters *c)
{
    char root[4096];
    snprintf(root, sizeof root, "%s", rlt_clusters_dir(c, 0, 0));
    *strrchr(root, '/') = '\0';
    pid_t pids[256];
    int npids = 0;
    for (int v = 0; v < rlt_clusters_votes(c); v++)
        for (int n = 0; n < rlt_clusters_nodes(c, v) && npids < 256; n++)
            if (rlt_clusters_pid(c, v, n) > 0)
                pids[npids++] = rlt_clusters_pid(c, v, n);
    rlt_clusters_stop(c);
    for (int k = 0; k < npids; k++)
        CHECK_MSG(kill(pids[k], 0) != 0 && errno == ESRCH, "pid %d still there", (int)pids[k]);
    struct stat st;
    CHECK_EQ(lstat(root, &st), -1);
    CHECK_EQ(errno, ENOENT);
}

/* A reply is the error "-<kind> <slot> 127.0.0.1:<port>". */
static void check_redirect(redisReply *r, const char *kind, int slot, int port)
{
    char want[64];
    snprintf(want, sizeof want, "%s %d 127.0.0.1:%d", kind, slot, port);
    CHECK(r != NULL);
    CHECK_MSG(r->type == REDIS_REPLY_ERROR && strcmp(r->str, want) == 0, "reply \"%s\", not \"%s\"",
              r->type == REDIS_REPLY_ERROR || r->type == REDIS_REPLY_STATUS ||
                      r->type == REDIS_REPLY_STRING ? r->str : "(other)", want);
    freeReplyObject(r);
}

static void check_get(rlt_clusters *c, int v, int n, const char *key, const char *want)
{
    redisReply *r = rlt_clusters_command(c, v, n, "GET %s", key);
    CHECK(r != NULL);
    CHECK_MSG(r->type == REDIS_REPLY_STRING && strcmp(r->str, want) == 0, "GET %s on node %d", key,
              n);
    freeReplyObject(r);
}

static void check_set(rlt_clusters *c, int v, int n, const char *key, const char *val)
{
    redisReply *r = rlt_clusters_command(c, v, n, "SET %s %s", key, val);
    CHECK_MSG(r != NULL && r->type == REDIS_REPLY_STATUS, "SET %s on node %d", key, n);
    freeReplyObject(r);
}

TEST(clusters_keyslot_known_values)
{
    /* the specification's example: CRC16("123456789") = 0x31C3 */
    CHECK_EQ(rlt_clusters_slot_of("123456789", 9), 0x31C3);
    CHECK_EQ(rlt_clusters_slot_of("foo", 3), 12182);
    CHECK_EQ(rlt_clusters_slot_of("", 0), 0);
    CHECK_EQ(rlt_clusters_slot_of("{user1000}.following", 20), rlt_clusters_slot_of("user1000", 8));
    CHECK_EQ(rlt_clusters_slot_of("a{b}c{d}", 8), rlt_clusters_slot_of("b", 1)); /* first tag */
    CHECK_NE(rlt_clusters_slot_of("{}x", 3), rlt_clusters_slot_of("x", 1));     /* empty tag */
    CHECK_EQ(rlt_clusters_slot_of("x{", 2), rlt_clusters_slot_of("x{", 2));
}

/* One master, no replica: joined by hand; every key's slot agrees with
 * CLUSTER KEYSLOT, binary ones included. */
TEST(clusters_one_shard_keyslot_live)
{
    rlt_clusters *c = start(1, 1, 0, NULL);
    CHECK_EQ(rlt_clusters_votes(c), 1);
    CHECK_EQ(rlt_clusters_nodes(c, 0), 1);
    char want[64];
    snprintf(want, sizeof want, "redis-cluster://127.0.0.1:%d", rlt_clusters_port(c, 0, 0));
    CHECK_STREQ(rlt_clusters_address(c, 0), want);
    CHECK_STREQ(rlt_clusters_addresses(c)[0], want);
    CHECK(rlt_clusters_addresses(c)[1] == NULL);
    check_slot_map(c, 0, 1);
    check_roles(c, 0, 1);
    CHECK_EQ(strlen(rlt_clusters_id(c, 0, 0)), 40);
    static const struct { const char *key; size_t len; } keys[] = {
        {"foo", 3}, {"redlock:res", 11}, {"{user1000}.following", 20}, {"{}x", 3},
        {"a{}b{c}", 7}, {"{", 1}, {"}{x}", 4}, {"bin\0\xff{\x01\x02}z", 11}, {"\xfe\xff\0", 3},
        {"", 0},
    };
    for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
        const char *key = keys[k].key;
        size_t len = keys[k].len;
        redisReply *r = rlt_clusters_command(c, 0, 0, "CLUSTER KEYSLOT %b", key, len);
        CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER);
        CHECK_MSG(r->integer == rlt_clusters_slot_of(key, len), "key %zu: %lld vs %d", k,
                  r->integer, rlt_clusters_slot_of(key, len));
        freeReplyObject(r);
    }
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, 16383), 0);
    CHECK_EQ(rlt_clusters_slot_on(c, 0, 0), 0);
    char val[32];
    redisReply *r = rlt_clusters_command(c, 0, 0, "CONFIG GET cluster-node-timeout");
    CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    snprintf(val, sizeof val, "%s", r->element[1]->str);
    freeReplyObject(r);
    CHECK_STREQ(val, "2000");
    stop_and_check(c);
}

/* Two votes of two masters with a replica each (joined by hand): two
 * separate clusters; a coordinated CLUSTER FAILOVER swaps the roles, and
 * so does a FORCE one. */
TEST(clusters_two_votes_two_shards_failover)
{
    rlt_clusters *c = start(2, 2, 1, NULL);
    const char *const *addrs = rlt_clusters_addresses(c);
    for (int v = 0; v < 2; v++) {
        char want[96];
        snprintf(want, sizeof want, "redis-cluster://127.0.0.1:%d,127.0.0.1:%d",
                 rlt_clusters_port(c, v, 0), rlt_clusters_port(c, v, 1));
        CHECK_STREQ(addrs[v], want);
        CHECK_EQ(rlt_clusters_nodes(c, v), 4);
        check_slot_map(c, v, 2);
        check_roles(c, v, 2);
        CHECK_EQ(rlt_clusters_master_of(c, v, 2), 0); /* by hand: replica r follows master r */
        CHECK_EQ(rlt_clusters_master_of(c, v, 3), 1);
    }
    CHECK(addrs[2] == NULL);
    redisReply *r = rlt_clusters_command(c, 0, 0, "CLUSTER INFO");
    CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
    CHECK_MSG(strstr(r->str, "cluster_known_nodes:4\r") != NULL, "%s", r->str);
    freeReplyObject(r);

    int64_t t0 = check_now_ms();
    CHECK_MSG(rlt_clusters_failover(c, 1, 3, "") == 0, "%s", rlt_clusters_error(c));
    CHECK_MSG(rlt_clusters_wait_promoted(c, 1, 3, WAIT_MS) == 0, "%s", rlt_clusters_error(c));
    check_note("CLUSTER FAILOVER: promoted in %lld ms", (long long)(check_now_ms() - t0));
    CHECK_EQ(rlt_clusters_role(c, 1, 3), RLT_CLUSTER_MASTER);
    CHECK_MSG(rlt_clusters_wait_ok(c, 1, WAIT_MS) == 0, "%s", rlt_clusters_error(c));
    CHECK_EQ(rlt_clusters_role(c, 1, 1), RLT_CLUSTER_REPLICA);
    CHECK_EQ(rlt_clusters_master_of(c, 1, 1), 3);
    CHECK_EQ(rlt_clusters_master_of_slot(c, 1, 16383), 3);
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, 16383), 1); /* the other vote is untouched */
    t0 = check_now_ms();
    CHECK_MSG(rlt_clusters_failover(c, 0, 2, "FORCE") == 0, "%s", rlt_clusters_error(c));
    CHECK_MSG(rlt_clusters_wait_promoted(c, 0, 2, WAIT_MS) == 0, "%s", rlt_clusters_error(c));
    check_note("CLUSTER FAILOVER FORCE: promoted in %lld ms", (long long)(check_now_ms() - t0));
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, 0), 2);
    CHECK(rlt_clusters_failover(c, 1, 3, "SOFTLY") != 0);
    CHECK(rlt_clusters_failover(c, 1, 3, "") != 0); /* a master refuses */
    CHECK_MSG(strstr(rlt_clusters_error(c), "ERR") != NULL, "%s", rlt_clusters_error(c));
    stop_and_check(c);
}

/* MOVED after a slot moved with its keys; ASK during a migration. */
TEST(clusters_three_shards_moved_ask)
{
    rlt_clusters *c = start(1, 3, 1, NULL);
    CHECK_EQ(rlt_clusters_nodes(c, 0), 6);
    check_slot_map(c, 0, 3);
    check_roles(c, 0, 3);
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, 0), 0);
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, 16383), 2);

    const char *key = "moved-key";
    int slot = rlt_clusters_slot_of(key, strlen(key));
    int from = rlt_clusters_master_of_slot(c, 0, slot), to = (from + 1) % 3;
    check_set(c, 0, from, key, "v1");
    CHECK_MSG(rlt_clusters_move_slot(c, 0, slot, to) == 0, "%s", rlt_clusters_error(c));
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, slot), to);
    check_redirect(rlt_clusters_command(c, 0, from, "GET %s", key), "MOVED", slot,
                   rlt_clusters_port(c, 0, to));
    int third = 3 - from - to;
    check_redirect(rlt_clusters_command(c, 0, third, "GET %s", key), "MOVED", slot,
                   rlt_clusters_port(c, 0, to));
    check_get(c, 0, to, key, "v1");

    const char *absent = "ask-key", *present = "{ask-key}present";
    int s2 = rlt_clusters_slot_of(absent, strlen(absent));
    int src = rlt_clusters_master_of_slot(c, 0, s2), dst = (src + 2) % 3;
    check_set(c, 0, src, present, "here");
    CHECK_MSG(rlt_clusters_migrate_begin(c, 0, s2, dst) == 0, "%s", rlt_clusters_error(c));
    check_redirect(rlt_clusters_command(c, 0, src, "GET %s", absent), "ASK", s2,
                   rlt_clusters_port(c, 0, dst));
    check_get(c, 0, src, present, "here"); /* a key still there is served */
    CHECK(rlt_clusters_migrate_begin(c, 0, s2, src) != 0);
    CHECK_MSG(rlt_clusters_migrate_keys(c, 0, s2) == 0, "%s", rlt_clusters_error(c));
    check_redirect(rlt_clusters_command(c, 0, src, "GET %s", present), "ASK", s2,
                   rlt_clusters_port(c, 0, dst));
    CHECK_MSG(rlt_clusters_migrate_end(c, 0, s2) == 0, "%s", rlt_clusters_error(c));
    check_redirect(rlt_clusters_command(c, 0, src, "GET %s", present), "MOVED", s2,
                   rlt_clusters_port(c, 0, dst));
    check_get(c, 0, dst, present, "here");
    CHECK(rlt_clusters_migrate_end(c, 0, s2) != 0); /* nothing migrates any more */
    CHECK_MSG(rlt_clusters_wait_ok(c, 0, WAIT_MS) == 0, "%s", rlt_clusters_error(c));
    stop_and_check(c);
}

/* kill -9 of a master: its replica is promoted by itself; the old master
 * restarts from its nodes.conf and rejoins as the new master's replica;
 * a TAKEOVER gives it its slots back. */
TEST(clusters_three_shards_kill_promote_restart)
{
    rlt_clusters *c = start(1, 3, 1, NULL);
    int replica = -1;
    for (int n = 3; n < 6; n++)
        if (rlt_clusters_master_of(c, 0, n) == 0)
            replica = n;
    CHECK_MSG(replica >= 0, "no replica of node 0: %s", rlt_clusters_error(c));
    pid_t old = rlt_clusters_pid(c, 0, 0);
    CHECK_EQ(rlt_clusters_kill(c, 0, 0), 0);
    CHECK_EQ(rlt_clusters_pid(c, 0, 0), 0);
    CHECK(kill(old, 0) != 0);
    CHECK_EQ(rlt_clusters_role(c, 0, 0), RLT_CLUSTER_DOWN);
    CHECK(rlt_clusters_kill(c, 0, 0) != 0);
    int64_t t0 = check_now_ms();
    CHECK_MSG(rlt_clusters_wait_promoted(c, 0, replica, WAIT_MS) == 0, "%s", rlt_clusters_error(c));
    check_note("kill -9: node %d promoted after %lld ms", replica,
               (long long)(check_now_ms() - t0));
    CHECK_MSG(rlt_clusters_wait_ok(c, 0, WAIT_MS) == 0, "%s", rlt_clusters_error(c));
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, 0), replica);

    t0 = check_now_ms();
    CHECK_MSG(rlt_clusters_restart(c, 0, 0) == 0, "%s", rlt_clusters_error(c));
    check_note("restart: rejoined in %lld ms", (long long)(check_now_ms() - t0));
    CHECK_GT(rlt_clusters_pid(c, 0, 0), 0);
    CHECK_EQ(rlt_clusters_role(c, 0, 0), RLT_CLUSTER_REPLICA);
    CHECK_EQ(rlt_clusters_master_of(c, 0, 0), replica);
    redisReply *r = rlt_clusters_command(c, 0, 0, "INFO replication");
    CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
    CHECK_MSG(strstr(r->str, "master_link_status:up\r") != NULL, "%s", r->str);
    freeReplyObject(r);
    check_slot_map(c, 0, 3);

    t0 = check_now_ms();
    CHECK_MSG(rlt_clusters_failover(c, 0, 0, "TAKEOVER") == 0, "%s", rlt_clusters_error(c));
    CHECK_MSG(rlt_clusters_wait_promoted(c, 0, 0, WAIT_MS) == 0, "%s", rlt_clusters_error(c));
    check_note("CLUSTER FAILOVER TAKEOVER: promoted in %lld ms", (long long)(check_now_ms() - t0));
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, 0), 0);
    CHECK_MSG(rlt_clusters_wait_ok(c, 0, WAIT_MS) == 0, "%s", rlt_clusters_error(c));
    CHECK_EQ(rlt_clusters_master_of(c, 0, replica), 0);
    stop_and_check(c);
}

/* A master with no replica killed: the vote is not ok while it is down
 * (its slots are served by no running node), and ok again once it
 * restarted with its slots. */
TEST(clusters_master_without_replica_restart)
{
    rlt_clusters *c = start(1, 2, 0, NULL);
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, 16383), 1);
    CHECK_EQ(rlt_clusters_kill(c, 0, 1), 0);
    CHECK(rlt_clusters_wait_ok(c, 0, 500) != 0);
    CHECK_MSG(strstr(rlt_clusters_error(c), "not running") != NULL, "%s", rlt_clusters_error(c));
    CHECK(rlt_clusters_wait_promoted(c, 0, 1, 100) != 0);
    int64_t t0 = check_now_ms();
    CHECK_MSG(rlt_clusters_restart(c, 0, 1) == 0, "%s", rlt_clusters_error(c));
    check_note("restart: rejoined in %lld ms", (long long)(check_now_ms() - t0));
    CHECK_EQ(rlt_clusters_role(c, 0, 1), RLT_CLUSTER_MASTER);
    CHECK_EQ(rlt_clusters_master_of_slot(c, 0, 16383), 1);
    check_slot_map(c, 0, 2);
    stop_and_check(c);
}

/* With a password: redis-cli -a, the replicas' masterauth, MIGRATE with
 * AUTH2, the password in the address; and a node timeout of our own. */
TEST(clusters_password_and_node_timeout)
{
    static const char *const extra[] = {"--requirepass", "s3cr/t@x", "--cluster-node-timeout",
                                        "3000", NULL};
    rlt_clusters *c = start(1, 3, 1, extra);
    char want[128];
    snprintf(want, sizeof want,
             "redis-cluster://:s3cr%%2Ft%%40x@127.0.0.1:%d,127.0.0.1:%d,127.0.0.1:%d",
             rlt_clusters_port(c, 0, 0), rlt_clusters_port(c, 0, 1), rlt_clusters_port(c, 0, 2));
    CHECK_STREQ(rlt_clusters_address(c, 0), want);
    check_slot_map(c, 0, 3);
    check_roles(c, 0, 3);
    redisReply *r = rlt_clusters_command(c, 0, 4, "CONFIG GET cluster-node-timeout");
    CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY && r->elements == 2);
    CHECK_STREQ(r->element[1]->str, "3000");
    freeReplyObject(r);
    const char *key = "{pw}k";
    int slot = rlt_clusters_slot_of(key, strlen(key));
    int from = rlt_clusters_master_of_slot(c, 0, slot), to = (from + 1) % 3;
    check_set(c, 0, from, key, "secret");
    CHECK_MSG(rlt_clusters_move_slot(c, 0, slot, to) == 0, "%s", rlt_clusters_error(c));
    check_get(c, 0, to, key, "secret");
    stop_and_check(c);
}

/* 1 when pid is gone or a zombie (killed, not yet reaped by the runner). */
static int process_dead(pid_t pid)
{
    char path[64], stat[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 1;
    int got = fgets(stat, sizeof stat, f) != NULL;
    fclose(f);
    char *paren = got ? strrchr(stat, ')') : NULL;
    return paren == NULL || paren[2] == 'Z' || paren[2] == 'X';
}

/* A test that fails with its clusters running (no stop) leaves no node
 * running: they die with the thread that started them. */
TEST(clusters_failed_test_leaves_nothing_running)
{
    int fds[2];
    CHECK_EQ(pipe(fds), 0);
    pid_t child = fork();
    CHECK_GE(child, 0);
    if (child == 0) {
        close(fds[0]);
        rlt_clusters *c = start(1, 2, 0, NULL);
        pid_t pids[2] = {rlt_clusters_pid(c, 0, 0), rlt_clusters_pid(c, 0, 1)};
        if (write(fds[1], pids, sizeof pids) != (ssize_t)sizeof pids)
            _exit(3);
        _exit(1); /* as a failed CHECK ends a test */
    }
    close(fds[1]);
    pid_t pids[2];
    ssize_t got = read(fds[0], pids, sizeof pids);
    close(fds[0]);
    int status;
    CHECK_EQ(waitpid(child, &status, 0), child);
    CHECK_EQ(got, (ssize_t)sizeof pids);
    for (int k = 0; k < 2; k++) {
        int64_t deadline = check_now_ms() + 5000;
        while (!process_dead(pids[k]) && check_now_ms() < deadline)
            usleep(10000);
        CHECK_MSG(process_dead(pids[k]), "node pid %d still running", (int)pids[k]);
    }
}

TEST(clusters_bad_arguments_fail_cleanly)
{
    char err[512] = "";
    CHECK(rlt_clusters_start(0, 1, 0, NULL, err, sizeof err) == NULL);
    CHECK_NE(err[0], '\0');
    CHECK(rlt_clusters_start(1, 0, 0, NULL, err, sizeof err) == NULL);
    CHECK(rlt_clusters_start(1, 1, -1, NULL, err, sizeof err) == NULL);
    static const char *const bad[] = {"--no-such-option", "1", NULL};
    err[0] = '\0';
    CHECK(rlt_clusters_start(1, 1, 0, bad, err, sizeof err) == NULL);
    CHECK_MSG(strstr(err, "exited") != NULL, "err was \"%s\"", err);
    CHECK(rlt_clusters_address(NULL, 0) == NULL);
    CHECK_EQ(rlt_clusters_port(NULL, 0, 0), -1);
    rlt_clusters_stop(NULL);
}
