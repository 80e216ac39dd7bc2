/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* t_resp.c -- the bounded reply reader (resp.c); no server needed.
 *
 *   cc -std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -I. -Itest \
 *      -Itest/support -o /tmp/t_resp test/unit/t_resp.c test/support/check.c resp.c && /tmp/t_resp
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "check.h"
#include "floor/resp.h"

/* ---- helpers ------------------------------------------------------------ */

static redlock__reader *reader(void)
{
    redlock__reader *r = redlock__reader_new();
    CHECK(r != NULL);
    CHECK_STREQ(redlock__reader_error(r), "");
    CHECK_EQ(redlock__reader_pending(r), 0);
    return r;
}

static void feed(redlock__reader *r, const char *buf, size_t len)
{
    CHECK_EQ(redlock__reader_feed(r, buf, len), 0);
}

static void feeds(redlock__reader *r, const char *s)
{
    feed(r, s, strlen(s));
}

/* The next reply, which must be complete. */
static const redlock__reply *next(redlock__reader *r)
{
    const redlock__reply *x = NULL;
    int rc = redlock__reader_next(r, &x);
    CHECK_MSG(rc == 1, "rc %d, error \"%s\"", rc, redlock__reader_error(r));
    CHECK(x != NULL);
    return x;
}

static void none(redlock__reader *r)
{
    const redlock__reply *x = (const redlock__reply *)1;
    int rc = redlock__reader_next(r, &x);
    CHECK_MSG(rc == 0, "rc %d, error \"%s\"", rc, redlock__reader_error(r));
    CHECK(x == NULL);
}

/* The reader must fail, saying something that starts with prefix. */
static void refused(redlock__reader *r, const char *prefix)
{
    const redlock__reply *x = (const redlock__reply *)1;
    const char *why;

    CHECK_EQ(redlock__reader_next(r, &x), -1);
    CHECK(x == NULL);
    why = redlock__reader_error(r);
    CHECK_MSG(!strncmp(why, prefix, strlen(prefix)), "error \"%s\", expected \"%s...\"", why, prefix);
    CHECK_LT(strlen(why), 160);
    /* and it stays failed */
    CHECK_EQ(redlock__reader_next(r, &x), -1);
    CHECK_EQ(redlock__reader_feed(r, "+OK\r\n", 5), -1);
    CHECK_EQ(redlock__reader_next(r, &x), -1);
    CHECK_EQ(redlock__reader_pending(r), 0);
    CHECK(!strncmp(redlock__reader_error(r), prefix, strlen(prefix)));
}

/* The whole input s must fail (REFUSE: a string literal). */
static void refuse_input(const char *s, size_t len, const char *prefix)
{
    redlock__reader *r = reader();
    feed(r, s, len);
    refused(r, prefix);
    redlock__reader_free(r);
}

#define REFUSE(lit, prefix) refuse_input(lit, sizeof lit - 1, prefix)

/* Checks a reply's invariants, returns a canonical text of it. */
static size_t show(const redlock__reply *x, char *out, size_t size, size_t at, int depth)
{
    CHECK(x != NULL);
    CHECK(x->str != NULL);
    switch (x->type) {
    case REDLOCK__REPLY_STATUS:
    case REDLOCK__REPLY_ERROR:
    case REDLOCK__REPLY_STRING:
        CHECK_EQ(x->str[x->len], '\0');
        at += snprintf(out + at, size - at, "%c%zu:",
                       x->type == REDLOCK__REPLY_STATUS ? '+' : x->type == REDLOCK__REPLY_ERROR ? '-' : '$',
                       x->len);
        for (size_t i = 0; i < x->len && at + 5 < size; i++) {
            unsigned char c = (unsigned char)x->str[i];
            if (c >= 0x20 && c < 0x7f && c != '\\')
                out[at++] = (char)c;
            else
                at += snprintf(out + at, size - at, "\\%02x", c);
        }
        out[at] = '\0';
        break;
    case REDLOCK__REPLY_INTEGER:
        CHECK_EQ(x->len, 0);
        CHECK_STREQ(x->str, "");
        at += snprintf(out + at, size - at, ":%lld", x->integer);
        break;
    case REDLOCK__REPLY_NIL:
        CHECK_EQ(x->len, 0);
        CHECK_STREQ(x->str, "");
        at += snprintf(out + at, size - at, "nil");
        break;
    case REDLOCK__REPLY_ARRAY:
        CHECK_EQ(x->len, 0);
        CHECK_STREQ(x->str, "");
        CHECK(x->elements == 0 || x->element != NULL);
        CHECK_LE(depth, REDLOCK__REPLY_MAX_DEPTH);
        at += snprintf(out + at, size - at, "[");
        for (size_t i = 0; i < x->elements; i++) {
            if (i)
                at += snprintf(out + at, size - at, ",");
            at = show(x->element[i], out, size, at, depth + 1);
        }
        at += snprintf(out + at, size - at, "]");
        break;
    default:
        CHECK_MSG(0, "type %d", x->type);
    }
    CHECK_LT(at, size);
    return at;
}

static const char *text(const redlock__reply *x)
{
    static char buf[8192];
    show(x, buf, sizeof buf, 0, 1);
    return buf;
}

/* All the replies in s, fed in chunks of chunk bytes: their texts, ";"-separated. */
static void parse_chunked(const char *s, size_t len, size_t chunk, char *out, size_t size)
{
    redlock__reader *r = reader();
    const redlock__reply *x;
    size_t at = 0, fed = 0;
    int rc;

    out[0] = '\0';
    while (fed < len) {
        size_t n = len - fed < chunk ? len - fed : chunk;
        feed(r, s + fed, n);
        fed += n;
        CHECK_LE(redlock__reader_pending(r), fed);
        while ((rc = redlock__reader_next(r, &x)) == 1) {
            at += snprintf(out + at, size - at, "%s;", text(x));
            CHECK_LT(at, size);
        }
        CHECK_MSG(rc == 0, "rc %d, error \"%s\"", rc, redlock__reader_error(r));
    }
    CHECK_EQ(redlock__reader_pending(r), 0);
    redlock__reader_free(r);
}

static size_t heap_in_use(void)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
#else
    return 0;
#endif
}

/* ---- simple replies -------------------------------------------------------- */

TEST(resp_simple_replies)
{
    redlock__reader *r = reader();
    const redlock__reply *x;

    /* (text: the type, the length and the bytes; an integer's or a nil's
     * str empty) */
    feeds(r, "+OK\r\n");
    x = next(r);
    CHECK_STREQ(text(x), "+2:OK");
    CHECK_EQ(x->elements, 0);
    none(r);

    feeds(r, "-ERR wrong number of arguments\r\n");
    CHECK_STREQ(text(next(r)), "-29:ERR wrong number of arguments");
    feeds(r, ":1\r\n");
    CHECK_STREQ(text(next(r)), ":1");

    feeds(r, ":-9223372036854775808\r\n:9223372036854775807\r\n:0\r\n");
    CHECK_EQ(next(r)->integer, -9223372036854775807LL - 1);
    CHECK_EQ(next(r)->integer, 9223372036854775807LL);
    CHECK_EQ(next(r)->integer, 0);

    feeds(r, "$-1\r\n");
    CHECK_STREQ(text(next(r)), "nil");
    feeds(r, "$0\r\n\r\n");
    CHECK_STREQ(text(next(r)), "$0:");

    feeds(r, "$5\r\nhello\r\n");
    x = next(r);
    CHECK_EQ(x->type, REDLOCK__REPLY_STRING);
    CHECK_STREQ(x->str, "hello");
    CHECK_EQ(x->len, 5);
    none(r);
    CHECK_EQ(redlock__reader_pending(r), 0);
    redlock__reader_free(r);
}

TEST(resp_bulk_strings)
{
    static const size_t sizes[] = {1, 126, 127, 128, 129, 1000, 20000, REDLOCK__REPLY_MAX_BYTES};
    redlock__reader *r = reader();

    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        char *msg = malloc(n + 32);
        int hdr;
        const redlock__reply *x;

        CHECK(msg != NULL);
        hdr = snprintf(msg, 32, "$%zu\r\n", n);
        for (size_t i = 0; i < n; i++)
            msg[hdr + i] = (char)('a' + i % 26);
        memcpy(msg + hdr + n, "\r\n", 2);
        feed(r, msg, hdr + n + 2);
        x = next(r);
        CHECK_EQ(x->type, REDLOCK__REPLY_STRING);
        CHECK_EQ(x->len, n);
        CHECK(!memcmp(x->str, msg + hdr, n));
        CHECK_EQ(x->str[n], '\0');
        none(r);
        free(msg);
    }
    redlock__reader_free(r);
}

TEST(resp_binary_string)
{
    static const char msg[] = "$9\r\na\0b\r\n\0\xff\x01z\r\n+OK\r\n";
    redlock__reader *r = reader();
    const redlock__reply *x;

    feed(r, msg, sizeof msg - 1);
    x = next(r);
    CHECK_EQ(x->type, REDLOCK__REPLY_STRING);
    CHECK_EQ(x->len, 9);
    CHECK(!memcmp(x->str, "a\0b\r\n\0\xff\x01z", 9));
    CHECK_EQ(x->str[9], '\0');
    CHECK_STREQ(next(r)->str, "OK");
    none(r);
    redlock__reader_free(r);
}

/* The replies of the hot path are built in the reader: no allocation, and
 * a top-level string of any length is not copied either. */
TEST(resp_small_replies_allocate_nothing)
{
    static char big[8000];
    static const char *const msgs[] = {
        "+OK\r\n", ":1\r\n", "$-1\r\n", "-ERR x\r\n", "*-1\r\n", "*0\r\n",
        "$40\r\n0123456789012345678901234567890123456789\r\n", big,
    };
    redlock__reader *r = reader();
    int n = snprintf(big, sizeof big, "$%zu\r\n", sizeof big - 16);

    memset(big + n, 'b', sizeof big - 16);
    memcpy(big + n + sizeof big - 16, "\r\n", 3);
    for (int round = 0; round < 3; round++) {
        for (size_t i = 0; i < sizeof msgs / sizeof *msgs; i++) {
            size_t before;
            const redlock__reply *x;

            feeds(r, msgs[i]);
            before = heap_in_use();
            x = next(r);
            CHECK_EQ(heap_in_use(), before);    /* still held: nothing was allocated */
            CHECK_EQ(x->str[x->len], '\0');
            if (msgs[i] == big)
                CHECK_EQ(x->len, sizeof big - 16);
        }
    }
    redlock__reader_free(r);
}

/* ---- feeding ---------------------------------------------------------------- */

static const char stream[] =
    "+OK\r\n"
    ":1\r\n"
    "$-1\r\n"
    "*2\r\n$10\r\n1700000000\r\n$6\r\n123456\r\n"
    "-NOSCRIPT No matching script\r\n"
    "$3\r\na\0b\r\n"
    "*0\r\n"
    "*-1\r\n"
    "*3\r\n*2\r\n:1\r\n$-1\r\n*0\r\n+x\r\n"
    "$130\r\n"
    "0123456789012345678901234567890123456789012345678901234567890123456789"
    "012345678901234567890123456789012345678901234567890123456789\r\n"
    ":-5\r\n";

static const char stream_text[] =
    "+2:OK;"
    ":1;"
    "nil;"
    "[$10:1700000000,$6:123456];"
    "-27:NOSCRIPT No matching script;"
    "$3:a\\00b;"
    "[];"
    "nil;"
    "[[:1,nil],[],+1:x];"
    "$130:0123456789012345678901234567890123456789012345678901234567890123456789"
    "012345678901234567890123456789012345678901234567890123456789;"
    ":-5;";

TEST(resp_several_replies_in_one_feed)
{
    char out[4096];
    parse_chunked(stream, sizeof stream - 1, sizeof stream, out, sizeof out);
    CHECK_STREQ(out, stream_text);
}

TEST(resp_split_across_feeds)
{
    char out[4096];

    /* byte by byte, and every other chunk size */
    for (size_t chunk = 1; chunk < sizeof stream; chunk++) {
        parse_chunked(stream, sizeof stream - 1, chunk, out, sizeof out);
        CHECK_MSG(!strcmp(out, stream_text), "chunk %zu: %s", chunk, out);
    }
}

TEST(resp_partial_reply_then_rest)
{
    redlock__reader *r = reader();
    const redlock__reply *x;

    feeds(r, "*2\r\n$10\r\n17000");
    none(r);
    CHECK_GT(redlock__reader_pending(r), 0);
    none(r);                                /* asking again changes nothing */
    feeds(r, "00000\r\n$6\r\n12");
    none(r);
    feeds(r, "3456\r\n+O");
    x = next(r);
    CHECK_STREQ(text(x), "[$10:1700000000,$6:123456]");
    none(r);
    /* "+O": an item is taken only when it is complete */
    CHECK_EQ(redlock__reader_pending(r), 2);
    feeds(r, "K\r\n");
    CHECK_STREQ(next(r)->str, "OK");
    CHECK_EQ(redlock__reader_pending(r), 0);
    redlock__reader_free(r);
}

/* ---- arrays --------------------------------------------------------------------- */

TEST(resp_time_reply)
{
    redlock__reader *r = reader();

    feeds(r, "*2\r\n$10\r\n1700000000\r\n$6\r\n123456\r\n");
    /* (text: an array with an empty str, two strings, their lengths) */
    CHECK_STREQ(text(next(r)), "[$10:1700000000,$6:123456]");
    none(r);
    redlock__reader_free(r);
}

TEST(resp_empty_and_nil_arrays)
{
    redlock__reader *r = reader();

    feeds(r, "*0\r\n");
    CHECK_STREQ(text(next(r)), "[]");
    /* RESP2's nil array: a nil, like $-1 */
    feeds(r, "*-1\r\n");
    CHECK_STREQ(text(next(r)), "nil");

    feeds(r, "*3\r\n*0\r\n*-1\r\n$-1\r\n");
    CHECK_STREQ(text(next(r)), "[[],nil,nil]");
    none(r);
    redlock__reader_free(r);

    REFUSE("*-2\r\n", "protocol error: ");
    REFUSE("*-2147483648\r\n", "protocol error: ");
}

TEST(resp_nested_arrays_within_depth)
{
    redlock__reader *r = reader();
    const redlock__reply *x;

    /* a pub/sub message, then depth 4 exactly */
    feeds(r, "*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$5\r\nhello\r\n");
    CHECK_STREQ(text(next(r)), "[$7:message,$2:ch,$5:hello]");
    feeds(r, "*2\r\n*1\r\n*2\r\n*1\r\n:4\r\n:3\r\n:1\r\n");
    x = next(r);
    CHECK_STREQ(text(x), "[[[[:4],:3]],:1]");
    CHECK_EQ(x->element[0]->element[0]->element[0]->element[0]->integer, 4);
    feeds(r, "*1\r\n*1\r\n*1\r\n*0\r\n");
    CHECK_STREQ(text(next(r)), "[[[[]]]]");
    feeds(r, "*1\r\n*1\r\n*1\r\n*-1\r\n");     /* a nil array is no deeper */
    CHECK_STREQ(text(next(r)), "[[[nil]]]");
    none(r);
    redlock__reader_free(r);
}

TEST(resp_depth_exceeded)
{
    REFUSE("*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", "arrays nested deeper than 4 levels");
    REFUSE("*1\r\n*1\r\n*1\r\n*1\r\n*0\r\n", "arrays nested deeper than 4 levels");
    /* much deeper: refused at the fifth level */
    REFUSE("*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n*1\r\n:1\r\n", "arrays nested deeper than 4 levels");
    /* refused as soon as the fifth level is announced */
    {
        redlock__reader *r = reader();
        feeds(r, "*2\r\n:0\r\n*1\r\n*1\r\n*1\r\n");
        none(r);
        feeds(r, "*1\r\n");
        refused(r, "arrays nested deeper than 4 levels");
        redlock__reader_free(r);
    }
}

TEST(resp_huge_count_refused_at_once)
{
    int64_t t0 = check_now_us();

    REFUSE("*2147483647\r\n", "array of 2147483647 elements exceeds the limit of 1024");
    REFUSE("*1025\r\n", "array of 1025 elements exceeds");
    REFUSE("*4294967295\r\n", "array of 4294967295 elements exceeds");
    REFUSE("*9223372036854775807\r\n", "array of 9223372036854775807 elements exceeds");
    REFUSE("*2\r\n:1\r\n*2147483647\r\n", "array of 2147483647 elements exceeds");
    /* no 16 GiB calloc (ASan would also abort on one) */
    CHECK_LT(check_now_us() - t0, 500000);
}

TEST(resp_element_budget)
{
    redlock__reader *r = reader();
    char *buf = malloc(16 + 4 * REDLOCK__REPLY_MAX_ELEMENTS);
    size_t at;
    const redlock__reply *x;

    /* exactly the budget in one array */
    CHECK(buf != NULL);
    at = (size_t)sprintf(buf, "*%d\r\n", REDLOCK__REPLY_MAX_ELEMENTS);
    for (int i = 0; i < REDLOCK__REPLY_MAX_ELEMENTS; i++)
        at += (size_t)sprintf(buf + at, ":%d\r\n", i % 10);
    feed(r, buf, at);
    x = next(r);
    CHECK_EQ(x->elements, REDLOCK__REPLY_MAX_ELEMENTS);
    CHECK_EQ(x->element[1023]->integer, 3);
    none(r);

    /* across levels: 2 + 1000 + 22 = 1024 is fine ... */
    at = (size_t)sprintf(buf, "*2\r\n*1000\r\n");
    for (int i = 0; i < 1000; i++)
        at += (size_t)sprintf(buf + at, ":1\r\n");
    feed(r, buf, at);
    none(r);
    feeds(r, "*22\r\n");
    for (int i = 0; i < 22; i++)
        feeds(r, "$-1\r\n");
    x = next(r);
    CHECK_EQ(x->elements, 2);
    CHECK_EQ(x->element[0]->elements, 1000);
    CHECK_EQ(x->element[1]->elements, 22);
    none(r);

    /* ... 2 + 1000 + 23 is not, and the budget is per reply (the last one was released) */
    feed(r, buf, at);
    feeds(r, "*23\r\n");
    refused(r, "array of 23 elements exceeds the limit of 1024 elements per reply (1002 already used)");
    redlock__reader_free(r);
    free(buf);
}

TEST(resp_byte_budget)
{
    size_t half = REDLOCK__REPLY_MAX_BYTES / 2;
    char *buf = malloc(REDLOCK__REPLY_MAX_BYTES + 200);
    redlock__reader *r = reader();
    size_t at;
    const redlock__reply *x;

    CHECK(buf != NULL);
    /* two halves: exactly the budget */
    at = (size_t)sprintf(buf, "*2\r\n");
    for (int k = 0; k < 2; k++) {
        at += (size_t)sprintf(buf + at, "$%zu\r\n", half);
        memset(buf + at, 'x', half);
        at += half;
        at += (size_t)sprintf(buf + at, "\r\n");
    }
    feed(r, buf, at);
    x = next(r);
    CHECK_EQ(x->element[0]->len + x->element[1]->len, REDLOCK__REPLY_MAX_BYTES);
    CHECK_EQ(x->element[1]->str[half], '\0');
    none(r);

    /* one byte more: refused */
    at = (size_t)sprintf(buf, "*3\r\n$1\r\ny\r\n");
    feed(r, buf, at);
    none(r);
    for (int k = 0; k < 2; k++) {
        at = (size_t)sprintf(buf, "$%zu\r\n", half);
        memset(buf + at, 'x', half);
        at += half;
        at += (size_t)sprintf(buf + at, "\r\n");
        feed(r, buf, at);
    }
    refused(r, "string of 32768 bytes exceeds the limit of 65536 bytes per reply (32769 already used)");
    redlock__reader_free(r);

    /* a top-level string too */
    r = reader();
    at = (size_t)sprintf(buf, "$%d\r\n", REDLOCK__REPLY_MAX_BYTES + 1);
    memset(buf + at, 'x', REDLOCK__REPLY_MAX_BYTES + 1);
    at += REDLOCK__REPLY_MAX_BYTES + 1;
    at += (size_t)sprintf(buf + at, "\r\n");
    feed(r, buf, at);
    refused(r, "string of 65537 bytes exceeds the limit of 65536 bytes per reply");
    redlock__reader_free(r);
    free(buf);
}

/* ---- errors ------------------------------------------------------------------------ */

TEST(resp_protocol_garbage)
{
    char big[1200];

    REFUSE("!garbage\r\n", "protocol error: got \"!\" as reply type byte");
    REFUSE("\r\n", "protocol error: ");
    REFUSE("\x00\x01", "protocol error: ");
    REFUSE(":abc\r\n", "protocol error: bad integer value");
    REFUSE(":1 \r\n", "protocol error: ");
    REFUSE(":99999999999999999999\r\n", "protocol error: ");
    REFUSE("$abc\r\n", "protocol error: bad bulk string length");
    REFUSE("$-2\r\n", "protocol error: ");
    REFUSE("*x\r\n", "protocol error: bad multi-bulk length");
    /* RESP3 types: never asked for, refused */
    REFUSE(",1.5\r\n", "protocol error: ");
    REFUSE("#t\r\n", "protocol error: ");
    REFUSE("%1\r\n+a\r\n+b\r\n", "protocol error: ");
    REFUSE("~1\r\n+a\r\n", "protocol error: ");
    REFUSE(">2\r\n+a\r\n+b\r\n", "protocol error: ");
    REFUSE("(123\r\n", "protocol error: ");
    REFUSE("=7\r\ntxt:abc\r\n", "protocol error: ");
    REFUSE("_\r\n", "protocol error: got \"_\"");
    REFUSE("\x01\r\n", "protocol error: got \"\\x01\" as reply type byte");
    /* numbers are strict: no leading zero, no sign before 0, no '+', in range */
    REFUSE(":007\r\n", "protocol error: bad integer value");
    REFUSE(":-0\r\n", "protocol error: bad integer value");
    REFUSE(":+1\r\n", "protocol error: bad integer value");
    REFUSE(":-\r\n", "protocol error: bad integer value");
    REFUSE(":\r\n", "protocol error: bad integer value");
    REFUSE(":9223372036854775808\r\n", "protocol error: bad integer value");
    REFUSE(":-9223372036854775809\r\n", "protocol error: bad integer value");
    REFUSE("$05\r\nhello\r\n", "protocol error: bad bulk string length");
    REFUSE("*01\r\n:1\r\n", "protocol error: bad multi-bulk length");
    /* a bulk string's bytes end with CRLF */
    REFUSE("$2\r\nabc\r\n", "protocol error: bulk string not ended by CRLF");
    REFUSE("$2\r\nab\n\r", "protocol error: bulk string not ended by CRLF");

    /* a long line of garbage: the error quotes none of it */
    memset(big, 'A', sizeof big);
    big[0] = '@';
    refuse_input(big, sizeof big, "protocol error: got \"@\" as reply type byte");
    {
        redlock__reader *r = reader();
        big[0] = ':';
        memcpy(big + sizeof big - 2, "\r\n", 2);
        feed(r, big, sizeof big);
        refused(r, "protocol error: ");
        CHECK_LT(strlen(redlock__reader_error(r)), 100);
        redlock__reader_free(r);
    }
}

TEST(resp_replies_before_garbage_are_returned)
{
    redlock__reader *r = reader();

    feeds(r, "+OK\r\n*1\r\n:7\r\n!");
    CHECK_STREQ(next(r)->str, "OK");
    CHECK_STREQ(text(next(r)), "[:7]");
    refused(r, "protocol error: got \"!\"");
    redlock__reader_free(r);
}

/* A reply abandoned half-built when the reader fails: nothing leaks (ASan,
 * valgrind), nothing is freed twice. */
TEST(resp_error_mid_array)
{
    char s[1024];
    int n;
    redlock__reader *r;

    REFUSE("*3\r\n:1\r\n!garbage", "protocol error: got \"!\"");

    /* with strings (heap) and a nested array already built */
    r = reader();
    n = sprintf(s, "*4\r\n$200\r\n%0200d\r\n*2\r\n$3\r\nabc\r\n+x\r\n$5\r\nab", 7);
    feed(r, s, (size_t)n);
    none(r);
    feeds(r, "cdeXYZ");      /* a bulk string ends with CRLF, or the reader fails */
    refused(r, "protocol error: bulk string not ended by CRLF");
    redlock__reader_free(r);

    /* refused by a bound in the middle */
    r = reader();
    n = sprintf(s, "*3\r\n$200\r\n%0200d\r\n*1\r\n*1\r\n*1\r\n*1\r\n", 7);
    feed(r, s, (size_t)n);
    refused(r, "arrays nested deeper");
    redlock__reader_free(r);

    r = reader();
    n = sprintf(s, "*3\r\n$200\r\n%0200d\r\n*2\r\n:1\r\n*1023\r\n", 7);
    feed(r, s, (size_t)n);
    refused(r, "array of 1023 elements exceeds");
    redlock__reader_free(r);
}

TEST(resp_reply_abandoned_by_free)
{
    char s[1024];
    int n;
    redlock__reader *r = reader();

    n = sprintf(s, "*3\r\n$300\r\n%0300d\r\n*2\r\n$129\r\n%0129d\r\n", 1, 2);
    feed(r, s, (size_t)n);
    none(r);
    redlock__reader_free(r);

    /* a returned reply still held, and bytes of the next one */
    r = reader();
    n = sprintf(s, "*1\r\n$300\r\n%0300d\r\n*2\r\n$200\r\n%0200d\r\n", 1, 2);
    feed(r, s, (size_t)n);
    CHECK_EQ(next(r)->element[0]->len, 300);
    redlock__reader_free(r);

    /* and a reader that never saw a byte */
    redlock__reader_free(reader());
    redlock__reader_free(NULL);
}

TEST(resp_many_replies_reuse_the_reader)
{
    redlock__reader *r = reader();
    char s[600];

    /* the input buffer is reused and compacted; replies stay right */
    for (int i = 0; i < 5000; i++) {
        int n = sprintf(s, "*2\r\n$3\r\n%03d\r\n$200\r\n%0200d\r\n:%d\r\n", i % 1000, i, i);
        const redlock__reply *x;
        feed(r, s, (size_t)n);
        x = next(r);
        CHECK_EQ(x->elements, 2);
        CHECK_EQ(atoi(x->element[0]->str), i % 1000);
        CHECK_EQ(atoi(x->element[1]->str), i);
        CHECK_EQ(next(r)->integer, i);
        none(r);
    }
    CHECK_EQ(redlock__reader_pending(r), 0);
    redlock__reader_free(r);
}
