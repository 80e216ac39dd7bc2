/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_wake_faults.c -- the release's one pick (wake.c) when parties
 * misbehave, against real redis-servers:
 *   - a master slow but alive (behind a proxy that holds its requests)
 *     never picks, and one waiter is told per release, by one master;
 *   - a pick that is stale (an entry whose client is gone) leaves the lock
 *     idle only until the releaser's next try, not until a poll, and that
 *     try's looks ask a fast master, not one slow but alive;
 *   - a refused waiter writes its registry entry once, and renews it at
 *     half the registry's life, not at each refusal;
 *   - a waiter whose event loop was blocked when the release came tries
 *     as soon as its loop runs again, not at its poll;
 *   - a waiter whose queue to one master is full when it is woken wins
 *     on the others at once (that master votes "full").
 */
#include "itest.h"
#include "fixture.h"
#include "proxy.h"

#include <stdio.h>
#include <string.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

#define SLOW_POLL_MS 3000       /* a poll this late would fail the timing checks */
#define SLOW_MS 30              /* the slow master's delay, each way */
#define NCLIENTS 4

static redlock_acquire_stats stats_of(redlock_client *c)
{
    redlock_acquire_stats a;
    memset(&a, 0, sizeof a);
    CHECK_EQ(redlock_client_acquire_stats(c, &a), 0);
    return a;
}

/* Run the loop until masters 0 .. n-1 each have at least `want` channels
 * "{<res>}:wq:*". */
static void wait_listening(struct it_fix *f, int n, const char *res, long long want)
{
    for (int m = 0; m < n; m++) {
        long long subs = 0;
        int64_t until = check_now_ms() + 5000;
        for (;;) {
            redisReply *r = rlt_servers_command(f->s, m, "PUBSUB CHANNELS {%s}:wq:*", res);
            CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY);
            subs = (long long)r->elements;
            freeReplyObject(r);
            if (subs >= want || check_now_ms() >= until)
                break;
            it_dispatch(f->base, 5);
        }
        CHECK_GE(subs, want);
    }
}

/* Three masters: 0 fast, 1 behind a proxy that delays both ways, 2 dead
 * (so that every decision waits for the slow one's vote, and its grant is
 * among those a release picks from); NCLIENTS clients polling every
 * SLOW_POLL_MS, each with a lock on `key`. */
struct ring {
    struct it_fix f;
    rlp_thread *px;
    redlock_client *c[NCLIENTS];
    redlock_lock *l[NCLIENTS];
    struct it_op op[NCLIENTS];
};

static void ring_start(struct ring *t, const char *key)
{
    char a1[64];
    const char *addrs[3] = {NULL};
    memset(t, 0, sizeof *t);
    it_fix_start(&t->f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    t->px = proxy_in_front(&t->f, 1, a1, sizeof a1, addrs);
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 2000;
    o.retry_delay_ms = SLOW_POLL_MS;
    o.retry_jitter_ms = 0;
    o.retry_count = 100;
    for (int i = 0; i < NCLIENTS; i++) {
        t->c[i] = it_client_new(t->f.base, addrs, 3, &o);
        CHECK_EQ(it_async_wait_connected(t->f.base, t->c[i], 3, 3000), 0);
        t->f.clients[t->f.nclients++] = t->c[i];
        t->l[i] = it_fix_lock(&t->f, t->c[i], key);
        t->op[i].base = t->f.base;
    }
    CHECK_EQ(rlt_servers_kill(t->f.s, 2), 0);
    rlp_thread_set_latency(t->px, RLP_UP, SLOW_MS, 0);
    rlp_thread_set_latency(t->px, RLP_DOWN, SLOW_MS, 0);
}

static void ring_stop(struct ring *t)
{
    it_fix_stop(&t->f);
    rlp_thread_stop(t->px);
}

/* Wait until one acquire completed; its index. */
static int next_holder(struct ring *t, int64_t timeout_ms)
{
    int64_t until = check_now_ms() + timeout_ms;
    for (;;) {
        for (int i = 0; i < NCLIENTS; i++)
            if (t->op[i].done)
                return i;
        CHECK_MSG(check_now_ms() < until, "nobody got the lock within %lld ms",
                  (long long)timeout_ms);
        it_dispatch(t->f.base, 5);
    }
}

/* Announcements heard by the waiters, and with `notices`, the holders'
 * notices too (a waiter's entry tells the holder: a PUBLISH as well). */
static unsigned long long heard(struct ring *t, int notices)
{
    unsigned long long n = 0;
    for (int i = 0; i < NCLIENTS; i++)
        n += stats_of(t->c[i]).announcements + (notices ? stats_of(t->c[i]).notices : 0);
    return n;
}

/* Run the loop until every message the masters published so far was
 * heard (each goes to one client); the count of announcements. */
static long long all_heard(struct ring *t)
{
    long long made;
    int64_t until = check_now_ms() + 3000;
    while ((made = it_calls(t->f.s, 0, "publish") + it_calls(t->f.s, 1, "publish")) !=
               (long long)heard(t, 1) && check_now_ms() < until)
        it_dispatch(t->f.base, 5);
    CHECK_EQ(made, (long long)heard(t, 1));
    return (long long)heard(t, 0);
}

/* 0 holds; the others are refused and wait, listening on both live
 * masters. */
static void ring_queue(struct ring *t, const char *key)
{
    CHECK_RC(t->l[0], redlock_acquire_async(t->l[0], 10000, it_op_cb, &t->op[0]), 0);
    CHECK_EQ(next_holder(t, 5000), 0);
    for (int i = 1; i < NCLIENTS; i++) {
        CHECK_RC(t->l[i], redlock_acquire_async(t->l[i], 10000, it_op_cb, &t->op[i]), 0);
        int64_t until = check_now_ms() + 5000;
        while (stats_of(t->c[i]).attempts < 1 && check_now_ms() < until)
            it_dispatch(t->f.base, 5);
        CHECK_EQ(stats_of(t->c[i]).attempts, 1);
    }
    wait_listening(&t->f, 2, key, NCLIENTS - 1);
}

/* Run the loop until the slow master ran `want` deletes (releases), at
 * most timeout_ms; their count. */
static long long slow_dels(struct ring *t, long long want, int64_t timeout_ms)
{
    int64_t until = check_now_ms() + timeout_ms;
    while (it_calls(t->f.s, 1, "del") < want && check_now_ms() < until)
        it_dispatch(t->f.base, 5);
    return it_calls(t->f.s, 1, "del");
}

/* Holder h releases and waits again, behind the others; the next holder's
 * index.  *took: from the release to the next holder's win. */
static int ring_pass(struct ring *t, int h, int64_t *took)
{
    struct it_op rel = {.base = t->f.base};
    t->op[h].done = 0;
    int64_t t0 = check_now_ms();
    CHECK_RC(t->l[h], redlock_release_async(t->l[h], it_op_cb, &rel), 0);
    it_op_wait(&rel, 3000);
    CHECK_RC(t->l[h], rel.status, 0);
    CHECK_RC(t->l[h], redlock_acquire_async(t->l[h], 10000, it_op_cb, &t->op[h]), 0);
    int next = next_holder(t, SLOW_POLL_MS / 2);
    CHECK_RC(t->l[next], t->op[next].status, 0);
    *took = t->op[next].at_ms - t0;
    return next;
}

/* Every release is told to one waiter, by one master, never by the slow
 * one (its round trip is 60 ms, the other's well under a millisecond,
 * and both granted every hold), and the waiter told gets the lock long
 * before its poll. */
TEST(wake_one_waiter_told_per_release_and_never_by_a_slow_master)
{
    struct ring t;
    const int rounds = 12;
    ring_start(&t, "wf-slow");
    ring_queue(&t, "wf-slow");
    /* 0 learns of the waiters from their notices; the rounds start from
     * the next holder, which waited itself (after the slow master's own
     * announcement of that release) */
    int64_t took, worst = 0;
    int h = ring_pass(&t, 0, &took);
    /* the slow master ran that release (its first delete: no SET NX there
     * can win before it; a waiter's lost attempt may add an undo's) */
    CHECK_GE(slow_dels(&t, 1, 3000), 1);
    long long made0 = all_heard(&t), slow0 = it_calls(t.f.s, 1, "publish");
    for (int r = 0; r < rounds; r++) {
        h = ring_pass(&t, h, &took);
        worst = took > worst ? took : worst;
    }
    check_note("%d releases: the next holder within %lld ms at worst (polls: %d ms)", rounds,
               (long long)worst, SLOW_POLL_MS);
    CHECK_LT(worst, SLOW_POLL_MS / 2);
    /* every release reached the slow master too (its deletes) */
    CHECK_GE(slow_dels(&t, rounds + 1, 5000), rounds + 1);
    long long made = all_heard(&t) - made0, slow = it_calls(t.f.s, 1, "publish") - slow0;
    unsigned long long late = 0, notices = 0;
    for (int i = 0; i < NCLIENTS; i++) {
        late += stats_of(t.c[i]).late_picks;
        notices += stats_of(t.c[i]).notices;
    }
    check_note("%lld announcements, %lld messages by the slow master (%llu notices, %llu late "
               "picks)", made, slow, notices, late);
    CHECK_EQ(made, rounds);
    CHECK_EQ(slow, 0);      /* (no pick there; nor a notice: one master tells) */
    ring_stop(&t);
}

/* Two clients that took turns on `key` (both have seen contention: a
 * releaser that has not lets every master pick): a holds, b waits; b gets
 * it, and a waits in turn (refused, or met b on a master b had not
 * reached: a split, retried once), with every request of a's answered
 * and a listening. */
struct turns {
    redlock_lock *a, *b;
    struct it_op ao, bo;
};

static void take_turns(struct it_fix *f, redlock_client *ac, redlock_client *bc, const char *key,
                       struct turns *t)
{
    t->a = it_fix_lock(f, ac, key);
    t->b = it_fix_lock(f, bc, key);
    t->ao = (struct it_op){f->base};
    t->bo = (struct it_op){f->base};
    CHECK_RC(t->a, redlock_acquire_async(t->a, 10000, it_op_cb, &t->ao), 0);
    it_op_wait(&t->ao, 3000);
    CHECK_RC(t->a, t->ao.status, 0);
    CHECK_RC(t->b, redlock_acquire_async(t->b, 10000, it_op_cb, &t->bo), 0);
    int64_t until = check_now_ms() + 5000;
    while (stats_of(bc).attempts < 1 && check_now_ms() < until)
        it_dispatch(f->base, 5);
    CHECK_EQ(stats_of(bc).attempts, 1);
    wait_listening(f, 3, key, 1);
    /* a knows b waits (b's notice reached it: its holder channel may be
     * subscribed only after b's first notice, which is then sent again),
     * so a's release picks b */
    until = check_now_ms() + 5000;
    while (stats_of(ac).notices < 1 && check_now_ms() < until)
        it_dispatch(f->base, 5);
    CHECK_GE(stats_of(ac).notices, 1);
    struct it_op first = {f->base};
    CHECK_RC(t->a, redlock_release_async(t->a, it_op_cb, &first), 0);
    it_op_wait(&first, 3000);
    it_op_wait(&t->bo, SLOW_POLL_MS / 2);
    CHECK_RC(t->b, t->bo.status, 0);
    t->ao.done = 0;
    uint64_t tries = stats_of(ac).attempts + stats_of(ac).looks;
    CHECK_RC(t->a, redlock_acquire_async(t->a, 10000, it_op_cb, &t->ao), 0);
    until = check_now_ms() + 3000;
    for (int done = 0; !done && check_now_ms() < until;) {
        it_dispatch(f->base, 5);
        /* a tried: an attempt, or a look (a releaser that knew of b
         * waits its turn and looks first) */
        done = stats_of(ac).attempts + stats_of(ac).looks > tries;
        for (int i = 0; i < 3; i++) {
            redlock_node_stats st;
            CHECK_EQ(redlock_client_node_stats(ac, (size_t)i, &st), 0);
            done = done && st.oks + st.refused + st.timeouts + st.errors + st.unreachable ==
                               st.requests;
        }
    }
    CHECK_GT(stats_of(ac).attempts + stats_of(ac).looks, tries);
    wait_listening(f, 3, key, 2);       /* (b's lingers) */
    CHECK_EQ(t->ao.done, 0);
}

/* Twelve waiters that listen and will never try, first in the queue of
 * every master (g1 .. gc on ghost[i], connected to master i directly). */
static void ghosts_first(struct it_fix *f, const char *key, redisContext *ghost[3])
{
    static const char ids[] = "123456789abc";
    for (int i = 0; i < 3; i++) {
        ghost[i] = redisConnect("127.0.0.1", rlt_servers_port(f->s, i));
        CHECK(ghost[i] != NULL && !ghost[i]->err);
        for (int g = 0; g < 12; g++) {
            char id[3] = {'g', ids[g], '\0'};
            redisReply *r = redisCommand(ghost[i], "SUBSCRIBE {%s}:wq:%s", key, id);
            CHECK(r != NULL);
            freeReplyObject(r);
            r = rlt_servers_command(f->s, i, "ZADD {%s}:wq 1 %s", key, id);
            CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER && r->integer == 1);
            freeReplyObject(r);
        }
    }
}

/* `rounds` times: the holder releases and acquires again at once; the
 * longest from a release's start to the next win (ms). */
static int64_t rescues(struct it_fix *f, struct turns *t, int rounds)
{
    int64_t worst = 0;
    for (int r = 0; r < rounds; r++) {
        redlock_lock *h = t->ao.done ? t->a : t->b;
        struct it_op *ho = t->ao.done ? &t->ao : &t->bo;
        struct it_op rel = {f->base};
        ho->done = 0;
        int64_t t0 = check_now_ms();
        CHECK_RC(h, redlock_release_async(h, it_op_cb, &rel), 0);
        it_op_wait(&rel, 3000);
        CHECK_RC(h, rel.status, 0);
        CHECK_RC(h, redlock_acquire_async(h, 10000, it_op_cb, ho), 0);
        int64_t until = check_now_ms() + SLOW_POLL_MS / 2;
        while (!t->ao.done && !t->bo.done && check_now_ms() < until)
            it_dispatch(f->base, 2);
        CHECK_MSG(t->ao.done || t->bo.done, "round %d: the lock idled %d ms", r, SLOW_POLL_MS / 2);
        CHECK_RC(t->ao.done ? t->a : t->b, t->ao.done ? t->ao.status : t->bo.status, 0);
        int64_t at = t->ao.done ? t->ao.at_ms : t->bo.at_ms;
        if (at - t0 > worst)
            worst = at - t0;
    }
    return worst;
}

/* Registry entries whose clients listen but never act (a waiter whose
 * program hangs, or one that stopped waiting and whose removal was lost),
 * at the front of the queue: picks that tell a client that does not try.
 * The releaser, acquiring again at once, tries a few wake windows later,
 * so the lock is taken again within milliseconds, not at the next poll. */
TEST(wake_a_stale_pick_costs_the_releasers_next_try_not_a_poll)
{
    struct it_fix f = {0};
    redlock_options o;
    it_opts(&o);
    o.retry_delay_ms = SLOW_POLL_MS;
    o.retry_jitter_ms = 0;
    o.retry_count = 100;
    it_fix_start(&f, 3, &o, IT_ASYNC);
    redlock_client *bc = it_fix_client(&f, &o);
    struct turns t;
    redisContext *ghost[3];
    const int rounds = 5;

    take_turns(&f, f.c, bc, "wf-stale", &t);
    ghosts_first(&f, "wf-stale", ghost);
    int64_t worst = rescues(&f, &t, rounds);
    check_note("%d releases with 12 stale entries of 13: taken again within %lld ms at worst "
               "(polls: %d ms)", rounds, (long long)worst, SLOW_POLL_MS);
    CHECK_LT(worst, 500);
    /* the picks told the ghosts (they listen: they stay, at the back) */
    long long told = 0;
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "ZRANGEBYSCORE {wf-stale}:wq 2 +inf");
        CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY);
        for (size_t k = 0; k < r->elements; k++)
            told += r->element[k]->len == 2 && r->element[k]->str[0] == 'g';
        freeReplyObject(r);
        r = rlt_servers_command(f.s, i, "ZCARD {wf-stale}:wq");
        CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER && r->integer >= 12);
        freeReplyObject(r);
        redisFree(ghost[i]);
    }
    CHECK_GE(told, rounds);
    it_fix_stop(&f);
}

/* Run the loop until `until` (the renewal is a matter of time: its
 * timer); the registry writes master 0 ran since z0, noted with both
 * waiters' attempts. */
static long long writes_at(struct it_fix *f, int64_t until, long long z0, redlock_client *fast,
                           redlock_client *slow)
{
    while (check_now_ms() < until)
        it_dispatch(f->base, 20);
    long long z = it_calls(f->s, 0, "zadd") - z0;
    check_note("%llu and %llu refusals, %lld registry writes",
               (unsigned long long)stats_of(fast).attempts,
               (unsigned long long)stats_of(slow).attempts, z);
    return z;
}

/* Two waiters: one refused at every poll (every 50 ms), one whose next
 * poll is 20 s away.  Each writes its entry once, and renews it once half
 * the registry's 20 s life has gone: not at every refusal, and not only at
 * refusals (a waiter whose polls are slowed must stay in the picks). */
TEST(wake_a_waiter_renews_its_entry_at_half_its_life)
{
    struct it_fix f = {0};
    redlock_options o;
    it_opts(&o);
    it_fix_start(&f, 3, &o, IT_ASYNC);
    o.retry_delay_ms = 50;
    o.retry_jitter_ms = 0;
    o.retry_count = 1000;
    redlock_client *bc = it_fix_client(&f, &o);
    o.retry_delay_ms = 20000;
    redlock_client *cc = it_fix_client(&f, &o);
    redlock_lock *a = it_fix_lock(&f, f.c, "wf-renew"), *b = it_fix_lock(&f, bc, "wf-renew");
    redlock_lock *w = it_fix_lock(&f, cc, "wf-renew");
    struct it_op ao = {f.base}, bo = {f.base}, wo = {f.base};

    CHECK_RC(a, redlock_acquire_async(a, 60000, it_op_cb, &ao), 0);   /* (held throughout) */
    it_op_wait(&ao, 3000);
    long long z0 = it_calls(f.s, 0, "zadd");
    CHECK_RC(b, redlock_acquire_async(b, 10000, it_op_cb, &bo), 0);
    CHECK_RC(w, redlock_acquire_async(w, 10000, it_op_cb, &wo), 0);
    int64_t t0 = check_now_ms();
    /* 9.5 s of refusals: one entry each */
    CHECK_EQ(writes_at(&f, t0 + 9500, z0, bc, cc), 2);
    CHECK_GE(stats_of(bc).attempts, 10);
    CHECK_EQ(stats_of(cc).attempts, 1);
    /* past half the registry's life: each renewed, once */
    CHECK_EQ(writes_at(&f, t0 + 10900, z0, bc, cc), 4);
    CHECK_EQ(stats_of(cc).attempts, 1);
    CHECK_EQ(bo.done + wo.done, 0);
    it_fix_stop(&f);
}

/* A proxy in front of master 0: addrs[] its address and the two other
 * masters', *o a waiter's options (polls SLOW_POLL_MS apart, 5 of them). */
static rlp_thread *front_of_master0(struct it_fix *f, char *a0, size_t a0len,
                                    const char *addrs[3], redlock_options *o)
{
    addrs[0] = addrs[1] = addrs[2] = NULL;
    rlp_thread *px = proxy_in_front(f, 0, a0, a0len, addrs);
    it_opts(o);
    o->retry_delay_ms = SLOW_POLL_MS;
    o->retry_jitter_ms = 0;
    o->retry_count = 5;
    return px;
}

/* Every look asks a fast master.  Master 0 answers 2 x SLOW_LOOK_MS late
 * (a proxy holds its traffic both ways: slow but alive, well within the
 * node timeout); twelve stale entries at the front of every registry, so
 * that every release's pick fails and the releaser's own try rescues the
 * lock: a look, a second one a few wake windows later (the key was gone),
 * then its attempt, which wins on masters 1 and 2.  The looks go to a
 * master that answered the release fast, so the lock is taken again
 * within milliseconds each round.  A look at a master picked at random
 * goes to master 0 one time in three and costs the round 2 x SLOW_LOOK_MS:
 * without the choice, all 20 looks of 10 rounds miss it 0.03 % of the
 * time. */
#define SLOW_LOOK_MS 400
TEST(wake_a_releasers_look_asks_a_fast_master_not_a_slow_one)
{
    struct it_fix f = {0};
    char a0[64];
    const char *addrs[3];
    redlock_options o;
    struct turns t;
    redisContext *ghost[3];
    const int rounds = 10;
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    rlp_thread *px = front_of_master0(&f, a0, sizeof a0, addrs, &o);
    o.retry_count = 100;
    o.node_timeout_ms = 2000;
    redlock_client *ac = it_client_new(f.base, addrs, 3, &o);
    redlock_client *bc = it_client_new(f.base, addrs, 3, &o);
    CHECK_EQ(it_async_wait_connected(f.base, ac, 3, 3000), 0);
    CHECK_EQ(it_async_wait_connected(f.base, bc, 3, 3000), 0);
    f.c = ac;
    f.clients[f.nclients++] = bc;

    take_turns(&f, ac, bc, "wf-look", &t);
    ghosts_first(&f, "wf-look", ghost);
    rlp_thread_set_latency(px, RLP_UP, SLOW_LOOK_MS, 0);
    rlp_thread_set_latency(px, RLP_DOWN, SLOW_LOOK_MS, 0);
    int64_t worst = rescues(&f, &t, rounds);
    check_note("%d rescues with master 0 %d ms away: taken again within %lld ms at worst", rounds,
               2 * SLOW_LOOK_MS, (long long)worst);
    CHECK_LT(worst, SLOW_LOOK_MS);
    for (int i = 0; i < 3; i++)
        redisFree(ghost[i]);
    it_fix_stop(&f);
    rlp_thread_stop(px);
}

/* After a split vote the next attempt comes within the client's wake
 * window (its round trip times the doubled back-off), not at its poll;
 * once: a split again is a standing one (here a master stays free for
 * every contender), and the poll takes over.  Master 0 holds another
 * value behind a proxy that delays its answers 20 ms, master 1 grants at
 * once, master 2 is dead: every attempt is a split (1 granted, 1 refused,
 * no quorum). */
TEST(wake_a_split_vote_retries_once_within_the_window_not_at_the_poll)
{
    struct it_fix f = {0};
    char a0[64];
    const char *addrs[3];
    redlock_options o;
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    rlp_thread *px = front_of_master0(&f, a0, sizeof a0, addrs, &o);
    f.c = it_client_new(f.base, addrs, 3, &o);
    CHECK_EQ(it_async_wait_connected(f.base, f.c, 3, 3000), 0);
    redisReply *r = rlt_servers_command(f.s, 0, "SET wf-split other PX 60000");
    CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);
    rlp_thread_set_latency(px, RLP_DOWN, 20, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "wf-split");
    struct it_op op = {f.base};

    int64_t t0 = check_now_ms(), second = -1;
    CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, &op), 0);
    /* the second attempt, and its split too */
    while (stats_of(f.c).split_votes < 2 && check_now_ms() - t0 < SLOW_POLL_MS) {
        it_dispatch(f.base, 2);
        if (second < 0 && stats_of(f.c).attempts >= 2)
            second = check_now_ms() - t0;
    }
    check_note("the second attempt %lld ms after the first (a poll: %d ms)", (long long)second,
               SLOW_POLL_MS);
    CHECK_EQ(stats_of(f.c).split_votes, 2);
    CHECK_GE(second, 0);
    CHECK_LT(second, SLOW_POLL_MS / 4);
    /* then the poll (3 s times the back-off): no third attempt for 1 s */
    while (check_now_ms() - t0 < 1000)
        it_dispatch(f.base, 20);
    CHECK_EQ(stats_of(f.c).attempts, 2);
    CHECK_EQ(op.done, 0);
    /* master 1 was given back each time */
    int64_t until = check_now_ms() + 3000;
    while (rlt_servers_exists(f.s, 1, "wf-split", 8) && check_now_ms() < until)
        it_dispatch(f.base, 5);
    CHECK(!rlt_servers_exists(f.s, 1, "wf-split", 8));
    it_fix_stop(&f);
    rlp_thread_stop(px);
}

/* The waiter's listening, seen from the servers: its channel and its entry
 * on every master (its loop, wb, runs meanwhile). */
static void wait_entered(struct it_fix *f, struct event_base *wb, const char *res)
{
    int64_t until = check_now_ms() + 5000;
    for (;;) {
        int ready = 1;
        for (int m = 0; m < 3; m++) {
            redisReply *ch = rlt_servers_command(f->s, m, "PUBSUB CHANNELS {%s}:wq:*", res);
            redisReply *n = rlt_servers_command(f->s, m, "ZCARD {%s}:wq", res);
            CHECK(ch != NULL && ch->type == REDIS_REPLY_ARRAY);
            CHECK(n != NULL && n->type == REDIS_REPLY_INTEGER);
            ready = ready && ch->elements == 1 && n->integer == 1;
            freeReplyObject(ch);
            freeReplyObject(n);
        }
        if (ready)
            return;
        CHECK_MSG(check_now_ms() < until, "the waiter is not listening on every master");
        it_dispatch(wb, 5);
    }
}

/* Run `base` until `want` clients listen for the waiters' notices on every
 * master (their holder's channels, subscribed at a client's first lock). */
static void wait_holders(struct it_fix *f, struct event_base *base, long long want)
{
    int64_t until = check_now_ms() + 5000;
    for (int m = 0; m < 3; m++) {
        long long n = 0;
        for (;;) {
            redisReply *r = rlt_servers_command(f->s, m, "PUBSUB CHANNELS {}:holder:*");
            CHECK(r != NULL && r->type == REDIS_REPLY_ARRAY);
            n = (long long)r->elements;
            freeReplyObject(r);
            if (n >= want || check_now_ms() >= until)
                break;
            it_dispatch(base, 5);
        }
        CHECK_GE(n, want);
    }
}

/* A holder on f (f.c, its loop f.base) and a waiter whose client wc runs on
 * its own loop wb, polling SLOW_POLL_MS after a refusal; a holds res and
 * its client listens for the waiters' notices. */
struct pair {
    struct it_fix f;
    struct event_base *wb;
    redlock_client *wc;
    redlock_lock *a, *w;
    struct it_op ao, wo;
};

/* a takes the lock, and its client listens for the waiters' notices. */
static void hold(struct it_fix *f, redlock_lock *a, struct it_op *ao)
{
    CHECK_RC(a, redlock_acquire_async(a, 10000, it_op_cb, ao), 0);
    it_op_wait(ao, 3000);
    CHECK_RC(a, ao->status, 0);
    wait_holders(f, f->base, 1);
}

/* w asks for res, is refused and waits: listening, its entry written on
 * every master (its loop, wb, runs meanwhile). */
static void wait_behind(struct it_fix *f, redlock_lock *w, struct it_op *wo,
                        struct event_base *wb, const char *res)
{
    CHECK_RC(w, redlock_acquire_async(w, 10000, it_op_cb, wo), 0);
    wait_entered(f, wb, res);
}

static void pair_start(struct pair *p, const char *res)
{
    memset(p, 0, sizeof *p);
    it_fix_start(&p->f, 3, NULL, IT_ASYNC);
    p->wb = it_base();
    redlock_options o;
    it_opts(&o);
    o.retry_delay_ms = SLOW_POLL_MS;
    o.retry_jitter_ms = 0;
    o.retry_count = 5;
    p->wc = it_client_new(p->wb, rlt_servers_addrs(p->f.s), 3, &o);
    CHECK_EQ(it_async_wait_connected(p->wb, p->wc, 3, 3000), 0);
    p->a = it_fix_lock(&p->f, p->f.c, res);
    p->w = it_lock(p->wc, res, strlen(res));
    p->ao = (struct it_op){p->f.base};
    p->wo = (struct it_op){p->wb};
    hold(&p->f, p->a, &p->ao);
}

/* The waiter, which got the lock, releases it; everything is freed. */
static void pair_stop(struct pair *p)
{
    p->wo.done = 0;
    CHECK_RC(p->w, redlock_release_async(p->w, it_op_cb, &p->wo), 0);
    it_op_wait(&p->wo, 3000);
    CHECK_RC(p->w, p->wo.status, 0);
    redlock_lock_free(p->w);
    redlock_client_free(p->wc);
    event_base_free(p->wb);
    it_fix_stop(&p->f);
}

/* A waiter's event loop blocked (a long callback of its application) when
 * the release is announced: the message waits in its socket, and once the
 * loop runs again the waiter tries at once, not at its poll 3 s after its
 * refusal. */
TEST(wake_a_waiter_whose_loop_was_blocked_tries_as_it_runs_again)
{
    struct pair p;
    pair_start(&p, "wf-busy");      /* (a hears w's notice) */
    wait_behind(&p.f, p.w, &p.wo, p.wb, "wf-busy");
    CHECK_EQ(stats_of(p.wc).attempts, 1);
    /* from here w's loop does not run: a releases, and 300 ms pass */
    p.ao.done = 0;
    CHECK_RC(p.a, redlock_release_async(p.a, it_op_cb, &p.ao), 0);
    it_op_wait(&p.ao, 3000);
    CHECK_RC(p.a, p.ao.status, 0);
    it_run(p.f.base, 300);
    CHECK_EQ(p.wo.done, 0);
    CHECK_EQ(stats_of(p.wc).announcements, 0);
    /* w's loop runs again */
    int64_t t1 = check_now_ms();
    it_op_wait(&p.wo, SLOW_POLL_MS);
    check_note("the waiter got the lock %lld ms after its loop ran again (its poll: %d ms "
               "after its refusal)", (long long)(p.wo.at_ms - t1), SLOW_POLL_MS);
    CHECK_RC(p.w, p.wo.status, 0);
    CHECK_LT(p.wo.at_ms - t1, SLOW_POLL_MS / 4);
    redlock_acquire_stats st = stats_of(p.wc);
    CHECK_GE(st.announcements, 1);
    CHECK_EQ(st.wakeups, 1);
    CHECK_EQ(st.attempts, 2);
    pair_stop(&p);
}

/* Run both loops until the holder's client heard a notice, at most 3 s. */
static void hear_notice_again(struct pair *p)
{
    int64_t t0 = check_now_ms();
    while (stats_of(p->f.c).notices == 0 && check_now_ms() < t0 + 3000) {
        it_dispatch(p->f.base, 5);
        it_dispatch(p->wb, 5);
    }
    check_note("a heard w's notice %lld ms after it listened again",
               (long long)(check_now_ms() - t0));
    CHECK_GE(stats_of(p->f.c).notices, 1);
}

/* A waiter's notice that reached no one (the holder's client was not
 * listening: its subscriber connections were dropped, and its loop had
 * not run since) is sent again a little later: once the holder listens
 * again it hears it, and its release tells the waiter, long before the
 * waiter's poll. */
TEST(wake_a_notice_nobody_heard_is_sent_again)
{
    struct pair p;
    pair_start(&p, "wf-deaf");
    /* a's client stops listening (its loop does not run meanwhile) */
    for (int m = 0; m < 3; m++) {
        redisReply *k = rlt_servers_command(p.f.s, m, "CLIENT KILL TYPE pubsub");
        CHECK(k != NULL && k->type == REDIS_REPLY_INTEGER && k->integer == 1);
        freeReplyObject(k);
    }
    wait_behind(&p.f, p.w, &p.wo, p.wb, "wf-deaf");
    CHECK_EQ(stats_of(p.f.c).notices, 0);
    /* both loops run: a's client listens again, and hears w */
    hear_notice_again(&p);
    p.ao.done = 0;
    int64_t t0 = check_now_ms();
    CHECK_RC(p.a, redlock_release_async(p.a, it_op_cb, &p.ao), 0);
    int64_t until = check_now_ms() + SLOW_POLL_MS / 2;
    while (!p.wo.done && check_now_ms() < until) {
        it_dispatch(p.f.base, 2);
        it_dispatch(p.wb, 2);
    }
    CHECK_MSG(p.wo.done, "w not told by a's release");
    check_note("w got the lock %lld ms after the release (its poll: %d ms)",
               (long long)(p.wo.at_ms - t0), SLOW_POLL_MS);
    CHECK_RC(p.w, p.wo.status, 0);
    CHECK_GE(stats_of(p.wc).announcements, 1);
    pair_stop(&p);
}

/* Requests to master 0 now take 1.5 s on the way there: another lock of
 * the waiter's client fills that queue (it holds on the others). */
static void fill_queue_to_master0(rlp_thread *px, redlock_lock *other, struct it_op *oo)
{
    rlp_thread_set_latency(px, RLP_UP, 1500, 0);
    CHECK_RC(other, redlock_try_acquire_async(other, 10000, it_op_cb, oo), 0);
    it_op_wait(oo, 3000);
    CHECK_RC(other, oo->status, 0);
    CHECK_EQ(redlock_lock_nodes_ok(other), 2);
}

/* The waiter w won on masters 1 and 2, master 0 voting "full" without a
 * request, at its wake-up, not at its poll. */
static void check_won_with_master0_full(redlock_client *wc, redlock_lock *w)
{
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(w, 0, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_FULL);
    CHECK_EQ(redlock_lock_nodes_ok(w), 2);
    redlock_acquire_stats st = stats_of(wc);
    CHECK_EQ(st.wakeups, 1);
    /* w twice, the other lock once; w a third time when its woken attempt
     * reached a master before a's release did (refused there: it retries
     * once in the wake window, contended.c) */
    CHECK_GE(st.attempts, 3);
    CHECK_LE(st.attempts, 4);
    redlock_node_stats ns;
    CHECK_EQ(redlock_client_node_stats(wc, 0, &ns), 0);
    CHECK_GE(ns.fulls, 1);
}

/* A waiter woken while its queue to one master is full (max_pending 1,
 * and a request of another lock of the client held 1.5 s on the way to
 * that master): that master votes "full" without a request, the others
 * grant, and the waiter holds the lock within milliseconds of the
 * release, not at its poll 3 s after its refusal. */
TEST(wake_a_waiter_whose_queue_to_one_master_is_full_wins_on_the_others)
{
    struct it_fix f = {0};
    char a0[64];
    const char *addrs[3];
    redlock_options o;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    rlp_thread *px = front_of_master0(&f, a0, sizeof a0, addrs, &o);
    o.node_timeout_ms = 3000;       /* the held request stays queued */
    o.max_pending = 1;
    redlock_client *wc = it_client_new(f.base, addrs, 3, &o);
    CHECK_EQ(it_async_wait_connected(f.base, wc, 3, 3000), 0);
    f.clients[f.nclients++] = wc;
    redlock_lock *a = it_fix_lock(&f, f.c, "wf-full"), *w = it_fix_lock(&f, wc, "wf-full"),
                 *other = it_fix_lock(&f, wc, "wf-full-other");
    struct it_op ao = {f.base}, wo = {f.base}, oo = {f.base};

    hold(&f, a, &ao);               /* (a hears w's notice: no notice again) */
    wait_behind(&f, w, &wo, f.base, "wf-full");
    CHECK_EQ(stats_of(wc).attempts, 1);
    /* (the entries' replies, on their way back, read: they no longer
     * count in master 0's queue, slow under valgrind) */
    it_dispatch(f.base, 100);
    fill_queue_to_master0(px, other, &oo);
    /* the release: the waiter is woken with master 0's queue full */
    ao.done = 0;
    int64_t t0 = check_now_ms();
    CHECK_RC(a, redlock_release_async(a, it_op_cb, &ao), 0);
    it_op_wait(&wo, SLOW_POLL_MS);
    check_note("the waiter got the lock %lld ms after the release (its poll: %d ms after its "
               "refusal)", (long long)(wo.at_ms - t0), SLOW_POLL_MS);
    CHECK_RC(w, wo.status, 0);
    CHECK_LT(wo.at_ms - t0, SLOW_POLL_MS / 4);
    check_won_with_master0_full(wc, w);
    /* the held request arrives; everything is released before the proxy goes */
    rlp_thread_set_latency(px, RLP_UP, 0, 0);
    wo.done = oo.done = 0;
    CHECK_RC(w, redlock_release_async(w, it_op_cb, &wo), 0);
    CHECK_RC(other, redlock_release_async(other, it_op_cb, &oo), 0);
    it_op_wait(&wo, 5000);
    it_op_wait(&oo, 5000);
    it_op_wait(&ao, 3000);
    it_fix_stop(&f);
    rlp_thread_stop(px);
}
