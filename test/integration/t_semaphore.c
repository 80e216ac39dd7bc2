/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_semaphore.c -- the counting semaphore against real redis-servers:
 * P holders at once and no more, a release or the servers' ttl frees a
 * permit, a permit count that differs or a release by a non-holder
 * changes nothing on any master, the quorum it needs, extend, the
 * watchdog, fencing, and what inspect reports.
 */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

#define SEM_MAX 16

/* Semaphore handles, each on a client of its own (a client per holder, as
 * holders are processes), freed by sem_stop. */
struct sem {
    struct it_fix f;
    int n;
    redlock_client *c[SEM_MAX];
    redlock_lock *l[SEM_MAX];
};

static void sem_start(struct sem *s, int masters, const redlock_options *opts)
{
    memset(s, 0, sizeof *s);
    it_fix_start(&s->f, masters, opts, 0);
}

/* A new handle on res with `permits`, on a client of its own. */
static redlock_lock *sem_new(struct sem *s, const char *res, unsigned permits,
                             const redlock_options *opts)
{
    redlock_lock *l = NULL;
    CHECK_LT(s->n, SEM_MAX);
    s->c[s->n] = it_client(s->f.s, opts);
    CHECK_RC(NULL, redlock_lock_new_semaphore(&l, s->c[s->n], res, strlen(res), permits), 0);
    CHECK_EQ(redlock_lock_kind(l), REDLOCK_KIND_SEMAPHORE);
    s->l[s->n++] = l;
    return l;
}

static void sem_stop(struct sem *s)
{
    for (int i = 0; i < s->n; i++) {
        redlock_lock_free(s->l[i]);
        redlock_client_free(s->c[i]);
    }
    it_fix_stop(&s->f);
}

/* Every key of master i, with its type and contents (not its ttl), one
 * line each in sorted order: what "nothing changed" compares. */
static void state_of(rlt_servers *sv, int i, char *out, size_t size)
{
    redisReply *keys = rlt_servers_command(sv, i, "KEYS *");
    size_t n = 0;
    CHECK(keys != NULL && keys->type == REDIS_REPLY_ARRAY);
    out[0] = '\0';
    /* sort the names (few keys: insertion sort on the reply's pointers) */
    for (size_t a = 1; a < keys->elements; a++)
        for (size_t b = a; b > 0 && strcmp(keys->element[b - 1]->str, keys->element[b]->str) > 0;
             b--) {
            redisReply *t = keys->element[b];
            keys->element[b] = keys->element[b - 1];
            keys->element[b - 1] = t;
        }
    for (size_t k = 0; k < keys->elements; k++) {
        const char *name = keys->element[k]->str;
        redisReply *t = rlt_servers_command(sv, i, "TYPE %s", name);
        redisReply *v;
        CHECK(t != NULL && t->type == REDIS_REPLY_STATUS);
        if (strcmp(t->str, "hash") == 0)
            v = rlt_servers_command(sv, i, "HGETALL %s", name);
        else if (strcmp(t->str, "string") == 0)
            v = rlt_servers_command(sv, i, "GET %s", name);
        else
            v = NULL;
        n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s %s", name, t->str);
        if (v && v->type == REDIS_REPLY_STRING) {
            n += (size_t)snprintf(out + n, n < size ? size - n : 0, " %s", v->str);
        } else if (v && v->type == REDIS_REPLY_ARRAY) {
            /* field value pairs, sorted by field */
            for (size_t a = 0; a < v->elements / 2; a++)
                for (size_t b = a + 1; b < v->elements / 2; b++)
                    if (strcmp(v->element[2 * a]->str, v->element[2 * b]->str) > 0)
                        for (size_t c = 0; c < 2; c++) {
                            redisReply *x = v->element[2 * a + c];
                            v->element[2 * a + c] = v->element[2 * b + c];
                            v->element[2 * b + c] = x;
                        }
            for (size_t a = 0; a < v->elements; a++)
                n += (size_t)snprintf(out + n, n < size ? size - n : 0, " %s", v->element[a]->str);
        }
        n += (size_t)snprintf(out + n, n < size ? size - n : 0, "\n");
        if (v)
            freeReplyObject(v);
        freeReplyObject(t);
    }
    CHECK_LT(n, size);
    freeReplyObject(keys);
}

/* The number of keys on master i (DBSIZE). */
static long long keys_on(rlt_servers *sv, int i)
{
    redisReply *r = rlt_servers_command(sv, i, "DBSIZE");
    long long v;
    CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER);
    v = r->integer;
    freeReplyObject(r);
    return v;
}

/* The permit key of a handle on res: {res}:s:<value>. */
static const char *permit_key(char *buf, size_t size, const char *res, const redlock_lock *l)
{
    size_t vlen;
    const char *v = redlock_lock_value(l, &vlen);
    snprintf(buf, size, "{%s}:s:%.*s", res, (int)vlen, v);
    return buf;
}

/* How many holders (fields but "#") the semaphore's hash has on master i. */
static long long holders_on(rlt_servers *sv, int i, const char *res)
{
    redisReply *r = rlt_servers_command(sv, i, "HLEN %s", res);
    long long v;
    CHECK(r != NULL && r->type == REDIS_REPLY_INTEGER);
    v = r->integer;
    freeReplyObject(r);
    return v > 0 ? v - 1 : 0;
}

TEST(semaphore_p_holders_at_once_and_the_next_refused)
{
    struct sem s;
    const char *res = "sem-p";
    char key[128];

    sem_start(&s, 3, NULL);
    for (int i = 0; i < 3; i++) {
        redlock_lock *l = sem_new(&s, res, 3, NULL);
        CHECK_RC(l, redlock_try_acquire(l, 10000), 0);
    }
    for (int i = 0; i < 3; i++) {
        CHECK_GT(redlock_lock_validity(s.l[i]), 0);
        permit_key(key, sizeof key, res, s.l[i]);
        CHECK_EQ(rlt_servers_count_key(s.f.s, key, strlen(key)), 3);
        CHECK_EQ(holders_on(s.f.s, i, res), 3);
    }
    /* the fourth: every master has its 3 permits out */
    redlock_lock *d = sem_new(&s, res, 3, NULL);
    CHECK_RC(d, redlock_try_acquire(d, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(it_errstr(d), "all 3 permits are held"));
    CHECK_GE(it_refusals(d, 3, "all 3 permits are held", 1), 1);    /* (decided at the first) */
    CHECK_EQ(redlock_lock_validity(d), 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(holders_on(s.f.s, i, res), 3);
    sem_stop(&s);
}

/* The refusals' texts: one permit held says so in the singular; a read
 * handle on a semaphore's key is refused without naming a writer. */
TEST(semaphore_refusal_texts_for_one_permit_and_a_reader)
{
    struct sem s;
    const char *res = "sem-one";
    redlock_lock *r = NULL;

    sem_start(&s, 3, NULL);
    redlock_lock *a = sem_new(&s, res, 1, NULL), *b = sem_new(&s, res, 1, NULL);
    CHECK_RC(a, redlock_try_acquire(a, 10000), 0);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(it_errstr(b), "the 1 permit is held"));
    CHECK(!it_has(it_errstr(b), "permits"));
    CHECK_EQ(redlock_lock_new_read(&r, s.c[0], res, strlen(res)), 0);
    CHECK_RC(r, redlock_try_acquire(r, 10000), REDLOCK_ENOQUORUM);
    CHECK(it_has(redlock_lock_errstr(r), "held by a writer or a lock of another kind"));
    redlock_lock_free(r);
    CHECK_RC(a, redlock_release(a), 0);
    sem_stop(&s);
}

TEST(semaphore_a_release_frees_a_permit_for_another)
{
    struct sem s;
    const char *res = "sem-rel";
    char key[128];

    sem_start(&s, 3, NULL);
    redlock_lock *a = sem_new(&s, res, 2, NULL), *b = sem_new(&s, res, 2, NULL);
    redlock_lock *c = sem_new(&s, res, 2, NULL);
    CHECK_RC(a, redlock_try_acquire(a, 30000), 0);
    CHECK_RC(b, redlock_try_acquire(b, 3000), 0);
    for (int i = 0; i < 3; i++)         /* a shorter permit never shortens the hash */
        CHECK_GT(it_pttl(s.f.s, i, res, strlen(res)), 10000);
    CHECK_RC(c, redlock_try_acquire(c, 10000), REDLOCK_ENOQUORUM);
    permit_key(key, sizeof key, res, a);
    CHECK_RC(a, redlock_release(a), 0);
    CHECK_EQ(it_wait_count(s.f.s, key, strlen(key), 0, 2000), 0);
    CHECK_RC(c, redlock_try_acquire(c, 10000), 0);
    CHECK_RC(b, redlock_release(b), REDLOCK_OK);
    CHECK_RC(c, redlock_release(c), 0);
    /* the last holder's release deletes the hash too: nothing is left */
    for (int i = 0; i < 3; i++)
        CHECK_EQ(it_wait_count(s.f.s, res, strlen(res), 0, 2000), 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(keys_on(s.f.s, i), 0);
    sem_stop(&s);
}

TEST(semaphore_permits_out_of_range_are_einval)
{
    struct it_fix f = { 0 };
    redlock_lock *l = (redlock_lock *)&f;

    it_fix_start(&f, 3, NULL, 0);
    CHECK_EQ(redlock_lock_new_semaphore(&l, f.c, "x", 1, 0), REDLOCK_EINVAL);
    CHECK(l == NULL);
    CHECK(it_has(redlock_client_errstr(f.c), "1 .. 1024 permits, not 0"));
    CHECK_EQ(redlock_lock_new_semaphore(&l, f.c, "x", 1, 1025), REDLOCK_EINVAL);
    CHECK(it_has(redlock_client_errstr(f.c), "1 .. 1024 permits, not 1025"));
    CHECK_EQ(redlock_lock_new_semaphore(NULL, f.c, "x", 1, 2), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_semaphore(&l, f.c, "{x", 2, 2), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new_semaphore(&l, f.c, "x", 1, 1024), 0);
    CHECK_EQ(redlock_lock_quorum(l), 3);
    redlock_lock_free(l);
    CHECK_EQ(redlock_lock_quorum(NULL), REDLOCK_EINVAL);
    CHECK_STREQ(redlock_strerror(REDLOCK_EPERMITS),
                "permit count mismatch: the masters hold the semaphore with another number of "
                "permits");
    it_fix_stop(&f);
}

/* Each master's state, and their sum of `cmd` calls, into st / *calls. */
static void snapshot(rlt_servers *sv, int n, char (*st)[2048], long long *calls, const char *cmd)
{
    *calls = 0;
    for (int i = 0; i < n; i++) {
        state_of(sv, i, st[i], sizeof st[i]);
        *calls += it_calls(sv, i, cmd);
    }
}

/* A handle with another permit count meets held permits: EPERMITS at
 * once (one attempt though the acquire has retries), nothing changed on
 * any master. */
TEST(semaphore_permit_count_mismatch_is_epermits_and_changes_nothing)
{
    struct sem s;
    const char *res = "sem-mis";
    char before[3][2048], after[3][2048];
    long long calls0, calls1;

    sem_start(&s, 3, NULL);
    redlock_lock *a = sem_new(&s, res, 3, NULL), *b = sem_new(&s, res, 2, NULL);
    CHECK_EQ(redlock_lock_set_fencing(a, 1), 0);
    CHECK_EQ(redlock_lock_set_fencing(b, 1), 0);    /* its counter is not raised either */
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    snapshot(s.f.s, 3, before, &calls0, "evalsha");
    CHECK(strstr(before[0], "{sem-mis}:fence string") != NULL);
    CHECK_RC(b, redlock_acquire(b, 10000), REDLOCK_EPERMITS);
    CHECK(it_has(it_errstr(b), "permit count mismatch"));
    CHECK(it_has(it_errstr(b), "the semaphore has 3 permits here, this handle 2"));
    CHECK_EQ(redlock_lock_validity(b), 0);
    snapshot(s.f.s, 3, after, &calls1, "evalsha");
    CHECK_EQ(calls1 - calls0, 3);       /* one attempt: no retry */
    for (int i = 0; i < 3; i++)
        CHECK_STREQ(after[i], before[i]);
    /* the holder is untouched and the count stays */
    CHECK_RC(a, redlock_extend(a, 10000), 0);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_EPERMITS);
    CHECK_RC(a, redlock_release(a), 0);
    /* every permit ended: the count may change */
    CHECK_RC(b, redlock_try_acquire(b, 10000), 0);
    CHECK_RC(b, redlock_release(b), 0);
    sem_stop(&s);
}

/* One master alone holds the semaphore with another count: the masters
 * that granted the acquire are rolled back. */
TEST(semaphore_permit_mismatch_on_one_master_rolls_back_the_others)
{
    struct sem s;
    const char *res = "sem-mis1";
    char before[3][2048], after[3][2048];
    long long calls;

    sem_start(&s, 3, NULL);
    it_cmd_on(s.f.s, 0, 1, 0, "HSET sem-mis1 # 5 xyz 1");
    it_cmd_on(s.f.s, 0, 1, 0, "PEXPIRE sem-mis1 60000");
    it_cmd_on(s.f.s, 0, 1, 0, "SET {sem-mis1}:s:xyz 1 PX 60000");
    snapshot(s.f.s, 3, before, &calls, "evalsha");
    redlock_lock *b = sem_new(&s, res, 2, NULL);
    CHECK_EQ(redlock_lock_quorum(b), 3);
    CHECK_RC(b, redlock_acquire(b, 10000), REDLOCK_EPERMITS);
    CHECK(it_has(it_errstr(b), "the semaphore has 5 permits here, this handle 2"));
    /* masters 1 and 2 may have granted: their undo removes it */
    CHECK_EQ(it_wait_count(s.f.s, res, strlen(res), 1, 2000), 1);
    snapshot(s.f.s, 3, after, &calls, "evalsha");
    for (int i = 0; i < 3; i++)
        CHECK_STREQ(after[i], before[i]);
    sem_stop(&s);
}

/* A handle that holds no permit (refused, or never granted here) releases:
 * ENOTOWNER, nothing changed on any master. */
TEST(semaphore_release_by_a_non_holder_is_enotowner_and_changes_nothing)
{
    struct sem s;
    const char *res = "sem-nh";
    char before[3][2048], after[3][2048];
    long long calls;

    sem_start(&s, 3, NULL);
    redlock_lock *a = sem_new(&s, res, 1, NULL), *b = sem_new(&s, res, 1, NULL);
    CHECK_RC(a, redlock_try_acquire(a, 10000), 0);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    snapshot(s.f.s, 3, before, &calls, "evalsha");
    CHECK_RC(b, redlock_release(b), REDLOCK_ENOTOWNER);
    CHECK(it_has(it_errstr(b), "this handle holds no permit here"));
    /* a value handed over that no master knows */
    CHECK_EQ(redlock_lock_set_value(b, "not-a-holder", 12), 0);
    CHECK_RC(b, redlock_release(b), REDLOCK_ENOTOWNER);
    /* "#" is the count's field, not a holder */
    CHECK_EQ(redlock_lock_set_value(b, "#", 1), 0);
    CHECK_RC(b, redlock_release(b), REDLOCK_ENOTOWNER);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_EPERMITS);
    CHECK(it_has(it_errstr(b), "names the permit count's field"));
    snapshot(s.f.s, 3, after, &calls, "evalsha");
    for (int i = 0; i < 3; i++)
        CHECK_STREQ(after[i], before[i]);
    CHECK_RC(a, redlock_release(a), 0);
    sem_stop(&s);
}

/* A refused acquire (with its retries) leaves no permit key and no
 * holder field on any master. */
TEST(semaphore_a_failed_acquire_leaves_nothing_behind)
{
    struct sem s;
    const char *res = "sem-fail";
    char before[5][2048], after[5][2048], key[128];
    long long calls;

    sem_start(&s, 5, NULL);
    redlock_lock *a = sem_new(&s, res, 2, NULL), *b = sem_new(&s, res, 2, NULL);
    redlock_lock *c = sem_new(&s, res, 2, NULL);
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    /* b holds on masters 0 .. 2 only: a permit free on 3 and 4, where c's
     * attempts are granted and must be undone (c needs 4 of 5) */
    it_cmd_on(s.f.s, 0, 3, 0, "HSET sem-fail b-value 1");
    it_cmd_on(s.f.s, 0, 3, 0, "SET {sem-fail}:s:b-value 1 PX 60000");
    (void)b;
    snapshot(s.f.s, 5, before, &calls, "evalsha");
    CHECK_RC(c, redlock_acquire(c, 10000), REDLOCK_ENOQUORUM);
    permit_key(key, sizeof key, res, c);
    CHECK_EQ(it_wait_count(s.f.s, key, strlen(key), 0, 2000), 0);
    for (int i = 0; i < 5; i++) {
        /* the undo may land after the acquire returned: wait for it */
        for (int t = 0; t < 200 && holders_on(s.f.s, i, res) != (i < 3 ? 2 : 1); t++)
            it_sleep_ms(5);
    }
    snapshot(s.f.s, 5, after, &calls, "evalsha");
    for (int i = 0; i < 5; i++)
        CHECK_STREQ(after[i], before[i]);
    sem_stop(&s);
}

/* A holder that never releases (crashed): the masters expire its permit
 * by its ttl, and another takes it; the dead holder's field is pruned. */
TEST(semaphore_a_crashed_holders_permit_expires_on_the_masters)
{
    struct sem s;
    const char *res = "sem-ttl";
    char key[128];

    sem_start(&s, 3, NULL);
    redlock_lock *a = sem_new(&s, res, 2, NULL), *b = sem_new(&s, res, 2, NULL);
    redlock_lock *c = sem_new(&s, res, 2, NULL);
    CHECK_RC(a, redlock_try_acquire(a, 300), 0);
    CHECK_RC(c, redlock_try_acquire(c, 10000), 0);
    permit_key(key, sizeof key, res, a);
    /* a's process "crashes": its client goes away without a release */
    redlock_lock_free(a);
    redlock_client_free(s.c[0]);
    s.l[0] = NULL;
    s.c[0] = NULL;
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    /* the servers expire it: poll the masters until the key is gone on all */
    CHECK_EQ(it_wait_count(s.f.s, key, strlen(key), 0, 3000), 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(holders_on(s.f.s, i, res), 2);                /* its field is still there */
    CHECK_RC(b, redlock_try_acquire(b, 10000), 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(holders_on(s.f.s, i, res), 2);                /* a's field pruned */
    CHECK_RC(b, redlock_release(b), 0);
    CHECK_RC(c, redlock_release(c), 0);
    for (int i = 0; i < 3; i++)
        CHECK_EQ(keys_on(s.f.s, i), 0);
    sem_stop(&s);
}

/* An extend keeps the permit past its first ttl, on every master. */
TEST(semaphore_extend_keeps_a_permit_past_its_ttl)
{
    struct sem s;
    const char *res = "sem-ext";
    char key[128];

    sem_start(&s, 3, NULL);
    redlock_lock *a = sem_new(&s, res, 1, NULL), *b = sem_new(&s, res, 1, NULL);
    CHECK_RC(a, redlock_try_acquire(a, 300), 0);
    permit_key(key, sizeof key, res, a);
    CHECK_RC(a, redlock_extend(a, 5000), 0);
    for (int i = 0; i < 3; i++) {
        CHECK_GT(it_pttl(s.f.s, i, key, strlen(key)), 3000);
        CHECK_GT(it_pttl(s.f.s, i, res, strlen(res)), 3000);   /* the hash grew with it */
    }
    it_sleep_ms(500);       /* past the first ttl: time itself is under test */
    CHECK_EQ(rlt_servers_count_key(s.f.s, key, strlen(key)), 3);
    CHECK_GT(redlock_lock_validity(a), 0);
    CHECK_RC(b, redlock_try_acquire(b, 10000), REDLOCK_ENOQUORUM);
    CHECK_RC(a, redlock_release(a), 0);
    /* a released permit cannot be extended */
    CHECK_RC(a, redlock_extend(a, 5000), REDLOCK_ENOTOWNER);
    sem_stop(&s);
}

/* The watchdog (an async client) keeps a permit 4x its ttl. */
TEST(semaphore_watchdog_keeps_a_permit_alive)
{
    struct it_fix f = { 0 };
    struct it_op op = { 0 };
    const char *res = "sem-wd";
    char key[128];
    redlock_lock *l = NULL;

    it_fix_start(&f, 3, NULL, IT_ASYNC);
    op.base = f.base;
    CHECK_EQ(redlock_lock_new_semaphore(&l, f.c, res, strlen(res), 2), 0);
    f.locks[f.nlocks++] = l;
    CHECK_EQ(redlock_lock_set_watchdog(l, 0, 0), 0);
    CHECK_RC(l, redlock_acquire_async(l, 300, it_op_cb, &op), 0);
    it_op_wait(&op, 3000);
    CHECK_RC(l, op.status, 0);
    permit_key(key, sizeof key, res, l);
    it_run(f.base, 1200);
    CHECK_GT(redlock_lock_validity(l), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, key, strlen(key)), 3);
    for (int i = 0; i < 3; i++)
        CHECK_GT(it_pttl(f.s, i, key, strlen(key)), 0);
    op.done = 0;
    CHECK_RC(l, redlock_release_async(l, it_op_cb, &op), 0);
    it_op_wait(&op, 3000);
    CHECK_RC(l, op.status, 0);
    it_fix_stop(&f);
}

/* Fenced permits: every acquire's token is above every earlier one, over
 * all holders. */
TEST(semaphore_fencing_tokens_increase)
{
    struct sem s;
    const char *res = "sem-fence";
    int64_t last = 0;

    sem_start(&s, 3, NULL);
    redlock_lock *h[3];
    for (int i = 0; i < 3; i++) {
        h[i] = sem_new(&s, res, 2, NULL);
        CHECK_EQ(redlock_lock_set_fencing(h[i], 1), 0);
    }
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < 2; i++) {
            redlock_lock *l = h[(round + i) % 3];
            CHECK_RC(l, redlock_try_acquire(l, 10000), 0);
            CHECK_GT(redlock_lock_token(l), last);
            last = redlock_lock_token(l);
        }
        redlock_lock *third = h[(round + 2) % 3];
        CHECK_RC(third, redlock_try_acquire(third, 10000), REDLOCK_ENOQUORUM);
        for (int i = 0; i < 2; i++)
            CHECK_RC(h[(round + i) % 3], redlock_release(h[(round + i) % 3]), 0);
    }
    sem_stop(&s);
}

/* The quorum a semaphore needs: N = 5, P = 2 is 4 (a mutex's 3); with a
 * master down P = 4 (all 5 needed) cannot be acquired and leaves nothing,
 * P = 2 still can. */
TEST(semaphore_quorum_with_a_master_down)
{
    struct sem s;
    char key[128];

    sem_start(&s, 5, NULL);
    redlock_lock *two = sem_new(&s, "sem-q2", 2, NULL), *four = sem_new(&s, "sem-q4", 4, NULL);
    CHECK_EQ(redlock_lock_quorum(two), 4);
    CHECK_EQ(redlock_lock_quorum(four), 5);
    redlock_lock *m = NULL;
    CHECK_EQ(redlock_lock_new(&m, s.c[0], "sem-m", 5), 0);
    CHECK_EQ(redlock_lock_quorum(m), 3);                /* a mutex: the majority */
    redlock_lock_free(m);
    CHECK_RC(two, redlock_try_acquire(two, 10000), 0);
    CHECK_GE(redlock_lock_nodes_ok(two), 4);
    CHECK_RC(two, redlock_release(two), 0);
    CHECK_EQ(rlt_servers_kill(s.f.s, 0), 0);
    CHECK_NE(redlock_try_acquire(four, 10000), 0);
    CHECK(it_has(it_errstr(four), "quorum 5"));
    CHECK_EQ(redlock_lock_validity(four), 0);
    permit_key(key, sizeof key, "sem-q4", four);
    CHECK_EQ(it_wait_count(s.f.s, key, strlen(key), 0, 2000), 0);
    CHECK_EQ(it_wait_count(s.f.s, "sem-q4", 6, 0, 2000), 0);
    CHECK_RC(two, redlock_try_acquire(two, 10000), 0);
    CHECK_GT(redlock_lock_validity(two), 0);
    CHECK_RC(two, redlock_release(two), 0);
    sem_stop(&s);
}

/* Inspect: kind semaphore, the permit count, the live holders with their
 * time left, on every master and in the quorum's view (which counts a
 * holder on the semaphore's quorum of masters). */
TEST(semaphore_inspect_reports_holders_and_permits)
{
    struct sem s;
    const char *res = "sem-insp";
    redlock_inspection *in = NULL;
    redlock_inspect_node v;
    redlock_inspect_holder h;

    sem_start(&s, 5, NULL);
    redlock_lock *a = sem_new(&s, res, 3, NULL), *b = sem_new(&s, res, 3, NULL);
    CHECK_RC(a, redlock_try_acquire(a, 10000), 0);
    CHECK_RC(b, redlock_try_acquire(b, 20000), 0);
    /* a third holder on 3 masters only: under the quorum of 4 (N 5, P 3) */
    it_cmd_on(s.f.s, 0, 3, 0, "HSET sem-insp third 1");
    it_cmd_on(s.f.s, 0, 3, 0, "SET {sem-insp}:s:third 1 PX 30000");
    CHECK_EQ(redlock_inspect(s.c[0], res, strlen(res), &in), 0);
    CHECK_STREQ(redlock_held_name(REDLOCK_HELD_SEMAPHORE), "semaphore");
    for (size_t i = 0; i < 5; i++) {
        CHECK_EQ(redlock_inspection_node(in, i, &v), 0);
        CHECK_EQ(v.kind, REDLOCK_HELD_SEMAPHORE);
        CHECK_EQ(v.permits, 3);
        CHECK_EQ(v.holders, i < 3 ? 3u : 2u);
        CHECK_GT(v.ttl_ms, i < 3 ? 20000 : 10000);
    }
    CHECK_EQ(redlock_inspection_node(in, REDLOCK_INSPECT_QUORUM, &v), 0);
    CHECK_EQ(v.kind, REDLOCK_HELD_SEMAPHORE);
    CHECK_EQ(v.permits, 3);
    CHECK_EQ(v.holders, 2u);            /* "third" is on 3 < 4 masters */
    for (size_t i = 0; i < v.listed; i++) {
        size_t vlen;
        CHECK_EQ(redlock_inspection_holder(in, REDLOCK_INSPECT_QUORUM, i, &h), 0);
        const char *want = redlock_lock_value(h.ttl_ms > 10000 ? b : a, &vlen);
        CHECK_EQ(h.len, vlen);
        CHECK(memcmp(h.value, want, vlen) == 0);
        CHECK_GE(h.masters, 4u);
    }
    redlock_inspection_free(in);
    CHECK_RC(a, redlock_release(a), 0);
    CHECK_RC(b, redlock_release(b), 0);
    sem_stop(&s);
}

/* examples/semaphore.c: two workers hold, a third is refused until one
 * releases; another permit count is EPERMITS. */
TEST(semaphore_example_two_permits)
{
    static const char *const says[] = {
        "2 permits on 5 masters: each operation needs 4 of them", "worker 3 is refused",
        "all 2 permits are held", "a handle with 5 permits is refused: permit count mismatch",
        "worker 3 holds a permit", NULL };
    rlt_servers *s = it_start(5, NULL);
    it_example_says("examples/semaphore", s, says);
    rlt_servers_free(s);
}
