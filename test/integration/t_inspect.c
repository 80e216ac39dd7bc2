/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_inspect.c -- redlock_inspect against real redis-servers: what every
 * master holds for each kind, the quorum's view (its holders and the
 * quorum-th largest time left), a master down, bad arguments, and that an
 * inspection changes no key and no ttl.
 */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

static redlock_inspection *inspect(redlock_client *c, const char *res, int want)
{
    redlock_inspection *in = NULL;
    int rc = redlock_inspect(c, res, strlen(res), &in);
    CHECK_MSG(rc == want, "inspect %s: %d (%s)", res, rc, in ? redlock_inspection_errstr(in) : "");
    CHECK(in != NULL);
    return in;
}

static redlock_inspect_node node_of(const redlock_inspection *in, size_t i)
{
    redlock_inspect_node n;
    CHECK_EQ(redlock_inspection_node(in, i, &n), 0);
    return n;
}

static redlock_inspect_holder holder_of(const redlock_inspection *in, size_t i, size_t j)
{
    redlock_inspect_holder h;
    CHECK_EQ(redlock_inspection_holder(in, i, j, &h), 0);
    return h;
}

/* Holder j of node i is the lock's value. */
static void check_holder_is(const redlock_inspection *in, size_t i, size_t j,
                            const redlock_lock *l)
{
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    redlock_inspect_holder h = holder_of(in, i, j);
    CHECK_EQ(h.len, vlen);
    CHECK(memcmp(h.value, v, vlen) == 0);
}

/* Does some holder of node i have the lock's value? */
static int holds_value(const redlock_inspection *in, size_t i, const redlock_lock *l)
{
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    redlock_inspect_node n = node_of(in, i);
    for (size_t j = 0; j < n.listed; j++) {
        redlock_inspect_holder h = holder_of(in, i, j);
        if (h.len == vlen && memcmp(h.value, v, vlen) == 0)
            return 1;
    }
    return 0;
}

/* Every master and the quorum report `kind`, `holders` holders, a time
 * left in (0, ttl]. */
static void check_all(const redlock_inspection *in, size_t n, int kind, size_t holders,
                      int64_t ttl)
{
    for (size_t i = 0; i < n; i++) {
        redlock_inspect_node v = node_of(in, i);
        CHECK_EQ(v.result, REDLOCK_VOTE_OK);
        CHECK_EQ(v.kind, kind);
        CHECK_EQ(v.holders, holders);
        CHECK_EQ(v.listed, holders);
        CHECK_GT(v.ttl_ms, 0);
        CHECK_LE(v.ttl_ms, ttl);
        CHECK_GE(v.rtt_us, 0);
    }
    redlock_inspect_node q = node_of(in, REDLOCK_INSPECT_QUORUM);
    CHECK_EQ(q.result, REDLOCK_VOTE_OK);
    CHECK_EQ(q.kind, kind);
    CHECK_EQ(q.holders, holders);
    CHECK_GT(q.ttl_ms, 0);
    CHECK_LE(q.ttl_ms, ttl);
}

/* Poll until `cmd key` answers `want` on each of s's first n servers (a
 * write decided at the quorum reaches the last master a moment later). */
static void wait_int(rlt_servers *s, int n, const char *cmd, const char *key, long long want)
{
    for (int i = 0; i < n; i++) {
        long long got = -1;
        for (int tries = 0; tries < 400; tries++) {
            redisReply *r = rlt_servers_command(s, i, "%s %s", cmd, key);
            got = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
            if (r)
                freeReplyObject(r);
            if (got == want)
                break;
            it_sleep_ms(5);
        }
        CHECK_MSG(got == want, "%s %s on %d: %lld, not %lld", cmd, key, i, got, want);
    }
}

/* Every key on server i with its value (DUMP) and its absolute expiry
 * (PEXPIRETIME), in one string: equal before and after means untouched. */
static void snapshot(rlt_servers *s, int i, char *out, size_t size)
{
    redisReply *keys = rlt_servers_command(s, i, "KEYS *");
    size_t used = 0;
    CHECK(keys != NULL && keys->type == REDIS_REPLY_ARRAY);
    out[0] = '\0';
    for (size_t k = 0; k < keys->elements; k++) {
        const redisReply *key = keys->element[k];
        redisReply *d = rlt_servers_command(s, i, "DUMP %b", key->str, key->len);
        redisReply *e = rlt_servers_command(s, i, "PEXPIRETIME %b", key->str, key->len);
        CHECK(d && d->type == REDIS_REPLY_STRING && e && e->type == REDIS_REPLY_INTEGER);
        int w = snprintf(out + used, size - used, "%s=%lld:", key->str, e->integer);
        CHECK(w > 0 && (size_t)w < size - used);
        used += (size_t)w;
        for (size_t b = 0; b < d->len && used + 3 < size; b++)
            used += (size_t)snprintf(out + used, size - used, "%02x", (unsigned char)d->str[b]);
        CHECK_LT(used + 3, size);
        out[used++] = ';';
        out[used] = '\0';
        freeReplyObject(d);
        freeReplyObject(e);
    }
    freeReplyObject(keys);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The snapshot's entries in order (KEYS gives none). */
static void sorted_snapshot(rlt_servers *s, int i, char *out, size_t size)
{
    char *raw = malloc(size), *part[256], *save = NULL;
    size_t np = 0, used = 0;
    CHECK(raw != NULL);
    snapshot(s, i, raw, size);
    for (char *p = strtok_r(raw, ";", &save); p && np < 256; p = strtok_r(NULL, ";", &save))
        part[np++] = p;
    qsort(part, np, sizeof *part, cmp_str);
    out[0] = '\0';
    for (size_t k = 0; k < np; k++)
        used += (size_t)snprintf(out + used, size - used, "%s;", part[k]);
    free(raw);
}

/* Each kind held is reported right on every master and by the quorum,
 * and the inspections leave every key and ttl as it was. */
TEST(inspect_each_kind_on_every_master)
{
    struct it_fix f = {0};
    static char before[3][65536], after[3][65536];
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *mx = it_fix_lock(&f, f.c, "in-mutex"), *r1, *r2, *w, *re, *re2, *m;
    redlock_inspection *in;

    CHECK_RC(mx, redlock_acquire(mx, 20000), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "in-mutex", 8, mx, 3, 2000), 3);
    CHECK_EQ(redlock_lock_new_read(&r1, f.c, "in-rw", 5), 0);
    CHECK_EQ(redlock_lock_new_read(&r2, f.c, "in-rw", 5), 0);
    CHECK_RC(r1, redlock_acquire(r1, 20000), 0);
    CHECK_RC(r2, redlock_acquire(r2, 15000), 0);
    CHECK_EQ(redlock_lock_new_write(&w, f.c, "in-w", 4), 0);
    CHECK_RC(w, redlock_acquire(w, 20000), 0);
    CHECK_EQ(redlock_lock_new_reentrant(&re, f.c, "in-re", 5, "alice", 5), 0);
    CHECK_EQ(redlock_lock_new_reentrant(&re2, f.c, "in-re", 5, "alice", 5), 0);
    CHECK_RC(re, redlock_acquire(re, 20000), 0);
    CHECK_RC(re, redlock_acquire(re, 20000), 0);     /* a second hold */
    CHECK_RC(re2, redlock_acquire(re2, 20000), 0);   /* a second handle */
    const void *mres[] = { "in-m1", "in-m2" };
    const size_t mlens[] = { 5, 5 };
    CHECK_EQ(redlock_lock_new_multi(&m, f.c, mres, mlens, 2), 0);
    CHECK_RC(m, redlock_acquire(m, 20000), 0);
    /* every master has every write before the snapshot */
    CHECK_EQ(it_wait_count(f.s, "in-m2", 5, 3, 2000), 3);
    wait_int(f.s, 3, "SCARD", "in-rw", 2);
    wait_int(f.s, 3, "EXISTS", "{in-re}:h", 1);   /* re's second hold */
    CHECK_EQ(it_wait_count(f.s, "in-w", 4, 3, 2000), 3);
    CHECK_EQ(it_wait_count(f.s, "in-re", 5, 3, 2000), 3);
    /* a join sent before its acquire was decided may still be on its
     * way: one round trip on every connection lets it land */
    redlock_inspection_free(inspect(f.c, "in-re", 0));
    for (int i = 0; i < 3; i++)
        sorted_snapshot(f.s, i, before[i], sizeof before[i]);

    in = inspect(f.c, "in-mutex", 0);
    check_all(in, 3, REDLOCK_HELD_MUTEX, 1, 20000);
    for (size_t i = 0; i < 3; i++)
        check_holder_is(in, i, 0, mx);
    check_holder_is(in, REDLOCK_INSPECT_QUORUM, 0, mx);
    CHECK_EQ(holder_of(in, REDLOCK_INSPECT_QUORUM, 0).masters, 3);
    CHECK(node_of(in, 0).owner == NULL);
    redlock_inspection_free(in);

    in = inspect(f.c, "in-rw", 0);
    check_all(in, 3, REDLOCK_HELD_READERS, 2, 20000);
    for (size_t i = 0; i < 3; i++) {
        CHECK(holds_value(in, i, r1) && holds_value(in, i, r2));
        CHECK_GT(node_of(in, i).ttl_ms, 15000);     /* the longer reader's */
        CHECK_EQ(node_of(in, i).writer_waiting, 0);
    }
    CHECK(holds_value(in, REDLOCK_INSPECT_QUORUM, r1));
    CHECK(holds_value(in, REDLOCK_INSPECT_QUORUM, r2));
    for (size_t j = 0; j < 2; j++) {     /* each reader's own time left */
        redlock_inspect_holder h = holder_of(in, REDLOCK_INSPECT_QUORUM, j);
        int second = memcmp(h.value, redlock_lock_value(r2, NULL), h.len) == 0;
        CHECK_LE(h.ttl_ms, second ? 15000 : 20000);
        CHECK_GT(h.ttl_ms, second ? 5000 : 15000);
    }
    redlock_inspection_free(in);

    in = inspect(f.c, "in-w", 0);
    check_all(in, 3, REDLOCK_HELD_MUTEX, 1, 20000);
    check_holder_is(in, REDLOCK_INSPECT_QUORUM, 0, w);
    redlock_inspection_free(in);

    /* re2 joined on a quorum; the last master's refusal of its SET may
     * come after the decision, and then it gets no join (docs/kinds.md) */
    in = inspect(f.c, "in-re", 0);
    CHECK_EQ(node_of(in, REDLOCK_INSPECT_QUORUM).holders, 2);
    for (size_t i = 0; i <= 3; i++) {
        size_t k = i == 3 ? REDLOCK_INSPECT_QUORUM : i;
        redlock_inspect_node v = node_of(in, k);
        CHECK_EQ(v.kind, REDLOCK_HELD_REENTRANT);
        CHECK_EQ(v.ownerlen, 5);
        CHECK(v.owner && memcmp(v.owner, "alice", 5) == 0);
        CHECK_GT(v.ttl_ms, 15000);
        CHECK_LE(v.ttl_ms, 20000);
        CHECK(holds_value(in, k, re));
        CHECK_EQ(v.holders, v.listed);
        CHECK_EQ(v.holders, (size_t)1 + (size_t)holds_value(in, k, re2));
        for (size_t j = 0; j < v.listed; j++) {
            redlock_inspect_holder h = holder_of(in, k, j);
            CHECK_EQ(h.holds, memcmp(h.value, redlock_lock_value(re, NULL), h.len) == 0 ? 2 : 1);
        }
    }
    redlock_inspection_free(in);

    in = inspect(f.c, "in-m2", 0);
    check_all(in, 3, REDLOCK_HELD_MUTEX, 1, 20000);
    check_holder_is(in, REDLOCK_INSPECT_QUORUM, 0, m);
    redlock_inspection_free(in);

    for (int i = 0; i < 3; i++) {
        sorted_snapshot(f.s, i, after[i], sizeof after[i]);
        CHECK_MSG(strcmp(before[i], after[i]) == 0, "master %d changed:\n%s\n%s", i, before[i],
                  after[i]);
    }
    redlock_lock_free(r1);
    redlock_lock_free(r2);
    redlock_lock_free(w);
    redlock_lock_free(re);
    redlock_lock_free(re2);
    redlock_lock_free(m);
    it_fix_stop(&f);
}

/* A single hold of a re-entrant handle is "P=<value>": one holder, the
 * owner parsed out of it (binary owner included). */
TEST(inspect_reentrant_single_hold_and_a_writer_waiting)
{
    struct it_fix f = {0};
    redlock_lock *re;
    it_fix_start(&f, 3, NULL, 0);
    CHECK_EQ(redlock_lock_new_reentrant(&re, f.c, "in-re1", 6, "b\0b", 3), 0);
    CHECK_RC(re, redlock_acquire(re, 20000), 0);
    CHECK_EQ(it_wait_count(f.s, "in-re1", 6, 3, 2000), 3);
    redlock_inspection *in = inspect(f.c, "in-re1", 0);
    check_all(in, 3, REDLOCK_HELD_REENTRANT, 1, 20000);
    redlock_inspect_node q = node_of(in, REDLOCK_INSPECT_QUORUM);
    CHECK_EQ(q.ownerlen, 3);
    CHECK(memcmp(q.owner, "b\0b", 3) == 0);
    check_holder_is(in, REDLOCK_INSPECT_QUORUM, 0, re);
    redlock_inspection_free(in);
    CHECK_RC(re, redlock_release(re), 0);
    redlock_lock_free(re);

    /* a writer's mark next to readers: turned-away readers are told */
    redlock_lock *r;
    CHECK_EQ(redlock_lock_new_read(&r, f.c, "in-rd", 5), 0);
    CHECK_RC(r, redlock_acquire(r, 20000), 0);
    it_cmd_on(f.s, 0, 2, REDIS_REPLY_INTEGER, "HSET {in-rd}:ww w someone");
    in = inspect(f.c, "in-rd", 0);
    CHECK_EQ(node_of(in, 0).writer_waiting, 1);
    CHECK_EQ(node_of(in, 1).writer_waiting, 1);
    CHECK_EQ(node_of(in, 2).writer_waiting, 0);
    CHECK_EQ(node_of(in, REDLOCK_INSPECT_QUORUM).writer_waiting, 1);
    CHECK_EQ(node_of(in, REDLOCK_INSPECT_QUORUM).kind, REDLOCK_HELD_READERS);
    redlock_inspection_free(in);
    redlock_lock_free(r);
    it_fix_stop(&f);
}

/* Nothing held: every master and the quorum say none; a key that is no
 * lock's (no ttl, another type) is "other". */
TEST(inspect_nothing_held_and_keys_that_are_no_locks)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_inspection *in = inspect(f.c, "in-free", 0);
    CHECK_EQ(redlock_inspection_nodes(in), 3);
    CHECK_STREQ(redlock_inspection_errstr(in), "");
    for (size_t i = 0; i <= 3; i++) {
        redlock_inspect_node v = node_of(in, i == 3 ? REDLOCK_INSPECT_QUORUM : i);
        CHECK_EQ(v.result, REDLOCK_VOTE_OK);
        CHECK_EQ(v.kind, REDLOCK_HELD_NONE);
        CHECK_EQ(v.holders, 0);
        CHECK_EQ(v.ttl_ms, 0);
    }
    redlock_inspect_holder h;
    CHECK_EQ(redlock_inspection_holder(in, 0, 0, &h), REDLOCK_EINVAL);
    redlock_inspection_free(in);
    /* no vote of the node stats counts it */
    redlock_node_stats before, after;
    CHECK_EQ(redlock_client_node_stats(f.c, 0, &before), 0);
    redlock_inspection_free(inspect(f.c, "in-free", 0));
    CHECK_EQ(redlock_client_node_stats(f.c, 0, &after), 0);
    CHECK_EQ(after.oks, before.oks);
    CHECK_EQ(after.errors + after.refused + after.timeouts + after.unreachable,
             before.errors + before.refused + before.timeouts + before.unreachable);

    it_cmd_on(f.s, 0, 3, REDIS_REPLY_STATUS, "SET in-plain v");
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_INTEGER, "RPUSH in-list v");
    in = inspect(f.c, "in-plain", 0);
    CHECK_EQ(node_of(in, 1).kind, REDLOCK_HELD_OTHER);
    CHECK_EQ(node_of(in, 1).ttl_ms, -1);
    CHECK_EQ(node_of(in, REDLOCK_INSPECT_QUORUM).kind, REDLOCK_HELD_OTHER);
    CHECK_EQ(node_of(in, REDLOCK_INSPECT_QUORUM).holders, 0);
    redlock_inspection_free(in);
    in = inspect(f.c, "in-list", 0);
    CHECK_EQ(node_of(in, 2).kind, REDLOCK_HELD_OTHER);
    CHECK_STREQ(redlock_held_name(node_of(in, 2).kind), "other");
    redlock_inspection_free(in);
    it_fix_stop(&f);
}

/* A master down: its result says so, the quorum's view is still right;
 * with two of three down no quorum answered: ECONNECT, and why. */
TEST(inspect_master_down)
{
    struct it_fix f = {.key = "in-down"};
    it_fix_start(&f, 3, NULL, 0);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 20000), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "in-down", 7, f.lock, 3, 2000), 3);
    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);

    redlock_inspection *in = inspect(f.c, "in-down", 0);
    redlock_inspect_node v = node_of(in, 1);
    CHECK_EQ(v.result, REDLOCK_VOTE_DOWN);
    CHECK(v.detail[0] != '\0');
    CHECK_EQ(v.rtt_us, -1);
    CHECK_EQ(v.kind, REDLOCK_HELD_NONE);
    CHECK_EQ(node_of(in, 0).kind, REDLOCK_HELD_MUTEX);
    redlock_inspect_node q = node_of(in, REDLOCK_INSPECT_QUORUM);
    CHECK_EQ(q.result, REDLOCK_VOTE_OK);
    CHECK_EQ(q.kind, REDLOCK_HELD_MUTEX);
    CHECK_EQ(q.holders, 1);
    check_holder_is(in, REDLOCK_INSPECT_QUORUM, 0, f.lock);
    CHECK_EQ(holder_of(in, REDLOCK_INSPECT_QUORUM, 0).masters, 2);
    CHECK_GT(q.ttl_ms, 0);
    redlock_inspection_free(in);

    CHECK_EQ(rlt_servers_kill(f.s, 2), 0);
    in = inspect(f.c, "in-down", REDLOCK_ECONNECT);
    CHECK(it_has(redlock_inspection_errstr(in), "1 of 3 masters answered, quorum 2"));
    CHECK_EQ(node_of(in, 2).result, REDLOCK_VOTE_DOWN);
    q = node_of(in, REDLOCK_INSPECT_QUORUM);
    CHECK_EQ(q.result, REDLOCK_VOTE_NONE);
    CHECK_EQ(q.kind, REDLOCK_HELD_NONE);
    CHECK_EQ(q.holders, 0);
    redlock_inspection_free(in);
    it_fix_stop(&f);
}

/* The quorum's time left is the quorum-th largest of the masters' (5
 * masters, quorum 3: the third), and only a value a quorum holds is the
 * quorum's holder. */
TEST(inspect_quorum_ttl_is_the_quorum_th_largest)
{
    struct it_fix f = {0};
    char cmd[64];
    it_fix_start(&f, 5, NULL, 0);
    for (int i = 0; i < 5; i++) {
        it_set(f.s, i, "in-q", "v1");
        snprintf(cmd, sizeof cmd, "PEXPIRE in-q %d", (i + 1) * 100000);
        it_cmd_on(f.s, i, i + 1, REDIS_REPLY_INTEGER, cmd);
    }
    redlock_inspection *in = inspect(f.c, "in-q", 0);
    redlock_inspect_node q = node_of(in, REDLOCK_INSPECT_QUORUM);
    CHECK_EQ(q.kind, REDLOCK_HELD_MUTEX);
    CHECK_GT(q.ttl_ms, 290000);       /* the third largest, 300000 */
    CHECK_LE(q.ttl_ms, 300000);
    CHECK_EQ(holder_of(in, REDLOCK_INSPECT_QUORUM, 0).masters, 5);
    CHECK_GT(node_of(in, 4).ttl_ms, 490000);
    redlock_inspection_free(in);

    /* split: v1 on masters 0, 1; v2 on 2, 3, 4: the quorum holds v2 */
    for (int i = 2; i < 5; i++) {
        it_set(f.s, i, "in-q", "v2");
        it_cmd_on(f.s, i, i + 1, REDIS_REPLY_INTEGER, "PEXPIRE in-q 50000");
    }
    in = inspect(f.c, "in-q", 0);
    q = node_of(in, REDLOCK_INSPECT_QUORUM);
    CHECK_EQ(q.holders, 1);
    redlock_inspect_holder h = holder_of(in, REDLOCK_INSPECT_QUORUM, 0);
    CHECK_EQ(h.len, 2);
    CHECK(memcmp(h.value, "v2", 2) == 0);
    CHECK_EQ(h.masters, 3);
    CHECK_LE(q.ttl_ms, 50000);        /* not v1's 200000 */
    CHECK_GT(q.ttl_ms, 40000);
    redlock_inspection_free(in);

    /* v2 on two masters only: no holder has a quorum */
    it_del(f.s, 4, "in-q");
    in = inspect(f.c, "in-q", 0);
    q = node_of(in, REDLOCK_INSPECT_QUORUM);
    CHECK_EQ(q.kind, REDLOCK_HELD_MUTEX);
    CHECK_EQ(q.holders, 0);
    CHECK_EQ(q.ttl_ms, 0);
    redlock_inspection_free(in);
    it_fix_stop(&f);
}

/* Many readers: all counted, 200 listed; a value is listed whole up to
 * 4096 bytes. */
TEST(inspect_many_readers_listed_up_to_the_limit)
{
    struct it_fix f = {0};
    char cmd[96];
    it_fix_start(&f, 3, NULL, 0);
    for (int r = 0; r < 250; r++) {
        snprintf(cmd, sizeof cmd, "SET {in-many}:rd:id%03d 1 PX 60000", r);
        it_cmd_on(f.s, 0, 3, REDIS_REPLY_STATUS, cmd);
        snprintf(cmd, sizeof cmd, "SADD in-many id%03d", r);
        it_cmd_on(f.s, 0, 3, REDIS_REPLY_INTEGER, cmd);
    }
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_INTEGER, "SADD in-many gone");   /* an expired reader */
    redlock_inspection *in = inspect(f.c, "in-many", 0);
    redlock_inspect_node v = node_of(in, 0);
    CHECK_EQ(v.kind, REDLOCK_HELD_READERS);
    CHECK_EQ(v.holders, 250);
    CHECK_EQ(v.listed, 200);
    CHECK_EQ(holder_of(in, 0, 199).len, 5);
    CHECK_EQ(node_of(in, REDLOCK_INSPECT_QUORUM).holders, 200);
    redlock_inspection_free(in);

    /* only expired readers' ids left: readers, none holding */
    it_cmd_on(f.s, 0, 3, REDIS_REPLY_INTEGER, "SADD in-gone x1");
    in = inspect(f.c, "in-gone", 0);
    v = node_of(in, REDLOCK_INSPECT_QUORUM);
    CHECK_EQ(v.kind, REDLOCK_HELD_READERS);
    CHECK_EQ(v.holders, 0);
    CHECK_EQ(v.ttl_ms, 0);
    CHECK_STREQ(redlock_held_name(v.kind), "readers");
    redlock_inspection_free(in);

    char *big = malloc(5001), *set = malloc(5100);
    CHECK(big && set);
    memset(big, 'x', 5000);
    big[5000] = '\0';
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "SET in-big %s PX 60000", big);
        CHECK(r != NULL);
        freeReplyObject(r);
    }
    in = inspect(f.c, "in-big", 0);
    CHECK_EQ(holder_of(in, 1, 0).len, 4096);
    redlock_inspection_free(in);
    free(big);
    free(set);
    it_fix_stop(&f);
}

/* Bad arguments: a code and a message, nothing sent. */
TEST(inspect_bad_arguments)
{
    struct it_fix f = {0};
    redlock_inspection *in = (redlock_inspection *)&f;
    it_fix_start(&f, 3, NULL, 0);
    CHECK_EQ(redlock_inspect(NULL, "x", 1, &in), REDLOCK_EINVAL);
    CHECK(in == NULL);
    CHECK_EQ(redlock_inspect(f.c, NULL, 1, &in), REDLOCK_EINVAL);
    CHECK(it_has(redlock_client_errstr(f.c), "inspect: the resource is NULL or empty"));
    redlock_client_errstr(f.c);
    CHECK_EQ(redlock_inspect(f.c, "x", 0, &in), REDLOCK_EINVAL);
    CHECK(it_has(redlock_client_errstr(f.c), "NULL or empty"));
    CHECK_EQ(redlock_inspect(f.c, "{x", 2, &in), REDLOCK_EINVAL);
    CHECK(it_has(redlock_client_errstr(f.c), "starts with '{' or contains '}'"));
    CHECK_EQ(redlock_inspect(f.c, "a}b", 3, &in), REDLOCK_EINVAL);
    CHECK_EQ(redlock_inspect(f.c, "x", 1, NULL), REDLOCK_EINVAL);
    CHECK(it_has(redlock_client_errstr(f.c), "out is NULL"));
    CHECK_EQ(redlock_inspect_async(f.c, "x", 1, NULL, NULL), REDLOCK_EINVAL);
    CHECK(it_has(redlock_client_errstr(f.c), "callback is NULL"));
    redlock_inspect_node n;
    CHECK_EQ(redlock_inspection_node(NULL, 0, &n), REDLOCK_EINVAL);
    in = inspect(f.c, "x", 0);
    CHECK_EQ(redlock_inspection_node(in, 3, &n), REDLOCK_EINVAL);
    redlock_inspection_free(in);
    redlock_inspection_free(NULL);
    it_fix_stop(&f);
}

struct async_seen {
    struct event_base *base;
    int calls, status, inside;
    redlock_inspection *in;
};

static void async_cb(redlock_client *c, redlock_inspection *in, int status, void *privdata)
{
    struct async_seen *a = privdata;
    (void)c;
    CHECK_EQ(a->inside, 0);
    a->calls++;
    a->status = status;
    a->in = in;
    event_base_loopbreak(a->base);
}

/* The asynchronous form: the callback once, on the loop, never inside the
 * call; freeing the client first cancels it. */
TEST(inspect_async_callback_contract)
{
    struct it_fix f = {.key = "in-async"};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    struct it_op op = { f.base, 0, 0, 0, 0, 0 };
    CHECK_EQ(redlock_acquire_async(f.lock, 20000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_EQ(op.status, 0);

    struct async_seen a = { f.base, 0, 0, 1, NULL };
    CHECK_EQ(redlock_inspect_async(f.c, "in-async", 8, async_cb, &a), 0);
    a.inside = 0;
    CHECK_EQ(a.calls, 0);
    it_run_until(f.base, &a.calls, 5000);
    CHECK_EQ(a.calls, 1);
    CHECK_EQ(a.status, 0);
    check_holder_is(a.in, REDLOCK_INSPECT_QUORUM, 0, f.lock);
    redlock_inspection_free(a.in);

    /* the blocking form needs a client without an event base */
    redlock_inspection *none = NULL;
    CHECK_EQ(redlock_inspect(f.c, "in-async", 8, &none), REDLOCK_EINVAL);
    CHECK(none == NULL);
    CHECK(it_has(redlock_client_errstr(f.c), "without an event base"));

    a.calls = 0;
    CHECK_EQ(redlock_inspect_async(f.c, "in-async", 8, async_cb, &a), 0);
    redlock_lock_free(f.lock);
    f.lock = NULL;
    redlock_client_free(f.c);
    f.c = NULL;
    CHECK_EQ(a.calls, 1);
    CHECK_EQ(a.status, REDLOCK_ECANCELED);
    redlock_inspection_free(a.in);
    it_fix_stop(&f);
}

/* Masters that do not answer in time, or answer errors: no quorum of
 * answers, the status says which, each node's result why. */
TEST(inspect_timeouts_and_errors)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    it_cmd_on(f.s, 0, 2, REDIS_REPLY_STATUS, "ACL SETUSER default -evalsha -eval");
    redlock_inspection *in = inspect(f.c, "in-err", REDLOCK_ESERVER);
    CHECK_EQ(node_of(in, 0).result, REDLOCK_VOTE_ERROR);
    CHECK(it_has(node_of(in, 1).detail, "NOPERM"));
    CHECK_EQ(node_of(in, 2).result, REDLOCK_VOTE_OK);
    CHECK(it_has(redlock_inspection_errstr(in), "1 of 3 masters answered"));
    redlock_inspection_free(in);
    it_cmd_on(f.s, 0, 2, REDIS_REPLY_STATUS, "ACL SETUSER default +@all");

    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    in = inspect(f.c, "in-err", REDLOCK_ETIMEDOUT);
    CHECK_EQ(node_of(in, 0).result, REDLOCK_VOTE_OK);
    CHECK_EQ(node_of(in, 1).result, REDLOCK_VOTE_TIMEOUT);
    CHECK_EQ(node_of(in, 2).result, REDLOCK_VOTE_TIMEOUT);
    CHECK(it_has(redlock_inspection_errstr(in), "timed out"));
    redlock_inspection_free(in);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    it_fix_stop(&f);
}

/* A blocking client whose loop runs on its own thread: the blocking form
 * waits for that thread to deliver the inspection. */
TEST(inspect_on_a_loop_thread_client)
{
    struct it_fix f = {.key = "in-th"};
    redlock_options o;
    it_opts(&o);
    o.loop_thread = 1;
    it_fix_start(&f, 3, &o, 0);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 20000), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "in-th", 5, f.lock, 3, 2000), 3);
    redlock_inspection *in = inspect(f.c, "in-th", 0);
    check_all(in, 3, REDLOCK_HELD_MUTEX, 1, 20000);
    check_holder_is(in, REDLOCK_INSPECT_QUORUM, 0, f.lock);
    redlock_inspection_free(in);
    it_fix_stop(&f);
}

/* One server under two addresses is one master: its second node's answer
 * is not counted (REDLOCK_VOTE_UNCOUNTED), so with the third master dead
 * no quorum answered, however alike the two look. */
TEST(inspect_one_server_under_two_addresses_counts_once)
{
    struct it_fix f = {0};
    char buf[3][32];
    const char *addrs[3];
    redlock_lock *l;
    it_fix_start(&f, 2, NULL, IT_NOCLIENT);
    snprintf(buf[0], 32, "127.0.0.1:%d", rlt_servers_port(f.s, 0));
    snprintf(buf[1], 32, "localhost:%d", rlt_servers_port(f.s, 0));
    snprintf(buf[2], 32, "127.0.0.1:%d", rlt_servers_port(f.s, 1));
    for (int i = 0; i < 3; i++)
        addrs[i] = buf[i];
    f.c = it_client_addrs(addrs, 3, NULL, 3);
    CHECK_EQ(redlock_lock_new(&l, f.c, "in-twin", 7), 0);
    CHECK_RC(l, redlock_acquire(l, 20000), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "in-twin", 7, l, 2, 2000), 2);

    redlock_inspection *in = inspect(f.c, "in-twin", 0);
    redlock_inspect_node v = node_of(in, 1);
    CHECK_EQ(v.result, REDLOCK_VOTE_UNCOUNTED);
    CHECK_MSG(it_has(v.detail, "node 0"), "node 1: %s", v.detail);
    CHECK_EQ(holder_of(in, REDLOCK_INSPECT_QUORUM, 0).masters, 2);
    redlock_inspection_free(in);

    CHECK_EQ(rlt_servers_kill(f.s, 1), 0);
    in = inspect(f.c, "in-twin", REDLOCK_ECONNECT);
    CHECK_EQ(node_of(in, 0).result, REDLOCK_VOTE_OK);
    CHECK_EQ(node_of(in, 1).result, REDLOCK_VOTE_UNCOUNTED);
    CHECK_EQ(node_of(in, 2).result, REDLOCK_VOTE_DOWN);
    CHECK_EQ(node_of(in, REDLOCK_INSPECT_QUORUM).kind, REDLOCK_HELD_NONE);
    redlock_inspection_free(in);
    redlock_lock_free(l);
    it_fix_stop(&f);
}
