/* redlock_private.h -- what the library's .c files share; never installed.
 *
 * Data flow of one operation (see docs/design.md):
 *
 *   redlock.c   acquire/extend/release policy, retries, blocking wrappers
 *       │ redlock__op_start(spec)
 *   fanout.c    one operation: the same command to every node, one vote per
 *       │       node (classified reply), quorum.c decides, one timer
 *   node.c      one connection per node: bufferevent, pipelined FIFO of
 *               pending requests, RESP reader, reconnect with back-off
 */
#ifndef REDLOCK_PRIVATE_H
#define REDLOCK_PRIVATE_H

#include <stdint.h>
#include <stddef.h>
#include <event2/event.h>
/* ops and nodes embed their timers: no allocation per timer */
#include <event2/event_struct.h>
#include "redlock.h"

struct bufferevent;
struct redisReader;

/* One reply, as node.c's reader builds it without allocating: type is a
 * REDIS_REPLY_* value (status, error, string, integer or nil; arrays are
 * refused).  str points into the node and is valid during dispatch only. */
typedef struct redlock__reply {
    int type;
    long long integer;
    const char *str;
    size_t len;
} redlock__reply;

/* ---- quorum.c: pure vote counting ------------------------------------ */

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

typedef struct redlock__tally {
    unsigned n;                        /* nodes */
    unsigned quorum;                   /* n/2 + 1 */
    unsigned count[REDLOCK__NVOTES];   /* votes by kind, PENDING included */
} redlock__tally;

/* A win needs at least this much validity left (so that a success never
 * reads 0 ms of validity). */
#define REDLOCK__MIN_VALIDITY_US 1000
/* ... plus this when the result is handed over, so that the callback's own
 * reading, a moment later, still finds >= 1 ms. */
#define REDLOCK__HANDOVER_US 200

void redlock__tally_init(redlock__tally *t, unsigned n);
void redlock__tally_set(redlock__tally *t, enum redlock__vote from, enum redlock__vote to);
enum redlock__decision redlock__decide(const redlock__tally *t, int64_t validity_us);
int redlock__failure_code(const redlock__tally *t);
/* 1 when refusals alone leave fewer than a quorum of nodes that may still
 * hold the value: the lock is certainly lost. */
int redlock__refused_quorum(const redlock__tally *t);

/* ---- clock.c: time, drift, validity ---------------------------------- */

int64_t redlock__clock_default(void *privdata);
int64_t redlock__drift_us(int64_t ttl_ms, double factor, int64_t min_ms);
int64_t redlock__validity_us(int64_t start_us, int64_t now_us, int64_t ttl_ms, int64_t drift_us);
int64_t redlock__ms_floor(int64_t us);
/* a + b without overflow (clamped to INT64_MAX); both >= 0 */
int64_t redlock__add_sat(int64_t a, int64_t b);

/* ---- addr.c: node address parsing ------------------------------------ */

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

/* ---- script.c: Lua scripts, SHA-1, RESP encoding --------------------- */

enum { REDLOCK__SCRIPT_RELEASE, REDLOCK__SCRIPT_EXTEND, REDLOCK__NSCRIPTS };

extern const char *const redlock__script_body[REDLOCK__NSCRIPTS];
void redlock__sha1_hex(const void *data, size_t len, char out[41]);

/* A growable byte buffer for encoded commands. */
typedef struct redlock__buf {
    char *p;
    size_t len, cap;
} redlock__buf;

int redlock__buf_reserve(redlock__buf *b, size_t extra);
/* Decimal digits of v (at most 20, no terminator); returns how many. */
size_t redlock__u64_str(char *out, uint64_t v);
void redlock__buf_free(redlock__buf *b);
/* Append one RESP command of argc arguments. 0 or REDLOCK_ENOMEM. */
int redlock__resp_command(redlock__buf *b, int argc, const char *const *argv,
                          const size_t *argvlen);

/* ---- fanout.c: one operation over every node ------------------------- */

typedef struct redlock__op redlock__op;

/* What an operation sends and how it judges replies. */
typedef struct redlock__op_kind {
    const char *name;                 /* "acquire", for messages */
    int wait_all;                     /* 0: decide at quorum; 1: wait all */
    /* A release: never refused by max_pending, and owed to a node that
     * it could not reach (see redlock__node_undo). */
    int is_release;
    /* Encode the command (into op->cmd); `eval` asks for the EVAL form
     * after a NOSCRIPT reply. */
    int (*encode)(redlock__op *op, redlock__buf *out, int eval);
    /* Classify a reply: a vote, or -1 for "NOSCRIPT, resend as EVAL". */
    int (*classify)(const redlock__reply *r);
} redlock__op_kind;

typedef void redlock__op_done(redlock__op *op, void *privdata);

#define REDLOCK__DETAIL 112               /* bytes of one node's failure text */

struct redlock__op {
    redlock_client *c;
    const redlock__op_kind *kind;
    redlock__op *next;                /* free list / client's live list */
    redlock__op *prev;
    int refs;                         /* 1 while undecided + 1 per queued request */
    unsigned decided : 1;
    unsigned starting : 1;            /* inside redlock__op_start */
    unsigned deferred : 1;            /* completion was deferred to the loop */
    unsigned cancelled : 1;           /* decided by redlock__op_cancel_all */
    unsigned expired : 1;             /* lost because validity ran out */
    unsigned full_wait : 1;           /* the timer waits the whole node timeout */
    unsigned rearmed : 1;             /* waited again for requests that left late */
    enum redlock__decision decision;
    int64_t start_us;
    unsigned clock_steps;             /* the client's, at the start */
    int64_t ttl_ms;                   /* 0 when the operation has no ttl */
    int64_t drift_us;
    int64_t limit_us;                 /* absolute deadline, 0 = none */
    redlock__tally tally;
    struct event timer;
    redlock__op_done *done;
    void *done_privdata;
    /* The key and value, owned by the op (the lock may be freed first). */
    redlock__buf data;
    size_t keylen, valuelen;
    redlock__buf cmd;                 /* the encoded command, same for all */
    char err[160];                    /* first failure reason, or "" */
    unsigned char *votes;             /* n votes */
    unsigned char *evaled;            /* n flags: resent as EVAL once */
    unsigned char *late;              /* n flags: left > 1 ms after the start */
    /* n connection serials (redlock__node.gen): for a request that wrote a
     * key, the connection it left on (0: never sent); for a release, the
     * connection of the SET it undoes (0: nothing to undo there). */
    uint32_t *gen;
    int64_t *rtt;                     /* n request-to-reply times, -1 */
    char (*detail)[REDLOCK__DETAIL];  /* n failure texts, "" */
};

redlock__op *redlock__op_new(redlock_client *c, const redlock__op_kind *kind,
                             const void *key, size_t keylen,
                             const void *value, size_t valuelen, int64_t ttl_ms);
/* Send to every node and arm the timer; `done` runs once, never inside. */
void redlock__op_start(redlock__op *op, redlock__op_done *done, void *privdata);
/* Node i answered (reply) or failed (vote given, reply NULL). */
void redlock__op_reply(redlock__op *op, size_t node, const redlock__reply *r);
void redlock__op_fail(redlock__op *op, size_t node, enum redlock__vote v, const char *why);
void redlock__op_unref(redlock__op *op);
/* Node i never answered op's request (not sent, or the connection was
 * lost first): a release is then owed to that node. */
void redlock__op_undelivered(redlock__op *op, size_t node);
/* Client is going away: decide every live op as cancelled. */
void redlock__op_cancel_all(redlock_client *c);
void redlock__op_pool_free(redlock_client *c);
int64_t redlock__op_validity_us(const redlock__op *op, int64_t now_us);

/* ---- node.c: one connection per master ------------------------------- */

enum redlock__node_state {
    REDLOCK__NODE_DOWN,          /* waiting for the back-off timer */
    REDLOCK__NODE_CONNECTING,    /* TCP connect + handshake in flight */
    REDLOCK__NODE_UP
};

enum redlock__slot_kind {
    REDLOCK__SLOT_OP,          /* an operation's request */
    REDLOCK__SLOT_HANDSHAKE,   /* AUTH, SELECT, PING: an error drops the node */
    REDLOCK__SLOT_OPTIONAL,    /* SCRIPT LOAD, CLIENT KILL: the reply is ignored */
    REDLOCK__SLOT_CLIENT_ID,   /* CLIENT INFO: remembered, error ignored */
    REDLOCK__SLOT_UNDO         /* an undo: owed again if the connection is lost */
};

struct redlock__owed;

typedef struct redlock__slot {
    redlock__op *op;           /* REDLOCK__SLOT_OP only */
    struct redlock__owed *undo;   /* REDLOCK__SLOT_UNDO only: owned */
    int kind;                  /* enum redlock__slot_kind */
} redlock__slot;

/* A release owed to a node it could not reach: sent (behind a CLIENT KILL
 * of the connection that carried the SET, when known) once it is back. */
typedef struct redlock__conn_ref {
    uint32_t gen;              /* our serial of the connection */
    long long id;              /* the server's CLIENT ID, 0 if unknown */
    char addr[64];             /* the peer address the server saw */
} redlock__conn_ref;

typedef struct redlock__owed {
    size_t keylen, valuelen;
    uint32_t set_gen;          /* the connection that carried the SET */
    unsigned tries;            /* error replies so far */
    char kv[];                 /* key then value (one allocation) */
} redlock__owed;

#define REDLOCK__CONN_HISTORY 8    /* connections remembered for undos */

typedef struct redlock__node {
    redlock_client *c;
    size_t index;
    redlock__addr addr;
    char *label;                       /* host:port or path, no secrets */
    enum redlock__node_state state;
    struct bufferevent *bev;
    struct redisReader *reader;
    void *reader_fn;                   /* our reply functions (no malloc) */
    redlock__reply reply;              /* the reply being dispatched */
    char reply_small[128];             /* its text when short ... */
    char *reply_big;                   /* ... else a heap copy */
    int refused_array;                 /* the reader failed on an array */
    uint32_t gen;                      /* serial of the current connection */
    redlock__conn_ref hist[REDLOCK__CONN_HISTORY];   /* recent connections */
    unsigned hist_next;
    redlock__owed **owed;              /* undos owed to this node */
    size_t nowed, owed_cap;
    redlock__slot *slots;              /* ring buffer of pending requests */
    size_t head, count, cap;
    unsigned handshake_left;           /* handshake replies still due */
    struct event retry_timer;
    struct event connect_timer;
    struct event stall_ev;             /* drop a node that stopped answering */
    struct event undo_timer;           /* resend undos refused with an error */
    struct event flush_ev;             /* write `out` once per loop turn */
    redlock__buf out;                  /* requests not yet written */
    size_t unflushed;                  /* slots of the requests in `out` */
    int64_t out_since_us;              /* start of the oldest op in `out`, or 0 */
    int64_t backoff_ms;
    int64_t retry_at_us;               /* when DOWN: next connect allowed */
    int timeouts_in_row;               /* since the last reply */
    int tcp_up;                        /* the socket is connected */
    unsigned attempts;                 /* connection attempts so far */
    char lasterr[160];
    char told[160];                    /* the last DOWN reason reported */
    redlock_node_stats stats;          /* counters; strings set on read */
} redlock__node;

int redlock__node_init(redlock__node *n, redlock_client *c, size_t index);
void redlock__node_connect(redlock__node *n);
void redlock__node_close(redlock__node *n);
/* Queue `len` bytes as one request for op (ref taken); failures are
 * reported to the op at once with redlock__op_fail. */
void redlock__node_send(redlock__node *n, redlock__op *op, const char *buf, size_t len);
/* A request to this node timed out: after max_timeouts in a row, reconnect. */
void redlock__node_timed_out(redlock__node *n);
/* Undo a SET that left on connection `gen`: compare-and-delete key/value
 * on this node, after killing that connection on the server if it is not
 * the current one; owed until the node is back if it is not up. */
void redlock__node_undo(redlock__node *n, uint32_t gen, const char *key, size_t keylen,
                        const char *value, size_t valuelen);

/* ---- tls.c: TLS context and connections ----------------------------- */

int redlock__tls_init(redlock_client *c, char *err, size_t errlen);
void redlock__tls_free(redlock_client *c);
struct bufferevent *redlock__tls_bev_new(redlock__node *n);
/* Describe why a TLS connection failed (certificate, handshake). */
int redlock__tls_describe(struct bufferevent *bev, char *buf, size_t len);

/* ---- redlock.c: the client ------------------------------------------- */

struct redlock_client {
    struct event_base *base;
    int own_base;
    redlock_options opt;
    char *key_prefix;
    size_t prefixlen;
    size_t n;
    redlock__node *nodes;
    redlock__op *free_ops;           /* pooled operations */
    redlock__op *live_ops;           /* undecided operations */
    redlock_lock *locks;             /* every live lock handle */
    unsigned depth;                  /* library frames on the stack */
    int closing;                     /* redlock_client_free was called */
    int in_node_cb;                  /* inside the application's node_cb */
    uint64_t rng;                    /* xorshift state for retry jitter */
    char sha[REDLOCK__NSCRIPTS][41]; /* SHA-1 of each script, for EVALSHA */
    void *ssl_ctx;                   /* SSL_CTX when a node uses TLS */
    char *tls_server_name;           /* copy of the option, or NULL */
    const struct timeval *node_timeout_tv;   /* libevent common timeout */
    int64_t last_raw;                /* the clock's latest reading */
    int64_t clock_offset;            /* added to it: the steps back so far */
    int64_t loop_time_fixed_us;      /* when libevent's cached time was refreshed */
    unsigned clock_steps;            /* times the clock was seen going back */
};

/* Every libevent callback into the library brackets its work with these,
 * so that a client freed from a user callback is destroyed only when the
 * stack has unwound.  leave() returns 1 when the client is gone. */
void redlock__enter(redlock_client *c);
int redlock__leave(redlock_client *c);
/* The clock; a reading below the previous one counts in clock_steps. */
int64_t redlock__now(redlock_client *c);
/* Arm a timer `us` from now, "now" being the real time, not the loop's
 * cached time (stale after a long callback). */
void redlock__timer_add(redlock_client *c, struct event *ev, int64_t us);
/* Make libevent's cached loop time current (to within 1 ms); `now` is a
 * reading of redlock__now() just taken. */
void redlock__fresh_loop_time(redlock_client *c, int64_t now);
void redlock__node_event(redlock_client *c, size_t node, int event, const char *detail);

#endif /* REDLOCK_PRIVATE_H */
