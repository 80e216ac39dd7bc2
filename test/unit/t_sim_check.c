/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_sim_check.c -- the simulator's checkers (sim/check.c): exclusion in
 * true time for every kind, and validity backed by a quorum.  A checker
 * that cannot report is no checker: each case that must be reported is.
 * Pure, no server. */
#include <string.h>
#include "check.h"
#include "sim/check.h"

TEST(sim_check_mutex_one_holder_at_a_time)
{
    sim_check *k = sim_check_new();

    CHECK_EQ(sim_check_hold(k, "r", SIM_HOLD_MUTEX, 0, 1, 0, 10000), 0);
    CHECK_EQ(sim_check_holders(k, "r", SIM_HOLD_MUTEX, 5000), 1u);
    /* another while the first believes: reported, with both */
    CHECK_EQ(sim_check_hold(k, "r", SIM_HOLD_MUTEX, 0, 2, 9000, 19000), -1);
    CHECK_EQ(sim_check_violations(k), 1u);
    CHECK(strstr(sim_check_why(k), "hold 2") != NULL);
    CHECK(strstr(sim_check_why(k), "hold 1") != NULL);
    sim_check_end(k, "r", SIM_HOLD_MUTEX, 2);
    /* once the first's validity ended, or it released: no overlap */
    CHECK_EQ(sim_check_hold(k, "r", SIM_HOLD_MUTEX, 0, 3, 10000, 20000), 0);
    sim_check_end(k, "r", SIM_HOLD_MUTEX, 3);
    CHECK_EQ(sim_check_hold(k, "r", SIM_HOLD_MUTEX, 0, 4, 10000, 20000), 0);
    /* an extend by the holder is no second holder; past its end it is */
    CHECK_EQ(sim_check_hold(k, "r", SIM_HOLD_MUTEX, 0, 4, 15000, 30000), 0);
    CHECK_EQ(sim_check_until(k, "r", SIM_HOLD_MUTEX, 4), 30000);
    CHECK_EQ(sim_check_hold(k, "r", SIM_HOLD_MUTEX, 0, 5, 29999, 40000), -1);
    /* other names, and the other kinds' keys, never meet it */
    CHECK_EQ(sim_check_hold(k, "s", SIM_HOLD_MUTEX, 0, 6, 20000, 40000), 0);
    CHECK_EQ(sim_check_hold(k, "r", SIM_HOLD_PERMIT, 1, 7, 20000, 40000), 0);
    CHECK_EQ(sim_check_hold(k, "r", SIM_HOLD_WRITE, 0, 8, 20000, 40000), 0);
    CHECK_EQ(sim_check_violations(k), 2u);
    sim_check_free(k);
}

TEST(sim_check_semaphore_at_most_p)
{
    sim_check *k = sim_check_new();

    for (unsigned long h = 1; h <= 3; h++)
        CHECK_EQ(sim_check_hold(k, "s", SIM_HOLD_PERMIT, 3, h, 100 * (int64_t)h, 10000), 0);
    CHECK_EQ(sim_check_holders(k, "s", SIM_HOLD_PERMIT, 500), 3u);
    CHECK_EQ(sim_check_hold(k, "s", SIM_HOLD_PERMIT, 3, 4, 600, 10000), -1);
    CHECK(strstr(sim_check_why(k), "over P") != NULL);
    sim_check_end(k, "s", SIM_HOLD_PERMIT, 4);
    sim_check_end(k, "s", SIM_HOLD_PERMIT, 2);
    CHECK_EQ(sim_check_hold(k, "s", SIM_HOLD_PERMIT, 3, 5, 700, 10000), 0);
    CHECK_EQ(sim_check_violations(k), 1u);
    sim_check_free(k);
}

TEST(sim_check_readers_or_one_writer)
{
    sim_check *k = sim_check_new();

    CHECK_EQ(sim_check_hold(k, "rw", SIM_HOLD_READ, 0, 1, 0, 10000), 0);
    CHECK_EQ(sim_check_hold(k, "rw", SIM_HOLD_READ, 0, 2, 10, 10000), 0);
    CHECK_EQ(sim_check_hold(k, "rw", SIM_HOLD_WRITE, 0, 3, 20, 10000), -1);
    sim_check_end(k, "rw", SIM_HOLD_WRITE, 3);
    sim_check_end(k, "rw", SIM_HOLD_READ, 1);
    sim_check_end(k, "rw", SIM_HOLD_READ, 2);
    CHECK_EQ(sim_check_hold(k, "rw", SIM_HOLD_WRITE, 0, 4, 30, 10000), 0);
    CHECK_EQ(sim_check_hold(k, "rw", SIM_HOLD_READ, 0, 5, 40, 10000), -1);
    sim_check_end(k, "rw", SIM_HOLD_READ, 5);
    CHECK_EQ(sim_check_hold(k, "rw", SIM_HOLD_WRITE, 0, 6, 50, 10000), -1);
    CHECK_EQ(sim_check_violations(k), 3u);
    sim_check_free(k);
}

TEST(sim_check_validity_backed_by_a_quorum)
{
    sim_check *k = sim_check_new();

    CHECK_EQ(sim_check_backed(k, "r", 1, 0, 10000, 3, 3), 0);
    CHECK_EQ(sim_check_backed(k, "r", 1, 0, 10000, 5, 3), 0);
    CHECK_EQ(sim_check_backed(k, "r", 1, 0, 10000, 2, 3), -1);
    CHECK(strstr(sim_check_why(k), "only 2 masters") != NULL);
    /* a semaphore's quorum is larger */
    CHECK_EQ(sim_check_backed(k, "s", 2, 0, 10000, 3, 4), -1);
    /* no validity believed: nothing to back */
    CHECK_EQ(sim_check_backed(k, "r", 1, 10000, 10000, 0, 3), 0);
    CHECK_EQ(sim_check_violations(k), 2u);
    sim_check_free(k);
}
