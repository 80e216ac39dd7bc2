/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* clock.c -- the time source, clock drift and lock validity.
 *
 *   start                      quorum reached          start + ttl
 *     |------- elapsed ------------|---- validity ----|-- drift --|
 *
 *   validity = ttl - elapsed - drift,  drift = ttl * factor + min
 *
 * Which clock: elapsed time must be measured by a clock that (a) never
 * jumps when someone sets the wall time (so not CLOCK_REALTIME) and (b) keeps
 * counting while the host is suspended.  CLOCK_MONOTONIC stops during
 * suspend on Linux: a laptop or VM that sleeps for a minute would wake up
 * believing its 30-second lock still had time left, while the masters
 * expired the key long ago and handed it to someone else.  CLOCK_BOOTTIME
 * is monotonic *and* includes suspended time, so the validity we report
 * only ever errs on the short side.  Where CLOCK_BOOTTIME is missing we fall
 * back to CLOCK_MONOTONIC.
 *
 * The clock is injectable (redlock_options.clock) so tests can drive time.
 */
#include <stdint.h>
#include "clock.h"

int64_t redlock__clock_default(void *privdata)
{
    (void)privdata;
    return redlock__clock_read();
}


int64_t redlock__ms_floor(int64_t us)
{
    return us > 0 ? us / 1000 : 0;
}

int64_t redlock__add_sat(int64_t a, int64_t b)
{
    return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* The estimate follows a faster sample at once and a slower one by an
 * eighth of the difference: it spaces wake-ups (contended.c), where too wide
 * a spacing idles the lock, and a waiter samples seldom (a few attempts a
 * second with hundreds of rivals).  A plain average kept the burst of a
 * start (hundreds of clients' first attempts at once: 20 ms round trips)
 * for seconds, and the lock idled 2 ms per hand-off (docs/design.md). */
int64_t redlock__rtt_update(int64_t est, int64_t sample_us)
{
    if (sample_us <= 0)
        return est;
    if (sample_us < est)
        return sample_us;
    return est + (sample_us - est) / 8;
}

struct timeval redlock__tv(int64_t us)
{
    struct timeval tv;
    if (us < 0)
        us = 0;
    tv.tv_sec = (time_t)(us / 1000000);
    tv.tv_usec = (suseconds_t)(us % 1000000);
    return tv;
}

int64_t redlock__wall_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
