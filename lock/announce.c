/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* announce.c -- the registries of waiters on the masters and the release's
 * announcement (docs/design.md, "Many clients, one lock"):
 *
 *   - a waiting client listens on its own channel "{<key>}:wq:<id>" on every
 *     master's second connection (SUBSCRIBE; an ACL that refuses it leaves
 *     that master to polling until its subscriber reconnects), and enters
 *     the registry "{<key>}:wq" where it listens (a queue: a sorted set of
 *     waiter ids scored by their place, the master's time), renewed by a
 *     timer at half the registry's life while it waits;
 *   - the release picks: on one master (a fast one that granted the hold,
 *     written to first) the script tells the entry at the front, with the
 *     releaser's wake window, the registry's count and the pick's rank,
 *     and puts it at the back; an entry nobody listens to is dropped;
 *   - the message, heard on the subscriber, moves the waiting locks'
 *     retry (contended.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lock/wake.h"

#define RTT_SLACK_US 100        /* a master as fast as the fastest, within it */

static size_t notify_node(const redlock_client *c, const redlock__hot *h);

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
    if (r->element[1]->len == wk->hchan_len && wk->hchan &&
        memcmp(r->element[1]->str, wk->hchan, wk->hchan_len) == 0) {
        if (wk->hsub[node] == REDLOCK__SUB_SENT && r->element[0]->len == 9)
            wk->hsub[node] = REDLOCK__SUB_ON;
        return;
    }
    if (r->element[1]->len <= 4 + REDLOCK__ID_HEX)
        return;
    p = redlock__hot_slot(wk, r->element[1]->str, r->element[1]->len - 4 - REDLOCK__ID_HEX);
    if (*p && (*p)->sub[node] == REDLOCK__SUB_SENT && r->element[0]->len == 9) {  /* "subscribe" */
        (*p)->sub[node] = REDLOCK__SUB_ON;
        if ((*p)->nwait && (*p)->entered_us)
            redlock__hot_registry(wk->c, *p, 1, node,       /* (it waits: enters there now) */
                                  notify_node(wk->c, *p) == node ? node : SIZE_MAX, 0);
    }
}

/* (UN)SUBSCRIBE chan on a master's second connection; its state in *sub. */
static void sub(redlock__wake *wk, const char *chan, size_t len, unsigned char *state,
                size_t node, int on)
{
    redlock__master *m = &wk->c->fleet.masters[node];
    const char *argv[2] = { on ? "SUBSCRIBE" : "UNSUBSCRIBE", chan };
    size_t alen[2] = { on ? 9u : 11u, len };
    redlock__slot sl = { sub_reply, wk, node, NULL, 0, 0 };
    redlock__buf b = { 0 };
    const char *why;

    if (on && wk->refused[node])
        return;
    if (redlock__resp_command(&b, 2, argv, alen) == 0 &&
        redlock__master_side_send(m, b.p, b.len, &sl, &why) == 0)
        *state = on ? REDLOCK__SUB_SENT : REDLOCK__SUB_NONE;
    else if (!on)
        *state = REDLOCK__SUB_NONE;
    redlock__buf_free(&b);
}

void redlock__hot_sub(redlock__wake *wk, redlock__hot *h, size_t node, int on)
{
    sub(wk, h->key, redlock__hot_chan_len(h), &h->sub[node], node, on);
}

/* ---- the holder's side: the waiters' notices ------------------------------
 *
 * A release tells the registries only when its client knows that someone
 * waits (a plain lock pays nothing for them: docs/performance.md).  A
 * client that waited knows; a holder that never waited learns it from
 * the waiters: a waiter's entry (its renewals, and its attempts refused
 * after it was told of a release) publishes the holder's value and the
 * registry's name on the holder's channel, found by the client id at the
 * head of the value (REDLOCK__SCRIPT_WAIT).  The holder then keeps a
 * record of the resource (its release tells the registries) and, when it
 * knew of no waiters until then, asks the master that told it for the
 * late pick (TELL): its plain release may have crossed the notice, and
 * then nobody would be told. */

#define HOLDER_CHAN "}:holder:"

/* The holders' channels' common part, "{<key prefix>}:holder:" (in the
 * library's own names: docs/kinds.md), written to out; its length. */
static size_t holder_prefix(const redlock_client *c, char *out)
{
    out[0] = '{';
    memcpy(out + 1, c->key_prefix, c->prefixlen);
    memcpy(out + 1 + c->prefixlen, HOLDER_CHAN, sizeof HOLDER_CHAN - 1);
    return c->prefixlen + sizeof HOLDER_CHAN;
}

const char *redlock__wake_self(redlock_client *c)
{
    redlock__wake *wk = redlock__wake_table(c);
    size_t plen = c->prefixlen, n = c->fleet.n;

    if (!wk)
        return NULL;
    if (wk->hchan)
        return wk->id;
    wk->hchan_len = plen + sizeof HOLDER_CHAN + REDLOCK__VALUE_ID_HEX;
    if (!(wk->hchan = malloc(wk->hchan_len + n)))
        return NULL;
    memcpy(wk->hchan + holder_prefix(c, wk->hchan), wk->id, REDLOCK__VALUE_ID_HEX);
    wk->hsub = (unsigned char *)wk->hchan + wk->hchan_len;
    memset(wk->hsub, REDLOCK__SUB_NONE, n);
    for (size_t i = 0; i < n; i++)
        sub(wk, wk->hchan, wk->hchan_len, &wk->hsub[i], i, 1);
    wk->hfresh = 1;
    return wk->id;
}

static void tell(redlock_client *c, redlock__hot *h, size_t node, int again);

/* The record of the resource whose key is (key, klen), or NULL. */
static redlock__hot *record_of(redlock_client *c, const char *key, size_t klen)
{
    char small[256], *braced = klen + 2 <= sizeof small ? small : malloc(klen + 2);
    redlock__hot *h = NULL;

    if (!braced)
        return NULL;
    braced[0] = '{';
    memcpy(braced + 1, key, klen);
    braced[klen + 1] = '}';
    if (c->wake)
        h = *redlock__hot_slot(c->wake, braced, klen + 2);
    if (braced != small)
        free(braced);
    return h;
}

const char *redlock__wake_key_at(const redlock_lock *l, size_t i, size_t *len)
{
    const redlock__wake_hook *w = l->fam->wake;

    if (w && w->key)
        return w->key(l, i, len);
    *len = l->keylen;
    return i == 0 ? l->key : NULL;
}

/* The client's record of the lock's i-th resource, or NULL; *end: there
 * is no i-th. */
static redlock__hot *record_at(const redlock_lock *l, size_t i, int *end)
{
    size_t len;
    const char *k = redlock__wake_key_at(l, i, &len);

    *end = !k;
    if (!k || !l->c->wake || !l->c->wake->count)
        return NULL;
    if (k == l->key)
        return *redlock__hot_slot(l->c->wake, redlock__lock_braced(l), l->keylen + 2);
    return record_of(l->c, k, len);
}

/* The op is a release that picked (the family's, or the mutex's: a
 * multi-resource lock of one resource sends the mutex's). */
static int picked(const redlock_lock *l, const redlock__op *op)
{
    return op->kind == &redlock__mutex_release_wq ||
           (l->fam->wake && op->kind == l->fam->wake->release_wq);
}

/* A late pick that did not reach its master is asked of another (once). */
static void tell_done(redlock__op *op, void *privdata)
{
    redlock_client *c = privdata;
    size_t node = op->lead_node, klen;
    const char *key = redlock__op_item(op, 0, &klen);
    redlock__hot *h;

    if (c->wake)
        c->wake->telling--;
    if (op->votes[node] == REDLOCK__OK && op->value[node] >= 2)
        c->astats.late_picks++;
    if (op->votes[node] == REDLOCK__OK || op->votes[node] == REDLOCK__REFUSED ||
        op->cancelled || c->loop.closing || op->kind != &redlock__mutex_tell ||
        !(h = record_of(c, key, klen)))
        return;
    tell(c, h, (node + 1) % c->fleet.n, 0);
}

/* The late pick on master `node` (the release script's pick, if the key is
 * gone there), or the next one that is up: the wake window of h, the pick
 * retries at once.  `again`: another master is asked if it fails.  (h's
 * name is "{K}", K the key.) */
static void tell(redlock_client *c, redlock__hot *h, size_t node, int again)
{
    size_t n = c->fleet.n;
    char win[24], *picks = malloc(n);
    const char *item[5] = { h->key + 1, "", win, picks, "" };
    size_t len[5] = { h->len - 2, 0, 0, n, 0 };
    redlock__op_args a = { 1, 4, item, len, 0, 0, 0, 0 };
    redlock__op *op;

    if (!picks)
        return;
    for (size_t k = 0; k < n && !redlock__master_up(&c->fleet.masters[node]); k++)
        node = (node + 1) % n;
    memset(picks, '0', n);
    picks[node] = '1';
    len[2] = redlock__u64_str(win, (uint64_t)redlock__hot_window(h));
    op = redlock__op_new(&c->fleet, again ? &redlock__mutex_tell : &redlock__mutex_tell_last, &a);
    if (op) {
        op->lead_node = node;
        c->wake->telling++;
        redlock__op_start(op, tell_done, c);
    }
    free(picks);
}

int redlock__wake_settling(const redlock_client *c, int all)
{
    const redlock__wake *wk = c->wake;

    size_t on = 0, sent = 0, answering = 0;

    if (!wk || wk->telling)
        return wk != NULL;
    if (!wk->hfresh)
        return 0;
    for (size_t i = 0; i < c->fleet.n; i++) {
        const redlock__conn *cn = &c->fleet.masters[i].conn;
        on += wk->hsub[i] == REDLOCK__SUB_ON;
        sent += wk->hsub[i] == REDLOCK__SUB_SENT;
        answering += wk->hsub[i] == REDLOCK__SUB_SENT && cn->state == REDLOCK__CONN_UP &&
                     (all || cn->count == 0);
    }
    /* A waiter tells the holder on one master, the first where it listens
     * itself: the holder listens on every master that answers (its lock
     * connection owes nothing: a slow master's turn comes when its replies
     * are in), and on a quorum at least.  With `all`, on every master that
     * is up, whatever it owes: for a few round trips after the acquire
     * (its last replies, not yet in when the quorum decided, are on their
     * way), so a master a little behind the others is not skipped.  A hung
     * master is not waited for beyond: an acquire stays decided at its
     * quorum; a waiter that tells there finds the lock at its poll. */
    return sent > 0 && (on < c->fleet.n / 2 + 1 || answering > 0);
}

/* How long redlock__wake_settling(c, 1) applies: four round trips of the
 * quorum-th fastest master (its last), and 2 ms: a master whose reply was
 * a little behind the quorum's is in by then; a hung one costs no more,
 * and a quarter node timeout at most (a client's first hold only). */
int64_t redlock__wake_grace_us(const redlock_client *c)
{
    size_t n = c->fleet.n, q = n / 2 + 1;
    int64_t rtt = 0;

    for (size_t i = 0; i < n; i++) {
        int64_t r = c->fleet.masters[i].stats.last_rtt_us;
        size_t at_most = 0;
        if (r < 0)
            continue;
        for (size_t j = 0; j < n; j++)
            at_most += c->fleet.masters[j].stats.last_rtt_us >= 0 &&
                       c->fleet.masters[j].stats.last_rtt_us <= r;
        if (at_most >= q && (rtt == 0 || r < rtt))
            rtt = r;
    }
    rtt = 4 * rtt + 2000;
    /* (a hung master costs a first hold a quarter node timeout at most) */
    return rtt < c->fleet.node_timeout_us / 4 ? rtt : c->fleet.node_timeout_us / 4;
}

void redlock__wake_settled(redlock_client *c)
{
    if (c->wake)
        c->wake->hfresh = 0;
}

/* "<value>{<key>}:wq" (the registry's name): a waiter on the key heard on
 * `node` that this client's hold with that value blocks it. */
static void notice(redlock_client *c, size_t node, const char *p, size_t len)
{
    const char *name = p + REDLOCK__VALUE_HEX;
    size_t nlen = len - REDLOCK__VALUE_HEX - 3;
    redlock__hot *h;
    int known;

    if (len <= REDLOCK__VALUE_HEX + 5 || memcmp(p, c->wake->id, REDLOCK__VALUE_ID_HEX) != 0 ||
        memcmp(p + len - 3, ":wq", 3) != 0 || name[0] != '{')
        return;
    known = *redlock__hot_slot(c->wake, name, nlen) != NULL;
    if (!(h = redlock__hot_get(c, name, nlen, 1, 0)))
        return;
    c->astats.notices++;
    redlock__hot_keep(h, redlock__now(&c->loop) + REDLOCK__REGISTRY_LIFE_MS * 1000);
    /* The late pick, once per hold, and only where the client knew of no
     * waiters until now: with a record, every release of the resource
     * picked (an attempt's value whose acquire was lost and undone would
     * pick a second waiter in a hand-off's gap) */
    if (!redlock__hot_told(h, p) && !known)
        tell(c, h, node, 1);
}

/* The registry's count, as a master answered the entry: the waiters
 * known from the start (polls slow down with them). */
#define NUDGE_US 20000         /* a notice nobody heard: again after this, */
#define NUDGES 4                /* times 4 each time, this many times at most */

/* (negative: the entry's notice reached no one, e.g. the holder's client,
 * at its first lock, is not listening there yet: sent again a little
 * later, a few times at most) */
static void wait_reply(void *privdata, size_t node, const redlock__reply *r, const char *why)
{
    redlock__hot *h = privdata;
    long long n;
    (void)why;

    h->pending--;
    if (r && r->type != REDLOCK__REPLY_INTEGER)
        return;
    n = !r ? 0 : r->integer < 0 ? -r->integer : r->integer;
    if ((double)n > h->rivals)
        h->rivals = (double)n;
    /* (no reply: the master went, maybe with the notice) */
    if ((!r || r->integer < 0) && h->nwait && h->nudges < NUDGES &&
        !evtimer_pending(&h->nudge, NULL)) {
        h->nudge_node = node;
        redlock__timer_add(&h->wk->c->loop, &h->nudge, (int64_t)NUDGE_US << (2 * h->nudges));
        h->nudges++;
    }
}

void redlock__hot_nudge_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__hot *h = arg;
    redlock_client *c = h->wk->c;
    (void)fd;
    (void)what;

    redlock__enter(&c->loop);
    /* (that master, or another where the client listens: it may be gone) */
    if (h->sub[h->nudge_node] != REDLOCK__SUB_ON || !redlock__master_up(&c->fleet.masters[h->nudge_node]))
        h->nudge_node = notify_node(c, h);
    if (h->nwait && h->entered_us && !c->loop.closing && h->nudge_node < c->fleet.n)
        redlock__hot_registry(c, h, 1, h->nudge_node, h->nudge_node, 1);
    redlock__leave(&c->loop);
}

/* The registry: a waiting client's entry on every master where it
 * listens (the release script tells the front of the queue there: an
 * entry before the subscription would be a pick nobody hears), renewed
 * at half the registry's life, removed when the client no longer waits.  A master that missed it picks
 * among the others.  `only`: that master alone, or SIZE_MAX: all. */
void redlock__hot_registry(redlock_client *c, redlock__hot *h, int enter, size_t only,
                           size_t notify, int always)
{
    char ttl[24], *chan = malloc(c->prefixlen + sizeof HOLDER_CHAN);
    const char *argv[9] = { "EVALSHA", c->fleet.sha[REDLOCK__SCRIPT_WAIT], "2", h->key,
                            h->key + 1, h->key + h->len + 4, ttl, "", always ? "a" : "f" };
    size_t len[9] = { 7, 40, 1, h->len + 3, h->len - 2, REDLOCK__ID_HEX, 0, 0, 1 };
    redlock__buf b = { 0 }, bn = { 0 };
    redlock__req req;
    const char *why;
    int rc;

    if (!chan)
        return;
    len[6] = redlock__u64_str(ttl, REDLOCK__REGISTRY_LIFE_MS);
    if (only == SIZE_MAX) {
        if (enter && !h->entered_us)
            h->nudges = 0;      /* (a new wait) */
        h->entered_us = enter ? redlock__now(&c->loop) : 0;
        if (enter)
            redlock__timer_add(&c->loop, &h->renew, REDLOCK__REGISTRY_LIFE_MS * 1000 / 2);
        else
            evtimer_del(&h->renew);
    }
    if (enter) {
        rc = redlock__resp_command(&b, 9, argv, len);
        if (rc == 0 && notify < c->fleet.n) {
            argv[7] = chan;
            len[7] = holder_prefix(c, chan);
            rc = redlock__resp_command(&bn, 9, argv, len);
        }
    } else {
        argv[0] = "ZREM";
        argv[1] = h->key;
        argv[2] = h->key + h->len + 4;
        len[0] = 4;
        len[1] = h->len + 3;
        len[2] = REDLOCK__ID_HEX;
        rc = redlock__resp_command(&b, 3, argv, len);
    }
    memset(&req, 0, sizeof req);
    req.quiet = 1;
    /* (an entry refused by max_pending, behind the attempt's own request
     * still out to that master, would be missing there until renewed) */
    req.never_full = 1;
    req.since_us = redlock__now(&c->loop);
    if (enter) {
        req.slot.fn = wait_reply;
        req.slot.privdata = h;
    }
    for (size_t i = only == SIZE_MAX ? 0 : only; rc == 0 && i < c->fleet.n; i++) {
        const redlock__buf *cmd = i == notify ? &bn : &b;
        if (redlock__master_up(&c->fleet.masters[i]) && (!enter || h->sub[i] == REDLOCK__SUB_ON) &&
            redlock__master_send(&c->fleet.masters[i], cmd->p, cmd->len, &req, &why) == 0 &&
            enter)
            h->pending++;
        if (only != SIZE_MAX)
            break;
    }
    redlock__buf_free(&b);
    redlock__buf_free(&bn);
    free(chan);
}

/* The master an entry tells the holder on: the first where the client
 * listens (the holder listens on every master), else none. */
static size_t notify_node(const redlock_client *c, const redlock__hot *h)
{
    for (size_t i = 0; i < c->fleet.n; i++)
        if (h->sub[i] == REDLOCK__SUB_ON)
            return i;
    return SIZE_MAX;
}

/* A refused waiter's entries: sent when it is not in the registries;
 * renewed at half their life by a timer while it waits (not at every
 * refusal: with hundreds of waiters, a master ran the script some ten
 * times per acquisition; nor only at refusals: a waiter whose polls are
 * slowed to minutes would drop out of the picks). */
void redlock__hot_enter(redlock_client *c, redlock__hot *h, size_t node)
{
    if (!h->entered_us)
        redlock__hot_registry(c, h, 1, SIZE_MAX, notify_node(c, h), 0);
    else if (node < c->fleet.n && h->sub[node] == REDLOCK__SUB_ON)
        redlock__hot_registry(c, h, 1, node, node, 1);
}

void redlock__hot_renew_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__hot *h = arg;
    redlock_client *c = h->wk->c;
    (void)fd;
    (void)what;

    redlock__enter(&c->loop);
    if (h->nwait && h->entered_us && !c->loop.closing)
        redlock__hot_registry(c, h, 1, SIZE_MAX, notify_node(c, h), 0);
    redlock__leave(&c->loop);
}

/* One master picks a waiter (its pick retries at once): one of those that
 * granted the hold (they hold the key: they delete it and pick), at random
 * among the fast ones (an acquire round trip within twice the fastest's,
 * plus RTT_SLACK_US: a master slow but alive would hold up the hand-off),
 * and the release is written to it first (*lead).  When none is known,
 * every master picks, and each pick retries at random in the window. */
static int is_fast(const redlock_lock *l, const unsigned char *votes, const int64_t *rtt,
                   size_t i, int granted, int64_t best)
{
    if ((granted && votes[i] != REDLOCK__OK) || !redlock__master_up(&l->c->fleet.masters[i]))
        return 0;
    /* (no round trip known at all: every granting master is) */
    if (best == INT64_MAX)
        return granted;
    return rtt[i] >= 0 && rtt[i] <= 2 * best + RTT_SLACK_US;
}

size_t redlock__wake_fast_node(const redlock_lock *l, int granted)
{
    size_t n = l->c->fleet.n, fast = 0, r;
    const unsigned char *votes = l->nodes ? l->nodes->votes : NULL;
    const int64_t *rtt = l->nodes ? l->nodes->rtt : NULL;
    int64_t best = INT64_MAX;

    if (!votes)
        return SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if ((!granted || votes[i] == REDLOCK__OK) && rtt[i] >= 0 && rtt[i] < best)
            best = rtt[i];
    for (size_t i = 0; i < n; i++)
        fast += is_fast(l, votes, rtt, i, granted, best);
    if (!fast)
        return SIZE_MAX;
    r = (size_t)(redlock__client_random(l->c) % fast);
    for (size_t i = 0; i < n; i++)
        if (is_fast(l, votes, rtt, i, granted, best) && r-- == 0)
            return i;
    return SIZE_MAX;
}

/* picks and *lead for a client that saw contention (1), or all '2' (0) */
static int pick(const redlock_lock *l, char *picks, size_t *lead)
{
    size_t i = redlock__wake_fast_node(l, 1);

    if (i != SIZE_MAX) {
        memset(picks, '0', l->c->fleet.n);
        picks[i] = '1';
        *lead = i;
    }
    return 1;
}

int redlock__wake_release(redlock_lock *l, char *win, size_t winsize, size_t *winlen,
                          char *picks, size_t *lead, const char **self)
{
    redlock_client *c = l->c;
    redlock__hot *h;
    int end, any = 0;

    memset(picks, '2', c->fleet.n);
    *lead = 0;
    *winlen = 0;
    *self = NULL;
    for (size_t i = 0; !(h = record_at(l, i, &end), end); i++) {
        if (!h)
            continue;
        if (l->valuelen == REDLOCK__VALUE_HEX)
            (void)redlock__hot_told(h, l->value);     /* (its notices pick nobody) */
        if (h->entered_us && !h->nwait) {
            /* a winner keeps its entries while it holds: its release takes
             * them away, unless another lock of this client waits on the
             * resource (they are its entries too) */
            h->entered_us = 0;
            evtimer_del(&h->renew);
            *self = c->wake->id;
        }
        if (!any && c->opt.wake && h->announces) {
            int len = snprintf(win, winsize, "%lld", (long long)redlock__hot_window(h));
            *winlen = len > 0 && (size_t)len < winsize ? (size_t)len : 0;
        }
        any = 1;
    }
    if (!any)
        return 0;       /* no contention seen: every master may pick */
    return pick(l, picks, lead);
}

int redlock__wake_contended(const redlock_lock *l)
{
    redlock__wake *wk = l->c->wake;
    int end;

    if (!wk || !wk->count)
        return 0;
    for (size_t i = 0;; i++)
        if (record_at(l, i, &end))
            return 1;
        else if (end)
            return 0;
}

/* "<window us>:<count>[:<rank>[:<role>]]", digits only but the role, one
 * lower-case letter (an undo's payload is a key, a foreign publisher's
 * anything; an older releaser sends no rank): 0 and all set (rank 2 when
 * absent, role 0 when absent), or -1. */
int redlock__wake_parse_payload(const char *p, size_t len, int64_t *window, double *rivals,
                                unsigned *rank, char *role)
{
    int64_t v[3] = { 0, 0, 2 };
    size_t i = 0, k = 0;

    *role = 0;
    if (len >= 2 && p[len - 2] == ':' && p[len - 1] >= 'a' && p[len - 1] <= 'z') {
        *role = p[len - 1];
        len -= 2;
    }
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
    if (k < 2 || !v[0] || (k == 3 && (v[2] < 1 || v[2] > 2)) || (*role && k < 3))
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
    int end;
    size_t lead = op->lead_node;

    for (size_t i = 0; i < op->f->n; i++)
        if (op->votes[i] == REDLOCK__OK && op->value[i] > most)
            most = op->value[i];
    /* (a client that never waited needs no estimate) */
    for (size_t i = 0; !(h = record_at(l, i, &end), end); i++) {
        if (!h)
            continue;
        h->rivals = (double)most;       /* the registry's entries, others' */
        /* (kept for the hold: it ended; while others wait, for another
         * lock of this client that holds the resource too: a semaphore's
         * other permits, an owner's other handle) */
        h->keep_until_us = most > 0 ? redlock__now(&c->loop) + REDLOCK__REGISTRY_LIFE_MS * 1000 : 0;
        /* others waited at its release: its next acquire, soon, waits
         * its turn (redlock__wake_defer), however long ago it last heard
         * an announcement itself */
        if (most > 0)
            h->heard_us = redlock__now(&c->loop);
        /* the master that was to pick did not get the release (it went
         * down meanwhile): another one picks */
        h->late_op = op->votes[lead] == REDLOCK__PENDING ? op : NULL;
        if (picked(l, op) && op->votes[lead] != REDLOCK__OK &&
            op->votes[lead] != REDLOCK__PENDING && op->votes[lead] != REDLOCK__REFUSED)
            tell(c, h, (lead + 1) % c->fleet.n, 0);
    }
}

/* ... or when it answers after the decision (down, timed out). */
void redlock__wake_release_late(redlock_lock *l, const redlock__op *op)
{
    redlock_client *c = l->c;
    size_t lead = op->lead_node;
    redlock__hot *h;
    int end;

    if (!picked(l, op) || op->votes[lead] == REDLOCK__PENDING || op->votes[lead] == REDLOCK__OK ||
        op->votes[lead] == REDLOCK__REFUSED || c->loop.closing)
        return;
    for (size_t i = 0; !(h = record_at(l, i, &end), end); i++) {
        if (!h || h->late_op != op)
            continue;
        h->late_op = NULL;
        tell(c, h, (lead + 1) % c->fleet.n, 0);
        h->heard_us = redlock__now(&c->loop);     /* (for its next acquire) */
    }
}

/* This client was picked on a master: "<window>:<count>" (see
 * REDLOCK__SCRIPT_RELEASE). */
void redlock__wake_message(void *privdata, size_t node, const char *channel, size_t len,
                           const char *payload, size_t plen)
{
    redlock_client *c = privdata;
    redlock__hot *h;
    redlock__link *e, *next;
    int64_t round = 0;
    double rivals;
    unsigned rank = 2;
    char role = 0;

    if (c->wake && !c->loop.closing && c->wake->hchan && len == c->wake->hchan_len &&
        memcmp(channel, c->wake->hchan, len) == 0) {
        notice(c, node, payload, plen);
        return;
    }
    if (!c->wake || c->loop.closing || len <= 4 + REDLOCK__ID_HEX ||
        memcmp(channel + len - REDLOCK__ID_HEX, c->wake->id, REDLOCK__ID_HEX) != 0 ||
        !(h = *redlock__hot_slot(c->wake, channel, len - 4 - REDLOCK__ID_HEX)))
        return;
    if (redlock__wake_parse_payload(payload, plen, &round, &rivals, &rank, &role) == 0) {
        h->rivals = rivals;     /* the registry's count, as the release saw it */
    } else {
        round = 0;              /* nothing said: this client's own window */
        rank = 2;
        role = 0;
    }
    c->astats.announcements++;
    h->heard_us = redlock__now(&c->loop);
    for (e = h->waiters.next; e != &h->waiters; e = next) {
        redlock__flight *fl = redlock__container(e, redlock__flight, wait);
        const redlock__wake_hook *w = fl->lock->fam->wake;
        next = e->next;     /* (a woken lock stays on the list) */
        if (!fl->woken && (!role || (w && w->role == role))) {
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
    if (wk->hchan && !up)
        wk->hsub[node] = REDLOCK__SUB_NONE;
    else if (wk->hchan && wk->hsub[node] == REDLOCK__SUB_NONE)
        sub(wk, wk->hchan, wk->hchan_len, &wk->hsub[node], node, 1);
    for (size_t i = 0; i < wk->nbuckets; i++)
        for (redlock__hot *h = wk->bucket[i]; h; h = h->next) {
            if (!up)
                h->sub[node] = REDLOCK__SUB_NONE;
            else if (h->sub[node] == REDLOCK__SUB_NONE && h->announces && c->opt.wake &&
                     (h->nwait || evtimer_pending(&h->linger, NULL)))
                redlock__hot_sub(wk, h, node, 1);
        }
}
