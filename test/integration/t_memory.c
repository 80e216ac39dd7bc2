/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_memory.c -- what a lock handle costs on the heap: an idle handle and a
 * held lock at N = 5 (mallinfo2's bytes in use, per handle, over many), and
 * the diagnostics that are now allocated on demand still reading right.
 */
#include "itest.h"
#include "client/client.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

#define NLOCKS 10000
#define IDLE_MAX 256
#define HELD_MAX 576

/* The client's pools of operation states (at most REDLOCK__POOL_MAX, kept
 * for reuse: as many as were in flight at once, which varies with the
 * machine's load) and of flights belong to the client, not to any lock:
 * emptied before each reading. */
static size_t in_use_by(redlock_client *c)
{
    redlock__op_pool_free(&c->fleet);
    redlock__lock_flight_pool_free(c);
    malloc_trim(0);     /* freed chunks kept in fast bins count as in use */
    return mallinfo2().uordblks;
}

static size_t in_use(void)
{
    malloc_trim(0);     /* freed chunks kept in fast bins count as in use */
    return mallinfo2().uordblks;
}

/* valgrind and ASan replace malloc: mallinfo2 then says nothing. */
static int heap_measurable(void)
{
    size_t before = in_use();
    void *volatile p = malloc(4096);
    size_t after = in_use();
    free(p);
    return after >= before + 4096;
}

TEST(memory_per_handle_idle_and_held)
{
    struct it_fix f = {0};
    it_fix_start(&f, 5, NULL, 0);
    redlock_lock **l = calloc(NLOCKS, sizeof *l);
    CHECK(l != NULL);
    int measurable = heap_measurable();
    char res[32];

    size_t before = in_use_by(f.c);
    for (int i = 0; i < NLOCKS; i++) {
        snprintf(res, sizeof res, "mem-%05d", i);
        CHECK_EQ(redlock_lock_new(&l[i], f.c, res, strlen(res)), 0);
    }
    size_t idle = (in_use_by(f.c) - before) / NLOCKS;
    /* held locks: their acquires succeeded and are no longer in flight.
     * All of them, so that what the client's connections buffer meanwhile
     * (it varies with the machine's load) is spread thin. */
    for (int i = 0; i < NLOCKS - 1; i++)
        CHECK_RC(l[i], redlock_acquire(l[i], 60000), 0);
    /* an acquire returns at its quorum: the slower masters' replies are
     * still due.  A blocking release waits for every master, and replies
     * come in order on a connection: after it, none of theirs is left. */
    CHECK_RC(l[NLOCKS - 1], redlock_acquire(l[NLOCKS - 1], 60000), 0);
    CHECK_RC(l[NLOCKS - 1], redlock_release(l[NLOCKS - 1]), 0);
    for (int i = 0; i < NLOCKS - 1; i++)
        CHECK(redlock_lock_validity(l[i]) > 0);
    size_t held = (in_use_by(f.c) - before) / (NLOCKS - 1);
    check_note("N=5: %zu B per idle handle, %zu B per held lock (targets %d, %d)%s", idle,
               held, IDLE_MAX, HELD_MAX, measurable ? "" : " (malloc replaced: not measured)");
    if (measurable) {
        CHECK_MSG(idle <= IDLE_MAX, "idle handle: %zu B", idle);
        CHECK_MSG(held <= HELD_MAX, "held lock: %zu B", held);
    }
    for (int i = 0; i < NLOCKS - 1; i++)
        CHECK_RC(l[i], redlock_release(l[i]), 0);
    for (int i = 0; i < NLOCKS; i++)
        redlock_lock_free(l[i]);
    free(l);
    it_fix_stop(&f);
}

/* Before any operation: no votes, no round trip, empty texts. */
static void check_no_diagnostics_yet(redlock_lock *a)
{
    redlock_node_result r;
    CHECK_EQ(redlock_lock_node_result(a, 0, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_NONE);
    CHECK_EQ(r.rtt_us, -1);
    CHECK(r.detail != NULL && r.detail[0] == '\0');
    CHECK(redlock_lock_errstr(a)[0] == '\0');
    CHECK_EQ(redlock_lock_nodes_ok(a), 0);
}

/* Another owner on node 1: that node refuses, the others grant; each OK
 * vote has a round trip and no text. */
static void check_one_node_refuses(struct it_fix *f, redlock_lock *a)
{
    redlock_node_result r;
    it_cmd_on(f->s, 1, 2, REDIS_REPLY_STATUS, "SET mem-diag someone-else PX 60000");
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    /* the decision may come before every node answered */
    CHECK(redlock_lock_nodes_ok(a) >= 3);
    CHECK(redlock_lock_errstr(a)[0] == '\0');
    CHECK_EQ(redlock_lock_node_result(a, 1, &r), 0);
    CHECK(r.vote == REDLOCK_VOTE_REFUSED || r.vote == REDLOCK_VOTE_NONE);
    CHECK(r.detail != NULL);
    size_t oks = 0;
    for (size_t i = 0; i < 5; i++) {
        CHECK_EQ(redlock_lock_node_result(a, i, &r), 0);
        if (r.vote == REDLOCK_VOTE_OK) {
            oks++;
            CHECK(r.rtt_us >= 0);
            CHECK(r.detail != NULL && r.detail[0] == '\0');
        }
    }
    CHECK_EQ(oks, redlock_lock_nodes_ok(a));
    CHECK_RC(a, redlock_release(a), 0);
}

/* A refused acquire: the error text and each node's reason; a success
 * clears the error text. */
static void check_refused_then_granted(struct it_fix *f)
{
    redlock_node_result r;
    redlock_lock *b = it_fix_lock(f, f->c, "mem-diag2");
    it_cmd_on(f->s, 0, 3, 0, "SET mem-diag2 someone-else PX 60000");
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    check_note("errstr: %s", redlock_lock_errstr(b));
    CHECK(redlock_lock_errstr(b)[0] != '\0');
    CHECK(redlock_lock_nodes_ok(b) <= 2);
    CHECK_EQ(redlock_lock_node_result(b, 0, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_REFUSED);
    check_note("node 0: %s", r.detail);
    CHECK(r.detail != NULL);
    CHECK_EQ(redlock_lock_node_result(b, 4, &r), 0);
    CHECK(r.vote != REDLOCK_VOTE_REFUSED);
    CHECK(r.detail != NULL && r.detail[0] == '\0');
    for (int i = 0; i < 3; i++)
        freeReplyObject(rlt_servers_command(f->s, i, "DEL mem-diag2"));
    CHECK_RC(b, redlock_try_acquire(b, 10000), 0);
    CHECK(redlock_lock_errstr(b)[0] == '\0');
    CHECK_EQ(redlock_lock_node_result(b, 0, &r), 0);
    CHECK(r.vote != REDLOCK_VOTE_REFUSED);
    CHECK(r.detail[0] == '\0');
    CHECK_RC(b, redlock_release(b), 0);
}

/* A refusal with a text: a reader turned away by a writer; the texts go
 * with the next success. */
static void check_writer_refusal_text(struct it_fix *f)
{
    redlock_node_result r;
    redlock_lock *w = NULL, *rd = NULL;
    CHECK_EQ(redlock_lock_new_write(&w, f->c, "mem-rw", 6), 0);
    CHECK_EQ(redlock_lock_new_read(&rd, f->c, "mem-rw", 6), 0);
    CHECK_RC(w, redlock_acquire(w, 10000), 0);
    CHECK_RC(rd, redlock_try_acquire(rd, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(rd), "writer"));
    CHECK_GE(it_refusals(rd, 5, "held by a writer", 0), 3);
    CHECK_RC(w, redlock_release(w), 0);
    CHECK_RC(rd, redlock_try_acquire(rd, 10000), 0);
    CHECK(redlock_lock_errstr(rd)[0] == '\0');
    for (size_t i = 0; i < 5; i++) {
        CHECK_EQ(redlock_lock_node_result(rd, i, &r), 0);
        CHECK(r.detail != NULL && r.detail[0] == '\0');
    }
    CHECK_RC(rd, redlock_release(rd), 0);
    redlock_lock_free(rd);
    redlock_lock_free(w);
}

TEST(memory_diagnostics_after_an_operation)
{
    struct it_fix f = {0};
    it_fix_start(&f, 5, NULL, 0);
    redlock_lock *a = it_fix_lock(&f, f.c, "mem-diag");
    check_no_diagnostics_yet(a);
    check_one_node_refuses(&f, a);
    check_refused_then_granted(&f);
    check_writer_refusal_text(&f);
    it_fix_stop(&f);
}

/* ---- the pools: what a burst leaves is kept until trimmed ----------------- */

#define BURST 600       /* operations at once: above REDLOCK__POOL_MAX */

struct burst {
    struct event_base *base;
    int left, done;
};

static void burst_cb(redlock_lock *l, int status, void *privdata)
{
    struct burst *b = privdata;
    CHECK_RC(l, status, 0);
    if (--b->left == 0) {
        b->done = 1;
        event_base_loopbreak(b->base);
    }
}

/* Run the loop until every operation of the client died (its late replies
 * in): then all of them are in the pool. */
static void settle_ops(struct it_fix *f)
{
    int64_t until = check_now_ms() + 10000;
    while (f->c->fleet.pool.alive && check_now_ms() < until)
        it_run(f->base, 10);
    CHECK_EQ(f->c->fleet.pool.alive, 0);
}

TEST(memory_pools_keep_a_burst_until_two_trims)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock **l = calloc(BURST, sizeof *l);
    redlock_client *c = f.c;
    struct burst b = { f.base, BURST, 0 };
    char res[32];

    CHECK(l != NULL);
    for (int i = 0; i < BURST; i++) {
        snprintf(res, sizeof res, "pool-%04d", i);
        l[i] = IT_LOCK(c, res);
        CHECK_RC(l[i], redlock_try_acquire_async(l[i], 60000, burst_cb, &b), 0);
    }
    CHECK(it_run_until(f.base, &b.done, 10000));
    settle_ops(&f);
    /* every operation and flight of the burst went back to its pool: the
     * next burst allocates nothing (a bound of REDLOCK__POOL_MAX would
     * have freed the rest, to be allocated again) */
    CHECK_GE(c->fleet.pool.nfree, (size_t)BURST);
    CHECK_GE(c->fl_pool.nfree, (size_t)BURST);
    CHECK_EQ(c->trim.armed, 1);
    check_note("after %d acquires at once: %zu operations, %zu flights pooled", BURST,
               c->fleet.pool.nfree, c->fl_pool.nfree);

    /* the first trim keeps what its period's peak used; the second, with
     * nothing in use since, frees all but the minimum */
    CHECK_EQ(redlock__op_pool_trim(&c->fleet), 1);
    CHECK_EQ(redlock__lock_flight_pool_trim(c), 1);
    CHECK_GE(c->fleet.pool.nfree, (size_t)BURST);
    CHECK_EQ(redlock__op_pool_trim(&c->fleet), 0);
    CHECK_EQ(redlock__lock_flight_pool_trim(c), 0);
    CHECK_EQ(c->fleet.pool.nfree, (size_t)REDLOCK__POOL_MAX);
    CHECK_EQ(c->fl_pool.nfree, (size_t)REDLOCK__FLIGHT_POOL);

    for (int i = 0; i < BURST; i++)
        redlock_lock_free(l[i]);   /* (held: their keys expire on their own) */
    free(l);
    it_fix_stop(&f);
}
