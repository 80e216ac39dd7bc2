/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* trace.c -- the run's trace: a running FNV-1a 64 over every event's text
 * (its virtual time included) and the bytes each connection carried; the
 * text itself on stdout when asked (--trace).  Two runs of one seed must
 * give one hash. */
#include <stdarg.h>
#include <stdio.h>
#include "sim/sim.h"

static uint64_t hash;
static int verbose;

static void mix(const char *p, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        hash ^= (unsigned char)p[i];
        hash *= 0x100000001b3ULL;
    }
}

void sim_trace_reset(int v)
{
    hash = 0xcbf29ce484222325ULL;
    verbose = v;
}

void sim_trace(const char *fmt, ...)
{
    char s[512];
    va_list ap;
    int n = snprintf(s, sizeof s, "%lld.%06lld ", (long long)((sim_now_us - SIM_START_US) / 1000000),
                     (long long)((sim_now_us - SIM_START_US) % 1000000));

    va_start(ap, fmt);
    n += vsnprintf(s + n, sizeof s - (size_t)n, fmt, ap);
    va_end(ap);
    if (n >= (int)sizeof s)
        n = (int)sizeof s - 1;
    mix(s, (size_t)n);
    mix("\n", 1);
    if (verbose)
        printf("%s\n", s);
}

void sim_trace_bytes(const char *p, size_t len)
{
    mix(p, len);
    if (verbose) {
        fputs("    ", stdout);
        for (size_t i = 0; i < len && i < 120; i++) {
            unsigned char c = (unsigned char)p[i];
            if (c == '\r')
                fputs("\\r", stdout);
            else if (c == '\n')
                fputs("\\n", stdout);
            else if (c < 32 || c > 126)
                printf("\\x%02x", c);
            else
                putchar(c);
        }
        puts(len > 120 ? " ..." : "");
    }
}

uint64_t sim_trace_hash(void)
{
    return hash;
}
