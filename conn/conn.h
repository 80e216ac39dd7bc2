/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* conn.h -- one connection to a master (conn.c) and how it is
 * made (dial.c): its queue of callbacks, handshake, flushing.  The layer
 * above is master.h; never installed.
 */
#ifndef REDLOCK_CONN_H
#define REDLOCK_CONN_H

#include "floor/floor.h"

/* ---- conn.c: one connection -------------------------------------------- */

/* What a connection needs from its owner, shared by all of a client's. */
typedef struct redlock__net {
    redlock__loop *loop;
    int64_t connect_timeout_ms;
    int64_t node_timeout_ms;
    int64_t reconnect_min_ms, reconnect_max_ms;
    size_t max_pending;
    int max_timeouts;
    void *ssl_ctx;                   /* SSL_CTX when a node uses TLS */
    const char *tls_server_name;     /* NULL: each node's host */
    int tls_insecure;
    /* A master went up or down (towards the application's node_cb). */
    void (*event)(void *privdata, size_t node, int event, const char *detail);
    void *event_privdata;
    /* A master's second connection (the subscriber) came up (1) or went
     * down (0); a message published to it.  With event_privdata. */
    void (*side)(void *privdata, size_t node, int up);
    void (*message)(void *privdata, size_t node, const char *channel, size_t len,
                    const char *payload, size_t plen);
    /* The guards' settings (guard.c): windows in ms, -1 automatic, 0 off;
     * max_ttl_ms is the largest ttl an operation used so far (fanout.c). */
    int64_t restart_guard_ms, clock_guard_ms;
    int strict;
    double drift_factor;
    int64_t drift_min_ms;
    int64_t max_ttl_ms;
    int64_t clock_probe_ms;          /* the options' (0: handshake only) */
    /* What guard.c finds that concerns more than one master (with
     * event_privdata; NULL: none): master `node` read its run_id (`old`
     * the one it had, "" none); its clock was seen jumping ahead. */
    void (*identified)(void *privdata, size_t node, const char *old);
    void (*clock_ahead)(void *privdata, size_t node);
    /* every script's body, by number (REDLOCK__NSCRIPTS): loaded at each
     * handshake (master.c), sent as EVAL after a NOSCRIPT */
    const char *const *scripts;
    int64_t cluster_refresh_ms;      /* a cluster vote's map, reread (0: on news) */
    /* a cluster's acquires and extends wait for this many replicas (0:
     * they do not), WAIT's timeout (cluster.c); no failover window then
     * (guard.c) */
    int replica_acks;
    int64_t replica_wait_ms;
} redlock__net;

/* A request's answer: r is the reply, or NULL when none will come (the
 * connection was lost, or the request never left); then `why` says why. */
typedef void redlock__reply_fn(void *privdata, size_t tag, const redlock__reply *r,
                               const char *why);

/* A request's marks (redlock__slot.mark): the connection sets LATE when the
 * request leaves late; its owner sets QUEUED and MOOT. */
#define REDLOCK__MARK_LATE   1
#define REDLOCK__MARK_QUEUED 2     /* (the owner's: waiting for its reply) */
#define REDLOCK__MARK_MOOT   4     /* still unsent: drop it, never send it */
#define REDLOCK__MARK_HELD   8     /* (the owner's: it may wait past its turn) */

typedef struct redlock__slot {
    redlock__reply_fn *fn;
    void *privdata;
    size_t tag;
    unsigned char *mark;       /* the request's REDLOCK__MARK_* bits, or NULL */
    unsigned required : 1;     /* handshake: an error reply drops the connection */
    unsigned handshake : 1;
    /* set by redlock__conn_send: */
    unsigned lead : 1;         /* a leading command's: its request goes on */
    unsigned len : 29;         /* the request's bytes (on its last slot) */
    uint32_t seq;              /* the request's serial */
} redlock__slot;

/* A request's bytes are fewer (redlock__slot.len). */
#define REDLOCK__SLOT_LEN_MAX ((size_t)1 << 29)

enum redlock__conn_state {
    REDLOCK__CONN_DOWN,          /* waiting for the back-off timer */
    REDLOCK__CONN_CONNECTING,    /* TCP connect + handshake in flight */
    REDLOCK__CONN_UP
};

typedef struct redlock__conn redlock__conn;

/* The owner's part in a connection's life. */
typedef struct redlock__conn_owner {
    /* queue the owner's handshake steps (redlock__conn_hello); 0 or ENOMEM */
    int (*hello)(void *owner, redlock__conn *cn);
    /* the handshake succeeded; requests that waited leave after this */
    void (*up)(void *owner, redlock__conn *cn);
    /* the connection was lost (or an attempt failed): `tell` when the
     * application should hear of it */
    void (*down)(void *owner, redlock__conn *cn, const char *why, int tell);
    void *owner;
    /* NULL, or a connection in pub/sub mode: a published message (an array
     * "message", channel, payload) goes here, not to a request's slot */
    void (*push)(void *owner, redlock__conn *cn, const redlock__reply *r);
    /* NULL, or called when requests are about to be written: the owner may
     * add one more (redlock__conn_send) to ride along in the same write */
    void (*flushing)(void *owner, redlock__conn *cn);
} redlock__conn_owner;

struct redlock__conn {
    const redlock__net *net;
    const redlock__addr *addr;
    const char *label;
    redlock__conn_owner own;
    enum redlock__conn_state state;
    struct bufferevent *bev;
    redlock__reader *reader;
    uint32_t gen;                      /* serial of the current connection */
    redlock__slot *slots;              /* ring buffer of pending requests */
    size_t head, count, cap;
    /* The last `unsent` slots are requests still in `out`: a connection
     * with `window` requests sent and unanswered (0: no limit) holds the
     * next ones back, and drops those its owner marks moot meanwhile
     * (`mooted` of them, told by redlock__conn_moot). */
    size_t unsent, window, mooted;
    size_t hold_above;                 /* window when UP (none: SIZE_MAX), else
                                        * SIZE_MAX: what waits for the handshake
                                        * is sent after it, never dropped */
    uint32_t queued_seq;               /* the last request's serial */
    uint32_t sent_seq;                 /* the last one written */
    unsigned handshake_left;           /* handshake replies still due */
    struct event retry_timer;
    struct event connect_timer;
    struct event stall_ev;             /* drop a connection that stopped answering */
    struct event flush_ev;             /* write `out` once per loop turn */
    redlock__buf out;                  /* requests not yet written */
    redlock__buf hello;                /* the handshake being built */
    size_t unflushed;                  /* slots of the requests in `out` */
    int64_t out_since_us;              /* start of the oldest request in `out`, or 0 */
    int64_t backoff_ms;
    int64_t retry_at_us;               /* when DOWN: next connect allowed */
    int timeouts_in_row;               /* since the last reply */
    int tcp_up;                        /* the socket is connected */
    int64_t connected_us;              /* when it connected (the handshake left) */
    unsigned attempts;                 /* connection attempts so far */
    char lasterr[160];
    char told[160];                    /* the last DOWN reason reported */
    redlock__slot *dropped;            /* moot slots, until they are told */
    size_t dropped_cap;
};

void redlock__conn_init(redlock__conn *cn, const redlock__net *net, const redlock__addr *addr,
                        const char *label, const redlock__conn_owner *own);
void redlock__conn_connect(redlock__conn *cn);
void redlock__conn_close(redlock__conn *cn);
/* Double the ring of slots (its capacity stays a power of two); 0 or ENOMEM. */
int redlock__conn_slot_grow(redlock__conn *cn);

/* A request's slot, in the order the requests go out on the wire; the
 * copy in the ring, or NULL (out of memory). */
static inline redlock__slot *redlock__conn_slot_add(redlock__conn *cn, const redlock__slot *sl)
{
    redlock__slot *s;
    if (cn->count == cn->cap && redlock__conn_slot_grow(cn) != 0)
        return NULL;
    s = &cn->slots[(cn->head + cn->count) & (cn->cap - 1)];
    *s = *sl;
    cn->count++;
    return s;
}

static inline int redlock__conn_slot_push(redlock__conn *cn, const redlock__slot *sl)
{
    return redlock__conn_slot_add(cn, sl) ? 0 : REDLOCK_ENOMEM;
}

/* Queue an encoded request (`len` bytes) with its slot, and the slot of
 * the leading commands' replies when buf holds nlead + 1 commands (lead;
 * NULL: one command); 0 or ENOMEM.
 * `since_us` is when its operation started (late-departure detection).
 * Inline: every request of every operation goes through it. */
static inline int redlock__conn_send(redlock__conn *cn, const char *buf, size_t len,
                                     const redlock__slot *lead, unsigned nlead,
                                     const redlock__slot *sl, int64_t since_us)
{
    size_t before = cn->unflushed;
    uint32_t seq = cn->queued_seq + 1;
    redlock__slot *s;

    if (len >= REDLOCK__SLOT_LEN_MAX || redlock__buf_reserve(&cn->out, len) != 0)
        return REDLOCK_ENOMEM;
    if (lead) {         /* nlead + 1 commands in buf: as many replies, in order */
        for (unsigned i = 0; i < nlead; i++) {
            if (!(s = redlock__conn_slot_add(cn, lead))) {
                cn->count -= i;
                return REDLOCK_ENOMEM;
            }
            s->lead = 1;    /* (its len stays 0: the bytes are the last slot's) */
        }
        if (!(s = redlock__conn_slot_add(cn, sl))) {
            cn->count -= nlead;
            return REDLOCK_ENOMEM;
        }
        cn->unflushed += nlead;
        cn->unsent += nlead;
    } else if (!(s = redlock__conn_slot_add(cn, sl))) {
        return REDLOCK_ENOMEM;
    }
    s->len = (unsigned)len;     /* (lead is 0 in every caller's slot) */
    s->seq = cn->queued_seq = seq;
    /* Requests made in one turn of the loop leave together, once, after the
     * callbacks that made them: one write per connection per turn. */
    if (!cn->out_since_us)
        cn->out_since_us = since_us;
    memcpy(cn->out.p + cn->out.len, buf, len);
    cn->out.len += len;
    cn->unflushed++;
    cn->unsent++;
    if (before == 0 && cn->state == REDLOCK__CONN_UP)
        event_active(&cn->flush_ev, EV_WRITE, 1);
    return 0;
}
/* 1 while the request of serial `seq` (queued by redlock__conn_send, not
 * yet answered) has not been written. */
static inline int redlock__conn_unsent(const redlock__conn *cn, uint32_t seq)
{
    return (int32_t)(seq - cn->sent_seq) > 0;
}
/* 1 when the request just queued may still wait after this loop turn's
 * flush: the connection is up with its window full.  (Requests made while
 * it connects wait for its handshake, then leave: a fresh client's first
 * operations reach every master, as a master that answers late does.) */
static inline int redlock__conn_holds(const redlock__conn *cn)
{
    return cn->count > cn->hold_above;
}
/* The owner marked an unsent request REDLOCK__MARK_MOOT: it is dropped
 * before it would leave (its slot's callback then gets no reply). */
void redlock__conn_moot(redlock__conn *cn);
/* From the owner's hello(): a handshake step (the slot says whether an
 * error reply is fatal); 0 or ENOMEM. */
int redlock__conn_hello(redlock__conn *cn, int argc, const char *const *argv,
                        const size_t *argvlen, const redlock__slot *sl);
/* From the owner's up(): requests that go before every queued one, in this
 * order, written at once; 0 or ENOMEM (then nothing was queued). */
int redlock__conn_prepend(redlock__conn *cn, const redlock__buf *bytes, const redlock__slot *slots,
                          size_t k);
/* A request on this connection timed out: after max_timeouts in a row,
 * reconnect. */
void redlock__conn_timed_out(redlock__conn *cn);
/* Connect now if the connection is down and its back-off has passed. */
void redlock__conn_kick(redlock__conn *cn);
/* 1 when a request may be queued now (up, or on its first attempt); kicks
 * the connection first. */
int redlock__conn_accepts(redlock__conn *cn);

/* ---- tls.c: TLS context and connections -------------------------------- */

/* Called when some node uses TLS. */
int redlock__tls_init(void **ctx, const redlock_options *o, char *err, size_t errlen);
void redlock__tls_free(void **ctx);
struct bufferevent *redlock__tls_bev_new(const redlock__net *net, const redlock__addr *addr,
                                         evutil_socket_t fd);
/* Describe why a TLS connection failed (certificate, handshake). */
int redlock__tls_describe(struct bufferevent *bev, char *buf, size_t len);

#endif /* REDLOCK_CONN_H */
