/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_edge_deleted.c -- a lock key deleted behind the holder's back (an
 * operator's DEL) is the lock taken away: the extend re-grows a missing
 * key only on a master that restarted since the hold began; elsewhere the
 * missing key is a refusal, and a quorum of them is a lost lock.
 */
#include "itest.h"

#include <string.h>
#include <event2/event.h>

/* DEL of the key on every master while the watchdog keeps the lock: its
 * next extend is refused (no key re-grown) and the notice says REFUSED,
 * at that extend, long before the validity would end. */
TEST(deleted_key_on_every_master_is_a_lost_lock)
{
    struct it_fix f = {.key = "del-all"};
    struct it_lost w = {0};
    struct it_op op = {0};
    const int64_t ttl = 3000;

    it_fix_start(&f, 3, NULL, IT_ASYNC);
    w.base = op.base = f.base;
    CHECK_EQ(redlock_lock_set_watchdog(f.lock, 0, 0), 0);     /* every ttl/3 */
    CHECK_EQ(redlock_lock_on_lost(f.lock, it_lost_cb, &w), 0);
    CHECK_RC(f.lock, redlock_acquire_async(f.lock, ttl, it_op_cb, &op), 0);
    it_op_wait(&op, 5000);
    CHECK_RC(f.lock, op.status, 0);
    int64_t t0 = check_now_ms();
    CHECK_EQ(it_wait_lock_count(f.s, "del-all", 7, f.lock, 3, 2000), 3);
    for (int i = 0; i < 3; i++)
        it_del(f.s, i, "del-all");
    int64_t until = t0 + 2 * ttl;
    while (!w.n && check_now_ms() < until)
        it_dispatch(f.base, until - check_now_ms());
    check_note("notice %lld ms after the acquire (the watchdog's extend every %lld ms)",
               (long long)(check_now_ms() - t0), (long long)ttl / 3);
    CHECK_EQ(w.n, 1);
    CHECK_EQ(w.reason, REDLOCK_LOST_REFUSED);
    CHECK_LT(check_now_ms(), t0 + ttl / 3 + 1000);
    CHECK_EQ(redlock_lock_validity(f.lock), 0);
    CHECK_EQ(rlt_servers_count_key(f.s, "del-all", 7), 0);     /* not re-grown */
    it_fix_stop(&f);
}

/* Per master: master 0 restarted (its key gone with it) is re-grown;
 * master 1, whose key was deleted without a restart, refuses and stays
 * without it; master 2 extends.  An explicit extend, so the blocking
 * call's outcome is the check. */
TEST(deleted_key_refused_restarted_master_regrown)
{
    struct it_fix f = {.key = "del-one"};
    redlock_node_result r;
    size_t vlen = 0;

    it_fix_start(&f, 3, NULL, 0);
    CHECK_RC(f.lock, redlock_acquire(f.lock, 30000), 0);
    CHECK_EQ(it_wait_lock_count(f.s, "del-one", 7, f.lock, 3, 2000), 3);
    CHECK_EQ(rlt_servers_restart(f.s, 0), 0);
    it_del(f.s, 1, "del-one");
    CHECK_EQ(redlock_client_wait_connected(f.c, 3, 5000), 0);
    CHECK_RC(f.lock, redlock_extend(f.lock, 30000), 0);
    CHECK_EQ(redlock_lock_node_result(f.lock, 0, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_OK);                          /* re-grown */
    CHECK_EQ(it_wait_lock_count(f.s, "del-one", 7, f.lock, 2, 2000), 2);
    const char *v = redlock_lock_value(f.lock, &vlen);
    CHECK_EQ(it_has_value(f.s, 0, "del-one", 7, v, vlen), 1);
    CHECK_EQ(rlt_servers_exists(f.s, 1, "del-one", 7), 0);     /* not re-grown */
    /* with a second master's key deleted, the extend has no quorum */
    it_del(f.s, 2, "del-one");
    CHECK_RC(f.lock, redlock_extend(f.lock, 30000), REDLOCK_ENOTOWNER);
    CHECK_EQ(redlock_lock_validity(f.lock), 0);
    CHECK_EQ(rlt_servers_exists(f.s, 1, "del-one", 7), 0);
    CHECK_EQ(rlt_servers_exists(f.s, 2, "del-one", 7), 0);
    it_fix_stop(&f);
}
