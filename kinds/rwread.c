/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rwread.c -- the read/write lock's read handles (rwlock.c has the design,
 * the write handles and what both share): the reader's pipelined acquire,
 * its extend (a script), its release (DEL and SREM) and its undo.
 */
#include <stdlib.h>
#include <string.h>
#include "kinds/kinds.h"

/* The reader's extend.  KEYS: own key, K, mark; ARGV: id, ttl[, "1": re-grow
 * where the own key or the id is gone].  1 extended, 2 re-grown, 0 not
 * held, -1 a writer, -2 a writer is waiting (the writer does not count
 * this reader here: see the mark). */
const char redlock__lua_rw_read_extend[] =
    "local t = redis.call('type', KEYS[2]).ok "
    "if t ~= 'set' and t ~= 'none' then return -1 end "
    "local w = redis.call('exists', KEYS[3]) == 1 "
    "if redis.call('exists', KEYS[1]) == 1 and redis.call('sismember', KEYS[2], ARGV[1]) == 1 "
    "then if w and redis.call('hexists', KEYS[3], 'r:' .. ARGV[1]) == 0 then return -2 end "
    "redis.call('pexpire', KEYS[1], ARGV[2]) return 1 end "
    "if ARGV[3] ~= '1' then return 0 end if w then return -2 end "
    "redis.call('set', KEYS[1], '1', 'px', ARGV[2]) redis.call('sadd', KEYS[2], ARGV[1]) "
    "return 2";
/* A reader's undo (one command: the undo queue expects one reply). */
const char redlock__lua_rw_read_release[] =
    "local d = redis.call('del', KEYS[1]) "
    "if redis.call('type', KEYS[2]).ok == 'set' then redis.call('srem', KEYS[2], ARGV[1]) end "
    "return d";
/* A later attempt of a reader's acquire (an earlier one was refused):
 * KEYS: K, own key, mark, {K}:rw; ARGV: id, ttl, the record's ms ("0":
 * the last attempt: no record, this reader's removed), the waiter's id
 * (the handle's: the same in every attempt, unlike the hold's id).  Refused (-1 a
 * writer holds, -2 one waits and this reader has no turn): the reader
 * records that it waits, in {K}:rq (scored by the master's time when the
 * record expires) and {K}:rw (its value the record's ms: a turn's life,
 * for a writer's release that wakes).  Else it joins like the plain acquire; its
 * turn, if any, is spent, the last one ends the turn; where a writer
 * waits, its mark lists this reader (that writer counts it). */
const char redlock__lua_rw_read_wait[] =
    "local q, tk = '{' .. KEYS[1] .. '}:rq', '{' .. KEYS[1] .. '}:rd:~' "
    "local t = redis.call('type', KEYS[1]).ok "
    "local mine = redis.call('sismember', tk, ARGV[4]) == 1 "
    "local w = redis.call('exists', KEYS[3]) == 1 "
    "local r = 0 if t ~= 'set' and t ~= 'none' then r = -1 elseif w and not mine then r = -2 end "
    "if r < 0 then if ARGV[3] == '0' then redis.call('zrem', q, ARGV[4]) return r end "
    "local now = redis.call('time') "
    "redis.call('zadd', q, now[1] * 1000 + math.floor(now[2] / 1000) + tonumber(ARGV[3]), ARGV[4]) "
    "redis.call('pexpire', q, ARGV[3]) redis.call('set', KEYS[4], ARGV[3], 'px', ARGV[3]) return r end "
    "redis.call('set', KEYS[2], '1', 'px', ARGV[2]) redis.call('sadd', KEYS[1], ARGV[1]) "
    "if w then redis.call('hset', KEYS[3], 'r:' .. ARGV[1], '1') end "
    "redis.call('zrem', q, ARGV[4]) "
    "if mine then redis.call('srem', tk, ARGV[4]) "
    "if redis.call('exists', tk) == 0 then redis.call('srem', KEYS[1], '~') end end "
    "return 1";
/* A reader's release while someone waits (lock.h, redlock__wake_hook):
 * KEYS: K, own key; ARGV: id, the wake window, this master's pick, the
 * releaser's own waiter id, the registry's life.  The plain release's
 * work; the last reader's (K gone with its id) tells, on the picking
 * master, the writer whose mark waits (role "w"), at the front of its
 * handle's id: its client's waiter id), else picks the longest waiter.
 * A reader that leaves others in K tells nobody.  1 + the registry's
 * count, 1 where nobody was told, 0 not held there. */
const char redlock__lua_rw_read_release_wq[] =
    REDLOCK__LUA_REGISTRY REDLOCK__LUA_PICK_FN
    "if ARGV[4] ~= '' then redis.pcall('zrem', q, ARGV[4]) end "
    "local d = redis.call('del', KEYS[2]) "
    "if redis.call('type', KEYS[1]).ok ~= 'set' then return d end "
    "redis.call('srem', KEYS[1], ARGV[1]) "
    "if d == 0 then return 0 end "
    "if redis.call('exists', KEYS[1]) == 1 or ARGV[3] == '0' then return 1 end "
    "local w = redis.pcall('hget', '{' .. KEYS[1] .. '}:ww', 'w') "
    "if type(w) == 'string' and #w > 16 then "
    "local n = redis.pcall('zcard', q) if type(n) ~= 'number' then n = 0 end "
    "local r = redis.pcall('publish', q .. ':' .. string.sub(w, 1, 16), "
    "ARGV[2] .. ':' .. n .. ':1:w') "
    "if type(r) == 'number' and r > 0 then return 1 + n end end "
    "return pick(q, '')";
/* A reader that gives up (read_abandon_hook, below).  KEYS: K, {K}:rw;
 * ARGV: the waiter's id.  Its place among the readers waiting goes, and
 * {K}:rw with the last one (no reader waits: a writer's release makes no
 * turn); its place in a turn goes, and the turn's member "~" of K with
 * the last one (the SREM of K's last member deletes K).  The number of
 * records removed. */
const char redlock__lua_rw_read_abandon[] =
    "local q, tk = '{' .. KEYS[1] .. '}:rq', '{' .. KEYS[1] .. '}:rd:~' "
    "local n = redis.call('zrem', q, ARGV[1]) "
    "if redis.call('exists', q) == 0 then redis.call('del', KEYS[2]) end "
    "if redis.call('srem', tk, ARGV[1]) == 1 then n = n + 1 "
    "if redis.call('exists', tk) == 0 and redis.call('type', KEYS[1]).ok == 'set' then "
    "redis.call('srem', KEYS[1], '~') end end "
    "return n";
/* ---- encoding ------------------------------------------------------------ */

/* Items of a read op: K, {K}:rd:<id>, {K}:ww, id[, {K}:rw, record ms,
 * the waiter's id]. */
enum { R_KEY, R_OWN, R_MARK, R_ID, R_FLAG, R_MS, R_WID, R_N };
/* SET {K}:rd:<id> 1 PX ttl; SADD K <id>; EXISTS {K}:ww; SISMEMBER K <id>, in
 * this order (the safety argument, docs/kinds.md). */
static int encode_read(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char own[] = { R_OWN }, key_id[] = { R_KEY, R_ID }, mark[] = { R_MARK };
    char ttl[24];
    const char *set[] = { "SET", "1", "PX", ttl };
    const char *sadd[] = { "SADD" }, *exists[] = { "EXISTS" }, *ismember[] = { "SISMEMBER" };
    (void)node;
    (void)eval;
    ttl[redlock__u64_str(ttl, (uint64_t)op->ttl_ms)] = '\0';
    if (redlock__rw_cmd(op, out, set, 4, own, 1) != 0 || redlock__rw_cmd(op, out, sadd, 1, key_id, 2) != 0 ||
        redlock__rw_cmd(op, out, exists, 1, mark, 1) != 0)
        return REDLOCK_ENOMEM;
    return redlock__rw_cmd(op, out, ismember, 1, key_id, 2);
}

/* A later attempt: the waiting reader's script (ARGV: id, ttl, the
 * record's ms, the waiter's id). */
static int encode_read_wait(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char pick[] = { R_KEY, R_OWN, R_MARK, R_FLAG, R_ID };
    const char *argv[11];
    size_t len[11], argc = 0, n;
    char nk[24], ttl[24];
    static const unsigned char rest[] = { R_MS, R_WID };
    (void)node;
    argv[argc] = eval ? "EVAL" : "EVALSHA";
    len[argc++] = eval ? 4 : 7;
    argv[argc] = eval ? op->f->net->scripts[REDLOCK__SCRIPT_RW_READ_WAIT]
                      : op->f->sha[REDLOCK__SCRIPT_RW_READ_WAIT];
    len[argc] = eval ? strlen(argv[argc]) : 40;
    argc++;
    argv[argc] = nk;
    len[argc++] = redlock__u64_str(nk, 4);
    for (n = 0; n < sizeof pick; n++, argc++)
        argv[argc] = redlock__op_item(op, pick[n], &len[argc]);
    argv[argc] = ttl;
    len[argc++] = redlock__u64_str(ttl, (uint64_t)op->ttl_ms);
    for (n = 0; n < sizeof rest; n++, argc++)
        argv[argc] = redlock__op_item(op, rest[n], &len[argc]);
    return redlock__resp_command(out, (int)argc, argv, len);
}

static int encode_extend(const redlock__op *op, redlock__buf *out, int eval, int regrow)
{
    static const unsigned char pick[] = { R_OWN, R_KEY, R_MARK, R_ID };
    return redlock__rw_eval(op, out, eval, REDLOCK__SCRIPT_RW_READ_EXTEND, pick, 4, 3, op->ttl_ms,
                       regrow ? "1" : NULL);
}

static int encode_read_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return encode_extend(op, out, eval, 0);
}

/* re-grows only where the master restarted since the hold began */
static int encode_read_regrow(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return encode_extend(op, out, eval, op->value[node] == 1);
}

/* The undo of a read attempt, or a release owed to a master it could not
 * reach: one script, as EVAL (it may follow a reconnect, to a server whose
 * script cache is empty). */
static int encode_read_undo(const redlock__op *op, redlock__buf *out)
{
    static const unsigned char pick[] = { R_OWN, R_KEY, R_ID };
    return redlock__rw_eval(op, out, 1, REDLOCK__SCRIPT_RW_READ_RELEASE, pick, 3, 2, 0, NULL);
}

/* DEL {K}:rd:<id>; SREM K <id> (the id is this hold's alone: no compare).
 * Its EVAL form is only ever the owed release (fanout.c, undelivered),
 * never a resend: its replies never ask for one. */
static int encode_read_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char own[] = { R_OWN }, key_id[] = { R_KEY, R_ID };
    const char *del[] = { "DEL" }, *srem[] = { "SREM" };
    (void)node;
    if (eval)
        return encode_read_undo(op, out);
    if (redlock__rw_cmd(op, out, del, 1, own, 1) != 0)
        return REDLOCK_ENOMEM;
    return redlock__rw_cmd(op, out, srem, 1, key_id, 2);
}

/* ---- replies -------------------------------------------------------------- */

/* The reader's SET, SADD (into a writer's string: WRONGTYPE) and EXISTS
 * of the mark, told apart by their rank, counted in op->value[node]. */
static int classify_read_lead(redlock__op *op, size_t node, const redlock__reply *r)
{
    int64_t rank = op->value[node]++;

    if (rank == 0)
        return redlock__reply_ok(r) ? REDLOCK__OK : REDLOCK__ERROR;
    if (r->type == REDLOCK__REPLY_INTEGER && (rank == 1 || r->integer == 0))
        return REDLOCK__OK;
    if (r->type == REDLOCK__REPLY_INTEGER) {
        redlock__op_refusal(op, node, "a writer is waiting");
        return REDLOCK__REFUSED;
    }
    if (redlock__reply_wrongtype(r)) {
        /* a writer's string or another kind's key (a semaphore's hash):
         * telling them apart would cost a TYPE on every refusal */
        redlock__op_refusal(op, node, "held by a writer or a lock of another kind");
        return REDLOCK__REFUSED;
    }
    return REDLOCK__ERROR;
}

/* The reader's SISMEMBER, last: still in K, so no writer took K since the
 * SADD (a writer's SET replaces the set). */
static int classify_read(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (op->first[node] != REDLOCK__OK)
        return op->first[node];
    if (r->type == REDLOCK__REPLY_INTEGER && r->integer == 1)
        return REDLOCK__OK;
    if (r->type == REDLOCK__REPLY_INTEGER || redlock__reply_wrongtype(r)) {
        redlock__op_refusal(op, node, "held by a writer or a lock of another kind");
        return REDLOCK__REFUSED;
    }
    return REDLOCK__ERROR;
}

/* The release's DEL: 1 the hold was there, 0 not. */
static int classify_del(redlock__op *op, size_t node, const redlock__reply *r)
{
    (void)op;
    (void)node;
    if (r->type != REDLOCK__REPLY_INTEGER)
        return REDLOCK__ERROR;
    return r->integer == 1 ? REDLOCK__OK : REDLOCK__REFUSED;
}

/* The release votes with its DEL; its SREM answers WRONGTYPE where a
 * writer holds K (this reader was not in it there). */
static int classify_read_release(redlock__op *op, size_t node, const redlock__reply *r)
{
    (void)r;
    return op->first[node] == REDLOCK__PENDING ? REDLOCK__ERROR : op->first[node];
}

/* ---- the kinds -------------------------------------------------------------- */

#define MAJORITY { REDLOCK__RULE_MAJORITY, 0 }

static const redlock__op_kind read_acquire = {
    .name = "acquire", .rule = MAJORITY, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_read, .classify = classify_read, .encode_undo = encode_read_undo,
    .classify_first = classify_read_lead, .nlead = 3 };
/* A later attempt of an acquire (an earlier one was refused): the
 * waiting reader's script, its undo the plain attempt's. */
static const redlock__op_kind read_wait = {
    .name = "acquire", .rule = MAJORITY, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_read_wait, .classify = redlock__rw_classify, .encode_undo = encode_read_undo };
static const redlock__op_kind read_extend = {
    .name = "extend", .rule = MAJORITY, .encode = encode_read_extend, .classify = redlock__rw_classify };
static const redlock__op_kind read_regrow = {
    .name = "extend", .rule = MAJORITY, .flags = REDLOCK__KIND_REGROW | REDLOCK__KIND_PER_NODE,
    .encode = encode_read_regrow, .classify = redlock__rw_classify };
static const redlock__op_kind read_release = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_read_release, .classify = classify_read_release,
    .classify_first = classify_del };
static int encode_read_release_wq(const redlock__op *op, size_t node, redlock__buf *out,
                                  int eval)
{
    return redlock__encode_release_wq(op, node, out, eval, REDLOCK__SCRIPT_RW_READ_RELEASE_WQ);
}

static const redlock__op_kind read_release_wq = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 },
    .flags = REDLOCK__KIND_UNDOES | REDLOCK__KIND_PER_NODE,
    .encode = encode_read_release_wq, .classify = redlock__classify_release };

static redlock__op *read_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                            int64_t token)
{
    redlock__rw_keys *k = l->kd;
    size_t pre = redlock__aux_key(l, ":rd:", NULL), need = pre + l->valuelen;
    (void)token;

    if (need > k->owncap) {
        char *p = realloc(k->own, need);
        if (!p)
            return NULL;
        k->own = p;
        k->owncap = need;
    }
    /* {K}:rd:<id>, the id being this hold's value */
    redlock__aux_key(l, ":rd:", k->own);
    memcpy(k->own + pre, l->value, l->valuelen);
    k->ownlen = need;
    {
        char ms[24];
        const char *item[R_N] = { l->key, k->own, k->mark, l->value, k->flag, ms, k->mark_id };
        size_t len[R_N] = { l->keylen, k->ownlen, k->marklen, l->valuelen, k->flaglen, 0,
                            REDLOCK__RW_MARK_ID };
        if (kind == &read_release_wq) {
            const char *wq[3] = { l->key, k->own, l->value };
            size_t wlen[3] = { l->keylen, k->ownlen, l->valuelen };
            return redlock__lock_release_wq(l, kind, ttl_ms, 2, wq, wlen);
        }
        if (kind == &read_acquire)
            redlock__rw_own_id(l);
        /* a later attempt of an acquire: the waiting reader's script */
        if (kind == &read_acquire && l->busy == REDLOCK__LOCK_ACQUIRE && l->fl->later) {
            int64_t wms = redlock__rw_wait_ms(l);
            len[R_MS] = redlock__u64_str(ms, (uint64_t)wms);
            k->may_mark |= wms > 0;     /* it may record this reader */
            return redlock__lock_new_op(l, &read_wait, ttl_ms, 4, 3, item, len);
        }
        if (kind == &read_acquire)
            k->may_mark = 0;            /* a first attempt records nothing */
        return redlock__lock_new_op(l, kind, ttl_ms, 3, 1, item, len);
    }
}

/* ---- a reader that gives up: its records taken away ---------------------- */

static int encode_abandon(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char pick[] = { 0, 1, 2 };
    (void)node;
    return redlock__rw_eval(op, out, eval, REDLOCK__SCRIPT_RW_READ_ABANDON, pick, 3, 2, 0, NULL);
}

/* Whatever a master answers, nothing depends on it: the records would
 * expire by themselves (redlock__rw_wait_ms). */
static int classify_abandon(redlock__op *op, size_t node, const redlock__reply *r)
{
    int v = redlock__classify_script(op, node, r);
    return v < 0 ? v : REDLOCK__OK;
}

static const redlock__op_kind read_abandon = {
    .name = "abandon", .rule = MAJORITY, .encode = encode_abandon,
    .classify = classify_abandon };

/* An acquire whose later attempts may have recorded this reader (in
 * {K}:rq, then perhaps a turn) ends without the lock: those records go,
 * on every master, behind the undos of its attempts (each master's
 * requests are answered in order), so that no writer's release makes a
 * turn for a reader that is gone.  (A last attempt refused removes them
 * itself, ARGV "0" of the waiting reader's script; a cancel comes between
 * attempts, and an attempt that times out on a master may not arrive.) */
static void read_abandon_hook(redlock_lock *l)
{
    redlock__rw_keys *k = l->kd;
    const char *item[3] = { l->key, k->flag, k->mark_id };
    size_t len[3] = { l->keylen, k->flaglen, REDLOCK__RW_MARK_ID };
    redlock__op *op;

    if (!k->may_mark)
        return;
    k->may_mark = 0;
    if ((op = redlock__lock_new_op(l, &read_abandon, 0, 2, 1, item, len)))
        redlock__op_start(op, NULL, NULL);     /* (out of memory: they expire) */
}

/* A reader's release wakes a writer when it is the last one; its waiters
 * are woken by a message for readers ("r"): a writer's release (rwlock.c). */
static const redlock__wake_hook read_wake = { .release_wq = &read_release_wq, .role = 'r' };

const redlock__family redlock__read = {
    .kind = REDLOCK_KIND_READ, .acquire = &read_acquire, .extend = &read_extend,
    .release = &read_release, .extend_regrow = &read_regrow, .op = read_op, .free = redlock__rw_free,
    .abandon = read_abandon_hook, .wake = &read_wake };

int redlock_lock_new_read(redlock_lock **out, redlock_client *c, const void *resource, size_t len)
{
    REDLOCK__GATED(c, int, redlock__rw_new(out, c, resource, len, &redlock__read));
}

