/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* wake.h -- what contended.c (a client's contended resources: back-off,
 * when a waiting lock retries) and announce.c (the registries of waiters
 * on the masters, the subscriptions, the release's pick and its message)
 * share.  Private to those two files of lock/.
 */
#ifndef REDLOCK_WAKE_H
#define REDLOCK_WAKE_H

#include "lock/lock.h"

#define REDLOCK__TOLD 8         /* holds remembered per record (told[]) */

/* a channel's subscription on one master: none, asked, confirmed */
enum { REDLOCK__SUB_NONE, REDLOCK__SUB_SENT, REDLOCK__SUB_ON };

typedef struct redlock__hot redlock__hot;

struct redlock__hot {
    struct redlock__hot *next;       /* hash chain */
    redlock__wake *wk;
    struct event linger;
    struct event renew;              /* the entries' renewal, while waiting */
    struct event nudge;              /* a notice again, that reached no one */
    size_t nudge_node;
    unsigned nudges;                 /* sent in this wait (NUDGES at most) */
    redlock__link waiters;           /* the waiting locks' fl->wait */
    unsigned nwait;
    unsigned mult;
    int announces;                   /* its family's release publishes */
    int64_t rtt_us;                  /* attempt round trip (redlock__rtt_update) */
    /* How many clients wait: the registry's count, from this client's
     * entries, its releases and the announcements it hears. */
    double rivals;
    int64_t heard_us;                /* the latest announcement, or 0 */
    unsigned char *sub;              /* per master: REDLOCK__SUB_* */
    size_t len;                      /* "{<key>}"'s length; key[] holds the
                                      * client's channel, "{<key>}:wq:<id>"
                                      * (redlock__hot_chan_len), whose first len + 3
                                      * bytes are the registry's name */
    unsigned pending;                /* registry replies still due */
    int64_t entered_us;              /* this client's entries sent, or 0 */
    /* Kept without waiters until then: a holder's record (its entries, or
     * a notice that someone waits) outlives the linger (contended.c). */
    int64_t keep_until_us;
    /* The values of this client's latest holds that a pick was made for
     * (their releases', or a notice's late pick), a ring: a later notice
     * for one of them (another master's, or one delayed behind a few
     * hand-offs) picks nobody else. */
    char told[REDLOCK__TOLD][REDLOCK__VALUE_HEX];
    const void *late_op;             /* a release whose picking master had
                                      * not answered at its decision */
    unsigned told_next;
    char key[];
};

struct redlock__wake {
    redlock_client *c;
    char id[REDLOCK__ID_HEX + 1];             /* this client's waiter id */
    redlock__hot **bucket;
    size_t nbuckets, count;
    unsigned char *refused;          /* per master: SUBSCRIBE refused */
    /* The holder's channel "{<key prefix>}:holder:<id>", where the
     * waiters' notices come (once the client has made a value), and its
     * state per master (REDLOCK__SUB_*). */
    char *hchan;
    size_t hchan_len;
    unsigned char *hsub;
    unsigned telling;                /* late picks in flight (announce.c) */
    int hfresh;                      /* hchan asked for, not yet settled */
};

/* Whether a pick was made for the hold with value v; else remember that
 * one is made now. */
static inline int redlock__hot_told(redlock__hot *h, const char *v)
{
    for (unsigned i = 0; i < REDLOCK__TOLD; i++)
        if (memcmp(h->told[i], v, REDLOCK__VALUE_HEX) == 0)
            return 1;
    memcpy(h->told[h->told_next++ % REDLOCK__TOLD], v, REDLOCK__VALUE_HEX);
    return 0;
}

static inline size_t redlock__hot_chan_len(const redlock__hot *h)
{
    return h->len + 4 + REDLOCK__ID_HEX;
}

/* The window a picked waiter is told, and its own after a split vote:
 * the attempts' round trip times the back-off. */
static inline int64_t redlock__hot_window(const redlock__hot *h)
{
    return h->rtt_us * h->mult;
}

/* ---- contended.c ------------------------------------------------------------- */

/* The client's record of the resource (key, len), or where it would go. */
redlock__hot **redlock__hot_slot(redlock__wake *wk, const char *key, size_t len);
/* The client's table (made with its id on first use), or NULL. */
redlock__wake *redlock__wake_table(redlock_client *c);
/* The record of a resource, made if there is none (`announces`: its
 * family's release tells the registries); `listen`: a waiter's, which
 * subscribes to its channel; else a holder's. */
redlock__hot *redlock__hot_get(redlock_client *c, const char *key, size_t len, int announces,
                              int listen);
/* Keep h without waiters until `until_us` (a holder's record). */
void redlock__hot_keep(redlock__hot *h, int64_t until_us);

/* ---- announce.c --------------------------------------------------------- */

/* The key of lock l's i-th resource (its family's wake hook), NULL past
 * the last. */
const char *redlock__wake_key_at(const redlock_lock *l, size_t i, size_t *len);

/* SUBSCRIBE (on) or UNSUBSCRIBE the client's channel for h on a master. */
void redlock__hot_sub(redlock__wake *wk, redlock__hot *h, size_t node, int on);
/* The client's entries in h's registries: entered (where it listens) or
 * removed; `only`: one master, or SIZE_MAX: all of them.  An entry tells
 * the holder on one master (`notify`: that one; SIZE_MAX: none) when it is
 * at the front of the queue there (the first waiter, or the longest
 * waiting: one notice per renewal, not one per waiter), or `always` (an
 * attempt refused after a release was announced: the key went to someone
 * who did not wait). */
void redlock__hot_registry(redlock_client *c, redlock__hot *h, int enter, size_t only,
                           size_t notify, int always);
/* Enter the registries unless in them already; in them, tell the holder
 * again on master `node` (a refusal there: the holder may not know). */
void redlock__hot_enter(redlock_client *c, redlock__hot *h, size_t node);
/* h->renew's callback: the entries renewed while the client waits. */
void redlock__hot_renew_cb(evutil_socket_t fd, short what, void *arg);
/* h->nudge's callback: the notice sent again on h->nudge_node. */
void redlock__hot_nudge_cb(evutil_socket_t fd, short what, void *arg);

#endif
