/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_hostile.c -- integration: masters that answer errors instead of OK
 * (WRONGTYPE, READONLY, OOM, NOPERM, LOADING, WRONGPASS), and hostile or
 * extreme arguments (duplicate addresses, too many nodes, huge names,
 * binary values, ttl limits, NULL everywhere).
 *
 * Every error reply must be a failed vote with a readable reason that names
 * the server's error, never a crash, a hang or a leak (`make valgrind` and
 * `make asan` run these too), and never a password in a message.
 */
#include "itest.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

/* ---- helpers ---------------------------------------------------------- */

/* Run a command on server i and require a +OK (or any status) reply. */
#define CMD_OK(s, i, ...)                                                     \
    do {                                                                      \
        redisReply *cmd_r_ = rlt_servers_command((s), (i), __VA_ARGS__);      \
        CHECK_MSG(cmd_r_ != NULL && cmd_r_->type == REDIS_REPLY_STATUS,       \
                  "server %d: %s -> %s", (i), #__VA_ARGS__,                   \
                  cmd_r_ == NULL ? "no reply"                                 \
                  : cmd_r_->type == REDIS_REPLY_ERROR ? cmd_r_->str : "not a status"); \
        freeReplyObject(cmd_r_);                                              \
    } while (0)

/* The integer of a reply, freed (-1000 when it is not one). */
static long long reply_int(void *reply)
{
    redisReply *r = reply;
    long long v = -1000;
    if (r != NULL && r->type == REDIS_REPLY_INTEGER)
        v = r->integer;
    if (r != NULL)
        freeReplyObject(r);
    return v;
}

/* node_cb: remember every event's detail. */
#define MAX_EVENTS 256
struct events {
    int n;
    int up, down;
    char detail[MAX_EVENTS][200];
};

static void record_event(redlock_client *c, size_t node, int event, const char *detail,
                         void *privdata)
{
    struct events *ev = privdata;
    (void)c;
    (void)node;
    if (event == REDLOCK_NODE_UP)
        ev->up++;
    else if (event == REDLOCK_NODE_DOWN)
        ev->down++;
    if (ev->n < MAX_EVENTS)
        snprintf(ev->detail[ev->n++], sizeof ev->detail[0], "%s", detail ? detail : "(null)");
}

/* it_opts(), with the node events recorded into ev. */
static void events_opts(redlock_options *o, struct events *ev)
{
    it_opts(o);
    o->node_cb = record_event;
    o->node_privdata = ev;
}

static int events_mention(const struct events *ev, const char *needle)
{
    for (int i = 0; i < ev->n; i++)
        if (it_has(ev->detail[i], needle))
            return 1;
    return 0;
}

/* Poll until the key holds `val` on exactly `want` running servers. */
static int wait_value_count(rlt_servers *s, const char *key, const char *val, size_t vlen,
                            int want, int64_t timeout_ms)
{
    int64_t deadline = check_now_ms() + timeout_ms;
    for (;;) {
        int n = it_count_value(s, key, strlen(key), val, vlen);
        if (n == want || check_now_ms() >= deadline)
            return n;
        it_sleep_ms(2);
    }
}

/* ---- WRONGTYPE ---------------------------------------------------------- */

/* The key exists as a list (or a hash) on every master.  SET NX does not
 * look at the type: it answers nil (exists), a refusal.  The release and
 * extend scripts call GET, which raises WRONGTYPE: an error vote, and the
 * foreign key is left alone. */
TEST(hostile_wrongtype_list_and_hash)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(reply_int(rlt_servers_command(f.s, i, "RPUSH hostile-list x")), 1);
        CHECK_EQ(reply_int(rlt_servers_command(f.s, i, "HSET hostile-hash f v")), 1);
    }
    f.c = it_client(f.s, NULL);
    const char *keys[] = {"hostile-list", "hostile-hash"};
    for (int k = 0; k < 2; k++) {
        redlock_lock *l = it_lock(f.c, keys[k], strlen(keys[k]));
        CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ENOQUORUM);
        CHECK_EQ(redlock_lock_nodes_ok(l), 0);
        CHECK_EQ(redlock_lock_validity(l), 0);
        /* decided as soon as two refusals sink the quorum */
        CHECK_MSG(it_has(it_errstr(l), "refused") && !it_has(it_errstr(l), " 0 refused"),
                  "errstr: %s", it_errstr(l));

        /* release and extend by value run GET on the list: WRONGTYPE */
        CHECK_EQ(redlock_lock_set_value(l, "v", 1), 0);
        CHECK_RC(l, redlock_release(l), REDLOCK_ESERVER);
        CHECK_MSG(it_has(it_errstr(l), "WRONGTYPE"), "errstr: %s", it_errstr(l));
        CHECK_EQ(redlock_lock_nodes_ok(l), 0);
        CHECK_RC(l, redlock_extend(l, 5000), REDLOCK_ESERVER);
        CHECK_MSG(it_has(it_errstr(l), "WRONGTYPE"), "errstr: %s", it_errstr(l));
        CHECK_EQ(redlock_lock_validity(l), 0);
        /* a fixed value does not change what SET NX says */
        CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ENOQUORUM);
        redlock_lock_free(l);
    }
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(reply_int(rlt_servers_command(f.s, i, "LLEN hostile-list")), 1);
        CHECK_EQ(reply_int(rlt_servers_command(f.s, i, "HLEN hostile-hash")), 1);
        CHECK_EQ(it_pttl(f.s, i, "hostile-list", 12), -1);
    }

    /* On one master only: the two others still make a quorum, and the
     * release deletes our two copies despite the third's WRONGTYPE. */
    CHECK_EQ(reply_int(rlt_servers_command(f.s, 0, "RPUSH hostile-one x")), 1);
    redlock_lock *l = it_fix_lock(&f, f.c, "hostile-one");
    CHECK_RC(l, redlock_try_acquire(l, 5000), 0);
    CHECK_EQ(redlock_lock_nodes_ok(l), 2);
    size_t ovlen = 0;
    const char *ov = redlock_lock_value(l, &ovlen);
    CHECK_EQ(it_has_value(f.s, 1, "hostile-one", 11, ov, ovlen), 1);
    CHECK_EQ(it_has_value(f.s, 2, "hostile-one", 11, ov, ovlen), 1);
    CHECK_RC(l, redlock_extend(l, 5000), 0);
    CHECK_EQ(redlock_lock_nodes_ok(l), 2);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(redlock_lock_nodes_ok(l), 2);
    CHECK_EQ(rlt_servers_count_key(f.s, "hostile-one", 11), 1);
    CHECK_EQ(reply_int(rlt_servers_command(f.s, 0, "LLEN hostile-one")), 1);
    it_fix_stop(&f);
}

/* ---- READONLY ------------------------------------------------------------ */

static void make_replica(rlt_servers *s, int replica, int master)
{
    /* Redis 7 waits 5 s before a diskless full sync by default */
    CMD_OK(s, master, "CONFIG SET repl-diskless-sync-delay 0");
    CMD_OK(s, replica, "REPLICAOF 127.0.0.1 %d", rlt_servers_port(s, master));
    int64_t deadline = check_now_ms() + 5000;
    for (;;) {
        redisReply *r = rlt_servers_command(s, replica, "INFO replication");
        int up = r != NULL && r->type == REDIS_REPLY_STRING &&
                 strstr(r->str, "master_link_status:up") != NULL;
        if (r != NULL)
            freeReplyObject(r);
        if (up)
            break;
        CHECK_MSG(check_now_ms() < deadline, "replica %d never linked to %d", replica, master);
        it_sleep_ms(5);
    }
}

/* A replica given as a master answers -READONLY: an error vote. */
TEST(hostile_readonly_replica_among_three)
{
    struct it_fix f = {0};
    it_fix_start(&f, 4, NULL, IT_NOCLIENT);
    make_replica(f.s, 2, 3);      /* node 2 replicates server 3, not a node */
    struct events ev = {0};
    redlock_options o;
    events_opts(&o, &ev);
    f.c = it_client_addrs(rlt_servers_addrs(f.s), 3, &o, 3);

    /* two masters out of three: still a quorum */
    redlock_lock *l = it_fix_lock(&f, f.c, "hostile-ro");
    CHECK_RC(l, redlock_try_acquire(l, 5000), 0);
    CHECK_EQ(redlock_lock_nodes_ok(l), 2);
    CHECK_EQ(it_count_lock(f.s, "hostile-ro", 10, l), 2);
    CHECK_EQ(rlt_servers_exists(f.s, 2, "hostile-ro", 10), 0);
    CHECK_RC(l, redlock_extend(l, 5000), 0);
    CHECK_EQ(redlock_lock_nodes_ok(l), 2);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "hostile-ro", 10), 0);

    /* node 1 refuses (someone else holds the key): the READONLY vote is
     * what sinks the quorum, and the message names it */
    CMD_OK(f.s, 1, "SET hostile-ro someone-else");
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ENOQUORUM);
    CHECK_MSG(it_has(it_errstr(l), "READONLY"), "errstr: %s", it_errstr(l));
    CHECK_EQ(redlock_lock_validity(l), 0);
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);
    CHECK(v != NULL);
    /* the attempt's copy on node 0 is rolled back */
    CHECK_EQ(wait_value_count(f.s, "hostile-ro", v, vlen, 0, 2000), 0);
    CHECK_EQ(it_has_value(f.s, 1, "hostile-ro", 10, "someone-else", 12), 1);
    /* the replica's connection itself is healthy: no node ever went down */
    CHECK_EQ(ev.down, 0);
    CHECK_EQ(redlock_client_connected(f.c), 3);
    it_fix_stop(&f);
}

TEST(hostile_readonly_majority_of_replicas)
{
    struct it_fix f = {0};
    it_fix_start(&f, 4, NULL, IT_NOCLIENT);
    make_replica(f.s, 1, 3);
    make_replica(f.s, 2, 3);
    f.c = it_client_addrs(rlt_servers_addrs(f.s), 3, NULL, 3);
    redlock_lock *l = it_fix_lock(&f, f.c, "hostile-ro2");
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ESERVER);
    CHECK_MSG(it_has(it_errstr(l), "READONLY"), "errstr: %s", it_errstr(l));
    CHECK_MSG(it_has(it_errstr(l), "2 errors"), "errstr: %s", it_errstr(l));
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);
    CHECK(v != NULL);
    CHECK_EQ(wait_value_count(f.s, "hostile-ro2", v, vlen, 0, 2000), 0);
    /* with retries: every attempt fails the same way, nothing is left */
    CHECK_RC(l, redlock_acquire(l, 5000), REDLOCK_ESERVER);
    v = redlock_lock_value(l, &vlen);
    CHECK_EQ(wait_value_count(f.s, "hostile-ro2", v, vlen, 0, 2000), 0);
    it_fix_stop(&f);
}

/* ---- OOM ------------------------------------------------------------------ */

TEST(hostile_oom_master)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    CMD_OK(f.s, 2, "SET hostile-filler %s", "some data so that used memory > 1 byte");
    CMD_OK(f.s, 2, "CONFIG SET maxmemory-policy noeviction");
    CMD_OK(f.s, 2, "CONFIG SET maxmemory 1");
    f.c = it_client(f.s, NULL);

    /* a single OOM master among three does not stop the lock */
    redlock_lock *l = IT_LOCK(f.c, "hostile-oom");
    CHECK_RC(l, redlock_try_acquire(l, 5000), 0);
    CHECK_EQ(redlock_lock_nodes_ok(l), 2);
    CHECK_EQ(rlt_servers_exists(f.s, 2, "hostile-oom", 11), 0);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "hostile-oom", 11), 0);

    /* with node 1 refusing, the OOM vote decides, and is named */
    CMD_OK(f.s, 1, "SET hostile-oom someone-else");
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ENOQUORUM);
    CHECK_MSG(it_has(it_errstr(l), "OOM"), "errstr: %s", it_errstr(l));
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);
    CHECK_EQ(wait_value_count(f.s, "hostile-oom", v, vlen, 0, 2000), 0);
    redlock_lock_free(l);
    redlock_client_free(f.c);

    /* the OOM master alone: a server error, not "held elsewhere" */
    const char *one[] = {rlt_servers_addr(f.s, 2)};
    f.c = it_client_addrs(one, 1, NULL, 1);
    l = it_fix_lock(&f, f.c, "hostile-oom-alone");
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ESERVER);
    CHECK_MSG(it_has(it_errstr(l), "OOM command not allowed"), "errstr: %s", it_errstr(l));
    CHECK_EQ(redlock_lock_nodes_ok(l), 0);
    CHECK_EQ(rlt_servers_exists(f.s, 2, "hostile-oom-alone", 17), 0);
    it_fix_stop(&f);
}

/* ---- NOPERM / WRONGPASS: ACL users and passwords --------------------------- */

#define SECRET "Pw-9f3e7c1b-secret"

static void check_no_secret(const redlock_lock *l, const struct events *ev, const char *secret)
{
    CHECK_MSG(!it_has(it_errstr(l), secret), "password in errstr: %s", it_errstr(l));
    for (int i = 0; i < ev->n; i++)
        CHECK_MSG(!it_has(ev->detail[i], secret), "password in node_cb detail: %s", ev->detail[i]);
}

/* The address of f's server 0 for `user` with the password SECRET. */
static const char *user_addr(struct it_fix *f, const char *user, char *addr, size_t size)
{
    snprintf(addr, size, "redis://%s:%s@127.0.0.1:%d", user, SECRET, rlt_servers_port(f->s, 0));
    return addr;
}

/* A user that may GET and PING but not SET: SET answers NOPERM. */
TEST(hostile_noperm_user_without_set)
{
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, IT_NOCLIENT);
    CMD_OK(f.s, 0, "ACL SETUSER lockuser on >%s ~* +get +ping +script +evalsha +eval", SECRET);
    char addr[128];
    const char *addrs[] = {user_addr(&f, "lockuser", addr, sizeof addr)};
    struct events ev = {0};
    redlock_options o;
    events_opts(&o, &ev);
    f.c = it_client_addrs(addrs, 1, &o, 1);
    CHECK_EQ(ev.up, 1);
    redlock_lock *l = it_fix_lock(&f, f.c, "hostile-noperm");
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ESERVER);
    CHECK_MSG(it_has(it_errstr(l), "NOPERM"), "errstr: %s", it_errstr(l));
    CHECK_EQ(rlt_servers_exists(f.s, 0, "hostile-noperm", 14), 0);
    /* release by value is allowed (GET), finds nothing: not the owner */
    CHECK_RC(l, redlock_release(l), REDLOCK_ENOTOWNER);
    check_no_secret(l, &ev, SECRET);
    CHECK_EQ(ev.down, 0);
    it_fix_stop(&f);
}

/* A user without +ping fails the handshake: the node never comes up, and
 * every operation says why, at once rather than after a timeout. */
TEST(hostile_noperm_user_without_ping)
{
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, IT_NOCLIENT);
    CMD_OK(f.s, 0, "ACL SETUSER pingless on >%s ~* +get +set +evalsha +eval", SECRET);
    char addr[128];
    const char *addrs[] = {user_addr(&f, "pingless", addr, sizeof addr)};
    struct events ev = {0};
    redlock_options o;
    events_opts(&o, &ev);
    f.c = it_client_new(NULL, addrs, 1, &o);
    CHECK_EQ(redlock_client_wait_connected(f.c, 1, 30000), REDLOCK_ECONNECT);
    CHECK_MSG(strstr(redlock_client_errstr(f.c), "NOPERM") != NULL, "errstr: %s",
              redlock_client_errstr(f.c));
    CHECK_EQ(ev.up, 0);
    CHECK_GE(ev.down, 1);
    CHECK_MSG(events_mention(&ev, "NOPERM"), "first detail: %s", ev.n ? ev.detail[0] : "");
    redlock_lock *l = it_fix_lock(&f, f.c, "hostile-pingless");
    int64_t t0 = check_now_ms();
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ECONNECT);
    CHECK_LT(check_now_ms() - t0, 2000);
    CHECK_MSG(it_has(it_errstr(l), "NOPERM"), "errstr: %s", it_errstr(l));
    check_no_secret(l, &ev, SECRET);
    CHECK_EQ(rlt_servers_exists(f.s, 0, "hostile-pingless", 16), 0);
    it_fix_stop(&f);
}

static void wrong_credentials(const char *userpart, const char *secret)
{
    const char *extra[] = {"--requirepass", "the-right-one", NULL};
    struct it_fix f = {.extra = extra};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    char bad[128];
    snprintf(bad, sizeof bad, "redis://%s@127.0.0.1:%d", userpart, rlt_servers_port(f.s, 2));
    char good0[128], good1[128];
    snprintf(good0, sizeof good0, "redis://:the-right-one@127.0.0.1:%d", rlt_servers_port(f.s, 0));
    snprintf(good1, sizeof good1, "redis://default:the-right-one@127.0.0.1:%d",
             rlt_servers_port(f.s, 1));
    const char *addrs[] = {good0, good1, bad};
    struct events ev = {0};
    redlock_options o;
    events_opts(&o, &ev);
    f.c = it_client_new(NULL, addrs, 3, &o);
    CHECK_EQ(redlock_client_wait_connected(f.c, 2, 5000), 0);
    /* the bad master refused the handshake: no use waiting out the 30 s,
     * and the reason is in the client's message, not only the node stats */
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 30000), REDLOCK_ECONNECT);
    {
        char port[16];
        snprintf(port, sizeof port, ":%d", rlt_servers_port(f.s, 2));
        CHECK_MSG(strstr(redlock_client_errstr(f.c), "2 of 3 masters connected") != NULL &&
                      strstr(redlock_client_errstr(f.c), port) != NULL &&
                      (strstr(redlock_client_errstr(f.c), "WRONGPASS") != NULL ||
                       strstr(redlock_client_errstr(f.c), "NOPERM") != NULL),
                  "errstr: %s", redlock_client_errstr(f.c));
    }
    /* a wait that succeeds clears it */
    CHECK_EQ(redlock_client_wait_connected(f.c, 2, 1000), 0);
    CHECK_STREQ(redlock_client_errstr(f.c), "");
    CHECK_EQ(redlock_client_connected(f.c), 2);
    CHECK_MSG(events_mention(&ev, "WRONGPASS"), "first detail: %s", ev.n ? ev.detail[0] : "");
    CHECK_MSG(events_mention(&ev, "handshake"), "first detail: %s", ev.n ? ev.detail[0] : "");

    /* two good masters: the lock works; the bad one votes "down" */
    redlock_lock *l = it_fix_lock(&f, f.c, "hostile-pass");
    CHECK_RC(l, redlock_try_acquire(l, 5000), 0);
    CHECK_EQ(redlock_lock_nodes_ok(l), 2);
    CHECK_RC(l, redlock_release(l), 0);

    /* node 1 refuses: the WRONGPASS node's reason is the message */
    CMD_OK(f.s, 1, "SET hostile-pass someone-else");
    int64_t t0 = check_now_ms();
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ENOQUORUM);
    CHECK_LT(check_now_ms() - t0, 2000);
    CHECK_MSG(it_has(it_errstr(l), "WRONGPASS"), "errstr: %s", it_errstr(l));
    check_no_secret(l, &ev, secret);
    CHECK_EQ(rlt_servers_exists(f.s, 2, "hostile-pass", 12), 0);
    it_fix_stop(&f);
}

TEST(hostile_wrong_password)
{
    wrong_credentials(":" SECRET, SECRET);
}

TEST(hostile_wrong_acl_user)
{
    wrong_credentials("nosuchuser:" SECRET, SECRET);
}

/* ---- LOADING -------------------------------------------------------------- */

/* Start redis-server on server i's port and dir, loading its dump.rdb
 * slowly (key-load-delay), without waiting for it. */
static pid_t spawn_loading(rlt_servers *s, int i, const char *delay_us)
{
    char port[16], logfile[512];
    snprintf(port, sizeof port, "%d", rlt_servers_port(s, i));
    snprintf(logfile, sizeof logfile, "%s/loading.log", rlt_servers_dir(s, i));
    const char *bin = getenv("REDIS_SERVER");
    if (bin == NULL || *bin == '\0')
        bin = "redis-server";
    const char *argv[] = {
        bin, "--port", port, "--bind", "127.0.0.1", "--dir", rlt_servers_dir(s, i),
        "--dbfilename", "dump.rdb", "--save", "", "--appendonly", "no",
        "--daemonize", "no", "--protected-mode", "no", "--logfile", logfile,
        "--key-load-delay", delay_us,
        /* serve clients (with -LOADING) every KiB of the file */
        "--loading-process-events-interval-bytes", "1024", NULL};
    pid_t parent = getpid();
    pid_t pid = fork();
    CHECK(pid >= 0);
    if (pid == 0) {
        int fd = open("/dev/null", O_RDWR);
        if (fd >= 0) {
            dup2(fd, 0);
            dup2(fd, 1);
            dup2(fd, 2);
        }
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent)
            _exit(127);
        execvp(bin, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* PING over a fresh connection: 1 LOADING, 2 PONG, 0 no answer. */
static int raw_ping(int port)
{
    struct timeval tv = {0, 200000};
    redisContext *rc = redisConnectWithTimeout("127.0.0.1", port, tv);
    int res = 0;
    if (rc != NULL && !rc->err) {
        redisSetTimeout(rc, tv);
        redisReply *r = redisCommand(rc, "PING");
        if (r != NULL && r->type == REDIS_REPLY_ERROR && strncmp(r->str, "LOADING", 7) == 0)
            res = 1;
        else if (r != NULL && r->type == REDIS_REPLY_STATUS)
            res = 2;
        if (r != NULL)
            freeReplyObject(r);
    }
    if (rc != NULL)
        redisFree(rc);
    return res;
}

/* GET key on a port: 1 it holds val, 0 it does not, -1 no answer. */
static int raw_get_is(int port, const char *key, const char *val, size_t vlen)
{
    struct timeval tv = {0, 500000};
    redisContext *rc = redisConnectWithTimeout("127.0.0.1", port, tv);
    int res = -1;
    if (rc != NULL && !rc->err) {
        redisSetTimeout(rc, tv);
        redisReply *r = redisCommand(rc, "GET %s", key);
        if (r != NULL && r->type == REDIS_REPLY_NIL)
            res = 0;
        else if (r != NULL && r->type == REDIS_REPLY_STRING)
            res = (size_t)r->len == vlen && memcmp(r->str, val, vlen) == 0;
        if (r != NULL)
            freeReplyObject(r);
    }
    if (rc != NULL)
        redisFree(rc);
    return res;
}

/* Attempts while server 2 (on port) loads: node 0 OK, node 1 refuses,
 * node 2 LOADING, which the errstr and a node event say; none is left. */
static void attempts_while_loading(rlt_servers *s, redlock_lock *l, const struct events *ev,
                                   int port)
{
    int saw_loading = 0;
    int64_t deadline = check_now_ms() + 3000;
    while (!saw_loading && check_now_ms() < deadline) {
        CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ENOQUORUM);
        saw_loading = it_has(it_errstr(l), "LOADING");
        size_t vlen = 0;
        const char *v = redlock_lock_value(l, &vlen);
        CHECK_EQ(it_count_value(s, "hostile-loading", 15, v, vlen) <= 1, 1);
    }
    CHECK_MSG(saw_loading, "errstr: %s", it_errstr(l));
    CHECK_MSG(events_mention(ev, "LOADING"), "no node_cb detail mentions LOADING");
    CHECK_EQ(raw_ping(port), 1);   /* the evidence was gathered while loading */
    size_t vlen = 0;
    const char *v = redlock_lock_value(l, &vlen);
    CHECK_EQ(wait_value_count(s, "hostile-loading", v, vlen, 0, 2000), 0);
}

/* Once loaded, server 2 (on port) is counted again: a lock reaches it and
 * its release deletes it there. */
static void loaded_master_counts_again(redlock_client *c, int port)
{
    int64_t deadline = check_now_ms() + 20000;
    while (raw_ping(port) != 2) {
        CHECK_MSG(check_now_ms() < deadline, "server never finished loading");
        it_sleep_ms(20);
    }
    deadline = check_now_ms() + 5000;
    while (redlock_client_wait_connected(c, 3, 50) != 0)
        CHECK_MSG(check_now_ms() < deadline, "node 2 never reconnected");
    redlock_lock *l2 = IT_LOCK(c, "hostile-loaded");
    CHECK_RC(l2, redlock_try_acquire(l2, 5000), 0);
    size_t vlen = 0;
    const char *v = redlock_lock_value(l2, &vlen);
    deadline = check_now_ms() + 2000;
    while (raw_get_is(port, "hostile-loaded", v, vlen) != 1)
        CHECK_MSG(check_now_ms() < deadline, "the lock never reached node 2");
    CHECK_RC(l2, redlock_release(l2), 0);
    CHECK_EQ(redlock_lock_nodes_ok(l2), 3);
    CHECK_EQ(raw_get_is(port, "hostile-loaded", v, vlen), 0);
    redlock_lock_free(l2);
}

TEST(hostile_loading_master)
{
    const char *extra[] = {"--enable-debug-command", "yes", NULL};
    struct it_fix f = {.extra = extra};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    CMD_OK(f.s, 2, "DEBUG POPULATE 20000 hostile-pop 64");
    CMD_OK(f.s, 2, "SAVE");
    struct events ev = {0};
    redlock_options o;
    events_opts(&o, &ev);
    redlock_client *c = it_client(f.s, &o);
    redlock_lock *l = IT_LOCK(c, "hostile-loading");
    CMD_OK(f.s, 1, "SET hostile-loading someone-else");

    /* restart node 2: 20000 keys at 250 us each, about 5 s of LOADING */
    int port = rlt_servers_port(f.s, 2);
    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);
    pid_t pid = spawn_loading(f.s, 2, "250");
    int64_t deadline = check_now_ms() + 3000;
    while (raw_ping(port) != 1) {
        CHECK_MSG(check_now_ms() < deadline, "server never answered LOADING");
        it_sleep_ms(5);
    }
    attempts_while_loading(f.s, l, &ev, port);
    loaded_master_counts_again(c, port);
    redlock_lock_free(l);
    redlock_client_free(c);
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
    it_fix_stop(&f);
}

/* ---- creation: duplicates, node count --------------------------------------- */

static void expect_dup(const char *a, const char *b)
{
    const char *nodes[] = {"127.0.0.1:1", a, b};
    redlock_client *c = NULL;
    char err[256] = "";
    int rc = redlock_client_new(&c, NULL, nodes, 3, NULL, err, sizeof err);
    CHECK_MSG(rc == REDLOCK_EINVAL, "\"%s\" and \"%s\": rc %d (%s)", a, b, rc, err);
    CHECK(c == NULL);
    CHECK_MSG(it_has(err, "twice"), "\"%s\" and \"%s\": %s", a, b, err);
    CHECK_MSG(!it_has(err, SECRET), "password in \"%s\"", err);
}

TEST(hostile_duplicate_addresses)
{
    expect_dup("127.0.0.1:7001", "redis://127.0.0.1:7001");
    expect_dup("127.0.0.1:7001", "127.0.0.1:7001");
    expect_dup("redis://127.0.0.1:7001/0", "redis://127.0.0.1:7001/3");
    expect_dup("redis://u:" SECRET "@127.0.0.1:7001", "127.0.0.1:7001");
    expect_dup("127.0.0.1:07001", "127.0.0.1:7001");
    expect_dup("127.0.0.1", "127.0.0.1:6379");
    expect_dup("[::1]:7001", "redis://[::1]:7001");
    expect_dup("unix:///tmp/hostile.sock", "unix:///tmp/hostile.sock");
    /* different ports or paths are different masters */
    const char *ok[] = {"127.0.0.1:7001", "127.0.0.1:7002", "unix:///tmp/a.sock",
                        "unix:///tmp/b.sock"};
    redlock_client *c = NULL;
    CHECK_EQ(redlock_client_new(&c, NULL, ok, 4, NULL, NULL, 0), 0);
    CHECK_EQ(redlock_client_nodes(c), 4);
    CHECK_EQ(redlock_client_quorum(c), 3);
    redlock_client_free(c);
}

TEST(hostile_too_many_nodes)
{
    enum { MANY = 1025 };
    static char buf[MANY][32];
    static const char *nodes[MANY];
    for (int i = 0; i < MANY; i++) {
        /* ports nobody listens on (privileged, below 1100 on loopback) */
        snprintf(buf[i], sizeof buf[i], "127.0.0.1:%d", 1 + i);
        nodes[i] = buf[i];
    }
    redlock_client *c = (redlock_client *)(uintptr_t)1;
    char err[256] = "";
    CHECK_EQ(redlock_client_new(&c, NULL, nodes, MANY, NULL, err, sizeof err), REDLOCK_EINVAL);
    CHECK(c == NULL);
    CHECK_NE(err[0], '\0');
    c = (redlock_client *)(uintptr_t)1;
    CHECK_EQ(redlock_client_new(&c, NULL, nodes, (size_t)-1, NULL, err, sizeof err),
             REDLOCK_EINVAL);
    CHECK(c == NULL);
    /* 1024 is the documented maximum: created, then freed without a leak
     * (connections to closed ports fail, or run out of descriptors: both
     * are node failures, not client failures) */
    CHECK_EQ(redlock_client_new(&c, NULL, nodes, MANY - 1, NULL, err, sizeof err), 0);
    CHECK_EQ(redlock_client_nodes(c), MANY - 1);
    CHECK_EQ(redlock_client_quorum(c), (MANY - 1) / 2 + 1);
    redlock_lock *l = IT_LOCK(c, "hostile-many");
    CHECK_RC(l, redlock_try_acquire(l, 1000), REDLOCK_ECONNECT);
    redlock_lock_free(l);
    redlock_client_free(c);
}

/* ---- huge names, binary values, ttl limits -------------------------------- */

TEST(hostile_huge_resource_name)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 3000;   /* 1 MiB per node, under valgrind too */
    o.key_prefix = "pfx:";
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, 0);
    size_t len = (size_t)1 << 20;
    char *name = malloc(len + 4);
    CHECK(name != NULL);
    memcpy(name, "pfx:", 4);
    for (size_t i = 0; i < len; i++)
        name[4 + i] = (char)("\0\r\nab$*"[i % 7]);
    redlock_lock *l = it_lock(f.c, name + 4, len);
    CHECK_RC(l, redlock_try_acquire(l, 10000), 0);
    /* decided at the quorum: the third copy may land a moment later */
    CHECK_GE(redlock_lock_nodes_ok(l), 2);
    CHECK_EQ(it_wait_lock_count(f.s, name, len + 4, l, 3, 5000), 3);
    CHECK_EQ(rlt_servers_exists(f.s, 0, name + 4, len), 0);  /* the prefix is used */
    CHECK_RC(l, redlock_extend(l, 10000), 0);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(redlock_lock_nodes_ok(l), 3);
    CHECK_EQ(rlt_servers_count_key(f.s, name, len + 4), 0);
    redlock_lock_free(l);
    /* past Redis's 512 MiB key limit: refused without allocating it */
    redlock_lock *big = (redlock_lock *)(uintptr_t)1;
    CHECK_EQ(redlock_lock_new(&big, f.c, name, (size_t)512 * 1024 * 1024 + 1), REDLOCK_EINVAL);
    CHECK(big == NULL);
    CHECK_EQ(redlock_lock_new(&big, f.c, name, SIZE_MAX), REDLOCK_EINVAL);
    CHECK(big == NULL);
    free(name);
    it_fix_stop(&f);
}

/* A 1 MiB value works; an empty value is either refused or works
 * consistently. */
static void big_and_empty_values(struct it_fix *f, redlock_lock *other)
{
    size_t big = (size_t)1 << 20;
    char *bv = malloc(big);
    CHECK(bv != NULL);
    for (size_t i = 0; i < big; i++)
        bv[i] = (char)(i * 131);
    CHECK_EQ(redlock_lock_set_value(other, bv, big), 0);
    CHECK_RC(other, redlock_try_acquire(other, 5000), 0);
    CHECK_GE(it_count_value(f->s, "hostile-bin", 11, bv, big), 2);
    CHECK_EQ(it_wait_lock_count(f->s, "hostile-bin", 11, other, 3, 2000), 3);
    CHECK_RC(other, redlock_release(other), 0);
    free(bv);

    int rc = redlock_lock_set_value(other, "", 0);
    CHECK(rc == 0 || rc == REDLOCK_EINVAL);
    if (rc == 0) {
        CHECK_RC(other, redlock_try_acquire(other, 5000), 0);
        CHECK_GE(it_count_value(f->s, "hostile-bin", 11, "", 0), 2);
        CHECK_EQ(it_wait_lock_count(f->s, "hostile-bin", 11, other, 3, 2000), 3);
        CHECK_RC(other, redlock_release(other), 0);
        CHECK_EQ(rlt_servers_count_key(f->s, "hostile-bin", 11), 0);
    }
}

TEST(hostile_binary_values)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "hostile-bin");
    static const char val[] = "\0\r\n$-1\r\n*3\r\n\xff\xfe+OK\r\n-ERR x\r\n";
    size_t vlen = sizeof val - 1;
    CHECK_EQ(redlock_lock_set_value(l, val, vlen), 0);
    size_t got = 0;
    const char *p = redlock_lock_value(l, &got);
    CHECK_EQ(got, vlen);
    CHECK(p != NULL && memcmp(p, val, vlen) == 0);
    CHECK_RC(l, redlock_try_acquire(l, 5000), 0);
    /* decided at the quorum: the third SET may land a moment later */
    CHECK_GE(it_count_value(f.s, "hostile-bin", 11, val, vlen), 2);
    CHECK_EQ(it_wait_lock_count(f.s, "hostile-bin", 11, l, 3, 2000), 3);
    /* a value equal up to the first NUL is not ours */
    redlock_lock *other = it_fix_lock(&f, f.c, "hostile-bin");
    CHECK_EQ(redlock_lock_set_value(other, val, 1), 0);
    CHECK_RC(other, redlock_release(other), REDLOCK_ENOTOWNER);
    CHECK_RC(other, redlock_extend(other, 60000), REDLOCK_ENOTOWNER);
    CHECK_EQ(it_count_value(f.s, "hostile-bin", 11, val, vlen), 3);
    CHECK_RC(l, redlock_extend(l, 60000), 0);
    CHECK_GT(it_pttl(f.s, 0, "hostile-bin", 11), 10000);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "hostile-bin", 11), 0);
    big_and_empty_values(&f, other);
    /* back to random values */
    CHECK_EQ(redlock_lock_set_value(other, NULL, 0), 0);
    CHECK(redlock_lock_value(other, &got) == NULL);
    CHECK_EQ(got, 0);
    CHECK_RC(other, redlock_try_acquire(other, 5000), 0);
    p = redlock_lock_value(other, &got);
    CHECK_EQ(got, 44);      /* (the client's id and 128 random bits, in hex) */
    CHECK_EQ(it_count_value(f.s, "hostile-bin", 11, p, got), 3);
    CHECK_RC(other, redlock_release(other), 0);
    it_fix_stop(&f);
}

TEST(hostile_ttl_limits)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "hostile-ttl");
    const int64_t max = (int64_t)1 << 40;
    const int64_t bad[] = {0, -1, INT64_MIN, INT64_MAX, max + 1, INT64_MAX / 1000 + 1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_RC(l, redlock_try_acquire(l, bad[i]), REDLOCK_EINVAL);
        CHECK(it_has(it_errstr(l), "ttl"));
        CHECK_RC(l, redlock_acquire(l, bad[i]), REDLOCK_EINVAL);
        CHECK_RC(l, redlock_extend(l, bad[i]), REDLOCK_EINVAL);
    }
    CHECK_EQ(rlt_servers_count_key(f.s, "hostile-ttl", 11), 0);

    /* 2^40 ms (about 34 years) is accepted by us and by Redis */
    CHECK_RC(l, redlock_try_acquire(l, max), 0);
    CHECK_GE(redlock_lock_nodes_ok(l), 2);
    CHECK_EQ(it_wait_lock_count(f.s, "hostile-ttl", 11, l, 3, 2000), 3);
    CHECK_GT(redlock_lock_validity(l), max - max / 50);
    CHECK_LE(redlock_lock_validity(l), max);
    for (int i = 0; i < 3; i++) {
        long long pttl = it_pttl(f.s, i, "hostile-ttl", 11);
        CHECK_GT(pttl, max - 60000);
        CHECK_LE(pttl, max);
    }
    CHECK_RC(l, redlock_extend(l, max + 1), REDLOCK_EINVAL);
    CHECK_GT(redlock_lock_validity(l), 0);  /* a refused extend keeps the lock */
    CHECK_RC(l, redlock_extend(l, 5000), 0);
    CHECK_LE(it_pttl(f.s, 0, "hostile-ttl", 11), 5000);
    CHECK_RC(l, redlock_extend(l, max), 0);
    CHECK_GT(it_pttl(f.s, 1, "hostile-ttl", 11), max - 60000);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "hostile-ttl", 11), 0);
    it_fix_stop(&f);
}

/* ---- NULL everywhere -------------------------------------------------------- */

static void null_cb(redlock_lock *l, int status, void *privdata)
{
    (void)l;
    (void)status;
    (void)privdata;
}

/* Every function given NULL for its client or lock refuses (or does
 * nothing), and never crashes. */
static void null_objects(const char *const *nodes)
{
    char err[128];
    redlock_client *c = NULL;

    CHECK_EQ(redlock_client_new(NULL, NULL, nodes, 1, NULL, err, sizeof err), REDLOCK_EINVAL);
    CHECK_EQ(redlock_client_new(&c, NULL, NULL, 1, NULL, NULL, 0), REDLOCK_EINVAL);
    CHECK(c == NULL);
    CHECK_EQ(redlock_client_new(&c, NULL, NULL, 0, NULL, err, 0), REDLOCK_EINVAL);
    redlock_client_free(NULL);
    CHECK_EQ(redlock_client_nodes(NULL), 0);
    CHECK_EQ(redlock_client_quorum(NULL), 0);
    CHECK_EQ(redlock_client_connected(NULL), 0);
    CHECK_EQ(redlock_client_wait_connected(NULL, 0, 0), REDLOCK_EINVAL);
    CHECK_EQ(redlock_client_wait_connected(NULL, 1, 10), REDLOCK_EINVAL);

    redlock_lock *l = (redlock_lock *)(uintptr_t)1;
    CHECK_EQ(redlock_lock_new(&l, NULL, "r", 1), REDLOCK_EINVAL);
    CHECK(l == NULL);
    redlock_lock_free(NULL);
    CHECK_EQ(redlock_lock_set_value(NULL, "v", 1), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_set_value(NULL, NULL, 0), REDLOCK_EINVAL);
    size_t len = 99;
    CHECK(redlock_lock_value(NULL, &len) == NULL);
    CHECK_EQ(len, 0);
    CHECK(redlock_lock_value(NULL, NULL) == NULL);
    CHECK_EQ(redlock_lock_validity(NULL), 0);
    CHECK_EQ(redlock_lock_nodes_ok(NULL), 0);
    CHECK(redlock_lock_errstr(NULL) != NULL);
    CHECK_EQ(redlock_acquire_async(NULL, 1000, null_cb, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_try_acquire_async(NULL, 1000, null_cb, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_extend_async(NULL, 1000, null_cb, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_release_async(NULL, null_cb, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_release_async(NULL, NULL, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_acquire(NULL, 1000), REDLOCK_EINVAL);
    CHECK_EQ(redlock_try_acquire(NULL, 1000), REDLOCK_EINVAL);
    CHECK_EQ(redlock_extend(NULL, 1000), REDLOCK_EINVAL);
    CHECK_EQ(redlock_release(NULL), REDLOCK_EINVAL);
    CHECK(redlock_strerror(-12345) != NULL);
    CHECK(redlock_strerror(12345) != NULL);
    CHECK(redlock_version() != NULL);
}

/* A real client and lock, with NULL in the other arguments. */
static void null_arguments_of_real_objects(const char *const *nodes)
{
    redlock_client *c = NULL;
    CHECK_EQ(redlock_client_new(&c, NULL, nodes, 1, NULL, NULL, 0), 0);
    CHECK_EQ(redlock_lock_new(NULL, c, "r", 1), REDLOCK_EINVAL);
    redlock_lock *l = (redlock_lock *)(uintptr_t)1;
    CHECK_EQ(redlock_lock_new(&l, c, NULL, 1), REDLOCK_EINVAL);
    CHECK(l == NULL);
    CHECK_EQ(redlock_lock_new(&l, c, NULL, 0), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new(&l, c, "r", 1), 0);
    CHECK_EQ(redlock_lock_set_value(l, NULL, 5), REDLOCK_EINVAL);
    CHECK(redlock_lock_value(l, NULL) == NULL);
    CHECK_EQ(redlock_acquire_async(l, 1000, NULL, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_try_acquire_async(l, 1000, NULL, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_extend_async(l, 1000, NULL, NULL), REDLOCK_EINVAL);
    CHECK_NE(it_errstr(l)[0], '\0');
    /* release without a value: refused before anything is sent */
    CHECK_EQ(redlock_release_async(l, NULL, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_release(l), REDLOCK_EINVAL);
    /* a NULL callback for release is allowed: fire and forget */
    CHECK_EQ(redlock_lock_set_value(l, "v", 1), 0);
    CHECK_EQ(redlock_release_async(l, NULL, NULL), 0);
    CHECK_EQ(redlock_release_async(l, NULL, NULL), REDLOCK_EBUSY);
    redlock_lock_free(l);        /* pending, NULL callback: nothing to call */
    redlock_client_free(c);
}

TEST(hostile_null_arguments)
{
    const char *nodes[] = {"127.0.0.1:1"};
    null_objects(nodes);
    null_arguments_of_real_objects(nodes);
}

/* redlock_options_init(NULL) used to dereference its argument (found by this
 * test; fixed in 27b6971): like every other public function, it accepts NULL. */
TEST(hostile_null_options_init)
{
    redlock_options_init(NULL);
    redlock_options o;
    redlock_options_init(&o);
    CHECK_EQ(o.node_timeout_ms, 200);
}

/* Credentials written without the redis:// scheme ("user:pw@host:port",
 * "pw@host:port") are not a valid address (a host name has no '@'), and the
 * message must not quote the password either. */
TEST(hostile_password_in_schemeless_address)
{
    const char *bad[] = {
        "lockuser:" SECRET "@127.0.0.1:6379",
        "lockuser:" SECRET "@127.0.0.1",
        SECRET "@127.0.0.1:6379",
        ":" SECRET "@127.0.0.1:6379",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *one[] = {bad[i]};
        redlock_client *c = NULL;
        char err[256] = "";
        int rc = redlock_client_new(&c, NULL, one, 1, NULL, err, sizeof err);
        if (rc == 0)
            redlock_client_free(c);
        CHECK_MSG(rc == REDLOCK_EINVAL, "address %zu accepted (a host with '@')", i);
        CHECK_MSG(!it_has(err, SECRET), "password in the message: %s", err);
    }
}
