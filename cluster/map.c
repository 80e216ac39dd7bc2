/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* map.c -- a cluster vote's map and masters.
 *
 * The vote's own master (fan-out's) is the first seed; the cluster's other
 * masters are nodes made as the slot map names them, each a whole master
 * (master.c: its connection opened on first use, its handshake, undos,
 * kills and guards).  The map (CLUSTER SLOTS) is read at the start, every
 * cluster_refresh_ms (the option), and soon after a MOVED or a master lost
 * (redlock__cluster_stale), from the node that answered last, else the
 * seeds and known masters in turn.
 *
 * Failover is a restart.  A master that takes over slots whose old master
 * serves none any more (a migration leaves it serving others), or that is
 * first seen with a master_replid2 (promoted once, we cannot know when:
 * guard.c), is not counted for the restart guard's window from the moment
 * we see it, which is never before the takeover.  Its durability does not
 * help: the keys were on another server.
 *
 * One server, one vote.  Two votes that share a master (two names of one
 * cluster, or a plain master that is also a cluster's) would give one
 * server two votes: the higher-numbered one never counts (same_as), and
 * its detail says which vote it shares a server with.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cluster/vote.h"

#define REFRESH_MIN_MS 50      /* the map is read at most this often */

static void refresh_cb(evutil_socket_t fd, short what, void *arg);

/* ---- nodes --------------------------------------------------------------- */

static size_t node_at(redlock__cluster *cl, const char *host, int port)
{
    for (size_t i = 0; i < cl->nnodes; i++)
        if (cl->node[i]->addr.port == port && strcmp(cl->node[i]->addr.host, host) == 0)
            return i;
    return SIZE_MAX;
}

/* The node at host:port, made when new; SIZE_MAX when there is no room. */
size_t redlock__cluster_node(redlock__cluster *cl, const char *host, int port)
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
        if (j == me || (o->cluster && !((redlock__cluster *)o->cluster)->mapped) ||
            !shares(cl, o))
            continue;
        if (j < me && cl->vote->same_as > j)
            cl->vote->same_as = j;
        else if (j > me && o->same_as > me)
            o->same_as = me;
    }
}

void redlock__cluster_took(redlock__cluster *cl, size_t x, unsigned lo, unsigned hi, size_t from,
                      int64_t now)
{
    char text[112];
    snprintf(text, sizeof text, "took slots %u-%u from %s", lo, hi, cl->node[from]->label);
    redlock__guard_failover(cl->node[x], now, text, 1);
}

/* Does node x + 1 serve a slot in map `owner`? */
int redlock__cluster_serves(const unsigned char *owner, size_t x1)
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
        size_t x = redlock__cluster_node(cl, host, rg[i].port);
        if (x == SIZE_MAX)
            continue;
        /* the same address, another node: a new server */
        if (cl->id[x][0] && rg[i].id[0] && strcmp(cl->id[x], rg[i].id) != 0)
            redlock__guard_failover(cl->node[x], now, "a new node id at this address", 0);
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
        if (!was || !now_x || was == now_x || redlock__cluster_serves(next, was))
            continue;
        while (k + 1 < REDLOCK__SLOTS && cl->owner[k + 1] == was && next[k + 1] == now_x)
            k++;
        redlock__cluster_took(cl, now_x - 1, lo, k, was - 1, now);
    }
    memcpy(cl->owner, next, sizeof next);
    cl->mapped = 1;
    check_same(cl);
}

static void slots_reply(void *privdata, size_t tag, const redlock__reply *r, const char *why)
{
    redlock__cluster *cl = privdata;
    redlock__slot_range *rg;
    size_t n = 0, max;
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
        cl->no_cluster = 1;
        snprintf(cl->why, sizeof cl->why, "%s is not a cluster node (CLUSTER SLOTS: %.*s)",
                 cl->node[tag]->label, (int)(r->len < 80 ? r->len : 80), r->str);
        cl->ask_next = tag + 1;
        refresh_soon(cl, 1000);    /* a seed that is no cluster node: said */
        return;
    }
    /* a range per element at most (a reply's elements are bounded:
     * resp.h's REDLOCK__REPLY_MAX_ELEMENTS) */
    max = r->type == REDLOCK__REPLY_ARRAY && r->elements ? r->elements : 1;
    if (!(rg = malloc(max * sizeof *rg)))
        return;
    cl->no_cluster = 0;
    rc = redlock__slots_read(r, rg, max, &n, &why);
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
void redlock__cluster_stale(redlock__cluster *cl)
{
    int64_t since = redlock__now(cl->vote->net->loop) - cl->read_at_us;

    if (cl->asking)
        return;
    refresh_soon(cl, since >= REFRESH_MIN_MS * 1000 ? 0 : REFRESH_MIN_MS - since / 1000);
}






void redlock__cluster_map_init(redlock__cluster *cl)
{
    evtimer_assign(&cl->timer, cl->vote->net->loop->base, refresh_cb, cl);
    redlock__split_init(&cl->scripts, cl->vote->net->scripts);
    snprintf(cl->why, sizeof cl->why, "cluster map not read yet");
}

void redlock__cluster_map_start(redlock__cluster *cl)
{
    refresh_soon(cl, 0);
}

void redlock__cluster_map_stop(redlock__cluster *cl)
{
    evtimer_del(&cl->timer);
}
