/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* wake.h -- what wake.c (a client's contended resources: back-off, when a
 * waiting lock retries) and announce.c (the registries of waiters on the
 * masters, the subscriptions, the release's pick and its message) share.
 * Private to those two files.
 */
#ifndef REDLOCK_WAKE_H
#define REDLOCK_WAKE_H

#include "lock_private.h"

#define ID_HEX 16               /* a client's waiter id: 64 random bits */

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
    int64_t rtt_us;                  /* attempt round trip (redlock__rtt_update) */
    /* How many clients wait: the registry's count, from this client's
     * entries, its releases and the announcements it hears. */
    double rivals;
    int64_t heard_us;                /* the latest announcement, or 0 */
    unsigned char *sub;              /* per master: SUB_* */
    size_t len;                      /* "{<key>}"'s length; key[] holds the
                                      * client's channel, "{<key>}:wq:<id>"
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

static inline size_t chan_len(const redlock__hot *h)
{
    return h->len + 4 + ID_HEX;
}

/* The window a picked waiter is told, and its own after a split vote:
 * the attempts' round trip times the back-off. */
static inline int64_t redlock__hot_window(const redlock__hot *h)
{
    return h->rtt_us * h->mult;
}

/* ---- wake.c ------------------------------------------------------------- */

/* The client's record of the resource (key, len), or where it would go. */
redlock__hot **redlock__hot_slot(redlock__wake *wk, const char *key, size_t len);

/* ---- announce.c --------------------------------------------------------- */

/* SUBSCRIBE (on) or UNSUBSCRIBE the client's channel for h on a master. */
void redlock__hot_sub(redlock__wake *wk, redlock__hot *h, size_t node, int on);
/* The client's entries in h's registries: entered (where it listens) or
 * removed; `only`: one master, or SIZE_MAX: all of them. */
void redlock__hot_registry(redlock_client *c, redlock__hot *h, int enter, size_t only);
/* Enter the registries unless in them already. */
void redlock__hot_enter(redlock_client *c, redlock__hot *h);
/* h->renew's callback: the entries renewed while the client waits. */
void redlock__hot_renew_cb(evutil_socket_t fd, short what, void *arg);

#endif
