/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* multi.c -- the multi-resource lock: n resources taken together or not
 * at all.  Each resource is a mutex's key (prefix + resource) holding the
 * handle's one random value, so plain locks and multi locks on a resource
 * exclude each other.
 *
 * On each master a set is taken whole or not at all, so two clients asking
 * for {a, b} and {b, a} cannot each hold one key and wait for the other.
 * The acquire, by the number of resources n:
 *
 *   n == 1      the mutex: SET K v NX PX ttl (its extend and release too)
 *   n >= 2      one script: EXISTS over every key, then SET ... PX each
 *
 * A key without a ttl among them is not a lock: the script takes nothing
 * and says so.  (A transaction of MSETNX and PEXPIRE NX costs the masters
 * less, but would give such a key our ttl for a moment, and for good if
 * the client died then: docs/kinds.md.)  Across masters it is the mutex's
 * quorum rule (a lost attempt is undone everywhere, by the release).  The
 * keys go in a canonical (bytewise) order, so a set names the same lock
 * whatever order the caller gave.
 *
 * No fencing: one counter per resource could not give one token that
 * orders the writes to all of them (redlock.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kinds/kinds.h"

#define MAX_RESOURCES 1024
#define MAX_KEY (512 * 1024 * 1024)     /* Redis's limit of a string */

/* KEYS: the keys; ARGV: value, ttl.  0: took them all; i: KEYS[i] is held,
 * -i: KEYS[i] has no ttl (not a lock); nothing taken then.  One EXISTS over
 * all keys on the common path. */
const char redlock__lua_multi_acquire[] =
    "if redis.call('exists', unpack(KEYS)) > 0 then for i = 1, #KEYS do "
    "local t = redis.call('pttl', KEYS[i]) if t ~= -2 then return t == -1 and -i or i end "
    "end end "
    "for i = 1, #KEYS do redis.call('set', KEYS[i], ARGV[1], 'px', ARGV[2]) end return 0";
/* KEYS: the keys; ARGV: value [, "g": re-grow, or "-"], ttl.  Every key
 * must hold our value (re-grow: or be gone) or nothing is extended: 0.  1 extended,
 * 2 re-grew some.  A key of another type reads as false in MGET, hence
 * the EXISTS before a re-grow (never overwrite it). */
const char redlock__lua_multi_extend[] =
    "local v, t, r = redis.call('mget', unpack(KEYS)), ARGV[#ARGV], 1 "
    "for i = 1, #KEYS do if v[i] ~= ARGV[1] and (v[i] or ARGV[2] ~= 'g' or "
    "redis.call('exists', KEYS[i]) == 1) then return 0 end end "
    "for i = 1, #KEYS do if v[i] then redis.call('pexpire', KEYS[i], t) else "
    "redis.call('set', KEYS[i], ARGV[1], 'px', t) r = 2 end end return r";
/* KEYS: the keys; ARGV: value.  Deletes every key holding our value; 1
 * when that was all of them, else 0 (the lock was partly lost). */
const char redlock__lua_multi_release[] =
    "local v, m = redis.call('mget', unpack(KEYS)), {} "
    "for i = 1, #KEYS do if v[i] == ARGV[1] then m[#m + 1] = KEYS[i] end end "
    "if #m > 0 then redis.call('del', unpack(m)) end return #m == #KEYS and 1 or 0";

/* The release while someone waits (lock.h, redlock__wake_hook): KEYS the
 * keys; ARGV = value, the wake window, this master's pick, the releaser's
 * own waiter id, the registry's life.  The release's deletes, then the
 * longest waiter of each freed resource is told.  0 when not every key was
 * ours, else 1 + the most entries a registry had. */
const char redlock__lua_multi_release_wq[] =
    REDLOCK__LUA_PICK_FN
    "if ARGV[4] ~= '' then for i = 1, #KEYS do "
    "redis.pcall('zrem', '{' .. KEYS[i] .. '}:wq', ARGV[4]) end end "
    "local v, m, n = redis.call('mget', unpack(KEYS)), {}, 1 "
    "for i = 1, #KEYS do if v[i] == ARGV[1] then m[#m + 1] = KEYS[i] end end "
    "if #m > 0 then redis.call('del', unpack(m)) end "
    "for i = 1, #m do local c = pick('{' .. m[i] .. '}:wq', '') if c > n then n = c end end "
    "return #m == #KEYS and n or 0";

/* The handle's keys (l->kd): item[0 .. n-1] the sorted keys, item[n] the
 * value (filled in per op), item[n + 1] the re-grow flags ("-g"). */
typedef struct multi_keys {
    size_t n;
    const char **item;
    size_t *len;
    char *buf;
} multi_keys;

static const redlock__op_kind kind_acquire, kind_acquire_one, kind_extend, kind_extend_regrow,
    kind_release, kind_release_wq;

/* The op of `kind` for this handle's size: one resource is a mutex (its
 * kinds). */
static redlock__op *multi_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                             int64_t token)
{
    multi_keys *m = l->kd;
    size_t nargs = 1;
    (void)token;
    m->item[m->n] = l->value;
    m->len[m->n] = l->valuelen;
    if (kind == &kind_release_wq)
        return redlock__lock_release_wq(l, m->n == 1 ? &redlock__mutex_release_wq : kind, ttl_ms,
                                        m->n, m->item, m->len);
    if (m->n == 1) {
        kind = kind == &kind_acquire ? &kind_acquire_one
             : kind == &kind_extend ? &redlock__mutex_extend
             : kind == &kind_extend_regrow ? &redlock__mutex_extend_regrow
                                           : &redlock__mutex_release;
    } else if (kind->flags & REDLOCK__KIND_REGROW) {
        nargs = 2;
    }
    return redlock__lock_new_op(l, kind, ttl_ms, m->n, nargs, m->item, m->len);
}

static void multi_free(redlock_lock *l)
{
    multi_keys *m = l->kd;
    if (m) {
        free(m->item);
        free(m->len);
        free(m->buf);
        free(m);
    }
    l->kd = NULL;
}

static int encode_acquire(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_MULTI_ACQUIRE, op->nkeys,
                                op->ttl_ms);
}

static int encode_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_MULTI_EXTEND, op->nkeys,
                                op->ttl_ms);
}

/* "g" where the master restarted since the hold began, else "-" */
static int encode_extend_regrow(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__encode_eval_regrow(op, out, eval, REDLOCK__SCRIPT_MULTI_EXTEND, op->nkeys,
                                       op->ttl_ms, node);
}

static int encode_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_MULTI_RELEASE, op->nkeys, 0);
}

/* The undo of a won attempt: the release, as EVAL (it may go out after a
 * reconnect, to an empty script cache). */
static int encode_undo(const redlock__op *op, redlock__buf *out)
{
    return redlock__encode_eval(op, out, 1, REDLOCK__SCRIPT_MULTI_RELEASE, op->nkeys, 0);
}

/* A resource's name for a message: printable ASCII as is, the rest as
 * \xNN, cut to fit `size` (with "..." when cut). */
static void escape_name(char *out, size_t size, const char *p, size_t len)
{
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;

    for (size_t i = 0; i < len; i++) {
        unsigned char ch = (unsigned char)p[i];
        int plain = ch >= 0x20 && ch < 0x7f && ch != '\\' && ch != '\'';
        if (o + (plain ? 1 : 4) + 4 > size) {
            memcpy(out + o, "...", 3);
            o += 3;
            break;
        }
        if (plain) {
            out[o++] = (char)ch;
        } else {
            out[o++] = '\\';
            out[o++] = 'x';
            out[o++] = hex[ch >> 4];
            out[o++] = hex[ch & 15];
        }
    }
    out[o] = '\0';
}

/* The node refused because of key i: "resource 'b' <why>". */
static int refuse_key(redlock__op *op, size_t node, size_t i, const char *why)
{
    const redlock_client *c = redlock__container(op->f, redlock_client, fleet);
    char name[64];
    size_t klen;
    const char *key = redlock__op_item(op, i, &klen);

    escape_name(name, sizeof name, key + c->prefixlen, klen - c->prefixlen);
    redlock__op_refusal(op, node, "resource '%s' %s", name, why);
    return REDLOCK__REFUSED;
}

#define NOT_A_LOCK "is not a lock (a key without ttl)"

/* The script: 0 ours, every key; i: the i-th key is held, -i: it has no
 * ttl (this master took nothing). */
static int classify_acquire(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type != REDLOCK__REPLY_INTEGER)
        return redlock__classify_script(op, node, r);      /* NOSCRIPT or an error */
    if (r->integer == 0)
        return REDLOCK__OK;
    if (r->integer < -(long long)op->nkeys || r->integer > (long long)op->nkeys)
        return REDLOCK__ERROR;
    if (r->integer < 0)
        return refuse_key(op, node, (size_t)-r->integer - 1, NOT_A_LOCK);
    op->value[node] = r->integer;       /* (the key a waiter waits on: waits_on) */
    return refuse_key(op, node, (size_t)r->integer - 1, "is held");
}

/* One resource: the mutex's acquire, with the multi's refusal text. */
static int encode_one(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__mutex.acquire->encode(op, node, out, eval);
}

static int classify_one(redlock__op *op, size_t node, const redlock__reply *r)
{
    int v = redlock__mutex.acquire->classify(op, node, r);
    if (v != REDLOCK__REFUSED)
        return v;
    op->value[node] = 1;
    return refuse_key(op, node, 0, "is held");
}

static int undo_one(const redlock__op *op, redlock__buf *out)
{
    return redlock__mutex.acquire->encode_undo(op, out);
}

static const redlock__op_kind kind_acquire = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_acquire, .classify = classify_acquire, .encode_undo = encode_undo };
static const redlock__op_kind kind_acquire_one = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_one, .classify = classify_one, .encode_undo = undo_one };
static const redlock__op_kind kind_extend = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_extend,
    .classify = redlock__classify_script };
/* (its op carries the re-grow flag: see multi_op) */
static const redlock__op_kind kind_extend_regrow = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 },
    .flags = REDLOCK__KIND_REGROW | REDLOCK__KIND_PER_NODE,
    .encode = encode_extend_regrow, .classify = redlock__classify_script };
/* Like the mutex's: waits for every master, owed to those it missed. */
static const redlock__op_kind kind_release = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_release, .classify = redlock__classify_script };

static int encode_release_wq(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__encode_release_wq(op, node, out, eval, REDLOCK__SCRIPT_MULTI_RELEASE_WQ);
}

static const redlock__op_kind kind_release_wq = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 },
    .flags = REDLOCK__KIND_UNDOES | REDLOCK__KIND_PER_NODE,
    .encode = encode_release_wq, .classify = redlock__classify_release };

/* Waiters: each on one resource, its own registry's (a plain lock's on
 * that resource too). */
static const char *multi_key(const redlock_lock *l, size_t i, size_t *len)
{
    const multi_keys *m = l->kd;

    if (!m || i >= m->n)
        return NULL;
    *len = m->len[i];
    return m->item[i];
}

/* A refused attempt waits on the resource most masters named (the first
 * held one in the canonical order, there); ties: the first. */
static size_t multi_waits_on(const redlock_lock *l, const redlock__op *op)
{
    int64_t best = 0;
    unsigned most = 0;
    (void)l;

    for (size_t i = 0; i < op->f->n; i++) {
        unsigned k = 0;
        if (op->votes[i] != REDLOCK__REFUSED || op->value[i] <= 0)
            continue;
        for (size_t j = 0; j < op->f->n; j++)
            k += op->votes[j] == REDLOCK__REFUSED && op->value[j] == op->value[i];
        if (k > most || (k == most && op->value[i] < best)) {
            most = k;
            best = op->value[i];
        }
    }
    return best > 0 ? (size_t)best - 1 : 0;
}

static const redlock__wake_hook multi_wake = {
    .release_wq = &kind_release_wq, .key = multi_key, .waits_on = multi_waits_on };

const redlock__family redlock__multi = {
    .kind = REDLOCK_KIND_MULTI, .acquire = &kind_acquire, .extend = &kind_extend,
    .release = &kind_release, .extend_regrow = &kind_extend_regrow, .op = multi_op,
    .free = multi_free, .wake = &multi_wake };

/* ---- the constructor ----------------------------------------------------- */

typedef struct resource {
    const char *p;
    size_t len, index;      /* index: the caller's */
} resource;

static int by_bytes(const void *a, const void *b)
{
    const resource *x = a, *y = b;
    int d = memcmp(x->p, y->p, x->len < y->len ? x->len : y->len);
    if (d)
        return d;
    return x->len < y->len ? -1 : x->len > y->len;
}

__attribute__((format(printf, 2, 3)))
static int bad(redlock_client *c, const char *fmt, ...)
{
    va_list ap;
    int n = snprintf(c->errstr, sizeof c->errstr, "redlock_lock_new_multi: ");
    va_start(ap, fmt);
    vsnprintf(c->errstr + n, sizeof c->errstr - (size_t)n, fmt, ap);
    va_end(ap);
    return REDLOCK_EINVAL;
}

/* The caller's resources, checked and sorted; 0, EINVAL (c->errstr says
 * why) or ENOMEM. */
static int sorted(redlock_client *c, const void *const *resources, const size_t *lens, size_t n,
                  resource **out)
{
    resource *r;

    if (n == 0 || n > MAX_RESOURCES)
        return bad(c, "n is %zu: it must be in 1 .. %d", n, MAX_RESOURCES);
    if (!resources || !lens)
        return bad(c, "%s is NULL", resources ? "lens" : "resources");
    for (size_t i = 0; i < n; i++) {
        if (!resources[i] || lens[i] == 0 || lens[i] > MAX_KEY - 2 - c->prefixlen)
            return bad(c, "resource %zu: %s", i, !resources[i] ? "NULL" : lens[i] ? "too long"
                                                                                  : "empty");
        const char *why = redlock__key_reserved(c, resources[i], lens[i]);
        if (why)
            return bad(c, "resource %zu: %s", i, why);
    }
    if (!(r = malloc(n * sizeof *r)))
        return REDLOCK_ENOMEM;
    for (size_t i = 0; i < n; i++)
        r[i] = (resource){ resources[i], lens[i], i };
    qsort(r, n, sizeof *r, by_bytes);
    for (size_t i = 1; i < n; i++) {
        if (by_bytes(&r[i - 1], &r[i]) == 0) {
            char name[64];
            size_t a = r[i - 1].index, b = r[i].index;
            escape_name(name, sizeof name, r[i].p, r[i].len);
            free(r);
            return bad(c, "resources %zu and %zu are the same ('%s')", a < b ? a : b,
                       a < b ? b : a, name);
        }
    }
    *out = r;
    return 0;
}

/* The keys (prefix + resource) in r's order, and room for the value and
 * the re-grow flag after them. */
static multi_keys *keys_new(const redlock_client *c, const resource *r, size_t n)
{
    multi_keys *m = calloc(1, sizeof *m);
    size_t total = 0, off = 0;

    for (size_t i = 0; i < n; i++)
        total += c->prefixlen + r[i].len;   /* < 1024 * 2^29: no overflow */
    if (!m || !(m->item = malloc((n + 2) * sizeof *m->item)) ||
        !(m->len = malloc((n + 2) * sizeof *m->len)) || !(m->buf = malloc(total))) {
        if (m) {
            free(m->item);
            free(m->len);
            free(m);
        }
        return NULL;
    }
    m->n = n;
    for (size_t i = 0; i < n; i++) {
        memcpy(m->buf + off, c->key_prefix, c->prefixlen);
        memcpy(m->buf + off + c->prefixlen, r[i].p, r[i].len);
        m->item[i] = m->buf + off;
        m->len[i] = c->prefixlen + r[i].len;
        off += m->len[i];
    }
    m->item[n + 1] = "-g";     /* (a byte per master: redlock__encode_eval_regrow) */
    m->len[n + 1] = 2;
    return m;
}

static int new_multi(redlock_lock **out, redlock_client *c, const void *const *resources,
                     const size_t *lens, size_t n)
{
    resource *r = NULL;
    int rc;

    if (!out)
        return REDLOCK_EINVAL;
    *out = NULL;
    if (!c)
        return REDLOCK_EINVAL;
    if ((rc = sorted(c, resources, lens, n, &r)) != 0)
        return rc;
    /* l->key is the first key (for messages and the handle's name) */
    if ((rc = redlock__lock_create(out, c, r[0].p, r[0].len, &redlock__multi)) == 0 &&
        !((*out)->kd = keys_new(c, r, n))) {
        redlock_lock_free(*out);
        *out = NULL;
        rc = REDLOCK_ENOMEM;
    }
    free(r);
    return rc;
}

int redlock_lock_new_multi(redlock_lock **out, redlock_client *c, const void *const *resources,
                           const size_t *lens, size_t n)
{
    REDLOCK__GATED(c, int, new_multi(out, c, resources, lens, n));
}
