/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* raw.c -- the baseline of redlock-bench: the raw commands one lock cycle
 * costs (N x SET key val NX PX ttl, then N x EVALSHA <release> 1 key val),
 * with no quorum logic, over a minimal pipelined client of our own
 * (libevent bufferevent + hiredis redisReader), one connection per node per
 * thread, the same number of operations in flight as the library run.
 *
 * Latencies recorded: OP_ACQ = time until a quorum of the SETs answered OK
 * ("raw fan-out"), OP_REL = time until all N EVALSHAs answered. */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <hiredis/hiredis.h>

#include "bench.h"

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

typedef struct rconn {
    rthread *rt;
    size_t idx;
    struct bufferevent *bev;
    redisReader *rd;
    uintptr_t *fifo;      /* who each pending reply belongs to (TAG) */
    size_t cap, head, count;
    int connected;
    char desc[128];
} rconn;

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

/* ---- address parsing ------------------------------------------------------- */

typedef struct raddr {
    char host[256];
    char port[16];
    char path[108];       /* unix socket */
    char user[128], pass[256];
    int db;
} raddr;

/* strcpy that refuses to truncate */
static int copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        return -1;
    memcpy(dst, src, n + 1);
    return 0;
}

static int parse_addr(const char *s, raddr *a, char *err, size_t errlen)
{
    memset(a, 0, sizeof(*a));
    snprintf(a->port, sizeof(a->port), "6379");
    if (strncasecmp(s, "rediss://", 9) == 0) {
        snprintf(err, errlen, "'%s': the raw baseline speaks plain TCP only (no TLS)", s);
        return -1;
    }
    if (strncmp(s, "unix://", 7) == 0) {
        if (s[7] == '\0' || copy_str(a->path, sizeof(a->path), s + 7) != 0)
            goto bad;
        return 0;
    }
    char buf[512];
    if (copy_str(buf, sizeof(buf), s) != 0)
        goto bad;
    char *p = buf;
    if (strncasecmp(p, "redis://", 8) == 0) {
        p += 8;
        char *at = strrchr(p, '@');
        if (at) {
            *at = '\0';
            char *colon = strchr(p, ':');
            if (colon) {
                *colon = '\0';
                if (copy_str(a->user, sizeof(a->user), p) != 0 ||
                    copy_str(a->pass, sizeof(a->pass), colon + 1) != 0)
                    goto bad;
            } else if (copy_str(a->pass, sizeof(a->pass), p) != 0) {
                goto bad;
            }
            p = at + 1;
        }
        char *slash = strchr(p, '/');
        if (slash) {
            *slash = '\0';
            if (slash[1])
                a->db = atoi(slash + 1);
        }
    }
    if (*p == '[') {
        char *close = strchr(p, ']');
        if (!close)
            goto bad;
        *close = '\0';
        if (copy_str(a->host, sizeof(a->host), p + 1) != 0)
            goto bad;
        if (close[1] == ':') {
            if (copy_str(a->port, sizeof(a->port), close + 2) != 0)
                goto bad;
        }
        else if (close[1])
            goto bad;
    } else {
        char *colon = strrchr(p, ':');
        if (colon) {
            *colon = '\0';
            if (copy_str(a->port, sizeof(a->port), colon + 1) != 0)
                goto bad;
        }
        if (copy_str(a->host, sizeof(a->host), p) != 0)
            goto bad;
    }
    if (!a->host[0] || !a->port[0])
        goto bad;
    return 0;
bad:
    snprintf(err, errlen, "cannot parse address '%s'", s);
    return -1;
}

/* ---- connection ------------------------------------------------------------ */

static int fifo_push(rconn *c, uintptr_t tag)
{
    if (c->count == c->cap) {
        size_t ncap = c->cap ? c->cap * 2 : 64;
        uintptr_t *nf = malloc(ncap * sizeof(*nf));
        if (!nf)
            return -1;
        for (size_t i = 0; i < c->count; i++)
            nf[i] = c->fifo[(c->head + i) % c->cap];
        free(c->fifo);
        c->fifo = nf;
        c->cap = ncap;
        c->head = 0;
    }
    c->fifo[(c->head + c->count) % c->cap] = tag;
    c->count++;
    return 0;
}

static uintptr_t fifo_pop(rconn *c)
{
    if (c->count == 0)
        return 0;
    uintptr_t s = c->fifo[c->head];
    c->head = (c->head + 1) % c->cap;
    c->count--;
    return s;
}

static void raw_broken(rthread *rt, const char *fmt, const char *what)
{
    if (rt->broken)
        return;
    rt->broken = 1;
    rlb_set_error(rt->t->sh, fmt, what);
    event_base_loopbreak(rt->t->base);
}

static size_t put_uint(char *p, size_t v)
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

/* Format one command in RESP into buf; 0 when it does not fit. */
static size_t resp_format(char *buf, size_t cap, int argc, const char *const *argv,
                          const size_t *lens)
{
    size_t need = 16;
    for (int i = 0; i < argc; i++)
        need += lens[i] + 26;
    if (need > cap)
        return 0;
    char *p = buf;
    *p++ = '*';
    p += put_uint(p, (size_t)argc);
    *p++ = '\r';
    *p++ = '\n';
    for (int i = 0; i < argc; i++) {
        *p++ = '$';
        p += put_uint(p, lens[i]);
        *p++ = '\r';
        *p++ = '\n';
        memcpy(p, argv[i], lens[i]);
        p += lens[i];
        *p++ = '\r';
        *p++ = '\n';
    }
    return (size_t)(p - buf);
}

/* Queue formatted command bytes on a connection; a reply will come back
 * for `tag`. */
static int send_raw(rconn *c, uintptr_t tag, const char *cmd, size_t len)
{
    if (evbuffer_add(bufferevent_get_output(c->bev), cmd, len) != 0)
        return -1;
    return fifo_push(c, tag);
}

static int send_cmd(rconn *c, uintptr_t tag, int argc, const char *const *argv,
                    const size_t *lens)
{
    size_t need = 16;
    for (int i = 0; i < argc; i++)
        need += lens[i] + 26;
    char *buf = malloc(need);
    if (!buf)
        return -1;
    size_t n = resp_format(buf, need, argc, argv, lens);
    int rc = send_raw(c, tag, buf, n);
    free(buf);
    return rc;
}

static void slot_reply(rslot *s, int kind, rconn *c, const redisReply *r);

static void setup_reply(rconn *c, int kind, const redisReply *r)
{
    rthread *rt = c->rt;
    if (kind == K_SCRIPT) {
        if (r->type == REDIS_REPLY_STRING && r->len == 40) {
            memcpy(rt->sha, r->str, 40);
            rt->sha[40] = '\0';
        } else {
            rlb_set_error(rt->t->sh, "SCRIPT LOAD failed on %s", c->desc);
            rt->setup_failed = 1;
        }
    } else if (r->type == REDIS_REPLY_ERROR) {
        rlb_set_error(rt->t->sh, "AUTH/SELECT failed on %s", c->desc);
        rt->setup_failed = 1;
    }
    if (--rt->setup_left == 0 || rt->setup_failed)
        event_base_loopbreak(rt->t->base);
}

static void on_read(struct bufferevent *bev, void *arg)
{
    rconn *c = arg;
    rthread *rt = c->rt;
    struct evbuffer *in = bufferevent_get_input(bev);
    size_t len;
    while ((len = evbuffer_get_length(in)) > 0) {
        struct evbuffer_iovec v[16];
        int n = evbuffer_peek(in, -1, NULL, v, 16);
        if (n > 16)
            n = 16;
        size_t fed = 0;
        for (int i = 0; i < n; i++) {
            if (redisReaderFeed(c->rd, v[i].iov_base, v[i].iov_len) != REDIS_OK) {
                raw_broken(rt, "protocol error from %s", c->desc);
                return;
            }
            fed += v[i].iov_len;
        }
        evbuffer_drain(in, fed);
    }
    for (;;) {
        void *reply = NULL;
        if (redisReaderGetReply(c->rd, &reply) != REDIS_OK) {
            raw_broken(rt, "protocol error from %s", c->desc);
            return;
        }
        if (!reply)
            break;
        uintptr_t tag = fifo_pop(c);
        int kind = TAG_KIND(tag);
        if (kind == K_OK || kind == K_SCRIPT)
            setup_reply(c, kind, reply);
        else if (TAG_SLOT(tag))
            slot_reply(TAG_SLOT(tag), kind, c, reply);
        freeReplyObject(reply);
        if (rt->broken)
            return;
    }
}

static void on_event(struct bufferevent *bev, short what, void *arg)
{
    (void)bev;
    rconn *c = arg;
    rthread *rt = c->rt;
    if (what & BEV_EVENT_CONNECTED) {
        c->connected = 1;
        evutil_socket_t fd = bufferevent_getfd(c->bev);
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)); /* fails on unix: fine */
        if (--rt->setup_left == 0)
            event_base_loopbreak(rt->t->base);
        return;
    }
    if (what & (BEV_EVENT_EOF | BEV_EVENT_ERROR)) {
        if (!c->connected) {
            rlb_set_error(rt->t->sh, "cannot connect to %s: %s", c->desc,
                          evutil_socket_error_to_string(EVUTIL_SOCKET_ERROR()));
            rt->setup_failed = 1;
            rt->broken = 1;
            event_base_loopbreak(rt->t->base);
        } else {
            raw_broken(rt, "connection to %s lost", c->desc);
        }
    }
}

static int conn_open(rthread *rt, rconn *c, const char *addr, raddr *a, char *err,
                     size_t errlen)
{
    snprintf(c->desc, sizeof(c->desc), "%s", addr);
    c->rd = redisReaderCreate();
    c->bev = bufferevent_socket_new(rt->t->base, -1, BEV_OPT_CLOSE_ON_FREE);
    if (!c->rd || !c->bev) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    bufferevent_setcb(c->bev, on_read, NULL, on_event, c);
    bufferevent_enable(c->bev, EV_READ | EV_WRITE);
    int rc;
    if (a->path[0]) {
        struct sockaddr_un sun;
        memset(&sun, 0, sizeof(sun));
        sun.sun_family = AF_UNIX;
        memcpy(sun.sun_path, a->path, strlen(a->path) + 1);
        rc = bufferevent_socket_connect(c->bev, (struct sockaddr *)&sun, (int)sizeof(sun));
    } else {
        struct addrinfo hints, *res = NULL;
        memset(&hints, 0, sizeof(hints));
        hints.ai_family = AF_UNSPEC;
        hints.ai_socktype = SOCK_STREAM;
        int g = getaddrinfo(a->host, a->port, &hints, &res);
        if (g != 0 || !res) {
            snprintf(err, errlen, "cannot resolve %s: %s", addr, gai_strerror(g));
            return -1;
        }
        rc = bufferevent_socket_connect(c->bev, res->ai_addr, (int)res->ai_addrlen);
        freeaddrinfo(res);
    }
    if (rc != 0) {
        snprintf(err, errlen, "cannot connect to %s", addr);
        return -1;
    }
    return 0;
}

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
        if (send_raw(only, TAG(s, K_REL), s->rel_cmd, s->rel_len) != 0)
            raw_broken(rt, "%s", "out of memory");
        return;
    }
    s->t_rel = rlb_now_ns();
    for (size_t i = 0; i < rt->n; i++)
        if (send_raw(&rt->conns[i], TAG(s, K_REL), s->rel_cmd, s->rel_len) != 0)
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
    s->set_len = resp_format(s->set_cmd, sizeof(s->set_cmd), 6, sargv, slens);
    const char *rargv[5] = {"EVALSHA", rt->sha, "1", s->key, s->val};
    size_t rlens[5] = {7, 40, 1, (size_t)s->klen, 32};
    s->rel_len = resp_format(s->rel_cmd, sizeof(s->rel_cmd), 5, rargv, rlens);
    s->set_replies = s->set_oks = s->rel_replies = 0;
    s->quorum_seen = 0;
    s->t0 = rlb_now_ns();
    for (size_t i = 0; i < rt->n; i++)
        if (send_raw(&rt->conns[i], TAG(s, K_SET), s->set_cmd, s->set_len) != 0)
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

static int raw_setup(bench_thread *t, char *err, size_t errlen)
{
    const bench_cfg *cfg = t->sh->cfg;
    rthread *rt = calloc(1, sizeof(*rt));
    if (!rt) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    t->impl = rt;
    rt->t = t;
    rt->n = cfg->nnodes;
    rt->ttllen = snprintf(rt->ttl, sizeof(rt->ttl), "%lld", (long long)cfg->ttl_ms);
    rt->conns = calloc(rt->n, sizeof(rconn));
    rt->slots = calloc((size_t)t->nslots, sizeof(rslot));
    if (!rt->conns || !rt->slots) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    /* 1. connect every node */
    raddr *addrs = calloc(rt->n, sizeof(raddr));
    if (!addrs) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < rt->n; i++) {
        rt->conns[i].rt = rt;
        rt->conns[i].idx = i;
        if (parse_addr(cfg->nodes[i], &addrs[i], err, errlen) != 0 ||
            conn_open(rt, &rt->conns[i], cfg->nodes[i], &addrs[i], err, errlen) != 0) {
            free(addrs);
            return -1;
        }
    }
    rt->deadline_ns = rlb_now_ns() + 5000000000LL;
    struct event *tick = event_new(t->base, -1, EV_PERSIST, on_setup_tick, rt);
    struct timeval tv = {0, 20000};
    event_add(tick, &tv);
    rt->setup_left = rt->n;
    event_base_dispatch(t->base);
    if (rt->setup_left != 0 || rt->setup_failed) {
        if (!rt->setup_failed)
            snprintf(err, errlen, "raw client: connecting timed out");
        else
            snprintf(err, errlen, "raw client: %s", t->sh->errmsg);
        event_free(tick);
        free(addrs);
        return -1;
    }
    /* 2. AUTH / SELECT when the address asks, then SCRIPT LOAD */
    for (size_t i = 0; i < rt->n; i++) {
        rconn *c = &rt->conns[i];
        raddr *a = &addrs[i];
        if (a->pass[0]) {
            const char *av[3] = {"AUTH", a->user, a->pass};
            size_t al[3] = {4, strlen(a->user), strlen(a->pass)};
            if (a->user[0])
                send_cmd(c, TAG(NULL, K_OK), 3, av, al);
            else {
                av[1] = a->pass;
                al[1] = al[2];
                send_cmd(c, TAG(NULL, K_OK), 2, av, al);
            }
            rt->setup_left++;
        }
        if (a->db) {
            char db[16];
            int dl = snprintf(db, sizeof(db), "%d", a->db);
            const char *av[2] = {"SELECT", db};
            size_t al[2] = {6, (size_t)dl};
            send_cmd(c, TAG(NULL, K_OK), 2, av, al);
            rt->setup_left++;
        }
        const char *av[3] = {"SCRIPT", "LOAD", release_script};
        size_t al[3] = {6, 4, sizeof(release_script) - 1};
        send_cmd(c, TAG(NULL, K_SCRIPT), 3, av, al);
        rt->setup_left++;
    }
    free(addrs);
    event_base_dispatch(t->base);
    event_free(tick);
    if (rt->setup_left != 0 || rt->setup_failed || rt->broken) {
        snprintf(err, errlen, "raw client setup failed: %s",
                 t->sh->errmsg[0] ? t->sh->errmsg : "timed out");
        return -1;
    }
    for (int i = 0; i < t->nslots; i++) {
        rslot *s = &rt->slots[i];
        s->t = t;
        s->rt = rt;
        s->gidx = t->slot_base + i;
        s->own = (cfg->keys - s->gidx + cfg->concurrency - 1) / cfg->concurrency;
        if (s->own < 1)
            s->own = 1;
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
    if (rt->tick)
        event_free(rt->tick);
    for (size_t i = 0; rt->conns && i < rt->n; i++) {
        rconn *c = &rt->conns[i];
        if (c->bev)
            bufferevent_free(c->bev);
        if (c->rd)
            redisReaderFree(c->rd);
        free(c->fifo);
    }
    free(rt->conns);
    free(rt->slots);
    free(rt);
    t->impl = NULL;
}

const bench_impl raw_impl = {raw_setup, raw_run, raw_teardown};
