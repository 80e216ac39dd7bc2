/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* TLS (rediss://), AUTH / ACL users, secrets kept out of messages, and the
 * per-node diagnostics, against real redis-servers.  The PKI is made at run
 * time by test/support/tls-certs.sh (nothing secret is committed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <hiredis/hiredis.h>
#include "itest.h"

static int free_port(void)
{
    struct sockaddr_in a;
    socklen_t len = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0), port;

    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    CHECK(fd >= 0);
    CHECK_EQ(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    CHECK_EQ(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    port = ntohs(a.sin_port);
    close(fd);
    return port;
}

/* A throw-away PKI below $TMPDIR; returns its directory. */
static const char *pki(void)
{
    static char dir[512];
    char cmd[1400];
    char done[600];
    /* one PKI per test run: run.sh gives every run its own TMPDIR */
    snprintf(dir, sizeof dir, "%s/pki-%d", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp",
             (int)getppid());
    snprintf(done, sizeof done, "%s/done", dir);
    if (access(done, F_OK) == 0)
        return dir;
    snprintf(cmd, sizeof cmd, "sh test/support/tls-certs.sh '%s' && touch '%s'", dir, done);
    CHECK_MSG(system(cmd) == 0, "cannot make certificates with openssl: %s", cmd);
    return dir;
}

struct tls_master {
    rlt_servers *s;
    int port;
    char addr[64];
};

/* One TLS master (its plain port stays open for the test to inspect it),
 * with the certificate `name`.crt/.key of the test PKI. */
static void tls_master_cert(struct tls_master *m, const char *dir, int client_certs,
                            const char *name)
{
    char port[16], crt[600], key[600], ca[600];
    snprintf(port, sizeof port, "%d", m->port = free_port());
    snprintf(crt, sizeof crt, "%s/%s.crt", dir, name);
    snprintf(key, sizeof key, "%s/%s.key", dir, name);
    snprintf(ca, sizeof ca, "%s/ca.crt", dir);
    const char *extra[] = { "--tls-port", port, "--tls-cert-file", crt, "--tls-key-file", key,
                            "--tls-ca-cert-file", ca, "--tls-auth-clients",
                            client_certs ? "yes" : "no", NULL };
    m->s = it_start(1, extra);
    snprintf(m->addr, sizeof m->addr, "rediss://127.0.0.1:%d", m->port);
}

static void tls_master(struct tls_master *m, const char *dir, int client_certs)
{
    tls_master_cert(m, dir, client_certs, "server");
}

static void tls_opts(redlock_options *o, const char *dir, const char *ca_name)
{
    static char ca[600];
    it_opts(o);
    snprintf(ca, sizeof ca, "%s/%s", dir, ca_name);
    o->tls_ca_file = ca;
    /* A TLS handshake under valgrind takes far longer than the 100 ms the
     * other tests allow; nothing here waits for a timeout to pass. */
    o->connect_timeout_ms = 5000;
    o->node_timeout_ms = 3000;
}

/* A client on the one master at addr: its lock on res gets `want` from a
 * try_acquire, and releases when asked to. */
static void try_on_one(const char *addr, const redlock_options *o, const char *res, int want,
                       int release)
{
    const char *addrs[1] = { addr };
    redlock_client *c = it_client_new(NULL, addrs, 1, o);
    redlock_lock *l = IT_LOCK(c, res);
    CHECK_RC(l, redlock_try_acquire(l, 5000), want);
    if (release)
        CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    redlock_lock_free(l);
    redlock_client_free(c);
}

/* The test PKI, one TLS master with the certificate `cert` (asking for
 * clients' certificates when client_certs) and options that trust the CA
 * `ca`; the PKI's directory. */
static const char *tls_one(struct tls_master *m, redlock_options *o, const char *cert,
                           int client_certs, const char *ca)
{
    const char *dir = pki();
    tls_master_cert(m, dir, client_certs, cert);
    tls_opts(o, dir, ca);
    return dir;
}

TEST(tls_lock_extend_unlock)
{
    const char *dir = pki();
    struct tls_master m[3];
    const char *addrs[3];
    redlock_options o;
    redlock_node_stats st;

    for (int i = 0; i < 3; i++) {
        tls_master(&m[i], dir, 0);
        addrs[i] = m[i].addr;
    }
    tls_opts(&o, dir, "ca.crt");
    redlock_client *c = it_client_new(NULL, addrs, 3, &o);
    CHECK_EQ(redlock_client_wait_connected(c, 3, 5000), 0);
    redlock_lock *l = IT_LOCK(c, "tls-res");
    CHECK_RC(l, redlock_acquire(l, 10000), REDLOCK_OK);
    CHECK_GT(redlock_lock_validity(l), 0);
    /* the key really is on the masters (read over their plain ports) */
    int on = 0;
    for (int i = 0; i < 3; i++)
        on += it_wait_lock_count(m[i].s, "tls-res", 7, l, 1, 2000);
    CHECK_EQ(on, 3);
    CHECK_RC(l, redlock_extend(l, 20000), REDLOCK_OK);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(l), 3);
    for (int i = 0; i < 3; i++) {
        CHECK_EQ(rlt_servers_count_key(m[i].s, "tls-res", 7), 0);
        CHECK_EQ(redlock_client_node_stats(c, (size_t)i, &st), 0);
        CHECK_EQ(st.tls, 1);
        CHECK_EQ(st.connected, 1);
        CHECK_GE(st.requests, 3);
        CHECK_GE(st.last_rtt_us, 0);
    }
    redlock_lock_free(l);
    redlock_client_free(c);
    for (int i = 0; i < 3; i++)
        rlt_servers_free(m[i].s);
}

/* A node that fails TLS: the acquire fails, and the node says why. */
static void expect_tls_failure(const char *addr, const redlock_options *o, const char *why)
{
    const char *addrs[1] = { addr };
    redlock_client *c = it_client_new(NULL, addrs, 1, o);
    redlock_lock *l = IT_LOCK(c, "tls-bad");
    redlock_node_result r;
    redlock_node_stats st;

    CHECK_EQ(redlock_client_wait_connected(c, 1, 300), REDLOCK_ETIMEDOUT);
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_ECONNECT);
    CHECK_EQ(redlock_lock_node_result(l, 0, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_DOWN);
    CHECK_MSG(strstr(r.detail, why) != NULL, "detail \"%s\" lacks \"%s\"", r.detail, why);
    CHECK_MSG(strstr(redlock_lock_errstr(l), why) != NULL, "errstr \"%s\"", redlock_lock_errstr(l));
    CHECK_EQ(redlock_client_node_stats(c, 0, &st), 0);
    CHECK_EQ(st.connected, 0);
    CHECK_EQ(st.connects, 0);
    redlock_lock_free(l);
    redlock_client_free(c);
}

TEST(tls_wrong_ca_is_refused)
{
    struct tls_master m;
    redlock_options o;
    const char *dir = tls_one(&m, &o, "server", 0, "other-ca.crt");
    expect_tls_failure(m.addr, &o, "certificate verify failed");
    /* the explicit insecure switch accepts it (and is off by default) */
    redlock_options_init(&o);
    CHECK_EQ(o.tls_insecure_skip_verify, 0);
    tls_opts(&o, dir, "other-ca.crt");
    o.tls_insecure_skip_verify = 1;
    try_on_one(m.addr, &o, "tls-insecure", REDLOCK_OK, 0);
    rlt_servers_free(m.s);
}

TEST(tls_wrong_host_name_is_refused)
{
    struct tls_master m;
    redlock_options o;
    const char *dir = tls_one(&m, &o, "server", 0, "ca.crt");
    o.tls_server_name = "db.example";      /* the certificate names 127.0.0.1/localhost */
    expect_tls_failure(m.addr, &o, "hostname mismatch");
    /* by DNS name that the certificate does carry: accepted */
    char byname[64];
    snprintf(byname, sizeof byname, "rediss://localhost:%d", m.port);
    tls_opts(&o, dir, "ca.crt");
    try_on_one(byname, &o, "tls-name", REDLOCK_OK, 0);
    rlt_servers_free(m.s);
}

TEST(tls_expired_certificate_is_refused)
{
    struct tls_master m;
    redlock_options o;
    tls_one(&m, &o, "expired", 0, "ca.crt");
    expect_tls_failure(m.addr, &o, "certificate has expired");
    rlt_servers_free(m.s);
}

TEST(tls_client_certificate_required_and_supplied)
{
    struct tls_master m;
    redlock_options o;
    char crt[600], key[600];
    const char *dir = tls_one(&m, &o, "server", 1, "ca.crt");
    /* without a client certificate the server ends the handshake */
    try_on_one(m.addr, &o, "mtls", REDLOCK_ECONNECT, 0);
    snprintf(crt, sizeof crt, "%s/client.crt", dir);
    snprintf(key, sizeof key, "%s/client.key", dir);
    o.tls_cert_file = crt;
    o.tls_key_file = key;
    try_on_one(m.addr, &o, "mtls", REDLOCK_OK, 1);
    const char *addrs[1] = { m.addr };
    /* a key without its certificate, or an unreadable CA, is refused early */
    char err[256];
    redlock_client *bad = NULL;
    o.tls_cert_file = NULL;
    CHECK_EQ(redlock_client_new(&bad, NULL, addrs, 1, &o, err, sizeof err), REDLOCK_EINVAL);
    CHECK(bad == NULL && strstr(err, "TLS") != NULL);
    tls_opts(&o, dir, "no-such-ca.crt");
    CHECK_EQ(redlock_client_new(&bad, NULL, addrs, 1, &o, err, sizeof err), REDLOCK_EINVAL);
    CHECK(strstr(err, "CA") != NULL);
    rlt_servers_free(m.s);
}

TEST(tls_killed_master_reconnects_and_mixed_deployment)
{
    const char *dir = pki();
    struct tls_master m[2];
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, IT_NOCLIENT);
    const char *addrs[3];
    redlock_options o;
    for (int i = 0; i < 2; i++) {
        tls_master(&m[i], dir, 0);
        addrs[i] = m[i].addr;
    }
    addrs[2] = rlt_servers_addr(f.s, 0);      /* one plain-TCP master */
    tls_opts(&o, dir, "ca.crt");
    f.c = it_client_new(NULL, addrs, 3, &o);
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 5000), 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "tls-restart");

    CHECK_EQ(rlt_servers_kill(m[0].s, 0), 0);
    CHECK_EQ(rlt_servers_kill(m[1].s, 0), 0);
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ECONNECT);
    CHECK_EQ(rlt_servers_restart(m[0].s, 0), 0);
    CHECK_EQ(rlt_servers_restart(m[1].s, 0), 0);
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 5000), 0);
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(m[0].s, "tls-restart", 11, l, 1, 2000), 1);
    CHECK_EQ(it_wait_lock_count(m[1].s, "tls-restart", 11, l, 1, 2000), 1);
    redlock_node_stats st;
    CHECK_EQ(redlock_client_node_stats(f.c, 0, &st), 0);
    CHECK_EQ(st.connects, 2);
    CHECK_GE(st.unreachable, 1);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    it_fix_stop(&f);
    rlt_servers_free(m[0].s);
    rlt_servers_free(m[1].s);
}

/* ---- AUTH and ACL ------------------------------------------------------ */

struct collected {
    char text[4096];
};

static void collect_cb(redlock_client *c, size_t node, int event, const char *detail, void *pd)
{
    struct collected *col = pd;
    size_t len = strlen(col->text);
    (void)c;
    snprintf(col->text + len, sizeof col->text - len, "%zu %d %s\n", node, event, detail);
}

TEST(auth_password_and_wrong_password)
{
    const char *extra[] = { "--requirepass", "s3cret-pw", NULL };
    rlt_servers *s = it_start(1, extra);
    char good[128], bad[128];
    redlock_options o;
    struct collected col = { "" };
    snprintf(good, sizeof good, "redis://:s3cret-pw@127.0.0.1:%d", rlt_servers_port(s, 0));
    snprintf(bad, sizeof bad, "redis://:hunter2-wrong@127.0.0.1:%d", rlt_servers_port(s, 0));

    it_opts(&o);
    try_on_one(good, &o, "auth-res", REDLOCK_OK, 1);

    o.node_cb = collect_cb;
    o.node_privdata = &col;
    const char *ba[1] = { bad };
    redlock_client *c = it_client_new(NULL, ba, 1, &o);
    redlock_lock *l = IT_LOCK(c, "auth-res");
    int64_t t0 = check_now_ms();
    CHECK_RC(l, redlock_try_acquire(l, 5000), REDLOCK_ECONNECT);
    CHECK_LT(check_now_ms() - t0, 1000);        /* a clear error, not a hang */
    redlock_node_result r;
    redlock_node_stats st;
    CHECK_EQ(redlock_lock_node_result(l, 0, &r), 0);
    CHECK_MSG(strstr(r.detail, "WRONGPASS") || strstr(r.detail, "invalid"), "detail %s", r.detail);
    CHECK_EQ(redlock_client_node_stats(c, 0, &st), 0);
    /* the password is nowhere in what the library says */
    CHECK(strstr(redlock_lock_errstr(l), "hunter2") == NULL);
    CHECK(strstr(r.detail, "hunter2") == NULL);
    CHECK(strstr(st.last_error, "hunter2") == NULL);
    CHECK(strstr(st.address, "hunter2") == NULL);
    CHECK_MSG(strstr(col.text, "WRONGPASS") || strstr(col.text, "invalid"), "events: %s", col.text);
    CHECK(strstr(col.text, "hunter2") == NULL);
    redlock_lock_free(l);
    redlock_client_free(c);
    rlt_servers_free(s);
}

/* The user "locker" with the smallest ACL the library needs on s's three
 * servers; addrs[i] (in buf[i]) its URL of server i. */
static void minimal_acl(rlt_servers *s, const char **addrs, char (*buf)[128])
{
    it_cmd_on(s, 0, 3, REDIS_REPLY_STATUS,
              "ACL SETUSER locker on >lockpw resetkeys ~lock:* ~{lock:* resetchannels -@all "
              "+set +get +del +pexpire +evalsha +eval +ping +select +script|load "
              "+client|info +client|kill");
    for (int i = 0; i < 3; i++) {
        snprintf(buf[i], 128, "redis://locker:lockpw@127.0.0.1:%d/0", rlt_servers_port(s, i));
        addrs[i] = buf[i];
    }
}

/* A full cycle of a lock on res with the key prefix `prefix`. */
static void acl_cycle(rlt_servers *s, const char *const *addrs, const char *prefix,
                      const char *res, int extend)
{
    char key[64];
    redlock_options o;
    it_opts(&o);
    o.key_prefix = prefix;
    redlock_client *c = it_client_new(NULL, addrs, 3, &o);
    redlock_lock *l = IT_LOCK(c, res);
    CHECK_RC(l, redlock_acquire(l, 10000), REDLOCK_OK);
    if (extend)
        CHECK_RC(l, redlock_extend(l, 10000), REDLOCK_OK);
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    CHECK_GE(redlock_lock_nodes_ok(l), 2);
    /* every master let the user release (the last may answer after the
     * quorum decided) */
    snprintf(key, sizeof key, "%s%s", prefix, res);
    CHECK_EQ(it_wait_count(s, key, strlen(key), 0, 5000), 0);
    redlock_lock_free(l);
    redlock_client_free(c);
}

/* The smallest ACL the library needs (see docs/security.md). */
TEST(auth_minimal_acl_user)
{
    rlt_servers *s = it_start(3, NULL);
    const char *addrs[3];
    char buf[3][128];
    minimal_acl(s, addrs, buf);
    acl_cycle(s, addrs, "lock:", "acl-res", 1);
    /* the handshake's CLIENT INFO (for killing a lost connection before an
     * undo) was allowed: the server counted it, with no rejected call */
    for (int i = 0; i < 3; i++) {
        CHECK_GE(it_calls(s, i, "client|info"), 1);
        CHECK_EQ(it_rejected(s, i, "client|info"), 0);
    }

    /* outside the user's key pattern: every node refuses with NOPERM */
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "other:";
    redlock_client *c = it_client_new(NULL, addrs, 3, &o);
    redlock_lock *l = IT_LOCK(c, "acl-res");
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_ESERVER);
    CHECK_MSG(strstr(redlock_lock_errstr(l), "NOPERM") != NULL, "%s", redlock_lock_errstr(l));
    redlock_lock_free(l);
    redlock_client_free(c);

    /* without SCRIPT LOAD the library falls back to EVAL on NOSCRIPT */
    it_cmd_on(s, 0, 3, REDIS_REPLY_STATUS, "ACL SETUSER locker -script|load");
    it_cmd_on(s, 0, 3, 0, "SCRIPT FLUSH");
    acl_cycle(s, addrs, "lock:", "acl-res2", 0);
    rlt_servers_free(s);
}

/* ---- diagnostics -------------------------------------------------------- */

TEST(diagnostics_per_node_results_tell_why)
{
    struct it_fix f = {0};
    redlock_lock *la, *lb;
    redlock_client *b = it_fix_two(&f, 5, 0, NULL, "diag", &la, &lb);
    redlock_node_result r;

    CHECK_RC(la, redlock_try_acquire(la, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, "diag", 4, la, 5, 2000), 5);
    CHECK_EQ(rlt_servers_kill(f.s, 4), 0);
    /* b: held elsewhere on 0..3, node 4 down */
    CHECK_RC(lb, redlock_try_acquire(lb, 10000), REDLOCK_ENOQUORUM);
    int refused = 0, down = 0;
    for (size_t i = 0; i < 5; i++) {
        CHECK_EQ(redlock_lock_node_result(lb, i, &r), 0);
        refused += r.vote == REDLOCK_VOTE_REFUSED;
        down += r.vote == REDLOCK_VOTE_DOWN;
        if (r.vote == REDLOCK_VOTE_REFUSED)
            CHECK_GE(r.rtt_us, 0);
        if (r.vote == REDLOCK_VOTE_DOWN)
            CHECK(r.detail[0] != '\0');
    }
    /* decided as soon as a quorum is out of reach: 3 "no" votes */
    CHECK_GE(refused + down, 3);
    CHECK_GE(refused, 2);
    CHECK_LE(down, 1);
    CHECK_EQ(redlock_lock_node_result(lb, 5, &r), REDLOCK_EINVAL);
    CHECK_STREQ(redlock_vote_name(REDLOCK_VOTE_REFUSED), "refused");

    /* masters unreachable is told apart from held elsewhere */
    CHECK_RC(la, redlock_release(la), REDLOCK_OK);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(rlt_servers_kill(f.s, i), 0);
    CHECK_RC(lb, redlock_try_acquire(lb, 10000), REDLOCK_ECONNECT);
    CHECK(strstr(redlock_lock_errstr(lb), "unreachable") != NULL);

    redlock_node_stats st;
    CHECK_EQ(redlock_client_node_stats(b, 3, &st), 0);
    CHECK_GE(st.refused, 1);
    CHECK_EQ(st.connected, 1);
    CHECK_EQ(redlock_client_node_stats(b, 0, &st), 0);
    CHECK_EQ(st.connected, 0);
    CHECK(st.last_error[0] != '\0');
    CHECK_EQ(redlock_client_node_stats(b, 9, &st), REDLOCK_EINVAL);
    it_fix_stop(&f);
}
