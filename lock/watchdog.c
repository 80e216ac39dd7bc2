/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* watchdog.c -- a lock that lives as long as the work: the watchdog that
 * extends a held lock, and the lost-lock notice.
 *
 *   granted ──▶ every `every` ms: extend(ttl) ──ok──▶ (again)
 *                      │
 *                      ├─ refused by a quorum ──────────▶ lost(REFUSED) now
 *                      ├─ failed, time left for two more ─▶ retry sooner
 *                      └─ failed, no time left ─────────▶ lost(UNREACHABLE) now
 *   the cap reached ──▶ no more extends; lost(CAP) when the validity ends
 *   the validity ends (own timer) before an extend won ──▶ lost(EXPIRED)
 *
 * The notice runs once per hold, and never after a release or a free.
 * After it the lock's validity is 0.  The watchdog's extend is the lock's
 * operation in flight; an operation the application starts meanwhile
 * (extend, release) takes its place: the watchdog's is detached and its
 * outcome ignored (the validity it may have shortened stays short).
 *
 * Everything runs on the client's event loop: a blocking client (whose
 * loop runs only inside its calls) can have a watchdog only with its loop
 * on a thread of its own (loop_thread, thread.c).
 */
#include <stdlib.h>
#include "lock/lock.h"

#define RETRY_FLOOR_US 1000     /* the least time between two failed tries */

static void tick_cb(evutil_socket_t fd, short what, void *arg);
static void expiry_cb(evutil_socket_t fd, short what, void *arg);

/* The lock's watch, made on first use; NULL: out of memory. */
static redlock__watch *watch_of(redlock_lock *l)
{
    redlock__watch *w = l->wd;

    if (w)
        return w;
    if (!(w = calloc(1, sizeof *w)))
        return NULL;
    w->every_ms = -1;
    evtimer_assign(&w->tick, l->c->loop.base, tick_cb, l);
    evtimer_assign(&w->expiry, l->c->loop.base, expiry_cb, l);
    l->wd = w;
    return w;
}

void redlock__watch_stop_(redlock_lock *l)
{
    redlock__watch *w = l->wd;

    if (!w)
        return;
    evtimer_del(&w->tick);
    evtimer_del(&w->expiry);
    w->watching = 0;
    w->lost_reason = 0;
}

void redlock__watch_free(redlock_lock *l)
{
    free(l->wd);
    l->wd = NULL;
}

static int64_t interval_us(const redlock_lock *l)
{
    return l->wd->every_ms > 0 ? l->wd->every_ms * 1000 : l->ttl_ms * 1000 / 3;
}

/* The notice, once; l may be gone after it. */
static void lost(redlock_lock *l, int reason)
{
    redlock_lost_cb *cb = l->wd->lost_cb;
    void *pd = l->wd->lost_privdata;

    redlock__watch_stop(l);
    l->wd->lost_fired = 1;
    redlock__metrics_hold_end(l, l->valid_until_us, reason == REDLOCK_LOST_REFUSED ||
                              reason == REDLOCK_LOST_CLOCK ? REDLOCK__HOLD_LOST
                                                           : REDLOCK__HOLD_EXPIRED);
    l->valid_until_us = 0;
    if (cb)
        cb(l, reason, pd);
}

/* The lock was granted or extended: (re)arm the expiry timer and the next
 * extend. */
void redlock__watch_held_(redlock_lock *l, int new_hold)
{
    redlock__watch *w = l->wd;
    redlock_client *c = l->c;
    int64_t now, left;

    if (!w || !c || (!w->lost_cb && w->every_ms < 0))
        return;
    now = redlock__now(&c->loop);
    if (new_hold) {
        w->lost_reason = 0;
        w->lost_fired = 0;
    } else if (w->lost_reason == REDLOCK_LOST_UNREACHABLE) {
        w->lost_reason = 0;     /* an extend won since */
    }
    w->watching = 1;
    left = l->valid_until_us - now;
    redlock__timer_add(&c->loop, &w->expiry, left > 0 ? left : 0);
    if (w->every_ms >= 0 && w->lost_reason != REDLOCK_LOST_CAP)
        redlock__timer_add(&c->loop, &w->tick, interval_us(l));
}

void redlock__watch_end_moved_(redlock_lock *l)
{
    int64_t left;

    if (!l->wd || !l->wd->watching || !l->c)
        return;
    left = l->valid_until_us ? l->valid_until_us - redlock__now(&l->c->loop) : 0;
    redlock__timer_add(&l->c->loop, &l->wd->expiry, left > 0 ? left : 0);
}

static void expiry_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock_lock *l = arg;
    redlock__watch *w = l->wd;
    redlock__loop *loop = &l->c->loop;
    (void)fd;
    (void)what;

    if (!w->watching)
        return;
    redlock__enter(loop);
    if (redlock__now(loop) < l->valid_until_us) {
        /* an extend moved the end while the timer was due */
        redlock__timer_add(loop, &w->expiry, l->valid_until_us - redlock__now(loop));
    } else {
        if (w->in_flight)
            redlock__watch_detach(l);
        lost(l, w->lost_reason ? w->lost_reason : REDLOCK_LOST_EXPIRED);
    }
    redlock__leave(loop);
}

/* The watchdog's extend finished. */
static void extended(redlock_lock *l, int status, void *privdata)
{
    redlock__watch *w = l->wd;
    redlock_client *c = l->c;
    int64_t left, spare, next;
    (void)privdata;

    w->in_flight = 0;
    if (status == 0 || status == REDLOCK_ECANCELED || !c || !w->watching)
        return;     /* held (re-armed by the win), or the lock is going away */
    if (!l->valid_until_us) {               /* refusals sank the quorum */
        lost(l, REDLOCK_LOST_REFUSED);
        return;
    }
    if (w->lost_reason == REDLOCK_LOST_CAP)
        return;     /* that was the last one: the notice when the validity ends */
    /* Timed out or unreachable: try again while another extend could still
     * be decided before the validity ends. */
    w->lost_reason = REDLOCK_LOST_UNREACHABLE;
    left = l->valid_until_us - redlock__now(&c->loop);
    /* The next try may wait a whole node timeout for slow masters; keeping
     * one more in reserve means that when it fails too, the notice still
     * comes at least a node timeout before the validity ends (retrying
     * until the last millisecond would leave the application none). */
    spare = left - 2 * c->fleet.node_timeout_us - REDLOCK__MIN_VALIDITY_US;
    next = spare / 2 < interval_us(l) ? spare / 2 : interval_us(l);
    /* Each try halves what is left: with every master unreachable (each
     * try fails at once) the tries would come ever closer, down to none
     * apart (found by the simulator, whose clock does not move inside a
     * loop turn: the watchdog of a multi-resource lock on a cluster vote
     * with a shard's master down).  Below a millisecond apart, it is
     * lost now. */
    if (spare <= 0 || next < RETRY_FLOOR_US) {
        lost(l, REDLOCK_LOST_UNREACHABLE);
        return;
    }
    redlock__timer_add(&c->loop, &w->tick, next);
}

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock_lock *l = arg;
    redlock__watch *w = l->wd;
    redlock_client *c = l->c;
    int64_t ttl_ms, now;
    int last = 0;
    (void)fd;
    (void)what;

    if (!w->watching || !c)
        return;
    redlock__enter(&c->loop);
    now = redlock__now(&c->loop);
    ttl_ms = l->ttl_ms;
    if (w->max_hold_ms) {
        /* the last extend ends the hold at the cap, not after it */
        int64_t cap_left_ms = (l->held_since_us + w->max_hold_ms * 1000 - now) / 1000;
        if (cap_left_ms <= ttl_ms) {
            ttl_ms = cap_left_ms;
            last = 1;
        }
    }
    if (l->busy) {
        /* the application's own operation: look again after it */
        redlock__timer_add(&c->loop, &w->tick, interval_us(l) / 4 + 1000);
    } else if (ttl_ms <= 0 || redlock__lock_extend(l, ttl_ms, extended, NULL) != 0) {
        if (last) {
            /* the cap is reached (or the ttl left is too short to extend
             * with): the hold ends with its validity */
            w->lost_reason = REDLOCK_LOST_CAP;
        } else {
            /* no extend could start: the validity is gone already (the
             * client's clock stepped back, ...) */
            lost(l, REDLOCK_LOST_EXPIRED);
        }
    } else {
        w->in_flight = 1;
        if (last)       /* no extend after this one: the notice at its end */
            w->lost_reason = REDLOCK_LOST_CAP;
    }
    redlock__leave(&c->loop);
}

/* A master's clock was seen jumping ahead (guard.c): keys it holds may
 * have expired early.  A held lock that it said OK to, and whose other OK
 * masters (those whose clocks are trusted) are no longer the lock's own
 * quorum (a semaphore's q, not a majority), is lost now: its validity 0,
 * the notice from the loop (REDLOCK_LOST_CLOCK), not when the validity
 * would have ended. */
void redlock__locks_clock_ahead(void *privdata, size_t node)
{
    redlock_client *c = privdata;
    redlock__fleet *f = &c->fleet;
    int64_t now = redlock__now(&c->loop), until;
    unsigned char *trusted = malloc(f->n);
    int counted;

    c->loop.master_jumps++;     /* operations on their way check again (operation.c) */
    if (!trusted)
        return;     /* out of memory: the locks learn at their expiry */
    for (size_t i = 0; i < f->n; i++)
        trusted[i] = i != node && !(redlock__guard_flags(&f->masters[i], now, &counted, &until) &
                                    REDLOCK_GUARD_CLOCK);
    for (redlock__link *it = c->locks.next; it != &c->locks; it = it->next) {
        redlock_lock *l = redlock__container(it, redlock_lock, link);
        size_t ok = 0;
        if (!l->valid_until_us || !l->nodes || l->nodes->votes[node] != REDLOCK__OK)
            continue;
        for (size_t i = 0; i < f->n; i++)
            ok += l->nodes->votes[i] == REDLOCK__OK && trusted[i];
        if (ok >= (REDLOCK__MUTANT(CLOCK_MAJORITY) ? f->n / 2 + 1 : redlock__lock_quorum(l)))
            continue;
        l->valid_until_us = 0;
        if (l->wd && l->wd->watching && !l->wd->lost_fired) {
            l->wd->lost_reason = REDLOCK_LOST_CLOCK;
            redlock__watch_end_moved(l);
        }
    }
    free(trusted);
}

void redlock__watch_detach(redlock_lock *l)
{
    redlock__lock_detach_op(l);
    l->wd->in_flight = 0;
}

/* 0, or why the lock cannot be watched: NULL, or its client is gone. */
static int usable(redlock_lock *l)
{
    if (!l)
        return REDLOCK_EINVAL;
    if (!l->c) {
        redlock__lock_err(l, "the lock's client was freed");
        return REDLOCK_ECLOSED;
    }
    return 0;
}

static int redlock_lock_set_watchdog_ungated(redlock_lock *l, int64_t every_ms, int64_t max_hold_ms)
{
    redlock__watch *w;
    int rc;

    if ((rc = usable(l)) != 0)
        return rc;
    if (every_ms < -1 || every_ms > ((int64_t)1 << 40) || max_hold_ms < 0 ||
        max_hold_ms > ((int64_t)1 << 40)) {
        redlock__lock_err(l, "set_watchdog: every_ms must be -1 (off), 0 (ttl/3) or up to 2^40; "
                          "max_hold_ms 0 (no cap) or up to 2^40");
        return REDLOCK_EINVAL;
    }
    if (every_ms >= 0 && l->c->own_base && !l->c->loop.th) {
        redlock__lock_err(l, "set_watchdog: a blocking client runs no event loop between calls; "
                          "set the option loop_thread, or create the client on your event_base");
        return REDLOCK_EINVAL;
    }
    if (every_ms < 0 && !l->wd)
        return 0;               /* off, as it was */
    if (!(w = watch_of(l)))
        return REDLOCK_ENOMEM;
    w->every_ms = every_ms;
    w->max_hold_ms = max_hold_ms;
    if (every_ms < 0)
        evtimer_del(&w->tick);
    else if (redlock_lock_validity(l) > 0)
        redlock__watch_held(l, 0);
    return 0;
}

int redlock_lock_set_watchdog(redlock_lock *l, int64_t every_ms, int64_t max_hold_ms)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock_lock_set_watchdog_ungated(l, every_ms, max_hold_ms));
}

static int redlock_lock_on_lost_ungated(redlock_lock *l, redlock_lost_cb *cb, void *privdata)
{
    redlock__watch *w;
    int rc;

    if ((rc = usable(l)) != 0)
        return rc;
    if (!cb && !l->wd)
        return 0;
    if (!(w = watch_of(l)))
        return REDLOCK_ENOMEM;
    w->lost_cb = cb;
    w->lost_privdata = privdata;
    if (cb && redlock_lock_validity(l) > 0)
        redlock__watch_held(l, 0);
    return 0;
}

int redlock_lock_on_lost(redlock_lock *l, redlock_lost_cb *cb, void *privdata)
{
    REDLOCK__GATED((l ? l->c : NULL), int, redlock_lock_on_lost_ungated(l, cb, privdata));
}
