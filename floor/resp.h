/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* resp.h -- bounded RESP2 replies, read by our own parser.
 *
 *   redlock__reader *r = redlock__reader_new();
 *   redlock__reader_feed(r, bytes, n);               (as they arrive)
 *   while ((rc = redlock__reader_next(r, &reply)) == 1)
 *       use(reply);                                  (valid until the next call)
 *   if (rc < 0)
 *       drop the connection: redlock__reader_error(r) says why
 *   if (redlock__reader_pending(r) > REDLOCK__REPLY_MAX_BYTES)
 *       drop the connection too: an endless unfinished reply
 *
 * A reply is built inside the reader: a top-level status, error, integer,
 * nil or string costs no allocation and no copy.  Arrays are
 * allowed within the bounds below, checked before anything is allocated for
 * them, so a server announcing "*2147483647" costs nothing but the error.
 * RESP3 types are refused (we never ask for them), and so is anything that
 * is not strict RESP2.
 *
 * The command encoder is here too (a growable buffer, one RESP command
 * appended at a time).  Internal to the library; depends on no other
 * header of the project.
 */
#ifndef REDLOCK_RESP_H
#define REDLOCK_RESP_H

#include <stddef.h>
#include <stdint.h>

/* Reply types (the values hiredis uses for the same types). */
enum {
    REDLOCK__REPLY_STRING = 1,
    REDLOCK__REPLY_ARRAY = 2,
    REDLOCK__REPLY_INTEGER = 3,
    REDLOCK__REPLY_NIL = 4,
    REDLOCK__REPLY_STATUS = 5,
    REDLOCK__REPLY_ERROR = 6
};

/* One reply.  type is a REDLOCK__REPLY_* value.  Strings are NUL-terminated copies; everything is
 * valid until the next call of redlock__reader_next or _feed or _free on
 * the reader. */
typedef struct redlock__reply {
    int type;
    long long integer;
    const char *str;          /* "" for integer/nil/array */
    size_t len;
    size_t elements;          /* arrays */
    struct redlock__reply **element;
} redlock__reply;

/* A longer unfinished reply is refused (by the caller, with
 * redlock__reader_pending), and the strings of one reply, all levels
 * together, may not copy more bytes than this (checked here). */
#define REDLOCK__REPLY_MAX_BYTES 65536
/* Array elements in one reply, all levels together. */
#define REDLOCK__REPLY_MAX_ELEMENTS 1024
/* Nesting: an array of arrays of ... (a top-level array is depth 1). */
#define REDLOCK__REPLY_MAX_DEPTH 4

typedef struct redlock__reader redlock__reader;

/* NULL: out of memory. */
redlock__reader *redlock__reader_new(void);

/* NULL ok.  Also frees a reply abandoned half-built. */
void redlock__reader_free(redlock__reader *r);

/* Append bytes; 0, or -1: out of memory, or the reader has already failed
 * (redlock__reader_error says which). */
int redlock__reader_feed(redlock__reader *r, const char *buf, size_t len);

/* The next complete reply: 1 and *out set; 0 when more bytes are needed;
 * -1 on a protocol error or a reply out of bounds (then the reader is
 * unusable, and stays failed: drop the connection). */
int redlock__reader_next(redlock__reader *r, const redlock__reply **out);

/* Why the reader failed, in words ("protocol error: ...", "array of N
 * elements exceeds ...", "out of memory"); "" while it has not.  Never more
 * than a few bytes of the server's data. */
const char *redlock__reader_error(const redlock__reader *r);

/* Bytes fed and not yet parsed: the caller refuses
 * more than REDLOCK__REPLY_MAX_BYTES.  The elements of an unfinished array
 * that were already parsed are not counted here; the element and byte
 * bounds above hold them. */
size_t redlock__reader_pending(const redlock__reader *r);

/* ---- the encoder ------------------------------------------------------- */

/* A growable byte buffer for encoded commands. */
typedef struct redlock__buf {
    char *p;
    size_t len, cap;
} redlock__buf;

/* Room for `extra` more bytes: 0, or ENOMEM (b unchanged). */
int redlock__buf_grow(redlock__buf *b, size_t extra);
static inline int redlock__buf_reserve(redlock__buf *b, size_t extra)
{
    return extra <= b->cap - b->len ? 0 : redlock__buf_grow(b, extra);
}
/* Decimal digits of v (at most 20, no terminator); returns how many. */
size_t redlock__u64_str(char *out, uint64_t v);
void redlock__buf_free(redlock__buf *b);
/* Append one RESP command of argc arguments. 0 or REDLOCK_ENOMEM. */
int redlock__resp_command(redlock__buf *b, int argc, const char *const *argv,
                          const size_t *argvlen);

#endif /* REDLOCK_RESP_H */
