/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* api.c -- the asynchronous calls on a lock: their checks (busy, ttl,
 * held), the start of an acquire, extend or release, and the gate of a
 * loop-thread client (floor/thread.c).  What happens then is acquire.c's
 * (acquire) and operation.c's.
 */
#include <string.h>
#include "lock/lock.h"

#define MAX_TTL_MS ((int64_t)1 << 40)

static int check_start(redlock_lock *l, redlock_cb *cb, int need_cb)
{
    if (!l)
        return REDLOCK_EINVAL;
    if (!l->c || l->c->loop.closing) {
        redlock__lock_err(l, "the lock's client was freed");
        return REDLOCK_ECLOSED;
    }
    if (need_cb && !cb) {
        redlock__lock_err(l, "callback is NULL");
        return REDLOCK_EINVAL;
    }
    /* the watchdog's extend in flight gives way (take_over), once every
     * check of the call has passed */
    if (l->busy && !redlock__watch_in_flight(l)) {
        redlock__lock_err(l, "an operation is already in flight on this lock");
        return REDLOCK_EBUSY;
    }
    if (redlock__lock_nodes_make(l) != 0) {
        redlock__lock_err(l, "out of memory");
        return REDLOCK_ENOMEM;
    }
    return 0;
}

/* The application's operation goes first: the watchdog's extend in flight
 * is detached (its outcome ignored; a failed extend re-arms the watchdog). */
static void take_over(redlock_lock *l)
{
    if (l->busy && redlock__watch_in_flight(l))
        redlock__watch_detach(l);
}

static int check_ttl(redlock_lock *l, int64_t ttl_ms)
{
    if (ttl_ms <= 0 || ttl_ms > MAX_TTL_MS) {
        redlock__lock_err(l, "ttl_ms must be in 1 .. 2^40");
        return REDLOCK_EINVAL;
    }
    if (ttl_ms * 1000 - redlock__client_drift_us(l->c, ttl_ms) < REDLOCK__MIN_VALIDITY_US) {
        redlock__lock_err(l, "ttl_ms %lld leaves less than 1 ms of validity after the clock drift "
                   "allowance", (long long)ttl_ms);
        return REDLOCK_EINVAL;
    }
    return 0;
}

/* wait_ms: the call's own deadline (redlock_acquire_for), or -1: the
 * client's acquire_timeout_ms and retry_count */
static int start_acquire(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd, int try,
                         int64_t wait_ms)
{
    redlock_client *c;
    int64_t left;
    int rc;

    if ((rc = check_start(l, cb, 1)) != 0 || (rc = check_ttl(l, ttl_ms)) != 0)
        return rc;
    if (wait_ms == 0)
        try = 1;        /* one attempt, as redlock_try_acquire_async */
    /* a re-entrant lock held by this handle gets one more hold */
    left = l->valid_until_us ? redlock_lock_validity(l) : 0;
    if (left > 0 && !(l->fam->flags & REDLOCK__FAM_REENTRANT)) {
        /* A new value would orphan the held key (and be refused by it). */
        redlock__lock_err(l, "acquire: the lock is already held by this handle (%lld ms left): "
                          "extend or release it", (long long)left);
        return REDLOCK_EBUSY;
    }
    if (redlock__lock_flight(l) != 0) {
        redlock__lock_err(l, "acquire: out of memory");
        return REDLOCK_ENOMEM;
    }
    c = l->c;
    take_over(l);
    l->busy = try ? REDLOCK__LOCK_TRY : REDLOCK__LOCK_ACQUIRE;
    l->ttl_ms = ttl_ms;
    l->nodes_ok = 0;
    if (left > 0 && l->holds > 0) {
        /* The hold goes on, with its watchdog and notice, whatever the
         * outcome: the masters' ttl of the key only ever grows by it. */
        l->reacquire = 1;
    } else {
        redlock__watch_stop(l);
        redlock__metrics_hold_end(l, l->valid_until_us, REDLOCK__HOLD_EXPIRED);
        l->valid_until_us = 0;
        l->holds = 0;
        memset(l->nodes->gen, 0, c->fleet.n * sizeof *l->nodes->gen);
    }
    l->fl->attempts_left = try ? 0 : c->opt.retry_count;
    l->fl->per_call = wait_ms > 0;
    l->fl->wait_ms = wait_ms;
    if (wait_ms > 0) {
        /* the call's deadline; past 2^40 ms none: it waits until it gets
         * the lock or is cancelled */
        l->fl->deadline_us = wait_ms <= MAX_TTL_MS
                         ? redlock__add_sat(redlock__now(&c->loop), wait_ms * 1000) : 0;
    } else {
        /* 0 and anything past 2^40 ms (35 years; INT64_MAX is a natural "no
         * limit") mean no deadline; below that the microseconds cannot overflow */
        l->fl->deadline_us = c->opt.acquire_timeout_ms && c->opt.acquire_timeout_ms <= MAX_TTL_MS &&
                             !try
                         ? redlock__add_sat(redlock__now(&c->loop), c->opt.acquire_timeout_ms * 1000)
                         : 0;
    }
    l->fl->cb = cb;
    l->fl->privdata = pd;
    l->fl->began_us = l->fl->wait_from_us = l->fl->end_us = 0;
    l->fl->later = 0;
    redlock__enter(&c->loop);   /* a node_cb run from here cannot free c under us */
    if ((try || l->reacquire || !redlock__wake_defer(l)) && (rc = redlock__lock_attempt(l)) != 0) {
        l->busy = REDLOCK__LOCK_IDLE;
        l->reacquire = 0;
        redlock__lock_flight_end(l);
        if (l->valid_until_us)
            redlock__watch_held(l, 0);  /* the watchdog's extend gave way */
    }
    redlock__leave(&c->loop);
    return rc;
}

static int redlock_acquire_async_ungated(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    return start_acquire(l, ttl_ms, cb, pd, 0, -1);
}

int redlock_acquire_async(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock_acquire_async_ungated(l, ttl_ms, cb, pd));
}

static int redlock_try_acquire_async_ungated(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    return start_acquire(l, ttl_ms, cb, pd, 1, -1);
}

int redlock_try_acquire_async(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock_try_acquire_async_ungated(l, ttl_ms, cb, pd));
}

static int redlock_acquire_for_async_ungated(redlock_lock *l, int64_t wait_ms, int64_t ttl_ms,
                                             redlock_cb *cb, void *pd)
{
    if (l && wait_ms < 0) {
        redlock__lock_err(l, "acquire_for: wait_ms must be >= 0 (got %lld)", (long long)wait_ms);
        return REDLOCK_EINVAL;
    }
    return start_acquire(l, ttl_ms, cb, pd, 0, wait_ms);
}

int redlock_acquire_for_async(redlock_lock *l, int64_t wait_ms, int64_t ttl_ms, redlock_cb *cb,
                              void *pd)
{
    REDLOCK__GATED((l ? l->c : NULL), int,
                   redlock_acquire_for_async_ungated(l, wait_ms, ttl_ms, cb, pd));
}

int redlock_acquire_cancel(redlock_lock *l)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock__lock_acquire_cancel(l));
}

/* 1 when some master restarted (or failed over) since it last had the
 * key: the extend may re-grow it there (operation.c); elsewhere a key
 * gone was taken away (an operator's DEL), and the plain extend's refusal
 * there says so. */
static int renewed(const redlock_lock *l)
{
    for (size_t i = 0; i < l->c->fleet.n; i++)
        if (redlock__lock_regrows(l, i))
            return 1;
    return 0;
}

int redlock__lock_extend(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    int64_t bound;
    int rc, held;

    if ((rc = check_start(l, cb, 1)) != 0 || (rc = check_ttl(l, ttl_ms)) != 0)
        return rc;
    held = redlock_lock_validity(l) > 0;
    if (!held && !l->fixed_value) {
        redlock__lock_err(l, "extend: the lock is not held (expired or never acquired)");
        return REDLOCK_ENOTOWNER;
    }
    if (!l->value) {
        redlock__lock_err(l, "extend: the lock has no value");
        return REDLOCK_EINVAL;
    }
    take_over(l);
    /* From now on masters may run the new PEXPIRE: the key lives at most
     * ttl after this moment on those, at the old end on the others, so the
     * validity is the smaller of the two until the extend is decided (a
     * shorter ttl shortens it at once). */
    bound = redlock__now(&l->c->loop) + ttl_ms * 1000 - redlock__client_drift_us(l->c, ttl_ms);
    if (l->valid_until_us && bound < l->valid_until_us && !REDLOCK__MUTANT(KEEP_VALIDITY)) {
        l->valid_until_us = bound;      /* (0: a handed-over value, never known) */
        redlock__watch_end_moved(l);
    }
    /* While the client knows a quorum holds the lock (validity at the
     * start), a master that lost the key in a restart gets it back; a
     * handed-over value, or an expired hold, only extends. */
    return redlock__lock_start_extend(l, held && l->fam->extend_regrow && renewed(l)
                                             ? l->fam->extend_regrow : l->fam->extend,
                                      ttl_ms, cb, pd);
}

int redlock_extend_async(redlock_lock *l, int64_t ttl_ms, redlock_cb *cb, void *pd)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock__lock_extend(l, ttl_ms, cb, pd));
}

static int redlock_release_async_ungated(redlock_lock *l, redlock_cb *cb, void *pd)
{
    int rc;

    if ((rc = check_start(l, cb, 0)) != 0)
        return rc;
    if (!l->value) {
        redlock__lock_err(l, "release: the lock has no value (never acquired)");
        return REDLOCK_EINVAL;
    }
    take_over(l);
    if (l->holds > 1 && redlock_lock_validity(l) > 0) {
        /* a re-entrant lock's release that leaves holds: still held */
        l->partial = 1;
    } else {
        l->hold_until_us = l->valid_until_us;
        l->valid_until_us = 0;      /* masters start deleting it now */
        redlock__watch_stop(l);     /* released: no more extends, no notice */
    }
    if ((rc = redlock__lock_start_release(l, cb, pd)) != 0) {
        l->partial = 0;
        if (l->valid_until_us)
            redlock__watch_held(l, 0);
    }
    return rc;
}

int redlock_release_async(redlock_lock *l, redlock_cb *cb, void *pd)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock_release_async_ungated(l, cb, pd));
}
