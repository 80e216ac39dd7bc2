/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* errors.c -- the text of each error code (redlock.h, REDLOCK_E*). */
#include "redlock.h"

const char *redlock_strerror(int code)
{
    switch (code) {
    case REDLOCK_OK: return "success";
    case REDLOCK_EINVAL: return "invalid argument";
    case REDLOCK_ENOQUORUM: return "no quorum: the lock is held elsewhere";
    case REDLOCK_ETIMEDOUT: return "timed out";
    case REDLOCK_ECANCELED: return "operation cancelled";
    case REDLOCK_ENOTOWNER: return "not the owner: the lock expired or is held by another";
    case REDLOCK_ENOMEM: return "out of memory";
    case REDLOCK_ECONNECT: return "masters unreachable";
    case REDLOCK_EBUSY: return "the lock is busy: an operation is in flight, or it is held by "
                               "this handle";
    case REDLOCK_ESERVER: return "masters answered with errors";
    case REDLOCK_ECLOSED: return "the client was freed";
    case REDLOCK_ESYSTEM: return "system call failed";
    case REDLOCK_EFULL: return "request queues full (max_pending)";
    case REDLOCK_EUNCOUNTED: return "no quorum: masters answered but were not counted (a guard: "
                                    "restarted, clock jumped, or unsafe configuration in strict "
                                    "mode)";
    case REDLOCK_EPERMITS: return "permit count mismatch: the masters hold the semaphore with "
                                  "another number of permits";
    default: return "unknown error code";
    }
}
