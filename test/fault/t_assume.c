/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_assume.c -- the guards for the algorithm's assumptions (guard.c,
 * docs/safety.md "What it assumes"), against real redis-servers:
 *
 *   assume_restart_*  a master restarted without persistence while a lock
 *                     is held: with the restart guard a second client
 *                     cannot take the lock; without it, it can (the test
 *                     can fail);
 *   assume_clock_*    a master whose clock jumps (its TIME replies moved by
 *                     test/support/proxy's timeshift): the same story;
 *   assume_config_*   an evicting policy and no persistence are reported,
 *                     and in strict mode not counted;
 *   assume_acl_*      a user without INFO and CONFIG: reported, counted
 *                     unless strict.
 */
#include "itest.h"
#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

static void cmd_ok(rlt_servers *s, int i, const char *fmt, const char *a, const char *b)
{
    redisReply *r = rlt_servers_command(s, i, fmt, a, b);
    CHECK_MSG(r && r->type != REDIS_REPLY_ERROR, "server %d: %s: %s", i, fmt,
              r && r->str ? r->str : "no reply");
    if (r)
        freeReplyObject(r);
}

static void node_result(redlock_lock *l, size_t node, redlock_node_result *r)
{
    memset(r, 0, sizeof *r);
    CHECK_EQ(redlock_lock_node_result(l, node, r), 0);
}

static void node_stats(redlock_client *c, size_t node, redlock_node_stats *st)
{
    memset(st, 0, sizeof *st);
    CHECK_EQ(redlock_client_node_stats(c, node, st), 0);
}

/* ---- restarts ------------------------------------------------------------ */

#define TTL 3000

/* The known unsafe case (test/fault/t_failover.c), every client with the
 * guard on (restart_guard_ms -1, the default: the largest ttl in use) or
 * off (0):
 *   0. the masters are up for more than the ttl (so none counts as just
 *      restarted);
 *   1. client A acquires; master 2 does not have its key (a DEL: as if it
 *      was unreachable then, and not restarted since);
 *   2. master 1 is killed and restarted empty;
 *   3. client B tries: masters 1 and 2 are a quorum without A's key.
 * Returns 1 when B got the lock while A held it. */
static int restart_story(int guard, const char *res)
{
    size_t rlen = strlen(res);
    struct it_fix f = {0};
    redlock_options o;
    it_opts(&o);
    o.retry_count = 0;
    o.restart_guard_ms = guard ? -1 : 0;
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *a = it_fix_lock(&f, f.c, res);
    for (int i = 0; i < 3; i++)
        it_wait_uptime(f.s, i, TTL / 1000 + 1);

    CHECK_RC(a, redlock_try_acquire(a, TTL), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, a, 3, 1000), 3);
    cmd_ok(f.s, 2, "DEL %s", res, NULL);
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    CHECK_EQ(rlt_servers_restart(f.s, 1), 0);

    redlock_client *cb = it_fix_client(&f, &o);
    redlock_lock *b = it_fix_lock(&f, cb, res);
    int rc = redlock_try_acquire(b, TTL);
    int64_t va = redlock_lock_validity(a), vb = redlock_lock_validity(b);
    redlock_node_result r;
    redlock_node_stats st;
    node_result(b, 1, &r);
    check_note("guard %s: A validity %lld ms; B %s (%s), validity %lld; B's vote on master 1: "
               "%s (%s)", guard ? "on" : "off", (long long)va, redlock_strerror(rc),
               it_errstr(b), (long long)vb, redlock_vote_name(r.vote), r.detail);
    CHECK_GT(va, 0);    /* A still holds it, whatever B got */
    if (guard) {
        CHECK_RC(b, rc, REDLOCK_ENOQUORUM);
        CHECK_EQ(vb, 0);
        CHECK_EQ(r.vote, REDLOCK_VOTE_UNCOUNTED);
        CHECK_MSG(it_has(r.detail, "restarted"), "detail: %s", r.detail);
        node_stats(cb, 1, &st);
        CHECK(st.guard_flags & REDLOCK_GUARD_RESTARTED);
        CHECK_EQ(st.counted, 0);
        CHECK_GT(st.counted_in_ms, 0);
        CHECK_LE(st.counted_in_ms, TTL + 1000 + 100);
        CHECK_LE(st.uptime_s, 1);
        CHECK_EQ(st.uncounted, 1);
        node_stats(cb, 2, &st);     /* master 2 did not restart */
        CHECK_EQ(st.counted, 1);
        CHECK_EQ(st.guard_flags & REDLOCK_GUARD_RESTARTED, 0u);
        /* B's attempt is rolled back on masters 1 and 2: only A's key is left */
        CHECK_EQ(it_wait_count(f.s, res, rlen, 1, 2000), 1);
        CHECK_EQ(it_count_lock(f.s, res, rlen, a), 1);
    }
    int both = rc == REDLOCK_OK && vb > 0;
    /* A sees master 1's new run_id once it reconnects */
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 3000), 0);
    node_stats(f.c, 1, &st);
    CHECK_EQ(st.restarts, 1);
    node_stats(f.c, 0, &st);
    CHECK_EQ(st.restarts, 0);
    it_fix_stop(&f);
    return both;
}

TEST(assume_restart_guard_keeps_a_restarted_master_out)
{
    CHECK_EQ(restart_story(1, "restart-guarded"), 0);
}

TEST(assume_restart_without_the_guard_gives_two_holders)
{
    /* the same story with the guard off: the overlap the guard prevents */
    CHECK_EQ(restart_story(0, "restart-unguarded"), 1);
}

/* The window passes: a restarted master counts again, and says so. */
TEST(assume_restarted_master_counts_after_the_window)
{
    struct it_fix f = {0};
    struct guard_events ev = {0};
    redlock_options o;
    it_opts(&o);
    o.restart_guard_ms = 1500;      /* fixed: armed from the handshake */
    guard_events_watch(&o, &ev);
    it_fix_start(&f, 3, &o, IT_ASYNC);
    ev.base = f.base;
    /* fresh masters: each is reported out, then in again */
    for (int i = 0; i < 3; i++) {
        CHECK(it_run_until(f.base, &ev.counted[i], 4000));
        CHECK_EQ(ev.uncounted[i], 1);
        CHECK_MSG(it_has(ev.detail[i], "count again"), "detail: %s", ev.detail[i]);
    }
    redlock_node_stats st;
    node_stats(f.c, 0, &st);
    CHECK_EQ(st.counted, 1);
    CHECK_EQ(st.counted_in_ms, 0);
    CHECK_GE(st.uptime_s, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "window");
    struct it_op op = {f.base};
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 2000);
    CHECK_RC(l, op.status, REDLOCK_OK);
    CHECK_GE(op.nodes_ok, 2);
    it_fix_stop(&f);
}

/* ---- clock jumps ----------------------------------------------------------- */

/* Clients A (no guard) and B (probing every 50 ms, the clock guard on with
 * a window of 10 s, or off) on p's proxies; B's guard events go to ev. */
static void clock_clients(struct px_fix *p, int guard, struct guard_events *ev,
                          redlock_client **ca, redlock_client **cb)
{
    redlock_options o;
    it_opts(&o);
    o.retry_count = 0;
    o.clock_guard_ms = 0;
    *ca = px_fix_client(p, &o);
    o.clock_probe_ms = 50;
    o.clock_guard_ms = guard ? 10000 : 0;
    guard_events_watch(&o, ev);
    *cb = px_fix_client(p, &o);
    CHECK_EQ(it_async_wait_connected(p->f.base, *ca, 3, 3000), 0);
    CHECK_EQ(it_async_wait_connected(p->f.base, *cb, 3, 3000), 0);
    ev->base = p->f.base;   /* from now on B's guard events break the loop */
}

/* A holds res on masters 0 and 1 only; then master 1's clock jumps 30 s
 * ahead, expiring A's key there. */
static void clock_a_holds_then_master1_jumps(struct px_fix *p, redlock_lock *a, const char *res)
{
    size_t rlen = strlen(res);
    struct it_op op = {p->f.base};
    CHECK_RC(a, redlock_try_acquire_async(a, 10000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 2000);
    CHECK_RC(a, op.status, REDLOCK_OK);
    /* (decided on a quorum: the third SET may still be on its way) */
    CHECK_EQ(it_wait_lock_count(p->f.s, res, rlen, a, 3, 1000), 3);
    /* master 2 never got A's SET (as if it was down then) */
    cmd_ok(p->f.s, 2, "DEL %s", res, NULL);
    rlp_thread_set_timeshift(p->px[1], 30);
    cmd_ok(p->f.s, 1, "DEL %s", res, NULL);
}

/* B lost (status): master 1 was not counted for its clock, and B's
 * attempt is rolled back, A's key on master 0 left alone. */
static void check_clock_guard_kept_master1_out(struct px_fix *p, redlock_client *cb,
                                               redlock_lock *b, int status,
                                               const redlock_node_result *r, const char *res)
{
    size_t rlen = strlen(res);
    redlock_node_stats st;
    CHECK_RC(b, status, REDLOCK_ENOQUORUM);
    CHECK_EQ(r->vote, REDLOCK_VOTE_UNCOUNTED);
    CHECK_MSG(it_has(r->detail, "clock"), "detail: %s", r->detail);
    node_stats(cb, 1, &st);
    CHECK(st.guard_flags & REDLOCK_GUARD_CLOCK);
    CHECK_GE(st.clock_jumps, 1);
    CHECK_EQ(st.counted, 0);
    CHECK_GT(st.counted_in_ms, 9000);
    node_stats(cb, 0, &st);
    CHECK_EQ(st.clock_jumps, 0);
    CHECK_EQ(st.counted, 1);
    /* B's attempt is rolled back (the loop writes the undos) */
    int64_t t0 = check_now_ms();
    while (rlt_servers_count_key(p->f.s, res, rlen) != 1 && check_now_ms() - t0 < 2000)
        it_run(p->f.base, 10);
    CHECK_EQ(rlt_servers_count_key(p->f.s, res, rlen), 1);
    rlp_stats ps;
    rlp_thread_stats(p->px[1], &ps);
    CHECK_GE(ps.time_rewrites, 1);
}

/* The same story with a clock: master 1's clock jumps 30 s ahead (its TIME
 * replies, through a proxy; Debian's redis-server cannot run under
 * libfaketime) and expires A's key early (a DEL: what the jump does to a
 * key's absolute expiry).  Client B, probing every 50 ms, with the clock
 * guard on (a window of the ttl in use) or off.  Async clients.
 * Returns 1 when B got the lock while A held it. */
static int clock_story(int guard, const char *res)
{
    struct px_fix p;
    struct guard_events ev = {0};
    redlock_client *ca, *cb;
    px_fix_start(&p, 3);
    clock_clients(&p, guard, &ev, &ca, &cb);
    redlock_lock *a = it_fix_lock(&p.f, ca, res), *b = it_fix_lock(&p.f, cb, res);

    clock_a_holds_then_master1_jumps(&p, a, res);
    if (guard) {
        /* B's next sample of master 1 shows the jump */
        CHECK(it_run_until(p.f.base, &ev.uncounted[1], 2000));
        CHECK_MSG(it_has(ev.detail[1], "clock moved +"), "detail: %s", ev.detail[1]);
    }
    struct it_op op = {p.f.base};
    CHECK_RC(b, redlock_try_acquire_async(b, 10000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 2000);
    redlock_node_result r;
    node_result(b, 1, &r);
    int64_t va = redlock_lock_validity(a);
    check_note("guard %s: B %s (%s); B's vote on master 1: %s (%s)", guard ? "on" : "off",
               redlock_strerror(op.status), it_errstr(b), redlock_vote_name(r.vote), r.detail);
    CHECK_GT(va, 0);
    int both = op.status == REDLOCK_OK && redlock_lock_validity(b) > 0;
    if (guard)
        check_clock_guard_kept_master1_out(&p, cb, b, op.status, &r, res);
    px_fix_stop(&p);
    return both;
}

TEST(assume_clock_guard_keeps_a_jumped_master_out)
{
    CHECK_EQ(clock_story(1, "clock-guarded"), 0);
}

TEST(assume_clock_jump_without_the_guard_gives_two_holders)
{
    CHECK_EQ(clock_story(0, "clock-unguarded"), 1);
}

/* ---- configuration ------------------------------------------------------- */

TEST(assume_config_reported_and_not_counted_when_strict)
{
    struct it_fix f = {0};
    struct guard_events ev = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    /* 0: evicts keys with a ttl (persists); 1: safe; 2: persists nothing */
    cmd_ok(f.s, 0, "CONFIG SET maxmemory-policy %s", "allkeys-lru", NULL);
    cmd_ok(f.s, 0, "CONFIG SET appendonly %s", "yes", NULL);
    cmd_ok(f.s, 1, "CONFIG SET appendonly %s", "yes", NULL);
    redlock_options o;
    it_opts(&o);
    o.retry_count = 0;
    guard_events_watch(&o, &ev);
    redlock_client *c = it_fix_client(&f, &o);
    redlock_lock *l = it_fix_lock(&f, c, "config");
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    CHECK_GE(redlock_lock_nodes_ok(l), 2);     /* reported, still counted */
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    CHECK_EQ(ev.unsafe[0], 1);
    CHECK_MSG(it_has(ev.detail[0], "allkeys-lru"), "detail: %s", ev.detail[0]);
    CHECK_EQ(ev.unsafe[1], 0);
    CHECK_EQ(ev.unsafe[2], 1);
    CHECK_MSG(it_has(ev.detail[2], "persists nothing"), "detail: %s", ev.detail[2]);
    unsigned want[3] = { REDLOCK_GUARD_EVICTS, 0, REDLOCK_GUARD_NO_PERSIST };
    for (size_t i = 0; i < 3; i++) {
        redlock_node_stats st;
        node_stats(c, i, &st);
        CHECK_EQ(st.guard_flags, want[i]);
        CHECK_EQ(st.counted, 1);
        CHECK_EQ(!st.guard_detail[0], !want[i]);
    }

    o.strict = 1;
    o.node_cb = NULL;
    redlock_client *cs = it_fix_client(&f, &o);
    redlock_lock *ls = it_fix_lock(&f, cs, "config");
    CHECK_RC(ls, redlock_try_acquire(ls, 10000), REDLOCK_EUNCOUNTED);
    CHECK_MSG(it_has(redlock_lock_errstr(ls), "strict"), "errstr: %s", redlock_lock_errstr(ls));
    redlock_node_result r;
    node_result(ls, 1, &r);     /* ok, or not read yet when the two decided */
    CHECK(r.vote == REDLOCK_VOTE_OK || r.vote == REDLOCK_VOTE_NONE);
    for (size_t i = 0; i < 3; i += 2) {
        redlock_node_stats st;
        node_result(ls, i, &r);
        CHECK_EQ(r.vote, REDLOCK_VOTE_UNCOUNTED);
        node_stats(cs, i, &st);
        CHECK_EQ(st.counted, 0);
        CHECK_EQ(st.counted_in_ms, -1);
    }
    CHECK_EQ(it_wait_count(f.s, "config", 6, 0, 2000), 0);     /* rolled back */
    it_fix_stop(&f);
}

TEST(assume_guard_options_checked)
{
    static const char *const addr[1] = { "127.0.0.1:1" };
    redlock_client *c = NULL;
    redlock_options o;
    char err[200];
    redlock_options_init(&o);
    o.restart_guard_ms = -2;
    CHECK_EQ(redlock_client_new(&c, NULL, addr, 1, &o, err, sizeof err), REDLOCK_EINVAL);
    CHECK_MSG(it_has(err, "restart_guard_ms"), "err: %s", err);
    redlock_options_init(&o);
    o.clock_guard_ms = ((int64_t)1 << 40) + 1;
    CHECK_EQ(redlock_client_new(&c, NULL, addr, 1, &o, err, sizeof err), REDLOCK_EINVAL);
    CHECK_MSG(it_has(err, "clock_guard_ms"), "err: %s", err);
    CHECK(c == NULL);
    CHECK_EQ(strcmp(redlock_vote_name(REDLOCK_VOTE_UNCOUNTED), "uncounted"), 0);
    CHECK(it_has(redlock_strerror(REDLOCK_EUNCOUNTED), "not counted"));
}

/* An ACL user without INFO and CONFIG: the guards cannot judge the master.
 * It is reported (REDLOCK_GUARD_UNKNOWN) and counted, unless strict. */
TEST(assume_acl_without_info_and_config)
{
    struct it_fix f = {0};
    struct guard_events ev = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "ACL SETUSER locker on >pw ~* +@all -info -config");
        CHECK(r && r->type == REDIS_REPLY_STATUS);
        freeReplyObject(r);
    }
    redlock_options o;
    it_opts(&o);
    o.retry_count = 0;
    o.restart_guard_ms = -1;    /* on: it cannot see restarts here */
    o.user = "locker";
    o.password = "pw";
    guard_events_watch(&o, &ev);
    redlock_client *c = it_fix_client(&f, &o);
    redlock_lock *l = it_fix_lock(&f, c, "acl");
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    CHECK_GE(redlock_lock_nodes_ok(l), 2);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    for (size_t i = 0; i < 3; i++) {
        redlock_node_stats st;
        node_stats(c, i, &st);
        CHECK_EQ(st.guard_flags & REDLOCK_GUARD_UNKNOWN, (unsigned)REDLOCK_GUARD_UNKNOWN);
        CHECK_EQ(st.uptime_s, -1);
        CHECK_EQ(st.counted, 1);
        CHECK_EQ(ev.unsafe[i], 1);
        /* whole: every step, to the last */
        CHECK_MSG(strcmp(ev.detail[i], "INFO server, persistence refused (NOPERM); CONFIG GET "
                                       "maxmemory-policy, appendonly, appendfsync, "
                                       "no-appendfsync-on-rewrite, save refused (NOPERM)") == 0,
                  "detail: %s", ev.detail[i]);
    }
    o.strict = 1;
    o.node_cb = NULL;
    redlock_client *cs = it_fix_client(&f, &o);
    redlock_lock *ls = it_fix_lock(&f, cs, "acl");
    CHECK_RC(ls, redlock_try_acquire(ls, 10000), REDLOCK_EUNCOUNTED);
    it_fix_stop(&f);
}
