/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* mutex.c -- the mutex, the plain Redlock lock, as kinds of operation:
 *
 *   acquire   SET key value NX PX ttl          +OK: ours, nil: someone else's
 *   extend    compare-and-PEXPIRE (a script)   1: extended, 0: not our value
 *   release   compare-and-DEL (a script)       1: deleted, 0: not our value
 *
 * An operation carries the key, then the value (one key, one argument).
 * Release and extend must compare the value and act in one step, or a
 * client whose lock expired could delete or extend the next holder's key;
 * Redis runs a script atomically.  They go as EVALSHA; after NOSCRIPT as
 * EVAL, which also loads the script.  The undo of an acquire (a lost
 * attempt) is the release, as EVAL: nobody reads its reply to resend it.
 */
#include <stdlib.h>
#include <string.h>
#include "lock/lock.h"

static int encode_set(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    char ttl[24];
    size_t klen, vlen;
    const char *key = redlock__op_item(op, 0, &klen), *value = redlock__op_item(op, 1, &vlen);
    const char *argv[6] = { "SET", key, value, "NX", "PX", ttl };
    size_t len[6] = { 3, klen, vlen, 2, 2, 0 };
    (void)node;
    (void)eval;
    len[5] = redlock__u64_str(ttl, (uint64_t)op->ttl_ms);     /* ttl > 0 */
    return redlock__resp_command(out, 6, argv, len);
}

/* EVAL(SHA) of `script` with the op's first nkeys items as KEYS, the rest
 * as ARGV, then `last` unless NULL; item `pick_at` (SIZE_MAX: none), a byte
 * per master, goes as master `node`'s byte ("2" past the end). */
static int eval_items(const redlock__op *op, redlock__buf *out, int eval, int script,
                      size_t nkeys, const char *last, size_t lastlen, size_t pick_at, size_t node)
{
    char nk[24];
    const char *body = op->f->net->scripts[script];
    size_t nitems = op->nkeys + op->nargs, argc = 3 + nitems + (last ? 1 : 0);
    const char *sargv[12], **argv = sargv;
    size_t slen[12], *len = slen;
    int rc;

    if (argc > 12) {
        argv = malloc(argc * sizeof *argv);
        len = malloc(argc * sizeof *len);
        if (!argv || !len) {
            free(argv);
            free(len);
            return REDLOCK_ENOMEM;
        }
    }
    argv[0] = eval ? "EVAL" : "EVALSHA";
    len[0] = eval ? 4 : 7;
    argv[1] = eval ? body : op->f->sha[script];
    len[1] = eval ? strlen(body) : 40;
    argv[2] = nk;
    len[2] = redlock__u64_str(nk, nkeys);
    for (size_t i = 0; i < nitems; i++)
        argv[3 + i] = redlock__op_item(op, i, &len[3 + i]);
    if (pick_at < nitems) {
        argv[3 + pick_at] = node < len[3 + pick_at] ? argv[3 + pick_at] + node : "2";
        len[3 + pick_at] = 1;
    }
    if (last) {
        argv[argc - 1] = last;
        len[argc - 1] = lastlen;
    }
    rc = redlock__resp_command(out, (int)argc, argv, len);
    if (argv != sargv) {
        free(argv);
        free(len);
    }
    return rc;
}

int redlock__encode_eval(const redlock__op *op, redlock__buf *out, int eval, int script,
                         size_t nkeys, int64_t ttl_ms)
{
    char ttl[24];
    size_t tlen = ttl_ms ? redlock__u64_str(ttl, (uint64_t)ttl_ms) : 0;

    return eval_items(op, out, eval, script, nkeys, ttl_ms ? ttl : NULL, tlen, SIZE_MAX, 0);
}

int redlock__encode_eval_regrow(const redlock__op *op, redlock__buf *out, int eval, int script,
                                size_t nkeys, int64_t ttl_ms, size_t node)
{
    char ttl[24];
    size_t tlen = ttl_ms ? redlock__u64_str(ttl, (uint64_t)ttl_ms) : 0;

    return eval_items(op, out, eval, script, nkeys, ttl_ms ? ttl : NULL, tlen,
                      op->nkeys + op->nargs - 1, op->value[node] == 1);
}

/* The mutex's scripts: KEYS = the key [, the counter], ARGV = the value
 * [, the token] [, ttl]; ttl_ms 0 leaves the ttl out. */
static int encode_script(const redlock__op *op, redlock__buf *out, int eval, int script,
                         int64_t ttl_ms)
{
    return redlock__encode_eval(op, out, eval, script, 1, ttl_ms);
}

static int encode_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return encode_script(op, out, eval, REDLOCK__SCRIPT_RELEASE, op->ttl_ms);
}

static int encode_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return encode_script(op, out, eval, REDLOCK__SCRIPT_EXTEND, op->ttl_ms);
}

/* The undo of a SET: the release (no ttl), as EVAL (an undo may be sent
 * after a reconnect, to a server whose script cache is empty). */
static int encode_undo(const redlock__op *op, redlock__buf *out)
{
    return encode_script(op, out, 1, REDLOCK__SCRIPT_RELEASE, 0);
}

/* SET NX: +OK is a vote for us, nil means the key is someone else's. */
static int classify_set(redlock__op *op, size_t node, const redlock__reply *r)
{
    (void)op;
    (void)node;
    if (r->type == REDLOCK__REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0)
        return REDLOCK__OK;
    if (r->type == REDLOCK__REPLY_NIL)
        return REDLOCK__REFUSED;
    return REDLOCK__ERROR;
}

/* Compare-and-act scripts: 1 acted (2: re-grew the key), 0 not our value
 * (or gone). */
int redlock__classify_script(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type == REDLOCK__REPLY_INTEGER) {
        op->value[node] = r->integer;   /* 2: re-grown (REGROW) */
        return r->integer == 1 || r->integer == 2 ? REDLOCK__OK : REDLOCK__REFUSED;
    }
    if (r->type == REDLOCK__REPLY_ERROR && r->len >= 8 && memcmp(r->str, "NOSCRIPT", 8) == 0)
        return -1;
    return REDLOCK__ERROR;
}

/* Per master: the re-grow where it restarted (op->value[node]), else the
 * plain extend, which refuses a key gone. */
static int encode_regrow(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return encode_script(op, out, eval,
                         op->value[node] == 1 ? REDLOCK__SCRIPT_REGROW : REDLOCK__SCRIPT_EXTEND,
                         op->ttl_ms);
}

/* The raise: script(KEYS: key, counter; ARGV: value, token); the op's
 * items are key, value, counter, token. */
static int encode_fence_raise(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    size_t klen, vlen, clen, tlen;
    const char *argv[7] = { eval ? "EVAL" : "EVALSHA", NULL, "2",
                            redlock__op_item(op, 0, &klen), redlock__op_item(op, 2, &clen),
                            redlock__op_item(op, 1, &vlen), redlock__op_item(op, 3, &tlen) };
    const char *body = op->f->net->scripts[REDLOCK__SCRIPT_FENCE_RAISE];
    size_t len[7] = { eval ? 4 : 7, eval ? strlen(body) : 40, 1, klen, clen, vlen, tlen };
    (void)node;
    argv[1] = eval ? body : op->f->sha[REDLOCK__SCRIPT_FENCE_RAISE];
    return redlock__resp_command(out, 7, argv, len);
}

/* SET key value NX PX ttl, then INCR counter, pipelined: no script, so it
 * costs the masters little more than the plain acquire.  The counter is
 * incremented whether the SET won or not: it only has to grow. */
static int encode_fence_acquire(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    size_t clen;
    const char *counter = redlock__op_item(op, 2, &clen);
    const char *argv[2] = { "INCR", counter };
    size_t len[2] = { 4, clen };

    if (encode_set(op, node, out, eval) != 0)
        return REDLOCK_ENOMEM;
    return redlock__resp_command(out, 2, argv, len);
}


/* The fenced acquire: the SET's vote, with the counter as its value. */
static int classify_fenced(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (op->first[node] != REDLOCK__OK)
        return op->first[node];
    if (r->type != REDLOCK__REPLY_INTEGER || r->integer <= 0)
        return REDLOCK__ERROR;      /* (the key is ours there: undone if lost) */
    op->value[node] = r->integer;
    return REDLOCK__OK;
}

static const redlock__op_kind kind_acquire = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 },
    .flags = REDLOCK__KIND_WRITES | REDLOCK__KIND_CLEAN_NO,
    .encode = encode_set, .classify = classify_set, .encode_undo = encode_undo };
const redlock__op_kind redlock__mutex_extend = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_extend,
    .classify = redlock__classify_script };
/* A release is decided at the quorum; the slower masters' deletes go on,
 * and it is owed to those it could not reach.  Its reply: 1 + the count of
 * the resource's registry (kept as the node's value, for announce.c), or
 * 0: not our value. */
int redlock__classify_release(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type == REDLOCK__REPLY_INTEGER) {
        op->value[node] = r->integer > 0 ? r->integer - 1 : 0;
        return r->integer >= 1 ? REDLOCK__OK : REDLOCK__REFUSED;
    }
    return redlock__classify_script(op, node, r);
}

const redlock__op_kind redlock__mutex_release = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_release, .classify = redlock__classify_release };

/* The release that picks (lock.h, redlock__wake_hook): KEYS = the op's
 * nkeys keys (their registries are the script's to name, in their slots);
 * ARGV = the value, the wake window, this master's pick, the releaser's
 * own waiter id or "", the registry's life. */
int redlock__encode_release_wq(const redlock__op *op, size_t node, redlock__buf *out, int eval,
                               int script)
{
    char life[24];
    size_t llen = redlock__u64_str(life, REDLOCK__REGISTRY_LIFE_MS);

    return eval_items(op, out, eval, script, op->nkeys, life, llen, op->nkeys + 2, node);
}

static int encode_release_wq(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__encode_release_wq(op, node, out, eval, REDLOCK__SCRIPT_RELEASE_WQ);
}

const redlock__op_kind redlock__mutex_release_wq = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 },
    .flags = REDLOCK__KIND_UNDOES | REDLOCK__KIND_PER_NODE,
    .encode = encode_release_wq, .classify = redlock__classify_release };

/* The late pick (announce.c): the same items, on op->lead_node only; a
 * probe (not in the lock statistics). */
static int encode_tell(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    if (node != op->lead_node)
        return REDLOCK__ENCODE_SKIP;
    return redlock__encode_release_wq(op, node, out, eval, REDLOCK__SCRIPT_TELL);
}

/* 0: the key is there; 1 + the registry's count (kept as the value): it
 * was not, and the pick was made where the registry was. */
static int classify_tell(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type == REDLOCK__REPLY_INTEGER) {
        op->value[node] = r->integer;
        return r->integer >= 1 ? REDLOCK__OK : REDLOCK__REFUSED;
    }
    return redlock__classify_script(op, node, r);
}

const redlock__op_kind redlock__mutex_tell = {
    .name = "tell", .rule = { REDLOCK__RULE_WAIT_ALL, 0 },
    .flags = REDLOCK__KIND_PROBE | REDLOCK__KIND_PER_NODE,
    .encode = encode_tell, .classify = classify_tell };
/* (the same, asked of a second master: not asked again) */
const redlock__op_kind redlock__mutex_tell_last = {
    .name = "tell", .rule = { REDLOCK__RULE_WAIT_ALL, 0 },
    .flags = REDLOCK__KIND_PROBE | REDLOCK__KIND_PER_NODE,
    .encode = encode_tell, .classify = classify_tell };


/* A waiter's poll looks first (contended.c, redlock__wake_looks): EXISTS on one
 * master, op->lead_node, the others skipped.  OK: the key is gone there
 * (the attempt follows); REFUSED: it is there.  A probe: not in the lock
 * statistics. */
static int encode_look(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    size_t klen;
    const char *argv[2] = { "EXISTS", redlock__op_item(op, 0, &klen) };
    size_t len[2] = { 6, klen };
    (void)eval;

    if (node != op->lead_node)
        return REDLOCK__ENCODE_SKIP;
    return redlock__resp_command(out, 2, argv, len);
}

static int classify_look(redlock__op *op, size_t node, const redlock__reply *r)
{
    (void)op;
    (void)node;
    if (r->type != REDLOCK__REPLY_INTEGER)
        return REDLOCK__ERROR;
    return r->integer == 0 ? REDLOCK__OK : REDLOCK__REFUSED;
}

const redlock__op_kind redlock__mutex_look = {
    .name = "look", .rule = { REDLOCK__RULE_WAIT_ALL, 0 },
    .flags = REDLOCK__KIND_PROBE | REDLOCK__KIND_PER_NODE,
    .encode = encode_look, .classify = classify_look };

/* Extend and re-grow: a master that restarted since the hold began and
 * lost the key gets it back (1 and 2 are both OK votes); sent only while
 * the client knows a quorum holds it. */
const redlock__op_kind redlock__mutex_extend_regrow = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 },
    .flags = REDLOCK__KIND_REGROW | REDLOCK__KIND_PER_NODE,
    .encode = encode_regrow, .classify = redlock__classify_script };
static const redlock__op_kind kind_acquire_fenced = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_fence_acquire, .classify = classify_fenced, .encode_undo = encode_undo,
    .classify_first = classify_set };
const redlock__op_kind redlock__mutex_fence_raise = {
    .name = "fence", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_fence_raise,
    .classify = redlock__classify_script };

/* Its waiters: on its key, woken by every release. */
static const redlock__wake_hook mutex_wake = { .release_wq = &redlock__mutex_release_wq };

const redlock__family redlock__mutex = {
    .kind = REDLOCK_KIND_MUTEX, .acquire = &kind_acquire, .extend = &redlock__mutex_extend,
    .release = &redlock__mutex_release, .extend_regrow = &redlock__mutex_extend_regrow,
    .acquire_fenced = &kind_acquire_fenced, .fence_raise = &redlock__mutex_fence_raise,
    .wake = &mutex_wake };
