/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* contended.c -- a client's contended resources: how long its waiting locks
 * back off, and when they retry (their wake-up when a release is
 * announced: the registries and messages are announce.c's).
 *
 * A resource becomes "hot" for a client when one of its acquire attempts
 * is refused.  The record (redlock__hot) lives while locks wait on it and
 * for WAKE_LINGER_MS after, and holds:
 *
 *   - the back-off factor `mult`: doubled by a split vote (an attempt that
 *     won some masters but not a quorum: attempts of several clients met),
 *     halved by a win.  A split costs everyone a round, so the clients
 *     that meet back off until their attempts stop meeting; see
 *     docs/design.md, "Many clients, one lock".
 *   - the registry: when the family's release announces itself, the
 *     client enters the resource's registry "{<key>}:wq" on every master (a
 *     queue of waiter ids) and listens on its own channel "{<key>}:wq:<id>"
 *     on every master's second connection, shared by all the client's
 *     locks.
 *   - the count of waiting clients (the registry's), and the attempts'
 *     round trip.
 *
 * The release script tells the entry at the front of the queue on one
 * master (a fast one that granted the hold, written to first) and puts it
 * at the back: one waiter of all the clients retries per release, at once,
 * the waiters in turn (no herd, no favourite), and the messages do not
 * grow with the waiters.  An entry nobody listens to is dropped there and
 * the next one told; should the pick not act (a waiter whose program
 * hangs), the releaser's own next acquire tries LAST_TRY wake windows
 * later.
 *
 * Polling stays: a waiting lock still retries after its retry delay (times
 * the back-off) when no announcement comes: a holder that crashed (its key
 * expires silently), a lost message, a master whose ACL refuses the
 * channel (SUBSCRIBE answered with an error: that master is not asked
 * again until its subscriber reconnects).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lock/wake.h"

#define WAKE_LINGER_MS 1000     /* a record outlives its last waiter */
#define MULT_MAX 64             /* back-off factor cap */
#define POLL_MULT_MAX 16        /* ... applied to the polling delay */
#define RIVALS_POLL_MAX 256     /* polling slowed by the rivals at most */
#define RIVALS_POLL_ROLE 16     /* ... where a release tells one role only (the
                                 * read/write lock's): the other role's waiters
                                 * come at their poll */
#define RIVALS_POLL_MIN 16      /* ... from this many (fewer: expiries are
                                 * found at the retry delay, as without) */
#define RTT_MIN_US 200          /* the round trip assumed at least */
#define LAST_TRY 4              /* the releaser's next attempt, in wake windows */
#define CONFIRM 2               /* a look that found the key gone: the next */
#define BUCKETS_MIN 16

static uint64_t hash(const char *p, size_t len)
{
    uint64_t h = 1469598103934665603ULL;     /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

redlock__wake *redlock__wake_table(redlock_client *c)
{
    redlock__wake *wk = c->wake;

    if (wk)
        return wk;
    if (!(wk = calloc(1, sizeof *wk)))
        return NULL;
    wk->c = c;
    if (redlock__random_hex(wk->id, REDLOCK__ID_HEX / 2) != 0) {
        free(wk);
        return NULL;
    }
    wk->nbuckets = BUCKETS_MIN;
    wk->bucket = calloc(wk->nbuckets, sizeof *wk->bucket);
    wk->refused = calloc(c->fleet.n, 1);
    if (!wk->bucket || !wk->refused) {
        free(wk->bucket);
        free(wk->refused);
        free(wk);
        return NULL;
    }
    c->wake = wk;
    return wk;
}

redlock__hot **redlock__hot_slot(redlock__wake *wk, const char *key, size_t len)
{
    redlock__hot **p = &wk->bucket[hash(key, len) & (wk->nbuckets - 1)];
    while (*p && !((*p)->len == len && !memcmp((*p)->key, key, len)))
        p = &(*p)->next;
    return p;
}

static void grow(redlock__wake *wk)
{
    size_t n = wk->nbuckets * 2;
    redlock__hot **b = calloc(n, sizeof *b);

    if (!b)
        return;         /* longer chains, still correct */
    for (size_t i = 0; i < wk->nbuckets; i++) {
        while (wk->bucket[i]) {
            redlock__hot *h = wk->bucket[i];
            wk->bucket[i] = h->next;
            h->next = b[hash(h->key, h->len) & (n - 1)];
            b[hash(h->key, h->len) & (n - 1)] = h;
        }
    }
    free(wk->bucket);
    wk->bucket = b;
    wk->nbuckets = n;
}

/* ---- records ------------------------------------------------------------ */

static void hot_free(redlock__hot *h)
{
    redlock__wake *wk = h->wk;
    redlock__hot **p = redlock__hot_slot(wk, h->key, h->len);

    *p = h->next;
    wk->count--;
    evtimer_del(&h->linger);
    evtimer_del(&h->renew);
    evtimer_del(&h->nudge);
    if (!wk->c->loop.closing && h->entered_us)
        redlock__hot_registry(wk->c, h, 0, SIZE_MAX, SIZE_MAX, 0);     /* (a holder's) */
    if (!wk->c->loop.closing)
        for (size_t i = 0; i < wk->c->fleet.n; i++)
            if (h->sub[i] != REDLOCK__SUB_NONE)
                redlock__hot_sub(wk, h, i, 0);
    free(h);
}

static void linger_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__hot *h = arg;
    redlock__loop *loop = &h->wk->c->loop;
    (void)fd;
    (void)what;

    redlock__enter(loop);
    if (!h->nwait && (h->pending || redlock__now(loop) < h->keep_until_us))
        redlock__timer_add(loop, &h->linger, WAKE_LINGER_MS * 1000);   /* replies due, or kept */
    else if (!h->nwait)
        hot_free(h);
    redlock__leave(loop);
}

void redlock__hot_keep(redlock__hot *h, int64_t until_us)
{
    if (until_us > h->keep_until_us)
        h->keep_until_us = until_us;
    if (!h->nwait && !evtimer_pending(&h->linger, NULL))
        redlock__timer_add(&h->wk->c->loop, &h->linger, WAKE_LINGER_MS * 1000);
}

redlock__hot *redlock__hot_get(redlock_client *c, const char *key, size_t len, int announces,
                              int listen)
{
    redlock__wake *wk = redlock__wake_table(c);
    redlock__hot **p, *h;
    size_t n = c->fleet.n;

    if (!wk)
        return NULL;
    if (*(p = redlock__hot_slot(wk, key, len)))
        return *p;
    if (!(h = calloc(1, sizeof *h + len + 4 + REDLOCK__ID_HEX + 1 + n)))
        return NULL;
    h->wk = wk;
    h->mult = 1;
    h->rtt_us = RTT_MIN_US;
    h->rivals = 1;
    h->announces = announces;
    redlock__list_init(&h->waiters);
    h->len = len;
    memcpy(h->key, key, len);
    memcpy(h->key + len, ":wq:", 4);
    memcpy(h->key + len + 4, wk->id, REDLOCK__ID_HEX);
    h->sub = (unsigned char *)h->key + redlock__hot_chan_len(h) + 1;
    evtimer_assign(&h->linger, c->loop.base, linger_cb, h);
    evtimer_assign(&h->renew, c->loop.base, redlock__hot_renew_cb, h);
    evtimer_assign(&h->nudge, c->loop.base, redlock__hot_nudge_cb, h);
    *p = h;
    if (++wk->count > wk->nbuckets)
        grow(wk);
    if (announces && listen && c->opt.wake)
        for (size_t i = 0; i < n; i++)
            redlock__hot_sub(wk, h, i, 1);
    else if (!listen)
        redlock__hot_keep(h, 0);      /* (no waiter: the linger runs) */
    return h;
}

/* ---- what the lock machine asks ------------------------------------------ */

/* The record of the lock's i-th resource (its family's wake hook), made
 * if there is none; NULL: out of memory. */
static redlock__hot *hot_at(redlock_lock *l, size_t i)
{
    size_t len;
    const char *k = redlock__wake_key_at(l, i, &len);
    char small[256], *b;
    redlock__hot *h;
    int announces = redlock__fam_wakes(l->fam);

    if (!k || k == l->key)
        return redlock__hot_get(l->c, redlock__lock_braced(l), l->keylen + 2, announces, 1);
    if (!(b = len + 2 <= sizeof small ? small : malloc(len + 2)))
        return NULL;
    b[0] = '{';
    memcpy(b + 1, k, len);
    b[len + 1] = '}';
    h = redlock__hot_get(l->c, b, len + 2, announces, 1);
    if (b != small)
        free(b);
    return h;
}

/* 1: h is the record of the lock's i-th resource. */
static int hot_is(const redlock__hot *h, const redlock_lock *l, size_t i)
{
    size_t len;
    const char *k = redlock__wake_key_at(l, i, &len);

    return k && h->len == len + 2 && memcmp(h->key + 1, k, len) == 0;
}

/* The lock waits on its i-th resource. */
static void wait_at(redlock_lock *l, size_t res)
{
    redlock__flight *fl = l->fl;
    redlock__hot *h = fl->hot;

    if (!h && !(h = hot_at(l, res)))
        return;         /* out of memory: plain polling */
    fl->hot = h;
    if (h->announces && l->c->opt.wake)
        for (size_t i = 0; i < l->c->fleet.n; i++)
            if (h->sub[i] == REDLOCK__SUB_NONE)      /* (a holder's record until now) */
                redlock__hot_sub(h->wk, h, i, 1);
    if (!fl->waiting) {
        redlock__list_add(&h->waiters, &fl->wait);
        fl->waiting = 1;
        h->nwait++;
        evtimer_del(&h->linger);
    }
    fl->woken = 0;
    fl->rank = 0;
    fl->round_us = 0;
}

void redlock__wake_wait(redlock_lock *l)
{
    wait_at(l, 0);
}

void redlock__wake_unwait(redlock_lock *l)
{
    redlock__flight *fl = l->fl;
    redlock__hot *h = fl ? fl->hot : NULL;

    if (!h)
        return;
    if (fl->waiting) {
        redlock__list_del(&fl->wait);
        fl->waiting = 0;
        if (--h->nwait == 0 && l->c && !l->c->loop.closing) {
            /* a winner's entries stay while it holds (nobody else
             * releases meanwhile): its release takes them away, one
             * command less per acquisition */
            if (h->announces && l->c->opt.wake &&
                (!l->valid_until_us || (l->fam->wake && l->fam->wake->win_leaves)))
                redlock__hot_registry(l->c, h, 0, SIZE_MAX, SIZE_MAX, 0);
            /* a winner's record lives while its entries do: its release
             * tells the registries however long it holds (and the
             * waiters' notices keep it longer) */
            if (l->valid_until_us)
                h->keep_until_us = redlock__now(&l->c->loop) + REDLOCK__REGISTRY_LIFE_MS * 1000;
            redlock__timer_add(&l->c->loop, &h->linger, WAKE_LINGER_MS * 1000);
        }
    }
    fl->hot = NULL;
}

/* An attempt's outcome: its round trip, and the back-off (1 when the
 * attempt was a split vote: it retries within its window). */
int redlock__wake_outcome(redlock_lock *l, const redlock__op *op, int won)
{
    const redlock__tally *t = &op->tally;
    redlock__hot *h = l->fl ? l->fl->hot : NULL;
    int split = !won && t->count[REDLOCK__OK] > 0 && t->count[REDLOCK__REFUSED] > 0;
    int64_t rtt;

    if (split)
        l->c->astats.split_votes++;
    if (won)
        l->c->astats.won++;
    if (!won && t->count[REDLOCK__REFUSED] > 0) {
        const redlock__wake_hook *w = l->fam->wake;
        size_t i = w && w->waits_on ? w->waits_on(l, op) : 0;
        if (h && i && !hot_is(h, l, i)) {
            /* refused on another of its resources: it waits there now
             * (leaves the registry it was in) */
            redlock__wake_unwait(l);
            h = NULL;
        }
        if (!h) {
            wait_at(l, i);          /* contended: the record exists from now */
            h = l->fl->hot;
        }
    }
    if (!h)
        return split;
    rtt = redlock__now(&l->c->loop) - op->start_us;     /* (at the decision) */
    h->rtt_us = redlock__rtt_update(h->rtt_us, rtt);
    if (h->rtt_us < RTT_MIN_US)
        h->rtt_us = RTT_MIN_US;
    if (split && h->mult < MULT_MAX)
        h->mult *= 2;
    else if (won && h->mult > 1)
        h->mult /= 2;
    if (split && !l->fl->split_retry) {
        /* the key was free a moment ago and the attempts that met are
         * the ones after it: they retry within their own window, now
         * twice as wide, rather than leave it idle until a poll.  Once:
         * a split again is no meeting but a standing one (a holder with a
         * bare quorum leaves a master free to every contender), and
         * polls, slowed by the back-off, take over */
        l->fl->missed = 1;
        l->fl->rank = 2;
        l->fl->round_us = 0;
        l->fl->split_retry = 1;
    } else if (!split) {
        l->fl->split_retry = 0;
    }
    if (!won && t->count[REDLOCK__REFUSED] > 0 && h->announces && l->c->opt.wake) {
        /* refused after a release was announced: the key's new holder
         * took it without waiting, and may not know that anyone waits */
        size_t node = SIZE_MAX;
        for (size_t i = 0; l->fl->woken && i < op->f->n && node == SIZE_MAX; i++)
            if (op->votes[i] == REDLOCK__REFUSED && h->sub[i] == REDLOCK__SUB_ON)
                node = i;
        redlock__hot_enter(l->c, h, node);
    }

    if (!won && !split && l->fl->woken) {
        /* a woken attempt refused: a later release's pick wakes it again;
         * the one pick's (rank 1) goes once more within the window, as the
         * masters that refused may not have run the release yet (the
         * decision came at the first refusals: a quorum of all masters, a
         * semaphore's, waits for the slowest) */
        if (l->fl->rank == 1) {
            l->fl->missed = 1;
            l->fl->rank = 2;
            l->fl->round_us = 0;
        }
        l->fl->woken = 0;
    }
    return split;
}

/* Polling is the fallback while announcements come (some subscription
 * is on): then all the clients together poll about once per retry delay
 * (each one rivals times slower), enough to find a holder's key expired. */
int64_t redlock__wake_poll_us(const redlock_lock *l, int64_t delay_us)
{
    const redlock__hot *h = l->fl ? l->fl->hot : NULL;
    double m = h ? h->mult : 1;
    size_t on = 0;

    if (!h)
        return delay_us;
    if (m > POLL_MULT_MAX)
        m = POLL_MULT_MAX;
    for (size_t i = 0; i < l->c->fleet.n; i++)
        on += h->sub[i] == REDLOCK__SUB_ON;
    if (on) {
        double r = h->rivals >= RIVALS_POLL_MIN ? h->rivals : 1;
        double most = l->fam->wake && l->fam->wake->role ? RIVALS_POLL_ROLE : RIVALS_POLL_MAX;
        if (r > m)
            m = r < most ? r : most;
    }
    return (int64_t)((double)delay_us * m);
}

/* A poll slowed by the rivals looks before it leaps: EXISTS on one master
 * (mutex.c's look), and an attempt only when the key is gone there.  A
 * look takes no master, so among hundreds of waiters the polls no longer
 * split a hand-off's votes, and each sends one request, not N.  Only
 * where announcements come (the hand-offs are theirs; the poll is for a
 * crashed holder, whose key expires on every master) and only for the
 * mutex, whose key is the lock. */
static int may_look(const redlock_lock *l, double rivals_min)
{
    const redlock__hot *h = l->fl ? l->fl->hot : NULL;

    if (!h || l->fam != &redlock__mutex || l->reacquire || h->rivals < rivals_min)
        return 0;
    for (size_t i = 0; i < l->c->fleet.n; i++)
        if (h->sub[i] == REDLOCK__SUB_ON)
            return 1;
    return 0;
}

int redlock__wake_looks(const redlock_lock *l)
{
    return may_look(l, RIVALS_POLL_MIN);
}

/* A look that found the key gone looks again this much later: a
 * hand-off's gap (the key deleted, the next holder's SET on its way, about
 * a round trip) is over by then, a holder's key that expired is still
 * gone.  Not later: with short holds, a look a whole hand-off later finds
 * the next one's gap as often as the first did (docs/performance.md, "The
 * second look, sooner"). */
int64_t redlock__wake_confirm_us(const redlock_lock *l)
{
    return CONFIRM * redlock__wake_window_us(l);
}

int64_t redlock__wake_window_us(const redlock_lock *l)
{
    const redlock__hot *h = l->fl ? l->fl->hot : NULL;
    return h ? redlock__hot_window(h) : RTT_MIN_US;
}

/* An acquire starting on a resource announced moments ago, by others:
 * it waits like the waiters already there (else a client that releases
 * and acquires again would be first every time).  1: its first attempt
 * is scheduled; 0: send it now. */
int redlock__wake_defer(redlock_lock *l)
{
    redlock_client *c = l->c;
    redlock__flight *fl = l->fl;
    redlock__hot *h;
    int64_t now, delay;

    if (!c->wake || !c->wake->count ||
        !(h = *redlock__hot_slot(c->wake, redlock__lock_braced(l), l->keylen + 2)) ||
        h->rivals < 1)
        return 0;
    now = redlock__now(&c->loop);
    if (!h->heard_us || now - h->heard_us > WAKE_LINGER_MS * 1000)
        return 0;
    fl->hot = h;
    /* others were in the registry at its release: it enters it too and
     * lets the pick go first; it tries LAST_TRY wake windows later
     * (refused when one of them got the lock: then it waits to be picked),
     * so that a pick that failed does not leave the lock idle until a
     * poll */
    delay = LAST_TRY * redlock__wake_window_us(l);
    if (fl->deadline_us && now + delay >= fl->deadline_us) {
        fl->hot = NULL;
        return 0;
    }
    redlock__wake_wait(l);
    if (h->announces && c->opt.wake)
        redlock__hot_enter(c, h, SIZE_MAX);
    /* it looks (and confirms a key gone: acquire.c): an attempt would
     * take masters from the next hand-off when the pick's hold was short
     * and its release came before this try */
    fl->look = may_look(l, 1);
    fl->retry_at_us = now + delay;
    fl->armed = 1;
    fl->began_us = fl->wait_from_us = now;     /* (metrics.c) */
    redlock__timer_add(&c->loop, &fl->retry_timer, delay);
    return 1;
}

/* ---- a waiting lock woken ------------------------------------------------ */

int64_t redlock__wake_delay_us(redlock_lock *l)
{
    uint64_t w = (uint64_t)(l->fl->round_us ? l->fl->round_us : redlock__wake_window_us(l));
    uint64_t r = redlock__client_random(l->c) % (w + 1);

    return l->fl->rank == 1 ? 0 : (int64_t)r;
}

void redlock__lock_woken(redlock_lock *l)
{
    redlock__flight *fl = l->fl;
    int64_t now, delay;

    if (fl->op || fl->fenced) {
        fl->missed = 1;         /* the attempt out may be refused by the old holder */
        return;
    }
    if (fl->woken || !evtimer_pending(&fl->retry_timer, NULL))
        return;
    fl->woken = 1;
    fl->armed = 1;
    now = redlock__now(&l->c->loop);
    delay = redlock__wake_delay_us(l);
    if (now + delay < fl->retry_at_us) {
        fl->look = 0;
        fl->retry_at_us = now + delay;
        if (delay == 0) {
            /* the pick: its attempt runs in this loop turn, after the
             * callbacks already due, not behind a poll for more I/O (with
             * hundreds of clients in a process, a turn brings many) */
            evtimer_del(&fl->retry_timer);
            event_active(&fl->retry_timer, EV_TIMEOUT, 1);
        } else {
            redlock__timer_add(&l->c->loop, &fl->retry_timer, delay);
        }
        l->c->astats.wakeups++;
    }
}

void redlock__wake_free(redlock_client *c)
{
    redlock__wake *wk = c->wake;

    if (!wk)
        return;
    for (size_t i = 0; i < wk->nbuckets; i++)
        while (wk->bucket[i]) {
            redlock__hot *h = wk->bucket[i];
            wk->bucket[i] = h->next;
            evtimer_del(&h->linger);
            evtimer_del(&h->renew);
            evtimer_del(&h->nudge);
            free(h);
        }
    free(wk->bucket);
    free(wk->refused);
    free(wk->hchan);
    free(wk);
    c->wake = NULL;
}
