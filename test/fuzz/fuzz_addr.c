/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* fuzz_addr.c -- libFuzzer target: node address parsing (addr.c).
 *
 * Arbitrary bytes, cut at the first NUL, go to redlock__addr_parse() with an
 * error buffer of a fuzzed size allocated to exactly that size (so ASan sees
 * any overrun).  The internal parser is used rather than
 * redlock_client_new(), which would open connections to whatever address
 * the fuzzer invents (and resolve host names): the tests stay on loopback.
 *
 * Checked on every input, besides "no crash, no leak, no UB":
 *   - success: a host (port 1..65535) or an absolute unix path, db -1 or
 *     0..2^20, a password only for redis://, rediss:// and their
 *     -cluster forms (which have no database);
 *   - failure: REDLOCK_EINVAL (or ENOMEM), a NUL-terminated message when
 *     errlen > 0, nothing allocated left behind;
 *   - the message never quotes the credentials (raw or percent-encoded)
 *     of a redis(s):// or redis(s)-cluster:// address
 *     (unless the message text itself happens to contain those bytes,
 *     which is told apart by parsing the same address with the credentials
 *     masked).
 *
 *   make fuzz-addr FUZZ_SECONDS=60      (see test/sanitize.mk)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "floor/floor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void require(int cond, const char *what, const char *input)
{
    if (!cond) {
        fprintf(stderr, "fuzz_addr: %s, input \"%s\"\n", what, input);
        abort();
    }
}

/* [begin, end) of the credentials of a redis:// or rediss:// address: from
 * after the scheme to the last '@' before the first '/'.  0 if none. */
static int credentials(const char *s, size_t *begin, size_t *end)
{
    size_t p;
    const char *slash, *at = NULL;

    if (strncmp(s, "redis://", 8) == 0)
        p = 8;
    else if (strncmp(s, "rediss://", 9) == 0)
        p = 9;
    else if (strncmp(s, "redis-cluster://", 16) == 0)
        p = 16;
    else if (strncmp(s, "rediss-cluster://", 17) == 0)
        p = 17;
    else
        return 0;
    slash = strchr(s + p, '/');
    for (const char *q = s + p; *q && (!slash || q < slash); q++)
        if (*q == '@')
            at = q;
    if (!at)
        return 0;
    *begin = p;
    *end = (size_t)(at - s);
    return *end > *begin;
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static int contains(const char *hay, const char *needle, size_t nlen)
{
    size_t hlen = strlen(hay);
    if (nlen == 0 || nlen > hlen)
        return 0;
    for (size_t i = 0; i + nlen <= hlen; i++)
        if (memcmp(hay + i, needle, nlen) == 0)
            return 1;
    return 0;
}

static void check_success(redlock__addr *a, const char *s)
{
    require(a->host != NULL || a->path != NULL, "success without host or path", s);
    require(!(a->host && a->path), "both host and path", s);
    if (a->host)
        require(a->port >= 1 && a->port <= 65535, "port out of range", s);
    if (a->path)
        require(a->path[0] == '/', "relative unix path", s);
    require(a->db == -1 || (a->db >= 0 && a->db <= (1 << 20)), "db out of range", s);
    if (a->password || a->user)
        require(strncmp(s, "redis://", 8) == 0 || strncmp(s, "rediss://", 9) == 0 ||
                    strncmp(s, "redis-cluster://", 16) == 0 ||
                    strncmp(s, "rediss-cluster://", 17) == 0,
                "credentials outside a URL", s);
    if (a->cluster)
        require(a->db == -1 && a->host != NULL, "a cluster with a database or a path", s);
    redlock__addr_free(a);
    require(a->host == NULL && a->path == NULL && a->user == NULL && a->password == NULL,
            "addr_free left pointers", s);
}

/* The credentials in [b, e) of m masked with 'Q' (':' and '@' kept, and
 * percent-escapes kept valid, %00 or invalid, so that it parses the same
 * way). */
static void mask_credentials(char *m, size_t b, size_t e)
{
    for (size_t i = b; i < e; i++) {
        if (m[i] == ':' || m[i] == '@')
            continue;
        if (m[i] == '%') {
            if (i + 2 < e && is_hex(m[i + 1]) && is_hex(m[i + 2])) {
                if (m[i + 1] != '0' || m[i + 2] != '0') {
                    m[i + 1] = '5';
                    m[i + 2] = '1';
                }
                i += 2;
            }
            continue;
        }
        m[i] = 'Q';
    }
}

/* If the message quotes the credentials of address s, it must be because
 * the message of the same address with them masked does too. */
static void check_credentials_hidden(const char *s, const char *err, size_t errlen)
{
    size_t b, e;
    if (!credentials(s, &b, &e))
        return;
    char *m = strdup(s), *err2 = malloc(errlen);
    redlock__addr a2;
    if (m && err2) {
        mask_credentials(m, b, e);
        if (redlock__addr_parse(&a2, m, err2, errlen) == 0)
            redlock__addr_free(&a2);
        else if (contains(err, s + b, e - b))
            require(contains(err2, s + b, e - b), "message shows the credentials", s);
    }
    free(m);
    free(err2);
}

static void check_failure(const redlock__addr *a, int rc, const char *s, const char *err,
                          size_t errlen)
{
    require(rc == REDLOCK_EINVAL || rc == REDLOCK_ENOMEM, "unexpected error code", s);
    require(a->host == NULL && a->path == NULL && a->user == NULL && a->password == NULL,
            "failure left allocations", s);
    if (!errlen)
        return;
    require(memchr(err, '\0', errlen) != NULL, "message not terminated", s);
    require(errlen == 1 || err[0] != '\0', "empty message", s);
    check_credentials_hidden(s, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    redlock__addr a;
    size_t errlen;
    char *s, *err;
    int rc;

    if (size == 0)
        return 0;
    /* first byte: the size of the error buffer (0 .. 255) */
    errlen = data[0];
    data++;
    size--;
    if (!(s = malloc(size + 1)))
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';                     /* the address ends at the first NUL */
    err = errlen ? malloc(errlen) : NULL;
    if (errlen && !err) {
        free(s);
        return 0;
    }
    if (err)
        memset(err, 'x', errlen);

    rc = redlock__addr_parse(&a, s, err, errlen);
    if (rc == 0)
        check_success(&a, s);
    else
        check_failure(&a, rc, s, err, errlen);
    free(err);
    free(s);
    return 0;
}
