/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_cluster.c -- the pure part of a cluster vote (cluster/slot.c) and its
 * address form (floor/addr.c); no server needed.  The slots below are
 * what `redis-cli CLUSTER KEYSLOT` printed on redis 7.0.15. */
#include <string.h>

#include "check.h"
#include "cluster/cluster.h"

TEST(cluster_keyslot_matches_redis)
{
    static const struct { const char *key; unsigned slot; } k[] = {
        { "foo", 12182 },                  /* no tag: the whole key */
        { "lock:invoice-run", 3553 },
        { "{user1000}.following", 3443 },  /* the tag only */
        { "{}x", 10595 },                  /* an empty tag: the whole key */
        { "a{b}c{d}", 3300 },              /* the first tag */
        { "{lock:x}:fence", 5259 },        /* a library key: its resource's tag */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        CHECK_MSG(redlock__keyslot(k[i].key, strlen(k[i].key)) == k[i].slot, "%s: %u, not %u",
                  k[i].key, redlock__keyslot(k[i].key, strlen(k[i].key)), k[i].slot);
    /* a resource and its library keys share its slot */
    CHECK_EQ(redlock__keyslot("lock:x", 6), redlock__keyslot("{lock:x}:fence", 14));
    /* binary: a NUL byte is hashed like any other */
    CHECK(redlock__keyslot("a\0b", 3) != redlock__keyslot("a", 1));
}

TEST(cluster_redirects_read)
{
    char host[REDLOCK__HOST_MAX + 1];
    unsigned slot = 0;
    int ask = -1, port = 0;
    static const char moved[] = "MOVED 3553 127.0.0.1:7001", asked[] = "ASK 12 ::1:7002";

    CHECK_EQ(redlock__redirect_read(moved, strlen(moved), &ask, &slot, host, &port), 0);
    CHECK_EQ(ask, 0);
    CHECK_EQ(slot, 3553);
    CHECK_STREQ(host, "127.0.0.1");
    CHECK_EQ(port, 7001);
    CHECK_EQ(redlock__redirect_read(asked, strlen(asked), &ask, &slot, host, &port), 0);
    CHECK_EQ(ask, 1);
    CHECK_EQ(slot, 12);
    CHECK_STREQ(host, "::1");
    CHECK_EQ(port, 7002);
    static const char *const bad[] = { "ERR unknown", "MOVED 16384 h:1", "MOVED 1 h:",
                                       "MOVED 1 :1", "MOVED 1 h:65536", "MOVED x h:1", "ASK 1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK_MSG(redlock__redirect_read(bad[i], strlen(bad[i]), &ask, &slot, host, &port) == -1,
                  "%s read as a redirect", bad[i]);
}

/* A CLUSTER SLOTS reply, as RESP, read by the library's reader. */
static int slots_of(const char *resp, redlock__slot_range *rg, size_t *n, const char **why)
{
    redlock__reader *r = redlock__reader_new();
    const redlock__reply *x = NULL;
    int rc;

    CHECK(r != NULL);
    CHECK_EQ(redlock__reader_feed(r, resp, strlen(resp)), 0);
    CHECK_EQ(redlock__reader_next(r, &x), 1);
    rc = redlock__slots_read(x, rg, 8, n, why);
    redlock__reader_free(r);
    return rc;
}

TEST(cluster_slots_read)
{
    redlock__slot_range rg[8];
    size_t n = 0;
    const char *why = NULL;

    /* two ranges, the second with a replica and an unknown host ("?") */
    CHECK_EQ(slots_of("*2\r\n"
                      "*3\r\n:0\r\n:8191\r\n*3\r\n$9\r\n127.0.0.1\r\n:7000\r\n$3\r\nabc\r\n"
                      "*4\r\n:8192\r\n:16383\r\n*3\r\n$1\r\n?\r\n:7001\r\n$3\r\ndef\r\n"
                      "*3\r\n$9\r\n127.0.0.1\r\n:7002\r\n$3\r\nghi\r\n",
                      rg, &n, &why), 0);
    CHECK_EQ(n, 2);
    CHECK_EQ(rg[0].lo, 0);
    CHECK_EQ(rg[0].hi, 8191);
    CHECK_STREQ(rg[0].host, "127.0.0.1");
    CHECK_EQ(rg[0].port, 7000);
    CHECK_STREQ(rg[0].id, "abc");
    CHECK_STREQ(rg[1].host, "");
    CHECK_EQ(rg[1].port, 7001);
    CHECK_STREQ(rg[1].id, "def");
    /* a hole: read, and said */
    CHECK_EQ(slots_of("*1\r\n*3\r\n:0\r\n:100\r\n*2\r\n$1\r\nh\r\n:1\r\n", rg, &n, &why), 1);
    CHECK_EQ(n, 1);
    CHECK(strstr(why, "lost slot coverage") != NULL);
    CHECK_EQ(slots_of("*0\r\n", rg, &n, &why), 1);
    CHECK(strstr(why, "no slot") != NULL);
    /* overlapping ranges, malformed ranges, an error */
    CHECK_EQ(slots_of("*2\r\n*3\r\n:0\r\n:16383\r\n*2\r\n$1\r\nh\r\n:1\r\n"
                      "*3\r\n:5\r\n:5\r\n*2\r\n$1\r\nh\r\n:2\r\n", rg, &n, &why), -1);
    CHECK(strstr(why, "two ranges") != NULL);
    CHECK_EQ(slots_of("*1\r\n*3\r\n:9\r\n:3\r\n*2\r\n$1\r\nh\r\n:1\r\n", rg, &n, &why), -1);
    CHECK_EQ(slots_of("*1\r\n*3\r\n:0\r\n:16384\r\n*2\r\n$1\r\nh\r\n:1\r\n", rg, &n, &why), -1);
    CHECK_EQ(slots_of("-ERR This instance has cluster support disabled\r\n", rg, &n, &why), -1);
    CHECK(strstr(why, "refused") != NULL);
}

TEST(cluster_address_forms)
{
    redlock__addr a;
    char err[256], host[REDLOCK__HOST_MAX + 1];
    int port = 0;

    CHECK_EQ(redlock__addr_parse(&a, "redis-cluster://u:p,w@h1:7000,h2:7001,[::1]:7002", err,
                                 sizeof err), 0);
    CHECK_EQ(a.cluster, 1);
    CHECK_EQ(a.tls, 0);
    CHECK_STREQ(a.user, "u");
    CHECK_STREQ(a.password, "p,w");    /* a ',' in the password is no seed */
    CHECK_STREQ(a.host, "h1");
    CHECK_EQ(a.port, 7000);
    CHECK_EQ(redlock__addr_seed(&a, 1, host, &port), 0);
    CHECK_STREQ(host, "h2");
    CHECK_EQ(port, 7001);
    CHECK_EQ(redlock__addr_seed(&a, 2, host, &port), 0);
    CHECK_STREQ(host, "::1");
    CHECK_EQ(port, 7002);
    CHECK_EQ(redlock__addr_seed(&a, 3, host, &port), -1);
    redlock__addr_free(&a);
    CHECK_EQ(redlock__addr_parse(&a, "rediss-cluster://h:1", err, sizeof err), 0);
    CHECK_EQ(a.tls, 1);
    CHECK_EQ(a.cluster, 1);
    CHECK_EQ(redlock__addr_seed(&a, 1, host, &port), -1);
    redlock__addr_free(&a);
    /* no database, no bad seed, and a password never in the message */
    CHECK_EQ(redlock__addr_parse(&a, "redis-cluster://:secret@h:1/2", err, sizeof err),
             REDLOCK_EINVAL);
    CHECK(strstr(err, "database 0 only") != NULL);
    CHECK(strstr(err, "secret") == NULL);
    CHECK_EQ(redlock__addr_parse(&a, "redis-cluster://:secret@h:1,h:0", err, sizeof err),
             REDLOCK_EINVAL);
    CHECK(strstr(err, "port") != NULL);
    CHECK(strstr(err, "secret") == NULL);
    CHECK_EQ(redlock__addr_parse(&a, "redis-cluster://h:1,", err, sizeof err), REDLOCK_EINVAL);
}

/* ---- split.c: a multi-resource script over several slots ----------------- */

#include "cluster/split.h"

static void bulk(char *out, size_t *n, const char *s, size_t len)
{
    *n += (size_t)sprintf(out + *n, "$%zu\r\n", len);
    memcpy(out + *n, s, len);
    *n += len;
    memcpy(out + *n, "\r\n", 2);
    *n += 2;
}

/* EVALSHA sha 3 k1 k2 k3 value ttl, k1 and k3 in one slot ({a}), k2 in
 * another. */
static size_t multi_cmd(char *out, const char *sha)
{
    size_t n = (size_t)sprintf(out, "*8\r\n");
    bulk(out, &n, "EVALSHA", 7);
    bulk(out, &n, sha, 40);
    bulk(out, &n, "3", 1);
    bulk(out, &n, "{a}1", 4);
    bulk(out, &n, "b", 1);
    bulk(out, &n, "{a}2", 4);
    bulk(out, &n, "VAL", 3);
    bulk(out, &n, "1000", 4);
    return n;
}

TEST(cluster_split_plans_and_combines)
{
    const char *bodies[REDLOCK__NSCRIPTS];
    char names[REDLOCK__NSCRIPTS][16], cmd[512];
    redlock__split_scripts s;
    redlock__split *sp = NULL;
    redlock__reply r = { 0 }, whole;
    redlock__buf b = { 0 };

    for (int i = 0; i < REDLOCK__NSCRIPTS; i++) {
        snprintf(names[i], sizeof names[i], "return %d", i);
        bodies[i] = names[i];
    }
    redlock__split_init(&s, bodies);
    /* not a multi script, or one slot: no split */
    size_t n = multi_cmd(cmd, s.sha[REDLOCK__SPLIT_ACQUIRE]);
    CHECK_EQ(redlock__split_plan(&s, cmd, n, &sp), 1);
    CHECK_EQ(sp->nparts, 2);
    CHECK_EQ(sp->part[0].nkeys, 2);     /* {a}1 and {a}2, in set order */
    CHECK_EQ(sp->gidx[0], 0);
    CHECK_EQ(sp->gidx[1], 2);
    CHECK_EQ(sp->gidx[2], 1);
    CHECK(memmem(sp->part[0].cmd.p, sp->part[0].cmd.len, "$1\r\n2\r\n$4\r\n{a}1\r\n$4\r\n{a}2\r\n"
                 "$3\r\nVAL\r\n$4\r\n1000\r\n", 42) != NULL);
    /* part 1 took its key, part 0 refused its second key: the set's third */
    r.type = REDLOCK__REPLY_INTEGER;
    r.str = "";
    r.integer = 0;
    CHECK_EQ(redlock__split_answer(sp, 1, &r, NULL), 0);
    r.integer = 2;
    CHECK_EQ(redlock__split_answer(sp, 0, &r, NULL), 1);
    redlock__split_reply(sp, &whole);
    CHECK_EQ(whole.type, REDLOCK__REPLY_INTEGER);
    CHECK_EQ(whole.integer, 3);
    CHECK(sp->part[1].took && !sp->part[0].took);
    CHECK_EQ(redlock__split_rollback(&s, sp, 1, &b), 0);
    CHECK(memmem(b.p, b.len, s.sha[REDLOCK__SPLIT_RELEASE], 40) != NULL);
    CHECK(memmem(b.p, b.len, "$1\r\n1\r\n$1\r\nb\r\n$3\r\nVAL\r\n", 22) != NULL);
    redlock__buf_free(&b);
    redlock__split_free(sp);
    /* release: 1 only when every part deleted all its keys */
    n = multi_cmd(cmd, s.sha[REDLOCK__SPLIT_RELEASE]);
    CHECK_EQ(redlock__split_plan(&s, cmd, n, &sp), 1);
    r.integer = 1;
    redlock__split_answer(sp, 0, &r, NULL);
    r.integer = 0;
    redlock__split_answer(sp, 1, &r, NULL);
    redlock__split_reply(sp, &whole);
    CHECK_EQ(whole.integer, 0);
    redlock__split_free(sp);
    /* extend: the largest, 0 when a part extended nothing; an error wins */
    n = multi_cmd(cmd, s.sha[REDLOCK__SPLIT_EXTEND]);
    CHECK_EQ(redlock__split_plan(&s, cmd, n, &sp), 1);
    r.integer = 2;
    redlock__split_answer(sp, 0, &r, NULL);
    r.integer = 1;
    redlock__split_answer(sp, 1, &r, NULL);
    redlock__split_reply(sp, &whole);
    CHECK_EQ(whole.integer, 2);
    redlock__split_free(sp);
    CHECK_EQ(redlock__split_plan(&s, cmd, n, &sp), 1);
    r.type = REDLOCK__REPLY_ERROR;
    r.str = "NOSCRIPT x";
    r.len = 10;
    redlock__split_answer(sp, 0, &r, NULL);
    r.type = REDLOCK__REPLY_INTEGER;
    redlock__split_answer(sp, 1, &r, NULL);
    redlock__split_reply(sp, &whole);
    CHECK_EQ(whole.type, REDLOCK__REPLY_ERROR);
    CHECK(whole.len == 10 && memcmp(whole.str, "NOSCRIPT x", 10) == 0);
    redlock__split_free(sp);
    /* another script, or keys of one slot: no split */
    n = multi_cmd(cmd, s.sha[REDLOCK__SPLIT_ACQUIRE]);
    memcpy(strstr(cmd, "$1\r\nb\r\n") + 4, "{", 1);    /* "{" hashes whole: still apart */
    CHECK_EQ(redlock__split_plan(&s, cmd, n, &sp), 1);
    redlock__split_free(sp);
    char mutex_sha[41];
    redlock__sha1_hex(bodies[0], strlen(bodies[0]), mutex_sha);
    n = multi_cmd(cmd, mutex_sha);
    CHECK_EQ(redlock__split_plan(&s, cmd, n, &sp), 0);
    CHECK(sp == NULL);
}

/* A cluster's node address: the seed's credentials and TLS at another
 * host and port. */
TEST(cluster_node_address_keeps_credentials_and_tls)
{
    redlock__addr seed, node;
    char err[256];

    CHECK_EQ(redlock__addr_parse(&seed, "rediss-cluster://alice:pw@h:7000", err, sizeof err), 0);
    CHECK_EQ(redlock__addr_at(&node, &seed, "10.0.0.2", 7001), 0);
    CHECK_STREQ(node.host, "10.0.0.2");
    CHECK_EQ(node.port, 7001);
    CHECK_EQ(node.tls, 1);
    CHECK_STREQ(node.user, "alice");
    CHECK_STREQ(node.password, "pw");
    CHECK_EQ(node.db, -1);
    CHECK_EQ(node.cluster, 0);
    redlock__addr_free(&node);
    redlock__addr_free(&seed);
}
