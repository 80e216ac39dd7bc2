/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rwlock.c -- the read/write lock: many readers or one writer.  With K the
 * lock's key (prefix + resource), each master keeps
 *
 *   K            the writer's hold: its value, PX ttl (a mutex's key)
 *   K:rd:<v>     one key per reader hold v, PX its own ttl
 *   K:rd         the set of reader values; its ttl is never shorter than
 *                the longest reader key's, so no live reader is missing
 *   K:ww         a waiting writer's mark (its id), PX until its next attempt
 *
 * A writer is granted on a master only when K is free and no reader key in
 * K:rd is alive (the dead ones are swept: the server's TTL ended them); a
 * reader only when K and K:ww are free.  Both need a quorum, and two quorums
 * share a master, so a reader and a writer never both hold.  Expiry is the
 * servers' own TTL of each hold's key: no client writes a timestamp.
 *
 * The write family's key is exactly a mutex's, so extend, release, the
 * re-growing extend and the fencing raise are the mutex's; only its acquire
 * is a script of its own.  Every script refuses with a negative integer that
 * says who holds the resource: -1 a writer, -2 a writer is waiting, -2-n n
 * readers.
 */
#include <stdlib.h>
#include <string.h>
#include "lock_private.h"

const char redlock__lua_rw_read[] =
    "if redis.call('exists', KEYS[1], KEYS[3]) > 0 then "
    "if redis.call('exists', KEYS[1]) == 1 then return -1 end return -2 end "
    "redis.call('set', KEYS[4], '1', 'px', ARGV[2]) "
    "redis.call('sadd', KEYS[2], ARGV[1]) "
    "if redis.call('pttl', KEYS[2]) < tonumber(ARGV[2]) then "
    "redis.call('pexpire', KEYS[2], ARGV[2]) end return 1";
/* KEYS: reader key, set, K; ARGV: value, ttl[, "1": re-grow the reader key
 * where it is gone, unless a writer holds K] */
const char redlock__lua_rw_read_extend[] =
    "local r = 1 "
    "if redis.call('pexpire', KEYS[1], ARGV[2]) == 0 then "
    "if not ARGV[3] then return 0 end "
    "if redis.call('exists', KEYS[3]) == 1 then return -1 end "
    "redis.call('set', KEYS[1], '1', 'px', ARGV[2]) r = 2 end "
    "redis.call('sadd', KEYS[2], ARGV[1]) "
    "if redis.call('pttl', KEYS[2]) < tonumber(ARGV[2]) then "
    "redis.call('pexpire', KEYS[2], ARGV[2]) end return r";
const char redlock__lua_rw_read_release[] =
    "redis.call('srem', KEYS[2], ARGV[1]) return redis.call('del', KEYS[1])";
/* KEYS: K, set, mark; ARGV: value, mark id, mark ms ("0": no mark), ttl.
 * Uncontended (none of the three exists): one EXISTS, one SET. */
const char redlock__lua_rw_write[] =
    "if redis.call('exists', KEYS[1], KEYS[2], KEYS[3]) == 0 then "
    "redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[4]) return 1 end "
    "if redis.call('exists', KEYS[1]) == 1 then return -1 end "
    "local n = 0 "
    "for _, m in ipairs(redis.call('smembers', KEYS[2])) do "
    "if redis.call('exists', KEYS[1] .. ':rd:' .. m) == 1 then n = n + 1 "
    "else redis.call('srem', KEYS[2], m) end end "
    "local w = redis.call('get', KEYS[3]) "
    "if n > 0 then "
    "if ARGV[3] ~= '0' and (not w or w == ARGV[2]) then "
    "redis.call('set', KEYS[3], ARGV[2], 'px', ARGV[3]) end return -2 - n end "
    "redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[4]) "
    "if w == ARGV[2] then redis.call('del', KEYS[3]) end return 1";

#define MARK_ID_LEN 32

/* The kind's part of a handle: the derived key names. */
typedef struct rw_keys {
    char *set, *mark, *reader;      /* K:rd, K:ww, K:rd:<value> */
    size_t setlen, marklen, readerlen, readercap;
    char mark_id[MARK_ID_LEN + 1];  /* this handle's id in K:ww */
} rw_keys;

/* ---- encoding ------------------------------------------------------------ */

/* EVAL(SHA) of `script`: KEYS the op's items pick[0 .. nkeys), ARGV the
 * items pick[nkeys .. npick), then ttl_ms unless 0, then `flag` unless NULL. */
static int encode_pick(const redlock__op *op, redlock__buf *out, int eval, int script,
                       const unsigned char *pick, size_t npick, size_t nkeys, int64_t ttl_ms,
                       const char *flag)
{
    const char *argv[12];
    size_t len[12], argc = 3;
    char nk[24], ttl[24];

    argv[0] = eval ? "EVAL" : "EVALSHA";
    len[0] = eval ? 4 : 7;
    argv[1] = eval ? redlock__script_body[script] : op->f->sha[script];
    len[1] = eval ? strlen(argv[1]) : 40;
    argv[2] = nk;
    len[2] = redlock__u64_str(nk, nkeys);
    for (size_t i = 0; i < npick; i++, argc++)
        argv[argc] = redlock__op_item(op, pick[i], &len[argc]);
    if (ttl_ms) {
        argv[argc] = ttl;
        len[argc++] = redlock__u64_str(ttl, (uint64_t)ttl_ms);
    }
    if (flag) {
        argv[argc] = flag;
        len[argc++] = strlen(flag);
    }
    return redlock__resp_command(out, (int)argc, argv, len);
}

/* Items of a read op: K, K:rd, K:ww, K:rd:<value>, value. */
enum { R_KEY, R_SET, R_MARK, R_READER, R_VALUE, R_N };
/* Items of a write acquire: K, K:rd, K:ww, value, mark id, mark ms[, K:fence]. */
enum { W_KEY, W_SET, W_MARK, W_VALUE, W_ID, W_MS, W_FENCE, W_N };

static int encode_read(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char pick[] = { R_KEY, R_SET, R_MARK, R_READER, R_VALUE };
    (void)node;
    return encode_pick(op, out, eval, REDLOCK__SCRIPT_RW_READ, pick, 5, 4, op->ttl_ms, NULL);
}

static int read_extend(const redlock__op *op, redlock__buf *out, int eval, int regrow)
{
    static const unsigned char pick[] = { R_READER, R_SET, R_KEY, R_VALUE };
    return encode_pick(op, out, eval, REDLOCK__SCRIPT_RW_READ_EXTEND, pick, 4, 3, op->ttl_ms,
                       regrow ? "1" : NULL);
}

static int encode_read_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return read_extend(op, out, eval, 0);
}

static int encode_read_regrow(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return read_extend(op, out, eval, 1);
}

static int encode_read_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char pick[] = { R_READER, R_SET, R_VALUE };
    (void)node;
    return encode_pick(op, out, eval, REDLOCK__SCRIPT_RW_READ_RELEASE, pick, 3, 2, 0, NULL);
}

/* A lost read attempt is undone by the release, as EVAL (it may follow a
 * reconnect, to a server whose script cache is empty). */
static int encode_read_undo(const redlock__op *op, redlock__buf *out)
{
    return encode_read_release(op, SIZE_MAX, out, 1);
}

static int encode_write(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char pick[] = { W_KEY, W_SET, W_MARK, W_VALUE, W_ID, W_MS };
    (void)node;
    return encode_pick(op, out, eval, REDLOCK__SCRIPT_RW_WRITE, pick, 6, 3, op->ttl_ms, NULL);
}

/* The write script, then INCR K:fence, pipelined (the counter only has to
 * grow, so it is incremented whatever the script said). */
static int encode_write_fenced(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    size_t clen;
    const char *argv[2] = { "INCR", redlock__op_item(op, W_FENCE, &clen) };
    size_t len[2] = { 4, clen };

    if (encode_write(op, node, out, eval) != 0)
        return REDLOCK_ENOMEM;
    return redlock__resp_command(out, 2, argv, len);
}

/* A lost write attempt: the mutex's compare-and-DEL of K, as EVAL. */
static int encode_write_undo(const redlock__op *op, redlock__buf *out)
{
    static const unsigned char pick[] = { W_KEY, W_VALUE };
    return encode_pick(op, out, 1, REDLOCK__SCRIPT_RELEASE, pick, 2, 1, 0, NULL);
}

/* ---- replies -------------------------------------------------------------- */

/* The scripts' replies: a refusal says who holds the resource. */
static int classify_rw(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type != REDLOCK__REPLY_INTEGER || r->integer >= 0)
        return redlock__classify_script(op, node, r);
    if (r->integer == -1)
        redlock__op_refusal(op, node, "held by a writer");
    else if (r->integer == -2)
        redlock__op_refusal(op, node, "a writer is waiting");
    else
        redlock__op_refusal(op, node, "held by %lld reader%s", -2 - r->integer,
                            r->integer == -3 ? "" : "s");
    return REDLOCK__REFUSED;
}

/* The fenced write: the script's vote (NOSCRIPT: resend both), with the
 * counter as its value. */
static int classify_write_fenced(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (op->first[node] == (unsigned char)-1)
        return -1;
    if (op->first[node] != REDLOCK__OK)
        return op->first[node];
    if (r->type != REDLOCK__REPLY_INTEGER || r->integer <= 0)
        return REDLOCK__ERROR;      /* (K is ours there: undone if lost) */
    op->value[node] = r->integer;
    return REDLOCK__OK;
}

/* ---- the kinds -------------------------------------------------------------- */

static const redlock__op_kind read_acquire = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_read, .classify = classify_rw, .encode_undo = encode_read_undo };
static const redlock__op_kind read_extend_kind = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_read_extend,
    .classify = classify_rw };
static const redlock__op_kind read_regrow = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_read_regrow,
    .classify = classify_rw };
static const redlock__op_kind read_release = {
    .name = "release", .rule = { REDLOCK__RULE_WAIT_ALL, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_read_release, .classify = classify_rw };
static const redlock__op_kind write_acquire = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_write, .classify = classify_rw, .encode_undo = encode_write_undo };
static const redlock__op_kind write_acquire_fenced = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_write_fenced, .classify = classify_write_fenced,
    .encode_undo = encode_write_undo, .classify_first = classify_rw };

/* ---- ops and handles ------------------------------------------------------- */

static redlock__op *read_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                            int64_t token)
{
    rw_keys *k = l->kd;
    size_t need = k->setlen + 1 + l->valuelen;
    (void)token;

    if (need > k->readercap) {
        char *p = realloc(k->reader, need);
        if (!p)
            return NULL;
        k->reader = p;
        k->readercap = need;
    }
    /* K:rd:<value>: the set's name, ':', the value of this hold */
    memcpy(k->reader, k->set, k->setlen);
    k->reader[k->setlen] = ':';
    memcpy(k->reader + k->setlen + 1, l->value, l->valuelen);
    k->readerlen = need;
    {
        const char *item[R_N] = { l->key, k->set, k->mark, k->reader, l->value };
        size_t len[R_N] = { l->keylen, k->setlen, k->marklen, k->readerlen, l->valuelen };
        return redlock__lock_new_op(l, kind, ttl_ms, 4, 1, item, len);
    }
}

/* How long a refused writer's mark lasts: until its next attempt has
 * reached the masters (this attempt's node timeout, the retry delay with
 * its jitter, the next one's node timeout).  0 (no mark) when no attempt
 * follows this one: a try_acquire or the last retry. */
static int64_t mark_ms(const redlock_lock *l)
{
    const redlock_options *o = &l->c->opt;
    if (l->busy != REDLOCK__LOCK_ACQUIRE || l->attempts_left <= 0)
        return 0;
    return o->retry_delay_ms + o->retry_jitter_ms + 2 * o->node_timeout_ms;
}

static redlock__op *write_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                             int64_t token)
{
    rw_keys *k = l->kd;
    char ms[24], tok[24];

    if (kind == &write_acquire || kind == &write_acquire_fenced) {
        const char *item[W_N] = { l->key, k->set, k->mark, l->value, k->mark_id, ms,
                                  l->fence_key };
        size_t len[W_N] = { l->keylen, k->setlen, k->marklen, l->valuelen, MARK_ID_LEN, 0,
                            l->fence_keylen };
        len[W_MS] = redlock__u64_str(ms, (uint64_t)mark_ms(l));
        return redlock__lock_new_op(l, kind, ttl_ms, 3, kind == &write_acquire ? 3 : 4,
                                    item, len);
    }
    /* the mutex's kinds: key, value[, counter, token] */
    {
        const char *item[4] = { l->key, l->value, l->fence_key, tok };
        size_t len[4] = { l->keylen, l->valuelen, l->fence_keylen, 0 };
        size_t nargs = 1;
        if (kind == &redlock__mutex_fence_raise) {
            len[3] = redlock__u64_str(tok, (uint64_t)token);
            nargs = 3;
        }
        return redlock__lock_new_op(l, kind, ttl_ms, 1, nargs, item, len);
    }
}

static void rw_free(redlock_lock *l)
{
    rw_keys *k = l->kd;
    if (!k)
        return;
    free(k->set);
    free(k->mark);
    free(k->reader);
    free(k);
    l->kd = NULL;
}

const redlock__family redlock__read = {
    .kind = REDLOCK_KIND_READ, .acquire = &read_acquire, .extend = &read_extend_kind,
    .release = &read_release, .extend_regrow = &read_regrow, .op = read_op, .free = rw_free };
const redlock__family redlock__write = {
    .kind = REDLOCK_KIND_WRITE, .acquire = &write_acquire, .extend = &redlock__mutex_extend,
    .release = &redlock__mutex_release, .extend_regrow = &redlock__mutex_extend_regrow,
    .acquire_fenced = &write_acquire_fenced, .fence_raise = &redlock__mutex_fence_raise,
    .op = write_op, .free = rw_free };

static char *suffixed(const redlock_lock *l, const char *suffix, size_t *len)
{
    size_t n = strlen(suffix);
    char *p = malloc(l->keylen + n);
    if (p) {
        memcpy(p, l->key, l->keylen);
        memcpy(p + l->keylen, suffix, n);
        *len = l->keylen + n;
    }
    return p;
}

static int rw_new(redlock_lock **out, redlock_client *c, const void *resource, size_t len,
                  const redlock__family *fam)
{
    static const char hex[] = "0123456789abcdef";
    redlock_lock *l;
    rw_keys *k;
    int rc = redlock__lock_create(out, c, resource, len, fam);

    if (rc != 0)
        return rc;
    l = *out;
    if (!(k = calloc(1, sizeof *k)) || !(k->set = suffixed(l, ":rd", &k->setlen)) ||
        !(k->mark = suffixed(l, ":ww", &k->marklen))) {
        l->kd = k;
        redlock_lock_free(l);
        *out = NULL;
        return REDLOCK_ENOMEM;
    }
    /* The mark's id only tells this handle's mark from another writer's
     * (liveness, not safety): the client's jitter generator suffices. */
    for (size_t i = 0; i < MARK_ID_LEN; i += 16) {
        uint64_t r = redlock__client_random(c);
        for (size_t j = 0; j < 16; j++, r >>= 4)
            k->mark_id[i + j] = hex[r & 15];
    }
    l->kd = k;
    return 0;
}

int redlock_lock_new_read(redlock_lock **out, redlock_client *c, const void *resource, size_t len)
{
    REDLOCK__GATED(c, int, rw_new(out, c, resource, len, &redlock__read));
}

int redlock_lock_new_write(redlock_lock **out, redlock_client *c, const void *resource, size_t len)
{
    REDLOCK__GATED(c, int, rw_new(out, c, resource, len, &redlock__write));
}
