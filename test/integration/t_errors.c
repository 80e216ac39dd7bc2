/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_errors.c -- what a lock's setters refuse, and what a failed operation's
 * error text says:
 *
 *   errors_setters_refused_while_held     set_value / set_fencing on a handle
 *                                         that holds its lock: EBUSY, "held by
 *                                         this handle", the hold untouched
 *   errors_setters_and_the_watchdogs_extend
 *                                         a 2 ms watchdog: its extend in flight
 *                                         never makes a setter say "in flight"
 *   errors_setter_takes_over_an_ended_holds_extend
 *                                         the hold ran out while the watchdog's
 *                                         extend was in flight: the setter is
 *                                         not refused, and the extend's late
 *                                         win does not bring the hold back
 *   errors_guard_reason_whole_*           a guard's reason whole in the error
 *                                         text, the "not counted" count, and
 *                                         EUNCOUNTED (not "masters unreachable")
 *                                         when live masters were ignored
 */
#include "itest.h"
#include "client/client.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#define HELD "the lock is held by this handle"
#define FLIGHT "in flight"

/* ---- the setters ------------------------------------------------------- */

/* A setter's EBUSY says the handle holds its lock, not "in flight". */
static void check_held_text(redlock_lock *l)
{
    CHECK_MSG(it_has(it_errstr(l), HELD) && !it_has(it_errstr(l), FLIGHT), "errstr: %s",
              it_errstr(l));
}

static void check_value(redlock_lock *l, const char *want, size_t wlen)
{
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);
    CHECK(v != NULL && vlen == wlen && memcmp(v, want, wlen) == 0);
}

static void setters_refused_while_held(struct it_fix *f, redlock_lock *l, const char *key)
{
    size_t klen = strlen(key), vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);
    char value[64];
    CHECK(v != NULL && vlen < sizeof value);
    memcpy(value, v, vlen);

    CHECK_RC(l, redlock_lock_set_value(l, "other", 5), REDLOCK_EBUSY);
    check_held_text(l);
    CHECK_RC(l, redlock_lock_set_value(l, NULL, 0), REDLOCK_EBUSY);
    check_held_text(l);
    CHECK_RC(l, redlock_lock_set_fencing(l, 1), REDLOCK_EBUSY);
    check_held_text(l);
    CHECK_EQ(redlock_lock_set_fencing(l, 0), 0);    /* off already: nothing changes */
    /* the hold goes on with its value */
    check_value(l, value, vlen);
    CHECK_GT(redlock_lock_validity(l), 0);
    CHECK_EQ(rlt_servers_count_key(f->s, key, klen), 3);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_count_key(f->s, key, klen), 0);
}

TEST(errors_setters_refused_while_held)
{
    struct it_fix f = {.key = "err-held"};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = f.lock;
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "err-held", 8, l, 3, 2000), 3);
    /* as an acquire is */
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_EBUSY);
    CHECK_MSG(it_has(it_errstr(l), "already held by this handle"), "errstr: %s", it_errstr(l));
    setters_refused_while_held(&f, l, "err-held");

    /* released: both setters work again, and the acquire uses them */
    CHECK_EQ(redlock_lock_set_value(l, "other", 5), 0);
    CHECK_EQ(redlock_lock_set_fencing(l, 1), 0);
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_GT(redlock_lock_token(l), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "err-held", 8, l, 3, 2000), 3);
    check_value(l, "other", 5);
    CHECK_RC(l, redlock_lock_set_fencing(l, 0), REDLOCK_EBUSY);
    check_held_text(l);
    CHECK_RC(l, redlock_release(l), 0);

    /* a re-entrant handle, which may acquire again while it holds: its
     * value is still not to be changed under the hold */
    redlock_lock *re = NULL;
    CHECK_EQ(redlock_lock_new_reentrant(&re, f.c, "err-held-re", 11, "owner", 5), 0);
    CHECK_RC(re, redlock_acquire(re, 10000), 0);
    CHECK_EQ(it_wait_count(f.s, "err-held-re", 11, 3, 2000), 3);
    setters_refused_while_held(&f, re, "err-held-re");
    redlock_lock_free(re);
    it_fix_stop(&f);
}

/* An application's operation in flight: the setters say so. */
TEST(errors_setters_refused_while_an_operation_is_in_flight)
{
    struct it_fix f = {.key = "err-flight"};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *l = f.lock;
    struct it_op op = {f.base};
    CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, &op), 0);
    CHECK_RC(l, redlock_lock_set_value(l, "other", 5), REDLOCK_EBUSY);
    CHECK_MSG(it_has(it_errstr(l), "an operation is already in flight"), "errstr: %s",
              it_errstr(l));
    CHECK_RC(l, redlock_lock_set_fencing(l, 1), REDLOCK_EBUSY);
    CHECK_MSG(it_has(it_errstr(l), "an operation is already in flight"), "errstr: %s",
              it_errstr(l));
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);
    op.done = 0;
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), 0);
    CHECK_RC(l, redlock_lock_set_value(l, "other", 5), REDLOCK_EBUSY);
    CHECK(it_has(it_errstr(l), "an operation is already in flight"));
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);
    CHECK_EQ(redlock_lock_set_value(l, "other", 5), 0);
    it_fix_stop(&f);
}

/* Run the loop until the watchdog's extend is in flight (want 1) or not
 * (want 0); the test fails after 5 s. */
static void until_in_flight(struct event_base *base, redlock_lock *l, int want)
{
    int64_t t0 = check_now_ms();
    while (redlock__watch_in_flight(l) != want && check_now_ms() - t0 < 5000)
        event_base_loop(base, EVLOOP_ONCE);
    CHECK_EQ(redlock__watch_in_flight(l), want);
}

/* The figures: 20,000 calls with a 2 ms watchdog, 455 of them
 * refused as "in flight".  The handle holds its lock all along, so every
 * call is refused as held, whether the watchdog's extend is in flight or
 * not; and in rounds that wait for each state, deterministically. */
#define CALLS 20000
#define ROUNDS 200

TEST(errors_setters_and_the_watchdogs_extend)
{
    struct it_fix f = {.key = "err-wd"};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *l = f.lock;
    struct it_lost lost = {f.base, 0, 0};
    CHECK_EQ(redlock_lock_set_watchdog(l, 2, 0), 0);
    CHECK_EQ(redlock_lock_on_lost(l, it_lost_cb, &lost), 0);
    struct it_op op = {f.base};
    CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);

    long held = 0, flight = 0, other = 0, during = 0;
    for (int i = 0; i < CALLS + 4 * ROUNDS; i++) {
        if (i >= CALLS)     /* the rounds: each state in turn */
            until_in_flight(f.base, l, ((i - CALLS) / 2) % 2 == 0);
        else
            event_base_loop(f.base, EVLOOP_NONBLOCK);
        during += redlock__watch_in_flight(l);
        int rc = i % 2 ? redlock_lock_set_fencing(l, 1) : redlock_lock_set_value(l, "x", 1);
        if (rc == REDLOCK_EBUSY && it_has(it_errstr(l), HELD))
            held++;
        else if (rc == REDLOCK_EBUSY && it_has(it_errstr(l), FLIGHT))
            flight++;
        else
            other++;
    }
    check_note("%d calls, %ld while the watchdog's extend was in flight: %ld refused as held, "
               "%ld as in flight, %ld otherwise; %d lost-lock notices", CALLS + 4 * ROUNDS,
               during, held, flight, other, lost.n);
    CHECK_GE(during, 2 * ROUNDS);
    CHECK_EQ(flight, 0);
    CHECK_EQ(other, 0);
    CHECK_EQ(held, CALLS + 4 * ROUNDS);
    CHECK_EQ(lost.n, 0);
    CHECK_GT(redlock_lock_validity(l), 0);
    op.done = 0;
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "err-wd", 6), 0);
    CHECK_EQ(lost.n, 0);
    it_fix_stop(&f);
}

/* The client's clock, frozen at will: a hold that ran out while the
 * watchdog's extend is in flight, with the expiry timer not yet run. */
struct clk {
    int frozen;
    int64_t at_us, offset_us;
};

static int64_t clk_fn(void *privdata)
{
    struct clk *k = privdata;
    return k->frozen ? k->at_us : check_now_us() + k->offset_us;
}

static void clk_freeze(struct clk *k)
{
    k->at_us = clk_fn(k);
    k->frozen = 1;
}

static void clk_thaw(struct clk *k)
{
    k->offset_us = k->at_us - check_now_us();
    k->frozen = 0;
}

/* A held lock with a 2 ms watchdog; returns with its extend in flight and
 * the clock frozen past the validity's last millisecond.  That extend
 * started 5 s after the hold's latest win: it would win with about 5 s of
 * validity left. */
static redlock_lock *ended_with_extend_in_flight(struct it_fix *f, struct clk *k,
                                                 const char *key, struct it_lost *lost)
{
    redlock_lock *l = it_fix_lock(f, f->c, key);
    struct it_op op = {f->base};
    CHECK_EQ(redlock_lock_set_watchdog(l, 2, 0), 0);
    CHECK_EQ(redlock_lock_on_lost(l, it_lost_cb, lost), 0);
    CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);
    clk_freeze(k);
    until_in_flight(f->base, l, 0);
    k->at_us += 5000000;
    until_in_flight(f->base, l, 1);
    /* validity v ms means v ms and less than one more: after v ms the
     * hold has less than 1 ms, which counts as none */
    k->at_us += redlock_lock_validity(l) * 1000;
    CHECK_EQ(redlock_lock_validity(l), 0);
    CHECK_EQ(redlock__watch_in_flight(l), 1);
    return l;
}

TEST(errors_setter_takes_over_an_ended_holds_extend)
{
    struct clk k = {0, 0, 0};
    redlock_options o;
    it_opts(&o);
    o.clock = clk_fn;
    o.clock_privdata = &k;
    o.clock_probe_ms = 0;      /* no TIME samples against a frozen clock */
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, IT_ASYNC);
    struct it_lost lost = {f.base, 0, 0};

    /* a new value: the old hold's extend is forgotten, and so is its watch
     * (as when an acquire starts) */
    redlock_lock *a = ended_with_extend_in_flight(&f, &k, "err-end-a", &lost);
    CHECK_RC(a, redlock_lock_set_value(a, "new", 3), 0);
    CHECK_EQ(redlock__watch_in_flight(a), 0);
    check_value(a, "new", 3);
    clk_thaw(&k);
    it_run(f.base, 200);       /* the extend's reply comes, and is ignored */
    CHECK_EQ(redlock_lock_validity(a), 0);
    CHECK_EQ(lost.n, 0);
    check_value(a, "new", 3);

    /* fencing: the extend is forgotten, the hold's end is told */
    redlock_lock *b = ended_with_extend_in_flight(&f, &k, "err-end-b", &lost);
    CHECK_RC(b, redlock_lock_set_fencing(b, 1), 0);
    CHECK_EQ(redlock__watch_in_flight(b), 0);
    clk_thaw(&k);
    CHECK(it_run_until(f.base, &lost.n, 5000));
    CHECK_EQ(lost.n, 1);
    CHECK_EQ(lost.reason, REDLOCK_LOST_EXPIRED);
    it_run(f.base, 200);
    CHECK_EQ(redlock_lock_validity(b), 0);
    CHECK_EQ(lost.n, 1);
    it_fix_stop(&f);
}

/* ---- the error text ---------------------------------------------------- */

static int ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return m <= n && strcmp(s + n - m, end) == 0;
}

/* The error text after an acquire refused by the guards: headed by
 * EUNCOUNTED's words, the count of masters not counted as the node results
 * say, and a guard's reason whole at its end (how long, and why: "...;
 * docs/safety.md)"). */
static void check_guard_text(redlock_lock *l, size_t n, int rc)
{
    const char *e = it_errstr(l);
    char want[640];
    unsigned u = 0, named = 0;
    check_note("%s (%d): %s", redlock_strerror(rc), rc, e);
    CHECK_RC(l, rc, REDLOCK_EUNCOUNTED);
    for (size_t i = 0; i < n; i++) {
        redlock_node_result r;
        CHECK_EQ(redlock_lock_node_result(l, i, &r), 0);
        if (r.vote != REDLOCK_VOTE_UNCOUNTED)
            continue;
        u++;
        CHECK_MSG(it_has(r.detail, "not counted for ") && it_has(r.detail, "; counts in ") &&
                      ends_with(r.detail, "in a restart; docs/safety.md)"),
                  "detail: %s", r.detail);
        named += ends_with(e, r.detail);
    }
    CHECK_GE(u, 1);
    CHECK_MSG(named >= 1, "no node's whole reason ends the text: %s", e);
    snprintf(want, sizeof want, "acquire: %s (", redlock_strerror(REDLOCK_EUNCOUNTED));
    CHECK_MSG(strncmp(e, want, strlen(want)) == 0, "errstr: %s", e);
    CHECK_MSG(!it_has(e, "masters unreachable"), "errstr: %s", e);
    snprintf(want, sizeof want, ", %u not counted); first: node ", u);
    CHECK_MSG(it_has(e, want), "errstr lacks \"%s\": %s", want, e);
}

/* A client on `live` fresh masters (the restart guard on: a master up for
 * less than the ttl in use is not counted, as after a restart) and `dead`
 * addresses nothing listens on, refused at once. */
static redlock_client *guarded(rlt_servers *s, int live, int dead)
{
    const char *addrs[8];
    redlock_options o;
    it_opts(&o);
    o.retry_count = 0;
    o.restart_guard_ms = -1;
    for (int i = 0; i < live; i++)
        addrs[i] = rlt_servers_addr(s, i);
    static const char *const closed[] = { "127.0.0.1:1", "127.0.0.1:2" };
    for (int i = 0; i < dead; i++)
        addrs[live + i] = closed[i];
    redlock_client *c = it_client_addrs(addrs, (size_t)(live + dead), &o, (size_t)live);
    /* the dead ones' first attempt failed: from now on they vote DOWN when
     * asked, before any live master answers */
    for (int i = live; i < live + dead; i++) {
        redlock_node_stats st;
        int64_t t0 = check_now_ms();
        do {
            redlock_client_wait_connected(c, (size_t)(live + dead), 10);
            CHECK_EQ(redlock_client_node_stats(c, (size_t)i, &st), 0);
        } while (!st.last_error[0] && check_now_ms() - t0 < 5000);
        CHECK_MSG(st.last_error[0], "address %d never failed", i);
    }
    return c;
}

/* `live` masters whose OK votes the guard does not count and `dead`
 * addresses nobody listens on: the try_acquire's text gives the reason for
 * the whole of n masters, and says `unreachable` (when not NULL). */
static void check_guard_case(int live, int dead, int n, const char *unreachable)
{
    rlt_servers *s = it_start(live, NULL);
    redlock_client *c = guarded(s, live, dead);
    redlock_lock *l = IT_LOCK(c, "err-guard");
    check_guard_text(l, n, redlock_try_acquire(l, 10000));
    if (unreachable != NULL)
        CHECK_MSG(it_has(it_errstr(l), unreachable), "errstr: %s", it_errstr(l));
    redlock_lock_free(l);
    redlock_client_free(c);
    rlt_servers_free(s);
}

TEST(errors_guard_reason_whole_all_live)
{
    check_guard_case(3, 0, 3, NULL);
}

/* 1 master down, 2 live but not counted: a tie that said "masters
 * unreachable" */
TEST(errors_guard_reason_whole_one_down)
{
    check_guard_case(2, 1, 3, "1 unreachable");
}

/* 5 masters, 2 down, 3 live but not counted: decided at the first of them
 * (no quorum possible), when the unreachable outnumbered the counted-out */
TEST(errors_guard_reason_whole_two_down_of_five)
{
    check_guard_case(3, 2, 5, "2 unreachable");
}
