/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_guard_twins.c -- one server under two addresses ("127.0.0.1:P" and
 * "localhost:P") is one vote (guard.c's twins, fanout.c), against real
 * redis-servers: masters 0 and 1 are server A, master 2 is server B.  With
 * B dead, nothing may reach a quorum of 2, which A alone would if both of
 * its addresses counted (an extend succeeds on both).
 */
#include "itest.h"
#include "proxy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hiredis/hiredis.h>

/* Server i's INFO run_id into id (41 bytes). */
static void run_id(rlt_servers *s, int i, char *id)
{
    redisReply *r = rlt_servers_command(s, i, "INFO server");
    const char *p = r && r->type == REDIS_REPLY_STRING ? strstr(r->str, "run_id:") : NULL;
    CHECK(p != NULL);
    snprintf(id, 41, "%.40s", p ? p + 7 : "");
    if (r)
        freeReplyObject(r);
}

struct events {
    int uncounted[3];
    char detail[3][160];
};

static void record(redlock_client *c, size_t node, int event, const char *detail, void *pd)
{
    struct events *ev = pd;
    (void)c;
    if (node < 3 && event == REDLOCK_NODE_UNCOUNTED) {
        ev->uncounted[node]++;
        snprintf(ev->detail[node], sizeof ev->detail[node], "%s", detail);
    }
}

/* "127.0.0.1:P0", "localhost:P0", "127.0.0.1:P1" */
static void twin_addrs(rlt_servers *s, char (*buf)[32], const char **addrs)
{
    snprintf(buf[0], 32, "127.0.0.1:%d", rlt_servers_port(s, 0));
    snprintf(buf[1], 32, "localhost:%d", rlt_servers_port(s, 0));
    snprintf(buf[2], 32, "127.0.0.1:%d", rlt_servers_port(s, 1));
    for (int i = 0; i < 3; i++)
        addrs[i] = buf[i];
}

/* Node 1's result names node 0 and A's run_id. */
static void check_twin_result(redlock_lock *l, const char *want)
{
    redlock_node_result r;
    memset(&r, 0, sizeof r);
    CHECK_EQ(redlock_lock_node_result(l, 1, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_UNCOUNTED);
    CHECK_MSG(it_has(r.detail, want), "node 1: %s (want %s)", r.detail, want);
}

/* Servers A (0) and B (1); the twin addresses of A and B's in addrs
 * (twin_addrs), A's run_id in id. */
static void twins_start(struct it_fix *f, char (*buf)[32], const char **addrs, char *id)
{
    it_fix_start(f, 2, NULL, IT_NOCLIENT);
    twin_addrs(f->s, buf, addrs);
    run_id(f->s, 0, id);
}

/* Someone's lock `key` on A, with value v1 (to be handed over). */
static void someones_lock_on_a(struct it_fix *f, const char *key)
{
    redisReply *r = rlt_servers_command(f->s, 0, "SET %s v1 PX 10000", key);
    CHECK(r && r->type == REDIS_REPLY_STATUS);
    if (r)
        freeReplyObject(r);
}

/* A lock of c on key that takes over the value v1. */
static redlock_lock *handed_over(struct it_fix *f, redlock_client *c, const char *key)
{
    redlock_lock *l = it_fix_lock(f, c, key);
    CHECK_EQ(redlock_lock_set_value(l, "v1", 2), 0);
    return l;
}

/* The extend that counts only twin nodes 0 and 1 fails; their results. */
static void extend_on_twins(redlock_lock *l, redlock_node_result *r0, redlock_node_result *r1)
{
    int rc = redlock_extend(l, 10000);
    check_note("extend: %s (%s)", redlock_strerror(rc), it_errstr(l));
    CHECK(rc != REDLOCK_OK);
    memset(r0, 0, sizeof *r0);
    memset(r1, 0, sizeof *r1);
    CHECK_EQ(redlock_lock_node_result(l, 0, r0), 0);
    CHECK_EQ(redlock_lock_node_result(l, 1, r1), 0);
    check_note("node 0: %s (%s); node 1: %s (%s)", redlock_vote_name(r0->vote), r0->detail,
               redlock_vote_name(r1->vote), r1->detail);
}

/* Node 1 is known as node 0's twin (not counted, never to be), node 0
 * counts. */
static void check_twin_stats(redlock_client *c, const char *want)
{
    redlock_node_stats st;
    memset(&st, 0, sizeof st);
    CHECK_EQ(redlock_client_node_stats(c, 1, &st), 0);
    CHECK(st.guard_flags & REDLOCK_GUARD_DUPLICATE);
    CHECK_EQ(st.counted, 0);
    CHECK_EQ(st.counted_in_ms, -1);
    CHECK_MSG(it_has(st.guard_detail, want), "stats: %s", st.guard_detail);
    CHECK_EQ(redlock_client_node_stats(c, 0, &st), 0);
    CHECK_EQ(st.guard_flags & REDLOCK_GUARD_DUPLICATE, 0u);
    CHECK_EQ(st.counted, 1);
}

/* Both servers up: A (once) and B grant it; A ran one SET, not two, and
 * the node callback heard of the twin once. */
static redlock_lock *twins_acquire_once(struct it_fix *f, redlock_client *c,
                                        const struct events *ev, const char *want)
{
    redlock_lock *l = it_fix_lock(f, c, "twins");
    long long sets = it_calls(f->s, 0, "set");
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    check_twin_result(l, want);
    CHECK_EQ(it_calls(f->s, 0, "set") - sets, 1);
    CHECK_EQ(it_count_lock(f->s, "twins", 5, l), 2);
    CHECK_EQ(ev->uncounted[1], 1);
    CHECK_MSG(it_has(ev->detail[1], want), "event: %s", ev->detail[1]);
    CHECK_EQ(ev->uncounted[0] + ev->uncounted[2], 0);
    return l;
}

/* B dies: A's two addresses are one vote, no quorum.  (Before the fix,
 * the extend succeeded on both and counted twice; the release read the
 * second address's refusal as the lock being lost.) */
static void twins_without_b(struct it_fix *f, redlock_client *c, redlock_lock *l,
                            const char *want)
{
    CHECK_EQ(rlt_servers_kill(f->s, 1), 0);
    int rc = redlock_extend(l, 10000);
    check_note("extend without B: %s (%s)", redlock_strerror(rc), it_errstr(l));
    CHECK(rc != REDLOCK_OK);
    check_twin_result(l, want);
    CHECK_LE(redlock_lock_nodes_ok(l), 1);
    rc = redlock_release(l);
    check_note("release without B: %s (%s)", redlock_strerror(rc), it_errstr(l));
    CHECK(rc != REDLOCK_OK && rc != REDLOCK_ENOTOWNER);
    check_twin_result(l, want);
    CHECK_EQ(it_count_lock(f->s, "twins", 5, l), 0);     /* deleted on A all the same */

    /* nor does a new acquire count A twice, or call it held elsewhere */
    redlock_lock *l2 = it_fix_lock(f, c, "twins-2");
    rc = redlock_try_acquire(l2, 10000);
    check_note("acquire without B: %s (%s)", redlock_strerror(rc), it_errstr(l2));
    CHECK(rc != REDLOCK_OK && rc != REDLOCK_ENOQUORUM);
    check_twin_result(l2, want);
    CHECK(it_has(it_errstr(l2), "same server as node 0"));
}

TEST(guard_twins_one_server_under_two_addresses_is_one_vote)
{
    struct it_fix f = {0};
    char buf[3][32], id[41], want[96];
    const char *addrs[3];
    redlock_options o;
    twins_start(&f, buf, addrs, id);
    snprintf(want, sizeof want, "same server as node 0 (run_id %s)", id);
    struct events ev = {{0}};
    it_opts(&o);
    o.retry_count = 0;
    o.node_cb = record;
    o.node_privdata = &ev;
    redlock_client *c = it_client_addrs(addrs, 3, &o, 3);
    f.clients[f.nclients++] = c;

    check_twin_stats(c, want);
    redlock_lock *l = twins_acquire_once(&f, c, &ev, want);
    twins_without_b(&f, c, l, want);
    it_fix_stop(&f);
}

/* The run_ids are not known yet when the requests leave (queued while
 * connecting): both addresses get the extend, both say OK, and only one
 * of them counts. */
TEST(guard_twins_counted_once_before_the_run_ids_are_known)
{
    struct it_fix f = {0};
    char buf[3][32], id[41];
    const char *addrs[3];
    redlock_options o;
    twins_start(&f, buf, addrs, id);
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    someones_lock_on_a(&f, "twins-early");
    it_opts(&o);
    o.retry_count = 0;
    redlock_client *c = it_client_new(NULL, addrs, 3, &o);
    f.clients[f.nclients++] = c;
    redlock_lock *l = handed_over(&f, c, "twins-early");
    long long scripts = it_calls(f.s, 0, "evalsha") + it_calls(f.s, 0, "eval");
    redlock_node_result r0, r1;
    extend_on_twins(l, &r0, &r1);
    /* A ran the extend for both addresses */
    CHECK_EQ(it_calls(f.s, 0, "evalsha") + it_calls(f.s, 0, "eval") - scripts, 2);
    /* (decided as soon as one is not counted and B is down: the other's
     * answer may come after the decision) */
    CHECK_LE(redlock_lock_nodes_ok(l), 1);
    CHECK(r0.vote == REDLOCK_VOTE_UNCOUNTED || r1.vote == REDLOCK_VOTE_UNCOUNTED);
    CHECK(r0.vote != REDLOCK_VOTE_OK || r1.vote != REDLOCK_VOTE_OK);
    const char *d = r0.vote == REDLOCK_VOTE_UNCOUNTED ? r0.detail : r1.detail;
    CHECK_MSG(it_has(d, "same server as node") && it_has(d, id), "detail: %s", d);
    it_fix_stop(&f);
}

/* The same with the lower address slower (its replies 60 ms late through
 * a proxy): the higher one's OK came first and counted before either
 * run_id was known, so the lower one's OK, the server's second, is not
 * counted, and its result names the other. */
TEST(guard_twins_the_second_answer_of_one_server_is_not_counted)
{
    struct it_fix f = {0};
    char buf[3][32], paddr[1][32], id[41];
    const char *addrs[3], *paddrs[1];
    rlp_thread *px[1];
    redlock_options o;
    twins_start(&f, buf, addrs, id);
    it_proxies(f.s, 1, px, paddr, paddrs);
    rlp_thread_set_latency(px[0], 1, 60, 0);
    addrs[0] = paddrs[0];
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    someones_lock_on_a(&f, "twins-late");
    it_opts(&o);
    o.retry_count = 0;
    o.node_timeout_ms = 3000;
    o.connect_timeout_ms = 3000;
    redlock_client *c = it_client_new(NULL, addrs, 3, &o);
    f.clients[f.nclients++] = c;
    redlock_lock *l = handed_over(&f, c, "twins-late");
    redlock_node_result r0, r1;
    extend_on_twins(l, &r0, &r1);
    CHECK_EQ(r1.vote, REDLOCK_VOTE_OK);
    CHECK_EQ(r0.vote, REDLOCK_VOTE_UNCOUNTED);
    CHECK_MSG(it_has(r0.detail, "same server as node 1") && it_has(r0.detail, id), "detail: %s",
              r0.detail);
    redlock_lock_free(l);
    f.nlocks = 0;
    it_fix_stop(&f);
    rlp_thread_stop(px[0]);
}
