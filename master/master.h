/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* master.h -- one master (master.c): its connection, the undos owed
 * to it, its clock samples and stats.  The layer above is fanout.h; never
 * installed.
 */
#ifndef REDLOCK_MASTER_H
#define REDLOCK_MASTER_H

#include "conn/conn.h"

/* ---- master.c: one master ---------------------------------------------- */

/* A connection the client dropped may still run, later, what reached the
 * server before the close (a SET, an extend shorter than the next one):
 * it is killed on the server before anything goes on a newer one. */
enum {
    REDLOCK__KILL_NONE,        /* up, or nothing to kill */
    REDLOCK__KILL_OWED,        /* dropped: to kill from the next connection */
    REDLOCK__KILL_SENT,        /* its kill queued on the current connection */
    REDLOCK__KILL_DONE         /* the server answered its kill */
};

typedef struct redlock__conn_ref {
    uint32_t gen;              /* our serial of the connection */
    long long id;              /* the server's CLIENT ID, 0 if unknown */
    char addr[64];             /* the peer address the server saw */
    unsigned char kill;        /* REDLOCK__KILL_* */
} redlock__conn_ref;

/* An undo owed to a master it could not reach: sent (behind a CLIENT KILL
 * of the connection that carried the write, when known) once it is back.
 * The command is opaque here: the kind encoded it. */
typedef struct redlock__owed {
    size_t len;
    uint32_t set_gen;          /* the connection that carried the write */
    unsigned tries;            /* error replies so far */
    /* a cluster's master's (cluster/): the write's gen as the cluster
     * knows it (its node and connection), the redirects the undo followed,
     * and whether ASKING goes right before it (it follows an ASK) */
    uint32_t route;
    unsigned char hops, asking;
    char cmd[];                /* one encoded command */
} redlock__owed;

#define REDLOCK__CONN_HISTORY 8    /* connections remembered for kills */

/* The master's view of its clock against the client's (TIME probes). */
typedef struct redlock__clock_sample {
    int64_t offset_us;         /* server time - client clock at the midpoint */
    int64_t change_us;         /* offset - the previous sample's offset */
    int64_t interval_us;       /* client time between those two samples */
    int64_t at_us;             /* client time of the latest sample */
    int64_t err_us;            /* the latest sample's error: half its round trip */
    uint64_t samples;
} redlock__clock_sample;

/* What the guards know of a master (guard.c): restarts (INFO server at
 * each handshake), clock jumps (the clock samples), configuration (CONFIG
 * GET at each handshake).  Times are the client's clock. */
typedef struct redlock__guard {
    char run_id[41];           /* "" before the first INFO */
    int64_t run_seen_us;       /* when a new run_id was read (a restart); 0: never */
    int64_t uptime_s;          /* at the last handshake; -1: unknown */
    int64_t restart_at_us;     /* the latest moment it may have restarted */
    int64_t jump_at_us;        /* when a clock jump was seen; 0: never */
    /* counted for good while the largest ttl stays this (its windows are
     * past and nothing new was seen); -1: ask guard.c */
    int64_t clear_ttl;
    int64_t ref_offset_us, ref_at_us, ref_err_us;   /* the rate's reference sample */
    uint64_t restarts, jumps;
    int64_t read_at_us;        /* when INFO and CONFIG GET were last sent */
    unsigned config;           /* REDLOCK_GUARD_EVICTS, _NO_PERSIST, _UNKNOWN */
    unsigned hello_config;     /* what this reading's replies found so far */
    int hello_aof, hello_save; /* appendonly yes / save points (-1: not read) */
    /* appendfsync always, no-appendfsync-on-rewrite no (-1: not read) */
    int hello_fsync, hello_rewrite;
    /* A restart that keeps every acknowledged key (guard.c, "durable"):
     * keeps: the last reading's appendonly yes + the above (-1: unknown);
     * run_keeps: every reading of this run_id said so; kept_before: the
     * last reading of the run before it (-1: none seen); aof_start: its
     * first INFO persistence showed the AOF on since its start (-1: not
     * read yet). */
    int keeps, run_keeps, kept_before, aof_start;
    int64_t note_uptime;       /* the uptime `note` was written for (-1: none) */
    char note[160];            /* why it counts at once after its restart */
    /* A cluster's master that may lack keys its slots had (guard.c,
     * "failover"): when it took them over, or was first seen promoted
     * (0: never); its master_replid2 last read ("": none yet). */
    int64_t failover_at_us;
    char failover_text[112];
    char replid2[41];
    int failover_unknown;      /* failover_at_us is when we first saw it
                                * promoted (master_replid2), not when it was */
    int failover_replica;      /* ... from a replica (see redlock__guard_failover) */
    /* A cluster's master is durable only when this client read its run
     * before the restart as a master (guard.c, "durable"): the role its
     * handshake's INFO replication read in this run and in the run before
     * (1 master, 0 replica, -1 unknown or none seen). */
    int role_master, master_before;
    unsigned rereading : 1;    /* a re-reading's replies are due */
    unsigned ahead : 1;        /* its clock jumped ahead: locks not yet told */
    unsigned told;             /* the last findings reported (node events) */
    int told_uncounted;
    struct event tell;         /* report from the loop, and at a window's end */
    char policy[32];           /* maxmemory-policy, or "" */
    char restart_text[64], clock_text[128], config_text[288];
    /* what this reading found refused (by error code) or unreadable so
     * far, per step (guard.c's STEP_*) */
    unsigned hello_refused, hello_unread;
    char hello_code[13];
    char why[704];             /* a vote's detail, or the stats' text */
} redlock__guard;

typedef struct redlock__master {
    const redlock__net *net;
    size_t index;
    /* the lowest index of a master with the same run_id (the same server
     * under another address: guard.c), or index; only that one's answers
     * count */
    size_t twin_of;
    unsigned twins;                    /* masters that share its run_id */
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
    int64_t time_sent_us;              /* when the last TIME left, any way */
    int64_t ride_sent_us;              /* when the TIME riding with requests left */
    int time_riding;                   /* and its reply is still due */
    redlock__guard guard;              /* guard.c */
    /* A node of a Redis Cluster vote (cluster/): its handshake also reads
     * INFO replication (a promoted replica: guard.c).  `cluster`: the
     * vote's state, cluster/'s own (NULL: a plain master). */
    unsigned shard : 1;
    void *cluster;
    /* A cluster's master: an undo answered with an error is offered to
     * undo_redirect first (a MOVED or ASK: cluster/ sends it on to the
     * master named), 1 when taken (o is then its); NULL: a plain master. */
    int (*undo_redirect)(void *owner, const redlock__reply *r, redlock__owed *o);
    void *undo_owner;
    /* the lowest-numbered vote that shares a server with this one, when it
     * is a cluster's or shares one with a cluster (cluster/); else index */
    size_t same_as;
    /* a plain vote among cluster votes: all the votes (cluster/), else NULL */
    struct redlock__master *votes;
    size_t nvotes;
    redlock_node_stats stats;          /* counters; strings set on read */
} redlock__master;

/* A request to a master, as fan-out describes it. */
typedef struct redlock__req {
    redlock__slot slot;
    int64_t since_us;          /* its operation's start */
    unsigned char never_full;  /* an undo or release: never refused */
    unsigned char quiet;       /* a probe: not counted in the stats */
    unsigned char replicate;   /* a cluster's master waits for replicas
                                * (net->replica_acks) before its answer */
    uint32_t kill_gen;         /* kill this earlier connection first (0: none) */
    uint32_t *gen_out;         /* where to note the connection it left on */
    const redlock__slot *lead; /* several commands: the leading ones' replies (or NULL) */
    unsigned nlead;            /* how many leading commands (with lead) */
} redlock__req;

int redlock__master_init(redlock__master *m, const redlock__net *net, size_t index,
                         const char *address, char *err, size_t errlen);
/* The same with an address parsed already (m takes it over: freed on error
 * too).  0 or REDLOCK_ENOMEM. */
int redlock__master_init_at(redlock__master *m, const redlock__net *net, size_t index,
                            redlock__addr *a);
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
/* Queue a kill of the master's connection `gen` (if allowed, and not
 * killed or queued for a kill on this connection already) before what
 * comes next.  1 when queued. */
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
    if (redlock__conn_send(cn, buf, len, req->lead, req->nlead, &req->slot, req->since_us) != 0) {
        *why = "out of memory";
        return REDLOCK__ERROR;
    }
    if (req->gen_out)
        *req->gen_out = cn->gen;
    m->stats.requests += !req->quiet;
    return 0;
}
/* Requests the lock connection sends before it waits for replies: past
 * them, a master that falls behind gets the next ones as it answers (conn.c),
 * and those no longer needed by then are never sent (fanout.c). */
#define REDLOCK__WINDOW 1024
/* The serial of the request redlock__master_send just queued; whether the
 * request of serial `seq` still waits to leave. */
static inline uint32_t redlock__master_last_seq(const redlock__master *m)
{
    return m->conn.queued_seq;
}
static inline int redlock__master_unsent(const redlock__master *m, uint32_t seq)
{
    return redlock__conn_unsent(&m->conn, seq);
}
/* 1 when the request just queued may wait past this loop turn. */
static inline int redlock__master_holds(const redlock__master *m)
{
    return redlock__conn_holds(&m->conn);
}
/* A request that still waits to leave is marked REDLOCK__MARK_MOOT: it never
 * leaves.  `counted`: in the stats (no probe); `voted`: its vote was cast
 * already (it timed out: it stays in `requests`). */
void redlock__master_moot(redlock__master *m, int counted, int voted);
/* Undo a write that left on connection `gen` with the command `cmd`: after
 * the write on the same connection, or after killing that connection on the
 * server from a newer one; owed until the master is back if it is down. */
void redlock__master_undo(redlock__master *m, uint32_t gen, const redlock__buf *cmd);
/* The same in two steps, for a cluster's master: an undo (cmd copied,
 * route, hops and asking 0, for the caller to set), NULL when out of
 * memory or closing; then m takes it (sent, or owed). */
redlock__owed *redlock__owed_new(const redlock__master *m, uint32_t gen, const redlock__buf *cmd);
void redlock__master_undo_owed(redlock__master *m, redlock__owed *o);
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
    case REDLOCK__UNCOUNTED: st->uncounted++; break;
    default: st->errors++; break;
    }
}
/* A clock sample: the master's TIME (server_us, parsed by
 * redlock__time_parse) read between `sent_us` and `now_us` (client clock). */
void redlock__master_time(redlock__master *m, int64_t server_us, int64_t sent_us,
                          int64_t now_us);
/* Parse a TIME reply into microseconds; 0 or -1. */
int redlock__time_parse(const redlock__reply *r, int64_t *us);
/* The main connection's flushing hook: a TIME rides along with requests
 * once the master's last sample is half of clock_probe_ms old (guard.c). */
void redlock__guard_flushing(void *owner, redlock__conn *cn);
int redlock__master_up(const redlock__master *m);

/* ---- guard.c: the guards for the algorithm's assumptions ---------------- */

void redlock__guard_init(redlock__master *m);
void redlock__guard_close(redlock__master *m);
/* Queue INFO server and CONFIG GET (optional steps) in the handshake. */
int redlock__guard_hello(redlock__master *m, redlock__conn *cn);
/* The handshake was answered: judge what it found, report from the loop. */
void redlock__guard_up(redlock__master *m);
/* 1 when an OK vote of `m` to an operation with a ttl counts towards the
 * quorum at `now` (with *why set when it counts only for being durable
 * within a restart window: why); else 0 with *why (a vote's detail).
 * Inline: it runs
 * for every OK vote; only a master some guard has something on pays more. */
int redlock__guard_judge(redlock__master *m, int64_t now, const char **why);
static inline int redlock__guard_counts(redlock__master *m, int64_t now, const char **why)
{
    const redlock__guard *g = &m->guard;
    if (g->clear_ttl == m->net->max_ttl_ms ||
        (g->uptime_s < 0 && !g->jump_at_us && !g->failover_at_us &&
         !(g->config && m->net->strict)))
        return 1;
    return redlock__guard_judge(m, now, why);
}
/* 1 when master m may have lost keys written to it before `since_us` (the
 * client's clock) through no one's command: another run of it (a restart:
 * a new run_id read after then) or a failover in its cluster since.
 * A master whose INFO is refused is never thought restarted. */
static inline int redlock__master_renewed_since(const redlock__master *m, int64_t since_us)
{
    return m->guard.run_seen_us > since_us || m->guard.failover_at_us > since_us;
}
/* REDLOCK_GUARD_* bits at `now`, *counted, and *until_us: the end of the
 * window that keeps it out (0: none; -1: its configuration, strict). */
unsigned redlock__guard_flags(const redlock__master *m, int64_t now, int *counted,
                              int64_t *until_us);
/* The guards' findings in words, for the node stats. */
const char *redlock__guard_text(redlock__master *m, int64_t now);
/* Master `node` of all[0 .. n) read its run_id (`old`: the one it had
 * before, "" none): who is whose twin now (the same server twice). */
void redlock__guard_twins(redlock__master *all, size_t n, size_t node, const char *old);
/* Why master m's answer is no vote: it is the same server as master
 * number `other` (a detail, in m's guard text buffer). */
const char *redlock__guard_twin_why(redlock__master *m, size_t other);
/* A cluster's master took over slots another master had (a failover, or a
 * migration that may have been one) at `now`: the restart guard's window
 * keeps its OK votes out, durable or not; `text` says what was seen.
 * `replica`: it was the old master's replica, so that with replica_acks
 * it holds every lock granted there and needs no window (0: a new server
 * at an address: a window always). */
void redlock__guard_failover(redlock__master *m, int64_t now, const char *text, int replica);
/* Reconnect now if the master is down and its back-off has passed. */
void redlock__master_kick(redlock__master *m);

#endif /* REDLOCK_MASTER_H */
