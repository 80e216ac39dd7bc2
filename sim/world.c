/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* world.c -- the time seam and what is seeded.
 *
 * The simulator is linked with the library and libevent statically and
 * defines clock_gettime, gettimeofday, getrandom and getpid itself: the
 * library's clock (clock.h), its wall clock, libevent's loop time and
 * timers, the order of its poll's scan and the lock values all come from
 * here (docs/simulator.md says why this and not a hook in the library).
 * Virtual time moves only when the driver moves it: never while a
 * callback runs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/random.h>
#include <sys/time.h>
#include <unistd.h>
#include "sim/sim.h"

int64_t sim_now_us = SIM_START_US;
int64_t sim_clock_back_us;

int clock_gettime(clockid_t clk, struct timespec *ts)
{
    int64_t us = sim_now_us + (clk == CLOCK_REALTIME || clk == CLOCK_REALTIME_COARSE ? SIM_EPOCH_US : 0);
    if (clk == CLOCK_BOOTTIME)      /* the library's clock alone (a fault: fault.c) */
        us -= sim_clock_back_us;
    ts->tv_sec = (time_t)(us / 1000000);
    ts->tv_nsec = (long)(us % 1000000) * 1000;
    return 0;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    int64_t us = sim_now_us + SIM_EPOCH_US;
    (void)tz;
    tv->tv_sec = (time_t)(us / 1000000);
    tv->tv_usec = (suseconds_t)(us % 1000000);
    return 0;
}

/* libevent seeds the random start of each poll's scan from the time and
 * the process id: without this, two descriptors ready in one turn are
 * served in an order that changes from process to process. */
pid_t getpid(void)
{
    return 4242;
}

/* ---- seeded streams (splitmix64) ------------------------------------------ */

static uint64_t rng[SIM_RNG_COUNT];

uint64_t sim_rand(int s)
{
    uint64_t z = (rng[s] += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

int64_t sim_rand_range(int s, int64_t lo, int64_t hi)
{
    return lo + (int64_t)(sim_rand(s) % (uint64_t)(hi - lo + 1));
}

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
    unsigned char *p = buf;
    (void)flags;
    for (size_t i = 0; i < len; i += 8) {
        uint64_t x = sim_rand(SIM_RNG_BYTES);
        memcpy(p + i, &x, len - i < 8 ? len - i : 8);
    }
    return (ssize_t)len;
}

/* ---- the event queue: a binary heap on (t, seq) --------------------------- */

typedef struct sim_event {
    int64_t t;
    uint64_t seq;
    sim_event_fn *fn;
    void *ctx;
    long long id;
    sim_buf data;
} sim_event;

static sim_event *heap;
static size_t nheap, capheap;
static uint64_t nseq;

static int before(const sim_event *a, const sim_event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

int sim_at(int64_t t, sim_event_fn *fn, void *ctx, long long id, sim_buf *data)
{
    sim_event e = { t, nseq++, fn, ctx, id, { NULL, 0, 0 } };
    size_t i;

    if (nheap == capheap) {
        size_t cap = capheap ? 2 * capheap : 64;
        sim_event *h = realloc(heap, cap * sizeof *h);
        if (!h)
            return -1;
        heap = h, capheap = cap;
    }
    if (data) {
        e.data = *data;
        memset(data, 0, sizeof *data);
    }
    for (i = nheap++; i > 0 && before(&e, &heap[(i - 1) / 2]); i = (i - 1) / 2)
        heap[i] = heap[(i - 1) / 2];
    heap[i] = e;
    return 0;
}

static sim_event pop(void)
{
    sim_event top = heap[0], last = heap[--nheap];
    size_t i = 0;

    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= nheap)
            break;
        if (c + 1 < nheap && before(&heap[c + 1], &heap[c]))
            c++;
        if (!before(&heap[c], &last))
            break;
        heap[i] = heap[c];
        i = c;
    }
    if (nheap)
        heap[i] = last;
    return top;
}

int64_t sim_next_at(void)
{
    return nheap ? heap[0].t : INT64_MAX;
}

int sim_loop_touched, sim_poll_stale = 1, sim_poll_hold;
static sim_event_fn *quiet[8];
static size_t nquiet;

void sim_quiet(sim_event_fn *fn)
{
    for (size_t i = 0; i < nquiet; i++)
        if (quiet[i] == fn)
            return;
    if (nquiet < sizeof quiet / sizeof *quiet)
        quiet[nquiet++] = fn;
}

int sim_run_due(void)
{
    int n = 0;
    while (nheap && heap[0].t <= sim_now_us) {
        sim_event e = pop();
        size_t q = 0;
        while (q < nquiet && quiet[q] != e.fn)
            q++;
        if (q == nquiet)
            sim_loop_touched = sim_poll_stale = 1;
        e.fn(e.ctx, e.id, &e.data);
        sim_buf_free(&e.data);
        n++;
    }
    return n;
}

void sim_queue_clear(void)
{
    while (nheap) {
        sim_event e = pop();
        sim_buf_free(&e.data);
    }
    nseq = 0;
}

void sim_world_reset(uint64_t seed)
{
    sim_queue_clear();
    sim_now_us = SIM_START_US;
    sim_clock_back_us = 0;
    for (int s = 0; s < SIM_RNG_COUNT; s++)
        rng[s] = seed * 0x2545f4914f6cdd1dULL + (uint64_t)s * 0x9e3779b97f4a7c15ULL + 1;
    for (int s = 0; s < SIM_RNG_COUNT; s++)
        (void)sim_rand(s);
}
