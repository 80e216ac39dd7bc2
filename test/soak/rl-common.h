/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rl-common.h -- what the failover suite's programs share (rl-worker,
 * rl-check, rl-schedule, rl-util). */
#ifndef RL_COMMON_H
#define RL_COMMON_H

#include <stddef.h>
#include <stdint.h>

/* the program's name in error messages ("rl-check", ...) */
extern const char *rl_prog;

int64_t now_us(void);   /* CLOCK_BOOTTIME in us, the library's clock */

/* *p grown to hold `need` elements of `sz` bytes (capacity *cap); exits 2
 * on no memory, as rl_xmalloc */
void *rl_grow(void *p, size_t *cap, size_t need, size_t sz);
void *rl_xmalloc(size_t sz);

static inline int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

#endif
