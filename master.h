/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* master.h -- one master (master.c): its connection, the undos owed
 * to it, its clock samples and stats.  The layer above is fanout.h; never
 * installed.
 */
#ifndef REDLOCK_MASTER_H
#define REDLOCK_MASTER_H

#include "conn.h"

/* ---- master.c: one master ---------------------------------------------- */

typedef struct redlock__conn_ref {
    uint32_t gen;              /* our serial of the connection */
    long long id;              /* the server's CLIENT ID, 0 if unknown */
    char addr[64];             /* the peer address the server saw */
} redlock__conn_ref;

/* An undo owed to a master it could not reach: sent (behind a CLIENT KILL
 * of the connection that carried the write, when known) once it is back.
 * The command is opaque here: the kind encoded it. */
typedef struct redlock__owed {
    size_t len;
    uint32_t set_gen;          /* the connection that carried the write */
    unsigned tries;            /* error replies so far */
    char cmd[];                /* one encoded command */
} redlock__owed;

#define REDLOCK__CONN_HISTORY 8    /* connections remembered for undos */

/* The master's view of its clock against the client's (TIME probes). */
typedef struct redlock__clock_sample {
    int64_t offset_us;         /* server time - client clock at the midpoint */
    int64_t change_us;         /* offset - the previous sample's offset */
    int64_t interval_us;       /* client time between those two samples */
    int64_t at_us;             /* client time of the latest sample */
    uint64_t samples;
} redlock__clock_sample;

typedef struct redlock__master {
    const redlock__net *net;
    size_t index;
    redlock__addr addr;
    char *label;                       /* host:port or path, no secrets */
    redlock__conn conn;                /* the lock connection */
    /* A second connection, opened on first use, for work that must not
     * queue behind the lock requests (net unset until then). */
    redlock__conn side;
    redlock__conn_ref hist[REDLOCK__CONN_HISTORY];   /* recent connections */
    unsigned hist_next;
    redlock__owed **owed;              /* undos owed to this master */
    size_t nowed, owed_cap;
    struct event undo_timer;           /* resend undos refused with an error */
    redlock__clock_sample clock;
    int64_t hello_time_us;             /* when the handshake's TIME was queued */
    redlock_node_stats stats;          /* counters; strings set on read */
} redlock__master;

/* A request to a master, as fan-out describes it. */
typedef struct redlock__req {
    redlock__slot slot;
    int64_t since_us;          /* its operation's start */
    unsigned char never_full;  /* an undo or release: never refused */
    unsigned char quiet;       /* a probe: not counted in the stats */
    uint32_t kill_gen;         /* kill this earlier connection first (0: none) */
    uint32_t *gen_out;         /* where to note the connection it left on */
    const redlock__slot *lead; /* two commands: the first one's reply (or NULL) */
} redlock__req;

int redlock__master_init(redlock__master *m, const redlock__net *net, size_t index,
                         const char *address, char *err, size_t errlen);
void redlock__master_close(redlock__master *m);
/* Queue a request on the master's second connection (the same address and
 * credentials; the connection's own handshake, AUTH, SELECT and PING, and
 * nothing of the master's: no CLIENT INFO, no TIME, no scripts, no undos,
 * no node events, no stats).  It is opened by the first call and
 * reconnects like the first; a lock request never waits behind what it
 * carries (a blocking command, a subscription).  0, or the vote the
 * request gets without being sent (DOWN or ERROR) with *why. */
int redlock__master_side_send(redlock__master *m, const char *buf, size_t len,
                              const redlock__slot *sl, const char **why);
/* 1 when the second connection is open and its handshake done. */
int redlock__master_side_up(const redlock__master *m);
/* Queue a kill of the master's connection `gen` (if allowed) before what
 * comes next; its reply is ignored.  1 when queued. */
int redlock__master_kill_first(redlock__master *m, uint32_t gen);

/* Queue a request: 0, or the vote it gets without being sent (DOWN, FULL
 * or ERROR) with *why.  Inline: every request goes through it. */
static inline int redlock__master_send(redlock__master *m, const char *buf, size_t len,
                                       const redlock__req *req, const char **why)
{
    redlock__conn *cn = &m->conn;

    if (cn->state != REDLOCK__CONN_UP && !redlock__conn_accepts(cn)) {
        *why = cn->lasterr[0] ? cn->lasterr : "not connected";
        return REDLOCK__DOWN;
    }
    /* An undo or release is never refused: refusing it would leave the key
     * for its whole ttl. */
    if (cn->count >= m->net->max_pending && !req->never_full) {
        *why = "request queue full (max_pending)";
        m->stats.fulls += !req->quiet;
        return REDLOCK__FULL;
    }
    /* Undoing a write that left on an earlier connection: kill that one on
     * the server first, so nothing still queued in it can run after. */
    if (req->kill_gen && req->kill_gen != cn->gen && cn->state == REDLOCK__CONN_UP)
        redlock__master_kill_first(m, req->kill_gen);
    if (redlock__conn_send(cn, buf, len, req->lead, &req->slot, req->since_us) != 0) {
        *why = "out of memory";
        return REDLOCK__ERROR;
    }
    if (req->gen_out)
        *req->gen_out = cn->gen;
    m->stats.requests += !req->quiet;
    return 0;
}
/* Undo a write that left on connection `gen` with the command `cmd`: after
 * the write on the same connection, or after killing that connection on the
 * server from a newer one; owed until the master is back if it is down. */
void redlock__master_undo(redlock__master *m, uint32_t gen, const redlock__buf *cmd);
/* Count an operation's vote in the master's stats (rtt_us -1: no reply).
 * Inline: it runs for every vote. */
static inline void redlock__master_count(redlock__master *m, enum redlock__vote v,
                                         int64_t rtt_us, int full_wait, int late)
{
    redlock_node_stats *st = &m->stats;

    if (rtt_us >= 0)
        st->last_rtt_us = rtt_us;
    switch (v) {
    case REDLOCK__OK: st->oks++; break;
    case REDLOCK__REFUSED: st->refused++; break;
    case REDLOCK__TIMEOUT:
        st->timeouts++;
        /* Only a wait of the full node timeout says the master is slow; an
         * op that ran out of validity or deadline earlier does not, nor a
         * request that left late because the application held the loop. */
        if (full_wait && !late)
            redlock__conn_timed_out(&m->conn);
        break;
    case REDLOCK__DOWN: st->unreachable++; break;
    case REDLOCK__FULL: break;  /* counted when refused */
    default: st->errors++; break;
    }
}
/* A clock sample: the master's TIME (server_us, parsed by
 * redlock__time_parse) read between `sent_us` and `now_us` (client clock). */
void redlock__master_time(redlock__master *m, int64_t server_us, int64_t sent_us,
                          int64_t now_us);
/* Parse a TIME reply into microseconds; 0 or -1. */
int redlock__time_parse(const redlock__reply *r, int64_t *us);
int redlock__master_up(const redlock__master *m);
/* Reconnect now if the master is down and its back-off has passed. */
void redlock__master_kick(redlock__master *m);

#endif /* REDLOCK_MASTER_H */
