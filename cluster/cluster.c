/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* cluster.c -- a vote that is a Redis Cluster.
 *
 * The vote's own master (fan-out's) is the first seed; the cluster's other
 * masters are nodes made as the slot map names them, each a whole master
 * (master.c: its connection opened on first use, its handshake, undos,
 * kills and guards).  A request goes to its key slot's master; while the
 * map is unknown, to a seed.  A reply MOVED or ASK sends the request on
 * (ASKING before each of its commands after an ASK), up to REDIRECTS
 * times; a MOVED also rereads the map (CLUSTER SLOTS).  The map is reread
 * every cluster_refresh_ms too (the option), and when a node goes down.
 *
 * One vote, one answer: the answer of the slot's master is the cluster's
 * vote, judged by that master's guards (the vote's detail says which).
 *
 * Failover is a restart.  A master that takes over slots another master
 * held (a replica promoted, or a migration, which we cannot tell apart),
 * or that is first seen with a master_replid2 (promoted once, we cannot
 * know when: guard.c), is not counted for the restart guard's window from
 * the moment we see it, which is never before the takeover.  Its
 * durability does not help: the keys were on another server.
 *
 * One server, one vote.  Two votes that share a master (two names of one
 * cluster, or a plain master that is also a cluster's) would give one
 * server two votes: the higher-numbered one never counts (same_as), and
 * its detail says which vote it shares a server with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cluster/split.h"

#define REDIRECTS 5            /* MOVED/ASK hops of one request */
#define REFRESH_MIN_MS 50      /* ... and at most this often */
#define GEN_NODE_SHIFT 24      /* a request's gen: node << 24 | connection */
#define GEN_CONN_MASK 0xFFFFFFu

struct redlock__cluster {
    redlock__master *vote;                 /* node[0], the first seed */
    redlock__master *all;                  /* the client's votes */
    size_t nvotes;
    redlock__master *node[REDLOCK__CLUSTER_NODES];
    char id[REDLOCK__CLUSTER_NODES][41];   /* node ids, "" unknown */
    size_t nnodes, nseeds;
    unsigned char owner[REDLOCK__SLOTS];   /* node + 1; 0: none known */
    unsigned mapped : 1;                   /* a whole map was read */
    unsigned closing : 1;                  /* nothing is sent any more */
    unsigned asking : 1;                   /* a CLUSTER SLOTS is out */
    size_t ask_next;                       /* the node to ask next */
    int64_t read_at_us;                    /* when a map was last asked for */
    struct event timer;
    redlock__master *answered;             /* the master being voted */
    char why[200];                         /* what is wrong, "" nothing */
    char same_why[160];
    char vote_why[320];                    /* an uncounted vote's detail */
    redlock__master **answered_all;        /* ... or all of a split's parts' */
    size_t nanswered;
    redlock__split_scripts scripts;        /* the multi scripts (split.c) */
    struct wrap *live;                     /* requests on their way, newest first */
    struct wrap *last[REDLOCK__SLOTS];     /* of them, the newest per slot */
};

/* A request on its way: what fan-out gave, and its replies so far. */
typedef struct wrap {
    redlock__cluster *cl;
    struct wrap *newer, *older;            /* in cl->live */
    struct wrap *slot_older, *slot_newer;  /* its slot's, in cl->last[slot] */
    struct wrap *after;                    /* of its slot, sent once it is done */
    unsigned waiting : 1;                  /* behind another: not sent yet */
    unsigned undo : 1;                     /* an undo (redlock__master_undo) */
    redlock__slot up, uplead;              /* fan-out's slots */
    unsigned nlead;                        /* fan-out's leading commands */
    uint32_t *gen_out, kill_gen;
    int64_t since_us;
    unsigned char never_full, quiet;
    unsigned slot, hops;
    size_t x;                              /* the node it went to */
    unsigned got, cmds, redirected;        /* this round's replies */
    unsigned asked : 1;                    /* this round has ASKINGs */
    int ask, port;                         /* the last redirect's target */
    char host[REDLOCK__HOST_MAX + 1];
    redlock__reply **held;                 /* the leading replies, copied */
    redlock__slot lead;                    /* our leading slot */
    size_t len;
    char buf[];                            /* the request's bytes */
} wrap;

static void refresh_cb(evutil_socket_t fd, short what, void *arg);
static void deliver(struct wrap *w, const redlock__reply *r, const char *why);
static void undo_to(redlock__cluster *cl, uint32_t gen, const redlock__buf *cmd);

/* ---- replies held until the request's last one ------------------------- */

static void reply_free(redlock__reply *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->elements; i++)
        reply_free(r->element[i]);
    free(r->element);
    free((char *)r->str);
    free(r);
}

static redlock__reply *reply_copy(const redlock__reply *r)
{
    redlock__reply *c = calloc(1, sizeof *c);
    char *s;

    if (!c || !(s = malloc(r->len + 1))) {
        free(c);
        return NULL;
    }
    memcpy(s, r->str, r->len);
    s[r->len] = '\0';
    c->type = r->type;
    c->integer = r->integer;
    c->str = s;
    c->len = r->len;
    if (r->elements && !(c->element = calloc(r->elements, sizeof *c->element))) {
        reply_free(c);
        return NULL;
    }
    for (size_t i = 0; i < r->elements; i++, c->elements++)
        if (!(c->element[i] = reply_copy(r->element[i]))) {
            reply_free(c);
            return NULL;
        }
    return c;
}

/* ---- nodes --------------------------------------------------------------- */

static size_t node_at(redlock__cluster *cl, const char *host, int port)
{
    for (size_t i = 0; i < cl->nnodes; i++)
        if (cl->node[i]->addr.port == port && strcmp(cl->node[i]->addr.host, host) == 0)
            return i;
    return SIZE_MAX;
}

/* The node at host:port, made when new; SIZE_MAX when there is no room. */
static size_t node_get(redlock__cluster *cl, const char *host, int port)
{
    size_t i = node_at(cl, host, port);
    redlock__master *m;
    redlock__addr a;

    if (i != SIZE_MAX || cl->nnodes == REDLOCK__CLUSTER_NODES)
        return i;
    if (!(m = calloc(1, sizeof *m)))
        return SIZE_MAX;
    if (redlock__addr_at(&a, &cl->vote->addr, host, port) != 0) {
        free(m);
        return SIZE_MAX;
    }
    m->shard = 1;
    if (redlock__master_init_at(m, cl->vote->net, cl->vote->index, &a) != 0) {
        redlock__master_close(m);
        free(m);
        return SIZE_MAX;
    }
    cl->node[cl->nnodes] = m;
    cl->id[cl->nnodes][0] = '\0';
    return cl->nnodes++;
}

/* ---- the map -------------------------------------------------------------- */

static void refresh_soon(redlock__cluster *cl, int64_t ms)
{
    struct timeval tv = { (time_t)(ms / 1000), (suseconds_t)(ms % 1000 * 1000) };
    evtimer_add(&cl->timer, &tv);
}

/* Two votes on one server: vote j (a higher number) shares a master with
 * this cluster's vote i, or the other way round. */
static int shares(redlock__cluster *cl, const redlock__master *o)
{
    const redlock__cluster *oc = o->cluster;

    for (size_t a = 0; a < cl->nnodes; a++) {
        const redlock__master *x = cl->node[a];
        if (!cl->mapped && a >= cl->nseeds)
            break;
        if (!oc) {
            if ((x->addr.port == o->addr.port && o->addr.host &&
                 strcmp(x->addr.host, o->addr.host) == 0) ||
                (x->guard.run_id[0] && strcmp(x->guard.run_id, o->guard.run_id) == 0)) {
                snprintf(cl->same_why, sizeof cl->same_why, "%s", x->label);
                return 1;
            }
            continue;
        }
        for (size_t b = 0; b < oc->nnodes; b++)
            if ((cl->id[a][0] && strcmp(cl->id[a], oc->id[b]) == 0) ||
                (x->guard.run_id[0] && strcmp(x->guard.run_id, oc->node[b]->guard.run_id) == 0)) {
                snprintf(cl->same_why, sizeof cl->same_why, "%s", x->label);
                return 1;
            }
    }
    return 0;
}

/* Who shares a server with whom, after cl read a map. */
static void check_same(redlock__cluster *cl)
{
    size_t me = cl->vote->index;

    for (size_t j = 0; j < cl->nvotes; j++) {
        redlock__master *o = &cl->all[j];
        if (j == me || (o->cluster && !o->cluster->mapped) || !shares(cl, o))
            continue;
        if (j < me && cl->vote->same_as > j)
            cl->vote->same_as = j;
        else if (j > me && o->same_as > me)
            o->same_as = me;
    }
}

static void took_over(redlock__cluster *cl, size_t x, unsigned lo, unsigned hi, size_t from,
                      int64_t now)
{
    char text[112];
    snprintf(text, sizeof text, "took slots %u-%u from %s", lo, hi, cl->node[from]->label);
    redlock__guard_failover(cl->node[x], now, text);
}

/* Does node x + 1 serve a slot in map `owner`? */
static int serves(const unsigned char *owner, size_t x1)
{
    for (unsigned k = 0; k < REDLOCK__SLOTS; k++)
        if (owner[k] == x1)
            return 1;
    return 0;
}

/* A map read: every slot's master, the takeovers it shows. */
static void map_apply(redlock__cluster *cl, const redlock__slot_range *rg, size_t n,
                      size_t asked)
{
    unsigned char next[REDLOCK__SLOTS];
    int64_t now = redlock__now(cl->vote->net->loop);

    memset(next, 0, sizeof next);
    for (size_t i = 0; i < n; i++) {
        const char *host = rg[i].host[0] ? rg[i].host : cl->node[asked]->addr.host;
        size_t x = node_get(cl, host, rg[i].port);
        if (x == SIZE_MAX)
            continue;
        /* the same address, another node: a new server */
        if (cl->id[x][0] && rg[i].id[0] && strcmp(cl->id[x], rg[i].id) != 0)
            redlock__guard_failover(cl->node[x], now, "a new node id at this address");
        if (rg[i].id[0])
            snprintf(cl->id[x], sizeof cl->id[x], "%s", rg[i].id);
        for (unsigned k = rg[i].lo; k <= rg[i].hi; k++)
            next[k] = (unsigned char)(x + 1);
    }
    /* A slot whose master changed, its old master serving no slot now: a
     * failover (a migration leaves the old master serving others). */
    for (unsigned k = 0; cl->mapped && k < REDLOCK__SLOTS; k++) {
        unsigned lo = k;
        size_t was = cl->owner[k], now_x = next[k];
        if (!was || !now_x || was == now_x || serves(next, was))
            continue;
        while (k + 1 < REDLOCK__SLOTS && cl->owner[k + 1] == was && next[k + 1] == now_x)
            k++;
        took_over(cl, now_x - 1, lo, k, was - 1, now);
    }
    memcpy(cl->owner, next, sizeof next);
    cl->mapped = 1;
    check_same(cl);
}

static void slots_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    redlock__cluster *cl = privdata;
    redlock__slot_range *rg;
    size_t n = 0;
    int rc;

    cl->asking = 0;
    if (!r) {
        snprintf(cl->why, sizeof cl->why, "cluster map: %s: %s", cl->node[tag]->label,
                 why ? why : "no reply");
        cl->ask_next = tag + 1;
        refresh_soon(cl, REFRESH_MIN_MS);
        return;
    }
    if (r->type == REDLOCK__REPLY_ERROR) {
        /* "ERR This instance has cluster support disabled" */
        snprintf(cl->why, sizeof cl->why, "%s is not a cluster node (CLUSTER SLOTS: %.*s)",
                 cl->node[tag]->label, (int)(r->len < 80 ? r->len : 80), r->str);
        cl->ask_next = tag + 1;
        refresh_soon(cl, 1000);    /* a seed that is no cluster node: said */
        return;
    }
    if (!(rg = malloc(REDLOCK__SLOTS * sizeof *rg)))
        return;
    rc = redlock__slots_read(r, rg, REDLOCK__SLOTS, &n, &why);
    if (rc >= 0)
        map_apply(cl, rg, n, tag);
    free(rg);
    if (rc)
        snprintf(cl->why, sizeof cl->why, "%s (from %s)", why, cl->node[tag]->label);
    else
        cl->why[0] = '\0';
    cl->ask_next = tag;
    if (cl->vote->net->cluster_refresh_ms)
        refresh_soon(cl, cl->vote->net->cluster_refresh_ms);
}

/* Ask a node for the map: the last that answered, else the next seed or
 * known node, round robin. */
static void map_ask(redlock__cluster *cl)
{
    static const char cmd[] = "*2\r\n$7\r\nCLUSTER\r\n$5\r\nSLOTS\r\n";
    redlock__req req;
    const char *why;

    if (cl->asking)
        return;
    memset(&req, 0, sizeof req);
    req.slot.fn = slots_reply;
    req.slot.privdata = cl;
    req.never_full = req.quiet = 1;
    for (size_t tries = 0; tries < cl->nnodes; tries++) {
        size_t x = cl->ask_next % cl->nnodes;
        cl->ask_next = x + 1;
        req.slot.tag = x;
        req.since_us = cl->read_at_us = redlock__now(cl->vote->net->loop);
        if (redlock__master_send(cl->node[x], cmd, sizeof cmd - 1, &req, &why) == 0) {
            cl->asking = 1;
            return;
        }
    }
    refresh_soon(cl, REFRESH_MIN_MS * 4);
}

static void refresh_cb(evutil_socket_t fd, short what, void *arg)
{
    redlock__cluster *cl = arg;
    (void)fd;
    (void)what;
    redlock__enter(cl->vote->net->loop);
    map_ask(cl);
    redlock__leave(cl->vote->net->loop);
}

/* Reread the map now, or as soon as REFRESH_MIN_MS allows. */
static void map_stale(redlock__cluster *cl)
{
    int64_t since = redlock__now(cl->vote->net->loop) - cl->read_at_us;

    if (cl->asking)
        return;
    refresh_soon(cl, since >= REFRESH_MIN_MS * 1000 ? 0 : REFRESH_MIN_MS - since / 1000);
}

/* ---- init and close ------------------------------------------------------ */

int redlock__vote_init(redlock__master *m, const redlock__net *net, size_t index,
                       const char *address, char *err, size_t errlen)
{
    redlock__cluster *cl;
    int rc;

    if ((rc = redlock__master_init(m, net, index, address, err, errlen)) != 0 ||
        !m->addr.cluster)
        return rc;
    if (!(cl = calloc(1, sizeof *cl))) {
        snprintf(err, errlen, "out of memory");
        return REDLOCK_ENOMEM;
    }
    m->cluster = cl;
    m->shard = 1;
    cl->vote = m;
    cl->node[0] = m;
    cl->nnodes = 1;
    evtimer_assign(&cl->timer, net->loop->base, refresh_cb, cl);
    cl->nseeds = 1;
    redlock__split_init(&cl->scripts, net->scripts);
    snprintf(cl->why, sizeof cl->why, "cluster map not read yet");
    return 0;
}

int redlock__votes_link(redlock__master *all, size_t n, char *err, size_t errlen)
{
    char host[REDLOCK__HOST_MAX + 1];
    int port;

    for (size_t i = 0; i < n; i++) {
        redlock__cluster *cl = all[i].cluster;
        if (!cl)
            continue;
        cl->all = all;
        cl->nvotes = n;
        /* the other seeds share the first one's credentials, final now */
        for (size_t s = 1; redlock__addr_seed(&all[i].addr, s, host, &port) == 0; s++)
            if (node_get(cl, host, port) == SIZE_MAX) {
                if (err && errlen)
                    snprintf(err, errlen, "out of memory (or more than %d seeds)",
                             REDLOCK__CLUSTER_NODES);
                return REDLOCK_ENOMEM;
            }
        cl->nseeds = cl->nnodes;
        refresh_soon(cl, 0);
    }
    return 0;
}

void redlock__vote_close(redlock__master *m)
{
    redlock__cluster *cl = m->cluster;

    if (!cl) {
        redlock__master_close(m);
        return;
    }
    /* every request on its way gets no reply, those behind it too (sent
     * nowhere: closing), while the nodes and cl are still there */
    cl->closing = 1;
    for (size_t i = 1; i < cl->nnodes; i++)
        redlock__master_close(cl->node[i]);
    redlock__master_close(m);
    while (cl->live)
        deliver(cl->live, NULL, "closed");
    evtimer_del(&cl->timer);
    for (size_t i = 1; i < cl->nnodes; i++)
        free(cl->node[i]);
    free(cl);
    m->cluster = NULL;
}

/* ---- requests ------------------------------------------------------------- */

/* The end of the command that starts at buf[off] (RESP: *N then N bulk
 * strings, as resp.c encodes them), or 0 when it is malformed. */
static size_t command_end(const char *buf, size_t len, size_t off)
{
    size_t n = 0, p = off + 1;

    if (off >= len || buf[off] != '*')
        return 0;
    for (; p < len && buf[p] >= '0' && buf[p] <= '9'; p++)
        n = n * 10 + (size_t)(buf[p] - '0');
    for (p += 2; n-- && p < len; ) {
        size_t l = 0;
        if (buf[p] != '$')
            return 0;
        for (p++; p < len && buf[p] >= '0' && buf[p] <= '9'; p++)
            l = l * 10 + (size_t)(buf[p] - '0');
        p += 2 + l + 2;
    }
    return p <= len ? p : 0;
}

static void wrap_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why);

static void wrap_free(wrap *w)
{
    redlock__cluster *cl = w->cl;

    if (w->newer)
        w->newer->older = w->older;
    else
        cl->live = w->older;
    if (w->older)
        w->older->newer = w->newer;
    if (w->slot_newer)
        w->slot_newer->slot_older = w->slot_older;
    else
        cl->last[w->slot] = w->slot_older;
    if (w->slot_older)
        w->slot_older->slot_newer = w->slot_newer;
    for (unsigned i = 0; w->held && i < w->cmds; i++)
        reply_free(w->held[i]);
    free(w->held);
    free(w);
}

static void wrap_live(wrap *w)
{
    redlock__cluster *cl = w->cl;

    w->older = cl->live;
    if (cl->live)
        cl->live->newer = w;
    cl->live = w;
    w->slot_older = cl->last[w->slot];
    if (w->slot_older)
        w->slot_older->slot_newer = w;
    cl->last[w->slot] = w;
}

/* Requests of one slot keep their order across redirects: a request for a
 * slot whose last request went to another master (or waits itself) waits
 * behind it (a release must never overtake the write it undoes, which a
 * MOVED sends on late).  The one to wait behind, or NULL. */
static wrap *ahead_of(redlock__cluster *cl, unsigned slot, size_t x)
{
    wrap *o = cl->last[slot];

    return o && (o->waiting || o->x != x) ? o : NULL;
}

/* Send w (again) to node x; with `ask`, ASKING before each command.  0 or
 * the vote it gets unsent, with *why. */
static int wrap_send(wrap *w, size_t x, int ask, const char **why)
{
    redlock__cluster *cl = w->cl;
    redlock__master *m = cl->node[x];
    redlock__buf b = { 0 };
    redlock__req req;
    uint32_t gen = 0;
    int v;

    memset(&req, 0, sizeof req);
    req.slot.fn = wrap_reply;
    req.slot.privdata = w;
    req.slot.mark = w->up.mark;
    req.since_us = w->since_us;
    req.never_full = w->never_full;
    req.quiet = w->quiet;
    req.gen_out = w->gen_out ? &gen : NULL;
    if (w->kill_gen && (w->kill_gen >> GEN_NODE_SHIFT) == x)
        req.kill_gen = w->kill_gen & GEN_CONN_MASK;
    w->x = x;
    w->got = w->redirected = 0;
    w->asked = (unsigned)ask;
    if (ask) {
        static const char asking[] = "*1\r\n$6\r\nASKING\r\n";
        size_t off = 0, end;
        while (off < w->len && (end = command_end(w->buf, w->len, off)) != 0) {
            if (redlock__buf_reserve(&b, sizeof asking - 1 + end - off) != 0) {
                redlock__buf_free(&b);
                *why = "out of memory";
                return REDLOCK__ERROR;
            }
            memcpy(b.p + b.len, asking, sizeof asking - 1);
            memcpy(b.p + b.len + sizeof asking - 1, w->buf + off, end - off);
            b.len += sizeof asking - 1 + end - off;
            off = end;
        }
    }
    req.nlead = (w->nlead + 1) * (ask ? 2u : 1u) - 1;
    if (req.nlead) {
        w->lead.fn = wrap_reply;
        w->lead.privdata = w;
        w->lead.tag = 0;
        req.lead = &w->lead;
    }
    v = redlock__master_send(m, ask ? b.p : w->buf, ask ? b.len : w->len, &req, why);
    redlock__buf_free(&b);
    if (v == 0 && w->gen_out)
        *w->gen_out = (uint32_t)x << GEN_NODE_SHIFT | (gen & GEN_CONN_MASK);
    return v;
}

/* Hand the replies up: the leading ones held, then the last (r). */
static void wrap_go(wrap *w);

static void deliver(wrap *w, const redlock__reply *r, const char *why)
{
    redlock__cluster *cl = w->cl;
    wrap *next = w->after;

    if (!w->undo) {
        cl->answered = cl->node[w->x];
        for (unsigned i = 0; i < w->nlead; i++)
            w->uplead.fn(w->uplead.privdata, w->uplead.tag, w->held ? w->held[i] : NULL,
                         w->held && w->held[i] ? NULL : why ? why : "no reply");
        w->up.fn(w->up.privdata, w->up.tag, r, why);
        cl->answered = NULL;
    }
    wrap_free(w);
    if (next)
        wrap_go(next);
}

/* A request that waited: sent now, to its slot's master as known now. */
static void wrap_go(wrap *w)
{
    redlock__cluster *cl = w->cl;
    size_t x = cl->owner[w->slot] ? (size_t)cl->owner[w->slot] - 1 : w->x;
    const char *why = "not sent";

    w->waiting = 0;
    if (cl->closing) {
        deliver(w, NULL, "closed");
        return;
    }
    if (w->undo) {
        redlock__buf b = { w->buf, w->len, w->len };
        redlock__master_undo(cl->node[x], (w->kill_gen >> GEN_NODE_SHIFT) == x
                                              ? w->kill_gen & GEN_CONN_MASK : 0, &b);
        deliver(w, NULL, NULL);
        return;
    }
    if (wrap_send(w, x, 0, &why) != 0)
        deliver(w, NULL, why);
}

static void wrap_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    wrap *w = privdata;
    redlock__cluster *cl = w->cl;
    unsigned i = w->got++, total = (w->nlead + 1) * (w->asked ? 2u : 1u), c;
    unsigned slot;
    char host[REDLOCK__HOST_MAX + 1];
    int ask, port;
    (void)tag;

    if (w->asked && i % 2 == 0)
        return;         /* ASKING's +OK */
    c = w->asked ? i / 2 : i;
    if (r && r->type == REDLOCK__REPLY_ERROR &&
        redlock__redirect_read(r->str, r->len, &ask, &slot, host, &port) == 0) {
        w->redirected++;
        w->ask = ask;
        w->port = port;
        snprintf(w->host, sizeof w->host, "%s", host);
        if (!ask)
            map_stale(cl);
    }
    if (!r)
        map_stale(cl);
    if (c < w->nlead) {
        if (r && !w->held && !(w->held = calloc(w->nlead, sizeof *w->held)))
            return;     /* delivered as no reply */
        if (r)
            w->held[c] = reply_copy(r);
        return;
    }
    if (i + 1 != total)
        return;
    /* every command was sent on: so is the request, whole */
    if (w->redirected == w->nlead + 1 && w->hops < REDIRECTS && !cl->closing) {
        size_t x = node_get(cl, w->host, w->port);
        const char *no = NULL;
        int v;
        if (x != SIZE_MAX) {
            size_t was = cl->owner[w->slot];
            /* moved to a master that served no slot in our map: a replica
             * promoted (the map reread says more) */
            if (!w->ask && was && was != x + 1 && !serves(cl->owner, x + 1))
                took_over(cl, x, w->slot, w->slot, was - 1, redlock__now(cl->vote->net->loop));
            if (!w->ask)
                cl->owner[w->slot] = (unsigned char)(x + 1);
            for (unsigned k = 0; w->held && k < w->nlead; k++) {
                reply_free(w->held[k]);
                w->held[k] = NULL;
            }
            w->hops++;
            if ((v = wrap_send(w, x, w->ask, &no)) == 0)
                return;
            snprintf(w->host, sizeof w->host, "%s", no ? no : "not sent");
            deliver(w, NULL, w->host);
            return;
        }
    }
    deliver(w, r, why);
}

/* Send one request for `slot` (cluster_send, a split's part). */
static int route(redlock__cluster *cl, unsigned slot, const char *buf, size_t len,
                 const redlock__req *req, const char **why)
{
    size_t x = cl->owner[slot] ? (size_t)cl->owner[slot] - 1 : cl->ask_next % cl->nnodes;
    wrap *w, *ahead;
    int v;

    /* a seed that is no cluster node, a slot no master serves: said at
     * once, not sent */
    if ((!cl->mapped && strstr(cl->why, "not a cluster node")) ||
        (cl->mapped && !cl->owner[slot] && cl->why[0])) {
        *why = cl->why;
        return REDLOCK__ERROR;
    }
    if (!(w = calloc(1, sizeof *w + len))) {
        *why = "out of memory";
        return REDLOCK__ERROR;
    }
    w->cl = cl;
    w->up = req->slot;
    if (req->lead)
        w->uplead = *req->lead;
    w->nlead = req->lead ? req->nlead : 0;
    w->cmds = w->nlead;
    w->gen_out = req->gen_out;
    w->kill_gen = req->kill_gen;
    w->since_us = req->since_us;
    w->never_full = req->never_full;
    w->quiet = req->quiet;
    w->slot = slot;
    w->len = len;
    memcpy(w->buf, buf, len);
    if ((ahead = ahead_of(cl, slot, x)) != NULL) {
        while (ahead->after)
            ahead = ahead->after;
        ahead->after = w;
        w->waiting = 1;
        w->x = x;
        wrap_live(w);
        if (w->gen_out)     /* where it goes is known once it goes */
            *w->gen_out = (uint32_t)x << GEN_NODE_SHIFT;
        return 0;
    }
    wrap_live(w);
    if ((v = wrap_send(w, x, 0, why)) != 0) {
        if (v == REDLOCK__DOWN)
            map_stale(cl);
        wrap_free(w);
    }
    return v;
}

/* A split's part answered (privdata: the split, tag: the part); the last
 * one hands the whole's answer up, judged by every part's master. */
static void part_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    redlock__split *sp = privdata;
    redlock__cluster *cl = sp->cl;
    redlock__master **nodes = (redlock__master **)sp->nodes;
    redlock__reply whole;

    nodes[tag] = cl->answered;
    if (!redlock__split_answer(sp, tag, r, why))
        return;
    /* an acquire refused by some part: the parts that took their keys let
     * them go now (the cluster's vote is no OK, whatever the lock's fate) */
    for (size_t p = 0; sp->rule == REDLOCK__SPLIT_ACQUIRE && sp->acc && p < sp->nparts; p++) {
        redlock__buf b = { 0 };
        if (sp->part[p].took && redlock__split_rollback(&cl->scripts, sp, p, &b) == 0)
            undo_to(cl, 0, &b);
        redlock__buf_free(&b);
    }
    cl->answered_all = nodes;
    cl->nanswered = sp->nparts;
    if (sp->lost) {
        sp->up.fn(sp->up.privdata, sp->up.tag, NULL, sp->why);
    } else {
        redlock__split_reply(sp, &whole);
        sp->up.fn(sp->up.privdata, sp->up.tag, &whole, NULL);
    }
    cl->answered_all = NULL;
    free(sp->nodes);
    redlock__split_free(sp);
}

/* A multi-resource script over several slots: one per slot.  0 when some
 * part left (the answer comes with the last), else the first part's
 * vote. */
static int split_send(redlock__cluster *cl, redlock__split *sp, const redlock__req *req,
                      const char **why)
{
    size_t sent = 0;
    int v0 = 0;

    sp->cl = cl;
    sp->up = req->slot;
    if (!(sp->nodes = calloc(sp->nparts, sizeof(redlock__master *)))) {
        redlock__split_free(sp);
        *why = "out of memory";
        return REDLOCK__ERROR;
    }
    for (size_t p = 0; p < sp->nparts; p++) {
        redlock__req r = *req;
        const char *no = NULL;
        int v;
        r.slot.fn = part_reply;
        r.slot.privdata = sp;
        r.slot.tag = p;
        r.gen_out = p == 0 ? req->gen_out : NULL;
        if ((v = route(cl, sp->part[p].slot, sp->part[p].cmd.p, sp->part[p].cmd.len, &r,
                       &no)) == 0) {
            sent++;
            continue;
        }
        if (!sent && !v0) {
            v0 = v;
            *why = no;
        }
        if (sent && redlock__split_answer(sp, p, NULL, no))
            break;      /* (never: the sent ones are still to answer) */
    }
    if (sent)
        return 0;
    free(sp->nodes);
    redlock__split_free(sp);
    return v0;
}

int redlock__cluster_send(redlock__master *m, unsigned slot, const char *buf, size_t len,
                          const redlock__req *req, const char **why)
{
    redlock__cluster *cl = m->cluster;
    redlock__split *sp;
    int rc;

    /* no key (a TIME probe): the first seed's, whose clock it samples */
    if (slot >= REDLOCK__SLOTS)
        return redlock__master_send(m, buf, len, req, why);
    if (!req->lead && (rc = redlock__split_plan(&cl->scripts, buf, len, &sp)) != 0) {
        if (rc < 0) {
            *why = "out of memory";
            return REDLOCK__ERROR;
        }
        return split_send(cl, sp, req, why);
    }
    return route(cl, slot, buf, len, req, why);
}

int redlock__cluster_counts(redlock__master *m, int64_t now, const char **why)
{
    redlock__cluster *cl = m->cluster;
    redlock__master *x = cl && cl->answered ? cl->answered : m;

    if (m->same_as != m->index) {
        snprintf(m->guard.why, sizeof m->guard.why, "not counted: it shares a server with "
                 "node %zu (%s; one server, one vote: docs/safety.md)", m->same_as,
                 cl ? cl->same_why : "a master of that node's cluster");
        *why = m->guard.why;
        return 0;
    }
    if (cl && !cl->mapped) {
        /* not before it was compared with the other votes (one server, one
         * vote): its first map comes one round trip after the start */
        *why = "not counted: the cluster's map is not read yet";
        return 0;
    }
    for (size_t j = 0; cl && j < cl->nvotes; j++) {
        const redlock__master *o = &cl->all[j];
        /* nor before every other cluster that answers was compared */
        if (o != m && o->cluster && !o->cluster->mapped && redlock__master_up(o)) {
            snprintf(cl->vote_why, sizeof cl->vote_why, "not counted: node %zu's cluster map "
                     "is not read yet (one server, one vote)", j);
            *why = cl->vote_why;
            return 0;
        }
    }
    /* a split: every part's master must count */
    for (size_t i = 0; cl && cl->answered_all && i < cl->nanswered; i++)
        if (cl->answered_all[i] && !redlock__guard_counts(cl->answered_all[i], now, why)) {
            x = cl->answered_all[i];
            goto uncounted;
        }
    if ((cl && cl->answered_all) || redlock__guard_counts(x, now, why))
        return 1;
uncounted:
    if (cl) {
        /* which of the cluster's masters */
        snprintf(cl->vote_why, sizeof cl->vote_why, "%s: %s", x->label, *why);
        *why = cl->vote_why;
    }
    return 0;
}

/* Argument i of the command in buf (RESP, as resp.c encodes it): 0 with
 * *arg and *len, or -1. */
static int command_arg(const char *buf, size_t len, size_t i, const char **arg, size_t *alen)
{
    size_t n = 0, p = 1, k;

    if (!len || buf[0] != '*')
        return -1;
    for (; p < len && buf[p] >= '0' && buf[p] <= '9'; p++)
        n = n * 10 + (size_t)(buf[p] - '0');
    for (p += 2, k = 0; k < n && p < len; k++) {
        size_t l = 0;
        if (buf[p] != '$')
            return -1;
        for (p++; p < len && buf[p] >= '0' && buf[p] <= '9'; p++)
            l = l * 10 + (size_t)(buf[p] - '0');
        p += 2;
        if (p + l > len)
            return -1;
        if (k == i) {
            *arg = buf + p;
            *alen = l;
            return 0;
        }
        p += l + 2;
    }
    return -1;
}

/* The slot of an undo's first key: EVAL/EVALSHA script numkeys key ...,
 * or a command's first argument. */
static int command_slot(const char *buf, size_t len, unsigned *slot)
{
    const char *a;
    size_t alen;
    size_t at = 1;

    if (command_arg(buf, len, 0, &a, &alen) != 0)
        return -1;
    if ((alen == 4 && strncasecmp(a, "EVAL", 4) == 0) ||
        (alen == 7 && strncasecmp(a, "EVALSHA", 7) == 0))
        at = 3;
    if (command_arg(buf, len, at, &a, &alen) != 0)
        return -1;
    *slot = redlock__keyslot(a, alen);
    return 0;
}

/* An undo goes to the master of its key's slot now (a write sent on by a
 * MOVED is not on the master it first went to), behind what is on its
 * way for that slot; the write's connection is killed first only when it
 * is on that master. */
static void undo_to(redlock__cluster *cl, uint32_t gen, const redlock__buf *cmd)
{
    size_t x = gen >> GEN_NODE_SHIFT;
    unsigned slot;
    wrap *w, *ahead;

    if (cl->mapped && command_slot(cmd->p, cmd->len, &slot) == 0 && cl->owner[slot])
        x = (size_t)cl->owner[slot] - 1;
    else
        slot = REDLOCK__SLOTS;
    if (x >= cl->nnodes)
        return;
    if (slot == REDLOCK__SLOTS || !(ahead = ahead_of(cl, slot, x)) ||
        !(w = calloc(1, sizeof *w + cmd->len))) {
        redlock__master_undo(cl->node[x], (gen >> GEN_NODE_SHIFT) == x ? gen & GEN_CONN_MASK : 0,
                             cmd);
        return;
    }
    w->cl = cl;
    w->undo = w->waiting = 1;
    w->slot = slot;
    w->x = x;
    w->kill_gen = gen;
    w->len = cmd->len;
    memcpy(w->buf, cmd->p, cmd->len);
    while (ahead->after)
        ahead = ahead->after;
    ahead->after = w;
    wrap_live(w);
}

void redlock__cluster_undo(redlock__master *m, uint32_t gen, const redlock__buf *cmd)
{
    redlock__cluster *cl = m->cluster;
    redlock__split *sp;

    if (redlock__split_plan(&cl->scripts, cmd->p, cmd->len, &sp) != 1) {
        undo_to(cl, gen, cmd);
        return;
    }
    for (size_t p = 0; p < sp->nparts; p++)
        undo_to(cl, gen, &sp->part[p].cmd);
    redlock__split_free(sp);
}
