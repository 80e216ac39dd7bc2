/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* loop.h -- loop.c: the loop bracket, the client's clock, timers armed
 * from the real time; and the pools whose trimmer is one of those timers.
 * floor.h includes it; nothing above the floor does.  Never installed. */
#ifndef REDLOCK_LOOP_H
#define REDLOCK_LOOP_H

#include <stddef.h>
#include <stdint.h>
#include <event2/event.h>
/* the loop's users embed their timers: no allocation per timer */
#include <event2/event_struct.h>
#include "redlock.h"
#include "clock.h"

/* ---- pools of reusable objects (fanout.c's operations, handle.c's flights) */

/* A pool's counts: objects in use (alive), their high-water mark since the
 * last trim (hw), and those waiting in the pool (nfree).  Objects go back
 * to the pool whatever their number (a steady load never frees what it
 * allocates again a moment later); every REDLOCK__POOL_TRIM_MS while the
 * pool holds more than its minimum, a trim frees what the last period's
 * peak did not use (redlock__pool_surplus): after a burst the memory goes
 * within two periods, busy or idle. */
typedef struct redlock__pool {
    size_t alive, hw, nfree;
} redlock__pool;

#define REDLOCK__POOL_TRIM_MS 10000

static inline void redlock__pool_took(redlock__pool *p)
{
    if (++p->alive > p->hw)
        p->hw = p->alive;
}

/* How many pooled objects a trim frees: those beyond max(min, hw) in all;
 * the next period's peak starts from the use now. */
static inline size_t redlock__pool_surplus(redlock__pool *p, size_t min)
{
    size_t keep = p->hw > min ? p->hw : min, total = p->alive + p->nfree;
    size_t n = total > keep ? total - keep : 0;

    p->hw = p->alive;
    return n < p->nfree ? n : p->nfree;
}

/* The client's timer that trims its pools (redlock.c), armed once a pool
 * holds more than its minimum. */
typedef struct redlock__trimmer {
    struct event ev;
    int armed;
} redlock__trimmer;

/* ---- loop.c: the loop bracket, the client's clock, timers -------------- */

typedef struct redlock__loop {
    struct event_base *base;
    unsigned depth;                  /* library frames on the stack */
    int closing;                     /* the owner is being freed */
    redlock_clock_fn *clock;
    void *clock_privdata;
    int64_t last_raw;                /* the clock's latest reading */
    int64_t clock_offset;            /* added to it: the steps back so far */
    int64_t fixed_us;                /* when libevent's cached time was refreshed */
    unsigned clock_steps;            /* times the clock was seen going back */
    unsigned master_jumps;           /* times a master's clock was seen
                                      * jumping ahead (the clock guard) */
    void (*destroy)(void *owner);    /* run by the last leave once closing */
    void *owner;
    struct redlock__thread *th;      /* the loop's own thread (thread.c), or NULL */
} redlock__loop;

/* Every libevent callback into the library brackets its work with these,
 * so that a client freed from a user callback is destroyed only when the
 * stack has unwound.  leave() returns 1 when the owner is gone. */
void redlock__enter(redlock__loop *l);
int redlock__leave(redlock__loop *l);
/* The clock; a reading below the previous one counts in clock_steps.
 * Inline: it is read for every reply. */
int64_t redlock__now_step(redlock__loop *l, int64_t raw);
static inline int64_t redlock__now(redlock__loop *l)
{
    /* the default clock without the indirect call */
    int64_t raw = l->clock == redlock__clock_default ? redlock__clock_read()
                                                      : l->clock(l->clock_privdata);
    if (raw < l->last_raw)
        return redlock__now_step(l, raw);
    l->last_raw = raw;
    return raw + l->clock_offset;
}
/* Arm a timer `us` from now, "now" being the real time, not the loop's
 * cached time (stale after a long callback). */
void redlock__timer_add(redlock__loop *l, struct event *ev, int64_t us);
/* Make libevent's cached loop time current (to within 1 ms); `now` is a
 * reading of redlock__now() just taken. */
void redlock__fresh_loop_time(redlock__loop *l, int64_t now);
/* Arm the trimmer unless it is (NULL: none). */
static inline void redlock__trim_soon(redlock__trimmer *t, redlock__loop *l)
{
    if (t && !t->armed && !l->closing) {
        t->armed = 1;
        redlock__timer_add(l, &t->ev, REDLOCK__POOL_TRIM_MS * 1000);
    }
}

#endif
