/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* slot.c -- the pure part of a cluster vote: a key's hash slot, the
 * reading of a CLUSTER SLOTS reply into ranges, of MOVED and ASK, and of
 * our own encoded commands (to find their keys); no network.
 *
 * A key's slot is CRC16 (the XMODEM variant: polynomial 0x1021, initial
 * value 0) of its hash tag, modulo 16384.  The hash tag is the part between
 * the first '{' and the first '}' after it, when that part is not empty;
 * else the whole key (the Redis Cluster specification, "Hash tags").
 */
#include <string.h>
#include "cluster/slot.h"

static uint16_t crc16(const unsigned char *p, size_t len)
{
    uint16_t crc = 0;

    while (len--) {
        crc ^= (uint16_t)(*p++ << 8);
        for (int i = 0; i < 8; i++)
            crc = (uint16_t)(crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1);
    }
    return crc;
}

unsigned redlock__keyslot(const char *key, size_t len)
{
    const char *open = memchr(key, '{', len), *close;

    if (open && (close = memchr(open + 1, '}', len - (size_t)(open + 1 - key))) &&
        close > open + 1) {
        key = open + 1;
        len = (size_t)(close - key);
    }
    return crc16((const unsigned char *)key, len) & (REDLOCK__SLOTS - 1);
}

/* One master of a range: [host, port, id, ...]; an empty or "?" host is
 * the node that answered. */
static int read_master(const redlock__reply *e, redlock__slot_range *out)
{
    const redlock__reply *h, *p, *id;

    if (e->type != REDLOCK__REPLY_ARRAY || e->elements < 2)
        return -1;
    h = e->element[0];
    p = e->element[1];
    id = e->elements >= 3 ? e->element[2] : NULL;
    if (h->type != REDLOCK__REPLY_STRING || p->type != REDLOCK__REPLY_INTEGER ||
        p->integer < 0 || p->integer > 65535 || h->len > REDLOCK__HOST_MAX ||
        (id && (id->type != REDLOCK__REPLY_STRING || id->len >= sizeof out->id)))
        return -1;
    if (h->len && !(h->len == 1 && h->str[0] == '?'))
        memcpy(out->host, h->str, h->len);
    out->host[h->len == 1 && h->str[0] == '?' ? 0 : h->len] = '\0';
    out->port = (int)p->integer;
    if (id)
        memcpy(out->id, id->str, id->len);
    out->id[id ? id->len : 0] = '\0';
    return 0;
}

int redlock__slots_read(const redlock__reply *r, redlock__slot_range *out, size_t max,
                        size_t *n, const char **why)
{
    unsigned char seen[REDLOCK__SLOTS / 8];
    size_t covered = 0;

    *n = 0;
    if (r->type == REDLOCK__REPLY_ERROR) {
        *why = "CLUSTER SLOTS refused";
        return -1;
    }
    if (r->type != REDLOCK__REPLY_ARRAY) {
        *why = "CLUSTER SLOTS: not an array";
        return -1;
    }
    memset(seen, 0, sizeof seen);
    for (size_t i = 0; i < r->elements; i++) {
        const redlock__reply *e = r->element[i];
        redlock__slot_range *s = &out[*n];

        if (*n == max) {
            *why = "CLUSTER SLOTS: too many ranges";
            return -1;
        }
        if (e->type != REDLOCK__REPLY_ARRAY || e->elements < 3 ||
            e->element[0]->type != REDLOCK__REPLY_INTEGER ||
            e->element[1]->type != REDLOCK__REPLY_INTEGER || e->element[0]->integer < 0 ||
            e->element[1]->integer >= REDLOCK__SLOTS ||
            e->element[0]->integer > e->element[1]->integer || read_master(e->element[2], s)) {
            *why = "CLUSTER SLOTS: a malformed range";
            return -1;
        }
        s->lo = (unsigned)e->element[0]->integer;
        s->hi = (unsigned)e->element[1]->integer;
        for (unsigned k = s->lo; k <= s->hi; k++) {
            if (seen[k / 8] & (1u << (k % 8))) {
                *why = "CLUSTER SLOTS: a slot in two ranges";
                return -1;
            }
            seen[k / 8] |= (unsigned char)(1u << (k % 8));
            covered++;
        }
        (*n)++;
    }
    if (covered != REDLOCK__SLOTS) {
        *why = covered ? "the cluster lost slot coverage: some slots have no master"
                       : "the cluster has no slot assigned";
        return 1;
    }
    return 0;
}

int redlock__redirect_read(const char *s, size_t len, int *ask, unsigned *slot, char *host,
                           int *port)
{
    const char *end = s + len, *p, *colon;
    unsigned long v = 0;

    if (len > 6 && memcmp(s, "MOVED ", 6) == 0)
        *ask = 0, p = s + 6;
    else if (len > 4 && memcmp(s, "ASK ", 4) == 0)
        *ask = 1, p = s + 4;
    else
        return -1;
    for (; p < end && *p >= '0' && *p <= '9' && v < REDLOCK__SLOTS; p++)
        v = v * 10 + (unsigned long)(*p - '0');
    if (p == end || *p != ' ' || v >= REDLOCK__SLOTS)
        return -1;
    *slot = (unsigned)v;
    p++;
    /* host:port, the port after the last ':' (an IPv6 host has several) */
    colon = memrchr(p, ':', (size_t)(end - p));
    if (!colon || colon == p || colon - p > REDLOCK__HOST_MAX || colon + 1 == end)
        return -1;
    v = 0;
    for (const char *q = colon + 1; q < end; q++) {
        if (*q < '0' || *q > '9' || (v = v * 10 + (unsigned long)(*q - '0')) > 65535)
            return -1;
    }
    memcpy(host, p, (size_t)(colon - p));
    host[colon - p] = '\0';
    *port = (int)v;
    return 0;
}

long redlock__command_read(const char *buf, size_t len, size_t off, const char **arg,
                           size_t *alen, size_t max, size_t *end)
{
    size_t n = 0, p = off + 1;

    if (off >= len || buf[off] != '*')
        return -1;
    for (; p < len && buf[p] >= '0' && buf[p] <= '9'; p++)
        n = n * 10 + (size_t)(buf[p] - '0');
    if (p + 2 > len || n > 1u << 20)
        return -1;
    p += 2;
    for (size_t k = 0; k < n; k++) {
        size_t l = 0;
        if (p >= len || buf[p] != '$')
            return -1;
        for (p++; p < len && buf[p] >= '0' && buf[p] <= '9'; p++)
            l = l * 10 + (size_t)(buf[p] - '0');
        p += 2;
        if (l > len || p + l + 2 > len)
            return -1;
        if (k < max) {
            arg[k] = buf + p;
            alen[k] = l;
        }
        p += l + 2;
    }
    *end = p;
    return (long)n;
}
