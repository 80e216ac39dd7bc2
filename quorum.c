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
 * Nothing here does I/O or reads a clock: the caller passes the validity
 * it computed (clock.c), which keeps these rules testable on their own.
 */
#include "redlock_private.h"

void redlock__tally_init(redlock__tally *t, unsigned n)
{
    for (int i = 0; i < REDLOCK__NVOTES; i++)
        t->count[i] = 0;
    t->n = n;
    t->quorum = n / 2 + 1;
    t->count[REDLOCK__PENDING] = n;
}

/* Move one node's vote; a vote only ever leaves PENDING. */
void redlock__tally_set(redlock__tally *t, enum redlock__vote from, enum redlock__vote to)
{
    if (from == to || t->count[from] == 0)
        return;
    t->count[from]--;
    t->count[to]++;
}

enum redlock__decision redlock__decide(const redlock__tally *t, int64_t validity_us)
{
    unsigned ok = t->count[REDLOCK__OK];
    unsigned pending = t->count[REDLOCK__PENDING];

    if (validity_us < REDLOCK__MIN_VALIDITY_US)
        return REDLOCK__LOST;
    if (ok >= t->quorum)
        return REDLOCK__WON;
    if (ok + pending < t->quorum)
        return REDLOCK__LOST;
    return REDLOCK__UNDECIDED;
}

/* Why a quorum was missed.  Refusals (the key is someone else's) win when
 * they alone sink the quorum: then the lock is held elsewhere, whatever the
 * other nodes did.  Otherwise the most common failure names the cause, ties
 * going to refused, then timed out, then unreachable, then server error. */
int redlock__failure_code(const redlock__tally *t)
{
    static const struct { enum redlock__vote v; int code; } order[] = {
        { REDLOCK__REFUSED, REDLOCK_ENOQUORUM },
        { REDLOCK__TIMEOUT, REDLOCK_ETIMEDOUT },
        { REDLOCK__DOWN, REDLOCK_ECONNECT },
        { REDLOCK__ERROR, REDLOCK_ESERVER },
        { REDLOCK__FULL, REDLOCK_EFULL },
    };
    unsigned best = 0;
    int code = REDLOCK_ETIMEDOUT;   /* quorum reached but no validity left */

    if (redlock__refused_quorum(t))
        return REDLOCK_ENOQUORUM;
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
