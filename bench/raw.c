/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* raw.c -- the baseline of redlock-bench: the raw commands one lock cycle
 * costs (N x SET key val NX PX ttl, then N x EVALSHA <release> 1 key val),
 * with no quorum logic, over a minimal pipelined client of our own
 * (libevent bufferevent + hiredis redisReader), one connection per node per
 * thread (rawconn.c), the same number of operations in flight as the
 * library run.
 *
 * Latencies recorded: OP_ACQ = time until a quorum of the SETs answered OK
 * ("raw fan-out"), OP_REL = time until all N EVALSHAs answered. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "bench.h"
#include "rawconn.h"

/* The release script (same semantics as the library's). */
static const char release_script[] =
    "if redis.call('get',KEYS[1]) == ARGV[1] then "
    "return redis.call('del',KEYS[1]) else return 0 end";

/* A pending reply's owner: a slot pointer (8-byte aligned) | its kind. */
enum { K_SET = 0, K_REL = 1, K_OK = 2 /* AUTH, SELECT */, K_SCRIPT = 3 };
#define TAG(slot, kind) ((uintptr_t)(slot) | (uintptr_t)(kind))
#define TAG_SLOT(tag) ((rslot *)((tag) & ~(uintptr_t)3))
#define TAG_KIND(tag) ((int)((tag) & 3))

typedef struct rthread rthread;
typedef struct rslot rslot;

struct rslot {
    bench_thread *t;
    rthread *rt;
    long gidx;
    long own;
    uint64_t seq;
    int active;
    size_t set_replies, set_oks, rel_replies;
    int quorum_seen;
    int meas;             /* started while measuring */
    int64_t t0, t_rel;
    char key[128];
    int klen;
    char val[33];
    char set_cmd[512];    /* the RESP bytes, formatted once per cycle */
    size_t set_len;
    char rel_cmd[512];
    size_t rel_len;
};

struct rthread {
    bench_thread *t;
    rconn *conns;
    size_t n;
    rslot *slots;
    int active;
    size_t setup_left;    /* replies still expected during setup */
    int setup_failed;
    char sha[41];
    char ttl[24];
    int ttllen;
    struct event *tick;
    int64_t deadline_ns;
    int broken;
};

static void slot_start(rslot *s);

/* ---- connection ------------------------------------------------------------ */

static void raw_broken(rthread *rt, const char *fmt, const char *what)
{
    rlb_break(rt->t, &rt->broken, fmt, what);
}

static void slot_reply(rslot *s, int kind, rconn *c, const redisReply *r);

static void setup_reply(rconn *c, int kind, const redisReply *r)
{
    rthread *rt = c->owner;
    if (kind == K_SCRIPT) {
        if (rconn_script_sha(r, rt->sha) != 0) {
            rlb_set_error(rt->t->sh, "SCRIPT LOAD failed on %s", c->desc);
            rt->setup_failed = 1;
        }
    } else if (r->type == REDIS_REPLY_ERROR) {
        rlb_set_error(rt->t->sh, "AUTH/SELECT failed on %s", c->desc);
        rt->setup_failed = 1;
    }
    rconn_setup_step(&rt->setup_left, rt->setup_failed, rt->t->base);
}

static void raw_reply(rconn *c, uintptr_t tag, const redisReply *r)
{
    rthread *rt = c->owner;
    int kind = TAG_KIND(tag);
    if (kind == K_OK || kind == K_SCRIPT)
        setup_reply(c, kind, r);
    else if (TAG_SLOT(tag))
        slot_reply(TAG_SLOT(tag), kind, c, r);
    if (rt->broken)
        c->halt = 1;
}

static void raw_failed(rconn *c, const char *why)
{
    rthread *rt = c->owner;
    c->halt = 1;
    if (!c->connected) {
        rlb_set_error(rt->t->sh, "%s: %s", c->desc, why);
        rt->setup_failed = 1;
        rt->broken = 1;
        event_base_loopbreak(rt->t->base);
    } else {
        raw_broken(rt, "%s", why);
    }
}

static const rconn_ops raw_ops = {NULL, raw_reply, raw_failed};

/* ---- the cycle --------------------------------------------------------------- */

static void slot_finish(rslot *s)
{
    if (!s->active)
        return;
    s->active = 0;
    if (--s->rt->active == 0)
        event_base_loopbreak(s->t->base);
}

/* Barrier mode: the N releases go out once all N SETs answered.  Chained
 * mode: each node's release goes out as soon as that node's SET answered. */
static void send_release(rslot *s, rconn *only)
{
    rthread *rt = s->rt;
    if (only) {
        if (rconn_send_raw(only, TAG(s, K_REL), s->rel_cmd, s->rel_len) != 0)
            raw_broken(rt, "%s", "out of memory");
        return;
    }
    s->t_rel = rlb_now_ns();
    for (size_t i = 0; i < rt->n; i++)
        if (rconn_send_raw(&rt->conns[i], TAG(s, K_REL), s->rel_cmd, s->rel_len) != 0)
            raw_broken(rt, "%s", "out of memory");
}

static void slot_reply(rslot *s, int kind, rconn *c, const redisReply *r)
{
    rthread *rt = s->rt;
    bench_thread *t = s->t;
    const bench_cfg *cfg = t->sh->cfg;
    if (kind == K_SET) {
        s->set_replies++;
        if (r->type == REDIS_REPLY_STATUS && r->len == 2 && memcmp(r->str, "OK", 2) == 0)
            s->set_oks++;
        else
            rlb_count_raw_fail(t, s->meas, r->type == REDIS_REPLY_ERROR ? RAWF_ERR : RAWF_SET);
        if (!s->quorum_seen && s->set_oks >= cfg->quorum) {
            s->quorum_seen = 1;
            rlb_record(t, s->meas, OP_ACQ, rlb_now_ns() - s->t0, 1);
        }
        if (cfg->raw_chained)
            send_release(s, c);
        else if (s->set_replies == rt->n)
            send_release(s, NULL);
        return;
    }
    s->rel_replies++;
    if (!(r->type == REDIS_REPLY_INTEGER && r->integer == 1))
        rlb_count_raw_fail(t, s->meas, r->type == REDIS_REPLY_ERROR ? RAWF_ERR : RAWF_REL);
    if (s->rel_replies == rt->n) {
        /* chained: the whole cycle; barrier: the release phase */
        rlb_record(t, s->meas, OP_REL, rlb_now_ns() - (cfg->raw_chained ? s->t0 : s->t_rel), 0);
        if (s->quorum_seen && s->meas)
            t->st.cycles++;
        rlb_count_op(t, s->meas);
        slot_start(s);
    }
}

static void slot_start(rslot *s)
{
    rthread *rt = s->rt;
    bench_thread *t = s->t;
    const bench_cfg *cfg = t->sh->cfg;
    if (rt->broken)
        return;
    if (!rlb_may_start(t, 1, &s->meas)) {
        slot_finish(s);
        return;
    }
    long k = s->gidx + (long)cfg->concurrency * (long)(s->seq % (uint64_t)s->own);
    s->seq++;
    s->klen = rlb_key(cfg, s->key, sizeof(s->key), k);
    static const char hex[] = "0123456789abcdef";
    uint64_t a = rlb_rand(&t->rng), b = rlb_rand(&t->rng);
    for (int i = 0; i < 16; i++) {
        s->val[i] = hex[(a >> (4 * i)) & 15];
        s->val[16 + i] = hex[(b >> (4 * i)) & 15];
    }
    s->val[32] = '\0';
    const char *sargv[6] = {"SET", s->key, s->val, "NX", "PX", rt->ttl};
    size_t slens[6] = {3, (size_t)s->klen, 32, 2, 2, (size_t)rt->ttllen};
    s->set_len = rconn_format(s->set_cmd, sizeof(s->set_cmd), 6, sargv, slens);
    const char *rargv[5] = {"EVALSHA", rt->sha, "1", s->key, s->val};
    size_t rlens[5] = {7, 40, 1, (size_t)s->klen, 32};
    s->rel_len = rconn_format(s->rel_cmd, sizeof(s->rel_cmd), 5, rargv, rlens);
    s->set_replies = s->set_oks = s->rel_replies = 0;
    s->quorum_seen = 0;
    s->t0 = rlb_now_ns();
    for (size_t i = 0; i < rt->n; i++)
        if (rconn_send_raw(&rt->conns[i], TAG(s, K_SET), s->set_cmd, s->set_len) != 0)
            raw_broken(rt, "%s", "out of memory");
}

/* ---- thread plumbing ------------------------------------------------------- */

static void on_setup_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    rthread *rt = arg;
    if (rlb_now_ns() >= rt->deadline_ns)
        event_base_loopbreak(rt->t->base);
}

static void on_run_tick(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    rthread *rt = arg;
    bench_shared *sh = rt->t->sh;
    if (!atomic_load(&sh->stop))
        return;
    if (rt->active == 0 || rlb_now_ns() > rlb_stop_at(sh) + 5000000000LL)
        event_base_loopbreak(rt->t->base);
}

/* 1. Start connecting every node.  0, or -1 with a message in err. */
static int open_conns(rthread *rt, raddr *addrs, char *err, size_t errlen)
{
    const bench_cfg *cfg = rt->t->sh->cfg;
    for (size_t i = 0; i < rt->n; i++) {
        rt->conns[i].ops = &raw_ops;
        rt->conns[i].owner = rt;
        rt->conns[i].idx = i;
        rt->conns[i].setup_left = &rt->setup_left;
        if (rconn_parse_addr(cfg->nodes[i], &addrs[i], err, errlen) != 0 ||
            rconn_open(&rt->conns[i], rt->t->base, cfg->nodes[i], &addrs[i], err, errlen) != 0)
            return -1;
    }
    return 0;
}

/* Run the loop until every node connected (or the deadline: on_setup_tick). */
static int wait_connected(rthread *rt, char *err, size_t errlen)
{
    rt->setup_left = rt->n;
    event_base_dispatch(rt->t->base);
    if (rt->setup_left != 0 || rt->setup_failed) {
        if (!rt->setup_failed)
            snprintf(err, errlen, "raw client: connecting timed out");
        else
            snprintf(err, errlen, "raw client: %s", rt->t->sh->errmsg);
        return -1;
    }
    return 0;
}

/* 2. AUTH / SELECT when the address asks, then SCRIPT LOAD; run the loop
 * until every reply came (or the deadline). */
static int load_scripts(rthread *rt, const raddr *addrs, char *err, size_t errlen)
{
    for (size_t i = 0; i < rt->n; i++) {
        rconn *c = &rt->conns[i];
        rt->setup_left += (size_t)rconn_handshake(c, &addrs[i], TAG(NULL, K_OK));
        const char *av[3] = {"SCRIPT", "LOAD", release_script};
        size_t al[3] = {6, 4, sizeof(release_script) - 1};
        rconn_send(c, TAG(NULL, K_SCRIPT), 3, av, al);
        rt->setup_left++;
    }
    event_base_dispatch(rt->t->base);
    if (rt->setup_left != 0 || rt->setup_failed || rt->broken) {
        snprintf(err, errlen, "raw client setup failed: %s",
                 rt->t->sh->errmsg[0] ? rt->t->sh->errmsg : "timed out");
        return -1;
    }
    return 0;
}

/* Connect, authenticate and load the script on every node, within 5 s. */
static int connect_nodes(rthread *rt, char *err, size_t errlen)
{
    raddr *addrs = calloc(rt->n, sizeof(raddr));
    if (!addrs)
        return rlb_oom(err, errlen);
    int rc = open_conns(rt, addrs, err, errlen);
    if (rc == 0) {
        rt->deadline_ns = rlb_now_ns() + 5000000000LL;
        struct event *tick = event_new(rt->t->base, -1, EV_PERSIST, on_setup_tick, rt);
        struct timeval tv = {0, 20000};
        event_add(tick, &tv);
        rc = wait_connected(rt, err, errlen);
        if (rc == 0)
            rc = load_scripts(rt, addrs, err, errlen);
        event_free(tick);
    }
    free(addrs);
    return rc;
}

static int raw_setup(bench_thread *t, char *err, size_t errlen)
{
    const bench_cfg *cfg = t->sh->cfg;
    rthread *rt = rlb_impl_new(t, sizeof(*rt), err, errlen);
    if (!rt)
        return -1;
    rt->t = t;
    rt->n = cfg->nnodes;
    rt->ttllen = snprintf(rt->ttl, sizeof(rt->ttl), "%lld", (long long)cfg->ttl_ms);
    rt->conns = calloc(rt->n, sizeof(rconn));
    rt->slots = calloc((size_t)t->nslots, sizeof(rslot));
    if (!rt->conns || !rt->slots)
        return rlb_oom(err, errlen);
    if (connect_nodes(rt, err, errlen) != 0)
        return -1;
    for (int i = 0; i < t->nslots; i++) {
        rslot *s = &rt->slots[i];
        s->t = t;
        s->rt = rt;
        s->gidx = t->slot_base + i;
        s->own = rlb_slot_keys(cfg, s->gidx);
    }
    return 0;
}

static void raw_run(bench_thread *t, int n)
{
    (void)n; /* 1: the baseline runs one connection set per thread */
    rthread *rt = t->impl;
    rt->tick = event_new(t->base, -1, EV_PERSIST, on_run_tick, rt);
    struct timeval tv = {0, 50000};
    event_add(rt->tick, &tv);
    rt->active = t->nslots;
    for (int i = 0; i < t->nslots; i++) {
        rt->slots[i].active = 1;
        slot_start(&rt->slots[i]);
    }
    if (rt->active > 0 && !rt->broken)
        event_base_dispatch(t->base);
}

static void raw_teardown(bench_thread *t)
{
    rthread *rt = t->impl;
    if (!rt)
        return;
    rlb_event_free(rt->tick);
    for (size_t i = 0; rt->conns && i < rt->n; i++)
        rconn_close(&rt->conns[i]);
    free(rt->conns);
    free(rt->slots);
    free(rt);
    t->impl = NULL;
}

const bench_impl raw_impl = {raw_setup, raw_run, raw_teardown};
