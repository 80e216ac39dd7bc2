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

TEST(semaphore_a_release_frees_a_permit_for_another)
{
    struct sem s;
    const char *res = "sem-rel";
    char key[128];

    sem_start(&s, 3, NULL);
    redlock_lock *a = sem_new(&s, res, 2, NULL), *b = sem_new(&s, res, 2, NULL);
    redlock_lock *c = sem_new(&s, res, 2, NULL);
    CHECK_RC(a, redlock_try_acquire(a, 10000), 0);
    CHECK_RC(b, redlock_try_acquire(b, 10000), 0);
    CHECK_RC(c, redlock_try_acquire(c, 10000), REDLOCK_ENOQUORUM);
    permit_key(key, sizeof key, res, a);
    CHECK_RC(a, redlock_release(a), 0);
    CHECK_EQ(it_wait_count(s.f.s, key, strlen(key), 0, 2000), 0);
    CHECK_RC(c, redlock_try_acquire(c, 10000), 0);
    CHECK_RC(b, redlock_release(b), 0);
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
    CHECK_RC(a, redlock_acquire(a, 10000), 0);
    snapshot(s.f.s, 3, before, &calls0, "evalsha");
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
