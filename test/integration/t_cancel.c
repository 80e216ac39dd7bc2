/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_cancel.c -- redlock_acquire_cancel and the call's own deadline
 * (redlock_acquire_for) against real redis-servers: the callback runs once,
 * inside the cancel, with its own text; an attempt in flight is undone at
 * once where it went and behind it where it is still to arrive; every
 * master's keyspace is as it was before the waiter came (its registry
 * entry gone, a writer's mark too, a recorded reader's place among the
 * readers waiting and in their turn), for every kind; the deadline ends the
 * call with its own text, retry_count aside.
 */
#include "itest.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

#define CANCELLED "acquire: cancelled by redlock_acquire_cancel"
#define FOREVER INT64_MAX

static uint64_t attempts(redlock_client *c)
{
    redlock_acquire_stats st;
    CHECK_EQ(redlock_client_acquire_stats(c, &st), 0);
    return st.attempts;
}

/* Run base until client c has sent `more` attempts beyond `from`. */
static void run_until_attempts(struct event_base *base, redlock_client *c, uint64_t from,
                               uint64_t more)
{
    int64_t end = check_now_ms() + 5000;
    while (attempts(c) < from + more && check_now_ms() < end)
        it_run(base, 5);
    CHECK_GE(attempts(c), from + more);
}

/* ---- a waiter cancelled -------------------------------------------------- */

TEST(cancel_a_waiter_runs_its_callback_once_and_leaves_nothing)
{
    struct it_fix f = {0};
    redlock_lock *a, *b;
    char before[2048];
    struct it_op op, got;
    uint64_t n0;

    it_fix_two(&f, 3, IT_ASYNC, NULL, "res", &a, &b);
    op = (struct it_op){ f.base };
    got = (struct it_op){ f.base };
    CHECK_RC(b, redlock_acquire_async(b, 10000, it_op_cb, &got), 0);
    it_op_wait(&got, 5000);
    CHECK_RC(b, got.status, 0);
    it_keyspace(f.s, NULL, before, sizeof before);
    n0 = attempts(f.c);
    /* no deadline, retry_count 3: it waits past the retries until cancelled */
    CHECK_RC(a, redlock_acquire_for_async(a, FOREVER, 10000, it_op_cb, &op), 0);
    run_until_attempts(f.base, f.c, n0, 6);
    CHECK_EQ(op.done, 0);
    CHECK_RC(a, redlock_acquire_cancel(a), 0);
    CHECK_EQ(op.done, 1);               /* inside the call */
    CHECK_EQ(op.status, REDLOCK_ECANCELED);
    CHECK_STREQ(redlock_lock_errstr(a), CANCELLED);
    it_run(f.base, 100);
    CHECK_EQ(op.done, 1);               /* exactly once */
    it_wait_keyspace(f.base, f.s, NULL, before, 2000);   /* its registry entry gone */
    /* nothing pending now */
    CHECK_RC(a, redlock_acquire_cancel(a), REDLOCK_EINVAL);
    CHECK(it_has(redlock_lock_errstr(a), "no acquire is pending on this lock (it is idle)"));
    /* the lock is free for the next owner once b releases */
    got.done = 0;
    CHECK_RC(b, redlock_release_async(b, it_op_cb, &got), 0);
    it_op_wait(&got, 5000);
    op.done = 0;
    CHECK_RC(a, redlock_acquire_async(a, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(a, op.status, 0);
    CHECK_RC(a, redlock_acquire_cancel(a), REDLOCK_EINVAL);    /* too late: held */
    CHECK(it_has(redlock_lock_errstr(a), "it is held"));
    it_fix_stop(&f);
}

struct from_cb {
    redlock_lock *victim;
    struct it_op *victim_op;
    int rc, victim_done_inside;
};

static void cancel_from_cb(redlock_lock *l, int status, void *privdata)
{
    struct from_cb *x = privdata;
    (void)l;
    (void)status;
    x->rc = redlock_acquire_cancel(x->victim);
    x->victim_done_inside = x->victim_op->done;
    event_base_loopbreak(x->victim_op->base);
}

TEST(cancel_from_inside_another_callback)
{
    struct it_fix f = {0};
    redlock_lock *a, *b;
    struct it_op op, got;
    struct from_cb x = { 0 };
    char before[2048];

    it_fix_two(&f, 3, IT_ASYNC, NULL, "res", &a, &b);
    op = (struct it_op){ f.base };
    got = (struct it_op){ f.base };
    CHECK_RC(b, redlock_acquire_async(b, 10000, it_op_cb, &got), 0);
    it_op_wait(&got, 5000);
    it_keyspace(f.s, NULL, before, sizeof before);
    CHECK_RC(a, redlock_acquire_for_async(a, FOREVER, 10000, it_op_cb, &op), 0);
    run_until_attempts(f.base, f.c, 1, 3);
    /* b's extend callback cancels a */
    x.victim = a;
    x.victim_op = &op;
    x.rc = 1;
    CHECK_RC(b, redlock_extend_async(b, 10000, cancel_from_cb, &x), 0);
    it_run_until(f.base, &x.victim_done_inside, 5000);
    CHECK_EQ(x.rc, 0);
    CHECK_EQ(x.victim_done_inside, 1);
    CHECK_EQ(op.status, REDLOCK_ECANCELED);
    CHECK_STREQ(redlock_lock_errstr(a), CANCELLED);
    it_wait_keyspace(f.base, f.s, NULL, before, 2000);
    CHECK_EQ(op.done, 1);
    it_fix_stop(&f);
}

/* The attempt in flight: masters 0 and 1 stopped, master 2 granted it; the
 * cancel takes it back from master 2 at once, and the stopped ones, which
 * run the SET when they go on, run its undo right after it. */
TEST(cancel_an_attempt_in_flight_undoes_it_where_it_went_and_where_it_arrives_late)
{
    struct it_fix f = {.key = "res"};
    redlock_options o;
    struct it_op op;
    int64_t end;

    it_opts(&o);
    o.node_timeout_ms = 3000;   /* the attempt stays undecided */
    it_fix_start(&f, 3, &o, IT_ASYNC);
    op = (struct it_op){ f.base };
    CHECK_EQ(rlt_servers_pause(f.s, 0), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_RC(f.lock, redlock_acquire_async(f.lock, 10000, it_op_cb, &op), 0);
    end = check_now_ms() + 3000;
    while (rlt_servers_exists(f.s, 2, "res", 3) != 1 && check_now_ms() < end)
        it_run(f.base, 5);
    CHECK_EQ(rlt_servers_exists(f.s, 2, "res", 3), 1);
    CHECK_EQ(op.done, 0);
    CHECK_RC(f.lock, redlock_acquire_cancel(f.lock), 0);
    CHECK_EQ(op.done, 1);
    CHECK_EQ(op.status, REDLOCK_ECANCELED);
    CHECK_STREQ(redlock_lock_errstr(f.lock), CANCELLED);
    /* master 2 gives it back now, not at the attempt's node timeout */
    end = check_now_ms() + 1000;
    while (rlt_servers_exists(f.s, 2, "res", 3) != 0 && check_now_ms() < end)
        it_run(f.base, 5);
    CHECK_EQ(rlt_servers_exists(f.s, 2, "res", 3), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 0), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    it_wait_keyspace(f.base, f.s, NULL, "0: | 1: | 2: | ", 3000);
    it_run(f.base, 50);
    CHECK_EQ(op.done, 1);       /* the late replies call nobody */
    it_fix_stop(&f);
}

/* ---- refusals -------------------------------------------------------------- */

TEST(cancel_refused_when_nothing_is_pending_or_the_client_is_gone)
{
    struct it_fix f = {.key = "res"};
    redlock_client *c2;
    redlock_lock *l2;

    it_fix_start(&f, 3, NULL, 0);
    CHECK_EQ(redlock_acquire_cancel(NULL), REDLOCK_EINVAL);
    CHECK_RC(f.lock, redlock_acquire_cancel(f.lock), REDLOCK_EINVAL);  /* never started */
    CHECK(it_has(redlock_lock_errstr(f.lock), "it is idle"));
    CHECK_RC(f.lock, redlock_acquire(f.lock, 10000), 0);
    CHECK_RC(f.lock, redlock_acquire_cancel(f.lock), REDLOCK_EINVAL);  /* held */
    CHECK_RC(f.lock, redlock_release(f.lock), 0);
    c2 = it_fix_client(&f, NULL);
    CHECK_EQ(redlock_lock_new(&l2, c2, "other", 5), 0);
    redlock_client_free(c2);
    f.clients[--f.nclients] = NULL;
    CHECK_RC(l2, redlock_acquire_cancel(l2), REDLOCK_ECLOSED);
    CHECK(it_has(redlock_lock_errstr(l2), "client was freed"));
    redlock_lock_free(l2);
    it_fix_stop(&f);
}

/* ---- the call's deadline ---------------------------------------------------- */

TEST(cancel_acquire_for_deadline_times_out_with_its_own_text_past_retry_count)
{
    struct it_fix f = {0};
    redlock_options o;
    redlock_lock *a, *b;
    char before[2048];
    uint64_t n0;
    int64_t t0, took;

    it_opts_retry(&o, 0, 20, 5);        /* retry_count 0: one attempt, were it the limit */
    it_fix_start(&f, 3, &o, 0);
    a = it_fix_lock(&f, f.c, "res");
    b = it_fix_lock(&f, it_fix_client(&f, NULL), "res");
    CHECK_RC(b, redlock_acquire(b, 10000), 0);
    it_keyspace(f.s, NULL, before, sizeof before);
    n0 = attempts(f.c);
    t0 = check_now_ms();
    CHECK_RC(a, redlock_acquire_for(a, 300, 10000), REDLOCK_ETIMEDOUT);
    took = check_now_ms() - t0;
    check_note("acquire_for(300 ms) returned after %lld ms, %llu attempts", (long long)took,
               (unsigned long long)(attempts(f.c) - n0));
    CHECK(it_has(redlock_lock_errstr(a), "acquire: the call's deadline passed (wait_ms 300)"));
    CHECK(it_has(redlock_lock_errstr(a), "last attempt: acquire: "));
    /* bounded: the deadline and at most a node timeout (the cut attempt) */
    CHECK_GE(took, 250);
    CHECK_LE(took, 300 + 100 + 400);
    CHECK_GE(attempts(f.c) - n0, 3);    /* retry_count did not stop it */
    it_wait_keyspace(NULL, f.s, NULL, before, 2000);
    /* the client-wide policy is the lock's again for the next call */
    n0 = attempts(f.c);
    CHECK_RC(a, redlock_acquire(a, 10000), REDLOCK_ENOQUORUM);
    CHECK_EQ(attempts(f.c) - n0, 1);
    it_fix_stop(&f);
}

TEST(cancel_acquire_for_zero_is_one_attempt_and_negative_is_refused)
{
    struct it_fix f = {0};
    redlock_lock *a, *b;
    struct it_op op;
    uint64_t n0;

    it_fix_two(&f, 3, IT_ASYNC, NULL, "res", &a, &b);
    op = (struct it_op){ f.base };
    CHECK_RC(a, redlock_acquire_for_async(a, -1, 10000, it_op_cb, &op), REDLOCK_EINVAL);
    CHECK(it_has(redlock_lock_errstr(a), "wait_ms must be >= 0"));
    CHECK_RC(a, redlock_acquire_for_async(a, INT64_MIN, 10000, it_op_cb, &op), REDLOCK_EINVAL);
    it_run(f.base, 20);
    CHECK_EQ(op.done, 0);       /* refused: no callback */
    CHECK_RC(b, redlock_acquire_async(b, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    n0 = attempts(f.c);
    op.done = 0;
    CHECK_RC(a, redlock_acquire_for_async(a, 0, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_EQ(op.status, REDLOCK_ENOQUORUM);
    CHECK_EQ(attempts(f.c) - n0, 1);
    it_fix_stop(&f);
}

/* ---- from another thread ------------------------------------------------------ */

struct blocked {
    redlock_lock *l;
    int rc;
};

static void *blocked_main(void *arg)
{
    struct blocked *x = arg;
    x->rc = redlock_acquire_for(x->l, FOREVER, 10000);
    return NULL;
}

TEST(threads_cancel_a_blocking_acquire_from_another_thread)
{
    struct it_fix f = {0};
    redlock_options o;
    redlock_lock *a, *b;
    struct blocked x;
    pthread_t th;
    char before[2048];
    int64_t end;

    it_opts(&o);
    o.loop_thread = 1;
    it_fix_start(&f, 3, &o, 0);
    a = it_fix_lock(&f, f.c, "res");
    b = it_fix_lock(&f, it_fix_client(&f, NULL), "res");
    CHECK_RC(b, redlock_acquire(b, 10000), 0);
    it_keyspace(f.s, NULL, before, sizeof before);
    x = (struct blocked){ a, 1 };
    CHECK_EQ(pthread_create(&th, NULL, blocked_main, &x), 0);
    end = check_now_ms() + 5000;
    while (attempts(f.c) < 5 && check_now_ms() < end)
        it_sleep_ms(5);
    CHECK_GE(attempts(f.c), 5);     /* waiting past retry_count 3 */
    CHECK_RC(a, redlock_acquire_cancel(a), 0);
    CHECK_EQ(pthread_join(th, NULL), 0);
    CHECK_EQ(x.rc, REDLOCK_ECANCELED);
    CHECK_STREQ(redlock_lock_errstr(a), CANCELLED);
    it_wait_keyspace(NULL, f.s, NULL, before, 2000);
    CHECK_RC(a, redlock_acquire_cancel(a), REDLOCK_EINVAL);
    it_fix_stop(&f);
}

/* ---- every kind ---------------------------------------------------------------- */

enum { K_REENTRANT, K_READ, K_WRITE, K_MULTI, K_SEMAPHORE };

static redlock_lock *kind_lock(struct it_fix *f, redlock_client *c, int kind, const char *owner)
{
    static const void *const res[2] = { "res", "zzz" };
    static const size_t lens[2] = { 3, 3 };
    redlock_lock *l = NULL;

    switch (kind) {
    case K_REENTRANT:
        CHECK_EQ(redlock_lock_new_reentrant(&l, c, "res", 3, owner, strlen(owner)), 0);
        break;
    case K_READ:
        CHECK_EQ(redlock_lock_new_read(&l, c, "res", 3), 0);
        break;
    case K_WRITE:
        CHECK_EQ(redlock_lock_new_write(&l, c, "res", 3), 0);
        break;
    case K_SEMAPHORE:
        CHECK_EQ(redlock_lock_new_semaphore(&l, c, "res", 3, 1), 0);
        break;
    default:
        CHECK_EQ(redlock_lock_new_multi(&l, c, res, lens, 2), 0);
    }
    f->locks[f->nlocks++] = l;
    return l;
}

/* A waiter of `kind` behind a holder of `holder_kind`, cancelled (or, with
 * wait_ms > 0, timed out; < 0, its handle freed): every master's keys as
 * they were before it. */
static void kind_gives_up(int holder_kind, int kind, int64_t wait_ms, const char *must_appear)
{
    struct it_fix f = {0};
    redlock_options o;
    redlock_lock *a, *b;
    redlock_client *other;
    struct it_op op, got;
    char before[2048], during[2048];

    /* a retry delay longer than the check below: a mark made by a refused
     * attempt lives past it (mark_ms), unless taken away */
    it_opts_retry(&o, 3, 1000, 0);
    it_fix_start(&f, 3, &o, IT_ASYNC);
    other = it_fix_client(&f, NULL);
    b = kind_lock(&f, other, holder_kind, "holder");
    a = kind_lock(&f, f.c, kind, "waiter");
    op = (struct it_op){ f.base };
    got = (struct it_op){ f.base };
    CHECK_RC(b, redlock_acquire_async(b, 10000, it_op_cb, &got), 0);
    it_op_wait(&got, 5000);
    CHECK_RC(b, got.status, 0);
    it_keyspace(f.s, NULL, before, sizeof before);
    CHECK_RC(a, redlock_acquire_for_async(a, wait_ms > 0 ? wait_ms : FOREVER, 10000, it_op_cb,
                                          &op), 0);
    run_until_attempts(f.base, f.c, 0, 1);
    it_run(f.base, 50);         /* the first attempt refused, the next one 1 s away */
    CHECK_EQ(op.done, 0);
    it_keyspace(f.s, NULL, during, sizeof during);
    check_note("keys while waiting: %s", during);
    if (must_appear)
        CHECK_MSG(strstr(during, must_appear) != NULL, "\"%s\" while waiting", must_appear);
    if (wait_ms < 0) {
        redlock_lock_free(a);       /* the handle freed while it waits */
        f.locks[--f.nlocks] = NULL;
        CHECK_EQ(op.done, 1);
        CHECK_EQ(op.status, REDLOCK_ECANCELED);
    } else if (wait_ms) {
        it_op_wait(&op, wait_ms + 2000);
        CHECK_EQ(op.status, REDLOCK_ETIMEDOUT);
        CHECK(it_has(redlock_lock_errstr(a), "the call's deadline passed"));
    } else {
        CHECK_RC(a, redlock_acquire_cancel(a), 0);
        CHECK_EQ(op.done, 1);
        CHECK_EQ(op.status, REDLOCK_ECANCELED);
    }
    it_wait_keyspace(f.base, f.s, NULL, before, 300);    /* well before the mark's 1.2 s */
    it_fix_stop(&f);
}

TEST(cancel_each_kind_leaves_nothing_reentrant)
{
    kind_gives_up(K_REENTRANT, K_REENTRANT, 0, NULL);
}

TEST(cancel_each_kind_leaves_nothing_read)
{
    kind_gives_up(K_WRITE, K_READ, 0, NULL);
}

/* A reader behind a writer, cancelled (freed: its handle freed) after a
 * later attempt recorded it among the readers waiting ({res}:rq, {res}:rw
 * on every master): both gone well before their life (the retry delay and
 * two node timeouts, 1.2 s), so the writer's release makes no readers'
 * turn for it and a new writer comes in at once.  in_turn: the writer
 * released first (the reader, not woken, retries 1 s later), the turn
 * {res}:rd:~ names the reader when it is cancelled: the turn goes, and K
 * (its member "~") with it. */
static void read_gives_up_recorded(int freed, int in_turn)
{
    struct it_fix f = {0};
    redlock_options o;
    redlock_lock *a, *b, *w;
    redlock_client *other;
    struct it_op op, got;
    char before[2048], during[2048];
    int64_t end;

    it_opts_retry(&o, 3, 1000, 0);
    o.wake = !in_turn;
    it_fix_start(&f, 3, &o, IT_ASYNC);
    other = it_fix_client(&f, NULL);
    b = kind_lock(&f, other, K_WRITE, "holder");
    w = kind_lock(&f, other, K_WRITE, "next");
    a = kind_lock(&f, f.c, K_READ, "waiter");
    op = (struct it_op){ f.base };
    got = (struct it_op){ f.base };
    CHECK_RC(b, redlock_acquire_async(b, 10000, it_op_cb, &got), 0);
    it_op_wait(&got, 5000);
    CHECK_RC(b, got.status, 0);
    it_keyspace(f.s, NULL, before, sizeof before);
    CHECK_RC(a, redlock_acquire_for_async(a, FOREVER, 10000, it_op_cb, &op), 0);
    /* the first attempt records nothing; the second (1 s on) does */
    end = check_now_ms() + 3000;
    while (rlt_servers_count_key(f.s, "{res}:rq", 8) < 3 && check_now_ms() < end)
        it_run(f.base, 5);
    CHECK_EQ(rlt_servers_count_key(f.s, "{res}:rq", 8), 3);
    CHECK_EQ(rlt_servers_count_key(f.s, "{res}:rw", 8), 3);
    CHECK_EQ(op.done, 0);
    if (in_turn) {
        got.done = 0;
        CHECK_RC(b, redlock_release_async(b, it_op_cb, &got), 0);
        it_op_wait(&got, 5000);
        CHECK_RC(b, got.status, 0);
        CHECK_EQ(rlt_servers_count_key(f.s, "{res}:rd:~", 10), 3);
        snprintf(before, sizeof before, "0: | 1: | 2: | ");
    }
    it_keyspace(f.s, NULL, during, sizeof during);
    check_note("keys while recorded: %s", during);
    CHECK_EQ(op.done, 0);
    if (freed) {
        redlock_lock_free(a);
        f.locks[--f.nlocks] = NULL;
    } else {
        CHECK_RC(a, redlock_acquire_cancel(a), 0);
    }
    CHECK_EQ(op.done, 1);
    CHECK_EQ(op.status, REDLOCK_ECANCELED);
    it_wait_keyspace(f.base, f.s, NULL, before, 300);    /* well before the record's 1.2 s */
    if (!in_turn) {
        got.done = 0;
        CHECK_RC(b, redlock_release_async(b, it_op_cb, &got), 0);
        it_op_wait(&got, 5000);
        CHECK_RC(b, got.status, 0);
    }
    /* no readers' turn for the reader that gave up */
    CHECK_EQ(rlt_servers_count_key(f.s, "{res}:rd:~", 10), 0);
    got.done = 0;
    CHECK_RC(w, redlock_try_acquire_async(w, 10000, it_op_cb, &got), 0);
    it_op_wait(&got, 5000);
    CHECK_RC(w, got.status, 0);
    it_fix_stop(&f);
}

TEST(cancel_each_kind_leaves_nothing_read_recorded)
{
    read_gives_up_recorded(0, 0);
}

TEST(cancel_each_kind_leaves_nothing_read_freed_recorded)
{
    read_gives_up_recorded(1, 0);
}

TEST(cancel_each_kind_leaves_nothing_read_in_its_turn)
{
    read_gives_up_recorded(0, 1);
}

TEST(cancel_each_kind_leaves_nothing_write_its_mark_gone)
{
    kind_gives_up(K_READ, K_WRITE, 0, "{res}:ww");
}

TEST(cancel_each_kind_leaves_nothing_write_timed_out_its_mark_gone)
{
    kind_gives_up(K_READ, K_WRITE, 1500, "{res}:ww");
}

TEST(cancel_each_kind_leaves_nothing_write_freed_its_mark_gone)
{
    kind_gives_up(K_READ, K_WRITE, -1, "{res}:ww");
}

TEST(cancel_each_kind_leaves_nothing_multi)
{
    kind_gives_up(K_WRITE, K_MULTI, 0, NULL);
}

/* its one permit held by another handle */
TEST(cancel_each_kind_leaves_nothing_semaphore)
{
    kind_gives_up(K_SEMAPHORE, K_SEMAPHORE, 0, NULL);
}

TEST(cancel_each_kind_leaves_nothing_semaphore_timed_out)
{
    kind_gives_up(K_SEMAPHORE, K_SEMAPHORE, 1500, NULL);
}

/* An attempt of `kind` in flight on a free resource (masters 0 and 1
 * stopped), cancelled: master 2 gives back what it granted at once, the
 * others run the undo behind the attempt when they go on. */
static void kind_in_flight(int kind)
{
    struct it_fix f = {0};
    redlock_options o;
    redlock_lock *a;
    struct it_op op;
    char during[2048];
    int64_t end;

    it_opts(&o);
    o.node_timeout_ms = 3000;
    it_fix_start(&f, 3, &o, IT_ASYNC);
    a = kind_lock(&f, f.c, kind, "waiter");
    op = (struct it_op){ f.base };
    CHECK_EQ(rlt_servers_pause(f.s, 0), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_RC(a, redlock_acquire_async(a, 10000, it_op_cb, &op), 0);
    end = check_now_ms() + 3000;
    do {
        it_run(f.base, 5);
        it_keyspace(f.s, NULL, during, sizeof during);
    } while (strcmp(during, "2: | ") == 0 && check_now_ms() < end);
    check_note("master 2 while in flight: %s", during);
    CHECK_MSG(strcmp(during, "2: | ") != 0, "nothing of the attempt on master 2");
    CHECK_EQ(op.done, 0);
    CHECK_RC(a, redlock_acquire_cancel(a), 0);
    CHECK_EQ(op.done, 1);
    CHECK_EQ(op.status, REDLOCK_ECANCELED);
    it_wait_keyspace(f.base, f.s, NULL, "2: | ", 1000);
    CHECK_EQ(rlt_servers_resume(f.s, 0), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    it_wait_keyspace(f.base, f.s, NULL, "0: | 1: | 2: | ", 3000);
    CHECK_EQ(op.done, 1);
    it_fix_stop(&f);
}

TEST(cancel_in_flight_each_kind_reentrant)
{
    kind_in_flight(K_REENTRANT);
}

TEST(cancel_in_flight_each_kind_read)
{
    kind_in_flight(K_READ);
}

TEST(cancel_in_flight_each_kind_write)
{
    kind_in_flight(K_WRITE);
}

TEST(cancel_in_flight_each_kind_multi)
{
    kind_in_flight(K_MULTI);
}

TEST(cancel_in_flight_each_kind_semaphore)
{
    kind_in_flight(K_SEMAPHORE);
}

TEST(cancel_example_runs)
{
    rlt_servers *s = it_start(3, NULL);
    static const char *const says[] = {
        "holder holds report-run",
        "operation cancelled: acquire: cancelled by redlock_acquire_cancel",
        "timed out: acquire: the call's deadline passed (wait_ms 200)", NULL };
    it_example_says("examples/cancel", s, says);
    rlt_servers_free(s);
}

/* A re-entrant lock's acquire of one more hold, cancelled in flight: the
 * hold it had stays (validity, count, its key on every master). */
TEST(cancel_in_flight_reentrant_more_hold_keeps_the_one_it_had)
{
    struct it_fix f = {0};
    redlock_options o;
    redlock_lock *a;
    struct it_op op;
    size_t vlen;
    const char *v;
    char value[256];

    it_opts(&o);
    o.node_timeout_ms = 3000;
    it_fix_start(&f, 3, &o, IT_ASYNC);
    a = kind_lock(&f, f.c, K_REENTRANT, "owner");
    op = (struct it_op){ f.base };
    CHECK_RC(a, redlock_acquire_async(a, 20000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(a, op.status, 0);
    CHECK_EQ(redlock_lock_holds(a), 1);
    v = redlock_lock_value(a, &vlen);
    snprintf(value, sizeof value, "%.*s", (int)vlen, v);
    CHECK_EQ(rlt_servers_pause(f.s, 0), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    op.done = 0;
    CHECK_RC(a, redlock_acquire_async(a, 20000, it_op_cb, &op), 0);
    it_run(f.base, 50);
    CHECK_EQ(op.done, 0);
    CHECK_RC(a, redlock_acquire_cancel(a), 0);
    CHECK_EQ(op.done, 1);
    CHECK_EQ(op.status, REDLOCK_ECANCELED);
    CHECK_EQ(redlock_lock_holds(a), 1);
    CHECK_GT(redlock_lock_validity(a), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 0), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    it_run(f.base, 200);
    CHECK_EQ(rlt_servers_count_key(f.s, "res", 3), 3);
    op.done = 0;
    CHECK_RC(a, redlock_release_async(a, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(a, op.status, 0);      /* one hold given back: the last */
    it_wait_keyspace(f.base, f.s, NULL, "0: | 1: | 2: | ", 2000);
    it_fix_stop(&f);
}
