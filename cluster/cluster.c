/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* cluster.c -- a vote that is a Redis Cluster (its map and masters:
 * map.c): its requests on their way, each to its slot's master (while the
 * map is unknown, to a seed), on through MOVED and ASK (ASKING before each
 * of its commands after an ASK) up to REDIRECTS times, in order behind
 * what is on its way for its slot, its leading replies held until its last
 * one; a multi-resource script over several slots as one per slot
 * (split.c); undos to the slot's master as known now, on through the
 * MOVED and ASK it answers.  One vote, one answer: the slot's master's,
 * judged by that master's guards; with replica_acks, an acquire's or
 * extend's answer waits for WAIT on the connection that carried it (a
 * promoted replica then has the lock).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cluster/cluster.h"
#include "cluster/vote.h"

#define REDIRECTS 5            /* MOVED/ASK hops of one request */
#define POOL_MAX 256           /* requests kept for reuse, per cluster vote */

typedef redlock__wrap wrap;

static void deliver(struct redlock__wrap *w, const redlock__reply *r, const char *why);
static void undo_to(redlock__cluster *cl, uint32_t gen, const redlock__buf *cmd);
static void undo_send(redlock__cluster *cl, size_t x, uint32_t gen, const redlock__buf *cmd);

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

/* ---- requests ------------------------------------------------------------- */

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
    reply_free(w->kept);
    if (cl->npool < POOL_MAX && !cl->closing) {
        w->older = cl->pool;
        cl->pool = w;
        cl->npool++;
    } else {
        free(w);
    }
}

/* A request of len bytes: from the pool when one there is long enough
 * (every request would cost an allocation otherwise), zeroed. */
static wrap *wrap_new(redlock__cluster *cl, size_t len)
{
    wrap *w, **pp;
    size_t cap;

    for (pp = &cl->pool; (w = *pp) != NULL; pp = &w->older)
        if (w->cap >= len) {
            *pp = w->older;
            cl->npool--;
            cap = w->cap;
            memset(w, 0, sizeof *w);
            w->cap = cap;
            return w;
        }
    if ((w = calloc(1, sizeof *w + len)) != NULL)
        w->cap = len;
    return w;
}

static void pool_free(redlock__cluster *cl)
{
    while (cl->pool) {
        wrap *w = cl->pool;
        cl->pool = w->older;
        free(w);
    }
    cl->npool = 0;
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

/* The connection of gen (a write's: node << 24 | connection) when the
 * write left on node x, else 0 (nothing to kill there first). */
static uint32_t conn_gen(uint32_t gen, size_t x)
{
    uint32_t c = gen & REDLOCK__GEN_CONN_MASK;

    return gen >> REDLOCK__GEN_NODE_SHIFT == x && c != REDLOCK__GEN_WAITING ? c : 0;
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
    req.gen_out = &gen;
    req.kill_gen = conn_gen(w->kill_gen, x);
    w->x = x;
    w->got = w->redirected = 0;
    w->asked = (unsigned)ask;
    if (ask) {
        static const char asking[] = "*1\r\n$6\r\nASKING\r\n";
        size_t off = 0, end;
        while (off < w->len && redlock__command_read(w->buf, w->len, off, NULL, NULL, 0, &end) > 0) {
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
    if (v == 0)
        w->sent_gen = gen & REDLOCK__GEN_CONN_MASK;
    if (v == 0 && w->gen_out)
        *w->gen_out = (uint32_t)x << REDLOCK__GEN_NODE_SHIFT | w->sent_gen;
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
    /* (closing: vote_close delivers every live request itself, newest
     * first, so the one behind may be freed already) */
    if (next && !cl->closing)
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
        undo_send(cl, x, w->kill_gen, &b);
        deliver(w, NULL, NULL);
        return;
    }
    /* decided before it could leave (fan-out's moot): never sent */
    if (w->up.mark && (*w->up.mark & REDLOCK__MARK_MOOT) && !REDLOCK__MUTANT(MOOT_CLUSTER)) {
        deliver(w, NULL, "not sent: decided without this master");
        return;
    }
    if (wrap_send(w, x, 0, &why) != 0)
        deliver(w, NULL, why);
}

/* ---- locks on the replicas (net->replica_acks) ---------------------------- */

/* WAIT's answer: the request's own kept answer when enough replicas
 * acknowledged it, else an error vote that says how many did. */
static void replicas_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    wrap *w = privdata;
    int acks = w->cl->vote->net->replica_acks;
    char text[200];
    redlock__reply e;
    (void)tag;

    if (!r || (r->type == REDLOCK__REPLY_INTEGER && r->integer >= acks)) {
        deliver(w, r ? w->kept : NULL, why);
        return;
    }
    memset(&e, 0, sizeof e);
    e.type = REDLOCK__REPLY_ERROR;
    if (r->type == REDLOCK__REPLY_INTEGER)
        snprintf(text, sizeof text, "REPLICAS %lld of %d replicas acknowledged it in %lld ms "
                 "(replica_acks)", r->integer, acks, (long long)w->cl->vote->net->replica_wait_ms);
    else
        snprintf(text, sizeof text, "REPLICAS WAIT: %.*s (replica_acks)",
                 (int)(r->len < 120 ? r->len : 120), r->str);
    e.str = text;
    e.len = strlen(text);
    deliver(w, &e, NULL);
}

/* An acquire or extend answered (r): its answer is kept, and WAIT for the
 * replicas goes on the connection that carried it (WAIT waits for that
 * connection's writes), to the master that answered. */
static void replicate(wrap *w, const redlock__reply *r)
{
    const redlock__net *net = w->cl->vote->net;
    char cmd[96], acks[16], ms[24];
    redlock__req req;
    const char *why = "out of memory";
    int la = snprintf(acks, sizeof acks, "%d", net->replica_acks);
    int lm = snprintf(ms, sizeof ms, "%lld", (long long)net->replica_wait_ms);
    int len = snprintf(cmd, sizeof cmd, "*3\r\n$4\r\nWAIT\r\n$%d\r\n%s\r\n$%d\r\n%s\r\n", la,
                       acks, lm, ms);

    memset(&req, 0, sizeof req);
    req.slot.fn = replicas_reply;
    req.slot.privdata = w;
    req.since_us = w->since_us;
    req.never_full = req.quiet = 1;
    if (!(w->kept = reply_copy(r)) ||
        redlock__master_send(w->cl->node[w->x], cmd, (size_t)len, &req, &why) != 0)
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
            redlock__cluster_stale(cl);
    }
    if (!r && !(w->up.mark && (*w->up.mark & REDLOCK__MARK_MOOT)))
        redlock__cluster_stale(cl);     /* (not for one dropped unsent) */
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
        size_t x = redlock__cluster_node(cl, w->host, w->port);
        const char *no = NULL;
        int v;
        if (x != SIZE_MAX) {
            size_t was = cl->owner[w->slot];
            /* moved to a master that served no slot in our map: a replica
             * promoted (the map reread says more) */
            if (!w->ask && was && was != x + 1 && !redlock__cluster_serves(cl->owner, x + 1))
                redlock__cluster_took(cl, x, w->slot, w->slot, was - 1, redlock__now(cl->vote->net->loop));
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
    /* (a refusal or an error wrote nothing to wait for) */
    if (w->replicate && r && r->type != REDLOCK__REPLY_ERROR && r->type != REDLOCK__REPLY_NIL &&
        !cl->closing) {
        replicate(w, r);
        return;
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
    if ((!cl->mapped && cl->no_cluster) ||
        (cl->mapped && !cl->owner[slot] && cl->why[0])) {
        *why = cl->why;
        return REDLOCK__ERROR;
    }
    if (!(w = wrap_new(cl, len))) {
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
    w->replicate = req->replicate;
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
            *w->gen_out = (uint32_t)x << REDLOCK__GEN_NODE_SHIFT | REDLOCK__GEN_WAITING;
        return 0;
    }
    wrap_live(w);
    if ((v = wrap_send(w, x, 0, why)) != 0) {
        if (v == REDLOCK__DOWN)
            redlock__cluster_stale(cl);
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
    /* an acquire refused by some part, or a part unanswered (unsent): the
     * parts that took their keys let them go now (the cluster's vote is no
     * OK, whatever the lock's fate) */
    for (size_t p = 0; sp->rule == REDLOCK__SPLIT_ACQUIRE &&
                       (sp->acc || (sp->lost && !REDLOCK__MUTANT(SPLIT_UNSENT))) &&
                       p < sp->nparts; p++) {
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
 * part left (the answer comes with the last; a part that could not be sent
 * is answered now, as no reply, and rolls back those that went), else the
 * first part's vote.  Every part notes where it left: an undo of the whole
 * then goes to every part (redlock__cluster_undo). */
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
        if ((v = route(cl, sp->part[p].slot, sp->part[p].cmd.p, sp->part[p].cmd.len, &r,
                       &no)) == 0) {
            sent++;
            continue;
        }
        if (!v0) {
            v0 = v;
            *why = no;
        }
        /* (never the last answer: what went is still to answer) */
        redlock__split_answer(sp, p, NULL, no);
    }
    if (sent && sent < sp->nparts && req->gen_out && REDLOCK__MUTANT(SPLIT_UNSENT))
        *req->gen_out = 0;
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

void redlock__cluster_moot(redlock__master *m, const unsigned char *mark, int counted, int voted)
{
    redlock__cluster *cl = m->cluster;
    int found = 0;

    /* its requests are the newest (made inside the operation's start,
     * which is when fan-out drops a cluster's: they never wait past their
     * turn), one or a split's parts; each is dropped on the connection of
     * the master it went to, or never leaves (wrap_go) */
    for (wrap *w = cl->live; w; w = w->older) {
        if (w->up.mark != mark) {
            if (found)
                break;
            continue;
        }
        found = 1;
        if (!w->waiting)
            redlock__master_moot(cl->node[w->x], counted, voted);
    }
}

/* The slot of an undo's first key: EVAL/EVALSHA script numkeys key ...,
 * or a command's first argument. */
static int command_slot(const char *buf, size_t len, unsigned *slot)
{
    const char *a[4];
    size_t alen[4], at = 1, end;
    long n = redlock__command_read(buf, len, 0, a, alen, 4, &end);

    if (n < 2)
        return -1;
    if ((alen[0] == 4 && strncasecmp(a[0], "EVAL", 4) == 0) ||
        (alen[0] == 7 && strncasecmp(a[0], "EVALSHA", 7) == 0))
        at = 3;
    if ((long)at >= n)
        return -1;
    *slot = redlock__keyslot(a[at], alen[at]);
    return 0;
}

/* The connection to node x that an undo redirected there goes behind:
 * that of the newest request of its slot sent on to x (its write, which
 * the same redirect sent there first: the write's redirect was answered
 * before the undo's, on the connection both went on), else that of the
 * write itself (route) if it left on x.  An undo on a connection still
 * in its handshake queues behind the write only when they share it; owed
 * until the handshake, it would run first and the write would stay. */
static uint32_t followed_gen(redlock__cluster *cl, unsigned slot, size_t x, uint32_t route)
{
    for (wrap *w = slot < REDLOCK__SLOTS ? cl->last[slot] : NULL; w; w = w->slot_older)
        if (!w->waiting && !w->undo && w->x == x)
            return w->sent_gen;
    return conn_gen(route, x);
}

/* An undo answered with a redirect (a write that followed an ASK is on the
 * importing master, not on the slot's master of the map): on to the master
 * named, with ASKING after an ASK, as its write went, at most REDIRECTS
 * times (then its key expires with its ttl).  1 when r was one. */
static int undo_redirected(void *owner, const redlock__reply *r, redlock__owed *o)
{
    redlock__cluster *cl = owner;
    char host[REDLOCK__HOST_MAX + 1];
    unsigned slot;
    int ask, port;
    size_t x;

    if (REDLOCK__MUTANT(UNDO_NO_REDIRECT) ||
        redlock__redirect_read(r->str, r->len, &ask, &slot, host, &port) != 0)
        return 0;
    if (!ask)
        redlock__cluster_stale(cl);
    if (o->hops >= REDIRECTS || cl->closing ||
        (x = redlock__cluster_node(cl, host, port)) == SIZE_MAX) {
        free(o);
        return 1;
    }
    o->hops++;
    o->asking = (unsigned char)ask;
    o->set_gen = followed_gen(cl, slot, x, o->route);
    cl->node[x]->undo_redirect = undo_redirected;
    cl->node[x]->undo_owner = cl;
    redlock__master_undo_owed(cl->node[x], o);
    return 1;
}

/* Undo a write (of gen) on node x now: behind it on its connection there,
 * or after killing that one; on from there through the redirects its
 * master answers. */
static void undo_send(redlock__cluster *cl, size_t x, uint32_t gen, const redlock__buf *cmd)
{
    redlock__master *m = cl->node[x];
    redlock__owed *o = redlock__owed_new(m, conn_gen(gen, x), cmd);

    if (!o)
        return;     /* out of memory, closing: the key expires with its ttl */
    o->route = gen;
    m->undo_redirect = undo_redirected;
    m->undo_owner = cl;
    redlock__master_undo_owed(m, o);
}

/* An undo goes to the master of its key's slot now (a write sent on by a
 * MOVED is not on the master it first went to), behind what is on its
 * way for that slot; the write's connection is killed first only when it
 * is on that master. */
static void undo_to(redlock__cluster *cl, uint32_t gen, const redlock__buf *cmd)
{
    size_t x = gen >> REDLOCK__GEN_NODE_SHIFT;
    unsigned slot;
    wrap *w, *ahead;

    /* closing (a split's parts answered "closed" while its nodes are
     * closed already): nothing is sent any more, the keys expire with
     * their ttl */
    if (cl->closing)
        return;
    if (cl->mapped && command_slot(cmd->p, cmd->len, &slot) == 0 && cl->owner[slot])
        x = (size_t)cl->owner[slot] - 1;
    else
        slot = REDLOCK__SLOTS;
    if (x >= cl->nnodes)
        return;
    if (slot == REDLOCK__SLOTS || !(ahead = ahead_of(cl, slot, x)) ||
        !(w = wrap_new(cl, cmd->len))) {
        undo_send(cl, x, gen, cmd);
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

/* ---- the vote ------------------------------------------------------------ */

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
    cl->nseeds = 1;
    redlock__cluster_map_init(cl);
    return 0;
}

int redlock__votes_link(redlock__master *all, size_t n, char *err, size_t errlen)
{
    char host[REDLOCK__HOST_MAX + 1];
    int port;

    size_t clusters = 0;

    for (size_t i = 0; i < n; i++)
        clusters += all[i].cluster != NULL;
    for (size_t i = 0; i < n; i++) {
        redlock__cluster *cl = all[i].cluster;
        if (!cl) {
            /* a plain vote among clusters may share a server with one */
            all[i].votes = clusters ? all : NULL;
            all[i].nvotes = n;
            continue;
        }
        cl->all = all;
        cl->nvotes = n;
        /* the other seeds share the first one's credentials, final now */
        for (size_t s = 1; redlock__addr_seed(&all[i].addr, s, host, &port) == 0; s++)
            if (redlock__cluster_node(cl, host, port) == SIZE_MAX) {
                if (err && errlen)
                    snprintf(err, errlen, "out of memory (or more than %d seeds)",
                             REDLOCK__CLUSTER_NODES);
                return REDLOCK_ENOMEM;
            }
        cl->nseeds = cl->nnodes;
        redlock__cluster_map_start(cl);
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
    redlock__cluster_map_stop(cl);
    pool_free(cl);
    for (size_t i = 1; i < cl->nnodes; i++)
        free(cl->node[i]);
    free(cl);
    m->cluster = NULL;
}

/* A cluster vote but m that answers and has not read its map yet, or
 * SIZE_MAX.  (One whose seed is no cluster node sends nothing.) */
static size_t unmapped(const redlock__master *all, size_t n, const redlock__master *m)
{
    for (size_t j = 0; j < n; j++) {
        const redlock__cluster *oc = all[j].cluster;
        if (&all[j] != m && oc && !oc->mapped && !oc->no_cluster && redlock__master_up(&all[j]))
            return j;
    }
    return SIZE_MAX;
}

int redlock__cluster_counts(redlock__master *m, int64_t now, const char **why)
{
    redlock__cluster *cl = m->cluster;
    redlock__master *x = cl && cl->answered ? cl->answered : m;
    size_t j;

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
    /* nor before every other cluster that answers was compared with it */
    if ((j = unmapped(cl ? cl->all : m->votes, cl ? cl->nvotes : m->nvotes, m)) != SIZE_MAX) {
        snprintf(m->guard.why, sizeof m->guard.why, "not counted: node %zu's cluster map is "
                 "not read yet (one server, one vote)", j);
        *why = m->guard.why;
        return 0;
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

int redlock__cluster_renewed_since(const redlock__master *m, int64_t since_us)
{
    const redlock__cluster *cl = m->cluster;

    for (size_t i = 0; i < cl->nnodes; i++)
        if (redlock__master_renewed_since(cl->node[i], since_us))
            return 1;
    return 0;
}

int redlock__cluster_up(const redlock__master *m, const char **why)
{
    const redlock__cluster *cl = m->cluster;

    if (!cl)
        return redlock__master_up(m);
    if (why)
        *why = cl->why[0] ? cl->why : NULL;
    for (size_t i = 0; cl->mapped && i < cl->nnodes; i++)
        if (redlock__master_up(cl->node[i]))
            return 1;   /* (the first seed may be down: its vote is not) */
    return 0;
}

int redlock__votes_pending(const redlock__master *all, size_t n)
{
    return unmapped(all, n, NULL) != SIZE_MAX;
}
