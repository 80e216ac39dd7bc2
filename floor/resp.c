/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* resp.c -- bounded RESP2 replies (see resp.h), and the command encoder.
 *
 * The reader keeps the bytes fed in one buffer and parses items in place.
 * An item (a status, error or integer line, a nil, a bulk string with its
 * bytes, an array's header) is taken only when it is complete, so a reply
 * cut anywhere resumes at the item it stopped at; the arrays already opened
 * wait on a small stack (at most REDLOCK__REPLY_MAX_DEPTH).  The end of an
 * unfinished line is searched from where the last search stopped, so a
 * line arriving a byte at a time costs linear time.
 *
 * Every bound is checked when an item is seen, before anything is
 * allocated for it: an array's depth and its count against the reply's
 * element budget, a string's length against its byte budget.  "*2147483647"
 * costs an error message.  Numbers are strict (an optional '-' for integers,
 * no leading zeros, no sign before "0", in range), and a bulk string must
 * end with CRLF.
 *
 * The top-level object is the reader's own, and a top-level string stays
 * in the input buffer: the replies of the hot path (+OK, :1, $-1) allocate
 * and copy nothing.  An array of n elements is one
 * allocation (n children and n pointers to them); strings in arrays get
 * allocations of their own.  All of a reply's allocations are on one list,
 * freed together when the next reply is asked for, when the reader fails,
 * and in _free, whatever the point where parsing stopped.
 */
#include "redlock.h"
#include "floor/resp.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEEP_BUF 16384          /* an empty input buffer larger than this is freed */

struct block {
    struct block *next;
    max_align_t data[];
};

struct frame {
    redlock__reply *array;      /* an open array of the reply being read */
    size_t next;                /* its next element */
};

struct redlock__reader {
    char *buf;                  /* bytes fed: buf[pos..len) not parsed yet */
    size_t pos, len, cap;
    size_t scanned;             /* of the line at pos, bytes known to hold no CRLF */
    redlock__reply top;         /* the reply's top-level object */
    struct frame stack[REDLOCK__REPLY_MAX_DEPTH];
    int depth;                  /* arrays open */
    struct block *blocks;       /* everything allocated for the reply */
    size_t elements;            /* array elements in the reply so far */
    size_t bytes;               /* string bytes copied in the reply so far */
    int done;                   /* top is a returned reply: release it first */
    int failed;
    char why[192];              /* "" until failed */
};

static const redlock__reply empty = {REDLOCK__REPLY_NIL, 0, "", 0, 0, NULL};

static void *take(redlock__reader *r, size_t size)
{
    struct block *b;

    if (size > SIZE_MAX - sizeof *b || !(b = malloc(sizeof *b + size)))
        return NULL;
    b->next = r->blocks;
    r->blocks = b;
    return b->data;
}

/* Forget the current reply, finished or not. */
static void release(redlock__reader *r)
{
    while (__builtin_expect(r->blocks != NULL, 0)) {
        struct block *b = r->blocks;
        r->blocks = b->next;
        free(b);
    }
    r->elements = 0;
    r->bytes = 0;
    r->depth = 0;
    r->done = 0;    /* top is set again by the item that completes the next reply */
}

/* The reader fails for good: the first reason wins.  Returns -1. */
__attribute__((format(printf, 2, 3)))
static int refuse(redlock__reader *r, const char *fmt, ...)
{
    if (!r->why[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->why, sizeof r->why, fmt, ap);
        va_end(ap);
    }
    r->failed = 1;
    release(r);
    free(r->buf);
    r->buf = NULL;
    r->pos = r->len = r->cap = r->scanned = 0;
    return -1;
}

/* The end of the line that starts at pos: the offset of its CR, or 0 when
 * the line is not complete yet (a line holds at least its type byte). */
static inline size_t line_end(redlock__reader *r)
{
    /* after the type byte, or where the last search stopped */
    size_t from = r->pos + (r->scanned ? r->scanned - 1 : 1);
    const char *p = r->buf + from, *end = r->buf + r->len;

    /* the lines of the hot path ("+OK", ":1", "$-1") end within 3 bytes */
    if (end - p >= 4) {
        for (int i = 0; i < 3; i++)
            if (p[i] == '\r' && p[i + 1] == '\n')
                return (size_t)(p + i - r->buf);
    }
    for (; p < end && (p = memchr(p, '\r', (size_t)(end - p))) != NULL; p++) {
        if (p + 1 == end)
            break;
        if (p[1] == '\n')
            return (size_t)(p - r->buf);
    }
    r->scanned = r->len - r->pos;
    return 0;
}

/* A strict decimal: "0", or an optional '-' (if allowed) and digits without
 * a leading zero, within long long.  0 or -1. */
static int parse_ll(const char *s, size_t n, long long *out)
{
    unsigned long long v = 0, limit = (unsigned long long)INT64_MAX;
    int neg = 0;

    if (n && s[0] == '-') {
        neg = 1;
        limit++;
        s++;
        n--;
    }
    if (n == 0 || n > 19 || (s[0] == '0' && (n > 1 || neg)))
        return -1;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (d > 9)
            return -1;
        v = v * 10 + d;     /* 19 digits fit in 64 bits unsigned */
    }
    if (v > limit)
        return -1;
    *out = neg ? (long long)(0 - v) : (long long)v;
    return 0;
}

static int string_refused(redlock__reader *r, size_t len)
{
    if (r->bytes)
        return refuse(r, "string of %zu bytes exceeds the limit of %d bytes "
                      "per reply (%zu already used)", len, REDLOCK__REPLY_MAX_BYTES, r->bytes);
    return refuse(r, "string of %zu bytes exceeds the limit of %d bytes per reply",
                  len, REDLOCK__REPLY_MAX_BYTES);
}

static inline int string_budget(redlock__reader *r, size_t len)
{
    return len <= REDLOCK__REPLY_MAX_BYTES - r->bytes ? 0 : string_refused(r, len);
}

/* s[len] is the CR that ends the string, already consumed. */
static inline int set_string(redlock__reader *r, redlock__reply *o, int type, char *s, size_t len)
{
    char *dst = s;

    /* A top-level string stays where it is in the input, its CR turned
     * into the terminator: nothing moves the input before the next call.
     * A string in an array is copied, since the input may move (a feed)
     * before the array is complete. */
    if (o != &r->top) {
        if (!(dst = take(r, len + 1)))
            return refuse(r, "out of memory");
        memcpy(dst, s, len);
    }
    dst[len] = '\0';
    r->bytes += len;
    *o = empty;
    o->type = type;
    o->str = dst;
    o->len = len;
    return 1;
}

/* An array header of n elements at depth r->depth + 1. */
static int set_array(redlock__reader *r, redlock__reply *o, long long count)
{
    redlock__reply *kids = NULL, **ptrs = NULL;
    size_t n = (size_t)count;

    if (r->depth + 1 > REDLOCK__REPLY_MAX_DEPTH)
        return refuse(r, "arrays nested deeper than %d levels", REDLOCK__REPLY_MAX_DEPTH);
    if ((unsigned long long)count > REDLOCK__REPLY_MAX_ELEMENTS - r->elements) {
        if (r->elements)
            return refuse(r, "array of %lld elements exceeds the limit of %d elements "
                          "per reply (%zu already used)", count, REDLOCK__REPLY_MAX_ELEMENTS,
                          r->elements);
        return refuse(r, "array of %lld elements exceeds the limit of %d elements per reply",
                      count, REDLOCK__REPLY_MAX_ELEMENTS);
    }
    if (n) {
        /* the children first: their alignment suits the pointers after them */
        if (!(kids = take(r, n * (sizeof *kids + sizeof *ptrs))))
            return refuse(r, "out of memory");
        ptrs = (redlock__reply **)(kids + n);
        for (size_t i = 0; i < n; i++) {
            kids[i] = empty;
            ptrs[i] = &kids[i];
        }
        r->stack[r->depth].array = o;
        r->stack[r->depth].next = 0;
        r->depth++;
    }
    r->elements += n;
    *o = empty;
    o->type = REDLOCK__REPLY_ARRAY;
    o->elements = n;
    o->element = ptrs;
    return 1;
}

/* Parse the item at pos into o: 1 (taken), 0 (incomplete), -1 (failed). */
static int item(redlock__reader *r, redlock__reply *o)
{
    char type = r->buf[r->pos];
    char *s;
    size_t eol, n;
    long long v;

    if (type != '+' && type != '-' && type != ':' && type != '$' && type != '*') {
        if (type > 0x20 && type < 0x7f)
            return refuse(r, "protocol error: got \"%c\" as reply type byte", type);
        return refuse(r, "protocol error: got \"\\x%02x\" as reply type byte", (unsigned char)type);
    }
    if (!(eol = line_end(r)))
        return 0;
    s = r->buf + r->pos + 1;
    n = eol - r->pos - 1;
    switch (type) {
    case '+':
    case '-':
        if (string_budget(r, n) != 0 ||
            set_string(r, o, type == '+' ? REDLOCK__REPLY_STATUS : REDLOCK__REPLY_ERROR, s, n) < 0)
            return -1;
        break;
    case ':':
        if (n == 1 && (unsigned)(s[0] - '0') <= 9)
            v = s[0] - '0';     /* :0 and :1, the replies of the scripts */
        else if (parse_ll(s, n, &v) != 0)
            return refuse(r, "protocol error: bad integer value");
        *o = empty;
        o->type = REDLOCK__REPLY_INTEGER;
        o->integer = v;
        break;
    case '$':
        if (parse_ll(s, n, &v) != 0 || v < -1)
            return refuse(r, "protocol error: bad bulk string length");
        if (v == -1) {
            *o = empty;
            break;
        }
        if (string_budget(r, (size_t)v) != 0)
            return -1;
        if (r->len - (eol + 2) < (size_t)v + 2)
            return 0;   /* the header is read again with the bytes: a few cycles */
        s = r->buf + eol + 2;
        if (s[v] != '\r' || s[v + 1] != '\n')
            return refuse(r, "protocol error: bulk string not ended by CRLF");
        if (set_string(r, o, REDLOCK__REPLY_STRING, s, (size_t)v) < 0)
            return -1;
        eol += 2 + (size_t)v;
        break;
    default:    /* '*' */
        if (parse_ll(s, n, &v) != 0 || v < -1)
            return refuse(r, "protocol error: bad multi-bulk length");
        if (v == -1)
            *o = empty;     /* RESP2's nil array: a nil like $-1 */
        else if (set_array(r, o, v) < 0)
            return -1;
        break;
    }
    r->pos = eol + 2;
    r->scanned = 0;
    return 1;
}

redlock__reader *redlock__reader_new(void)
{
    redlock__reader *r = calloc(1, sizeof *r);

    if (r)
        release(r);
    return r;
}

void redlock__reader_free(redlock__reader *r)
{
    if (!r)
        return;
    release(r);
    free(r->buf);
    free(r);
}

int redlock__reader_feed(redlock__reader *r, const char *buf, size_t len)
{
    if (r->failed)
        return -1;
    if (r->done)
        release(r);
    if (!len)
        return 0;
    if (r->pos == r->len) {
        r->pos = r->len = 0;
        if (r->cap > KEEP_BUF && len <= KEEP_BUF) {
            free(r->buf);   /* one large reply does not keep its buffer */
            r->buf = NULL;
            r->cap = 0;
        }
    } else if (r->pos && len > r->cap - r->len) {
        /* keep the unparsed bytes only */
        memmove(r->buf, r->buf + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (len > r->cap - r->len) {
        size_t cap = r->cap ? r->cap : 1024;
        char *p;
        while (cap - r->len < len) {
            if (cap > SIZE_MAX / 2)
                return refuse(r, "out of memory");
            cap *= 2;
        }
        if (!(p = realloc(r->buf, cap)))
            return refuse(r, "out of memory");
        r->buf = p;
        r->cap = cap;
    }
    memcpy(r->buf + r->len, buf, len);
    r->len += len;
    return 0;
}

int redlock__reader_next(redlock__reader *r, const redlock__reply **out)
{
    *out = NULL;
    if (r->failed)
        return -1;
    if (r->done)
        release(r);
    while (r->pos < r->len) {
        struct frame *f = r->depth ? &r->stack[r->depth - 1] : NULL;
        redlock__reply *o = f ? f->array->element[f->next] : &r->top;
        int depth = r->depth, rc = item(r, o);

        if (rc <= 0)
            return rc;
        if (r->depth > depth)
            continue;   /* a new array: its elements come next */
        /* o is complete: so is every array it completes */
        while (r->depth && ++r->stack[r->depth - 1].next == r->stack[r->depth - 1].array->elements)
            r->depth--;
        if (r->depth)
            continue;
        r->done = 1;
        if (r->pos == r->len)       /* all parsed: the next feed starts over */
            r->pos = r->len = 0;
        *out = &r->top;
        return 1;
    }
    return 0;
}

const char *redlock__reader_error(const redlock__reader *r)
{
    return r->why;
}

size_t redlock__reader_pending(const redlock__reader *r)
{
    return r->len - r->pos;
}

/* ---- the command encoder --------------------------------------------- */

int redlock__buf_grow(redlock__buf *b, size_t extra)
{
    size_t want = b->len + extra, cap = b->cap ? b->cap : 128;
    char *p;

    if (extra > SIZE_MAX / 2 - b->len)
        return REDLOCK_ENOMEM;
    if (want <= b->cap)
        return 0;
    while (cap < want)
        cap *= 2;
    if (!(p = realloc(b->p, cap)))
        return REDLOCK_ENOMEM;
    b->p = p;
    b->cap = cap;
    return 0;
}

void redlock__buf_free(redlock__buf *b)
{
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

size_t redlock__u64_str(char *out, uint64_t v)
{
    char digits[20];
    size_t k = 0, len = 0;

    if (v < 10) {           /* most lengths and counts in a command */
        out[0] = (char)('0' + v);
        return 1;
    }
    if (v < 100) {
        out[0] = (char)('0' + v / 10);
        out[1] = (char)('0' + v % 10);
        return 2;
    }
    do {
        digits[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (k)
        out[len++] = digits[--k];
    return len;
}

static inline size_t put_header(char *p, char type, size_t n)
{
    size_t len;

    p[0] = type;
    if (n < 10) {           /* most lengths and counts in a command */
        p[1] = (char)('0' + n);
        len = 2;
    } else if (n < 100) {
        p[1] = (char)('0' + n / 10);
        p[2] = (char)('0' + n % 10);
        len = 3;
    } else {
        len = 1 + redlock__u64_str(p + 1, n);
    }
    p[len++] = '\r';
    p[len++] = '\n';
    return len;
}

/* *argc\r\n then $len\r\narg\r\n per argument. */
int redlock__resp_command(redlock__buf *b, int argc, const char *const *argv,
                          const size_t *argvlen)
{
    size_t need = 24;
    char *p;

    for (int i = 0; i < argc; i++)
        need += argvlen[i] + 26;
    if (redlock__buf_reserve(b, need) != 0)
        return REDLOCK_ENOMEM;
    p = b->p + b->len;
    p += put_header(p, '*', (size_t)argc);
    for (int i = 0; i < argc; i++) {
        p += put_header(p, '$', argvlen[i]);
        memcpy(p, argv[i], argvlen[i]);
        p += argvlen[i];
        *p++ = '\r';
        *p++ = '\n';
    }
    b->len = (size_t)(p - b->p);
    return 0;
}
