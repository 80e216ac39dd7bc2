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
#include <string.h>
#include "lock_private.h"

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

/* EVAL(SHA) script: KEYS = the key [and `key2`], ARGV = the value [and
 * `last`]; NULL leaves one out. */
static int encode_eval(const redlock__op *op, redlock__buf *out, int eval, int script,
                       const char *key2, size_t k2len, const char *last, size_t llen)
{
    size_t klen, vlen;
    const char *key = redlock__op_item(op, 0, &klen), *value = redlock__op_item(op, 1, &vlen);
    const char *body = redlock__script_body[script];
    const char *argv[7] = { eval ? "EVAL" : "EVALSHA", eval ? body : op->f->sha[script],
                            key2 ? "2" : "1", key };
    size_t len[7] = { eval ? 4 : 7, eval ? strlen(body) : 40, 1, klen };
    int argc = 4;

    if (key2) {
        argv[argc] = key2;
        len[argc++] = k2len;
    }
    argv[argc] = value;
    len[argc++] = vlen;
    if (last) {
        argv[argc] = last;
        len[argc++] = llen;
    }
    return redlock__resp_command(out, argc, argv, len);
}

/* script(key, value[, ttl]): ttl_ms 0 leaves the ttl out. */
static int encode_script(const redlock__op *op, redlock__buf *out, int eval, int script,
                         int64_t ttl_ms)
{
    char ttl[24];
    size_t tlen = ttl_ms ? redlock__u64_str(ttl, (uint64_t)ttl_ms) : 0;
    return encode_eval(op, out, eval, script, NULL, 0, ttl_ms ? ttl : NULL, tlen);
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
static int classify_script(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type == REDLOCK__REPLY_INTEGER) {
        op->value[node] = r->integer;   /* 2: re-grown (REGROW) */
        return r->integer == 1 || r->integer == 2 ? REDLOCK__OK : REDLOCK__REFUSED;
    }
    if (r->type == REDLOCK__REPLY_ERROR && r->len >= 8 && memcmp(r->str, "NOSCRIPT", 8) == 0)
        return -1;
    return REDLOCK__ERROR;
}

static int encode_regrow(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return encode_script(op, out, eval, REDLOCK__SCRIPT_REGROW, op->ttl_ms);
}

/* The raise: script(KEYS: key, counter; ARGV: value, token (item 3)). */
static int encode_fence_raise(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    size_t clen, tlen;
    const char *counter = redlock__op_item(op, 2, &clen), *token = redlock__op_item(op, 3, &tlen);
    (void)node;
    return encode_eval(op, out, eval, REDLOCK__SCRIPT_FENCE_RAISE, counter, clen, token, tlen);
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
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_set, .classify = classify_set, .encode_undo = encode_undo };
static const redlock__op_kind kind_extend = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_extend,
    .classify = classify_script };
/* A release waits for every master (each gets its chance to delete) and
 * is owed to those it could not reach. */
static const redlock__op_kind kind_release = {
    .name = "release", .rule = { REDLOCK__RULE_WAIT_ALL, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_release, .classify = classify_script };

/* Extend and re-grow: a master without the key gets it back (1 and 2 are
 * both OK votes); sent only while the client knows a quorum holds it. */
static const redlock__op_kind kind_extend_regrow = {
    .name = "extend", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_regrow,
    .classify = classify_script };
static const redlock__op_kind kind_acquire_fenced = {
    .name = "acquire", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_fence_acquire, .classify = classify_fenced, .encode_undo = encode_undo,
    .classify_first = classify_set };
static const redlock__op_kind kind_fence_raise = {
    .name = "fence", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .encode = encode_fence_raise,
    .classify = classify_script };

const redlock__family redlock__mutex = { &kind_acquire, &kind_extend, &kind_release,
                                         &kind_extend_regrow, &kind_acquire_fenced,
                                         &kind_fence_raise };
