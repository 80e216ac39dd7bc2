/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* resp.c -- bounded RESP2 replies, parsed by hiredis's reader (see resp.h).
 *
 * hiredis parses; our redisReplyObjectFunctions build the reply inside the
 * reader.  The top-level object is the reader's own redlock__reply, and a
 * top-level string shorter than 128 bytes goes to an inline buffer, so the
 * replies of the hot path (+OK, :1, $-1) allocate nothing.
 *
 * An array is checked before anything is allocated for it: its depth, and
 * its element count against what is left of the reply's element budget.
 * hiredis 0.14's own functions would calloc whatever count a reply
 * announces ("*2147483647" asked for 16 GiB).  An accepted array of n
 * elements is one allocation: n child objects and n pointers to them, so
 * that the functions creating the children only fill them in.  Strings in
 * arrays are copied to allocations of their own, and the bytes of all the
 * strings of one reply are bounded as well.
 *
 * Ownership: every allocation of the reply being built is on a list owned
 * by the reader, freed as a whole when the next reply is asked for, when
 * the reader fails, and in _free.  freeObject does nothing: hiredis calls
 * it on the half-built top object when it meets an error (and in
 * redisReaderFree), and the list makes that irrelevant, so no reply can be
 * freed twice or leak whatever the point where parsing stops.
 *
 * A create function that refuses returns NULL; hiredis then records "Out of
 * memory" and fails, and our own reason (why) takes precedence.
 */
#include "redlock_private.h"   /* resp.h, and the encoder's buffer */

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hiredis/hiredis.h>

#define SMALL 128               /* a top-level string shorter than this is inline */

struct block {
    struct block *next;
    max_align_t data[];
};

struct redlock__reader {
    redisReader *hr;
    redisReplyObjectFunctions fn;   /* hiredis keeps a pointer to it */
    redlock__reply top;             /* the reply's top-level object */
    struct block *blocks;           /* everything allocated for the reply */
    size_t elements;                /* array elements in the reply so far */
    size_t bytes;                   /* string bytes copied in the reply so far */
    int done;                       /* top is a returned reply: release it first */
    int failed;
    char why[192];                  /* "" until failed */
    char small[SMALL];
};

static const redlock__reply empty = {REDIS_REPLY_NIL, 0, "", 0, 0, NULL};

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
    while (r->blocks) {
        struct block *b = r->blocks;
        r->blocks = b->next;
        free(b);
    }
    r->elements = 0;
    r->bytes = 0;
    r->done = 0;
    r->top = empty;
}

/* Returns NULL, for the create functions to return: the first reason wins. */
__attribute__((format(printf, 2, 3)))
static void *refuse(redlock__reader *r, const char *fmt, ...)
{
    if (!r->why[0]) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->why, sizeof r->why, fmt, ap);
        va_end(ap);
    }
    return NULL;
}

/* The object a task creates: the top-level one, or its place among the
 * children allocated with its parent array. */
static redlock__reply *slot(const redisReadTask *task)
{
    redlock__reader *r = task->privdata;
    const redlock__reply *parent;

    if (!task->parent)
        return &r->top;
    parent = task->parent->obj;
    if (!parent || parent->type != REDIS_REPLY_ARRAY || task->idx < 0 ||
        (size_t)task->idx >= parent->elements)
        return refuse(r, "protocol error: the reader lost its place in an array");
    return parent->element[task->idx];
}

static void *on_string(const redisReadTask *task, char *str, size_t len)
{
    redlock__reader *r = task->privdata;
    redlock__reply *o;
    char *dst;

    if (task->type != REDIS_REPLY_STRING && task->type != REDIS_REPLY_STATUS &&
        task->type != REDIS_REPLY_ERROR)
        return refuse(r, "protocol error: unexpected RESP3 reply (type %d)", task->type);
    if (len > REDLOCK__REPLY_MAX_BYTES - r->bytes) {
        if (r->bytes)
            return refuse(r, "string of %zu bytes exceeds the limit of %d bytes "
                          "per reply (%zu already used)", len, REDLOCK__REPLY_MAX_BYTES, r->bytes);
        return refuse(r, "string of %zu bytes exceeds the limit of %d bytes per reply",
                      len, REDLOCK__REPLY_MAX_BYTES);
    }
    if (!(o = slot(task)))
        return NULL;
    if (!task->parent && len < SMALL)
        dst = r->small;
    else if (!(dst = take(r, len + 1)))
        return refuse(r, "out of memory");
    memcpy(dst, str, len);
    dst[len] = '\0';
    r->bytes += len;
    *o = empty;
    o->type = task->type;
    o->str = dst;
    o->len = len;
    return o;
}

#if HIREDIS_MAJOR >= 1
static void *on_array(const redisReadTask *task, size_t count)
#else
static void *on_array(const redisReadTask *task, int count)
#endif
{
    redlock__reader *r = task->privdata;
    const redisReadTask *t;
    redlock__reply *o, *kids = NULL, **ptrs = NULL;
    size_t n, depth = 0;

    if (task->type != REDIS_REPLY_ARRAY)
        return refuse(r, "protocol error: unexpected RESP3 reply (type %d)", task->type);
#if HIREDIS_MAJOR < 1
    if (count < 0)      /* hiredis turns *-1 into nil and refuses below -1 itself */
        return refuse(r, "protocol error: array of %d elements", count);
#endif
    n = (size_t)count;
    for (t = task; t; t = t->parent)
        depth++;
    if (depth > REDLOCK__REPLY_MAX_DEPTH)
        return refuse(r, "arrays nested deeper than %d levels", REDLOCK__REPLY_MAX_DEPTH);
    if (n > REDLOCK__REPLY_MAX_ELEMENTS - r->elements) {
        if (r->elements)
            return refuse(r, "array of %zu elements exceeds the limit of %d elements "
                          "per reply (%zu already used)", n, REDLOCK__REPLY_MAX_ELEMENTS, r->elements);
        return refuse(r, "array of %zu elements exceeds the limit of %d elements per reply",
                      n, REDLOCK__REPLY_MAX_ELEMENTS);
    }
    if (!(o = slot(task)))
        return NULL;
    if (n) {
        /* the children first: their alignment suits the pointers after them */
        if (!(kids = take(r, n * (sizeof *kids + sizeof *ptrs))))
            return refuse(r, "out of memory");
        ptrs = (redlock__reply **)(kids + n);
        for (size_t i = 0; i < n; i++) {
            kids[i] = empty;
            ptrs[i] = &kids[i];
        }
    }
    r->elements += n;
    *o = empty;
    o->type = REDIS_REPLY_ARRAY;
    o->elements = n;
    o->element = ptrs;
    return o;
}

static void *on_integer(const redisReadTask *task, long long value)
{
    redlock__reply *o = slot(task);

    if (!o)
        return NULL;
    *o = empty;
    o->type = REDIS_REPLY_INTEGER;
    o->integer = value;
    return o;
}

/* $-1, *-1 (and RESP3's _ in hiredis 1.x): all one nil. */
static void *on_nil(const redisReadTask *task)
{
    redlock__reply *o = slot(task);

    if (!o)
        return NULL;
    *o = empty;
    return o;
}

#if HIREDIS_MAJOR >= 1
/* RESP3 types: never asked for (no HELLO 3), refused. */
static void *on_double(const redisReadTask *task, double d, char *str, size_t len)
{
    (void)d;
    (void)str;
    (void)len;
    return refuse(task->privdata, "protocol error: unexpected RESP3 double");
}

static void *on_bool(const redisReadTask *task, int b)
{
    (void)b;
    return refuse(task->privdata, "protocol error: unexpected RESP3 boolean");
}
#endif

static void on_free(void *obj)
{
    (void)obj;      /* the reader owns everything: see release() */
}

/* The reader has failed: say why once, and drop the half-built reply. */
static void fail(redlock__reader *r)
{
    if (!r->why[0]) {
        const char *e = r->hr->errstr;
        static const char hiredis_prefix[] = "Protocol error, ";

        switch (r->hr->err) {
        case REDIS_ERR_PROTOCOL:
            if (!strncmp(e, hiredis_prefix, sizeof hiredis_prefix - 1))
                e += sizeof hiredis_prefix - 1;
            if (!e[0]) {
                snprintf(r->why, sizeof r->why, "protocol error");
            } else {
                /* "Bad integer value": "protocol error: bad integer value" */
                char first = e[0];
                if (first >= 'A' && first <= 'Z' && e[1] >= 'a' && e[1] <= 'z')
                    first = (char)(first - 'A' + 'a');
                snprintf(r->why, sizeof r->why, "protocol error: %c%s", first, e + 1);
            }
            break;
        case 0:             /* hiredis 1.x: sdsrange failed, err not set */
        case REDIS_ERR_OOM:
            snprintf(r->why, sizeof r->why, "out of memory");
            break;
        default:
            snprintf(r->why, sizeof r->why, "reader error: %s", e);
            break;
        }
    }
    r->failed = 1;
    release(r);
}

redlock__reader *redlock__reader_new(void)
{
    redlock__reader *r = calloc(1, sizeof *r);

    if (!r)
        return NULL;
    r->fn.createString = on_string;
    r->fn.createArray = on_array;
    r->fn.createInteger = on_integer;
    r->fn.createNil = on_nil;
#if HIREDIS_MAJOR >= 1
    r->fn.createDouble = on_double;
    r->fn.createBool = on_bool;
#endif
    r->fn.freeObject = on_free;
    if (!(r->hr = redisReaderCreateWithFunctions(&r->fn))) {
        free(r);
        return NULL;
    }
    r->hr->privdata = r;
    release(r);
    return r;
}

void redlock__reader_free(redlock__reader *r)
{
    if (!r)
        return;
    redisReaderFree(r->hr);     /* its freeObject call, if any, does nothing */
    release(r);
    free(r);
}

int redlock__reader_feed(redlock__reader *r, const char *buf, size_t len)
{
    if (r->failed)
        return -1;
    if (r->done)
        release(r);
    if (redisReaderFeed(r->hr, buf, len) != REDIS_OK) {
        fail(r);
        return -1;
    }
    return 0;
}

int redlock__reader_next(redlock__reader *r, const redlock__reply **out)
{
    void *reply = NULL;

    *out = NULL;
    if (r->failed)
        return -1;
    if (r->done)
        release(r);
    if (redisReaderGetReply(r->hr, &reply) != REDIS_OK) {
        fail(r);
        return -1;
    }
    if (!reply)
        return 0;
    if (reply != &r->top) {     /* cannot happen: every object is ours */
        refuse(r, "protocol error: the reader returned a foreign reply");
        fail(r);
        return -1;
    }
    r->done = 1;
    *out = &r->top;
    return 1;
}

const char *redlock__reader_error(const redlock__reader *r)
{
    return r->why;
}

size_t redlock__reader_pending(const redlock__reader *r)
{
    return r->hr->len - r->hr->pos;
}

/* ---- the command encoder --------------------------------------------- */

int redlock__buf_reserve(redlock__buf *b, size_t extra)
{
    size_t want = b->len + extra, cap = b->cap ? b->cap : 128;
    char *p;

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

static size_t put_header(char *p, char type, size_t n)
{
    size_t len;

    p[0] = type;
    len = 1 + redlock__u64_str(p + 1, n);
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
