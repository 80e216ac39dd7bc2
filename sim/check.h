/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* check.h -- check.c: the simulator's checkers, what must hold at every
 * simulated instant (docs/simulator.md).  The harness tells them what
 * each holder believes (its validity's end, moved to true time) and what
 * the masters keep; they say when a promise breaks, and how.  Pure logic:
 * true simulated time in microseconds, no I/O, no clock of their own. */
#ifndef SIM_CHECK_H
#define SIM_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* What a hold excludes: a mutex (plain, fenced, re-entrant, each resource
 * of a multi-resource lock) one other holder; a permit all but P - 1
 * others; a reader every writer; a writer every other holder.  Holds of
 * the mutex, the semaphore and the read/write lock on one name are on
 * different keys: they never meet. */
typedef enum sim_hold_kind {
    SIM_HOLD_MUTEX,
    SIM_HOLD_PERMIT,
    SIM_HOLD_READ,
    SIM_HOLD_WRITE
} sim_hold_kind;

typedef struct sim_check sim_check;

sim_check *sim_check_new(void);
void sim_check_free(sim_check *k);

/* Holder h (one hold of one handle, unique in the run) believes from `now`
 * that it holds `res` until `until` (its validity's end in true time).  A
 * hold already known moves its end (an extend; a re-entry).  0, or -1 when
 * the holders believed valid at `now` are more than the kind allows
 * (`permits`: the semaphore's P, else ignored); sim_check_why says who. */
int sim_check_hold(sim_check *k, const char *res, sim_hold_kind kind, unsigned permits,
                   unsigned long h, int64_t now, int64_t until);
/* h believes no more that it holds res (released, lost, cancelled). */
void sim_check_end(sim_check *k, const char *res, sim_hold_kind kind, unsigned long h);
/* The holders of res believed valid at `now`. */
size_t sim_check_holders(const sim_check *k, const char *res, sim_hold_kind kind, int64_t now);
/* The end of h's hold of res as believed (0: none). */
int64_t sim_check_until(const sim_check *k, const char *res, sim_hold_kind kind, unsigned long h);

/* The client never believes in more validity than a quorum of masters
 * still grants: h believes until `until`, and `granted` masters keep its
 * key at least that long on their own clocks (counted by the caller, in
 * true time); its lock's quorum is q.  0, or -1 when granted < q. */
int sim_check_backed(sim_check *k, const char *res, unsigned long h, int64_t now, int64_t until,
                     size_t granted, size_t q);

/* The violations so far, and the last one in words ("" none). */
size_t sim_check_violations(const sim_check *k);
const char *sim_check_why(const sim_check *k);

#endif
