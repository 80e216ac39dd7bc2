/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* random.c -- random bytes: the lock values' (getrandom(2), drawn many at
 * a time into a page a fork's child gets wiped) and the retry jitter's
 * (xorshift64, never for a lock value).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include "floor/floor.h"

/* Each byte's two hex digits: one load per byte (a value per attempt). */
static const char hex_pairs[513] =
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
    "202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
    "404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
    "606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
    "808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
    "a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
    "c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
    "e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

/* n bytes of getrandom(2): 0 or REDLOCK_ESYSTEM (errno set) */
static int fill(unsigned char *p, size_t n)
{
    size_t got = 0;

    while (got < n) {
        ssize_t k = getrandom(p + got, n - got, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k < 0)
            return REDLOCK_ESYSTEM;
        got += (size_t)k;
    }
    return 0;
}

int redlock__random_hex(char *out, size_t bytes)
{
    unsigned char raw[64];

    if (bytes > sizeof raw)
        return REDLOCK_EINVAL;
    if (fill(raw, bytes) != 0)
        return REDLOCK_ESYSTEM;
    for (size_t i = 0; i < bytes; i++)
        memcpy(out + 2 * i, hex_pairs + 2 * raw[i], 2);
    out[2 * bytes] = '\0';
    return 0;
}

/* The buffer: RBUF_POOL random bytes, then a mark that says they are
 * there.  The page is wiped in a fork's child, mark included, so a child
 * draws its own; a value's bytes are wiped once used. */
#define RBUF_SIZE 4096
#define RBUF_POOL (RBUF_SIZE - 16)
#define RBUF_MARK (RBUF_SIZE - 1)

void redlock__random_init(redlock__random *r, uint64_t fallback_seed)
{
    if (getrandom(&r->jitter, sizeof r->jitter, 0) != (ssize_t)sizeof r->jitter || r->jitter == 0)
        r->jitter = fallback_seed | 1;
#ifdef MADV_WIPEONFORK
    void *p = mmap(NULL, RBUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;
    if (madvise(p, RBUF_SIZE, MADV_WIPEONFORK) != 0) {
        munmap(p, RBUF_SIZE);       /* (a kernel before 4.14) */
        return;
    }
    r->buf = p;
    r->pos = RBUF_POOL;
#endif
}

void redlock__random_free(redlock__random *r)
{
    if (r->buf) {
        explicit_bzero(r->buf, RBUF_SIZE);
        munmap(r->buf, RBUF_SIZE);
        r->buf = NULL;
    }
}

int redlock__random_value_hex(redlock__random *r, char *out, size_t bytes)
{
    unsigned char *b = r->buf;

    if (!b || bytes > 16)
        return redlock__random_hex(out, bytes);
    if (!b[RBUF_MARK] || r->pos + bytes > RBUF_POOL) {
        if (fill(b, RBUF_POOL) != 0)
            return REDLOCK_ESYSTEM;
        b[RBUF_MARK] = 1;
        r->pos = 0;
    }
    for (size_t i = 0; i < bytes; i++)
        memcpy(out + 2 * i, hex_pairs + 2 * b[r->pos + i], 2);
    out[2 * bytes] = '\0';
    memset(b + r->pos, 0, bytes);
    r->pos += bytes;
    return 0;
}

uint64_t redlock__random_jitter(redlock__random *r)
{
    r->jitter ^= r->jitter << 13;
    r->jitter ^= r->jitter >> 7;
    r->jitter ^= r->jitter << 17;
    return r->jitter;
}
