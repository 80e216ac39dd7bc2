/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_metrics_buckets.c -- unit: a time's histogram bucket (lock/metrics.c):
 * the bucket `le` is the first whose bound the time does not pass. */
#include "check.h"
#include "client/client.h"

/* The bucket redlock__hist_add puts `us` in. */
static size_t bucket_of(int64_t us)
{
    redlock__hist h = {{0}, 0};
    size_t i;

    redlock__hist_add(&h, us);
    for (i = 0; i <= REDLOCK__BOUNDS && !h.n[i]; i++)
        ;
    CHECK(i <= REDLOCK__BOUNDS);
    CHECK_EQ(h.sum_us, us < 0 ? 0 : us);
    return i;
}

TEST(metrics_buckets_le_inclusive)
{
    CHECK_EQ(bucket_of(-5), 0);
    CHECK_EQ(bucket_of(0), 0);
    CHECK_EQ(bucket_of(1), 0);
    for (size_t i = 0; i < REDLOCK__BOUNDS; i++) {
        int64_t b = redlock__bound_us[i];
        CHECK_EQ(bucket_of(b), i);
        CHECK_EQ(bucket_of(b - 1), i > 0 && b - 1 <= redlock__bound_us[i - 1] ? i - 1 : i);
        CHECK_EQ(bucket_of(b + 1), i + 1);
        if (i > 0)
            CHECK_EQ(bucket_of(redlock__bound_us[i - 1] + 1), i);
    }
    CHECK_EQ(bucket_of(INT64_MAX), REDLOCK__BOUNDS);
    /* every power of two and its neighbours, against a plain scan */
    for (int k = 0; k < 63; k++)
        for (int64_t d = -1; d <= 1; d++) {
            int64_t us = ((int64_t)1 << k) + d;
            size_t want = 0;
            while (want < REDLOCK__BOUNDS && us > redlock__bound_us[want])
                want++;
            CHECK_EQ(bucket_of(us), want);
        }
}
