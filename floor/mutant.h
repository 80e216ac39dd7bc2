/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* mutant.h -- defects that can be put back into the library, one at a
 * time, to show that a test (or the simulator) finds each (docs/mutants.md).
 *
 * A site is `if (REDLOCK__MUTANT(NAME)) ...` or `cond && !REDLOCK__MUTANT(NAME)`.
 * Built with -DREDLOCK_MUTANTS (`make mutants-suite`: tmp/mutants/), the
 * mutant named by redlock__mutant is on (0: none; test/support/check.c sets
 * it from $REDLOCK_MUTANT).  Any other build: REDLOCK__MUTANT(NAME) is the
 * constant 0, every site compiles away, and floor/mutant.c defines nothing;
 * the names are still checked by the compiler.  Included by floor/floor.h,
 * and by quorum.c, under the floor. */
#ifndef REDLOCK_FLOOR_MUTANT_H
#define REDLOCK_FLOOR_MUTANT_H

/* X(NAME, what it puts back) */
#define REDLOCK__MUTANTS(X) \
    X(CLOCK_MAJORITY, "a clock jump ends a held lock only below N/2+1, not below its own quorum") \
    X(JUMP_INFLIGHT, "an acquire or extend in flight counts a jumped master's OK") \
    X(PROMOTED_RESTART, "a restarted cluster master is durable, never seen a master before") \
    X(UNDO_NO_REDIRECT, "a cluster undo answered ASK or MOVED is not followed") \
    X(SPLIT_UNSENT, "a multi-resource part not sent does not roll back its sent siblings") \
    X(MOOT_CLUSTER, "a cluster request decided before it left is sent anyway, never undone") \
    X(KEEP_VALIDITY, "an extend does not lower the validity at its start: a failed one keeps it") \
    X(ROLLBACK_SKIP, "the roll-back of a lost attempt skips the last master") \
    X(AFTER_DEADLINE, "an acquire whose retry timer fired late attempts after its deadline") \
    X(OK_AFTER_DECISION, "a roll-back goes only where an OK came before the decision") \
    X(NO_DRIFT, "the validity has no drift allowance") \
    X(NO_GUARD, "the restart guard is off: a restarted master counts at once") \
    X(HALF_QUORUM, "the majority is N/2, not N/2+1") \
    X(SEM_MAJORITY, "a semaphore's quorum is N/2+1, not its q") \
    X(CLOCK_STEP, "a client clock step between an acquire's replies does not lose the attempt") \
    X(NO_EXTEND_KILL, "a dropped connection is killed only before an undo, not before an extend") \
    X(TWINS, "one server under two addresses votes twice") \
    X(NO_CLOCK_GUARD, "the clock guard is off: a jumped master counts at once") \
    X(REGROW_ALWAYS, "an extend re-grows a missing key on any master, not only a restarted one") \
    X(NO_FENCE_RAISE, "a fencing token is handed out without raising a quorum's counters to it") \
    X(REFUSED_KEEPS, "an extend refused by a quorum keeps the validity") \
    X(RESEND_WRITE, "a write answered NOSCRIPT after its decision is sent again as EVAL") \
    X(VALIDITY_FROM_REPLY, "the validity counts from the decision, not from the attempt's start") \
    X(NO_KILL, "no dropped connection is killed: a write still on it may run after its undo") \
    X(RELEASE_FULL, "a release or an undo is refused by a full queue (max_pending)") \
    X(FENCE_NO_FLOOR, "a lost fencing counter (below 2^40) does not start from the wall clock") \
    X(DURABLE_FORGETS, "a restart is durable though this client read the run before not durable") \
    X(NO_FAILOVER_GUARD, "a cluster master that took over its slots counts at once") \
    X(CLOCK_BACK_KEEPS, "a lock keeps its validity after the client's clock was seen going back") \
    X(UNDO_NO_RETRY, "an undo refused with BUSY, LOADING or OOM is not tried again") \
    X(RELEASE_LIES, "a release deleted on fewer than a quorum still says success") \
    X(NO_MARGIN, "a win is handed over however little validity is left at the hand-over")

#define REDLOCK__MUTANT_ENUM(name, what) REDLOCK__M_##name,
enum redlock__mutant_name {
    REDLOCK__M_NONE, REDLOCK__MUTANTS(REDLOCK__MUTANT_ENUM) REDLOCK__M_COUNT
};
#undef REDLOCK__MUTANT_ENUM

#ifdef REDLOCK_MUTANTS
extern int redlock__mutant;     /* the mutant on, REDLOCK__M_*; 0: none */
/* REDLOCK__M_* of a name ("NO_DRIFT"), -1 when there is none */
int redlock__mutant_by_name(const char *name);
/* the name and the description of mutant m (1 .. REDLOCK__M_COUNT - 1), or NULL */
const char *redlock__mutant_name(int m);
const char *redlock__mutant_what(int m);
#define REDLOCK__MUTANT(name) (redlock__mutant == REDLOCK__M_##name)
#else
#define REDLOCK__MUTANT(name) (REDLOCK__M_##name == REDLOCK__M_NONE)   /* 0 */
#endif

#endif
