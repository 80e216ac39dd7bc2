/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* handoff.c -- the contend workload's baseline: the raw hand-off chain.
 *
 * The same clients as the library's run (--clients, on --threads, each with
 * two connections per master: commands and a subscriber), the same hold,
 * the same commands a hand-off needs at the least, and none of the
 * coordination: an oracle, not the masters, knows who is next.
 *
 *   - the holder releases: on every master the compare-and-delete script,
 *     which on one master (the first that granted the hold, written to
 *     last, so the others have their release before anyone hears) also
 *     publishes to the next holder, picked at random among the other
 *     clients by the releaser itself;
 *   - the pick, on the message, sends SET key val NX PX ttl to every
 *     master and holds once a quorum said OK.  Should a master not have
 *     its release yet (the pick overtook it), the pick gives its SETs back
 *     and tries again 100 us later (counted as a raw SET failure).
 *
 * Nobody else tries, so there are no split votes, no registries, no polls:
 * what the library adds to a hand-off is what its run takes beyond this
 * one (docs/performance.md, "Many clients, one hot lock").  Only the mutex on
 * one key (--keys 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event2/event.h>

#include "bench.h"
#include "rawconn.h"

/* the release, and the announcement on the master that picks */
static const char release_script[] =
    "if redis.call('get',KEYS[1]) == ARGV[1] then redis.call('del',KEYS[1]) "
    "if ARGV[2] ~= '' then redis.call('publish',ARGV[2],'1') end return 1 end return 0";

/* a reply's tag: (attempt << 3) | kind; 0: a message nobody asked for */
enum { K_MSG = 0, K_SETUP = 1, K_SCRIPT = 2, K_SUB = 3, K_SET = 4, K_REL = 5 };
#define TAG(seq, kind) (((uintptr_t)(seq) << 3) | (uintptr_t)(kind))
#define TAG_KIND(tag) ((int)((tag) & 7))
#define TAG_SEQ(tag) ((uint64_t)((tag) >> 3))

enum { ST_IDLE, ST_TRYING, ST_HOLDING };

typedef struct hclient {
    bench_thread *t;
    rconn *conns;          /* [2n]: n command connections, then n subscribers */
    size_t n;
    size_t setup_left;
    int failed;
    char sha[41];
    char ttl[24];
    char key[128];
    size_t klen;
    char val[17];
    int state;
    uint64_t seq;          /* the attempt the SET replies must belong to */
    size_t replies, oks, picker;
    int meas;
    int64_t t0;            /* since when it waits */
    struct event *hold, *retry, *tick;
} hclient;

static const rconn_ops handoff_ops;

static void broken(hclient *h, const char *fmt, const char *what)
{
    rlb_break(h->t, &h->failed, fmt, what);
}

static void send_now(hclient *h, rconn *c, uintptr_t tag, int argc, const char **argv,
                     const size_t *lens)
{
    char buf[512];
    size_t len = rconn_format(buf, sizeof buf, argc, argv, lens);
    if (!len || rconn_send_now(c, tag, buf, len) != 0)
        broken(h, "%s", "out of memory");
}

/* Each master the release script (the picker last, telling `chan`). */
static void release_all(hclient *h, const char *chan, size_t chanlen)
{
    const char *argv[6] = {"EVALSHA", h->sha, "1", h->key, h->val, ""};
    size_t lens[6] = {7, 40, 1, h->klen, 16, 0};
    for (size_t i = 0; i < h->n; i++)
        if (i != h->picker)
            send_now(h, &h->conns[i], TAG(0, K_REL), 6, argv, lens);
    argv[5] = chan;
    lens[5] = chanlen;
    send_now(h, &h->conns[h->picker < h->n ? h->picker : 0], TAG(0, K_REL), 6, argv, lens);
}

static void try_acquire(hclient *h)
{
    static const char hex[] = "0123456789abcdef";
    uint64_t r = rlb_rand(&h->t->rng);
    for (int i = 0; i < 16; i++)
        h->val[i] = hex[(r >> (4 * i)) & 15];
    const char *argv[6] = {"SET", h->key, h->val, "NX", "PX", h->ttl};
    size_t lens[6] = {3, h->klen, 16, 2, 2, strlen(h->ttl)};
    h->state = ST_TRYING;
    h->seq++;
    h->replies = h->oks = 0;
    h->picker = h->n;
    for (size_t i = 0; i < h->n; i++)
        send_now(h, &h->conns[i], TAG(h->seq, K_SET), 6, argv, lens);
}

static void retry_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    hclient *h = arg;
    if (h->state == ST_IDLE && !atomic_load(&h->t->sh->stop))
        try_acquire(h);
}

/* The hold is over: release, telling a client picked at random. */
static void hold_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    hclient *h = arg;
    bench_thread *t = h->t;
    int clients = t->sh->cfg->clients;
    char chan[160];
    int next = clients > 1 ? (int)(rlb_rand(&t->rng) % (uint64_t)(clients - 1)) : t->id;
    if (next >= t->id && clients > 1)
        next++;
    int len = snprintf(chan, sizeof chan, "%.*s:rh:%d", (int)h->klen, h->key, next);
    h->t0 = rlb_now_ns();
    rlb_mark_release(t, 0, h->t0);
    h->state = ST_IDLE;
    release_all(h, chan, (size_t)len);
    if (h->meas)
        t->st.cycles++;
}

static void set_reply(hclient *h, rconn *c, const redisReply *r)
{
    bench_thread *t = h->t;
    const bench_cfg *cfg = t->sh->cfg;
    h->replies++;
    if (r->type == REDIS_REPLY_STATUS) {
        if (h->oks++ == 0)
            h->picker = c->idx;
    } else {
        rlb_count_raw_fail(t, h->meas, r->type == REDIS_REPLY_ERROR ? RAWF_ERR : RAWF_SET);
    }
    if (h->oks == cfg->quorum) {
        int64_t now = rlb_now_ns();
        h->state = ST_HOLDING;
        if (h->meas) {
            t->st.tries++;
            t->st.acq_ok++;
        }
        rlb_count_op(t, h->meas);
        rlb_record(t, h->meas, OP_ACQ, now - h->t0, 1);
        rlb_record_handoff(t, h->meas, 0, now);
        struct timeval tv = {(time_t)(cfg->hold_ms / 1000), (suseconds_t)(cfg->hold_ms % 1000 * 1000)};
        evtimer_add(h->hold, &tv);
    } else if (h->replies == h->n && h->oks < cfg->quorum) {
        /* a release the SETs overtook: give back what was won, try again */
        h->state = ST_IDLE;
        if (h->oks > 0)
            release_all(h, "", 0);
        struct timeval tv = {0, 100};
        evtimer_add(h->retry, &tv);
    }
}

static void on_reply(rconn *c, uintptr_t tag, const redisReply *r)
{
    hclient *h = c->owner;
    switch (TAG_KIND(tag)) {
    case K_MSG:
        /* picked: it tries, unless the run is over */
        if (r->type == REDIS_REPLY_ARRAY && h->state == ST_IDLE &&
            rlb_may_start(h->t, 1, &h->meas))
            try_acquire(h);
        break;
    case K_SET:
        if (h->state == ST_TRYING && TAG_SEQ(tag) == h->seq)
            set_reply(h, c, r);
        break;
    case K_REL:
        if (r->type == REDIS_REPLY_ERROR)
            rlb_count_raw_fail(h->t, h->meas, RAWF_ERR);
        break;
    default:
        if (r->type == REDIS_REPLY_ERROR)
            broken(h, "setup refused: %s", r->str);
        else if (TAG_KIND(tag) == K_SCRIPT)
            rconn_script_sha(r, h->sha);
        rconn_setup_step(&h->setup_left, 0, h->t->base);
        break;
    }
    if (h->failed)
        c->halt = 1;
}

static void on_failed(rconn *c, const char *why)
{
    hclient *h = c->owner;
    char what[300];
    snprintf(what, sizeof what, "%s: %s", c->desc, why);
    c->halt = 1;
    broken(h, "%s", what);
}

static const rconn_ops handoff_ops = {NULL, on_reply, on_failed};

/* Run the loop until setup_left replies came, the deadline, or a failure. */
static void deadline_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    event_base_loopbreak(arg);
}

static int settle(hclient *h, const char *what, char *err, size_t errlen)
{
    struct timeval tv = {5, 0};
    struct event *deadline = evtimer_new(h->t->base, deadline_cb, h->t->base);
    if (!deadline)
        return rlb_oom(err, errlen);
    evtimer_add(deadline, &tv);
    if (h->setup_left)
        event_base_dispatch(h->t->base);
    event_free(deadline);
    if (h->setup_left || h->failed) {
        snprintf(err, errlen, "hand-off baseline: %s: %s", what,
                 h->failed ? h->t->sh->errmsg : "timed out after 5 s");
        return -1;
    }
    return 0;
}

static int handoff_setup(bench_thread *t, char *err, size_t errlen)
{
    const bench_cfg *cfg = t->sh->cfg;
    hclient *h = rlb_impl_new(t, sizeof(*h), err, errlen);
    raddr a;
    if (!h)
        return -1;
    h->t = t;
    h->n = cfg->nnodes;
    snprintf(h->ttl, sizeof h->ttl, "%lld", (long long)cfg->ttl_ms);
    h->klen = (size_t)rlb_key(cfg, h->key, sizeof h->key, 0);
    h->conns = calloc(2 * h->n, sizeof(rconn));
    h->hold = evtimer_new(t->base, hold_cb, h);
    h->retry = evtimer_new(t->base, retry_cb, h);
    if (!h->conns || !h->hold || !h->retry)
        return rlb_oom(err, errlen);
    for (size_t i = 0; i < 2 * h->n; i++) {
        rconn *c = &h->conns[i];
        c->ops = &handoff_ops;
        c->owner = h;
        c->idx = i % h->n;
        c->setup_left = &h->setup_left;
        if (rconn_parse_addr(cfg->nodes[c->idx], &a, err, errlen) != 0 ||
            rconn_open(c, t->base, cfg->nodes[c->idx], &a, err, errlen) != 0)
            return -1;
    }
    h->setup_left = 2 * h->n;
    if (settle(h, "connecting", err, errlen) != 0)
        return -1;
    char chan[160];
    int len = snprintf(chan, sizeof chan, "%.*s:rh:%d", (int)h->klen, h->key, t->id);
    for (size_t i = 0; i < 2 * h->n; i++) {
        rconn *c = &h->conns[i];
        rconn_parse_addr(cfg->nodes[c->idx], &a, err, errlen);
        h->setup_left += (size_t)rconn_handshake(c, &a, TAG(0, K_SETUP));
        if (i < h->n) {
            const char *argv[3] = {"SCRIPT", "LOAD", release_script};
            size_t lens[3] = {6, 4, sizeof(release_script) - 1};
            rconn_send(c, TAG(0, K_SCRIPT), 3, argv, lens);
        } else {
            const char *argv[2] = {"SUBSCRIBE", chan};
            size_t lens[2] = {9, (size_t)len};
            rconn_send(c, TAG(0, K_SUB), 2, argv, lens);
        }
        h->setup_left++;
    }
    return settle(h, "AUTH, SELECT, SCRIPT LOAD and SUBSCRIBE", err, errlen);
}

static void tick_cb(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    bench_thread *t = arg;
    if (atomic_load(&t->sh->stop))
        event_base_loopbreak(t->base);
}

static void handoff_run(bench_thread *t, int n)
{
    hclient *lead = t->impl;
    struct timeval tv = {0, 50000};
    lead->tick = event_new(t->base, -1, EV_PERSIST, tick_cb, t);
    if (!lead->tick) {
        rlb_set_error(t->sh, "%s", "out of memory");
        return;
    }
    event_add(lead->tick, &tv);
    for (int i = 0; i < n; i++) {
        hclient *h = t[i].impl;
        h->t0 = rlb_now_ns();
        if (t[i].id == 0 && rlb_may_start(&t[i], 1, &h->meas))
            try_acquire(h);        /* the first holder; then the chain */
    }
    event_base_dispatch(t->base);
}

static void handoff_teardown(bench_thread *t)
{
    hclient *h = t->impl;
    if (!h)
        return;
    for (size_t i = 0; h->conns && i < 2 * h->n; i++)
        rconn_close(&h->conns[i]);
    rlb_event_free(h->hold);
    rlb_event_free(h->retry);
    rlb_event_free(h->tick);
    free(h->conns);
    free(h);
    t->impl = NULL;
}

const bench_impl handoff_impl = {handoff_setup, handoff_run, handoff_teardown};
