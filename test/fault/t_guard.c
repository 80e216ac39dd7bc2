/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_guard.c -- regression tests for issue 8, defects 7 to 12 and the
 * messages (the promises are in docs/safety.md):
 *
 *   guard_option_bounds              7  every _ms option bounded, EINVAL naming it
 *   guard_acquire_while_held_ebusy   8  acquire on a held handle: EBUSY, value kept
 *   guard_ttl3_einval                9  ttl 3 leaves < 1 ms after drift: EINVAL
 *   guard_win_needs_1ms              9  a win always reads validity >= 1; with
 *                                       0.5 ms left the attempt is lost, and the
 *                                       message says "validity ran out"
 *   guard_clock_steps_back          10  validity 0 after a step back, never > ttl - drift
 *   guard_endless_reply_line        11  a master streams "+AAAA..." without CRLF
 *   guard_huge_error_reply          11  a master answers a 4 MiB error
 *   guard_release_codes             12  release: 0 only with a quorum deleted
 *   guard_address_messages          messages for bad addresses
 *
 * Defect 11 plays a misbehaving master: a thread that answers the handshake
 * like Redis (PING, AUTH, SELECT, SCRIPT LOAD with the right SHA-1, CLIENT
 * ID) and then answers SET with the hostile reply.
 */
#include "itest.h"
#include "floor/floor.h" /* redlock__sha1_hex, for SCRIPT LOAD answers */

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <unistd.h>

#include <event2/event.h>
#include <hiredis/hiredis.h>

/* ---- helpers ------------------------------------------------------------ */

/* A controllable clock: real time + offset, or frozen at a value. */
struct tclock {
    int frozen;
    int64_t frozen_us;
    int64_t offset_us;
};

static int64_t tclock_fn(void *privdata)
{
    struct tclock *t = privdata;
    return t->frozen ? t->frozen_us : check_now_us() + t->offset_us;
}

static void tclock_freeze(struct tclock *t)
{
    t->frozen_us = tclock_fn(t);
    t->frozen = 1;
}

/* Continue from the frozen value with real time, never going back. */
static void tclock_thaw(struct tclock *t)
{
    t->offset_us = t->frozen_us - check_now_us();
    t->frozen = 0;
}

/* ---- 7: option bounds ----------------------------------------------------- */

static void expect_opt_rejected(const redlock_options *o, const char *name, long long val)
{
    static const char *const addrs[] = {"127.0.0.1:1"};
    redlock_client *c = (redlock_client *)(uintptr_t)1;
    char err[256];
    memset(err, 0, sizeof err);
    int rc = redlock_client_new(&c, NULL, addrs, 1, o, err, sizeof err);
    if (rc == 0 && c != NULL && c != (redlock_client *)(uintptr_t)1)
        redlock_client_free(c);
    CHECK_MSG(rc == REDLOCK_EINVAL, "%s = %lld: rc %d (%s), want EINVAL", name, val, rc, err);
    CHECK_MSG(c == NULL, "%s = %lld: *out not NULL", name, val);
    CHECK_MSG(it_has(err, name), "%s = %lld: message \"%s\" does not name the option", name, val,
              err);
}

static void expect_opt_accepted(const redlock_options *o, const char *name, long long val)
{
    static const char *const addrs[] = {"127.0.0.1:1"};
    redlock_client *c = NULL;
    char err[256] = "";
    int rc = redlock_client_new(&c, NULL, addrs, 1, o, err, sizeof err);
    CHECK_MSG(rc == 0 && c != NULL, "%s = %lld: rc %d (%s), want accepted", name, val, rc, err);
    redlock_client_free(c);
}

#define TRY_OPT(expect, field, val)                                           \
    do {                                                                      \
        redlock_options to_;                                                  \
        redlock_options_init(&to_);                                           \
        to_.field = (val);                                                    \
        expect(&to_, #field, (long long)(val));                               \
    } while (0)
#define BAD_OPT(field, val) TRY_OPT(expect_opt_rejected, field, val)
#define GOOD_OPT(field, val) TRY_OPT(expect_opt_accepted, field, val)

static void out_of_bounds_rejected(int64_t hour, int64_t p40)
{
    const int64_t huge[] = {INT64_MAX, INT64_MAX / 1000 + 1, hour + 1};

    for (size_t i = 0; i < sizeof huge / sizeof huge[0]; i++) {
        BAD_OPT(node_timeout_ms, huge[i]);
        BAD_OPT(connect_timeout_ms, huge[i]);
        BAD_OPT(retry_delay_ms, huge[i]);
        BAD_OPT(reconnect_min_ms, huge[i]);
        BAD_OPT(reconnect_max_ms, huge[i]);
    }
    BAD_OPT(node_timeout_ms, 0);
    BAD_OPT(node_timeout_ms, INT64_MIN);
    BAD_OPT(connect_timeout_ms, -1);
    BAD_OPT(reconnect_min_ms, 0);
    BAD_OPT(acquire_timeout_ms, -1);
    BAD_OPT(acquire_timeout_ms, INT64_MIN);
    BAD_OPT(drift_min_ms, INT64_MAX);
    BAD_OPT(drift_min_ms, p40 + 1);
    BAD_OPT(drift_min_ms, -1);
}

static void bounds_accepted(int64_t hour, int64_t p40)
{
    GOOD_OPT(node_timeout_ms, hour);
    GOOD_OPT(connect_timeout_ms, hour);
    GOOD_OPT(retry_delay_ms, hour);
    GOOD_OPT(reconnect_max_ms, hour);
    GOOD_OPT(acquire_timeout_ms, p40);
    GOOD_OPT(acquire_timeout_ms, 0);
    /* a natural "no limit" */
    GOOD_OPT(acquire_timeout_ms, INT64_MAX);
    GOOD_OPT(acquire_timeout_ms, INT64_MAX / 1000 + 1);
    GOOD_OPT(acquire_timeout_ms, p40 + 1);
    GOOD_OPT(drift_min_ms, p40);
    GOOD_OPT(drift_min_ms, 0);
    redlock_options o;
    redlock_options_init(&o);
    o.reconnect_min_ms = o.reconnect_max_ms = hour;
    expect_opt_accepted(&o, "reconnect_min_ms", hour);
}

/* Round `round` of two clients with the acquire deadline `deadline`: both
 * lock and retry normally (no overflow). */
static void largest_values_lock(struct it_fix *f, int64_t deadline, int64_t hour, int round)
{
    redlock_options o;
    it_opts(&o);
    o.acquire_timeout_ms = deadline;
    o.reconnect_max_ms = hour;
    o.connect_timeout_ms = hour;
    redlock_client *a = it_client(f->s, &o);
    redlock_client *b = it_client(f->s, &o);
    redlock_lock *la = IT_LOCK(a, "guard:bounds");
    redlock_lock *lb = IT_LOCK(b, "guard:bounds");
    CHECK_RC(la, redlock_acquire(la, 10000), REDLOCK_OK);
    CHECK_GT(redlock_lock_validity(la), 9000);
    int64_t t0 = check_now_ms();
    /* every retry made (3, 10 ms apart), none cut short by a deadline */
    CHECK_RC(lb, redlock_acquire(lb, 10000), REDLOCK_ENOQUORUM);
    CHECK_LT(check_now_ms() - t0, 5000);
    CHECK_EQ(it_calls(f->s, 0, "set"), round * 6 + 1 + 4);   /* earlier rounds: 6 each */
    CHECK_RC(la, redlock_release(la), REDLOCK_OK);
    CHECK_RC(lb, redlock_acquire(lb, 10000), REDLOCK_OK);
    CHECK_RC(lb, redlock_release(lb), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f->s, "guard:bounds", 12), 0);
    redlock_lock_free(la);
    redlock_lock_free(lb);
    redlock_client_free(a);
    redlock_client_free(b);
}

TEST(guard_option_bounds)
{
    const int64_t hour = 3600000;
    const int64_t p40 = (int64_t)1 << 40;

    out_of_bounds_rejected(hour, p40);
    bounds_accepted(hour, p40);

    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, IT_NOCLIENT);
    largest_values_lock(&f, p40, hour, 0);
    largest_values_lock(&f, INT64_MAX, hour, 1);
    it_fix_stop(&f);
}

/* ---- 8: acquire on a handle that holds its lock ------------------------- */

static void never_cb(redlock_lock *l, int status, void *privdata)
{
    (void)l;
    (void)status;
    ++*(int *)privdata;
}

/* A lock's value, to compare after a refused acquire. */
struct held_value {
    char v[128];
    size_t len;
};

static void held_value_save(const redlock_lock *l, struct held_value *hv)
{
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);
    CHECK(v != NULL && vlen > 0 && vlen < sizeof hv->v);
    memcpy(hv->v, v, vlen);
    hv->len = vlen;
}

/* The value is still the one saved and the validity untouched. */
static void check_value_kept(const redlock_lock *l, const struct held_value *hv)
{
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);
    CHECK(v != NULL && vlen == hv->len && memcmp(v, hv->v, vlen) == 0);
    CHECK_GT(redlock_lock_validity(l), 9000);
}

static void blocking_acquire_while_held(struct it_fix *f, const char *key, size_t klen)
{
    redlock_client *c = it_client(f->s, NULL);
    redlock_lock *l = it_lock(c, key, klen);
    CHECK_RC(l, redlock_acquire(l, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f->s, key, klen, l, 3, 2000), 3);
    struct held_value before;
    held_value_save(l, &before);

    int64_t t0 = check_now_ms();
    CHECK_RC(l, redlock_acquire(l, 10000), REDLOCK_EBUSY);
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_EBUSY);
    CHECK_LT(check_now_ms() - t0, 50); /* at once: no attempt, no retries */
    check_value_kept(l, &before);
    CHECK_EQ(it_count_lock(f->s, key, klen, l), 3); /* still ours everywhere */
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(l), 3);
    CHECK_EQ(rlt_servers_count_key(f->s, key, klen), 0);
    CHECK_EQ(redlock_lock_validity(l), 0);
    /* not held any more: acquire works again */
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    redlock_lock_free(l);
    redlock_client_free(c);
}

static void async_acquire_while_held(struct it_fix *f, const char *key, size_t klen)
{
    f->c = it_async_client(f->base, f->s, NULL);
    redlock_lock *al = it_fix_lock(f, f->c, key);
    struct it_op d = {f->base};
    CHECK_RC(al, redlock_acquire_async(al, 10000, it_op_cb, &d), REDLOCK_OK);
    it_op_wait(&d, 5000);
    CHECK_RC(al, d.status, REDLOCK_OK);
    CHECK_GT(d.validity, 0);
    struct held_value before;
    held_value_save(al, &before);
    int calls = 0;
    CHECK_RC(al, redlock_acquire_async(al, 10000, never_cb, &calls), REDLOCK_EBUSY);
    CHECK_RC(al, redlock_try_acquire_async(al, 10000, never_cb, &calls), REDLOCK_EBUSY);
    event_base_loop(f->base, EVLOOP_NONBLOCK);
    CHECK_EQ(calls, 0);
    check_value_kept(al, &before);
    CHECK_EQ(it_wait_lock_count(f->s, key, klen, al, 3, 2000), 3);
    d.done = 0;
    CHECK_RC(al, redlock_release_async(al, it_op_cb, &d), REDLOCK_OK);
    it_op_wait(&d, 5000);
    CHECK_RC(al, d.status, REDLOCK_OK);
    CHECK_EQ(it_wait_nodes_ok(f->base, al, 3, 2000), 3);
    CHECK_EQ(rlt_servers_count_key(f->s, key, klen), 0);
    CHECK_EQ(calls, 0);
}

TEST(guard_acquire_while_held_ebusy)
{
    static const char key[] = "guard:held";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    blocking_acquire_while_held(&f, key, sizeof key - 1);
    async_acquire_while_held(&f, key, sizeof key - 1);
    it_fix_stop(&f);
}

/* ---- 9: a win needs >= 1 ms of validity ----------------------------------- */

TEST(guard_ttl3_einval)
{
    static const char key[] = "guard:ttl3";
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, 0); /* default drift: 0.01, 2 ms */
    redlock_lock *l = it_fix_lock(&f, f.c, key);
    CHECK_RC(l, redlock_try_acquire(l, 3), REDLOCK_EINVAL);
    CHECK_NE(it_errstr(l)[0], '\0');
    CHECK_RC(l, redlock_acquire(l, 3), REDLOCK_EINVAL);
    CHECK_EQ(rlt_servers_count_key(f.s, key, sizeof key - 1), 0); /* nothing sent */
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    CHECK_RC(l, redlock_extend(l, 3), REDLOCK_EINVAL);
    CHECK_GT(redlock_lock_validity(l), 9000);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    it_fix_stop(&f);
}

/* Start a try_acquire of ttl 10000 (drift 102 ms, so 9898 ms of validity)
 * on a frozen clock, move the clock `skip_us` ahead, and let it decide. */
static void skip_attempt(struct event_base *base, rlt_servers *s, redlock_client *c,
                         struct tclock *clk, const char *key, int64_t skip_us, struct it_op *d)
{
    redlock_lock *l = it_lock(c, key, strlen(key));
    memset(d, 0, sizeof *d);
    d->base = base;
    tclock_freeze(clk);
    CHECK_RC(l, redlock_try_acquire_async(l, 10000, it_op_cb, d), REDLOCK_OK);
    clk->frozen_us += skip_us;
    it_op_wait(d, 10000);
    if (d->status == 0) {
        /* the invariant: a success reads >= 1 ms in its callback */
        CHECK_MSG(d->validity >= 1, "won with validity %lld ms in the callback",
                  (long long)d->validity);
        CHECK_GE(it_wait_lock_count(s, key, strlen(key), l, 2, 2000), 2);
        tclock_thaw(clk);
        d->done = 0;
        CHECK_RC(l, redlock_release_async(l, it_op_cb, d), REDLOCK_OK);
        it_op_wait(d, 5000);
        CHECK_RC(l, d->status, REDLOCK_OK);
        d->status = 0;
    } else {
        CHECK_NE(d->status, REDLOCK_EINVAL);
        CHECK_EQ(redlock_lock_validity(l), 0);
        CHECK_MSG(it_has(it_errstr(l), "validity ran out"),
                  "errstr \"%s\" does not say the validity ran out", it_errstr(l));
        tclock_thaw(clk);
        /* the lost attempt's key is removed from every master */
        int64_t deadline = check_now_ms() + 3000;
        int n;
        while ((n = rlt_servers_count_key(s, key, strlen(key))) != 0 &&
               check_now_ms() < deadline)
            it_dispatch(base, 5);
        CHECK_EQ(n, 0);
    }
    redlock_lock_free(l);
}

TEST(guard_win_needs_1ms)
{
    struct tclock clk = {0, 0, 0};
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 3000; /* replies, not timers, decide here */
    o.clock = tclock_fn;
    o.clock_privdata = &clk;
    /* this clock jumps seconds: a TIME riding with the next request would
     * show every master's clock moved, and the clock guard would rightly
     * keep them out (not what this test is about) */
    o.clock_probe_ms = 0;
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, IT_ASYNC);
    struct it_op d;

    /* 1.5 ms left when the quorum is there: a win, validity 1 */
    skip_attempt(f.base, f.s, f.c, &clk, "guard:1ms:a", 9896500, &d);
    CHECK_RC(NULL, d.status, REDLOCK_OK);
    /* 0.5 ms left: lost, "validity ran out", key removed */
    skip_attempt(f.base, f.s, f.c, &clk, "guard:1ms:b", 9897500, &d);
    CHECK_NE(d.status, REDLOCK_OK);
    /* nothing left at all */
    skip_attempt(f.base, f.s, f.c, &clk, "guard:1ms:c", 9899000, &d);
    CHECK_NE(d.status, REDLOCK_OK);

    /* ttl 4 leaves 1.96 ms: accepted, and a win reads >= 1 */
    redlock_lock *l = IT_LOCK(f.c, "guard:1ms:d");
    memset(&d, 0, sizeof d);
    d.base = f.base;
    tclock_freeze(&clk);
    CHECK_RC(l, redlock_try_acquire_async(l, 4, it_op_cb, &d), REDLOCK_OK);
    it_op_wait(&d, 5000);
    CHECK_RC(l, d.status, REDLOCK_OK);
    CHECK_GE(d.validity, 1);
    tclock_thaw(&clk);
    redlock_lock_free(l);

    it_fix_stop(&f);
}

/* ---- 10: a clock that steps back -------------------------------------------- */

TEST(guard_clock_steps_back)
{
    struct tclock clk = {0, 0, 0};
    redlock_options o;
    it_opts(&o);
    o.clock = tclock_fn;
    o.clock_privdata = &clk;
    o.clock_probe_ms = 0;     /* as in guard_win_needs_1ms */
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *a = it_fix_lock(&f, f.c, "guard:back:a");
    redlock_lock *b = it_fix_lock(&f, f.c, "guard:back:b");

    /* frozen: no time passes during the acquire, validity = ttl - drift */
    tclock_freeze(&clk);
    CHECK_RC(a, redlock_acquire(a, 1000), REDLOCK_OK);
    CHECK_RC(b, redlock_acquire(b, 60000), REDLOCK_OK);
    CHECK_LE(redlock_lock_validity(a), 988);
    CHECK_GE(redlock_lock_validity(a), 900);
    CHECK_LE(redlock_lock_validity(b), 60000 - 602);
    CHECK_GE(redlock_lock_validity(b), 59000);

    /* 50 ms back: never more than ttl - drift; in fact nothing is trusted */
    clk.frozen_us -= 50000;
    CHECK_LE(redlock_lock_validity(a), 988);
    CHECK_EQ(redlock_lock_validity(a), 0);
    CHECK_EQ(redlock_lock_validity(b), 0);
    /* 5 s back */
    clk.frozen_us -= 5000000;
    CHECK_EQ(redlock_lock_validity(a), 0);
    CHECK_EQ(redlock_lock_validity(b), 0);

    /* the keys are still ours on the servers: release deletes them.  The
     * clock goes on from past its highest reading (a jump forward). */
    clk.frozen_us += 5050000 + 1000;
    tclock_thaw(&clk);
    CHECK_RC(a, redlock_release(a), REDLOCK_OK);
    CHECK_RC(b, redlock_release(b), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, "guard:back:a", 12), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "guard:back:b", 12), 0);

    /* a clock moving forward again: locks work, within ttl - drift */
    CHECK_RC(a, redlock_acquire(a, 1000), REDLOCK_OK);
    CHECK_GT(redlock_lock_validity(a), 0);
    CHECK_LE(redlock_lock_validity(a), 988);
    CHECK_RC(a, redlock_release(a), REDLOCK_OK);

    it_fix_stop(&f);
}

/* ---- 11: a master with an endless or huge reply ---------------------------- */

enum fake_mode { FAKE_ENDLESS, FAKE_BIGERR };

#define FAKE_STREAM_CAP ((size_t)32 << 20) /* bytes streamed at most ... */
#define FAKE_STREAM_MS 4000                /* ... for at most this long */
#define FAKE_BIGERR_LEN ((size_t)4 << 20)

struct fake {
    enum fake_mode mode;
    int lfd;
    int port;
    char addr[64];
    pthread_t th;
    atomic_int stop;
    atomic_int conns;   /* connections accepted */
    atomic_int sets;    /* SETs answered with the hostile reply */
    atomic_int closed_by_peer; /* hostile replies cut short by the client */
};

static int fake_stopped(struct fake *f)
{
    return atomic_load(&f->stop);
}

/* Send everything (or fail: peer gone, stop, deadline). */
static int fake_send(struct fake *f, int fd, const char *p, size_t len, int64_t deadline_ms)
{
    while (len > 0) {
        if (fake_stopped(f) || check_now_ms() >= deadline_ms)
            return -1;
        struct pollfd pfd = {fd, POLLOUT, 0};
        int pr = poll(&pfd, 1, 20);
        if (pr < 0 && errno != EINTR)
            return -1;
        if (pr <= 0)
            continue;
        if (pfd.revents & (POLLERR | POLLHUP))
            return -1;
        ssize_t w = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)
                continue;
            return -1;
        }
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

static int fake_reply(struct fake *f, int fd, const char *s)
{
    return fake_send(f, fd, s, strlen(s), check_now_ms() + 5000);
}

/* The hostile answer to a SET; -1 ends the connection. */
static int fake_hostile(struct fake *f, int fd)
{
    static char chunk[16384];
    memset(chunk, 'A', sizeof chunk);
    atomic_fetch_add(&f->sets, 1);
    if (f->mode == FAKE_ENDLESS) {
        int64_t deadline = check_now_ms() + FAKE_STREAM_MS;
        size_t sent = 0;
        if (fake_send(f, fd, "+", 1, deadline) != 0)
            return -1;
        while (sent < FAKE_STREAM_CAP && check_now_ms() < deadline && !fake_stopped(f)) {
            if (fake_send(f, fd, chunk, sizeof chunk, deadline) != 0) {
                if (!fake_stopped(f) && check_now_ms() < deadline)
                    atomic_fetch_add(&f->closed_by_peer, 1);
                return -1;
            }
            sent += sizeof chunk;
        }
        return -1; /* never ends the line: close */
    }
    int64_t deadline = check_now_ms() + 10000;
    if (fake_send(f, fd, "-ERR ", 5, deadline) != 0)
        return -1;
    for (size_t sent = 0; sent < FAKE_BIGERR_LEN; sent += sizeof chunk) {
        if (fake_send(f, fd, chunk, sizeof chunk, deadline) != 0) {
            if (!fake_stopped(f))
                atomic_fetch_add(&f->closed_by_peer, 1);
            return -1;
        }
    }
    return fake_send(f, fd, "\r\n", 2, deadline);
}

static int arg_is(const char *p, size_t len, const char *word)
{
    return len == strlen(word) && strncasecmp(p, word, len) == 0;
}

/* Answer one command (argv as pointers into the input buffer). */
static int fake_command(struct fake *f, int fd, int argc, char **argv, size_t *alen, int id)
{
    char buf[128];
    if (argc == 0)
        return fake_reply(f, fd, "-ERR empty command\r\n");
    if (arg_is(argv[0], alen[0], "PING"))
        return fake_reply(f, fd, "+PONG\r\n");
    if (arg_is(argv[0], alen[0], "AUTH") || arg_is(argv[0], alen[0], "SELECT"))
        return fake_reply(f, fd, "+OK\r\n");
    if (arg_is(argv[0], alen[0], "SCRIPT") && argc == 3 && arg_is(argv[1], alen[1], "LOAD")) {
        char sha[41];
        redlock__sha1_hex(argv[2], alen[2], sha);
        snprintf(buf, sizeof buf, "$40\r\n%.40s\r\n", sha);
        return fake_reply(f, fd, buf);
    }
    if (arg_is(argv[0], alen[0], "CLIENT") && argc >= 2) {
        if (arg_is(argv[1], alen[1], "ID")) {
            snprintf(buf, sizeof buf, ":%d\r\n", 1000 + id);
            return fake_reply(f, fd, buf);
        }
        if (arg_is(argv[1], alen[1], "KILL"))
            return fake_reply(f, fd, ":0\r\n");
        return fake_reply(f, fd, "+OK\r\n");
    }
    if (arg_is(argv[0], alen[0], "SET"))
        return fake_hostile(f, fd);
    if (arg_is(argv[0], alen[0], "EVALSHA") || arg_is(argv[0], alen[0], "EVAL"))
        return fake_reply(f, fd, ":0\r\n");
    return fake_reply(f, fd, "-ERR unknown command\r\n");
}

/* Parse a decimal number ended by CRLF at p (within end); -1 if incomplete. */
static long long parse_num(const char *p, const char *end, const char **next)
{
    long long v = 0;
    const char *q = p;
    while (q < end && *q >= '0' && *q <= '9')
        v = v * 10 + (*q++ - '0');
    if (q + 1 >= end)
        return -1;
    if (q == p || q[0] != '\r' || q[1] != '\n')
        return -2;
    *next = q + 2;
    return v;
}

/* Parse the command at p (before end): its argc, with argv and alen
 * pointing into the buffer and *next past it; -1 when it is incomplete,
 * -2 when it is malformed. */
static int fake_parse(const char *p, const char *end, char **argv, size_t *alen,
                      const char **next)
{
    const char *q;
    if (*p != '*')
        return -2;
    long long argc = parse_num(p + 1, end, &q);
    if (argc == -1)
        return -1;
    if (argc < 0 || argc > 16)
        return -2;
    for (long long i = 0; i < argc; i++) {
        if (q >= end)
            return -1;
        if (*q != '$')
            return -2;
        long long l = parse_num(q + 1, end, &q);
        if (l == -1)
            return -1;
        if (l < 0)
            return -2;
        if (end - q < l + 2)
            return -1;
        argv[i] = (char *)(uintptr_t)q;
        alen[i] = (size_t)l;
        q += l + 2;
    }
    *next = q;
    return (int)argc;
}

/* Answer every complete command in in[0..len): how many bytes they took,
 * or -1 when the connection is to end. */
static long fake_answer_all(struct fake *f, int fd, const char *in, size_t len, int id)
{
    const char *p = in, *end = in + len;
    while (p < end) {
        char *argv[16];
        size_t alen[16];
        const char *next;
        int argc = fake_parse(p, end, argv, alen, &next);
        if (argc == -1)
            break;
        if (argc < 0 || fake_command(f, fd, argc, argv, alen, id) != 0)
            return -1;
        p = next;
    }
    return (long)(p - in);
}

/* Room for more input: 0, or -1 when the buffer may grow no further. */
static int fake_room(char **in, size_t *cap, size_t len)
{
    if (len < *cap)
        return 0;
    if (*cap >= (1 << 22))
        return -1;
    char *bigger = realloc(*in, *cap * 2);
    if (bigger == NULL)
        return -1;
    *in = bigger;
    *cap *= 2;
    return 0;
}

static void fake_serve(struct fake *f, int fd, int id)
{
    size_t cap = 1 << 16, len = 0;
    char *in = malloc(cap);
    if (in == NULL)
        return;
    while (!fake_stopped(f)) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int pr = poll(&pfd, 1, 20);
        if (pr < 0 && errno != EINTR)
            break;
        if (pr <= 0)
            continue;
        if (fake_room(&in, &cap, len) != 0)
            break;
        ssize_t r = recv(fd, in + len, cap - len, 0);
        if (r <= 0)
            break;
        len += (size_t)r;
        long off = fake_answer_all(f, fd, in, len, id);
        if (off < 0)
            break;
        memmove(in, in + off, len - (size_t)off);
        len -= (size_t)off;
    }
    free(in);
}

static void *fake_thread(void *arg)
{
    struct fake *f = arg;
    while (!fake_stopped(f)) {
        struct pollfd pfd = {f->lfd, POLLIN, 0};
        int pr = poll(&pfd, 1, 20);
        if (pr <= 0)
            continue;
        int fd = accept(f->lfd, NULL, NULL);
        if (fd < 0)
            continue;
        int id = atomic_fetch_add(&f->conns, 1);
        fake_serve(f, fd, id);
        close(fd);
    }
    return NULL;
}

static struct fake *fake_start(enum fake_mode mode)
{
    struct fake *f = calloc(1, sizeof *f);
    CHECK(f != NULL);
    f->mode = mode;
    atomic_init(&f->stop, 0);
    atomic_init(&f->conns, 0);
    atomic_init(&f->sets, 0);
    atomic_init(&f->closed_by_peer, 0);
    f->lfd = socket(AF_INET, SOCK_STREAM, 0);
    CHECK(f->lfd >= 0);
    int one = 1;
    setsockopt(f->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    sa.sin_port = 0;
    CHECK_EQ(bind(f->lfd, (struct sockaddr *)&sa, sizeof sa), 0);
    CHECK_EQ(listen(f->lfd, 16), 0);
    socklen_t sl = sizeof sa;
    CHECK_EQ(getsockname(f->lfd, (struct sockaddr *)&sa, &sl), 0);
    f->port = ntohs(sa.sin_port);
    snprintf(f->addr, sizeof f->addr, "127.0.0.1:%d", f->port);
    CHECK_EQ(pthread_create(&f->th, NULL, fake_thread, f), 0);
    return f;
}

static void fake_stop(struct fake *f)
{
    atomic_store(&f->stop, 1);
    pthread_join(f->th, NULL);
    close(f->lfd);
    free(f);
}

/* node_cb: the first DOWN of each node whose reason is a protocol error,
 * and what the node's stats said at that moment. */
struct proto_events {
    struct event_base *base;
    int watch;              /* node index to watch */
    int proto_down;         /* DOWN events naming a protocol error */
    int stats_proto;        /* ... while stats.last_error named it too */
    int other_down;
    char detail[256];
    char other[256];
};

static void proto_cb(redlock_client *c, size_t node, int event, const char *detail,
                     void *privdata)
{
    struct proto_events *pe = privdata;
    if (event != REDLOCK_NODE_DOWN || (int)node != pe->watch)
        return;
    if (it_has(detail, "protocol error")) {
        if (pe->proto_down++ == 0)
            snprintf(pe->detail, sizeof pe->detail, "%s", detail);
        redlock_node_stats st;
        if (redlock_client_node_stats(c, node, &st) == 0 && it_has(st.last_error, "protocol error"))
            pe->stats_proto++;
        event_base_loopbreak(pe->base);
    } else {
        if (pe->other_down++ == 0)
            snprintf(pe->other, sizeof pe->other, "%s", detail ? detail : "(null)");
    }
}

static int lock_value_count(rlt_servers *s, const char *key, const redlock_lock *l)
{
    return it_count_lock(s, key, strlen(key), l);
}

enum { HOSTILE_NODE_TIMEOUT = 250, HOSTILE_SLACK = 750 };

/* A client on the fake (node 0: its reads come first in every turn) and
 * f's two good masters, connected to all three. */
static void hostile_client(struct it_fix *f, struct fake *fk, struct proto_events *pe)
{
    const char *addrs[3] = {fk->addr, rlt_servers_addr(f->s, 0), rlt_servers_addr(f->s, 1)};
    memset(pe, 0, sizeof *pe);
    pe->base = f->base;
    pe->watch = 0;
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = HOSTILE_NODE_TIMEOUT;
    o.connect_timeout_ms = 3000;
    o.node_cb = proto_cb;
    o.node_privdata = pe;
    o.wake = 0;     /* (the fake serves one connection at a time: no second one) */
    f->c = it_client_new(f->base, addrs, 3, &o);
    CHECK_MSG(it_async_wait_connected(f->base, f->c, 3, 5000) == 0, "%zu of 3 connected",
              redlock_client_connected(f->c));
}

/* The hostile node is dropped for its reply, not left reading forever;
 * the good masters stayed up and are still counted. */
static void check_hostile_dropped(struct it_fix *f, struct fake *fk, struct proto_events *pe)
{
    int64_t t1 = check_now_ms();
    it_run_until(f->base, &pe->proto_down, 3000);
    CHECK_MSG(pe->proto_down >= 1,
              "hostile master not dropped for a protocol error (%d SETs, other DOWN: \"%s\")",
              atomic_load(&fk->sets), pe->other);
    CHECK_LE(check_now_ms() - t1, HOSTILE_NODE_TIMEOUT + HOSTILE_SLACK);
    CHECK_MSG(pe->stats_proto >= 1, "stats.last_error does not name it (event: \"%s\")",
              pe->detail);
    check_note("hostile master dropped: \"%s\"", pe->detail);
    redlock_node_stats st;
    CHECK_EQ(redlock_client_node_stats(f->c, 0, &st), 0);
    CHECK_EQ(st.oks, 0);
    for (size_t i = 1; i < 3; i++) {
        CHECK_EQ(redlock_client_node_stats(f->c, i, &st), 0);
        CHECK_EQ(st.connected, 1);
        CHECK_EQ(st.timeouts, 0);
        CHECK_EQ(st.connects, 1);
    }
}

/* (a) 2 good masters of 3: the lock is acquired, in time, and released
 * by a quorum. */
static void hostile_good_quorum_wins(struct it_fix *f, struct fake *fk, struct proto_events *pe)
{
    static const char ka[] = "guard:hostile:a";
    redlock_lock *la = it_fix_lock(f, f->c, ka);
    struct it_op d = {f->base};
    int64_t t0 = check_now_ms();
    CHECK_RC(la, redlock_try_acquire_async(la, 10000, it_op_cb, &d), REDLOCK_OK);
    it_op_wait(&d, 10000);
    CHECK_RC(la, d.status, REDLOCK_OK);
    CHECK_LE(d.at_ms - t0, HOSTILE_NODE_TIMEOUT + HOSTILE_SLACK);
    CHECK_GT(d.validity, 9000 - HOSTILE_SLACK);
    CHECK_EQ(lock_value_count(f->s, ka, la), 2);
    check_hostile_dropped(f, fk, pe);
    d.done = 0;
    CHECK_RC(la, redlock_release_async(la, it_op_cb, &d), REDLOCK_OK);
    it_op_wait(&d, 5000);
    CHECK_RC(la, d.status, REDLOCK_OK); /* the 2 good ones deleted it: a quorum */
    CHECK_EQ(rlt_servers_count_key(f->s, ka, sizeof ka - 1), 0);
}

/* The lost attempt's votes: node 0 a protocol error, node 1 refused, node
 * 2 took the key (the loss may be decided before it says so). */
static void check_lost_to_protocol_error(const redlock_lock *lb)
{
    redlock_node_result nr;
    CHECK_EQ(redlock_lock_node_result(lb, 0, &nr), 0);
    CHECK_MSG(it_has(nr.detail, "protocol error"), "node 0 result: %s \"%s\"",
              redlock_vote_name(nr.vote), nr.detail);
    CHECK_NE(nr.vote, REDLOCK_VOTE_OK);
    CHECK_NE(nr.vote, REDLOCK_VOTE_NONE);
    CHECK_NE(nr.vote, REDLOCK_VOTE_TIMEOUT);
    CHECK_EQ(redlock_lock_node_result(lb, 1, &nr), 0);
    CHECK_EQ(nr.vote, REDLOCK_VOTE_REFUSED);
    CHECK_EQ(redlock_lock_node_result(lb, 2, &nr), 0);
    CHECK_MSG(nr.vote == REDLOCK_VOTE_OK || nr.vote == REDLOCK_VOTE_NONE, "node 2: %s \"%s\"",
              redlock_vote_name(nr.vote), nr.detail);
}

/* (b) the outcome depends on the hostile node: another value holds good
 * master 1, so the attempt must hear node 0.  It hears a protocol error
 * within the node timeout, loses, and rolls back. */
static void hostile_decides_loss(struct it_fix *f, struct proto_events *pe)
{
    CHECK_MSG(it_async_wait_connected(f->base, f->c, 3, 5000) == 0,
              "hostile master not reconnected");
    static const char kb[] = "guard:hostile:b";
    redisReply *r = rlt_servers_command(f->s, 0, "SET %s foreign PX 30000", kb);
    CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);
    redlock_lock *lb = it_fix_lock(f, f->c, kb);
    int downs = pe->proto_down;
    struct it_op d = {f->base};
    int64_t t0 = check_now_ms();
    CHECK_RC(lb, redlock_try_acquire_async(lb, 10000, it_op_cb, &d), REDLOCK_OK);
    it_op_wait(&d, 10000);
    CHECK_NE(d.status, REDLOCK_OK);
    CHECK_LE(d.at_ms - t0, HOSTILE_NODE_TIMEOUT + HOSTILE_SLACK);
    CHECK_EQ(redlock_lock_validity(lb), 0);
    check_lost_to_protocol_error(lb);
    CHECK_GT(pe->proto_down, downs);
    /* the lost attempt's key leaves good master 2; the foreign one stays */
    int64_t deadline = check_now_ms() + 3000;
    int n;
    while ((n = lock_value_count(f->s, kb, lb)) != 0 && check_now_ms() < deadline)
        it_dispatch(f->base, 5);
    CHECK_EQ(n, 0);
    CHECK_EQ(it_count_value(f->s, kb, sizeof kb - 1, "foreign", 7), 1);
}

static void hostile_master(enum fake_mode mode)
{
    struct it_fix f = {0};
    it_fix_start(&f, 2, NULL, IT_ASYNC | IT_NOCLIENT);
    struct fake *fk = fake_start(mode);
    struct proto_events pe;
    hostile_client(&f, fk, &pe);
    hostile_good_quorum_wins(&f, fk, &pe);
    hostile_decides_loss(&f, &pe);
    it_fix_stop(&f);
    fake_stop(fk);
}

TEST(guard_endless_reply_line)
{
    hostile_master(FAKE_ENDLESS);
}

TEST(guard_huge_error_reply)
{
    hostile_master(FAKE_BIGERR);
}

/* ---- 12: release result codes ----------------------------------------------- */

static void del_on(rlt_servers *s, int i, const char *key)
{
    redisReply *r = rlt_servers_command(s, i, "DEL %s", key);
    CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER && r->integer == 1);
    freeReplyObject(r);
}

static const char release_key[] = "guard:release";
#define RELEASE_KLEN (sizeof release_key - 1)

/* The lock, acquired afresh, holds its key on all 3 masters. */
static void acquire_on_all(struct it_fix *f, redlock_lock *l)
{
    CHECK_RC(l, redlock_acquire(l, 30000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f->s, release_key, RELEASE_KLEN, l, 3, 2000), 3);
}

/* The release answers want after `ok` masters deleted the key, and the
 * lock is held no more. */
static void check_release(redlock_lock *l, int want, size_t ok)
{
    int rc = redlock_release(l);
    CHECK_MSG(rc == want, "release: %d (%s), want %d; errstr \"%s\"", rc, redlock_strerror(rc),
              want, it_errstr(l));
    CHECK_EQ(redlock_lock_nodes_ok(l), ok);
    CHECK_EQ(redlock_lock_validity(l), 0);
}

/* expired on 2 of 3: only 1 deleted, refusals show no quorum held it */
static void release_expired_on_two(struct it_fix *f, redlock_lock *l)
{
    acquire_on_all(f, l);
    del_on(f->s, 0, release_key);
    del_on(f->s, 1, release_key);
    check_release(l, REDLOCK_ENOTOWNER, 1);
    CHECK_NE(it_errstr(l)[0], '\0');
    CHECK_EQ(rlt_servers_count_key(f->s, release_key, RELEASE_KLEN), 0);
}

/* taken on 2 of 3: ENOTOWNER, the other owner's keys untouched */
static void release_taken_on_two(struct it_fix *f, redlock_lock *l)
{
    acquire_on_all(f, l);
    for (int i = 1; i < 3; i++) {
        redisReply *r = rlt_servers_command(f->s, i, "SET %s other PX 30000", release_key);
        CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
        freeReplyObject(r);
    }
    check_release(l, REDLOCK_ENOTOWNER, 1);
    CHECK_EQ(it_count_value(f->s, release_key, RELEASE_KLEN, "other", 5), 2);
    for (int i = 1; i < 3; i++)
        del_on(f->s, i, release_key);
    CHECK_EQ(rlt_servers_count_key(f->s, release_key, RELEASE_KLEN), 0);
}

/* gone on 1 of 3: a quorum (2) deleted it, success */
static void release_gone_on_one(struct it_fix *f, redlock_lock *l)
{
    acquire_on_all(f, l);
    del_on(f->s, 2, release_key);
    check_release(l, REDLOCK_OK, 2);
    CHECK_EQ(rlt_servers_count_key(f->s, release_key, RELEASE_KLEN), 0);
}

/* errors on 2 of 3 (WRONGTYPE): unknown, ESERVER */
static void release_errors_on_two(struct it_fix *f, redlock_lock *l)
{
    acquire_on_all(f, l);
    for (int i = 1; i < 3; i++) {
        del_on(f->s, i, release_key);
        redisReply *r = rlt_servers_command(f->s, i, "RPUSH %s x", release_key);
        CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER);
        freeReplyObject(r);
    }
    check_release(l, REDLOCK_ESERVER, 1);
    for (int i = 1; i < 3; i++)
        del_on(f->s, i, release_key);
    CHECK_EQ(rlt_servers_count_key(f->s, release_key, RELEASE_KLEN), 0);
}

/* 2 of 3 hung: unknown, ETIMEDOUT; they delete it once resumed */
static void release_hung_on_two(struct it_fix *f, redlock_lock *l)
{
    acquire_on_all(f, l);
    CHECK_EQ(rlt_servers_pause(f->s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f->s, 2), 0);
    check_release(l, REDLOCK_ETIMEDOUT, 1);
    CHECK_EQ(rlt_servers_resume(f->s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f->s, 2), 0);
    CHECK_EQ(it_wait_count(f->s, release_key, RELEASE_KLEN, 0, 3000), 0);
}

/* 2 of 3 dead: unknown, ECONNECT */
static void release_dead_on_two(struct it_fix *f, redlock_lock *l)
{
    acquire_on_all(f, l);
    CHECK_EQ(rlt_servers_kill(f->s, 1), 0);
    CHECK_EQ(rlt_servers_kill(f->s, 2), 0);
    check_release(l, REDLOCK_ECONNECT, 1);
    CHECK_EQ(rlt_servers_count_key(f->s, release_key, RELEASE_KLEN), 0);
}

TEST(guard_release_codes)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, release_key);
    release_expired_on_two(&f, l);
    release_taken_on_two(&f, l);
    release_gone_on_one(&f, l);
    release_errors_on_two(&f, l);
    release_hung_on_two(&f, l);
    release_dead_on_two(&f, l);
    it_fix_stop(&f);
}

/* ---- messages: bad addresses -------------------------------------------------- */

/* redlock_client_new on one address: rc, and the message in err. */
static int new_one(const char *addr, char *err, size_t errlen)
{
    const char *one[] = {addr};
    redlock_client *c = NULL;
    err[0] = '\0';
    int rc = redlock_client_new(&c, NULL, one, 1, NULL, err, errlen);
    if (rc == 0)
        redlock_client_free(c);
    else
        CHECK(c == NULL);
    return rc;
}

TEST(guard_address_messages)
{
    char err[512];
    char addr[1100];

    /* unix paths: 107 bytes fit sun_path (108 with the NUL), 108 do not */
    strcpy(addr, "unix://");
    memset(addr + 7, 'p', 107);
    addr[7] = '/';
    addr[7 + 107] = '\0';
    CHECK_MSG(new_one(addr, err, sizeof err) == 0, "107-byte path: %s", err);
    memset(addr + 7, 'p', 108);
    addr[7] = '/';
    addr[7 + 108] = '\0';
    CHECK_MSG(new_one(addr, err, sizeof err) == REDLOCK_EINVAL, "108-byte path accepted");
    CHECK_NE(err[0], '\0');
    memset(addr + 7, 'p', 300);
    addr[7] = '/';
    addr[7 + 300] = '\0';
    CHECK_EQ(new_one(addr, err, sizeof err), REDLOCK_EINVAL);

    /* a 1000-character host */
    memset(addr, 'h', 1000);
    strcpy(addr + 1000, ":6379");
    CHECK_MSG(new_one(addr, err, sizeof err) == REDLOCK_EINVAL, "1000-char host accepted");
    CHECK_NE(err[0], '\0');
    strcpy(addr, "redis://");
    memset(addr + 8, 'h', 1000);
    strcpy(addr + 1008, ":6379");
    CHECK_MSG(new_one(addr, err, sizeof err) == REDLOCK_EINVAL,
              "1000-char host in a URL accepted");

    /* credentials without a scheme: the message says the scheme is missing */
    CHECK_EQ(new_one("user:s3cr3tpw@h:6379", err, sizeof err), REDLOCK_EINVAL);
    CHECK_MSG(it_has(err, "scheme") || it_has(err, "redis://"), "message \"%s\"", err);
    CHECK_MSG(!it_has(err, "IPv6") && !it_has(err, "bracket"), "message \"%s\"", err);
    CHECK_MSG(!it_has(err, "s3cr3tpw"), "message \"%s\" shows the password", err);

    /* a malformed scheme */
    CHECK_EQ(new_one("redis:/h:6379", err, sizeof err), REDLOCK_EINVAL);
    CHECK_MSG(it_has(err, "malformed") || it_has(err, "scheme") || it_has(err, "://"),
              "message \"%s\"", err);
    CHECK_MSG(!it_has(err, "IPv6") && !it_has(err, "bracket"), "message \"%s\"", err);
    CHECK_EQ(new_one("redis:/user:s3cr3tpw@h:6379", err, sizeof err), REDLOCK_EINVAL);
    CHECK_MSG(!it_has(err, "s3cr3tpw"), "message \"%s\" shows the password", err);
}
