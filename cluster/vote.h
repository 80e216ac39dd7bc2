/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* vote.h -- a cluster vote's state, kept by map.c (its map, its masters)
 * and used by cluster.c (the vote: its requests); included by nothing
 * outside cluster/. */
#ifndef REDLOCK_CLUSTER_VOTE_H
#define REDLOCK_CLUSTER_VOTE_H

#include "master/master.h"
#include "cluster/slot.h"
#include "cluster/split.h"

/* Masters one cluster vote may know at a time (the encoding of a request's
 * connection, redlock__vote_send, has 8 bits for it). */
#define REDLOCK__CLUSTER_NODES 255

typedef struct redlock__cluster redlock__cluster;

#define REDLOCK__GEN_NODE_SHIFT 24
#define REDLOCK__GEN_CONN_MASK 0xFFFFFFu

/* A request's gen: node << 24 | its connection's; a request that waits
 * behind another of its slot has REDLOCK__GEN_WAITING for its connection
 * until it leaves (never 0: an undo is owed once it goes). */
#define REDLOCK__GEN_WAITING REDLOCK__GEN_CONN_MASK
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
    unsigned no_cluster : 1;               /* the seed asked is no cluster node */
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
    struct redlock__wrap *live;                     /* requests on their way, newest first */
    struct redlock__wrap *pool;            /* requests done, for reuse (by `older`) */
    size_t npool;
    struct redlock__wrap *last[REDLOCK__SLOTS];     /* of them, the newest per slot */
};

/* A request on its way: what fan-out gave, and its replies so far. */
typedef struct redlock__wrap {
    redlock__cluster *cl;
    struct redlock__wrap *newer, *older;            /* in cl->live */
    struct redlock__wrap *slot_older, *slot_newer;  /* its slot's, in cl->last[slot] */
    struct redlock__wrap *after;                    /* of its slot, sent once it is done */
    unsigned waiting : 1;                  /* behind another: not sent yet */
    unsigned undo : 1;                     /* an undo (redlock__master_undo) */
    redlock__slot up, uplead;              /* fan-out's slots */
    unsigned nlead;                        /* fan-out's leading commands */
    uint32_t *gen_out, kill_gen;
    int64_t since_us;
    unsigned char never_full, quiet;
    unsigned replicate : 1;                /* WAIT for the replicas (cluster.c) */
    redlock__reply *kept;                  /* its answer, while WAIT is out */
    unsigned slot, hops;
    size_t x;                              /* the node it went to */
    uint32_t sent_gen;                     /* ... on that node's connection of this gen */
    unsigned got, cmds, redirected;        /* this round's replies */
    unsigned asked : 1;                    /* this round has ASKINGs */
    int ask, port;                         /* the last redirect's target */
    char host[REDLOCK__HOST_MAX + 1];
    redlock__reply **held;                 /* the leading replies, copied */
    redlock__slot lead;                    /* our leading slot */
    size_t len, cap;                       /* its bytes, and room for them */
    char buf[];                            /* the request's bytes */
} redlock__wrap;

/* map.c: make cl's map (its timer; the multi scripts) and start reading
 * it; stop; the node at host:port, made when new (SIZE_MAX: no room);
 * reread the map soon; master x took slots lo..hi from master `from`;
 * does master x1 - 1 serve a slot of map `owner`? */
void redlock__cluster_map_init(redlock__cluster *cl);
void redlock__cluster_map_start(redlock__cluster *cl);
void redlock__cluster_map_stop(redlock__cluster *cl);
size_t redlock__cluster_node(redlock__cluster *cl, const char *host, int port);
void redlock__cluster_stale(redlock__cluster *cl);
void redlock__cluster_took(redlock__cluster *cl, size_t x, unsigned lo, unsigned hi, size_t from,
                           int64_t now);
int redlock__cluster_serves(const unsigned char *owner, size_t x1);

#endif /* REDLOCK_CLUSTER_VOTE_H */
