/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* operation.c -- the operations of a lock handle once started (api.c
 * starts them): how an operation's outcome becomes the lock's validity and
 * its callback (redlock__lock_settle, redlock__lock_complete), extend,
 * release, and cancelling.  What is sent is the lock family's business
 * (mutex.c); the acquire's series of attempts is acquire.c's.
 *
 * Lifetimes: a lock handle has at most one operation in flight (`busy`).
 * Freeing a lock or the client while busy completes that operation with
 * REDLOCK_ECANCELED; an acquire attempt still in flight then undoes
 * whatever it wins, so a cancelled acquire never leaves a lock behind
 * longer than the undo takes to arrive.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include "lock/lock.h"

/* Finish the lock's operation: the user callback runs last, and the lock
 * is not touched after it (it may be freed inside). */
void redlock__lock_complete(redlock_lock *l, int status)
{
    redlock_cb *cb = l->fl ? l->fl->cb : NULL;
    void *privdata = l->fl ? l->fl->privdata : NULL;

    if (l->c && l->busy != REDLOCK__LOCK_IDLE)
        redlock__metrics_done(l, status);
    /* an acquire that ends without the lock leaves nothing of the kind's
     * (the undos of its attempts are on their way already) */
    if (status != 0 && l->fam->abandon && !l->reacquire && l->c && !l->c->loop.closing &&
        (l->busy == REDLOCK__LOCK_ACQUIRE || l->busy == REDLOCK__LOCK_TRY))
        l->fam->abandon(l);
    if (status == 0 && l->errstr)
        l->errstr[0] = '\0';
    l->busy = REDLOCK__LOCK_IDLE;
    l->reacquire = 0;
    l->partial = 0;
    redlock__lock_flight_end(l);
    if (cb)
        cb(l, status, privdata);
}

static void ignore_done(redlock__op *op, void *privdata)
{
    (void)op;
    (void)privdata;
}

/* An acquire attempt whose lock handle went away: give back what it won. */
static void orphan_done(redlock__op *op, void *privdata)
{
    (void)privdata;
    redlock__op_undo(op);
}

/* The vote a failure code is named after (redlock__failure_code), or -1. */
static int vote_of(int code)
{
    switch (code) {
    case REDLOCK_ENOQUORUM:
    case REDLOCK_ENOTOWNER: return REDLOCK__REFUSED;
    case REDLOCK_ETIMEDOUT: return REDLOCK__TIMEOUT;
    case REDLOCK_ECONNECT: return REDLOCK__DOWN;
    case REDLOCK_ESERVER: return REDLOCK__ERROR;
    case REDLOCK_EFULL: return REDLOCK__FULL;
    case REDLOCK_EUNCOUNTED: return REDLOCK__UNCOUNTED;
    default: return -1;
    }
}

/* The node whose text the message gives: the first to fail, when it failed
 * the way the code says; else the earliest reply (then the lowest index)
 * that did; else the first to fail.  SIZE_MAX: none failed with a text. */
static size_t named_node(const redlock__op *op, int code)
{
    size_t n = op->f->n, first = op->err_node, best = SIZE_MAX;
    int want = vote_of(code);

    if (first < n && (want < 0 || op->votes[first] == want))
        return first;
    for (size_t i = 0; i < n; i++) {
        if (op->votes[i] != want || !op->detail[i][0])
            continue;
        if (best == SIZE_MAX ||
            (op->rtt[i] >= 0 && (op->rtt[best] < 0 || op->rtt[i] < op->rtt[best])))
            best = i;
    }
    return best < n ? best : first < n ? first : SIZE_MAX;
}

void redlock__lock_describe(redlock_lock *l, const redlock__op *op, int code)
{
    const redlock__tally *t = &op->tally;
    size_t node = named_node(op, code);

    if (op->expired && op->stepped && code == REDLOCK_ETIMEDOUT)
        redlock__lock_err(l, "%s: the client's clock stepped while the masters answered: no "
                          "validity can be counted from its start (ttl %lld ms; %u of %u nodes "
                          "OK, quorum %u)", op->kind->name, (long long)op->ttl_ms,
                          t->count[REDLOCK__OK], t->n, t->quorum);
    else if (op->expired && op->jumped)
        redlock__lock_err(l, "%s: a master's clock jumped ahead while the masters answered: "
                          "the OKs of masters whose clocks are trusted are no quorum (ttl %lld "
                          "ms; %u of %u nodes OK, quorum %u)", op->kind->name,
                          (long long)op->ttl_ms, t->count[REDLOCK__OK], t->n, t->quorum);
    else if (op->expired && code == REDLOCK_ETIMEDOUT)
        redlock__lock_err(l, "%s: the validity ran out before a quorum answered (ttl %lld ms; "
                          "%u of %u nodes OK, quorum %u)", op->kind->name, (long long)op->ttl_ms,
                          t->count[REDLOCK__OK], t->n, t->quorum);
    else
        redlock__lock_err(l, "%s: %s (%u of %u nodes OK, quorum %u; %u refused, %u timed out, "
                          "%u unreachable, %u errors, %u full, %u not counted)", op->kind->name,
                          redlock_strerror(code), t->count[REDLOCK__OK], t->n, t->quorum,
                          t->count[REDLOCK__REFUSED], t->count[REDLOCK__TIMEOUT],
                          t->count[REDLOCK__DOWN], t->count[REDLOCK__ERROR],
                          t->count[REDLOCK__FULL], t->count[REDLOCK__UNCOUNTED]);
    if (node != SIZE_MAX && l->errstr && l->errstr[0])
        redlock__lock_err(l, "%s; first: node %zu (%s): %s", l->errstr, node,
                          op->f->masters[node].label, op->detail[node]);
}

redlock__op *redlock__lock_new_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                                  size_t nkeys, size_t nargs, const char *const *item,
                                  const size_t *len)
{
    redlock__op_args a = { nkeys, nargs, item, len, ttl_ms,
                           ttl_ms ? redlock__client_drift_us(l->c, ttl_ms) : 0, 0, l->quorum };
    return redlock__op_new(&l->c->fleet, kind, &a);
}

redlock__op *redlock__lock_release_wq(redlock_lock *l, const redlock__op_kind *kind,
                                      int64_t ttl_ms, size_t nkeys, const char *const *item,
                                      const size_t *len)
{
    redlock__op *op = NULL;
    size_t n = l->c->fleet.n, lead, ni = nkeys + 4;
    char tok[48], small[64], *picks = n <= sizeof small ? small : malloc(n);
    const char *sit[8], **it = ni <= 8 ? sit : malloc(ni * sizeof *it);
    size_t sln[8], *ln = ni <= 8 ? sln : malloc(ni * sizeof *ln);
    const char *self;

    if (picks && it && ln) {
        memcpy(it, item, (nkeys + 1) * sizeof *it);
        memcpy(ln, len, (nkeys + 1) * sizeof *ln);
        redlock__wake_release(l, tok, sizeof tok, &ln[nkeys + 1], picks, &lead, &self);
        it[nkeys + 1] = tok;
        it[nkeys + 2] = picks;
        ln[nkeys + 2] = n;
        it[nkeys + 3] = self ? self : "";
        ln[nkeys + 3] = self ? strlen(self) : 0;
        if ((op = redlock__lock_new_op(l, kind, ttl_ms, nkeys, 4, it, ln)))
            op->lead_node = lead;
    }
    if (picks != small)
        free(picks);
    if (it != sit)
        free(it);
    if (ln != sln)
        free(ln);
    return op;
}

const redlock__op_kind *redlock__wake_release_kind(redlock_lock *l, const redlock__op_kind *kind)
{
    const redlock__wake_hook *w = l->fam->wake;

    if (kind != l->fam->release || !w || !l->c->opt.wake || !redlock__wake_contended(l) ||
        (w->frees && !w->frees(l)))
        return kind;
    return w->release_wq;
}

/* An op of the lock's family: the family's own items, or the mutex's
 * (key, value[, counter key[, token]]). */
redlock__op *redlock__lock_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                              int64_t token)
{
    char tok[48];
    const char *item[4] = { l->key, l->value, l->fence_key, tok };
    size_t len[4] = { l->keylen, l->valuelen, l->fence_keylen, 0 };
    size_t nargs = 1;

    if (kind == l->fam->release && l->fam->wake)
        kind = redlock__wake_release_kind(l, kind);
    if (l->fam->op)
        return l->fam->op(l, kind, ttl_ms, token);
    if (kind == l->fam->acquire_fenced)
        nargs = 2;
    if (kind == l->fam->fence_raise) {
        len[3] = redlock__u64_str(tok, (uint64_t)token);
        nargs = 3;
    }
    if (l->fam->wake && kind == l->fam->wake->release_wq)
        return redlock__lock_release_wq(l, kind, ttl_ms, 1, item, len);
    return redlock__lock_new_op(l, kind, ttl_ms, 1, nargs, item, len);
}

/* Keep the per-node outcome of the lock's latest fan-out. */
void redlock__lock_record(redlock_lock *l, const redlock__op *op)
{
    size_t n = op->f->n;

    redlock__lock_nodes *d = l->nodes;

    l->nodes_ok = op->tally.count[REDLOCK__OK];
    memcpy(d->votes, op->votes, n);
    memcpy(d->rtt, op->rtt, n * sizeof *d->rtt);
    for (size_t i = 0; i < n; i++)
        if (op->votes[i] == REDLOCK__OK)
            d->ok_us[i] = op->start_us;
    /* an op without a failure has no texts (fanout.c), and nothing to
     * clear when the lock has none either */
    if (op->err_node == SIZE_MAX && !op->noted && !d->texts)
        return;
    d->texts = 0;
    for (size_t i = 0; i < n; i++) {
        /* a text costs its size, and only while a node has one */
        size_t len = op->detail[i][0] ? strnlen(op->detail[i], REDLOCK__DETAIL - 1) + 1 : 0;
        char *s = len ? realloc(d->detail[i], len) : NULL;
        if (len && s) {
            memcpy(s, op->detail[i], len - 1);
            s[len - 1] = '\0';
            d->texts = 1;
        } else {
            free(d->detail[i]);         /* none, or out of memory: "" */
        }
        d->detail[i] = s;
    }
}

/* What acquire attempts and extends share: record the votes, then finish
 * the lock's operation if it was cancelled or won (validity then counts
 * from this op's own start, also for an extend).  1 when finished: the
 * lock may be gone then. */
/* 1 when a master's clock was seen jumping ahead while op was on its way
 * and op's OK votes from masters whose clocks are trusted are no longer
 * its quorum: an OK that came before the jump was seen may be a key that
 * has expired already (redlock__locks_clock_ahead ends the locks already
 * held; this, the ones still being won). */
static int jumped_below_quorum(const redlock__op *op, int64_t now)
{
    size_t ok = 0;
    int counted;
    int64_t until;

    if (op->master_jumps == op->f->loop->master_jumps || REDLOCK__MUTANT(JUMP_INFLIGHT))
        return 0;
    for (size_t i = 0; i < op->f->n; i++)
        ok += op->votes[i] == REDLOCK__OK &&
              !(redlock__guard_flags(&op->f->masters[i], now, &counted, &until) &
                REDLOCK_GUARD_CLOCK);
    return ok < op->tally.quorum;
}

int redlock__lock_settle(redlock_lock *l, redlock__op *op)
{
    l->fl->op = NULL;
    redlock__lock_record(l, op);
    if (op->cancelled) {
        redlock__lock_err(l, "%s: cancelled", op->kind->name);
        redlock__lock_complete(l, REDLOCK_ECANCELED);
        return 1;
    }
    if (op->decision == REDLOCK__WON) {
        redlock__loop *loop = op->f->loop;
        int64_t until = (REDLOCK__MUTANT(VALIDITY_FROM_REPLY) ? redlock__now(loop) : op->start_us) +
                        op->ttl_ms * 1000 - op->drift_us;
        /* Checked again as the result is handed over, with a margin for the
         * callback's own reading: a success always has at least 1 ms to
         * report, and no clock step since the start. */
        /* an extend that wins after the lost-lock notice: the application
         * was told the lock is gone, and it stays gone */
        int told = l->busy == REDLOCK__LOCK_EXTEND && redlock__watch_told_lost(l);
        int new_hold = l->busy != REDLOCK__LOCK_EXTEND && !l->reacquire;
        int64_t now = redlock__now(loop);
        int jumped = jumped_below_quorum(op, now);
        if ((until - now >= REDLOCK__MIN_VALIDITY_US + REDLOCK__HANDOVER_US ||
             REDLOCK__MUTANT(NO_MARGIN)) &&
            (op->clock_steps == loop->clock_steps || REDLOCK__MUTANT(CLOCK_STEP)) && !jumped &&
            !told) {
            l->fl->end_us = now;
            if (new_hold) {
                l->held_since_us = op->start_us;
                l->hold_open = 1;
                l->holds = 1;
            } else if (l->busy != REDLOCK__LOCK_EXTEND) {
                l->holds++;     /* keys are never shortened by it: keep the later end */
                if (until < l->valid_until_us)
                    until = l->valid_until_us;
            }
            l->valid_until_us = until;
            l->clock_steps = op->clock_steps;
            if (new_hold && (op->kind->flags & REDLOCK__KIND_WRITES)) {
                memcpy(l->nodes->gen, op->gen, op->f->n * sizeof *op->gen);
            } else if (op->kind->flags & REDLOCK__KIND_WRITES) {
                for (size_t i = 0; i < op->f->n; i++)
                    if (op->gen[i])
                        l->nodes->gen[i] = op->gen[i];
            }
            redlock__watch_held(l, new_hold);
            redlock__lock_complete(l, 0);
            return 1;
        }
        op->expired = 1;
        op->stepped = op->clock_steps != loop->clock_steps;
        op->jumped = (unsigned)jumped;
    }
    return 0;
}

static void extend_done(redlock__op *op, void *privdata)
{
    redlock_lock *l = privdata;
    int code;

    if (redlock__lock_settle(l, op))
        return;
    /* Failed.  The masters that ran the extend now expire the key at most
     * ttl after its start; the others still at the old end: the validity
     * is already the smaller of the two (set when the extend started).
     * When refusals leave no quorum that may hold our value, nothing. */
    if (redlock__refused_quorum(&op->tally) && !REDLOCK__MUTANT(REFUSED_KEEPS)) {
        l->valid_until_us = 0;
        redlock__metrics_hold_end(l, op->start_us, REDLOCK__HOLD_LOST);
        if (l->wd && !l->wd->in_flight && l->wd->watching) {
            /* the notice comes from the loop, after this extend's callback */
            l->wd->lost_reason = REDLOCK_LOST_REFUSED;
            redlock__watch_end_moved(l);
        }
    }
    else if (l->valid_until_us && l->wd && !l->wd->in_flight && !redlock__watch_told_lost(l))
        redlock__watch_held(l, 0);      /* still held: the watchdog goes on */
    code = redlock__failure_code(&op->tally);
    if (code == REDLOCK_ENOQUORUM)
        code = REDLOCK_ENOTOWNER;
    redlock__lock_describe(l, op, code);
    redlock__lock_complete(l, code);
}

void redlock__lock_drop_late(redlock_lock *l)
{
    redlock__op *op = l->late;

    if (!op)
        return;
    l->late = NULL;
    redlock__op_unfollow(op);
}

/* A reply to a release already decided: the node results say what every
 * master did, as long as no newer operation's results are there. */
static void release_late(redlock__op *op, void *privdata)
{
    redlock_lock *l = privdata;

    redlock__lock_record(l, op);
    if (redlock__fam_wakes(l->fam) && !op->cancelled)
        redlock__wake_release_late(l, op);
    if (!op->tally.count[REDLOCK__PENDING])
        redlock__lock_drop_late(l);
}

static void release_done(redlock__op *op, void *privdata)
{
    redlock_lock *l = privdata;
    int code = 0;

    redlock__lock_record(l, op);
    if (redlock__fam_wakes(l->fam) && !op->cancelled)
        redlock__wake_released(l, op);
    if (op->tally.count[REDLOCK__PENDING] && !op->cancelled) {
        /* decided at the quorum: the other deletes are on their way */
        redlock__op_follow(op, release_late, l);
        l->late = op;
    }
    if (l->partial) {
        /* one hold of several given back: the lock stays held (its keys'
         * ttl untouched), whatever the masters said */
        if (!op->cancelled && op->tally.count[REDLOCK__OK] >= op->tally.quorum)
            l->holds--;
        else if (!op->cancelled && redlock__refused_quorum(&op->tally)) {
            l->valid_until_us = 0;      /* a quorum no longer knew our holds */
            redlock__metrics_hold_end(l, op->start_us, REDLOCK__HOLD_LOST);
            if (l->wd && l->wd->watching && !redlock__watch_told_lost(l)) {
                l->wd->lost_reason = REDLOCK_LOST_REFUSED;
                redlock__watch_end_moved(l);
            }
        }
        if (l->valid_until_us && l->wd && !l->wd->in_flight && !redlock__watch_told_lost(l))
            redlock__watch_held(l, 0);
    } else {
        l->valid_until_us = 0;
        l->holds = 0;
    }
    if (op->cancelled) {
        redlock__lock_err(l, "release: cancelled");
        redlock__lock_complete(l, REDLOCK_ECANCELED);
        return;
    }
    /* Success means a quorum still held the lock until this release.  Less
     * than that: the lock had been lost (expired or taken) if refusals say
     * so, else the outcome is unknown (slow or unreachable masters). */
    if (op->tally.count[REDLOCK__OK] < op->tally.quorum && !REDLOCK__MUTANT(RELEASE_LIES)) {
        code = redlock__failure_code(&op->tally);
        if (code == REDLOCK_ENOQUORUM)      /* refusals sank the quorum */
            code = REDLOCK_ENOTOWNER;
        redlock__lock_describe(l, op, code);
    }
    redlock__lock_complete(l, code);
}

/* Stop the lock's operation in flight: its retry timer, a fenced acquire
 * raising its counters (its keys given back), its op (an acquire attempt's
 * win undone: decided now when `now`, so that its undo leaves at once,
 * behind its request on each master, and no write of it is sent again). */
static void drop_op(redlock_lock *l, int now)
{
    redlock__flight *fl = l->fl;
    redlock__op *op;

    evtimer_del(&fl->retry_timer);
    if (fl->fenced) {
        redlock__op_undo(fl->fenced);
        redlock__op_unref(fl->fenced);
        fl->fenced = NULL;
    }
    if ((op = fl->op)) {
        int acquire = l->busy == REDLOCK__LOCK_ACQUIRE || l->busy == REDLOCK__LOCK_TRY;
        fl->op = NULL;
        op->done = acquire ? orphan_done : ignore_done;
        op->done_privdata = NULL;
        if (acquire && now)
            redlock__op_cancel(op);
    }
}

void redlock__lock_detach_op(redlock_lock *l)
{
    if (l->fl)
        drop_op(l, l->c && !l->c->loop.closing);
    l->busy = REDLOCK__LOCK_IDLE;
}

/* Detach the lock's operation; its callback hears ECANCELED now.  An
 * acquire's leaves nothing of its kind (fam->abandon), as when it ends. */
void redlock__lock_cancel(redlock_lock *l)
{
    int abandon;

    if (l->busy == REDLOCK__LOCK_IDLE)
        return;
    abandon = (l->busy == REDLOCK__LOCK_ACQUIRE || l->busy == REDLOCK__LOCK_TRY) &&
              !l->reacquire && l->fam->abandon && l->c && !l->c->loop.closing;
    redlock__lock_detach_op(l);
    if (abandon)
        l->fam->abandon(l);
    redlock__lock_err(l, "cancelled");
    redlock__lock_complete(l, REDLOCK_ECANCELED);
}

/* redlock_acquire_cancel: the acquire's attempt in flight is decided now
 * (no write of it is sent again) and undone on every master its request
 * went to, behind that request; the retry timer stops, the registries'
 * entry goes with the flight (contended.c), and the callback runs here. */
int redlock__lock_acquire_cancel(redlock_lock *l)
{
    redlock_client *c;

    if (!l)
        return REDLOCK_EINVAL;
    if (!l->c || l->c->loop.closing) {
        redlock__lock_err(l, "acquire_cancel: the lock's client was freed");
        return REDLOCK_ECLOSED;
    }
    if ((l->busy != REDLOCK__LOCK_ACQUIRE && l->busy != REDLOCK__LOCK_TRY) || !l->fl) {
        redlock__lock_err(l, "acquire_cancel: no acquire is pending on this lock (%s)",
                          l->busy ? "an extend or release is in flight"
                          : redlock_lock_validity(l) > 0 ? "it is held: release it"
                          : "it is idle");
        return REDLOCK_EINVAL;
    }
    c = l->c;
    redlock__enter(&c->loop);
    drop_op(l, 1);
    if (l->reacquire && l->valid_until_us && l->wd && !redlock__watch_told_lost(l))
        redlock__watch_held(l, 0);      /* the hold goes on: so does its watchdog */
    redlock__lock_err(l, "acquire: cancelled by redlock_acquire_cancel");
    redlock__lock_complete(l, REDLOCK_ECANCELED);
    redlock__leave(&c->loop);
    return 0;
}

/* Extend and release: one op on the lock's current value.  Starting may
 * (re)connect a master and so call the application's node_cb; the bracket
 * keeps the client alive even if that callback frees it. */
static int start_on_value(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                          enum redlock__lock_op busy, redlock__op_done *done, redlock_cb *cb,
                          void *pd)
{
    redlock_client *c = l->c;
    redlock__op *op;

    if (redlock__lock_nodes_make(l) != 0 || redlock__lock_flight(l) != 0 ||
        !(op = redlock__lock_op(l, kind, ttl_ms, 0)))
        return REDLOCK_ENOMEM;
    redlock__lock_drop_late(l);
    if (kind->flags & REDLOCK__KIND_UNDOES)     /* owed where the winning write went */
        memcpy(op->gen, l->nodes->gen, c->fleet.n * sizeof *op->gen);
    /* a re-growing extend re-grows only where the master restarted since
     * it last had the key (its kind's encode reads op->value[i], 1: may),
     * once per restart */
    if (op->kind->flags & REDLOCK__KIND_REGROW)
        for (size_t i = 0; i < c->fleet.n; i++)
            if ((op->value[i] = redlock__lock_regrows(l, i)))
                l->nodes->ok_us[i] = redlock__now(&c->loop);
    l->busy = busy;
    l->fl->op = op;
    l->fl->cb = cb;
    l->fl->privdata = pd;
    redlock__enter(&c->loop);
    redlock__op_start(op, done, l);
    l->fl->began_us = op->start_us;
    redlock__leave(&c->loop);
    return 0;
}

int redlock__lock_start_extend(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                               redlock_cb *cb, void *pd)
{
    return start_on_value(l, kind, ttl_ms, REDLOCK__LOCK_EXTEND, extend_done, cb, pd);
}

int redlock__lock_start_release(redlock_lock *l, redlock_cb *cb, void *pd)
{
    return start_on_value(l, l->fam->release, 0, REDLOCK__LOCK_RELEASE, release_done, cb, pd);
}
