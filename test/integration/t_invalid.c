/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_invalid.c -- integration: bad arguments give the right codes and a
 * message, and never touch the masters; error strings; version. */
#include "itest.h"

#include <stdio.h>

#include <event2/event.h>

static void expect_new_fails(const char *const *nodes, size_t n, const redlock_options *o,
                             struct event_base *base, const char *what)
{
    redlock_client *c = (redlock_client *)(uintptr_t)1; /* must be reset to NULL */
    char err[256];
    memset(err, 0, sizeof err);
    int rc = redlock_client_new(&c, base, nodes, n, o, err, sizeof err);
    CHECK_MSG(rc == REDLOCK_EINVAL, "%s: rc %d (%s)", what, rc, err);
    CHECK_MSG(c == NULL, "%s: *out not NULL", what);
    CHECK_MSG(err[0] != '\0', "%s: empty errbuf", what);
    /* errbuf NULL is allowed, and a tiny one is never overrun */
    c = NULL;
    CHECK_EQ(redlock_client_new(&c, base, nodes, n, o, NULL, 0), REDLOCK_EINVAL);
    CHECK(c == NULL);
    char tiny[4] = {'x', 'x', 'x', 'x'};
    CHECK_EQ(redlock_client_new(&c, base, nodes, n, o, tiny, 3), REDLOCK_EINVAL);
    CHECK_EQ(tiny[3], 'x');
    CHECK(memchr(tiny, '\0', 3) != NULL);
}

TEST(invalid_client_arguments)
{
    static const char *const good[] = {"127.0.0.1:6379"};
    redlock_options o;
    it_opts(&o);

    char err[256] = "";
    CHECK_EQ(redlock_client_new(NULL, NULL, good, 1, &o, err, sizeof err), REDLOCK_EINVAL);
    CHECK_NE(err[0], '\0');
    expect_new_fails(NULL, 1, &o, NULL, "nodes NULL");
    expect_new_fails(good, 0, &o, NULL, "nnodes 0");
    static const char *const with_null[] = {"127.0.0.1:6379", NULL};
    expect_new_fails(with_null, 2, &o, NULL, "a NULL address");

    static const char *const bad[] = {
        "",                 /* empty */
        "host:",            /* no port after the colon */
        "host:99999",       /* port out of range */
        "host:0",           /* port 0 */
        "host:12ab",        /* not a number */
        "host:-1",
        "[::1",             /* unclosed bracket */
        "[::1]x",
        "redis://",         /* no host */
        "redis://:pw@",     /* no host either */
        "redis://h:70000",  /* port out of range */
        "redis://h:1/x",    /* db not a number */
        "foo://x:1",        /* unknown scheme */
        "http://h:80",
        "unix://",          /* no path */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *one[] = {bad[i]};
        char what[64];
        snprintf(what, sizeof what, "address \"%s\"", bad[i]);
        expect_new_fails(one, 1, &o, NULL, what);
        /* also when it is not the first */
        const char *two[] = {"127.0.0.1:1", bad[i]};
        expect_new_fails(two, 2, &o, NULL, what);
    }
}

TEST(invalid_addresses_accepted)
{
    /* Well-formed addresses need not be reachable to make a client. */
    static const char *const ok[] = {
        "127.0.0.1:1",    "127.0.0.1",         "localhost:1",
        "[::1]:1",        "redis://127.0.0.1", "redis://127.0.0.1:1/2",
        "redis://:pw@127.0.0.1:1", "redis://user:pw@127.0.0.1:1/0",
        "unix:///tmp/none.sock",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        const char *one[] = {ok[i]};
        redlock_client *c = NULL;
        char err[256] = "";
        int rc = redlock_client_new(&c, NULL, one, 1, NULL, err, sizeof err);
        CHECK_MSG(rc == 0 && c != NULL, "\"%s\": rc %d %s", ok[i], rc, err);
        CHECK_EQ(redlock_client_nodes(c), 1);
        redlock_client_free(c);
    }
}

TEST(invalid_lock_arguments)
{
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, 0);
    redlock_lock *l = (redlock_lock *)(uintptr_t)1;
    CHECK_EQ(redlock_lock_new(NULL, f.c, "r", 1), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new(&l, NULL, "r", 1), REDLOCK_EINVAL);
    CHECK(l == NULL);
    l = (redlock_lock *)(uintptr_t)1;
    CHECK_EQ(redlock_lock_new(&l, f.c, NULL, 1), REDLOCK_EINVAL);
    CHECK(l == NULL);
    l = (redlock_lock *)(uintptr_t)1;
    CHECK_EQ(redlock_lock_new(&l, f.c, "r", 0), REDLOCK_EINVAL);
    CHECK(l == NULL);

    redlock_lock *lock = it_fix_lock(&f, f.c, "invalid");
    const int64_t bad_ttls[] = {0, -1, -1000, ((int64_t)1 << 40) + 1, INT64_MAX, INT64_MIN};
    for (size_t i = 0; i < sizeof bad_ttls / sizeof bad_ttls[0]; i++) {
        int64_t ttl = bad_ttls[i];
        CHECK_RC(lock, redlock_acquire(lock, ttl), REDLOCK_EINVAL);
        CHECK_NE(it_errstr(lock)[0], '\0');
        CHECK_RC(lock, redlock_try_acquire(lock, ttl), REDLOCK_EINVAL);
        CHECK_RC(lock, redlock_extend(lock, ttl), REDLOCK_EINVAL);
    }
    /* ttl 1 ms leaves nothing once the 2 ms minimum drift is taken */
    CHECK_RC(lock, redlock_try_acquire(lock, 1), REDLOCK_EINVAL);
    CHECK_RC(lock, redlock_acquire(lock, 2), REDLOCK_EINVAL);
    CHECK_NE(it_errstr(lock)[0], '\0');
    CHECK_EQ(rlt_servers_count_key(f.s, "invalid", 7), 0); /* nothing was sent */

    CHECK_EQ(redlock_acquire(NULL, 1000), REDLOCK_EINVAL);
    CHECK_EQ(redlock_try_acquire(NULL, 1000), REDLOCK_EINVAL);
    CHECK_EQ(redlock_extend(NULL, 1000), REDLOCK_EINVAL);
    CHECK_EQ(redlock_release(NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_set_value(NULL, "v", 1), REDLOCK_EINVAL);
    CHECK_EQ(redlock_acquire_async(NULL, 1000, NULL, NULL), REDLOCK_EINVAL);
    /* a callback is required, except for a release */
    CHECK_EQ(redlock_acquire_async(lock, 1000, NULL, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_try_acquire_async(lock, 1000, NULL, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_extend_async(lock, 1000, NULL, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_release_async(NULL, NULL, NULL), REDLOCK_EINVAL);
    CHECK_EQ(redlock_client_wait_connected(NULL, 1, 10), REDLOCK_EINVAL);

    /* still usable after all that */
    CHECK_RC(lock, redlock_try_acquire(lock, 1000), REDLOCK_OK);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);

    it_fix_stop(&f);
}

TEST(invalid_drift_at_least_ttl)
{
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, IT_NOCLIENT);
    redlock_options o;
    it_opts(&o);
    o.drift_factor = 1.0;
    redlock_client *c = NULL;
    char err[256] = "";
    int rc = redlock_client_new(&c, NULL, rlt_servers_addrs(f.s), 1, &o, err, sizeof err);
    if (rc == REDLOCK_OK) {
        /* Accepted at creation: every acquire must then be refused, since
         * ttl * 1.0 + 2 >= ttl leaves no validity. */
        CHECK_RC(NULL, redlock_client_wait_connected(c, 1, 5000), REDLOCK_OK);
        redlock_lock *lock = IT_LOCK(c, "drift");
        CHECK_RC(lock, redlock_try_acquire(lock, 10000), REDLOCK_EINVAL);
        CHECK_NE(it_errstr(lock)[0], '\0');
        CHECK_RC(lock, redlock_acquire(lock, 1000), REDLOCK_EINVAL);
        CHECK_EQ(rlt_servers_count_key(f.s, "drift", 5), 0);
        redlock_lock_free(lock);
        redlock_client_free(c);
    } else {
        CHECK_EQ(rc, REDLOCK_EINVAL);
        CHECK(c == NULL);
        CHECK_NE(err[0], '\0');
    }

    /* A minimum drift larger than the ttl. */
    it_opts(&o);
    o.drift_min_ms = 500;
    c = it_client(f.s, &o);
    redlock_lock *lock = IT_LOCK(c, "drift");
    CHECK_RC(lock, redlock_try_acquire(lock, 400), REDLOCK_EINVAL);
    CHECK_RC(lock, redlock_try_acquire(lock, 505), REDLOCK_EINVAL); /* 505 * 0.01 + 500 >= 505 */
    CHECK_EQ(rlt_servers_count_key(f.s, "drift", 5), 0);
    CHECK_RC(lock, redlock_try_acquire(lock, 2000), REDLOCK_OK);
    CHECK_LE(redlock_lock_validity(lock), 2000 - 520);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    redlock_lock_free(lock);
    redlock_client_free(c);
    it_fix_stop(&f);
}

TEST(invalid_blocking_call_on_async_client)
{
    struct it_fix f = {.key = "async-only"};
    it_fix_start(&f, 1, NULL, IT_ASYNC);
    redlock_lock *lock = f.lock;
    CHECK_RC(lock, redlock_acquire(lock, 1000), REDLOCK_EINVAL);
    CHECK_NE(it_errstr(lock)[0], '\0');
    CHECK_RC(lock, redlock_try_acquire(lock, 1000), REDLOCK_EINVAL);
    CHECK_RC(lock, redlock_extend(lock, 1000), REDLOCK_EINVAL);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_EINVAL);
    CHECK_EQ(redlock_client_wait_connected(f.c, 1, 10), REDLOCK_EINVAL);
    CHECK_EQ(rlt_servers_count_key(f.s, "async-only", 10), 0);
    it_fix_stop(&f);
}

TEST(invalid_strerror_and_version)
{
    static const int codes[] = {
        REDLOCK_OK,       REDLOCK_EINVAL,   REDLOCK_ENOQUORUM, REDLOCK_ETIMEDOUT,
        REDLOCK_ECANCELED, REDLOCK_ENOTOWNER, REDLOCK_ENOMEM,   REDLOCK_ECONNECT,
        REDLOCK_EBUSY,    REDLOCK_ESERVER,  REDLOCK_ECLOSED,
#ifdef REDLOCK_ESYSTEM
        REDLOCK_ESYSTEM,
#endif
    };
    const size_t n = sizeof codes / sizeof codes[0];
    for (size_t i = 0; i < n; i++) {
        const char *m = redlock_strerror(codes[i]);
        CHECK_MSG(m != NULL && m[0] != '\0', "code %d", codes[i]);
        for (size_t j = 0; j < i; j++)
            CHECK_MSG(strcmp(m, redlock_strerror(codes[j])) != 0, "codes %d and %d: \"%s\"",
                      codes[i], codes[j], m);
    }
    /* codes are 0 and consecutive negatives */
    for (size_t i = 0; i < n; i++)
        CHECK_EQ(codes[i], -(int)i);
    /* unknown codes still get a message */
    const int unknown[] = {1, -1000, 12345, (int)(-(int)n)};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        const char *m = redlock_strerror(unknown[i]);
        CHECK(m != NULL && m[0] != '\0');
    }

    char want[32];
    snprintf(want, sizeof want, "%d.%d.%d", REDLOCK_VERSION_MAJOR, REDLOCK_VERSION_MINOR,
             REDLOCK_VERSION_PATCH);
    CHECK(redlock_version() != NULL);
    CHECK_MSG(strncmp(redlock_version(), want, strlen(want)) == 0, "version \"%s\", want \"%s\"",
              redlock_version(), want);
}

TEST(invalid_options_defaults)
{
    redlock_options o;
    memset(&o, 0x5a, sizeof o);
    redlock_options_init(&o);
    CHECK_EQ(o.node_timeout_ms, 200);
    CHECK_EQ(o.connect_timeout_ms, 1000);
    CHECK(o.drift_factor > 0.0099 && o.drift_factor < 0.0101);
    CHECK_EQ(o.drift_min_ms, 2);
    CHECK_EQ(o.retry_count, 10);
    CHECK_EQ(o.retry_delay_ms, 200);
    CHECK_EQ(o.retry_jitter_ms, 100);
    CHECK_EQ(o.acquire_timeout_ms, 0);
    CHECK_EQ(o.reconnect_min_ms, 10);
    CHECK_EQ(o.reconnect_max_ms, 1000);
    CHECK_EQ(o.max_pending, 65536);
    CHECK(o.key_prefix != NULL);
    CHECK_STREQ(o.key_prefix, "");
    CHECK(o.clock == NULL);
    CHECK(o.node_cb == NULL);
}
