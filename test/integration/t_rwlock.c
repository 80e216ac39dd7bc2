/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_rwlock.c -- the read/write lock against real redis-servers: readers
 * share, a writer is alone, each hold ends on its own (release or the
 * servers' TTL), a stream of readers does not starve a writer, and a reader
 * and a writer never both hold, also with a slow and a dead master.
 */
#include "itest.h"
#include "proxy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

/* A read (write 0) or write handle on res, freed by it_fix_stop. */
static redlock_lock *rw_lock(struct it_fix *f, redlock_client *c, const char *res, int write)
{
    redlock_lock *l = NULL;
    CHECK_LT(f->nlocks, IT_FIX_MAX);
    if (write)
        CHECK_EQ(redlock_lock_new_write(&l, c, res, strlen(res)), 0);
    else
        CHECK_EQ(redlock_lock_new_read(&l, c, res, strlen(res)), 0);
    CHECK_EQ(redlock_lock_kind(l), write ? REDLOCK_KIND_WRITE : REDLOCK_KIND_READ);
    f->locks[f->nlocks++] = l;
    return l;
}

/* The own key of a reader's hold on the masters: {<res>}:rd:<value> (the
 * value is the reader's id in the index <res>). */
static const char *reader_key(char *buf, size_t size, const char *res, const redlock_lock *l)
{
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    snprintf(buf, size, "{%s}:rd:%.*s", res, (int)vlen, v);
    return buf;
}

static int count_key(rlt_servers *s, const char *key)
{
    return rlt_servers_count_key(s, key, strlen(key));
}

static long long integer_on(rlt_servers *s, int i, const char *fmt, const char *key)
{
    redisReply *r = rlt_servers_command(s, i, fmt, key);
    long long v;
    CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER);
    v = r->integer;
    freeReplyObject(r);
    return v;
}

/* f on 3 masters; a handle of f->c on res (a writer when a_writes)
 * returned, *b another client's (a writer when b_writes). */
static redlock_lock *rw_two(struct it_fix *f, const char *res, int a_writes, int b_writes,
                            redlock_lock **b)
{
    it_fix_start(f, 3, NULL, 0);
    redlock_lock *a = rw_lock(f, f->c, res, a_writes);
    *b = rw_lock(f, it_fix_client(f, NULL), res, b_writes);
    return a;
}

/* On how many of n masters key is a set (the readers' index). */
static int sets_on(rlt_servers *s, int n, const char *key)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        redisReply *r = rlt_servers_command(s, i, "TYPE %s", key);
        CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
        k += strcmp(r->str, "set") == 0;
        freeReplyObject(r);
    }
    return k;
}

static void command_on_all(rlt_servers *s, int n, const char *fmt, const char *a, const char *b)
{
    for (int i = 0; i < n; i++) {
        redisReply *r = rlt_servers_command(s, i, fmt, a, b);
        CHECK(r != NULL && r->type != REDIS_REPLY_ERROR);
        freeReplyObject(r);
    }
}

/* Masters where K holds w's value; a master where K is still the readers'
 * set (it answered after the decision, so it ran no slow path) counts 0. */
static int writer_count(rlt_servers *s, const char *res, const redlock_lock *w)
{
    size_t vlen;
    const char *v = redlock_lock_value(w, &vlen);
    int n = 0;
    for (int i = 0; i < rlt_servers_count(s); i++) {
        redisReply *r = rlt_servers_command(s, i, "GET %s", res);
        CHECK(r != NULL);
        n += r->type == REDIS_REPLY_STRING && r->len == vlen && memcmp(r->str, v, vlen) == 0;
        freeReplyObject(r);
    }
    return n;
}

TEST(rw_readers_share_a_writer_is_alone)
{
    static const char res[] = "rw-share";
    struct it_fix f = {0};
    redlock_lock *r[3];
    char key[128];
    it_fix_start(&f, 3, NULL, 0);
    for (int i = 0; i < 3; i++) {
        r[i] = rw_lock(&f, i ? it_fix_client(&f, NULL) : f.c, res, 0);
        CHECK_RC(r[i], redlock_acquire(r[i], 10000), 0);
    }
    for (int i = 0; i < 3; i++) {
        CHECK_GT(redlock_lock_validity(r[i]), 0);
        CHECK_EQ(count_key(f.s, reader_key(key, sizeof key, res, r[i])), 3);
    }
    CHECK_EQ(integer_on(f.s, 0, "SCARD %s", res), 3);
    redlock_lock *w = rw_lock(&f, it_fix_client(&f, NULL), res, 1);
    CHECK_RC(w, redlock_try_acquire(w, 10000), REDLOCK_ENOQUORUM);
    check_note("writer refused: %s", redlock_lock_errstr(w));
    CHECK(it_has(redlock_lock_errstr(w), "held by 3 readers"));
    CHECK_GE(it_refusals(w, 3, "held by 3 readers", 0), 2);
    CHECK_EQ(sets_on(f.s, 3, res), 3);              /* no writer key anywhere: the index */
    CHECK_EQ(count_key(f.s, "{rw-share}:ww"), 0);     /* a try leaves no mark */

    for (int i = 0; i < 3; i++)
        CHECK_RC(r[i], redlock_release(r[i]), 0);
    CHECK_EQ(count_key(f.s, res), 0);               /* the index goes with its last member */
    CHECK_RC(w, redlock_try_acquire(w, 10000), 0);
    CHECK_EQ(it_wait_lock_count(f.s, res, strlen(res), w, 3, 2000), 3);
    CHECK_RC(r[0], redlock_try_acquire(r[0], 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(r[0]), "held by a writer"));
    CHECK_GE(it_refusals(r[0], 3, "held by a writer", 0), 2);
    CHECK_EQ(count_key(f.s, reader_key(key, sizeof key, res, r[0])), 0);   /* undone */
    /* a second writer is refused too */
    redlock_lock *w2 = rw_lock(&f, f.c, res, 1);
    CHECK_RC(w2, redlock_try_acquire(w2, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(w2), "held by a writer"));
    CHECK_RC(w, redlock_release(w), 0);
    CHECK_EQ(count_key(f.s, res), 0);
    CHECK_RC(r[0], redlock_try_acquire(r[0], 10000), 0);
    it_fix_stop(&f);
}

TEST(rw_one_readers_release_leaves_the_others_holding)
{
    static const char res[] = "rw-rel";
    struct it_fix f = {0};
    redlock_lock *r[3];
    char key[3][128];
    it_fix_start(&f, 3, NULL, 0);
    for (int i = 0; i < 3; i++) {
        r[i] = rw_lock(&f, i ? it_fix_client(&f, NULL) : f.c, res, 0);
        CHECK_RC(r[i], redlock_acquire(r[i], 10000), 0);
        reader_key(key[i], sizeof key[i], res, r[i]);
    }
    CHECK_RC(r[0], redlock_release(r[0]), 0);
    CHECK_EQ(count_key(f.s, key[0]), 0);
    CHECK_EQ(count_key(f.s, key[1]), 3);
    CHECK_EQ(count_key(f.s, key[2]), 3);
    CHECK_EQ(integer_on(f.s, 1, "SCARD %s", res), 2);
    CHECK_GT(redlock_lock_validity(r[1]), 0);
    CHECK_GT(redlock_lock_validity(r[2]), 0);
    redlock_lock *w = rw_lock(&f, f.c, res, 1);
    CHECK_RC(w, redlock_try_acquire(w, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(w), "held by 2 readers"));
    /* a second release of the same hold finds nothing: not the owner */
    CHECK_RC(r[0], redlock_release(r[0]), REDLOCK_ENOTOWNER);
    CHECK_EQ(count_key(f.s, key[1]), 3);
    CHECK_RC(r[1], redlock_release(r[1]), 0);
    CHECK_RC(w, redlock_try_acquire(w, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(w), "held by 1 reader"));
    CHECK_RC(r[2], redlock_release(r[2]), 0);
    CHECK_RC(w, redlock_try_acquire(w, 10000), 0);
    it_fix_stop(&f);
}

/* A reader that never releases: the servers' TTL of its key ends its hold,
 * while a reader with a longer ttl still holds. */
TEST(rw_an_expired_reader_no_longer_blocks_a_writer)
{
    static const char res[] = "rw-exp";
    struct it_fix f = {0};
    char key_short[128], key_long[128];
    redlock_lock *shrt, *lng = rw_two(&f, res, 0, 0, &shrt);
    redlock_lock *w = rw_lock(&f, f.c, res, 1);
    CHECK_RC(lng, redlock_acquire(lng, 20000), 0);
    CHECK_RC(shrt, redlock_acquire(shrt, 300), 0);
    reader_key(key_short, sizeof key_short, res, shrt);
    reader_key(key_long, sizeof key_long, res, lng);
    /* the index has no ttl (a reader's own key ends its hold) */
    CHECK_EQ(it_pttl(f.s, 0, res, strlen(res)), -1);
    CHECK_RC(w, redlock_try_acquire(w, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(w), "held by 2 readers"));
    CHECK_EQ(it_wait_count(f.s, key_short, strlen(key_short), 0, 3000), 0);
    CHECK_EQ(redlock_lock_validity(shrt), 0);
    CHECK_RC(w, redlock_try_acquire(w, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(w), "held by 1 reader"));
    int swept = 0;      /* the dead one swept by the writer's slow path, where it ran */
    for (int i = 0; i < 3; i++)
        swept += integer_on(f.s, i, "SCARD %s", res) == 1;
    CHECK_GE(swept, 2);
    CHECK_RC(shrt, redlock_release(shrt), REDLOCK_ENOTOWNER);
    CHECK_EQ(count_key(f.s, key_long), 3);
    /* now the long one too, without a release: only the TTL */
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "PEXPIRE %s 200", key_long);
        CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER && r->integer == 1);
        freeReplyObject(r);
    }
    CHECK_EQ(it_wait_count(f.s, key_long, strlen(key_long), 0, 3000), 0);
    CHECK_EQ(count_key(f.s, res), 3);      /* the index outlives it: no matter */
    CHECK_RC(w, redlock_try_acquire(w, 10000), 0);
    /* (a master whose plain SET answered after the decision runs no slow path) */
    CHECK_GE(writer_count(f.s, res, w), 2);
    it_fix_stop(&f);
}

/* A reader that crashed (no release): its own key expires with its ttl,
 * its id stays in the index (no ttl there), and the next writer's slow path
 * prunes it and takes the key in the same step. */
TEST(rw_a_crashed_readers_member_is_pruned_by_the_next_writer)
{
    static const char res[] = "rw-crash";
    struct it_fix f = {0};
    char key[128];
    redlock_lock *r, *w = rw_two(&f, res, 1, 0, &r);
    CHECK_RC(r, redlock_acquire(r, 200), 0);
    reader_key(key, sizeof key, res, r);
    CHECK_EQ(it_wait_count(f.s, key, strlen(key), 0, 3000), 0);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(integer_on(f.s, i, "SCARD %s", res), 1);     /* the dead member stays */
        CHECK_EQ(it_pttl(f.s, i, res, strlen(res)), -1);
    }
    CHECK_RC(w, redlock_try_acquire(w, 10000), 0);
    CHECK_GE(writer_count(f.s, res, w), 2);     /* K is the writer's string */
    CHECK_LE(sets_on(f.s, 3, res), 1);      /* (a master that answered late ran no slow path) */
    CHECK_RC(w, redlock_release(w), 0);
    it_fix_stop(&f);
}

/* Repeat l's extend (extend) or try_acquire, each returning want, until
 * node 0 answered before the decision (its vote is not NONE), at most 50
 * times; node 0's result then. */
static redlock_node_result until_node0_answered(redlock_lock *l, int extend, int want)
{
    redlock_node_result nr;
    for (int k = 0; k < 50; k++) {
        CHECK_RC(l, extend ? redlock_extend(l, 10000) : redlock_try_acquire(l, 10000), want);
        CHECK_EQ(redlock_lock_node_result(l, 0, &nr), 0);
        if (nr.vote != REDLOCK_VOTE_NONE)
            break;
    }
    return nr;
}

/* Another writer's mark on every master: reader r is refused everywhere,
 * and its undo takes back what its commands wrote; writer w is not
 * stopped by another's mark. */
static void check_reader_refused_by_a_mark_and_undone(struct it_fix *f, redlock_lock *r,
                                                      redlock_lock *w, const char *res)
{
    char key[128];
    command_on_all(f->s, 3, "HSET %s w %s", "{rw-left}:ww", "another-writer");
    CHECK_RC(r, redlock_try_acquire(r, 10000), REDLOCK_ENOQUORUM);
    CHECK_GE(it_refusals(r, 3, "a writer is waiting", 0), 2);
    reader_key(key, sizeof key, res, r);
    CHECK_EQ(it_wait_count(f->s, key, strlen(key), 0, 1000), 0);      /* undone */
    CHECK_EQ(it_wait_count(f->s, res, strlen(res), 0, 1000), 0);
    CHECK_RC(w, redlock_try_acquire(w, 10000), 0);     /* another's mark: no matter */
    CHECK_RC(w, redlock_release(w), 0);
    command_on_all(f->s, 3, "DEL %s%s", "{rw-left}:ww", "");
}

/* A mark on master 0 only, waiting for reader old: r holds (the others
 * granted), its commands ran on node 0 too (maybe answering after the
 * decision), and its extend holds, but not on node 0, where the mark
 * leaves it out. */
static void check_reader_joins_around_a_mark(struct it_fix *f, redlock_lock *r, redlock_lock *old)
{
    char field[160];
    size_t vlen;
    CHECK_RC(old, redlock_acquire(old, 10000), 0);
    const char *v = redlock_lock_value(old, &vlen);
    snprintf(field, sizeof field, "r:%.*s", (int)vlen, v);
    redisReply *rp = rlt_servers_command(f->s, 0, "HSET %s w another-writer %s 1",
                                         "{rw-left}:ww", field);
    CHECK(rp != NULL && rp->type == REDIS_REPLY_INTEGER);
    freeReplyObject(rp);
    CHECK_RC(r, redlock_try_acquire(r, 10000), 0);
    CHECK_LE(it_refusals(r, 3, "a writer is waiting", 0), 1);   /* node 0 (if it came in time) */
    int64_t t0 = check_now_ms();
    while (!integer_on(f->s, 0, "SISMEMBER rw-left %s", redlock_lock_value(r, &vlen)) &&
           check_now_ms() < t0 + 1000)
        ;
    CHECK_EQ(integer_on(f->s, 0, "SISMEMBER rw-left %s", redlock_lock_value(r, &vlen)), 1);
    redlock_node_result nr = until_node0_answered(r, 1, 0);
    CHECK_EQ(nr.vote, REDLOCK_VOTE_REFUSED);
    CHECK_MSG(it_has(nr.detail, "a writer is waiting"), "node 0: %s", nr.detail);
}

/* Another writer's mark (a hash: "w" its id, "r:<id>" the readers it waits
 * for) on every master: a reader is refused everywhere, and its undo takes
 * back what its commands wrote.  Then a reader refused by the mark on one
 * master only: it holds (the others granted), and on that master a writer
 * does not count it (it joined after the mark), while it still counts the
 * readers the mark waits for. */
TEST(rw_a_refused_reader_leaves_nothing_that_blocks_a_writer)
{
    static const char res[] = "rw-left";
    struct it_fix f = {0};
    redlock_lock *w, *r = rw_two(&f, res, 0, 1, &w);
    check_reader_refused_by_a_mark_and_undone(&f, r, w, res);
    redlock_lock *old = rw_lock(&f, f.c, res, 0);
    check_reader_joins_around_a_mark(&f, r, old);
    /* node 0 counts only the reader its mark waits for (its answer may come
     * after the decision: asked again until it came before) */
    redlock_node_result nr = until_node0_answered(w, 0, REDLOCK_ENOQUORUM);
    CHECK_EQ(nr.vote, REDLOCK_VOTE_REFUSED);
    CHECK_MSG(it_has(nr.detail, "held by 1 reader"), "node 0: %s", nr.detail);
    CHECK_GE(it_refusals(w, 3, "reader", 0), 2);
    CHECK_RC(old, redlock_release(old), 0);
    nr = until_node0_answered(w, 0, REDLOCK_ENOQUORUM);
    CHECK_MSG(nr.vote == REDLOCK_VOTE_OK, "node 0: %s", nr.detail);    /* r not counted */
    CHECK_RC(r, redlock_release(r), 0);
    it_fix_stop(&f);
}

/* A writer with retries whose plain SET was refused by a reader: its slow
 * path leaves its mark (a hash); its later attempts send the script at
 * once, and the one that is granted deletes the mark where it is granted. */
TEST(rw_a_writers_slow_path_after_readers_and_its_mark_deleted_at_the_grant)
{
    static const char res[] = "rw-slow";
    struct it_fix f = {0};
    redlock_options o;
    struct it_op op;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    it_opts(&o);
    o.retry_count = 300;
    redlock_lock *r = rw_lock(&f, f.c, res, 0);
    redlock_lock *w = rw_lock(&f, it_fix_client(&f, &o), res, 1);
    op = (struct it_op){f.base};
    CHECK_RC(r, redlock_acquire_async(r, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(r, op.status, 0);
    op = (struct it_op){f.base};
    CHECK_RC(w, redlock_acquire_async(w, 10000, it_op_cb, &op), 0);
    int64_t t0 = check_now_ms();
    while (count_key(f.s, "{rw-slow}:ww") < 3 && check_now_ms() < t0 + 2000)
        it_run(f.base, 2);
    CHECK_EQ(count_key(f.s, "{rw-slow}:ww"), 3);
    CHECK_EQ(op.done, 0);
    for (int i = 0; i < 3; i++) {
        size_t vlen;
        const char *v = redlock_lock_value(r, &vlen);
        char field[160];
        snprintf(field, sizeof field, "r:%.*s", (int)vlen, v);
        CHECK_EQ(integer_on(f.s, i, "HEXISTS {rw-slow}:ww %s", field), 1);
    }
    {
        struct it_op rel = {f.base};
        CHECK_RC(r, redlock_release_async(r, it_op_cb, &rel), 0);
        it_op_wait(&rel, 5000);
        CHECK_RC(r, rel.status, 0);
    }
    it_op_wait(&op, 5000);
    CHECK_RC(w, op.status, 0);
    int granted = 0;
    for (int i = 0; i < 3; i++) {
        redlock_node_result nr;
        CHECK_EQ(redlock_lock_node_result(w, (size_t)i, &nr), 0);
        if (nr.vote != REDLOCK_VOTE_OK)
            continue;
        granted++;
        CHECK_EQ(integer_on(f.s, i, "EXISTS %s", "{rw-slow}:ww"), 0);   /* deleted at the grant */
        size_t wlen;
        const char *wv = redlock_lock_value(w, &wlen);
        CHECK_EQ(it_has_value(f.s, i, res, strlen(res), wv, wlen), 1);
    }
    CHECK_GE(granted, 2);
    it_fix_stop(&f);
}

/* ---- contention: handles that keep taking the lock --------------------------- */

struct run;

/* One handle in a loop: acquire, hold hold_ms, release, pause, again. */
struct worker {
    struct run *run;
    redlock_lock *l;
    int writer;
    int retries;            /* acquire with retries (else try_acquire) */
    int64_t ttl_ms, hold_ms, pause_ms;
    struct event *ev;
    int busy;               /* an operation or a timer is pending */
    int once;               /* stop after the first grant's release */
    int64_t started_ms;     /* the current acquire's start */
    int64_t got_ms;         /* the first grant */
    int grants, refused_waiting;
};

#define RUN_MAX 8

struct run {
    struct event_base *base;
    rlt_servers *s;
    const char *mark;       /* the mark's key, when the run watches it */
    int nmasters;
    struct worker w[RUN_MAX];
    int n, stop;
    struct event *tick;
    /* samples every ms */
    int64_t samples, both, readers_together, writers_together;
    /* the mark: when first seen on every master; reader grants whose
     * acquire started after that, before the writer got in */
    int64_t mark_seen_ms, writer_waiting_since_ms;
    int late_readers;
};

static void worker_go(struct worker *w);

static void worker_timer(evutil_socket_t fd, short what, void *arg)
{
    struct worker *w = arg;
    (void)fd;
    (void)what;
    worker_go(w);       /* holding (busy 2): release; else acquire */
}

static void worker_released(redlock_lock *l, int status, void *privdata)
{
    struct worker *w = privdata;
    struct timeval tv = {0, (suseconds_t)(w->pause_ms * 1000)};
    (void)l;
    (void)status;
    if (w->run->stop || w->once) {
        w->busy = 0;
        return;
    }
    evtimer_add(w->ev, &tv);
}

static void worker_acquired(redlock_lock *l, int status, void *privdata)
{
    struct worker *w = privdata;
    struct run *run = w->run;
    struct timeval tv = {0, 0};
    if (status == 0) {
        w->grants++;
        if (!w->got_ms)
            w->got_ms = check_now_ms();
        if (!w->writer && run->mark_seen_ms && w->started_ms > run->mark_seen_ms &&
            run->writer_waiting_since_ms)
            run->late_readers++;
        if (w->writer)
            run->writer_waiting_since_ms = 0;
        w->busy = 2;    /* holding: the timer releases */
        tv.tv_usec = (suseconds_t)(w->hold_ms * 1000);
    } else {
        if (it_has(redlock_lock_errstr(l), "a writer is waiting"))
            w->refused_waiting++;
        if (run->stop) {
            w->busy = 0;
            return;
        }
        w->busy = 1;
        tv.tv_usec = (suseconds_t)(w->pause_ms * 1000);
    }
    evtimer_add(w->ev, &tv);
}

static void worker_go(struct worker *w)
{
    int rc;
    if (w->busy == 2) {
        w->busy = 3;
        rc = redlock_release_async(w->l, worker_released, w);
        CHECK_RC(w->l, rc, 0);
        return;
    }
    if (w->run->stop) {
        w->busy = 0;
        return;
    }
    w->busy = 1;
    w->started_ms = check_now_ms();
    if (w->writer && !w->run->writer_waiting_since_ms && w->retries)
        w->run->writer_waiting_since_ms = w->started_ms;
    rc = w->retries ? redlock_acquire_async(w->l, w->ttl_ms, worker_acquired, w)
                    : redlock_try_acquire_async(w->l, w->ttl_ms, worker_acquired, w);
    CHECK_RC(w->l, rc, 0);
}

static void run_tick(evutil_socket_t fd, short what, void *arg)
{
    struct run *run = arg;
    int readers = 0, writers = 0;
    (void)fd;
    (void)what;
    for (int i = 0; i < run->n; i++) {
        if (redlock_lock_validity(run->w[i].l) > 0)
            *(run->w[i].writer ? &writers : &readers) += 1;
    }
    run->samples++;
    run->both += readers && writers;
    run->readers_together += readers > 1;
    run->writers_together += writers > 1;
    if (run->mark && run->writer_waiting_since_ms && !run->mark_seen_ms &&
        count_key(run->s, run->mark) > run->nmasters / 2)
        run->mark_seen_ms = check_now_ms();
}

static struct worker *run_add(struct run *run, redlock_lock *l, int writer, int64_t ttl_ms,
                              int64_t hold_ms, int64_t pause_ms)
{
    struct worker *w = &run->w[run->n++];
    CHECK_LE(run->n, RUN_MAX);
    memset(w, 0, sizeof *w);
    w->run = run;
    w->l = l;
    w->writer = writer;
    w->ttl_ms = ttl_ms;
    w->hold_ms = hold_ms;
    w->pause_ms = pause_ms;
    w->ev = evtimer_new(run->base, worker_timer, w);
    CHECK(w->ev != NULL);
    return w;
}

/* Start worker w after delay_ms. */
static void run_start(struct worker *w, int64_t delay_ms)
{
    struct timeval tv = {0, (suseconds_t)(delay_ms * 1000)};
    w->busy = 1;
    evtimer_add(w->ev, &tv);
}

static void run_begin(struct run *run)
{
    struct timeval every = {0, 1000};
    run->tick = event_new(run->base, -1, EV_PERSIST, run_tick, run);
    CHECK(run->tick != NULL);
    CHECK_EQ(event_add(run->tick, &every), 0);
}

/* Stop the workers, wait until each is idle, free the events. */
static void run_end(struct run *run)
{
    int64_t deadline = check_now_ms() + 10000;
    int busy = 1;
    run->stop = 1;
    while (busy && check_now_ms() < deadline) {
        busy = 0;
        for (int i = 0; i < run->n; i++)
            busy |= run->w[i].busy != 0;
        if (busy)
            it_dispatch(run->base, 5);
    }
    CHECK_MSG(!busy, "workers still busy 10 s after the stop");
    for (int i = 0; i < run->n; i++)
        event_free(run->w[i].ev);
    event_free(run->tick);
}

/* On how many masters that granted writer l its mark is left after up to
 * 100 ms: its grant deleted the mark where it was granted (renewed < 20 ms
 * ago, the mark would live 200 ms more); a master that refused the writer
 * (a reader still there) may keep it until it expires. */
static int marks_left_where_granted(struct it_fix *f, const redlock_lock *l)
{
    int granted[3] = {0}, marks = 0;
    for (int i = 0; i < 3; i++) {
        redlock_node_result nr;
        CHECK_EQ(redlock_lock_node_result(l, (size_t)i, &nr), 0);
        granted[i] = nr.vote == REDLOCK_VOTE_OK;
    }
    for (int64_t t1 = check_now_ms();; it_run(f->base, 2)) {
        marks = 0;
        for (int i = 0; i < 3; i++)
            marks += granted[i] && rlt_servers_exists(f->s, i, "{rw-starve}:ww", 14);
        if (!marks || check_now_ms() >= t1 + 100)
            return marks;
    }
}

/* 4 readers holding 40 ms each, started 10 ms apart (always 3 or 4 hold),
 * and a writer with retries (not started); the writer. */
static struct worker *starve_setup(struct it_fix *f, struct run *run, const char *res)
{
    redlock_options o;
    it_opts(&o);
    o.retry_count = 300;            /* 10 +- 5 ms apart: 3 s and more */
    redlock_client *wc = it_fix_client(f, &o);
    memset(run, 0, sizeof *run);
    run->base = f->base;
    run->s = f->s;
    run->mark = "{rw-starve}:ww";
    run->nmasters = 3;
    for (int i = 0; i < 4; i++) {
        struct worker *r = run_add(run, rw_lock(f, i % 2 ? f->c : it_fix_client(f, NULL),
                                                res, 0), 0, 5000, 40, 0);
        run_start(r, 10 * i);
    }
    struct worker *w = run_add(run, rw_lock(f, wc, res, 1), 1, 5000, 50, 0);
    w->retries = 1;
    w->once = 1;
    return w;
}

/* Readers in overlapping holds, without a moment when none holds: a
 * writer asking with retries gets in within a reader's hold and a few retry
 * delays, because its mark turns new readers away; no reader whose acquire
 * started after the mark was seen on a quorum got in before the writer. */
TEST(rw_a_stream_of_readers_does_not_starve_a_writer)
{
    struct it_fix f = {0};
    struct run run;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    struct worker *w = starve_setup(&f, &run, "rw-starve");
    run_begin(&run);
    it_run(f.base, 300);
    int before = 0;
    for (int i = 0; i < 4; i++)
        before += run.w[i].grants;
    run_start(w, 0);
    int64_t t0 = check_now_ms();
    while (!w->got_ms && check_now_ms() < t0 + 5000)
        it_dispatch(f.base, 10);
    int marks = marks_left_where_granted(&f, w->l);
    it_run(f.base, 200);
    run_end(&run);
    int waiting = 0;
    for (int i = 0; i < 4; i++)
        waiting += run.w[i].refused_waiting;
    check_note("%d reader grants in 300 ms before the writer; writer in after %lld ms; mark on "
               "a quorum %lld ms after the writer's start (-1: not sampled); %d reader refusals \"a writer is "
               "waiting\"; %d readers in after the mark", before,
               (long long)(w->got_ms - t0), (long long)(run.mark_seen_ms ? run.mark_seen_ms - t0 : -1), waiting,
               run.late_readers);
    CHECK_GE(before, 16);                           /* the stream was running */
    CHECK_GT(run.readers_together, 0);
    CHECK_MSG(w->got_ms != 0, "the writer never got in");
    CHECK_LT(w->got_ms - t0, 500);                  /* a 40 ms hold + a few retry delays */
    /* the mark turned readers away (without it: none, and the writer
     * starved for the whole run); the 1 ms samples may miss a mark that
     * lived only a few ms (under valgrind) */
    CHECK_GT(waiting, 0);
    CHECK_EQ(run.late_readers, 0);
    CHECK_EQ(run.both, 0);
    CHECK_EQ(marks, 0);
    it_fix_stop(&f);
}

/* 5 masters, one behind a proxy that delays its replies around the node
 * timeout, another killed halfway: 4 readers and 2 writers contend, and no
 * sample (every ms) sees a reader and a writer both with validity. */
TEST(rw_never_a_reader_and_a_writer_with_a_slow_and_a_dead_master)
{
    static const char res[] = "rw-both";
    struct it_fix f = {0};
    struct run run;
    char err[256] = "", a4[64];
    it_fix_start(&f, 5, NULL, IT_ASYNC | IT_NOCLIENT);
    rlp_thread *px = rlp_thread_start(0, "127.0.0.1", rlt_servers_port(f.s, 4), err, sizeof err);
    CHECK_MSG(px != NULL, "%s", err);
    snprintf(a4, sizeof a4, "127.0.0.1:%d", rlp_thread_port(px));
    const char *addrs[5] = {rlt_servers_addr(f.s, 0), rlt_servers_addr(f.s, 1),
                            rlt_servers_addr(f.s, 2), rlt_servers_addr(f.s, 3), a4};
    for (int i = 0; i < 2; i++) {
        f.clients[f.nclients] = it_client_new(f.base, addrs, 5, NULL);
        CHECK_EQ(it_async_wait_connected(f.base, f.clients[f.nclients], 5, 3000), 0);
        f.nclients++;
    }
    rlp_thread_set_latency(px, RLP_DOWN, 80, 40);   /* 40 .. 120 ms: node timeout 100 */
    memset(&run, 0, sizeof run);
    run.base = f.base;
    /* readers pause ~40 ms between holds: a release is decided at the
     * quorum, so without the pause back-to-back readers leave the writers
     * few gaps (the slow master's release used to make that pause) */
    for (int i = 0; i < 4; i++)
        run_start(run_add(&run, rw_lock(&f, f.clients[i % 2], res, 0), 0, 400, 15, 40 + i), 0);
    for (int i = 0; i < 2; i++)
        run_start(run_add(&run, rw_lock(&f, f.clients[i], res, 1), 1, 400, 10, 2), 0);
    run_begin(&run);
    it_run(f.base, 1500);
    CHECK_EQ(rlt_servers_kill(f.s, 3), 0);
    it_run(f.base, 1500);
    run_end(&run);
    int rg = 0, wg = 0;
    for (int i = 0; i < run.n; i++)
        *(run.w[i].writer ? &wg : &rg) += run.w[i].grants;
    check_note("%lld samples: %d reader and %d writer grants, %lld samples with readers "
               "together, %lld with a reader and a writer, %lld with two writers",
               (long long)run.samples, rg, wg, (long long)run.readers_together,
               (long long)run.both, (long long)run.writers_together);
    CHECK_GE(run.samples, 1000);
    CHECK_GE(rg, 10);       /* (34-62 on a quiet 2-core machine, 16 under heavy load) */
    CHECK_GE(wg, 10);
    CHECK_GT(run.readers_together, 0);
    CHECK_EQ(run.both, 0);
    CHECK_EQ(run.writers_together, 0);
    it_fix_stop(&f);
    rlp_thread_stop(px);
}

/* ---- watchdog, lost-lock notice, fencing ---------------------------------------- */

/* The watchdog keeps a read hold and a write hold 5x their ttl, gives a
 * reader key back to a master that lost it; another's key on the masters
 * ends each hold with the notice. */
TEST(rw_watchdog_and_lost_notice_on_read_and_write_handles)
{
    struct it_fix f = {0};
    struct it_lost nr = {0}, nw = {0};
    struct it_op op;
    char key[128];
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *r = rw_lock(&f, f.c, "rw-wd-r", 0);
    redlock_lock *w = rw_lock(&f, f.c, "rw-wd-w", 1);
    nr.base = nw.base = f.base;
    CHECK_EQ(redlock_lock_set_watchdog(r, 0, 0), 0);
    CHECK_EQ(redlock_lock_set_watchdog(w, 0, 0), 0);
    CHECK_EQ(redlock_lock_on_lost(r, it_lost_cb, &nr), 0);
    CHECK_EQ(redlock_lock_on_lost(w, it_lost_cb, &nw), 0);
    op = (struct it_op){f.base};
    CHECK_RC(r, redlock_acquire_async(r, 300, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(r, op.status, 0);
    op = (struct it_op){f.base};
    CHECK_RC(w, redlock_acquire_async(w, 300, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(w, op.status, 0);
    reader_key(key, sizeof key, "rw-wd-r", r);
    for (int i = 0; i < 15; i++) {      /* 1.5 s: 5x the ttl */
        it_run(f.base, 100);
        CHECK_MSG(redlock_lock_validity(r) > 0, "%s", redlock_lock_errstr(r));
        CHECK_GT(redlock_lock_validity(w), 0);
    }
    CHECK_EQ(count_key(f.s, key), 3);
    CHECK_EQ(it_count_lock(f.s, "rw-wd-w", 7, w), 3);
    CHECK_EQ(nr.n + nw.n, 0);
    /* master 0 restarted (it lost both keys): the next extends grow them back */
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);
    int64_t t0 = check_now_ms();
    while ((count_key(f.s, key) < 3 || it_count_lock(f.s, "rw-wd-w", 7, w) < 3) &&
           check_now_ms() < t0 + 3000)
        it_run(f.base, 5);
    CHECK_EQ(count_key(f.s, key), 3);
    CHECK_EQ(it_count_lock(f.s, "rw-wd-w", 7, w), 3);
    CHECK_GT(it_pttl(f.s, 0, key, strlen(key)), 0);
    /* a key deleted without a restart was taken away: not grown back (the
     * lock holds on the other two masters) */
    redisReply *rp = rlt_servers_command(f.s, 0, "DEL %s", key);
    CHECK(rp != NULL && rp->integer == 1);
    freeReplyObject(rp);
    it_run(f.base, 300);                /* 3 extends */
    CHECK_EQ(count_key(f.s, key), 2);
    CHECK_GT(redlock_lock_validity(r), 0);
    /* a writer's key where the reader's was (another client's, bypassing
     * the lock): the re-growing extend is refused, the notice says so */
    command_on_all(f.s, 3, "SET %s %s", "rw-wd-r", "intruder");
    command_on_all(f.s, 3, "DEL %s%s", key, "");
    command_on_all(f.s, 3, "SET %s %s", "rw-wd-w", "intruder");
    CHECK(it_run_until(f.base, &nr.n, 2000));
    CHECK(it_run_until(f.base, &nw.n, 2000));
    CHECK_EQ(nr.reason, REDLOCK_LOST_REFUSED);
    CHECK_EQ(nw.reason, REDLOCK_LOST_REFUSED);
    CHECK(it_has(redlock_lock_errstr(r), "held by a writer"));
    CHECK_EQ(redlock_lock_validity(r), 0);
    CHECK_EQ(redlock_lock_validity(w), 0);
    CHECK_EQ(count_key(f.s, key), 0);       /* not re-grown under a writer */
    it_fix_stop(&f);
}

TEST(rw_fencing_tokens_on_write_handles_only)
{
    static const char res[] = "rw-fence";
    struct it_fix f = {0};
    redlock_lock *b, *a = rw_two(&f, res, 1, 1, &b);
    redlock_lock *r = rw_lock(&f, f.c, res, 0);
    CHECK_EQ(redlock_lock_set_fencing(a, 1), 0);
    CHECK_EQ(redlock_lock_set_fencing(b, 1), 0);
    CHECK_RC(r, redlock_lock_set_fencing(r, 1), REDLOCK_EINVAL);
    CHECK(it_has(redlock_lock_errstr(r), "no fencing"));
    int64_t last = 0;
    for (int i = 0; i < 30; i++) {
        redlock_lock *l = i % 3 ? a : b;
        CHECK_RC(l, redlock_acquire(l, 10000), 0);
        CHECK_MSG(redlock_lock_token(l) > last, "acquisition %d: token %lld after %lld", i,
                  (long long)redlock_lock_token(l), (long long)last);
        last = redlock_lock_token(l);
        CHECK_RC(l, redlock_release(l), 0);
    }
    /* refused by a reader: no token */
    CHECK_RC(r, redlock_acquire(r, 10000), 0);
    CHECK_RC(a, redlock_try_acquire(a, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(a), "held by 1 reader"));
    CHECK_EQ(redlock_lock_token(a), 0);
    CHECK_EQ(redlock_lock_token(r), 0);
    CHECK_RC(r, redlock_release(r), 0);
    /* master 0's counter ahead: the token follows it, the others are raised */
    it_set_int(f.s, 0, "{rw-fence}:fence", last + 1000);
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    redlock_node_result nr0;
    CHECK_EQ(redlock_lock_node_result(a, 0, &nr0), 0);
    if (nr0.vote != REDLOCK_VOTE_OK) {
        /* decided by masters 1 and 2 before master 0 answered: their
         * counters made the token */
        CHECK_GT(redlock_lock_token(a), last);
        CHECK_RC(a, redlock_release(a), 0);
        it_fix_stop(&f);
        return;
    }
    CHECK_EQ(redlock_lock_token(a), last + 1001);
    int raised = 0;
    for (int i = 1; i < 3; i++) {
        redisReply *rp = rlt_servers_command(f.s, i, "GET %s", "{rw-fence}:fence");
        CHECK(rp != NULL);
        raised += rp->type == REDIS_REPLY_STRING && atoll(rp->str) == last + 1001;
        freeReplyObject(rp);
    }
    CHECK_GE(raised, 1);
    CHECK_RC(a, redlock_release(a), 0);
    it_fix_stop(&f);
}

TEST(rw_bad_input_is_einval)
{
    struct it_fix f = {0};
    redlock_lock *l = (redlock_lock *)&f;
    it_fix_start(&f, 1, NULL, 0);
    CHECK_EQ(redlock_lock_new_read(NULL, f.c, "x", 1), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_write(NULL, f.c, "x", 1), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_read(&l, NULL, "x", 1), REDLOCK_EINVAL);
    CHECK(l == NULL);
    l = (redlock_lock *)&f;
    CHECK_EQ(redlock_lock_new_write(&l, NULL, "x", 1), REDLOCK_EINVAL);
    CHECK(l == NULL);
    CHECK_EQ(redlock_lock_new_read(&l, f.c, NULL, 1), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_write(&l, f.c, "x", 0), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_kind(NULL), REDLOCK_EINVAL);
    redlock_lock *r = rw_lock(&f, f.c, "rw-bad", 0);
    redlock_lock *w = rw_lock(&f, f.c, "rw-bad", 1);
    CHECK_RC(r, redlock_try_acquire(r, 0), REDLOCK_EINVAL);
    CHECK(it_has(redlock_lock_errstr(r), "ttl_ms"));
    CHECK_RC(w, redlock_release(w), REDLOCK_EINVAL);
    CHECK(it_has(redlock_lock_errstr(w), "never acquired"));
    CHECK_RC(r, redlock_extend(r, 1000), REDLOCK_ENOTOWNER);
    CHECK(it_has(redlock_lock_errstr(r), "not held"));
    CHECK_RC(r, redlock_acquire(r, 10000), 0);
    CHECK_RC(r, redlock_acquire(r, 10000), REDLOCK_EBUSY);
    CHECK(it_has(redlock_lock_errstr(r), "already held"));
    CHECK_RC(r, redlock_lock_set_fencing(r, 1), REDLOCK_EINVAL);
    CHECK(it_has(redlock_lock_errstr(r), "no fencing"));
    CHECK_EQ(redlock_lock_set_fencing(r, 0), 0);
    CHECK_RC(r, redlock_release(r), 0);
    it_fix_stop(&f);
}

TEST(rw_example_readers_share_the_writer_is_alone)
{
    rlt_servers *s = it_start(3, NULL);
    char cmd[512], out[2048];
    size_t n = 0;
    snprintf(cmd, sizeof cmd, "examples/rwlock %s %s %s", rlt_servers_addr(s, 0),
             rlt_servers_addr(s, 1), rlt_servers_addr(s, 2));
    FILE *p = popen(cmd, "r");
    CHECK(p != NULL);
    while (n < sizeof out - 1 && fgets(out + n, (int)(sizeof out - n), p))
        n += strlen(out + n);
    int rc = pclose(p);
    check_note("%s", out);
    CHECK_EQ(rc, 0);
    CHECK(it_has(out, "readers hold together"));
    CHECK(it_has(out, "held by 2 readers"));
    CHECK(it_has(out, "held by a writer"));
    rlt_servers_free(s);
}
