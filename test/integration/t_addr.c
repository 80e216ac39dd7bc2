/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_addr.c -- address forms (redis:// with password and db, unix sockets)
 * against real servers; percent-decoded credentials used (their parsing:
 * unit/t_unit.c). */
#include "itest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

#include "floor/floor.h"

/* Server i's INFO keyspace has `what`? */
static int keyspace_has(rlt_servers *s, int i, const char *what)
{
    redisReply *r = rlt_servers_command(s, i, "INFO keyspace");
    CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
    int has = strstr(r->str, what) != NULL;
    freeReplyObject(r);
    return has;
}

TEST(addr_redis_url_forms_and_db)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    char a0[64], a1[64], a2[64];
    snprintf(a0, sizeof a0, "127.0.0.1:%d", rlt_servers_port(f.s, 0));
    snprintf(a1, sizeof a1, "redis://127.0.0.1:%d", rlt_servers_port(f.s, 1));
    snprintf(a2, sizeof a2, "redis://127.0.0.1:%d/3", rlt_servers_port(f.s, 2));
    const char *addrs[] = {a0, a1, a2};
    f.c = it_client_addrs(addrs, 3, NULL, 3);
    redlock_lock *lock = it_fix_lock(&f, f.c, "url");
    CHECK_RC(lock, redlock_acquire(lock, 10000), REDLOCK_OK);
    /* servers 0 and 1 hold it in db 0; server 2 in db 3 only */
    CHECK_EQ(it_wait_lock_count(f.s, "url", 3, lock, 2, 2000), 2);
    CHECK_EQ(rlt_servers_exists(f.s, 2, "url", 3), 0);
    int64_t deadline = check_now_ms() + 2000;
    int found = 0;
    while (!found && check_now_ms() < deadline)
        found = keyspace_has(f.s, 2, "db3:keys=1,");
    CHECK(found);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 3);
    CHECK(!keyspace_has(f.s, 2, "db3:"));
    it_fix_stop(&f);
}

struct auth_events {
    int up, down;
    int leaked;       /* a detail mentioned the password */
    int empty_detail;
};

static void auth_node_cb(redlock_client *c, size_t node, int event, const char *detail,
                         void *privdata)
{
    (void)c;
    (void)node;
    struct auth_events *ev = privdata;
    if (detail == NULL || detail[0] == '\0')
        ev->empty_detail++;
    else if (strstr(detail, "s3cret") != NULL || strstr(detail, "wr0ng") != NULL)
        ev->leaked++;
    if (event == REDLOCK_NODE_UP)
        ev->up++;
    else if (event == REDLOCK_NODE_DOWN)
        ev->down++;
}

/* A client on the one address addr with auth_node_cb recording into ev,
 * waiting for `wait` nodes. */
static redlock_client *auth_client(const char *addr, struct auth_events *ev, size_t wait)
{
    redlock_options o;
    it_opts(&o);
    o.node_cb = auth_node_cb;
    o.node_privdata = ev;
    memset(ev, 0, sizeof *ev);
    return it_client_addrs(&addr, 1, &o, wait);
}

/* The right password (in URL form `good`): connected, and a full cycle. */
static void check_good_password(struct it_fix *f, const char *good)
{
    struct auth_events ev;
    redlock_client *c = auth_client(good, &ev, 1);
    CHECK_EQ(ev.up, 1);
    redlock_lock *lock = IT_LOCK(c, "authed");
    CHECK_RC(lock, redlock_try_acquire(lock, 10000), REDLOCK_OK);
    CHECK_EQ(it_count_lock(f->s, "authed", 6, lock), 1);
    CHECK_RC(lock, redlock_extend(lock, 10000), REDLOCK_OK);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f->s, "authed", 6), 0);
    redlock_lock_free(lock);
    redlock_client_free(c);
    CHECK_EQ(ev.leaked, 0);
    CHECK_EQ(ev.empty_detail, 0);
}

/* Wrong or missing password: the node never counts as connected, the
 * reason is reported, and the password is not in it. */
static void check_bad_password(struct it_fix *f, const char *bad)
{
    struct auth_events ev;
    redlock_client *c = auth_client(bad, &ev, 0);
    /* refused by the server: no use waiting out the 30 s */
    CHECK_RC(NULL, redlock_client_wait_connected(c, 1, 30000), REDLOCK_ECONNECT);
    CHECK_MSG(strstr(redlock_client_errstr(c), "handshake failed") != NULL &&
              strstr(redlock_client_errstr(c), "0 of 1 masters connected") != NULL,
              "errstr: %s", redlock_client_errstr(c));
    CHECK(strstr(redlock_client_errstr(c), "wr0ng") == NULL);
    CHECK_EQ(redlock_client_connected(c), 0);
    CHECK_EQ(ev.up, 0);
    CHECK_GE(ev.down, 1);
    CHECK_EQ(ev.leaked, 0);
    CHECK_EQ(ev.empty_detail, 0);
    redlock_lock *lock = IT_LOCK(c, "authed");
    int rc = redlock_try_acquire(lock, 10000);
    CHECK_MSG(rc == REDLOCK_ECONNECT || rc == REDLOCK_ESERVER, "rc %d %s", rc, it_errstr(lock));
    CHECK(strstr(it_errstr(lock), "wr0ng") == NULL);
    CHECK_EQ(rlt_servers_count_key(f->s, "authed", 6), 0);
    redlock_lock_free(lock);
    redlock_client_free(c);
}

TEST(addr_password)
{
    static const char *const extra[] = {"--requirepass", "s3cret", NULL};
    struct it_fix f = {.extra = extra};
    it_fix_start(&f, 1, NULL, IT_NOCLIENT);
    int port = rlt_servers_port(f.s, 0);
    char good1[96], good2[96], bad[96], none[96];
    snprintf(good1, sizeof good1, "redis://:s3cret@127.0.0.1:%d", port);
    snprintf(good2, sizeof good2, "redis://default:s3cret@127.0.0.1:%d/0", port);
    snprintf(bad, sizeof bad, "redis://:wr0ng@127.0.0.1:%d", port);
    snprintf(none, sizeof none, "127.0.0.1:%d", port);
    check_good_password(&f, good1);
    check_good_password(&f, good2);
    check_bad_password(&f, bad);
    check_bad_password(&f, none);
    it_fix_stop(&f);
}

TEST(addr_unix_socket)
{
    const char *tmp = getenv("TMPDIR");
    char dir[512];
    snprintf(dir, sizeof dir, "%s/rlt-sock-XXXXXX", tmp != NULL && *tmp ? tmp : "/tmp");
    CHECK(mkdtemp(dir) != NULL);
    char path[600];
    snprintf(path, sizeof path, "%s/r.sock", dir);
    const char *extra[] = {"--unixsocket", path, "--unixsocketperm", "700", NULL};
    struct it_fix f = {.extra = extra};
    it_fix_start(&f, 1, NULL, IT_NOCLIENT);
    char addr[640];
    snprintf(addr, sizeof addr, "unix://%s", path);
    const char *addrs[] = {addr};
    f.c = it_client_addrs(addrs, 1, NULL, 1);
    redlock_lock *lock = it_fix_lock(&f, f.c, "over-unix");
    CHECK_RC(lock, redlock_acquire(lock, 10000), REDLOCK_OK);
    CHECK_EQ(it_count_lock(f.s, "over-unix", 9, lock), 1); /* seen over TCP */
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, "over-unix", 9), 0);
    it_fix_stop(&f);
    unlink(path);
    CHECK_EQ(rmdir(dir), 0);
}

/* The decoded credentials are what the server sees: a password and an ACL
 * user name holding '/', '@', ':', '%' and a space. */
TEST(addr_percent_encoded_credentials_authenticate)
{
    static const char *const extra[] = {"--requirepass", "p/w@:% x", NULL};
    rlt_servers *s = it_start(1, extra);
    int port = rlt_servers_port(s, 0);
    redisReply *r = rlt_servers_command(s, 0, "ACL SETUSER %s on >%s ~* +@all", "lock:er/1",
                                        "s3/cr@t");
    CHECK(r != NULL && r->type == REDIS_REPLY_STATUS);
    freeReplyObject(r);

    char pw[96], user[128], wrong[96];
    snprintf(pw, sizeof pw, "redis://:p%%2Fw%%40:%%25%%20x@127.0.0.1:%d", port);
    snprintf(user, sizeof user, "redis://lock%%3Aer%%2F1:s3%%2fcr@t@127.0.0.1:%d", port);
    snprintf(wrong, sizeof wrong, "redis://:p%%2Fw%%40:%%25x@127.0.0.1:%d", port);

    const char *goods[] = {pw, user};
    for (int g = 0; g < 2; g++) {
        redlock_client *c = it_client_addrs(&goods[g], 1, NULL, 1);
        redlock_lock *lock = IT_LOCK(c, "pct");
        CHECK_RC(lock, redlock_try_acquire(lock, 10000), REDLOCK_OK);
        CHECK_EQ(it_count_lock(s, "pct", 3, lock), 1);
        CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
        redlock_lock_free(lock);
        redlock_client_free(c);
    }

    /* one byte off: refused by the server */
    const char *bads[] = {wrong};
    redlock_client *c = it_client_addrs(bads, 1, NULL, 0);
    CHECK_RC(NULL, redlock_client_wait_connected(c, 1, 30000), REDLOCK_ECONNECT);
    CHECK_MSG(strstr(redlock_client_errstr(c), "handshake failed") != NULL, "errstr: %s",
              redlock_client_errstr(c));
    CHECK_EQ(redlock_client_connected(c), 0);
    redlock_client_free(c);

    /* a bad escape is refused by redlock_client_new, naming the field */
    const char *esc[] = {"redis://:p%2Fw%4@127.0.0.1:1"};
    char err[256] = "";
    CHECK_EQ(redlock_client_new(&c, NULL, esc, 1, NULL, err, sizeof err), REDLOCK_EINVAL);
    CHECK_MSG(strstr(err, "percent-escape in the password") != NULL, "%s", err);
    rlt_servers_free(s);
}
