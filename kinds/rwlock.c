/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rwlock.c -- the read/write lock: many readers or one writer.  With K the
 * lock's key (prefix + resource), each master keeps
 *
 *   K            a writer's hold: its value, PX ttl (a mutex's key); or,
 *                while readers hold, the set of their ids (no ttl)
 *   {K}:rd:<id>  one key per reader hold, PX its own ttl
 *   {K}:ww       a waiting writer's mark (its id), PX until its next attempt
 *   {K}:rq       the readers waiting (a sorted set: each one's id, scored
 *                by when its record expires, the wait below)
 *   {K}:rw       "readers wait": set with each record (its value the
 *                record's ms), deleted by the release of the writer who
 *                holds K
 *   {K}:rd:~     a turn: the ids of the readers that waited when a writer
 *                released, PX the wait; its member "~" in K counts as a
 *                reader, so writers are refused while the turn lasts
 *
 * Phase-fair: when both sides wait they take turns.  A writer waiting
 * behind readers refuses the readers that come after it (its mark); a
 * writer's release, where readers wait, makes the turn of those readers,
 * who come in before any writer (a later attempt of a refused reader is a
 * script that records it, or lets it in on its turn, in spite of a mark).
 * Every record expires (the wait: retry delay + jitter + 2 node timeouts,
 * never past the acquire's deadline), so a waiter that vanished blocks no
 * one longer than that.  Nobody waiting costs nothing: the writer's
 * release is the mutex's GET and DEL, the DEL naming {K}:rw too (its
 * count says whether readers wait).
 *
 * Waking (lock.h's hook, docs/kinds.md): a holder told that someone waits
 * releases with a script that wakes: a writer's tells the registry's
 * readers (role "r"), the last reader's the writer whose mark waits
 * (role "w"; a handle's id begins with its client's waiter id).
 *
 * The uncontended paths are plain commands (a script costs the masters
 * about twice a SET, docs/kinds.md):
 *
 *   read      SET {K}:rd:<id> 1 PX ttl; SADD K <id>; EXISTS {K}:ww; SISMEMBER K <id>
 *   write     SET K v NX PX ttl, which fails while K is anyone's, a
 *             writer's string or the readers' set; only then, on that
 *             node, the slow path script (classify -1, fanout.h): prune the
 *             members whose own key the server expired, take K when none
 *             is left, else make the mark and refuse
 *   release   reader: DEL K:rd:<id>; SREM K <id>; writer: a script, GET K
 *             and DEL K {K}:rw (the mutex's, with one more key to DEL)
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
 *
 * This file: the write handles and what both kinds of handle share;
 * rwread.c: the read handles.
 */
#include <stdlib.h>
#include <string.h>
#include "kinds/kinds.h"

/* The writer's slow path.  KEYS: K, mark; ARGV: value, mark id, mark ms
 * ("0": no mark), ttl.  The mark is a hash: "w" the writer's id, "r:<id>"
 * each reader that held when it was made; a reader that joined K later
 * was refused here by the mark, and is not counted. */
const char redlock__lua_rw_write[] =
    "local t = redis.call('type', KEYS[1]).ok "
    "if t == 'set' then local w = redis.call('hget', KEYS[2], 'w') local live = {} "
    "for _, m in ipairs(redis.call('smembers', KEYS[1])) do "
    "if redis.call('exists', '{' .. KEYS[1] .. '}:rd:' .. m) == 0 then "
    "redis.call('srem', KEYS[1], m) "
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
/* A writer that gives up (abandon, below).  KEYS: mark; ARGV: mark id.
 * Its own mark only: another writer's stays. */
const char redlock__lua_rw_abandon[] =
    "if redis.call('type', KEYS[1]).ok == 'hash' and "
    "redis.call('hget', KEYS[1], 'w') == ARGV[1] then return redis.call('del', KEYS[1]) end "
    "return 0";

/* The writer's release.  KEYS: K, {K}:rw; ARGV: value, the turn's ms.
 * With nobody waiting it costs the mutex's GET and DEL.  Where readers
 * wait (the DEL removed {K}:rw too), those whose record has not expired
 * (the 16 recorded longest: the others keep their records, and {K}:rw, for
 * the next turn) get the turn {K}:rd:~, its member "~" joins K (and the
 * mark of a writer waiting, which then counts it).  1 released, 0 not our
 * value. */
const char redlock__lua_rw_write_release[] =
    "if redis.call('get', KEYS[1]) ~= ARGV[1] then return 0 end "
    "if redis.call('del', KEYS[1], KEYS[2]) == 2 then "
    "local q, t = '{' .. KEYS[1] .. '}:rq', '{' .. KEYS[1] .. '}:rd:~' "
    "local now = redis.call('time') now = now[1] * 1000 + math.floor(now[2] / 1000) "
    "redis.call('zremrangebyscore', q, '-inf', now - 1) "
    "local ids = redis.call('zrange', q, 0, 15) "
    "if #ids > 0 then redis.call('zrem', q, unpack(ids)) "
    "redis.call('sadd', t, unpack(ids)) redis.call('pexpire', t, ARGV[2]) "
    "redis.call('sadd', KEYS[1], '~') "
    "if redis.call('exists', q) == 1 then redis.call('set', KEYS[2], ARGV[2], 'px', ARGV[2]) end "
    "local m = '{' .. KEYS[1] .. '}:ww' "
    "if redis.call('exists', m) == 1 then redis.call('hset', m, 'r:~', '1') end end end "
    "return 1";

/* The writer's release while someone waits (lock.h, redlock__wake_hook):
 * KEYS: K, {K}:rw; ARGV: value, the wake window, this master's pick, the
 * releaser's own waiter id, the registry's life.  The plain release's
 * work, its turn lasting as long as the latest reader's record (the
 * value of {K}:rw: no argument carries it here); then, on the picking
 * master, the clients of the turn's readers (so that the turn ends as
 * soon as they are in, not at their slowed polls) and the registry's first
 * 16 waiters, who go to its back (every waiter is told in turn; the rest
 * poll), hear that readers may come in (role "r": only its readers retry,
 * at once, together), and, where no readers' turn began, the longest
 * waiter of either role is picked (K is free for both). */
const char redlock__lua_rw_write_release_wq[] =
    REDLOCK__LUA_REGISTRY REDLOCK__LUA_PICK_FN
    "if ARGV[4] ~= '' then redis.pcall('zrem', q, ARGV[4]) end "
    "if redis.pcall('get', KEYS[1]) ~= ARGV[1] then return 0 end "
    "local turn, ms, ids = false, tonumber(redis.call('get', KEYS[2]) or ''), {} "
    "if redis.call('del', KEYS[1], KEYS[2]) == 2 then "
    "local rq, t = '{' .. KEYS[1] .. '}:rq', '{' .. KEYS[1] .. '}:rd:~' "
    "local now = redis.call('time') now = now[1] * 1000 + math.floor(now[2] / 1000) "
    "redis.call('zremrangebyscore', rq, '-inf', now - 1) "
    "ids = redis.call('zrange', rq, 0, 15) "
    "if #ids > 0 then redis.call('zrem', rq, unpack(ids)) redis.call('sadd', t, unpack(ids)) "
    "redis.call('pexpire', t, math.max(1, math.floor(ms or 1))) "
    "redis.call('sadd', KEYS[1], '~') turn = true "
    "if redis.call('exists', rq) == 1 then redis.call('set', KEYS[2], ms or 1, 'px', math.max(1, math.floor(ms or 1))) end "
    "local m = '{' .. KEYS[1] .. '}:ww' "
    "if redis.call('exists', m) == 1 then redis.call('hset', m, 'r:~', '1') end end end "
    "if ARGV[3] == '0' then return pick(q, '') end "
    "local told, n, w = {}, 0, {} if turn then for i = 1, #ids do w[#w + 1] = string.sub(ids[i], 1, 16) end end "
    "local g = redis.pcall('zrange', q, 0, 15) local now = redis.pcall('time') "
    "if type(g) == 'table' and not g.err then for i = 1, #g do w[#w + 1] = g[i] "
    "if not now.err then redis.pcall('zadd', q, 'XX', now[1] * 1000 + math.floor(now[2] / 1000) + "
    "tonumber(ARGV[5]), g[i]) end end end "
    "for i = 1, #w do if not told[w[i]] then told[w[i]] = true n = n + 1 end end "
    "for c in pairs(told) do redis.pcall('publish', q .. ':' .. c, ARGV[2] .. ':' .. n .. ':1:r') end "
    "if turn then return 1 + n end return pick(q, '')";

/* ---- what read and write handles share ---------------------------------- */

/* One command: word[0], the items pick[0 .. npick) of op, then the other
 * words (C strings). */
int redlock__rw_cmd(const redlock__op *op, redlock__buf *out, const char *const *word,
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
int redlock__rw_eval(const redlock__op *op, redlock__buf *out, int eval, int script,
                     const unsigned char *pick, size_t npick, size_t nkeys, int64_t ttl_ms,
                     const char *flag)
{
    const char *argv[12];
    size_t len[12], argc = 3;
    char nk[24], ttl[24];

    argv[0] = eval ? "EVAL" : "EVALSHA";
    len[0] = eval ? 4 : 7;
    argv[1] = eval ? op->f->net->scripts[script] : op->f->sha[script];
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

int redlock__reply_ok(const redlock__reply *r)
{
    return r->type == REDLOCK__REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0;
}

int redlock__reply_wrongtype(const redlock__reply *r)
{
    return r->type == REDLOCK__REPLY_ERROR && r->len >= 9 && memcmp(r->str, "WRONGTYPE", 9) == 0;
}

/* The scripts' replies: a refusal says who holds the resource. */
int redlock__rw_classify(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (r->type != REDLOCK__REPLY_INTEGER || r->integer >= 0)
        return redlock__classify_script(op, node, r);
    if (r->integer == -1)
        redlock__op_refusal(op, node, "held by a writer or a lock of another kind");
    else if (r->integer == -2)
        redlock__op_refusal(op, node, "a writer is waiting");
    else
        redlock__op_refusal(op, node, "held by %lld reader%s", -2 - r->integer,
                            r->integer == -3 ? "" : "s");
    return REDLOCK__REFUSED;
}

void redlock__rw_free(redlock_lock *l)
{
    redlock__rw_keys *k = l->kd;
    if (!k)
        return;
    free(k->mark);
    free(k->flag);
    free(k->own);
    free(k);
    l->kd = NULL;
}

int redlock__rw_new(redlock_lock **out, redlock_client *c, const void *resource, size_t len,
                    const redlock__family *fam)
{
    static const char hex[] = "0123456789abcdef";
    redlock_lock *l;
    redlock__rw_keys *k;
    int rc = redlock__lock_create(out, c, resource, len, fam);

    if (rc != 0)
        return rc;
    l = *out;
    if (!(k = calloc(1, sizeof *k)) || !(k->mark = malloc(redlock__aux_key(l, ":ww", NULL))) ||
        !(k->flag = malloc(redlock__aux_key(l, ":rw", NULL)))) {
        l->kd = k;
        redlock_lock_free(l);
        *out = NULL;
        return REDLOCK_ENOMEM;
    }
    k->marklen = redlock__aux_key(l, ":ww", k->mark);
    k->flaglen = redlock__aux_key(l, ":rw", k->flag);
    /* The mark's id only tells this handle's mark from another writer's
     * (liveness, not safety): the client's jitter generator suffices. */
    for (size_t i = 0; i < REDLOCK__RW_MARK_ID; i += 16) {
        uint64_t r = redlock__client_random(c);
        for (size_t j = 0; j < 16; j++, r >>= 4)
            k->mark_id[i + j] = hex[r & 15];
    }
    l->kd = k;
    return 0;
}


/* ---- the write handle ------------------------------------------------------- */

/* Items of a write acquire: K, {K}:ww, value, mark id, mark ms[, {K}:fence]. */
enum { W_KEY, W_MARK, W_VALUE, W_ID, W_MS, W_FENCE, W_N };

/* The write acquire: SET K v NX PX ttl, or the slow path script (eval; or
 * the marked kinds' EVALSHA), then INCR {K}:fence for the fenced kinds (in
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
        rc = redlock__rw_eval(op, out, eval, REDLOCK__SCRIPT_RW_WRITE, pick, 5, 2, op->ttl_ms, NULL);
    } else {
        ttl[redlock__u64_str(ttl, (uint64_t)op->ttl_ms)] = '\0';
        rc = redlock__rw_cmd(op, out, set, 4, kv, 2);
    }
    if (rc == 0 && (k == &write_acquire_fenced || k == &write_marked_fenced))
        rc = redlock__rw_cmd(op, out, incr, 1, fence, 1);
    return rc;
}

/* A lost write attempt: the mutex's compare-and-DEL of K, as EVAL (a set
 * there answers WRONGTYPE: nothing of ours to undo). */
static int encode_write_undo(const redlock__op *op, redlock__buf *out)
{
    static const unsigned char pick[] = { W_KEY, W_VALUE };
    return redlock__rw_eval(op, out, 1, REDLOCK__SCRIPT_RELEASE, pick, 2, 1, 0, NULL);
}

/* The write acquire: SET's OK; its nil asks for the slow path on this
 * node; the script's replies. */
static int classify_write(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (redlock__reply_ok(r))
        return REDLOCK__OK;
    if (r->type == REDLOCK__REPLY_NIL)
        return op->evaled[node] ? REDLOCK__REFUSED : -1;
    return redlock__rw_classify(op, node, r);
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
    if (redlock__reply_wrongtype(r)) {
        redlock__op_refusal(op, node, "held by readers");
        return REDLOCK__REFUSED;
    }
    return redlock__classify_script(op, node, r);
}

/* The release's reply counts the announcement's subscribers (mutex.c). */
static int classify_write_release(redlock__op *op, size_t node, const redlock__reply *r)
{
    if (redlock__reply_wrongtype(r)) {
        redlock__op_refusal(op, node, "held by readers");
        return REDLOCK__REFUSED;
    }
    return redlock__mutex_release.classify(op, node, r);
}

static int encode_write_extend(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__mutex_extend.encode(op, node, out, eval);
}

/* The release: its script (items K, {K}:rw, value, turn ms). */
static int encode_write_release(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char pick[] = { 0, 1, 2, 3 };
    (void)node;
    return redlock__rw_eval(op, out, eval, REDLOCK__SCRIPT_RW_WRITE_RELEASE, pick, 4, 2, 0, NULL);
}

static int encode_write_release_wq(const redlock__op *op, size_t node, redlock__buf *out,
                                   int eval)
{
    return redlock__encode_release_wq(op, node, out, eval, REDLOCK__SCRIPT_RW_WRITE_RELEASE_WQ);
}

static int encode_write_regrow(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__mutex_extend_regrow.encode(op, node, out, eval);
}

static int encode_write_raise(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    return redlock__mutex_fence_raise.encode(op, node, out, eval);
}

#define MAJORITY { REDLOCK__RULE_MAJORITY, 0 }

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
    .encode = encode_write, .classify = redlock__rw_classify, .encode_undo = encode_write_undo };
static const redlock__op_kind write_marked_fenced = {
    .name = "acquire", .rule = MAJORITY, .flags = REDLOCK__KIND_WRITES,
    .encode = encode_write, .classify = classify_write_fenced,
    .encode_undo = encode_write_undo, .classify_first = redlock__rw_classify };
static const redlock__op_kind write_extend = {
    .name = "extend", .rule = MAJORITY, .encode = encode_write_extend,
    .classify = classify_write_held };
static const redlock__op_kind write_release = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 }, .flags = REDLOCK__KIND_UNDOES,
    .encode = encode_write_release, .classify = classify_write_release };
static const redlock__op_kind write_release_wq = {
    .name = "release", .rule = { REDLOCK__RULE_MAJORITY, 0 },
    .flags = REDLOCK__KIND_UNDOES | REDLOCK__KIND_PER_NODE,
    .encode = encode_write_release_wq, .classify = redlock__classify_release };
static const redlock__op_kind write_regrow = {
    .name = "extend", .rule = MAJORITY, .flags = REDLOCK__KIND_REGROW | REDLOCK__KIND_PER_NODE,
    .encode = encode_write_regrow,
    .classify = classify_write_held };
static const redlock__op_kind write_raise = {
    .name = "fence", .rule = MAJORITY, .encode = encode_write_raise,
    .classify = classify_write_held };

/* How long a waiter's record lasts (a writer's mark, a reader's place
 * among the readers waiting, a turn): until its next attempt has reached
 * the masters (this attempt's node timeout, the retry delay with its
 * jitter, the next one's node timeout), never past the acquire's deadline.
 * 0 (no record; a reader's is removed) when no attempt follows this one:
 * a try_acquire or the last retry.  The one place both sides' records get
 * their life, so that a waiter giving up leaves nothing that outlives it. */
int64_t redlock__rw_wait_ms(const redlock_lock *l)
{
    const redlock_options *o = &l->c->opt;
    int64_t ms, left;

    if (redlock__lock_last_attempt(l))
        return 0;
    ms = o->retry_delay_ms + o->retry_jitter_ms + 2 * o->node_timeout_ms;
    if (l->fl->deadline_us) {
        left = (l->fl->deadline_us - redlock__now(&l->c->loop)) / 1000;
        if (left < ms)
            ms = left > 0 ? left : 0;
    }
    return ms;
}

void redlock__rw_own_id(redlock_lock *l)
{
    redlock__rw_keys *k = l->kd;
    const char *id;

    if (k->id_set || !l->c->opt.wake || !(id = redlock__wake_self(l->c)))
        return;
    memcpy(k->mark_id, id, REDLOCK__ID_HEX);
    k->id_set = 1;
}

/* The turn a writer's release gives the readers waiting: as long as their
 * records last. */
static int64_t turn_ms(const redlock_lock *l)
{
    const redlock_options *o = &l->c->opt;
    return o->retry_delay_ms + o->retry_jitter_ms + 2 * o->node_timeout_ms;
}

/* Whether this attempt's acquire may have left its mark: an earlier
 * attempt of it was refused by readers (the details of the last one are
 * the lock's; the flag stays until the acquire ends). */
static int marked(redlock_lock *l)
{
    redlock__rw_keys *k = l->kd;

    if (l->busy != REDLOCK__LOCK_ACQUIRE || !l->fl->later) {
        k->marked = 0;      /* a first attempt */
        k->may_mark = 0;
        return 0;
    }
    for (size_t i = 0; i < l->c->fleet.n && !k->marked; i++)
        k->marked = strstr(redlock__lock_detail(l, i), " reader") != NULL;
    return k->marked;
}

static redlock__op *write_op(redlock_lock *l, const redlock__op_kind *kind, int64_t ttl_ms,
                             int64_t token)
{
    redlock__rw_keys *k = l->kd;
    char ms[24], tok[24];

    if (kind == &write_acquire || kind == &write_acquire_fenced) {
        const char *item[W_N] = { l->key, k->mark, l->value, k->mark_id, ms, l->fence_key };
        size_t len[W_N] = { l->keylen, k->marklen, l->valuelen, REDLOCK__RW_MARK_ID, 0,
                            l->fence_keylen };
        int fenced = kind == &write_acquire_fenced;
        redlock__rw_own_id(l);
        int64_t mms = redlock__rw_wait_ms(l);
        len[W_MS] = redlock__u64_str(ms, (uint64_t)mms);
        if (marked(l))
            kind = fenced ? &write_marked_fenced : &write_marked;
        k->may_mark |= mms > 0;
        return redlock__lock_new_op(l, kind, ttl_ms, 2, fenced ? 4 : 3, item, len);
    }
    if (kind == &write_release_wq) {
        const char *item[3] = { l->key, k->flag, l->value };
        size_t len[3] = { l->keylen, k->flaglen, l->valuelen };
        return redlock__lock_release_wq(l, kind, ttl_ms, 2, item, len);
    }
    if (kind == &write_release) {
        const char *item[4] = { l->key, k->flag, l->value, ms };
        size_t len[4] = { l->keylen, k->flaglen, l->valuelen, 0 };
        len[3] = redlock__u64_str(ms, (uint64_t)turn_ms(l));
        return redlock__lock_new_op(l, kind, ttl_ms, 2, 2, item, len);
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

/* ---- a writer that gives up: its mark taken away -------------------------- */

static int encode_abandon(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    static const unsigned char pick[] = { 0, 1 };
    (void)node;
    return redlock__rw_eval(op, out, eval, REDLOCK__SCRIPT_RW_ABANDON, pick, 2, 1, 0, NULL);
}

/* Whatever a master answers, nothing depends on it: the mark would expire
 * by itself (redlock__rw_wait_ms). */
static int classify_abandon(redlock__op *op, size_t node, const redlock__reply *r)
{
    int v = redlock__classify_script(op, node, r);
    return v < 0 ? v : REDLOCK__OK;
}

static const redlock__op_kind write_abandon = {
    .name = "abandon", .rule = MAJORITY, .encode = encode_abandon,
    .classify = classify_abandon };

/* An acquire that asked for a mark ends without the lock: DEL of the mark
 * where it is still this handle's, on every master, behind the undos of
 * its attempts (each master's requests are answered in order). */
static void write_abandon_hook(redlock_lock *l)
{
    redlock__rw_keys *k = l->kd;
    const char *item[2] = { k->mark, k->mark_id };
    size_t len[2] = { k->marklen, REDLOCK__RW_MARK_ID };
    redlock__op *op;

    if (!k->may_mark)
        return;
    k->may_mark = 0;
    if ((op = redlock__lock_new_op(l, &write_abandon, 0, 1, 1, item, len)))
        redlock__op_start(op, NULL, NULL);     /* (out of memory: it expires) */
}

/* A writer's release wakes the readers waiting, or the longest waiter;
 * its waiters are woken by a message for writers ("w"): the last reader's
 * release tells the writer whose mark waits (rwread.c). */
static const redlock__wake_hook write_wake = { .release_wq = &write_release_wq, .role = 'w' };

const redlock__family redlock__write = {
    .kind = REDLOCK_KIND_WRITE, .acquire = &write_acquire, .extend = &write_extend,
    .release = &write_release, .extend_regrow = &write_regrow,
    .acquire_fenced = &write_acquire_fenced, .fence_raise = &write_raise,
    .op = write_op, .free = redlock__rw_free, .abandon = write_abandon_hook, .wake = &write_wake };


int redlock_lock_new_write(redlock_lock **out, redlock_client *c, const void *resource, size_t len)
{
    REDLOCK__GATED(c, int, redlock__rw_new(out, c, resource, len, &redlock__write));
}
