/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* loop.c -- the floor every layer stands on: the bracket around library
 * frames (so that a client freed from a user callback is destroyed only
 * once the stack has unwound), the client's clock, and timers armed from
 * the real time.
 */
#include "floor/loop.h"

void redlock__enter(redlock__loop *l)
{
    l->depth++;
}

int redlock__leave(redlock__loop *l)
{
    if (--l->depth == 0 && l->closing) {
        l->destroy(l->owner);
        return 1;
    }
    return 0;
}

/* redlock__now's reading `raw` went back.  A clock that went back would
 * make validity grow: remember that it happened (every lock granted before
 * then is worth nothing) and carry on from the last reading, so that time
 * never runs backwards for the arithmetic, and keeps running (deadlines,
 * retries) after the step. */
int64_t redlock__now_step(redlock__loop *l, int64_t raw)
{
    l->clock_steps++;
    l->clock_offset += l->last_raw - raw;
    l->last_raw = raw;
    return raw + l->clock_offset;
}

void redlock__timer_add(redlock__loop *l, struct event *ev, int64_t us)
{
    struct timeval tv = redlock__tv(us);
    redlock__fresh_loop_time(l, redlock__now(l));
    evtimer_add(ev, &tv);
}

/* libevent measures a timer from the time it cached when the loop woke up;
 * a callback that ran long makes that stale, and the timer would fire early
 * by as much.  Refreshing it costs about a clock read, so it is done at
 * most once per millisecond of our clock: the cache is then never more
 * than 1 ms stale (a burst of operations in one loop turn pays once). */
void redlock__fresh_loop_time(redlock__loop *l, int64_t now)
{
    /* an injected clock says nothing of libevent's: refresh every time */
    if (now - l->fixed_us >= 1000 || now < l->fixed_us || l->clock != redlock__clock_default) {
        event_base_update_cache_time(l->base);
        l->fixed_us = now;
    }
}
