/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_faults.c -- integration: killed, paused and restarted masters, lost
 * scripts (NOSCRIPT), node events. */
#include "itest.h"
#include "fixture.h"

#include <hiredis/hiredis.h>

TEST(faults_5_masters_2_killed_still_acquire)
{
    struct it_fix f = {0};
    it_fix_start(&f, 5, NULL, 0);
    static const char res[] = "two-down";
    size_t rlen = sizeof res - 1;
    redlock_lock *lock = it_fix_lock(&f, f.c, res);
    CHECK_EQ(rlt_servers_kill(f.s, 3), 0);
    CHECK_EQ(rlt_servers_kill(f.s, 4), 0);

    CHECK_RC(lock, redlock_acquire(lock, 10000), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 3);
    CHECK_GT(redlock_lock_validity(lock), 0);
    CHECK_EQ(it_count_lock(f.s, res, rlen, lock), 3);
    CHECK_RC(lock, redlock_extend(lock, 10000), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 3);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 3);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);
    /* and again, now that the client knows the two are down */
    CHECK_RC(lock, redlock_try_acquire(lock, 10000), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 3);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    it_wait_keyspace(NULL, f.s, NULL, "0: | 1: | 2: | ", 1000);   /* nothing left */

    it_fix_stop(&f);
}

TEST(faults_5_masters_3_killed_fail_fast)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 500;
    o.retry_count = 3;
    o.retry_delay_ms = 20;
    o.retry_jitter_ms = 5;
    struct it_fix f = {0};
    it_fix_start(&f, 5, &o, 0);
    static const char res[] = "three-down";
    size_t rlen = sizeof res - 1;
    redlock_lock *lock = it_fix_lock(&f, f.c, res);
    for (int i = 2; i < 5; i++)
        CHECK_EQ(rlt_servers_kill(f.s, i), 0);

    /* 4 attempts x 500 ms node timeout would be 2 s; unreachable nodes
     * must fail at once, leaving only the retry delays. */
    int64_t t0 = check_now_ms();
    CHECK_RC(lock, redlock_acquire(lock, 10000), REDLOCK_ECONNECT);
    int64_t elapsed = check_now_ms() - t0;
    CHECK_LT(elapsed, 400);
    CHECK_NE(it_errstr(lock)[0], '\0');
    CHECK_EQ(redlock_lock_validity(lock), 0);
    /* the two survivors got the key during an attempt; it is released */
    CHECK_EQ(it_wait_count(f.s, res, rlen, 0, 1000), 0);

    t0 = check_now_ms();
    CHECK_RC(lock, redlock_try_acquire(lock, 10000), REDLOCK_ECONNECT);
    CHECK_LT(check_now_ms() - t0, 250);
    CHECK_EQ(it_wait_count(f.s, res, rlen, 0, 1000), 0);
    CHECK_EQ(redlock_client_connected(f.c), 2);
    it_wait_keyspace(NULL, f.s, NULL, "0: | 1: | ", 1000);         /* nothing left */

    it_fix_stop(&f);
}

/* The call on lock l succeeds within the node timeout (100 ms) and some
 * slack. */
#define IN_TIME(l, call)                                                      \
    do {                                                                      \
        int64_t in_time_t0_ = check_now_ms();                                 \
        CHECK_RC(l, call, REDLOCK_OK);                                        \
        CHECK_LT(check_now_ms() - in_time_t0_, 100 + 400);                    \
    } while (0)

/* n masters, a client with a node timeout of 100 ms and its lock on
 * res; then master `paused` hangs. */
static redlock_lock *start_one_paused(struct it_fix *f, int n, int paused, const char *res)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 100;
    it_fix_start(f, n, &o, 0);
    redlock_lock *l = it_fix_lock(f, f->c, res);
    CHECK_EQ(rlt_servers_pause(f->s, paused), 0);
    return l;
}

TEST(faults_one_of_3_paused)
{
    struct it_fix f = {0};
    static const char res[] = "one-paused";
    size_t rlen = sizeof res - 1;
    redlock_lock *lock = start_one_paused(&f, 3, 2, res);
    IN_TIME(lock, redlock_try_acquire(lock, 10000));
    CHECK_EQ(redlock_lock_nodes_ok(lock), 2);
    CHECK_GT(redlock_lock_validity(lock), 0);
    CHECK_EQ(it_count_lock(f.s, res, rlen, lock), 2);

    IN_TIME(lock, redlock_extend(lock, 10000));
    CHECK_EQ(redlock_lock_nodes_ok(lock), 2);

    IN_TIME(lock, redlock_release(lock));
    CHECK_EQ(redlock_lock_nodes_ok(lock), 2);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);

    /* the retrying acquire too */
    redlock_lock *l1 = IT_LOCK(f.c, "one-paused:acquire");
    IN_TIME(l1, redlock_acquire(l1, 10000));
    CHECK_EQ(redlock_lock_nodes_ok(l1), 2);
    CHECK_EQ(it_count_lock(f.s, "one-paused:acquire", 18, l1), 2);
    CHECK_RC(l1, redlock_release(l1), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, "one-paused:acquire", 18), 0);
    redlock_lock_free(l1);

    check_counted_after_resume(&f, 2, it_fix_lock(&f, f.c, "after-resume"), "after-resume");

    it_fix_stop(&f);
}

TEST(faults_one_of_5_paused_then_three)
{
    struct it_fix f = {0};
    static const char res[] = "paused";
    size_t rlen = sizeof res - 1;
    redlock_lock *lock = start_one_paused(&f, 5, 4, res);
    IN_TIME(lock, redlock_try_acquire(lock, 10000));
    CHECK_GE(redlock_lock_nodes_ok(lock), 3);
    CHECK_LE(redlock_lock_nodes_ok(lock), 4);
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, lock, 4, 2000), 4);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 4);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);

    /* 3 of 5 stopped: no quorum; the attempt ends after about one node
     * timeout, and the two answering masters are cleaned up. */
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 3), 0);
    redlock_lock *l2 = it_fix_lock(&f, f.c, "paused-2");
    int64_t t0 = check_now_ms();
    CHECK_RC(l2, redlock_try_acquire(l2, 10000), REDLOCK_ETIMEDOUT);
    int64_t elapsed = check_now_ms() - t0;
    CHECK_GE(elapsed, 90);
    CHECK_LT(elapsed, 100 + 400);
    CHECK_NE(it_errstr(l2)[0], '\0');
    CHECK_EQ(redlock_lock_validity(l2), 0);
    CHECK_EQ(it_wait_count(f.s, "paused-2", 8, 0, 1000), 0);

    for (int i = 2; i < 5; i++)
        CHECK_EQ(rlt_servers_resume(f.s, i), 0);
    CHECK_RC(NULL, redlock_client_wait_connected(f.c, 5, 5000), REDLOCK_OK);
    redlock_lock *l3 = it_fix_lock(&f, f.c, "paused-3");
    CHECK_RC(l3, redlock_try_acquire(l3, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, "paused-3", 8, l3, 5, 2000), 5);
    CHECK_RC(l3, redlock_release(l3), REDLOCK_OK);

    it_fix_stop(&f);
}

struct node_events {
    int up[8];
    int down[8];
    int bad_detail;
    int bad_node;
};

static void count_node_event(redlock_client *c, size_t node, int event, const char *detail,
                             void *privdata)
{
    (void)c;
    struct node_events *ev = privdata;
    if (node >= 8) {
        ev->bad_node++;
        return;
    }
    if (detail == NULL || detail[0] == '\0')
        ev->bad_detail++;
    if (event == REDLOCK_NODE_UP)
        ev->up[node]++;
    else if (event == REDLOCK_NODE_DOWN)
        ev->down[node]++;
    else if (event != REDLOCK_NODE_UNSAFE)  /* the masters persist nothing */
        ev->bad_node++;
}

TEST(faults_killed_nodes_restarted_count_again)
{
    struct node_events ev = {{0}};
    redlock_options o;
    it_opts(&o);
    o.node_cb = count_node_event;
    o.node_privdata = &ev;
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(ev.up[i], 1);
    static const char res[] = "restarted";
    size_t rlen = sizeof res - 1;
    redlock_lock *lock = it_fix_lock(&f, f.c, res);

    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);
    int64_t t0 = check_now_ms();
    CHECK_RC(lock, redlock_try_acquire(lock, 10000), REDLOCK_ECONNECT);
    CHECK_LT(check_now_ms() - t0, 100 + 400);
    CHECK_EQ(it_wait_count(f.s, res, rlen, 0, 1000), 0);
    CHECK_GE(ev.down[1], 1);
    CHECK_GE(ev.down[2], 1);
    CHECK_EQ(ev.down[0], 0);
    CHECK_EQ(redlock_client_connected(f.c), 1);

    CHECK_EQ(rlt_servers_restart(f.s, 1), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 2), 0);
    CHECK_RC(NULL, redlock_client_wait_connected(f.c, 3, 5000), REDLOCK_OK);
    CHECK_EQ(redlock_client_connected(f.c), 3);
    CHECK_EQ(ev.up[1], 2);
    CHECK_EQ(ev.up[2], 2);
    CHECK_EQ(ev.up[0], 1);

    CHECK_RC(lock, redlock_try_acquire(lock, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, lock, 3, 2000), 3);
    size_t vlen;
    const char *v = redlock_lock_value(lock, &vlen);
    CHECK_EQ(it_has_value(f.s, 1, res, rlen, v, vlen), 1);
    CHECK_EQ(it_has_value(f.s, 2, res, rlen, v, vlen), 1);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 3);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);
    CHECK_EQ(ev.bad_detail, 0);
    CHECK_EQ(ev.bad_node, 0);

    it_fix_stop(&f);
}

static void script_flush_all(rlt_servers *s)
{
    for (int i = 0; i < rlt_servers_count(s); i++) {
        redisReply *r = rlt_servers_command(s, i, "SCRIPT FLUSH");
        CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
        freeReplyObject(r);
    }
}

TEST(faults_noscript_after_script_flush)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    static const char res[] = "noscript";
    size_t rlen = sizeof res - 1;
    redlock_lock *lock = it_fix_lock(&f, f.c, res);
    CHECK_RC(lock, redlock_acquire(lock, 5000), REDLOCK_OK);
    CHECK_RC(lock, redlock_extend(lock, 5000), REDLOCK_OK); /* scripts loaded now */
    script_flush_all(f.s);

    CHECK_RC(lock, redlock_extend(lock, 30000), REDLOCK_OK);
    CHECK_GE(redlock_lock_nodes_ok(lock), 2);
    /* The extend was decided by a quorum of EVAL replies; a node that
     * answered NOSCRIPT after the decision gets its EVAL when the client's
     * loop runs again, i.e. during a later call of this blocking client:
     * make such calls (on another lock) until every master is extended. */
    int extended = 0;
    for (int i = 0; i < 3; i++)
        extended += it_pttl(f.s, i, res, rlen) > 5000;
    CHECK_GE(extended, 2);
    redlock_lock *pump = IT_LOCK(f.c, "noscript:pump");
    int64_t deadline = check_now_ms() + 2000;
    while (extended < 3 && check_now_ms() < deadline) {
        CHECK_RC(pump, redlock_try_acquire(pump, 1000), REDLOCK_OK);
        CHECK_RC(pump, redlock_release(pump), REDLOCK_OK);
        extended = 0;
        for (int i = 0; i < 3; i++)
            extended += it_pttl(f.s, i, res, rlen) > 5000;
    }
    CHECK_EQ(extended, 3);
    redlock_lock_free(pump);
    script_flush_all(f.s);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 3);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);

    /* a release straight after an acquire, scripts flushed in between */
    CHECK_RC(lock, redlock_acquire(lock, 5000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, lock, 3, 2000), 3);
    script_flush_all(f.s);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 3);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);

    it_fix_stop(&f);
}

TEST(faults_noscript_after_restart_with_aof)
{
    static const char *const aof[] = {"--appendonly", "yes", "--appendfsync", "always", NULL};
    struct it_fix f = {.extra = aof};
    it_fix_start(&f, 1, NULL, 0);
    static const char res[] = "aof-kept";
    size_t rlen = sizeof res - 1;
    redlock_lock *lock = it_fix_lock(&f, f.c, res);
    CHECK_RC(lock, redlock_acquire(lock, 30000), REDLOCK_OK);
    CHECK_RC(lock, redlock_extend(lock, 30000), REDLOCK_OK);

    CHECK_EQ(rlt_servers_kill(f.s, 0), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);
    CHECK_EQ(it_count_lock(f.s, res, rlen, lock), 1); /* the AOF kept the key */

    /* The client may learn of the restart from this call (then it fails to
     * reach the node); once reconnected, the script is missing on the
     * fresh server and must be sent again. */
    int rc = redlock_extend(lock, 60000);
    if (rc != REDLOCK_OK) {
        CHECK_RC(lock, rc, REDLOCK_ECONNECT);
        CHECK_RC(NULL, redlock_client_wait_connected(f.c, 1, 5000), REDLOCK_OK);
        CHECK_RC(lock, redlock_extend(lock, 60000), REDLOCK_OK);
    }
    CHECK_GT(it_pttl(f.s, 0, res, rlen), 30000);
    CHECK_RC(NULL, redlock_client_wait_connected(f.c, 1, 5000), REDLOCK_OK);

    CHECK_EQ(rlt_servers_kill(f.s, 0), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);
    rc = redlock_release(lock);
    if (rc != REDLOCK_OK) {
        /* The release met the dead connection: it is owed to the node and
         * goes out right after the next handshake, before anything else, so
         * a second release finds the key gone. */
        CHECK_RC(lock, rc, REDLOCK_ECONNECT);
        CHECK_EQ(it_count_lock(f.s, res, rlen, lock), 1);
        CHECK_RC(NULL, redlock_client_wait_connected(f.c, 1, 5000), REDLOCK_OK);
        CHECK_RC(lock, redlock_release(lock), REDLOCK_ENOTOWNER);
        CHECK_EQ(redlock_lock_nodes_ok(lock), 0);
    } else {
        CHECK_EQ(redlock_lock_nodes_ok(lock), 1);
    }
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);

    it_fix_stop(&f);
}
