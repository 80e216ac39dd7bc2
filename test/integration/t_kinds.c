/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_kinds.c -- what every lock kind shares: the constructors' refusals
 * (with the reason in redlock_client_errstr), redlock_lock_kind, and
 * redlock_lock_holds for the kinds without re-entrance (1 while held).
 */
#include "itest.h"

#include <string.h>

TEST(kinds_constructors_say_why_and_name_their_kind)
{
    struct it_fix f = {0};
    it_fix_start(&f, 3, NULL, 0);
    redlock_lock *l = (redlock_lock *)1;
    static char big[600];
    memset(big, 'o', sizeof big);

    CHECK_EQ(redlock_lock_new(&l, f.c, NULL, 3), REDLOCK_EINVAL);
    CHECK(l == NULL);
    CHECK(it_has(redlock_client_errstr(f.c), "the resource is NULL or empty"));
    CHECK_EQ(redlock_lock_new_read(&l, f.c, "r", 0), REDLOCK_EINVAL);
    CHECK(it_has(redlock_client_errstr(f.c), "the resource is NULL or empty"));
    CHECK_EQ(redlock_lock_new_write(NULL, f.c, "r", 1), REDLOCK_EINVAL);
    CHECK(it_has(redlock_client_errstr(f.c), "out is NULL"));
    CHECK_EQ(redlock_lock_new_reentrant(&l, f.c, "r", 1, big, sizeof big), REDLOCK_EINVAL);
    CHECK(it_has(redlock_client_errstr(f.c), "the owner must be NULL (with length 0) or 1 .. 512"));
    CHECK_EQ(redlock_lock_new_reentrant(&l, f.c, "r", 1, NULL, 3), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_new(&l, NULL, "r", 1), REDLOCK_EINVAL);
    CHECK_EQ(redlock_lock_kind(NULL), REDLOCK_EINVAL);

    static const char *const two[] = { "k-a", "k-b" };
    const size_t lens[] = { 3, 3 };
    redlock_lock *m = it_fix_lock(&f, f.c, "k-mutex"), *re, *rd, *wr, *mu;
    CHECK_EQ(redlock_lock_new_reentrant(&re, f.c, "k-re", 4, NULL, 0), 0);
    CHECK_EQ(redlock_lock_new_read(&rd, f.c, "k-rw", 4), 0);
    CHECK_EQ(redlock_lock_new_write(&wr, f.c, "k-rw2", 5), 0);
    CHECK_EQ(redlock_lock_new_multi(&mu, f.c, (const void *const *)two, lens, 2), 0);
    CHECK_EQ(redlock_lock_kind(m), REDLOCK_KIND_MUTEX);
    CHECK_EQ(redlock_lock_kind(re), REDLOCK_KIND_REENTRANT);
    CHECK_EQ(redlock_lock_kind(rd), REDLOCK_KIND_READ);
    CHECK_EQ(redlock_lock_kind(wr), REDLOCK_KIND_WRITE);
    CHECK_EQ(redlock_lock_kind(mu), REDLOCK_KIND_MULTI);

    /* holds: 1 while held, 0 after the release, for every kind but the
     * re-entrant one (t_reentrant.c) */
    redlock_lock *all[] = { m, rd, wr, mu };
    for (size_t i = 0; i < 4; i++) {
        CHECK_EQ(redlock_lock_holds(all[i]), 0);
        CHECK_RC(all[i], redlock_acquire(all[i], 10000), 0);
        CHECK_EQ(redlock_lock_holds(all[i]), 1);
        CHECK_RC(all[i], redlock_acquire(all[i], 10000), REDLOCK_EBUSY);
        CHECK_EQ(redlock_lock_holds(all[i]), 1);
        CHECK_RC(all[i], redlock_release(all[i]), 0);
        CHECK_EQ(redlock_lock_holds(all[i]), 0);
    }
    redlock_lock_free(re);
    redlock_lock_free(rd);
    redlock_lock_free(wr);
    redlock_lock_free(mu);
    it_fix_stop(&f);
}
