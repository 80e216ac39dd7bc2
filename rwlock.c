/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rwlock.c -- the read/write lock (a stub, being written). */
#include "lock_private.h"

const char redlock__lua_rw_read[] = "return 0";
const char redlock__lua_rw_read_extend[] = "return 0";
const char redlock__lua_rw_read_release[] = "return 0";
const char redlock__lua_rw_write[] = "return 0";

const redlock__family redlock__read = { .kind = REDLOCK_KIND_READ };
const redlock__family redlock__write = { .kind = REDLOCK_KIND_WRITE };

int redlock_lock_new_read(redlock_lock **out, redlock_client *c, const void *resource, size_t len)
{
    (void)c; (void)resource; (void)len;
    if (out)
        *out = NULL;
    return REDLOCK_EINVAL;
}

int redlock_lock_new_write(redlock_lock **out, redlock_client *c, const void *resource, size_t len)
{
    (void)c; (void)resource; (void)len;
    if (out)
        *out = NULL;
    return REDLOCK_EINVAL;
}
