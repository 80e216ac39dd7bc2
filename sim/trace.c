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

/* "%lld.%06lld " of the virtual time since the start, by hand (snprintf
 * was a good part of a run's time) */
static int stamp(char *s)
{
    long long us = (long long)(sim_now_us - SIM_START_US), sec = us / 1000000, frac = us % 1000000;
    char t[24];
    int n = 0, k = 0;

    if (us < 0)     /* never: the time only moves forward from the start */
        return snprintf(s, 32, "%lld.%06lld ", sec, frac);
    do
        t[n++] = (char)('0' + sec % 10);
    while ((sec /= 10) != 0);
    while (n)
        s[k++] = t[--n];
    s[k++] = '.';
    for (int d = 5; d >= 0; d--, frac /= 10)
        s[k + d] = (char)('0' + frac % 10);
    k += 6;
    s[k++] = ' ';
    return k;
}

void sim_trace(const char *fmt, ...)
{
    char s[512];
    va_list ap;
    int n = stamp(s);

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

static int decimal(char *s, unsigned long long v)
{
    char t[24];
    int n = 0, k = 0;
    do
        t[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n)
        s[k++] = t[--n];
    return k;
}

/* sim_trace("m%zu c%lld %c %zu", master, conn, dir, len), by hand: the
 * most frequent line (every chunk either way) */
void sim_trace_flow(size_t master, long long conn, char dir, size_t len)
{
    char s[96];
    int n = stamp(s);

    if (conn < 0) {
        sim_trace("m%zu c%lld %c %zu", master, conn, dir, len);
        return;
    }
    s[n++] = 'm';
    n += decimal(s + n, master);
    s[n++] = ' ';
    s[n++] = 'c';
    n += decimal(s + n, (unsigned long long)conn);
    s[n++] = ' ';
    s[n++] = dir;
    s[n++] = ' ';
    n += decimal(s + n, len);
    mix(s, (size_t)n);
    mix("\n", 1);
    if (verbose)
        printf("%.*s\n", n, s);
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
