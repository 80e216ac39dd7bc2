/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* Unit tests of the pure parts: quorum.c, clock.c, addr.c, script.c.
 * No server, no sleeping: time is passed in as numbers. */
#include <string.h>
#include <stdlib.h>
#include "check.h"
#include "floor/floor.h"
#include "client/client.h"

static void votes(redlock__tally *t, enum redlock__vote v, unsigned k)
{
    while (k--)
        redlock__tally_set(t, REDLOCK__PENDING, v);
}

static const redlock__rule MAJ = { REDLOCK__RULE_MAJORITY, 0 };

/* Cast the votes of `more` (a letter each: O ok, R refused, T timeout,
 * D down), then decide with `left` us of validity left. */
static int decide_after(redlock__tally *t, const char *more, int64_t left)
{
    for (; *more; more++)
        votes(t, *more == 'O' ? REDLOCK__OK : *more == 'R' ? REDLOCK__REFUSED
                 : *more == 'T' ? REDLOCK__TIMEOUT : REDLOCK__DOWN, 1);
    return redlock__decide(t, left);
}

TEST(quorum_sizes)
{
    redlock__tally t;
    static const unsigned want[] = { 0, 1, 2, 2, 3, 3, 4, 4 };
    for (unsigned n = 1; n <= 7; n++) {
        redlock__tally_init(&t, n, MAJ);
        CHECK_EQ(t.quorum, want[n]);
        CHECK_EQ(t.count[REDLOCK__PENDING], n);
    }
}

TEST(quorum_early_success_does_not_wait_for_slow_nodes)
{
    redlock__tally t;
    redlock__tally_init(&t, 5, MAJ);
    CHECK_EQ(decide_after(&t, "OO", 1000), REDLOCK__UNDECIDED);
    CHECK_EQ(decide_after(&t, "O", 1000), REDLOCK__WON);    /* 3 of 5, two still pending */
}

TEST(quorum_early_failure)
{
    redlock__tally t;
    redlock__tally_init(&t, 5, MAJ);
    CHECK_EQ(decide_after(&t, "RR", 1000), REDLOCK__UNDECIDED);
    CHECK_EQ(decide_after(&t, "T", 1000), REDLOCK__LOST);   /* 0 OK + 2 pending < 3 */
}

TEST(quorum_even_n_needs_strict_majority)
{
    redlock__tally t;
    redlock__tally_init(&t, 4, MAJ);
    CHECK_EQ(decide_after(&t, "OOD", 1000), REDLOCK__UNDECIDED);
    CHECK_EQ(decide_after(&t, "D", 1000), REDLOCK__LOST);   /* 2 of 4 is no majority */
}

TEST(quorum_single_node)
{
    redlock__tally t;
    redlock__tally_init(&t, 1, MAJ);
    CHECK_EQ(decide_after(&t, "", 1000), REDLOCK__UNDECIDED);
    CHECK_EQ(decide_after(&t, "O", 1000), REDLOCK__WON);
    redlock__tally_init(&t, 1, MAJ);
    CHECK_EQ(decide_after(&t, "R", 1000), REDLOCK__LOST);
}

TEST(quorum_without_validity_is_lost)
{
    redlock__tally t;
    redlock__tally_init(&t, 3, MAJ);
    votes(&t, REDLOCK__OK, 3);
    /* a win needs at least 1 ms left, so a success never reads 0 ms */
    CHECK_EQ(redlock__decide(&t, REDLOCK__MIN_VALIDITY_US), REDLOCK__WON);
    CHECK_EQ(redlock__decide(&t, REDLOCK__MIN_VALIDITY_US - 1), REDLOCK__LOST);
    CHECK_EQ(redlock__decide(&t, 1), REDLOCK__LOST);
    CHECK_EQ(redlock__decide(&t, 0), REDLOCK__LOST);
    CHECK_EQ(redlock__decide(&t, -5), REDLOCK__LOST);
    redlock__tally_init(&t, 3, MAJ);     /* undecided votes, but time is up */
    CHECK_EQ(redlock__decide(&t, 0), REDLOCK__LOST);
}

TEST(quorum_refusals_that_sink_the_quorum)
{
    redlock__tally t;
    redlock__tally_init(&t, 5, MAJ);
    votes(&t, REDLOCK__REFUSED, 2);
    CHECK_EQ(redlock__refused_quorum(&t), 0);   /* 3 may still hold it */
    votes(&t, REDLOCK__TIMEOUT, 2);
    CHECK_EQ(redlock__refused_quorum(&t), 0);   /* timeouts prove nothing */
    votes(&t, REDLOCK__REFUSED, 1);
    CHECK_EQ(redlock__refused_quorum(&t), 1);
    redlock__tally_init(&t, 1, MAJ);
    CHECK_EQ(redlock__refused_quorum(&t), 0);
    votes(&t, REDLOCK__REFUSED, 1);
    CHECK_EQ(redlock__refused_quorum(&t), 1);
}

TEST(quorum_full_queues_have_their_own_code)
{
    redlock__tally t;
    redlock__tally_init(&t, 3, MAJ);
    votes(&t, REDLOCK__FULL, 2);
    votes(&t, REDLOCK__OK, 1);
    CHECK_EQ(redlock__decide(&t, 1000000), REDLOCK__LOST);
    CHECK_EQ(redlock__failure_code(&t), REDLOCK_EFULL);
}

TEST(clock_saturating_add)
{
    CHECK_EQ(redlock__add_sat(INT64_MAX - 5, 10), INT64_MAX);
    CHECK_EQ(redlock__add_sat(INT64_MAX, INT64_MAX), INT64_MAX);
    CHECK_EQ(redlock__add_sat(3, 4), 7);
}

TEST(quorum_vote_moves_only_once)
{
    redlock__tally t;
    redlock__tally_init(&t, 3, MAJ);
    redlock__tally_set(&t, REDLOCK__PENDING, REDLOCK__OK);
    redlock__tally_set(&t, REDLOCK__OK, REDLOCK__OK);           /* no-op */
    redlock__tally_set(&t, REDLOCK__TIMEOUT, REDLOCK__OK);      /* none to move */
    CHECK_EQ(t.count[REDLOCK__OK], 1);
    CHECK_EQ(t.count[REDLOCK__PENDING], 2);
    CHECK_EQ(t.count[REDLOCK__TIMEOUT], 0);
}

TEST(quorum_failure_reasons)
{
    redlock__tally t;
    redlock__tally_init(&t, 5, MAJ);     /* 3 refused sink the quorum alone */
    votes(&t, REDLOCK__REFUSED, 3);
    votes(&t, REDLOCK__DOWN, 2);
    CHECK_EQ(redlock__failure_code(&t), REDLOCK_ENOQUORUM);
    redlock__tally_init(&t, 5, MAJ);     /* 3 unreachable: masters down */
    votes(&t, REDLOCK__OK, 1);
    votes(&t, REDLOCK__REFUSED, 1);
    votes(&t, REDLOCK__DOWN, 3);
    CHECK_EQ(redlock__failure_code(&t), REDLOCK_ECONNECT);
    redlock__tally_init(&t, 3, MAJ);
    votes(&t, REDLOCK__TIMEOUT, 2);
    votes(&t, REDLOCK__ERROR, 1);
    CHECK_EQ(redlock__failure_code(&t), REDLOCK_ETIMEDOUT);
    redlock__tally_init(&t, 3, MAJ);
    votes(&t, REDLOCK__ERROR, 2);
    CHECK_EQ(redlock__failure_code(&t), REDLOCK_ESERVER);
    redlock__tally_init(&t, 3, MAJ);     /* quorum reached but no validity left */
    votes(&t, REDLOCK__OK, 3);
    CHECK_EQ(redlock__failure_code(&t), REDLOCK_ETIMEDOUT);
}

TEST(clock_drift_and_validity)
{
    /* drift = ttl * factor + min: 10 s * 0.01 + 2 ms = 102 ms */
    CHECK_EQ(redlock__drift_us(10000, 0.01, 2), 102000);
    CHECK_EQ(redlock__drift_us(1, 0.0, 0), 0);
    /* 10 s ttl, 5 ms elapsed: 10000 - 5 - 102 ms left */
    CHECK_EQ(redlock__validity_us(1000000, 1005000, 10000, 102000), 9893000);
    /* exactly used up, and past */
    CHECK_EQ(redlock__validity_us(0, 9898000, 10000, 102000), 0);
    CHECK_LT(redlock__validity_us(0, 9898001, 10000, 102000), 0);
    /* a clock that went backwards gives no validity at all */
    CHECK_EQ(redlock__validity_us(5000, 4000, 10000, 0), 0);
    /* the largest ttl does not overflow */
    CHECK_GT(redlock__validity_us(0, 1, (int64_t)1 << 40,
                                  redlock__drift_us((int64_t)1 << 40, 0.5, 2)), 0);
    CHECK_EQ(redlock__ms_floor(1999), 1);
    CHECK_EQ(redlock__ms_floor(-7), 0);
}

TEST(clock_rtt_estimate_drops_at_once_and_rises_slowly)
{
    int64_t est = 200;
    /* the burst of a start: twenty 20 ms samples pull it up, by eighths */
    for (int i = 0; i < 20; i++)
        est = redlock__rtt_update(est, 20000);
    CHECK_GT(est, 18000);
    CHECK_LT(est, 20000);
    /* one fast sample after it, and the estimate is that sample */
    CHECK_EQ(redlock__rtt_update(est, 180), 180);
    /* a slower sample moves it an eighth of the way */
    CHECK_EQ(redlock__rtt_update(200, 1000), 300);
    /* no sample (a clock step, a zero round trip): unchanged */
    CHECK_EQ(redlock__rtt_update(300, 0), 300);
    CHECK_EQ(redlock__rtt_update(300, -5), 300);
}

static char payload_role;

static int payload(const char *p, int64_t *w, double *n, unsigned *rank)
{
    return redlock__wake_parse_payload(p, strlen(p), w, n, rank, &payload_role);
}

TEST(wake_announcement_payloads)
{
    int64_t w = -1;
    double n = -1;
    unsigned rank = 9;

    /* a release's: window, count, rank */
    CHECK_EQ(payload("350:12:1", &w, &n, &rank), 0);
    CHECK_EQ(w, 350);
    CHECK_EQ((int64_t)n, 12);
    CHECK_EQ(rank, 1u);
    CHECK_EQ(payload("200:0:2", &w, &n, &rank), 0);
    CHECK_EQ(rank, 2u);
    CHECK_EQ((int64_t)n, 1);        /* counts below 1 count as 1 */
    /* an older releaser's, without a rank: at random in the window */
    CHECK_EQ(payload("999:3", &w, &n, &rank), 0);
    CHECK_EQ(w, 999);
    CHECK_EQ(rank, 2u);
    CHECK_EQ(payload_role, 0);
    /* a role's (the read/write lock's): only that role's waiters wake */
    CHECK_EQ(payload("350:4:1:r", &w, &n, &rank), 0);
    CHECK_EQ(payload_role, 'r');
    CHECK_EQ(rank, 1u);
    /* not announcements: left to the caller's defaults */
    const char *bad[] = { "", ":", "12", "0:3:1", "5:3:0", "5:3:3", "5:3:1:", "5:3:1:1",
                          "5::1", ":3:1", "5:3:x", "a:b", "1234567890123:1",
                          "5:3:11", "-5:3", "5 :3", "5:3:r", "5:3:1:R", "5:3:1:rw" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        w = 7;
        if (payload(bad[i], &w, &n, &rank) != -1 || w != 7)
            CHECK_EQ(i, (size_t)-1);    /* names the payload that passed */
    }
}

TEST(clock_default_is_monotonic)
{
    int64_t a = redlock__clock_default(NULL), b = redlock__clock_default(NULL);
    CHECK_GT(a, 0);
    CHECK_GE(b, a);
}

static int parse(const char *s, redlock__addr *a)
{
    char err[256];
    int rc = redlock__addr_parse(a, s, err, sizeof err);
    if (rc != 0)
        CHECK_MSG(err[0] != '\0', "no message for %s", s);
    return rc;
}

/* An address parsed into these fields (NULL: none); on failure the line
 * is the caller's. */
#define CHECK_ADDR(a, u, pw, h, p, d)                                         \
    do {                                                                      \
        CHECK_STREQ((a).user, u);                                             \
        CHECK_STREQ((a).password, pw);                                        \
        CHECK_STREQ((a).host, h);                                             \
        CHECK_EQ((a).port, p);                                                \
        CHECK_EQ((a).db, d);                                                  \
    } while (0)

TEST(addr_forms)
{
    redlock__addr a;
    CHECK_EQ(parse("127.0.0.1:7000", &a), 0);
    CHECK_ADDR(a, NULL, NULL, "127.0.0.1", 7000, -1);
    CHECK(a.path == NULL);
    redlock__addr_free(&a);

    CHECK_EQ(parse("redis1.example", &a), 0);
    CHECK_STREQ(a.host, "redis1.example");
    CHECK_EQ(a.port, 6379);
    redlock__addr_free(&a);

    CHECK_EQ(parse("[::1]:6380", &a), 0);
    CHECK_STREQ(a.host, "::1");
    CHECK_EQ(a.port, 6380);
    redlock__addr_free(&a);

    CHECK_EQ(parse("redis://alice:s3cr@t@db.example:7001/3", &a), 0);
    CHECK_ADDR(a, "alice", "s3cr@t", "db.example", 7001, 3);
    redlock__addr_free(&a);

    CHECK_EQ(parse("redis://:pw@[fe80::1]/0", &a), 0);
    CHECK_ADDR(a, NULL, "pw", "fe80::1", 6379, 0);
    redlock__addr_free(&a);

    CHECK_EQ(parse("rediss://u:p@db.example:6380/2", &a), 0);
    CHECK_EQ(a.tls, 1);
    CHECK_STREQ(a.host, "db.example");
    CHECK_EQ(a.port, 6380);
    CHECK_EQ(a.db, 2);
    redlock__addr_free(&a);
    CHECK_EQ(parse("redis://h", &a), 0);
    CHECK_EQ(a.tls, 0);
    redlock__addr_free(&a);

    CHECK_EQ(parse("unix:///run/redis.sock", &a), 0);
    CHECK_STREQ(a.path, "/run/redis.sock");
    CHECK(a.host == NULL);
    redlock__addr_free(&a);
}

TEST(addr_rejects_malformed)
{
    static const char *bad[] = {
        "", ":6379", "host:", "host:0", "host:65536", "host:99999", "host:12ab",
        "[::1", "[]:1", "[::1]x", "::1", "redis://", "redis://host:1/x",
        "redis://nocolon@host", "foo://x:1", "unix://", "unix://relative",
        "rediss://", "rediss://u@host", "redis://host:-1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        redlock__addr a;
        CHECK_MSG(parse(bad[i], &a) == REDLOCK_EINVAL, "accepted \"%s\"", bad[i]);
    }
}

TEST(addr_message_never_shows_the_password)
{
    redlock__addr a;
    char err[256];
    CHECK_EQ(redlock__addr_parse(&a, "redis://u:hunter2@host:bad", err, sizeof err), REDLOCK_EINVAL);
    CHECK(strstr(err, "hunter2") == NULL);
    CHECK(strstr(err, "redis://***@host:bad") != NULL);
    CHECK_EQ(redlock__addr_parse(&a, "redis://:p@ss@w0rd@h:1/x", err, sizeof err), REDLOCK_EINVAL);
    CHECK(strstr(err, "p@ss") == NULL && strstr(err, "w0rd") == NULL);
}

/* ---- percent-decoded credentials ---------------------------------------- */

TEST(addr_percent_decoded_credentials)
{
    redlock__addr a;
    char err[256];

    CHECK_EQ(redlock__addr_parse(&a, "redis://:a%2Fb@h:7000", err, sizeof err), 0);
    CHECK_ADDR(a, NULL, "a/b", "h", 7000, -1);
    redlock__addr_free(&a);

    /* every escape the README names, either case of hex digits, both fields */
    CHECK_EQ(redlock__addr_parse(&a, "redis://lock%3aer%40dc1:p%40%3A%2f%25w@h/2", err,
                                 sizeof err), 0);
    CHECK_ADDR(a, "lock:er@dc1", "p@:/%w", "h", 6379, 2);
    redlock__addr_free(&a);

    /* rediss:// the same; bytes above 0x7f (UTF-8 here) pass through */
    CHECK_EQ(redlock__addr_parse(&a, "rediss://u:caf%C3%A9%20x@[::1]:6380/0", err,
                                 sizeof err), 0);
    CHECK_EQ(a.tls, 1);
    CHECK_STREQ(a.user, "u");
    CHECK_STREQ(a.password, "caf\xc3\xa9 x");
    CHECK_STREQ(a.host, "::1");
    CHECK_EQ(a.db, 0);
    redlock__addr_free(&a);

    /* bare '@' and ':' in the password still work; an empty one stays empty */
    CHECK_EQ(redlock__addr_parse(&a, "redis://:p@ss:w%40rd@h", err, sizeof err), 0);
    CHECK_STREQ(a.password, "p@ss:w@rd");
    redlock__addr_free(&a);
    CHECK_EQ(redlock__addr_parse(&a, "redis://u:@h", err, sizeof err), 0);
    CHECK_STREQ(a.user, "u");
    CHECK_STREQ(a.password, "");
    redlock__addr_free(&a);

    /* only the credentials are decoded */
    CHECK_EQ(redlock__addr_parse(&a, "redis://h%41:1", err, sizeof err), 0);
    CHECK_STREQ(a.host, "h%41");
    redlock__addr_free(&a);
}

TEST(addr_percent_bad_escapes_are_refused)
{
    static const struct {
        const char *addr, *field, *words;
    } bad[] = {
        { "redis://:%zz@h:1", "password", "percent-escape" },
        { "redis://:secret%4@h:1", "password", "percent-escape" },
        { "redis://:secret%@h:1", "password", "percent-escape" },
        { "redis://:secret%4g@h:1", "password", "percent-escape" },
        { "rediss://:50%off@h:1/1", "password", "percent-escape" },
        { "redis://us%r:secret@h:1", "user", "percent-escape" },
        { "redis://:sec%00ret@h:1", "password", "%00" },
        { "redis://%00:secret@h:1", "user", "%00" },
        { "rediss://u:secret%00@h", "password", "%00" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        redlock__addr a;
        char err[256] = "";
        CHECK_MSG(redlock__addr_parse(&a, bad[i].addr, err, sizeof err) == REDLOCK_EINVAL,
                  "accepted \"%s\"", bad[i].addr);
        CHECK(a.user == NULL && a.password == NULL && a.host == NULL);
        CHECK_MSG(strstr(err, bad[i].words) != NULL, "\"%s\": %s", bad[i].addr, err);
        CHECK_MSG(strstr(err, bad[i].field) != NULL, "\"%s\": %s", bad[i].addr, err);
        CHECK_MSG(strstr(err, "secret") == NULL && strstr(err, "off") == NULL &&
                  strstr(err, "us%r") == NULL, "\"%s\": %s", bad[i].addr, err);
    }
    /* a message cut short by a small buffer is still a terminated string */
    redlock__addr a;
    char small[16];
    CHECK_EQ(redlock__addr_parse(&a, "redis://:%zz@h", small, sizeof small), REDLOCK_EINVAL);
    CHECK(memchr(small, '\0', sizeof small) != NULL);
}

TEST(addr_slash_in_password_asks_for_percent_encoding)
{
    static const char *const bad[] = {
        "redis://:a/b@h:1", "rediss://user:pa/ss@h:1/2", "redis://us/er:pw@h",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        redlock__addr a;
        char err[256] = "";
        CHECK_MSG(redlock__addr_parse(&a, bad[i], err, sizeof err) == REDLOCK_EINVAL,
                  "accepted \"%s\"", bad[i]);
        CHECK_MSG(strstr(err, "%2F") != NULL, "\"%s\": %s", bad[i], err);
        CHECK_MSG(strstr(err, "a/b") == NULL && strstr(err, "pa/ss") == NULL &&
                  strstr(err, "us/er") == NULL, "\"%s\": %s", bad[i], err);
    }
    /* a bad database without credentials keeps its own message */
    redlock__addr a;
    char err[256];
    CHECK_EQ(redlock__addr_parse(&a, "redis://h:1/x", err, sizeof err), REDLOCK_EINVAL);
    CHECK_MSG(strstr(err, "database") != NULL, "%s", err);
}

TEST(sha1_known_vectors)
{
    char out[41];
    redlock__sha1_hex("abc", 3, out);
    CHECK_STREQ(out, "a9993e364706816aba3e25717850c26c9cd0d89d");
    redlock__sha1_hex("", 0, out);
    CHECK_STREQ(out, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    /* 56 bytes: the padding spills into a second block */
    redlock__sha1_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56, out);
    CHECK_STREQ(out, "84983e441c3bd26ebaae4aa1f95129e5e54670f1");
}

TEST(resp_encoding_is_binary_safe)
{
    redlock__buf b = { 0 };
    const char *argv[3] = { "SET", "k\0\r\n", "" };
    size_t len[3] = { 3, 4, 0 };
    static const char want[] = "*3\r\n$3\r\nSET\r\n$4\r\nk\0\r\n\r\n$0\r\n\r\n";
    CHECK_EQ(redlock__resp_command(&b, 3, argv, len), 0);
    CHECK_EQ(b.len, sizeof want - 1);
    CHECK(memcmp(b.p, want, b.len) == 0);
    redlock__buf_free(&b);
}
