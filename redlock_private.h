/* Copyright (c) 2026, the redlock authors.  SPDX-License-Identifier: BSD-3-Clause (see LICENSE). */
/* redlock_private.h -- what the library's .c files share; never installed.
 *
 * Layers, top to bottom; calls go down, results come back up through
 * callbacks (docs/design.md has the data flow of one acquire):
 *
 *   redlock.c sync.c    public handles: the client, blocking wrappers
 *   lock.c              a lock handle: attempts, retries, extend, release
 *   mutex.c probe.c     kinds: what an operation sends, how replies vote
 *   fanout.c            one operation over every master, quorum.c decides
 *   master.c            one master: its connection(s), undos, clock samples
 *   conn.c              one connection: handshake, queue of callbacks
 *   resp.c loop.c       RESP encoder and reader; loop bracket, clock, timers
 *
 * quorum.c, clock.c, addr.c and script.c are pure helpers any layer uses.
 */
#ifndef REDLOCK_PRIVATE_H
#define REDLOCK_PRIVATE_H

#include <stdint.h>
#include <stddef.h>
#include <string.h>
#include <time.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <event2/event.h>
/* ops and nodes embed their timers: no allocation per timer */
#include <event2/event_struct.h>
#include "redlock.h"
#include "resp.h"

struct bufferevent;

/* Compatibility: the sizes of the public structs as 0.1.0 laid them out
 * (programs built against that header call the unsuffixed functions). */
#define REDLOCK__OPTIONS_V0_SIZE offsetof(redlock_options, clock_probe_ms)
#define REDLOCK__STATS_V0_SIZE offsetof(redlock_node_stats, fulls)
#define REDLOCK__RESULT_V0_SIZE sizeof(redlock_node_result)

/* ---- a doubly linked list (intrusive, with a sentinel) ----------------- */

typedef struct redlock__link {
    struct redlock__link *next, *prev;
} redlock__link;

static inline void redlock__list_init(redlock__link *head)
{
    head->next = head->prev = head;
}

static inline void redlock__list_add(redlock__link *head, redlock__link *e)
{
    e->next = head->next;
    e->prev = head;
    head->next->prev = e;
    head->next = e;
}

static inline void redlock__list_del(redlock__link *e)
{
    if (e->next) {
        e->next->prev = e->prev;
        e->prev->next = e->next;
    }
    e->next = e->prev = NULL;
}

static inline int redlock__list_empty(const redlock__link *head)
{
    return head->next == head;
}

#define redlock__container(ptr, type, member) \
    ((type *)(void *)((char *)(ptr) - offsetof(type, member)))

/* ---- quorum.c: pure vote counting and decision rules ------------------- */

/* One node's vote in one operation (the same numbers as REDLOCK_VOTE_*). */
enum redlock__vote {
    REDLOCK__PENDING = 0,
    REDLOCK__OK,        /* did what was asked (SET, deleted, extended)     */
    REDLOCK__REFUSED,   /* held by someone else / not our value            */
    REDLOCK__TIMEOUT,   /* no reply within the node timeout                */
    REDLOCK__DOWN,      /* not connected, or the connection was lost       */
    REDLOCK__ERROR,     /* the server answered an error                    */
    REDLOCK__FULL,      /* not sent: the node's queue held max_pending     */
    REDLOCK__NVOTES
};

enum redlock__decision {
    REDLOCK__UNDECIDED = 0,
    REDLOCK__WON,
    REDLOCK__LOST
};

/* How an operation is decided.  `need` OK votes win it: */
enum redlock__rule_kind {
    REDLOCK__RULE_MAJORITY,  /* n/2 + 1, decided the moment it is known */
    REDLOCK__RULE_COUNT,     /* `count` of n (a semaphore's quorum)      */
    REDLOCK__RULE_ALL,       /* every node                               */
    REDLOCK__RULE_ANY,       /* one node                                 */
    REDLOCK__RULE_WAIT_ALL   /* a majority, but decided only when every
                              * node answered (or timed out)             */
};

typedef struct redlock__rule {
    enum redlock__rule_kind kind;
    unsigned count;          /* REDLOCK__RULE_COUNT only */
} redlock__rule;

typedef struct redlock__tally {
    unsigned n;                        /* nodes */
    unsigned quorum;                   /* OK votes that win */
    unsigned wait_all;                 /* decide only when none is pending */
    unsigned count[REDLOCK__NVOTES];   /* votes by kind, PENDING included */
} redlock__tally;

/* A win needs at least this much validity left (so that a success never
 * reads 0 ms of validity). */
#define REDLOCK__MIN_VALIDITY_US 1000
/* ... plus this when the result is handed over, so that the callback's own
 * reading, a moment later, still finds >= 1 ms. */
#define REDLOCK__HANDOVER_US 200

/* 0, or REDLOCK_EINVAL when the rule cannot be met by n nodes. */
int redlock__tally_init(redlock__tally *t, unsigned n, redlock__rule rule);
/* Move one vote from `from` to `to` (inline: it runs for every vote). */
static inline void redlock__tally_set(redlock__tally *t, enum redlock__vote from,
                                      enum redlock__vote to)
{
    if (from == to || t->count[from] == 0)
        return;
    t->count[from]--;
    t->count[to]++;
}
enum redlock__decision redlock__decide(const redlock__tally *t, int64_t validity_us);
int redlock__failure_code(const redlock__tally *t);
/* 1 when refusals alone leave fewer than a quorum of nodes that may still
 * hold the value: the lock is certainly lost. */
int redlock__refused_quorum(const redlock__tally *t);
/* "The maximum of a quorum's values": 1 and *out = the largest value among
 * the nodes that voted OK, when at least `quorum` did; else 0. */
int redlock__max_of_ok(const unsigned char *votes, const int64_t *values, size_t n,
                       unsigned quorum, int64_t *out);

/* ---- clock.c: time, drift, validity ------------------------------------ */

/* The default clock (why BOOTTIME: clock.c), in microseconds.  Inline:
 * it is read for every reply. */
static inline int64_t redlock__clock_read(void)
{
    struct timespec ts;
#ifdef CLOCK_BOOTTIME
    if (clock_gettime(CLOCK_BOOTTIME, &ts) == 0)
        return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
#endif
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}
/* redlock__clock_read as a redlock_clock_fn */
int64_t redlock__clock_default(void *privdata);
int64_t redlock__drift_us(int64_t ttl_ms, double factor, int64_t min_ms);
int64_t redlock__validity_us(int64_t start_us, int64_t now_us, int64_t ttl_ms, int64_t drift_us);
int64_t redlock__ms_floor(int64_t us);
/* a + b without overflow (clamped to INT64_MAX); both >= 0 */
int64_t redlock__add_sat(int64_t a, int64_t b);
/* us (>= 0; negative counts as 0) as a timeval */
struct timeval redlock__tv(int64_t us);

/* ---- addr.c: node address parsing -------------------------------------- */

#define REDLOCK__UNIX_PATH_MAX 107   /* sockaddr_un's sun_path, less the NUL */
#define REDLOCK__HOST_MAX 255        /* longest DNS name */

typedef struct redlock__addr {
    char *host;        /* NULL for unix sockets */
    int port;
    char *path;        /* unix socket path, else NULL */
    char *user;        /* ACL user or NULL */
    char *password;    /* or NULL; wiped on free */
    int db;            /* -1: no SELECT */
    int tls;           /* rediss:// */
} redlock__addr;

int redlock__addr_parse(redlock__addr *a, const char *s, char *err, size_t errlen);
void redlock__addr_free(redlock__addr *a);

/* ---- script.c: Lua scripts and their SHA-1 ----------------------------- */

enum { REDLOCK__SCRIPT_RELEASE, REDLOCK__SCRIPT_EXTEND, REDLOCK__NSCRIPTS };

/* Every script a kind uses: masters load them all at each handshake. */
extern const char *const redlock__script_body[REDLOCK__NSCRIPTS];
void redlock__sha1_hex(const void *data, size_t len, char out[41]);

/* ---- resp.c: RESP encoding (the reader is in resp.h) ------------------- */

/* A growable byte buffer for encoded commands. */
typedef struct redlock__buf {
    char *p;
    size_t len, cap;
} redlock__buf;

/* Room for `extra` more bytes: 0, or ENOMEM (b unchanged). */
int redlock__buf_grow(redlock__buf *b, size_t extra);
static inline int redlock__buf_reserve(redlock__buf *b, size_t extra)
{
    return extra <= b->cap - b->len ? 0 : redlock__buf_grow(b, extra);
}
/* Decimal digits of v (at most 20, no terminator); returns how many. */
size_t redlock__u64_str(char *out, uint64_t v);
void redlock__buf_free(redlock__buf *b);
/* Append one RESP command of argc arguments. 0 or REDLOCK_ENOMEM. */
int redlock__resp_command(redlock__buf *b, int argc, const char *const *argv,
                          const size_t *argvlen);

/* ---- loop.c: the loop bracket, the client's clock, timers -------------- */

typedef struct redlock__loop {
    struct event_base *base;
    unsigned depth;                  /* library frames on the stack */
    int closing;                     /* the owner is being freed */
    redlock_clock_fn *clock;
    void *clock_privdata;
    int64_t last_raw;                /* the clock's latest reading */
    int64_t clock_offset;            /* added to it: the steps back so far */
    int64_t fixed_us;                /* when libevent's cached time was refreshed */
    unsigned clock_steps;            /* times the clock was seen going back */
    void (*destroy)(void *owner);    /* run by the last leave once closing */
    void *owner;
} redlock__loop;

/* Every libevent callback into the library brackets its work with these,
 * so that a client freed from a user callback is destroyed only when the
 * stack has unwound.  leave() returns 1 when the owner is gone. */
void redlock__enter(redlock__loop *l);
int redlock__leave(redlock__loop *l);
/* The clock; a reading below the previous one counts in clock_steps. */
int64_t redlock__now(redlock__loop *l);
/* Arm a timer `us` from now, "now" being the real time, not the loop's
 * cached time (stale after a long callback). */
void redlock__timer_add(redlock__loop *l, struct event *ev, int64_t us);
/* Make libevent's cached loop time current (to within 1 ms); `now` is a
 * reading of redlock__now() just taken. */
void redlock__fresh_loop_time(redlock__loop *l, int64_t now);

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
} redlock__net;

/* A request's answer: r is the reply, or NULL when none will come (the
 * connection was lost, or the request never left); then `why` says why. */
typedef void redlock__reply_fn(void *privdata, size_t tag, const redlock__reply *r,
                               const char *why);

typedef struct redlock__slot {
    redlock__reply_fn *fn;
    void *privdata;
    size_t tag;
    unsigned char *late;       /* set to 1 if the request leaves late, or NULL */
    unsigned required : 1;     /* handshake: an error reply drops the connection */
    unsigned handshake : 1;
} redlock__slot;

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
    unsigned attempts;                 /* connection attempts so far */
    char lasterr[160];
    char told[160];                    /* the last DOWN reason reported */
};

void redlock__conn_init(redlock__conn *cn, const redlock__net *net, const redlock__addr *addr,
                        const char *label, const redlock__conn_owner *own);
void redlock__conn_connect(redlock__conn *cn);
void redlock__conn_close(redlock__conn *cn);
/* Double the ring of slots (its capacity stays a power of two); 0 or ENOMEM. */
int redlock__conn_slot_grow(redlock__conn *cn);

/* A request's slot, in the order the requests go out on the wire. */
static inline int redlock__conn_slot_push(redlock__conn *cn, const redlock__slot *sl)
{
    if (cn->count == cn->cap && redlock__conn_slot_grow(cn) != 0)
        return REDLOCK_ENOMEM;
    cn->slots[(cn->head + cn->count) & (cn->cap - 1)] = *sl;
    cn->count++;
    return 0;
}

/* Queue an encoded request (`len` bytes) with its slot; 0 or ENOMEM.
 * `since_us` is when its operation started (late-departure detection).
 * Inline: every request of every operation goes through it. */
static inline int redlock__conn_send(redlock__conn *cn, const char *buf, size_t len,
                                     const redlock__slot *sl, int64_t since_us)
{
    size_t before = cn->out.len;

    if (redlock__buf_reserve(&cn->out, len) != 0 || redlock__conn_slot_push(cn, sl) != 0)
        return REDLOCK_ENOMEM;
    /* Requests made in one turn of the loop leave together, once, after the
     * callbacks that made them: one write per connection per turn. */
    if (!cn->out_since_us)
        cn->out_since_us = since_us;
    memcpy(cn->out.p + cn->out.len, buf, len);
    cn->out.len += len;
    cn->unflushed++;
    if (before == 0 && cn->state == REDLOCK__CONN_UP)
        event_active(&cn->flush_ev, EV_WRITE, 1);
    return 0;
}
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
/* 1 when a request may be queued now (up, or on its first attempt). */
int redlock__conn_accepts(redlock__conn *cn);

/* ---- dial.c: resolve, socket, handshake ------------------------------- */

struct sockaddr_storage;
/* 0, or -1 with cn->lasterr set. */
int redlock__dial_resolve(redlock__conn *cn, struct sockaddr_storage *ss, socklen_t *sslen);
/* A non-blocking, close-on-exec stream socket, or -1 (errno). */
evutil_socket_t redlock__dial_socket(int family);
/* Queue the connection's AUTH/SELECT/PING and the owner's steps, in front
 * of everything; 0 or ENOMEM. */
int redlock__dial_handshake(redlock__conn *cn);

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
    redlock__conn_ref hist[REDLOCK__CONN_HISTORY];   /* recent connections */
    unsigned hist_next;
    redlock__owed **owed;              /* undos owed to this master */
    size_t nowed, owed_cap;
    struct event undo_timer;           /* resend undos refused with an error */
    redlock__clock_sample clock;
    int64_t hello_time_us;             /* when the handshake's TIME left */
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
} redlock__req;

int redlock__master_init(redlock__master *m, const redlock__net *net, size_t index,
                         const char *address, char *err, size_t errlen);
void redlock__master_close(redlock__master *m);
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
    if (redlock__conn_send(cn, buf, len, &req->slot, req->since_us) != 0) {
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
/* A TIME reply read `sent_us` .. `now_us` (client clock): 0 and recorded,
 * or -1 when it is not a TIME reply. */
int redlock__master_time(redlock__master *m, const redlock__reply *r, int64_t sent_us,
                         int64_t now_us);
/* Parse a TIME reply into microseconds; 0 or -1. */
int redlock__time_parse(const redlock__reply *r, int64_t *us);
int redlock__master_up(const redlock__master *m);

/* ---- fanout.c: one operation over every master ------------------------- */

typedef struct redlock__op redlock__op;

/* The masters and what every operation over them shares. */
typedef struct redlock__fleet {
    redlock__loop *loop;
    redlock__master *masters;
    size_t n;
    int64_t node_timeout_us;
    const struct timeval *node_timeout_tv;   /* libevent common timeout */
    int closing;
    char sha[REDLOCK__NSCRIPTS][41];         /* SHA-1 of each script */
    redlock__op *free_ops;                   /* pooled operations */
    redlock__link live;                      /* undelivered operations */
} redlock__fleet;

/* Kind flags. */
#define REDLOCK__KIND_WRITES   1   /* note each node's connection (for undos) */
#define REDLOCK__KIND_UNDOES   2   /* never refused by max_pending; owed to a
                                    * node it could not reach; kills the
                                    * written-on connection first */
#define REDLOCK__KIND_PER_NODE 4   /* encode() is called for each node */
#define REDLOCK__KIND_PROBE    8   /* not counted in the lock statistics */

/* What an operation sends and how it judges replies. */
typedef struct redlock__op_kind {
    const char *name;                 /* "acquire", for messages */
    redlock__rule rule;
    unsigned flags;
    /* Encode the command for `node` (or for all: node == SIZE_MAX) into
     * out; `eval` asks for the EVAL form after a NOSCRIPT reply. */
    int (*encode)(const redlock__op *op, size_t node, redlock__buf *out, int eval);
    /* A node's reply: its vote, or -1 for "NOSCRIPT, resend as EVAL".  It
     * may keep a value in op->value[node]. */
    int (*classify)(redlock__op *op, size_t node, const redlock__reply *r);
    /* The command that undoes this op's write on a node (or NULL). */
    int (*encode_undo)(const redlock__op *op, redlock__buf *out);
} redlock__op_kind;

/* What an operation carries: keys, then arguments, binary-safe. */
typedef struct redlock__op_args {
    size_t nkeys, nargs;
    const char *const *item;          /* nkeys + nargs pointers */
    const size_t *len;
    int64_t ttl_ms;                   /* 0: the operation has no ttl */
    int64_t drift_us;
    int64_t limit_us;                 /* absolute deadline, 0 = none */
} redlock__op_args;

typedef void redlock__op_done(redlock__op *op, void *privdata);

#define REDLOCK__DETAIL 112               /* bytes of one node's failure text */

typedef struct redlock__item {
    size_t off, len;
} redlock__item;

struct redlock__op {
    redlock__fleet *f;
    const redlock__op_kind *kind;
    redlock__op *next_free;
    redlock__link live;               /* in the fleet's list until delivered */
    int refs;                         /* 1 while undelivered + 1 per queued request */
    unsigned decided : 1;
    unsigned starting : 1;            /* inside redlock__op_start */
    unsigned deferred : 1;            /* completion was deferred to the loop */
    unsigned cancelled : 1;           /* decided by redlock__op_cancel_all */
    unsigned expired : 1;             /* lost because validity ran out */
    unsigned full_wait : 1;           /* the timer waits the whole node timeout */
    unsigned rearmed : 1;             /* waited again for requests that left late */
    enum redlock__decision decision;
    int64_t start_us;
    unsigned clock_steps;             /* the loop's, at the start */
    int64_t ttl_ms;
    int64_t drift_us;
    int64_t limit_us;
    redlock__tally tally;
    struct event timer;
    redlock__op_done *done;
    void *done_privdata;
    redlock__req req;                 /* what its requests share (fanout.c) */
    /* keys and arguments, owned by the op (the lock may be freed first) */
    redlock__buf data;
    redlock__item *items;
    size_t nkeys, nargs, items_cap;
    redlock__buf cmd;                 /* the encoded command, same for all */
    char err[160];                    /* first failure reason, or "" */
    unsigned char *votes;             /* n votes */
    unsigned char *evaled;            /* n flags: resent as EVAL once */
    unsigned char *late;              /* n flags: left late */
    /* n connection serials (redlock__conn.gen): for a write, the connection
     * it left on (0: never sent); for an undo, the connection of the write
     * it undoes (0: nothing to undo there). */
    uint32_t *gen;
    int64_t *rtt;                     /* n request-to-reply times, -1 */
    int64_t *value;                   /* n values a kind keeps, 0 */
    char (*detail)[REDLOCK__DETAIL];  /* n failure texts, "" */
};

/* Key or argument i (keys first). */
static inline const char *redlock__op_item(const redlock__op *op, size_t i, size_t *len)
{
    *len = op->items[i].len;
    return op->data.p + op->items[i].off;
}

redlock__op *redlock__op_new(redlock__fleet *f, const redlock__op_kind *kind,
                             const redlock__op_args *a);
/* Send to every node and arm the timer; `done` runs once, never inside. */
void redlock__op_start(redlock__op *op, redlock__op_done *done, void *privdata);
void redlock__op_unref(redlock__op *op);
/* Undo what op wrote: on every node its request may have reached. */
void redlock__op_undo(redlock__op *op);
/* The fleet is going away: decide every live op as cancelled. */
void redlock__op_cancel_all(redlock__fleet *f);
void redlock__op_pool_free(redlock__fleet *f);
int64_t redlock__op_validity_us(const redlock__op *op, int64_t now_us);

/* ---- tls.c: TLS context and connections -------------------------------- */

/* Called when some node uses TLS. */
int redlock__tls_init(void **ctx, const redlock_options *o, char *err, size_t errlen);
void redlock__tls_free(void **ctx);
struct bufferevent *redlock__tls_bev_new(const redlock__net *net, const redlock__addr *addr,
                                         evutil_socket_t fd);
/* Describe why a TLS connection failed (certificate, handshake). */
int redlock__tls_describe(struct bufferevent *bev, char *buf, size_t len);

#endif /* REDLOCK_PRIVATE_H */
