/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_slow.c -- safety regressions with slow, hung or late parties (issue 8,
 * defects 1 to 6), against real redis-servers:
 *   1. a failed extend never leaves the client more validity than a quorum
 *      still guarantees (0 after a quorum refused);
 *   2. a lost attempt whose connection was dropped after its SET was written
 *      owes that master a roll-back, delivered after reconnecting; an
 *      extend held on a dropped connection never runs after a newer one
 *      (the next connection kills it first, once);
 *   3. max_pending never refuses roll-backs or releases; acquires refused by
 *      a full queue vote "full" and fail with REDLOCK_EFULL;
 *   4. nothing is written to a master before its handshake succeeded;
 *   5. timeouts count from the real start of an operation, not from
 *      libevent's cached loop time;
 *   6. no acquire attempt starts at or past acquire_timeout_ms.
 * Slow masters are SIGSTOPped servers; state is checked on the servers.
 */
#include "itest.h"
#include "fixture.h"
#include "proxy.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <pthread.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

/* ---- helpers ------------------------------------------------------------ */

struct sl_poll {
    struct event_base *base;
    rlt_servers *s;
    const char *key;
    size_t klen;
    int want;        /* stop when the count equals it ... */
    int absent;      /* ... or, when set, as soon as the key shows up */
    int last;
    int worst;
};

static void sl_poll_cb(evutil_socket_t fd, short what, void *arg)
{
    struct sl_poll *p = arg;
    (void)fd;
    (void)what;
    p->last = rlt_servers_count_key(p->s, p->key, p->klen);
    if (p->last > p->worst)
        p->worst = p->last;
    if (p->absent ? p->last != 0 : p->last == p->want)
        event_base_loopbreak(p->base);
}

static int sl_poll_run(struct sl_poll *p, int64_t timeout_ms)
{
    p->last = p->worst = rlt_servers_count_key(p->s, p->key, p->klen);
    if (p->absent ? p->last != 0 : p->last == p->want)
        return p->last;
    struct event *ev = event_new(p->base, -1, EV_PERSIST, sl_poll_cb, p);
    CHECK(ev != NULL);
    struct timeval tv = {0, 5000};
    CHECK_EQ(event_add(ev, &tv), 0);
    int64_t deadline = check_now_ms() + timeout_ms;
    while (check_now_ms() < deadline && !(p->absent ? p->last != 0 : p->last == p->want))
        it_dispatch(p->base, deadline - check_now_ms());
    event_free(ev);
    return p->last;
}

/* Run the client's loop until the key exists on exactly `want` running
 * servers or timeout_ms passed; the last count. */
static int sl_pump_count(struct event_base *base, rlt_servers *s, const char *key, int want,
                         int64_t timeout_ms)
{
    struct sl_poll p = {base, s, key, strlen(key), want, 0, -1, -1};
    return sl_poll_run(&p, timeout_ms);
}

/* Run the client's loop for ms; the most servers the key was seen on. */
static int sl_pump_absent(struct event_base *base, rlt_servers *s, const char *key, int64_t ms)
{
    struct sl_poll p = {base, s, key, strlen(key), 0, 1, -1, -1};
    sl_poll_run(&p, ms);
    return p.worst;
}

/* The same for a blocking client (whose loop runs only inside its calls). */
static int sl_wait_absent(rlt_servers *s, const char *key, int64_t ms)
{
    int worst = 0;
    int64_t deadline = check_now_ms() + ms;
    do {
        int n = rlt_servers_count_key(s, key, strlen(key));
        CHECK_GE(n, 0);
        worst = n > worst ? n : worst;
        if (worst)
            break;
        usleep(2000);
    } while (check_now_ms() < deadline);
    return worst;
}

/* Run the loop until every request sent so far was answered (or voted on)
 * on every node: requests == votes. */
static void sl_pump_settled(struct event_base *base, redlock_client *c, int64_t timeout_ms)
{
    int64_t deadline = check_now_ms() + timeout_ms;
    for (;;) {
        int settled = 1;
        for (size_t i = 0; i < redlock_client_nodes(c); i++) {
            redlock_node_stats st;
            CHECK_EQ(redlock_client_node_stats(c, i, &st), 0);
            settled &= st.requests ==
                       st.oks + st.refused + st.timeouts + st.errors + st.unreachable;
        }
        if (settled)
            return;
        CHECK_MSG(check_now_ms() < deadline, "requests still unanswered after %lld ms",
                  (long long)timeout_ms);
        it_run(base, 2);
    }
}

/* Run the client's loop until server i ran `cmd` at least `want` times, or
 * timeout_ms passed; the last count. */
static long long sl_pump_calls(struct event_base *base, rlt_servers *s, int i, const char *cmd,
                               long long want, int64_t timeout_ms)
{
    int64_t deadline = check_now_ms() + timeout_ms;
    long long n;
    while ((n = it_calls(s, i, cmd)) < want && check_now_ms() < deadline)
        it_run(base, 2);
    return n;
}

/* A command that must answer +OK (or another status). */
static void sl_status_ok(void *reply, int i, const char *what)
{
    redisReply *r = reply;
    CHECK_MSG(r != NULL && r->type == REDIS_REPLY_STATUS, "server %d: %s", i, what);
    freeReplyObject(r);
}

/* Another owner's value on server i. */
static void sl_set_other(rlt_servers *s, int i, const char *key)
{
    sl_status_ok(rlt_servers_command(s, i, "SET %s someone-else PX 30000", key), i, "SET");
}

/* The invariant: while the lock's validity v is > 0, a quorum of masters
 * holds its value with PTTL >= v (less the time the probe itself took and a
 * few ms).  Every master must be running.  How many back it; -1 when the
 * validity ran out meanwhile (nothing was promised). */
static int sl_check_backed(rlt_servers *s, const char *key, const redlock_lock *l)
{
    size_t klen = strlen(key), vlen = 0;
    const char *val = redlock_lock_value(l, &vlen);
    int n = rlt_servers_count(s), backed = 0;
    int64_t v = 0;
    long long pttl[16] = {0};
    CHECK_LE(n, 16);
    for (int i = 0; i < n; i++) {
        int64_t t0 = check_now_ms();
        v = redlock_lock_validity(l);
        if (v <= 0)
            return -1;  /* nothing promised any more */
        int has = it_has_value(s, i, key, klen, val, vlen);
        pttl[i] = it_pttl(s, i, key, klen);
        int64_t tol = check_now_ms() - t0 + 5;
        if (has == 1 && pttl[i] >= v - tol)
            backed++;
    }
    CHECK_MSG(backed >= n / 2 + 1,
              "validity %lld ms backed by %d masters only (PTTL %lld %lld %lld ...)",
              (long long)v, backed, pttl[0], pttl[1], pttl[2]);
    return backed;
}

/* A blocking client on three masters holding key (ttl ms) on all of them,
 * with nearly all of the ttl still valid; slow: node timeout 100 ms, and
 * hung masters stay connected. */
static redlock_lock *sl_start_held(struct it_fix *f, const char *key, int64_t ttl, int slow)
{
    redlock_options o;
    it_opts(&o);
    if (slow) {
        o.node_timeout_ms = 100;
        o.max_timeouts = 0;
    }
    it_fix_start(f, 3, &o, 0);
    redlock_lock *a = it_fix_lock(f, f->c, key);
    CHECK_RC(a, redlock_try_acquire(a, ttl), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f->s, key, strlen(key), a, 3, 2000), 3);
    CHECK_GT(redlock_lock_validity(a), ttl - 1000);
    return a;
}

/* Three masters and a client on a base: node timeout 200 ms, at most
 * max_timeouts in a row before a node is dropped. */
static void sl_start_200(struct it_fix *f, int max_timeouts)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 200;
    o.max_timeouts = max_timeouts;
    it_fix_start(f, 3, &o, IT_ASYNC);
}

/* No master timed out, none was reconnected, all are connected. */
static void sl_check_no_timeouts(redlock_client *c)
{
    redlock_node_stats st;
    for (size_t i = 0; i < 3; i++) {
        CHECK_EQ(redlock_client_node_stats(c, i, &st), 0);
        CHECK_MSG(st.timeouts == 0, "node %zu: %llu timeouts", i,
                  (unsigned long long)st.timeouts);
        CHECK_MSG(st.connects == 1, "node %zu: %llu connects", i,
                  (unsigned long long)st.connects);
        CHECK_MSG(st.connected == 1, "node %zu not connected", i);
    }
}

/* Three masters and a base, no client yet; another owner holds key on
 * masters 0 and 1, so an attempt of ours is lost unless master 2 decides. */
static void sl_start_other_two(struct it_fix *f, const char *key)
{
    it_fix_start(f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    sl_set_other(f->s, 0, key);
    sl_set_other(f->s, 1, key);
}

/* A try_acquire of ttl 30 s that another owner's values defeat. */
static void sl_attempt_lost(struct it_fix *f, redlock_lock *l)
{
    struct it_op w = {f->base};
    CHECK_RC(l, redlock_try_acquire_async(l, 30000, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_ENOQUORUM);
}

/* ---- 1. a failed extend ------------------------------------------------- */

/* Two of three masters hang: extend(300) times out.  The one master that
 * answered now expires the key 300 ms from now; the two hung ones will when
 * they run the queued extend.  The client may not keep its old ~10 s. */
TEST(safety_failed_extend_timeout_drops_validity)
{
    static const char key[] = "safety:extend-timeout";
    size_t klen = sizeof key - 1;
    struct it_fix f = {0};
    redlock_lock *a = sl_start_held(&f, key, 10000, 1);

    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    int64_t t0 = check_now_ms();
    int rc = redlock_extend(a, 300);
    int64_t took = check_now_ms() - t0;
    int64_t v = redlock_lock_validity(a);
    check_note("extend(300) with 2 of 3 hung: rc %d after %lld ms, validity now %lld ms", rc,
               (long long)took, (long long)v);
    CHECK_RC(a, rc, REDLOCK_ETIMEDOUT);
    CHECK_LE(v, 300);
    CHECK_GE(v, 0);
    CHECK_LE(redlock_lock_nodes_ok(a), 1);

    /* the hang ends: whatever validity is left, a quorum backs it on the
     * servers (the resumed masters run the 300 ms extend now) */
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    check_note("after the hang: %d masters back the validity left", sl_check_backed(f.s, key, a));

    /* the keys expire (the hung masters ran the 300 ms extend late); then
     * someone else gets the lock, and A must know it holds nothing */
    CHECK_EQ(it_wait_count(f.s, key, klen, 0, 3000), 0);
    redlock_lock *b = it_fix_lock(&f, f.c, key);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_OK);
    CHECK_EQ(redlock_lock_validity(a), 0);
    CHECK_GT(redlock_lock_validity(b), 9000);
    CHECK_RC(b, redlock_release(b), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, key, klen), 0);

    it_fix_stop(&f);
}

/* Another owner holds the key on two of three masters: the extend is refused
 * by a quorum (ENOTOWNER) and the validity must be 0 at once. */
TEST(safety_failed_extend_refused_by_quorum_zeroes_validity)
{
    static const char key[] = "safety:extend-refused";
    size_t klen = sizeof key - 1;
    struct it_fix f = {0};
    redlock_lock *a = sl_start_held(&f, key, 10000, 0);
    /* e.g. the key was lost on two masters and another client took it */
    sl_set_other(f.s, 0, key);
    sl_set_other(f.s, 1, key);

    CHECK_RC(a, redlock_extend(a, 10000), REDLOCK_ENOTOWNER);
    CHECK_EQ(redlock_lock_validity(a), 0);
    CHECK_LE(redlock_lock_nodes_ok(a), 1);
    /* the other owner's keys are untouched */
    CHECK_EQ(it_count_value(f.s, key, klen, "someone-else", 12), 2);

    it_fix_stop(&f);
}

/* One master refused (not a quorum), one hung: the extend fails and the
 * validity is at most what the new ttl measured from the extend's start
 * leaves, since the master that answered OK now expires the key then. */
TEST(safety_failed_extend_mixed_failure_caps_validity)
{
    static const char key[] = "safety:extend-mixed";
    struct it_fix f = {0};
    redlock_lock *a = sl_start_held(&f, key, 10000, 1);
    sl_set_other(f.s, 0, key);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);

    int64_t t0 = check_now_ms();
    int rc = redlock_extend(a, 300);
    int64_t v = redlock_lock_validity(a);
    check_note("extend(300), 1 refused + 1 hung: rc %d after %lld ms, validity %lld ms", rc,
               (long long)(check_now_ms() - t0), (long long)v);
    CHECK_MSG(rc == REDLOCK_ETIMEDOUT || rc == REDLOCK_ENOTOWNER, "rc %d: %s", rc,
              it_errstr(a));
    CHECK_LE(v, 300);
    CHECK_GE(v, 0);

    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    sl_check_backed(f.s, key, a);
    it_fix_stop(&f);
}

/* A failed extend with a longer ttl never lengthens the validity: it stays
 * at most what the acquire gave (min(old end, ...)), and, since no quorum
 * refused, the old end still counts. */
TEST(safety_failed_extend_never_lengthens_validity)
{
    static const char key[] = "safety:extend-longer";
    struct it_fix f = {0};
    redlock_lock *a = sl_start_held(&f, key, 3000, 1);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    int64_t before = redlock_lock_validity(a);
    CHECK_RC(a, redlock_extend(a, 60000), REDLOCK_ETIMEDOUT);
    int64_t after = redlock_lock_validity(a);
    check_note("extend(60000) failed: validity %lld -> %lld ms", (long long)before,
               (long long)after);
    CHECK_LE(after, before);
    CHECK_GT(after, 0);

    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    sl_check_backed(f.s, key, a);
    it_fix_stop(&f);
}

/* ---- 2. a roll-back owed to a dropped connection ------------------------ */

struct owed_chain {
    struct it_op x;          /* the first attempt */
    struct it_op *y;         /* the second, started from x's callback */
    redlock_lock *ly;
    int y_start_rc;
};

static void owed_x_cb(redlock_lock *l, int status, void *privdata)
{
    struct owed_chain *ch = privdata;
    (void)l;
    ch->x.done++;
    ch->x.status = status;
    /* x lost because two masters timed out; with max_timeouts 1 their
     * connections are about to be dropped: y's SET goes out on them first */
    ch->y_start_rc = redlock_try_acquire_async(ch->ly, 30000, it_op_cb, ch->y);
    if (ch->y_start_rc != 0)
        event_base_loopbreak(ch->x.base);
}

TEST(safety_rollback_owed_after_dropped_connection)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 100;
    o.max_timeouts = 1;              /* one timeout drops the connection */
    o.connect_timeout_ms = 5000;     /* reconnections outlast the hang */
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, IT_ASYNC);
    static const char kx[] = "safety:owed-x", ky[] = "safety:owed-y";
    redlock_lock *x = it_fix_lock(&f, f.c, kx);
    redlock_lock *y = it_fix_lock(&f, f.c, ky);
    struct it_op wy = {f.base};
    struct owed_chain ch = {{f.base}, &wy, y, -100};

    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    int64_t t0 = check_now_ms();
    CHECK_RC(x, redlock_try_acquire_async(x, 30000, owed_x_cb, &ch), REDLOCK_OK);
    it_op_wait(&wy, 5000);
    CHECK_EQ(ch.x.done, 1);
    CHECK_RC(x, ch.x.status, REDLOCK_ETIMEDOUT);
    CHECK_RC(y, ch.y_start_rc, REDLOCK_OK);
    CHECK_MSG(wy.status == REDLOCK_ECONNECT || wy.status == REDLOCK_ETIMEDOUT, "y: %d %s",
              wy.status, it_errstr(y));
    CHECK_EQ(redlock_lock_validity(y), 0);

    /* the hang lasts 400 ms; then the masters run whatever reached them */
    int64_t rest = 400 - (check_now_ms() - t0);
    if (rest > 0)
        it_run(f.base, rest);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 3, 5000), 0);

    /* neither lost attempt may keep its key (ttl 30 s) on any master */
    int left_y = sl_pump_count(f.base, f.s, ky, 0, 3000);
    int left_x = sl_pump_count(f.base, f.s, kx, 0, 1000);
    check_note("after reconnecting: y's key on %d masters (PTTL %lld %lld %lld), x's on %d",
               left_y, it_pttl(f.s, 0, ky, strlen(ky)), it_pttl(f.s, 1, ky, strlen(ky)),
               it_pttl(f.s, 2, ky, strlen(ky)), left_x);
    CHECK_EQ(left_y, 0);
    CHECK_EQ(left_x, 0);
    /* and nothing still buffered runs later */
    CHECK_EQ(sl_pump_absent(f.base, f.s, ky, 300), 0);
    /* the undo went behind a kill of the connection that carried the SET */
    for (int i = 1; i <= 2; i++)
        CHECK_GE(it_calls(f.s, i, "client|kill"), 1);
    CHECK_EQ(it_calls(f.s, 0, "client|kill"), 0);

    it_fix_stop(&f);
}

/* ---- 2b. a late extend on a dropped connection -------------------------- */

#define LX_LATE_MS 1500     /* how long proxies 1 and 2 hold a slow extend */

/* Connections proxies 1 and 2 carry for a held lock (its own and the
 * client's second one, the holder's channel): lx_start's count. */
static int lx_conns[3];

/* Three masters behind proxies; a client whose one timeout drops the
 * connection, and a lock on key held for 10 s. */
static redlock_lock *lx_start(struct px_fix *p, const char *key)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 100;
    o.max_timeouts = 1;
    o.connect_timeout_ms = 5000;
    px_fix_start(p, 3);
    redlock_client *c = px_fix_client(p, &o);
    CHECK_EQ(it_async_wait_connected(p->f.base, c, 3, 5000), 0);
    redlock_lock *l = it_fix_lock(&p->f, c, key);
    struct it_op op = {p->f.base};
    CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, &op), REDLOCK_OK);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, REDLOCK_OK);
    sl_pump_settled(p->f.base, c, 3000);
    for (int i = 1; i <= 2; i++) {
        rlp_stats st;
        rlp_thread_stats(p->px[i], &st);
        lx_conns[i] = st.conns;
    }
    return l;
}

struct lx_op {
    struct it_op op;
    struct px_fix *p;
};

/* The slow extend failed: masters 1 and 2 answer at once from now on, so
 * that the reconnections (due 10 ms after the drop) are not held. */
static void lx_cb(redlock_lock *l, int status, void *privdata)
{
    struct lx_op *w = privdata;
    rlp_thread_set_latency(w->p->px[1], RLP_UP, 0, 0);
    rlp_thread_set_latency(w->p->px[2], RLP_UP, 0, 0);
    it_op_cb(l, status, &w->op);
}

/* An extend of ttl_ms that masters 1 and 2 get LX_LATE_MS late: it times out,
 * their connections are dropped with it still held in their proxies, and
 * the client connects again. */
static void lx_extend_times_out(struct px_fix *p, redlock_lock *l, int64_t ttl_ms)
{
    redlock_client *c = p->f.clients[0];
    struct lx_op w = {{p->f.base}, p};
    redlock_node_stats st[3];
    uint64_t before[3];
    for (size_t i = 1; i <= 2; i++) {
        CHECK_EQ(redlock_client_node_stats(c, i, &st[i]), 0);
        before[i] = st[i].connects;
    }
    rlp_thread_set_latency(p->px[1], RLP_UP, LX_LATE_MS, 0);
    rlp_thread_set_latency(p->px[2], RLP_UP, LX_LATE_MS, 0);
    CHECK_RC(l, redlock_extend_async(l, ttl_ms, lx_cb, &w), REDLOCK_OK);
    it_op_wait(&w.op, 5000);
    CHECK_RC(l, w.op.status, REDLOCK_ETIMEDOUT);
    CHECK_GT(redlock_lock_validity(l), 0);
    /* the drop may follow the callback: wait for the new connections */
    int64_t deadline = check_now_ms() + 5000;
    for (;;) {
        int again = 1;
        for (size_t i = 1; i <= 2; i++) {
            CHECK_EQ(redlock_client_node_stats(c, i, &st[i]), 0);
            again &= st[i].connects > before[i] && st[i].connected;
        }
        if (again || check_now_ms() >= deadline)
            break;
        it_run(p->f.base, 2);
    }
    CHECK_MSG(st[1].connects > before[1] && st[1].connected && st[2].connects > before[2] &&
              st[2].connected, "masters 1, 2: connects %llu, %llu (before %llu, %llu)",
              (unsigned long long)st[1].connects, (unsigned long long)st[2].connects,
              (unsigned long long)before[1], (unsigned long long)before[2]);
    CHECK_EQ(it_async_wait_connected(p->f.base, c, 3, 5000), 0);
}

/* Until proxies 1 and 2 keep only the client's current connections: every
 * request held on an older one was delivered (then its EOF) or dropped
 * (its server side killed). */
static void lx_wait_flushed(struct px_fix *p)
{
    int64_t deadline = check_now_ms() + 3 * LX_LATE_MS;
    rlp_stats s1, s2;
    for (;;) {
        rlp_thread_stats(p->px[1], &s1);
        rlp_thread_stats(p->px[2], &s2);
        if ((s1.conns <= lx_conns[1] && s2.conns <= lx_conns[2]) || check_now_ms() >= deadline)
            break;
        it_run(p->f.base, 5);
    }
    CHECK_MSG(s1.conns <= lx_conns[1] && s2.conns <= lx_conns[2],
              "proxies 1, 2 still hold %d, %d connections, not %d, %d (accepted %lu, %lu)",
              s1.conns, s2.conns, lx_conns[1], lx_conns[2], s1.accepted, s2.accepted);
}

/* Extend l by ttl_ms and wait: its status. */
static int lx_extend(struct px_fix *p, redlock_lock *l, int64_t ttl_ms)
{
    struct it_op w = {p->f.base};
    CHECK_RC(l, redlock_extend_async(l, ttl_ms, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    return w.status;
}

/* On how many masters the key outlives the validity the client reads. */
static int lx_backing(struct px_fix *p, const char *key, redlock_lock *l, int64_t *v)
{
    long long pttl[3];
    int n = 0;
    for (int i = 0; i < 3; i++)
        pttl[i] = it_pttl(p->f.s, i, key, strlen(key));
    *v = redlock_lock_validity(l);
    for (int i = 0; i < 3; i++)
        n += pttl[i] >= *v;
    check_note("validity %lld ms; PTTL %lld %lld %lld", (long long)*v, pttl[0], pttl[1], pttl[2]);
    return n;
}

/* A 2 s extend held by the network on masters 1 and 2 times out and their
 * connections are dropped; a 10 s extend then wins on all three over new
 * connections.  The 2 s one must never run after it (it would cut the key
 * to 2 s on two masters under a validity of 10 s): the 10 s extend kills
 * the old connections on the server first. */
TEST(safety_late_extend_never_shortens_a_later_one)
{
    static const char key[] = "safety:late-extend";
    struct px_fix p;
    redlock_lock *l = lx_start(&p, key);

    lx_extend_times_out(&p, l, 2000);
    CHECK_RC(l, lx_extend(&p, l, 10000), REDLOCK_OK);
    sl_pump_settled(p.f.base, p.f.clients[0], 3000);
    lx_wait_flushed(&p);

    int64_t v;
    int backing = lx_backing(&p, key, l, &v);
    CHECK_GT(v, 4000);      /* well above the 2 s a late short extend would leave */
    CHECK_GE(backing, 2);
    for (int i = 1; i <= 2; i++)
        CHECK_GE(it_calls(p.f.s, i, "client|kill"), 1);
    CHECK_EQ(it_calls(p.f.s, 0, "client|kill"), 0);
    px_fix_stop(&p);
}

/* Two connections in a row are dropped under slow extends (both
 * re-growing: the lock is held): neither extend may run after the release
 * on the third connections, or it re-creates the key after the delete. */
TEST(safety_release_kills_the_connection_of_a_late_extend)
{
    static const char key[] = "safety:late-regrow";
    struct px_fix p;
    redlock_lock *l = lx_start(&p, key);

    lx_extend_times_out(&p, l, 10000);
    lx_extend_times_out(&p, l, 2000);
    struct it_op w = {p.f.base};
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_OK);
    sl_pump_settled(p.f.base, p.f.clients[0], 3000);
    lx_wait_flushed(&p);

    int left = rlt_servers_count_key(p.f.s, key, strlen(key));
    check_note("after the release: the key on %d masters (PTTL %lld %lld %lld)", left,
               it_pttl(p.f.s, 0, key, strlen(key)), it_pttl(p.f.s, 1, key, strlen(key)),
               it_pttl(p.f.s, 2, key, strlen(key)));
    CHECK_EQ(left, 0);
    px_fix_stop(&p);
}

/* The kill costs nothing while connections stay: none for a hold's
 * extends and release on the connections it acquired on.  After masters 1
 * and 2 reset theirs, one kill each, first thing on the new connections,
 * and none again for the next extends or the release. */
TEST(safety_dropped_connection_killed_once_none_without)
{
    static const char key[] = "safety:kill-once";
    struct px_fix p;
    redlock_lock *l = lx_start(&p, key);
    redlock_client *c = p.f.clients[0];

    for (int k = 0; k < 3; k++)
        CHECK_RC(l, lx_extend(&p, l, 10000), REDLOCK_OK);
    sl_pump_settled(p.f.base, c, 3000);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(it_calls(p.f.s, i, "client|kill"), 0);

    rlp_thread_reset_all(p.px[1]);
    rlp_thread_reset_all(p.px[2]);
    it_run(p.f.base, 20);       /* the client sees the resets */
    CHECK_EQ(it_async_wait_connected(p.f.base, c, 3, 5000), 0);
    /* (the client's loop runs meanwhile: the kill goes out from it) */
    for (int i = 1; i <= 2; i++) {
        int64_t until = check_now_ms() + 5000;
        while (it_calls(p.f.s, i, "client|kill") == 0 && check_now_ms() < until)
            it_run(p.f.base, 5);
        CHECK_EQ(it_calls(p.f.s, i, "client|kill"), 1);
    }
    for (int k = 0; k < 3; k++)
        CHECK_RC(l, lx_extend(&p, l, 10000), REDLOCK_OK);
    struct it_op w = {p.f.base};
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_OK);
    sl_pump_settled(p.f.base, c, 3000);
    CHECK_EQ(it_calls(p.f.s, 0, "client|kill"), 0);
    for (int i = 1; i <= 2; i++)
        CHECK_EQ(it_calls(p.f.s, i, "client|kill"), 1);
    px_fix_stop(&p);
}

/* ---- 3. max_pending ---------------------------------------------------- */

static redlock_client *full_client(struct event_base *base, rlt_servers *s)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 100;
    o.max_pending = 1;
    o.max_timeouts = 0;              /* hung masters stay connected */
    return it_async_client(base, s, &o);
}

/* Three masters, a full_client on them and its lock on key. */
static redlock_lock *full_start(struct it_fix *f, const char *key)
{
    it_fix_start(f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    f->c = full_client(f->base, f->s);
    return it_fix_lock(f, f->c, key);
}

/* Masters 1 and 2 hang: the attempt times out, its SET queued on them. */
static void full_attempt_times_out(struct it_fix *f, redlock_lock *l)
{
    struct it_op w = {f->base};
    CHECK_EQ(rlt_servers_pause(f->s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f->s, 2), 0);
    CHECK_RC(l, redlock_try_acquire_async(l, 30000, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_ETIMEDOUT);
}

/* A lost attempt's SET is still queued on two hung masters when its
 * roll-back is made: the roll-back must be queued behind it, not refused. */
TEST(safety_max_pending_rollback_reaches_slow_master)
{
    struct it_fix f = {0};
    static const char key[] = "safety:full-rollback";
    redlock_lock *l = full_start(&f, key);

    full_attempt_times_out(&f, l);
    it_run(f.base, 20);                /* let the roll-back leave */
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);

    /* the masters run the SET, then the roll-back behind it */
    int left = sl_pump_count(f.base, f.s, key, 0, 3000);
    check_note("after the hang: key on %d masters (PTTL %lld %lld %lld)", left,
               it_pttl(f.s, 0, key, strlen(key)), it_pttl(f.s, 1, key, strlen(key)),
               it_pttl(f.s, 2, key, strlen(key)));
    CHECK_EQ(left, 0);
    CHECK_EQ(sl_pump_absent(f.base, f.s, key, 200), 0);

    it_fix_stop(&f);
}

/* With the queues of two masters full, an acquire is refused locally:
 * those votes are "full", the code REDLOCK_EFULL (not ESERVER), and the
 * one master that took the key gets it back. */
TEST(safety_max_pending_full_votes_full_and_efull)
{
    struct it_fix f = {0};
    static const char k1[] = "safety:full-1", k2[] = "safety:full-2";
    redlock_lock *l1 = full_start(&f, k1);
    redlock_lock *l2 = it_fix_lock(&f, f.c, k2);
    struct it_op w2 = {f.base};
    redlock_node_result r;

    full_attempt_times_out(&f, l1);

    /* masters 1 and 2 still owe the reply to l1's SET: their queues are
     * full (master 0's may be too, while l1's roll-back is pending there) */
    CHECK_RC(l2, redlock_try_acquire_async(l2, 30000, it_op_cb, &w2), REDLOCK_OK);
    it_op_wait(&w2, 5000);
    check_note("acquire with 2 full queues: %d (%s)", w2.status, it_errstr(l2));
    CHECK_RC(l2, w2.status, REDLOCK_EFULL);
    CHECK_STREQ(redlock_vote_name(REDLOCK_VOTE_FULL), "full");
    int full = 0;
    for (size_t i = 0; i < 3; i++) {
        CHECK_EQ(redlock_lock_node_result(l2, i, &r), 0);
        /* decided once two said "full": a third may not have voted */
        CHECK_MSG(r.vote == REDLOCK_VOTE_FULL || r.vote == REDLOCK_VOTE_NONE ||
                  (i == 0 && r.vote == REDLOCK_VOTE_OK),
                  "node %zu voted %s (%s)", i, redlock_vote_name(r.vote), r.detail);
        full += r.vote == REDLOCK_VOTE_FULL;
    }
    CHECK_GE(full, 2);
    CHECK_EQ(redlock_lock_validity(l2), 0);

    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    CHECK_EQ(sl_pump_count(f.base, f.s, k2, 0, 3000), 0);
    CHECK_EQ(sl_pump_count(f.base, f.s, k1, 0, 3000), 0);

    it_fix_stop(&f);
}

/* A user's release is never refused by max_pending either. */
TEST(safety_max_pending_never_refuses_release)
{
    struct it_fix f = {0};
    static const char key[] = "safety:full-release";
    redlock_lock *l = full_start(&f, key);
    struct it_op w = {f.base};
    redlock_node_result r;

    CHECK_RC(l, redlock_try_acquire_async(l, 30000, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_OK);
    CHECK_EQ(sl_pump_count(f.base, f.s, key, 3, 2000), 3);
    sl_pump_settled(f.base, f.c, 2000);     /* no request pending anywhere */

    /* master 2 hangs with an extend pending: its queue is full */
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    w.done = 0;
    CHECK_RC(l, redlock_extend_async(l, 30000, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_OK);

    w.done = 0;
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_OK);
    /* decided at the quorum; master 2 times out after the callback */
    CHECK_EQ(it_wait_vote(f.base, l, 2, REDLOCK_VOTE_TIMEOUT, 3000), REDLOCK_VOTE_TIMEOUT);
    CHECK_EQ(redlock_lock_node_result(l, 2, &r), 0);

    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    int left = sl_pump_count(f.base, f.s, key, 0, 3000);
    check_note("after the hang: key on %d masters (master 2 PTTL %lld)", left,
               it_pttl(f.s, 2, key, strlen(key)));
    CHECK_EQ(left, 0);

    it_fix_stop(&f);
}

/* ---- 4. nothing before the handshake ------------------------------------ */

/* SELECT 99 fails on a server with 16 databases: an acquire made while the
 * client connects must not run (in db 0) on that connection. */
TEST(safety_failed_handshake_runs_nothing)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    char addr[3][64];
    const char *addrs[3];
    for (int i = 0; i < 3; i++) {
        snprintf(addr[i], sizeof addr[i], "redis://127.0.0.1:%d/99", rlt_servers_port(f.s, i));
        addrs[i] = addr[i];
    }
    redlock_options o;
    it_opts(&o);
    f.c = it_client_new(NULL, addrs, 3, &o);
    static const char key[] = "safety:before-handshake";
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    redlock_node_result r;

    /* at once: every node is still connecting; decided once a quorum
     * could not be had (the last node may not have voted yet) */
    CHECK_RC(l, redlock_try_acquire(l, 30000), REDLOCK_ECONNECT);
    int down = 0;
    for (size_t i = 0; i < 3; i++) {
        CHECK_EQ(redlock_lock_node_result(l, i, &r), 0);
        CHECK_MSG(r.vote == REDLOCK_VOTE_DOWN || r.vote == REDLOCK_VOTE_NONE,
                  "node %zu voted %s (%s)", i, redlock_vote_name(r.vote), r.detail);
        down += r.vote == REDLOCK_VOTE_DOWN;
    }
    CHECK_GE(down, 2);
    int seen = sl_wait_absent(f.s, key, 300);
    long long sets = 0;
    for (int i = 0; i < 3; i++)
        sets += it_calls(f.s, i, "set");
    check_note("key seen on %d masters, %lld SETs ran", seen, sets);
    CHECK_EQ(seen, 0);
    CHECK_EQ(sets, 0);

    it_fix_stop(&f);
}

/* The master hangs during the handshake; the connection times out.  The
 * acquire made meanwhile votes DOWN, and its SET must never reach the master
 * (neither on that connection nor later). */
TEST(safety_requests_wait_for_unanswered_handshake)
{
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, IT_ASYNC | IT_NOCLIENT);
    redlock_options o;
    it_opts(&o);
    o.connect_timeout_ms = 150;
    o.node_timeout_ms = 1000;
    o.max_timeouts = 0;
    CHECK_EQ(rlt_servers_pause(f.s, 0), 0);
    int64_t t0 = check_now_ms();
    const char *addrs[1] = {rlt_servers_addr(f.s, 0)};
    f.c = it_client_new(f.base, addrs, 1, &o);
    static const char key[] = "safety:hung-handshake";
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    struct it_op w = {f.base};
    redlock_node_result r;

    CHECK_RC(l, redlock_try_acquire_async(l, 30000, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_ECONNECT);
    CHECK_EQ(redlock_lock_node_result(l, 0, &r), 0);
    CHECK_MSG(r.vote == REDLOCK_VOTE_DOWN, "voted %s (%s)", redlock_vote_name(r.vote), r.detail);

    /* the hang lasts 400 ms */
    int64_t rest = 400 - (check_now_ms() - t0);
    if (rest > 0)
        it_run(f.base, rest);
    CHECK_EQ(rlt_servers_resume(f.s, 0), 0);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 1, 5000), 0);
    int seen = sl_pump_absent(f.base, f.s, key, 300);
    long long sets = it_calls(f.s, 0, "set");
    check_note("after the hang: key seen %d, %lld SETs ran", seen, sets);
    CHECK_EQ(seen, 0);
    CHECK_EQ(sets, 0);

    it_fix_stop(&f);
}

/* ---- 5. timeouts from the real start ------------------------------------ */

enum { BUSY_ACQUIRE, BUSY_EXTEND, BUSY_RELEASE };

struct busy {
    redlock_lock *l;
    int what;
    int start_rc;
    struct it_op w;
};

static void busy_then_start_cb(evutil_socket_t fd, short what, void *arg)
{
    struct busy *b = arg;
    (void)fd;
    (void)what;
    /* an application callback that takes 300 ms, then starts an operation */
    int64_t until = check_now_ms() + 300;
    while (check_now_ms() < until)
        usleep(1000);
    if (b->what == BUSY_ACQUIRE)
        b->start_rc = redlock_try_acquire_async(b->l, 10000, it_op_cb, &b->w);
    else if (b->what == BUSY_EXTEND)
        b->start_rc = redlock_extend_async(b->l, 10000, it_op_cb, &b->w);
    else
        b->start_rc = redlock_release_async(b->l, it_op_cb, &b->w);
    if (b->start_rc != 0)
        event_base_loopbreak(b->w.base);
}

TEST(safety_busy_callback_keeps_full_node_timeout)
{
    struct it_fix f = {0};
    sl_start_200(&f, 3);
    static const char key[] = "safety:busy-loop";
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    redlock_node_result r;
    static const char *const names[] = {"acquire", "extend", "release"};

    for (int what = BUSY_ACQUIRE; what <= BUSY_RELEASE; what++) {
        struct busy b = {l, what, -100, {f.base}};
        struct event *ev = evtimer_new(f.base, busy_then_start_cb, &b);
        CHECK(ev != NULL);
        struct timeval tv = {0, 0};
        CHECK_EQ(evtimer_add(ev, &tv), 0);
        int64_t deadline = check_now_ms() + 5000;
        /* start_rc stays -100 until the callback ran */
        while (!b.w.done && (b.start_rc == -100 || b.start_rc == 0) &&
               check_now_ms() < deadline)
            it_dispatch(f.base, deadline - check_now_ms());
        event_free(ev);
        CHECK_RC(l, b.start_rc, REDLOCK_OK);
        CHECK_EQ(b.w.done, 1);
        check_note("%s started at the end of a 300 ms callback: %d (%s)", names[what],
                   b.w.status, it_errstr(l));
        CHECK_RC(l, b.w.status, REDLOCK_OK);
        for (size_t i = 0; i < 3; i++) {
            CHECK_EQ(redlock_lock_node_result(l, i, &r), 0);
            CHECK_MSG(r.vote != REDLOCK_VOTE_TIMEOUT, "%s: node %zu timed out", names[what], i);
        }
        if (what != BUSY_RELEASE)
            CHECK_GT(b.w.validity, 9000);
        else    /* decided at the quorum, the third counted as it comes */
            CHECK_EQ(it_wait_nodes_ok(f.base, l, 3, 2000), 3);
    }
    CHECK_EQ(sl_pump_count(f.base, f.s, key, 0, 1000), 0);
    sl_check_no_timeouts(f.c);

    it_fix_stop(&f);
}

/* ---- 6. no attempt past acquire_timeout_ms ------------------------------ */

struct late {
    redlock_lock *l;
    int64_t t0;
    int64_t spin_until;       /* relative to t0 */
    int64_t seen_at;          /* when the first attempt's outcome was seen */
    struct event *ev;
};

static void late_watch_cb(evutil_socket_t fd, short what, void *arg)
{
    struct late *lt = arg;
    redlock_node_result r;
    (void)fd;
    (void)what;
    int seen = 0;
    for (size_t i = 0; i < 3; i++)
        seen |= redlock_lock_node_result(lt->l, i, &r) == 0 && r.vote == REDLOCK_VOTE_REFUSED;
    if (!seen)
        return;
    /* the first attempt was lost and the retry timer is pending: the
     * application now keeps the loop busy until past the deadline */
    lt->seen_at = check_now_ms() - lt->t0;
    event_del(lt->ev);
    while (check_now_ms() - lt->t0 < lt->spin_until)
        usleep(1000);
}

/* One retry 300 ms after a lost attempt, but the acquire ends at 600 ms. */
static void late_start(struct it_fix *f)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 100;
    o.retry_count = 1;
    o.retry_delay_ms = 300;
    o.retry_jitter_ms = 0;
    o.acquire_timeout_ms = 600;
    it_fix_start(f, 3, &o, IT_ASYNC);
}

/* Exactly one SET per master: the attempt before the deadline. */
static void check_one_set_each(struct it_fix *f)
{
    long long most = 0;
    int64_t deadline = check_now_ms() + 300;
    do {
        it_run(f->base, 5);
        for (int i = 0; i < 3; i++) {
            long long n = it_calls(f->s, i, "set");
            most = n > most ? n : most;
        }
    } while (check_now_ms() < deadline && most <= 1);
    for (int i = 0; i < 3; i++)
        CHECK_MSG(it_calls(f->s, i, "set") == 1, "server %d ran %lld SETs", i,
                  it_calls(f->s, i, "set"));
    CHECK_EQ(most, 1);
}

TEST(safety_no_attempt_after_acquire_timeout)
{
    struct it_fix f = {0};
    late_start(&f);
    static const char key[] = "safety:late-retry";
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    struct it_op w = {f.base};

    for (int i = 0; i < 3; i++) {
        sl_set_other(f.s, i, key);
        sl_status_ok(rlt_servers_command(f.s, i, "CONFIG RESETSTAT"), i, "CONFIG RESETSTAT");
    }
    struct late lt = {l, check_now_ms(), 600 + 150, -1, NULL};
    lt.ev = event_new(f.base, -1, EV_PERSIST, late_watch_cb, &lt);
    CHECK(lt.ev != NULL);
    CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, &w), REDLOCK_OK);
    struct timeval tv = {0, 2000};
    CHECK_EQ(event_add(lt.ev, &tv), 0);
    it_op_wait(&w, 5000);
    event_free(lt.ev);
    int64_t took = check_now_ms() - lt.t0;

    /* the set-up: the first attempt was seen lost long before its retry */
    CHECK_GE(lt.seen_at, 0);
    CHECK_LT(lt.seen_at, 250);
    check_note("acquire: %d (%s) after %lld ms", w.status, it_errstr(l), (long long)took);
    CHECK_RC(l, w.status, REDLOCK_ETIMEDOUT);
    CHECK_EQ(redlock_lock_validity(l), 0);
    CHECK_GE(took, 600 + 150);
    check_one_set_each(&f);
    CHECK_EQ(it_count_value(f.s, key, strlen(key), "someone-else", 12), 3);

    it_fix_stop(&f);
}

/* ---- the validity while an extend is in flight -------------------------- */

/* Two of three masters hang and an extend to 300 ms is sent: from the moment
 * it starts, the masters that run the PEXPIRE keep the key only 300 ms more,
 * so the validity must drop at once, not when the extend is decided. */
TEST(safety_validity_bounded_from_extend_start)
{
    struct it_fix f = {0};
    sl_start_200(&f, 0);
    static const char key[] = "safety:extend-inflight";
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    struct it_op w = {f.base};

    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &w), REDLOCK_OK);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_OK);
    CHECK_GT(redlock_lock_validity(l), 9000);

    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    struct it_op e = {f.base};
    CHECK_RC(l, redlock_extend_async(l, 300, it_op_cb, &e), REDLOCK_OK);
    int64_t v = redlock_lock_validity(l);
    check_note("validity right after extend(300) started: %lld ms", (long long)v);
    CHECK_LE(v, 300);
    CHECK_GT(v, 0);             /* still held: the old end is later */
    it_op_wait(&e, 5000);
    CHECK_RC(l, e.status, REDLOCK_ETIMEDOUT);
    CHECK_LE(e.validity, 300);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);

    it_fix_stop(&f);
}

/* ---- 5b. a busy loop while operations are in flight ---------------------- */

static void busy_300_cb(evutil_socket_t fd, short what, void *arg)
{
    int64_t until = check_now_ms() + 300;
    (void)fd;
    (void)what;
    (void)arg;
    while (check_now_ms() < until)
        ;
}

/* The application's callback blocks the loop for 300 ms (node timeout 200)
 * right after the requests left: the replies arrived meanwhile and must be
 * read before the operation's timer is believed, so the acquire wins and no
 * healthy master is counted as timed out. */
TEST(safety_busy_loop_with_ops_in_flight)
{
    struct it_fix f = {0};
    sl_start_200(&f, 1);
    static const char key[] = "safety:busy-in-flight";
    redlock_lock *l = it_fix_lock(&f, f.c, key);

    for (int round = 0; round < 3; round++) {
        struct it_op w = {f.base};
        struct event *ev = evtimer_new(f.base, busy_300_cb, NULL);
        struct timeval tv = {0, 0};
        CHECK(ev != NULL);
        CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, &w), REDLOCK_OK);
        CHECK_EQ(evtimer_add(ev, &tv), 0);      /* runs after the requests left */
        it_op_wait(&w, 5000);
        event_free(ev);
        check_note("round %d: acquire with a 300 ms busy loop in flight: %d (%s), validity %lld",
                   round, w.status, it_errstr(l), (long long)w.validity);
        CHECK_RC(l, w.status, REDLOCK_OK);
        CHECK_GT(w.validity, 9000 - 400);
        struct it_op r = {f.base};
        CHECK_GT(redlock_lock_validity(l), 8000);
        CHECK_RC(l, redlock_release_async(l, it_op_cb, &r), REDLOCK_OK);
        /* masters may delete it from now on: no validity from the start */
        CHECK_EQ(redlock_lock_validity(l), 0);
        it_op_wait(&r, 5000);
        CHECK_RC(l, r.status, REDLOCK_OK);
    }
    sl_check_no_timeouts(f.c);

    it_fix_stop(&f);
}

/* ---- undos around the first handshake, resets and restarts ------------- */

/* A client that locks at once while one master's first handshake is slow:
 * the SET waits in the client for the handshake, the attempt is lost on the
 * others, and its undo must leave behind that SET, not before it. */
TEST(safety_undo_during_first_handshake_follows_its_set)
{
    static const char key[] = "safety:undo-first-handshake";
    size_t klen = sizeof key - 1;
    struct it_fix f = {0};
    sl_start_other_two(&f, key);
    redlock_options o;
    it_opts(&o);
    o.connect_timeout_ms = 5000;
    o.node_timeout_ms = 1000;
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    f.c = it_client_new(f.base, rlt_servers_addrs(f.s), 3, &o);
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    sl_attempt_lost(&f, l);

    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 3, 5000), 0);
    /* the SET, then its undo (an EVAL), run on master 2 */
    CHECK_GE(sl_pump_calls(f.base, f.s, 2, "eval", 1, 3000), 1);
    check_note("master 2 after the handshake: our value %d, PTTL %lld",
               it_has_value(f.s, 2, key, klen, redlock_lock_value(l, NULL), 32),
               it_pttl(f.s, 2, key, klen));
    CHECK_EQ(it_count_lock(f.s, key, klen, l), 0);
    CHECK_EQ(it_calls(f.s, 2, "set"), 1);     /* the SET did run there */

    it_fix_stop(&f);
}

/* The attempt is lost while master 2's SET is on its way; the undo queued
 * behind it is lost with the connection, reset right after the SET reached
 * the server: the undo must be owed and sent after reconnecting. */
TEST(safety_undo_requeued_when_its_connection_resets)
{
    static const char key[] = "safety:undo-reset";
    size_t klen = sizeof key - 1;
    char a2[64];
    const char *addrs[3] = {NULL};
    struct it_fix f = {0};
    sl_start_other_two(&f, key);
    rlp_thread *px = proxy_in_front(&f, 2, a2, sizeof a2, addrs);
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 500;
    o.reconnect_min_ms = 5;
    f.c = it_client_new(f.base, addrs, 3, &o);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 3, 3000), 0);
    rlp_thread_set_latency(px, RLP_UP, 50, 0);     /* the SET is late on master 2 */
    rlp_thread_set_setreset(px, 1);                /* and its connection resets */
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    sl_attempt_lost(&f, l);

    rlp_stats st;
    int64_t deadline = check_now_ms() + 3000;
    do {
        it_run(f.base, 10);
        rlp_thread_stats(px, &st);
    } while (st.setresets < 1 && check_now_ms() < deadline);
    CHECK_EQ(st.setresets, 1);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 3, 3000), 0);
    int left = sl_pump_count(f.base, f.s, key, 2, 3000);   /* only the other's two */
    check_note("after the reset and reconnection: key on %d masters, ours on %d", left,
               it_count_lock(f.s, key, klen, l));
    CHECK_EQ(it_calls(f.s, 2, "set"), 1);
    CHECK_EQ(it_count_lock(f.s, key, klen, l), 0);

    it_fix_stop(&f);
    rlp_thread_stop(px);
}

/* CLIENT KILL ID/ADDR cannot tell unix-socket clients apart (they all have
 * the same address), and a restarted server gives ids again from 1: an undo
 * owed across a restart must never kill another application's connection. */
TEST(safety_owed_undo_never_kills_another_client)
{
    char sock[128], addr[160];
    snprintf(sock, sizeof sock, "%s/rl-undo-%d.sock", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getpid());
    const char *extra[] = {"--unixsocket", sock, NULL};
    struct it_fix f = {.extra = extra};
    it_fix_start(&f, 1, NULL, IT_ASYNC | IT_NOCLIENT);
    snprintf(addr, sizeof addr, "unix://%s", sock);
    const char *addrs[1] = {addr};
    redlock_options o;
    it_opts(&o);
    o.reconnect_min_ms = 1500;     /* the other client connects first */
    o.reconnect_max_ms = 3000;
    o.node_timeout_ms = 1000;
    f.c = it_client_new(f.base, addrs, 1, &o);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 1, 3000), 0);
    redisReply *r = rlt_servers_command(f.s, 0, "CLIENT LIST TYPE normal");
    CHECK(r && r->type == REDIS_REPLY_STRING);
    const char *line = strstr(r->str, "id=");
    long long ours = line ? atoll(line + 3) : -1;     /* the only normal client */
    freeReplyObject(r);
    CHECK_GT(ours, 0);

    redlock_lock *l = it_fix_lock(&f, f.c, "safety:undo-unix");
    struct it_op w = {f.base};
    CHECK_EQ(rlt_servers_pause(f.s, 0), 0);
    CHECK_RC(l, redlock_try_acquire_async(l, 30000, it_op_cb, &w), REDLOCK_OK);
    it_run(f.base, 50);                           /* the SET is written */
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);     /* connection lost: undo owed */
    it_op_wait(&w, 5000);
    CHECK_NE(w.status, REDLOCK_OK);
    /* another application's connection that gets the id we had */
    redisContext *other = NULL, *opened[100];
    int nopened = 0;
    while (nopened < 100 && !other) {
        redisContext *x = redisConnectUnix(sock);
        CHECK(x && !x->err);
        opened[nopened++] = x;  /* smaller ids stay open: the ids advance */
        redisReply *id = redisCommand(x, "CLIENT ID");
        CHECK(id && id->type == REDIS_REPLY_INTEGER);
        if (id->integer == ours)
            other = x;
        freeReplyObject(id);
    }
    CHECK_MSG(other != NULL, "no connection got id %lld", ours);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 1, 5000), 0);
    CHECK_GE(sl_pump_calls(f.base, f.s, 0, "eval", 1, 3000), 1);   /* the owed undo ran */
    r = redisCommand(other, "PING");
    CHECK_MSG(r != NULL, "the other client's connection was killed: %s", other->errstr);
    freeReplyObject(r);
    CHECK_EQ(it_calls(f.s, 0, "client|kill"), 0);
    for (int i = 0; i < nopened; i++)
        redisFree(opened[i]);

    it_fix_stop(&f);
    unlink(sock);
}

/* Run the loop until server i no longer holds the lock's value, or ms; 1 if
 * it still does. */
static int sl_pump_value_gone(struct event_base *base, rlt_servers *s, int i, const char *key,
                              const redlock_lock *l, int64_t ms)
{
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    int64_t deadline = check_now_ms() + ms;
    int held;
    /* -1: the server did not answer (e.g. busy): keep waiting */
    while ((held = it_has_value(s, i, key, strlen(key), v, vlen)) != 0 &&
           check_now_ms() < deadline)
        it_run(base, 10);
    return held;
}

static int busy_port;

/* Another client's script keeps the server busy for 1.5 s. */
static void *busy_script(void *arg)
{
    redisContext *x = redisConnect("127.0.0.1", busy_port);
    redisReply *r = x ? redisCommand(x, "EVAL %s 0",
        "local t=redis.call('TIME') local s=t[1]*1000000+t[2] "
        "while true do local n=redis.call('TIME') "
        "if n[1]*1000000+n[2]-s > 1500000 then break end end return 1") : NULL;
    (void)arg;
    freeReplyObject(r);
    redisFree(x);
    return NULL;
}

/* The undo of a lost attempt reaches a master busy with another client's
 * script and is answered -BUSY: the delete did not run, so it must be tried
 * again, not forgotten (the SET would stay for its whole ttl). */
TEST(safety_undo_retried_after_busy_reply)
{
    static const char key[] = "safety:undo-busy";
    redlock_options o;
    pthread_t th;
    struct it_fix f = {0};
    sl_start_other_two(&f, key);
    sl_status_ok(rlt_servers_command(f.s, 2, "CONFIG SET busy-reply-threshold 50"), 2, "CONFIG");
    it_opts(&o);
    o.node_timeout_ms = 3000;
    o.max_timeouts = 0;
    f.c = it_async_client(f.base, f.s, &o);
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    struct it_op w = {f.base};
    CHECK_EQ(rlt_servers_pause(f.s, 0), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_RC(l, redlock_try_acquire_async(l, 30000, it_op_cb, &w), REDLOCK_OK);
    CHECK_EQ(sl_pump_count(f.base, f.s, key, 1, 2000), 1);     /* our SET ran on master 2 */
    busy_port = rlt_servers_port(f.s, 2);
    CHECK_EQ(pthread_create(&th, NULL, busy_script, NULL), 0);
    /* wait until the server says it is busy with the script */
    int64_t until = check_now_ms() + 3000;
    int busy = 0;
    while (!busy && check_now_ms() < until) {
        redisReply *p = rlt_servers_command(f.s, 2, "PING");
        busy = p && p->type == REDIS_REPLY_ERROR && strncmp(p->str, "BUSY", 4) == 0;
        freeReplyObject(p);
        if (!busy)
            it_run(f.base, 5);
    }
    CHECK(busy);
    CHECK_EQ(rlt_servers_resume(f.s, 0), 0);                 /* they refuse: lost */
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    it_op_wait(&w, 5000);
    CHECK_RC(l, w.status, REDLOCK_ENOQUORUM);
    int held = sl_pump_value_gone(f.base, f.s, 2, key, l, 8000);
    CHECK_EQ(pthread_join(th, NULL), 0);
    redisReply *r = rlt_servers_command(f.s, 2, "INFO commandstats");
    CHECK(r && r->type == REDIS_REPLY_STRING);
    const char *e = strstr(r->str, "cmdstat_eval:");
    check_note("master 2: our value %s; %.*s", held ? "still there" : "gone",
               e ? (int)strcspn(e, "\r") : 0, e ? e : "");
    const char *rej = e ? strstr(e, "rejected_calls=") : NULL;
    CHECK_MSG(rej && atoll(rej + 15) > 0, "the undo was never refused: %.90s", e ? e : "");
    freeReplyObject(r);
    CHECK_EQ(held, 0);

    it_fix_stop(&f);
}

/* A blocking client whose undo is owed (the SET's connection was reset):
 * the node comes back inside redlock_client_wait_connected, and the undo
 * must leave then, not at some later call. */
TEST(safety_owed_undo_leaves_with_wait_connected)
{
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, IT_NOCLIENT);
    static const char key[] = "safety:owed-blocking";
    char a[64];
    const char *addrs[1] = {NULL};
    rlp_thread *px = proxy_in_front(&f, 0, a, sizeof a, addrs);
    redlock_options o;
    it_opts(&o);
    o.reconnect_min_ms = 200;
    o.reconnect_max_ms = 200;
    f.c = it_client_addrs(addrs, 1, &o, 1);
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    rlp_thread_set_setreset(px, 1);
    CHECK_NE(redlock_try_acquire(l, 30000), REDLOCK_OK);
    CHECK_EQ(it_calls(f.s, 0, "set"), 1);        /* the SET ran before the reset */
    CHECK_EQ(redlock_client_wait_connected(f.c, 1, 3000), 0);
    /* no more calls into the library: only the server may act now */
    int held = it_count_lock(f.s, key, sizeof key - 1, l);
    int64_t deadline = check_now_ms() + 2000;
    while (held && check_now_ms() < deadline) {
        usleep(5000);
        held = it_count_lock(f.s, key, sizeof key - 1, l);
    }
    check_note("after wait_connected: our value %s", held ? "still there" : "gone");
    CHECK_EQ(held, 0);

    it_fix_stop(&f);
    rlp_thread_stop(px);
}

struct drop_cb {
    redlock_lock *second;
    struct it_op *w2;
    int down, protocol_errors;
};

static void drop_first_cb(redlock_lock *l, int status, void *privdata)
{
    struct drop_cb *d = privdata;
    int64_t until = check_now_ms() + 5;
    (void)l;
    (void)status;
    while (check_now_ms() < until)
        ;       /* longer than the 1 ms back-off: the node is due again */
    CHECK_EQ(redlock_try_acquire_async(d->second, 30000, it_op_cb, d->w2), REDLOCK_OK);
}

static void drop_node_cb(redlock_client *c, size_t node, int event, const char *detail,
                         void *privdata)
{
    struct drop_cb *d = privdata;
    (void)c;
    (void)node;
    if (event == REDLOCK_NODE_DOWN) {
        d->down++;
        d->protocol_errors += strstr(detail, "protocol error") != NULL;
    }
}

/* An operation started from a callback run while a connection is being torn
 * down must not reconnect in the middle of it (the new handshake's replies
 * would then find no request: "protocol error"). */
TEST(safety_no_reconnect_inside_a_drop)
{
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, IT_ASYNC | IT_NOCLIENT);
    char a[64];
    const char *addrs[1] = {NULL};
    rlp_thread *px = proxy_in_front(&f, 0, a, sizeof a, addrs);
    struct it_op w2 = {f.base};
    struct drop_cb d = {NULL, &w2, 0, 0};
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 1000;
    o.reconnect_min_ms = 1;
    o.reconnect_max_ms = 1;
    o.node_cb = drop_node_cb;
    o.node_privdata = &d;
    f.c = it_client_new(f.base, addrs, 1, &o);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 1, 3000), 0);
    redlock_lock *l1 = it_fix_lock(&f, f.c, "safety:drop-a");
    d.second = IT_LOCK(f.c, "safety:drop-b");
    rlp_thread_set_setreset(px, 1);
    CHECK_EQ(redlock_try_acquire_async(l1, 30000, drop_first_cb, &d), REDLOCK_OK);
    it_op_wait(&w2, 5000);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 1, 3000), 0);
    it_run(f.base, 100);
    check_note("node down %d times, %d with a protocol error; second acquire %d", d.down,
               d.protocol_errors, w2.status);
    CHECK_GE(d.down, 1);
    CHECK_EQ(d.protocol_errors, 0);

    redlock_lock_free(d.second);
    it_fix_stop(&f);
    rlp_thread_stop(px);
}
