/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* inspect.c -- what every master holds for a resource, read without
 * touching it: one read-only script per master, fanned out like a probe
 * (decided when every master answered or timed out, not counted in the
 * lock statistics), then the quorum's view computed from the answers.
 *
 * The script reads the keys of every kind (docs/kinds.md, "Keys on the
 * masters"): K's type, value or members and PTTL, the re-entrant counts
 * "{K}:h" where K is an owner's "P" form, each reader's "{K}:rd:<id>" PTTL,
 * and whether a writer's mark "{K}:ww" exists.  Lists are cut so that a
 * reply stays within what the reply reader takes (floor/resp.h); the
 * counts stay whole.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event2/event.h>
#include "client/client.h"

#define LIST_MAX 200            /* holders listed per master */
#define VALUE_MAX 4096          /* bytes of a value listed */

/* {type, pttl of K, mark exists, a, b, readers' largest pttl}: a string K:
 * a = its value (cut), b = the "{K}:h" pairs when K is "<n>:<owner>"; a
 * set K: a = the live readers, b = their ids and pttls (cut; sorted, so
 * that every master lists the same ones). */
const char redlock__lua_inspect[] =
    "local k = KEYS[1] local b = '{' .. k .. '}' "
    "local t = redis.call('type', k).ok "
    "local p = redis.call('pttl', k) "
    "local w = redis.call('exists', b .. ':ww') "
    "if t == 'string' then local v = redis.call('get', k) local h = {} "
    "local n = string.match(v, '^(%d+):') "
    "if n and #v == #n + 1 + tonumber(n) and redis.call('type', b .. ':h').ok == 'hash' then "
    "local all = redis.call('hgetall', b .. ':h') "
    "for i = 1, math.min(#all, 2 * " "200" "), 2 do "
    "h[#h + 1] = string.sub(all[i], 1, 4096) h[#h + 1] = all[i + 1] end "
    "if #all > 2 * 200 then h[#h + 1] = tostring(#all / 2) end end "
    "return {t, p, w, string.sub(v, 1, 4096), h, #v} end "
    "if t == 'set' then local live, out, top = 0, {}, 0 "
    "local ids = redis.call('smembers', k) table.sort(ids) "
    "for _, id in ipairs(ids) do "
    "local q = redis.call('pttl', b .. ':rd:' .. id) "
    "if q ~= -2 then live = live + 1 if q > top then top = q end "
    "if live <= 200 then out[#out + 1] = string.sub(id, 1, 4096) out[#out + 1] = q end end end "
    "return {t, p, w, live, out, top} end "
    "return {t, p, w}";
_Static_assert(LIST_MAX == 200 && VALUE_MAX == 4096, "the script's limits are these");

typedef struct holder {
    char *value;
    size_t len;
    int64_t ttl_ms, holds;
    size_t masters;
} holder;

typedef struct view {
    int result;
    int64_t rtt_us;
    char detail[REDLOCK__DETAIL];
    int kind;
    size_t holders, listed;
    int64_t ttl_ms;
    char *owner;
    size_t ownerlen;
    int writer_waiting;
    holder *h;
} view;

struct redlock_inspection {
    size_t n, quorum;
    int status;
    view *node;
    view q;                     /* the quorum's view */
    char errstr[512];
    redlock_inspect_cb *cb;
    void *privdata;
    redlock_client *c;
};

static void view_clear(view *v)
{
    for (size_t i = 0; i < v->listed; i++)
        free(v->h[i].value);
    free(v->h);
    free(v->owner);
}

void redlock_inspection_free(redlock_inspection *in)
{
    if (!in)
        return;
    for (size_t i = 0; i < in->n; i++)
        view_clear(&in->node[i]);
    free(in->node);
    view_clear(&in->q);
    free(in);
}

/* ---- one master's answer ---------------------------------------------- */

static int is_str(const redlock__reply *r)
{
    return r->type == REDLOCK__REPLY_STRING || r->type == REDLOCK__REPLY_STATUS;
}

static int is_int(const redlock__reply *r)
{
    return r->type == REDLOCK__REPLY_INTEGER;
}

static int add_holder(view *v, const char *s, size_t len, int64_t ttl_ms, int64_t holds)
{
    holder *h = &v->h[v->listed];

    if (!(h->value = malloc(len + 1)))
        return -1;
    memcpy(h->value, s, len);
    h->value[len] = '\0';
    h->len = len;
    h->ttl_ms = ttl_ms;
    h->holds = holds;
    h->masters = 1;
    v->listed++;
    return 0;
}

/* "<n>:<owner>" or "<n>:<owner>=<value>": a re-entrant key; the owner
 * (and where given the value) out of it. */
static int reentrant_parse(const char *s, size_t len, size_t *own_off, size_t *own_len)
{
    size_t i = 0, n = 0;

    while (i < len && i < 12 && s[i] >= '0' && s[i] <= '9')
        n = n * 10 + (size_t)(s[i++] - '0');
    if (i == 0 || i >= len || s[i] != ':' || n == 0 || n > len - i - 1)
        return 0;
    if (len != i + 1 + n && s[i + 1 + n] != '=')
        return 0;
    *own_off = i + 1;
    *own_len = n;
    return 1;
}

static int read_string(view *v, const redlock__reply *r)
{
    const redlock__reply *val = r->element[3], *h = r->element[4];
    size_t off, olen, pairs;

    if (!is_str(val) || h->type != REDLOCK__REPLY_ARRAY)
        return -1;
    if (v->ttl_ms == -1) {
        v->kind = REDLOCK_HELD_OTHER;       /* no ttl: no lock's key */
        return 0;
    }
    if (!reentrant_parse(val->str, val->len, &off, &olen)) {
        v->kind = REDLOCK_HELD_MUTEX;
        v->holders = 1;
        return (v->h = calloc(1, sizeof *v->h)) ? add_holder(v, val->str, val->len, v->ttl_ms, 1)
                                                : -1;
    }
    v->kind = REDLOCK_HELD_REENTRANT;
    if (!(v->owner = malloc(olen + 1)))
        return -1;
    memcpy(v->owner, val->str + off, olen);
    v->owner[olen] = '\0';
    v->ownerlen = olen;
    pairs = h->elements / 2;
    if (!(v->h = calloc(pairs + 1, sizeof *v->h)))
        return -1;
    if (off + olen < val->len) {        /* "P=<value>": one handle, one hold */
        v->holders = 1;
        return add_holder(v, val->str + off + olen + 1, val->len - off - olen - 1, v->ttl_ms, 1);
    }
    v->holders = h->elements % 2 ? (size_t)strtoull(h->element[h->elements - 1]->str, NULL, 10)
                                 : pairs;
    for (size_t i = 0; i < pairs; i++) {
        const redlock__reply *f = h->element[2 * i], *c = h->element[2 * i + 1];
        if (!is_str(f) || !is_str(c) ||
            add_holder(v, f->str, f->len, v->ttl_ms, strtoll(c->str, NULL, 10)) != 0)
            return -1;
    }
    return 0;
}

static int read_set(view *v, const redlock__reply *r)
{
    const redlock__reply *live = r->element[3], *ids = r->element[4], *top = r->element[5];

    if (!is_int(live) || ids->type != REDLOCK__REPLY_ARRAY || !is_int(top))
        return -1;
    v->kind = REDLOCK_HELD_READERS;
    v->holders = (size_t)live->integer;
    v->ttl_ms = top->integer;
    if (!(v->h = calloc(ids->elements / 2 + 1, sizeof *v->h)))
        return -1;
    for (size_t i = 0; i + 1 < ids->elements; i += 2) {
        const redlock__reply *id = ids->element[i], *q = ids->element[i + 1];
        if (!is_str(id) || !is_int(q) || add_holder(v, id->str, id->len, q->integer, 1) != 0)
            return -1;
    }
    return 0;
}

/* The script's reply into the node's view; -1: not the reply it sends. */
static int read_reply(view *v, const redlock__reply *r)
{
    const redlock__reply *t;

    if (r->type != REDLOCK__REPLY_ARRAY || r->elements < 3 || !is_str(r->element[0]) ||
        !is_int(r->element[1]) || !is_int(r->element[2]))
        return -1;
    t = r->element[0];
    v->writer_waiting = r->element[2]->integer == 1;
    v->ttl_ms = r->element[1]->integer;
    if (t->len == 4 && memcmp(t->str, "none", 4) == 0) {
        v->kind = REDLOCK_HELD_NONE;
        v->ttl_ms = 0;
        return 0;
    }
    if (t->len == 6 && memcmp(t->str, "string", 6) == 0 && r->elements == 6)
        return read_string(v, r);
    if (t->len == 3 && memcmp(t->str, "set", 3) == 0 && r->elements == 6)
        return read_set(v, r);
    v->kind = REDLOCK_HELD_OTHER;       /* a list, a hash ...: no lock's key */
    return 0;
}

static int encode_inspect(const redlock__op *op, size_t node, redlock__buf *out, int eval)
{
    const char *argv[4];
    size_t len[4];
    (void)node;

    argv[0] = eval ? "EVAL" : "EVALSHA";
    len[0] = strlen(argv[0]);
    argv[1] = eval ? op->f->net->scripts[REDLOCK__SCRIPT_INSPECT]
                   : op->f->sha[REDLOCK__SCRIPT_INSPECT];
    len[1] = eval ? strlen(argv[1]) : 40;
    argv[2] = "1";
    len[2] = 1;
    argv[3] = redlock__op_item(op, 0, &len[3]);
    return redlock__resp_command(out, 4, argv, len);
}

static int classify_inspect(redlock__op *op, size_t node, const redlock__reply *r)
{
    redlock_inspection *in = op->done_privdata;
    view *v = &in->node[node];

    if (r->type == REDLOCK__REPLY_ERROR)
        return r->len >= 8 && memcmp(r->str, "NOSCRIPT", 8) == 0 ? -1 : REDLOCK__ERROR;
    view_clear(v);
    v->h = NULL;
    v->owner = NULL;
    v->listed = v->holders = 0;
    if (read_reply(v, r) != 0) {
        view_clear(v);
        v->h = NULL;
        v->owner = NULL;
        v->listed = v->holders = 0;
        v->kind = REDLOCK_HELD_NONE;
        return REDLOCK__ERROR;
    }
    return REDLOCK__OK;
}

static const redlock__op_kind kind_inspect = {
    .name = "inspect", .rule = { REDLOCK__RULE_WAIT_ALL, 0 },
    .flags = REDLOCK__KIND_PROBE,
    .encode = encode_inspect, .classify = classify_inspect };

/* ---- the quorum's view ------------------------------------------------ */

static int cmp_desc(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The kind a quorum of the masters that answered reports, or -1. */
static int quorum_kind(const redlock_inspection *in)
{
    for (int k = REDLOCK_HELD_NONE; k <= REDLOCK_HELD_OTHER; k++) {
        size_t count = 0;
        for (size_t i = 0; i < in->n; i++)
            count += in->node[i].result == REDLOCK_VOTE_OK && in->node[i].kind == k;
        if (count >= in->quorum)
            return k;
    }
    return -1;
}

/* The time left that the masters holding (value, len) grant together:
 * the quorum-th largest of their ttls (0 where a master does not hold
 * it), and in *masters how many hold it. */
static int64_t holder_quorum_ttl(const redlock_inspection *in, int kind, const holder *x,
                                 int64_t *ttls, size_t *masters, int64_t *holds)
{
    size_t m = 0;

    for (size_t i = 0; i < in->n; i++) {
        const view *v = &in->node[i];
        ttls[i] = 0;
        if (v->result != REDLOCK_VOTE_OK || v->kind != kind)
            continue;
        for (size_t j = 0; j < v->listed; j++)
            if (v->h[j].len == x->len && memcmp(v->h[j].value, x->value, x->len) == 0) {
                ttls[i] = v->h[j].ttl_ms;
                if (m++ == 0 || v->h[j].holds < *holds)
                    *holds = v->h[j].holds;
                break;
            }
    }
    *masters = m;
    qsort(ttls, in->n, sizeof *ttls, cmp_desc);
    return ttls[in->quorum - 1];
}

static int seen_before(const redlock_inspection *in, int kind, size_t node, const holder *x)
{
    for (size_t i = 0; i < node; i++) {
        const view *v = &in->node[i];
        if (v->result != REDLOCK_VOTE_OK || v->kind != kind)
            continue;
        for (size_t j = 0; j < v->listed; j++)
            if (v->h[j].len == x->len && memcmp(v->h[j].value, x->value, x->len) == 0)
                return 1;
    }
    return 0;
}

static int quorum_owner(redlock_inspection *in)
{
    for (size_t i = 0; i < in->n; i++) {
        const view *v = &in->node[i];
        size_t same = 0;
        if (v->result != REDLOCK_VOTE_OK || !v->owner)
            continue;
        for (size_t j = 0; j < in->n; j++)
            same += in->node[j].result == REDLOCK_VOTE_OK && in->node[j].owner &&
                    in->node[j].ownerlen == v->ownerlen &&
                    memcmp(in->node[j].owner, v->owner, v->ownerlen) == 0;
        if (same >= in->quorum) {
            if (!(in->q.owner = malloc(v->ownerlen + 1)))
                return -1;
            memcpy(in->q.owner, v->owner, v->ownerlen + 1);
            in->q.ownerlen = v->ownerlen;
            return 0;
        }
    }
    return 0;
}

static int quorum_holders(redlock_inspection *in, int64_t *ttls)
{
    size_t cap = 0;
    view *q = &in->q;

    for (size_t i = 0; i < in->n; i++)
        if (in->node[i].result == REDLOCK_VOTE_OK && in->node[i].kind == q->kind)
            cap += in->node[i].listed;
    if (cap && !(q->h = calloc(cap, sizeof *q->h)))
        return -1;
    for (size_t i = 0; i < in->n; i++) {
        const view *v = &in->node[i];
        if (v->result != REDLOCK_VOTE_OK || v->kind != q->kind)
            continue;
        for (size_t j = 0; j < v->listed; j++) {
            size_t masters;
            int64_t holds = 1, ttl;
            if (seen_before(in, q->kind, i, &v->h[j]))
                continue;
            ttl = holder_quorum_ttl(in, q->kind, &v->h[j], ttls, &masters, &holds);
            if (masters < in->quorum)
                continue;
            if (add_holder(q, v->h[j].value, v->h[j].len, ttl, holds) != 0)
                return -1;
            q->h[q->listed - 1].masters = masters;
            if (ttl > q->ttl_ms)
                q->ttl_ms = ttl;
        }
    }
    q->holders = q->listed;
    return 0;
}

/* The quorum's view: the kind a quorum reports; the holders that a quorum
 * holds, each with the time left a quorum of masters still grants it;
 * the largest of those. */
static int quorum_view(redlock_inspection *in)
{
    view *q = &in->q;
    int64_t *ttls;
    int kind = quorum_kind(in), rc = 0;
    size_t waiting = 0;

    q->result = in->status == 0 ? REDLOCK_VOTE_OK : REDLOCK_VOTE_NONE;
    q->rtt_us = -1;
    q->kind = kind < 0 ? REDLOCK_HELD_NONE : kind;
    for (size_t i = 0; i < in->n; i++)
        waiting += in->node[i].result == REDLOCK_VOTE_OK && in->node[i].writer_waiting;
    q->writer_waiting = waiting >= in->quorum;
    if (kind < 0 || kind == REDLOCK_HELD_NONE || kind == REDLOCK_HELD_OTHER)
        return 0;
    if (!(ttls = malloc(in->n * sizeof *ttls)))
        return -1;
    rc = quorum_holders(in, ttls);
    free(ttls);
    return rc == 0 ? quorum_owner(in) : rc;
}

/* ---- the operation ---------------------------------------------------- */

static void set_status(redlock_inspection *in, const redlock__op *op, redlock_client *c)
{
    size_t ok = 0, timeouts = 0, down = 0, first = SIZE_MAX;

    for (size_t i = 0; i < in->n; i++) {
        view *v = &in->node[i];
        redlock__master *m = &c->fleet.masters[i];
        v->result = op->votes[i] == REDLOCK__PENDING ? REDLOCK_VOTE_NONE : op->votes[i];
        v->rtt_us = op->rtt[i];
        snprintf(v->detail, sizeof v->detail, "%s", op->detail[i]);
        if (v->result == REDLOCK_VOTE_OK && m->twin_of != i) {
            /* the same server as a lower-numbered node: its keys once */
            v->result = REDLOCK_VOTE_UNCOUNTED;
            snprintf(v->detail, sizeof v->detail, "%s", redlock__guard_twin_why(m, m->twin_of));
        }
        ok += v->result == REDLOCK_VOTE_OK;
        timeouts += v->result == REDLOCK_VOTE_TIMEOUT;
        down += v->result == REDLOCK_VOTE_DOWN;
        if (v->result != REDLOCK_VOTE_OK && first == SIZE_MAX)
            first = i;
    }
    if (op->cancelled)
        in->status = REDLOCK_ECANCELED;
    else if (ok >= in->quorum)
        in->status = 0;
    else
        in->status = timeouts ? REDLOCK_ETIMEDOUT : down ? REDLOCK_ECONNECT : REDLOCK_ESERVER;
    if (in->status == REDLOCK_ECANCELED)
        snprintf(in->errstr, sizeof in->errstr, "inspect: %s", redlock_strerror(in->status));
    else if (in->status)
        snprintf(in->errstr, sizeof in->errstr,
                 "inspect: %s (%zu of %zu masters answered, quorum %zu); first: node %zu (%s): %s",
                 redlock_strerror(in->status), ok, in->n, in->quorum, first,
                 c->fleet.masters[first].label, in->node[first].detail);
}

static void inspect_done(redlock__op *op, void *privdata)
{
    redlock_inspection *in = privdata;
    redlock_client *c = in->c;

    set_status(in, op, c);
    if (in->status != REDLOCK_ECANCELED && quorum_view(in) != 0) {
        in->status = REDLOCK_ENOMEM;
        snprintf(in->errstr, sizeof in->errstr, "inspect: %s", redlock_strerror(REDLOCK_ENOMEM));
    }
    in->c = NULL;
    in->cb(c, in, in->status, in->privdata);
}

static int refuse(redlock_client *c, const char *why)
{
    if (c)
        snprintf(c->errstr, sizeof c->errstr, "inspect: %s", why);
    return REDLOCK_EINVAL;
}

static int check_args(redlock_client *c, const void *resource, size_t len, const void *cb)
{
    const char *why;

    if (!c)
        return REDLOCK_EINVAL;
    if (!resource || len == 0)
        return refuse(c, "the resource is NULL or empty");
    if (!cb)
        return refuse(c, "the callback is NULL");
    if (c->loop.closing)
        return REDLOCK_ECLOSED;
    if (len > ((size_t)512 << 20) - 2 - c->prefixlen)
        return refuse(c, "the resource is longer than 512 MiB with the key prefix");
    if ((why = redlock__key_reserved(c, resource, len)))
        return refuse(c, why);
    return 0;
}

static int start(redlock_client *c, const void *resource, size_t len, redlock_inspect_cb *cb,
                 void *privdata)
{
    redlock_inspection *in;
    redlock__op *op;
    char *key;
    const char *item[1];
    size_t klen[1];
    redlock__op_args a = { 1, 0, item, klen, 0, 0, 0, 0 };
    int rc;

    if ((rc = check_args(c, resource, len, (const void *)cb)) != 0)
        return rc;
    if (!(in = calloc(1, sizeof *in)) || !(in->node = calloc(c->fleet.n, sizeof *in->node)) ||
        !(key = malloc(c->prefixlen + len))) {
        redlock_inspection_free(in);
        return REDLOCK_ENOMEM;
    }
    in->n = c->fleet.n;
    in->quorum = c->fleet.n / 2 + 1;
    in->cb = cb;
    in->privdata = privdata;
    in->c = c;
    memcpy(key, c->key_prefix, c->prefixlen);
    memcpy(key + c->prefixlen, resource, len);
    item[0] = key;
    klen[0] = c->prefixlen + len;
    op = redlock__op_new(&c->fleet, &kind_inspect, &a);
    free(key);
    if (!op) {
        redlock_inspection_free(in);
        return REDLOCK_ENOMEM;
    }
    redlock__op_start(op, inspect_done, in);
    return 0;
}

int redlock_inspect_async(redlock_client *c, const void *resource, size_t len,
                          redlock_inspect_cb *cb, void *privdata)
{
    REDLOCK__GATED(c, int, start(c, resource, len, cb, privdata));
}

struct inspect_wait {
    redlock_inspection *in;
    int done;
};

static void wait_cb(redlock_client *c, redlock_inspection *in, int status, void *privdata)
{
    struct inspect_wait *w = privdata;
    (void)status;
    w->in = in;
    if (c->loop.th)
        redlock__gate_done(&c->loop, &w->done);
    else
        w->done = 1;
}

static int inspect_blocking(redlock_client *c, const void *resource, size_t len,
                            redlock_inspection **out)
{
    struct inspect_wait w = { NULL, 0 };
    int rc;

    if (!out)
        return refuse(c, "out is NULL");
    *out = NULL;
    if (c && !c->own_base)
        return refuse(c, "blocking calls need a client created without an event base");
    if (c && c->loop.depth)
        return refuse(c, "blocking calls cannot be made from a callback");
    if ((rc = start(c, resource, len, wait_cb, &w)) != 0)
        return rc;
    if (c->loop.th)
        redlock__gate_wait(&c->loop, &w.done, -1);
    else
        while (!w.done)
            event_base_loop(c->loop.base, EVLOOP_ONCE);
    *out = w.in;
    rc = w.in->status;
    if (rc == REDLOCK_ECANCELED || rc == REDLOCK_ENOMEM) {
        redlock_inspection_free(w.in);
        *out = NULL;
    }
    return rc;
}

int redlock_inspect(redlock_client *c, const void *resource, size_t len,
                    redlock_inspection **out)
{
    REDLOCK__GATED(c, int, inspect_blocking(c, resource, len, out));
}

/* ---- reading an inspection -------------------------------------------- */

int redlock_inspection_node_(const redlock_inspection *in, size_t node,
                             redlock_inspect_node *out, size_t size)
{
    const view *v;
    redlock_inspect_node r;

    if (!in || !out || (node >= in->n && node != REDLOCK_INSPECT_QUORUM))
        return REDLOCK_EINVAL;
    v = node == REDLOCK_INSPECT_QUORUM ? &in->q : &in->node[node];
    memset(&r, 0, sizeof r);
    r.result = v->result;
    r.rtt_us = v->rtt_us;
    r.detail = v->detail;
    r.kind = v->kind;
    r.holders = v->holders;
    r.listed = v->listed;
    r.ttl_ms = v->ttl_ms;
    r.owner = v->owner;
    r.ownerlen = v->ownerlen;
    r.writer_waiting = v->writer_waiting;
    memcpy(out, &r, size < sizeof r ? size : sizeof r);
    return 0;
}

int redlock_inspection_holder_(const redlock_inspection *in, size_t node, size_t i,
                               redlock_inspect_holder *out, size_t size)
{
    const view *v;
    redlock_inspect_holder r;

    if (!in || !out || (node >= in->n && node != REDLOCK_INSPECT_QUORUM))
        return REDLOCK_EINVAL;
    v = node == REDLOCK_INSPECT_QUORUM ? &in->q : &in->node[node];
    if (i >= v->listed)
        return REDLOCK_EINVAL;
    memset(&r, 0, sizeof r);
    r.value = v->h[i].value;
    r.len = v->h[i].len;
    r.ttl_ms = v->h[i].ttl_ms;
    r.holds = v->h[i].holds;
    r.masters = v->h[i].masters;
    memcpy(out, &r, size < sizeof r ? size : sizeof r);
    return 0;
}

size_t redlock_inspection_nodes(const redlock_inspection *in)
{
    return in ? in->n : 0;
}

const char *redlock_inspection_errstr(const redlock_inspection *in)
{
    return !in ? "inspection is NULL" : in->errstr;
}

const char *redlock_held_name(int kind)
{
    static const char *const names[] = { "none", "mutex", "reentrant", "readers", "other" };
    return kind >= 0 && kind < (int)(sizeof names / sizeof names[0]) ? names[kind] : "unknown";
}
