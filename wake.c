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
 *   - the registry: when the family's release announces itself, the
 *     client enters the resource's registry "<key>:wq" on every master (a
 *     sorted set of waiter ids, scored by their expiry in the master's
 *     time) and listens on its own channel "<key>:wq:<id>" on every
 *     master's second connection, shared by all the client's locks.
 *   - the count of waiting clients (the registry's), and the attempts'
 *     round trip.
 *
 * The release script picks an entry at random on one master (a fast one
 * that granted the hold, written to first) and tells it: one waiter of all
 * the clients retries per release, at once, each waiter with the same
 * chance (no herd, no favourite), and the messages do not grow with the
 * waiters.  Should the pick be stale (a waiter gone), the releaser's own
 * next acquire tries LAST_TRY wake windows later.
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
#include "lock_private.h"

#define WAKE_LINGER_MS 1000     /* a record outlives its last waiter */
#define MULT_MAX 64             /* back-off factor cap */
#define POLL_MULT_MAX 16        /* ... applied to the polling delay */
#define RIVALS_POLL_MAX 256     /* polling slowed by the rivals at most */
#define RIVALS_POLL_MIN 16      /* ... from this many (fewer: expiries are
                                 * found at the retry delay, as without) */
#define RTT_MIN_US 200          /* the round trip assumed at least */
#define RTT_SLACK_US 100        /* a master as fast as the fastest, within it */
#define LAST_TRY 4              /* the releaser's next attempt, in wake windows */
#define WAIT_TTL_MS 5000        /* a registry entry, renewed at half its life */
#define ID_HEX 16               /* a client's waiter id: 64 random bits */
#define BUCKETS_MIN 16

enum { SUB_NONE, SUB_SENT, SUB_ON };

typedef struct redlock__hot redlock__hot;

struct redlock__hot {
    struct redlock__hot *next;       /* hash chain */
    redlock__wake *wk;
    struct event linger;
    struct event renew;              /* the entries' renewal, while waiting */
    redlock__link waiters;           /* the waiting locks' fl->wait */
    unsigned nwait;
    unsigned mult;
    int announces;                   /* its family's release publishes */
    int64_t rtt_us;                  /* smoothed attempt round trip */
    /* How many clients wait: the registry's count, from this client's
     * entries, its releases and the announcements it hears. */
    double rivals;
    int64_t heard_us;                /* the latest announcement, or 0 */
    unsigned char *sub;              /* per master: SUB_* */
    size_t len;                      /* the key's length; key[] holds the
                                      * client's channel, "<key>:wq:<id>"
                                      * (chan_len), whose first len + 3
                                      * bytes are the registry's name */
    unsigned pending;                /* registry replies still due */
    int64_t entered_us;              /* this client's entries sent, or 0 */
    char key[];
};

struct redlock__wake {
    redlock_client *c;
    char id[ID_HEX + 1];             /* this client's waiter id */
    redlock__hot **bucket;
    size_t nbuckets, count;
    unsigned char *refused;          /* per master: SUBSCRIBE refused */
};

static size_t chan_len(const redlock__hot *h)
{
    return h->len + 4 + ID_HEX;
}

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
    if (redlock__random_hex(wk->id, ID_HEX / 2) != 0) {
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

static void registry(redlock_client *c, redlock__hot *h, int enter, size_t only);

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
    if (r->element[1]->len <= 4 + ID_HEX)
        return;
    p = slot_of(wk, r->element[1]->str, r->element[1]->len - 4 - ID_HEX);
    if (*p && (*p)->sub[node] == SUB_SENT && r->element[0]->len == 9) {  /* "subscribe" */
        (*p)->sub[node] = SUB_ON;
        if ((*p)->nwait && (*p)->entered_us)
            registry(wk->c, *p, 1, node);   /* (it waits: enters there now) */
    }
}

static void send_sub(redlock__wake *wk, redlock__hot *h, size_t node, int on)
{
    redlock__master *m = &wk->c->fleet.masters[node];
    const char *argv[2] = { on ? "SUBSCRIBE" : "UNSUBSCRIBE", h->key };
    size_t len[2] = { on ? 9u : 11u, chan_len(h) };
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

/* The registry's count, as a master answered the entry: the waiters
 * known from the start (polls slow down with them). */
static void wait_reply(void *privdata, size_t node, const redlock__reply *r, const char *why)
{
    redlock__hot *h = privdata;
    (void)node;
    (void)why;

    h->pending--;
    if (r && r->type == REDLOCK__REPLY_INTEGER && (double)r->integer > h->rivals)
        h->rivals = (double)r->integer;
}

/* The registry: a waiting client's entry on every master where it
 * listens (the release script picks one at random there: an entry before
 * the subscription would be a pick nobody hears), renewed at half its life,
 * removed when the client no longer waits.  A master that missed it picks
 * among the others.  `only`: that master alone, or SIZE_MAX: all. */
static void registry(redlock_client *c, redlock__hot *h, int enter, size_t only)
{
    char ttl[24];
    const char *argv[6] = { "EVALSHA", c->fleet.sha[REDLOCK__SCRIPT_WAIT], "1", h->key,
                            h->key + h->len + 4, ttl };
    size_t len[6] = { 7, 40, 1, h->len + 3, ID_HEX, 0 };
    redlock__buf b = { 0 };
    redlock__req req;
    const char *why;
    int rc;

    len[5] = redlock__u64_str(ttl, WAIT_TTL_MS);
    if (only == SIZE_MAX) {
        h->entered_us = enter ? redlock__now(&c->loop) : 0;
        if (enter)
            redlock__timer_add(&c->loop, &h->renew, WAIT_TTL_MS * 1000 / 2);
        else
            evtimer_del(&h->renew);
    }
    if (enter) {
        rc = redlock__resp_command(&b, 6, argv, len);
    } else {
        argv[0] = "ZREM";
        argv[1] = h->key;
        argv[2] = h->key + h->len + 4;
        len[0] = 4;
        len[1] = h->len + 3;
        len[2] = ID_HEX;
        rc = redlock__resp_command(&b, 3, argv, len);
    }
    memset(&req, 0, sizeof req);
    req.quiet = 1;
    req.never_full = !enter;
    req.since_us = redlock__now(&c->loop);
    if (enter) {
        req.slot.fn = wait_reply;
        req.slot.privdata = h;
    }
    for (size_t i = only == SIZE_MAX ? 0 : only; rc == 0 && i < c->fleet.n; i++) {
        if (redlock__master_up(&c->fleet.masters[i]) && (!enter || h->sub[i] == SUB_ON) &&
            redlock__master_send(&c->fleet.masters[i], b.p, b.len, &req, &why) == 0 && enter)
            h->pending++;
        if (only != SIZE_MAX)
            break;
    }
    redlock__buf_free(&b);
}

/* A refused waiter's entries: sent when it is not in the registries;
 * renewed at half their life by a timer while it waits (not at every
 * refusal: with hundreds of waiters, a master ran the script some ten
 * times per acquisition; nor only at refusals: a waiter whose polls are
 * slowed to minutes would drop out of the picks). */
static void registry_renew(redlock_client *c, redlock__hot *h)
{
    if (!h->entered_us)
        registry(c, h, 1, SIZE_MAX);
}

static void renew_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__hot *h = arg;
    redlock_client *c = h->wk->c;
    (void)fd;
    (void)what;

    redlock__enter(&c->loop);
    if (h->nwait && h->entered_us && !c->loop.closing)
        registry(c, h, 1, SIZE_MAX);
    redlock__leave(&c->loop);
}

/* ---- records ------------------------------------------------------------ */

static void hot_free(redlock__hot *h)
{
    redlock__wake *wk = h->wk;
    redlock__hot **p = slot_of(wk, h->key, h->len);

    *p = h->next;
    wk->count--;
    evtimer_del(&h->linger);
    evtimer_del(&h->renew);
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
    if (!h->nwait && h->pending)
        redlock__timer_add(loop, &h->linger, WAKE_LINGER_MS * 1000);   /* replies due */
    else if (!h->nwait)
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
    if (!(h = calloc(1, sizeof *h + len + 4 + ID_HEX + 1 + n)))
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
    memcpy(h->key + len + 4, wk->id, ID_HEX);
    h->sub = (unsigned char *)h->key + chan_len(h) + 1;
    evtimer_assign(&h->linger, c->loop.base, linger_cb, h);
    evtimer_assign(&h->renew, c->loop.base, renew_cb, h);
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

    if (!h && !(h = hot_get(l->c, l->key, l->keylen, (l->fam->flags & REDLOCK__FAM_ANNOUNCES) != 0)))
        return;         /* out of memory: plain polling */
    fl->hot = h;
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
            if (h->announces && l->c->opt.wake)
                registry(l->c, h, 0, SIZE_MAX);
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
    h->rtt_us = redlock__rtt_update(h->rtt_us, rtt);
    if (h->rtt_us < RTT_MIN_US)
        h->rtt_us = RTT_MIN_US;
    if (split && h->mult < MULT_MAX)
        h->mult *= 2;
    else if (won && h->mult > 1)
        h->mult /= 2;
    if (split) {
        /* the key was free a moment ago and the attempts that met are
         * the ones after it: they retry within their own window, now
         * twice as wide, rather than leave it idle until a poll */
        l->fl->missed = 1;
        l->fl->rank = 2;
        l->fl->round_us = 0;
    }
    if (!won && t->count[REDLOCK__REFUSED] > 0 && h->announces && l->c->opt.wake)
        registry_renew(l->c, h);

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
        on += h->sub[i] == SUB_ON;
    if (on) {
        double r = h->rivals >= RIVALS_POLL_MIN ? h->rivals : 1;
        if (r > m)
            m = r < RIVALS_POLL_MAX ? r : RIVALS_POLL_MAX;
    }
    return (int64_t)((double)delay_us * m);
}

/* The picked waiters retry at a random moment within a round trip of
 * the announcement, so that the two of them seldom meet (a split vote
 * needs attempts within microseconds); split votes widen it. */
static int64_t window_of(const redlock__hot *h)
{
    return h->rtt_us * h->mult;
}

int64_t redlock__wake_window_us(const redlock_lock *l)
{
    const redlock__hot *h = l->fl ? l->fl->hot : NULL;
    return h ? window_of(h) : RTT_MIN_US;
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

    if (!c->wake || !c->wake->count || !(h = *slot_of(c->wake, l->key, l->keylen)) ||
        h->rivals < 1)
        return 0;
    now = redlock__now(&c->loop);
    if (!h->heard_us || now - h->heard_us > WAKE_LINGER_MS * 1000)
        return 0;
    fl->hot = h;
    /* others were in the registry at its release: it enters it too and
     * lets the picked ones go first; it tries LAST_TRY wake windows later
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
        registry_renew(c, h);
    fl->retry_at_us = now + delay;
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
    now = redlock__now(&l->c->loop);
    delay = redlock__wake_delay_us(l);
    if (now + delay < fl->retry_at_us) {
        fl->retry_at_us = now + delay;
        redlock__timer_add(&l->c->loop, &fl->retry_timer, delay);
        l->c->astats.wakeups++;
    }
}

/* One master picks a waiter (its pick retries at once): one of those that
 * granted the hold (they hold the key: they delete it and pick), at random
 * among the fast ones (an acquire round trip within twice the fastest's,
 * plus RTT_SLACK_US: a master slow but alive would hold up the hand-off),
 * and the release is written to it first (*lead).  When none is known,
 * every master picks, and each pick retries at random in the window. */
static int is_fast(unsigned char vote, int64_t rtt, int64_t best)
{
    /* (no round trip known at all: every granting master is) */
    return vote == REDLOCK__OK &&
           (best == INT64_MAX || (rtt >= 0 && rtt <= 2 * best + RTT_SLACK_US));
}

int redlock__wake_picks(redlock_lock *l, char *picks, size_t *lead)
{
    size_t n = l->c->fleet.n, fast = 0, r;
    const unsigned char *votes = l->nodes ? l->nodes->votes : NULL;
    const int64_t *rtt = l->nodes ? l->nodes->rtt : NULL;
    int64_t best = INT64_MAX;

    memset(picks, '2', n);
    *lead = 0;
    if (!l->c->wake || !l->c->wake->count || !*slot_of(l->c->wake, l->key, l->keylen))
        return 0;       /* no contention seen: every master may pick */
    for (size_t i = 0; votes && i < n; i++)
        if (votes[i] == REDLOCK__OK && rtt[i] >= 0 && rtt[i] < best)
            best = rtt[i];
    for (size_t i = 0; votes && i < n; i++)
        fast += is_fast(votes[i], rtt[i], best);
    if (!fast)
        return 1;
    memset(picks, '0', n);
    r = (size_t)(redlock__client_random(l->c) % fast);
    for (size_t i = 0; i < n; i++)
        if (is_fast(votes[i], rtt[i], best) && r-- == 0) {
            picks[i] = '1';
            *lead = i;
            break;
        }
    return 1;
}

size_t redlock__wake_payload(const redlock_lock *l, char *buf, size_t size)
{
    redlock_client *c = l->c;
    const redlock__hot *h;
    int len;

    if (!c->opt.wake || !c->wake || !c->wake->count ||
        !(h = *slot_of(c->wake, l->key, l->keylen)) || !h->announces)
        return 0;
    len = snprintf(buf, size, "%lld", (long long)window_of(h));
    return len > 0 && (size_t)len < size ? (size_t)len : 0;
}

/* "<window us>:<count>[:<rank>]", digits only (an undo's payload is a
 * key, a foreign publisher's anything; an older releaser sends no rank):
 * 0 and all set (rank 2 when absent), or -1. */
int redlock__wake_parse_payload(const char *p, size_t len, int64_t *window, double *rivals,
                                unsigned *rank)
{
    int64_t v[3] = { 0, 0, 2 };
    size_t i = 0, k = 0;

    for (;;) {
        size_t start = i;
        v[k] = 0;
        while (i < len && i - start < 12 && p[i] >= '0' && p[i] <= '9')
            v[k] = v[k] * 10 + (p[i++] - '0');
        if (i == start)
            return -1;
        k++;
        if (i == len)
            break;
        if (k == 3 || p[i++] != ':')
            return -1;
    }
    if (k < 2 || !v[0] || (k == 3 && (v[2] < 1 || v[2] > 2)))
        return -1;
    *window = v[0];
    *rivals = v[1] > 1 ? (double)v[1] : 1;
    *rank = k == 3 ? (unsigned)v[2] : 2;
    return 0;
}

/* A release of the lock was decided: each master said how many entries
 * its registry had (others': this client had left it). */
void redlock__wake_released(redlock_lock *l, const redlock__op *op)
{
    redlock_client *c = l->c;
    redlock__hot *h;
    int64_t most = 0;

    if (!c->wake || !(h = *slot_of(c->wake, l->key, l->keylen)))
        return;         /* a client that never waited needs no estimate */
    for (size_t i = 0; i < op->f->n; i++)
        if (op->votes[i] == REDLOCK__OK && op->value[i] > most)
            most = op->value[i];
    h->rivals = (double)most;       /* the registry's entries, others' */
    h->heard_us = redlock__now(&c->loop);     /* (for its next acquire) */
}

/* ---- what the masters' subscribers say ------------------------------------ */

/* This client was picked on a master: "<window>:<count>" (see
 * REDLOCK__SCRIPT_RELEASE). */
void redlock__wake_message(void *privdata, size_t node, const char *channel, size_t len,
                           const char *payload, size_t plen)
{
    redlock_client *c = privdata;
    redlock__hot *h;
    redlock__link *e, *next;
    (void)node;

    int64_t round = 0;
    double rivals;
    unsigned rank = 2;

    if (!c->wake || c->loop.closing || len <= 4 + ID_HEX ||
        memcmp(channel + len - ID_HEX, c->wake->id, ID_HEX) != 0 ||
        !(h = *slot_of(c->wake, channel, len - 4 - ID_HEX)))
        return;
    if (redlock__wake_parse_payload(payload, plen, &round, &rivals, &rank) == 0) {
        h->rivals = rivals;     /* the registry's count, as the release saw it */
    } else {
        round = 0;              /* nothing said: this client's own window */
        rank = 2;
    }
    c->astats.announcements++;
    h->heard_us = redlock__now(&c->loop);
    for (e = h->waiters.next; e != &h->waiters; e = next) {
        next = e->next;     /* (a woken lock stays on the list) */
        redlock__flight *fl = redlock__container(e, redlock__flight, wait);
        if (!fl->woken) {
            fl->round_us = round;
            fl->rank = rank;
            redlock__lock_woken(fl->lock);
        }
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
            else if (h->sub[node] == SUB_NONE && h->announces && c->opt.wake &&
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
            evtimer_del(&h->renew);
            free(h);
        }
    free(wk->bucket);
    free(wk->refused);
    free(wk);
    c->wake = NULL;
}
