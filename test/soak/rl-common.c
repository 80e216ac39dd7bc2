/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-common.c -- see rl-common.h. */
#include "rl-common.h"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

int64_t now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_BOOTTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void out_of_memory(void)
{
    fprintf(stderr, "%s: out of memory\n", rl_prog);
    exit(2);
}

void *rl_xmalloc(size_t sz)
{
    void *p = malloc(sz ? sz : 1);
    if (!p)
        out_of_memory();
    return p;
}

void *rl_grow(void *p, size_t *cap, size_t need, size_t sz)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap * 2 : 256;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * sz);
    if (!q)
        out_of_memory();
    *cap = c;
    return q;
}
