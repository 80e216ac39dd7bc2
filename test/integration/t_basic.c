/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_basic.c -- integration: acquire / try_acquire / extend / release on 1, 3
 * and 5 healthy masters, values, key prefix, binary names, freed clients. */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>

/* Validity right after an acquire of ttl started at t0_ms, with the
 * default drift (ttl * 0.01 + 2).  The time elapsed is read after the
 * validity: under valgrind the read itself may take a few ms. */
static void check_validity(const redlock_lock *lock, int64_t ttl, int64_t t0_ms)
{
    int64_t drift = ttl / 100 + 2;
    int64_t v = redlock_lock_validity(lock);
    int64_t elapsed_ms = check_now_ms() - t0_ms;
    CHECK_GT(v, 0);
    CHECK_LE(v, ttl);
    CHECK_LE(v, ttl - drift);
    CHECK_GE(v, ttl - drift - elapsed_ms - 2);
}

static const char cycle_res[] = "basic:resource";
#define CYCLE_RLEN (sizeof cycle_res - 1)

/* Does the lock hold the value first[0 .. firstlen) now? */
static int same_value(const redlock_lock *lock, const char *first, size_t firstlen)
{
    size_t vlen = 0;
    const char *val = redlock_lock_value(lock, &vlen);
    return val != NULL && vlen == firstlen && memcmp(val, first, vlen) == 0;
}

/* acquire: the validity, the votes, a value of ours on a quorum at once
 * and every master soon, their ttls within the lock's; the value is copied
 * into first. */
static size_t cycle_acquire(struct it_fix *f, redlock_lock *lock, int n, char *first,
                            size_t size)
{
    size_t quorum = (size_t)n / 2 + 1, vlen = 0;
    int64_t t0 = check_now_ms();
    CHECK_RC(lock, redlock_acquire(lock, 5000), REDLOCK_OK);
    check_validity(lock, 5000, t0);
    CHECK_GE(redlock_lock_nodes_ok(lock), quorum);
    CHECK_LE(redlock_lock_nodes_ok(lock), n);
    CHECK_STREQ(redlock_lock_errstr(lock), "");
    const char *val = redlock_lock_value(lock, &vlen);
    CHECK(val != NULL);
    CHECK_GT(vlen, 0);
    CHECK_LE(vlen, size);
    memcpy(first, val, vlen);
    CHECK_GE(it_count_lock(f->s, cycle_res, CYCLE_RLEN, lock), quorum);
    CHECK_EQ(it_wait_lock_count(f->s, cycle_res, CYCLE_RLEN, lock, n, 2000), n);
    for (int i = 0; i < n; i++) {
        long long pttl = it_pttl(f->s, i, cycle_res, CYCLE_RLEN);
        CHECK_GT(pttl, 0);
        CHECK_LE(pttl, 5000);
    }
    return vlen;
}

/* extend to a longer ttl: the masters' ttls grow, the value stays. */
static void cycle_extend(struct it_fix *f, redlock_lock *lock, int n, const char *first,
                         size_t firstlen)
{
    int64_t t0 = check_now_ms();
    CHECK_RC(lock, redlock_extend(lock, 20000), REDLOCK_OK);
    check_validity(lock, 20000, t0);
    CHECK_GE(redlock_lock_nodes_ok(lock), (size_t)n / 2 + 1);
    CHECK_LE(redlock_lock_nodes_ok(lock), n);
    CHECK(same_value(lock, first, firstlen));
    int64_t deadline = check_now_ms() + 2000;
    for (int i = 0; i < n; i++) {
        long long pttl;
        while ((pttl = it_pttl(f->s, i, cycle_res, CYCLE_RLEN)) <= 5000 &&
               check_now_ms() < deadline)
            ;
        CHECK_GT(pttl, 5000);
        CHECK_LE(pttl, 20000);
    }
    CHECK_EQ(it_count_lock(f->s, cycle_res, CYCLE_RLEN, lock), n);
}

/* release: the key is gone everywhere; then nothing is left to release or
 * extend. */
static void cycle_release(struct it_fix *f, redlock_lock *lock, int n)
{
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), n);
    CHECK_EQ(rlt_servers_count_key(f->s, cycle_res, CYCLE_RLEN), 0);
    CHECK_EQ(redlock_lock_validity(lock), 0);

    CHECK_RC(lock, redlock_release(lock), REDLOCK_ENOTOWNER);
    CHECK_EQ(redlock_lock_nodes_ok(lock), 0);
    CHECK_NE(it_errstr(lock)[0], '\0');
    CHECK_RC(lock, redlock_extend(lock, 1000), REDLOCK_ENOTOWNER);
    CHECK_EQ(rlt_servers_count_key(f->s, cycle_res, CYCLE_RLEN), 0);
}

/* try_acquire: one attempt, a fresh random value (not first). */
static void cycle_try_acquire(struct it_fix *f, redlock_lock *lock, int n, const char *first,
                              size_t firstlen)
{
    int64_t t0 = check_now_ms();
    CHECK_RC(lock, redlock_try_acquire(lock, 3000), REDLOCK_OK);
    check_validity(lock, 3000, t0);
    CHECK_STREQ(redlock_lock_errstr(lock), "");
    size_t vlen = 0;
    CHECK(redlock_lock_value(lock, &vlen) != NULL);
    CHECK(!same_value(lock, first, firstlen));
    CHECK_EQ(it_wait_lock_count(f->s, cycle_res, CYCLE_RLEN, lock, n, 2000), n);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lock), n);
    CHECK_EQ(rlt_servers_count_key(f->s, cycle_res, CYCLE_RLEN), 0);
}

static void basic_cycle(int n)
{
    struct it_fix f = {0};
    it_fix_start(&f, n, NULL, 0);
    CHECK_EQ(redlock_client_nodes(f.c), n);
    CHECK_EQ(redlock_client_quorum(f.c), (size_t)n / 2 + 1);
    CHECK_EQ(redlock_client_connected(f.c), n);

    redlock_lock *lock = it_fix_lock(&f, f.c, cycle_res);
    size_t vlen = 12345;
    CHECK(redlock_lock_value(lock, &vlen) == NULL);
    CHECK_EQ(redlock_lock_validity(lock), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, cycle_res, CYCLE_RLEN), 0); /* creating it sent nothing */

    char first[256];
    size_t firstlen = cycle_acquire(&f, lock, n, first, sizeof first);
    cycle_extend(&f, lock, n, first, firstlen);
    cycle_release(&f, lock, n);
    cycle_try_acquire(&f, lock, n, first, firstlen);
    it_fix_stop(&f);
}

TEST(basic_1_master)
{
    basic_cycle(1);
}

TEST(basic_3_masters)
{
    basic_cycle(3);
}

TEST(basic_5_masters)
{
    basic_cycle(5);
}

TEST(basic_quorum_sizes)
{
    /* Nodes need not be up for the client to exist. */
    static const char *const addrs[] = {"127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3",
                                        "127.0.0.1:4", "127.0.0.1:5", "127.0.0.1:6"};
    static const size_t quorum[] = {0, 1, 2, 2, 3, 3, 4};
    for (size_t n = 1; n <= 6; n++) {
        redlock_client *c = it_client_addrs(addrs, n, NULL, 0);
        CHECK_EQ(redlock_client_nodes(c), n);
        CHECK_EQ(redlock_client_quorum(c), quorum[n]);
        CHECK_EQ(redlock_client_connected(c), 0);
        redlock_client_free(c);
    }
}

TEST(basic_several_locks_one_client)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *a = it_fix_lock(&f, f.c, "several:a");
    redlock_lock *b = it_fix_lock(&f, f.c, "several:b");
    redlock_lock *a2 = it_fix_lock(&f, f.c, "several:a");
    CHECK_RC(a, redlock_acquire(a, 10000), REDLOCK_OK);
    CHECK_RC(b, redlock_acquire(b, 10000), REDLOCK_OK);
    /* a second lock object on a held resource is refused, even in the same client */
    CHECK_RC(a2, redlock_try_acquire(a2, 10000), REDLOCK_ENOQUORUM);
    CHECK_EQ(redlock_lock_validity(a2), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "several:a", 9, a, 3, 2000), 3);
    CHECK_EQ(it_wait_lock_count(f.s, "several:b", 9, b, 3, 2000), 3);
    CHECK_RC(a, redlock_release(a), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, "several:a", 9), 0);
    CHECK_EQ(it_count_lock(f.s, "several:b", 9, b), 3); /* b untouched */
    CHECK_RC(a2, redlock_try_acquire(a2, 10000), REDLOCK_OK);
    CHECK_RC(a2, redlock_release(a2), REDLOCK_OK);
    CHECK_RC(b, redlock_release(b), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, "several:b", 9), 0);
    it_fix_stop(&f);
}

TEST(basic_binary_resource_and_key_prefix)
{
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "rl:test:";
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, 0);
    static const char res[] = "a\0b\xff" "c";
    size_t rlen = sizeof res - 1; /* 5 bytes, with a NUL and a 0xff */
    static const char key[] = "rl:test:a\0b\xff" "c";
    size_t klen = sizeof key - 1;
    redlock_lock *lock = it_lock(f.c, res, rlen);
    CHECK_RC(lock, redlock_acquire(lock, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, key, klen, lock, 3, 2000), 3);
    /* neither the bare resource nor a truncated name is the key */
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, key, 9), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "rl:test:a", 9), 0);

    /* A resource differing only after the NUL is another lock. */
    static const char other[] = "a\0c\xff" "c";
    redlock_lock *lo = it_lock(f.c, other, sizeof other - 1);
    CHECK_RC(lo, redlock_try_acquire(lo, 10000), REDLOCK_OK);
    CHECK_RC(lo, redlock_release(lo), REDLOCK_OK);
    redlock_lock_free(lo);

    /* Another prefix: another key, so no conflict. */
    redlock_options o2;
    it_opts(&o2);
    o2.key_prefix = "other:";
    redlock_client *c2 = it_fix_client(&f, &o2);
    redlock_lock *l2 = it_lock(c2, res, rlen);
    CHECK_RC(l2, redlock_try_acquire(l2, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, "other:a\0b\xff" "c", 11, l2, 3, 2000), 3);
    CHECK_RC(l2, redlock_release(l2), REDLOCK_OK);

    /* Same prefix from another client: refused. */
    redlock_client *c3 = it_fix_client(&f, &o);
    redlock_lock *l3 = it_lock(c3, res, rlen);
    CHECK_RC(l3, redlock_try_acquire(l3, 10000), REDLOCK_ENOQUORUM);

    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, key, klen), 0);
    CHECK_RC(l3, redlock_try_acquire(l3, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, key, klen, l3, 3, 2000), 3);
    CHECK_RC(l3, redlock_release(l3), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, key, klen), 0);

    redlock_lock_free(lock);
    redlock_lock_free(l2);
    redlock_lock_free(l3);
    it_fix_stop(&f);
}

TEST(basic_fixed_value_and_handover)
{
    struct it_fix f = {0};
    static const char res[] = "handover";
    size_t rlen = sizeof res - 1;
    redlock_lock *la, *lb;
    it_fix_two(&f, 3, 0, NULL, res, &la, &lb);

    /* A fixed value is what lands on the masters. */
    static const char fixed[] = "fixed\0value\xff";
    CHECK_RC(la, redlock_lock_set_value(la, fixed, sizeof fixed - 1), REDLOCK_OK);
    size_t vlen = 0;
    const char *v = redlock_lock_value(la, &vlen);
    CHECK(v != NULL && vlen == sizeof fixed - 1 && memcmp(v, fixed, vlen) == 0);
    CHECK_RC(la, redlock_acquire(la, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, res, rlen, la, 3, 2000), 3);
    CHECK_EQ(it_count_value(f.s, res, rlen, fixed, sizeof fixed - 1), 3);

    /* Another process given the value can extend and release it. */
    CHECK_RC(lb, redlock_lock_set_value(lb, fixed, sizeof fixed - 1), REDLOCK_OK);
    CHECK_RC(lb, redlock_extend(lb, 30000), REDLOCK_OK);
    CHECK_GT(redlock_lock_validity(lb), 10000);
    int64_t deadline = check_now_ms() + 2000;
    while (it_pttl(f.s, 0, res, rlen) <= 10000 && check_now_ms() < deadline)
        ;
    CHECK_GT(it_pttl(f.s, 0, res, rlen), 10000);
    CHECK_RC(lb, redlock_release(lb), REDLOCK_OK);
    CHECK_EQ(redlock_lock_nodes_ok(lb), 3);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);
    /* ... after which the original holder is no longer the owner */
    CHECK_RC(la, redlock_release(la), REDLOCK_ENOTOWNER);
    CHECK_RC(la, redlock_extend(la, 1000), REDLOCK_ENOTOWNER);
    CHECK_EQ(rlt_servers_count_key(f.s, res, rlen), 0);

    /* Back to random values: two acquires put two different values. */
    CHECK_RC(la, redlock_lock_set_value(la, NULL, 0), REDLOCK_OK);
    CHECK_RC(la, redlock_try_acquire(la, 10000), REDLOCK_OK);
    v = redlock_lock_value(la, &vlen);
    CHECK(v != NULL);
    CHECK(vlen != sizeof fixed - 1 || memcmp(v, fixed, vlen) != 0);
    CHECK_EQ(it_count_value(f.s, res, rlen, fixed, sizeof fixed - 1), 0);
    CHECK_RC(la, redlock_release(la), REDLOCK_OK);

    it_fix_stop(&f);
}

TEST(basic_huge_ttl)
{
    struct it_fix f = {0};
    it_fix_start(&f, 1, NULL, 0);
    redlock_lock *lock = it_fix_lock(&f, f.c, "huge");
    const int64_t ttl = (int64_t)1 << 40;
    CHECK_RC(lock, redlock_try_acquire(lock, ttl), REDLOCK_OK);
    CHECK_GT(redlock_lock_validity(lock), ttl / 2);
    CHECK_LE(redlock_lock_validity(lock), ttl);
    CHECK_GT(it_pttl(f.s, 0, "huge", 4), ttl - 60000);
    CHECK_RC(lock, redlock_extend(lock, ttl), REDLOCK_OK);
    CHECK_RC(lock, redlock_release(lock), REDLOCK_OK);
    CHECK_EQ(rlt_servers_count_key(f.s, "huge", 4), 0);
    it_fix_stop(&f);
}

TEST(basic_client_freed_with_live_locks)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    redlock_client *c = it_client(f.s, NULL);
    redlock_lock *held = IT_LOCK(c, "closed:held");
    redlock_lock *idle = IT_LOCK(c, "closed:idle");
    CHECK_RC(held, redlock_acquire(held, 10000), REDLOCK_OK);
    CHECK_EQ(it_wait_lock_count(f.s, "closed:held", 11, held, 3, 2000), 3);
    redlock_client_free(c);

    CHECK_RC(held, redlock_release(held), REDLOCK_ECLOSED);
    CHECK_NE(it_errstr(held)[0], '\0');
    CHECK_RC(held, redlock_extend(held, 1000), REDLOCK_ECLOSED);
    CHECK_RC(held, redlock_acquire(held, 1000), REDLOCK_ECLOSED);
    CHECK_RC(held, redlock_try_acquire(held, 1000), REDLOCK_ECLOSED);
    CHECK_RC(idle, redlock_acquire(idle, 1000), REDLOCK_ECLOSED);
    CHECK_RC(idle, redlock_release(idle), REDLOCK_ECLOSED);
    CHECK_NE(it_errstr(idle)[0], '\0');
    CHECK_EQ(redlock_lock_validity(idle), 0);
    /* Freeing the client released nothing: the key waits for its ttl. */
    CHECK_EQ(it_count_lock(f.s, "closed:held", 11, held), 3);
    CHECK_EQ(rlt_servers_count_key(f.s, "closed:idle", 11), 0);
    redlock_lock_free(held);
    redlock_lock_free(idle);
    redlock_lock_free(NULL);
    redlock_client_free(NULL);
    it_fix_stop(&f);
}
