/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rwlock.c -- the read/write lock: many readers or one writer.  With K the
 * lock's key (prefix + resource), each master keeps
 *
 *   K            a writer's hold: its value, PX ttl (a mutex's key); or,
 *                while readers hold, the set of their ids (no ttl)
 *   K:rd:<id>    one key per reader hold, PX its own ttl
 *   K:ww         a waiting writer's mark (its id), PX until its next attempt
 *
 * The uncontended paths are plain commands (a script costs the masters
 * about twice a SET, docs/kinds.md):
 *
 *   read      SET K:rd:<id> 1 PX ttl; SADD K <id>; EXISTS K:ww; SISMEMBER K <id>
 *   write     SET K v NX PX ttl, which fails while K is anyone's, a
 *             writer's string or the readers' set; only then, on that
 *             node, the slow path script (classify -1, fanout.h): prune the
 *             members whose own key the server expired, take K when none
 *             is left, else make the mark and refuse
 *   release   reader: DEL K:rd:<id>; SREM K <id>; writer: the mutex's
 *
 * Why the reader's commands need no script: its own key is set before its
 * id joins K, so a writer's pruning never removes a live reader; a writer
 * that took K before the SADD makes it fail (WRONGTYPE), one that took it
 * after replaced the set (the SISMEMBER, last, fails); a mark made before
 * the EXISTS turns the reader away, one made after lists it.  K has no
 * ttl: one shorter than a member's key would let a writer in while that
 * reader holds.  Members of crashed readers stay until a writer prunes
 * them; SREM of the last member deletes K.
 *
 * The mark lists the readers that held when it was made; a reader that
 * joined K while it was there was refused there, so the writer does not
 * count it (a refused reader's leftovers never hold a writer back), and
 * neither does that reader's extend.  A reader refused on a node keeps its
 * own key there (and its id, after a mark) until its undo (a lost attempt)
 * or its release (a won one); a key outside K blocks no writer.
 *
 * Every script refuses with a negative integer that says who holds the
 * resource: -1 a writer, -2-n n readers.
 */
#include <stdlib.h>
#include <string.h>
#include "lock_private.h"

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
/* The writer's slow path.  KEYS: K, mark; ARGV: value, mark id, mark ms
 * ("0": no mark), ttl.  The mark is a hash: "w" the writer's id, "r:<id>"
 * each reader that held when it was made; a reader that joined K later
 * was refused here by the mark, and is not counted. */
const char redlock__lua_rw_write[] =
    "local t = redis.call('type', KEYS[1]).ok "
    "if t == 'set' then local w = redis.call('hget', KEYS[2], 'w') local live = {} "
    "for _, m in ipairs(redis.call('smembers', KEYS[1])) do "
    "if redis.call('exists', KEYS[1] .. ':rd:' .. m) == 0 then redis.call('srem', KEYS[1], m) "
    "elseif not w or redis.call('hexists', KEYS[2], 'r:' .. m) == 1 then "
    "live[#live + 1] = 'r:' .. m end end "
    "if #live > 0 then if ARGV[3] ~= '0' then "
    "if not w then redis.call('hset', KEYS[2], 'w', ARGV[2]) "
    "for _, f in ipairs(live) do redis.call('hset', KEYS[2], f, '1') end end "
    "if not w or w == ARGV[2] then redis.call('pexpire', KEYS[2], ARGV[3]) end end "
    "return -2 - #live end "
    "elseif t ~= 'none' then return -1 end "
    "redis.call('set', KEYS[1], ARGV[1], 'px', ARGV[4]) "
    "if redis.call('hget', KEYS[2], 'w') == ARGV[2] then redis.call('del', KEYS[2]) end return 1";

#define MARK_ID_LEN 32

/* The kind's part of a handle: the derived key names. */
typedef struct rw_keys {
    char *mark, *own;               /* K:ww, K:rd:<value> */
    size_t marklen, ownlen, owncap;
    char mark_id[MARK_ID_LEN + 1];  /* this handle's id in K:ww */
    int marked;                     /* this acquire may have left its mark */
} rw_keys;

/* ---- encoding ------------------------------------------------------------ */

/* One command: word[0], the items pick[0 .. npick) of op, then the other
 * words (C strings). */
static int encode_cmd(const redlock__op *op, redlock__buf *out, const char *const *word,
                      size_t nword, const unsigned char *pick, size_t npick)
{
    const char *argv[8];
    size_t len[8], argc = 0;

    argv[argc] = word[0];
    len[argc] = strlen(word[0]);
    argc++;
    for (size_t i = 0; i < npick; i++, argc++)
        argv[argc] = redlock__op_item(op, pick[i], &len[argc]);
    for (size_t i = 1; i < nword; i++, argc++) {
        argv[argc] = word[i];
        len[argc] = strlen(word[i]);
    }
    return redlock__resp_command(out, (int)argc, argv, len);
}

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

/* Items of a read op: K, K:rd:<id>, K:ww, id. */
enum { R_KEY, R_OWN, R_MARK, R_ID, R_N };
/* Items of a write acquire: K, K:ww, value, mark id, mark ms[, K:fence]. */
enum { W_KEY, W_MARK, W_VALUE, W_ID, W_MS, W_FENCE, W_N };

/* SET K:rd:<id> 1 PX ttl; SADD K <id>; EXISTS K:ww; SISMEMBER K <id>, in
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
    if (encode_cmd(op, out, set, 4, own, 1) != 0 || encode_cmd(op, out, sadd, 1, key_id, 2) != 0 ||
        encode_cmd(op, out, exists, 1, mark, 1) != 0)
        return REDLOCK_ENOMEM;
    return encode_cmd(op, out, ismember, 1, key_id, 2);
}

static int encode_extend(const redlock__op *op, redlock__buf *out, int eval, int regrow)
{
    static const unsigned char pick[] = { R_OWN, R_KEY, R_MARK, R_ID };
    return encode_pick(op, out, eval, REDLOCK__SCRIPT_RW_READ_EXTEND, pick, 4, 3, op->ttl_ms,
                       regrow ? "1" : NULL);
}

static int encode_read_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return encode_extend(op, out, eval, 0);
}

static int encode_read_regrow(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    (void)node;
    return encode_extend(op, out, eval, 1);
}

/* The undo of a read attempt, or a release owed to a master it could not
 * reach: one script, as EVAL (it may follow a reconnect, to a server whose
 * script cache is empty). */
static int encode_read_undo(const redlock__op *op, redlock__buf *out)
{
    static const unsigned char pick[] = { R_OWN, R_KEY, R_ID };
    return encode_pick(op, out, 1, REDLOCK__SCRIPT_RW_READ_RELEASE, pick, 3, 2, 0, NULL);
}

/* DEL K:rd:<id>; SREM K <id> (the id is this hold's alone: no compare).
 * Its EVAL form is only ever the owed release (fanout.c, undelivered),
 * never a resend: its replies never ask for one. */
static int encode_read_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char own[] = { R_OWN }, key_id[] = { R_KEY, R_ID };
    const char *del[] = { "DEL" }, *srem[] = { "SREM" };
    (void)node;
    if (eval)
        return encode_read_undo(op, out);
    if (encode_cmd(op, out, del, 1, own, 1) != 0)
        return REDLOCK_ENOMEM;
    return encode_cmd(op, out, srem, 1, key_id, 2);
}

/* The write acquire: SET K v NX PX ttl, or the slow path script (eval; or
 * the marked kinds' EVALSHA), then INCR K:fence for the fenced kinds (in
 * both forms: the resend must have as many commands). */
static const redlock__op_kind write_acquire, write_acquire_fenced, write_marked,
                              write_marked_fenced;

static int encode_write(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char kv[] = { W_KEY, W_VALUE }, fence[] = { W_FENCE };
    static const unsigned char pick[] = { W_KEY, W_MARK, W_VALUE, W_ID, W_MS };
    const redlock__op_kind *k = op->kind;
    char ttl[24];
    const char *set[] = { "SET", "NX", "PX", ttl }, *incr[] = { "INCR" };
    int rc;
    (void)node;

    if (eval || k == &write_marked || k == &write_marked_fenced) {
        rc = encode_pick(op, out, eval, REDLOCK__SCRIPT_RW_WRITE, pick, 5, 2, op->ttl_ms, NULL);
    } else {
        ttl[redlock__u64_str(ttl, (uint64_t)op->ttl_ms)] = '\0';
        rc = encode_cmd(op, out, set, 4, kv, 2);
    }
    if (rc == 0 && (k == &write_acquire_fenced || k == &write_marked_fenced))
        rc = encode_cmd(op, out, incr, 1, fence, 1);
    return rc;
}

/* A lost write attempt: the mutex's compare-and-DEL of K, as EVAL (a set
 * there answers WRONGTYPE: nothing of ours to undo). */
static int encode_write_undo(const redlock__op *op, redlock__buf *out)
{
    static const unsigned char pick[] = { W_KEY, W_VALUE };
    return encode_pick(op, out, 1, REDLOCK__SCRIPT_RELEASE, pick, 2, 1, 0, NULL);
}

/* ---- replies -------------------------------------------------------------- */

static int is_status_ok(const redlock__reply *r)
{
    return r->type == REDLOCK__REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0;
}

static int is_wrongtype(const redlock__reply *r)
{
    return r->type == REDLOCK__REPLY_ERROR && r->len >= 9 && memcmp(r->str, "WRONGTYPE", 9) == 0;
}

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

/* The reader's SET, SADD (into a writer's string: WRONGTYPE) and EXISTS
 * of the mark, told apart by their rank, counted in op->value[node]. */
static int classify_read_lead(redlock__op *op, size_t node, const redlock__reply *r)
{
    int64_t rank = op->value[node]++;

    if (rank == 0)
        return is_status_ok(r) ? REDLOCK__OK : REDLOCK__ERROR;
    if (r->type == REDLOCK__REPLY_INTEGER && (rank == 1 || r->integer == 0))
        return REDLOCK__OK;
    if (r->type == REDLOCK__REPLY_INTEGER) {
        redlock__op_refusal(op, node, "a writer is waiting");
        return REDLOCK__REFUSED;
    }
    if (is_wrongtype(r)) {
        redlock__op_refusal(op, node, "held by a writer");
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
    if (r->type == REDLOCK__REPLY_INTEGER || is_wrongtype(r)) {
        redlock__op_refusal(op, node, "held by a writer");
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

/* The write acquire: SET's OK; its nil asks for the slow path on this
 * node; the script's replies. */
static int classify_write(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (is_status_ok(r))
        return REDLOCK__OK;
    if (r->type == REDLOCK__REPLY_NIL)
        return op->evaled[node] ? REDLOCK__REFUSED : -1;
    return classify_rw(op, node, r);
}

/* The fenced write: the acquire's vote (-1: resend both commands), with
 * the counter as its value. */
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

/* The mutex's scripts on K where readers hold it (a set): refused. */
static int classify_write_held(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (is_wrongtype(r)) {
        redlock__op_refusal(op, node, "held by readers");
        return REDLOCK__REFUSED;
    }
    return redlock__classify_script(op, node, r);
}

static int encode_write_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__mutex_extend.encode(op, node, out, eval);
}

static int encode_write_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__mutex_release.encode(op, node, out, eval);
}

static int encode_write_regrow(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__mutex_extend_regrow.encode(op, node, out, eval);
}

static int encode_write_raise(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__mutex_fence_raise.encode(op, node, out, eval);
}

/* ---- the kinds -------------------------------------------------------------- */

#define MAJORITY { REDLOCK__RULE_MAJORITY, 0 }

static const redlock__op_kind read_acquire = {
    .name = "acquire", .rule = MAJORITY, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_read, .classify = classify_read, .encode_undo = encode_read_undo,
    .classify_first = classify_read_lead, .nlead = 3 };
static const redlock__op_kind read_extend = {
    .name = "extend", .rule = MAJORITY, .encode = encode_read_extend, .classify = classify_rw };
static const redlock__op_kind read_regrow = {
    .name = "extend", .rule = MAJORITY, .encode = encode_read_regrow, .classify = classify_rw };
static const redlock__op_kind read_release = {
    .name = "release", .rule = { REDLOCK__RULE_WAIT_ALL, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_read_release, .classify = classify_read_release,
    .classify_first = classify_del };
static const redlock__op_kind write_acquire = {
    .name = "acquire", .rule = MAJORITY, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_write, .classify = classify_write, .encode_undo = encode_write_undo };
static const redlock__op_kind write_acquire_fenced = {
    .name = "acquire", .rule = MAJORITY, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_write, .classify = classify_write_fenced,
    .encode_undo = encode_write_undo, .classify_first = classify_write };
/* A later attempt of an acquire whose mark may be on the masters: the
 * script at once, which deletes the mark where it grants. */
static const redlock__op_kind write_marked = {
    .name = "acquire", .rule = MAJORITY, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_write, .classify = classify_rw, .encode_undo = encode_write_undo };
static const redlock__op_kind write_marked_fenced = {
    .name = "acquire", .rule = MAJORITY, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_write, .classify = classify_write_fenced,
    .encode_undo = encode_write_undo, .classify_first = classify_rw };
static const redlock__op_kind write_extend = {
    .name = "extend", .rule = MAJORITY, .encode = encode_write_extend,
    .classify = classify_write_held };
static const redlock__op_kind write_release = {
    .name = "release", .rule = { REDLOCK__RULE_WAIT_ALL, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_write_release, .classify = classify_write_held };
static const redlock__op_kind write_regrow = {
    .name = "extend", .rule = MAJORITY, .encode = encode_write_regrow,
    .classify = classify_write_held };
static const redlock__op_kind write_raise = {
    .name = "fence", .rule = MAJORITY, .encode = encode_write_raise,
    .classify = classify_write_held };

/* ---- ops and handles ------------------------------------------------------- */

static redlock__op *read_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                            int64_t token)
{
    rw_keys *k = l->kd;
    size_t need = l->keylen + 4 + l->valuelen;
    (void)token;

    if (need > k->owncap) {
        char *p = realloc(k->own, need);
        if (!p)
            return NULL;
        k->own = p;
        k->owncap = need;
    }
    /* K:rd:<id>, the id being this hold's value */
    memcpy(k->own, l->key, l->keylen);
    memcpy(k->own + l->keylen, ":rd:", 4);
    memcpy(k->own + l->keylen + 4, l->value, l->valuelen);
    k->ownlen = need;
    {
        const char *item[R_N] = { l->key, k->own, k->mark, l->value };
        size_t len[R_N] = { l->keylen, k->ownlen, k->marklen, l->valuelen };
        return redlock__lock_new_op(l, kind, ttl_ms, 3, 1, item, len);
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

/* Whether this attempt's acquire may have left its mark: an earlier
 * attempt of it was refused by readers (the details of the last one are
 * the lock's; the flag stays until the acquire ends). */
static int marked(redlock_lock *l)
{
    rw_keys *k = l->kd;

    if (l->busy != REDLOCK__LOCK_ACQUIRE || l->attempts_left >= l->c->opt.retry_count) {
        k->marked = 0;      /* a first attempt */
        return 0;
    }
    for (size_t i = 0; i < l->c->fleet.n && !k->marked; i++)
        k->marked = strstr(l->detail[i], " reader") != NULL;
    return k->marked;
}

static redlock__op *write_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                             int64_t token)
{
    rw_keys *k = l->kd;
    char ms[24], tok[24];

    if (kind == &write_acquire || kind == &write_acquire_fenced) {
        const char *item[W_N] = { l->key, k->mark, l->value, k->mark_id, ms, l->fence_key };
        size_t len[W_N] = { l->keylen, k->marklen, l->valuelen, MARK_ID_LEN, 0,
                            l->fence_keylen };
        int fenced = kind == &write_acquire_fenced;
        len[W_MS] = redlock__u64_str(ms, (uint64_t)mark_ms(l));
        if (marked(l))
            kind = fenced ? &write_marked_fenced : &write_marked;
        return redlock__lock_new_op(l, kind, ttl_ms, 2, fenced ? 4 : 3, item, len);
    }
    /* the mutex's items: key, value[, counter, token] */
    {
        const char *item[4] = { l->key, l->value, l->fence_key, tok };
        size_t len[4] = { l->keylen, l->valuelen, l->fence_keylen, 0 };
        size_t nargs = 1;
        if (kind == &write_raise) {
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
    free(k->mark);
    free(k->own);
    free(k);
    l->kd = NULL;
}

const redlock__family redlock__read = {
    .kind = REDLOCK_KIND_READ, .acquire = &read_acquire, .extend = &read_extend,
    .release = &read_release, .extend_regrow = &read_regrow, .op = read_op, .free = rw_free };
const redlock__family redlock__write = {
    .kind = REDLOCK_KIND_WRITE, .acquire = &write_acquire, .extend = &write_extend,
    .release = &write_release, .extend_regrow = &write_regrow,
    .acquire_fenced = &write_acquire_fenced, .fence_raise = &write_raise,
    .op = write_op, .free = rw_free };

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
    if (!(k = calloc(1, sizeof *k)) || !(k->mark = malloc(l->keylen + 3))) {
        l->kd = k;
        redlock_lock_free(l);
        *out = NULL;
        return REDLOCK_ENOMEM;
    }
    memcpy(k->mark, l->key, l->keylen);
    memcpy(k->mark + l->keylen, ":ww", 3);
    k->marklen = l->keylen + 3;
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
