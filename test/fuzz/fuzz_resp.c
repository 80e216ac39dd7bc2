/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fuzz_resp.c -- libFuzzer target for the bounded reply reader (resp.c).
 *
 * Whatever bytes a server sends, in whatever pieces: no crash, no leak, no
 * reply out of bounds, and every reply returned is exactly the bytes it was
 * parsed from.  Input layout:
 *
 *     byte 0      flags: 0x40  the rest is segments: a byte r, a 2-byte
 *                              little-endian length n, n bytes, which are
 *                              sent r + 1 times (so that short inputs reach
 *                              the element and byte bounds); otherwise the
 *                              rest is sent once, as it is
 *                        0x20  take at most one reply after each chunk (so
 *                              that _feed finds a reply still held)
 *                        0x80  free the reader after a few chunks, mid-reply
 *                              or not
 *     byte 0, 1   the seed of a small PRNG that cuts what is sent into chunks
 *                 of 1..4096 bytes, each fed, then replies drained as node.c
 *                 would; feeding stops when the reader fails or holds more
 *                 than REDLOCK__REPLY_MAX_BYTES unparsed (the caller's bound).
 *
 * Each reply is checked: types, NUL-terminated strings, "" where no string,
 * array depth <= REDLOCK__REPLY_MAX_DEPTH, elements (all levels) <=
 * REDLOCK__REPLY_MAX_ELEMENTS, string bytes <= REDLOCK__REPLY_MAX_BYTES,
 * and re-read against the input it consumed (fed - pending): the same type
 * bytes, canonical numbers, the same string bytes.  A failed reader must say
 * why in a short text, and stay failed.
 *
 *   clang -fsanitize=fuzzer,address,undefined -I. -o /tmp/fuzz_resp \
 *       test/fuzz/fuzz_resp.c resp.c
 *   /tmp/fuzz_resp -max_total_time=60 [-max_len=20000] CORPUS_DIR
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "floor/resp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define STREAM_MAX (1u << 18)     /* bytes sent in one run, at most */

#define ASSERT(cond)                                                           \
    do {                                                                       \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__,        \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

static uint8_t *stream;           /* everything fed in this run */

static uint32_t rng;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

struct totals {
    size_t elements, bytes;
};

/* Check x's invariants and that it is what stream[*pos..end) says. */
static int match_text(const uint8_t *in, size_t end, size_t *pos, const char *s, size_t len)
{
    if (end - *pos < len || memcmp(in + *pos, s, len))
        return 0;
    *pos += len;
    return 1;
}

static int match_number(const uint8_t *in, size_t end, size_t *pos, char type, long long v)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%c%lld\r\n", type, v);
    return match_text(in, end, pos, buf, (size_t)n);
}

static void check(const redlock__reply *x, int depth, struct totals *t,
                  const uint8_t *in, size_t end, size_t *pos)
{
    ASSERT(x != NULL);
    ASSERT(x->str != NULL);
    switch (x->type) {
    case REDLOCK__REPLY_STATUS:
    case REDLOCK__REPLY_ERROR:
        ASSERT(x->str[x->len] == '\0');
        ASSERT(x->elements == 0);
        t->bytes += x->len;
        ASSERT(match_text(in, end, pos, x->type == REDLOCK__REPLY_STATUS ? "+" : "-", 1));
        ASSERT(match_text(in, end, pos, x->str, x->len));
        ASSERT(match_text(in, end, pos, "\r\n", 2));
        break;
    case REDLOCK__REPLY_STRING:
        ASSERT(x->str[x->len] == '\0');
        ASSERT(x->elements == 0);
        t->bytes += x->len;
        ASSERT(match_number(in, end, pos, '$', (long long)x->len));
        ASSERT(match_text(in, end, pos, x->str, x->len));
        ASSERT(match_text(in, end, pos, "\r\n", 2));
        break;
    case REDLOCK__REPLY_INTEGER:
        ASSERT(x->len == 0 && x->str[0] == '\0' && x->elements == 0);
        ASSERT(match_number(in, end, pos, ':', x->integer));
        break;
    case REDLOCK__REPLY_NIL:
        ASSERT(x->len == 0 && x->str[0] == '\0' && x->elements == 0);
        ASSERT(match_text(in, end, pos, "$-1\r\n", 5) || match_text(in, end, pos, "*-1\r\n", 5));
        break;
    case REDLOCK__REPLY_ARRAY:
        ASSERT(x->len == 0 && x->str[0] == '\0');
        ASSERT(depth <= REDLOCK__REPLY_MAX_DEPTH);
        ASSERT(x->elements == 0 || x->element != NULL);
        t->elements += x->elements;
        ASSERT(t->elements <= REDLOCK__REPLY_MAX_ELEMENTS);
        ASSERT(match_number(in, end, pos, '*', (long long)x->elements));
        for (size_t i = 0; i < x->elements; i++)
            check(x->element[i], depth + 1, t, in, end, pos);
        break;
    default:
        ASSERT(!"unexpected reply type");
    }
    ASSERT(t->bytes <= REDLOCK__REPLY_MAX_BYTES);
}

/* Take the complete replies (at most one if one_only); 0 once the reader
 * has failed. */
static int drain(redlock__reader *r, size_t fed, size_t *done_at, int one_only)
{
    for (int taken = 0; !(one_only && taken); taken++) {
        const redlock__reply *x = (const redlock__reply *)1;
        int rc = redlock__reader_next(r, &x);

        if (rc == 0) {
            ASSERT(x == NULL);
            return 1;
        }
        if (rc < 0) {
            const char *why = redlock__reader_error(r);
            ASSERT(x == NULL);
            ASSERT(why[0] != '\0');
            ASSERT(strlen(why) < 192);
            ASSERT(redlock__reader_next(r, &x) == -1);
            ASSERT(redlock__reader_feed(r, "+OK\r\n", 5) == -1);
            ASSERT(redlock__reader_pending(r) == 0);
            return 0;
        }
        ASSERT(rc == 1);
        {
            size_t pending = redlock__reader_pending(r), end, pos = *done_at;
            struct totals t = {0, 0};
            ASSERT(pending <= fed);
            end = fed - pending;
            ASSERT(end > *done_at);
            check(x, 1, &t, stream, end, &pos);
            ASSERT(pos == end);     /* the reply is all that was consumed */
            *done_at = end;
        }
    }
    return 1;
}

/* What the "server" sends, from the input (see the top). */
static size_t build(const uint8_t *data, size_t size, int segments)
{
    size_t len = 0;

    if (!segments) {
        len = size < STREAM_MAX ? size : STREAM_MAX;
        memcpy(stream, data, len);
        return len;
    }
    while (size >= 3) {
        unsigned reps = data[0] + 1u;
        size_t n = (size_t)data[1] | (size_t)data[2] << 8;
        data += 3;
        size -= 3;
        if (n > size)
            n = size;
        for (unsigned i = 0; i < reps && n <= STREAM_MAX - len; i++) {
            memcpy(stream + len, data, n);
            len += n;
        }
        data += n;
        size -= n;
    }
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    redlock__reader *r;
    size_t len, fed = 0, done_at = 0;
    unsigned flags, chunks = 0, free_after;

    if (size < 2)
        return 0;
    if (!stream && !(stream = malloc(STREAM_MAX)))
        abort();
    flags = data[0];
    rng = (uint32_t)data[0] << 8 | data[1] | 0x10000u;
    len = build(data + 2, size - 2, flags & 0x40);
    free_after = flags & 0x80 ? rnd() % 16 : ~0u;

    ASSERT((r = redlock__reader_new()) != NULL);
    while (fed < len && chunks++ != free_after) {
        size_t n = 1 + rnd() % (1u << (rnd() % 13));

        if (n > len - fed)
            n = len - fed;
        ASSERT(redlock__reader_feed(r, (const char *)stream + fed, n) == 0);
        fed += n;
        if (!drain(r, fed, &done_at, flags & 0x20) ||
            redlock__reader_pending(r) > REDLOCK__REPLY_MAX_BYTES)
            break;
    }
    redlock__reader_free(r);
    return 0;
}
