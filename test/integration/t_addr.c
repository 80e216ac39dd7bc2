/* t_addr.c -- integration: address forms (redis:// with password and db,
 * unix sockets) against real servers. */
#include "itest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <hiredis/hiredis.h>

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
    while (!found && check_now_ms() < deadline) {
        redisReply *r = rlt_servers_command(f.s, 2, "INFO keyspace");
        CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
        found = strstr(r->str, "db3:keys=1,") != NULL;
        freeReplyObject(r);
    }
    CHECK(found);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 3);
    redisReply *r = rlt_servers_command(f.s, 2, "INFO keyspace");
    CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
    CHECK(strstr(r->str, "db3:") == NULL);
    freeReplyObject(r);
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

    const char *goods[] = {good1, good2};
    for (int g = 0; g < 2; g++) {
        struct auth_events ev = {0, 0, 0, 0};
        redlock_options o;
        it_opts(&o);
        o.node_cb = auth_node_cb;
        o.node_privdata = &ev;
        redlock_client *c = it_client_addrs(&goods[g], 1, &o, 1);
        CHECK_EQ(ev.up, 1);
        redlock_lock *lock = IT_LOCK(c, "authed");
        CHECK_RC(lock, redlock_try_acquire(lock, 10000), REDLOCK_OK);
        CHECK_EQ(it_count_lock(f.s, "authed", 6, lock), 1);
        CHECK_RC(lock, redlock_extend(lock, 10000), REDLOCK_OK);
        CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
        CHECK_EQ(rlt_servers_count_key(f.s, "authed", 6), 0);
        redlock_lock_free(lock);
        redlock_client_free(c);
        CHECK_EQ(ev.leaked, 0);
        CHECK_EQ(ev.empty_detail, 0);
    }

    /* Wrong or missing password: the node never counts as connected, the
     * reason is reported, and the password is not in it. */
    const char *bads[] = {bad, none};
    for (int b = 0; b < 2; b++) {
        struct auth_events ev = {0, 0, 0, 0};
        redlock_options o;
        it_opts(&o);
        o.node_cb = auth_node_cb;
        o.node_privdata = &ev;
        redlock_client *c = it_client_addrs(&bads[b], 1, &o, 0);
        CHECK_RC(NULL, redlock_client_wait_connected(c, 1, 300), REDLOCK_ETIMEDOUT);
        CHECK_EQ(redlock_client_connected(c), 0);
        CHECK_EQ(ev.up, 0);
        CHECK_GE(ev.down, 1);
        CHECK_EQ(ev.leaked, 0);
        CHECK_EQ(ev.empty_detail, 0);
        redlock_lock *lock = IT_LOCK(c, "authed");
        int rc = redlock_try_acquire(lock, 10000);
        CHECK_MSG(rc == REDLOCK_ECONNECT || rc == REDLOCK_ESERVER, "rc %d %s", rc, it_errstr(lock));
        CHECK(strstr(it_errstr(lock), "wr0ng") == NULL);
        CHECK_EQ(rlt_servers_count_key(f.s, "authed", 6), 0);
        redlock_lock_free(lock);
        redlock_client_free(c);
    }
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
