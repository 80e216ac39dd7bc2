/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* reentrant.c -- the re-entrant lock: an owner may hold the lock many
 * times, through one or several handles (docs/kinds.md, "Re-entrant lock").
 *
 * On each master the key K is a string.  Its value starts with the owner,
 * length-prefixed so that any bytes are unambiguous: P = "<len>:<owner>".
 * A lock held once by one handle (the usual case) is E = P "=" <value of
 * that handle>: taken by a plain SET NX and given back by a
 * compare-and-DEL, the mutex's costs.  Any other state (a second handle of
 * the owner, or a handle's second hold) is K = P alone with the counts in
 * the hash {K}:h (handle value -> count), its ttl following K's.
 *
 * Counts are absolute, written by the client (acquire: holds + 1, release:
 * holds - 1, extend: holds), so a master that missed an operation agrees
 * again after the next one that reaches it, and resending changes nothing.
 * {K}:h means something only while K = P: every script that makes K = P
 * rewrites {K}:h first, so a stale {K}:h (K expired or deleted, or another
 * owner's key since) is never read.  The key's ttl only ever grows: a
 * re-acquire's validity keeps the later of the old and new end
 * (lock/operation.c), which is safe only so.
 *
 * The op's items: the key [, the fence counter], E, then
 *   acquire   new count, previous count (the SET or the join script)
 *   release   [count]: none for the handle's last hold
 *   extend    count, re-grow flag (+ ttl)
 *   raise     token
 * A fresh acquire's fast form is SET K E NX PX ttl; a refusal there (the
 * key exists: ours, or someone else's) asks the frame for the slow form on
 * that node, the join script, which also names another owner.  A
 * re-acquire goes to the script at once.  The undo of an acquire is the
 * release script with the previous count: the count goes back to it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kinds/kinds.h"

#define MAX_OWNER 512           /* bytes of an owner id */
#define OWNER_RANDOM 16         /* random bytes of a generated owner, in hex */

/* K, E (ARGV[1]), {K}:h, and from E the owner prefix P and the value v. */
#define PARSE "local K, E = KEYS[1], ARGV[1] local h = '{' .. K .. '}:h' " \
    "local d = string.find(E, ':', 1, true) " \
    "local P = string.sub(E, 1, d + tonumber(string.sub(E, 1, d - 1))) " \
    "local v = string.sub(E, #P + 2) "
/* {K}:h must be ours to rewrite: a hash, or nothing.  No lock of this
 * library names it (docs/kinds.md, "Keys on the masters"); anything else there is a
 * foreign program's: refused, untouched. */
#define HGUARD(ret) "local ht = redis.call('type', h).ok " \
    "if ht ~= 'hash' and ht ~= 'none' then return " ret " end "
/* K becomes P, with {K}:h rewritten: our count, after `first` (the handle
 * whose value K held, count 1) unless that was us */
#define TOHASH(first) "redis.call('del', h) " \
    "if " first " ~= v then redis.call('hset', h, " first ", 1) end " \
    "redis.call('set', K, P, 'KEEPTTL') "
/* Set this handle's count (c; 0: only where it is there) and lengthen the
 * ttl to T, never shorten it.  A missing key is made when `make`: E for
 * one hold, else P and {K}:h (2).  Another owner: its value, for the client
 * to name it. */
#define LENGTHEN "if redis.call('pttl', K) < t then redis.call('pexpire', K, t) end "
#define SET_COUNT(c, T, make) PARSE \
    "local c, t, cur = tonumber(" c "), tonumber(" T "), redis.call('get', K) " HGUARD("':h'") \
    "if not cur then if c == 0 or not (" make ") then return 0 end " \
    "if c == 1 then redis.call('set', K, E, 'PX', t) return 2 end " \
    "redis.call('del', h) redis.call('set', K, P, 'PX', t) redis.call('hset', h, v, c) " \
    "redis.call('pexpire', h, t) return 2 end " \
    "if string.sub(cur, 1, #P) ~= P then return cur end " \
    "if cur == E and c <= 1 then " LENGTHEN "return 1 end " \
    "if cur ~= P then if c == 0 then return 0 end " \
    TOHASH("string.sub(cur, #P + 2)") \
    "elseif c == 0 and redis.call('hexists', h, v) == 0 then return 0 end " \
    "if c > 0 then redis.call('hset', h, v, c) end " \
    LENGTHEN "redis.call('pexpire', h, redis.call('pttl', K)) return 1"

/* The slow form of an acquire: ARGV = E, new count, ttl.  1 or 2 taken. */
const char redlock__lua_re_acquire[] = SET_COUNT("ARGV[2]", "ARGV[3]", "true");
/* ARGV = E, count (0: a handed-over value, which only extends where its
 * count is there), re-grow flag, ttl.  1 extended, 2 re-grown, 0 or
 * another owner's value refused. */
const char redlock__lua_re_extend[] = SET_COUNT("ARGV[2]", "ARGV[4]", "ARGV[3] == '1'");
/* ARGV = E [, count]: 1 the handle held here, 0 not.  No count (the last
 * hold of the only handle, the usual case): the mutex's compare-and-DEL;
 * the rest runs only when needed.  K = E or P is the owner check; a count
 * 0 removes the handle, and the key with the last one. */
const char redlock__lua_re_release[] =
    "local cur = redis.call('get', KEYS[1]) "
    "if cur == ARGV[1] and not ARGV[2] then return redis.call('del', KEYS[1]) end "
    PARSE HGUARD("0") "local c = tonumber(ARGV[2] or '0') "
    "if cur == E then if c == 0 then redis.call('del', K) elseif c > 1 then "
    TOHASH("v") "redis.call('hset', h, v, c) redis.call('pexpire', h, redis.call('pttl', K)) "
    "end return 1 end "
    "if cur ~= P or redis.call('hexists', h, v) == 0 then return 0 end "
    "if c > 0 then redis.call('hset', h, v, c) return 1 end "
    "redis.call('hdel', h, v) "
    "if redis.call('hlen', h) == 0 then redis.call('del', K, h) end return 1";
/* The last hold's release while someone waits (lock.h, redlock__wake_hook):
 * ARGV = E, the wake window, this master's pick, the releaser's own waiter
 * id, the registry's life.  The handle's hold goes (count 0); when the key
 * goes with it, the longest waiter is told.  0: not ours; else 1 + the
 * registry's count (1 when the key stays: the owner's other handles). */
const char redlock__lua_re_release_wq[] =
    REDLOCK__LUA_REGISTRY REDLOCK__LUA_PICK_FN
    "if ARGV[4] ~= '' then redis.pcall('zrem', q, ARGV[4]) end "
    "local cur = redis.call('get', KEYS[1]) "
    "if cur == ARGV[1] then redis.call('del', KEYS[1]) return pick(q, '') end "
    PARSE HGUARD("0")
    "if cur ~= P or redis.call('hexists', h, v) == 0 then return 0 end "
    "redis.call('hdel', h, v) "
    "if redis.call('hlen', h) == 0 then redis.call('del', K, h) return pick(q, '') end return 1";
/* while the owner is ours: raise the counter (KEYS[2]) to the token */
const char redlock__lua_re_fence_raise[] =
    PARSE "local cur = redis.call('get', K) "
    "if cur and string.sub(cur, 1, #P) == P then local t = tonumber(ARGV[2]) "
    "if (tonumber(redis.call('get', KEYS[2])) or 0) < t then "
    "redis.call('set', KEYS[2], ARGV[2]) end return 1 end return 0";

/* A handle's owner: P "=", then room for its value (E). */
typedef struct re_owner {
    char *e;
    size_t plen, cap;
} re_owner;

static size_t nkeys_of(const redlock__op *op);

/* Item i after the keys: 0 = E, then the kind's. */
static const char *arg_of(const redlock__op *op, size_t i, size_t *len)
{
    return redlock__op_item(op, nkeys_of(op) + i, len);
}

/* An acquire that starts a hold (previous count "0"): the SET is its fast form. */
static int fresh(const redlock__op *op)
{
    size_t len;
    const char *prev = arg_of(op, 2, &len);
    return len == 1 && prev[0] == '0';
}

/* EVAL(SHA) of `script` with KEYS[1] = the key and ARGV = arg. */
static int eval_on_key(const redlock__op *op, redlock__buf *out, int eval, int script,
                       size_t nargs, const char *const *arg, const size_t *alen)
{
    const char *body = op->f->net->scripts[script];
    const char *argv[8] = { eval ? "EVAL" : "EVALSHA", eval ? body : op->f->sha[script], "1" };
    size_t len[8] = { eval ? 4 : 7, eval ? strlen(body) : 40, 1 };

    argv[3] = redlock__op_item(op, 0, &len[3]);
    for (size_t i = 0; i < nargs; i++) {
        argv[4 + i] = arg[i];
        len[4 + i] = alen[i];
    }
    return redlock__resp_command(out, (int)(4 + nargs), argv, len);
}

/* A fresh acquire: SET K E NX PX ttl; the slow form (and a re-acquire's
 * only form): the join script on E, the new count and the ttl. */
static int encode_acquire(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    char ttl[24];
    const char *arg[5];
    size_t len[5];
    (void)node;

    arg[0] = arg_of(op, 0, &len[0]);
    if (!eval && fresh(op)) {
        const char *argv[6] = { "SET", redlock__op_item(op, 0, &len[1]), arg[0], "NX", "PX", ttl };
        size_t alen[6] = { 3, len[1], len[0], 2, 2, redlock__u64_str(ttl, (uint64_t)op->ttl_ms) };
        return redlock__resp_command(out, 6, argv, alen);
    }
    arg[1] = arg_of(op, 1, &len[1]);
    arg[2] = ttl;
    len[2] = redlock__u64_str(ttl, (uint64_t)op->ttl_ms);
    return eval_on_key(op, out, eval, REDLOCK__SCRIPT_RE_ACQUIRE, 3, arg, len);
}

static int encode_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_RE_EXTEND, 1, op->ttl_ms);
}

/* "1" where the master restarted since the hold began, else "0" */
static int encode_extend_regrow(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__encode_eval_regrow(op, out, eval, REDLOCK__SCRIPT_RE_EXTEND, 1, op->ttl_ms,
                                       node);
}

static int encode_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_RE_RELEASE, 1, 0);
}

/* A lost acquire: the release script with the previous count puts it back
 * (0: the handle's hold goes); EVAL, as it may go after a reconnect. */
static int encode_undo(const redlock__op *op, redlock__buf *out)
{
    const char *arg[2];
    size_t len[2];
    arg[0] = arg_of(op, 0, &len[0]);
    arg[1] = arg_of(op, 2, &len[1]);
    return eval_on_key(op, out, 1, REDLOCK__SCRIPT_RE_RELEASE, 2, arg, len);
}

static int encode_fence_raise(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_RE_FENCE_RAISE, 2, 0);
}

/* The acquire (either form), then INCR of the counter, pipelined. */
static int encode_acquire_fenced(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    size_t clen;
    const char *argv[2] = { "INCR", redlock__op_item(op, 1, &clen) };
    size_t len[2] = { 4, clen };

    if (encode_acquire(op, node, out, eval) != 0)
        return REDLOCK_ENOMEM;
    return redlock__resp_command(out, 2, argv, len);
}

/* A key value "<len>:<owner>..." names its owner; NULL: not a re-entrant
 * lock's (another kind's key). */
static const char *owner_in(const char *s, size_t len, size_t *olen)
{
    size_t i = 0, n = 0;
    while (i < len && i < 4 && s[i] >= '0' && s[i] <= '9')
        n = n * 10 + (size_t)(s[i++] - '0');
    if (i == 0 || i == len || s[i] != ':' || n == 0 || n > len - i - 1)
        return NULL;
    *olen = n;
    return s + i + 1;
}

/* Another owner's key value (the scripts' string reply): a refusal that
 * names the owner, escaped and cut. */
static int refuse_owner(redlock__op *op, size_t node, const redlock__reply *r)
{
    char who[48];
    size_t n = 0, i, len;
    const char *o = owner_in(r->str, r->len, &len);

    if (!o) {
        redlock__op_refusal(op, node, "held by a lock of another kind");
        return REDLOCK__REFUSED;
    }
    for (i = 0; i < len && n + 5 < sizeof who - 4; i++) {
        unsigned char ch = (unsigned char)o[i];
        if (ch >= 0x20 && ch < 0x7f && ch != '\\' && ch != '\'')
            who[n++] = (char)ch;
        else
            n += (size_t)snprintf(who + n, sizeof who - n, "\\x%02x", ch);
    }
    snprintf(who + n, sizeof who - n, "%s", i < len ? "..." : "");
    redlock__op_refusal(op, node, "held by another owner '%s'", who);
    return REDLOCK__REFUSED;
}

/* The scripts' replies: a string is another owner's key. */
static int classify(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type == REDLOCK__REPLY_STRING)
        return refuse_owner(op, node, r);
    return redlock__classify_script(op, node, r);
}

/* The acquire: the SET's +OK is ours; its nil (the key exists) asks for
 * the join script on this node (-1), which knows whose key it is. */
static int classify_acquire(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (op->evaled[node] || !fresh(op))
        return classify(op, node, r);
    if (r->type == REDLOCK__REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0)
        return REDLOCK__OK;
    return r->type == REDLOCK__REPLY_NIL ? -1 : REDLOCK__ERROR;
}

/* The fenced acquire's first reply: a resend is asked for by the INCR's
 * classify (value -1 marks it), the request's last reply. */
static int classify_fenced_first(redlock__op *op, size_t node, const redlock__reply *r)
{
    int v = classify_acquire(op, node, r);
    if (v >= 0)
        return v;
    op->value[node] = -1;
    return REDLOCK__OK;
}

/* The fenced acquire: the acquire's vote, with the counter as its value. */
static int classify_fenced(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (op->value[node] == -1) {
        op->value[node] = 0;
        return -1;
    }
    if (op->first[node] != REDLOCK__OK)
        return op->first[node];
    if (r->type != REDLOCK__REPLY_INTEGER || r->integer <= 0)
        return REDLOCK__ERROR;      /* (the hold there is undone if lost) */
    op->value[node] = r->integer;
    return REDLOCK__OK;
}

static const redlock__op_kind kind_acquire = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_acquire, .classify = classify_acquire, .encode_undo = encode_undo };
static const redlock__op_kind kind_extend = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_extend,
    .classify = classify };
/* the same script, told to re-grow a key that is gone (the frame sends it
 * only while it knows a quorum holds the lock) */
static const redlock__op_kind kind_extend_regrow = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 },
    .flags = REDLOCK__KIND_REGROW | REDLOCK__KIND_PER_NODE,
    .encode = encode_extend_regrow, .classify = classify };
static const redlock__op_kind kind_release = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_release, .classify = classify };
static int encode_release_wq(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__encode_release_wq(op, node, out, eval, REDLOCK__SCRIPT_RE_RELEASE_WQ);
}

static const redlock__op_kind kind_release_wq = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 },
    .flags = REDLOCK__KIND_UNDOES | REDLOCK__KIND_PER_NODE,
    .encode = encode_release_wq, .classify = redlock__classify_release };
static const redlock__op_kind kind_acquire_fenced = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_acquire_fenced, .classify = classify_fenced, .encode_undo = encode_undo,
    .classify_first = classify_fenced_first };
static const redlock__op_kind kind_fence_raise = {
    .name = "fence", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_fence_raise,
    .classify = redlock__classify_script };

/* The ops with the counter's key as KEYS[2]. */
static size_t nkeys_of(const redlock__op *op)
{
    return op->kind == &kind_acquire_fenced || op->kind == &kind_fence_raise ? 2 : 1;
}

static redlock__op *re_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                          int64_t token)
{
    re_owner *o = l->kd;
    char num[2][24];
    const char *item[6];
    size_t len[6], n = 0, nkeys = 1;
    int64_t prev, count;

    if (o->cap < o->plen + l->valuelen) {
        char *e = realloc(o->e, o->plen + l->valuelen);
        if (!e)
            return NULL;
        o->e = e;
        o->cap = o->plen + l->valuelen;
    }
    memcpy(o->e + o->plen, l->value, l->valuelen);
    item[n] = l->key;
    len[n++] = l->keylen;
    if (kind == &kind_acquire_fenced || kind == &kind_fence_raise) {
        item[n] = l->fence_key;
        len[n++] = l->fence_keylen;
        nkeys = 2;
    }
    item[n] = o->e;
    len[n++] = o->plen + l->valuelen;
    if (kind == &kind_release_wq)
        return redlock__lock_release_wq(l, kind, ttl_ms, 1, item, len);
    if (kind == &kind_fence_raise) {
        count = token;
    } else if (kind == &kind_acquire || kind == &kind_acquire_fenced) {
        prev = l->reacquire ? l->holds : 0;
        item[n + 1] = num[1];
        len[n + 1] = redlock__u64_str(num[1], (uint64_t)prev);
        count = prev + 1;
    } else if (kind == &kind_release) {
        /* the last hold: no count, the script's fast path */
        if (!l->partial)
            return redlock__lock_new_op(l, kind, ttl_ms, nkeys, n - nkeys, item, len);
        count = l->holds - 1;
    } else {
        count = l->holds > 0 ? l->holds : 0;    /* 0: a handed-over value */
        /* (re-grow: a byte per master, redlock__encode_eval_regrow) */
        item[n + 1] = kind->flags & REDLOCK__KIND_REGROW ? "01" : "0";
        len[n + 1] = kind->flags & REDLOCK__KIND_REGROW ? 2 : 1;
    }
    item[n] = num[0];
    len[n] = redlock__u64_str(num[0], (uint64_t)count);
    n += kind == &kind_release || kind == &kind_fence_raise ? 1 : 2;
    return redlock__lock_new_op(l, kind, ttl_ms, nkeys, n - nkeys, item, len);
}

static void re_free(redlock_lock *l)
{
    re_owner *o = l->kd;
    if (o)
        free(o->e);
    free(o);
    l->kd = NULL;
}

/* Only the release of the handle's last hold frees the lock (an inner one
 * wakes nobody; the owner's other handles may still hold it: then the
 * script tells nobody). */
static int re_frees(const redlock_lock *l)
{
    return !l->partial;
}

static const redlock__wake_hook re_wake = { .release_wq = &kind_release_wq, .frees = re_frees };

const redlock__family redlock__reentrant = {
    .kind = REDLOCK_KIND_REENTRANT, .flags = REDLOCK__FAM_REENTRANT,
    .acquire = &kind_acquire, .extend = &kind_extend, .release = &kind_release,
    .extend_regrow = &kind_extend_regrow, .acquire_fenced = &kind_acquire_fenced,
    .fence_raise = &kind_fence_raise, .op = re_op, .free = re_free, .wake = &re_wake };

/* P "=" for an owner id (NULL: a random one). */
static int make_prefix(re_owner *o, const void *owner, size_t ownerlen)
{
    char id[2 * OWNER_RANDOM + 1];
    int rc;

    if (!owner) {   /* the handle is its own owner: a random id */
        if ((rc = redlock__random_hex(id, OWNER_RANDOM)) != 0)
            return rc;
        owner = id;
        ownerlen = 2 * OWNER_RANDOM;
    }
    o->cap = ownerlen + 64;     /* a generated value fits */
    if (!(o->e = malloc(o->cap)))
        return REDLOCK_ENOMEM;
    o->plen = (size_t)snprintf(o->e, o->cap, "%zu:", ownerlen);
    memcpy(o->e + o->plen, owner, ownerlen);
    o->plen += ownerlen;
    o->e[o->plen++] = '=';
    return 0;
}

static int new_reentrant(redlock_lock **out, redlock_client *c, const void *resource,
                         size_t len, const void *owner, size_t ownerlen)
{
    re_owner *o;
    int rc;

    if (!out)
        return redlock__lock_refuse(c, "out is NULL");
    *out = NULL;
    if ((!owner && ownerlen) || (owner && (ownerlen == 0 || ownerlen > MAX_OWNER)))
        return redlock__lock_refuse(c, "the owner must be NULL (with length 0) or 1 .. %d bytes",
                                    MAX_OWNER);
    if (!(o = calloc(1, sizeof *o)))
        return REDLOCK_ENOMEM;
    if ((rc = make_prefix(o, owner, ownerlen)) == 0 &&
        (rc = redlock__lock_create(out, c, resource, len, &redlock__reentrant)) == 0)
        (*out)->kd = o;
    else {
        free(o->e);
        free(o);
    }
    return rc;
}

int redlock_lock_new_reentrant(redlock_lock **out, redlock_client *c, const void *resource,
                               size_t len, const void *owner, size_t ownerlen)
{
    REDLOCK__GATED(c, int, new_reentrant(out, c, resource, len, owner, ownerlen));
}
