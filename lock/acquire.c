/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* acquire.c -- a lock's acquire once started (api.c starts it): a
 * series of attempts, each one fan-out (fanout.c) of the family's acquire
 * with a fresh random value:
 *
 *   attempt ──won──▶ validity = ttl - elapsed - drift, callback(0)
 *      │     (fencing: raise the counters first when they disagree)
 *      └─lost──▶ undo it on every master its write may have reached
 *                (master.c) ──▶ random delay ──▶ attempt
 *                ... until retry_count or the acquire deadline.
 *
 * When the next attempt goes after a loss (a poll, a wake-up, a split
 * vote) is contended.c's; how an operation's outcome becomes the lock's
 * validity and its callback is operation.c's (redlock__lock_settle).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lock/lock.h"

/* 128 random bits; after the client's id where waiters may tell the
 * holder that they wait (announce.c: the notices find it by the id). */
static int random_value(redlock_lock *l)
{
    const char *id = NULL;
    size_t off = 0;

    if (!l->value)
        l->value = l->nodes->rand;      /* (made before the first attempt) */
    if (redlock__fam_wakes(l->fam) && l->c->opt.wake &&
        (id = redlock__wake_self(l->c)) != NULL) {
        memcpy(l->value, id, REDLOCK__VALUE_ID_HEX);
        off = REDLOCK__VALUE_ID_HEX;
    }
    if (redlock__client_random_hex(l->c, l->value + off, REDLOCK__RANDOM_HEX / 2) != 0) {
        redlock__lock_err(l, "getrandom: %s", strerror(errno));
        return REDLOCK_ESYSTEM;
    }
    l->valuelen = off + REDLOCK__RANDOM_HEX;
    return 0;
}

static void acquire_done(redlock__op *op, void *privdata);

/* One acquire attempt; returns an error only when nothing was started.  An
 * attempt that adds a hold (reacquire) keeps the value and the token. */
static int attempt(redlock_lock *l)
{
    const redlock__op_kind *kind = l->fam->acquire;
    redlock__op *op;
    int rc;

    if (!l->reacquire) {
        if (!l->fixed_value && (rc = random_value(l)) != 0)
            return rc;
        l->token = 0;
        if (l->fence_key)
            kind = l->fam->acquire_fenced;
    }
    if (!(op = redlock__lock_op(l, kind, l->ttl_ms, 0)))
        return REDLOCK_ENOMEM;
    redlock__lock_drop_late(l);
    l->fl->gone = 0;
    l->c->astats.attempts++;
    op->limit_us = l->fl->deadline_us;
    l->fl->op = op;
    l->fl->attempts++;
    redlock__op_start(op, acquire_done, l);
    l->fl->later = 1;
    if (!l->fl->began_us)
        l->fl->began_us = op->start_us;
    return 0;
}

/* A call's own deadline passed (redlock_acquire_for): ETIMEDOUT, with
 * what the last attempt met. */
static void call_deadline_passed(redlock_lock *l)
{
    redlock__lock_err(l, "acquire: the call's deadline passed (wait_ms %lld); last attempt: %s",
                      (long long)l->fl->wait_ms, l->errstr ? l->errstr : "none");
    redlock__lock_complete(l, REDLOCK_ETIMEDOUT);
}

/* The retry timer, `delay` us from `now`; a waiting lock may be woken
 * before it fires (once more). */
static void arm_retry(redlock_lock *l, int64_t now, int64_t delay)
{
    redlock__flight *fl = l->fl;

    fl->retry_at_us = now + delay;
    fl->armed = 1;
    redlock__timer_add(&l->c->loop, &fl->retry_timer, delay);
    if (fl->hot)
        redlock__wake_wait(l);
}

/* After a lost attempt (or a look that found the key): arm the retry
 * timer for the next one, if any is left (1), else 0. */
static int schedule_next(redlock_lock *l)
{
    redlock_client *c = l->c;
    redlock__flight *fl = l->fl;
    int64_t delay = c->opt.retry_delay_ms, now = redlock__now(&c->loop);

    if (redlock__lock_last_attempt(l))
        return 0;
    if (c->opt.retry_jitter_ms)
        delay += (int64_t)(redlock__client_random(c) %
                           (uint64_t)(2 * c->opt.retry_jitter_ms + 1)) -
                 c->opt.retry_jitter_ms;
    /* a release announced while the attempt was out, or a split vote
     * (contended.c): within the wake window; else the poll, longer after
     * split votes, and looking first among many waiters */
    fl->look = !fl->missed && redlock__wake_looks(l);
    delay *= 1000;
    if (fl->missed) {
        delay = redlock__wake_delay_us(l);
    } else {
        /* a poll slowed past the deadline comes at the retry delay: never
         * sooner than that, as the documented delay says */
        int64_t slow = redlock__wake_poll_us(l, delay);
        if (!fl->deadline_us || now + slow < fl->deadline_us)
            delay = slow;
    }
    fl->missed = 0;
    if (fl->deadline_us && now + delay >= fl->deadline_us) {
        /* a call's own deadline is waited for (a release announced
         * meanwhile still gets an attempt in); the timer then ends it */
        if (!fl->per_call || now >= fl->deadline_us)
            return 0;
        delay = fl->deadline_us - now;
    }
    fl->attempts_left--;
    arm_retry(l, now, delay);
    return 1;
}

/* An attempt that did not win (`won` is its acquire, `why` the operation
 * that failed): give back every master we may hold, including the slow
 * ones, then retry or fail. */
static void lost_attempt(redlock_lock *l, redlock__op *won, redlock__op *why)
{
    int code;

    redlock__op_undo(won);      /* (a reacquire's undo puts the holds back) */
    code = redlock__failure_code(&why->tally);
    redlock__lock_describe(l, why, code);
    if (l->reacquire && redlock__refused_quorum(&why->tally)) {
        /* refusals leave no quorum that may hold our value: the hold is
         * lost (as after a refused extend), and the notice says so */
        l->valid_until_us = 0;
        redlock__metrics_hold_end(l, why->start_us, REDLOCK__HOLD_LOST);
        if (l->wd && l->wd->watching && !redlock__watch_told_lost(l)) {
            l->wd->lost_reason = REDLOCK_LOST_REFUSED;
            redlock__watch_end_moved(l);
        }
    }
    if (l->reacquire && !redlock_lock_validity(l)) {
        /* the hold it would add to ended meanwhile: nothing to add to */
        redlock__lock_complete(l, code);
        return;
    }
    if (schedule_next(l)) {
        /* it waits on for a lock held elsewhere (a reacquire holds it) */
        if (!l->fl->wait_from_us && !l->reacquire && why->tally.count[REDLOCK__REFUSED])
            l->fl->wait_from_us = why->start_us;
        return;
    }
    if (l->reacquire && l->wd && !redlock__watch_told_lost(l))
        redlock__watch_held(l, 0);      /* still held: the watchdog goes on */
    if (l->fl->per_call && l->busy == REDLOCK__LOCK_ACQUIRE)
        call_deadline_passed(l);        /* (only the deadline ends its retries) */
    else
        redlock__lock_complete(l, code);
}

static void raise_done(redlock__op *op, void *privdata)
{
    redlock_lock *l = privdata;
    redlock__op *acq = l->fl->fenced;

    l->fl->fenced = NULL;
    l->fl->op = NULL;
    if (op->cancelled) {        /* the client is going away */
        redlock__op_undo(acq);
        redlock__op_unref(acq);
        redlock__lock_err(l, "acquire: cancelled");
        redlock__lock_complete(l, REDLOCK_ECANCELED);
        return;
    }
    if (op->decision == REDLOCK__WON) {
        /* the counters of a quorum hold the token: hand it out, with the
         * validity counted from the acquire's start */
        l->token = l->fl->pending_token;
        if (redlock__lock_settle(l, acq)) {
            redlock__op_unref(acq);
            return;
        }
        l->token = 0;
        op = acq;       /* the validity ran out: say so */
    }
    lost_attempt(l, acq, op);
    redlock__op_unref(acq);
}

/* A fenced acquire won, but fewer than a quorum returned the largest
 * counter: raise the counters to it on a quorum first (the rule is
 * redlock__fence_token's), within the acquire's validity.  0, or ENOMEM. */
static int start_raise(redlock_lock *l, redlock__op *acq, int64_t token)
{
    int64_t end = acq->start_us + acq->ttl_ms * 1000 - acq->drift_us;
    redlock__op *op;

    if (!(op = redlock__lock_op(l, l->fam->fence_raise, 0, token)))
        return REDLOCK_ENOMEM;
    op->limit_us = l->fl->deadline_us && l->fl->deadline_us < end ? l->fl->deadline_us : end;
    acq->refs++;
    l->fl->fenced = acq;
    l->fl->pending_token = token;
    l->fl->op = op;
    redlock__op_start(op, raise_done, l);
    return 0;
}

static void acquire_done(redlock__op *op, void *privdata)
{
    redlock_lock *l = privdata;
    int code;

    if (!op->cancelled)
        redlock__wake_outcome(l, op, op->decision == REDLOCK__WON);
    /* masters that refused the acquire's arguments (a semaphore's permit
     * count): no retry can change that; what any master granted goes back */
    if (!op->cancelled && l->fam->fatal && (code = l->fam->fatal(l, op)) != 0) {
        l->fl->op = NULL;
        redlock__lock_record(l, op);
        redlock__op_undo(op);
        l->token = 0;
        redlock__lock_complete(l, code);
        return;
    }

    /* (a re-acquire sent no counter: the hold keeps its first token) */
    if (l->fence_key && !l->reacquire && op->decision == REDLOCK__WON && !op->cancelled) {
        int64_t token = 0;
        int agreed = redlock__fence_token(op->votes, op->value, op->f->n, op->tally.quorum,
                                          redlock__wall_us(), &token);
        if (agreed == 0) {
            redlock__lock_record(l, op);
            if (start_raise(l, op, token) == 0)
                return;
            l->fl->op = NULL;
            redlock__op_undo(op);       /* no token, no lock */
            redlock__lock_err(l, "acquire: out of memory");
            redlock__lock_complete(l, REDLOCK_ENOMEM);
            return;
        } else if (agreed == 1) {
            l->token = token;
        }
    }
    if (redlock__lock_settle(l, op))
        return;
    l->token = 0;
    lost_attempt(l, op, op);
}

/* The key gone at a look: a holder's key that expired (it stays gone), or
 * a hand-off under way (the next holder's SET is on its way: an attempt
 * now would meet it and split its votes).  Look once more, a hand-off
 * later (1), unless the deadline is nearer (0: attempt now). */
static int look_again(redlock_lock *l)
{
    redlock_client *c = l->c;
    redlock__flight *fl = l->fl;
    int64_t now = redlock__now(&c->loop), delay = redlock__wake_confirm_us(l);

    if (fl->deadline_us && now + delay >= fl->deadline_us)
        return 0;
    fl->gone = 1;
    fl->look = 1;
    arm_retry(l, now, delay);      /* (woken meanwhile, it attempts) */
    return 1;
}

/* A poll or a releaser's last try that looked first: the key still on
 * that master is a refused attempt, and the next poll is armed; the key
 * gone is looked at again once (look_again); anything else (gone twice,
 * no answer, an announcement meanwhile, the acquire's last chance)
 * attempts now: an acquire always ends on an attempt's outcome. */
static void look_done(redlock__op *op, void *privdata)
{
    redlock_lock *l = privdata;
    redlock__flight *fl = l->fl;
    int rc, confirm = fl->gone;

    fl->op = NULL;
    fl->gone = 0;
    if (op->cancelled) {
        redlock__lock_err(l, "acquire: cancelled");
        redlock__lock_complete(l, REDLOCK_ECANCELED);
        return;
    }
    if (!fl->missed && op->votes[op->lead_node] == REDLOCK__REFUSED && schedule_next(l))
        return;
    if (!fl->missed && op->votes[op->lead_node] == REDLOCK__OK && !confirm && look_again(l))
        return;
    fl->missed = 0;
    if (fl->per_call && fl->deadline_us && redlock__now(&l->c->loop) >= fl->deadline_us) {
        call_deadline_passed(l);        /* no attempt past the call's deadline */
        return;
    }
    if ((rc = attempt(l)) != 0)
        redlock__lock_complete(l, rc);
}

/* EXISTS on one master, at random among those that answered the lock's
 * latest fan-out fast (a release's, for a releaser's try: the masters
 * slow but alive are still out), else among all: a master slow or down
 * would hold up the look, and with it the rescue of a pick that failed. */
static int look(redlock_lock *l)
{
    redlock__op *op;

    l->fl->look = 0;
    if (!(op = redlock__lock_op(l, &redlock__mutex_look, 0, 0)))
        return REDLOCK_ENOMEM;
    l->c->astats.looks++;
    op->lead_node = redlock__wake_fast_node(l, 0);
    if (op->lead_node == SIZE_MAX)
        op->lead_node = (size_t)(redlock__client_random(l->c) % l->c->fleet.n);
    op->limit_us = l->fl->deadline_us;
    l->fl->op = op;
    redlock__op_start(op, look_done, l);
    return 0;
}

void redlock__lock_retry_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock_lock *l = ((redlock__flight *)arg)->lock;
    redlock__loop *loop = &l->c->loop;
    int rc;
    (void)fd;
    (void)what;

    redlock__enter(loop);
    if (l->fl->deadline_us && redlock__now(loop) >= l->fl->deadline_us &&
        !REDLOCK__MUTANT(AFTER_DEADLINE)) {
        /* The loop ran late (a long callback): no attempt starts past the
         * deadline. */
        if (l->fl->per_call) {
            call_deadline_passed(l);
        } else {
            redlock__lock_err(l, "acquire: acquire_timeout_ms passed before the next attempt could "
                              "start (the event loop was late); last attempt: %s",
                              l->errstr ? l->errstr : "");
            redlock__lock_complete(l, REDLOCK_ETIMEDOUT);
        }
    } else if ((rc = l->fl->look ? look(l) : attempt(l)) != 0) {
        redlock__lock_complete(l, rc);
    }
    redlock__leave(loop);
}

int redlock__lock_attempt(redlock_lock *l)
{
    return attempt(l);
}
