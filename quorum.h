/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* quorum.h -- quorum.c: votes, decision rules, fencing tokens; pure logic
 * under the floor (no I/O, no loop).  Never installed. */
#ifndef REDLOCK_QUORUM_H
#define REDLOCK_QUORUM_H

#include <stddef.h>
#include <stdint.h>

/* One node's vote in one operation (the same numbers as REDLOCK_VOTE_*). */
enum redlock__vote {
    REDLOCK__PENDING = 0,
    REDLOCK__OK,        /* did what was asked (SET, deleted, extended)     */
    REDLOCK__REFUSED,   /* held by someone else / not our value            */
    REDLOCK__TIMEOUT,   /* no reply within the node timeout                */
    REDLOCK__DOWN,      /* not connected, or the connection was lost       */
    REDLOCK__ERROR,     /* the server answered an error                    */
    REDLOCK__FULL,      /* not sent: the node's queue held max_pending     */
    REDLOCK__UNCOUNTED, /* OK, but a guard keeps the node out (guard.c)   */
    REDLOCK__NVOTES
};

enum redlock__decision {
    REDLOCK__UNDECIDED = 0,
    REDLOCK__WON,
    REDLOCK__LOST
};

/* How an operation is decided.  `need` OK votes win it: */
enum redlock__rule_kind {
    REDLOCK__RULE_MAJORITY,  /* n/2 + 1, decided the moment it is known */
    REDLOCK__RULE_COUNT,     /* `count` of n (a semaphore's quorum)      */
    REDLOCK__RULE_ALL,       /* every node                               */
    REDLOCK__RULE_ANY,       /* one node                                 */
    REDLOCK__RULE_WAIT_ALL   /* a majority, but decided only when every
                              * node answered (or timed out)             */
};

typedef struct redlock__rule {
    enum redlock__rule_kind kind;
    unsigned count;          /* REDLOCK__RULE_COUNT only */
} redlock__rule;

typedef struct redlock__tally {
    unsigned n;                        /* nodes */
    unsigned quorum;                   /* OK votes that win */
    unsigned wait_all;                 /* decide only when none is pending */
    unsigned count[REDLOCK__NVOTES];   /* votes by kind, PENDING included */
} redlock__tally;

/* A win needs at least this much validity left (so that a success never
 * reads 0 ms of validity). */
#define REDLOCK__MIN_VALIDITY_US 1000
/* ... plus this when the result is handed over, so that the callback's own
 * reading, a moment later, still finds >= 1 ms. */
#define REDLOCK__HANDOVER_US 200

/* A semaphore's quorum: the smallest q with q * (P + 1) > P * n, i.e.
 * n + 1 - ceil(n / (P + 1)).  Each master grants at most P permits, so
 * P + 1 holders cannot each hold q masters: they would need q * (P + 1)
 * grants of at most P * n (docs/kinds.md, "Semaphore").  P = 1: a
 * majority.  0 for n == 0 or p == 0. */
unsigned redlock__semaphore_quorum(unsigned n, unsigned p);
/* 0, or REDLOCK_EINVAL when the rule cannot be met by n nodes. */
int redlock__tally_init(redlock__tally *t, unsigned n, redlock__rule rule);
/* Move one vote from `from` to `to` (inline: it runs for every vote). */
static inline void redlock__tally_set(redlock__tally *t, enum redlock__vote from,
                                      enum redlock__vote to)
{
    if (from == to || t->count[from] == 0)
        return;
    t->count[from]--;
    t->count[to]++;
}
/* The outcome so far (inline: asked after every vote). */
static inline enum redlock__decision redlock__decide(const redlock__tally *t,
                                                     int64_t validity_us)
{
    unsigned ok = t->count[REDLOCK__OK];
    unsigned pending = t->count[REDLOCK__PENDING];

    if (validity_us < REDLOCK__MIN_VALIDITY_US)
        return REDLOCK__LOST;
    if (t->wait_all && pending > 0)
        return REDLOCK__UNDECIDED;
    if (ok >= t->quorum)
        return REDLOCK__WON;
    if (ok + pending < t->quorum)
        return REDLOCK__LOST;
    return REDLOCK__UNDECIDED;
}
int redlock__failure_code(const redlock__tally *t);
/* 1 when refusals alone leave fewer than a quorum of nodes that may still
 * hold the value: the lock is certainly lost. */
int redlock__refused_quorum(const redlock__tally *t);
/* "The maximum of a quorum's values": 1 and *out = the largest value among
 * the nodes that voted OK, when at least `quorum` did; else 0. */
int redlock__max_of_ok(const unsigned char *votes, const int64_t *values, size_t n,
                       unsigned quorum, int64_t *out);
/* Fencing.  The OK votes of a fenced acquire carry each master's counter,
 * just incremented; the token is their maximum.  A later holder's quorum
 * meets this one's in at least one master, so it reads at least the token
 * there, if a quorum's counters hold it.  1: they do already (a quorum
 * returned the maximum); 0: fewer did, the counters must be raised to the
 * token on a quorum before the token may be handed out; -1: no quorum
 * voted OK.  A counter below REDLOCK__FENCE_FLOOR was never used or was
 * lost (a master restarted without persistence, where a majority may have
 * lost theirs): then the token is at least wall_us (the wall clock in
 * microseconds, far above the floor), and the counters are raised. */
#define REDLOCK__FENCE_FLOOR ((int64_t)1 << 40)
int redlock__fence_token(const unsigned char *votes, const int64_t *values, size_t n,
                         unsigned quorum, int64_t wall_us, int64_t *token);

#endif
