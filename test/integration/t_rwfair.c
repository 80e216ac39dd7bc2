/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_rwfair.c -- the read/write lock is phase-fair (kinds/rwlock.c): the
 * readers waiting when a writer releases go before the next writer, a
 * writer waiting behind readers goes before the readers that came after
 * it, a vanished waiter's turn expires, a reader giving up leaves no
 * record, readers and writers looping all get in, and nobody waiting costs
 * the commands it cost before the turns.
 */
#include "itest.h"

#include <stdio.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

/* A read (write 0) or write handle of a new client of f (retry_count
 * tries, delay_ms apart, no jitter) on res, freed by it_fix_stop. */
static redlock_lock *fair_lock(struct it_fix *f, const char *res, int write, int tries,
                               int delay_ms)
{
    redlock_options o;
    redlock_lock *l = NULL;
    it_opts_retry(&o, tries, delay_ms, 0);
    redlock_client *c = it_fix_client(f, &o);
    CHECK_LT(f->nlocks, IT_FIX_MAX);
    if (write)
        CHECK_EQ(redlock_lock_new_write(&l, c, res, strlen(res)), 0);
    else
        CHECK_EQ(redlock_lock_new_read(&l, c, res, strlen(res)), 0);
    f->locks[f->nlocks++] = l;
    return l;
}

static void start_acquire(redlock_lock *l, struct it_op *op, struct event_base *base)
{
    memset(op, 0, sizeof *op);
    op->base = base;
    CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, op), 0);
}

static void release(redlock_lock *l, struct event_base *base)
{
    struct it_op op = { .base = base };
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), 0);
    it_op_wait(&op, 2000);
    CHECK_EQ(op.status, 0);
}

static long long int_on(rlt_servers *s, int i, const char *fmt, const char *key)
{
    redisReply *r = rlt_servers_command(s, i, fmt, key);
    long long v;
    CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER);
    v = r->integer;
    freeReplyObject(r);
    return v;
}

/* Run the loop until `fmt key` answers want on every one of the 3
 * masters, at most timeout_ms; 1 when it did. */
static int until_all(struct it_fix *f, const char *fmt, const char *key, long long want,
                     int64_t timeout_ms)
{
    for (int64_t end = check_now_ms() + timeout_ms;; it_run(f->base, 2)) {
        int n = 0;
        for (int i = 0; i < 3; i++)
            n += int_on(f->s, i, fmt, key) == want;
        if (n == 3)
            return 1;
        if (check_now_ms() >= end)
            return 0;
    }
}

/* A writer holds, two readers wait (each recorded on every master) and a
 * second writer waits, retrying every 5 ms where the readers retry every
 * 60 ms: at the release the readers get their turn, and both are in
 * before that writer, which gets in once they leave.  (Without the turn,
 * the writer's quicker retry takes the lock first.) */
TEST(rw_fair_readers_waiting_get_in_before_the_next_writer)
{
    static const char res[] = "rwf-turn";
    struct it_fix f = {0};
    struct it_op w1op, r1op, r2op, w2op;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *w1 = fair_lock(&f, res, 1, 0, 10);
    redlock_lock *r1 = fair_lock(&f, res, 0, 200, 60), *r2 = fair_lock(&f, res, 0, 200, 60);
    redlock_lock *w2 = fair_lock(&f, res, 1, 2000, 5);

    start_acquire(w1, &w1op, f.base);
    it_op_wait(&w1op, 2000);
    CHECK_EQ(w1op.status, 0);
    start_acquire(r1, &r1op, f.base);
    start_acquire(r2, &r2op, f.base);
    CHECK_MSG(until_all(&f, "ZCARD %s", "{rwf-turn}:rq", 2, 2000),
              "the two readers are not recorded as waiting on every master");
    start_acquire(w2, &w2op, f.base);
    it_run(f.base, 30);         /* the second writer retries meanwhile */
    CHECK_EQ(w2op.done, 0);
    release(w1, f.base);
    int64_t t0 = check_now_ms();
    it_op_wait(&r1op, 1000);
    it_op_wait(&r2op, 1000);
    check_note("readers in %lld and %lld ms after the release; the writer %s",
               (long long)(r1op.at_ms - t0), (long long)(r2op.at_ms - t0),
               w2op.done ? "got in first" : "waits");
    CHECK_EQ(r1op.status, 0);
    CHECK_EQ(r2op.status, 0);
    CHECK_EQ(w2op.done, 0);
    /* the turn is spent (the last reader in ended it) */
    CHECK(until_all(&f, "EXISTS %s", "{rwf-turn}:rd:~", 0, 500));
    release(r1, f.base);
    release(r2, f.base);
    it_op_wait(&w2op, 1000);
    CHECK_EQ(w2op.status, 0);
    release(w2, f.base);
    it_fix_stop(&f);
}

/* A reader holds, a writer waits (its mark on every master), a reader
 * coming later is refused and waits: at the first reader's release the
 * writer goes first, and at the writer's the later reader gets in. */
TEST(rw_fair_a_writer_waiting_behind_readers_goes_before_later_readers)
{
    static const char res[] = "rwf-mark";
    struct it_fix f = {0};
    struct it_op r1op, wop, r2op;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *r1 = fair_lock(&f, res, 0, 0, 10), *w = fair_lock(&f, res, 1, 2000, 5);
    redlock_lock *r2 = fair_lock(&f, res, 0, 2000, 5);

    start_acquire(r1, &r1op, f.base);
    it_op_wait(&r1op, 2000);
    CHECK_EQ(r1op.status, 0);
    start_acquire(w, &wop, f.base);
    CHECK(until_all(&f, "EXISTS %s", "{rwf-mark}:ww", 1, 2000));
    start_acquire(r2, &r2op, f.base);
    CHECK_MSG(until_all(&f, "ZCARD %s", "{rwf-mark}:rq", 1, 2000),
              "the later reader is not recorded as waiting on every master");
    CHECK_EQ(r2op.done, 0);
    release(r1, f.base);
    it_op_wait(&wop, 1000);
    CHECK_EQ(wop.status, 0);
    it_run(f.base, 30);
    CHECK_EQ(r2op.done, 0);     /* the writer holds */
    release(w, f.base);
    it_op_wait(&r2op, 1000);
    CHECK_EQ(r2op.status, 0);
    release(r2, f.base);
    it_fix_stop(&f);
}

/* A reader recorded as waiting whose process vanished (its records made
 * by hand, as a killed reader leaves them): the writer's release makes
 * its turn, which refuses the next writer only until it expires (the
 * releaser's retry delay + jitter + 2 node timeouts: 215 ms here).  (Were
 * it kept, no writer would ever get in.) */
TEST(rw_fair_a_vanished_readers_turn_expires)
{
    static const char res[] = "rwf-gone";
    struct it_fix f = {0};
    struct it_op w1op, w2op;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *w1 = fair_lock(&f, res, 1, 0, 10), *w2 = fair_lock(&f, res, 1, 2000, 5);

    start_acquire(w1, &w1op, f.base);
    it_op_wait(&w1op, 2000);
    CHECK_EQ(w1op.status, 0);
    it_cmd_on(f.s, 0, 3, 0, "ZADD {rwf-gone}:rq 99999999999999 ghost");
    it_cmd_on(f.s, 0, 3, 0, "SET {rwf-gone}:rw 1 PX 60000");
    release(w1, f.base);
    int64_t t0 = check_now_ms();
    for (int i = 0; i < 3; i++) {
        long long ttl = int_on(f.s, i, "PTTL %s", "{rwf-gone}:rd:~");
        CHECK_GT(ttl, 0);
        CHECK_LE(ttl, 10 + 5 + 2 * 100);
    }
    start_acquire(w2, &w2op, f.base);
    it_op_wait(&w2op, 2000);
    check_note("the next writer got in %lld ms after the release: %s",
               (long long)(w2op.at_ms - t0), redlock_lock_errstr(w2));
    CHECK_EQ(w2op.status, 0);
    CHECK_GE(w2op.at_ms - t0, 100);                 /* the turn held it back */
    CHECK_LE(w2op.at_ms - t0, 215 + 300);
    release(w2, f.base);
    it_fix_stop(&f);
}

/* A reader that gives up (its retries run out while a writer holds)
 * removes its record with its last attempt: nothing of it is left, well
 * before the record would expire (215 ms). */
TEST(rw_fair_a_reader_giving_up_leaves_no_record)
{
    static const char res[] = "rwf-quit";
    struct it_fix f = {0};
    struct it_op wop, rop;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *w = fair_lock(&f, res, 1, 0, 10), *r = fair_lock(&f, res, 0, 4, 10);

    start_acquire(w, &wop, f.base);
    it_op_wait(&wop, 2000);
    CHECK_EQ(wop.status, 0);
    start_acquire(r, &rop, f.base);
    CHECK(until_all(&f, "ZCARD %s", "{rwf-quit}:rq", 1, 1000));
    it_op_wait(&rop, 2000);
    CHECK_EQ(rop.status, REDLOCK_ENOQUORUM);
    int64_t t0 = check_now_ms();
    CHECK_MSG(until_all(&f, "EXISTS %s", "{rwf-quit}:rq", 0, 100),
              "the reader's record outlived its acquire");
    check_note("no record %lld ms after the reader gave up", (long long)(check_now_ms() - t0));
    release(w, f.base);
    it_fix_stop(&f);
}

/* A reader whose acquire has a deadline (acquire_timeout_ms 120 ms) never
 * makes its record outlive it: its life is cut to what is left (else 10 +
 * 2 x 100 = 210 ms); once it gave up, nothing is left of it. */
TEST(rw_fair_a_readers_record_never_outlives_its_deadline)
{
    static const char res[] = "rwf-due";
    struct it_fix f = {0};
    struct it_op wop, rop;
    redlock_options o;
    redlock_lock *r = NULL;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *w = fair_lock(&f, res, 1, 0, 10);
    it_opts_retry(&o, 1000, 10, 0);
    o.acquire_timeout_ms = 120;
    CHECK_EQ(redlock_lock_new_read(&r, it_fix_client(&f, &o), res, strlen(res)), 0);
    f.locks[f.nlocks++] = r;

    start_acquire(w, &wop, f.base);
    it_op_wait(&wop, 2000);
    CHECK_EQ(wop.status, 0);
    int64_t t0 = check_now_ms();
    start_acquire(r, &rop, f.base);
    /* the deadline is due after t1 + 120 at the latest, and the master
     * read the ttl after `at`: the life past it is at least ttl - left
     * (a slow reply or a late start must not read as a longer life) */
    int64_t t1 = check_now_ms();
    long long most = -1;
    while (!rop.done && check_now_ms() < t0 + 2000) {
        it_run(f.base, 2);
        for (int i = 0; i < 3; i++) {
            int64_t at = check_now_ms();
            long long ttl = int_on(f.s, i, "PTTL %s", "{rwf-due}:rq");
            int64_t left = t1 + 120 - at;
            if (ttl > 0 && ttl - left > most)
                most = ttl - left;
        }
    }
    check_note("the record's life past the deadline: %lld ms at most (-1: never seen)", most);
    CHECK_EQ(rop.done, 1);
    CHECK_NE(rop.status, 0);
    CHECK_GE(most, -120);       /* it was there */
    CHECK_LE(most, 10);         /* (the client's clock reading and the master's) */
    CHECK(until_all(&f, "EXISTS %s", "{rwf-due}:rq", 0, 60));
    release(w, f.base);
    it_fix_stop(&f);
}

/* ---- liveness under churn ------------------------------------------------ */

#define CHURN 8

struct churner {
    redlock_lock *l;
    struct event_base *base;
    struct event *ev;
    int writer, busy, stop, grants;
    int64_t asked_ms, max_wait_ms;
    int *holders;               /* [0] readers, [1] writers holding now */
    int *both;
};

static void churn_next(struct churner *w);

static void churn_released(redlock_lock *l, int status, void *pd)
{
    struct churner *w = pd;
    (void)l;
    (void)status;
    churn_next(w);
}

static void churn_hold_end(evutil_socket_t fd, short what, void *pd)
{
    struct churner *w = pd;
    (void)fd;
    (void)what;
    w->holders[w->writer]--;
    CHECK_RC(w->l, redlock_release_async(w->l, churn_released, w), 0);
}

static void churn_acquired(redlock_lock *l, int status, void *pd)
{
    struct churner *w = pd;
    struct timeval hold = {0, 3000};
    (void)l;
    if (status != 0) {
        churn_next(w);
        return;
    }
    w->grants++;
    if (check_now_ms() - w->asked_ms > w->max_wait_ms)
        w->max_wait_ms = check_now_ms() - w->asked_ms;
    w->holders[w->writer]++;
    /* counted by the holds' validity: never a writer with anyone */
    if (w->holders[1] > 1 || (w->holders[1] && w->holders[0]))
        (*w->both)++;
    evtimer_add(w->ev, &hold);
}

static void churn_next(struct churner *w)
{
    if (w->stop) {
        w->busy = 0;
        return;
    }
    w->busy = 1;
    w->asked_ms = check_now_ms();
    CHECK_RC(w->l, redlock_acquire_async(w->l, 5000, churn_acquired, w), 0);
}

/* Every 500 ms a reader that waits and vanishes (its records, as a killed
 * reader leaves them, on every master). */
struct ghosts {
    rlt_servers *s;
    struct event *ev;
    int n;
};

static void ghost_add(evutil_socket_t fd, short what, void *pd)
{
    struct ghosts *g = pd;
    char cmd[96];
    (void)fd;
    (void)what;
    snprintf(cmd, sizeof cmd, "ZADD {rwf-churn}:rq 99999999999999 ghost%d", g->n++);
    it_cmd_on(g->s, 0, 3, 0, cmd);
    it_cmd_on(g->s, 0, 3, 0, "SET {rwf-churn}:rw 1 PX 60000");
}

/* 4 readers and 4 writers, each looping (acquire with a huge retry count,
 * hold 3 ms, release) for 8 s, and a vanished reader every 500 ms: every
 * one of them gets in many times, none waits for ever (the vanished
 * readers' turns expire), the run ends, and a writer never holds with
 * anyone. */
TEST(rw_fair_readers_and_writers_looping_all_get_in)
{
    static const char res[] = "rwf-churn";
    struct it_fix f = {0};
    struct churner w[CHURN];
    int holders[2] = {0}, both = 0;
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    memset(w, 0, sizeof w);
    for (int i = 0; i < CHURN; i++) {
        w[i].writer = i % 2;
        w[i].l = fair_lock(&f, res, w[i].writer, 1000000, 5);
        w[i].base = f.base;
        w[i].holders = holders;
        w[i].both = &both;
        w[i].ev = evtimer_new(f.base, churn_hold_end, &w[i]);
        CHECK(w[i].ev != NULL);
        churn_next(&w[i]);
    }
    struct ghosts g = { f.s, NULL, 0 };
    struct timeval every = {0, 500000};
    g.ev = event_new(f.base, -1, EV_PERSIST, ghost_add, &g);
    CHECK(g.ev != NULL);
    CHECK_EQ(event_add(g.ev, &every), 0);
    it_run(f.base, 8000);
    event_free(g.ev);
    for (int i = 0; i < CHURN; i++)
        w[i].stop = 1;
    int busy = 1;
    for (int64_t end = check_now_ms() + 10000; busy && check_now_ms() < end;) {
        busy = 0;
        for (int i = 0; i < CHURN; i++)
            busy |= w[i].busy;
        if (busy)
            it_dispatch(f.base, 5);
    }
    int64_t maxw[2] = {0, 0};
    int grants[2] = {0, 0}, least = -1;
    for (int i = 0; i < CHURN; i++) {
        grants[w[i].writer] += w[i].grants;
        if (w[i].max_wait_ms > maxw[w[i].writer])
            maxw[w[i].writer] = w[i].max_wait_ms;
        if (least < 0 || w[i].grants < least)
            least = w[i].grants;
        event_free(w[i].ev);
    }
    check_note("8 s, %d vanished readers: readers %d grants (longest wait %lld ms), writers %d "
               "(%lld ms); the least of the 8: %d", g.n, grants[0], (long long)maxw[0], grants[1],
               (long long)maxw[1], least);
    CHECK_MSG(!busy, "a worker still waits 10 s after the stop");
    CHECK_GE(least, 5);
    CHECK_EQ(both, 0);
    it_fix_stop(&f);
}

/* ---- what nobody waiting costs ---------------------------------------------- */

/* Commands each master ran for n uncontended cycles of l (acquire,
 * release), by name: set, sadd, exists, sismember, get, del, srem,
 * evalsha, and everything else the turns would add. */
static const char *const cost_cmds[] = { "set", "sadd", "exists", "sismember", "get", "del",
                                         "srem", "evalsha", "eval", "zadd", "zrangebyscore",
                                         "type", "time", NULL };

static void cost_of(struct it_fix *f, redlock_lock *l, int n, long long *per)
{
    long long before[3][16], after;
    for (int i = 0; i < 3; i++)
        for (int k = 0; cost_cmds[k]; k++)
            before[i][k] = it_calls(f->s, i, cost_cmds[k]);
    for (int j = 0; j < n; j++) {
        CHECK_RC(l, redlock_acquire(l, 10000), 0);
        CHECK_RC(l, redlock_release(l), 0);
    }
    for (int k = 0; cost_cmds[k]; k++)
        per[k] = 0;
    for (int i = 0; i < 3; i++) {
        /* the release's last master may run it after the decision */
        it_wait_calls(f->s, i, "del", before[i][5] + n - 1, 1000);
        for (int k = 0; cost_cmds[k]; k++) {
            after = it_calls(f->s, i, cost_cmds[k]);
            per[k] += after - before[i][k];
        }
    }
}

/* Per master and cycle, an uncontended write cycle is SET NX, then the
 * release's EVALSHA (its GET and DEL), and a read cycle SET, SADD, EXISTS,
 * SISMEMBER, DEL, SREM: what they cost before the turns (a release that
 * asked whether readers wait would add a command). */
TEST(rw_fair_nobody_waiting_costs_what_it_did)
{
    static const long long write_cost[] = { 1, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0 };
    static const long long read_cost[] = { 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0 };
    struct it_fix f = {0};
    long long per[16];
    enum { N = 20 };
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *w = NULL, *r = NULL;
    CHECK_EQ(redlock_lock_new_write(&w, f.c, "rwf-cost", 8), 0);
    CHECK_EQ(redlock_lock_new_read(&r, f.c, "rwf-cost", 8), 0);
    f.locks[f.nlocks++] = w;
    f.locks[f.nlocks++] = r;
    CHECK_RC(w, redlock_acquire(w, 10000), 0);      /* scripts loaded, connections up */
    CHECK_RC(w, redlock_release(w), 0);
    for (int side = 0; side < 2; side++) {
        cost_of(&f, side ? r : w, N, per);
        long long all = 0;
        for (int k = 0; cost_cmds[k]; k++) {
            all += per[k];
            CHECK_MSG(per[k] == (side ? read_cost : write_cost)[k] * 3 * N,
                      "%s cycle: %s %.2f per master", side ? "read" : "write", cost_cmds[k],
                      (double)per[k] / (3.0 * N));
        }
        check_note("%s cycle: %.2f commands per master", side ? "read" : "write",
                   (double)all / (3.0 * N));
    }
    it_fix_stop(&f);
}
