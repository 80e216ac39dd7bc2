/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_engine.c -- the widened engine against real redis-servers, through its
 * internal interface (lock_private.h): an operation with several keys and
 * arguments and a command per master, replies turned into values, every
 * decision rule; the TIME probe reading arrays into the node stats; and
 * what a connection owes the process (close-on-exec sockets, credentials
 * from the options).
 */
#include "itest.h"
#include "client/client.h"
#include "proxy.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <hiredis/hiredis.h>

/* ---- a test kind: three keys, three arguments, one per master ---------- */

/* SET k1 a1, SET k2 a2, INCRBY k3 <node + 1>: returns the new counter. */
static const char stamp_body[] =
    "redis.call('set', KEYS[1], ARGV[1]) redis.call('set', KEYS[2], ARGV[2]) "
    "return redis.call('incrby', KEYS[3], ARGV[3])";

static int encode_stamp(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    const char *argv[9];
    size_t len[9];
    char inc[24];
    (void)eval;

    argv[0] = "EVAL";
    len[0] = 4;
    argv[1] = stamp_body;
    len[1] = strlen(stamp_body);
    argv[2] = "3";
    len[2] = 1;
    for (size_t i = 0; i < 5; i++)      /* three keys, two arguments */
        argv[3 + i] = redlock__op_item(op, i, &len[3 + i]);
    len[8] = redlock__u64_str(inc, node + 1);   /* this master's own argument */
    argv[8] = inc;
    return redlock__resp_command(out, 9, argv, len);
}

static int classify_stamp(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type != REDLOCK__REPLY_INTEGER)
        return REDLOCK__ERROR;
    op->value[node] = r->integer;
    return REDLOCK__OK;
}

struct done {
    int done;
    enum redlock__decision decision;
    int64_t value[5];
    unsigned char votes[5];
    int have_max;
    int64_t max;
};

static void op_done(redlock__op *op, void *privdata)
{
    struct done *d = privdata;
    d->done++;
    d->decision = op->decision;
    memcpy(d->value, op->value, op->f->n * sizeof *op->value);
    memcpy(d->votes, op->votes, op->f->n);
    d->have_max = redlock__max_of_ok(op->votes, op->value, op->f->n, op->tally.quorum, &d->max);
}

/* Run one op of `kind` on c's masters (a blocking client: its own loop). */
static struct done run_op(redlock_client *c, const redlock__op_kind *kind, const char *tag)
{
    char k1[32], k2[32], k3[32];
    snprintf(k1, sizeof k1, "%s-a", tag);
    snprintf(k2, sizeof k2, "%s-b", tag);
    snprintf(k3, sizeof k3, "%s-n", tag);
    const char *item[5] = { k1, k2, k3, "first", "second" };
    size_t len[5] = { strlen(k1), strlen(k2), strlen(k3), 5, 6 };
    redlock__op_args a = { 3, 2, item, len, 0, 0, 0, 0 };
    struct done d;
    memset(&d, 0, sizeof d);
    redlock__op *op = redlock__op_new(&c->fleet, kind, &a);
    CHECK(op != NULL);
    redlock__op_start(op, op_done, &d);
    CHECK_EQ(d.done, 0);        /* never inside the starting call */
    int64_t deadline = check_now_ms() + 5000;
    while (!d.done && check_now_ms() < deadline)
        event_base_loop(c->loop.base, EVLOOP_ONCE);
    CHECK_EQ(d.done, 1);
    return d;
}

static redlock__op_kind stamp_kind(enum redlock__rule_kind rule, unsigned count)
{
    redlock__op_kind k = { "stamp", { rule, count }, REDLOCK__KIND_PER_NODE, encode_stamp,
                           classify_stamp, NULL };
    return k;
}

TEST(engine_keys_arguments_and_a_value_per_master)
{
    rlt_servers *s = it_start(3, NULL);
    redlock_client *c = it_client(s, NULL);
    static redlock__op_kind k;
    k = stamp_kind(REDLOCK__RULE_MAJORITY, 0);

    struct done d = run_op(c, &k, "eng");
    CHECK_EQ(d.decision, REDLOCK__WON);
    /* decided at the quorum: the third reply may come after */
    event_base_loop(c->loop.base, EVLOOP_NONBLOCK);
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(s, i, "MGET eng-a eng-b eng-n");
        CHECK(r && r->type == REDIS_REPLY_ARRAY && r->elements == 3);
        CHECK_STREQ(r->element[0]->str, "first");
        CHECK_STREQ(r->element[1]->str, "second");
        CHECK_EQ(atoi(r->element[2]->str), i + 1);     /* its own argument */
        freeReplyObject(r);
    }
    /* the values the replies left, and the maximum of a quorum's */
    int ok = 0;
    for (int i = 0; i < 3; i++) {
        if (d.votes[i] == REDLOCK__OK) {
            CHECK_EQ(d.value[i], i + 1);
            ok++;
        }
    }
    CHECK_GE(ok, 2);
    CHECK_EQ(d.have_max, 1);
    CHECK_GE(d.max, 2);
    /* again: each counter grew by its own step */
    d = run_op(c, &k, "eng");
    CHECK_EQ(d.decision, REDLOCK__WON);
    for (int i = 0; i < 3; i++)
        if (d.votes[i] == REDLOCK__OK)
            CHECK_EQ(d.value[i], 2 * (i + 1));
    redlock_client_free(c);
    rlt_servers_free(s);
}

TEST(engine_every_decision_rule_with_one_master_down)
{
    rlt_servers *s = it_start(3, NULL);
    redlock_client *c = it_client(s, NULL);
    CHECK_EQ(rlt_servers_kill(s, 2), 0);
    /* let the client see the connection go */
    int64_t deadline = check_now_ms() + 5000;
    while (redlock_client_connected(c) != 2 && check_now_ms() < deadline)
        event_base_loop(c->loop.base, EVLOOP_ONCE);
    CHECK_EQ(redlock_client_connected(c), 2);

    static const struct { enum redlock__rule_kind rule; unsigned count; int won; } cases[] = {
        { REDLOCK__RULE_MAJORITY, 0, 1 }, { REDLOCK__RULE_WAIT_ALL, 0, 1 },
        { REDLOCK__RULE_ALL, 0, 0 },      { REDLOCK__RULE_ANY, 0, 1 },
        { REDLOCK__RULE_COUNT, 2, 1 },    { REDLOCK__RULE_COUNT, 3, 0 },
    };
    /* kinds outlive their ops (late replies still find them): static */
    static redlock__op_kind kinds[sizeof cases / sizeof cases[0]];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        kinds[i] = stamp_kind(cases[i].rule, cases[i].count);
        struct done d = run_op(c, &kinds[i], "rule");
        CHECK_MSG(d.decision == (cases[i].won ? REDLOCK__WON : REDLOCK__LOST),
                  "case %zu: decision %d", i, (int)d.decision);
        CHECK_EQ(d.votes[2], REDLOCK__DOWN);
    }
    /* a rule that three masters cannot meet is refused at creation */
    static redlock__op_kind k;
    k = stamp_kind(REDLOCK__RULE_COUNT, 4);
    const char *item[5] = { "a", "b", "c", "d", "e" };
    size_t len[5] = { 1, 1, 1, 1, 1 };
    redlock__op_args a = { 3, 2, item, len, 0, 0, 0, 0 };
    CHECK(redlock__op_new(&c->fleet, &k, &a) == NULL);
    redlock_client_free(c);
    rlt_servers_free(s);
}

/* ---- the TIME probe ------------------------------------------------------ */

static int64_t clock_us(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

TEST(engine_time_probe_fills_the_clock_stats)
{
    rlt_servers *s = it_start(3, NULL);
    redlock_options o;
    it_opts(&o);
    o.clock_probe_ms = 50;
    redlock_client *c = it_client(s, &o);

    it_wait_clock_samples(c->loop.base, c, 4, 5000);
    /* the servers run on this host: master TIME - our CLOCK_BOOTTIME is
     * the host's wall clock minus its boot clock, to within the probes'
     * round trips */
    int64_t expect = clock_us(CLOCK_REALTIME) - clock_us(CLOCK_BOOTTIME);
    for (size_t i = 0; i < 3; i++) {
        redlock_node_stats st;
        CHECK_EQ(redlock_client_node_stats(c, i, &st), 0);
        check_note("node %zu: %llu samples, offset %lld us (expected %lld), change %lld us "
                   "over %lld us", i, (unsigned long long)st.clock_samples,
                   (long long)st.clock_offset_us, (long long)expect,
                   (long long)st.clock_change_us, (long long)st.clock_interval_us);
        CHECK_LT(llabs(st.clock_offset_us - expect), 50000);
        CHECK_LT(llabs(st.clock_change_us), 20000);
        CHECK_GE(st.clock_interval_us, 45000);          /* the probe period */
        CHECK_EQ(st.requests, 0);   /* probes are not lock requests */
        CHECK_EQ(st.oks, 0);
    }
    redlock_client_free(c);

    /* clock_probe_ms 0: the handshake's sample only */
    o.clock_probe_ms = 0;
    c = it_client(s, &o);
    it_wait_clock_samples(c->loop.base, c, 1, 5000);
    int64_t until = check_now_ms() + 300;
    while (check_now_ms() < until)
        it_dispatch(c->loop.base, until - check_now_ms());
    for (size_t i = 0; i < 3; i++) {
        redlock_node_stats st;
        CHECK_EQ(redlock_client_node_stats(c, i, &st), 0);
        CHECK_EQ(st.clock_samples, 1);
        CHECK_LT(llabs(st.clock_offset_us - expect), 50000);
    }
    redlock_client_free(c);

    o.clock_probe_ms = -1;
    char err[128];
    CHECK_EQ(redlock_client_new(&c, NULL, rlt_servers_addrs(s), 3, &o, err, sizeof err),
             REDLOCK_EINVAL);
    CHECK(strstr(err, "clock_probe_ms") != NULL);
    rlt_servers_free(s);
}

/* Each proxy's counts and the client's node stats of each master. */
static void ride_counts(rlp_thread **px, redlock_client *c, rlp_stats *st,
                        redlock_node_stats *ns)
{
    for (int i = 0; i < 3; i++) {
        rlp_thread_stats(px[i], &st[i]);
        CHECK_EQ(redlock_client_node_stats(c, (size_t)i, &ns[i]), 0);
    }
}

/* Acquire and release back to back for 1.5 s; the rounds done. */
static int ride_busy(struct event_base *base, redlock_lock *l)
{
    int rounds = 0;
    for (int64_t until = check_now_ms() + 1500; check_now_ms() < until; rounds++) {
        struct it_op op = {base};
        CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, &op), REDLOCK_OK);
        it_op_wait(&op, 2000);
        CHECK_RC(l, op.status, REDLOCK_OK);
        op = (struct it_op){base};
        CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), REDLOCK_OK);
        it_op_wait(&op, 2000);
        CHECK_RC(l, op.status, REDLOCK_OK);
    }
    return rounds;
}

/* Busy (from 0 to 1): no TIME alone, samples taken in the writes, the last
 * two about half a period to a period apart. */
static void check_busy_rides(int rounds, const rlp_stats *st0, const rlp_stats *st1,
                             const redlock_node_stats *ns0, const redlock_node_stats *ns1)
{
    for (int i = 0; i < 3; i++) {
        check_note("busy, %d rounds, master %d: %lu TIME, %lu alone, %llu samples", rounds, i,
                   st1[i].time_cmds - st0[i].time_cmds, st1[i].time_alone - st0[i].time_alone,
                   (unsigned long long)(ns1[i].clock_samples - ns0[i].clock_samples));
        CHECK_EQ(st1[i].time_alone - st0[i].time_alone, 0);
        CHECK_GE(st1[i].time_cmds - st0[i].time_cmds, 4);
        CHECK_GE(ns1[i].clock_samples - ns0[i].clock_samples, 4);
        /* the last two samples: a ride once the last is half a period
         * (100 ms) old, so no closer than that (less a round trip), and
         * no further apart than a period (with room for a slow loop) */
        CHECK_GE(ns1[i].clock_interval_us, 50000);
        CHECK_LE(ns1[i].clock_interval_us, 400000);
    }
}

/* Idle for 1 s after st1: a TIME, alone, once a period (200 ms): 5. */
static void check_idle_probes(struct event_base *base, rlp_thread **px, redlock_client *c,
                              const rlp_stats *st1)
{
    rlp_stats st2[3];
    it_run(base, 1000);
    for (int i = 0; i < 3; i++) {
        rlp_thread_stats(px[i], &st2[i]);
        unsigned long alone = st2[i].time_alone - st1[i].time_alone;
        check_note("idle, master %d: %lu TIME, %lu alone", i, st2[i].time_cmds - st1[i].time_cmds,
                   alone);
        /* (a probe that carries the guards' INFO and CONFIG GETs, every
         * 5 periods, is not alone) */
        unsigned long times = st2[i].time_cmds - st1[i].time_cmds;
        CHECK_GE(times, 3);
        CHECK_LE(times, 6);
        CHECK_LE(times - alone, 2);
        redlock_node_stats ns;
        CHECK_EQ(redlock_client_node_stats(c, (size_t)i, &ns), 0);
        CHECK_LE(ns.clock_interval_us, 400000);     /* every master, at least every period */
    }
}

/* A client that writes to its masters anyway takes its clock samples in
 * those writes: while it locks, no TIME leaves on its own; once idle, one
 * TIME alone per master and period.  The proxies see each write. */
TEST(engine_time_rides_along_with_requests)
{
    redlock_options o;
    it_opts(&o);
    o.clock_probe_ms = 200;
    struct it_fix f = {0};
    rlp_thread *px[3];
    rlp_stats st0[3], st1[3];
    redlock_node_stats ns0[3], ns1[3];
    char addr[3][32];
    const char *addrs[3];
    it_fix_start(&f, 3, NULL, IT_ASYNC | IT_NOCLIENT);
    it_proxies(f.s, 3, px, addr, addrs);
    redlock_client *c = it_client_new(f.base, addrs, 3, &o);
    CHECK_EQ(it_async_wait_connected(f.base, c, 3, 3000), 0);
    redlock_lock *l = IT_LOCK(c, "ride");
    ride_counts(px, c, st0, ns0);
    int rounds = ride_busy(f.base, l);
    ride_counts(px, c, st1, ns1);
    check_busy_rides(rounds, st0, st1, ns0, ns1);
    check_idle_probes(f.base, px, c, st1);
    redlock_lock_free(l);
    redlock_client_free(c);
    it_fix_stop(&f);
    for (int i = 0; i < 3; i++)
        rlp_thread_stop(px[i]);
}

/* ---- sockets and credentials -------------------------------------------- */

/* Sockets of this process connected to one of s's servers. */
static int sockets_to(rlt_servers *s, int *cloexec)
{
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    int n = 0;
    CHECK(d != NULL);
    *cloexec = 0;
    while ((e = readdir(d)) != NULL) {
        int fd = atoi(e->d_name);
        struct sockaddr_in peer;
        socklen_t plen = sizeof peer;
        if (e->d_name[0] == '.' || fd == dirfd(d))
            continue;
        if (getpeername(fd, (struct sockaddr *)&peer, &plen) != 0 || peer.sin_family != AF_INET)
            continue;
        for (int i = 0; i < rlt_servers_count(s); i++) {
            if (ntohs(peer.sin_port) == rlt_servers_port(s, i)) {
                n++;
                *cloexec += (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0;
            }
        }
    }
    closedir(d);
    return n;
}

TEST(engine_sockets_are_close_on_exec)
{
    rlt_servers *s = it_start(3, NULL);
    redlock_client *c = it_client(s, NULL);
    int cloexec, n = sockets_to(s, &cloexec);
    CHECK_EQ(n, 3);
    CHECK_EQ(cloexec, 3);
    /* and after a reconnection */
    CHECK_EQ(rlt_servers_restart(s, 1), 0);
    redlock_lock *l = IT_LOCK(c, "cloexec");
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_OK);     /* sees the drop */
    CHECK_EQ(redlock_client_wait_connected(c, 3, 5000), 0);
    n = sockets_to(s, &cloexec);
    CHECK_GE(n, 3);     /* (and since its first lock, a second one each: option wake) */
    CHECK_LE(n, 6);
    CHECK_EQ(cloexec, n);
    redlock_lock_free(l);
    redlock_client_free(c);
    rlt_servers_free(s);
}

TEST(engine_password_from_the_options)
{
    /* a password no URL could carry unencoded */
    static const char *const extra[] = {"--requirepass", "p/w@x:y%z", NULL};
    rlt_servers *s = it_start(2, extra);
    redlock_options o;
    it_opts(&o);
    o.password = "p/w@x:y%z";
    redlock_client *c = it_client(s, &o);      /* plain host:port addresses */
    redlock_lock *l = IT_LOCK(c, "optpass");
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_OK);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    redlock_lock_free(l);
    redlock_client_free(c);

    /* an ACL user and its password */
    it_cmd_on(s, 0, 2, REDIS_REPLY_STATUS, "ACL SETUSER locker on >sec/ret ~* +@all");
    o.user = "locker";
    o.password = "sec/ret";
    c = it_client(s, &o);
    l = IT_LOCK(c, "optuser");
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_OK);
    redlock_lock_free(l);
    redlock_client_free(c);

    /* a password in the address wins over the option's */
    char addr[96];
    snprintf(addr, sizeof addr, "redis://:wrong@127.0.0.1:%d", rlt_servers_port(s, 0));
    const char *addrs[] = {addr};
    o.user = NULL;
    o.password = "p/w@x:y%z";
    c = it_client_addrs(addrs, 1, &o, 0);
    CHECK_EQ(redlock_client_wait_connected(c, 1, 30000), REDLOCK_ECONNECT);
    redlock_client_free(c);

    /* a user without a password is refused, naming the field */
    o.user = "locker";
    o.password = NULL;
    char err[128];
    CHECK_EQ(redlock_client_new(&c, NULL, rlt_servers_addrs(s), 2, &o, err, sizeof err),
             REDLOCK_EINVAL);
    CHECK(strstr(err, "user") != NULL);
    rlt_servers_free(s);
}

/* ---- a master's second connection ------------------------------------- */

struct side_seen {
    struct event_base *base;    /* its loop is stopped at each reply */
    int replies, failures;
    int type;
    char text[64];
    size_t elements;
};

static void side_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    struct side_seen *s = privdata;
    (void)tag;
    (void)why;
    event_base_loopbreak(s->base);
    if (!r) {
        s->failures++;
        return;
    }
    s->replies++;
    s->type = r->type;
    s->elements = r->elements;
    snprintf(s->text, sizeof s->text, "%s",
             r->type == REDLOCK__REPLY_ARRAY && r->elements == 2 ? r->element[1]->str : r->str);
}

/* A field of server i's INFO clients (connected_clients, blocked_clients) */
static long clients_field(rlt_servers *s, int i, const char *field)
{
    redisReply *r = rlt_servers_command(s, i, "INFO clients");
    const char *p;
    long n = -1;
    CHECK(r && r->type == REDIS_REPLY_STRING);
    if ((p = strstr(r->str, field)) != NULL && p[strlen(field)] == ':')
        n = strtol(p + strlen(field) + 1, NULL, 10);
    freeReplyObject(r);
    return n;
}

static long clients_of(rlt_servers *s, int i)
{
    return clients_field(s, i, "connected_clients");
}

static void wait_side(redlock_client *c, const struct side_seen *seen, int replies)
{
    int64_t deadline = check_now_ms() + 5000;
    while (seen->replies + seen->failures < replies && check_now_ms() < deadline)
        it_dispatch(c->loop.base, deadline - check_now_ms());
    CHECK_EQ(seen->failures, 0);
    CHECK_EQ(seen->replies, replies);
}

/* A master owns a second connection on demand: its own queue (a lock
 * request never waits behind a blocking command on it), its own handshake,
 * closed with the client. */
TEST(engine_master_owns_a_second_connection)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock__master *m = &f.c->fleet.masters[0];
    struct side_seen seen = { f.c->loop.base, 0, 0, 0, "", 0 };
    redlock__slot sl = { side_reply, &seen, 0, NULL, 0, 0 };
    const char *why = NULL;
    static const char ping[] = "*1\r\n$4\r\nPING\r\n";
    static const char blpop[] = "*3\r\n$5\r\nBLPOP\r\n$8\r\neng-side\r\n$1\r\n5\r\n";
    long before = clients_of(f.s, 0);

    CHECK_EQ(redlock__master_side_up(m), 0);        /* not before it is needed */
    CHECK_EQ(redlock__master_side_send(m, ping, sizeof ping - 1, &sl, &why), 0);
    wait_side(f.c, &seen, 1);
    CHECK_EQ(seen.type, REDLOCK__REPLY_STATUS);
    CHECK_STREQ(seen.text, "PONG");
    CHECK_EQ(redlock__master_side_up(m), 1);
    CHECK_EQ(redlock__master_up(m), 1);
    CHECK_EQ(clients_of(f.s, 0), before + 1);       /* two connections to master 0 */

    /* BLPOP holds the second connection for up to 5 s; the lock connection
     * does not wait behind it: master 0 votes OK at once */
    CHECK_EQ(redlock__master_side_send(m, blpop, sizeof blpop - 1, &sl, &why), 0);
    /* the server has the BLPOP blocked before the lock is asked for */
    int64_t until = check_now_ms() + 2000;
    while (clients_field(f.s, 0, "blocked_clients") < 1 && check_now_ms() < until)
        it_dispatch(f.c->loop.base, 2);
    CHECK_EQ(clients_field(f.s, 0, "blocked_clients"), 1);
    redlock_lock *l = it_fix_lock(&f, f.c, "eng-side-lock");
    CHECK_RC(l, redlock_try_acquire(l, 5000), 0);
    redlock_node_result res;
    CHECK_EQ(redlock_lock_node_result(l, 0, &res), 0);
    /* OK, or not heard before the decision at the quorum (a slow run) */
    CHECK(res.vote == REDLOCK_VOTE_OK || res.vote == REDLOCK_VOTE_NONE);
    if (res.vote == REDLOCK_VOTE_OK)
        CHECK_LT(res.rtt_us, 1000000);
    /* either way the SET ran on master 0 long before the BLPOP's 5 s */
    int64_t until0 = check_now_ms() + 2000;
    while (!rlt_servers_exists(f.s, 0, "eng-side-lock", 13) && check_now_ms() < until0)
        it_dispatch(f.c->loop.base, 5);
    CHECK_EQ(rlt_servers_exists(f.s, 0, "eng-side-lock", 13), 1);
    CHECK_EQ(seen.replies, 1);                      /* the BLPOP still waits */
    CHECK_RC(l, redlock_release(l), 0);

    /* the blocked command's reply comes back on its own connection */
    redisReply *r = rlt_servers_command(f.s, 0, "RPUSH eng-side woken");
    CHECK(r && r->type == REDIS_REPLY_INTEGER);
    freeReplyObject(r);
    wait_side(f.c, &seen, 2);
    CHECK_EQ(seen.type, REDLOCK__REPLY_ARRAY);
    CHECK_EQ(seen.elements, 2);
    CHECK_STREQ(seen.text, "woken");
    it_fix_stop(&f);
}
