/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* quorum.c -- pure vote counting: when is the outcome of a fan-out known?
 *
 * Every node starts PENDING and casts exactly one vote.  The outcome is
 * decided the moment it cannot change any more:
 *
 *   votes:  OK OK .  .  .      (n = 5, quorum = 3)     -> undecided
 *           OK OK OK .  .      and validity > 0        -> WON (don't wait)
 *           OK x  x  x  .      OK + pending < quorum   -> LOST (don't wait)
 *           any, validity < 1 ms                       -> LOST
 *
 * The rule of an operation's kind sets the quorum (how many OK votes win):
 * a majority (locks and their releases), a count (a semaphore), all, any;
 * WAIT_ALL is a majority decided only once every node answered or timed out
 * (the clock probe: every master's sample).  A release is decided at the
 * quorum: its late replies are still counted (fanout.c, lock/operation.c).
 *
 * Nothing here does I/O or reads a clock: the caller passes the validity
 * it computed (clock.c), which keeps these rules testable on their own.
 */
#include <string.h>
#include "redlock.h"
#include "quorum.h"
#include "floor/mutant.h"

int redlock__tally_init(redlock__tally *t, unsigned n, redlock__rule rule)
{
    unsigned need = n / 2 + !REDLOCK__MUTANT(HALF_QUORUM);

    memset(t->count, 0, sizeof t->count);
    t->n = n;
    t->count[REDLOCK__PENDING] = n;
    t->wait_all = rule.kind == REDLOCK__RULE_WAIT_ALL;
    switch (rule.kind) {
    case REDLOCK__RULE_MAJORITY:
    case REDLOCK__RULE_WAIT_ALL: break;
    case REDLOCK__RULE_COUNT: need = rule.count; break;
    case REDLOCK__RULE_ALL: need = n; break;
    case REDLOCK__RULE_ANY: need = 1; break;
    default: need = 0; break;
    }
    t->quorum = need;
    return need >= 1 && need <= n ? 0 : REDLOCK_EINVAL;
}

unsigned redlock__semaphore_quorum(unsigned n, unsigned p)
{
    if (n == 0 || p == 0)
        return 0;
    return n + 1 - (n + p) / (p + 1);      /* (n + p) / (p + 1) = ceil(n / (p + 1)) */
}

/* Why a quorum was missed.  Refusals (the key is someone else's) win when
 * they alone sink the quorum: then the lock is held elsewhere, whatever the
 * other nodes did.  Masters that said OK but were not counted (the guards)
 * win when no master refused and counting them would have made the quorum,
 * or still could with the masters yet to answer: live masters ignored sank
 * it, not the unreachable ones (the votes decide as soon as no quorum is
 * possible, others pending; once the node timeout voted, the pending are
 * silent too).  Otherwise the most common failure names the cause, ties
 * going to refused, then timed out, then unreachable, then server error. */
int redlock__failure_code(const redlock__tally *t)
{
    static const struct { enum redlock__vote v; int code; } order[] = {
        { REDLOCK__REFUSED, REDLOCK_ENOQUORUM },
        { REDLOCK__TIMEOUT, REDLOCK_ETIMEDOUT },
        { REDLOCK__DOWN, REDLOCK_ECONNECT },
        { REDLOCK__ERROR, REDLOCK_ESERVER },
        { REDLOCK__FULL, REDLOCK_EFULL },
        { REDLOCK__UNCOUNTED, REDLOCK_EUNCOUNTED },
    };
    unsigned best = 0, ok = t->count[REDLOCK__OK], pending = t->count[REDLOCK__PENDING];
    unsigned uncounted = t->count[REDLOCK__UNCOUNTED];
    int code = REDLOCK_ETIMEDOUT;   /* quorum reached but no validity left */

    if (redlock__refused_quorum(t))
        return REDLOCK_ENOQUORUM;
    if (t->count[REDLOCK__TIMEOUT])
        pending = 0;
    if (uncounted && !t->count[REDLOCK__REFUSED] && ok < t->quorum &&
        ok + uncounted + pending >= t->quorum)
        return REDLOCK_EUNCOUNTED;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++) {
        if (t->count[order[i].v] > best) {
            best = t->count[order[i].v];
            code = order[i].code;
        }
    }
    return code;
}

int redlock__refused_quorum(const redlock__tally *t)
{
    unsigned refused = t->count[REDLOCK__REFUSED];
    return refused > 0 && t->n - refused < t->quorum;
}

int redlock__max_of_ok(const unsigned char *votes, const int64_t *values, size_t n,
                       unsigned quorum, int64_t *out)
{
    unsigned ok = 0;
    int64_t max = INT64_MIN;

    for (size_t i = 0; i < n; i++) {
        if (votes[i] != REDLOCK__OK)
            continue;
        ok++;
        if (values[i] > max)
            max = values[i];
    }
    if (ok < quorum || ok == 0)
        return 0;
    *out = max;
    return 1;
}

int redlock__fence_token(const unsigned char *votes, const int64_t *values, size_t n,
                         unsigned quorum, int64_t wall_us, int64_t *token)
{
    unsigned at_max = 0, fresh = 0;

    if (!redlock__max_of_ok(votes, values, n, quorum, token))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (votes[i] != REDLOCK__OK)
            continue;
        at_max += values[i] == *token;
        fresh += values[i] < REDLOCK__FENCE_FLOOR && !REDLOCK__MUTANT(FENCE_NO_FLOOR);
    }
    if (fresh) {
        /* a counter never used, or lost (a restart without persistence):
         * start from the wall clock, and raise */
        if (wall_us > *token)
            *token = wall_us;
        return 0;
    }
    return at_max >= quorum || REDLOCK__MUTANT(NO_FENCE_RAISE);
}
