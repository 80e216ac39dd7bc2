/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* mconn.c -- the masters' stats connections (mconn.h): plain blocking
 * hiredis, AUTH from the address, and a cluster vote's masters read from
 * CLUSTER SLOTS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "mconn.h"
#include "rawconn.h"

const char *rlb_addr_shown(const char *addr, char *buf, size_t len)
{
    const char *scheme = strstr(addr, "://"), *at = strrchr(addr, '@');
    if (!scheme || !at || at < scheme)
        return addr;
    snprintf(buf, len, "%.*s%s", (int)(scheme + 3 - addr), addr, at + 1);
    return buf;
}

static int auth(redisContext *c, const raddr *a, const char *addr, char *why, size_t whylen)
{
    redisReply *r = a->user[0] ? redisCommand(c, "AUTH %s %s", a->user, a->pass)
                               : redisCommand(c, "AUTH %s", a->pass);
    int ok = r && r->type == REDIS_REPLY_STATUS;
    if (!ok)
        snprintf(why, whylen, "%s: AUTH %s%s", addr, r ? "refused: " : "",
                 !r ? c->errstr : r->type == REDIS_REPLY_ERROR ? r->str : "unexpected reply");
    if (r)
        freeReplyObject(r);
    return ok ? 0 : -1;
}

redisContext *rlb_mconn_open(const char *node, char *why, size_t whylen)
{
    char buf[300];
    const char *addr = rlb_addr_shown(node, buf, sizeof(buf));
    if (strncasecmp(addr, "rediss://", 9) == 0 || strncasecmp(addr, "rediss-cluster://", 17) == 0) {
        snprintf(why, whylen, "%s: a TLS master (the stats connection speaks plain TCP only)",
                 addr);
        return NULL;
    }
    raddr a;
    char err[300];
    if (rconn_parse_addr(node, &a, err, sizeof(err)) != 0) {
        snprintf(why, whylen, "cannot parse address '%s'", addr);
        return NULL;
    }
    struct timeval tv = {2, 0};
    redisContext *c = a.path[0] ? redisConnectUnixWithTimeout(a.path, tv)
                                : redisConnectWithTimeout(a.host, atoi(a.port), tv);
    if (!c || c->err) {
        snprintf(why, whylen, "%s: %s", addr, c ? c->errstr : "out of memory");
        redisFree(c);
        return NULL;
    }
    redisSetTimeout(c, tv);
    if (a.pass[0] && auth(c, &a, addr, why, whylen) != 0) {
        redisFree(c);
        return NULL;
    }
    return c;
}

void rlb_masters_free(char **v, int n)
{
    for (int i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

/* addr into v[0 .. *n) unless there already; -1 when out of memory. */
static int add_unique(char ***v, int *n, const char *addr)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*v)[i], addr) == 0)
            return 0;
    char **grown = realloc(*v, (size_t)(*n + 1) * sizeof(**v));
    if (!grown)
        return -1;
    *v = grown;
    if (!(grown[*n] = strdup(addr)))
        return -1;
    (*n)++;
    return 0;
}

/* Each slot range's master ([lo, hi, [host, port, id, ...], replicas...])
 * as "redis://<creds>host:port" into v; a master named "" or "?" is on
 * the host that answered (seed_host).  0, or -1 with why. */
static int read_slots(const redisReply *r, const char *creds, const char *seed_host, char ***v,
                      int *n, char *why, size_t whylen)
{
    for (size_t i = 0; i < r->elements; i++) {
        const redisReply *e = r->element[i], *m = e->elements >= 3 ? e->element[2] : NULL;
        if (e->type != REDIS_REPLY_ARRAY || !m || m->type != REDIS_REPLY_ARRAY ||
            m->elements < 2 || m->element[0]->type != REDIS_REPLY_STRING ||
            m->element[1]->type != REDIS_REPLY_INTEGER) {
            snprintf(why, whylen, "CLUSTER SLOTS: an entry that is no slot range");
            return -1;
        }
        const char *host = m->element[0]->str;
        if (!host[0] || strcmp(host, "?") == 0)
            host = seed_host;
        int v6 = strchr(host, ':') != NULL;
        char addr[700];
        snprintf(addr, sizeof(addr), "redis://%s%s%s%s:%lld", creds, v6 ? "[" : "", host,
                 v6 ? "]" : "", m->element[1]->integer);
        if (add_unique(v, n, addr) != 0) {
            snprintf(why, whylen, "out of memory");
            return -1;
        }
    }
    if (*n == 0)
        snprintf(why, whylen, "CLUSTER SLOTS: no slot is served");
    return *n ? 0 : -1;
}

/* The masters per one seed (address "redis://<creds><seed>"): 0, or -1
 * with why. */
static int ask_seed(const char *creds, const char *seed, char ***v, int *n, char *why,
                    size_t whylen)
{
    char addr[720], err[300];
    raddr a;
    snprintf(addr, sizeof(addr), "redis://%s%s", creds, seed);
    if (rconn_parse_addr(addr, &a, err, sizeof(err)) != 0) {
        snprintf(why, whylen, "cannot parse the cluster seed '%s'", seed);
        return -1;
    }
    redisContext *c = rlb_mconn_open(addr, why, whylen);
    if (!c)
        return -1;
    redisReply *r = redisCommand(c, "CLUSTER SLOTS");
    int rc = -1;
    if (r && r->type == REDIS_REPLY_ARRAY)
        rc = read_slots(r, creds, a.host, v, n, why, whylen);
    else
        snprintf(why, whylen, "%s: CLUSTER SLOTS: %s", seed,
                 !r ? c->errstr : r->type == REDIS_REPLY_ERROR ? r->str : "not an array");
    if (r)
        freeReplyObject(r);
    redisFree(c);
    return rc;
}

/* A cluster vote's masters, from the first of its seeds that answers. */
static int cluster_masters(const char *node, char ***v, int *n, char *why, size_t whylen)
{
    const char *rest = strstr(node, "://") + 3, *at = strrchr(rest, '@');
    const char *seeds = at ? at + 1 : rest;
    char creds[400];
    snprintf(creds, sizeof(creds), "%.*s", (int)(seeds - rest), rest);   /* "user:pass@" */
    for (const char *p = seeds; *p;) {
        size_t len = strcspn(p, ",");
        char seed[300];
        snprintf(seed, sizeof(seed), "%.*s", (int)len, p);
        if (ask_seed(creds, seed, v, n, why, whylen) == 0)
            return 0;
        rlb_masters_free(*v, *n);   /* a seed that answered with a bad map */
        *v = NULL;
        *n = 0;
        p += len + (p[len] == ',');
    }
    return -1;   /* why: the last seed's */
}

int rlb_vote_masters(const char *node, char ***out, char *why, size_t whylen)
{
    char **v = NULL;
    int n = 0, rc;
    if (strncasecmp(node, "redis-cluster://", 16) == 0) {
        rc = cluster_masters(node, &v, &n, why, whylen);
    } else if (strncasecmp(node, "rediss-cluster://", 17) == 0) {
        char buf[300];
        snprintf(why, whylen, "%s: a TLS cluster (the stats connection speaks plain TCP only)",
                 rlb_addr_shown(node, buf, sizeof(buf)));
        rc = -1;
    } else {
        rc = add_unique(&v, &n, node);
        if (rc != 0)
            snprintf(why, whylen, "out of memory");
    }
    if (rc != 0) {
        rlb_masters_free(v, n);
        return -1;
    }
    *out = v;
    return n;
}
