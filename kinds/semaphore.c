/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* semaphore.c -- the counting semaphore: P permits on a resource, each
 * held by one handle with its own ttl (docs/kinds.md, "Semaphore").
 *
 * On each master, with K the lock's key and v a holder's value:
 *
 *   K            a hash: "#" the permit count P, one field v per holder;
 *                its ttl only grows, so it outlives every permit in it
 *   {K}:s:<v>    one key per held permit, PX its own ttl: the server
 *                expires a crashed holder's permit, never a client's clock
 *
 * A master grants at most P permits: the take script counts the fields
 * whose permit key is still there (pruning the others) and adds one only
 * below P.  A handle's operations need q of the N masters, the smallest q
 * with q * (P + 1) > P * N (quorum.c), so that P + 1 holders cannot each
 * have q grants.
 *
 * Every script is one atomic step (a permit is counted and taken, or
 * compared and extended or released).  The take script refuses when "#"
 * says another P while someone holds a permit there (-2 - that P): the
 * acquire ends at once with REDLOCK_EPERMITS (the family's `fatal`), and
 * what other masters granted is undone.  Once every permit there has
 * ended, the next take writes its own P.
 *
 * The op's items: K, {K}:s:<v> [, {K}:fence], then v and
 *   acquire   P (+ ttl)
 *   extend    (+ ttl)
 *   release   -
 *   raise     token
 * The undo of an acquire is the release script.
 */
#include <stdlib.h>
#include <string.h>
#include "kinds/kinds.h"

#define MAX_PERMITS 1024

/* KEYS: K, {K}:s:<v> [, {K}:fence]; ARGV: v, P, ttl.  1 (fenced: the
 * counter, incremented) a permit taken or already ours; 0 all P held; -1
 * another kind's key; -2 the value is "#"; -2 - p: the masters' count is p. */
const char redlock__lua_sem_acquire[] =
    "local K, S, v, P, t = KEYS[1], KEYS[2], ARGV[1], ARGV[2], tonumber(ARGV[3]) "
    "local ty = redis.call('type', K).ok "
    "if ty ~= 'hash' and ty ~= 'none' then return -1 end "
    "if v == '#' then return -2 end "
    "local cur = redis.call('hget', K, '#') "
    "if ty == 'hash' and not cur then return -1 end "
    "local ours = redis.call('hexists', K, v) == 1 and redis.call('exists', S) == 1 "
    "if not ours then local stem, n, dead = '{' .. K .. '}:s:', 0, {} "
    "for _, f in ipairs(redis.call('hkeys', K)) do if f ~= '#' then "
    "if redis.call('exists', stem .. f) == 1 then n = n + 1 else dead[#dead + 1] = f end end end "
    "if n > 0 and cur ~= P then return -2 - tonumber(cur) end "
    "if #dead > 0 then redis.call('hdel', K, unpack(dead)) end "
    "if n >= tonumber(P) then return 0 end end "
    "redis.call('hset', K, '#', P, v, '1') redis.call('set', S, '1', 'px', t) "
    "if redis.call('pttl', K) < t then redis.call('pexpire', K, t) end "
    "if KEYS[3] then return redis.call('incr', KEYS[3]) end return 1";
/* KEYS: K, {K}:s:<v>; ARGV: v, ttl.  1 extended, 0 not held. */
const char redlock__lua_sem_extend[] =
    "local K, S, t = KEYS[1], KEYS[2], tonumber(ARGV[2]) "
    "if redis.call('type', K).ok ~= 'hash' or ARGV[1] == '#' or "
    "redis.call('hexists', K, ARGV[1]) == 0 or redis.call('exists', S) == 0 then return 0 end "
    "redis.call('pexpire', S, t) "
    "if redis.call('pttl', K) < t then redis.call('pexpire', K, t) end return 1";
/* KEYS: K, {K}:s:<v> [, ...]; ARGV: v [, ...].  1 released, 0 not held
 * (an ended permit's field goes too); K goes with its last holder. */
const char redlock__lua_sem_release[] =
    "local K, S, v = KEYS[1], KEYS[2], ARGV[1] "
    "if v == '#' or redis.call('type', K).ok ~= 'hash' or "
    "redis.call('hexists', K, v) == 0 then return 0 end "
    "local live = redis.call('del', S) redis.call('hdel', K, v) "
    "if redis.call('hlen', K) <= 1 then redis.call('del', K) end return live";
/* The release while someone waits (lock.h, redlock__wake_hook): KEYS: K,
 * {K}:s:<v>; ARGV: v, the wake window, this master's pick, the
 * releaser's own waiter id, the registry's life.  The release, then the
 * longest waiter is told (a permit is free).  0 not held, else 1 + the
 * registry's count. */
const char redlock__lua_sem_release_wq[] =
    "local K, S, v = KEYS[1], KEYS[2], ARGV[1] "
    REDLOCK__LUA_REGISTRY REDLOCK__LUA_PICK_FN
    "if ARGV[4] ~= '' then redis.pcall('zrem', q, ARGV[4]) end "
    "if v == '#' or redis.call('type', K).ok ~= 'hash' or "
    "redis.call('hexists', K, v) == 0 then return 0 end "
    "local live = redis.call('del', S) redis.call('hdel', K, v) "
    "if redis.call('hlen', K) <= 1 then redis.call('del', K) end "
    "local n = pick(q, '') if live == 0 then return 0 end return n";
/* KEYS: K, {K}:s:<v>, {K}:fence; ARGV: v, token.  While the permit is
 * held: raise the counter to the token. */
const char redlock__lua_sem_fence_raise[] =
    "if redis.call('exists', KEYS[2]) == 0 then return 0 end "
    "local t = tonumber(ARGV[2]) "
    "if (tonumber(redis.call('get', KEYS[3])) or 0) < t then "
    "redis.call('set', KEYS[3], ARGV[2]) end return 1";

/* A master's count differs (op->value of a refusing node). */
#define MISMATCH INT64_MIN

/* The kind's part of a handle: P, and room for {K}:s:<v>. */
typedef struct sem_part {
    unsigned permits;
    char *s;
    size_t stem, cap;
} sem_part;

static const redlock__op_kind kind_acquire, kind_acquire_fenced, kind_fence_raise;

static size_t nkeys_of(const redlock__op *op)
{
    return op->kind == &kind_acquire_fenced || op->kind == &kind_fence_raise ? 3 : 2;
}

static int encode_acquire(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_SEM_ACQUIRE, nkeys_of(op),
                                op->ttl_ms);
}

static int encode_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_SEM_EXTEND, 2, op->ttl_ms);
}

static int encode_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_SEM_RELEASE, 2, 0);
}

/* A lost acquire: the release script, as EVAL (it may go after a
 * reconnect); its extra items are not read. */
static int encode_undo(const redlock__op *op, redlock__buf *out)
{
    return redlock__encode_eval(op, out, 1, REDLOCK__SCRIPT_SEM_RELEASE, nkeys_of(op), 0);
}

static int encode_fence_raise(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return redlock__encode_eval(op, out, eval, REDLOCK__SCRIPT_SEM_FENCE_RAISE, 3, 0);
}

/* The permit count the op asks for (acquire's item after v). */
static unsigned long long permits_of(const redlock__op *op)
{
    size_t len;
    const char *p = redlock__op_item(op, nkeys_of(op) + 1, &len);
    unsigned long long n = 0;
    for (size_t i = 0; i < len; i++)
        n = n * 10 + (unsigned long long)(p[i] - '0');
    return n;
}

static int classify_acquire(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type != REDLOCK__REPLY_INTEGER)
        return redlock__classify_script(op, node, r);
    if (r->integer > 0) {
        op->value[node] = r->integer;       /* fenced: the counter */
        return REDLOCK__OK;
    }
    if (r->integer == 0) {
        if (permits_of(op) == 1)
            redlock__op_refusal(op, node, "the 1 permit is held");
        else
            redlock__op_refusal(op, node, "all %llu permits are held", permits_of(op));
    } else if (r->integer == -1) {
        redlock__op_refusal(op, node, "held by a lock of another kind");
    } else if (r->integer == -2) {
        redlock__op_refusal(op, node, "the value \"#\" names the permit count's field");
        op->value[node] = MISMATCH;
    } else {
        redlock__op_refusal(op, node, "the semaphore has %lld permits here, this handle %llu",
                            -2 - r->integer, permits_of(op));
        op->value[node] = MISMATCH;
    }
    return REDLOCK__REFUSED;
}

static int classify_held(redlock__op *op, size_t node, const redlock__reply *r)
{
    int v = redlock__classify_script(op, node, r);
    if (v == REDLOCK__REFUSED)
        redlock__op_refusal(op, node, "this handle holds no permit here");
    return v;
}

static int encode_release_wq(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__encode_release_wq(op, node, out, eval, REDLOCK__SCRIPT_SEM_RELEASE_WQ);
}

static int classify_release_wq(redlock__op *op, size_t node, const redlock__reply *r)
{
    int v = redlock__classify_release(op, node, r);
    if (v == REDLOCK__REFUSED)
        redlock__op_refusal(op, node, "this handle holds no permit here");
    return v;
}

#define FLAGS_ACQUIRE (REDLOCK__KIND_WRITES | REDLOCK__KIND_CLEAN_NO)
/* (the rules' majority is replaced by the handle's quorum: l->quorum) */
#define MAJORITY { REDLOCK__RULE_MAJORITY, 0 }

static const redlock__op_kind kind_acquire = {
    .name = "acquire", .rule = MAJORITY, .flags = FLAGS_ACQUIRE,
    .encode = encode_acquire, .classify = classify_acquire, .encode_undo = encode_undo };
static const redlock__op_kind kind_acquire_fenced = {
    .name = "acquire", .rule = MAJORITY, .flags = FLAGS_ACQUIRE,
    .encode = encode_acquire, .classify = classify_acquire, .encode_undo = encode_undo };
static const redlock__op_kind kind_extend = {
    .name = "extend", .rule = MAJORITY, .encode = encode_extend, .classify = classify_held };
static const redlock__op_kind kind_release = {
    .name = "release", .rule = MAJORITY, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_release, .classify = classify_held };
static const redlock__op_kind kind_fence_raise = {
    .name = "fence", .rule = MAJORITY, .encode = encode_fence_raise,
    .classify = classify_held };
static const redlock__op_kind kind_release_wq = {
    .name = "release", .rule = MAJORITY, .flags = REDLOCK__KIND_UNDOES | REDLOCK__KIND_PER_NODE,
    .encode = encode_release_wq, .classify = classify_release_wq };

static redlock__op *sem_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                           int64_t token)
{
    sem_part *sp = l->kd;
    char num[24];
    const char *item[5];
    size_t len[5], n = 0, nkeys;

    if (sp->cap < sp->stem + l->valuelen) {
        char *s = realloc(sp->s, sp->stem + l->valuelen);
        if (!s)
            return NULL;
        sp->s = s;
        sp->cap = sp->stem + l->valuelen;
    }
    memcpy(sp->s + sp->stem, l->value, l->valuelen);
    item[n] = l->key;
    len[n++] = l->keylen;
    item[n] = sp->s;
    len[n++] = sp->stem + l->valuelen;
    if (kind == &kind_acquire_fenced || kind == &kind_fence_raise) {
        item[n] = l->fence_key;
        len[n++] = l->fence_keylen;
    }
    nkeys = n;
    item[n] = l->value;
    len[n++] = l->valuelen;
    if (kind == &kind_release_wq)
        return redlock__lock_release_wq(l, kind, ttl_ms, nkeys, item, len);
    if (kind == &kind_acquire || kind == &kind_acquire_fenced) {
        item[n] = num;
        len[n++] = redlock__u64_str(num, sp->permits);
    } else if (kind == &kind_fence_raise) {
        item[n] = num;
        len[n++] = redlock__u64_str(num, (uint64_t)token);
    }
    return redlock__lock_new_op(l, kind, ttl_ms, nkeys, n - nkeys, item, len);
}

/* A master that refused the permit count ends the acquire. */
static int sem_fatal(redlock_lock *l, const redlock__op *op)
{
    for (size_t i = 0; i < op->f->n; i++) {
        if (op->votes[i] != REDLOCK__REFUSED || op->value[i] != MISMATCH)
            continue;
        redlock__lock_err(l, "acquire: %s: node %zu (%s): %s", redlock_strerror(REDLOCK_EPERMITS),
                          i, op->f->masters[i].label, op->detail[i]);
        return REDLOCK_EPERMITS;
    }
    return 0;
}

static void sem_free(redlock_lock *l)
{
    sem_part *sp = l->kd;
    if (sp)
        free(sp->s);
    free(sp);
    l->kd = NULL;
}

/* Waiters: on K; every release frees a permit and wakes one of them (a
 * winner leaves the queue: the other holders' releases pick meanwhile). */
static const redlock__wake_hook sem_wake = { .release_wq = &kind_release_wq, .win_leaves = 1 };

const redlock__family redlock__semaphore = {
    .kind = REDLOCK_KIND_SEMAPHORE, .acquire = &kind_acquire, .extend = &kind_extend,
    .release = &kind_release, .acquire_fenced = &kind_acquire_fenced,
    .fence_raise = &kind_fence_raise, .op = sem_op, .free = sem_free, .fatal = sem_fatal,
    .wake = &sem_wake };

static int new_semaphore(redlock_lock **out, redlock_client *c, const void *resource, size_t len,
                         unsigned permits)
{
    sem_part *sp;
    int rc;

    if (!out)
        return redlock__lock_refuse(c, "out is NULL");
    *out = NULL;
    if (permits < 1 || permits > MAX_PERMITS)
        return redlock__lock_refuse(c, "a semaphore has 1 .. %d permits, not %u", MAX_PERMITS,
                                    permits);
    if (!(sp = calloc(1, sizeof *sp)))
        return REDLOCK_ENOMEM;
    if ((rc = redlock__lock_create(out, c, resource, len, &redlock__semaphore)) != 0) {
        free(sp);
        return rc;
    }
    sp->permits = permits;
    sp->stem = redlock__aux_key(*out, ":s:", NULL);
    sp->cap = sp->stem + REDLOCK__VALUE_HEX;
    if (!(sp->s = malloc(sp->cap))) {
        free(sp);
        redlock_lock_free(*out);
        *out = NULL;
        return REDLOCK_ENOMEM;
    }
    redlock__aux_key(*out, ":s:", sp->s);
    (*out)->kd = sp;
    (*out)->quorum = REDLOCK__MUTANT(SEM_MAJORITY) ? (unsigned)c->fleet.n / 2 + 1
                     : redlock__semaphore_quorum((unsigned)c->fleet.n, permits);
    return 0;
}

int redlock_lock_new_semaphore(redlock_lock **out, redlock_client *c, const void *resource,
                               size_t len, unsigned permits)
{
    REDLOCK__GATED(c, int, new_semaphore(out, c, resource, len, permits));
}
