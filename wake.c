/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* wake.c -- a client's contended resources: how long its waiting locks
 * back off, and their wake-up when a release is announced.
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
 *   - the subscription: when the family's release announces itself
 *     (PUBLISH on the key's name, in the release script), the client
 *     subscribes to that channel on every master, on the master's second
 *     connection (one per master, shared by all the client's locks).  An
 *     announcement from any one master wakes the waiting locks; each
 *     retries after a random delay in [0, window), window = mult x the
 *     attempts' round trip, so that about one waiter (of all clients) tries
 *     before the winner's writes are in, instead of all at once.
 *
 * Polling stays: a waiting lock still retries after its retry delay (times
 * the back-off) when no announcement comes: a holder that crashed (its key
 * expires silently), a lost message, a master whose ACL refuses the
 * channel (SUBSCRIBE answered with an error: that master is not asked
 * again until its subscriber reconnects).
 */
#include <stdlib.h>
#include <string.h>
#include "lock_private.h"

#define WAKE_LINGER_MS 1000     /* a record outlives its last waiter */
#define MULT_MAX 64             /* back-off factor cap */
#define POLL_MULT_MAX 16        /* ... applied to the polling delay */
#define RTT_MIN_US 200          /* the round trip assumed at least */
#define BUCKETS_MIN 16

enum { SUB_NONE, SUB_SENT, SUB_ON };

typedef struct redlock__hot redlock__hot;

struct redlock__hot {
    struct redlock__hot *next;       /* hash chain */
    redlock__wake *wk;
    struct event linger;
    redlock__link waiters;           /* the waiting locks' fl->wait */
    unsigned nwait;
    unsigned mult;
    int64_t rtt_us;                  /* smoothed attempt round trip */
    unsigned char *sub;              /* per master: SUB_* */
    size_t len;
    char key[];
};

struct redlock__wake {
    redlock_client *c;
    redlock__hot **bucket;
    size_t nbuckets, count;
    unsigned char *refused;          /* per master: SUBSCRIBE refused */
};

static uint64_t hash(const char *p, size_t len)
{
    uint64_t h = 1469598103934665603ULL;     /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
    return h;
}

static redlock__wake *wake_table(redlock_client *c)
{
    redlock__wake *wk = c->wake;

    if (wk)
        return wk;
    if (!(wk = calloc(1, sizeof *wk)))
        return NULL;
    wk->c = c;
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

static redlock__hot **slot_of(redlock__wake *wk, const char *key, size_t len)
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

/* ---- subscribing ---------------------------------------------------------- */

static void sub_reply(void *privdata, size_t node, const redlock__reply *r, const char *why)
{
    redlock__wake *wk = privdata;
    redlock__hot **p;
    (void)why;

    if (!r)
        return;         /* the connection went: redlock__wake_side resubscribes */
    if (r->type == REDLOCK__REPLY_ERROR) {
        /* an ACL without the channel: that master is polled only */
        if (!wk->refused[node])
            wk->c->astats.subscribe_refused++;
        wk->refused[node] = 1;
        return;
    }
    if (r->type != REDLOCK__REPLY_ARRAY || r->elements != 3 ||
        r->element[1]->type != REDLOCK__REPLY_STRING)
        return;
    p = slot_of(wk, r->element[1]->str, r->element[1]->len);
    if (*p && (*p)->sub[node] == SUB_SENT && r->element[0]->len == 9)    /* "subscribe" */
        (*p)->sub[node] = SUB_ON;
}

static void send_sub(redlock__wake *wk, redlock__hot *h, size_t node, int on)
{
    redlock__master *m = &wk->c->fleet.masters[node];
    const char *argv[2] = { on ? "SUBSCRIBE" : "UNSUBSCRIBE", h->key };
    size_t len[2] = { on ? 9u : 11u, h->len };
    redlock__slot sl = { sub_reply, wk, node, NULL, 0, 0 };
    redlock__buf b = { 0 };
    const char *why;

    if (on && wk->refused[node])
        return;
    if (redlock__resp_command(&b, 2, argv, len) == 0 &&
        redlock__master_side_send(m, b.p, b.len, &sl, &why) == 0)
        h->sub[node] = on ? SUB_SENT : SUB_NONE;
    else if (!on)
        h->sub[node] = SUB_NONE;
    redlock__buf_free(&b);
}

/* ---- records ------------------------------------------------------------ */

static void hot_free(redlock__hot *h)
{
    redlock__wake *wk = h->wk;
    redlock__hot **p = slot_of(wk, h->key, h->len);

    *p = h->next;
    wk->count--;
    evtimer_del(&h->linger);
    if (!wk->c->loop.closing)
        for (size_t i = 0; i < wk->c->fleet.n; i++)
            if (h->sub[i] != SUB_NONE)
                send_sub(wk, h, i, 0);
    free(h);
}

static void linger_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__hot *h = arg;
    redlock__loop *loop = &h->wk->c->loop;
    (void)fd;
    (void)what;

    redlock__enter(loop);
    if (!h->nwait)
        hot_free(h);
    redlock__leave(loop);
}

static redlock__hot *hot_get(redlock_client *c, const char *key, size_t len, int announces)
{
    redlock__wake *wk = wake_table(c);
    redlock__hot **p, *h;
    size_t n = c->fleet.n;

    if (!wk)
        return NULL;
    if (*(p = slot_of(wk, key, len)))
        return *p;
    if (!(h = calloc(1, sizeof *h + len + 1 + n)))
        return NULL;
    h->wk = wk;
    h->mult = 1;
    h->rtt_us = RTT_MIN_US;
    redlock__list_init(&h->waiters);
    h->len = len;
    memcpy(h->key, key, len);
    h->sub = (unsigned char *)h->key + len + 1;
    evtimer_assign(&h->linger, c->loop.base, linger_cb, h);
    *p = h;
    if (++wk->count > wk->nbuckets)
        grow(wk);
    if (announces && c->opt.wake)
        for (size_t i = 0; i < n; i++)
            send_sub(wk, h, i, 1);
    return h;
}

/* ---- what the lock machine asks ------------------------------------------ */

void redlock__wake_wait(redlock_lock *l)
{
    redlock__flight *fl = l->fl;
    redlock__hot *h = fl->hot;

    if (!h && !(h = hot_get(l->c, l->key, l->keylen, l->fam->flags & REDLOCK__FAM_ANNOUNCES)))
        return;         /* out of memory: plain polling */
    fl->hot = h;
    if (!fl->waiting) {
        redlock__list_add(&h->waiters, &fl->wait);
        fl->waiting = 1;
        h->nwait++;
        evtimer_del(&h->linger);
    }
    fl->woken = 0;
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
        if (--h->nwait == 0 && l->c && !l->c->loop.closing)
            redlock__timer_add(&l->c->loop, &h->linger, WAKE_LINGER_MS * 1000);
    }
    fl->hot = NULL;
}

/* An attempt's outcome: its round trip, and the back-off (1 when the
 * attempt was a split vote). */
int redlock__wake_outcome(redlock_lock *l, const redlock__op *op, int won)
{
    const redlock__tally *t = &op->tally;
    redlock__hot *h = l->fl ? l->fl->hot : NULL;
    int split = !won && t->count[REDLOCK__OK] > 0 && t->count[REDLOCK__REFUSED] > 0;
    int64_t rtt = redlock__now(&l->c->loop) - op->start_us;    /* (at the decision) */

    if (split)
        l->c->astats.split_votes++;
    if (won)
        l->c->astats.won++;
    if (!h && !won && t->count[REDLOCK__REFUSED] > 0) {
        redlock__wake_wait(l);      /* contended: the record exists from now */
        h = l->fl->hot;
    }
    if (!h)
        return split;
    if (rtt > 0)
        h->rtt_us += (rtt - h->rtt_us) / 8;
    if (h->rtt_us < RTT_MIN_US)
        h->rtt_us = RTT_MIN_US;
    if (split && h->mult < MULT_MAX)
        h->mult *= 2;
    else if (won && h->mult > 1)
        h->mult /= 2;
    return split;
}

int64_t redlock__wake_poll_us(const redlock_lock *l, int64_t delay_us)
{
    const redlock__hot *h = l->fl ? l->fl->hot : NULL;
    unsigned m = h ? h->mult : 1;
    return delay_us * (m < POLL_MULT_MAX ? m : POLL_MULT_MAX);
}

int64_t redlock__wake_window_us(const redlock_lock *l)
{
    const redlock__hot *h = l->fl ? l->fl->hot : NULL;
    return h ? h->rtt_us * h->mult : RTT_MIN_US;
}

/* ---- a waiting lock woken ------------------------------------------------ */

int64_t redlock__wake_delay_us(redlock_lock *l)
{
    uint64_t w = (uint64_t)redlock__wake_window_us(l);
    return (int64_t)(redlock__client_random(l->c) % (w + 1));
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
    now = redlock__now(&l->c->loop);
    delay = redlock__wake_delay_us(l);
    if (now + delay < fl->retry_at_us) {
        fl->retry_at_us = now + delay;
        redlock__timer_add(&l->c->loop, &fl->retry_timer, delay);
        l->c->astats.wakeups++;
    }
}

/* ---- what the masters' subscribers say ------------------------------------ */

void redlock__wake_message(void *privdata, size_t node, const char *channel, size_t len)
{
    redlock_client *c = privdata;
    redlock__hot *h;
    redlock__link *e, *next;
    (void)node;

    if (!c->wake || c->loop.closing || !(h = *slot_of(c->wake, channel, len)))
        return;
    c->astats.announcements++;
    for (e = h->waiters.next; e != &h->waiters; e = next) {
        next = e->next;     /* (a woken lock stays on the list) */
        redlock__flight *fl = redlock__container(e, redlock__flight, wait);
        redlock__lock_woken(fl->lock);
    }
}

void redlock__wake_side(void *privdata, size_t node, int up)
{
    redlock_client *c = privdata;
    redlock__wake *wk = c->wake;

    if (!wk || c->loop.closing)
        return;
    if (!up)
        wk->refused[node] = 0;      /* asked again after the reconnect */
    for (size_t i = 0; i < wk->nbuckets; i++)
        for (redlock__hot *h = wk->bucket[i]; h; h = h->next) {
            if (!up)
                h->sub[node] = SUB_NONE;
            else if (h->sub[node] == SUB_NONE && c->opt.wake &&
                     (h->nwait || evtimer_pending(&h->linger, NULL)))
                send_sub(wk, h, node, 1);
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
            free(h);
        }
    free(wk->bucket);
    free(wk->refused);
    free(wk);
    c->wake = NULL;
}
