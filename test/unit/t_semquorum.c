/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_semquorum.c -- the semaphore's quorum (quorum.c): the smallest q with
 * q * (P + 1) > P * n, checked against a table and against its
 * definition, and the pigeonhole it rests on.  Pure, no server. */
#include "check.h"
#include "client/client.h"

/* q for n = 1 .. 9 (rows) and P = 1 .. 8 (columns), worked out by hand
 * from n + 1 - ceil(n / (P + 1)); docs/kinds.md has the same table. */
static const unsigned table[9][8] = {
    /* P:  1  2  3  4  5  6  7  8 */
    { 1, 1, 1, 1, 1, 1, 1, 1 },     /* n = 1 */
    { 2, 2, 2, 2, 2, 2, 2, 2 },     /* n = 2 */
    { 2, 3, 3, 3, 3, 3, 3, 3 },     /* n = 3 */
    { 3, 3, 4, 4, 4, 4, 4, 4 },     /* n = 4 */
    { 3, 4, 4, 5, 5, 5, 5, 5 },     /* n = 5 */
    { 4, 5, 5, 5, 6, 6, 6, 6 },     /* n = 6 */
    { 4, 5, 6, 6, 6, 7, 7, 7 },     /* n = 7 */
    { 5, 6, 7, 7, 7, 7, 8, 8 },     /* n = 8 */
    { 5, 7, 7, 8, 8, 8, 8, 9 },     /* n = 9 */
};

TEST(semaphore_quorum_table)
{
    for (unsigned n = 1; n <= 9; n++)
        for (unsigned p = 1; p <= 8; p++) {
            CHECK_EQ(redlock__semaphore_quorum(n, p), table[n - 1][p - 1]);
        }
    /* the figures: N = 5 */
    CHECK_EQ(redlock__semaphore_quorum(5, 1), 3u);
    CHECK_EQ(redlock__semaphore_quorum(5, 2), 4u);
    CHECK_EQ(redlock__semaphore_quorum(5, 3), 4u);
    CHECK_EQ(redlock__semaphore_quorum(5, 4), 5u);
    CHECK_EQ(redlock__semaphore_quorum(5, 1024), 5u);
    CHECK_EQ(redlock__semaphore_quorum(0, 3), 0u);
    CHECK_EQ(redlock__semaphore_quorum(5, 0), 0u);
}

/* The definition: q * (P + 1) > P * n, and q - 1 does not satisfy it (so
 * no smaller quorum is safe); P = 1 is the majority; q never exceeds n. */
TEST(semaphore_quorum_is_the_smallest_safe_count)
{
    for (unsigned n = 1; n <= 64; n++)
        for (unsigned p = 1; p <= 1024; p++) {
            unsigned q = redlock__semaphore_quorum(n, p);
            CHECK((unsigned long long)q * (p + 1) > (unsigned long long)p * n);
            CHECK((unsigned long long)(q - 1) * (p + 1) <= (unsigned long long)p * n);
            CHECK(q >= 1 && q <= n);
            if (p == 1)
                CHECK_EQ(q, n / 2 + 1);
        }
}

/* The pigeonhole by brute force for small n: however P + 1 holders' grants
 * are spread over n masters granting at most P each, some holder has
 * fewer than q.  The best spread gives each master's P grants to distinct
 * holders round-robin; if even that leaves one short, all do. */
TEST(semaphore_quorum_pigeonhole)
{
    for (unsigned n = 1; n <= 9; n++)
        for (unsigned p = 1; p <= 8; p++) {
            unsigned q = redlock__semaphore_quorum(n, p), got[9] = { 0 }, k = 0, least = n;
            for (unsigned m = 0; m < n; m++)
                for (unsigned g = 0; g < p; g++)
                    got[k++ % (p + 1)]++;
            for (unsigned h = 0; h <= p; h++)
                if (got[h] < least)
                    least = got[h];
            CHECK(least < q);
            /* and q - 1 would be met by all P + 1 of them */
            CHECK(least >= q - 1);
        }
}
