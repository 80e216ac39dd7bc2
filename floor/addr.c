/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* addr.c -- parse one node address into host/port/path/credentials/db.
 *
 *   host:port            127.0.0.1:6379, redis1.example:7000
 *   [ipv6]:port          [::1]:6379
 *   host                 port 6379
 *   redis://[[user]:password@]host[:port][/db]
 *   rediss://...         the same, over TLS
 *   unix:///path/to.sock
 *   redis-cluster://[[user]:password@]host:port[,host:port...]
 *                        one Redis Cluster named by its seed nodes (a vote)
 *   rediss-cluster://... the same, over TLS
 *
 * In a URL, user and password are percent-decoded: %XX is the byte with hex
 * value XX (%2F '/', %40 '@', %3A ':', %25 '%').  A '/' must be written
 * %2F (a bare one starts the database number), as must a ':' in the user
 * name; '@' and ':' may stay bare in the password.  %00 is refused (it would
 * cut the credential short), as is a '%' without two hex digits after it.
 *
 * Messages never contain the user or the password.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "floor/floor.h"

/* The message quotes the address with any credentials replaced by "***". */
static int fail(char *err, size_t errlen, const char *what, const char *s)
{
    const char *scheme = strstr(s, "://"), *start = scheme ? scheme + 3 : s, *at = NULL;

    if (!err || !errlen)
        return REDLOCK_EINVAL;
    /* credentials end at the last '@' before the path, with or without a
     * scheme (a password may itself contain '@' or '/') */
    for (const char *p = start; *p; p++)
        if (*p == '@')
            at = p;
    if (at)
        snprintf(err, errlen, "invalid address \"%.*s***%.48s\": %s",
                 (int)(start - s), s, at, what);
    else
        snprintf(err, errlen, "invalid address \"%.64s\": %s", s, what);
    return REDLOCK_EINVAL;
}

/* Parse a decimal integer in [lo, hi] spanning exactly [p, end). */
static int parse_int(const char *p, const char *end, long lo, long hi, long *out)
{
    long v = 0;
    if (p == end || end - p > 9)
        return -1;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        v = v * 10 + (*p - '0');
    }
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

static char *dup_range(const char *p, const char *end)
{
    size_t len = (size_t)(end - p);
    char *s = malloc(len + 1);
    if (s) {
        memcpy(s, p, len);
        s[len] = '\0';
    }
    return s;
}

static void wipe(char *s, size_t len)
{
    /* volatile so the compiler cannot drop the wipe of a dead buffer */
    volatile char *v = s;
    while (len--)
        *v++ = 0;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* *out = [p, end) percent-decoded, a new string; `field` names it in the
 * message ("user", "password"), which never quotes it. */
static int decode_credential(char **out, const char *p, const char *end, const char *field,
                             const char *s, char *err, size_t errlen)
{
    size_t cap = (size_t)(end - p) + 1;
    char *d = malloc(cap), *w = d;
    char what[128];

    if (!d)
        return REDLOCK_ENOMEM;
    for (; p < end; p++) {
        int hi, lo;
        if (*p != '%') {
            *w++ = *p;
            continue;
        }
        if (end - p < 3 || (hi = hex_digit(p[1])) < 0 || (lo = hex_digit(p[2])) < 0) {
            snprintf(what, sizeof what, "invalid percent-escape in the %s: '%%' must be "
                     "followed by two hex digits (write a '%%' as %%25)", field);
            break;
        }
        if (hi == 0 && lo == 0) {
            snprintf(what, sizeof what, "the %s contains %%00 (a NUL byte)", field);
            break;
        }
        *w++ = (char)(hi << 4 | lo);
        p += 2;
    }
    if (p < end) {
        wipe(d, cap);
        free(d);
        return fail(err, errlen, what, s);
    }
    *w = '\0';
    *out = d;
    return 0;
}

/* host[:port] or [v6][:port] in [p, end). */
static int parse_hostport(redlock__addr *a, const char *p, const char *end,
                          const char *s, char *err, size_t errlen)
{
    const char *hend, *colon = NULL;
    long port = 6379;

    if (p == end)
        return fail(err, errlen, "missing host", s);
    if (*p == '[') {
        hend = memchr(p, ']', (size_t)(end - p));
        if (!hend || hend == p + 1)
            return fail(err, errlen, "unterminated or empty [ipv6] host", s);
        if (hend + 1 < end) {
            if (hend[1] != ':')
                return fail(err, errlen, "expected ':' after ']'", s);
            colon = hend + 1;
        }
        p++;
    } else {
        colon = memchr(p, ':', (size_t)(end - p));
        if (colon && memchr(colon + 1, ':', (size_t)(end - colon - 1)))
            return fail(err, errlen, "an IPv6 host needs brackets: [addr]:port", s);
        hend = colon ? colon : end;
        if (hend == p)
            return fail(err, errlen, "missing host", s);
    }
    for (const char *q = p; q < hend; q++) {
        if (*q == '@')
            return fail(err, errlen, "credentials need a redis:// or rediss:// address", s);
        if (*q == '/' || *q == ' ' || *q == '\t' || (unsigned char)*q < 0x20)
            return fail(err, errlen, "invalid character in host", s);
    }
    if (hend - p > REDLOCK__HOST_MAX)
        return fail(err, errlen, "host name longer than 255 bytes", s);
    if (colon && parse_int(colon + 1, end, 1, 65535, &port) != 0)
        return fail(err, errlen, "port must be a number from 1 to 65535", s);
    a->host = dup_range(p, hend);
    a->port = (int)port;
    return a->host ? 0 : REDLOCK_ENOMEM;
}

static int parse_url(redlock__addr *a, const char *s, const char *p,
                     char *err, size_t errlen)
{
    const char *end = p + strlen(p);
    const char *slash = memchr(p, '/', (size_t)(end - p));
    const char *at = NULL, *q;
    int rc;

    /* The last '@' before the path ends the credentials: passwords may
     * contain '@', host names may not. */
    for (q = p; q < (slash ? slash : end); q++)
        if (*q == '@')
            at = q;
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        if (!colon)
            return fail(err, errlen, "credentials must be [user]:password@", s);
        if (colon > p && (rc = decode_credential(&a->user, p, colon, "user", s,
                                                 err, errlen)) != 0)
            return rc;
        if ((rc = decode_credential(&a->password, colon + 1, at, "password", s,
                                    err, errlen)) != 0)
            return rc;
        p = at + 1;
    }
    /* "redis://:a/b@host": the '/' ended the host part, so what follows it
     * is no database number; say how to write such a password. */
    if (slash && memchr(slash, '@', (size_t)(end - slash)))
        return fail(err, errlen, "'@' after the first '/': a '/' in the user or "
                                 "password must be percent-encoded as %2F", s);
    if (slash) {
        long db;
        if (slash + 1 < end && parse_int(slash + 1, end, 0, 1 << 20, &db) != 0)
            return fail(err, errlen, "database must be a non-negative number", s);
        if (slash + 1 < end)
            a->db = (int)db;
        end = slash;
    }
    rc = parse_hostport(a, p, end, s, err, errlen);
    return rc;
}

/* redis-cluster://[creds@]seed[,seed...]: the first seed as a URL (with
 * the credentials), the others checked and kept as text.  No database:
 * a cluster has database 0 only. */
static int parse_cluster(redlock__addr *a, const char *s, const char *p,
                         char *err, size_t errlen)
{
    const char *at = strrchr(p, '@'), *hosts = at ? at + 1 : p;
    const char *comma = strchr(hosts, ','), *q;
    char *first;
    int rc;

    a->cluster = 1;
    if (strchr(hosts, '/'))
        return fail(err, errlen, "a cluster has database 0 only: no /db", s);
    if (!(first = dup_range(p, comma ? comma : p + strlen(p))))
        return REDLOCK_ENOMEM;
    rc = parse_url(a, s, first, err, errlen);
    free(first);
    for (q = comma; rc == 0 && q; q = strchr(q + 1, ',')) {
        const char *end = strchr(q + 1, ',');
        redlock__addr t = { 0 };
        rc = parse_hostport(&t, q + 1, end ? end : q + strlen(q), s, err, errlen);
        free(t.host);
    }
    if (rc == 0 && comma && !(a->seeds = strdup(comma + 1)))
        rc = REDLOCK_ENOMEM;
    return rc;
}

int redlock__addr_seed(const redlock__addr *a, size_t i, char *host, int *port)
{
    const char *p = a->seeds;
    redlock__addr t = { 0 };

    if (i == 0) {
        snprintf(host, REDLOCK__HOST_MAX + 1, "%s", a->host ? a->host : "");
        *port = a->port;
        return 0;
    }
    for (; p && --i; p = strchr(p, ','), p = p ? p + 1 : NULL)
        ;
    if (!p)
        return -1;
    if (parse_hostport(&t, p, strchr(p, ',') ? strchr(p, ',') : p + strlen(p), p, NULL, 0))
        return -1;
    snprintf(host, REDLOCK__HOST_MAX + 1, "%s", t.host);
    *port = t.port;
    free(t.host);
    return 0;
}

int redlock__addr_at(redlock__addr *a, const redlock__addr *b, const char *host, int port)
{
    memset(a, 0, sizeof *a);
    a->db = -1;
    a->port = port;
    a->tls = b->tls;
    if (!(a->host = strdup(host)) || (b->user && !(a->user = strdup(b->user))) ||
        (b->password && !(a->password = strdup(b->password)))) {
        redlock__addr_free(a);
        return REDLOCK_ENOMEM;
    }
    return 0;
}

int redlock__addr_parse(redlock__addr *a, const char *s, char *err, size_t errlen)
{
    const char *scheme_end;
    int rc;

    memset(a, 0, sizeof *a);
    a->db = -1;
    if (!s || !*s)
        return fail(err, errlen, "empty", s ? s : "");
    scheme_end = strstr(s, "://");
    if (!scheme_end) {
        static const char *const schemes[] = { "redis:", "rediss:", "unix:" };
        for (size_t i = 0; i < sizeof schemes / sizeof schemes[0]; i++)
            if (strncmp(s, schemes[i], strlen(schemes[i])) == 0 &&
                (s[strlen(schemes[i])] == '/' || s[strlen(schemes[i])] == '\0'))
                return fail(err, errlen, "malformed scheme: write redis://host:port, "
                                         "rediss://host:port or unix:///path", s);
        if (strchr(s, '@'))
            return fail(err, errlen, "credentials need a redis:// or rediss:// address "
                                     "(redis://user:password@host:port)", s);
        rc = parse_hostport(a, s, s + strlen(s), s, err, errlen);
    } else if (strncmp(s, "redis://", 8) == 0) {
        rc = parse_url(a, s, s + 8, err, errlen);
    } else if (strncmp(s, "unix://", 7) == 0) {
        if (s[7] != '/')
            return fail(err, errlen, "unix:// needs an absolute path (unix:///path)", s);
        /* sockaddr_un holds 107 bytes and a terminator: a longer path
         * could never connect, so say so now */
        if (strlen(s + 7) > REDLOCK__UNIX_PATH_MAX)
            return fail(err, errlen, "unix socket path longer than 107 bytes", s);
        rc = (a->path = strdup(s + 7)) ? 0 : REDLOCK_ENOMEM;
    } else if (strncmp(s, "rediss://", 9) == 0) {
        a->tls = 1;
        rc = parse_url(a, s, s + 9, err, errlen);
    } else if (strncmp(s, "redis-cluster://", 16) == 0) {
        rc = parse_cluster(a, s, s + 16, err, errlen);
    } else if (strncmp(s, "rediss-cluster://", 17) == 0) {
        a->tls = 1;
        rc = parse_cluster(a, s, s + 17, err, errlen);
    } else {
        return fail(err, errlen, "unknown scheme (use redis://, rediss://, redis-cluster://, "
                                 "rediss-cluster://, unix:// or host:port)", s);
    }
    if (rc != 0)
        redlock__addr_free(a);
    if (rc == REDLOCK_ENOMEM && err && errlen)
        snprintf(err, errlen, "out of memory");
    return rc;
}

static void wipe_free(char *s)
{
    if (s) {
        wipe(s, strlen(s));
        free(s);
    }
}

void redlock__addr_free(redlock__addr *a)
{
    free(a->host);
    free(a->path);
    free(a->seeds);
    free(a->user);
    wipe_free(a->password);
    memset(a, 0, sizeof *a);
    a->db = -1;
}
