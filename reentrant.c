/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* reentrant.c -- the re-entrant lock (a stub, being written). */
#include "lock_private.h"

const char redlock__lua_re_acquire[] = "return 0";
const char redlock__lua_re_extend[] = "return 0";
const char redlock__lua_re_release[] = "return 0";
const char redlock__lua_re_fence_raise[] = "return 0";

const redlock__family redlock__reentrant = {
    .kind = REDLOCK_KIND_REENTRANT, .flags = REDLOCK__FAM_REENTRANT };

int redlock_lock_new_reentrant(redlock_lock **out, redlock_client *c, const void *resource,
                               size_t len, const void *owner, size_t ownerlen)
{
    (void)c; (void)resource; (void)len; (void)owner; (void)ownerlen;
    if (out)
        *out = NULL;
    return REDLOCK_EINVAL;
}
