/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* hist.c -- see hist.h. */
#include "hist.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

hist *hist_new(void)
{
    return calloc(1, sizeof(hist));
}

void hist_free(hist *h)
{
    free(h);
}

void hist_reset(hist *h)
{
    memset(h, 0, sizeof(*h));
}

void hist_bucket_range(unsigned idx, uint64_t *low, uint64_t *width)
{
    if (idx < HIST_SUB) {
        *low = idx;
        *width = 1;
        return;
    }
    unsigned shift = (idx >> HIST_SUB_BITS) - 1u;
    uint64_t top = (uint64_t)(idx & (HIST_SUB - 1u)) + HIST_SUB;
    *low = top << shift;
    *width = (uint64_t)1 << shift;
}

void hist_merge(hist *dst, const hist *src)
{
    if (src->count == 0)
        return;
    for (unsigned i = 0; i < HIST_BUCKETS; i++)
        dst->b[i] += src->b[i];
    if (dst->count == 0 || src->min < dst->min)
        dst->min = src->min;
    if (src->max > dst->max)
        dst->max = src->max;
    dst->count += src->count;
    dst->sum += src->sum;
}

uint64_t hist_bucket_value(const hist *h, unsigned idx)
{
    uint64_t low, width;
    hist_bucket_range(idx, &low, &width);
    uint64_t v = low + (width - 1) / 2;
    if (v < h->min)
        v = h->min;
    if (v > h->max)
        v = h->max;
    return v;
}

uint64_t hist_quantile(const hist *h, double q)
{
    if (h->count == 0)
        return 0;
    if (q >= 1.0)
        return h->max;
    if (q <= 0.0)
        return h->min;
    uint64_t rank = (uint64_t)ceil(q * (double)h->count);
    if (rank < 1)
        rank = 1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        seen += h->b[i];
        if (seen >= rank)
            return hist_bucket_value(h, i);
    }
    return h->max;
}

double hist_mean(const hist *h)
{
    return h->count ? (double)h->sum / (double)h->count : 0.0;
}

/* ---- self-check ---------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint64_t sc_rng(uint64_t *s)
{
    /* xorshift64* */
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1DULL;
}

/* 1. Every bucket's range is contiguous with the next and every value maps
 *    into the bucket whose range holds it. */
static int check_buckets(char *err, size_t errlen)
{
    uint64_t expect_low = 0;
    for (unsigned i = 0; i < HIST_BUCKETS; i++) {
        uint64_t low, width;
        hist_bucket_range(i, &low, &width);
        if (low != expect_low) {
            snprintf(err, errlen, "bucket %u starts at %llu, expected %llu", i,
                     (unsigned long long)low, (unsigned long long)expect_low);
            return -1;
        }
        if (hist_index(low) != i || hist_index(low + (width - 1)) != i) {
            snprintf(err, errlen, "bucket %u: bounds map elsewhere", i);
            return -1;
        }
        if (low >= HIST_SUB && (double)width / (double)low > 1.0 / HIST_SUB + 1e-12) {
            snprintf(err, errlen, "bucket %u too wide", i);
            return -1;
        }
        expect_low = low + width; /* wraps to 0 after the last bucket */
    }
    if (expect_low != 0 || hist_index(UINT64_MAX) != HIST_BUCKETS - 1) {
        snprintf(err, errlen, "buckets do not cover the uint64 range");
        return -1;
    }
    return 0;
}

enum { SC_N = 200000 };

/* The quantiles of h and of h1 (the same samples, merged from two halves)
 * against the exact answer from the sorted samples v[SC_N]. */
static int check_quantiles(const hist *h, const hist *h1, const uint64_t *v, char *err,
                           size_t errlen)
{
    static const double qs[] = {0.001, 0.1, 0.5, 0.9, 0.99, 0.999, 0.9999};
    for (size_t k = 0; k < sizeof(qs) / sizeof(qs[0]); k++) {
        uint64_t exact = v[(size_t)ceil(qs[k] * SC_N) - 1];
        uint64_t got = hist_quantile(h, qs[k]);
        uint64_t got2 = hist_quantile(h1, qs[k]);
        double rel = fabs((double)got - (double)exact) / (double)exact;
        if (rel > 0.01 || got != got2) {
            snprintf(err, errlen, "q%.4f: exact %llu, histogram %llu (merged %llu)",
                     qs[k], (unsigned long long)exact, (unsigned long long)got,
                     (unsigned long long)got2);
            return -1;
        }
    }
    if (hist_quantile(h, 1.0) != v[SC_N - 1] || h->min != v[0] || h->count != SC_N ||
        h1->count != SC_N || h1->max != v[SC_N - 1] || h1->min != v[0] || h1->sum != h->sum) {
        snprintf(err, errlen, "min/max/count/sum mismatch");
        return -1;
    }
    return 0;
}

/* 3. Small exact values stay exact; an empty histogram says 0 (h is reset). */
static int check_small(hist *h, char *err, size_t errlen)
{
    hist_reset(h);
    for (uint64_t x = 1; x <= 100; x++)
        hist_record(h, x);
    if (hist_quantile(h, 0.5) != 50 || hist_quantile(h, 0.99) != 99 ||
        hist_quantile(h, 0.0) != 1) {
        snprintf(err, errlen, "small values not exact");
        return -1;
    }
    hist_reset(h);
    if (hist_quantile(h, 0.5) != 0 || hist_mean(h) != 0.0) {
        snprintf(err, errlen, "empty histogram not zero");
        return -1;
    }
    return 0;
}

int hist_selfcheck(char *err, size_t errlen)
{
    if (check_buckets(err, errlen) != 0)
        return -1;
    /* 2. Quantiles of log-uniform samples (1 us .. 1 s in ns) against the
     *    exact sorted answer: within 1% relative error. */
    uint64_t *v = malloc(SC_N * sizeof(*v));
    hist *h = hist_new(), *h1 = hist_new(), *h2 = hist_new();
    int rc = -1;
    if (!v || !h || !h1 || !h2) {
        snprintf(err, errlen, "out of memory");
        goto out;
    }
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < SC_N; i++) {
        double u = (double)(sc_rng(&seed) >> 11) / 9007199254740992.0;
        v[i] = (uint64_t)(1000.0 * pow(1e6, u));
        hist_record(h, v[i]);
        hist_record(i % 2 ? h1 : h2, v[i]);
    }
    hist_merge(h1, h2);
    qsort(v, SC_N, sizeof(*v), cmp_u64);
    if (check_quantiles(h, h1, v, err, errlen) == 0 && check_small(h, err, errlen) == 0)
        rc = 0;
out:
    free(v);
    hist_free(h);
    hist_free(h1);
    hist_free(h2);
    return rc;
}
