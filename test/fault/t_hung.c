/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* A master that hangs (SIGSTOP): each operation waits for it at most the
 * node timeout, and after max_timeouts timeouts in a row its connection is
 * dropped, so that it fails fast while it stays silent, and it counts again
 * once it answers. */
#include "itest.h"
#include "fixture.h"

TEST(hung_master_is_reconnected_after_max_timeouts)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 100;
    o.connect_timeout_ms = 5000;    /* the paused node's handshake never ends */
    o.max_timeouts = 3;
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "hung");
    redlock_node_stats st;
    redlock_node_result r;

    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    /* releases wait for every node: each of the first three pays the timeout */
    for (int i = 0; i < 3; i++) {
        CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
        int64_t t0 = check_now_ms();
        CHECK_RC(l, redlock_release(l), REDLOCK_OK);
        int64_t took = check_now_ms() - t0;
        CHECK_GE(took, 95);
        CHECK_LT(took, 100 + 400);
        CHECK_EQ(redlock_lock_node_result(l, 2, &r), 0);
        CHECK_EQ(r.vote, REDLOCK_VOTE_TIMEOUT);
    }
    /* the third timeout in a row dropped the connection: from now on the
     * node votes "down" at once while it does not answer */
    CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
    int64_t t0 = check_now_ms();
    CHECK_RC(l, redlock_release(l), REDLOCK_OK);
    CHECK_LT(check_now_ms() - t0, 50);
    CHECK_EQ(redlock_lock_node_result(l, 2, &r), 0);
    CHECK_EQ(r.vote, REDLOCK_VOTE_DOWN);
    CHECK_MSG(strstr(r.detail, "not answering") || strstr(r.detail, "not connected"),
              "detail: %s", r.detail);
    CHECK_EQ(redlock_client_node_stats(f.c, 2, &st), 0);
    CHECK_EQ(st.connected, 0);
    CHECK_EQ(st.timeouts, 3);
    CHECK(strstr(st.last_error, "3 requests in a row timed out") != NULL);

    /* resumed: it answers the pending handshake and counts again */
    check_counted_after_resume(&f, 2, l, "hung");
    it_fix_stop(&f);
}

TEST(hung_master_kept_with_max_timeouts_zero)
{
    redlock_options o;
    it_opts(&o);
    o.node_timeout_ms = 60;
    o.max_timeouts = 0;             /* never drop for timeouts */
    struct it_fix f = {0};
    it_fix_start(&f, 3, &o, 0);
    redlock_lock *l = it_fix_lock(&f, f.c, "hung0");
    redlock_node_result r;

    CHECK_EQ(rlt_servers_pause(f.s, 2), 0);
    for (int i = 0; i < 5; i++) {
        CHECK_RC(l, redlock_try_acquire(l, 10000), REDLOCK_OK);
        CHECK_RC(l, redlock_release(l), REDLOCK_OK);
        CHECK_EQ(redlock_lock_node_result(l, 2, &r), 0);
        CHECK_EQ(r.vote, REDLOCK_VOTE_TIMEOUT);     /* still waited for, every time */
    }
    CHECK_EQ(rlt_servers_resume(f.s, 2), 0);
    /* the queued requests are answered in order; the node was never dropped */
    redlock_node_stats st;
    CHECK_EQ(redlock_client_node_stats(f.c, 2, &st), 0);
    CHECK_EQ(st.connects, 1);
    CHECK_EQ(st.connected, 1);
    it_fix_stop(&f);
}
