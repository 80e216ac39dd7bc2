/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* reentrant.c -- the re-entrant lock: an owner may hold the lock many
 * times, through one or several handles (docs/kinds.md, "Re-entrant lock").
 *
 * On each master the key is a hash: "o" = the owner, and "h:<value>" = the
 * hold count of each handle of that owner that holds it there.  A handle
 * writes only its own field, and always the absolute count the client
 * computed (acquire: holds + 1, release: holds - 1, extend: holds), so a
 * master that missed an operation agrees again after the next one that
 * reaches it, and resending an operation changes nothing.  The key's ttl
 * only ever grows (lengthen-only PEXPIRE): a re-acquire's validity keeps
 * the later of the old and the new end (lockop.c), which is safe only so.
 *
 * The op's items: the key [, the fence counter], then the owner and
 *   acquire   value, previous count, new count (+ ttl)
 *   release   value, count (0: the handle's last hold)
 *   extend    value, count, re-grow flag (+ ttl)
 *   raise     token
 * The undo of an acquire is the release script on the acquire's own items:
 * its ARGV[3] is the previous count, so the count goes back to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lock_private.h"

#define MAX_OWNER 512           /* bytes of an owner id */
#define OWNER_RANDOM 16         /* random bytes of a generated owner, in hex */

/* The ttl (ARGV[5]) only lengthens the key's: an older, longer hold of
 * another handle of the owner is never cut short. */
#define LENGTHEN "if redis.call('pttl', KEYS[1]) < tonumber(ARGV[5]) then " \
                 "redis.call('pexpire', KEYS[1], ARGV[5]) end "

/* 1 taken; another owner's id (a string) refused.  A missing key (pttl
 * -2, the usual case) needs no owner check and always gets the ttl. */
const char redlock__lua_re_acquire[] =
    "local t = redis.call('pttl', KEYS[1]) "
    "if t ~= -2 then local o = redis.call('hget', KEYS[1], 'o') "
    "if o ~= ARGV[1] then return o end end "
    "redis.call('hset', KEYS[1], 'o', ARGV[1], 'h:' .. ARGV[2], ARGV[4]) "
    "if t < tonumber(ARGV[5]) then redis.call('pexpire', KEYS[1], ARGV[5]) end return 1";
/* 1 extended, 2 re-grown (ARGV[4] == '1' and the key gone), 0 or another
 * owner's id refused; count 0 (a handed-over value) only extends a field
 * that is there */
const char redlock__lua_re_extend[] =
    "local o = redis.call('hget', KEYS[1], 'o') local f = 'h:' .. ARGV[2] local r = 1 "
    "if o == ARGV[1] then "
    "if ARGV[3] ~= '0' then redis.call('hset', KEYS[1], f, ARGV[3]) "
    "elseif redis.call('hexists', KEYS[1], f) == 0 then return 0 end "
    "elseif not o and ARGV[4] == '1' then "
    "redis.call('hset', KEYS[1], 'o', ARGV[1], f, ARGV[3]) r = 2 "
    "else return o or 0 end "
    LENGTHEN "return r";
/* 1 the handle held here, 0 not; count 0 removes its field, and the key
 * with the last one.  A field "h:<value>" is only ever written into a hash
 * of its handle's owner (the other scripts check "o" first), so finding it
 * is the owner check: the release is two or three calls. */
const char redlock__lua_re_release[] =
    "local f = 'h:' .. ARGV[2] "
    "if ARGV[3] == '0' then local had = redis.call('hdel', KEYS[1], f) "
    "if had == 1 and redis.call('hlen', KEYS[1]) == 1 then redis.call('del', KEYS[1]) end "
    "return had end "
    "if redis.call('hexists', KEYS[1], f) == 0 then return 0 end "
    "redis.call('hset', KEYS[1], f, ARGV[3]) return 1";
/* while the owner is ours: raise the counter (KEYS[2]) to the token */
const char redlock__lua_re_fence_raise[] =
    "if redis.call('hget', KEYS[1], 'o') == ARGV[1] then "
    "local t = tonumber(ARGV[2]) "
    "if (tonumber(redis.call('get', KEYS[2])) or 0) < t then "
    "redis.call('set', KEYS[2], ARGV[2]) end return 1 end return 0";

typedef struct re_owner {
    char *id;
    size_t len;
} re_owner;

static size_t nkeys_of(const redlock__op *op);

static int encode_acquire(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_RE_ACQUIRE, nkeys_of(op),
                                op->ttl_ms);
}

static int encode_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_RE_EXTEND, 1, op->ttl_ms);
}

static int encode_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_RE_RELEASE, 1, 0);
}

/* A lost acquire: the release script on its items puts the previous count
 * back (ARGV[3]); EVAL, as it may go after a reconnect. */
static int encode_undo(const redlock__op *op, redlock__buf *out)
{
    return redlock__encode_eval(op, out, 1, REDLOCK__SCRIPT_RE_RELEASE, nkeys_of(op), 0);
}

static int encode_fence_raise(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_RE_FENCE_RAISE, 2, 0);
}

/* The acquire script, then INCR of the counter, pipelined. */
static int encode_acquire_fenced(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    size_t clen;
    const char *argv[2] = { "INCR", redlock__op_item(op, 1, &clen) };
    size_t len[2] = { 4, clen };

    if (encode_acquire(op, node, out, eval) != 0)
        return REDLOCK_ENOMEM;
    return redlock__resp_command(out, 2, argv, len);
}

/* The scripts' replies: a string is the owner that holds the key. */
static int classify(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type == REDLOCK__REPLY_STRING) {
        char who[48];
        size_t n = 0, i;
        for (i = 0; i < r->len && n + 5 < sizeof who - 4; i++) {
            unsigned char ch = (unsigned char)r->str[i];
            if (ch >= 0x20 && ch < 0x7f && ch != '\\' && ch != '\'')
                who[n++] = (char)ch;
            else
                n += (size_t)snprintf(who + n, sizeof who - n, "\\x%02x", ch);
        }
        snprintf(who + n, sizeof who - n, "%s", i < r->len ? "..." : "");
        redlock__op_refusal(op, node, "held by another owner '%s'", who);
        return REDLOCK__REFUSED;
    }
    return redlock__classify_script(op, node, r);
}

/* The fenced acquire: the script's vote, with the counter as its value. */
static int classify_fenced(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (op->first[node] != REDLOCK__OK)
        return op->first[node];
    if (r->type != REDLOCK__REPLY_INTEGER || r->integer <= 0)
        return REDLOCK__ERROR;      /* (the hold there is undone if lost) */
    op->value[node] = r->integer;
    return REDLOCK__OK;
}

static const redlock__op_kind kind_acquire = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_acquire, .classify = classify, .encode_undo = encode_undo };
static const redlock__op_kind kind_extend = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_extend,
    .classify = classify };
/* the same script, told to re-grow a key that is gone (the frame sends it
 * only while it knows a quorum holds the lock) */
static const redlock__op_kind kind_extend_regrow = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_extend,
    .classify = classify };
static const redlock__op_kind kind_release = {
    .name = "release", .rule = { REDLOCK__RULE_WAIT_ALL, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_release, .classify = classify };
static const redlock__op_kind kind_acquire_fenced = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_acquire_fenced, .classify = classify_fenced, .encode_undo = encode_undo,
    .classify_first = classify };
static const redlock__op_kind kind_fence_raise = {
    .name = "fence", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_fence_raise,
    .classify = redlock__classify_script };

/* The ops with the counter's key as KEYS[2]. */
static size_t nkeys_of(const redlock__op *op)
{
    return op->kind == &kind_acquire_fenced ? 2 : 1;
}

static redlock__op *re_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                          int64_t token)
{
    const re_owner *o = l->kd;
    char num[2][24];
    const char *item[7];
    size_t len[7], n = 0, nkeys = 1;
    int64_t prev = 0, count = 0;

    item[n] = l->key;
    len[n++] = l->keylen;
    if (kind == &kind_acquire_fenced || kind == &kind_fence_raise) {
        item[n] = l->fence_key;
        len[n++] = l->fence_keylen;
        nkeys = 2;
    }
    item[n] = o->id;
    len[n++] = o->len;
    if (kind == &kind_fence_raise) {
        item[n] = num[0];
        len[n++] = redlock__u64_str(num[0], (uint64_t)token);
        return redlock__lock_new_op(l, kind, ttl_ms, nkeys, n - nkeys, item, len);
    }
    item[n] = l->value;
    len[n++] = l->valuelen;
    if (kind == &kind_acquire || kind == &kind_acquire_fenced) {
        prev = l->reacquire ? l->holds : 0;
        item[n] = num[0];
        len[n++] = redlock__u64_str(num[0], (uint64_t)prev);
        count = prev + 1;
    } else if (kind == &kind_release) {
        count = l->partial ? l->holds - 1 : 0;
    } else {
        count = l->holds > 0 ? l->holds : 0;    /* 0: a handed-over value */
    }
    item[n] = num[1];
    len[n++] = redlock__u64_str(num[1], (uint64_t)count);
    if (kind == &kind_extend || kind == &kind_extend_regrow) {
        item[n] = kind == &kind_extend_regrow ? "1" : "0";
        len[n++] = 1;
    }
    return redlock__lock_new_op(l, kind, ttl_ms, nkeys, n - nkeys, item, len);
}

static void re_free(redlock_lock *l)
{
    re_owner *o = l->kd;
    if (o)
        free(o->id);
    free(o);
    l->kd = NULL;
}

const redlock__family redlock__reentrant = {
    .kind = REDLOCK_KIND_REENTRANT, .flags = REDLOCK__FAM_REENTRANT,
    .acquire = &kind_acquire, .extend = &kind_extend, .release = &kind_release,
    .extend_regrow = &kind_extend_regrow, .acquire_fenced = &kind_acquire_fenced,
    .fence_raise = &kind_fence_raise, .op = re_op, .free = re_free };

static int new_reentrant(redlock_lock **out, redlock_client *c, const void *resource,
                         size_t len, const void *owner, size_t ownerlen)
{
    re_owner *o;
    int rc;

    if (!out)
        return REDLOCK_EINVAL;
    *out = NULL;
    if ((!owner && ownerlen) || (owner && (ownerlen == 0 || ownerlen > MAX_OWNER)))
        return REDLOCK_EINVAL;
    if (!(o = calloc(1, sizeof *o)))
        return REDLOCK_ENOMEM;
    if (!owner) {   /* the handle is its own owner: a random id */
        o->len = 2 * OWNER_RANDOM;
        o->id = malloc(o->len + 1);
        rc = o->id ? redlock__random_hex(o->id, OWNER_RANDOM) : REDLOCK_ENOMEM;
    } else if ((o->id = malloc(ownerlen)) != NULL) {
        memcpy(o->id, owner, ownerlen);
        o->len = ownerlen;
        rc = 0;
    } else {
        rc = REDLOCK_ENOMEM;
    }
    if (rc == 0 && (rc = redlock__lock_create(out, c, resource, len, &redlock__reentrant)) == 0)
        (*out)->kd = o;
    else {
        free(o->id);
        free(o);
    }
    return rc;
}

int redlock_lock_new_reentrant(redlock_lock **out, redlock_client *c, const void *resource,
                               size_t len, const void *owner, size_t ownerlen)
{
    REDLOCK__GATED(c, int, new_reentrant(out, c, resource, len, owner, ownerlen));
}
