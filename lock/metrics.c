/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* metrics.c -- what the client's metrics count (client/metrics.c renders
 * them, redlock.h documents them): every acquire, extend and release that
 * completes, by kind and outcome, with the acquire's latency and waiting
 * time and each hold's duration in histograms.  Recording is integer
 * operations into the client's fixed arrays (docs/performance.md counts
 * them), on times the lock machine read anyway; only outcomes off the
 * plain path (a failed acquire, a hold that ends other than by a release)
 * read the clock here.
 */
#include "lock/lock.h"

/* Seconds: 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500 ms, 1, 2.5, 5, 10,
 * 30, 60, 300 s (redlock.h says why). */
const int64_t redlock__bound_us[REDLOCK__BOUNDS] = {
    500, 1000, 2500, 5000, 10000, 25000, 50000, 100000, 250000, 500000,
    1000000, 2500000, 5000000, 10000000, 30000000, 60000000, 300000000,
};

const unsigned char redlock__bucket_from_log2[64] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 11, 12, 13, 14, 15,
    16, 16, 16, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17,
    17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17, 17,
};

static int acquire_outcome(int status)
{
    switch (status) {
    case 0: return REDLOCK__ACQ_ACQUIRED;
    case REDLOCK_ENOQUORUM: return REDLOCK__ACQ_CONFLICT;
    case REDLOCK_ETIMEDOUT:
    case REDLOCK_ECONNECT:
    case REDLOCK_EFULL:
    case REDLOCK_EUNCOUNTED: return REDLOCK__ACQ_UNAVAILABLE;
    case REDLOCK_ECANCELED:
    case REDLOCK_ECLOSED: return REDLOCK__ACQ_CANCELLED;
    case REDLOCK_EPERMITS:      /* the semaphore's count disagrees: an error */
    default: return REDLOCK__ACQ_ERROR;
    }
}

static int ops_outcome(int status)
{
    switch (status) {
    case 0: return REDLOCK__OPS_OK;
    case REDLOCK_ENOQUORUM:
    case REDLOCK_ENOTOWNER: return REDLOCK__OPS_REFUSED;
    case REDLOCK_ETIMEDOUT:
    case REDLOCK_ECONNECT:
    case REDLOCK_EFULL:
    case REDLOCK_EUNCOUNTED: return REDLOCK__OPS_UNAVAILABLE;
    case REDLOCK_ECANCELED:
    case REDLOCK_ECLOSED: return REDLOCK__OPS_CANCELLED;
    default: return REDLOCK__OPS_ERROR;
    }
}

void redlock__metrics_hold_end(redlock_lock *l, int64_t end_us, int outcome)
{
    if (!l->hold_open || !l->c)
        return;
    l->hold_open = 0;
    if (end_us <= 0)
        end_us = redlock__now(&l->c->loop);
    redlock__hist_add(&l->c->metrics.hold[l->fam->kind][outcome], end_us - l->held_since_us);
}

static void acquire_done(redlock_lock *l, redlock__metrics *m, int status)
{
    const redlock__flight *fl = l->fl;
    int o = acquire_outcome(status);
    int64_t end = status == 0 && fl->end_us ? fl->end_us : redlock__now(&l->c->loop);

    redlock__hist_add(&m->acquire[l->fam->kind][o], fl->began_us ? end - fl->began_us : 0);
    if (fl->wait_from_us)
        redlock__hist_add(&m->wait[l->fam->kind][o], end - fl->wait_from_us);
}

/* A release that gives back the lock's last hold ends it: at the
 * release's start, or where its validity ran out before that. */
static void release_done(redlock_lock *l, int status)
{
    int64_t end = l->fl->began_us, until = l->hold_until_us;
    int o;

    if (status == 0)
        o = REDLOCK__HOLD_RELEASED;
    else if (until && until <= end)
        o = REDLOCK__HOLD_EXPIRED;
    else if (status == REDLOCK_ENOTOWNER)
        o = REDLOCK__HOLD_LOST;
    else if (status == REDLOCK_ECANCELED || status == REDLOCK_ECLOSED)
        o = REDLOCK__HOLD_FREED;
    else
        o = REDLOCK__HOLD_UNKNOWN;
    redlock__metrics_hold_end(l, o == REDLOCK__HOLD_EXPIRED ? until : end, o);
}

void redlock__metrics_done(redlock_lock *l, int status)
{
    redlock__metrics *m = &l->c->metrics;

    switch (l->busy) {
    case REDLOCK__LOCK_ACQUIRE:
    case REDLOCK__LOCK_TRY:
        if (l->fl)
            acquire_done(l, m, status);
        break;
    case REDLOCK__LOCK_EXTEND:
        m->extends[l->fam->kind][ops_outcome(status)]++;
        break;
    case REDLOCK__LOCK_RELEASE:
        m->releases[l->fam->kind][ops_outcome(status)]++;
        if (!l->partial && l->fl)
            release_done(l, status);
        break;
    default:
        break;
    }
}

void redlock__metrics_gone(redlock_client *c, redlock_lock *l)
{
    int64_t now;
    int expired;

    if (!c || l->c != c || (l->busy == REDLOCK__LOCK_IDLE && !l->hold_open))
        return;
    if (l->busy != REDLOCK__LOCK_IDLE && l->fl) {
        l->fl->end_us = 0;
        /* (the cancel's completion then finds the lock idle: counted once) */
        redlock__metrics_done(l, REDLOCK_ECANCELED);
    }
    if (!l->hold_open)
        return;
    now = redlock__now(&c->loop);
    expired = !l->valid_until_us || l->valid_until_us <= now;
    redlock__metrics_hold_end(l, l->valid_until_us && expired ? l->valid_until_us : now,
                              expired ? REDLOCK__HOLD_EXPIRED : REDLOCK__HOLD_FREED);
}
