/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_guard_stale.c -- what the guards know is read again (guard.c), against
 * real redis-servers:
 *
 *   guard_stale_config_*  a CONFIG SET after the handshake is seen within
 *                         the re-reading period (5 x clock_probe_ms), by
 *                         one INFO and five CONFIG GETs per master per
 *                         period, not per lock;
 *   guard_stale_clock_*   a master clock that jumps ahead under a held lock
 *                         with only a lost-lock notice: the notice comes
 *                         within a few probe periods, not at the expiry.
 */
#include "itest.h"
#include "fixture.h"

#include <stdio.h>
#include <string.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

static void config_set(rlt_servers *s, int i, const char *name, const char *value)
{
    redisReply *r = rlt_servers_command(s, i, "CONFIG SET %s %s", name, value);
    CHECK_MSG(r && r->type == REDIS_REPLY_STATUS, "server %d: CONFIG SET %s %s", i, name, value);
    if (r)
        freeReplyObject(r);
}

static int acquire_release(struct event_base *base, redlock_lock *l)
{
    struct it_op op = {base};
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    if (op.status != REDLOCK_OK)
        return op.status;
    op = (struct it_op){base};
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    return 0;
}

#define PROBE_MS 100    /* the configuration is read again every 500 ms */

/* A strict client (probing every PROBE_MS, its guard events into ev) on
 * f's masters, connected to all three. */
static redlock_client *strict_client(struct it_fix *f, struct guard_events *ev)
{
    redlock_options o;
    it_opts(&o);
    o.retry_count = 0;
    o.strict = 1;
    o.clock_probe_ms = PROBE_MS;
    guard_events_watch(&o, ev);
    redlock_client *c = it_client_new(f->base, rlt_servers_addrs(f->s), 3, &o);
    f->clients[f->nclients++] = c;
    CHECK_EQ(it_async_wait_connected(f->base, c, 3, 5000), 0);
    return c;
}

/* Plain locks for 1.2 s (100 at least): master 0's configuration is read
 * again once a period, not once a lock. */
static void check_reread_per_period(struct it_fix *f, redlock_lock *l)
{
    long long info0 = it_calls(f->s, 0, "info"), cfg0 = it_calls(f->s, 0, "config|get");
    int64_t t0 = check_now_ms();
    int cycles = 0;
    while (check_now_ms() - t0 < 1200 || cycles < 100) {
        CHECK_EQ(acquire_release(f->base, l), 0);
        cycles++;
    }
    int64_t span = check_now_ms() - t0;
    long long infos = it_calls(f->s, 0, "info") - info0;
    long long cfgs = it_calls(f->s, 0, "config|get") - cfg0;
    check_note("%d lock cycles in %lld ms: master 0 ran INFO %lld and CONFIG GET %lld times",
               cycles, (long long)span, infos, cfgs);
    /* (the counts include this test's own INFO commandstats, and a
     * re-reading may straddle them) */
    CHECK_GE(cfgs, 5);                              /* read again at all */
    CHECK_LE(cfgs, 5 * (span / (5 * PROBE_MS) + 2));  /* once a period */
    CHECK_LE(infos, span / (5 * PROBE_MS) + 4);
}

/* An operator makes masters 0 and 1 evict keys with a ttl: both are
 * reported and not counted, master 0's vote says why. */
static void check_eviction_seen(struct it_fix *f, redlock_client *c, redlock_lock *l,
                                struct guard_events *ev)
{
    ev->base = f->base;
    int64_t set_ms = check_now_ms();
    config_set(f->s, 0, "maxmemory-policy", "allkeys-lru");
    config_set(f->s, 1, "maxmemory-policy", "volatile-ttl");
    for (int i = 0; i < 2; i++) {
        CHECK_MSG(it_run_until(f->base, &ev->uncounted[i], 10000), "node %d: no event", i);
        CHECK_MSG(it_has(ev->detail[i], "strict") && it_has(ev->detail[i], i ? "volatile-ttl"
                                                                               : "allkeys-lru"),
                  "detail: %s", ev->detail[i]);
    }
    check_note("seen %lld and %lld ms after the CONFIG SET (period %d ms)",
               (long long)(ev->uncounted_ms[0] - set_ms),
               (long long)(ev->uncounted_ms[1] - set_ms), 5 * PROBE_MS);
    CHECK_EQ(ev->unsafe[0], 1);
    CHECK_EQ(ev->uncounted[2], 0);
    CHECK_EQ(acquire_release(f->base, l), REDLOCK_EUNCOUNTED);
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(l, 0, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_UNCOUNTED);
    CHECK_MSG(it_has(r.detail, "allkeys-lru"), "node 0: %s", r.detail);
    redlock_node_stats st;
    CHECK_EQ(redlock_client_node_stats(c, 1, &st), 0);
    CHECK_EQ(st.guard_flags, (unsigned)REDLOCK_GUARD_EVICTS);
    CHECK_EQ(st.counted, 0);
}

TEST(guard_stale_config_set_at_run_time_is_seen_by_strict)
{
    struct it_fix f = {0};
    struct guard_events ev = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    for (int i = 0; i < 3; i++)
        config_set(f.s, i, "appendonly", "yes");    /* safe as the client first sees them */
    redlock_client *c = strict_client(&f, &ev);
    redlock_lock *l = it_fix_lock(&f, c, "stale-config");

    check_reread_per_period(&f, l);
    CHECK_EQ(ev.unsafe[0] + ev.uncounted[0] + ev.uncounted[1], 0);
    check_eviction_seen(&f, c, l, &ev);
    /* and back: they count again */
    config_set(f.s, 0, "maxmemory-policy", "noeviction");
    config_set(f.s, 1, "maxmemory-policy", "noeviction");
    for (int i = 0; i < 2; i++)
        CHECK_MSG(it_run_until(f.base, &ev.counted[i], 10000), "node %d: no event", i);
    CHECK_EQ(acquire_release(f.base, l), 0);
    it_fix_stop(&f);
}

static void acquire_20s(struct event_base *base, redlock_lock *l)
{
    struct it_op op = {base};
    CHECK_RC(l, redlock_try_acquire_async(l, 20000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    CHECK_RC(l, op.status, REDLOCK_OK);
}

/* Masters 0 and 1 grant the lock (2 is down); master 1's clock jumps 30 s
 * ahead (its TIME replies, through a proxy), which expires its keys early.
 * The lock with a notice hears it within a few probe periods, long before
 * its 20 s validity ends; a lock without one reads validity 0. */
TEST(guard_stale_clock_jump_tells_the_lock_at_once)
{
    struct px_fix p;
    px_fix_start(&p, 3);
    struct it_fix *f = &p.f;
    CHECK_EQ(rlt_servers_kill(f->s, 2), 0);
    redlock_options o;
    it_opts(&o);
    o.retry_count = 0;
    o.clock_probe_ms = 50;
    o.clock_guard_ms = -1;
    redlock_client *c = px_fix_client(&p, &o);
    CHECK_EQ(it_async_wait_connected(f->base, c, 2, 5000), 0);
    redlock_lock *l = it_fix_lock(f, c, "stale-clock");
    redlock_lock *quiet = it_fix_lock(f, c, "stale-quiet");
    struct lost_notice w = {f->base};
    CHECK_EQ(redlock_lock_on_lost(l, lost_notice_cb, &w), 0);
    acquire_20s(f->base, l);
    acquire_20s(f->base, quiet);
    it_run(f->base, 200);        /* samples before the jump */
    CHECK_EQ(w.fired, 0);

    int64_t t0 = check_now_ms();
    rlp_thread_set_timeshift(p.px[1], 30);
    CHECK_MSG(it_run_until(f->base, &w.fired, 5000), "no notice within 5 s");
    check_note("notice %lld ms after the jump (probe period 50 ms, validity left %lld ms)",
               (long long)(w.at_ms - t0), (long long)redlock_lock_validity(quiet));
    CHECK_EQ(w.reason, REDLOCK_LOST_CLOCK);
    CHECK_EQ(w.validity, 0);
    CHECK_EQ(redlock_lock_validity(l), 0);
    CHECK_EQ(redlock_lock_validity(quiet), 0);
    it_run(f->base, 100);
    CHECK_EQ(w.fired, 1);
    redlock_node_stats st;
    CHECK_EQ(redlock_client_node_stats(c, 1, &st), 0);
    CHECK(st.guard_flags & REDLOCK_GUARD_CLOCK);
    px_fix_stop(&p);
}
