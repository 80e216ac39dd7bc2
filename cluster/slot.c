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

/* CRC16-CCITT (XMODEM) of every byte value: crc16(b) = crc16 table over
 * the high byte (generated from the polynomial 0x1021; the unit test
 * checks slots against Redis's). */
static const uint16_t crc_table[256] = {
    0x0000, 0x1021, 0x2042, 0x3063, 0x4084, 0x50a5, 0x60c6, 0x70e7,
    0x8108, 0x9129, 0xa14a, 0xb16b, 0xc18c, 0xd1ad, 0xe1ce, 0xf1ef,
    0x1231, 0x0210, 0x3273, 0x2252, 0x52b5, 0x4294, 0x72f7, 0x62d6,
    0x9339, 0x8318, 0xb37b, 0xa35a, 0xd3bd, 0xc39c, 0xf3ff, 0xe3de,
    0x2462, 0x3443, 0x0420, 0x1401, 0x64e6, 0x74c7, 0x44a4, 0x5485,
    0xa56a, 0xb54b, 0x8528, 0x9509, 0xe5ee, 0xf5cf, 0xc5ac, 0xd58d,
    0x3653, 0x2672, 0x1611, 0x0630, 0x76d7, 0x66f6, 0x5695, 0x46b4,
    0xb75b, 0xa77a, 0x9719, 0x8738, 0xf7df, 0xe7fe, 0xd79d, 0xc7bc,
    0x48c4, 0x58e5, 0x6886, 0x78a7, 0x0840, 0x1861, 0x2802, 0x3823,
    0xc9cc, 0xd9ed, 0xe98e, 0xf9af, 0x8948, 0x9969, 0xa90a, 0xb92b,
    0x5af5, 0x4ad4, 0x7ab7, 0x6a96, 0x1a71, 0x0a50, 0x3a33, 0x2a12,
    0xdbfd, 0xcbdc, 0xfbbf, 0xeb9e, 0x9b79, 0x8b58, 0xbb3b, 0xab1a,
    0x6ca6, 0x7c87, 0x4ce4, 0x5cc5, 0x2c22, 0x3c03, 0x0c60, 0x1c41,
    0xedae, 0xfd8f, 0xcdec, 0xddcd, 0xad2a, 0xbd0b, 0x8d68, 0x9d49,
    0x7e97, 0x6eb6, 0x5ed5, 0x4ef4, 0x3e13, 0x2e32, 0x1e51, 0x0e70,
    0xff9f, 0xefbe, 0xdfdd, 0xcffc, 0xbf1b, 0xaf3a, 0x9f59, 0x8f78,
    0x9188, 0x81a9, 0xb1ca, 0xa1eb, 0xd10c, 0xc12d, 0xf14e, 0xe16f,
    0x1080, 0x00a1, 0x30c2, 0x20e3, 0x5004, 0x4025, 0x7046, 0x6067,
    0x83b9, 0x9398, 0xa3fb, 0xb3da, 0xc33d, 0xd31c, 0xe37f, 0xf35e,
    0x02b1, 0x1290, 0x22f3, 0x32d2, 0x4235, 0x5214, 0x6277, 0x7256,
    0xb5ea, 0xa5cb, 0x95a8, 0x8589, 0xf56e, 0xe54f, 0xd52c, 0xc50d,
    0x34e2, 0x24c3, 0x14a0, 0x0481, 0x7466, 0x6447, 0x5424, 0x4405,
    0xa7db, 0xb7fa, 0x8799, 0x97b8, 0xe75f, 0xf77e, 0xc71d, 0xd73c,
    0x26d3, 0x36f2, 0x0691, 0x16b0, 0x6657, 0x7676, 0x4615, 0x5634,
    0xd94c, 0xc96d, 0xf90e, 0xe92f, 0x99c8, 0x89e9, 0xb98a, 0xa9ab,
    0x5844, 0x4865, 0x7806, 0x6827, 0x18c0, 0x08e1, 0x3882, 0x28a3,
    0xcb7d, 0xdb5c, 0xeb3f, 0xfb1e, 0x8bf9, 0x9bd8, 0xabbb, 0xbb9a,
    0x4a75, 0x5a54, 0x6a37, 0x7a16, 0x0af1, 0x1ad0, 0x2ab3, 0x3a92,
    0xfd2e, 0xed0f, 0xdd6c, 0xcd4d, 0xbdaa, 0xad8b, 0x9de8, 0x8dc9,
    0x7c26, 0x6c07, 0x5c64, 0x4c45, 0x3ca2, 0x2c83, 0x1ce0, 0x0cc1,
    0xef1f, 0xff3e, 0xcf5d, 0xdf7c, 0xaf9b, 0xbfba, 0x8fd9, 0x9ff8,
    0x6e17, 0x7e36, 0x4e55, 0x5e74, 0x2e93, 0x3eb2, 0x0ed1, 0x1ef0
};

static uint16_t crc16(const unsigned char *p, size_t len)
{
    uint16_t crc = 0;

    while (len--)
        crc = (uint16_t)(crc << 8) ^ crc_table[((crc >> 8) ^ *p++) & 0xff];
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
