/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_reentrant.c -- the re-entrant lock against real redis-servers: holds
 * that nest, the key on every master (one absolute count per handle),
 * another owner refused until the last release, one owner over several
 * clients, counts repaired after a master missed an operation, a failed
 * re-acquire undone without ending the hold, ttls that only grow, the
 * watchdog, fencing tokens, bad input, the asynchronous calls, and
 * examples/reentrant.
 */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

/* A handle of the re-entrant kind; freed by it_fix_stop. */
static redlock_lock *re_lock(struct it_fix *f, redlock_client *c, const char *res,
                             const char *owner)
{
    redlock_lock *l = NULL;
    CHECK_LT(f->nlocks, IT_FIX_MAX);
    CHECK_EQ(redlock_lock_new_reentrant(&l, c, res, strlen(res), owner,
                                        owner ? strlen(owner) : 0), 0);
    CHECK(l != NULL);
    CHECK_EQ(redlock_lock_kind(l), REDLOCK_KIND_REENTRANT);
    f->locks[f->nlocks++] = l;
    return l;
}

/* f on 3 masters with a second client; a on f.c (owner oa), b on the
 * second client (owner ob). */
static void two_clients(struct it_fix *f, const char *key, const char *oa, const char *ob,
                        redlock_lock **a, redlock_lock **b)
{
    it_fix_start(f, 3, NULL, 0);
    redlock_client *c2 = it_fix_client(f, NULL);
    *a = re_lock(f, f->c, key, oa);
    *b = re_lock(f, c2, key, ob);
}

/* Server i's value of key (malloc'd, *len bytes; NULL when absent). */
static char *get_on(rlt_servers *s, int i, const char *key, size_t *len)
{
    redisReply *r = rlt_servers_command(s, i, "GET %s", key);
    char *v = NULL;
    CHECK(r != NULL);
    if (r->type == REDIS_REPLY_STRING) {
        CHECK((v = malloc(r->len + 1)) != NULL);
        memcpy(v, r->str, r->len + 1);
        *len = r->len;
    } else {
        CHECK_EQ(r->type, REDIS_REPLY_NIL);
    }
    freeReplyObject(r);
    return v;
}

/* The length of the owner prefix "<len>:<owner>" of a key's value. */
static size_t prefix_len(const char *v, size_t len)
{
    char *end;
    size_t n = (size_t)strtoul(v, &end, 10);
    CHECK(end < v + len && *end == ':' && (size_t)(end + 1 - v) + n <= len);
    return (size_t)(end + 1 - v) + n;
}

/* Server i's owner of key, "" when absent. */
static void owner_on(rlt_servers *s, int i, const char *key, char *out, size_t size)
{
    size_t len = 0;
    char *v = get_on(s, i, key, &len);
    out[0] = '\0';
    if (v) {
        size_t p = prefix_len(v, len), o = (size_t)(strchr(v, ':') + 1 - v);
        snprintf(out, size, "%.*s", (int)(p - o), v + o);
    }
    free(v);
}

/* The handle's count on server i: 1 where the key is the handle's fast
 * form ("<len>:<owner>=<value>"), its entry in {<key>}:h where the key is
 * the owner alone, -1 when absent. */
static long long count_on(rlt_servers *s, int i, const char *key, const redlock_lock *l)
{
    size_t len = 0, vlen = 0, p;
    const char *val = redlock_lock_value(l, &vlen);
    char *v = get_on(s, i, key, &len);
    long long n = -1;
    if (!v)
        return -1;
    p = prefix_len(v, len);
    if (len == p + 1 + vlen && v[p] == '=' && memcmp(v + p + 1, val, vlen) == 0) {
        n = 1;
    } else if (len == p) {
        redisReply *r = rlt_servers_command(s, i, "HGET {%s}:h %b", key, val, vlen);
        CHECK(r != NULL);
        if (r->type == REDIS_REPLY_STRING)
            n = atoll(r->str);
        else
            CHECK_EQ(r->type, REDIS_REPLY_NIL);
        freeReplyObject(r);
    }
    free(v);
    return n;
}

/* key's hash of counts (<key>:h) on how many of the first n servers. */
static int hash_count(rlt_servers *s, int n, const char *key)
{
    char h[64];
    int k = 0;
    snprintf(h, sizeof h, "{%s}:h", key);
    for (int i = 0; i < n; i++)
        k += rlt_servers_exists(s, i, h, strlen(h)) == 1;
    return k;
}

/* On how many of the first n servers the handle's count is `want`. */
static int count_agrees(rlt_servers *s, int n, const char *key, const redlock_lock *l,
                        long long want)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        k += count_on(s, i, key, l) == want;
    return k;
}

/* Poll until every one of the first n servers has the handle's count at
 * `want` (requests may still be in flight), within timeout_ms. */
static int wait_agree(rlt_servers *s, int n, const char *key, const redlock_lock *l,
                      long long want, int64_t timeout_ms)
{
    int64_t deadline = check_now_ms() + timeout_ms;
    int k;
    while ((k = count_agrees(s, n, key, l, want)) < n && check_now_ms() < deadline)
        it_sleep_ms(5);
    return k;
}

/* A handle on f's 3 masters holding the lock twice (ttl_ms), with count 2
 * on every master. */
static redlock_lock *held_twice(struct it_fix *f, const char *key, const char *owner,
                                int64_t ttl_ms)
{
    redlock_lock *l = re_lock(f, f->c, key, owner);
    CHECK_RC(l, redlock_acquire(l, ttl_ms), 0);
    CHECK_RC(l, redlock_acquire(l, ttl_ms), 0);
    CHECK_EQ(wait_agree(f->s, 3, key, l, 2, 2000), 3);
    return l;
}

/* Release every hold left; then the key and its counts are gone from
 * every master. */
static void release_all(struct it_fix *f, redlock_lock *l, const char *key)
{
    while (redlock_lock_holds(l) > 0)
        CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_count_key(f->s, key, strlen(key)), 0);
    CHECK_EQ(hash_count(f->s, 3, key), 0);
}

/* The key's smallest PTTL over the first n masters. */
static long long min_pttl(rlt_servers *s, int n, const char *key)
{
    long long m = -1;
    for (int i = 0; i < n; i++) {
        long long t = it_pttl(s, i, key, strlen(key));
        if (i == 0 || t < m)
            m = t;
    }
    return m;
}

static void command_ok(rlt_servers *s, int i, const char *fmt, const char *a, const char *b,
                       const char *c)
{
    redisReply *r = rlt_servers_command(s, i, fmt, a, b, c);
    CHECK(r != NULL && r->type != REDIS_REPLY_ERROR);
    freeReplyObject(r);
}

TEST(reentrant_nested_holds_refuse_another_owner_until_the_last_release)
{
    static const char key[] = "re-nest";
    struct it_fix f = {0};
    redlock_lock *a, *b;
    two_clients(&f, key, "alice", "bob", &a, &b);

    CHECK_EQ(redlock_lock_holds(a), 0);
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    CHECK_EQ(redlock_lock_holds(a), 1);
    size_t vlen;
    char first[64];
    snprintf(first, sizeof first, "%s", redlock_lock_value(a, &vlen));
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    CHECK_EQ(redlock_lock_holds(a), 2);
    CHECK_EQ(strcmp(redlock_lock_value(a, &vlen), first), 0);   /* the same hold */
    CHECK_EQ(wait_agree(f.s, 3, key, a, 2, 2000), 3);
    char who[64];
    owner_on(f.s, 1, key, who, sizeof who);
    CHECK_EQ(strcmp(who, "alice"), 0);

    /* another owner: refused, and told by whom */
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(b), "held by another owner 'alice'"));
    CHECK_GE(it_refusals(b, 3, "another owner 'alice'", 0), 2);
    CHECK_EQ(redlock_lock_holds(b), 0);

    /* one release: still held, one hold left on every master */
    CHECK_RC(a, redlock_release(a), 0);
    CHECK_EQ(redlock_lock_holds(a), 1);
    CHECK_GT(redlock_lock_validity(a), 5000);
    CHECK_EQ(wait_agree(f.s, 3, key, a, 1, 2000), 3);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);

    /* the last release frees it on every master */
    CHECK_RC(a, redlock_release(a), 0);
    CHECK_EQ(redlock_lock_holds(a), 0);
    CHECK_EQ(redlock_lock_validity(a), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, key, sizeof key - 1), 0);
    CHECK_RC(b, redlock_try_acquire(b, 10000), 0);
    CHECK_EQ(redlock_lock_holds(b), 1);
    CHECK_RC(a, redlock_try_acquire(a, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(a), "another owner 'bob'"));
    CHECK_RC(b, redlock_release(b), 0);
    it_fix_stop(&f);
}

/* Handles made with one owner id are one owner, in any client: both hold
 * at the same time, each with its own count; the key goes with the last. */
TEST(reentrant_one_owner_in_two_clients)
{
    static const char key[] = "re-shared";
    struct it_fix f = {0};
    redlock_lock *a, *a2;
    two_clients(&f, key, "worker-pool", "worker-pool", &a, &a2);
    redlock_lock *other = re_lock(&f, f.c, key, NULL);   /* its own owner */

    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    /* (a2's SET on another connection could pass a's last one: a's SET,
     * refused after its acquire was decided, would not join) */
    CHECK_EQ(wait_agree(f.s, 3, key, a, 1, 2000), 3);
    CHECK_RC(a2, redlock_acquire(a2, 10000), 0);
    CHECK_RC(a2, redlock_acquire(a2, 10000), 0);
    CHECK_EQ(redlock_lock_holds(a), 1);
    CHECK_EQ(redlock_lock_holds(a2), 2);
    CHECK_EQ(wait_agree(f.s, 3, key, a, 1, 2000), 3);
    CHECK_EQ(wait_agree(f.s, 3, key, a2, 2, 2000), 3);
    CHECK_RC(other, redlock_try_acquire(other, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(other), "another owner 'worker-pool'"));

    CHECK_RC(a, redlock_release(a), 0);
    CHECK_EQ(count_agrees(f.s, 3, key, a, -1), 3);  /* a's count gone */
    CHECK_EQ(rlt_servers_count_key(f.s, key, sizeof key - 1), 3);
    CHECK_RC(other, redlock_try_acquire(other, 10000), REDLOCK_ENOQUORUM);
    CHECK_RC(a2, redlock_release(a2), 0);
    CHECK_RC(a2, redlock_release(a2), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, key, sizeof key - 1), 0);
    CHECK_RC(other, redlock_try_acquire(other, 10000), 0);
    CHECK_RC(other, redlock_release(other), 0);
    it_fix_stop(&f);
}

/* A master whose count is wrong (it missed an operation) agrees again
 * after the next operation that reaches it: counts are absolute. */
TEST(reentrant_counts_repaired_by_the_next_operation)
{
    static const char key[] = "re-repair";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = held_twice(&f, key, "fixer", 10000);
    size_t vlen;
    const char *value = redlock_lock_value(l, &vlen);

    command_ok(f.s, 0, "HSET {%s}:h %s %s", key, value, "7");
    command_ok(f.s, 1, "HDEL {%s}:h %s%s", key, value, "");
    CHECK_EQ(count_agrees(f.s, 3, key, l, 2), 1);
    CHECK_RC(l, redlock_extend(l, 10000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, l, 2, 2000), 3);

    /* a master that lost the key altogether: the re-acquire puts it back */
    command_ok(f.s, 2, "DEL %s%s%s", key, "", "");
    command_ok(f.s, 2, "HSET {%s}:h %s %s", key, "ghost", "5");    /* stale counts */
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_EQ(redlock_lock_holds(l), 3);
    CHECK_EQ(wait_agree(f.s, 3, key, l, 3, 2000), 3);
    CHECK_GT(it_pttl(f.s, 2, key, sizeof key - 1), 5000);
    redisReply *r = rlt_servers_command(f.s, 2, "HGET {%s}:h ghost", key);
    CHECK(r != NULL && r->type == REDIS_REPLY_NIL);     /* rewritten, not read */
    freeReplyObject(r);

    /* a master that missed the partial release: the next one repairs */
    command_ok(f.s, 1, "HSET {%s}:h %s %s", key, value, "9");
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, l, 2, 2000), 3);
    release_all(&f, l, key);
    it_fix_stop(&f);
}

/* A re-acquire that loses (a majority paused) leaves the hold as it was;
 * the masters it reached get their count put back by the undo. */
TEST(reentrant_failed_reacquire_keeps_the_hold)
{
    static const char key[] = "re-lost";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = held_twice(&f, key, NULL, 10000);
    int64_t token_before = redlock_lock_token(l);

    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    int rc = redlock_try_acquire(l, 10000);
    CHECK(rc == REDLOCK_ETIMEDOUT || rc == REDLOCK_ENOQUORUM);
    CHECK_EQ(redlock_lock_holds(l), 2);
    CHECK_GT(redlock_lock_validity(l), 5000);
    CHECK_EQ(redlock_lock_token(l), token_before);
    /* master 0 ran the acquire (3), then its undo (2) */
    CHECK_GE(it_calls(f.s, 0, "eval"), 1);
    CHECK_EQ(wait_agree(f.s, 1, key, l, 2, 2000), 1);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    /* the paused ones run the acquire late, then the undo behind it */
    CHECK_EQ(wait_agree(f.s, 3, key, l, 2, 3000), 3);
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 5000), 0);

    /* the hold goes on: two releases end it */
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(redlock_lock_holds(l), 1);
    release_all(&f, l, key);
    it_fix_stop(&f);
}

/* Extend keeps the count, and neither it nor a re-acquire ever shortens
 * the key's ttl on a master; the client's validity follows the shorter. */
TEST(reentrant_extend_keeps_the_count_and_ttls_only_grow)
{
    static const char key[] = "re-ttl";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = re_lock(&f, f.c, key, "grower");
    CHECK_RC(l, redlock_acquire(l, 30000), 0);
    CHECK_RC(l, redlock_acquire(l, 2000), 0);   /* shorter: the key keeps ~30 s */
    CHECK_GT(redlock_lock_validity(l), 20000);  /* the later end is kept */
    CHECK_GT(min_pttl(f.s, 3, key), 20000);
    CHECK_RC(l, redlock_extend(l, 2000), 0);
    CHECK_LE(redlock_lock_validity(l), 2000);   /* the client takes the new ttl */
    CHECK_EQ(redlock_lock_holds(l), 2);
    CHECK_EQ(wait_agree(f.s, 3, key, l, 2, 2000), 3);
    CHECK_GT(min_pttl(f.s, 3, key), 20000);
    CHECK_RC(l, redlock_extend(l, 60000), 0);   /* a longer one lengthens */
    CHECK_GT(min_pttl(f.s, 3, key), 50000);
    release_all(&f, l, key);
    it_fix_stop(&f);
}

/* Re-grown where a master lost the key (a restart) while held. */
TEST(reentrant_extend_regrows_the_key_while_held)
{
    static const char key[] = "re-regrow";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = held_twice(&f, key, "regrower", 30000);
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);
    CHECK_EQ(rlt_servers_exists(f.s, 0, key, sizeof key - 1), 0);
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 5000), 0);
    CHECK_RC(l, redlock_extend(l, 30000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, l, 2, 2000), 3);
    char who[64];
    owner_on(f.s, 0, key, who, sizeof who);
    CHECK_EQ(strcmp(who, "regrower"), 0);
    CHECK_GT(it_pttl(f.s, 0, key, sizeof key - 1), 20000);
    release_all(&f, l, key);
    it_fix_stop(&f);
}

/* On an async fixture on 3 masters: a handle with a watchdog (every_ms,
 * max_hold_ms) and the notice into w, acquired once with ttl_ms. */
static redlock_lock *watched(struct it_fix *f, const char *key, const char *owner,
                             int64_t every_ms, int64_t max_hold_ms, int64_t ttl_ms,
                             struct it_lost *w)
{
    it_fix_start(f, 3, NULL, IT_ASYNC);
    redlock_lock *l = re_lock(f, f->c, key, owner);
    struct it_op op = {f->base};
    w->base = f->base;
    CHECK_EQ(redlock_lock_set_watchdog(l, every_ms, max_hold_ms), 0);
    CHECK_EQ(redlock_lock_on_lost(l, it_lost_cb, w), 0);
    CHECK_RC(l, redlock_acquire_async(l, ttl_ms, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);
    return l;
}

/* The watchdog keeps two holds for several ttls (the counts stay), and the
 * notice comes when another owner took the key behind its back. */
TEST(reentrant_watchdog_keeps_two_holds_and_tells_when_taken)
{
    static const char key[] = "re-watch";
    struct it_fix f = {0};
    struct it_lost w = {0};
    redlock_lock *l = watched(&f, key, "keeper", 0, 0, 300, &w);
    struct it_op op = {f.base};
    CHECK_RC(l, redlock_acquire_async(l, 300, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);
    it_run(f.base, 1500);                       /* 5 ttls */
    CHECK_EQ(w.n, 0);
    CHECK_EQ(redlock_lock_holds(l), 2);
    CHECK_GT(redlock_lock_validity(l), 0);
    CHECK_EQ(count_agrees(f.s, 3, key, l, 2), 3);
    CHECK_GT(it_pttl(f.s, 0, key, sizeof key - 1), 0);

    /* a missing key would be re-grown while held: another owner's is not */
    for (int i = 0; i < 2; i++)
        command_ok(f.s, i, "SET %s %s %s", key, "5:thief=x", "KEEPTTL");
    it_run_until(f.base, &w.n, 2000);
    CHECK_EQ(w.n, 1);
    CHECK_EQ(w.reason, REDLOCK_LOST_REFUSED);
    CHECK_EQ(redlock_lock_validity(l), 0);
    CHECK_EQ(redlock_lock_holds(l), 0);
    CHECK(it_has(redlock_lock_errstr(l), "another owner 'thief'"));
    it_fix_stop(&f);
}

/* The token comes with a hold's first acquire and grows across owners; a
 * re-acquire keeps it and sends no INCR. */
TEST(reentrant_fencing_token_of_the_first_acquire)
{
    static const char key[] = "re-fence";
    struct it_fix f = {0};
    redlock_lock *a, *b;
    two_clients(&f, key, "first", "second", &a, &b);
    CHECK_EQ(redlock_lock_set_fencing(a, 1), 0);
    CHECK_EQ(redlock_lock_set_fencing(b, 1), 0);
    int64_t last = 0;
    for (int i = 0; i < 6; i++) {
        redlock_lock *l = i % 2 ? b : a;
        CHECK_RC(l, redlock_acquire(l, 10000), 0);
        int64_t t = redlock_lock_token(l);
        CHECK_GT(t, last);
        last = t;
        long long incrs = it_calls(f.s, 0, "incr");
        CHECK_RC(l, redlock_acquire(l, 10000), 0);
        CHECK_EQ(redlock_lock_holds(l), 2);
        CHECK_EQ(redlock_lock_token(l), t);
        CHECK_EQ(it_calls(f.s, 0, "incr"), incrs);
        CHECK_RC(l, redlock_release(l), 0);
        CHECK_EQ(redlock_lock_token(l), t);
        CHECK_RC(l, redlock_release(l), 0);
    }
    /* held by a: b is refused and gets no token */
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    CHECK_EQ(redlock_lock_token(b), 0);
    CHECK_RC(a, redlock_release(a), 0);
    it_fix_stop(&f);
}

/* The raise (counters that disagree) goes through the hash's owner check. */
TEST(reentrant_fencing_raises_counters_that_disagree)
{
    static const char key[] = "re-raise", fk[] = "{re-raise}:fence";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = re_lock(&f, f.c, key, NULL);
    CHECK_EQ(redlock_lock_set_fencing(l, 1), 0);
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    int64_t t1 = redlock_lock_token(l);
    CHECK_RC(l, redlock_release(l), 0);
    char ahead[32];
    snprintf(ahead, sizeof ahead, "%lld", (long long)t1 + 1000);
    command_ok(f.s, 0, "SET %s %s%s", fk, ahead, "");
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);     /* the quorum: masters 0 and 1 */
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_EQ(redlock_lock_token(l), t1 + 1001);
    redisReply *r = rlt_servers_command(f.s, 1, "GET %s", fk);
    CHECK(r != NULL && r->type == REDIS_REPLY_STRING);
    CHECK_EQ(atoll(r->str), t1 + 1001);         /* raised */
    freeReplyObject(r);
    /* a re-acquire keeps it, with no raise */
    long long scripts = it_calls(f.s, 1, "evalsha");
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_EQ(redlock_lock_token(l), t1 + 1001);
    CHECK_EQ(it_calls(f.s, 1, "evalsha") - scripts, 1);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    it_fix_stop(&f);
}

TEST(reentrant_bad_input)
{
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, 0);
    redlock_lock *l = (redlock_lock *)&f;       /* must be set to NULL */
    char big[513];
    memset(big, 'x', sizeof big);
    CHECK_EQ(redlock_lock_new_reentrant(NULL, f.c, "r", 1, NULL, 0), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_reentrant(&l, f.c, NULL, 1, NULL, 0), REDLOCK_EINVAL);
    CHECK(l == NULL);
    l = (redlock_lock *)&f;
    CHECK_EQ(redlock_lock_new_reentrant(&l, f.c, "r", 0, NULL, 0), REDLOCK_EINVAL);
    CHECK(l == NULL);
    CHECK_EQ(redlock_lock_new_reentrant(&l, NULL, "r", 1, NULL, 0), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_reentrant(&l, f.c, "r", 1, NULL, 3), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_reentrant(&l, f.c, "r", 1, "", 0), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_reentrant(&l, f.c, "r", 1, big, 513), REDLOCK_EINVAL);
    CHECK(l == NULL);
    CHECK_EQ(redlock_lock_holds(NULL), 0);
    CHECK_EQ(redlock_lock_kind(NULL), REDLOCK_EINVAL);
    /* the longest owner, binary, works; the refusal escapes it */
    big[0] = '\n';
    CHECK_EQ(redlock_lock_new_reentrant(&l, f.c, "r", 1, big, 512), 0);
    f.locks[f.nlocks++] = l;
    redlock_lock *other = re_lock(&f, f.c, "r", "o");
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_RC(other, redlock_try_acquire(other, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(other), "another owner '\\x0axxxxxxx"));
    CHECK(it_has(redlock_lock_errstr(other), "...'"));
    CHECK_RC(l, redlock_release(l), 0);
    /* the calls' own checks hold for this kind too */
    CHECK_RC(l, redlock_release(l), REDLOCK_ENOTOWNER);    /* nothing held */
    CHECK_RC(l, redlock_acquire_async(l, 1000, NULL, NULL), REDLOCK_EINVAL);
    CHECK_RC(l, redlock_extend(l, 1000), REDLOCK_ENOTOWNER);
    it_fix_stop(&f);
}

/* The asynchronous calls: nested holds on a client of the caller's loop. */
TEST(reentrant_async_nested_holds)
{
    static const char key[] = "re-async";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_client *c2 = it_client(f.s, NULL);     /* a blocking one */
    f.clients[f.nclients++] = c2;
    redlock_lock *l = re_lock(&f, f.c, key, "async-owner");
    redlock_lock *same = re_lock(&f, c2, key, "async-owner");
    struct it_op op = {f.base};
    for (int i = 1; i <= 3; i++) {
        op.done = 0;
        CHECK_RC(l, redlock_acquire_async(l, 10000, it_op_cb, &op), 0);
        it_op_wait(&op, 5000);
        CHECK_RC(l, op.status, 0);
        CHECK_EQ(redlock_lock_holds(l), i);
    }
    CHECK_EQ(wait_agree(f.s, 3, key, l, 3, 2000), 3);
    /* the same owner through a blocking client of its own */
    CHECK_RC(same, redlock_acquire(same, 10000), 0);
    CHECK_RC(same, redlock_release(same), 0);
    op.done = 0;
    CHECK_RC(l, redlock_extend_async(l, 10000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(l, op.status, 0);
    CHECK_EQ(redlock_lock_holds(l), 3);
    for (int i = 2; i >= 0; i--) {
        op.done = 0;
        CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), 0);
        it_op_wait(&op, 5000);
        CHECK_RC(l, op.status, 0);
        CHECK_EQ(redlock_lock_holds(l), i);
        CHECK_EQ(rlt_servers_count_key(f.s, key, sizeof key - 1), i ? 3 : 0);
    }
    it_fix_stop(&f);
}

/* examples/reentrant.c: nested holds of one owner, another owner refused
 * until the outermost release. */
TEST(reentrant_example_nests_and_releases)
{
    static const char *const says[] = {
        "depth 3: holds 3", "another owner: refused",
        "after the last release: another owner gets it", NULL };
    rlt_servers *s = it_start(3, NULL);
    it_example_says("examples/reentrant", s, says);
    CHECK_EQ(rlt_servers_count_key(s, "accounts", 8), 0);
    rlt_servers_free(s);
}

/* The key expired (here: deleted) under a holder and another owner took
 * it: the late release and extend of the first leave it alone. */
TEST(reentrant_late_release_leaves_another_owners_key_alone)
{
    static const char key[] = "re-late";
    struct it_fix f = {0};
    redlock_lock *a, *b;
    two_clients(&f, key, "early", "late", &a, &b);
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    for (int i = 0; i < 3; i++)     /* as if expired: both keys */
        command_ok(f.s, i, "DEL %s {%s}:h%s", key, key, "");
    CHECK_RC(b, redlock_acquire(b, 10000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, b, 1, 2000), 3);
    CHECK_RC(a, redlock_extend(a, 10000), REDLOCK_ENOTOWNER);
    CHECK(it_has(redlock_lock_errstr(a), "another owner 'late'"));
    CHECK_RC(a, redlock_release(a), REDLOCK_ENOTOWNER);
    CHECK_EQ(count_agrees(f.s, 3, key, b, 1), 3);
    CHECK_EQ(count_agrees(f.s, 3, key, a, -1), 3);
    CHECK_RC(b, redlock_release(b), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, key, sizeof key - 1), 0);
    it_fix_stop(&f);
}

/* The last release with a master paused: decided without it, and it gets
 * the release once it runs again. */
TEST(reentrant_release_reaches_a_master_that_was_paused)
{
    static const char key[] = "re-owed";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = held_twice(&f, key, "payer", 10000);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(redlock_lock_holds(l), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, key, sizeof key - 1), 0);     /* 0 and 1 */
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 5000), 0);
    CHECK_EQ(it_wait_count(f.s, key, sizeof key - 1, 0, 3000), 0);
    it_fix_stop(&f);
}

/* The watchdog's cap ends the hold on the client; the key's ttl, never
 * shortened, lets it live on the masters up to a ttl longer. */
TEST(reentrant_cap_ends_the_hold_before_the_key)
{
    static const char key[] = "re-cap";
    struct it_fix f = {0};
    struct it_lost w = {0};
    /* the first extend (at 100 ms) asks for the 500 ms left to the cap:
     * the client's hold ends at the cap, the key keeps its 1000 ms */
    redlock_lock *l = watched(&f, key, "capped", 100, 600, 1000, &w);
    it_run_until(f.base, &w.n, 3000);
    CHECK_EQ(w.n, 1);
    CHECK_EQ(w.reason, REDLOCK_LOST_CAP);
    CHECK_EQ(redlock_lock_validity(l), 0);
    CHECK_GT(min_pttl(f.s, 3, key), 200);
    it_fix_stop(&f);
}

/* Calls of cmd over the first n masters. */
static long long calls(rlt_servers *s, int n, const char *cmd)
{
    long long k = 0;
    for (int i = 0; i < n; i++)
        k += it_calls(s, i, cmd);
    return k;
}

/* Server i's value of key is exactly want. */
static int value_is(rlt_servers *s, int i, const char *key, const char *want)
{
    size_t len = 0;
    char *v = get_on(s, i, key, &len);
    int same = v && len == strlen(want) && memcmp(v, want, len) == 0;
    free(v);
    return same;
}

/* The uncontended cycle is the mutex's: one SET NX per master to take it
 * (the key's value "<len>:<owner>=<value>"), one script to give it back. */
TEST(reentrant_fresh_acquire_is_a_plain_set_and_the_last_release_one_script)
{
    static const char key[] = "re-fast";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = re_lock(&f, f.c, key, "solo");
    long long sets = calls(f.s, 3, "set"), scripts = calls(f.s, 3, "evalsha");

    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, l, 1, 2000), 3);
    size_t vlen;
    char want[64];
    snprintf(want, sizeof want, "4:solo=%s", redlock_lock_value(l, &vlen));
    for (int i = 0; i < 3; i++)
        CHECK(value_is(f.s, i, key, want));
    CHECK_EQ(calls(f.s, 3, "set") - sets, 3);
    CHECK_EQ(calls(f.s, 3, "evalsha") - scripts, 0);
    CHECK_EQ(calls(f.s, 3, "eval"), 0);
    CHECK_EQ(hash_count(f.s, 3, key), 0);
    CHECK_GT(min_pttl(f.s, 3, key), 5000);

    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(calls(f.s, 3, "evalsha") - scripts, 3);
    CHECK_EQ(rlt_servers_count_key(f.s, key, sizeof key - 1), 0);
    it_fix_stop(&f);
}

/* a (owner "crew") holds through the fast path on every master; a2, the
 * same owner on another client, joins (the SET refused, then the join
 * script on each master): the key is the owner alone, the counts in
 * <key>:h, whose ttl follows the key's.  other: another owner. */
static void joined(struct it_fix *f, const char *key, redlock_lock **a, redlock_lock **a2,
                   redlock_lock **other)
{
    char h[64];
    two_clients(f, key, "crew", "crew", a, a2);
    *other = re_lock(f, f->c, key, "rival");
    CHECK_RC(*a, redlock_acquire(*a, 10000), 0);
    CHECK_EQ(wait_agree(f->s, 3, key, *a, 1, 2000), 3);
    long long evals = calls(f->s, 3, "eval");
    CHECK_RC(*a2, redlock_acquire(*a2, 20000), 0);
    CHECK_GE(calls(f->s, 3, "eval") - evals, 2);
    /* a master whose refusal came after the decision got no join script:
     * the extend repairs it */
    CHECK_RC(*a2, redlock_extend(*a2, 20000), 0);
    CHECK_EQ(wait_agree(f->s, 3, key, *a2, 1, 2000), 3);
    CHECK_EQ(count_agrees(f->s, 3, key, *a, 1), 3);
    snprintf(h, sizeof h, "{%s}:h", key);
    for (int i = 0; i < 3; i++) {
        CHECK(value_is(f->s, i, key, "4:crew"));
        long long t = it_pttl(f->s, i, key, strlen(key)), th = it_pttl(f->s, i, h, strlen(h));
        CHECK_GT(t, 15000);         /* lengthened to the joiner's ttl */
        CHECK(th > t - 50 && th < t + 50);
    }
    CHECK_RC(*other, redlock_try_acquire(*other, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(*other), "another owner 'crew'"));
}

/* After the join, one handle releases, then the other: the key stays for
 * the one left, and goes (with <key>:h) with it. */
static void release_both(const char *key, int first_goes_first)
{
    struct it_fix f = {0};
    redlock_lock *h[2], *other;
    joined(&f, key, &h[0], &h[1], &other);
    redlock_lock *gone = h[!first_goes_first], *left = h[first_goes_first];
    CHECK_RC(gone, redlock_release(gone), 0);
    CHECK_EQ(count_agrees(f.s, 3, key, gone, -1), 3);
    CHECK_EQ(count_agrees(f.s, 3, key, left, 1), 3);
    CHECK_RC(other, redlock_try_acquire(other, 10000), REDLOCK_ENOQUORUM);
    CHECK_RC(left, redlock_release(left), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, key, strlen(key)), 0);
    CHECK_EQ(hash_count(f.s, 3, key), 0);
    CHECK_RC(other, redlock_try_acquire(other, 10000), 0);
    CHECK_RC(other, redlock_release(other), 0);
    it_fix_stop(&f);
}

TEST(reentrant_join_then_the_first_releases_first)
{
    release_both("re-join1", 1);
}

TEST(reentrant_join_then_the_joiner_releases_first)
{
    release_both("re-join2", 0);
}

/* A re-acquire after the fast path goes to the script at once (no SET)
 * and moves the count into <key>:h. */
TEST(reentrant_reacquire_after_the_fast_path)
{
    static const char key[] = "re-again";
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = re_lock(&f, f.c, key, "again");
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, l, 1, 2000), 3);
    long long scripts = calls(f.s, 3, "evalsha");
    CHECK_RC(l, redlock_acquire(l, 10000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, l, 2, 2000), 3);
    CHECK_EQ(calls(f.s, 3, "eval"), 0);            /* no SET refused */
    CHECK_EQ(calls(f.s, 3, "evalsha") - scripts, 3);
    for (int i = 0; i < 3; i++)
        CHECK(value_is(f.s, i, key, "5:again"));
    CHECK_EQ(hash_count(f.s, 3, key), 3);
    CHECK_RC(l, redlock_release(l), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, l, 1, 2000), 3);
    release_all(&f, l, key);
    it_fix_stop(&f);
}

/* The slow paths name another owner: a fresh acquire's (after its SET
 * was refused) and a re-acquire's; a key of another kind is said to be. */
TEST(reentrant_slow_path_refused_by_another_owner)
{
    static const char key[] = "re-other";
    struct it_fix f = {0};
    redlock_lock *a, *b;
    two_clients(&f, key, "alice", "bob", &a, &b);
    CHECK_RC(b, redlock_acquire(b, 10000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, b, 1, 2000), 3);
    long long evals = calls(f.s, 3, "eval");
    CHECK_RC(a, redlock_try_acquire(a, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(a), "held by another owner 'bob'"));
    CHECK_GE(calls(f.s, 3, "eval") - evals, 2);
    CHECK_EQ(count_agrees(f.s, 3, key, b, 1), 3);      /* untouched */
    CHECK_RC(b, redlock_release(b), 0);

    /* alice holds twice; her key expired and eve took it meanwhile */
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    for (int i = 0; i < 3; i++)
        command_ok(f.s, i, "SET %s %s PX %s", key, "3:eve=x", "10000");
    CHECK_RC(a, redlock_try_acquire(a, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(a), "held by another owner 'eve'"));
    CHECK_EQ(redlock_lock_holds(a), 0);     /* a quorum refused: the hold is over */
    CHECK_EQ(redlock_lock_validity(a), 0);
    for (int i = 0; i < 3; i++)
        CHECK(value_is(f.s, i, key, "3:eve=x"));

    /* a mutex's key on the same resource */
    for (int i = 0; i < 3; i++)
        command_ok(f.s, i, "DEL %s {%s}:h%s", key, key, "");
    redlock_lock *m = NULL;
    CHECK_EQ(redlock_lock_new(&m, f.c, key, sizeof key - 1), 0);
    f.locks[f.nlocks++] = m;
    CHECK_RC(m, redlock_acquire(m, 10000), 0);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(b), "held by a lock of another kind"));
    CHECK_RC(m, redlock_release(m), 0);
    /* a key of another type: WRONGTYPE, an error vote */
    for (int i = 0; i < 3; i++)
        command_ok(f.s, i, "HSET %s %s %s", key, "f", "v");
    CHECK(redlock_try_acquire(b, 10000) != 0);
    int errors = 0;
    for (size_t i = 0; i < 3; i++) {
        redlock_node_result nr;
        CHECK_EQ(redlock_lock_node_result(b, i, &nr), 0);
        CHECK(nr.vote != REDLOCK_VOTE_OK);
        errors += nr.vote == REDLOCK_VOTE_ERROR && it_has(nr.detail, "WRONGTYPE");
    }
    CHECK_GE(errors, 2);
    it_fix_stop(&f);
}

/* A SET refused after its acquire was decided gets no join script: the
 * frame never sends a write's slow form then (an undo may have gone
 * before it).  Master 2, paused, answers a2's SET late: no EVAL there. */
TEST(reentrant_no_join_after_the_decision)
{
    static const char key[] = "re-nojoin";
    struct it_fix f = {0};
    redlock_lock *a, *a2;
    two_clients(&f, key, "team", "team", &a, &a2);
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, a, 1, 2000), 3);
    long long evals = it_calls(f.s, 2, "eval");
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    CHECK_RC(a2, redlock_try_acquire(a2, 10000), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    /* behind the late SET on the same connection: the release (refused
     * there: a2 never joined), then a mutex's cycle, after which master 2
     * has run anything the client sent it before */
    CHECK_RC(a2, redlock_release(a2), 0);
    redlock_node_result nr;
    CHECK_EQ(redlock_lock_node_result(a2, 2, &nr), 0);
    CHECK_EQ(nr.vote, REDLOCK_VOTE_REFUSED);
    redlock_lock *m = NULL;
    CHECK_EQ(redlock_lock_new(&m, f.clients[0], "re-nojoin-m", 11), 0);
    f.locks[f.nlocks++] = m;
    CHECK_RC(m, redlock_acquire(m, 10000), 0);
    CHECK_RC(m, redlock_release(m), 0);
    CHECK_EQ(it_calls(f.s, 2, "eval"), evals);
    CHECK_EQ(count_on(f.s, 2, key, a2), -1);
    CHECK_EQ(count_agrees(f.s, 3, key, a, 1), 3);
    CHECK_RC(a, redlock_release(a), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, key, sizeof key - 1), 0);
    it_fix_stop(&f);
}

/* A join that loses (two masters paused) is undone where it went: the
 * joiner's count goes, the first handle's stays. */
TEST(reentrant_lost_join_is_undone)
{
    static const char key[] = "re-undojoin";
    struct it_fix f = {0};
    redlock_lock *a, *a2;
    two_clients(&f, key, "squad", "squad", &a, &a2);
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, a, 1, 2000), 3);
    CHECK_EQ(rlt_servers_pause(f.s, 1), 0);
    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    int rc = redlock_try_acquire(a2, 10000);
    CHECK(rc == REDLOCK_ETIMEDOUT || rc == REDLOCK_ENOQUORUM);
    CHECK_EQ(rlt_servers_resume(f.s, 1), 0);
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, a2, -1, 3000), 3);
    CHECK_EQ(count_agrees(f.s, 3, key, a, 1), 3);
    CHECK_RC(a, redlock_release(a), 0);
    CHECK_EQ(it_wait_count(f.s, key, sizeof key - 1, 0, 3000), 0);
    it_fix_stop(&f);
}

/* A fenced acquire refused by its SET joins through the script, with the
 * counter's INCR behind it: the joiner gets a token of its own. */
TEST(reentrant_fenced_join_gets_a_token)
{
    static const char key[] = "re-fjoin";
    struct it_fix f = {0};
    redlock_lock *a, *a2;
    two_clients(&f, key, "fenced", "fenced", &a, &a2);
    CHECK_EQ(redlock_lock_set_fencing(a, 1), 0);
    CHECK_EQ(redlock_lock_set_fencing(a2, 1), 0);
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    CHECK_EQ(wait_agree(f.s, 3, key, a, 1, 2000), 3);
    long long evals = calls(f.s, 3, "eval");
    CHECK_RC(a2, redlock_acquire(a2, 10000), 0);
    CHECK_GE(calls(f.s, 3, "eval") - evals, 2);
    CHECK_GT(redlock_lock_token(a2), redlock_lock_token(a));
    CHECK_RC(a, redlock_release(a), 0);
    CHECK_RC(a2, redlock_release(a2), 0);
    CHECK_EQ(it_wait_count(f.s, key, sizeof key - 1, 0, 3000), 0);
    it_fix_stop(&f);
}

/* ---- found by review: refusals that end a hold, and a reserved suffix ---- */

/* "{x}:h", the re-entrant lock's hash of counts for "x", holding what no
 * lock of the library writes there (a foreign program's string): the
 * second hold's script sees a key that is no hash and refuses ("held by a
 * lock of another kind"), leaving it untouched.  (A mutex on the resource
 * "x:h" no longer meets it: t_keys.c.) */
TEST(reentrant_h_key_of_a_foreign_program_is_left_alone)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *re;
    CHECK_EQ(redlock_lock_new_reentrant(&re, f.c, "x", 1, "alice", 5), 0);

    for (int i = 0; i < 3; i++)
        command_ok(f.s, i, "SET {x}:h %s%s%s", "foreign", "", "");
    CHECK_RC(re, redlock_acquire(re, 20000), 0);        /* the plain SET */
    CHECK_RC(re, redlock_acquire(re, 20000), REDLOCK_ENOQUORUM);    /* a second hold */
    CHECK(it_has(redlock_lock_errstr(re), "held by a lock of another kind"));
    CHECK_RC(re, redlock_release(re), 0);   /* its own key goes */
    CHECK_EQ(rlt_servers_count_key(f.s, "x", 1), 0);
    for (int i = 0; i < 3; i++) {
        redisReply *r = rlt_servers_command(f.s, i, "GET {x}:h");
        CHECK(r && r->type == REDIS_REPLY_STRING && strcmp(r->str, "foreign") == 0);
        if (r)
            freeReplyObject(r);
    }
    redlock_lock_free(re);
    it_fix_stop(&f);
}

/* Another owner ("bob") has the key on masters 0 and 1. */
static void bob_takes(rlt_servers *s, const char *key)
{
    for (int i = 0; i < 2; i++)
        command_ok(s, i, "SET %s %s PX %s", key, "3:bob=zz", "60000");
}

struct lost_seen {
    int count, reason;
    int64_t at_ms;
};

static void note_lost(redlock_lock *l, int reason, void *privdata)
{
    struct lost_seen *s = privdata;
    (void)l;
    s->count++;
    s->reason = reason;
    s->at_ms = check_now_ms();
}

/* Another owner's key on 2 of 3 masters (the hold was lost there: a restart
 * without persistence, say).  A re-acquire that a quorum refuses leaves no
 * quorum that may hold our value: the hold is over (validity 0, holds 0),
 * and the notice says REFUSED at once, as after a refused extend. */
TEST(reentrant_reacquire_refused_by_a_quorum_loses_the_hold)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *re;
    struct lost_seen seen = {0};
    CHECK_EQ(redlock_lock_new_reentrant(&re, f.c, "y", 1, "alice", 5), 0);
    CHECK_EQ(redlock_lock_on_lost(re, note_lost, &seen), 0);
    struct it_op op = {f.base};
    CHECK_RC(re, redlock_acquire_async(re, 20000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(re, op.status, 0);
    bob_takes(f.s, "y");
    int64_t t0 = check_now_ms();
    op = (struct it_op){f.base};
    CHECK_RC(re, redlock_acquire_async(re, 20000, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(re, op.status, REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(re), "held by another owner 'bob'"));
    CHECK_EQ(redlock_lock_validity(re), 0);
    CHECK_EQ(redlock_lock_holds(re), 0);
    while (!seen.count && check_now_ms() - t0 < 5000)
        it_run(f.base, 10);
    CHECK_EQ(seen.count, 1);
    CHECK_EQ(seen.reason, REDLOCK_LOST_REFUSED);
    CHECK_LT(seen.at_ms - t0, 1000);        /* not at the old validity's end (20 s) */
    redlock_lock_free(re);
    it_fix_stop(&f);
}

/* The same for a release that leaves a hold: refused by a quorum, the
 * validity is 0 and the notice says REFUSED at once, not when the old
 * validity would have ended. */
TEST(reentrant_partial_release_refused_tells_at_once)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *re;
    struct lost_seen seen = {0};
    CHECK_EQ(redlock_lock_new_reentrant(&re, f.c, "z", 1, "alice", 5), 0);
    CHECK_EQ(redlock_lock_on_lost(re, note_lost, &seen), 0);
    struct it_op op;
    for (int k = 0; k < 2; k++) {
        op = (struct it_op){f.base};
        CHECK_RC(re, redlock_acquire_async(re, 20000, it_op_cb, &op), 0);
        it_op_wait(&op, 5000);
        CHECK_RC(re, op.status, 0);
    }
    CHECK_EQ(redlock_lock_holds(re), 2);
    bob_takes(f.s, "z");
    int64_t t0 = check_now_ms();
    op = (struct it_op){f.base};
    CHECK_RC(re, redlock_release_async(re, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(re, op.status, REDLOCK_ENOTOWNER);
    CHECK_EQ(redlock_lock_validity(re), 0);
    while (!seen.count && check_now_ms() - t0 < 5000)
        it_run(f.base, 10);
    CHECK_EQ(seen.count, 1);
    CHECK_EQ(seen.reason, REDLOCK_LOST_REFUSED);
    CHECK_LT(seen.at_ms - t0, 1000);
    redlock_lock_free(re);
    it_fix_stop(&f);
}
