/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_behind.c -- a master slower than the others but alive, in a closed
 * loop (each lock acquires again as soon as its release was decided):
 * operations are decided at the quorum without it, so it falls behind for
 * good.  What it may cost the client is bounded (its node stats' queued:
 * at most the 1024 requests sent before the client waits for replies, and
 * those of the operations in flight); requests still waiting when their
 * operation is decided are dropped (dropped), unless a release of a write
 * that reached it is owed; locks stay exclusive and a key left behind only
 * expires.  The slow master is a real redis-server behind test/rlproxy,
 * its requests throttled to a few kB/s.
 */
#include "itest.h"
#include "fixture.h"
#include "proxy.h"

#include <event2/event.h>

#define BH_WINDOW 1024          /* REDLOCK__WINDOW (master/master.h) */
#define BH_BYTES_PER_S 4096     /* the slow master's requests: about 40/s */
#define BH_TTL_MS 30000
#define BH_MAX_LOCKS 32

struct bh_run;

struct bh_lock {
    struct bh_run *run;
    int client;
    redlock_lock *l;
    redlock_lock *rival;        /* the other client's lock on its resource */
    int64_t started_ms;
};

struct bh_run {
    struct event_base *base;
    redlock_client *c[2];
    struct bh_lock locks[2 * BH_MAX_LOCKS];
    int nlocks;
    long attempts, want;        /* acquires started; stop at want */
    long granted, refused;
    long unknown;               /* rivals' releases that needed master 2 */
    int running;                /* locks still cycling */
    int failures, overlaps;
    char first_failure[256];
    uint64_t max_queued[2];     /* node 2's, per client, highest seen */
    int64_t worst_ms;           /* the longest operation */
};

static void bh_acquire(struct bh_lock *k);

static void bh_sample(struct bh_lock *k)
{
    struct bh_run *r = k->run;
    redlock_node_stats st;
    int64_t took = check_now_ms() - k->started_ms;

    CHECK_EQ(redlock_client_node_stats(r->c[k->client], 2, &st), 0);
    if (st.queued > r->max_queued[k->client])
        r->max_queued[k->client] = st.queued;
    if (took > r->worst_ms)
        r->worst_ms = took;
}

static void bh_fail(struct bh_lock *k, const char *what, int status)
{
    struct bh_run *r = k->run;
    if (!r->failures++)
        snprintf(r->first_failure, sizeof r->first_failure, "%s: %d (%s)", what, status,
                 it_errstr(k->l));
}

static void bh_next(struct bh_lock *k)
{
    struct bh_run *r = k->run;
    if (r->attempts < r->want) {
        bh_acquire(k);
    } else if (--r->running == 0) {
        event_base_loopbreak(r->base);
    }
}

static void bh_released(redlock_lock *l, int status, void *pd)
{
    struct bh_lock *k = pd;
    (void)l;
    bh_sample(k);
    /* a release decided without master 2's delete, where a rival's
     * attempt took the key meanwhile: it ran out of time on master 2 */
    if (k->rival && (status == REDLOCK_ENOTOWNER || status == REDLOCK_ETIMEDOUT))
        k->run->unknown++;
    else if (status != 0)
        bh_fail(k, "release", status);
    bh_next(k);
}

static void bh_acquired(redlock_lock *l, int status, void *pd)
{
    struct bh_lock *k = pd;
    struct bh_run *r = k->run;

    bh_sample(k);
    /* the rival holds it, or a split vote waited for master 2 */
    if (status == REDLOCK_ENOQUORUM || (k->rival && status == REDLOCK_ETIMEDOUT)) {
        r->refused++;
        bh_next(k);
        return;
    }
    if (status != 0) {
        bh_fail(k, "acquire", status);
        bh_next(k);
        return;
    }
    r->granted++;
    /* two holders: the rival still trusts its own hold */
    if (k->rival && redlock_lock_validity(k->rival) > 0)
        r->overlaps++;
    k->started_ms = check_now_ms();
    if (redlock_release_async(l, bh_released, k) != 0) {
        bh_fail(k, "release start", -1);
        bh_next(k);
    }
}

static void bh_acquire(struct bh_lock *k)
{
    k->run->attempts++;
    k->started_ms = check_now_ms();
    CHECK_RC(k->l, redlock_try_acquire_async(k->l, BH_TTL_MS, bh_acquired, k), 0);
}

/* Three masters, master 2 behind a proxy; `nclients` clients (node
 * timeout 2 s: generous for the two fast masters under valgrind), client
 * c with `nlocks` locks on resources "<prefix>-<c * offset + i>": the
 * locks of both clients on one resource are rivals. */
static rlp_thread *bh_start(struct it_fix *f, struct bh_run *r, int nclients, int nlocks,
                            int offset, const char *prefix)
{
    char a2[64];
    const char *addrs[3] = {NULL};
    redlock_options o;

    CHECK(nlocks <= BH_MAX_LOCKS);
    memset(r, 0, sizeof *r);
    it_fix_start(f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    rlp_thread *px = proxy_in_front(f, 2, a2, sizeof a2, addrs);
    it_opts(&o);
    o.node_timeout_ms = 2000;
    o.wake = 0;         /* every try is a SET on every master (no looks) */
    r->base = f->base;
    for (int c = 0; c < nclients; c++) {
        r->c[c] = it_client_new(f->base, addrs, 3, &o);
        f->clients[f->nclients++] = r->c[c];
        CHECK_EQ(it_async_wait_connected(f->base, r->c[c], 3, 5000), 0);
    }
    for (int c = 0; c < nclients; c++) {
        for (int i = 0; i < nlocks; i++) {
            char res[64];
            struct bh_lock *k = &r->locks[r->nlocks++];
            snprintf(res, sizeof res, "%s-%d", prefix, c * offset + i);
            k->run = r;
            k->client = c;
            CHECK_EQ(redlock_lock_new(&k->l, r->c[c], res, strlen(res)), 0);
        }
    }
    for (int i = offset; nclients == 2 && i < nlocks; i++) {
        r->locks[i].rival = r->locks[nlocks + i - offset].l;
        r->locks[nlocks + i - offset].rival = r->locks[i].l;
    }
    rlp_thread_set_bandwidth(px, RLP_UP, BH_BYTES_PER_S);
    return px;
}

/* Every lock cycles until `want` acquires were started in all. */
static void bh_loop(struct bh_run *r, long want, int64_t timeout_ms)
{
    r->want = want;
    r->running = r->nlocks;
    for (int i = 0; i < r->nlocks; i++)
        bh_acquire(&r->locks[i]);
    it_dispatch(r->base, timeout_ms);
    CHECK_MSG(r->running == 0, "%d locks still cycling after %lld ms (%ld attempts)",
              r->running, (long long)timeout_ms, r->attempts);
}

/* The slow master catches up (its proxy unthrottled): every client is
 * connected to every master, and holds no request for any. */
static void bh_settle(struct bh_run *r, rlp_thread *px)
{
    int64_t until = check_now_ms() + 10000;
    rlp_thread_clear(px);
    for (;;) {
        int settled = 1;
        for (int c = 0; c < 2 && r->c[c]; c++)
            for (size_t i = 0; i < 3; i++) {
                redlock_node_stats st;
                CHECK_EQ(redlock_client_node_stats(r->c[c], i, &st), 0);
                settled &= st.queued == 0 && st.connected;
            }
        if (settled)
            return;
        CHECK_MSG(check_now_ms() < until, "requests still queued after 10 s");
        it_run(r->base, 5);
    }
}

/* No key of resources 0 .. nres-1 without a ttl; none at all on the
 * masters 0 and 1; the count on master 2. */
static int bh_keys_left(struct it_fix *f, const char *prefix, int nres)
{
    int left2 = 0;
    for (int i = 0; i < nres; i++) {
        char res[64];
        snprintf(res, sizeof res, "%s-%d", prefix, i);
        for (int m = 0; m < 3; m++) {
            long long pttl = it_pttl(f->s, m, res, strlen(res));
            CHECK_MSG(pttl == -2 || (pttl > 0 && pttl <= BH_TTL_MS),
                      "master %d: %s has PTTL %lld", m, res, pttl);
            CHECK_MSG(m == 2 || pttl == -2, "master %d kept %s (PTTL %lld)", m, res, pttl);
            left2 += m == 2 && pttl != -2;
        }
    }
    return left2;
}

static void bh_free(struct bh_run *r)
{
    for (int i = 0; i < r->nlocks; i++)
        redlock_lock_free(r->locks[i].l);
}

static void bh_stats(redlock_client *c, size_t node, redlock_node_stats *st)
{
    CHECK_EQ(redlock_client_node_stats(c, node, st), 0);
}

/* One client, 32 locks in a closed loop, master 2 throttled: the client's
 * queue for it stays within the window and the loop's own requests; the
 * requests it could not take are dropped (and counted there only); no
 * operation waits for it. */
TEST(slow_master_closed_loop_queue_stays_bounded)
{
    static const char prefix[] = "behind-loop";
    const int nlocks = 32;
    const uint64_t bound = BH_WINDOW + 4 * nlocks + 64;
    struct it_fix f = {0};
    struct bh_run r;
    redlock_node_stats st[3];
    rlp_thread *px = bh_start(&f, &r, 1, nlocks, 0, prefix);

    bh_loop(&r, 2500, 60000);
    for (size_t i = 0; i < 3; i++)
        bh_stats(r.c[0], i, &st[i]);
    check_note("%ld attempts, %ld granted, %d failures (%s); master 2: queued at most %llu "
               "(bound %llu), %llu requests, %llu dropped, %llu oks; masters 0, 1 dropped "
               "%llu, %llu; slowest operation %lld ms",
               r.attempts, r.granted, r.failures, r.first_failure,
               (unsigned long long)r.max_queued[0], (unsigned long long)bound,
               (unsigned long long)st[2].requests, (unsigned long long)st[2].dropped,
               (unsigned long long)st[2].oks, (unsigned long long)st[0].dropped,
               (unsigned long long)st[1].dropped, (long long)r.worst_ms);
    CHECK_EQ(r.failures, 0);
    CHECK_EQ(r.granted, r.attempts);
    CHECK_MSG(r.max_queued[0] <= bound, "master 2's queue reached %llu (bound %llu)",
              (unsigned long long)r.max_queued[0], (unsigned long long)bound);
    /* the master that fell behind is the one reported */
    CHECK_GE(st[2].dropped, 1);
    CHECK_EQ(st[0].dropped, 0);
    CHECK_EQ(st[1].dropped, 0);
    /* decided without it: none waited its node timeout */
    CHECK_MSG(r.worst_ms < 2000, "an operation took %lld ms", (long long)r.worst_ms);
    /* a release's dropped request votes "full" once the outcome is out */
    int full = 0;
    for (int i = 0; i < r.nlocks; i++) {
        redlock_node_result nr;
        CHECK_EQ(redlock_lock_node_result(r.locks[i].l, 2, &nr), 0);
        full += nr.vote == REDLOCK_VOTE_FULL;
    }
    check_note("%d of %d last releases: master 2 voted full", full, r.nlocks);
    CHECK_GE(full, 1);

    bh_settle(&r, px);
    int left = bh_keys_left(&f, prefix, nlocks);
    check_note("after catching up: %d keys left on master 2", left);
    bh_free(&r);
    it_fix_stop(&f);
    rlp_thread_stop(px);
}

/* Two clients, 16 locks each in a closed loop, master 2 throttled; 8 of
 * their resources are the same (rivals), the others each client's own
 * (a steady load): never two holders at once; each client's queue for
 * master 2 stays bounded; once master 2 caught up, no key is left without
 * a ttl (and none on the fast masters). */
TEST(slow_master_two_clients_stay_exclusive)
{
    static const char prefix[] = "behind-rivals";
    const int nlocks = 16;
    const uint64_t bound = BH_WINDOW + 4 * nlocks + 64;
    struct it_fix f = {0};
    struct bh_run r;
    redlock_node_stats a, b;
    rlp_thread *px = bh_start(&f, &r, 2, nlocks, nlocks / 2, prefix);

    bh_loop(&r, 5000, 60000);
    bh_stats(r.c[0], 2, &a);
    bh_stats(r.c[1], 2, &b);
    check_note("%ld attempts, %ld granted, %ld refused, %ld releases unknown, %d failures (%s), "
               "%d overlaps; "
               "master 2: queued at most %llu and %llu (bound %llu), dropped %llu and %llu",
               r.attempts, r.granted, r.refused, r.unknown, r.failures, r.first_failure,
               r.overlaps,
               (unsigned long long)r.max_queued[0], (unsigned long long)r.max_queued[1],
               (unsigned long long)bound, (unsigned long long)a.dropped,
               (unsigned long long)b.dropped);
    CHECK_EQ(r.failures, 0);
    CHECK_EQ(r.overlaps, 0);
    CHECK_GE(r.granted, 1);
    CHECK_MSG(r.max_queued[0] <= bound && r.max_queued[1] <= bound,
              "master 2's queues reached %llu and %llu (bound %llu)",
              (unsigned long long)r.max_queued[0], (unsigned long long)r.max_queued[1],
              (unsigned long long)bound);
    CHECK_GE(a.dropped + b.dropped, 1);

    bh_settle(&r, px);
    int left = bh_keys_left(&f, prefix, nlocks + nlocks / 2);
    check_note("after catching up: %d keys left on master 2", left);
    bh_free(&r);
    it_fix_stop(&f);
    rlp_thread_stop(px);
}

/* A lock whose SET reached master 2 is released while master 2 stalls
 * behind a full window: the release is decided at the quorum and still
 * waits to leave, and it is not dropped (the key there is ours); the other
 * requests that waited with it are.  Once master 2 answers again, the key
 * is deleted there, not left to expire. */
TEST(slow_master_release_owed_where_its_set_went)
{
    static const char key[] = "behind-owed", flood[] = "behind-flood";
    struct it_fix f = {0};
    struct bh_run r;
    redlock_node_stats st;
    rlp_thread *px = bh_start(&f, &r, 1, 1, 0, flood);
    redlock_lock *a = it_fix_lock(&f, r.c[0], key);
    struct it_op w = {f.base};

    rlp_thread_clear(px);
    CHECK_RC(a, redlock_acquire_async(a, BH_TTL_MS, it_op_cb, &w), 0);
    it_op_wait(&w, 5000);
    CHECK_RC(a, w.status, 0);
    CHECK_EQ(it_wait_lock_count(f.s, key, strlen(key), a, 3, 5000), 3);

    /* master 2 stalls; a closed loop fills its window and more */
    rlp_thread_set_pause(px, 1);
    bh_loop(&r, BH_WINDOW, 60000);
    bh_stats(r.c[0], 2, &st);
    check_note("master 2 stalled: queued %llu, dropped %llu", (unsigned long long)st.queued,
               (unsigned long long)st.dropped);
    CHECK_GE(st.queued, BH_WINDOW);
    CHECK_GE(st.dropped, 1);
    uint64_t dropped = st.dropped;

    char value[64];
    size_t vlen = 0;
    const char *v = redlock_lock_value(a, &vlen);
    CHECK(v != NULL && vlen < sizeof value);
    memcpy(value, v, vlen);
    w.done = 0;
    CHECK_RC(a, redlock_release_async(a, it_op_cb, &w), 0);
    it_op_wait(&w, 5000);
    CHECK_RC(a, w.status, 0);
    bh_stats(r.c[0], 2, &st);
    CHECK_EQ(st.dropped, dropped);      /* the release waits: owed */
    CHECK_EQ(it_count_value(f.s, key, strlen(key), value, vlen), 1);

    rlp_thread_set_pause(px, 0);
    bh_settle(&r, px);
    long long pttl = it_pttl(f.s, 2, key, strlen(key));
    check_note("after master 2 caught up: PTTL %lld there; dropped %llu", pttl,
               (unsigned long long)st.dropped);
    CHECK_EQ(pttl, -2);
    bh_keys_left(&f, flood, 1);
    bh_free(&r);
    it_fix_stop(&f);
    rlp_thread_stop(px);
}
