/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* script.c -- the Lua scripts and their SHA-1 for EVALSHA.
 *
 * Release and extend must compare the value and act in one step, or a
 * client whose lock expired could delete or extend the next holder's key;
 * Redis runs a script atomically, so the compare-and-act is a script.
 * Commands are sent as EVALSHA <sha> (the script body travels once per
 * connection at most); a NOSCRIPT reply makes the caller resend as EVAL,
 * which also loads the script into that server's cache.
 *
 * SHA-1 is computed here (FIPS 180-4) by each client at creation (no global
 * state), so adding a script is adding its text to the table below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "floor/floor.h"

/* The pick, where the registry q exists (ARGV[2] the wake window,
 * ARGV[3] the pick's rank, ARGV[5] the registry's life): the entry with
 * the lowest score (the one that waited longest) is told on its own
 * channel ("<window>:<count>:<rank>": "1" retries at once, "2" at random
 * in the window) unless ARGV[3] is "0" (another master picks), and goes
 * to the back of the queue; an entry whose channel nobody listens to
 * (PUBLISH reached no one: its client is gone) is removed and the next
 * one told, four at most.  The registry lives ARGV[5] ms after its last
 * write.  1 + its count, 1 without it.  The registry is not among the
 * script's KEYS (it is in KEYS[1]'s slot): an ACL without it, these
 * commands or the channel refuses the registry's work (pcall), never the
 * release. */
#define LUA_REGISTRY "local q = '{' .. KEYS[1] .. '}:wq' "
#define LUA_PICK \
    "if redis.pcall('exists', q) ~= 1 then return 1 end " \
    "local n = redis.pcall('zcard', q) if type(n) ~= 'number' then return 1 end " \
    "if ARGV[3] ~= '0' then local t = redis.pcall('time') if t.err then return 1 + n end " \
    "for i = 1, 4 do local w = redis.pcall('zrange', q, 0, 0) " \
    "if type(w) ~= 'table' or type(w[1]) ~= 'string' then break end " \
    "local r = redis.pcall('publish', q .. ':' .. w[1], ARGV[2] .. ':' .. n .. ':' .. ARGV[3]) " \
    "if r ~= 0 then redis.pcall('zadd', q, 'XX', t[1] * 1000 + math.floor(t[2] / 1000) + " \
    "tonumber(ARGV[5]), w[1]) break end " \
    "redis.pcall('zrem', q, w[1]) n = n - 1 end " \
    "redis.pcall('pexpire', q, ARGV[5]) end " \
    "return 1 + n"

const char *const redlock__script_body[REDLOCK__NSCRIPTS] = {
    /* The plain compare-and-delete: all a release costs while nobody waits
     * (docs/performance.md, "What a plain lock pays"). */
    [REDLOCK__SCRIPT_RELEASE] =
        "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) "
        "else return 0 end",
    /* The release of a resource waited for.  Its registry of waiters
     * (announce.c) is a queue: see LUA_PICK.  The releaser's own entry
     * ARGV[4] (kept while it held) goes first, whatever the value.  1 + the
     * registry's count, 1 without one, 0: not our value. */
    [REDLOCK__SCRIPT_RELEASE_WQ] =
        LUA_REGISTRY
        "if ARGV[4] ~= '' then redis.pcall('zrem', q, ARGV[4]) end "
        "if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end "
        "redis.call('del', KEYS[1]) " LUA_PICK,
    /* A holder told of a waiter after its plain release had gone (a notice
     * that crossed the release, announce.c): the pick, unless the key is
     * there (held still, or again: that holder's release picks).  0: the
     * key is there. */
    [REDLOCK__SCRIPT_TELL] =
        LUA_REGISTRY
        "if redis.call('type', KEYS[1]).ok ~= 'none' then return 0 end " LUA_PICK,
    /* A waiter (ARGV[1]) joins the back of the queue KEYS[1] unless it is
     * in it (its place is kept), scored by the master's time plus the
     * registry's life ARGV[2] ms (an older releaser drops entries whose
     * score has passed: they come back at the next renewal); the registry
     * lives as long.  With ARGV[3] (a channel prefix, or ""), the holder of
     * the lock KEYS[2] hears that someone waits (the notice, announce.c)
     * on "<ARGV[3]><its client id>": the value, then the registry's name;
     * only for a value of this library's ("<12 hex of the id><32 hex>"), and
     * only from the waiter at the front of the queue unless ARGV[4] is
     * "a" (always).  The count; negative when such a notice reached no
     * one (the holder's client does not listen there, or not yet). */
    [REDLOCK__SCRIPT_WAIT] =
        "local t = redis.call('time') "
        "redis.call('zadd', KEYS[1], 'NX', t[1] * 1000 + math.floor(t[2] / 1000) + tonumber(ARGV[2]), ARGV[1]) "
        "redis.call('pexpire', KEYS[1], ARGV[2]) "
        "local heard = 1 "
        "if ARGV[3] ~= '' and (ARGV[4] == 'a' or redis.call('zrank', KEYS[1], ARGV[1]) == 0) then "
        "local v = redis.pcall('get', KEYS[2]) "
        "if type(v) == 'string' and #v == 44 then "
        "heard = redis.pcall('publish', ARGV[3] .. string.sub(v, 1, 12), v .. KEYS[1]) end end "
        "local n = redis.call('zcard', KEYS[1]) if heard == 0 then return -n end return n",
    [REDLOCK__SCRIPT_EXTEND] =
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end",
    /* extend, and re-grow the key where it is gone (a restarted master):
     * 1 extended, 2 re-grown, 0 someone else's */
    [REDLOCK__SCRIPT_REGROW] =
        "local v = redis.call('get', KEYS[1]) "
        "if v == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end "
        "if not v and redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then "
        "return 2 end return 0",
    /* while we hold the key: raise the counter to the token (ARGV[2]) */
    [REDLOCK__SCRIPT_FENCE_RAISE] =
        "if redis.call('get', KEYS[1]) == ARGV[1] then "
        "local t = tonumber(ARGV[2]) "
        "if (tonumber(redis.call('get', KEYS[2])) or 0) < t then "
        "redis.call('set', KEYS[2], ARGV[2]) end return 1 end return 0",
    [REDLOCK__SCRIPT_RE_ACQUIRE] = redlock__lua_re_acquire,
    [REDLOCK__SCRIPT_RE_EXTEND] = redlock__lua_re_extend,
    [REDLOCK__SCRIPT_RE_RELEASE] = redlock__lua_re_release,
    [REDLOCK__SCRIPT_RE_FENCE_RAISE] = redlock__lua_re_fence_raise,
    [REDLOCK__SCRIPT_RW_READ_EXTEND] = redlock__lua_rw_read_extend,
    [REDLOCK__SCRIPT_RW_READ_RELEASE] = redlock__lua_rw_read_release,
    [REDLOCK__SCRIPT_RW_WRITE] = redlock__lua_rw_write,
    [REDLOCK__SCRIPT_MULTI_ACQUIRE] = redlock__lua_multi_acquire,
    [REDLOCK__SCRIPT_MULTI_EXTEND] = redlock__lua_multi_extend,
    [REDLOCK__SCRIPT_MULTI_RELEASE] = redlock__lua_multi_release,
};

/* ---- SHA-1 ------------------------------------------------------------ */

static uint32_t rol(uint32_t x, int n)
{
    return (x << n) | (x >> (32 - n));
}

static void sha1_block(uint32_t h[5], const unsigned char *p)
{
    uint32_t w[80], a, b, c, d, e, f, k, t;

    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | (uint32_t)p[4 * i + 3];
    for (int i = 16; i < 80; i++)
        w[i] = rol(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    a = h[0]; b = h[1]; c = h[2]; d = h[3]; e = h[4];
    for (int i = 0; i < 80; i++) {
        if (i < 20) {
            f = (b & c) | (~b & d);
            k = 0x5A827999;
        } else if (i < 40) {
            f = b ^ c ^ d;
            k = 0x6ED9EBA1;
        } else if (i < 60) {
            f = (b & c) | (b & d) | (c & d);
            k = 0x8F1BBCDC;
        } else {
            f = b ^ c ^ d;
            k = 0xCA62C1D6;
        }
        t = rol(a, 5) + f + e + k + w[i];
        e = d; d = c; c = rol(b, 30); b = a; a = t;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e;
}

void redlock__sha1_hex(const void *data, size_t len, char out[41])
{
    static const char hex[] = "0123456789abcdef";
    uint32_t h[5] = { 0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0 };
    const unsigned char *p = data;
    unsigned char tail[128];
    size_t full = len / 64 * 64, rest = len - full, tlen;
    uint64_t bits = (uint64_t)len * 8;

    for (size_t off = 0; off < full; off += 64)
        sha1_block(h, p + off);
    memset(tail, 0, sizeof tail);
    memcpy(tail, p + full, rest);
    tail[rest] = 0x80;
    tlen = rest + 1 + 8 <= 64 ? 64 : 128;
    for (int i = 0; i < 8; i++)
        tail[tlen - 1 - i] = (unsigned char)(bits >> (8 * i));
    sha1_block(h, tail);
    if (tlen == 128)
        sha1_block(h, tail + 64);
    for (int i = 0; i < 20; i++) {
        unsigned char byte = (unsigned char)(h[i / 4] >> (24 - 8 * (i % 4)));
        out[2 * i] = hex[byte >> 4];
        out[2 * i + 1] = hex[byte & 15];
    }
    out[40] = '\0';
}
