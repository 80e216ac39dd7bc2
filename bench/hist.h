/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hist.h -- log-bucketed latency histogram for redlock-bench.
 *
 * HDR-like layout: values below 2^HIST_SUB_BITS are counted exactly; above,
 * every power of two [2^k, 2^(k+1)) is split into 2^HIST_SUB_BITS equal
 * sub-buckets.  A bucket's width is at most 1/128 of its lower bound, and
 * quantiles report the bucket's midpoint, so a reported quantile is within
 * ~0.4% of a sample that really has that rank (never a sorted sample array:
 * recording is O(1) and memory is fixed, ~58 KiB per histogram).
 *
 * Values are unsigned 64-bit (redlock-bench records nanoseconds).  Not
 * thread-safe: one writer; merge per-thread histograms at the end.
 */
#ifndef RLB_HIST_H
#define RLB_HIST_H

#include <stddef.h>
#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_BUCKETS ((65u - HIST_SUB_BITS) * HIST_SUB)

typedef struct hist {
    uint64_t count;
    uint64_t sum;
    uint64_t min;
    uint64_t max;
    uint64_t b[HIST_BUCKETS];
} hist;

hist *hist_new(void);                 /* zeroed, NULL on ENOMEM */
void hist_free(hist *h);
void hist_reset(hist *h);

static inline unsigned hist_index(uint64_t v)
{
    if (v < HIST_SUB)
        return (unsigned)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v);
    unsigned shift = msb - HIST_SUB_BITS;
    return ((shift + 1u) << HIST_SUB_BITS) + (unsigned)((v >> shift) - HIST_SUB);
}

static inline void hist_record(hist *h, uint64_t v)
{
    h->b[hist_index(v)]++;
    if (h->count == 0 || v < h->min)
        h->min = v;
    if (v > h->max)
        h->max = v;
    h->count++;
    h->sum += v;
}

/* Lowest value of bucket `idx` and its width. */
void hist_bucket_range(unsigned idx, uint64_t *low, uint64_t *width);
/* What bucket idx of h stands for: its midpoint, clamped to [min, max]. */
uint64_t hist_bucket_value(const hist *h, unsigned idx);
void hist_merge(hist *dst, const hist *src);
/* Value at quantile q (0..1): the midpoint of the bucket holding the sample
 * of rank ceil(q * count), clamped to [min, max]; q >= 1 gives max.  0 when
 * the histogram is empty. */
uint64_t hist_quantile(const hist *h, double q);
double hist_mean(const hist *h);
/* Self-check against exact sorted quantiles; 0 when fine, else -1 with a
 * message in err. */
int hist_selfcheck(char *err, size_t errlen);

#endif
