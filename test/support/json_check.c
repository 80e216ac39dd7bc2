/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* json_check.c -- a strict JSON reader (json_check.h): one recursive
 * descent that validates and, when asked, finds the value at a path. */
#include "json_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct jp {
    const unsigned char *s;
    size_t i, n;
    char *err;
    size_t errlen;
    int failed;
    /* the path still to follow (NULL: none); what was found */
    const char *path;
    const unsigned char *found;
    size_t found_len;
    char *out;
    size_t outn, outlen;
    int found_string;
};

static int fail(struct jp *p, const char *why)
{
    if (!p->failed && p->err)
        snprintf(p->err, p->errlen, "%s at byte %zu", why, p->i);
    p->failed = 1;
    return -1;
}

static void ws(struct jp *p)
{
    while (p->i < p->n && (p->s[p->i] == ' ' || p->s[p->i] == '\t' || p->s[p->i] == '\n' ||
                           p->s[p->i] == '\r'))
        p->i++;
}

static int lit(struct jp *p, const char *word)
{
    size_t k = strlen(word);
    if (p->n - p->i < k || memcmp(p->s + p->i, word, k) != 0)
        return fail(p, "unexpected text");
    p->i += k;
    return 0;
}

static int hex4(struct jp *p, unsigned *v)
{
    *v = 0;
    for (int k = 0; k < 4; k++, p->i++) {
        unsigned char c = p->i < p->n ? p->s[p->i] : 0;
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0)
            return fail(p, "bad \\u escape");
        *v = *v * 16 + (unsigned)d;
    }
    return 0;
}

/* One UTF-8 sequence starting at p->i (a byte >= 0x80): its length, 0 if
 * invalid (overlong, surrogates, beyond U+10FFFF). */
static size_t utf8_len(const struct jp *p)
{
    const unsigned char *c = p->s + p->i;
    size_t left = p->n - p->i, k;
    unsigned cp;
    if (c[0] >= 0xc2 && c[0] <= 0xdf) { k = 2; cp = c[0] & 0x1f; }
    else if (c[0] >= 0xe0 && c[0] <= 0xef) { k = 3; cp = c[0] & 0x0f; }
    else if (c[0] >= 0xf0 && c[0] <= 0xf4) { k = 4; cp = c[0] & 0x07; }
    else return 0;
    if (left < k)
        return 0;
    for (size_t j = 1; j < k; j++) {
        if ((c[j] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (c[j] & 0x3f);
    }
    if ((k == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (k == 4 && (cp < 0x10000 || cp > 0x10ffff)))
        return 0;
    return k;
}

static void put(struct jp *p, unsigned char c, int keep)
{
    if (keep && p->outlen + 1 < p->outn)
        p->out[p->outlen] = (char)c;
    if (keep)
        p->outlen++;
}

static void put_cp(struct jp *p, unsigned cp, int keep)
{
    if (cp < 0x100) {
        put(p, (unsigned char)cp, keep);
    } else if (cp < 0x800) {
        put(p, (unsigned char)(0xc0 | cp >> 6), keep);
        put(p, (unsigned char)(0x80 | (cp & 0x3f)), keep);
    } else if (cp < 0x10000) {
        put(p, (unsigned char)(0xe0 | cp >> 12), keep);
        put(p, (unsigned char)(0x80 | (cp >> 6 & 0x3f)), keep);
        put(p, (unsigned char)(0x80 | (cp & 0x3f)), keep);
    } else {
        put(p, (unsigned char)(0xf0 | cp >> 18), keep);
        put(p, (unsigned char)(0x80 | (cp >> 12 & 0x3f)), keep);
        put(p, (unsigned char)(0x80 | (cp >> 6 & 0x3f)), keep);
        put(p, (unsigned char)(0x80 | (cp & 0x3f)), keep);
    }
}

static int escape(struct jp *p, int keep)
{
    static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
    unsigned char c = p->i < p->n ? p->s[p->i] : 0;
    const char *e = c ? strchr(from, c) : NULL;
    unsigned cp, lo;

    if (e) {
        p->i++;
        put(p, (unsigned char)to[e - from], keep);
        return 0;
    }
    if (c != 'u')
        return fail(p, "bad escape");
    p->i++;
    if (hex4(p, &cp))
        return -1;
    if (cp >= 0xdc00 && cp <= 0xdfff)
        return fail(p, "lone low surrogate");
    if (cp >= 0xd800 && cp <= 0xdbff) {
        if (lit(p, "\\u") || hex4(p, &lo) || lo < 0xdc00 || lo > 0xdfff)
            return fail(p, "high surrogate without its low half");
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
    }
    put_cp(p, cp, keep);
    return 0;
}

/* A string; decoded into p->out when keep. */
static int string(struct jp *p, int keep)
{
    if (lit(p, "\""))
        return -1;
    for (;;) {
        if (p->i >= p->n)
            return fail(p, "unterminated string");
        unsigned char c = p->s[p->i];
        if (c == '"') {
            p->i++;
            return 0;
        }
        if (c < 0x20)
            return fail(p, "raw control character in a string");
        if (c == '\\') {
            p->i++;
            if (escape(p, keep))
                return -1;
        } else if (c < 0x80) {
            p->i++;
            put(p, c, keep);
        } else {
            size_t k = utf8_len(p);
            if (!k)
                return fail(p, "invalid UTF-8");
            for (size_t j = 0; j < k; j++)
                put(p, p->s[p->i++], keep);
        }
    }
}

static int digits(struct jp *p)
{
    size_t start = p->i;
    while (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
        p->i++;
    return p->i > start ? 0 : fail(p, "digit expected");
}

static int number(struct jp *p)
{
    if (p->i < p->n && p->s[p->i] == '-')
        p->i++;
    if (p->i < p->n && p->s[p->i] == '0') {
        p->i++;
        if (p->i < p->n && p->s[p->i] >= '0' && p->s[p->i] <= '9')
            return fail(p, "leading zero");
    } else if (digits(p)) {
        return -1;
    }
    if (p->i < p->n && p->s[p->i] == '.' && (p->i++, digits(p)))
        return -1;
    if (p->i < p->n && (p->s[p->i] == 'e' || p->s[p->i] == 'E')) {
        p->i++;
        if (p->i < p->n && (p->s[p->i] == '+' || p->s[p->i] == '-'))
            p->i++;
        return digits(p);
    }
    return 0;
}

static int value(struct jp *p, const char *path, int depth);

/* The first segment of path equals the name (or index) just read? */
static const char *next_path(const char *path, const char *name, size_t len)
{
    const char *dot;
    size_t seg;
    if (!path)
        return NULL;
    dot = strchr(path, '.');
    seg = dot ? (size_t)(dot - path) : strlen(path);
    if (seg != len || memcmp(path, name, len) != 0)
        return NULL;
    return dot ? dot + 1 : "";
}

static int members(struct jp *p, const char *path, int depth, int object)
{
    char name[256];
    size_t count = 0;
    p->i++;
    ws(p);
    if (p->i < p->n && p->s[p->i] == (object ? '}' : ']')) {
        p->i++;
        return 0;
    }
    for (;; count++) {
        const char *sub = NULL;
        ws(p);
        if (object) {
            char *o = p->out;
            size_t on = p->outn, ol = p->outlen;
            p->out = name;
            p->outn = sizeof name;
            p->outlen = 0;
            int rc = string(p, 1);
            size_t nl = p->outlen < sizeof name ? p->outlen : sizeof name - 1;
            p->out = o;
            p->outn = on;
            p->outlen = ol;
            if (rc)
                return -1;
            sub = next_path(path, name, nl);
            ws(p);
            if (lit(p, ":"))
                return -1;
        } else {
            char idx[24];
            int k = snprintf(idx, sizeof idx, "%zu", count);
            sub = next_path(path, idx, (size_t)k);
        }
        if (value(p, sub, depth + 1))
            return -1;
        ws(p);
        if (p->i < p->n && p->s[p->i] == ',') {
            p->i++;
            continue;
        }
        return lit(p, object ? "}" : "]");
    }
}

static int value(struct jp *p, const char *path, int depth)
{
    size_t start;
    int rc, str = 0;
    int here = path && !*path;      /* this is the value asked for */

    if (depth > 64)
        return fail(p, "nested too deep");
    ws(p);
    start = p->i;
    if (p->i >= p->n)
        return fail(p, "value expected");
    switch (p->s[p->i]) {
    case '{': rc = members(p, here ? NULL : path, depth, 1); break;
    case '[': rc = members(p, here ? NULL : path, depth, 0); break;
    case '"': rc = string(p, here); str = 1; break;
    case 't': rc = lit(p, "true"); break;
    case 'f': rc = lit(p, "false"); break;
    case 'n': rc = lit(p, "null"); break;
    default: rc = number(p);
    }
    if (rc == 0 && here) {
        p->found = p->s + start;
        p->found_len = p->i - start;
        p->found_string = str;
    }
    return rc;
}

static int parse(struct jp *p)
{
    if (value(p, p->path, 0))
        return -1;
    ws(p);
    return p->i == p->n ? 0 : fail(p, "text after the value");
}

int json_valid(const char *s, size_t len, char *err, size_t errlen)
{
    char none[1];
    struct jp p = { (const unsigned char *)s, 0, len, err, errlen, 0, NULL, NULL, 0,
                    none, 0, 0, 0 };
    if (err && errlen)
        err[0] = '\0';
    return parse(&p);
}

long json_get(const char *s, const char *path, char *out, size_t n)
{
    struct jp p = { (const unsigned char *)s, 0, strlen(s), NULL, 0, 0, path, NULL, 0,
                    out, n, 0, 0 };
    if (n)
        out[0] = '\0';
    if (parse(&p) || !p.found)
        return -1;
    if (!p.found_string) {
        p.outlen = p.found_len;
        memcpy(out, p.found, p.found_len < n ? p.found_len : n - 1);
    }
    out[p.outlen < n ? p.outlen : n - 1] = '\0';
    return (long)p.outlen;
}
