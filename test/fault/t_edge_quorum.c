/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_edge_quorum.c -- every count of a lock's masters is against the lock's
 * own quorum (a semaphore's q), not a majority, against real
 * redis-servers:
 *
 *   edge_quorum_clock_jump_*   a master's clock jumps ahead under three
 *                              holders of a 3-permit semaphore on 5 masters
 *                              (q = 4), each holding 4 masters with it: the
 *                              other 3 are a majority but no q, so every
 *                              holder is lost (REDLOCK_LOST_CLOCK), and a
 *                              fresh client's fourth permit never coexists
 *                              with a valid holder;
 *   edge_quorum_refusals_*     a semaphore's extend or release refused by
 *                              2 of 5 masters: 3 may still hold the permit,
 *                              a majority but no q, so it is lost (REFUSED,
 *                              ENOTOWNER).
 */
#include "itest.h"
#include "fixture.h"

#include <stdio.h>
#include <string.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

#define RES "edge-q"
#define N 5
#define P 3

/* A 3-permit semaphore handle on RES of client c, freed by it_fix_stop. */
static redlock_lock *sem_lock(struct it_fix *f, redlock_client *c)
{
    redlock_lock *l = NULL;
    CHECK_LT(f->nlocks, IT_FIX_MAX);
    CHECK_RC(NULL, redlock_lock_new_semaphore(&l, c, RES, strlen(RES), P), 0);
    f->locks[f->nlocks++] = l;
    CHECK_EQ(redlock_lock_quorum(l), 4);
    return l;
}

static void command_ok(rlt_servers *s, int i, const char *cmd)
{
    redisReply *r = rlt_servers_command(s, i, cmd);
    CHECK_MSG(r && r->type != REDIS_REPLY_ERROR, "server %d: %s: %s", i, cmd,
              r && r->str ? r->str : "no reply");
    freeReplyObject(r);
}

/* Master i's P permits taken by others (its take script then refuses), or
 * given back. */
static void fill(rlt_servers *s, int i, int on)
{
    if (on) {
        command_ok(s, i, "HSET " RES " # 3 x1 1 x2 1 x3 1");
        command_ok(s, i, "SET {" RES "}:s:x1 1 PX 60000");
        command_ok(s, i, "SET {" RES "}:s:x2 1 PX 60000");
        command_ok(s, i, "SET {" RES "}:s:x3 1 PX 60000");
    } else {
        command_ok(s, i, "DEL {" RES "}:s:x1 {" RES "}:s:x2 {" RES "}:s:x3");
        command_ok(s, i, "HDEL " RES " x1 x2 x3");
    }
}

/* The key of l's permit on the masters. */
static const char *permit_key(char *buf, size_t size, const redlock_lock *l)
{
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    snprintf(buf, size, "{" RES "}:s:%.*s", (int)vlen, v);
    return buf;
}

/* l takes a permit for ttl_ms while master `full` has none free: it holds
 * the 4 others, q exactly.  The acquire is decided at 4 OK: master
 * `full` is given its permits back only once it ran l's script (its
 * scripts are cached: EVALSHA). */
static void take_without(struct it_fix *f, redlock_lock *l, int full, int64_t ttl_ms)
{
    struct it_op op = {f->base};
    redlock_node_result r;
    char key[128];

    fill(f->s, full, 1);
    long long ran = it_calls(f->s, full, "evalsha");
    CHECK_RC(l, redlock_try_acquire_async(l, ttl_ms, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    CHECK_RC(l, op.status, REDLOCK_OK);
    CHECK_GT(it_wait_calls(f->s, full, "evalsha", ran, 3000), ran);
    CHECK_EQ(redlock_lock_node_result(l, (size_t)full, &r), 0);
    CHECK_NE(r.vote, REDLOCK_VOTE_OK);
    permit_key(key, sizeof key, l);
    CHECK_EQ(rlt_servers_count_key(f->s, key, strlen(key)), N - 1);
    fill(f->s, full, 0);
}

/* Every master runs the semaphore's acquire and release scripts once (they
 * are cached after). */
static void warm(struct it_fix *f, redlock_client *c)
{
    redlock_lock *l = sem_lock(f, c);
    struct it_op op = {f->base};
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    CHECK_RC(l, op.status, REDLOCK_OK);
    op = (struct it_op){f->base};
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    CHECK_RC(l, op.status, REDLOCK_OK);
    CHECK_EQ(it_wait_nodes_ok(f->base, l, N, 3000), N);    /* held, then released, on all */
}

/* Master `node`'s copy of l's permit ends (its clock ran ahead). */
static void expire_on(rlt_servers *s, int node, const redlock_lock *l)
{
    char key[128];
    it_del(s, node, permit_key(key, sizeof key, l));
}

/* How many masters refused l's last operation. */
static int refused(const redlock_lock *l)
{
    int k = 0;
    for (size_t i = 0; i < N; i++) {
        redlock_node_result r;
        CHECK_EQ(redlock_lock_node_result(l, i, &r), 0);
        k += r.vote == REDLOCK_VOTE_REFUSED;
    }
    return k;
}

/* Run the loop until the three notices came, at most timeout_ms. */
static int notices(struct event_base *base, const struct lost_notice *w, int64_t timeout_ms)
{
    int64_t end = check_now_ms() + timeout_ms;
    int n;
    while ((n = w[0].fired + w[1].fired + w[2].fired) < 3 && check_now_ms() < end)
        it_run(base, 20);
    return n;
}

/* The case: A, B and C each hold 4 masters, 0 among them (A
 * lacks 4, B lacks 3, C lacks 2); master 0's clock jumps 30 s ahead and
 * its permits end.  Each holder's other masters are 3, a majority but no
 * q: all three are lost at once.  A fresh client (it never saw the jump)
 * then takes the permits that ended, plus the free one on 2, 3 and 4: a
 * fourth holder, and the only one with validity. */
TEST(edge_quorum_clock_jump_ends_a_semaphores_holders_below_q)
{
    struct it_fix f = {0};
    struct guard_events ev = {0};
    struct lost_notice w[3];
    const char *addrs[N] = {0};
    char buf[32];
    redlock_options o;
    redlock_lock *h[4];

    it_fix_start(&f, N, NULL, IT_ASYNC | IT_NOCLIENT);
    rlp_thread *px = proxy_in_front(&f, 0, buf, sizeof buf, addrs);
    it_opts(&o);
    o.retry_count = 0;
    o.clock_probe_ms = 50;
    o.clock_guard_ms = -1;
    guard_events_watch(&o, &ev);
    redlock_client *c = it_client_new(f.base, addrs, N, &o);
    f.clients[f.nclients++] = c;
    CHECK_EQ(it_async_wait_connected(f.base, c, N, 5000), 0);
    warm(&f, c);
    for (int i = 0; i < 3; i++) {
        w[i] = (struct lost_notice){f.base};
        h[i] = sem_lock(&f, c);
        CHECK_EQ(redlock_lock_on_lost(h[i], lost_notice_cb, &w[i]), 0);
        take_without(&f, h[i], 4 - i, 20000);
    }
    it_wait_clock_samples(f.base, c, 3, 5000);     /* samples before the jump */
    CHECK_EQ(notices(f.base, w, 0), 0);

    int64_t t0 = check_now_ms();
    for (int i = 0; i < 3; i++)
        expire_on(f.s, 0, h[i]);
    ev.base = f.base;
    rlp_thread_set_timeshift(px, 30);
    CHECK_MSG(it_run_until(f.base, &ev.uncounted[0], 5000), "the jump not seen within 5 s");
    int n = notices(f.base, w, 2000);
    check_note("jump seen %lld ms after it; %d notices; validity %lld, %lld, %lld ms",
               (long long)(ev.uncounted_ms[0] - t0), n, (long long)redlock_lock_validity(h[0]),
               (long long)redlock_lock_validity(h[1]), (long long)redlock_lock_validity(h[2]));

    /* the fourth holder, on a client of its own */
    redlock_options od;
    it_opts(&od);
    od.retry_count = 0;
    redlock_client *d = it_client_new(f.base, addrs, N, &od);
    f.clients[f.nclients++] = d;
    CHECK_EQ(it_async_wait_connected(f.base, d, N, 5000), 0);
    h[3] = sem_lock(&f, d);
    struct it_op op = {f.base};
    CHECK_RC(h[3], redlock_try_acquire_async(h[3], 20000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    CHECK_RC(h[3], op.status, REDLOCK_OK);
    CHECK_EQ(op.nodes_ok, 4);   /* 0, 2, 3 and 4: q */
    int valid = 0;
    for (int i = 0; i < 4; i++)
        valid += redlock_lock_validity(h[i]) > 0;
    CHECK_MSG(valid <= P, "%d holders of a %d-permit semaphore with validity", valid, P);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(w[i].fired, 1);
        CHECK_EQ(w[i].reason, REDLOCK_LOST_CLOCK);
        CHECK_EQ(w[i].validity, 0);
        CHECK_EQ(redlock_lock_validity(h[i]), 0);
    }
    it_fix_stop(&f);
    rlp_thread_stop(px);
}

/* l takes a permit for 20 s, held on all N masters. */
static void take_all(struct it_fix *f, redlock_lock *l)
{
    struct it_op op = {f->base};
    char key[128];

    CHECK_RC(l, redlock_try_acquire_async(l, 20000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    CHECK_RC(l, op.status, REDLOCK_OK);
    permit_key(key, sizeof key, l);
    CHECK_EQ(it_wait_count(f->s, key, strlen(key), N, 2000), N);
}

/* A and B hold a permit on all 5 masters; each permit ends on 3 and 4 (as
 * if expired).  A's extend and B's release: 3 OK, 2 refused.  The 3
 * masters that may still hold a permit are a majority but no q: A's
 * permit is lost (ENOTOWNER, validity 0, the notice REDLOCK_LOST_REFUSED),
 * not kept until its old end; B's release says it no longer held it
 * (ENOTOWNER), not that it gave back a permit it held. */
TEST(edge_quorum_refusals_below_q_end_the_permit)
{
    struct it_fix f = {0};
    struct lost_notice w = {0};
    struct it_op op;

    it_fix_start(&f, N, NULL, IT_ASYNC | IT_NOCLIENT);
    redlock_client *c = it_fix_client(&f, NULL);
    redlock_lock *a = sem_lock(&f, c), *b = sem_lock(&f, c);
    w.base = f.base;
    CHECK_EQ(redlock_lock_on_lost(a, lost_notice_cb, &w), 0);
    take_all(&f, a);
    take_all(&f, b);
    for (int i = 3; i < N; i++) {
        expire_on(f.s, i, a);
        expire_on(f.s, i, b);
    }
    op = (struct it_op){f.base};
    CHECK_RC(a, redlock_extend_async(a, 20000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    CHECK_RC(a, op.status, REDLOCK_ENOTOWNER);
    CHECK_EQ(refused(a), 2);
    CHECK_EQ(op.validity, 0);
    CHECK_MSG(it_run_until(f.base, &w.fired, 1000), "no lost-lock notice");
    CHECK_EQ(w.reason, REDLOCK_LOST_REFUSED);

    op = (struct it_op){f.base};
    CHECK_RC(b, redlock_release_async(b, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 3000);
    CHECK_RC(b, op.status, REDLOCK_ENOTOWNER);
    CHECK_EQ(refused(b), 2);
    it_fix_stop(&f);
}

/* A master's clock seen jumping ahead while an acquire is on its way: its
 * OK came before the jump was seen, and without it the OKs are no quorum
 * (master 2 down, master 1 slow).  The acquire must not be won on it: the
 * key on master 0 may have expired already (the held locks are ended by
 * the check above; this is the one still being won). */
TEST(edge_quorum_clock_jump_during_an_acquire_takes_back_its_ok)
{
    struct it_fix f = {0};
    struct guard_events ev = {0};
    const char *addrs[3] = {0};
    char buf0[32], buf1[32];
    redlock_options o;
    redlock_lock *l;
    const char *res = "edge-jump";

    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    rlp_thread *px0 = proxy_in_front(&f, 0, buf0, sizeof buf0, addrs);
    rlp_thread *px1 = proxy_in_front(&f, 1, buf1, sizeof buf1, addrs);
    it_opts(&o);
    o.retry_count = 0;
    o.node_timeout_ms = 1500;   /* master 1's OK comes, 600 ms late */
    o.clock_probe_ms = 50;
    o.clock_guard_ms = -1;
    guard_events_watch(&o, &ev);
    redlock_client *c = it_client_new(f.base, addrs, 3, &o);
    f.clients[f.nclients++] = c;
    CHECK_EQ(it_async_wait_connected(f.base, c, 3, 5000), 0);
    CHECK_EQ(redlock_lock_new(&l, c, res, strlen(res)), 0);
    it_wait_clock_samples(f.base, c, 3, 5000);     /* samples before the jump */
    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);
    rlp_thread_set_latency(px1, 1, 600, 0);

    struct it_op op = {f.base};
    uint64_t oks0 = it_node_oks(c, 0);
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &op), REDLOCK_OK);
    int64_t end = check_now_ms() + 3000;    /* master 0's OK read */
    while (it_node_oks(c, 0) == oks0 && check_now_ms() < end)
        it_run(f.base, 1);
    CHECK_EQ(it_node_oks(c, 0), oks0 + 1);
    CHECK_EQ(op.done, 0);
    rlp_thread_set_timeshift(px0, 30);
    ev.base = f.base;
    end = check_now_ms() + 400;
    while (!ev.uncounted[0] && check_now_ms() < end)
        it_run(f.base, 10);
    CHECK_MSG(ev.uncounted[0] > 0, "the jump was not seen before master 1 answered");
    CHECK_EQ(op.done, 0);
    it_op_wait(&op, 3000);
    CHECK_MSG(op.status != REDLOCK_OK, "won on the OK of a master whose clock jumped: %s",
              redlock_lock_errstr(l));
    CHECK_EQ(redlock_lock_validity(l), 0);
    CHECK_MSG(strstr(redlock_lock_errstr(l), "clock jumped ahead") != NULL, "%s",
              redlock_lock_errstr(l));
    redlock_lock_free(l);
    rlp_thread_stop(px0);
    rlp_thread_stop(px1);
    it_fix_stop(&f);
}
