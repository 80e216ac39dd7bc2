/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* reply.c -- RESP2 replies into a sim_buf, and Redis's common errors. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sim/master/internal.h"

int sim_buf_put(sim_buf *b, const void *p, size_t len)
{
    if (b->len + len > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + len)
            cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np)
            return -1;
        b->p = np;
        b->cap = cap;
    }
    if (len)
        memcpy(b->p + b->len, p, len);
    b->len += len;
    return 0;
}

void sim_buf_free(sim_buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

static int put_line(sim_buf *b, char type, const char *s, size_t len)
{
    if (sim_buf_put(b, &type, 1) || sim_buf_put(b, s, len))
        return -1;
    return sim_buf_put(b, "\r\n", 2);
}

int sim_put_status(sim_buf *b, const char *s)
{
    return put_line(b, '+', s, strlen(s));
}

int sim_put_error(sim_buf *b, const char *s)
{
    return put_line(b, '-', s, strlen(s));
}

int sim_put_errorf(sim_buf *b, const char *fmt, ...)
{
    char t[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t, sizeof t, fmt, ap);
    va_end(ap);
    if (n < 0)
        return -1;
    return put_line(b, '-', t, (size_t)n < sizeof t ? (size_t)n : sizeof t - 1);
}

/* "%lld" by hand: every reply has a length or a number, and snprintf
 * was a tenth of the simulator's time */
int sim_fmt_ll(char out[21], long long v)
{
    char t[20];
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    int n = 0, k = 0;
    do
        t[n++] = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        out[k++] = '-';
    while (n)
        out[k++] = t[--n];
    return k;
}

static int put_num(sim_buf *b, char type, long long v)
{
    char t[24];
    t[0] = type;
    int n = 1 + sim_fmt_ll(t + 1, v);
    t[n++] = '\r';
    t[n++] = '\n';
    return sim_buf_put(b, t, (size_t)n);
}

int sim_put_int(sim_buf *b, long long v)
{
    return put_num(b, ':', v);
}

int sim_put_array(sim_buf *b, long long n)
{
    return put_num(b, '*', n);
}

int sim_put_bulk(sim_buf *b, const char *p, size_t len)
{
    if (put_num(b, '$', (long long)len) || sim_buf_put(b, p, len))
        return -1;
    return sim_buf_put(b, "\r\n", 2);
}

int sim_put_cstr(sim_buf *b, const char *s)
{
    return sim_put_bulk(b, s, strlen(s));
}

int sim_put_nil(sim_buf *b)
{
    return sim_buf_put(b, "$-1\r\n", 5);
}

int sim_put_nil_array(sim_buf *b)
{
    return sim_buf_put(b, "*-1\r\n", 5);
}

/* Redis 7.0 writes a score with "%.17g", an integral one as an integer */
int sim_format_double(char *out, size_t size, double d)
{
    if (isinf(d))
        return snprintf(out, size, "%s", d > 0 ? "inf" : "-inf");
    if (d == (double)(long long)d && fabs(d) < 1e17)
        return snprintf(out, size, "%lld", (long long)d);
    return snprintf(out, size, "%.17g", d);
}

int sim_put_double(sim_buf *b, double d)
{
    char t[64];
    int n = sim_format_double(t, sizeof t, d);
    return sim_put_bulk(b, t, (size_t)n);
}

int sim_put_wrongtype(sim_buf *b)
{
    return sim_put_error(b, "WRONGTYPE Operation against a key holding the wrong kind of value");
}

int sim_put_syntax(sim_buf *b)
{
    return sim_put_error(b, "ERR syntax error");
}

int sim_put_notint(sim_buf *b)
{
    return sim_put_error(b, "ERR value is not an integer or out of range");
}

int sim_put_arity(sim_buf *b, const sim_arg *cmd)
{
    char name[64];
    size_t n = cmd->len < sizeof name - 1 ? cmd->len : sizeof name - 1;
    for (size_t i = 0; i < n; i++)
        name[i] = (char)(cmd->p[i] >= 'A' && cmd->p[i] <= 'Z' ? cmd->p[i] + 32 : cmd->p[i]);
    name[n] = '\0';
    return sim_put_errorf(b, "ERR wrong number of arguments for '%s' command", name);
}
