/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* resp_in.c -- requests out of a connection's bytes, which may end in the
 * middle of one: a multibulk (*N $len ...) or an inline line ("PING\r\n",
 * split at spaces, as redis-cli and telnet send).  The arguments point
 * into the input buffer (an inline one's quotes are undone in place),
 * which is compacted only between requests. */
#include <stdlib.h>
#include <string.h>
#include "sim/master/internal.h"

static int add_arg(sim_req *r, const char *p, size_t len)
{
    if (r->argc == r->cap) {
        int cap = r->cap ? r->cap * 2 : 16;
        sim_arg *a = realloc(r->argv, (size_t)cap * sizeof *a);
        if (!a)
            return -1;
        r->argv = a;
        r->cap = cap;
    }
    r->argv[r->argc].p = p;
    r->argv[r->argc++].len = len;
    return 0;
}

/* the number after a type byte up to "\r\n" at *at; 1 read, 0 incomplete,
 * -1 malformed */
static int read_num(const char *p, const char *end, const char **at, long long *v)
{
    const char *cr = memchr(p, '\r', (size_t)(end - p));
    long long n = 0;
    int neg = 0;
    if (!cr || cr + 1 >= end)
        return cr || end - p < 32 ? 0 : -1;
    if (cr[1] != '\n')
        return -1;
    if (p < cr && *p == '-') {
        neg = 1;
        p++;
    }
    if (p == cr || cr - p > 18)
        return -1;
    for (; p < cr; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        n = n * 10 + (*p - '0');
    }
    *v = neg ? -n : n;
    *at = cr + 2;
    return 1;
}

static int hexval(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* An inline line split as Redis's sdssplitargs does: spaces apart,
 * "double quotes" with \n \r \t \b \a \xHH escapes, 'single quotes'
 * with \' only; unquoted in place (the text only shrinks). */
static int inline_req(sim_req *r, char *p, char *end, const char **why)
{
    char *nl = memchr(p, '\n', (size_t)(end - p));
    if (!nl) {
        if (end - p > 64 * 1024) {
            *why = "Protocol error: too big inline request";
            return -1;
        }
        return 0;
    }
    char *e = nl > p && nl[-1] == '\r' ? nl - 1 : nl;
    r->argc = 0;
    for (;;) {
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        if (p >= e)
            break;
        char *w = p, *start = p;
        char q = *p == '"' || *p == '\'' ? *p++ : 0;
        while (p < e) {
            if (!q && (*p == ' ' || *p == '\t'))
                break;
            if (q && *p == q) {
                p++;
                if (p < e && *p != ' ' && *p != '\t') {
                    *why = "Protocol error: unbalanced quotes in request";
                    return -1;
                }
                q = 0;
                break;
            }
            if (q == '"' && *p == '\\' && p + 1 < e) {
                p++;
                if (*p == 'x' && p + 2 < e && hexval(p[1]) >= 0 && hexval(p[2]) >= 0) {
                    *w++ = (char)(hexval(p[1]) * 16 + hexval(p[2]));
                    p += 3;
                    continue;
                }
                *w++ = *p == 'n' ? '\n' : *p == 'r' ? '\r' : *p == 't' ? '\t' : *p == 'b' ? '\b' : *p == 'a' ? '\a' : *p;
                p++;
                continue;
            }
            if (q == '\'' && *p == '\\' && p + 1 < e && p[1] == '\'') {
                *w++ = '\'';
                p += 2;
                continue;
            }
            *w++ = *p++;
        }
        if (q) {
            *why = "Protocol error: unbalanced quotes in request";
            return -1;
        }
        if (add_arg(r, start, (size_t)(w - start)))
            return -1;
    }
    r->pos = (size_t)(nl + 1 - r->in.p);
    return 1;
}

int sim_req_next(sim_req *r, const char **why)
{
    char *p = r->in.p + r->pos, *end = r->in.p + r->in.len;
    const char *at;
    long long n, len;
    int rc;

    for (;;) {
        if (p >= end)
            return 0;
        if (*p != '*')
            break;
        if ((rc = read_num(p + 1, end, &at, &n)) <= 0) {
            *why = "Protocol error: invalid multibulk length";
            return rc;
        }
        if (n > 1024 * 1024) {
            *why = "Protocol error: invalid multibulk length";
            return -1;
        }
        if (n > 0)
            goto multibulk;
        p = r->in.p + (at - r->in.p);   /* "*0" and "*-1" are skipped, as Redis does */
        r->pos = (size_t)(p - r->in.p);
    }
    if (*p == '\r' || *p == '\n') {         /* empty lines between requests */
        r->pos++;
        return sim_req_next(r, why);
    }
    return inline_req(r, p, end, why);

multibulk:
    r->argc = 0;
    for (long long i = 0; i < n; i++) {
        if (at >= end)
            return 0;
        if (*at != '$') {
            *why = "Protocol error: expected '$'";
            return -1;
        }
        if ((rc = read_num(at + 1, end, &at, &len)) <= 0) {
            *why = "Protocol error: invalid bulk length";
            return rc;
        }
        if (len < 0 || len > 512LL * 1024 * 1024) {
            *why = "Protocol error: invalid bulk length";
            return -1;
        }
        if (end - at < len + 2)
            return 0;
        if (add_arg(r, at, (size_t)len))
            return -1;
        at += len + 2;
    }
    r->pos = (size_t)(at - r->in.p);
    return 1;
}

void sim_req_compact(sim_req *r)
{
    if (r->pos == 0)
        return;
    memmove(r->in.p, r->in.p + r->pos, r->in.len - r->pos);
    r->in.len -= r->pos;
    r->pos = 0;
}

void sim_req_free(sim_req *r)
{
    sim_buf_free(&r->in);
    free(r->argv);
    r->argv = NULL;
    r->argc = r->cap = 0;
    r->pos = 0;
}
