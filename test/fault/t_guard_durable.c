/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_guard_durable.c -- the restart guard and durable masters (guard.c,
 * docs/safety.md "Restarts"), against real redis-servers, the guard on:
 *
 *   guard_durable_fresh_fsync_always_counts_at_once
 *                         just-started masters with appendonly yes and
 *                         appendfsync always count at once, and say why;
 *   guard_durable_weaker_configurations_wait
 *                         everysec, no persistence, always with
 *                         no-appendfsync-on-rewrite yes: not counted, and
 *                         the whole reason says how long and why;
 *   guard_durable_aof_switched_on_at_run_time_waits
 *                         an AOF turned on after the start was not loaded
 *                         at it: not counted;
 *   guard_durable_set_after_the_start_waits
 *                         appendfsync always set while this client watched
 *                         the master run with everysec: not counted;
 *   guard_durable_weaker_before_the_restart_waits
 *                         this client saw the master run with everysec
 *                         before its restart: not counted (one that did
 *                         not see it counts it);
 *   guard_durable_kill9_restart_keeps_the_key_and_counts
 *                         kill -9 and restart of an fsync-always master
 *                         under a held lock: the key is still there, a
 *                         second client is refused, and the master counts
 *                         at once for the holder's extend.
 */
#include "itest.h"
#include "fixture.h"

#include <stdio.h>
#include <string.h>

#include <hiredis/hiredis.h>

static const char *const always[] = { "--appendonly", "yes", "--appendfsync", "always", NULL };

#define SAFETY_END "docs/safety.md)"

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return m <= n && strcmp(s + n - m, end) == 0;
}

static void config_set(rlt_servers *s, int i, const char *name, const char *value)
{
    redisReply *r = rlt_servers_command(s, i, "CONFIG SET %s %s", name, value);
    CHECK_MSG(r && r->type == REDIS_REPLY_STATUS, "server %d: CONFIG SET %s %s: %s", i, name,
              value, r && r->str ? r->str : "no reply");
    if (r)
        freeReplyObject(r);
}

/* The client options of these tests: the restart guard on (automatic:
 * the ttl in use), one attempt. */
static void guarded_opts(redlock_options *o)
{
    it_opts(o);
    o->retry_count = 0;
    o->restart_guard_ms = -1;
}

static void node_stats(redlock_client *c, size_t node, redlock_node_stats *st)
{
    memset(st, 0, sizeof *st);
    CHECK_EQ(redlock_client_node_stats(c, node, st), 0);
}

static void node_result(redlock_lock *l, size_t node, redlock_node_result *r)
{
    memset(r, 0, sizeof *r);
    CHECK_EQ(redlock_lock_node_result(l, node, r), 0);
}

TEST(guard_durable_fresh_fsync_always_counts_at_once)
{
    struct it_fix f = { .extra = always };
    redlock_options o;
    guarded_opts(&o);
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "durable-fresh");
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    CHECK_GE(redlock_lock_nodes_ok(l), 2);
    for (size_t i = 0; i < 3; i++) {
        redlock_node_stats st;
        redlock_node_result r;
        node_stats(f.c, i, &st);
        check_note("node %zu: flags 0x%x, uptime %lld s: %s", i, st.guard_flags,
                   (long long)st.uptime_s, st.guard_detail);
        CHECK_EQ(st.guard_flags, (unsigned)REDLOCK_GUARD_DURABLE);
        CHECK_EQ(st.counted, 1);
        CHECK_EQ(st.counted_in_ms, 0);
        CHECK_LE(st.uptime_s, 9);       /* within the window it would have had */
        CHECK_MSG(it_has(st.guard_detail, "counted at once") &&
                      it_has(st.guard_detail, "appendfsync always"),
                  "stats: %s", st.guard_detail);
        node_result(l, i, &r);
        if (r.vote == REDLOCK_VOTE_OK)
            CHECK_MSG(it_has(r.detail, "counted at once after its restart"), "node %zu: %s", i,
                      r.detail);
    }
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    it_fix_stop(&f);
}

/* An acquire on 3 just-started masters the guard keeps out: EUNCOUNTED,
 * each node's reason whole, saying for how long and `why`, and the error
 * text ending with one of them. */
static void check_kept_out(struct it_fix *f, redlock_client *c, const char *res,
                           const char *const why[3])
{
    redlock_lock *l = it_fix_lock(f, c, res);
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_EUNCOUNTED);
    const char *e = it_errstr(l);
    check_note("%s", e);
    CHECK_MSG(ends_with(e, SAFETY_END), "errstr: %s", e);
    for (size_t i = 0; i < 3; i++) {
        redlock_node_stats st;
        redlock_node_result r;
        node_stats(c, i, &st);
        CHECK(st.guard_flags & REDLOCK_GUARD_RESTARTED);
        CHECK_EQ(st.counted, 0);
        CHECK_GT(st.counted_in_ms, 0);
        node_result(l, i, &r);
        if (r.vote != REDLOCK_VOTE_UNCOUNTED)
            continue;   /* not read before the decision */
        CHECK_MSG(it_has(r.detail, "not counted for 10.") &&
                      it_has(r.detail, "s after its start (restarted ") &&
                      it_has(r.detail, why[i]) && ends_with(r.detail, SAFETY_END),
                  "node %zu: %s", i, r.detail);
    }
    CHECK_EQ(it_wait_count(f->s, res, strlen(res), 0, 2000), 0);    /* rolled back */
}

TEST(guard_durable_weaker_configurations_wait)
{
    static const char *const why[3] = {
        "a master without appendfsync always may have lost its locks in a restart",
        "a master without appendfsync always may have lost its locks in a restart",
        "a master without appendfsync always may have lost its locks in a restart" };
    struct it_fix f = { .extra = always };
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    /* set before this client sees them: as if started so */
    config_set(f.s, 0, "appendfsync", "everysec");
    config_set(f.s, 1, "appendonly", "no");
    config_set(f.s, 1, "save", "");
    config_set(f.s, 2, "no-appendfsync-on-rewrite", "yes");
    redlock_options o;
    guarded_opts(&o);
    redlock_client *c = it_fix_client(&f, &o);
    check_kept_out(&f, c, "durable-weaker", why);
    redlock_node_stats st;
    node_stats(c, 1, &st);
    CHECK(st.guard_flags & REDLOCK_GUARD_NO_PERSIST);
    for (size_t i = 0; i < 3; i++) {
        node_stats(c, i, &st);
        CHECK_EQ(st.guard_flags & REDLOCK_GUARD_DURABLE, 0u);
    }
    it_fix_stop(&f);
}

TEST(guard_durable_aof_switched_on_at_run_time_waits)
{
    static const char *const none[] = { "--appendonly", "no", NULL };
    static const char *const why[3] = { "its AOF was not on since its start",
                                        "its AOF was not on since its start",
                                        "its AOF was not on since its start" };
    struct it_fix f = { .extra = none };
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    for (int i = 0; i < 3; i++) {
        config_set(f.s, i, "appendfsync", "always");
        config_set(f.s, i, "appendonly", "yes");
    }
    redlock_options o;
    guarded_opts(&o);
    redlock_client *c = it_fix_client(&f, &o);
    check_kept_out(&f, c, "durable-late-aof", why);
    redlock_node_stats st;
    node_stats(c, 0, &st);
    CHECK(st.guard_flags & REDLOCK_GUARD_DURABLE);      /* it is now, not since its start */
    it_fix_stop(&f);
}

TEST(guard_durable_set_after_the_start_waits)
{
    static const char *const everysec[] = { "--appendonly", "yes", "--appendfsync", "everysec",
                                            NULL };
    static const char *const why[3] = { "appendfsync always was set after its start",
                                        "appendfsync always was set after its start",
                                        "appendfsync always was set after its start" };
    struct it_fix f = { .extra = everysec };
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    redlock_options o;
    guarded_opts(&o);
    o.clock_probe_ms = 100;     /* the configuration is read again every 500 ms */
    redlock_client *c = it_fix_client(&f, &o);
    for (int i = 0; i < 3; i++)
        config_set(f.s, i, "appendfsync", "always");
    /* no event tells a reading that changed no verdict: look at the stats */
    redlock_node_stats st;
    int64_t t0 = check_now_ms();
    for (size_t i = 0; i < 3; i++) {
        do {
            CHECK_EQ(redlock_client_wait_connected(c, 3, 100), 0);
            node_stats(c, i, &st);
        } while (!(st.guard_flags & REDLOCK_GUARD_DURABLE) && check_now_ms() - t0 < 5000);
        CHECK_MSG(st.guard_flags & REDLOCK_GUARD_DURABLE, "node %zu: 0x%x", i, st.guard_flags);
    }
    check_kept_out(&f, c, "durable-set-late", why);
    it_fix_stop(&f);
}

/* A holds a lock on 3 fsync-always masters; master 2 goes down for good,
 * master 1 is killed (-9) and restarted. */
TEST(guard_durable_kill9_restart_keeps_the_key_and_counts)
{
    static const char res[] = "durable-kill9";
    struct it_fix f = { .extra = always };
    redlock_options o;
    guarded_opts(&o);
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *a = it_fix_lock(&f, f.c, res);
    CHECK_RC(a, redlock_try_acquire(a, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, res, strlen(res), a, 3, 1000), 3);
    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 1), 0);
    CHECK_EQ(rlt_servers_exists(f.s, 1, res, strlen(res)), 1);     /* the AOF kept it */

    /* a second client, seeing master 1 for the first time: refused */
    redlock_client *cb = it_client_addrs(rlt_servers_addrs(f.s), 3, &o, 2);
    f.clients[f.nclients++] = cb;
    redlock_lock *b = it_fix_lock(&f, cb, res);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    redlock_node_result nr;
    node_result(b, 1, &nr);     /* refused, or decided without it */
    CHECK(nr.vote == REDLOCK_VOTE_REFUSED || nr.vote == REDLOCK_VOTE_NONE);
    CHECK_EQ(it_count_lock(f.s, res, strlen(res), a), 2);      /* A's, on 0 and 1 */
    CHECK_GT(redlock_lock_validity(a), 0);

    /* A saw master 1 before and after its restart: it counts at once, so
     * A's extend has masters 0 and 1, a quorum without master 2 */
    CHECK_EQ(redlock_client_wait_connected(f.c, 2, 3000), 0);
    CHECK_RC(a, redlock_extend(a, 10000), REDLOCK_OK);
    node_result(a, 1, &nr);
    check_note("A's extend on master 1: %s (%s)", redlock_vote_name(nr.vote), nr.detail);
    CHECK_EQ(nr.vote, REDLOCK_VOTE_OK);
    CHECK_MSG(it_has(nr.detail, "counted at once after its restart"), "detail: %s", nr.detail);
    redlock_node_stats st;
    node_stats(f.c, 1, &st);
    CHECK_EQ(st.restarts, 1);
    CHECK_EQ(st.counted, 1);
    CHECK_EQ(st.guard_flags, (unsigned)REDLOCK_GUARD_DURABLE);
    CHECK_RC(a, redlock_release(a), REDLOCK_OK);
    it_fix_stop(&f);
}

/* Wait (looking at the stats: no event tells a reading that changed no
 * verdict) until node i's DURABLE flag is `want`. */
static void wait_durable(redlock_client *c, size_t i, int want)
{
    redlock_node_stats st;
    int64_t t0 = check_now_ms();
    do {
        redlock_client_wait_connected(c, 1, 100);
        node_stats(c, i, &st);
    } while (!(st.guard_flags & REDLOCK_GUARD_DURABLE) != !want && check_now_ms() - t0 < 5000);
    CHECK_MSG(!(st.guard_flags & REDLOCK_GUARD_DURABLE) == !want, "node %zu: 0x%x", i,
              st.guard_flags);
}

/* This client saw master 1 run with everysec; it restarts with always
 * (its command line): what it lost in the restart was acknowledged under
 * everysec, so it waits.  A client that never saw it counts it. */
TEST(guard_durable_weaker_before_the_restart_waits)
{
    struct it_fix f = { .extra = always };
    redlock_options o;
    guarded_opts(&o);
    o.clock_probe_ms = 100;     /* the configuration is read again every 500 ms */
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "durable-before");
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);  /* the window: 10 s */
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    config_set(f.s, 1, "appendfsync", "everysec");
    wait_durable(f.c, 1, 0);
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 1), 0);
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 3000), 0);
    wait_durable(f.c, 1, 1);
    redlock_node_stats st;
    node_stats(f.c, 1, &st);
    check_note("master 1: 0x%x, %s", st.guard_flags, st.guard_detail);
    CHECK_EQ(st.restarts, 1);
    CHECK_EQ(st.counted, 0);
    CHECK(st.guard_flags & REDLOCK_GUARD_RESTARTED);
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);    /* masters 0 and 2 */
    redlock_node_result r;
    node_result(l, 1, &r);
    if (r.vote == REDLOCK_VOTE_UNCOUNTED)
        CHECK_MSG(it_has(r.detail, "it ran without appendfsync always before this restart"),
                  "detail: %s", r.detail);
    node_stats(f.c, 1, &st);
    CHECK_EQ(st.counted, 0);
    CHECK_GT(st.counted_in_ms, 0);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    redlock_client *fresh = it_fix_client(&f, &o);
    redlock_lock *lf = it_fix_lock(&f, fresh, "durable-before");
    CHECK_RC(lf, redlock_try_acquire(lf, 10000), REDLOCK_OK);
    node_result(lf, 1, &r);
    CHECK(r.vote == REDLOCK_VOTE_OK || r.vote == REDLOCK_VOTE_NONE);
    node_stats(fresh, 1, &st);
    CHECK_EQ(st.counted, 1);
    it_fix_stop(&f);
}
