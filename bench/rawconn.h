/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* rawconn.h -- the baselines' minimal client (raw.c, handoff.c): one
 * connection to a master over a libevent bufferevent and a hiredis reader,
 * pipelined, each reply handed to its owner with the tag its request was
 * sent with (0 for a reply nobody asked for: a pub/sub message). */
#ifndef RLB_RAWCONN_H
#define RLB_RAWCONN_H

#include <stddef.h>
#include <stdint.h>

#include <hiredis/hiredis.h>

struct event_base;
struct bufferevent;

/* A master's address: host:port, redis://[user:pass@]host:port[/db], unix://path. */
typedef struct raddr {
    char host[256];
    char port[16];
    char path[108];       /* unix socket */
    char user[128], pass[256];
    int db;
} raddr;

typedef struct rconn rconn;

/* What a connection tells its owner. */
typedef struct rconn_ops {
    void (*connected)(rconn *c);    /* NULL: none (setup_left counts it) */
    void (*reply)(rconn *c, uintptr_t tag, const redisReply *r);
    /* connecting failed, the connection was lost, or the reply was not RESP */
    void (*failed)(rconn *c, const char *why);
} rconn_ops;

struct rconn {
    const rconn_ops *ops;
    void *owner;
    size_t idx;           /* the owner's: which master */
    struct bufferevent *bev;
    redisReader *rd;
    uintptr_t *fifo;      /* the tag of each pending reply */
    size_t cap, head, count;
    int connected;
    int halt;             /* set by the owner: no more replies are read */
    size_t *setup_left;   /* the owner's, or NULL: connecting counts itself off it
                           * (rconn_setup_step) */
    char desc[128];
};

int rconn_parse_addr(const char *s, raddr *a, char *err, size_t errlen);
/* Start connecting c (zeroed, ops/owner/idx set) to addr on base. */
int rconn_open(rconn *c, struct event_base *base, const char *addr, const raddr *a, char *err,
               size_t errlen);
void rconn_close(rconn *c);
/* One command in RESP into buf; 0 when it does not fit in cap. */
size_t rconn_format(char *buf, size_t cap, int argc, const char *const *argv, const size_t *lens);
/* Queue formatted bytes (written when the loop turns); the reply comes
 * back with `tag`.  0, or -1 when out of memory. */
int rconn_send_raw(rconn *c, uintptr_t tag, const char *cmd, size_t len);
/* The same, written to the socket at once when nothing waits before it. */
int rconn_send_now(rconn *c, uintptr_t tag, const char *cmd, size_t len);
int rconn_send(rconn *c, uintptr_t tag, int argc, const char *const *argv, const size_t *lens);
/* AUTH and SELECT as the address asks, each answered with `tag`: how many. */
int rconn_handshake(rconn *c, const raddr *a, uintptr_t tag);
/* One of the *left connections or replies a setup waits for has come: the
 * loop on base that waits for them ends when none is left, or at once when
 * `stop`. */
void rconn_setup_step(size_t *left, int stop, struct event_base *base);
/* A SCRIPT LOAD reply's SHA1 into sha[41]; 0, or -1 when r is not one. */
int rconn_script_sha(const redisReply *r, char *sha);

#endif
