/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_keys.c -- the library's own keys on the masters ("{K}" + a suffix, K
 * the lock's key: docs/kinds.md, "Keys"): no resource reaches them, a name
 * that would is REDLOCK_EINVAL, and one resource's keys share its Redis
 * Cluster hash slot.
 */
#include "itest.h"

#include <stdio.h>
#include <string.h>
#include <hiredis/hiredis.h>

enum { ACQUIRE, TRY, RELEASE };

/* One operation of l on f->base, waited for: its status. */
static int op(struct it_fix *f, redlock_lock *l, int what)
{
    struct it_op o = {f->base};
    int rc = what == ACQUIRE ? redlock_acquire_async(l, 20000, it_op_cb, &o)
             : what == TRY   ? redlock_try_acquire_async(l, 20000, it_op_cb, &o)
                             : redlock_release_async(l, it_op_cb, &o);
    CHECK_RC(l, rc, 0);
    if (rc == 0)
        it_op_wait(&o, 10000);
    return o.status;
}

static long long integer_on(rlt_servers *s, int i, const char *fmt, const void *key, size_t len)
{
    redisReply *r = rlt_servers_command(s, i, fmt, key, len);
    long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -1;
    CHECK_MSG(v >= 0, "%s: %s", fmt, r && r->type == REDIS_REPLY_ERROR ? r->str : "no integer");
    if (r)
        freeReplyObject(r);
    return v;
}

/* Wait until master 0 answers `fmt` on key with at least 1 (5 s at most). */
static long long wait_on_master0(struct it_fix *f, const char *fmt, const void *key, size_t len)
{
    int64_t end = check_now_ms() + 5000;
    long long v;
    while ((v = integer_on(f->s, 0, fmt, key, len)) < 1 && check_now_ms() < end)
        it_run(f->base, 5);
    return v;
}

/* The cases: a resource "x:fence" next to the fenced "x" (the
 * counter has no ttl: "x:fence" was refused for good), and a fenced "y"
 * while "y:fence" is held (its INCR met a lock's value: "ERR value is not
 * an integer"). */
TEST(keys_a_resource_named_like_a_fencing_counter_is_a_resource)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *x = it_fix_lock(&f, f.c, "x"), *m = it_fix_lock(&f, f.c, "x:fence");
    redlock_lock *y = it_fix_lock(&f, f.c, "y"), *n = it_fix_lock(&f, f.c, "y:fence");
    CHECK_EQ(redlock_lock_set_fencing(x, 1), 0);
    CHECK_EQ(redlock_lock_set_fencing(y, 1), 0);

    CHECK_RC(x, op(&f, x, ACQUIRE), 0);
    int64_t first = redlock_lock_token(x);
    CHECK_GT(first, 0);
    CHECK_RC(x, op(&f, x, RELEASE), 0);
    CHECK_RC(m, op(&f, m, TRY), 0);
    CHECK_RC(x, op(&f, x, TRY), 0);
    CHECK_GT(redlock_lock_token(x), first);
    CHECK_EQ(it_wait_lock_count(f.s, "x:fence", 7, m, 3, 5000), 3);
    CHECK_RC(x, op(&f, x, RELEASE), 0);
    CHECK_RC(m, op(&f, m, RELEASE), 0);

    CHECK_RC(n, op(&f, n, TRY), 0);
    CHECK_RC(y, op(&f, y, TRY), 0);
    CHECK_GT(redlock_lock_token(y), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "y:fence", 7, n, 3, 5000), 3);
    CHECK_RC(y, op(&f, y, RELEASE), 0);
    CHECK_RC(n, op(&f, n, RELEASE), 0);
    it_fix_stop(&f);
}

/* A re-entrant lock's second hold (its hash of counts) next to a mutex on
 * "r:h": both hold; the mutex's key is untouched. */
TEST(keys_reentrant_holds_next_to_a_mutex_on_its_suffix)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_lock *m = it_fix_lock(&f, f.c, "r:h"), *re;
    CHECK_EQ(redlock_lock_new_reentrant(&re, f.c, "r", 1, "alice", 5), 0);

    CHECK_RC(m, op(&f, m, TRY), 0);
    CHECK_RC(re, op(&f, re, TRY), 0);
    CHECK_RC(re, op(&f, re, TRY), 0);       /* the second hold: {r}:h */
    CHECK_EQ(redlock_lock_holds(re), 2);
    CHECK_EQ(it_wait_count(f.s, "{r}:h", 5, 3, 5000), 3);
    CHECK_EQ(it_wait_lock_count(f.s, "r:h", 3, m, 3, 5000), 3);
    CHECK_RC(re, op(&f, re, RELEASE), 0);
    CHECK_RC(re, op(&f, re, RELEASE), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "r:h", 3, m, 3, 5000), 3);
    CHECK_RC(m, op(&f, m, RELEASE), 0);
    redlock_lock_free(re);
    it_fix_stop(&f);
}

/* A reader's own key and a waiting writer's mark next to mutexes named
 * like them.  The reader's key used to overwrite the mutex "z:rd:v1"
 * (SET), and its release deleted it: a second holder of that mutex got
 * in.  A mutex on "z:ww" read as a waiting writer: readers were refused. */
TEST(keys_a_reader_next_to_mutexes_on_its_suffixes)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_client *c2 = it_fix_client(&f, NULL);
    redlock_lock *m = it_fix_lock(&f, f.c, "z:rd:v1"), *m2 = it_fix_lock(&f, c2, "z:rd:v1");
    redlock_lock *w = it_fix_lock(&f, f.c, "z:ww"), *rd;
    CHECK_EQ(redlock_lock_new_read(&rd, f.c, "z", 1), 0);
    CHECK_EQ(redlock_lock_set_value(rd, "v1", 2), 0);

    CHECK_RC(m, op(&f, m, TRY), 0);
    CHECK_RC(w, op(&f, w, TRY), 0);
    CHECK_RC(rd, op(&f, rd, TRY), 0);
    CHECK_EQ(it_wait_count(f.s, "{z}:rd:v1", 9, 3, 5000), 3);
    CHECK_EQ(it_wait_lock_count(f.s, "z:rd:v1", 7, m, 3, 5000), 3);
    CHECK_RC(rd, op(&f, rd, RELEASE), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "z:rd:v1", 7, m, 3, 5000), 3);
    CHECK_RC(m2, op(&f, m2, TRY), REDLOCK_ENOQUORUM);     /* m still holds it */
    CHECK_RC(m, op(&f, m, RELEASE), 0);
    CHECK_RC(w, op(&f, w, RELEASE), 0);
    redlock_lock_free(rd);
    it_fix_stop(&f);
}

/* Another client of f whose waiters are woken by the release, their own
 * poll only every 3 s. */
static redlock_client *wake_client(struct it_fix *f)
{
    redlock_options o;
    it_opts(&o);
    o.retry_delay_ms = 3000;
    o.retry_jitter_ms = 0;
    o.wake = 1;
    return it_fix_client(f, &o);
}

/* The registry of the clients waiting for "q" next to a mutex on "q:wq":
 * the waiter enters it and the release tells it (it used to meet a
 * string there and wait for its poll, 3 s later). */
TEST(keys_waiters_next_to_a_mutex_on_the_registrys_name)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    redlock_client *wc = wake_client(&f);
    redlock_lock *m = it_fix_lock(&f, f.c, "q:wq"), *a = it_fix_lock(&f, f.c, "q");
    redlock_lock *b = it_fix_lock(&f, wc, "q");
    struct it_op bo = {f.base};

    CHECK_RC(m, op(&f, m, TRY), 0);
    CHECK_RC(a, op(&f, a, TRY), 0);
    CHECK_RC(b, redlock_acquire_async(b, 20000, it_op_cb, &bo), 0);
    CHECK_EQ(wait_on_master0(&f, "ZCARD %b", "{q}:wq", 6), 1);
    int64_t t0 = check_now_ms();
    CHECK_RC(a, op(&f, a, RELEASE), 0);
    it_op_wait(&bo, 10000);
    CHECK_RC(b, bo.status, 0);
    check_note("the waiter in %lld ms after the release (its poll: 3000 ms)",
               (long long)(bo.at_ms - t0));
    CHECK_LT(bo.at_ms - t0, 1500);
    CHECK_EQ(it_wait_lock_count(f.s, "q:wq", 4, m, 3, 5000), 3);
    CHECK_RC(b, op(&f, b, RELEASE), 0);
    CHECK_RC(m, op(&f, m, RELEASE), 0);
    it_fix_stop(&f);
}

/* Names that would reach the library's keys: REDLOCK_EINVAL from every
 * constructor, saying why; '{' elsewhere and any other byte are fine. */
TEST(keys_names_that_reach_the_librarys_keys_are_einval)
{
    static const struct { const char *p; size_t len; } bad[] = {
        { "{x}:fence", 9 }, { "{", 1 }, { "a}b", 3 }, { "}", 1 }, { "x\0}", 3 } };
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, IT_NOCLIENT);
    redlock_client *c = it_fix_client(&f, NULL);
    redlock_lock *l = NULL;

    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const void *res[2] = { "ok", bad[i].p };
        size_t lens[2] = { 2, bad[i].len };
        CHECK_EQ(redlock_lock_new(&l, c, bad[i].p, bad[i].len), REDLOCK_EINVAL);
        CHECK(it_has(redlock_client_errstr(c), "starts with '{' or contains '}'"));
        CHECK_EQ(redlock_lock_new_reentrant(&l, c, bad[i].p, bad[i].len, NULL, 0), REDLOCK_EINVAL);
        CHECK_EQ(redlock_lock_new_read(&l, c, bad[i].p, bad[i].len), REDLOCK_EINVAL);
        CHECK_EQ(redlock_lock_new_write(&l, c, bad[i].p, bad[i].len), REDLOCK_EINVAL);
        CHECK_EQ(redlock_lock_new_multi(&l, c, res, lens, 2), REDLOCK_EINVAL);
        CHECK(it_has(redlock_client_errstr(c), "resource 1: "));
        CHECK(l == NULL);
    }
    CHECK_EQ(redlock_lock_new(&l, c, "a{b\0", 4), 0);
    redlock_lock_free(l);
    CHECK_EQ(redlock_lock_new(&l, c, "x:fence", 7), 0);
    redlock_lock_free(l);

    /* the key prefix counts: it is the key's start */
    redlock_options o;
    it_opts(&o);
    o.key_prefix = "{app}:";
    redlock_client *pc = it_fix_client(&f, &o);
    CHECK_EQ(redlock_lock_new(&l, pc, "x", 1), REDLOCK_EINVAL);
    o.key_prefix = "app}:";
    pc = it_fix_client(&f, &o);
    CHECK_EQ(redlock_lock_new(&l, pc, "x", 1), REDLOCK_EINVAL);
    o.key_prefix = "app{";
    pc = it_fix_client(&f, &o);
    CHECK_EQ(redlock_lock_new(&l, pc, "{x", 2), 0);
    redlock_lock_free(l);
    it_fix_stop(&f);
}

/* Redis Cluster's hash slot of a key: CRC16 (XMODEM) of its hash tag (the
 * bytes between the first '{' and the next '}', when not empty) or of the
 * whole key, mod 16384. */
static unsigned slot_of(const char *k, size_t len)
{
    const char *open = memchr(k, '{', len), *close;
    unsigned crc = 0;

    if (open && (close = memchr(open + 1, '}', len - (size_t)(open + 1 - k))) && close > open + 1) {
        len = (size_t)(close - open - 1);
        k = open + 1;
    }
    for (size_t i = 0; i < len; i++) {
        crc ^= (unsigned)(unsigned char)k[i] << 8;
        for (int b = 0; b < 8; b++)
            crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1;
        crc &= 0xffff;
    }
    return crc % 16384;
}

/* The resources of keys_of_one_resource_share_its_cluster_slot, with a NUL
 * and a '{', and the suffixes of the library's keys. */
static const char rf[] = "f\0{", rr[] = "r{\0", rw[] = "w\0w";
static const struct { const char *p; size_t len; } slot_res[] = {
    { rf, 3 }, { rr, 3 }, { rw, 3 } };
static const char *const slot_suffix[] = { ":fence", ":wq", ":h", ":rd:", ":ww" };

struct slot_locks {
    redlock_lock *h, *waiter, *re, *rd, *wr;
    struct it_op wo, bo;        /* the write lock's and the waiter's acquires */
};

/* Every kind holds or waits for one of the resources, so that each of the
 * library's keys exists on master 0. */
static void slot_hold_all(struct it_fix *f, redlock_client *wc, struct slot_locks *k)
{
    k->wo = k->bo = (struct it_op){f->base};
    CHECK_EQ(redlock_lock_new(&k->h, f->c, rf, 3), 0);
    CHECK_EQ(redlock_lock_new(&k->waiter, wc, rf, 3), 0);
    CHECK_EQ(redlock_lock_new_reentrant(&k->re, f->c, rr, 3, NULL, 0), 0);
    CHECK_EQ(redlock_lock_new_read(&k->rd, f->c, rw, 3), 0);
    CHECK_EQ(redlock_lock_set_value(k->rd, "id1", 3), 0);
    CHECK_EQ(redlock_lock_new_write(&k->wr, wc, rw, 3), 0);
    CHECK_EQ(redlock_lock_set_fencing(k->h, 1), 0);
    CHECK_EQ(redlock_lock_set_fencing(k->waiter, 1), 0);
    CHECK_RC(k->h, op(f, k->h, TRY), 0);
    CHECK_RC(k->waiter, redlock_acquire_async(k->waiter, 20000, it_op_cb, &k->bo), 0);
    CHECK_RC(k->re, op(f, k->re, TRY), 0);
    CHECK_RC(k->re, op(f, k->re, TRY), 0);
    CHECK_RC(k->rd, op(f, k->rd, TRY), 0);
    CHECK_RC(k->wr, redlock_acquire_async(k->wr, 20000, it_op_cb, &k->wo), 0);
    CHECK_EQ(wait_on_master0(f, "ZCARD %b", "{f\0{}:wq", 8), 1);
    CHECK_EQ(wait_on_master0(f, "EXISTS %b", "{w\0w}:ww", 8), 1);
    /* (a decided operation's last master may answer later) */
    CHECK_EQ(wait_on_master0(f, "EXISTS %b", "{f\0{}:fence", 11), 1);
    CHECK_EQ(wait_on_master0(f, "EXISTS %b", "{r{\0}:h", 7), 1);
    CHECK_EQ(wait_on_master0(f, "EXISTS %b", "{w\0w}:rd:id1", 12), 1);
}

/* Key i of master 0 (k, len) is a resource's key K or "{K}" + a suffix,
 * and it hashes to K's slot; the suffix it has is counted in seen. */
static void slot_check_key(size_t i, const char *k, size_t len, int *seen)
{
    size_t klen = len, j, s;
    const char *close = len && k[0] == '{' ? memchr(k, '}', len) : NULL;
    if (close)
        klen = (size_t)(close - k - 1);
    for (j = 0; j < 3; j++)
        if (slot_res[j].len == klen && !memcmp(slot_res[j].p, close ? k + 1 : k, klen))
            break;
    CHECK_MSG(j < 3, "key %zu (%zu bytes) is no resource's", i, len);
    CHECK_EQ(slot_of(k, len), slot_of(slot_res[j].p, slot_res[j].len));
    for (s = 0; close && s < 5; s++)
        if (!strncmp(close + 1, slot_suffix[s], strlen(slot_suffix[s])))
            seen[s]++;
}

/* The waiters get their locks as the holders release; all released. */
static void slot_release_all(struct it_fix *f, struct slot_locks *k)
{
    CHECK_RC(k->h, op(f, k->h, RELEASE), 0);
    it_op_wait(&k->bo, 10000);
    CHECK_RC(k->waiter, k->bo.status, 0);
    CHECK_RC(k->rd, op(f, k->rd, RELEASE), 0);
    it_op_wait(&k->wo, 10000);
    CHECK_RC(k->wr, k->wo.status, 0);
    CHECK_RC(k->waiter, op(f, k->waiter, RELEASE), 0);
    CHECK_RC(k->wr, op(f, k->wr, RELEASE), 0);
    CHECK_RC(k->re, op(f, k->re, RELEASE), 0);
    CHECK_RC(k->re, op(f, k->re, RELEASE), 0);
    redlock_lock_free(k->h);
    redlock_lock_free(k->waiter);
    redlock_lock_free(k->re);
    redlock_lock_free(k->rd);
    redlock_lock_free(k->wr);
}

/* Every key the kinds write, for resources with a NUL and a '{': each key
 * is a resource's key K or "{K}" + a suffix of the library's, and it hashes
 * to K's slot. */
TEST(keys_of_one_resource_share_its_cluster_slot)
{
    int seen[5] = {0};
    struct it_fix f = {0};
    struct slot_locks k;
    it_fix_start(&f, 3, NULL, IT_ASYNC);
    slot_hold_all(&f, wake_client(&f), &k);

    redisReply *r = rlt_servers_command(f.s, 0, "KEYS *");
    CHECK(r && r->type == REDIS_REPLY_ARRAY);
    for (size_t i = 0; i < r->elements; i++)
        slot_check_key(i, r->element[i]->str, r->element[i]->len, seen);
    freeReplyObject(r);
    for (size_t s = 0; s < 5; s++)
        CHECK_MSG(seen[s] > 0, "no key with the suffix %s", slot_suffix[s]);
    slot_release_all(&f, &k);
    it_fix_stop(&f);
}

/* An ACL's key pattern for the prefix "lock:" covers the keys (K); the
 * library's own keys start with "{lock:": a second pattern (fencing's
 * counter here; docs/security.md).  A plain lock needs only the first:
 * the release names no other key (the registry of waiters, when there
 * is one, is the script's own business, and a refusal there never
 * refuses the release). */
TEST(keys_an_acl_covers_the_librarys_keys_by_their_brace)
{
    rlt_servers *s = it_start(3, NULL);
    const char *addrs[3];
    char buf[3][128];
    redlock_options o;
    redlock_client *c;
    redlock_lock *l;

    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < 3; i++) {
            redisReply *r = rlt_servers_command(s, i,
                "ACL SETUSER locker on >lockpw resetkeys ~lock:* %s resetchannels -@all "
                "+set +get +del +pexpire +incr +evalsha +eval +ping +script|load "
                "+client|info +client|kill", pass ? "~{lock:*" : "~lock:*");
            CHECK(r && r->type == REDIS_REPLY_STATUS);
            freeReplyObject(r);
            snprintf(buf[i], sizeof buf[i], "redis://locker:lockpw@127.0.0.1:%d",
                     rlt_servers_port(s, i));
            addrs[i] = buf[i];
        }
        it_opts(&o);
        o.key_prefix = "lock:";
        c = it_client_new(NULL, addrs, 3, &o);
        l = IT_LOCK(c, "acl-fenced");
        CHECK_EQ(redlock_lock_set_fencing(l, 1), 0);
        if (pass == 0) {
            CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_ESERVER);
            CHECK_MSG(it_has(redlock_lock_errstr(l), "NOPERM"), "%s", redlock_lock_errstr(l));
            redlock_lock *plain = IT_LOCK(c, "acl-plain");
            CHECK_RC(plain, redlock_try_acquire(plain, 10000), 0);
            CHECK_RC(plain, redlock_release(plain), 0);
            CHECK_EQ(rlt_servers_count_key(s, "lock:acl-plain", 14), 0);
            redlock_lock_free(plain);
        } else {
            /* every master's handshake done: an attempt decided before a
             * master's would not be sent there (no counter there) */
            CHECK_EQ(redlock_client_wait_connected(c, 3, 5000), 0);
            CHECK_RC(l, redlock_try_acquire(l, 10000), 0);
            CHECK_GT(redlock_lock_token(l), 0);
            CHECK_RC(l, redlock_release(l), 0);
            CHECK_EQ(it_wait_count(s, "{lock:acl-fenced}:fence", 23, 3, 5000), 3);
        }
        redlock_lock_free(l);
        redlock_client_free(c);
    }
    rlt_servers_free(s);
}
