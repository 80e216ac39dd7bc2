/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* clock.h -- clock.c: the time source, drift, validity, time conversions;
 * pure logic under the floor.  Never installed. */
#ifndef REDLOCK_CLOCK_H
#define REDLOCK_CLOCK_H

#include <stdint.h>
#include <time.h>
#include <sys/time.h>

/* The default clock (why BOOTTIME: clock.c), in microseconds.  Inline:
 * it is read for every reply. */
static inline int64_t redlock__clock_read(void)
{
    struct timespec ts;
#ifdef CLOCK_BOOTTIME
    if (clock_gettime(CLOCK_BOOTTIME, &ts) == 0)
        return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
/* The wall clock (CLOCK_REALTIME) in microseconds: only for fencing's
 * floor, never for validity. */
int64_t redlock__wall_us(void);

#endif
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
/* redlock__clock_read as a redlock_clock_fn */
int64_t redlock__clock_default(void *privdata);
/* The clock drift allowed over ttl_ms (inline: every acquire and extend).
 * ttl is at most 2^40 ms (checked by callers), so nothing here overflows. */
static inline int64_t redlock__drift_us(int64_t ttl_ms, double factor, int64_t min_ms)
{
    return (int64_t)((double)ttl_ms * 1000.0 * factor) + min_ms * 1000;
}
/* What is left of ttl_ms at now_us for an operation started at start_us
 * (inline: asked after every vote of an acquire or extend). */
static inline int64_t redlock__validity_us(int64_t start_us, int64_t now_us, int64_t ttl_ms,
                                           int64_t drift_us)
{
    int64_t elapsed = now_us - start_us;
    if (elapsed < 0)        /* a clock that went backwards: trust nothing */
        return 0;
    return ttl_ms * 1000 - elapsed - drift_us;
}
int64_t redlock__ms_floor(int64_t us);
/* a + b without overflow (clamped to INT64_MAX); both >= 0 */
int64_t redlock__add_sat(int64_t a, int64_t b);
/* us (>= 0; negative counts as 0) as a timeval */
struct timeval redlock__tv(int64_t us);
/* A round-trip estimate `est` after one more sample (both > 0; a sample
 * <= 0 leaves it): see clock.c */
int64_t redlock__rtt_update(int64_t est, int64_t sample_us);

/* The wall clock (CLOCK_REALTIME) in microseconds: only for fencing's
 * floor, never for validity. */
int64_t redlock__wall_us(void);

#endif
