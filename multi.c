/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* multi.c -- the multi-resource lock (a stub, being written). */
#include "lock_private.h"

const char redlock__lua_multi_acquire[] = "return 0";
const char redlock__lua_multi_extend[] = "return 0";
const char redlock__lua_multi_release[] = "return 0";

const redlock__family redlock__multi = { .kind = REDLOCK_KIND_MULTI };

int redlock_lock_new_multi(redlock_lock **out, redlock_client *c, const void *const *resources,
                           const size_t *lens, size_t n)
{
    (void)c; (void)resources; (void)lens; (void)n;
    if (out)
        *out = NULL;
    return REDLOCK_EINVAL;
}
